"""The director's read-only ``players`` query (docs/protocol.md): what the console's player
search and pickers are made from. Full names for the director (the public topics shorten
guests, 000 5.8); registered, seated or out with the place."""

from __future__ import annotations

from typing import Any

from controller.config import load_tournament
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire import protocol
from controller.wire.mqtt import Broker
from tests.support.paths import ROOT


class _Service(ControllerService):
    def __init__(self) -> None:
        settings = load_tournament(ROOT / "config/tournaments/sample.yaml")
        super().__init__(settings, ":memory:", Broker(prefix="floorman/test"),
                         wall=lambda: 1_760_036_400.0)
        self.floor = Floor.open(settings, ":memory:", seed=7, now=1_760_036_400.0)
        self.acks: list[dict[str, Any]] = []
        self.n = 0

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        protocol.validate_ack(answer)
        self.acks.append(answer)

    def send(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.n += 1
        self.handle(self.topics.director, protocol.dumps(
            {"v": 1, "id": f"c{self.n}", "reply_to": "console-x", "cmd": cmd, "args": args}))
        return self.acks[-1]


def test_players_lists_full_names_and_where_each_one_is():
    svc = _Service()
    assert svc.send("players")["result"]["players"] == []
    svc.send("register", names=[f"Spieler {i}" for i in range(1, 12)])
    svc.send("register", names=["Jonas Weber"], member=False)
    before = {p["name"]: p for p in svc.send("players")["result"]["players"]}
    # the guest keeps the full name here (000 5.8 shortens it on public screens only)
    assert before["Jonas Weber"]["member"] is False
    assert {p["status"] for p in before.values()} == {"registered"}
    svc.send("draw")
    svc.send("start")
    seated = {p["name"]: p for p in svc.send("players")["result"]["players"]}
    anna = seated["Spieler 1"]
    assert anna["status"] == "seated" and anna["table"] and anna["seat"]
    assert svc.send("bust", player="Spieler 1")["ok"]
    after = {p["name"]: p for p in svc.send("players")["result"]["players"]}
    assert after["Spieler 1"]["status"] == "out"
    assert after["Spieler 1"]["place"] == 12  # the first of 12 out finishes 12th
    assert after["Spieler 1"]["table"] is None
    # the query changes nothing and stores nothing
    assert "events" not in svc.acks[-1]
