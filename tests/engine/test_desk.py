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


# ------------------------------------------------------------- 000 2.2, 2.6, 2.7
START = "2026-11-27T19:30+01:00"
START_AT = 1_795_804_200.0  # START in seconds since the epoch
HOUR = 3600.0


def test_start_at_is_the_announced_start():
    import datetime

    assert datetime.datetime.fromisoformat(START).timestamp() == START_AT


def test_pre_registered_players_hold_a_seat_and_are_expected_000_2_2():
    """000 2.2: "Die Anmeldung zu einem Turnier erfolgt per Mail ..., per facebook ... oder
    persönlich beim Organisator bis zum jeweils genannten Nennschluss"."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=3))
    events = t.execute({"cmd": "preregister", "names": ["Eva", "Karl"]}, 1.0)
    assert [e["type"] for e in events] == ["registered", "expected"] * 2
    assert names(t) == ["Eva", "Karl"]
    assert [t.players[p].name for p in desk.expected(t)] == ["Eva", "Karl"]
    # pre-registered players hold their seats: the desk's arrivals take what is left
    t.execute({"cmd": "register", "names": ["Anna", "Ben"]}, 2.0)
    assert line(t) == ["Ben"]
    # one tap at the desk
    t.execute({"cmd": "check_in", "player": "Eva"}, 3.0)
    assert [t.players[p].name for p in desk.expected(t)] == ["Karl"]
    rejected(t, {"cmd": "check_in", "player": "Eva"}, match="Eva is already checked in")
    rejected(t, {"cmd": "check_in", "player": "Anna"}, match="Anna is already checked in")
    replay_equal(t)


def test_a_pre_registration_beyond_the_limit_waits_and_is_checked_in_there_000_2_2():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    t.execute({"cmd": "preregister", "names": ["Eva", "Karl"]}, 1.0)
    assert line(t) == ["Karl"] and t.desk.waiting[0].expected
    t.execute({"cmd": "check_in", "player": "Karl"}, 2.0)
    assert not t.desk.waiting[0].expected
    rejected(t, {"cmd": "check_in", "player": "karl"}, match="waiting list, position 1")


def test_the_draw_takes_the_no_shows_off_and_calls_the_waiting_000_2_7():
    """000 2.7: "Meldet sich ein Turnierteilnehmer zu einem Turnier an und erscheint ohne
    Abmeldung nicht": whoever is still expected at the draw is a no-show; the seats go to
    the waiting list who are here, before the seats are drawn."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=3))
    t.execute({"cmd": "preregister", "names": ["Eva", "Karl", "Lea", "Max"]}, 1.0)
    t.execute({"cmd": "check_in", "player": "Eva"}, 2.0)
    t.execute({"cmd": "register", "names": ["Anna"]}, 3.0)  # came to the desk, waits
    assert line(t) == ["Max", "Anna"]
    events = t.execute({"cmd": "draw"}, 10.0)
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["no_shows", "waiting_called", "registered", "seats_drawn"]
    shows = next(e for e in events if e["type"] == "no_shows")
    assert shows["names"] == ["Karl", "Lea", "Max"]
    assert names(t) == ["Anna", "Eva"]
    assert t.desk.no_shows == ["Karl", "Lea", "Max"] and line(t) == []
    assert all(p.table is not None for p in t.players.values() if not p.ghost)
    replay_equal(t)


def test_a_draw_without_pre_registrations_has_no_no_shows():
    t = new_tournament(4, draw=False, start=False)
    events = t.execute({"cmd": "draw"}, 10.0)
    assert "no_shows" not in [e["type"] for e in events]


def test_a_cancellation_until_the_deadline_000_2_6():
    """000 2.6: "Eine Turnierabsage ... kann bis 6 Stunden vor Turnierbeginn ... erfolgen"."""
    t = new_tournament(0, draw=False, start=False,
                       desk=Desk(seats=2, starts=START, cancel_hours=6))
    t.execute({"cmd": "preregister", "names": ["Eva", "Karl", "Lea"]}, START_AT - 48 * HOUR)
    events = t.execute({"cmd": "cancel", "player": "Eva"}, START_AT - 6 * HOUR - 1)
    assert [e["type"] for e in events] == ["unregistered", "waiting_called", "registered",
                                           "expected"]
    assert names(t) == ["Karl", "Lea"]
    rejected(t, {"cmd": "cancel", "player": "Karl"}, now=START_AT - 5 * HOUR,
             match="cancellations close 6 h before the start (000 2.6)")
    t.execute({"cmd": "cancel", "player": "Karl", "force": True}, START_AT - 5 * HOUR)
    assert names(t) == ["Lea"]
    replay_equal(t)


def test_a_cancellation_takes_a_waiting_player_off_the_line():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    t.execute({"cmd": "preregister", "names": ["Eva", "Karl", "Lea"]}, 1.0)
    t.execute({"cmd": "cancel", "player": "Karl"}, 2.0)
    assert line(t) == ["Lea"]
    rejected(t, {"cmd": "cancel", "player": "Nobody"}, match="no player called 'Nobody'")


def test_pre_registration_ends_with_the_draw():
    t = new_tournament(4)
    rejected(t, {"cmd": "preregister", "names": ["Eva"]}, match="late entries")


def test_an_undone_draw_brings_the_no_shows_back():
    t = new_tournament(0, draw=False, start=False)
    t.execute({"cmd": "preregister", "names": ["Eva", "Karl", "Lea"]}, 1.0)
    t.execute({"cmd": "check_in", "player": "Eva"}, 2.0)
    t.execute({"cmd": "check_in", "player": "Karl"}, 2.0)
    t.execute({"cmd": "draw"}, 10.0)
    assert names(t) == ["Eva", "Karl"]
    t.execute({"cmd": "undo"}, 11.0)
    assert names(t) == ["Eva", "Karl", "Lea"] and t.desk.no_shows == []
    replay_equal(t)


# ------------------------------------------------------------------- 000 2.3
DAY = 86400.0
GUARANTEE = Desk(seats=2, starts=START, members_guaranteed_days=7)


def test_a_member_registered_a_week_ahead_has_a_seat_for_sure_000_2_3():
    """000 2.3: "Vereinsmitglieder haben zu diesen Turnieren immer eine
    Teilnahmeberechtigung, sofern sie sich mindestens 1 Woche vor Turnierbeginn angemeldet
    haben. In der letzten Woche vor dem Turnier gilt dieselbe Regelung wie für
    Nicht-Vereinsmitglieder": the last registration without that guarantee gives the seat
    and waits first in line."""
    t = new_tournament(0, draw=False, start=False, desk=GUARANTEE)
    t.execute({"cmd": "preregister", "names": ["Gast A", "Gast B"], "member": False},
              START_AT - 20 * DAY)
    events = t.execute({"cmd": "preregister", "names": "Mitglied M"}, START_AT - 8 * DAY)
    assert [e["type"] for e in events] == ["bumped", "registered", "expected"]
    assert names(t) == ["Gast A", "Mitglied M"]
    assert line(t) == ["Gast B"] and t.desk.waiting[0].expected
    # in the last week a member is in line like everyone else
    t.execute({"cmd": "preregister", "names": "Mitglied N"}, START_AT - 3 * DAY)
    assert line(t) == ["Gast B", "Mitglied N"]
    replay_equal(t)


def test_when_every_seat_is_guaranteed_the_member_waits_000_2_3():
    t = new_tournament(0, draw=False, start=False, desk=GUARANTEE)
    t.execute({"cmd": "preregister", "names": ["M1", "M2"]}, START_AT - 10 * DAY)
    t.execute({"cmd": "preregister", "names": ["M3"]}, START_AT - 9 * DAY)
    assert names(t) == ["M1", "M2"] and line(t) == ["M3"]


def test_a_member_without_the_preset_rule_waits_like_everyone():
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1, starts=START))
    t.execute({"cmd": "register", "names": ["Gast"], "member": False}, START_AT - 20 * DAY)
    t.execute({"cmd": "register", "names": ["Mitglied"]}, START_AT - 10 * DAY)
    assert line(t) == ["Mitglied"]


def test_a_re_entry_on_a_sold_out_night_waits_in_line_002():
    """002: a sold-out night: a busted player's re-entry takes no seat beyond the limit
    and jumps nobody: it goes on the waiting list, and the next free seat calls it."""
    from controller.engine.settings import Entries

    t = new_tournament(4, desk=Desk(seats=4),
                       entries=Entries(late_registration_levels=2, reentries=1,
                                       reentry_until_level=2))
    t.execute({"cmd": "late", "name": "Late 1"}, 10.0)  # sold out: waits
    events = t.execute({"cmd": "bust", "player": "Player 2"}, 20.0)
    assert [e["type"] for e in events][-3:] == ["waiting_called", "registered", "late_entry"]
    events = t.execute({"cmd": "reentry", "player": "Player 2"}, 30.0)
    assert [(e["type"], e.get("reentry")) for e in events] == [("waitlisted", True)]
    assert line(t) == ["Player 2"]
    assert t.players[t.by_name["player 2"]].out
    rejected(t, {"cmd": "reentry", "player": "Player 2"}, match="already on the waiting list")
    events = t.execute({"cmd": "bust", "player": "Player 3"}, 40.0)
    assert [e["type"] for e in events][-2:] == ["waiting_called", "reentry"]
    p2 = t.players[t.by_name["player 2"]]
    assert not p2.out and p2.table is not None and p2.entries == 2
    assert line(t) == []
    replay_equal(t)
