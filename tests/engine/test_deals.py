"""Deals at the final table (002 "ICM oder Chip Chop", "10% ... ausgespielt"; issue 30):
ICM equals a brute force over every finishing order, and every deal adds up to the cent."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine.rules.deals import chip_chop, deal, icm, to_cents


def brute_force_icm(stacks: list[int], amounts: list[int]) -> list[Fraction]:
    """Malmuth-Harville by definition: every finishing order, its chance the product of
    each place's winner's share of the chips still in play."""
    n = len(stacks)
    equity = [Fraction(0)] * n
    for order in itertools.permutations(range(n)):
        chance, left = Fraction(1), sum(stacks)
        for i in order:
            chance *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            if place < len(amounts):
                equity[i] += chance * amounts[place]
    return equity


def test_two_players_icm_by_hand():
    # 3:1 in chips, 70/30: the leader wins 3/4 of the time → 0.75·70 + 0.25·30 = 60
    assert [float(e) for e in icm([3000, 1000], [7000, 3000])] == [6000.0, 4000.0]


@settings(deadline=None)  # a loaded machine: no time limit per example
@given(stacks=st.lists(st.integers(1, 10**7), min_size=2, max_size=6),
       data=st.data())
def test_icm_equals_the_brute_force_over_every_finishing_order(stacks, data):
    amounts = sorted(data.draw(st.lists(st.integers(0, 10**8), min_size=1,
                                        max_size=len(stacks))), reverse=True)
    exact = brute_force_icm(stacks, amounts)
    got = icm(stacks, amounts)
    for g, e in zip(got, exact, strict=True):
        assert abs(Fraction(g) - e) <= Fraction(1, 10**30) * max(1, sum(amounts))
    # in cents the same deal, adding up to the money
    assert to_cents(got, stacks, sum(amounts)) == to_cents(exact, stacks, sum(amounts))
    assert sum(to_cents(got, stacks, sum(amounts))) == sum(amounts)


@settings(deadline=None)  # a loaded machine: no time limit per example
@given(stacks=st.lists(st.integers(1, 10**7), min_size=2, max_size=10),
       percent=st.sampled_from([0, 10, 25]), method=st.sampled_from(["icm", "chip_chop"]))
def test_every_deal_adds_up_to_the_money_left(stacks, percent, method):
    amounts = [100_000 * (len(stacks) - i) ** 2 for i in range(len(stacks))]
    d = deal(stacks, amounts, method, percent)
    assert sum(d.shares) + d.played_for == sum(amounts)
    assert d.played_for == sum(amounts) * percent // 100
    if percent:
        return  # the first place less what is played for may pay less than the second
    # more chips never get less
    for (s1, a1), (s2, a2) in itertools.combinations(zip(stacks, d.shares, strict=True), 2):
        if s1 > s2:
            assert a1 >= a2
        elif s2 > s1:
            assert a2 >= a1


def test_chip_chop_gives_everybody_the_last_place_and_the_rest_by_chips():
    got = chip_chop([6000, 3000, 1000], [5000, 3000, 2000])
    # 2,000 each, the other 4,000 by 60/30/10 %
    assert got == [4400, 3200, 2400]


def test_ten_percent_is_played_for_002():
    d = deal([50_000, 30_000, 20_000], [500_000, 300_000, 200_000], "icm", 10)
    assert d.played_for == 100_000 and sum(d.shares) == 900_000


def test_a_final_table_of_ten():
    """The money adds up, and the bigger stack's equity is bigger (its time: bench/icm.py)."""
    stacks = [120_000, 80_000, 60_000, 45_000, 30_000, 22_000, 15_000, 9_000, 5_000, 2_000]
    got = icm(stacks, [300_000, 180_000, 120_000, 90_000, 70_000, 55_000, 45_000, 37_000,
                       30_000, 25_000])
    assert round(sum(got)) == 952_000 and got == sorted(got, reverse=True)


@pytest.mark.parametrize("stacks, amounts, message", [
    ([1000], [100], "2-12 players"),
    ([1000, 0], [100], "must have chips"),
    ([1000, 500], [100, 50, 20], "only 2 players left"),
])
def test_a_deal_that_cannot_be_is_refused(stacks, amounts, message):
    with pytest.raises(ValueError, match=message):
        icm(stacks, amounts)
