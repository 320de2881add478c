"""The director's side of the protocol: send one command through the broker, wait for the answer.

A command carries a fresh id and is resent with the same id until the
controller answers (it may be restarting): the controller applies it once and
answers a resend with the stored answer.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
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
