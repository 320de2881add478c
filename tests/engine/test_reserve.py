"""Reserve seats for late arrivals (issue 31.7).

002 "Sitzordnung im Turnier": "Ist ein Turnier nicht ausverkauft, können einige Plätze für
eventuell zu spät kommende Gäste freigehalten werden. Die Anzahl der freigehaltenen Plätze
entscheidet die Turnierleitung." The director's command with a reason; the draw leaves the
seats free, late entries take them first, balancing counts them as taken and no move,
break or reseat sits anyone there; fewer releases them.
"""

from __future__ import annotations

from controller.engine import history
from controller.engine.rules import seating
from controller.engine.settings import Entries
from controller.engine.tournament import Tournament
from controller.wire import wording
from tests.support.settings import new_tournament, rejected, replay_equal

LATE = Entries(late_registration_levels=4)


def reserved(t: Tournament) -> list[tuple[int, int]]:
    return sorted((n, s) for n, tab in t.tables.items() for s in tab.reserved)


def drawn_with(players: int, seats: int, **kw) -> Tournament:
    t = new_tournament(players, draw=False, start=False, entries=LATE, **kw)
    [e] = t.execute({"cmd": "reserve", "seats": seats, "reason": "Anmeldungen per Mail"}, 0.5)
    assert (e["type"], e["count"]) == ("seats_reserved", seats)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    return t


def test_the_draw_leaves_the_reserve_seats_free_002():
    # 16 players and 2 reserve seats: tables made for 18, two of 9 seats with 8 players each
    t = drawn_with(16, 2)
    assert t.counts() == {1: 8, 2: 8}
    assert len(reserved(t)) == 2 and {n for n, _ in reserved(t)} == {1, 2}
    draw = next(e for e in t.log if e["type"] == "seats_drawn")
    assert sorted(map(tuple, draw["reserved"])) == reserved(t)
    # the button sits on a player (000 3.12: the high card goes to the occupied seats)
    assert t.tables[1].button in t.tables[1].occupant
    replay_equal(t)


def test_a_reserve_that_needs_another_table_opens_it_at_the_draw():
    t = drawn_with(17, 3)  # 20 seats: three tables, 17 players 6/6/5 and 3 kept free
    assert len(t.tables) == 3 and sum(t.counts().values()) == 17
    assert len(reserved(t)) == 3
    assert all(t.tables[n].count() + len(t.tables[n].reserved) in (6, 7) for n in t.tables)


def test_late_arrivals_take_the_reserve_seats_first():
    t = drawn_with(16, 2)
    kept = reserved(t)
    for i in range(2):
        [e] = [x for x in t.execute({"cmd": "late", "name": f"Spät {i}"}, 10.0 + i)
               if x["type"] == "late_entry"]
        assert (e["table"], e["seat"]) in kept
    assert reserved(t) == [] and t.counts() == {1: 9, 2: 9}
    replay_equal(t)


def test_balancing_counts_a_reserved_seat_as_taken_and_never_fills_it():
    t = new_tournament(15, entries=LATE)  # 8 and 7
    [e] = t.execute({"cmd": "reserve", "seats": 1, "reason": "einer kommt später"}, 5.0)
    [(table, seat)] = e["add"]
    assert table == 2
    seat_at_2 = next(s for s in sorted(t.tables[2].occupant))
    t.execute({"cmd": "bust", "table": 2, "seat": seat_at_2}, 6.0)
    # 8 players and 6 + the seat kept: within the tolerance, nobody moves
    assert t.counts() == {1: 8, 2: 6} and seating.balancing(t) == []
    t.execute({"cmd": "hand_done", "table": 1}, 7.0)
    assert not t.pending
    # given back: 8 and 6, table 1 gives a player, who never lands in a kept seat
    t.execute({"cmd": "reserve", "seats": 0, "reason": "abgesagt"}, 8.0)
    assert seating.balancing(t) == [(1, 2)]
    t.execute({"cmd": "reserve", "seats": 1, "reason": "doch"}, 9.0)
    [(_, kept)] = reserved(t)
    assert t.tables[2].worst_seat() != kept
    replay_equal(t)


def test_the_reserve_after_the_draw_goes_to_the_shortest_tables_and_back():
    t = new_tournament(15, entries=LATE)  # 8 and 7
    [e] = t.execute({"cmd": "reserve", "seats": 1, "reason": "Nachzügler"}, 5.0)
    assert [n for n, _ in e["add"]] == [2]  # the shorter table keeps the seat
    [e] = t.execute({"cmd": "reserve", "seats": 3, "reason": "Nachzügler"}, 6.0)
    assert sorted(n for n, _ in e["add"]) == [1, 2]  # 8+1 and 7+2 … one at a time
    assert len(reserved(t)) == 3
    [e] = t.execute({"cmd": "reserve", "seats": 1, "reason": "zwei abgesagt"}, 7.0)
    assert len(e["release"]) == 2 and len(reserved(t)) == 1
    replay_equal(t)
    said = history.event(t, t.log[-1])
    assert said is not None
    line = wording.phrase(said.as_dict(), "de")
    assert line.startswith("Plätze freigehalten: 1") and "(zwei abgesagt)" in line, line
    # the undo gives them back as they were
    t.execute({"cmd": "undo"}, 8.0)
    assert len(reserved(t)) == 3
    replay_equal(t)


def test_a_reserved_seat_is_refused_to_a_reseat_and_a_move_with_the_reason():
    t = drawn_with(16, 2)
    n, s = reserved(t)[0]
    pid = next(iter(t.tables[3 - n].occupant.values()))
    reason = rejected(t, {"cmd": "reseat", "player": pid, "table": n, "seat": s,
                          "reason": "Wunsch"})
    assert "reserved for a late arrival" in reason
    # its table's only other seats are taken: nothing free for the reseat
    assert "has no free seat" in rejected(t, {"cmd": "reseat", "player": pid, "table": n,
                                              "reason": "Wunsch"})
    # a table broken: nobody is seated in a reserved seat; the broken table's go with it
    t2 = new_tournament(19, entries=Entries())  # 7, 6, 6
    [e] = t2.execute({"cmd": "reserve", "seats": 1, "reason": "Nachzügler"}, 3.0)
    assert [n for n, _ in e["add"]] == [2]
    before = reserved(t2)

    def bust_at_1(at: float) -> None:
        seat = sorted(t2.tables[1].occupant)[0]
        t2.execute({"cmd": "bust", "table": 1, "seat": seat}, at)

    bust_at_1(4.0)  # 18 players and a seat kept: the others cannot seat table 3's yet
    assert 3 in t2.tables
    bust_at_1(5.0)  # 17 and one kept: table 3 breaks, nobody in the kept seat
    assert 3 not in t2.tables
    assert reserved(t2) == before
    for tab in t2.tables.values():
        assert not set(tab.occupant) & tab.reserved
    replay_equal(t2)


def test_impossible_reserves_are_refused_with_the_reason():
    t = new_tournament(16, draw=False, start=False)
    assert "need a reason" in rejected(t, {"cmd": "reserve", "seats": 2, "reason": " "})
    assert "already" in rejected(t, {"cmd": "reserve", "seats": 0, "reason": "x"})
    # 4 players and 16 reserve seats: 20 seats on three tables, one with fewer than two
    small = new_tournament(4, draw=False, start=False)
    small.execute({"cmd": "reserve", "seats": 16, "reason": "viele erwartet"}, 0.5)
    assert "fewer than two players" in rejected(small, {"cmd": "draw"})
    drawn = new_tournament(16)  # 2 free seats only
    assert "the tables have 2 free seats: 3 more cannot be reserved" in rejected(
        drawn, {"cmd": "reserve", "seats": 3, "reason": "x"})
    ghosts = new_tournament(10, draw=False, start=False,
                            ghosts=__import__("dataclasses").replace(
                                t.settings.ghosts, enabled=True))
    assert "ghosts keep" in rejected(ghosts, {"cmd": "reserve", "seats": 2, "reason": "x"})


def test_the_command_line_speaks_it():
    from controller.cli import _director_command, build_parser

    def cmd(*argv: str) -> tuple[str, dict]:
        return _director_command(build_parser().parse_args(list(argv)))

    assert cmd("reserve", "2", "--reason", "zwei kommen später") == \
        ("reserve", {"seats": 2, "reason": "zwei kommen später"})
    assert cmd("move", "apply", "--from", "3") == ("move_apply", {"from_table": 3})
    assert cmd("reseat", "Ben", "Meier", "--table", "2", "--reason", "Rollstuhl") == \
        ("reseat", {"player": "Ben Meier", "table": 2, "reason": "Rollstuhl"})


# ---------------------------------------------------- the desk's seat limit (rules/desk.py)
def test_a_reserve_seat_is_not_for_sale_before_the_draw_002():
    """002: seats kept free for late arrivals are seats of the limit: the desk sells the
    others only, the next registration waits; fewer reserved calls the first in line."""
    from controller.engine.rules import desk
    from controller.engine.settings import Desk

    t = new_tournament(0, draw=False, start=False, entries=LATE, desk=Desk(seats=4))
    t.execute({"cmd": "reserve", "seats": 1, "reason": "Anmeldung per Mail"}, 0.5)
    assert desk.seats_free(t) == 3
    events = t.execute({"cmd": "register", "names": ["A", "B", "C", "D"]}, 1.0)
    assert [e["type"] for e in events] == ["registered"] * 3 + ["waitlisted"]
    assert desk.full(t) and [w.name for w in t.desk.waiting] == ["D"]
    events = t.execute({"cmd": "reserve", "seats": 0, "reason": "niemand kommt"}, 2.0)
    assert [e["type"] for e in events] == ["seats_reserved", "waiting_called", "registered"]
    assert t.desk.waiting == [] and len(t.players) == 4
    replay_equal(t)


def test_a_sold_out_night_keeps_no_reserve_002():
    """002 "Ist ein Turnier nicht ausverkauft": the reserve and the players stay within the
    limit, before the draw and after it; the limit cannot drop below both."""
    from controller.engine.rules import desk
    from controller.engine.settings import Desk

    t = new_tournament(0, draw=False, start=False, entries=LATE, desk=Desk(seats=4))
    t.execute({"cmd": "register", "names": ["A", "B", "C"]}, 1.0)
    msg = rejected(t, {"cmd": "reserve", "seats": 2, "reason": "Mail"})
    assert msg == ("3 of the 4 seats are taken: at most 1 can be reserved (002: seats are "
                   "kept free when the tournament is not sold out)")
    assert t.reserve == 0
    t.execute({"cmd": "reserve", "seats": 1, "reason": "Mail"}, 2.0)
    assert desk.seats_free(t) == 0
    assert rejected(t, {"cmd": "capacity", "seats": 3}) == (
        "3 players have a seat and 1 seats are reserved: the limit cannot be 3 (reserve "
        "fewer seats first)")
    t.execute({"cmd": "draw"}, 3.0)
    t.execute({"cmd": "start"}, 4.0)
    # after the draw the reserved seat is the late arrival's own: a late entry takes it
    assert desk.seats_free(t) == 1
    events = t.execute({"cmd": "late", "name": "Late"}, 5.0)
    assert "late_entry" in [e["type"] for e in events] and reserved(t) == []
    assert desk.full(t)
    assert rejected(t, {"cmd": "reserve", "seats": 1, "reason": "Mail"}).startswith(
        "4 of the 4 seats are taken: at most 0 can be reserved")
    replay_equal(t)
