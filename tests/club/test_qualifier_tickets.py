"""Pokerlounge Berlin qualifiers (001 §2 III): tickets and re-entries issued by the
qualifier SNGs, and used by the main event that follows."""

from __future__ import annotations

from controller.club.db import open_club
from controller.club.imports import import_log
from controller.club.standings import standings
from controller.config import load_tournament
from tests.club.nights import REPO, tournament

NINE = ["Ada", "Ben", "Cem", "Dan", "Eli", "Fin", "Gil", "Hal", "Ivo"]
SIX = NINE[:6]


def test_tickets_issued_and_used(tmp_path):
    qualifier = load_tournament(REPO / "config" / "tournaments" / "pokerlounge-qualifier.yaml")
    main = load_tournament(REPO / "config" / "tournaments" / "pokerlounge-freezeout.yaml")
    db = open_club(tmp_path / "club.sqlite")
    # 9 players: the heads-up is not played, Ada and Ben both get a ticket, Cem (3rd) a
    # re-entry (001 §2 III)
    q1 = tournament(tmp_path / "q1.sqlite", qualifier, NINE,
                    [(n, None) for n in reversed(NINE[2:])], day="2026-02-01")
    # 6 players: Ada 1st a ticket, Dan 2nd a re-entry
    six = ["Ada", "Dan", "Eli", "Fin", "Gil", "Hal"]
    q2 = tournament(tmp_path / "q2.sqlite", qualifier, six,
                    [(n, None) for n in reversed(six[1:])], day="2026-02-08")
    # the main event: Ada plays it (one of her two tickets used), Ben does not
    field = ["Ada", "Cem", "Dan", "Eli", "Fin", "Gil", "Hal", "Ivo", "Jan", "Kai", "Lou",
             "Max"]
    m = tournament(tmp_path / "m.sqlite", main, field, [(n, None) for n in reversed(field[1:])],
                   day="2026-02-15")
    for log in (q1, q2, m):
        assert import_log(db, str(log)).status == "imported"
    got = {s.name: (s.extra["tickets"], s.extra["tickets_used"], s.extra["re_entries"])
           for s in standings(db).lines}
    assert got["Ada"] == (2, 1, 0)
    assert got["Ben"] == (1, 0, 0)
    assert got["Cem"] == (0, 0, 1)  # a re-entry is no ticket: plays the main event anyway
    assert got["Dan"] == (0, 0, 1)
    assert got["Max"] == (0, 0, 0)
