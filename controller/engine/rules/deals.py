"""Deals at the final table (002: "Deal-Berechnung: ICM oder Chip Chop", "10% des
verbleibenden Preispools müssen ausgespielt werden"; issue 30).

Pure functions of the counted stacks and the payouts of the places still to be played
(cents); no event, no clock. What the director proposes and accepts, the ``deal``
command and its event, is :mod:`~controller.engine.rules.final_deal`; this module only
computes the split.

* **ICM** (Malmuth-Harville, :func:`icm`): a player's chance to finish first is their
  share of the chips; the chance to finish k-th follows from the players left after the
  better places are taken, each again by their share of the chips left. Computed
  exactly (no sampling: every finishing order, to 50 digits) over the subsets of
  players, 2^n·n steps: 10 players in about 20 ms.
* **chip chop** (:func:`chip_chop`): everybody gets the last place still to be played
  for; the rest of the money goes by share of the chips.
* **played for** (:func:`deal`): a share of the remaining money (002: 10 %) is taken off
  the first place's amount before the deal and stays on the table for the winner.

Amounts are whole cents: each equity rounded down, the cents left over go one each to
the largest fractions (equal fractions: the bigger stack, then the order given), so the
deal adds up exactly to the money dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

#: the ways a deal is computed
METHODS = ("icm", "chip_chop")
#: the most players a deal is computed for: a final table of 10 and a margin
MAX_PLAYERS = 12


def _check(stacks: Sequence[int], amounts: Sequence[int]) -> None:
    if not 2 <= len(stacks) <= MAX_PLAYERS:
        raise ValueError(f"a deal is for 2-{MAX_PLAYERS} players, got {len(stacks)}")
    if any(s <= 0 for s in stacks):
        raise ValueError("every stack in a deal must have chips")
    if len(amounts) > len(stacks):
        raise ValueError(f"{len(amounts)} places paid but only {len(stacks)} players left")
    if any(a < 0 for a in amounts):
        raise ValueError("a payout cannot be negative")


#: the digits ICM computes with: 10 players' chances differ from the exact fractions in
#: the 40th digit, far below a cent; decimal arithmetic is specified digit for digit, so
#: every machine computes the same deal (floats may differ in the last bit)
DIGITS = 50


def finish_chances(stacks: Sequence[int]) -> list[list[Decimal]]:
    """``chances[i][k]``: the chance (Malmuth-Harville) that player i finishes (k+1)-th.

    Over the subsets of players that take the top places: ``reach[mask]`` is the chance
    that exactly those players finish above the rest; the next place goes to each other
    player by their share of the chips left. 2^n·n steps (10 players: about 10,000)."""
    n = len(stacks)
    total = sum(stacks)
    sums = [0] * (1 << n)  # the chips of every subset
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + stacks[low.bit_length() - 1]
    zero = Decimal(0)
    chances = [[zero] * n for _ in range(n)]
    with localcontext() as ctx:
        ctx.prec = DIGITS
        ctx.rounding = ROUND_HALF_EVEN
        reach: list[Decimal | None] = [None] * (1 << n)
        reach[0] = Decimal(1)
        for mask in sorted(range((1 << n) - 1), key=int.bit_count):
            p = reach[mask]
            if p is None:
                continue
            size = mask.bit_count()
            per_chip = p / (total - sums[mask])
            for j in range(n):
                if mask >> j & 1:
                    continue
                q = per_chip * stacks[j]
                chances[j][size] += q
                nxt = mask | 1 << j
                before = reach[nxt]
                reach[nxt] = q if before is None else before + q
    return chances


def icm(stacks: Sequence[int], amounts: Sequence[int]) -> list[Decimal]:
    """Each player's ICM equity in cents (to :data:`DIGITS` digits) for the places still
    to be paid ``amounts`` (best first). They add up to ``sum(amounts)``."""
    _check(stacks, amounts)
    chances = finish_chances(stacks)
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return [sum((c * a for c, a in zip(row, amounts, strict=False)), Decimal(0))
                for row in chances]


def chip_chop(stacks: Sequence[int], amounts: Sequence[int]) -> list[Fraction]:
    """Everybody the last paid amount among the players left, the rest by chips."""
    _check(stacks, amounts)
    n = len(stacks)
    floor = amounts[n - 1] if len(amounts) >= n else 0
    rest = sum(amounts) - floor * n
    total = sum(stacks)
    return [floor + Fraction(rest * s, total) for s in stacks]


def to_cents(equities: Sequence[Fraction | Decimal], stacks: Sequence[int],
             total: int) -> list[int]:
    """Whole cents adding up exactly to ``total`` (what the equities add up to):
    rounded down, the cents left over one each to the largest fractions (equal: the
    bigger stack, then the earlier player)."""
    whole = [int(e) for e in equities]  # equities are ≥ 0: int() rounds down
    left = total - sum(whole)
    order = sorted(range(len(equities)),
                   key=lambda i: (-(equities[i] - whole[i]), -stacks[i], i))
    for i in order[:left]:
        whole[i] += 1
    return whole


@dataclass(frozen=True)
class Deal:
    """A computed deal: what each player takes now (cents, in the order of the stacks)
    and what stays on the table for the winner."""

    method: str
    stacks: tuple[int, ...]
    shares: tuple[int, ...]
    played_for: int


def deal(stacks: Sequence[int], amounts: Sequence[int], method: str = "icm",
         play_for_percent: int = 0, played_for: int | None = None) -> Deal:
    """The deal for ``stacks`` on the remaining paid places ``amounts`` (cents, best
    first). ``play_for_percent`` (0-100, 002: 10) of the remaining money, rounded down to
    the cent, is taken off the first place before the split and played for; or
    ``played_for``, an amount in cents, instead."""
    _check(stacks, amounts)
    if method not in METHODS:
        raise ValueError(f"unknown deal method {method!r}; one of {', '.join(METHODS)}")
    if not 0 <= play_for_percent <= 100:
        raise ValueError(f"the share played for is 0-100 %, got {play_for_percent}")
    if not amounts:
        raise ValueError("no paid place is left to deal")
    if played_for is None:
        played_for = sum(amounts) * play_for_percent // 100
    elif played_for < 0:
        raise ValueError("the amount played for cannot be negative")
    if played_for > amounts[0]:
        raise ValueError("the amount played for is more than the first place pays: it "
                         "cannot be taken off it")
    rest = [amounts[0] - played_for, *amounts[1:]]
    equities: Sequence[Fraction | Decimal] = (
        icm(stacks, rest) if method == "icm" else chip_chop(stacks, rest))
    shares = to_cents(equities, stacks, sum(rest))
    return Deal(method, tuple(stacks), tuple(shares), played_for)
