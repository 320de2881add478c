"""The prize pool and the payouts (issue 30, 002): from the entries in the event log,
rounded to the unit with the rest to the winner, shared places split to the cent; and
the property tests: every field size 2-2,000 and every curve pays exactly the pool."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine.rules import payouts
from controller.engine.rules.prize_pool import player_payouts, prize_pool
from controller.engine.settings import Entries, Money, PaidPlaces, PayoutTable, Points
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament, replay_equal

VENUE = Money(buy_in=10_000, fee=1_000, rounding=500)
TABLES = (PayoutTable(2, (6500, 3500)), PayoutTable(3, (5000, 3000, 2000)),
          PayoutTable(5, (4000, 2500, 1500, 1200, 800)))
CURVES: list[str | tuple[PayoutTable, ...]] = [*payouts.CURVES, TABLES]


def _out(t: Tournament, now: float, *players: int) -> None:
    for pid in players:
        p = t.players[pid]
        t.execute({"cmd": "bust", "table": p.table, "seat": p.seat}, now)


# ------------------------------------------------------------------ the pool
def test_no_money_section_no_pool():
    t = new_tournament(9)
    assert t.settings.money is None and prize_pool(t) is None


def test_the_pool_counts_entries_reentries_and_rebuys_less_the_fee():
    money = Money(buy_in=11_000, fee=1_000, reentry=5_500, rebuy=2_000, rounding=100)
    t = new_tournament(20, money=money, points=Points(places=3),
                       entries=Entries(rebuys=1, rebuy_until_level=4, reentries=1,
                                       reentry_until_level=4))
    pool = prize_pool(t, 10.0)
    assert pool is not None
    assert (pool.entries, pool.paid_in, pool.fees, pool.pool) == (20, 220_000, 20_000, 200_000)
    _out(t, 20.0, 1, 2)
    t.execute({"cmd": "reentry", "player": 1}, 30.0)
    t.execute({"cmd": "rebuy", "player": 2}, 31.0)
    pool = prize_pool(t, 40.0)
    assert pool is not None
    # a re-entry 55 € (5 € fee), a rebuy 20 € (no fee)
    assert (pool.entries, pool.reentries, pool.rebuys) == (21, 1, 1)
    assert pool.fees == 21_000
    assert pool.pool == 200_000 + 4_500 + 2_000
    assert sum(pool.payouts) == pool.pool and pool.paid_places == 3
    assert not pool.final  # re-entries and rebuys are still open
    replay_equal(t)


def test_the_guarantee_is_the_least_pool_and_the_house_pays_the_overlay():
    t = new_tournament(9, money=Money(buy_in=10_000, guarantee=1_000_000), points=Points(
        places="15%"))
    pool = prize_pool(t, 10.0)
    assert pool is not None
    assert (pool.pool, pool.overlay, pool.paid_places) == (1_000_000, 910_000, 1)
    assert pool.payouts == (1_000_000,)


def test_the_pool_grows_with_late_entries_and_is_final_when_registration_closes():
    t = new_tournament(18, money=VENUE, points=Points(places="15%"),
                       entries=Entries(late_registration_levels=1))
    before = prize_pool(t, 10.0)
    assert before is not None and not before.final and before.paid_places == 3
    t.execute({"cmd": "late", "name": "Late Larry"}, 100.0)
    grown = prize_pool(t, 100.0)
    assert grown is not None and grown.pool == before.pool + 9_000
    # level 2 begins at 602 s: late registration closed, nobody can buy in any more
    final = prize_pool(t, 700.0)
    assert final is not None and final.final and final.payouts == grown.payouts


def test_places_from_the_clubs_table_and_the_bubble_follows_them():
    money = Money(buy_in=2_000, places=(PaidPlaces(2, 1), PaidPlaces(10, 2),
                                         PaidPlaces(20, 4)))
    t = new_tournament(12, money=money)
    assert t.bubble_places() == 2
    pool = prize_pool(t, 10.0)
    assert pool is not None and pool.paid_places == 2


def test_paid_places_are_capped_by_the_directors_largest_table():
    money = Money(buy_in=2_000, places="50%", payouts=TABLES)
    assert payouts.paid_places(money, Points(), 40) == 5
    assert payouts.paid_places(money, Points(), 6) == 3


# ------------------------------------------------------------------ the amounts
def test_rounding_down_to_the_unit_the_rest_to_the_winner():
    # 002: 10,000 € for 15 places, rounded to 5 €
    got = payouts.amounts(1_000_000, 15, Money(buy_in=10_000, rounding=500))
    assert got[0] == 304_500 and got[-1] == 20_000
    assert all(a % 500 == 0 for a in got[1:]) and sum(got) == 1_000_000


def test_a_smaller_field_takes_the_tables_first_shares_scaled_up():
    money = Money(buy_in=100, rounding=1, payouts=(PayoutTable(3, (5000, 3000, 2000)),))
    assert payouts.amounts(80_000, 2, money) == [50_000, 30_000]


def test_a_shared_place_pools_the_places_and_splits_to_the_cent():
    amounts = [50_000, 30_000, 20_001, 10_000]
    # players 7, 3, 5 share place 2 (places 2-4): 60,001 cents → 20,000 each, 1 cent over
    got = payouts.shares({1: 1, 7: 2, 3: 2, 5: 2}, amounts)
    assert got == {1: 50_000, 3: 20_001, 5: 20_000, 7: 20_000}
    assert sum(got.values()) == sum(amounts)


def test_busts_of_one_hand_for_hand_hand_share_the_places_002_b():
    """On the bubble (11 left, 10 paid) one player goes out at each table in the same
    hand-for-hand hand: they share places 10-11 and split the 10th place's 90 €."""
    t = new_tournament(27, money=Money(buy_in=10_000, rounding=500), points=Points(places=10))
    now = 50.0
    while t.remaining > 11:
        first = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": first}, now)
        now += 1
    assert t.hfh.on and len(t.tables) == 2
    a, b = (next(p.id for p in t.players.values() if not p.out and p.table == n)
            for n in sorted(t.tables))
    t.execute({"cmd": "bust", "player": a}, now)
    t.execute({"cmd": "bust", "player": b}, now + 1)
    assert t.places_of([a, b]) == {a: 10, b: 10}
    pool = prize_pool(t, now)
    assert pool is not None and pool.payouts[9] == 9_000
    got = player_payouts(t, pool)
    assert got[a] == got[b] == 4_500
    assert {pid for pid, cents in got.items() if cents} == {a, b}


# ------------------------------------------------------------------ properties
@pytest.mark.parametrize("curve", CURVES, ids=str)
def test_every_field_size_pays_exactly_the_pool_and_never_rises(curve):
    """Every field 2-2,000 at 15 % paid (and every curve): the amounts add up to the pool
    to the cent and never rise down the places."""
    money = Money(buy_in=10_000, fee=500, rounding=500, places="15%", payouts=curve)
    for field in range(2, 2_001):
        paid = payouts.paid_places(money, Points(), field)
        pool = field * (money.buy_in - money.fee)
        got = payouts.amounts(pool, paid, money)
        assert sum(got) == pool, field
        assert all(a >= b for a, b in zip(got, got[1:], strict=False)), field
        assert len(got) == paid >= 1


@settings(deadline=None)  # a loaded machine: no time limit per example
@given(pool=st.integers(0, 10**10), paid=st.integers(1, 2_000),
       unit=st.sampled_from([1, 100, 500, 1_000, 2_500]),
       curve=st.sampled_from(payouts.CURVES))
def test_any_pool_any_unit_pays_exactly(pool, paid, unit, curve):
    got = payouts.amounts(pool, paid, Money(buy_in=100, rounding=unit, payouts=curve))
    assert sum(got) == pool and len(got) == paid
    assert all(a >= b for a, b in zip(got, got[1:], strict=False))
    assert all(a % unit == 0 for a in got[1:])


@settings(deadline=None)  # a loaded machine: no time limit per example
@given(data=st.data(), pool=st.integers(0, 10**9), paid=st.integers(1, 60),
       curve=st.sampled_from(CURVES))
def test_shared_places_split_to_the_cent(data, pool, paid, curve):
    """Random shared places over a field: the payouts still add up to the pool, each
    group's players differ by at most a cent, and no better place gets less."""
    money = Money(buy_in=100, rounding=100, payouts=curve)
    paid = min(paid, payouts.paid_places(money, Points(places=paid), paid))
    amounts = payouts.amounts(pool, paid, money)
    field = paid + data.draw(st.integers(0, 20))
    sizes = []
    while sum(sizes) < field:
        sizes.append(data.draw(st.integers(1, min(4, field - sum(sizes)))))
    places: dict[int, int] = {}
    place, pid = 1, 100
    for size in sizes:
        for _ in range(size):
            places[pid] = place
            pid -= 1
        place += size
    got = payouts.shares(places, amounts)
    assert sum(got.values()) == pool
    for p in set(places.values()):
        group = [got[x] for x in places if places[x] == p]
        assert max(group) - min(group) <= 1
    ranked = sorted(places, key=lambda x: places[x])
    assert all(got[a] >= got[b] for a, b in zip(ranked, ranked[1:], strict=False)
               if places[a] < places[b])


# ------------------------------------------------------------------ satellites (002)
def test_a_satellite_pays_tickets_and_the_rest_in_cash():
    assert payouts.satellite(100_000, 10_000) == [10_000] * 10  # 002: 100 × 10 €, 10 tickets
    assert payouts.satellite(27_000, 10_000) == [10_000, 10_000, 7_000]
    assert payouts.satellite(5_000, 10_000) == [5_000]


def test_a_satellite_ends_when_only_the_ticket_winners_are_left_002():
    """'Top 10 gewinnen Ticket ... Platz 10 = Platz 1': 27 at 10 € for a 100 € ticket
    buy 2 tickets and 70 € cash; when two are left both have a ticket and share 1st."""
    t = new_tournament(27, money=Money(buy_in=1_000, satellite=10_000))
    pool = prize_pool(t, 10.0)
    assert pool is not None and (pool.tickets, pool.payouts) == (2, (10_000, 10_000, 7_000))
    assert t.bubble_places() == 3
    now = 50.0
    while not t.finished:
        first = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": first, "confirm": True}, now)
        now += 1
    assert t.remaining == 2 and set(t.co_winners) | {t.winner} == {26, 27}
    rows = {r.player_id: r for r in t.results()}
    assert rows[26].place == rows[27].place == 1
    assert (rows[26].ticket, rows[26].payout) == (10_000, 0)
    assert (rows[25].place, rows[25].payout, rows[25].ticket) == (3, 7_000, None)
    assert sum(r.payout or 0 for r in rows.values()) + 2 * 10_000 == pool.pool
    replay_equal(t)


def test_a_satellite_keeps_going_while_the_pool_can_still_grow():
    t = new_tournament(27, money=Money(buy_in=1_000, satellite=10_000),
                       entries=Entries(late_registration_levels=2))
    now = 50.0
    while t.remaining > 2:
        first = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": first, "confirm": True}, now)
        now += 1
    assert not t.finished  # late registration is open: a late entry may still come
    t.execute({"cmd": "tick"}, 2.0 + 2 * 600 + 10)  # level 3: registration closed
    assert t.finished and len(t.co_winners) == 2
