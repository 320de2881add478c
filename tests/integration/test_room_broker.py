"""The room's broker of ``floorman night`` (issue 29), Mosquitto and the embedded amqtt alike:
a room of screens joining at once each gets its own table's view and every change after;
a second login under an account in use does not leave the first one deaf; the ACL holds.

amqtt 0.12 failed all three before controller/broker/embedded.py's ``RoomAmqtt``: every
screen that connected was sent every retained view (its neighbours' tables too), a walk of
its subscriptions broken by a screen subscribing meanwhile lost messages, and a second
login left the first connection connected without its subscriptions, for ever (a director
command that got no answer within 30 s, docs/performance.md)."""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from controller.broker.local import amqtt_installed, mosquitto_path
from controller.broker.room import RoomBroker
from controller.wire.mqtt import client
from controller.wire.protocol import Topics
from kiosk.link import Link, stop_links
from tests.support.waiting import wait_for

TABLES = 16
PREFIX = "floorman/t"


@pytest.fixture(params=["mosquitto", "amqtt"])
def room(request, tmp_path: Path):
    kind = request.param
    if kind == "mosquitto" and mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    if kind == "amqtt" and not amqtt_installed():
        pytest.skip("amqtt is not installed")
    rb = RoomBroker(tmp_path / "broker", tables=TABLES, walls=1, prefix=PREFIX, port=0,
                    prefer=kind)
    assert rb.kind == kind
    yield rb
    rb.stop()


class Client:
    """A plain client under one of the room's accounts: what it received, in order."""

    def __init__(self, rb: RoomBroker, account: str, subscribe: tuple[str, ...] = ()) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.subscribed = threading.Event()
        self.c = c = client(rb.client(account), account)
        c.on_connect = lambda c, u, f, rc, p=None: (
            c.subscribe([(t, 1) for t in subscribe]) if subscribe else self.subscribed.set())
        c.on_subscribe = lambda *a: self.subscribed.set()
        c.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        c.connect_async("127.0.0.1", rb.port, keepalive=30)
        c.loop_start()
        wait_for(self.subscribed.is_set, 20, f"{account} connected and subscribed")

    def publish(self, topic: str, payload: Any, retain: bool = False) -> None:
        self.c.publish(topic, json.dumps(payload).encode(), 1, retain).wait_for_publish(10)

    def topics(self) -> set[str]:
        return {t for t, _ in list(self.got)}

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_a_room_of_screens_joining_at_once_gets_their_own_views_and_every_change(room, caplog):
    caplog.set_level(logging.ERROR)
    t = Topics(PREFIX)
    # the controller holds the retained views and reads the state and the presences back
    controller = Client(room, "controller", (f"{PREFIX}/state/#", f"{PREFIX}/presence/+"))
    for n in range(1, TABLES + 1):
        controller.publish(t.table_state(n), {"v": 1, "table": n}, retain=True)
    controller.publish(t.state("clock"), {"v": 1, "level": 1}, retain=True)
    links = [Link(room.client(f"table-{n}"), table=n) for n in range(1, TABLES + 1)]
    links.append(Link(room.client("wall")))
    try:
        for link in links:  # all at once, as the screens of a room after a power cut
            link.start()
        tables = links[:TABLES]
        wait_for(lambda: all(link.state.get(f"table/{link.table}") == {"v": 1, "table": link.table}
                             for link in tables), 60, "every table screen's own view",
                 explain=lambda: str([sorted(link.state) for link in tables]))
        # a table screen subscribes to its own table's view only (kiosk/link.py)
        for link in tables:
            others = {k for k in link.state if k.startswith("table/") and
                      k != f"table/{link.table}"}
            assert not others, f"table-{link.table} was sent {sorted(others)}"
        # every change reaches every screen, while they are all there
        for level in range(2, 12):
            controller.publish(t.state("clock"), {"v": 1, "level": level}, retain=True)
        wait_for(lambda: all(link.state.get("clock") == {"v": 1, "level": 11} for link in links),
                 30, "the last clock on every screen",
                 explain=lambda: str([link.state.get("clock") for link in links]))
        wait_for(lambda: len(links[-1].state) >= TABLES + 1, 30, "the wall has every table")
    finally:
        stop_links(links)
        controller.close()
    # amqtt's broken walks of its subscriptions (logged by asyncio with the traceback)
    broken = [r for r in caplog.records if "changed size" in r.getMessage()
              or "changed size" in str(r.exc_info and r.exc_info[1])]
    assert not broken


def test_a_second_login_does_not_leave_the_first_one_deaf(room):
    """``floorman status`` while another director tool is connected (both ``director``)."""
    t = Topics(PREFIX)
    first = Client(room, "director", (t.ack("director"),))
    controller = Client(room, "controller")
    try:
        second = Client(room, "director", (t.ack("director"),))
        second.close()
        # the first reconnects (Mosquitto closed it; so does the room's amqtt) and subscribes
        # again: the controller's answers reach it
        def answer() -> None:  # resent, as the controller answers a resent command
            controller.publish(t.ack("director"), {"v": 1, "id": "x"})
            time.sleep(0.5)

        wait_for(lambda: t.ack("director") in first.topics(), 30,
                 "an answer on the first connection", step=answer)
    finally:
        first.close()
        controller.close()


def test_the_acl_holds(room):
    """A table screen sends its own table's presses only, and reads no one else's answers."""
    t = Topics(PREFIX)
    controller = Client(room, "controller", (f"{PREFIX}/cmd/#",))
    spy = Client(room, "table-1", (t.ack("table-2"), t.ack("table-1")))
    try:
        spy.publish(t.director, {"v": 1, "id": "a", "cmd": "status"})
        spy.publish(t.table_cmd(2), {"v": 1, "id": "b", "action": "bust", "seat": 1})
        spy.publish(t.table_cmd(1), {"v": 1, "id": "c", "action": "bust", "seat": 1})
        wait_for(lambda: t.table_cmd(1) in controller.topics(), 20, "table 1's own press")
        assert controller.topics() == {t.table_cmd(1)}
        controller.publish(t.ack("table-2"), {"v": 1, "id": "b"})
        controller.publish(t.ack("table-1"), {"v": 1, "id": "c"})
        wait_for(lambda: t.ack("table-1") in spy.topics(), 20, "table 1's own answer")
        assert spy.topics() == {t.ack("table-1")}
    finally:
        spy.close()
        controller.close()


def test_the_installed_amqtt_has_what_the_room_mends():
    """RoomAmqtt replaces three of amqtt's own methods: a later amqtt without them would
    leave the room unmended (the night then warns); this says so at the upgrade."""
    amqtt_broker = pytest.importorskip("amqtt.broker")
    from controller.broker.embedded import MENDED

    assert all(callable(getattr(amqtt_broker.Broker, name, None)) for name in MENDED)
