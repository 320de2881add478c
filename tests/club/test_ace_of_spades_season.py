"""An Ace of Spades season of play days into the club database: table points,
attendance and the bonus brackets worked out by hand from 003 6; the club
championship's stacks from 003 8."""

from __future__ import annotations

from controller.club.db import open_club
from controller.club.imports import import_log
from controller.club.standings import standings
from controller.config import load_tournament
from tests.club.nights import REPO, play_day

A, B, C, D = "Anna", "Bert", "Carl", "Dora"


def day_games() -> list[list[str]]:
    """One play day, 9 tables (winner first): all four, then 4× Anna-Carl-Bert and
    4× Bert-Anna-Carl. Per day (003 6: 2 / 1 / 0.5): Anna 2 + 4×2 + 4×1 = 14, Bert 1 +
    4×0.5 + 4×2 = 11, Carl 0.5 + 4×1 + 4×0.5 = 6.5, Dora 0 (one table)."""
    return [[A, B, C, D]] + [[A, C, B]] * 4 + [[B, A, C]] * 4


def test_season_of_three_play_days_by_hand(tmp_path):
    settings = load_tournament(REPO / "config" / "tournaments" / "ace-of-spades-playday.yaml")
    db = open_club(tmp_path / "club.sqlite")
    for n, day in enumerate(("2026-01-10", "2026-02-14", "2026-03-14")):
        log = play_day(tmp_path / f"d{n}.sqlite", settings, [A, B, C, D], day_games(), day=day)
        assert import_log(db, str(log)).status == "imported"
    table = standings(db)
    assert table.season == "2026-1"  # the preset: seasons from 1 January and 1 July
    got = {s.name: s for s in table.lines}
    # 3 days: tables 27, 27, 27, 3; table points 42, 33, 19.5, 0; attendance 3 each.
    # 003 6 bonus from 25 tables on the attendance-free average: Anna 42/27 = 1.56 → 20
    # (0.85 and more), Bert 33/27 = 1.22 → 20, Carl 19.5/27 = 0.722 → 9 (0.70-0.74),
    # Dora 3 tables → none.
    assert {n: (s.extra["tables"], s.extra["table_points"], s.extra["attendance"],
                s.extra["bonus"]) for n, s in got.items()} == {
        A: (27, 42, 3, 20), B: (27, 33, 3, 20), C: (27, 19.5, 3, 9), D: (3, 0, 3, 0)}
    assert {n: s.points for n, s in got.items()} == {A: 65, B: 56, C: 31.5, D: 3}
    assert [s.name for s in table.lines] == [A, B, C, D]
    # 003 8: (season points + 5) × 1,000
    assert {n: s.extra["stack"] for n, s in got.items()} == {
        A: 70_000, B: 61_000, C: 36_500, D: 8_000}
    assert all(s.tournaments == 3 for s in table.lines)


def test_the_second_half_year_is_a_new_season(tmp_path):
    """The preset's two seasons a year (003 8: two club championships): July starts at 0."""
    settings = load_tournament(REPO / "config" / "tournaments" / "ace-of-spades-playday.yaml")
    db = open_club(tmp_path / "club.sqlite")
    import_log(db, str(play_day(tmp_path / "a.sqlite", settings, [A, B, C, D], day_games(),
                                day="2026-06-30")))
    import_log(db, str(play_day(tmp_path / "b.sqlite", settings, [A, B, C, D],
                                [[D, C, B, A]], day="2026-07-01")))
    july = {s.name: s.points for s in standings(db).lines}
    # one table: Dora 2 + 1 attendance, Carl 1 + 1, Bert 0.5 + 1, Anna 0 + 1
    assert july == {D: 3, C: 2, B: 1.5, A: 1}
    assert standings(db).season == "2026-2"
    assert {s.name: s.points for s in standings(db, "2026-1").lines}[A] == 14 + 1
