"""The director's side of the protocol: send one command through the broker, wait for the answer.

A command carries a fresh id and is resent with the same id until the
controller answers (it may be restarting): the controller applies it once and
answers a resend with the stored answer.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller import protocol
from controller.mqtt import Broker, client
from controller.protocol import Topics

#: seconds between resends of an unanswered command
RESEND = 2.0


class BrokerUnreachable(ConnectionError):
    """The broker cannot be reached (or refused us); ``str()`` says where and why."""


class NoAnswer(TimeoutError):
    """The controller did not answer in time."""


#: where the director's tools look for the broker account when $FLOORMAN_CREDENTIALS is
#: not set: the ``director.env`` of ``floorman broker-config``, mode 0600
DEFAULT_CREDENTIALS = "~/.config/floorman/director.env"
#: what a credentials file may set (``KEY=value`` lines; the rest is ignored)
CREDENTIAL_KEYS = ("FLOORMAN_USERNAME", "FLOORMAN_PASSWORD", "FLOORMAN_PREFIX",
                   "FLOORMAN_BROKER", "FLOORMAN_TLS_CA")


class CredentialsError(ValueError):
    """The credentials file cannot be used; ``str()`` says why and what to do."""


def credentials_path() -> Path | None:
    """``$FLOORMAN_CREDENTIALS``, else :data:`DEFAULT_CREDENTIALS` when it exists."""
    named = os.environ.get("FLOORMAN_CREDENTIALS")
    if named:
        return Path(named).expanduser()
    default = Path(DEFAULT_CREDENTIALS).expanduser()
    return default if default.exists() else None


def read_credentials(path: Path) -> dict[str, str]:
    """The ``KEY=value`` lines of a credentials file only its owner can read: refused
    (:class:`CredentialsError`) when it belongs to another user or its mode lets anyone
    else read or write it (the password is the director's: it pauses the clock, busts
    players)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise CredentialsError(f"{path}: no such credentials file") from None
    except OSError as exc:
        raise CredentialsError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    with os.fdopen(fd, encoding="utf-8") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise CredentialsError(f"{path}: not a file")
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            raise CredentialsError(f"{path}: belongs to another user; the director's "
                                   "password must be in a file of your own")
        if st.st_mode & 0o077:
            raise CredentialsError(f"{path}: others may read it (mode "
                                   f"{stat.S_IMODE(st.st_mode):04o}); chmod 600 {path}")
        text = f.read(64 * 1024)
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key in CREDENTIAL_KEYS:
            out[key] = value
    return out


def with_credentials(broker: Broker, path: Path | None = None, *,
                     address_given: bool = False, prefix_given: bool = False) -> Broker:
    """``broker`` with the account of the credentials file (:func:`credentials_path`) where
    the environment gave none: the file's user name and password, and its prefix, broker
    address and CA unless the command line or the environment named them."""
    path = path or credentials_path()
    if path is None:
        return broker
    c = read_credentials(path)
    env = os.environ
    if not env.get("FLOORMAN_PASSWORD") and c.get("FLOORMAN_PASSWORD"):
        broker = replace(broker, username=c.get("FLOORMAN_USERNAME") or broker.username,
                         password=c["FLOORMAN_PASSWORD"])
    if not prefix_given and not env.get("FLOORMAN_PREFIX") and c.get("FLOORMAN_PREFIX"):
        broker = replace(broker, prefix=c["FLOORMAN_PREFIX"])
    if not env.get("FLOORMAN_TLS_CA") and c.get("FLOORMAN_TLS_CA"):
        broker = replace(broker, tls_ca=str(Path(c["FLOORMAN_TLS_CA"]).expanduser()))
    if not address_given and not env.get("FLOORMAN_BROKER") and c.get("FLOORMAN_BROKER"):
        host, _, port = c["FLOORMAN_BROKER"].rpartition(":")
        if not port.isdigit():
            raise CredentialsError(f"{path}: FLOORMAN_BROKER must be host:port, got "
                                   f"{c['FLOORMAN_BROKER']!r}")
        broker = replace(broker, host=host or "localhost", port=int(port))
    return broker


def client_name(broker: Broker) -> str:
    """The director's client id and ``reply_to``: its broker user name when it logs in (the
    shipped broker binds the client id to the user name, ``use_username_as_clientid``, and
    lets each account read ``ack/<its name>`` only), else a fresh ``director-<hex>``."""
    user = broker.username
    if user and protocol.CLIENT_ID.match(user):
        return user
    return f"director-{uuid.uuid4().hex[:12]}"


def send(broker: Broker, cmd: str, args: dict[str, Any] | None = None, *,
         timeout: float = 10.0, command_id: str | None = None) -> dict[str, Any]:
    """Send a director command and return the controller's answer (``ok``, ``reason`` …)."""
    topics = Topics(broker.prefix)
    me = client_name(broker)
    cid = command_id or uuid.uuid4().hex
    payload = protocol.dumps({"v": 1, "id": cid, "reply_to": me, "cmd": cmd,
                              "args": args or {}})
    answer: dict[str, Any] = {}
    got = threading.Event()
    subscribed = threading.Event()
    refused: list[str] = []

    def on_connect(c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            refused.append(str(rc))
            return
        c.subscribe(topics.ack(me), 1)

    def on_subscribe(c: mqtt.Client, u: Any, mid: Any, rcs: Any, props: Any = None) -> None:
        subscribed.set()

    def on_message(c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            data = json.loads(msg.payload)
        except (ValueError, RecursionError):  # an exception here would end paho's thread
            return
        if isinstance(data, dict) and data.get("id") == cid:
            answer.update(data)
            got.set()

    c = client(broker, me)
    c.on_connect = on_connect
    c.on_subscribe = on_subscribe
    c.on_message = on_message
    try:
        c.connect(broker.host, broker.port, keepalive=30)
    except (OSError, ValueError) as exc:
        raise BrokerUnreachable(f"cannot reach the broker at {broker}: {exc}") from None
    c.loop_start()
    try:
        deadline = time.monotonic() + timeout
        while not subscribed.is_set():
            if refused:
                raise BrokerUnreachable(f"the broker at {broker} refused us: {refused[0]}")
            if time.monotonic() > deadline:
                raise BrokerUnreachable(f"no answer from the broker at {broker}")
            time.sleep(0.01)
        while not got.is_set():
            c.publish(topics.director, payload, 1)
            if got.wait(min(RESEND, max(0.0, deadline - time.monotonic()))):
                break
            if time.monotonic() >= deadline:
                raise NoAnswer(f"the controller did not answer within {timeout:.0f} s "
                               f"(is it running, with prefix {broker.prefix!r}?)")
        return answer
    finally:
        c.disconnect()
        c.loop_stop()
