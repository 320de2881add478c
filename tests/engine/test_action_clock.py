"""The action clock / shot clock (001 §1 VI "Aktionszeit", 002 "Shot Clock"): the
dealer's "time" button starts it where the preset has ``time_call.action_seconds``."""

from __future__ import annotations

import dataclasses

from controller.config import load_tournament_text
from controller.engine.tournament import Tournament
from tests.support.settings import make_settings, new_tournament, rejected, replay_equal


def with_action(action: int | None, **time_call) -> Tournament:
    s = make_settings()
    tc = dataclasses.replace(s.time_call, action_seconds=action, **time_call)
    return new_tournament(9, time_call=tc)


def press(t: Tournament, at: float, **extra) -> dict:
    (e,) = t.execute({"cmd": "time_call", "table": 1, "op": "toggle", **extra}, at)
    return e


def test_the_button_starts_the_action_clock_and_restarts_it_for_the_next_decision():
    """001 §1 VI: "Jedem Spieler stehen grundsätzlich xx Sekunden Zeit seinen Spielzug zu
    tätigen": each tap is a new decision, a fresh action time, no countdown."""
    t = with_action(30)
    e = press(t, 100.0)
    assert (e["op"], e["seconds"], e["countdown"], e["action"]) == ("start", 30, 0, True)
    assert t.tables[1].time_call is not None and t.tables[1].time_call.action
    e = press(t, 110.0, seat=3)  # the next player: started again, not cancelled
    assert (e["op"], e["action"], e["seat"]) == ("start", True, 3)
    assert t.tables[1].time_call.started_at == 110.0
    # its time up, the engine ends it by itself
    t.execute({"cmd": "tick"}, 140.0)
    assert t.tables[1].time_call is None
    replay_equal(t)


def test_the_clock_call_replaces_the_action_clock_001_once_per_hand():
    """001 §1 VI: "kann er einmalig mit der Ansage „Zeit/Time“ über weitere 30 Sekunden
    verfügen": the director's call (op start) replaces the action clock, once per hand."""
    t = with_action(20, seconds=30, countdown=0, once_per_hand=True)
    press(t, 100.0)
    (e,) = t.execute({"cmd": "time_call", "table": 1, "op": "start", "seat": 4}, 105.0)
    assert (e["seconds"], "action" in e) == (30, False)
    assert not t.tables[1].time_call.action
    # a tap now ends the call (the player acted), the next tap is an action clock again
    assert press(t, 110.0)["op"] == "cancel"
    assert press(t, 111.0)["action"] is True
    # the action clock never used up the player's one call of the hand
    rejected(t, {"cmd": "time_call", "table": 1, "op": "start", "seat": 4}, 112.0,
             "already had the time call")


def test_the_button_with_a_player_picked_grants_that_players_one_extension_001_VI():
    """001 §1 VI: "kann er einmalig … über weitere 30 Sekunden verfügen". The dealer
    picks the player (◀ ▶) and presses TIME: the extension, not the action clock; a
    second one for the same player in the same hand is refused, in German too."""
    from controller.wire import wording

    t = with_action(30, seconds=30, countdown=0, once_per_hand=True)
    assert press(t, 100.0)["action"] is True  # no player picked: the action clock
    e = press(t, 105.0, seat=4)
    assert (e["op"], e["seconds"], e["seat"], "action" in e) == ("start", 30, 4, False)
    assert press(t, 120.0)["op"] == "cancel"  # the player acted: the tap ends the call
    rejected(t, {"cmd": "time_call", "table": 1, "op": "toggle", "seat": 4}, 125.0,
             "already had the time call in this hand")
    from controller.engine.commands import Rejected
    from controller.log.floor import refusal

    try:
        t.execute({"cmd": "time_call", "table": 1, "op": "toggle", "seat": 4}, 126.0)
    except Rejected as exc:
        german = wording.reason(refusal(exc), "de")
    assert "in dieser Hand" in german and "001 §1 VI" in german, german
    # another player has theirs; after the hand the first one has one again
    assert press(t, 130.0, seat=5)["seat"] == 5
    press(t, 131.0)
    t.execute({"cmd": "hand_done", "table": 1}, 140.0)
    assert press(t, 150.0, seat=4)["seconds"] == 30
    replay_equal(t)


def test_hand_done_ends_the_action_clock():
    t = with_action(30)
    press(t, 100.0)
    t.execute({"cmd": "hand_done", "table": 1}, 105.0)
    assert t.tables[1].time_call is None


def test_without_an_action_clock_the_button_is_the_time_call_as_before():
    """000 9.5: 60 s and a 10 s countdown; the button starts and cancels it."""
    t = with_action(None)
    e = press(t, 100.0)
    assert (e["seconds"], e["countdown"], "action" in e) == (60, 10, False)
    assert press(t, 101.0)["op"] == "cancel"


def test_the_action_clock_seat_must_be_a_seat_of_the_table():
    t = with_action(30)
    rejected(t, {"cmd": "time_call", "table": 1, "op": "toggle", "seat": 10}, 100.0,
             "seat must be a seat of table 1")


def test_the_presets_say_which_club_has_an_action_clock():
    """001 and 002 have one (the seconds are the preset's choice: 001 prints "xx"); 000 has
    none (9.5: only the "clock" call)."""
    def action(club: str) -> int | None:
        s = load_tournament_text(f"name: T\npreset: {club}\nstart_stack: 20000\n", "t.yaml")
        return s.time_call.action_seconds

    assert action("pokerlounge-berlin") == 30
    assert action("venue-faq") == 30
    assert action("psc-five-spades") is None
