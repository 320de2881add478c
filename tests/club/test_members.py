"""Members and guests (000 1.1, 1.3-1.7, 2.1, 2.5; 003 1, 8): the club list keeps the
yearly fee by season, the day memberships and the date a player confirmed being 18;
the desk's door puts them into the registration, the engine decides from the log."""

from __future__ import annotations

import datetime
from pathlib import Path

from controller import cli
from controller.club import members, players
from controller.club.db import open_club
from controller.club.imports import import_log
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.wire.mqtt import Broker
from tests.club.nights import epoch, psc_settings
from tests.club.test_service_intake import Service

DAY = datetime.date(2026, 1, 9)  # the Service's night
SEASONS = ["01-01"]


def club(tmp_path: Path):
    db = open_club(tmp_path / "club.sqlite")
    players.add(db, "Anna Berg", member=True)
    players.add(db, "Bert Cox", member=True)
    players.add(db, "Gina Gast")
    return db


def test_a_member_is_one_who_paid_the_seasons_fee_000_1_3_2_1(tmp_path):
    """000 1.3: the yearly fee; 000 2.1: "eine gültige Mitgliedschaft": a member who has
    not paid for this season is a guest at the desk."""
    db = club(tmp_path)
    # a club that never recorded a fee: the member flag alone
    f = members.facts(db, ["Anna Berg", "Gina Gast", "Nora Neu"], DAY, SEASONS)
    assert {n: x.member for n, x in f.items()} == {"Anna Berg": True, "Gina Gast": False}
    members.pay_fee(db, "anna berg", "2026", datetime.date(2026, 1, 2))
    members.pay_fee(db, "Bert Cox", "2025", datetime.date(2025, 1, 2))
    f = members.facts(db, ["Anna Berg", "Bert Cox"], DAY, SEASONS)
    assert (f["Anna Berg"].member, f["Bert Cox"].member) == (True, False)
    assert f["Anna Berg"].season == "2026"
    # a guest who pays becomes a member
    members.pay_fee(db, "Gina Gast", "2026", DAY)
    assert members.facts(db, ["Gina Gast"], DAY, SEASONS)["Gina Gast"].member


def test_the_cli_records_fee_and_age_and_lists_the_club(tmp_path, capsys):
    club(tmp_path).close()
    path = str(tmp_path / "club.sqlite")
    assert cli.main(["club", "member", "Anna", "Berg", "--fee", "2026", "--adult", "--on",
                     "2026-01-02", "--club", path]) == 0
    out = capsys.readouterr().out
    assert "Anna Berg: fee for 2026 paid on 2026-01-02" in out
    assert "Anna Berg: 18 or older, confirmed on 2026-01-02" in out
    assert cli.main(["club", "members", "--club", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["Anna Berg: member; fee: 2026; 18+ confirmed 2026-01-02",
                   "Bert Cox: member; fee: no fee recorded; 18+ not asked yet"]
    assert cli.main(["club", "member", "Nobody", "--fee", "2026", "--club", path]) == 1
    assert "no player 'Nobody'" in capsys.readouterr().err


class Desk(Service):
    """The service of a night whose tournament file adds ``extra``."""

    def __init__(self, log: str, extra: str) -> None:
        settings = psc_settings(extra)
        now = epoch("2026-01-09")
        ControllerService.__init__(self, settings, log, Broker(prefix="floorman/test"),
                                   wall=lambda: now)
        self.floor = Floor.open(settings, log, seed=7, now=now, new=True)
        self.acks = []
        self.n = 0


def test_a_members_only_night_refuses_the_member_who_has_not_paid_000_2_5(tmp_path,
                                                                          monkeypatch):
    db = club(tmp_path)
    members.pay_fee(db, "Anna Berg", "2026", DAY)
    members.pay_fee(db, "Bert Cox", "2025", DAY.replace(year=2025))
    db.close()
    monkeypatch.setenv("FLOORMAN_CLUB", str(tmp_path / "club.sqlite"))
    svc = Desk(str(tmp_path / "cup.sqlite"), "desk:\n  members_only: true\n  ask_age: false\n")
    answer = svc.send("register", names=["Anna Berg", "Bert Cox"])
    assert not answer["ok"]
    assert answer["reason"].startswith("Bert Cox is a guest: ")
    assert "(000 2.5, 003 8)" in answer["reason"]
    assert svc.tournament.players == {}
    assert svc.send("register", names=["Anna Berg"])["ok"]
    svc.floor.close()


def test_a_guest_at_a_public_night_gets_a_day_membership_and_the_age_is_kept_000_1_7(
        tmp_path, monkeypatch):
    """000 1.7: the day membership of a guest; 000 1.1, 003 1: the desk asks a player
    without a confirmation on record (``desk.ask_age``), the date is kept; no ID."""
    db = club(tmp_path)
    members.pay_fee(db, "Anna Berg", "2026", DAY)
    members.pay_fee(db, "Bert Cox", "2025", DAY.replace(year=2025))
    members.confirm_adult(db, "Anna Berg", datetime.date(2025, 5, 1))
    db.close()
    monkeypatch.setenv("FLOORMAN_CLUB", str(tmp_path / "club.sqlite"))
    log = tmp_path / "night.sqlite"
    svc = Desk(str(log), "desk:\n  ask_age: true\n")
    answer = svc.send("register", names=["Anna Berg", "Bert Cox", "Nora Neu"])
    assert not answer["ok"]
    assert answer["reason"].startswith("ask Bert Cox, Nora Neu: 18 or older?")
    assert svc.send("register", names=["Anna Berg"])["ok"]  # on record: not asked
    assert svc.send("register", names=["Bert Cox", "Nora Neu"], adult=True)["ok"]
    t = svc.tournament
    assert {p.name: p.member for p in t.players.values()} == {
        "Anna Berg": True, "Bert Cox": False, "Nora Neu": True}
    assert svc.send("late", name="Gina Gast", adult=True, member=False)["ok"]
    assert svc.send("draw", seed=3)["ok"]
    assert svc.send("start")["ok"]
    for name in ["Gina Gast", "Nora Neu", "Bert Cox"]:
        assert svc.send("bust", player=name, confirm=True)["ok"], name
    svc.floor.close()
    db = open_club(tmp_path / "club.sqlite")
    import_log(db, str(log), date=DAY)  # taken in already at the end: unchanged
    listed = {m.name: m for m in members.members(db, everyone=True)}
    assert listed["Bert Cox"].day_memberships == 1
    assert listed["Gina Gast"].day_memberships == 1
    assert listed["Anna Berg"].day_memberships == 0
    assert listed["Anna Berg"].adult_since == "2025-05-01"  # the first date is kept
    assert listed["Nora Neu"].adult_since == "2026-01-09"
    assert listed["Gina Gast"].adult_since == "2026-01-09"
