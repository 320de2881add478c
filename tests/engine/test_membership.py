"""Members and guests at the desk (000 1.1, 1.7, 2.1, 2.5; 003 1, 8) and one table a
player across a floor's tournaments (001 §1 III). The club's facts come in with the
command (``member``, ``adult``); the decision is the log's."""

from __future__ import annotations

from controller.engine.settings import Desk
from tests.support.settings import new_tournament, rejected, replay_equal


# ------------------------------------------------------------- 000 2.5, 003 8
def test_a_members_only_event_refuses_a_guest_with_the_reason_000_2_5():
    """000 2.5 "Die Teilnahme zur vereinsinternen Meisterschaft und dem Cup ist
    ausschließlich Vereinsmitgliedern gestattet"; 003 8 "für Mitglieder"."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(members_only=True))
    why = rejected(t, {"cmd": "register", "names": ["Anna", "Gast"], "member": False},
                   match="for members only")
    assert "Gast" in why and "000 2.5" in why
    rejected(t, {"cmd": "preregister", "names": "Gast", "member": False}, match="members only")
    rejected(t, {"cmd": "late", "name": "Gast", "member": False}, match="members only")
    t.execute({"cmd": "register", "names": ["Anna", "Bert"]}, 1.0)
    assert sorted(p.name for p in t.players.values()) == ["Anna", "Bert"]


def test_a_members_only_event_refuses_a_guest_arriving_late_000_2_5():
    from controller.engine.settings import Entries

    t = new_tournament(4, desk=Desk(members_only=True),
                       entries=Entries(late_registration_levels=2))
    rejected(t, {"cmd": "register", "names": "Gast", "member": False}, match="members only")
    t.execute({"cmd": "late", "name": "Mitglied"}, 10.0)
    assert "Mitglied" in [p.name for p in t.players.values()]


def test_a_guest_at_a_public_night_plays_on_a_day_membership_000_1_7():
    """000 1.7: a day membership lets a guest play one public tournament: the
    registration's record says guest (the club database counts it on import)."""
    t = new_tournament(0, draw=False, start=False)
    events = t.execute({"cmd": "register", "names": "Gast", "member": False}, 1.0)
    assert [(e["type"], e["member"]) for e in events] == [("registered", False)]
    replay_equal(t)


# ------------------------------------------------------------------ 000 1.1, 003 1
def test_a_player_not_18_is_refused_000_1_1_003_1():
    t = new_tournament(0, draw=False, start=False)
    why = rejected(t, {"cmd": "register", "names": "Kid", "adult": False}, match="not 18")
    assert "000 1.1" in why


def test_the_confirmed_age_is_recorded_for_each_player_000_1_1():
    """The desk asked: the log keeps who confirmed being 18 (no ID), seated or waiting."""
    t = new_tournament(0, draw=False, start=False, desk=Desk(seats=1))
    events = t.execute({"cmd": "register", "names": ["A", "B"], "adult": True}, 1.0)
    assert [e["type"] for e in events] == ["registered", "waitlisted", "age_confirmed",
                                           "age_confirmed"]
    assert [e["name"] for e in events if e["type"] == "age_confirmed"] == ["A", "B"]
    from controller.engine.settings import Entries

    late = new_tournament(2, entries=Entries(late_registration_levels=2))
    events = late.execute({"cmd": "late", "name": "C", "adult": True}, 10.0)
    assert events[-1]["type"] == "age_confirmed"
    # on record already: nothing asked, nothing recorded
    events = t.execute({"cmd": "preregister", "names": "D"}, 2.0)
    assert "age_confirmed" not in [e["type"] for e in events]
    replay_equal(t)


# ------------------------------------------------------------------ 001 §1 III
START = "2026-11-27T19:30+01:00"
START_AT = 1_795_804_200.0


def test_a_player_seated_in_an_earlier_tournament_is_neither_busted_nor_moved_001_1_3():
    """001 §1 III: "kann er aktiv an dem Tisch teilnehmen der früher gestartet ist – an dem
    zweiten sind ihm erst Aktionen möglich wenn er den ersten beendet hat"."""
    t = new_tournament(0, draw=False, start=False)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 7)]}, START_AT)
    t.execute({"cmd": "draw"}, START_AT + 1)
    t.execute({"cmd": "start"}, START_AT + 2)
    t.execute({"cmd": "elsewhere", "player": "P1", "tournament": "PSC Bounty",
               "started": "2026-11-27T19:00+01:00"}, START_AT + 10)
    why = rejected(t, {"cmd": "bust", "player": "P1"}, START_AT + 20, match="PSC Bounty")
    assert "started earlier" in why and "001 §1 III" in why
    p1 = t.players[t.by_name["p1"]]
    rejected(t, {"cmd": "reseat", "player": "P1", "table": p1.table, "reason": "x"},
             START_AT + 20, match="001 §1 III")
    t.execute({"cmd": "elsewhere", "player": "P1", "tournament": "PSC Bounty", "done": True},
              START_AT + 30)
    t.execute({"cmd": "bust", "player": "P1"}, START_AT + 40)
    assert t.players[p1.id].out
    replay_equal(t)


def test_the_tournament_that_started_earlier_is_where_the_player_plays_001_1_3():
    t = new_tournament(0, draw=False, start=False)
    t.execute({"cmd": "register", "names": ["A", "B", "C"]}, START_AT)
    t.execute({"cmd": "draw"}, START_AT + 1)
    t.execute({"cmd": "start"}, START_AT + 2)
    why = rejected(t, {"cmd": "elsewhere", "player": "A", "tournament": "Late Night",
                       "started": "2026-11-27T21:00+01:00"}, START_AT + 5)
    assert "plays here" in why
    rejected(t, {"cmd": "elsewhere", "player": "A", "tournament": "X", "started": "gestern"},
             match="no date")
    rejected(t, {"cmd": "elsewhere", "player": "A", "tournament": "X"}, match="started")
    rejected(t, {"cmd": "elsewhere", "player": "A", "tournament": "X", "done": True},
             match="plays here only")


def test_a_balancing_move_takes_the_next_player_not_the_one_playing_elsewhere_001_1_3():
    from controller.engine.rules import seating

    t = new_tournament(0, draw=False, start=False, players_per_table=4, table_seats=4)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 8)]}, START_AT)
    t.execute({"cmd": "draw"}, START_AT + 1)
    t.execute({"cmd": "start"}, START_AT + 2)
    big = max(t.tables.values(), key=lambda tab: tab.count())
    first = seating.mover_seats(t, big, START_AT + 3)[0]
    who = t.players[big.occupant[first]].name
    t.execute({"cmd": "elsewhere", "player": who, "tournament": "Bounty",
               "started": "2026-11-27T18:00+01:00"}, START_AT + 3)
    assert big.occupant[first] not in [big.occupant[s]
                                       for s in seating.mover_seats(t, big, START_AT + 4)]


def test_the_desk_names_the_guests_among_a_list_000_2_1():
    """000 2.1: a member without the season's fee plays as a guest; the desk's door names
    them (``guests``) and the rest stay members."""
    t = new_tournament(0, draw=False, start=False)
    events = t.execute({"cmd": "register", "names": ["Anna", "Bert"], "guests": ["bert"]}, 1.0)
    assert [(e["name"], e["member"]) for e in events] == [("Anna", True), ("Bert", False)]
    cup = new_tournament(0, draw=False, start=False, desk=Desk(members_only=True))
    why = rejected(cup, {"cmd": "preregister", "names": ["Anna", "Bert"], "guests": ["Bert"]})
    assert "Bert is a guest" in why
