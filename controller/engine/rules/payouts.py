"""Payouts: how many places are paid and what each pays (002 "Preisgeldverteilung nach
Platzierung"; issue 30).

Pure integer arithmetic on cents, no floats, so a replay pays exactly what the evening
paid:

* **paid places** (:func:`paid_places`): ``money.places`` — a count, a share of the
  entries ("15%", 002: "Top 15 (15% der Spieler)"), or the club's printed table of field
  sizes — else ``points.places`` (the bubble's places). A director's payout table pays
  at most the places it has shares for.
* **the curve** (:func:`weights`): a shipped curve gives every place a whole-number
  weight for any number of paid places; the director's own table gives percent per
  place (for fewer paid places than the table has, its first shares, scaled).
* **the amounts** (:func:`amounts`): each place gets its share of the pool rounded
  *down* to ``money.rounding`` (e.g. 5 €); what rounding leaves goes to the winner. So
  the amounts add up exactly to the pool and never rise down the places.
* **shared places** (:func:`shares`): players who share a place (hand-for-hand busts of
  one hand, 002 b; equal stacks, 000 9.5) pool the amounts of the places they cover and
  split them evenly to the cent; the cents left over (fewer than the players sharing)
  go one each to the sharing players in the order they registered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from controller.engine.points import paid_places as share_of_field
from controller.engine.settings import Money, PaidPlaces, PayoutTable, Points

#: the whole a shipped curve's weights are parts of: large enough that floor division
#: keeps every place distinct for 2,000 paid places, small enough for exact int math
SCALE = 10**15

#: the shipped curves: place i (1 = the winner) of any number of paid places weighs
#:   standard   1/i          002's example: 15 paid → the winner 30 %, the 15th 2 %
#:   flat       1/(i+2)      smaller jumps: 15 paid → the winner 18 %, the 15th 3 %
#:   top_heavy  1/(i(i+1))   the top places take most: 3 paid → 67, 22, 11 %
CURVES = ("standard", "flat", "top_heavy")


def weights(payouts: str | tuple[PayoutTable, ...], paid: int) -> list[int]:
    """Whole-number weights of places 1..``paid``, never rising down the places.

    A shipped curve's name, or the director's tables: the one for the fewest places
    that covers ``paid`` (its first ``paid`` shares, which the amounts scale up to the
    whole pool). ``paid`` beyond every table: ``ValueError`` (:func:`paid_places` caps
    it first)."""
    if paid < 1:
        return []
    if isinstance(payouts, str):
        if payouts == "standard":
            return [SCALE // i for i in range(1, paid + 1)]
        if payouts == "flat":
            return [SCALE // (i + 2) for i in range(1, paid + 1)]
        if payouts == "top_heavy":
            return [SCALE // (i * (i + 1)) for i in range(1, paid + 1)]
        raise ValueError(f"unknown payout curve {payouts!r}; shipped: {', '.join(CURVES)}")
    for table in payouts:
        if table.paid >= paid:
            return list(table.percent[:paid])
    raise ValueError(f"no payout table covers {paid} paid places")


def _from_table(rows: tuple[PaidPlaces, ...], entries: int) -> int:
    """The club's printed table: the last row whose field size is reached."""
    paid = 0
    for row in rows:
        if entries >= row.players:
            paid = row.paid
    return paid


def paid_places(money: Money, points: Points, entries: int) -> int:
    """How many places are paid with ``entries`` entries (re-entries included).

    Never more than the entries, nor than the director's largest payout table has
    shares for; a place whose weight is 0 (a table's 0 %) is no paid place."""
    if money.satellite is not None:
        raise ValueError("a satellite's paid places follow from its pool (satellite())")
    rule = money.places if money.places is not None else points.places
    if rule is None:
        paid = 0
    elif isinstance(rule, tuple):
        paid = _from_table(rule, entries)
    else:
        paid = share_of_field(rule, entries)
    paid = min(paid, entries)
    if not isinstance(money.payouts, str):
        paid = min(paid, money.payouts[-1].paid)
        while paid and weights(money.payouts, paid)[-1] == 0:
            paid -= 1
    return paid


def satellite(pool: int, ticket: int) -> list[int]:
    """A satellite's places (002): a ticket (the target event's buy-in) for each place the
    pool buys one for, what is left in cash for the next place."""
    tickets, cash = divmod(pool, ticket)
    return [ticket] * tickets + ([cash] if cash else [])


def amounts(pool: int, paid: int, money: Money) -> list[int]:
    """What places 1..``paid`` pay, in cents: each its share rounded down to
    ``money.rounding``, the rest to the winner; they add up to ``pool`` exactly.

    ``paid`` 0 (nobody paid yet, or no entries): an empty list."""
    if pool < 0:
        raise ValueError(f"the pool cannot be negative, got {pool}")
    w = weights(money.payouts, paid)
    total = sum(w)
    if not w or total == 0:
        return []
    unit = money.rounding
    out = [pool * x // total // unit * unit for x in w]
    out[0] += pool - sum(out)
    return out


def shares(places: Mapping[int, int], paid_amounts: Sequence[int]) -> dict[int, int]:
    """Each placed player's payout in cents (0 beyond the paid places).

    ``places``: player → place, a shared place given to each player sharing it (n
    players on place p cover p..p+n-1). The sharing players pool the covered places'
    amounts and split them evenly; the cents that do not divide go one each to the
    sharing players in the order they registered (player id)."""
    groups: dict[int, list[int]] = {}
    for player, place in places.items():
        groups.setdefault(place, []).append(player)
    out: dict[int, int] = {}
    for place, players in groups.items():
        covered = paid_amounts[place - 1:place - 1 + len(players)]
        each, left = divmod(sum(covered), len(players))
        for i, player in enumerate(sorted(players)):
            out[player] = each + (1 if i < left else 0)
    return out


#: the most places a ladder shows (the wall's panel; the summary goes to every screen)
LADDER_ROWS = 12


def ladder(paid_amounts: Sequence[int], remaining: int,
           rows: int = LADDER_ROWS) -> list[tuple[int, int]]:
    """``(place, cents)`` for the wall's ladder: every paid place when they fit, else the
    top three and the places next to be paid out (the next player out takes place
    ``remaining``), best first."""
    paid = len(paid_amounts)
    if paid <= rows:
        chosen = list(range(1, paid + 1))
    else:
        frontier = max(rows, min(remaining, paid))
        top = list(range(1, 4))
        near = list(range(frontier - (rows - len(top)) + 1, frontier + 1))
        chosen = sorted(set(top) | set(near))
    return [(place, paid_amounts[place - 1]) for place in chosen]
