"""The destination table's button box says its arrivals sat down (issue 10.4, TDA 11D):
``P/cmd/table/N`` ``seated`` completes the moves to table N only, and a waiting table's
``hand_done`` is refused with who it waits for."""

from __future__ import annotations

from typing import Any

from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire import protocol
from controller.wire.mqtt import Broker
from tests.support.settings import make_settings


class _Service(ControllerService):
    """The real service without a broker: the acks are collected."""

    def __init__(self) -> None:
        self.clock = [1_760_036_400.0]
        settings = make_settings()
        super().__init__(settings, ":memory:", Broker(prefix="floorman/test"),
                         wall=lambda: self.clock[0])
        self.floor = Floor.open(settings, ":memory:", seed=3, now=self.clock[0])
        self.acks: list[dict[str, Any]] = []
        self.n = 0

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        protocol.validate_ack(answer)
        self.acks.append(answer)

    def send(self, topic: str, **data: Any) -> dict[str, Any]:
        self.n += 1
        self.clock[0] += 5
        self.handle(topic, protocol.dumps({"v": 1, "id": f"c{self.n}", "reply_to": "x", **data}))
        return self.acks[-1]

    def order(self, cmd: str, **args: Any) -> dict[str, Any]:
        return self.send(self.topics.director, cmd=cmd, args=args)

    def press(self, table: int, action: str, **fields: Any) -> dict[str, Any]:
        return self.send(self.topics.table_cmd(table), action=action, **fields)


def test_seated_is_taken_from_the_destination_table_only_TDA_11D():
    svc = _Service()
    assert svc.order("register", names=[f"Player {i}" for i in range(1, 19)])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    for _ in range(3):  # T2 three short: 9 / 6
        seat = sorted(svc.tournament.tables[2].occupant)[0]
        assert svc.press(2, "bust", seat=seat)["ok"]
    assert svc.press(2, "hand_done")["ok"]  # the move to T2 is decided now; T2 waits
    mover = svc.tournament.pending_moves()[0]
    state = svc.state_messages()[svc.topics.table_state(2)]
    assert [w["player_id"] for w in state["waits_for"]] == [mover.player]
    refused = svc.press(2, "hand_done")
    assert not refused["ok"] and mover.name in refused["reason"]
    assert "from table 1" in refused["reason"]
    wrong = svc.press(1, "seated")  # T1's box cannot seat T2's arrivals
    assert not wrong["ok"] and "nobody is on the way to table 1" in wrong["reason"]
    ok = svc.press(2, "seated")
    assert ok["ok"] and f"{mover.name} seated" in ok["message"]
    assert svc.tournament.pending_moves() == [] and not svc.tournament.tables[2].holds
    assert svc.state_messages()[svc.topics.table_state(2)]["waits_for"] == []
    assert svc.press(2, "hand_done")["ok"]
