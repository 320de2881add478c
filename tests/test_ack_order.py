"""The order of a command's messages (docs/protocol.md, "Ordering and durability"):
the changed views, the acknowledgement, and the summary only once the broker has taken
the ack (its PUBACK, waited for at most ``ACK_FIRST``): the summary's fan-out to every
screen must not hold the ack up (issue 15). Without a broker: paho's message info is
stood in for by one that records the wait."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller import protocol, service
from controller.config import load_tournament
from controller.floor import Floor
from controller.mqtt import Broker
from controller.service import ControllerService

ROOT = Path(__file__).resolve().parent.parent


class _Sent:
    """paho's ``MQTTMessageInfo`` of one publish: the wait for its PUBACK is recorded."""

    def __init__(self, log: list[tuple[str, Any]], topic: str, rc: int = 0) -> None:
        self.log, self.topic, self.rc = log, topic, rc

    def wait_for_publish(self, timeout: float | None = None) -> None:
        if self.rc:  # paho: the message was not sent (no connection)
            raise RuntimeError("the client is not currently connected")
        self.log.append(("wait", (self.topic, timeout)))


class _Mqtt:
    def __init__(self) -> None:
        self.log: list[tuple[str, Any]] = []
        self.connected = True

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> _Sent:
        self.log.append(("publish", topic))
        return _Sent(self.log, topic, 0 if self.connected else 4)


def _service() -> tuple[ControllerService, _Mqtt]:
    clock = [1_760_036_400.0]
    settings = load_tournament(ROOT / "config" / "tournaments" / "sample.yaml")
    svc = ControllerService(settings, ":memory:", Broker(prefix="floorman/test"),
                            wall=lambda: clock[0])
    svc.floor = Floor.open(settings, ":memory:", seed=7, now=clock[0])
    mqtt = _Mqtt()
    svc.mqtt = mqtt  # type: ignore[assignment]
    for cmd, args in (("register", {"names": [f"Player {i:02d}" for i in range(1, 19)]}),
                      ("draw", {}), ("start", {})):
        svc.handle(svc.topics.director, protocol.dumps(
            {"v": 1, "id": f"d-{cmd}", "reply_to": "director-x", "cmd": cmd, "args": args}))
    return svc, mqtt


def _bust(svc: ControllerService) -> None:
    seat = min(svc.tournament.tables[1].occupant)
    svc.handle(svc.topics.table_cmd(1), protocol.dumps(
        {"v": 1, "id": "b-1", "reply_to": "table-1", "action": "bust", "seat": seat}))


def test_the_summary_waits_until_the_broker_has_the_ack() -> None:
    svc, mqtt = _service()
    mqtt.log.clear()
    _bust(svc)
    t = svc.topics
    ack = ("publish", t.ack("table-1"))
    assert ack in mqtt.log
    i = mqtt.log.index(ack)
    # the bust's table view before the ack, the summary after the broker took the ack
    assert ("publish", t.table_state(1)) in mqtt.log[:i]
    assert mqtt.log[i + 1:] == [("wait", (t.ack("table-1"), service.ACK_FIRST)),
                                ("publish", t.state("summary"))]
    assert 0 < service.ACK_FIRST <= 0.01  # a wait never longer than a frame of a screen


def test_no_wait_when_the_summary_does_not_change() -> None:
    svc, mqtt = _service()
    mqtt.log.clear()
    svc.handle(svc.topics.director, protocol.dumps(
        {"v": 1, "id": "d-time", "reply_to": "director-x", "cmd": "time",
         "args": {"op": "add", "seconds": 60}}))
    assert mqtt.log == [("publish", svc.topics.state("clock")),
                        ("publish", svc.topics.ack("director-x"))]


def test_without_a_connection_the_summary_goes_at_once() -> None:
    svc, mqtt = _service()
    mqtt.connected = False  # paho queues both and sends them in order after the reconnect
    mqtt.log.clear()
    _bust(svc)
    assert not [e for e in mqtt.log if e[0] == "wait"]
    assert mqtt.log[-2:] == [("publish", svc.topics.ack("table-1")),
                             ("publish", svc.topics.state("summary"))]
