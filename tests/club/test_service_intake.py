"""The controller takes a finished tournament into the club database by itself
($FLOORMAN_CLUB); a failure there is logged and never stops the controller."""

from __future__ import annotations

import logging
from typing import Any

from controller.club.db import open_club
from controller.club.standings import standings
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire import protocol
from controller.wire.mqtt import Broker
from tests.club.nights import epoch, psc_settings

SIX = ["Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck", "Emil Frey", "Fritz Gall"]


class Service(ControllerService):
    """The real service without a broker: the answers are kept."""

    def __init__(self, log: str) -> None:
        settings = psc_settings()
        now = epoch("2026-01-09")
        super().__init__(settings, log, Broker(prefix="floorman/test"), wall=lambda: now)
        self.floor = Floor.open(settings, log, seed=7, now=now, new=True)
        self.acks: list[dict[str, Any]] = []
        self.n = 0

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        self.acks.append(answer)

    def send(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.n += 1
        self.handle(self.topics.director, protocol.dumps(
            {"v": 1, "id": f"d{self.n}", "reply_to": "director-x", "cmd": cmd, "args": args}))
        return self.acks[-1]


def evening(svc: Service) -> None:
    assert svc.send("register", names=SIX, adult=True)["ok"]  # 000 1.1: asked
    assert svc.send("draw", seed=3)["ok"]
    assert svc.send("start")["ok"]
    for name in reversed(SIX[1:]):
        assert svc.send("bust", player=name, confirm=True)["ok"]


def test_the_end_of_the_tournament_takes_it_into_the_club_database(tmp_path, monkeypatch):
    club = tmp_path / "club.sqlite"
    monkeypatch.setenv("FLOORMAN_CLUB", str(club))
    svc = Service(str(tmp_path / "t.sqlite"))
    assert svc.send("register", names=SIX, adult=True)["ok"]  # 000 1.1: asked
    assert not club.exists()  # nothing before the end
    assert svc.send("draw", seed=3)["ok"] and svc.send("start")["ok"]
    for name in reversed(SIX[1:]):
        assert svc.send("bust", player=name, confirm=True)["ok"]
    assert svc.tournament.finished
    svc.floor.close()
    table = standings(open_club(club))
    # 000 5.4, 6 players: 6, 3, 1
    assert [(s.name, s.points) for s in table.lines[:3]] == [
        ("Anna Berg", 6), ("Bert Cox", 3), ("Carl Dahl", 1)]
    assert table.season == "2026"


def test_an_undo_after_the_end_updates_the_import(tmp_path, monkeypatch):
    club = tmp_path / "club.sqlite"
    monkeypatch.setenv("FLOORMAN_CLUB", str(club))
    svc = Service(str(tmp_path / "t.sqlite"))
    evening(svc)
    assert svc.send("undo")["ok"]  # Bert was not out: the director's mistake
    assert svc.send("bust", player="Anna Berg", confirm=True)["ok"]
    svc.floor.close()
    db = open_club(club)
    assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 1
    assert [(s.name, s.points) for s in standings(db).lines[:2]] == [
        ("Bert Cox", 6), ("Anna Berg", 3)]


def test_a_club_database_that_fails_never_stops_the_controller(tmp_path, monkeypatch,
                                                               caplog):
    bad = tmp_path / "not-a-club.sqlite"
    bad.write_bytes(b"garbage" * 1000)
    monkeypatch.setenv("FLOORMAN_CLUB", str(bad))
    svc = Service(str(tmp_path / "t.sqlite"))
    with caplog.at_level(logging.WARNING, logger="floorman.club"):
        evening(svc)  # every answer ok, the last bust too
    assert svc.tournament.finished
    assert "not taken into the club database" in caplog.text
    assert bad.read_bytes() == b"garbage" * 1000
    svc.floor.close()


def test_the_wall_is_sent_the_standings(tmp_path, monkeypatch):
    """state/standings: at the start the season so far (between tournaments), after the
    end with this tournament in it; public names (000 5.8)."""
    club = tmp_path / "club.sqlite"
    monkeypatch.setenv("FLOORMAN_CLUB", str(club))
    first = Service(str(tmp_path / "a.sqlite"))
    assert "floorman/test/state/standings" not in first.state_messages()  # nothing yet
    evening(first)
    first.floor.close()
    second = Service(str(tmp_path / "b.sqlite"))
    wall = second.state_messages()["floorman/test/state/standings"]
    protocol.validate_state("standings", protocol.dumps(wall))
    assert (wall["season"], wall["tournaments"]) == ("2026", 1)
    assert wall["rows"][0] == {"place": 1, "name": "Anna Berg", "points": 6.0,
                               "tournaments": 1}
    second.floor.close()
