"""Places follow the order of the busts; a place once announced stays (issue 10.1).

A second bust at a table with no "hand done" since its last bust is a new hand
unless the table says "same hand" (000 9.5: only busts of one hand are ranked by
stacks; 000 3.11: where the players deal they forget the button). The missed
"hand done" is caught up inside the bust. Also: a bust by seat of a player still
on the way to that seat (10.2), and the time call once per player and hand where
the preset says so (001 §1 VI, 10.11).
"""

from __future__ import annotations

import copy

import pytest

from controller.engine.settings import HandForHand, Points, TimeCall
from controller.engine.tournament import Tournament
from controller.service import views
from tests.support.settings import new_tournament, rejected, replay_equal


def first_seat(t: Tournament, table: int) -> int:
    return sorted(s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost)[0]


def bust(t: Tournament, table: int, now: float, **kw) -> tuple[int, list[dict]]:
    seat = first_seat(t, table)
    pid = t.tables[table].occupant[seat]
    return pid, t.execute({"cmd": "bust", "table": table, "seat": seat, **kw}, now)


# ------------------------------------------------------------------ 10.1 places in bust order


def test_busts_at_tables_1_2_1_2_1_without_hand_done_are_placed_in_bust_order_000_9_5():
    """The night of the issue: busts 2 minutes apart at tables 1, 2, 1, 2, 1 and nobody
    pressed "hand done". Every bust is its own hand (000 9.5 groups only one hand), so
    the places follow the busts, and the place each screen showed stays."""
    t = new_tournament(18)
    announced: dict[int, int] = {}
    now = 100.0
    order = []
    for table in (1, 2, 1, 2, 1):
        pid, _ = bust(t, table, now)
        order.append(pid)
        announced[pid] = t.places()[pid]
        # every place announced so far is still the same
        assert {p: t.places()[p] for p in announced} == announced
        now += 120
    assert [t.places()[p] for p in order] == [18, 17, 16, 15, 14]
    assert len(t.groups) == 5
    replay_equal(t)


def test_the_missed_hand_done_is_caught_up_in_the_bust_000_3_11():
    t = new_tournament(18)
    tab = t.tables[1]
    bust(t, 1, 100.0)
    positions = (tab.button, tab.sb, tab.bb)
    nxt = tab.next_positions()
    hands = tab.hands
    _, ev = bust(t, 1, 200.0)
    assert [e["type"] for e in ev] == ["hand_done", "busted"]
    assert ev[0]["missed"] is True and ev[0]["group"] == ev[1]["group"]
    # button and blinds advanced exactly once
    assert tab.hands == hands + 1
    assert (tab.button, tab.sb, tab.bb) == nxt != positions
    # and the bust opened a group of its own, keyed by the caught-up hand
    assert ev[1]["hand"] == ["table", 1, ev[0]["seq"]]
    replay_equal(t)


def test_the_caught_up_hand_done_gives_no_balancing_moves_000_4_9():
    """The catch-up comes in the middle of the next hand, whose big blind is posted: the
    balancing move waits for the table's next real "hand done"."""
    t = new_tournament(18)
    for i in range(4):  # table 1 loses four players in one hand: 5 / 9
        bust(t, 1, 100.0 + i, same_hand=i > 0)
    bust(t, 2, 120.0)  # 5 / 8
    assert t.plan()["balance"] == [{"from_table": 2, "to_table": 1}]
    _, ev = bust(t, 2, 130.0)  # a new hand at the donor: caught up, nobody moves yet
    assert [e["type"] for e in ev] == ["hand_done", "busted"]
    assert t.plan()["balance"] == [{"from_table": 2, "to_table": 1}]  # 5 / 7
    ev = t.execute({"cmd": "hand_done", "table": 2}, 140.0)  # its next real hand done
    assert [e["type"] for e in ev] == ["moved", "hand_done"]
    replay_equal(t)


def test_same_hand_busts_share_the_group_and_stacks_rank_them_000_9_5():
    """The table says "same hand": the explicit correction of 000 9.5 re-ranks by stacks."""
    t = new_tournament(18)
    a, _ = bust(t, 1, 100.0, stack=2000)
    assert t.places()[a] == 18
    b, ev = bust(t, 1, 130.0, stack=8000, same_hand=True)
    assert [e["type"] for e in ev] == ["busted"]  # no hand done caught up
    assert t.places() == {b: 17, a: 18}
    c, _ = bust(t, 1, 150.0, stack=9000, same_hand=True)
    assert t.places() == {c: 16, b: 17, a: 18}
    assert len(t.groups) == 1
    replay_equal(t)


def test_same_hand_without_a_bust_before_is_refused():
    t = new_tournament(18)
    reason = rejected(t, {"cmd": "bust", "table": 1, "seat": first_seat(t, 1),
                          "same_hand": True})
    assert "nobody at table 1 is out in this hand yet" in reason
    bust(t, 1, 100.0)
    t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    reason = rejected(t, {"cmd": "bust", "table": 1, "seat": first_seat(t, 1),
                          "same_hand": True}, 120.0)
    assert "same hand" in reason


def test_a_hand_done_between_two_busts_needs_no_catch_up_000_9_5():
    t = new_tournament(18)
    a, _ = bust(t, 1, 100.0)
    t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    b, ev = bust(t, 1, 120.0)
    assert [e["type"] for e in ev] == ["busted"]
    assert t.places() == {a: 18, b: 17}


def test_other_tables_busts_never_count_as_this_tables_hand():
    t = new_tournament(18)
    bust(t, 1, 100.0)
    assert views.table_view(t, 2)["asks_same_hand"] is False
    _, ev = bust(t, 2, 110.0)
    assert [e["type"] for e in ev] == ["busted"]


def test_after_the_last_hand_of_the_day_a_second_bust_must_be_the_same_hand_002():
    t = new_tournament(18)
    t.execute({"cmd": "hands_left", "count": 1}, 90.0)
    t.execute({"cmd": "hand_done", "table": 1}, 95.0)  # table 1 played its last hand
    a, _ = bust(t, 1, 100.0)
    reason = rejected(t, {"cmd": "bust", "table": 1, "seat": first_seat(t, 1)}, 110.0)
    assert "last hand of the day" in reason and "same_hand" in reason
    b, _ = bust(t, 1, 110.0, same_hand=True)
    assert {a, b} <= set(t.places())


def test_undo_of_a_bust_takes_back_its_caught_up_hand_done_too():
    t = new_tournament(18)
    bust(t, 1, 100.0)
    before = copy.deepcopy(t.fingerprint())
    bust(t, 1, 200.0)
    t.execute({"cmd": "undo", "table": 1}, 210.0)  # the table's undo button
    assert t.fingerprint() == before
    replay_equal(t)


# ----------------------------------------------------------- hand-for-hand keeps its groups


def bubble_on(**kw) -> Tournament:
    """12 players at three 4-handed tables, the director's hand-for-hand on (002 b)."""
    t = new_tournament(12, seed=3, points=Points(places=4), players_per_table=4,
                       final_table_size=4, hand_for_hand=HandForHand(clock="stops"), **kw)
    t.execute({"cmd": "hfh", "on": True}, 50.0)
    assert t.hfh.on and len(t.tables) >= 2
    return t


def test_hfh_second_bust_at_one_table_is_the_same_hand_without_asking_002_b():
    """During hand-for-hand a table deals its next hand only when every table is done: a
    second bust before its "hand done" is the same hand, nobody is asked (002 b)."""
    t = bubble_on()
    table = min(t.tables)
    a, _ = bust(t, table, 100.0, stack=100)
    assert views.table_view(t, table)["asks_same_hand"] is False
    b, ev = bust(t, table, 110.0, stack=500)
    assert [e["type"] for e in ev][0] == "busted"  # no hand done caught up
    assert t.places()[b] < t.places()[a]  # one group, ranked by stack (000 9.5)
    replay_equal(t)


def test_after_the_bubble_a_table_still_in_the_hfh_hand_asks_again_002_b():
    """Hand-for-hand is off, the table still plays the hand-for-hand hand: a first bust
    there joins that hand (002 b), a second one is a new hand unless the table says so."""
    t = bubble_on()
    t.execute({"cmd": "hfh", "on": False}, 90.0)
    table = max(t.tables)
    assert t.tables[table].hfh_hand is not None
    a, _ = bust(t, table, 100.0)
    assert views.table_view(t, table)["asks_same_hand"] is True
    b, ev = bust(t, table, 110.0)
    assert [e["type"] for e in ev][:2] == ["hand_done", "busted"]
    assert t.tables[table].hfh_hand is None
    assert t.places()[b] == t.places()[a] - 1
    replay_equal(t)


# ------------------------------------------------------------------ what the table is told


def test_table_view_names_the_busts_of_the_hand_and_asks_same_hand():
    t = new_tournament(18)
    view = views.table_view(t, 1)
    assert view["hand_busts"] == [] and view["asks_same_hand"] is False
    seat = first_seat(t, 1)
    a, _ = bust(t, 1, 100.0)
    view = views.table_view(t, 1)
    assert view["hand_busts"] == [{"player_id": a, "name": t.players[a].name, "seat": seat,
                                   "stack": None}]  # no stack given (000 9.5)
    assert view["asks_same_hand"] is True
    t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    view = views.table_view(t, 1)
    assert view["hand_busts"] == [] and view["asks_same_hand"] is False


def test_hand_done_due_after_the_presets_minutes_of_running_clock():
    """The screen hints at a missed "hand done" after N minutes of play (default 5)."""
    t = new_tournament(18)  # clock started at 2 s, levels of 600 s
    assert t.settings.hand_done_reminder_minutes == 5
    assert views.table_view(t, 1, now=301.0)["hand_done_due"] is False
    assert views.table_view(t, 1, now=302.0)["hand_done_due"] is True
    assert views.table_view(t, 1)["hand_done_due"] is False  # no time given: never
    t.execute({"cmd": "hand_done", "table": 1}, 310.0)
    assert views.table_view(t, 1, now=400.0)["hand_done_due"] is False
    assert views.table_view(t, 2, now=400.0)["hand_done_due"] is True
    assert views.table_view(t, 1, now=610.0)["hand_done_due"] is True
    # a bust that caught the hand done up starts the count again
    bust(t, 2, 420.0)
    bust(t, 2, 430.0)
    assert views.table_view(t, 2, now=500.0)["hand_done_due"] is False


def test_hand_done_due_waits_while_the_clock_stands_and_after_a_pause():
    t = new_tournament(18, hand_done_reminder_minutes=2)
    t.execute({"cmd": "pause"}, 60.0)
    assert views.table_view(t, 1, now=1000.0)["hand_done_due"] is False
    t.execute({"cmd": "resume"}, 1000.0)
    assert views.table_view(t, 1, now=1100.0)["hand_done_due"] is False
    assert views.table_view(t, 1, now=1120.0)["hand_done_due"] is True


def test_hand_done_due_not_in_a_break_nor_right_after_it():
    t = new_tournament(18, hand_done_reminder_minutes=3)
    for n in t.tables:
        t.execute({"cmd": "hand_done", "table": n}, 2390.0)
    # levels 1-4 end at 2402, the break at 3002
    assert views.table_view(t, 1, now=2700.0)["hand_done_due"] is False  # the break
    assert views.table_view(t, 1, now=3100.0)["hand_done_due"] is False
    assert views.table_view(t, 1, now=3183.0)["hand_done_due"] is True


def test_hand_done_due_never_during_hand_for_hand_002():
    t = bubble_on()
    assert views.table_view(t, min(t.tables), now=5000.0)["hand_done_due"] is False


def test_hand_done_reminder_can_be_switched_off():
    t = new_tournament(18, hand_done_reminder_minutes=0)
    assert views.table_view(t, 1, now=5000.0)["hand_done_due"] is False


# --------------------------------------------------------- 10.2 a bust of a player on the way


def moved_to_table_2() -> tuple[Tournament, int]:
    """18 players; table 2 loses two, table 1's hand done moves its next big blind."""
    t = new_tournament(18)
    bust(t, 2, 100.0)
    bust(t, 2, 101.0, same_hand=True)
    ev = t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    moved = [e for e in ev if e["type"] == "moved"]
    assert len(moved) == 1
    return t, moved[0]["player"]


def test_a_bust_by_seat_of_a_player_on_the_way_names_who_and_from_where_TDA_1():
    """The mover sits at table 2 in the plan but has not sat down: a bust pressed on that
    seat is most likely meant for someone else. It is refused with who and from where,
    unless the table confirms (the player did sit down and is out)."""
    t, mover = moved_to_table_2()
    m = t.pending[mover]
    reason = rejected(t, {"cmd": "bust", "table": 2, "seat": m.to_seat}, 120.0)
    assert t.players[mover].name in reason
    assert f"from table 1 seat {m.from_seat}" in reason and "confirm" in reason
    ev = t.execute({"cmd": "bust", "table": 2, "seat": m.to_seat, "confirm": True}, 121.0)
    assert "busted" in [e["type"] for e in ev]
    assert t.players[mover].out and mover not in t.pending
    replay_equal(t)


def test_a_player_on_the_way_busted_by_name_or_once_seated_needs_no_confirm():
    t, mover = moved_to_table_2()
    seat = t.pending[mover].to_seat
    t.execute({"cmd": "bust", "player": t.players[mover].name}, 120.0)  # by name: explicit
    assert t.players[mover].out
    t, mover = moved_to_table_2()
    seat = t.pending[mover].to_seat
    t.execute({"cmd": "seated", "player": mover}, 115.0)
    t.execute({"cmd": "bust", "table": 2, "seat": seat}, 120.0)
    assert t.players[mover].out


# --------------------------------------------------------- 10.11 one time call per hand


def once() -> Tournament:
    return new_tournament(18, time_call=TimeCall(seconds=30, countdown=0, red_seconds=10,
                                                 once_per_hand=True))


def test_time_call_once_per_player_and_hand_001_1_VI():
    """001 §1 VI: "einmalig" 30 s more; the second call of that player in the hand is
    refused, another player may call, and the next hand gives a new one."""
    t = once()
    seat = first_seat(t, 1)
    t.execute({"cmd": "time_call", "table": 1, "seat": seat}, 100.0)
    t.execute({"cmd": "time_call", "table": 1, "op": "cancel"}, 110.0)
    reason = rejected(t, {"cmd": "time_call", "table": 1, "seat": seat}, 120.0)
    assert "already had the time call in this hand" in reason and "001 §1 VI" in reason
    other = sorted(t.tables[1].occupant)[1]
    t.execute({"cmd": "time_call", "table": 1, "seat": other}, 125.0)  # another player
    t.execute({"cmd": "time_call", "table": 1, "op": "toggle"}, 126.0)
    t.execute({"cmd": "time_call", "table": 2, "seat": seat}, 127.0)  # another table
    t.execute({"cmd": "hand_done", "table": 1}, 130.0)
    t.execute({"cmd": "time_call", "table": 1, "seat": seat}, 140.0)  # the next hand
    replay_equal(t)


def test_time_call_once_per_hand_needs_the_seat_001_1_VI():
    t = once()
    assert "must name the seat" in rejected(t, {"cmd": "time_call", "table": 1})
    empty = next(s for s in range(1, 10) if s not in t.tables[1].occupant) \
        if t.tables[1].count() < 9 else None
    if empty is not None:
        assert "empty" in rejected(t, {"cmd": "time_call", "table": 1, "seat": empty})


def test_time_call_without_the_rule_may_be_repeated_000_9_5():
    t = new_tournament(18)  # 000 9.5: no limit per hand
    seat = first_seat(t, 1)
    for at in (100.0, 120.0):
        t.execute({"cmd": "time_call", "table": 1, "seat": seat}, at)
        t.execute({"cmd": "time_call", "table": 1, "op": "cancel"}, at + 5)
    t.execute({"cmd": "time_call", "table": 1}, 150.0)  # no seat needed


def test_the_pokerlounge_preset_says_once_per_hand_001_1_VI():
    from pathlib import Path

    from controller.config import load_tournament

    root = Path(__file__).resolve().parents[2] / "config" / "tournaments"
    assert load_tournament(root / "pokerlounge-freezeout.yaml").time_call.once_per_hand
    assert not load_tournament(root / "sample.yaml").time_call.once_per_hand


def test_the_new_settings_are_checked_in_the_tournament_file():
    from controller.config import ConfigError, load_tournament_text

    base = ("name: X\nstart_stack: 1000\nstructure:\n  - {minutes: 10, blinds: 25/50}\n")
    s = load_tournament_text(base + "hand_done_reminder_minutes: 8\n"
                             "time_call: {seconds: 30, countdown: 0, once_per_hand: true}\n")
    assert s.hand_done_reminder_minutes == 8 and s.time_call.once_per_hand
    for bad, key in (("hand_done_reminder_minutes: -1\n", "hand_done_reminder_minutes"),
                     ("time_call: {once_per_hand: 'yes'}\n", "time_call.once_per_hand")):
        with pytest.raises(ConfigError) as info:
            load_tournament_text(base + bad)
        assert key in str(info.value)
