"""No-show bans (000 2.7): the club database keeps each night's no-shows (the draw's
``no_shows`` event, issue 31); the second no-show gives a 3-month ban, each further one 12
months; a banned player's registration is refused with the end date; the director lifts
a ban, recorded with the day and the reason."""

from __future__ import annotations

import datetime
from pathlib import Path

from controller import cli
from controller.club.bans import add_months, banned, bans, lift
from controller.club.db import ClubError, open_club
from controller.club.imports import import_log
from controller.log.floor import Floor
from tests.club.nights import epoch, psc_settings
from tests.club.test_service_intake import Service

HERE = ["Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck"]
NICO = "Nico Nie"


def night(path: Path, day: str, away: list[str]) -> Path:
    """A night at which ``away`` were pre-registered and did not come (000 2.2, 2.7)."""
    now = epoch(day)
    floor = Floor.open(psc_settings(), path, seed=7, now=now, new=True)
    try:
        def run(cmd: dict) -> dict:
            answer = floor.execute(cmd, now)
            assert answer["ok"], (cmd, answer)
            return answer

        run({"cmd": "preregister", "names": HERE + away})
        for name in HERE:
            run({"cmd": "check_in", "player": name})
        run({"cmd": "draw", "seed": 3})
        run({"cmd": "start"})
        for name in reversed(HERE[1:]):
            run({"cmd": "bust", "player": name, "confirm": True})
        assert floor.tournament.finished
        assert floor.tournament.desk.no_shows == away
    finally:
        floor.close()
    return path


def club_with(tmp_path: Path, days: list[str], away: list[str] | None = None):
    db = open_club(tmp_path / "club.sqlite")
    for i, day in enumerate(days):
        import_log(db, str(night(tmp_path / f"night{i}.sqlite", day, away or [NICO])))
    return db


def test_months_are_calendar_months():
    assert add_months(datetime.date(2025, 11, 30), 3) == datetime.date(2026, 2, 28)
    assert add_months(datetime.date(2025, 11, 7), 12) == datetime.date(2026, 11, 7)


def test_one_no_show_is_no_ban_the_second_gives_3_months_000_2_7(tmp_path):
    """000 2.7: "wird dies bei mehrfachem Vorkommen durch eine 3-monatige Turniersperre
    bestraft"."""
    db = club_with(tmp_path, ["2025-10-03"])
    assert bans(db) == []
    assert db.execute("SELECT COUNT(*) FROM no_shows").fetchone()[0] == 1
    import_log(db, str(night(tmp_path / "second.sqlite", "2025-11-07", [NICO])))
    (ban,) = bans(db)
    assert (ban.player, ban.since, ban.until, ban.months) == (
        NICO, datetime.date(2025, 11, 7), datetime.date(2026, 2, 7), 3)
    assert banned(db, NICO, datetime.date(2026, 2, 6)) == ban
    assert banned(db, NICO, datetime.date(2026, 2, 7)) is None  # over on its last day
    assert banned(db, "Anna Berg", datetime.date(2026, 1, 1)) is None


def test_further_no_shows_give_12_months_000_2_7(tmp_path):
    """000 2.7: "Bei weiteren Vergehen dieser Art wird eine 12-monatige Turniersperre
    verhängt"."""
    db = club_with(tmp_path, ["2025-01-10", "2025-02-07", "2025-06-06"])
    assert [(b.count, b.months, b.until) for b in bans(db)] == [
        (2, 3, datetime.date(2025, 5, 7)), (3, 12, datetime.date(2026, 6, 6))]
    assert banned(db, NICO, datetime.date(2026, 1, 1)).months == 12  # type: ignore[union-attr]


def test_the_director_lifts_a_ban_recorded_000_2_7(tmp_path, capsys):
    db = club_with(tmp_path, ["2025-10-03", "2025-11-07"])
    day = datetime.date(2025, 12, 1)
    try:
        lift(db, NICO, "  ", day)
    except ClubError as exc:
        assert "say why" in str(exc)
    ban = lift(db, NICO, "called the day before, mail was lost", day)
    assert ban.until == datetime.date(2026, 2, 7)
    assert banned(db, NICO, day) is None
    (kept,) = bans(db)
    assert kept.lifted == ("2025-12-01", "called the day before, mail was lost")
    try:
        lift(db, NICO, "again", day)
        raise AssertionError("lifted twice")
    except ClubError as exc:
        assert "has no ban on 2025-12-01" in str(exc)
    db.close()
    club = str(tmp_path / "club.sqlite")
    assert cli.main(["club", "bans", "--club", club, "--all"]) == 0
    out = capsys.readouterr().out
    # the PSC club speaks German on the command line too
    assert out == (f"{NICO}: gesperrt 2025-11-07 bis 2026-02-07 (3 Monate, Nichterscheinen "
                   "2): aufgehoben am 2025-12-01 (called the day before, mail was lost)\n")


def test_the_cli_lists_and_lifts(tmp_path, capsys):
    club_with(tmp_path, ["2025-10-03", "2025-11-07"]).close()
    club = str(tmp_path / "club.sqlite")
    assert cli.main(["club", "bans", "--club", club, "--on", "2025-12-24"]) == 0
    assert capsys.readouterr().out == (f"{NICO}: gesperrt 2025-11-07 bis 2026-02-07 "
                                       "(3 Monate, Nichterscheinen 2): gilt\n")
    assert cli.main(["club", "lift-ban", "Nico", "Nie", "--club", club, "--on", "2025-12-24",
                     "--reason", "Vorstand: Krankheit"]) == 0
    assert "die Sperre bis 2026-02-07 ist aufgehoben" in capsys.readouterr().out
    assert cli.main(["club", "bans", "--club", club, "--on", "2025-12-24"]) == 0
    assert capsys.readouterr().out == "am 2025-12-24 gilt keine Sperre\n"
    assert cli.main(["club", "lift-ban", "Nico", "Nie", "--club", club, "--on", "2025-12-24",
                     "--reason", "x"]) == 1
    assert "ist am 2025-12-24 nicht gesperrt" in capsys.readouterr().err


def test_a_banned_players_registration_is_refused_with_the_end_000_2_7(tmp_path,
                                                                        monkeypatch, caplog):
    club_with(tmp_path, ["2025-10-03", "2025-11-07"]).close()
    monkeypatch.setenv("FLOORMAN_CLUB", str(tmp_path / "club.sqlite"))
    svc = Service(str(tmp_path / "t.sqlite"))  # the night of 2026-01-09
    for cmd, args in (("register", {"names": ["Anna Berg", NICO]}),
                      ("late", {"name": "nico nie"}),
                      ("preregister", {"names": NICO})):
        answer = svc.send(cmd, **args)
        assert not answer["ok"]
        assert answer["reason"].endswith("is banned from tournaments until 2026-02-07 for not "
                                         "coming without calling off (000 2.7)")
    assert svc.tournament.players == {}  # nothing registered, Anna neither
    # not an event (nothing happened), but the controller's journal keeps the refusal
    assert any("refused register at the desk: Nico Nie is banned" in r.getMessage()
               for r in caplog.records)
    assert svc.send("register", names=["Anna Berg"], adult=True)["ok"]  # 000 1.1 asked
    # lifted: the desk takes the registration
    db = open_club(tmp_path / "club.sqlite")
    lift(db, NICO, "Vorstand", datetime.date(2026, 1, 9))
    db.close()
    assert svc.send("register", names=[NICO], adult=True)["ok"]
    svc.floor.close()
