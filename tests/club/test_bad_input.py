"""Imports and queries the club database refuses: one clear reason, nothing changed."""

from __future__ import annotations

import shutil
import sqlite3
import threading

import pytest

from controller.club import players
from controller.club.db import ClubError, open_club
from controller.club.imports import import_log
from controller.club.standings import standings
from controller.config import load_tournament
from tests.club.nights import REPO, psc_settings, tournament

SIX = ["Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck", "Emil Frey", "Fritz Gall"]
OUT = [(p, None) for p in reversed(SIX[1:])]


def counts(db: sqlite3.Connection) -> list[int]:
    return [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("players", "tournaments", "results", "meta")]


def test_a_log_of_another_club_is_refused(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    import_log(db, str(tournament(tmp_path / "psc.sqlite", psc_settings(), SIX, OUT,
                                  day="2026-01-02")))
    before = counts(db)
    other = load_tournament(REPO / "config" / "tournaments" / "pokerlounge-freezeout.yaml")
    log = tournament(tmp_path / "pl.sqlite", other, SIX, OUT, day="2026-01-03")
    with pytest.raises(ClubError, match="tournament of pokerlounge-berlin, this is the club "
                       "database of psc-five-spades; nothing imported"):
        import_log(db, str(log))
    assert counts(db) == before


def test_an_unfinished_tournament_is_refused(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    log = tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT, day="2026-01-02",
                     finish=False)
    with pytest.raises(ClubError, match="is not over yet"):
        import_log(db, str(log))
    assert counts(db) == [0, 0, 0, 0]


def test_a_tournament_of_no_club_is_refused(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    log = tournament(tmp_path / "t.sqlite", psc_settings("club: {name: null}"), SIX, OUT,
                     day="2026-01-02")
    with pytest.raises(ClubError, match="belongs to no club"):
        import_log(db, str(log))
    assert counts(db) == [0, 0, 0, 0]


def test_a_damaged_log_is_never_taken_half(tmp_path):
    """An edited event breaks the hash chain (000 3.3): the whole log is refused."""
    db = open_club(tmp_path / "club.sqlite")
    log = tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT, day="2026-01-02")
    edited = tmp_path / "edited.sqlite"
    shutil.copy(log, edited)
    raw = sqlite3.connect(edited)
    body = raw.execute("SELECT body FROM events WHERE type = 'registered' LIMIT 1").fetchone()[0]
    raw.execute("UPDATE events SET body = ? WHERE body = ?",
                (body.replace("Anna Berg", "Anna Borg"), body))
    raw.commit()
    raw.close()
    with pytest.raises(ClubError, match=r"the log is damaged.*was edited\); nothing imported"):
        import_log(db, str(edited))
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"no database at all" * 100)
    with pytest.raises(ClubError, match="not a Floorman event log; nothing imported"):
        import_log(db, str(garbage))
    assert counts(db) == [0, 0, 0, 0]


def test_an_unknown_season_is_refused(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    with pytest.raises(ClubError, match="no tournament imported yet"):
        standings(db)
    import_log(db, str(tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT,
                                  day="2026-01-02")))
    with pytest.raises(ClubError, match="no season '2025' in the club database "
                       r"\(seasons: 2026\)"):
        standings(db, "2025")


def test_two_imports_at_once_never_double_a_tournament(tmp_path):
    """Two imports of one log at the same moment (the controller's and the director's):
    BEGIN IMMEDIATE makes the second wait, then find the tournament."""
    log = tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT, day="2026-01-02")
    club = tmp_path / "club.sqlite"
    open_club(club).close()
    start = threading.Barrier(4)
    results: list[str] = []

    def one() -> None:
        db = open_club(club)
        start.wait()
        results.append(import_log(db, str(log)).status)
        db.close()

    threads = [threading.Thread(target=one) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == ["imported", "unchanged", "unchanged", "unchanged"]
    db = open_club(club)
    assert counts(db)[:3] == [6, 1, 6]


def test_a_file_that_is_no_club_database_is_refused(tmp_path):
    log = tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT, day="2026-01-02")
    with pytest.raises(ClubError, match="is a tournament's event log, not a club database"):
        open_club(log)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"x" * 4096)
    with pytest.raises(ClubError, match="not a club database"):
        open_club(junk)


def test_near_duplicates_are_flagged(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    players.add(db, "Hans Müller", member=True, member_since="2019-03-01")
    with pytest.raises(ClubError, match="already in the club list as 'Hans Müller'"):
        players.add(db, "Hans Mueller")  # the umlaut written out is the same name
    with pytest.raises(ClubError, match="looks like 'Hans Müller'"):
        players.add(db, "hans muller")
    assert players.add(db, "hans muller", force=True).name == "hans muller"
    assert not players.similar("Player 0011", "Player 0014")
    assert players.similar("Anna Schmid", "Anna Schmidt")
    assert [p.name for p in players.search(db, "mül")] == ["Hans Müller", "hans muller"]


def test_an_import_finds_players_by_alias(tmp_path):
    db = open_club(tmp_path / "club.sqlite")
    players.add(db, "Anna Bergmann", member=True)
    players.add_alias(db, "Anna Berg", "Anna Bergmann")
    import_log(db, str(tournament(tmp_path / "t.sqlite", psc_settings(), SIX, OUT,
                                  day="2026-01-02")))
    lines = {s.name: s.points for s in standings(db).lines}
    assert lines["Anna Bergmann"] == 6 and "Anna Berg" not in lines


def test_another_copy_of_an_imported_tournament_is_refused(tmp_path):
    """Two logs that start alike (same opening) and then differ: the second is no
    continuation of the first, so it cannot replace it."""
    db = open_club(tmp_path / "club.sqlite")
    one = tournament(tmp_path / "a.sqlite", psc_settings(), SIX, OUT, day="2026-01-02")
    other = tournament(tmp_path / "b.sqlite", psc_settings(), SIX,
                       [(p, None) for p in SIX[:5]], day="2026-01-02")
    import_log(db, str(one))
    before = counts(db)
    with pytest.raises(ClubError, match="another copy of .* was imported before; nothing "
                       "imported"):
        import_log(db, str(other))
    assert counts(db) == before


def test_two_spellings_in_one_tournament_are_two_players(tmp_path):
    """"Hans Müller" and "Hans Mueller" fold alike, but both played the same evening: two
    people, not one with two results."""
    db = open_club(tmp_path / "club.sqlite")
    field = ["Hans Müller", "Hans Mueller", *SIX[2:]]
    import_log(db, str(tournament(tmp_path / "t.sqlite", psc_settings(), field,
                                  [(p, None) for p in reversed(field[1:])],
                                  day="2026-01-02")))
    lines = {s.name: s.points for s in standings(db).lines}
    assert lines["Hans Müller"] == 6 and lines["Hans Mueller"] == 3
