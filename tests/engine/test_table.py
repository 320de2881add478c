"""Table-level rules: dead button, heads-up, arrivals waiting for the button,
the worst seat for a mover and the first button.

Rules: 000 3.12 (first button), 000 4.9 (mover, worst seat), 000 4.10 /
001 §2 I (arrivals), 000 9.4 / 003 18/19 / 003 38 (dead button, heads-up),
SCENARIOS S3-S6 and S10, TDA 10A/11A/32/34B.
"""

from __future__ import annotations

import random

import pytest

from controller.engine import seating
from controller.engine.table import Table


def table(seats, button, sb, bb, size=9, number=1) -> Table:
    """A 9-seat table with players (id = 100 + seat) in ``seats`` and the last hand's positions."""
    return Table(number, size, occupant={s: 100 + s for s in seats}, button=button, sb=sb, bb=bb)


def bust(t: Table, *seats: int) -> None:
    for s in seats:
        del t.occupant[s]


def big_blinds(t: Table, hands: int) -> list[int]:
    """The big-blind seat of each of the next ``hands`` hands."""
    out = []
    for _ in range(hands):
        t.advance()
        out.append(t.bb)
    return out


# ---------------------------------------------------------------- dead button


def test_no_bust_everything_moves_one_seat_000_9_4():
    t = table(range(1, 7), 1, 2, 3)
    assert t.next_positions() == (2, 3, 4)
    t.advance()
    assert (t.button, t.sb, t.bb) == (2, 3, 4)
    assert t.hands == 1


def test_dead_button_small_blind_busts_S5a_000_9_4():
    t = table(range(1, 7), 1, 2, 3)
    bust(t, 2)
    assert t.next_positions() == (2, 3, 4)  # button on the empty seat 2
    t.advance()
    assert t.button not in t.occupant
    assert t.small_blind_posted()


def test_dead_button_big_blind_busts_S5b_000_9_4():
    t = table(range(1, 7), 1, 2, 3)
    bust(t, 3)
    t.advance()
    assert (t.button, t.bb) == (2, 4)
    assert not t.small_blind_posted()  # no small blind this hand
    t.advance()
    assert (t.button, t.sb, t.bb) == (3, 4, 5)  # button on the empty seat 3
    assert t.button not in t.occupant and t.small_blind_posted()


def test_dead_button_both_blinds_bust_S5c_003_18_19():
    t = table(range(1, 7), 1, 2, 3)
    bust(t, 2, 3)
    t.advance()
    assert (t.button, t.bb) == (2, 4)
    assert t.button not in t.occupant
    assert not t.small_blind_posted()
    t.advance()
    assert (t.button, t.sb, t.bb) == (3, 4, 5)
    assert t.button not in t.occupant


@pytest.mark.parametrize("busted", [(1,), (2,), (3,), (4,), (2, 3), (1, 2), (1, 3), (1, 2, 3),
                                    (3, 4), (2, 4, 6)])
def test_nobody_skips_or_doubles_the_big_blind_S5_TDA_32(busted):
    # 000 9.4: the big blind moves one player clockwise every hand, whoever busts
    t = table(range(1, 9), 1, 2, 3)
    bust(t, *busted)
    bbs = big_blinds(t, 3 * len(t.occupant))
    for a, b in zip(bbs, bbs[1:], strict=False):
        assert a != b  # never twice in a row
        assert b == t._next_dealt(a)  # always the next player clockwise
    # everybody posts it exactly three times in 3 orbits
    assert sorted(bbs) == sorted(list(t.occupant) * 3)


def test_button_after_the_big_blind_busted_is_dead_once_then_moves_000_9_4():
    t = table(range(1, 7), 3, 4, 5)
    bust(t, 5)
    seen = []
    for _ in range(4):
        t.advance()
        seen.append((t.button, t.sb, t.bb))
    assert seen == [(4, 5, 6), (5, 6, 1), (6, 1, 2), (1, 2, 3)]


# ------------------------------------------------------------------- heads-up


def test_heads_up_when_the_button_busts_S10_000_9_4_TDA_34B():
    t = table([2, 5, 8], 2, 5, 8)
    bust(t, 2)
    t.advance()
    # seat 8 just paid the big blind: button and small blind; seat 5 the big blind
    assert (t.button, t.sb, t.bb) == (8, 8, 5)


def test_heads_up_when_the_big_blind_busts_S10_003_38():
    t = table([2, 5, 8], 2, 5, 8)
    bust(t, 8)
    t.advance()
    assert (t.button, t.sb, t.bb) == (5, 5, 2)


def test_heads_up_when_the_small_blind_busts_003_38():
    t = table([2, 5, 8], 2, 5, 8)
    bust(t, 5)
    t.advance()
    # 8 paid the big blind last hand, so 2 posts it now; 8 has button + small blind
    assert (t.button, t.sb, t.bb) == (8, 8, 2)


def test_heads_up_alternates_button_and_big_blind_000_9_4():
    t = table([2, 5, 8], 2, 5, 8)
    bust(t, 2)
    hands = []
    for _ in range(4):
        t.advance()
        hands.append((t.button, t.sb, t.bb))
    assert hands == [(8, 8, 5), (5, 5, 8), (8, 8, 5), (5, 5, 8)]
    for b, s, _ in hands:
        assert b == s  # the button posts the small blind (002)


@pytest.mark.parametrize("busted", [(2, 4), (4, 6), (6, 8), (2, 8), (2, 6), (4, 8)])
def test_two_bust_at_once_into_heads_up_nobody_posts_bb_twice_000_9_4(busted):
    t = table([2, 4, 6, 8], 2, 4, 6)
    bust(t, *busted)
    t.advance()
    assert t.button == t.sb and t.button in t.occupant and t.bb in t.occupant
    assert t.bb != 6 or 6 in busted  # seat 6 paid the big blind last hand


def test_first_hand_heads_up_button_posts_small_blind_000_9_4():
    t = Table(1, 9, occupant={3: 1, 7: 2})
    t.first_hand(3)
    assert (t.button, t.sb, t.bb) == (3, 3, 7)


# --------------------------------------------------- arrivals wait for the button


def test_arrival_between_button_and_small_blind_waits_S6_000_4_10():
    t = table([1, 2, 3, 4, 6, 7, 8], 3, 4, 6)
    assert t.next_positions() == (4, 6, 7)
    assert t.arrival_waits(5)
    assert not t.arrival_waits(9)


def test_waiting_player_is_dealt_in_after_the_button_passed_S6_000_4_10():
    t = table([1, 2, 3, 4, 6, 7, 8], 3, 4, 6)
    t.occupant[5] = 105
    t.waiting.add(5)
    t.occupant[9] = 109  # seat 9 is dealt in at once
    assert t.dealt(9) and not t.dealt(5)
    t.advance()  # button 4, SB 6, BB 7: seat 5 gets no cards
    assert (t.button, t.sb, t.bb) == (4, 6, 7)
    assert not t.dealt(5)
    t.advance()  # the button has passed seat 5
    assert (t.button, t.sb, t.bb) == (6, 7, 8)
    assert t.dealt(5)
    # seat 9 posts the big blind in its turn, seat 5 after seat 4
    bbs = big_blinds(t, 7)
    assert bbs == [9, 1, 2, 3, 4, 5, 6]


def test_waiting_player_does_not_shift_the_blinds_000_4_10():
    t = table([1, 2, 3, 4, 6, 7, 8], 3, 4, 6)
    before = t.next_positions()
    t.occupant[5] = 105
    t.waiting.add(5)
    assert t.next_positions() == before


def test_arrival_on_a_dead_small_blind_seat_waits_001_2_I():
    # S4 table: the next small blind falls on the empty seat 3
    t = table([1, 2, 4, 5, 6, 8, 9], 1, 2, 3)
    assert t.next_positions() == (2, 3, 4)
    # seat 3 is the small blind itself, not between button and SB
    assert not t.arrival_waits(3)
    assert not t.arrival_waits(7)


def test_heads_up_arrival_never_waits_000_4_10():
    t = table([2, 8], 2, 2, 8)
    assert not t.arrival_waits(5)


# ------------------------------------------------------------ the worst seat


def test_mover_is_next_big_blind_S1_000_4_9():
    t = table(range(1, 10), 4, 5, 6)
    assert t.next_big_blind() == 7


def test_worst_seat_reaches_big_blind_first_S3_000_4_9_TDA_11A():
    t = table([1, 2, 3, 4, 5, 7, 8], 1, 2, 3)
    assert t.next_positions() == (2, 3, 4)
    assert t.worst_seat() == 6


def test_worst_seat_never_small_blind_S4_001_2_I():
    t = table([1, 2, 3, 4, 5, 6, 8, 9], 1, 2, 3)
    bust(t, 3)  # the big blind busted in the last hand
    assert t.next_positions() == (2, 3, 4)
    assert t.next_positions()[1] not in t.occupant  # no small blind next hand
    assert sorted(t.free_seats()) == [3, 7]
    assert t.worst_seat() == 7


def test_worst_seat_small_blind_only_when_nothing_else_is_free_001_2_I():
    t = table([1, 2, 3, 4, 5, 6, 7, 8, 9], 1, 2, 3)
    bust(t, 3)
    assert t.free_seats() == [3]
    assert t.worst_seat() == 3


def test_worst_seat_is_dealt_in_and_posts_big_blind_soonest_S3():
    t = table([1, 2, 3, 4, 5, 7, 8], 1, 2, 3)
    seat = t.worst_seat()
    t.occupant[seat] = 999
    assert not t.arrival_waits(seat)
    bbs = big_blinds(t, 3)
    assert bbs[:3] == [4, 5, 6]  # the mover pays the big blind in the third hand


def test_full_table_has_no_worst_seat():
    t = table(range(1, 10), 1, 2, 3)
    assert t.worst_seat() is None


def hands_until_big_blind(t: Table, seat: int, limit: int = 40) -> int:
    """Sit a mover in ``seat`` of a copy of ``t`` now (waiting for the button where 000 4.10
    says so) and count the hands until that seat posts the big blind (1 = the next hand)."""
    c = Table(t.number, t.size, occupant=dict(t.occupant), waiting=set(t.waiting),
              button=t.button, sb=t.sb, bb=t.bb)
    waits = c.arrival_waits(seat)
    c.occupant[seat] = -1
    if waits:
        c.waiting.add(seat)
    for n in range(1, limit + 1):
        c.advance()
        if c.bb == seat:
            return n
    raise AssertionError(f"seat {seat} never posts the big blind")


def test_worst_seat_posts_the_big_blind_soonest_random_layouts_000_4_9_TDA_11A():
    """Tried on the dead-button rules themselves (000 9.4, TDA 32): in random layouts,
    after random busts, the worst seat is the free seat whose player posts the big blind
    in the fewest hands, and it is never the next small blind unless nothing else is free
    (001 §2 I)."""
    rng = random.Random(5)
    checked_gap_after_bb = 0
    for _ in range(400):
        seats = sorted(rng.sample(range(1, 10), rng.randint(3, 8)))
        t = Table(1, 9, occupant={s: s for s in seats})
        t.first_hand(rng.choice(seats))
        for _ in range(rng.randint(0, 5)):
            t.advance()
        for s in rng.sample(sorted(t.occupant), rng.randint(0, 2)):
            if t.count() > 3:
                del t.occupant[s]  # busts in the hand in play: dead blinds, dead button
        w = t.worst_seat()
        _, sb, _ = t.next_positions()
        candidates = [s for s in t.free_seats() if s != sb] or t.free_seats()
        cost = {s: hands_until_big_blind(t, s) for s in candidates}
        assert w in candidates
        assert cost[w] == min(cost.values()), (t, w, cost)
        # a tie (free seats in a row: the big blind reaches whichever is taken at the same
        # hand) goes to a seat that is dealt in at once, when there is one (000 4.10)
        tied = [s for s in cost if cost[s] == cost[w]]
        if any(not t.arrival_waits(s) for s in tied):
            assert not t.arrival_waits(w)
        if t.bb is not None and t.clockwise(t.bb)[0] in t.free_seats():
            checked_gap_after_bb += 1
    assert checked_gap_after_bb > 20  # the layout of the issue was tried often


def test_free_seat_right_after_the_big_blind_is_the_worst_000_4_9_TDA_11A():
    """Issue 10.3: last hand button 1, SB 2, BB 3; seats 4 and 9 free. A player in seat 4
    posts the very next big blind (the big blind moves to the next dealt-in seat after
    3); seat 9 would post it four hands later. The old search began at the next occupied
    big blind (5) and handed out seat 9."""
    t = table([1, 2, 3, 5, 6, 7, 8], 1, 2, 3)
    assert t.worst_seat() == 4
    assert hands_until_big_blind(t, 4) == 1 and hands_until_big_blind(t, 9) == 5


@pytest.mark.parametrize(("seats", "positions", "busted", "worst"), [
    # dead small blind: BB 3 busted; seat 3 takes the next SB (never), seat 4 is next BB
    ([1, 2, 3, 5, 6, 7, 8, 9], (1, 2, 3), [3], 4),
    # dead button: SB 2 busted; next hand button on empty 2, SB 3, BB 5; 4 is free
    ([1, 2, 3, 5, 6, 7], (1, 2, 3), [2], 4),
    # wrap-around: BB in seat 9, seat 1 free right after it
    ([2, 3, 5, 7, 8, 9], (7, 8, 9), [], 1),
    # only the seat between the next button and small blind, and the SB seat: the mover
    # waits for the button there rather than take the small blind (001 §2 I, 000 4.10)
    ([1, 2, 3, 5, 6, 7, 8, 9], (2, 3, 5), [5], 4),
    # heads-up destination (000 9.4): button/SB 4, BB 7; seat 8 posts the next big blind
    ([4, 7], (4, 4, 7), [], 8),
])
def test_worst_seat_layouts_000_4_9_001_2_I_TDA_11A(seats, positions, busted, worst):
    t = table(seats, *positions)
    bust(t, *busted)
    assert t.worst_seat() == worst
    _, sb, _ = t.next_positions()
    assert worst != sb
    others = [s for s in t.free_seats() if s not in (worst, sb)]
    assert all(hands_until_big_blind(t, worst) <= hands_until_big_blind(t, s) for s in others)


# ------------------------------------------------------------ the first button


def test_first_button_same_seat_on_every_table_000_3_12():
    rng = random.Random(3)
    for seed in range(60):
        players = list(range(1, rng.randint(10, 60)))
        slots, button = seating.draw(players, 9, random.Random(seed))
        tables: dict[int, Table] = {}
        for p, t, s in slots:
            tables.setdefault(t, Table(t, 9)).occupant[s] = p
        # the high card is dealt on the positions of table 1: the button is a player there
        assert button in tables[1].occupant
        for tab in tables.values():
            tab.first_hand(button)
            assert tab.button == button  # same seat position, a dead button where empty
            assert tab.sb in tab.occupant and tab.bb in tab.occupant
            assert tab.sb == tab._next_dealt(button) and tab.bb == tab._next_dealt(tab.sb)


def test_first_button_on_an_empty_seat_is_dead_blinds_follow_000_3_12():
    t = Table(2, 9, occupant={1: 1, 2: 2, 5: 5, 8: 8})
    t.first_hand(4)
    assert (t.button, t.sb, t.bb) == (4, 5, 8)
    t.advance()
    assert (t.button, t.sb, t.bb) == (5, 8, 1)


def test_first_hand_clears_waiting_and_handles_one_player():
    t = Table(1, 9, occupant={3: 1})
    t.first_hand(1)
    assert t.bb is None
    t.occupant[6] = 2
    t.advance()
    assert t.bb in (3, 6) and t.sb == t.button


# ------------------------------------------------------------------ clockwise


def test_clockwise_order_wraps():
    t = Table(1, 9)
    assert t.clockwise(7) == [8, 9, 1, 2, 3, 4, 5, 6, 7]
    assert t.between_button_and_sb(9, 8, 2)
    assert t.between_button_and_sb(1, 8, 2)
    assert not t.between_button_and_sb(3, 8, 2)
    assert not t.between_button_and_sb(5, 5, 5)


def test_hands_left_counts_down_002():
    t = table(range(1, 7), 1, 2, 3)
    t.hands_left = 2
    t.advance()
    t.advance()
    t.advance()
    assert t.hands_left == 0
