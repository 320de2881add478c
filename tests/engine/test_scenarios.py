"""The worked floor scenarios S1-S11 of /work/shared/SCENARIOS.md, one test (or more) each.

Every test names its scenario and the rule it comes from.
"""

from __future__ import annotations

import pytest

from controller.engine import seating
from controller.engine.points import psc_ranking_points
from controller.engine.settings import Balancing
from controller.engine.table import Table
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament


def table(seats, button, sb, bb, number=1, size=9) -> Table:
    return Table(number, size, occupant={s: 100 * number + s for s in seats},
                 button=button, sb=sb, bb=bb)


def tournament(players: int, seed: int = 1, **overrides) -> Tournament:
    return new_tournament(players, seed, **overrides)


def assert_replays(t: Tournament) -> None:
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


# ------------------------------------------------------------------ S1


def test_S1_mover_is_the_next_big_blind_000_4_9():
    t1 = table(range(1, 10), 4, 5, 6)
    assert t1.next_big_blind() == 7


def test_S1_through_the_tournament_000_4_9():
    t = tournament(18)
    assert t.counts() == {1: 9, 2: 9}
    # T2 loses two players: 9 / 7, balance within 1
    for _ in range(2):
        seat = sorted(t.tables[2].occupant)[0]
        t.execute({"cmd": "bust", "table": 2, "seat": seat}, 10.0)
    assert t.counts() == {1: 9, 2: 7}
    assert t.plan()["balance"] == [{"from_table": 1, "to_table": 2}]
    # T1's last hand: button 4, SB 5, BB 6 (set the table to the scenario's state)
    tab1 = t.tables[1]
    tab1.button, tab1.sb, tab1.bb = 4, 5, 6
    mover = tab1.occupant[7]
    dest = t.tables[2].worst_seat()
    events = t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    moved = [e for e in events if e["type"] == "moved"]
    assert len(moved) == 1
    m = moved[0]
    assert (m["player"], m["from_table"], m["from_seat"], m["to_table"]) == (mover, 1, 7, 2)
    assert m["to_seat"] == dest  # the worst position at the new table
    assert t.counts() == {1: 8, 2: 8}
    assert t.players[mover].table == 2
    # T1's next hand: the big blind goes to seat 8, the SB is the old BB 6
    assert (tab1.button, tab1.sb, tab1.bb) == (5, 6, 8)
    assert t.pending_moves()[0].player == mover


# ------------------------------------------------------------------ S2


def test_S2_donor_is_the_highest_numbered_fullest_table_000_4_9():
    counts = {1: 8, 2: 8, 3: 6}
    assert seating.donor(counts) == 2
    assert seating.balance_plan(counts, 1) == [(2, 3)]


def test_S2_through_the_tournament_000_4_9():
    t = tournament(24)  # 8 / 8 / 8
    assert t.counts() == {1: 8, 2: 8, 3: 8}
    for _ in range(2):
        seat = sorted(t.tables[3].occupant)[0]
        t.execute({"cmd": "bust", "table": 3, "seat": seat}, 10.0)
    # T1's hand is over first: it is not the donor, nothing moves
    ev = t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    assert not [e for e in ev if e["type"] == "moved"]
    ev = t.execute({"cmd": "hand_done", "table": 2}, 21.0)
    moved = [e for e in ev if e["type"] == "moved"]
    assert [(e["from_table"], e["to_table"]) for e in moved] == [(2, 3)]
    assert t.counts() == {1: 8, 2: 7, 3: 7}
    assert_replays(t)


# ------------------------------------------------------------------ S3


def test_S3_worst_position_000_4_9_TDA_11A():
    dest = table([1, 2, 3, 4, 5, 7, 8], 1, 2, 3)
    assert dest.next_positions() == (2, 3, 4)
    assert dest.worst_seat() == 6  # not seat 9


# ------------------------------------------------------------------ S4


def test_S4_never_the_small_blind_001_2_I_TDA_11A():
    dest = table([1, 2, 3, 4, 5, 6, 8, 9], 1, 2, 3)
    del dest.occupant[3]  # the big blind busted in the last hand
    button, sb, bb = dest.next_positions()
    assert (button, bb) == (2, 4) and sb not in dest.occupant  # no small blind
    assert sorted(dest.free_seats()) == [3, 7]
    assert dest.worst_seat() == 7


# ------------------------------------------------------------------ S5


def test_S5a_small_blind_busts_000_9_4():
    t = table(range(1, 7), 1, 2, 3)
    del t.occupant[2]
    t.advance()
    assert (t.button, t.sb, t.bb) == (2, 3, 4)
    assert t.button not in t.occupant  # button on the empty seat 2


def test_S5b_big_blind_busts_000_9_4():
    t = table(range(1, 7), 1, 2, 3)
    del t.occupant[3]
    t.advance()
    assert (t.button, t.bb) == (2, 4) and not t.small_blind_posted()
    t.advance()
    assert (t.button, t.sb, t.bb) == (3, 4, 5) and t.button not in t.occupant


def test_S5c_both_blinds_bust_003_18_19_TDA_32():
    t = table(range(1, 7), 1, 2, 3)
    del t.occupant[2], t.occupant[3]
    t.advance()
    assert (t.button, t.bb) == (2, 4) and t.button not in t.occupant
    assert not t.small_blind_posted()
    t.advance()
    assert (t.button, t.sb, t.bb) == (3, 4, 5) and t.button not in t.occupant


@pytest.mark.parametrize("busted", [(2,), (3,), (2, 3)])
def test_S5_nobody_posts_bb_twice_or_skips_it_000_9_4(busted):
    t = table(range(1, 7), 1, 2, 3)
    for s in busted:
        del t.occupant[s]
    bbs = []
    for _ in range(2 * len(t.occupant)):
        t.advance()
        bbs.append(t.bb)
    assert bbs[0] == 4
    assert all(a != b for a, b in zip(bbs, bbs[1:], strict=False))
    assert sorted(bbs) == sorted(list(t.occupant) * 2)


# ------------------------------------------------------------------ S6


def test_S6_arrivals_between_button_and_small_blind_wait_000_4_10_TDA_10A():
    dest = table([1, 2, 3, 4, 6, 7, 8], 3, 4, 6)
    assert dest.next_positions() == (4, 6, 7)
    assert dest.arrival_waits(5)
    assert not dest.arrival_waits(9)
    dest.occupant[5] = 555
    dest.waiting.add(5)
    dest.occupant[9] = 999
    dest.advance()
    assert not dest.dealt(5) and dest.dealt(9)
    dest.advance()  # the button has passed seat 5
    assert dest.dealt(5)


# ------------------------------------------------------------------ S7


def test_S7_bust_breaks_table_4_into_9_9_9_000_4_6_TDA_10B():
    t = tournament(28, seed=3)
    assert t.counts() == {1: 7, 2: 7, 3: 7, 4: 7}
    assert t.plan()["break_table"] is None  # with 28 players nothing breaks
    t4 = set(t.tables[4].occupant.values())
    seat = sorted(t.tables[3].occupant)[0]
    ev = t.execute({"cmd": "bust", "table": 3, "seat": seat}, 10.0)
    assert [e["type"] for e in ev] == ["busted", "table_broken"]
    brk = ev[1]
    assert brk["table"] == 4 and 4 not in t.tables and t.broken == [4]
    assert t.counts() == {1: 9, 2: 9, 3: 9}
    # T4's 7 players fill exactly the 7 open seats of T1-T3
    assert {pid for pid, *_ in brk["moves"]} == t4
    assert sorted((tb, s) for _, tb, s, _ in brk["moves"]) == sorted(
        {(tb, s) for tb in (1, 2, 3) for s in range(1, 10)}
        - {(tb, s) for tb in (1, 2, 3) for s in t.tables[tb].occupant
           if t.tables[tb].occupant[s] not in t4})
    assert len(t.pending_moves()) == 7
    assert_replays(t)


def test_S7_break_draw_is_random_but_replay_exact_000_4_6():
    outcomes = set()
    for seed in range(6):
        t = tournament(28, seed=seed)
        seat = sorted(t.tables[3].occupant)[0]
        ev = t.execute({"cmd": "bust", "table": 3, "seat": seat}, 10.0)
        outcomes.add(tuple(tuple(m) for m in ev[1]["moves"]))
        assert_replays(t)
    assert len(outcomes) > 1


# ------------------------------------------------------------------ S8


def test_S8_tolerance_one_two_moves():
    counts = {1: 6, 2: 7, 3: 8, 4: 10}
    plan = seating.balance_plan(counts, 1)
    assert plan == [(4, 1), (4, 1)]
    for f, to in plan:
        counts[f] -= 1
        counts[to] += 1
    assert counts == {1: 8, 2: 7, 3: 8, 4: 8}


def test_S8_tolerance_two_one_move():
    counts = {1: 6, 2: 7, 3: 8, 4: 10}
    plan = seating.balance_plan(counts, 2)
    assert plan == [(4, 1)]


def test_S8_through_the_tournament_tolerance_decides():
    for tolerance, expected in ((1, {1: 8, 2: 7, 3: 8, 4: 8}), (2, {1: 7, 2: 7, 3: 8, 4: 9})):
        t = tournament(40, seed=2, table_seats=10, players_per_table=10,
                       balancing=Balancing(tolerance=tolerance))
        assert t.counts() == {1: 10, 2: 10, 3: 10, 4: 10}
        for tab, n in ((1, 4), (2, 3), (3, 2)):
            for _ in range(n):
                seat = sorted(t.tables[tab].occupant)[0]
                t.execute({"cmd": "bust", "table": tab, "seat": seat}, 10.0)
        assert t.counts() == {1: 6, 2: 7, 3: 8, 4: 10}
        t.execute({"cmd": "hand_done", "table": 4}, 20.0)
        assert t.counts() == expected
        assert_replays(t)


# ------------------------------------------------------------------ S9


def test_S9_final_table_of_nine_redrawn_000_4_3_TDA_RP_9():
    t = tournament(10, seed=4)
    assert t.counts() == {1: 5, 2: 5}
    seat = sorted(t.tables[2].occupant)[0]
    ev = t.execute({"cmd": "bust", "table": 2, "seat": seat}, 10.0)
    assert [e["type"] for e in ev] == ["busted", "final_table"]
    ft = ev[1]
    assert ft["size"] == 9 and len(ft["seats"]) == 9
    assert sorted(s for _, s in ft["seats"]) == list(range(1, 10))
    assert list(t.tables) == [1] and t.final_table == 1
    tab = t.tables[1]
    assert tab.final and tab.count() == 9 and tab.button == ft["button"]
    assert tab.button in tab.occupant
    assert_replays(t)


def test_S9_final_table_seats_and_button_are_redrawn_002():
    draws = set()
    for seed in range(8):
        t = tournament(10, seed=seed)
        seat = sorted(t.tables[2].occupant)[0]
        ev = t.execute({"cmd": "bust", "table": 2, "seat": seat}, 10.0)
        draws.add((tuple(map(tuple, ev[1]["seats"])), ev[1]["button"]))
    assert len(draws) > 1


def test_S9_six_max_final_table_of_seven_002():
    t = tournament(8, seed=5, players_per_table=6, final_table_size=7)
    assert t.counts() == {1: 4, 2: 4}
    seat = sorted(t.tables[1].occupant)[0]
    ev = t.execute({"cmd": "bust", "table": 1, "seat": seat}, 10.0)
    assert [e["type"] for e in ev] == ["busted", "final_table"]
    ft = ev[1]
    assert ft["size"] == 7 and len(ft["seats"]) == 7
    tab = t.tables[t.final_table]
    assert tab.size == 7 and tab.count() == 7 and tab.final
    assert_replays(t)


def test_S9_no_final_table_before_the_bust():
    t = tournament(10, seed=4)
    assert t.plan()["final_table_due"] is False
    assert t.final_table is None


# ------------------------------------------------------------------ S10


def test_S10_heads_up_button_busts_000_9_4_TDA_34B():
    t = table([2, 5, 8], 2, 5, 8)
    del t.occupant[2]
    t.advance()
    assert (t.button, t.sb, t.bb) == (8, 8, 5)


def test_S10_heads_up_big_blind_busts_003_38():
    t = table([2, 5, 8], 2, 5, 8)
    del t.occupant[8]
    t.advance()
    assert (t.button, t.sb, t.bb) == (5, 5, 2)


# ------------------------------------------------------------------ S11


def test_S11_ranking_points_13_players_000_5_4():
    assert [psc_ranking_points(p, 13) for p in range(1, 9)] == [13, 10, 7, 5, 3, 2, 1, 0]


def test_S11_ranking_points_30_and_40_players_000_5_4():
    assert psc_ranking_points(1, 30) == 18
    assert psc_ranking_points(15, 30) == 1
    for place in range(1, 31):
        assert psc_ranking_points(place, 40) == psc_ranking_points(place, 30)


def test_S11_five_players_no_points_000_5_4():
    assert [psc_ranking_points(p, 5) for p in range(1, 6)] == [0] * 5
