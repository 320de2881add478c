"""Start stacks from the club's standings (003 8 club championship, 000 4.18 Landesliga)."""

from __future__ import annotations

import pytest

from controller.club.db import ClubError, open_club
from controller.club.imports import import_log
from controller.club.stacks import register_commands, start_stacks
from controller.config import load_tournament
from controller.engine.commands import Rejected
from controller.engine.tournament import Tournament
from tests.club.nights import REPO, epoch, play_day, tournament
from tests.club.test_ace_of_spades_season import A, B, C, D, day_games


def season_db(tmp_path):
    settings = load_tournament(REPO / "config" / "tournaments" / "ace-of-spades-playday.yaml")
    db = open_club(tmp_path / "club.sqlite")
    for n, day in enumerate(("2026-01-10", "2026-02-14", "2026-03-14")):
        import_log(db, str(play_day(tmp_path / f"d{n}.sqlite", settings, [A, B, C, D],
                                    day_games(), day=day)))
    return db


def championship():
    return load_tournament(REPO / "config" / "tournaments" / "ace-of-spades-championship.yaml")


def test_a_club_championship_draws_with_stacks_from_the_standings(tmp_path):
    """003 8: (season points + 5) × 1,000; the season by hand (see the season test):
    Anna 65, Bert 56, Carl 31.5, Dora 3 points; Eva, new, has none: 5,000."""
    db = season_db(tmp_path)
    settings = championship()
    names = [A, B, C, D, "Eva"]
    assert start_stacks(db, settings, names) == {
        A: 70_000, B: 61_000, C: 36_500, D: 8_000, "Eva": 5_000}
    t = Tournament.new(settings, 5, epoch("2026-06-20"))
    for command in register_commands(db, settings, names):
        t.execute(command, epoch("2026-06-20"))
    t.execute({"cmd": "draw", "seed": 1}, epoch("2026-06-20"))
    chips = {p.name: p.chips for p in t.players.values() if not p.ghost}
    assert chips == {A: 70_000, B: 61_000, C: 36_500, D: 8_000, "Eva": 5_000}
    # the chips in play are the stacks, not 5 × the preset's 4,000
    assert t.chips == 180_500
    # the log says so: a replay has the same stacks
    again = Tournament.replay(t.log)
    assert {p.name: p.chips for p in again.players.values()} == chips


def test_a_championship_log_keeps_the_stacks_in_the_club_database(tmp_path):
    db = season_db(tmp_path)
    settings = championship()
    names = [A, B, C, D]
    path = tmp_path / "final.sqlite"
    from controller.log.floor import Floor

    now = epoch("2026-06-20")
    floor = Floor.open(settings, path, seed=2, now=now, new=True)
    for command in register_commands(db, settings, names):
        assert floor.execute(command, now)["ok"]
    for command in ({"cmd": "draw", "seed": 1}, {"cmd": "start"},
                    *({"cmd": "bust", "player": n, "confirm": True} for n in (D, C, B))):
        assert floor.execute(command, now)["ok"], command
    floor.close()
    import_log(db, str(path))
    stacks = dict(db.execute("SELECT p.name, r.stack FROM results r JOIN players p ON "
                             "p.id = r.player_id JOIN tournaments t ON t.id = r.tournament_id "
                             "WHERE t.name LIKE '%Clubmeisterschaft'").fetchall())
    assert stacks == {A: 70_000, B: 61_000, C: 36_500, D: 8_000}


def test_landesliga_final_stacks_from_the_first_round(tmp_path):
    """000 4.18: first round 20-17-15-13-11-9-7-6-5, 1,000 chips a point, 5,000-20,000."""
    text = (REPO / "config" / "tournaments" / "sample.yaml").read_text(encoding="utf-8")
    from controller.config import load_tournament_text

    base = REPO / "config" / "tournaments"
    first = load_tournament_text(text + "\npoints: {system: landesliga, knockout: false}\n",
                                 "first.yaml", base_dir=base)
    final = load_tournament_text(text + "\nclub: {start_stacks: landesliga}\n", "final.yaml",
                                 base_dir=base)
    db = open_club(tmp_path / "club.sqlite")
    field = [A, B, C, D, "Eva", "Fay"]
    out = [(n, None) for n in reversed(field[1:])]
    import_log(db, str(tournament(tmp_path / "r1.sqlite", first, field, out,
                                  day="2026-05-01")))
    # places A1 B2 C3 D4 Eva5 Fay6: 20, 17, 15, 13, 11, 9 points
    assert start_stacks(db, final, [*field, "Gus"]) == {
        A: 20_000, B: 17_000, C: 15_000, D: 13_000, "Eva": 11_000, "Fay": 9_000,
        "Gus": 5_000}


def test_stacks_need_a_mode_that_says_so(tmp_path):
    db = season_db(tmp_path)
    settings = load_tournament(REPO / "config" / "tournaments" / "sample.yaml")
    with pytest.raises(ClubError, match="takes no start stacks from the standings"):
        start_stacks(db, settings, [A])


def test_a_stack_of_its_own_only_before_the_draw():
    t = Tournament.new(championship(), 5, 0.0)
    t.execute({"cmd": "register", "names": ["Anna", "Bert"], "stack": 9_000}, 0.0)
    t.execute({"cmd": "draw", "seed": 1}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    with pytest.raises(Rejected, match="before the draw"):
        t.execute({"cmd": "register", "names": ["Carl"], "stack": 9_000}, 3.0)
    assert t.chips == 18_000
