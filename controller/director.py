"""The director's side of the protocol: send commands through the broker, wait for the answers.

A command carries a fresh id and is resent with the same id until the
controller answers (it may be restarting): the controller applies it once and
answers a resend with the stored answer.

Two ways to use it:

- :func:`send`: one command on a connection of its own (the ``floorman`` command line);
- :class:`Director`: a long-lived connection (the console, ``controller/console``) that
  sends commands one at a time and, with ``watch=True``, keeps the retained state the
  controller publishes (``state/…``) and the controller's presence. Commands and state
  share one connection, so when an answer arrives the state already shows its effect
  (docs/protocol.md, "Ordering").
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

# the topics, not the protocol's schemas: pydantic and the engine's command models take
# longer to import than a command takes to be answered (issue 32.3)
from controller.wire import topics as protocol
from controller.wire.mqtt import Broker, client
from controller.wire.topics import Topics

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


class Director:
    """One director connection: :meth:`send` commands; with ``watch``, :attr:`state` holds
    every retained ``state/<name>`` payload (``"clock"``, ``"table/3"`` …) and
    :attr:`controller_online` the controller's presence.

    ``on_change(name)`` is called from paho's thread after ``state/<name>`` changed
    (``"presence/controller"`` for the controller's presence, ``"link"`` when the
    connection to the broker came or went). Reconnects by itself (1 s doubling to 30 s)."""

    def __init__(self, broker: Broker, *, name: str | None = None, watch: bool = False,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.broker = broker
        self.topics = Topics(broker.prefix)
        self.name = name or client_name(broker)
        self.watch = watch
        self.on_change = on_change
        self.state: dict[str, dict[str, Any]] = {}
        self.controller_online: bool | None = None  #: None: not heard yet
        self.refused: str | None = None  #: why the broker refused us, if it did
        self._answers: dict[str, dict[str, Any]] = {}
        self._waiting: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._one_at_a_time = threading.Lock()  # commands keep their order (protocol.md)
        self._subscribed = threading.Event()
        self._closed = False
        self._client = c = client(broker, self.name)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message

    # ------------------------------------------------------------------ lifecycle
    @property
    def connected(self) -> bool:
        """Connected and subscribed: a command sent now gets its answer."""
        return self._subscribed.is_set()

    def connect(self, timeout: float = 10.0) -> Director:
        """Connect now; :class:`BrokerUnreachable` when the broker cannot be reached, refuses
        us or does not confirm the subscription within ``timeout`` seconds."""
        try:
            self._client.connect(self.broker.host, self.broker.port, keepalive=30)
        except (OSError, ValueError) as exc:
            raise BrokerUnreachable(f"cannot reach the broker at {self.broker}: {exc}") from None
        self._client.loop_start()
        deadline = time.monotonic() + timeout
        while not self._subscribed.wait(0.01):
            if self.refused:
                self.close()
                raise BrokerUnreachable(f"the broker at {self.broker} refused us: "
                                        f"{self.refused}")
            if time.monotonic() > deadline:
                self.close()
                raise BrokerUnreachable(f"no answer from the broker at {self.broker}")
        return self

    def start(self) -> Director:
        """Connect in the background (the broker may not be there yet) and keep connecting."""
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self._client.loop_start()
        return self

    def close(self) -> None:
        """Disconnect; a :meth:`send` still waiting raises :class:`NoAnswer` at once."""
        self._closed = True
        with self._lock:
            for got in self._waiting.values():
                got.set()
        self._client.disconnect()
        self._client.loop_stop()

    def publish_retained(self, topic: str, payload: bytes, *, wait: float = 0.0) -> None:
        """Publish a retained message (QoS 1) on ``topic`` (a whole topic, under the prefix:
        the console's public address, ``P/console/public``); ``wait``: seconds to wait
        until the broker has it (0: do not wait). An empty payload deletes it."""
        info = self._client.publish(topic, payload, 1, True)
        if wait > 0:
            try:
                info.wait_for_publish(wait)
            except (RuntimeError, ValueError):  # not connected: the broker keeps the old one
                pass

    def __enter__(self) -> Director:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------- commands
    def send(self, cmd: str, args: dict[str, Any] | None = None, *, timeout: float = 10.0,
             command_id: str | None = None) -> dict[str, Any]:
        """Send a director command and return the controller's answer (``ok``, ``reason``
        …); resent every :data:`RESEND` seconds until answered. :class:`NoAnswer` after
        ``timeout`` seconds."""
        cid = command_id or uuid.uuid4().hex
        payload = protocol.dumps({"v": 1, "id": cid, "reply_to": self.name, "cmd": cmd,
                                  "args": args or {}})
        got = threading.Event()
        deadline = time.monotonic() + timeout
        with self._one_at_a_time:
            with self._lock:
                if self._closed:
                    raise NoAnswer("the director's connection is closed")
                self._waiting[cid] = got
            try:
                while not got.is_set():
                    if self._subscribed.is_set():
                        self._client.publish(self.topics.director, payload, 1)
                        wait = RESEND
                    else:  # not connected: the command goes out once we are
                        wait = 0.05
                    if got.wait(min(wait, max(0.0, deadline - time.monotonic()))):
                        break
                    if time.monotonic() >= deadline:
                        raise NoAnswer(f"the controller did not answer within {timeout:.0f} s "
                                       f"(is it running, with prefix {self.broker.prefix!r}?)")
                with self._lock:
                    if cid not in self._answers:  # woken by close()
                        raise NoAnswer("the director's connection was closed")
                    return self._answers.pop(cid)
            finally:
                with self._lock:
                    self._waiting.pop(cid, None)
                    self._answers.pop(cid, None)

    # ---------------------------------------------------------------- paho thread
    def _on_connect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None
                    ) -> None:
        if rc.is_failure:
            self.refused = str(rc)
            return
        self.refused = None
        subs = [(self.topics.ack(self.name), 1)]
        if self.watch:
            subs += [(self.topics.state("#"), 1), (self.topics.presence("controller"), 1)]
        c.subscribe(subs)

    def _on_subscribe(self, c: mqtt.Client, u: Any, mid: Any, rcs: Any, props: Any = None
                      ) -> None:
        self._subscribed.set()
        self._changed("link")

    def _on_disconnect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None
                       ) -> None:
        self._subscribed.clear()
        self._changed("link")

    def _changed(self, name: str) -> None:
        if self.on_change is not None:
            self.on_change(name)

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        # an exception here would end paho's thread: bad payloads are dropped
        try:
            data = json.loads(msg.payload) if msg.payload else None
        except (ValueError, RecursionError):
            return
        if data is not None and not isinstance(data, dict):
            return
        state_prefix = self.topics.state("")
        if msg.topic.startswith(state_prefix):
            name = msg.topic[len(state_prefix):]
            if data is None:
                self.state.pop(name, None)
            else:
                self.state[name] = data
            self._changed(name)
        elif msg.topic == self.topics.presence("controller"):
            self.controller_online = bool(data and data.get("online"))
            self._changed("presence/controller")
        elif data is not None:
            with self._lock:
                got = self._waiting.get(str(data.get("id")))
                if got is not None:
                    self._answers[str(data["id"])] = data
                    got.set()


def send(broker: Broker, cmd: str, args: dict[str, Any] | None = None, *,
         timeout: float = 10.0, command_id: str | None = None) -> dict[str, Any]:
    """Send one director command on a connection of its own and return the controller's
    answer (``ok``, ``reason`` …). :class:`BrokerUnreachable`, :class:`NoAnswer`."""
    deadline = time.monotonic() + timeout
    with Director(broker).connect(timeout) as d:
        return d.send(cmd, args, timeout=max(0.0, deadline - time.monotonic()),
                      command_id=command_id)
