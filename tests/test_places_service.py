"""The table's presses for places through the controller service, without a broker
(issue 10.1, 10.2): `same_hand` and `confirm` reach the engine, the missed "hand done"
is named in the answer, and the "hand done?" reminder reaches the table's screen by
itself, without any press (000 3.11, 000 9.5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.config import load_tournament
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire import protocol
from controller.wire.mqtt import Broker

ROOT = Path(__file__).resolve().parent.parent


class _Mqtt:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.sent.append((topic, json.loads(payload)))


class _Service(ControllerService):
    def __init__(self, clock: list[float]) -> None:
        settings = load_tournament(ROOT / "config" / "tournaments" / "sample.yaml")
        super().__init__(settings, ":memory:", Broker(prefix="floorman/test"),
                         wall=lambda: clock[0])
        self.floor = Floor.open(settings, ":memory:", seed=7, now=clock[0])
        self.acks: list[dict[str, Any]] = []
        self.mqtt = _Mqtt()  # type: ignore[assignment]

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        protocol.validate_ack(answer)
        self.acks.append(answer)


def started(clock: list[float]) -> _Service:
    svc = _Service(clock)
    for cmd, args in (("register", {"names": [f"Player {i:02d}" for i in range(1, 19)]}),
                      ("draw", {}), ("start", {})):
        svc.handle(svc.topics.director, protocol.dumps(
            {"v": 1, "id": f"d-{cmd}", "reply_to": "director-x", "cmd": cmd, "args": args}))
        assert svc.acks[-1]["ok"], svc.acks[-1]
    return svc


def press(svc: _Service, table: int, cid: str, action: str, **fields: Any) -> dict[str, Any]:
    svc.handle(svc.topics.table_cmd(table), protocol.dumps(
        {"v": 1, "id": cid, "reply_to": f"table-{table}", "action": action, **fields}))
    return svc.acks[-1]


def seats(svc: _Service, table: int) -> list[int]:
    return sorted(svc.tournament.tables[table].occupant)


def test_a_second_bust_without_same_hand_catches_up_the_hand_done_000_9_5():
    clock = [1_760_036_400.0]
    svc = started(clock)
    first, second, third = seats(svc, 1)[:3]
    assert press(svc, 1, "b1", "bust", seat=first)["ok"]
    view = svc.state_messages()[svc.topics.table_state(1)]
    assert view["asks_same_hand"] and [b["seat"] for b in view["hand_busts"]] == [first]
    answer = press(svc, 1, "b2", "bust", seat=second)
    assert answer["ok"]
    assert "table 1: hand done (the missed one, caught up)" in answer["message"]
    assert "out in place 17" in answer["message"]
    answer = press(svc, 1, "b3", "bust", seat=third, stack=5000, same_hand=True)
    assert answer["ok"] and "caught up" not in answer["message"]
    t = svc.tournament
    assert [len(g) for g in t.groups] == [1, 2]  # the third shares the second's hand


def test_a_bust_of_a_player_on_the_way_is_refused_then_confirmed_TDA_1():
    clock = [1_760_036_400.0]
    svc = started(clock)
    a, b = seats(svc, 2)[:2]
    press(svc, 2, "b1", "bust", seat=a)
    press(svc, 2, "b2", "bust", seat=b, same_hand=True)
    press(svc, 1, "h1", "hand_done")  # table 1 gives its next big blind to table 2
    (move,) = svc.tournament.pending.values()
    answer = press(svc, 2, "b3", "bust", seat=move.to_seat)
    assert not answer["ok"] and f"on the way from table 1 seat {move.from_seat}" in \
        answer["reason"]
    assert press(svc, 2, "b4", "bust", seat=move.to_seat, confirm=True)["ok"]


def test_the_tick_republishes_a_table_that_forgot_hand_done():
    clock = [1_760_036_400.0]
    svc = started(clock)
    topic = svc.topics.table_state(1)
    svc.publish_state()
    mqtt = svc.mqtt
    assert isinstance(mqtt, _Mqtt)
    mqtt.sent.clear()
    clock[0] += 60
    svc.tick()
    assert not [p for t, p in mqtt.sent if t == topic]  # nothing changed yet
    clock[0] += 5 * 60
    svc.tick()
    (view,) = [p for t, p in mqtt.sent if t == topic]
    assert view["hand_done_due"] is True
    mqtt.sent.clear()
    assert press(svc, 1, "h1", "hand_done")["ok"]
    (view,) = [p for t, p in mqtt.sent if t == topic]
    assert view["hand_done_due"] is False


def test_a_once_per_hand_time_press_names_its_seat_001_1_VI():
    """The kiosk sends the selected seat with "time"; the service passes it on."""
    clock = [1_760_036_400.0]
    svc = started(clock)
    seat = seats(svc, 1)[0]
    assert press(svc, 1, "t1", "time", seat=seat)["ok"]
    assert svc.tournament.tables[1].time_call is not None
    assert svc.tournament.tables[1].time_call.seat == seat


def test_the_cli_bust_says_same_hand_and_confirm():
    """`floorman bust 2 6 --same-hand --confirm` sends both answers (000 9.5, issue 10.2)."""
    from controller.cli import _director_command, build_parser

    args = build_parser().parse_args(["bust", "2", "6", "--stack", "900", "--same-hand",
                                      "--confirm"])
    assert _director_command(args) == ("bust", {"table": 2, "seat": 6, "stack": 900,
                                                "same_hand": True, "confirm": True})
    args = build_parser().parse_args(["bust", "Anna", "Schmidt"])
    assert _director_command(args) == ("bust", {"player": "Anna Schmidt"})
