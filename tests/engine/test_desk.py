"""The registration desk: the seat limit and the waiting list (002, 000 2.3-2.4),
pre-registration, check-in and cancellation (000 2.2, 2.6), the no-shows (000 2.7)."""

from __future__ import annotations

from controller.engine.rules import desk
from controller.engine.settings import Desk
from tests.support.settings import new_tournament, rejected, replay_equal


def names(t) -> list[str]:
    return sorted(p.name for p in t.players.values() if not p.ghost)


def line(t) -> list[str]:
    return [w.name for w in t.desk.waiting]


# ------------------------------------------------------------ 002, 000 2.3-2.4
def test_registrations_beyond_the_seat_limit_wait_in_order_002():
    """002 "Warteliste (first come, first serve): Spieler ohne Sitzplatz werden in
    Reihenfolge des Eintreffens vorgemerkt"."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=3))
    events = t.execute({"cmd": "register", "names": ["A", "B", "C", "D", "E"]}, 1.0)
    assert names(t) == ["A", "B", "C"]
    assert line(t) == ["D", "E"]
    assert [e["type"] for e in events] == ["registered"] * 3 + ["waitlisted"] * 2
    assert desk.position(t, t.desk.waiting[1].id) == 2
    t.execute({"cmd": "register", "names": "F"}, 2.0)
    assert line(t) == ["D", "E", "F"]
    replay_equal(t)


def test_the_limit_is_the_rooms_tables_times_the_players_a_table_002():
    t = new_tournament(0, draw=False, start=False, desk=Desk(tables=2), players_per_table=6,
                       table_seats=9)
    assert desk.limit(t) == 12
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(14)]}, 1.0)
    assert len(t.players) == 12
    assert line(t) == ["P12", "P13"]


def test_a_cancelled_registration_calls_the_first_in_line_002():
    """A seat freed before the draw goes to the first on the waiting list, not a later one."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=2))
    t.execute({"cmd": "register", "names": ["A", "B", "C", "D"]}, 1.0)
    events = t.execute({"cmd": "unregister", "player": "A"}, 2.0)
    assert [e["type"] for e in events] == ["unregistered", "waiting_called", "registered"]
    assert names(t) == ["B", "C"]
    assert line(t) == ["D"]
    called = t.players[t.by_name["c"]]
    assert called.id == 3  # the id given on the waiting list
    replay_equal(t)


def test_more_seats_call_the_next_in_line_and_fewer_than_taken_are_refused_002():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=2))
    t.execute({"cmd": "register", "names": ["A", "B", "C", "D", "E"]}, 1.0)
    t.execute({"cmd": "capacity", "seats": 4}, 2.0)
    assert names(t) == ["A", "B", "C", "D"]
    assert line(t) == ["E"]
    rejected(t, {"cmd": "capacity", "seats": 3}, match="4 players already have a seat")
    rejected(t, {"cmd": "capacity", "seats": 4}, match="already 4")
    rejected(t, {"cmd": "capacity", "seats": 5, "tables": 1}, match="not both")
    t.execute({"cmd": "capacity"}, 3.0)  # no limit: everyone in
    assert line(t) == []
    assert len(t.players) == 5
    replay_equal(t)


def test_a_newcomer_does_not_jump_the_line_when_a_seat_is_free_002():
    """First come, first served: with someone waiting, a newcomer waits behind."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    t.execute({"cmd": "register", "names": ["A", "B"]}, 1.0)
    assert line(t) == ["B"]
    t.execute({"cmd": "register", "names": "C"}, 2.0)
    assert line(t) == ["B", "C"]


def test_the_director_may_seat_beyond_the_limit_with_force():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    t.execute({"cmd": "register", "names": ["A", "B", "C"]}, 1.0)
    t.execute({"cmd": "unregister", "player": "C"}, 1.5)  # off the waiting list
    assert line(t) == ["B"]
    t.execute({"cmd": "register", "names": "D", "force": True}, 2.0)
    assert names(t) == ["A", "D"]


def test_a_name_on_the_waiting_list_is_taken():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    t.execute({"cmd": "register", "names": ["Anna", "Bert"]}, 1.0)
    rejected(t, {"cmd": "register", "names": "bert"}, match="on the waiting list (position 1)")


def test_after_the_draw_a_late_arrival_waits_and_a_bust_calls_the_first_002():
    """002: the waiting list comes before anyone arriving later, while late registration
    is open ("Alle Akkreditierungen vor Ende der Late Registration haben
    Teilnahmemöglichkeit")."""
    from controller.engine.settings import Entries

    t = new_tournament(4, desk=Desk(seats=4), entries=Entries(late_registration_levels=2))
    t.execute({"cmd": "late", "name": "Late 1"}, 10.0)
    t.execute({"cmd": "late", "name": "Late 2"}, 11.0)
    assert line(t) == ["Late 1", "Late 2"]
    events = t.execute({"cmd": "bust", "player": "Player 2"}, 20.0)
    kinds = [e["type"] for e in events]
    assert kinds[-3:] == ["waiting_called", "registered", "late_entry"]
    late = t.players[t.by_name["late 1"]]
    assert late.table is not None
    assert line(t) == ["Late 2"]
    replay_equal(t)
