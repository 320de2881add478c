"""The director's colour-up, the chip race announced before the break, the absent player
at the colour-up, and the end of the day (002; issue 31 items 8 and 9).

002 "Colour-up: Die Turnierleitung kann jederzeit das Umtauschen von Jetons mit niedrigem
Nennwert durchführen. Der Spielgast muss beim Colour-Up persönlich anwesend sein."
002 "Chip Race: … 2-3 Minuten vor der Pause beginnt der Chipleader"; "Du musst anwesend
sein! Sonst verlierst du deine Chips".
002 "In den letzten 7-15 Minuten des letzten Levels hält der Turnierleiter die Uhr an. Ein
Spielgast zieht eine Karte zwischen 3 und 5. Diese bestimmt die verbleibenden Hände des
Spieltages. Nach Bekanntgabe werden diese an allen Tischen gespielt."

The test structure (tests/support/settings.py): the clock starts at 2 s, four ten-minute
levels, the break "Chipraise 25" (index 4), then ten-minute levels to index 12, the last.
"""

from __future__ import annotations

import pytest

from controller.engine import history
from controller.engine.rules import chip_race as cr
from controller.engine.rules import hands
from tests.support.settings import new_tournament, rejected, replay_equal

#: the start of the "Chipraise 25" break and the end of the last level (index 12)
BREAK_AT = 2 + 4 * 600.0
DAY_ENDS = 2 + 4 * 600 + 600 + 8 * 600.0


def race(t, table: int, chips: list[int], now: float, **kw) -> dict:
    (e,) = [e for e in t.execute({"cmd": "chip_race", "table": table, "chips": chips, **kw},
                                 now) if e["type"] == "chip_race"]
    return e


# ================================================================ colour-up any time (002)


def test_the_director_colours_up_in_a_playing_level_and_the_tables_race_002():
    """002 "jederzeit": not only in a colour-up break; the next chip of the set comes."""
    t = new_tournament(18)
    assert cr.due(t, 300.0) is None
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 300.0, match="no colour-up")
    (e,) = t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    assert (e["type"], e["leaving"], e["new"], e["level"]) == ("colour_up", 25, 100, 0)
    assert cr.due(t, 310.0) == cr.Due(0, 25, 100, e["seq"])
    before = t.chips
    one = race(t, 1, [3, 2], 320.0)
    assert one["call"] == e["seq"] and one["seats"] == [1, 2]
    assert t.chips == before + one["change"]
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 330.0,
             match="already had its chip race")
    race(t, 2, [1], 330.0)  # every table races for it
    assert history.event(t, t.log[e["seq"] - 1]).key == "colour_up"
    replay_equal(t)


def test_the_directors_colour_up_lasts_its_level_002():
    """The tables race while the level it was called in lasts; then it is over."""
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    assert cr.due(t, 601.0) is not None
    assert cr.due(t, 603.0) is None  # level 2 began at 602
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 603.0, match="no colour-up")


def test_a_break_colour_up_after_the_directors_is_a_new_race_000_3_17_002():
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 5}, 300.0)
    race(t, 1, [3], 310.0)
    assert cr.due(t, BREAK_AT + 60).leaving == 25  # the break's note: "Chipraise 25"
    e = race(t, 1, [2], BREAK_AT + 60)
    assert e["leaving"] == 25 and "call" not in e
    replay_equal(t)


@pytest.mark.parametrize("chip,why", [
    (30, "not one of the club's chips"),
    (100000, "biggest chip"),
])
def test_a_colour_up_of_no_chip_is_refused(chip, why):
    t = new_tournament(9)
    rejected(t, {"cmd": "colour_up", "chip": chip}, 300.0, match=why)


def test_a_colour_up_called_twice_or_before_the_start_is_refused():
    t = new_tournament(9, start=False)
    rejected(t, {"cmd": "colour_up", "chip": 25}, 1.0)
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    rejected(t, {"cmd": "colour_up", "chip": 25}, 310.0, match="already")
    rejected(t, {"cmd": "colour_up", "chips": [100, 25]}, 310.0, match="already")
    rejected(t, {"cmd": "colour_up", "chips": [100, 100]}, 310.0, match="named twice")
    rejected(t, {"cmd": "colour_up", "chip": 100, "chips": [500]}, 310.0, match="not both")
    rejected(t, {"cmd": "colour_up"}, 310.0, match="not neither")


# ======================================================= several chips (issue 32, 002)


def test_one_call_colours_up_several_chips_each_raced_per_table_the_smaller_first():
    """Before: one chip a call (``colour_up chip=25``)."""
    t = new_tournament(18)
    a, b = t.execute({"cmd": "colour_up", "chips": [100, 25]}, 300.0)
    assert [(e["leaving"], e["new"], e["adds"]) for e in (a, b)] == [(25, 100, True),
                                                                     (100, 500, True)]
    assert [d.leaving for d in cr.under_way(t, 310.0)] == [25, 100]
    assert cr.due(t, 310.0, 1).leaving == 25
    one = race(t, 1, [3], 320.0)
    assert (one["leaving"], one["call"]) == (25, a["seq"])
    assert cr.due(t, 330.0, 1).leaving == 100 and cr.due(t, 330.0, 2).leaving == 25
    two = race(t, 1, [2], 330.0)  # the table's next race is the next chip's
    assert (two["leaving"], two["new"], two["call"]) == (100, 500, b["seq"])
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 340.0,
             match="already had its chip race")
    # table 2 names the chip it races: the bigger first is refused nothing, it is its own
    three = race(t, 2, [1], 340.0, leaving=100)
    assert three["call"] == b["seq"]
    assert race(t, 2, [1], 350.0)["call"] == a["seq"]
    rejected(t, {"cmd": "chip_race", "table": 2, "chips": [1], "leaving": 5}, 360.0,
             match="no colour-up of the 5 chips is under way")
    replay_equal(t)


def test_a_second_call_adds_to_what_is_under_way_and_keeps_the_races_open():
    """Before: a second call replaced the first, and a table that had not raced the first
    chip lost that race."""
    t = new_tournament(18)
    (a,) = t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    race(t, 1, [3], 310.0)
    (b,) = t.execute({"cmd": "colour_up", "chip": 100}, 320.0)
    # table 2 still races for the 25s, then the 100s; table 1 only the 100s now
    assert cr.due(t, 330.0, 2).leaving == 25 and cr.due(t, 330.0, 1).leaving == 100
    assert race(t, 2, [1], 330.0)["call"] == a["seq"]
    assert race(t, 2, [1], 340.0)["call"] == b["seq"]
    assert race(t, 1, [1], 340.0)["call"] == b["seq"]
    replay_equal(t)
    # undo the second call: the 25s are still under way, raced where they were
    t.execute({"cmd": "undo", "table": 1}, 350.0)  # table 1's race for the 100s
    t.execute({"cmd": "undo", "table": 2}, 350.0)
    t.execute({"cmd": "undo", "target": b["group"]}, 360.0)
    assert [d.leaving for d in cr.under_way(t, 370.0)] == [25]
    assert cr.has_raced(t, 1, cr.due(t, 370.0, 1)) and cr.has_raced(t, 2, cr.due(t, 370.0, 2))
    replay_equal(t)


def test_a_call_of_a_level_before_is_over_when_another_is_added():
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    t.execute({"cmd": "colour_up", "chip": 100}, 700.0)  # level 2 began at 602
    assert [d.leaving for d in cr.under_way(t, 710.0)] == [100]
    assert t.colour_up.calls[-1].leaving == 100 and len(t.colour_up.calls) == 1


def test_a_log_from_before_several_chips_replays_as_it_was_played():
    """A ``colour_up`` event without ``adds`` (a log from before) replaced the call before;
    its replay does the same."""
    t = new_tournament(18)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    t.execute({"cmd": "colour_up", "chip": 100}, 320.0)
    from controller.engine import chain
    from controller.engine.tournament import Tournament

    log, value = [], chain.GENESIS
    for e in t.log:  # as the Floorman before wrote it: no ``adds``, its own hashes
        old = {k: v for k, v in e.items() if k != "adds"}
        value = chain.link(value, old)
        log.append({**old, "hash": value})
    again = Tournament.replay(log)
    assert [d.leaving for d in cr.under_way(again, 330.0)] == [100]


def test_the_directors_colour_up_is_undone_with_its_races_gone():
    t = new_tournament(9)
    (e,) = t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    t.execute({"cmd": "undo", "target": e["group"]}, 310.0)
    assert cr.due(t, 320.0) is None
    replay_equal(t)


# ============================================================ the absent player (002)


def test_an_absent_player_loses_the_small_chips_out_of_the_chips_in_play_002():
    """002 "Du musst anwesend sein! Sonst verlierst du deine Chips": all the absent
    player's small chips leave play (not only the leftover), and there is no card for them."""
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    before = t.chips
    e = race(t, 1, [3, 0, 9], 310.0, absent=[3])
    assert e["seats"] == [1] and len(e["cards"]) == 1
    assert (e["absent"], e["lost"]) == ([3], [9 * 25])
    assert t.chips == before + e["change"] - 225
    phrase = history.event(t, t.log[-1])
    assert phrase.params["absent"] == [[3, 225]] and "seat 3 absent loses 225" in phrase.text
    replay_equal(t)


def test_only_absent_players_at_a_table_lose_their_chips_without_a_race_002():
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    before = t.chips
    e = race(t, 1, [0, 8], 310.0, absent=[2])
    assert e["seats"] == [] and e["change"] == 0 and t.chips == before - 200


@pytest.mark.parametrize("kw,why", [
    ({"chips": [3, 0], "absent": [2]}, "no small chips"),
    ({"chips": [3, 1], "absent": [2], "short": [2]}, "absent"),
])
def test_an_absent_seat_that_is_no_loss_is_refused(kw, why):
    t = new_tournament(9)
    t.execute({"cmd": "colour_up", "chip": 25}, 300.0)
    rejected(t, {"cmd": "chip_race", "table": 1, **kw}, 310.0, match=why)


def test_the_absent_players_chips_leave_at_a_break_colour_up_too_002():
    t = new_tournament(9)
    before = t.chips
    e = race(t, 1, [2, 7], BREAK_AT + 60, absent=[2])
    assert t.chips == before + e["change"] - 7 * 25


# ======================================================= the chip race announced (002)


def test_the_chip_race_is_announced_three_minutes_before_the_colour_up_break_002():
    """002 "2-3 Minuten vor der Pause": from 3 minutes before the "Chipraise 25" break to
    its start the screens announce it; not before, not in other levels."""
    t = new_tournament(9)
    assert cr.call_window(t, 300.0) is None  # level 1: the break is not next
    w = cr.call_window(t, BREAK_AT - 400)
    assert w == cr.CallWindow(25, 100, BREAK_AT - 180, BREAK_AT)
    assert not cr.called(t, BREAK_AT - 181)
    assert cr.called(t, BREAK_AT - 180) and cr.called(t, BREAK_AT - 1)
    assert not cr.called(t, BREAK_AT)  # the break: the race itself (the table screens)


def test_the_chip_race_call_stays_while_the_clock_stands_in_its_window_002():
    t = new_tournament(9)
    t.execute({"cmd": "pause"}, BREAK_AT - 100)
    assert cr.call_window(t, BREAK_AT + 500) == cr.CallWindow(25, 100, None, None)
    assert cr.called(t, BREAK_AT + 500)
    t = new_tournament(9)
    t.execute({"cmd": "pause"}, BREAK_AT - 200)
    assert cr.call_window(t, BREAK_AT) is None


# ======================================================= the end of the day (002)


def test_the_end_of_the_day_is_drawn_in_the_last_7_to_15_minutes_of_the_last_level_002():
    t = new_tournament(18)
    assert hands.last_level(t) == 12
    assert hands.day_end_window(t, 300.0) is None
    # the last level is ten minutes long: the window opens with it
    assert hands.day_end_window(t, DAY_ENDS - 500) == (DAY_ENDS - 600, DAY_ENDS - 420)
    assert not hands.day_end_open(t, DAY_ENDS - 601)
    assert hands.day_end_open(t, DAY_ENDS - 600) and hands.day_end_open(t, DAY_ENDS - 420)
    assert not hands.day_end_open(t, DAY_ENDS - 419)
    rejected(t, {"cmd": "end_of_day", "card": 4}, DAY_ENDS - 700,
             match="last 7-15 minutes of level")
    rejected(t, {"cmd": "end_of_day", "card": 4}, DAY_ENDS - 300, match="last 7-15 minutes")


@pytest.mark.parametrize("card", [0, 2, 6, 13])
def test_the_card_drawn_is_a_3_4_or_5_002(card):
    t = new_tournament(9)
    rejected(t, {"cmd": "end_of_day", "card": card}, DAY_ENDS - 600, match="3, 4 or 5")


def test_the_clock_stops_and_the_card_is_the_hands_left_at_every_table_002():
    t = new_tournament(18)
    events = t.execute({"cmd": "end_of_day", "card": 3}, DAY_ENDS - 600)
    assert [e["type"] for e in events][:2] == ["clock", "hands_left"]
    assert not t.clock.running and t.hands_left == 3
    assert all(tab.hands_left == 3 for tab in t.tables.values())
    phrase = history.event(t, events[1])
    assert phrase.key == "day_end_card" and "a 3 drawn" in phrase.text
    rejected(t, {"cmd": "end_of_day", "card": 4}, DAY_ENDS, match="set already")
    # each table's "hand done" counts its own down; the day is over when all have played
    for now, table in ((10.0, 1), (11.0, 1), (12.0, 2), (13.0, 1)):
        t.execute({"cmd": "hand_done", "table": table}, DAY_ENDS + now)
    assert (t.tables[1].hands_left, t.tables[2].hands_left) == (0, 2)
    assert not hands.day_over(t)
    rejected(t, {"cmd": "hand_done", "table": 1}, DAY_ENDS + 20, match="last hand")
    t.execute({"cmd": "hand_done", "table": 2}, DAY_ENDS + 21)
    t.execute({"cmd": "hand_done", "table": 2}, DAY_ENDS + 22)
    assert hands.day_over(t) and not t.clock.running
    replay_equal(t)


def test_a_last_level_of_twenty_minutes_opens_the_window_15_minutes_before_its_end_002():
    from controller.engine.settings import Level

    t = new_tournament(9, structure=(Level("level", 600, 25, 50),
                                     Level("level", 1200, 50, 100)))
    ends = 2 + 600 + 1200.0
    assert hands.day_end_window(t, 700.0) == (ends - 900, ends - 420)


def test_a_last_level_without_end_has_no_end_of_the_day_to_draw_002_003_7():
    from controller.engine.settings import Level

    t = new_tournament(9, structure=(Level("level", 600, 25, 50),
                                     Level("level", None, 50, 100)))
    assert hands.last_level(t) is None and hands.day_end_window(t, 300.0) is None
    rejected(t, {"cmd": "end_of_day", "card": 3}, 300.0, match="no last level with a time")


def test_the_end_of_the_day_on_a_clock_stopped_in_the_window_002():
    t = new_tournament(9)
    t.execute({"cmd": "pause"}, DAY_ENDS - 500)
    assert hands.day_end_open(t, DAY_ENDS + 3000)  # stopped with 500 s left: in the window
    events = t.execute({"cmd": "end_of_day", "card": 5}, DAY_ENDS + 3000)
    assert [e["type"] for e in events] == ["hands_left"]  # the clock stands already
    t = new_tournament(9)
    t.execute({"cmd": "pause"}, DAY_ENDS - 1000)
    rejected(t, {"cmd": "end_of_day", "card": 5}, DAY_ENDS, match="last 7-15 minutes")


def _bust_to_the_final_table(t, now: float) -> float:
    """Five out at table 1, four at table 2, each in one hand: the final table is drawn."""
    for table, count in ((1, 5), (2, 4)):
        seats = sorted(t.tables[table].occupant)[:count]
        for i, seat in enumerate(seats):
            now += 1
            t.execute({"cmd": "bust", "table": table, "seat": seat,
                       **({"same_hand": True} if i else {})}, now)
    return now


def test_the_final_table_drawn_during_the_last_hands_plays_them_002():
    """The bug noticed: the final table drawn during the countdown had no hands left (it
    would play on and the day never end). 002 has the drawn hands "an allen Tischen
    gespielt": the final table plays as long as the longest of the tables it was drawn
    from; the hand of the redraw, played out at the old tables, is one of them."""
    t = new_tournament(18)
    t.execute({"cmd": "end_of_day", "card": 3}, DAY_ENDS - 600)
    t.execute({"cmd": "hand_done", "table": 1}, DAY_ENDS)  # table 1: 2 left, table 2: 3
    now = _bust_to_the_final_table(t, DAY_ENDS + 10)
    assert t.final_table == 1 and t.tables[1].hands_left == 3
    for i in range(3):
        assert not hands.day_over(t)
        t.execute({"cmd": "hand_done", "table": 1}, now + 10 + i)  # the redraw's hand first
    assert t.tables[1].hands_left == 0 and hands.day_over(t)
    rejected(t, {"cmd": "hand_done", "table": 1}, now + 20, match="last hand")
    replay_equal(t)


def test_a_table_breaking_during_the_last_hands_sends_its_players_to_a_tables_count_002():
    """A broken table's players play the hands left where they sit down (one count a
    table: the table's hands are dealt to whoever sits there)."""
    t = new_tournament(20)  # tables of 7, 7, 6
    t.execute({"cmd": "hands_left", "count": 3}, 100.0)
    t.execute({"cmd": "hand_done", "table": 2}, 110.0)
    seats = sorted(t.tables[3].occupant)
    t.execute({"cmd": "bust", "table": 3, "seat": seats[0]}, 120.0)
    t.execute({"cmd": "bust", "table": 3, "seat": seats[1], "same_hand": True}, 121.0)
    assert 3 not in t.tables and t.tables[1].count() == t.tables[2].count() == 9
    assert (t.tables[1].hands_left, t.tables[2].hands_left) == (3, 2)
    replay_equal(t)
