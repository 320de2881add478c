"""A controller service in-process on an in-memory log, its broker a recorder: what it
publishes, in order, and the waits for a PUBACK (tests/test_ack_order.py, test_heap.py)."""

from __future__ import annotations

from itertools import count
from pathlib import Path
from typing import Any

from controller.config import load_tournament
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire import protocol
from controller.wire.mqtt import Broker

ROOT = Path(__file__).resolve().parent.parent.parent
_mids = count(1)


class Sent:
    """paho's ``MQTTMessageInfo`` of one publish: the wait for its PUBACK is recorded."""

    def __init__(self, log: list[tuple[str, Any]], topic: str, rc: int = 0) -> None:
        self.log, self.topic, self.rc = log, topic, rc
        self.mid = next(_mids)  # paho's message id (the PUBACK names it)

    def wait_for_publish(self, timeout: float | None = None) -> None:
        if self.rc:  # paho: the message was not sent (no connection)
            raise RuntimeError("the client is not currently connected")
        self.log.append(("wait", (self.topic, timeout)))


class RecordingMqtt:
    def __init__(self) -> None:
        self.log: list[tuple[str, Any]] = []
        #: the last payload published on each topic
        self.payloads: dict[str, bytes] = {}
        self.connected = True

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> Sent:
        self.log.append(("publish", topic))
        self.payloads[topic] = payload
        return Sent(self.log, topic, 0 if self.connected else 4)


def service() -> tuple[ControllerService, RecordingMqtt]:
    """The sample tournament with 18 players, drawn and started."""
    clock = [1_760_036_400.0]
    settings = load_tournament(ROOT / "config" / "tournaments" / "sample.yaml")
    svc = ControllerService(settings, ":memory:", Broker(prefix="floorman/test"),
                            wall=lambda: clock[0])
    svc.floor = Floor.open(settings, ":memory:", seed=7, now=clock[0])
    mqtt = RecordingMqtt()
    svc.mqtt = mqtt  # type: ignore[assignment]
    for cmd, args in (("register", {"names": [f"Player {i:02d}" for i in range(1, 19)]}),
                      ("draw", {}), ("start", {})):
        svc.handle(svc.topics.director, protocol.dumps(
            {"v": 1, "id": f"d-{cmd}", "reply_to": "director-x", "cmd": cmd, "args": args}))
    return svc, mqtt


_presses = count(1)


def bust(svc: ControllerService) -> None:
    """Table 1's dealer presses bust for its lowest seat (a new press each time)."""
    seat = min(svc.tournament.tables[1].occupant)
    svc.handle(svc.topics.table_cmd(1), protocol.dumps(
        {"v": 1, "id": f"bust-{next(_presses)}", "reply_to": "table-1", "action": "bust",
         "seat": seat}))
