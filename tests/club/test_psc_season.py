"""Three PSC Five Spades evenings into the club database: the season's standings are
the sums of the 000 5.4 table, worked out by hand (000 5.1, 5.4, 5.5, 6, 7.2, 8.1)."""

from __future__ import annotations

import pytest

from controller.club.db import open_club
from controller.club.imports import import_log
from controller.club.standings import standings, standings_csv
from tests.club.nights import psc_settings, tournament

A, B, C, D, E, F, G, H = ("Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck", "Emil Frey",
                          "Fritz Gall", "Gina Hahn", "Hans Ilg")


@pytest.fixture
def season(tmp_path):
    """Three evenings of 2026 (Gina is a guest):

    1. 6 players, out F E D C B (by A each time): places A1 B2 C3; 000 5.4 column 6:
       6, 3, 1.
    2. 7 players, out A G F E D C (by B): B1 C2 D3 E4; column 7: 7, 4, 2, 1.
    3. 8 players, out H G F E D B C (by A): A1 C2 B3 D4; column 8: 8, 5, 3, 1.
    """
    s = psc_settings()
    logs = [
        tournament(tmp_path / "t1.sqlite", s, [A, B, C, D, E, F],
                   [(F, A), (E, A), (D, A), (C, A), (B, A)], day="2026-01-09"),
        tournament(tmp_path / "t2.sqlite", s, [A, B, C, D, E, F, G],
                   [(A, B), (G, B), (F, B), (E, B), (D, B), (C, B)], day="2026-02-13",
                   guests=[G]),
        tournament(tmp_path / "t3.sqlite", s, [A, B, C, D, E, F, G, H],
                   [(H, A), (G, A), (F, A), (E, A), (D, A), (B, A), (C, A)], day="2026-03-13",
                   guests=[G], drawn={A: [H, F, E]}),
    ]
    return logs


def test_three_evenings_sum_the_000_5_4_table(tmp_path, season):
    db = open_club(tmp_path / "club.sqlite")
    for log in season:
        assert import_log(db, str(log)).status == "imported"
    table = standings(db)
    assert table.season == "2026"  # 000 5.6: a season is the calendar year
    got = {s.name: (s.place, s.points, s.tournaments) for s in table.lines}
    # by hand: A 6+0+8, B 3+7+3, C 1+4+5, D 0+2+1, E 0+1+0
    assert got[A] == (1, 14, 3)
    assert got[B] == (2, 13, 3)
    assert got[C] == (3, 10, 3)
    assert got[D] == (4, 3, 3)
    assert got[E] == (5, 1, 3)
    assert got[G][1:] == (0, 2) and got[H][1:] == (0, 1)


def test_championship_knock_outs_with_the_drawn_name_bonus(tmp_path, season):
    """000 6.1-6.3, 8.2: 1 point a knock-out, 2 more for a drawn name; members only."""
    db = open_club(tmp_path / "club.sqlite")
    for log in season:
        import_log(db, str(log))
    extra = {s.name: s.extra for s in standings(db).lines}
    # A: 5 knock-outs in evening 1, 7 in evening 3 of which H, F, E were drawn: 12 + 3×2
    assert extra[A]["knockout_points"] == 18
    assert extra[B]["knockout_points"] == 6
    assert extra[A]["wins"] == 2 and extra[B]["wins"] == 1


def test_reimport_changes_nothing(tmp_path, season):
    db = open_club(tmp_path / "club.sqlite")
    for log in season:
        import_log(db, str(log))
    before = standings_csv(standings(db))
    counts = [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("players", "tournaments", "results")]
    for log in season:
        assert import_log(db, str(log)).status == "unchanged"
    assert standings_csv(standings(db)) == before
    assert [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("players", "tournaments", "results")] == counts == [8, 3, 21]


def test_members_only_titles_and_public_names(tmp_path, season):
    """000 8.1: titles for members only; 000 5.8: non-members shortened in public."""
    db = open_club(tmp_path / "club.sqlite")
    for log in season:
        import_log(db, str(log))
    lines = standings(db).lines
    gina = next(s for s in lines if s.name == G)
    assert gina.extra["title"] is None and not gina.member
    assert [s.extra["title"] for s in lines if s.member][:3] == [1, 2, 3]
    public = {s.player_id: s.name for s in standings(db, public=True).lines}
    assert public[gina.player_id] == "Gina H."
    assert A in public.values()


def test_cup_needs_five_tournaments_and_points(tmp_path):
    """000 7.2: a member with at least 5 of the season's tournaments and once in the points.
    Five 6-player evenings: Anna wins all; Fritz never scores; Bert plays only four."""
    s = psc_settings()
    db = open_club(tmp_path / "club.sqlite")
    for n in range(5):
        field = [A, B, C, D, E, F] if n < 4 else [A, C, D, E, F, G]
        out = [p for p in reversed(field) if p != A]  # last named out first, A wins
        log = tournament(tmp_path / f"t{n}.sqlite", s, field, [(p, None) for p in out],
                         day=f"2026-0{n + 1}-02", guests=[G])
        import_log(db, str(log))
    cup = {s.name: s.extra["cup"] for s in standings(db).lines}
    assert cup[A] is True
    assert cup[B] is False  # four tournaments
    assert cup[F] is False  # five tournaments, never in the points (000 7.2)
    assert cup[C] is True  # C scored (place 3 or better with 6 players)


def test_a_new_season_starts_at_zero(tmp_path, season):
    """000 5.5: the ranking resets each season."""
    s = psc_settings()
    db = open_club(tmp_path / "club.sqlite")
    for log in season:
        import_log(db, str(log))
    log = tournament(tmp_path / "t4.sqlite", s, [A, B, C, D, E, F],
                     [(A, None), (B, None), (C, None), (D, None), (E, None)], day="2027-01-08")
    import_log(db, str(log))
    new = standings(db)
    assert new.season == "2027"
    assert {x.name: x.points for x in new.lines}[F] == 6
    assert {x.name: x.points for x in new.lines}[A] == 0
    assert {x.name: x.points for x in standings(db, "2026").lines}[A] == 14


def test_equal_points_count_back_on_wins(tmp_path):
    """The preset's choice (000 silent): equal points, more wins ranks first."""
    s = psc_settings()
    db = open_club(tmp_path / "club.sqlite")
    # evening 1 (6 players): A 1st = 6, B 2nd = 3; evening 2 (9 players): Ida 1st = 9,
    # B 2nd = 6. Ida and B have 9 each; Ida has a win, B none.
    t1 = tournament(tmp_path / "a.sqlite", s, [A, B, C, D, E, F],
                    [(F, None), (E, None), (D, None), (C, None), (B, None)], day="2026-01-02")
    nine = [A, B, C, D, E, F, G, H, "Ida Jung"]
    t2 = tournament(tmp_path / "b.sqlite", s, nine,
                    [(A, None), (H, None), (G, None), (F, None), (E, None), (D, None),
                     (C, None), (B, None)], day="2026-01-09")
    for log in (t1, t2):
        import_log(db, str(log))
    lines = {x.name: x for x in standings(db).lines}
    # 000 5.4: 6 players, 1st = 6; 9 players, 2nd = 6 (and B 3 in evening 1: 2nd of 6)
    assert lines[A].points == 6 + 0
    assert lines["Ida Jung"].points == 9
    assert lines[B].points == 3 + 6
    # Ida 9 (one win), B 9 (no win): count back puts Ida first
    assert lines["Ida Jung"].place == 1 and lines[B].place == 2
