"""The prize pool (002 "Prize Pool: 10.000€"; issue 30): what the entries paid in.

Read from the players as the event log made them, nothing stored of its own: every
entry pays ``money.buy_in``, every re-entry ``money.reentry`` (the buy-in unless set),
every rebuy ``money.rebuy``. The house keeps ``money.fee`` of each buy-in and re-entry
and ``money.rebuy_fee`` of each rebuy: an amount, or a share of the price rounded
**down** to the cent (the cent goes to the pool, ``settings.fee_of``). ``money.bounty``
of each of them goes onto the player's head (rules/bounties.py), not into the pool.
The add-on is 000's automatic one (4.13), credited, not bought: it costs nothing. So
``paid_in == pool collected + fees + bounties`` to the cent. A ghost seat pays nothing;
a player taken off the list before the draw is no entry; a disqualified player's
buy-in stays in the pool. The pool is at least ``money.guarantee`` (the house pays the
"overlay").

The pool grows while players can still buy in (late registration, re-entries, rebuys,
the add-on) and the paid places with the field; once none of these is open any more
(:func:`open_for_entries`) both are **final**: the screens stop saying "so far".

A satellite (002 "Top 10 gewinnen Ticket") pays tickets of the target's buy-in and the
rest in cash; it ends when only the ticket winners are left (:func:`tickets_won`).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.engine import events as ev
from controller.engine.results import ResultRow
from controller.engine.rules import bounties, payouts
from controller.engine.settings import fee_of

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


@dataclass(frozen=True)
class PrizePool:
    """The pool and its payouts at one moment. Amounts in cents."""

    currency: str
    #: what the players paid in all, fees included
    paid_in: int
    #: the fees the house kept
    fees: int
    #: what goes to the players: paid in less fees, at least the guarantee
    pool: int
    #: what the house adds to reach the guarantee (0 when the entries cover it)
    overlay: int
    entries: int
    reentries: int
    rebuys: int
    addons: int
    #: what places 1..n pay (n = the paid places)
    payouts: tuple[int, ...]
    #: nobody can buy in any more: the pool and the payouts stay as they are
    final: bool
    #: a satellite's ticket (the target event's buy-in); ``None``: cash prizes
    ticket: int | None = None
    #: what went onto the players' heads (money bounties, rules/bounties.py), not the pool
    bounties: int = 0

    @property
    def tickets(self) -> int:
        """How many tickets the pool buys (0 without a satellite)."""
        return self.pool // self.ticket if self.ticket else 0

    @property
    def paid_places(self) -> int:
        return len(self.payouts)

    def as_dict(self) -> dict[str, object]:
        return {"currency": self.currency, "paid_in": self.paid_in, "fees": self.fees,
                "pool": self.pool, "overlay": self.overlay, "entries": self.entries,
                "reentries": self.reentries, "rebuys": self.rebuys, "addons": self.addons,
                "paid_places": self.paid_places, "payouts": list(self.payouts),
                "final": self.final,
                **({"bounties": self.bounties} if self.bounties else {}),
                **({} if self.ticket is None else {"ticket": self.ticket,
                                                   "tickets": self.tickets})}


def open_for_entries(t: Tournament, now: float | None) -> bool:
    """Somebody may still buy in at ``now``: late registration, a re-entry, a rebuy or an
    add-on still to come. ``now`` None: at the level the log has reached."""
    if t.finished:
        return False
    if not t.drawn or not t.clock.started:
        return True
    e = t.settings.entries
    level = t.level_at(now)  # as entries.late_open reads it
    if level <= e.late_registration_levels:
        return True
    if e.reentries and level <= e.reentry_until_level:
        return True
    if e.rebuys and level <= e.rebuy_until_level and not t.addon_done:
        return True
    return e.addon_after_level is not None and e.auto_addon_multiplier > 0 and not t.addon_done


def prize_pool(t: Tournament, now: float | None = None) -> PrizePool | None:
    """The pool now, or ``None`` for a tournament that plays for points only."""
    money = t.settings.money
    if money is None:
        return None
    reentry = money.buy_in if money.reentry is None else money.reentry
    # the tournament counts its players and entries (ghosts are neither): a festival's
    # summary at every bust does not walk 10,000 players; rebuys and add-ons are counted
    # where the tournament has them
    firsts = t.real_players()
    reentries = t.entries - firsts
    rebuys = addons = 0
    e = t.settings.entries
    if e.rebuys or e.addon_after_level is not None:
        for p in t.players.values():
            if not p.ghost:
                rebuys += p.rebuys
                addons += 1 if p.addon else 0
    rebuy = money.rebuy or 0
    fees = (firsts * fee_of(money.fee, money.buy_in) + reentries * fee_of(money.fee, reentry)
            + rebuys * fee_of(money.rebuy_fee, rebuy))
    # the add-on is credited to every player who did not rebuy (000 4.13), not bought
    paid_in = firsts * money.buy_in + reentries * reentry + rebuys * rebuy
    on_heads = (firsts + reentries + rebuys) * money.bounty
    collected = paid_in - fees - on_heads
    pool = max(collected, money.guarantee)
    field = firsts + reentries
    if money.satellite is not None:  # tickets, the rest in cash (002)
        amounts = payouts.satellite(pool, money.satellite)
    else:
        amounts = payouts.amounts(pool, payouts.paid_places(money, t.settings.points, field),
                                  money)
    return PrizePool(
        currency=money.currency, paid_in=paid_in, fees=fees, pool=pool,
        overlay=pool - collected, entries=field, reentries=reentries, rebuys=rebuys,
        addons=addons, payouts=tuple(amounts), final=not open_for_entries(t, now),
        ticket=money.satellite, bounties=on_heads)


def player_payouts(t: Tournament, pool: PrizePool) -> dict[int, int]:
    """Each placed player's payout in cents (shared places split, :func:`payouts.shares`).

    A ghost seat takes no place (000 9.5 "wird nicht in der Rangliste gewertet"), so no
    paid place: the places count real players only, and a ghost is left out here too, so
    no amount goes to a seat without a result row."""
    places = {pid: place for pid, place in t.places().items()
              if pid in t.players and not t.players[pid].ghost}
    return payouts.shares(places, pool.payouts)


@dataclass(frozen=True)
class SatellitePrizes:
    """What a satellite's placed players win: a ticket, or cash (cents); ``by_lot``: the
    players of a shared place that covered tickets and cash, who drew lots for them."""

    tickets: frozenset[int]
    cash: dict[int, int]
    by_lot: frozenset[int]


def lot_seed(t: Tournament, place: int) -> int:
    """The seed of the lot for the shared ``place``: from the log's seed (its first
    event) and the place, so a replay of the log draws the same lot, and nothing else."""
    return (t.seed * 1_000_003 + 7_919 * place) % (2**63)


def satellite_prizes(t: Tournament, pool: PrizePool) -> SatellitePrizes:
    """A satellite's prizes. A place (shared or not) within the tickets wins tickets; one
    beyond them the cash. Players sharing a place that covers k tickets and cash places
    (002 b: out in one hand-for-hand hand; the 10th place a ticket, the 11th the cash)
    **draw lots**: k of them, drawn from the log's seed (:func:`lot_seed`), win a ticket
    each (a ticket cannot be split); the others share the cash places' amounts evenly,
    the cents that do not divide one each in the order they registered."""
    places = {pid: place for pid, place in t.places().items()
              if pid in t.players and not t.players[pid].ghost}
    groups: dict[int, list[int]] = {}
    for pid, place in places.items():
        groups.setdefault(place, []).append(pid)
    tickets: set[int] = set()
    cash: dict[int, int] = {}
    by_lot: set[int] = set()
    for place, players in groups.items():
        players.sort()
        k = max(0, min(pool.tickets, place + len(players) - 1) - place + 1)
        if k == len(players):
            tickets.update(players)
            continue
        winners: list[int] = []
        if k:
            winners = random.Random(lot_seed(t, place)).sample(players, k)
            tickets.update(winners)
            by_lot.update(players)
        rest = [pid for pid in players if pid not in winners]
        covered = pool.payouts[place - 1 + k:place - 1 + len(players)]
        each, left = divmod(sum(covered), len(rest))
        for i, pid in enumerate(rest):
            cash[pid] = each + (1 if i < left else 0)
    return SatellitePrizes(frozenset(tickets), cash, frozenset(by_lot))


def ticket_winners(t: Tournament, pool: PrizePool) -> set[int]:
    """A satellite's players who win a ticket (:func:`satellite_prizes`)."""
    return set(satellite_prizes(t, pool).tickets) if pool.tickets else set()


def with_payouts(t: Tournament, rows: list[ResultRow]) -> list[ResultRow]:
    """The result rows, each with its payout in cents (0 outside the money); a
    satellite's ticket winners with ``ticket`` (its value) and no cash; with money
    bounties each row's bounties won (``bounties``, cents)."""
    pool = prize_pool(t)
    if pool is None:
        return rows
    won = bounties.won(t) if pool.bounties else None
    if pool.tickets:
        prizes = satellite_prizes(t, pool)
        out = [dataclasses.replace(r, payout=0, ticket=pool.ticket,
                                   lot=r.player_id in prizes.by_lot or None)
               if r.player_id in prizes.tickets
               else dataclasses.replace(r, payout=prizes.cash.get(r.player_id, 0),
                                        lot=r.player_id in prizes.by_lot or None)
               for r in rows]
    else:
        from controller.engine.rules.final_deal import dealt_payouts

        # a deal at the final table (no deal in a satellite: tickets are not split)
        paid, dealt = dealt_payouts(t, player_payouts(t, pool))
        out = [dataclasses.replace(r, payout=paid.get(r.player_id, 0),
                                   deal=dealt.get(r.player_id)) for r in rows]
    if won is None:
        return out
    return [dataclasses.replace(r, bounties=won.get(r.player_id, 0)) for r in out]


def tickets_won(t: Tournament, now: float) -> None:
    """A satellite ends when only ticket winners are left (002 "Platz 10 = Platz 1"): they
    share first place. Not while somebody may still buy in (the pool may still grow)."""
    money = t.settings.money
    if money is None or money.satellite is None or not t.drawn or t.finished:
        return
    pool = prize_pool(t, now)
    if pool is None or pool.tickets < 2 or t.remaining > pool.tickets or not pool.final:
        return
    left = sorted(p.id for p in t.players.values() if not p.out and not p.ghost)
    if len(left) >= 2:
        t.emit(ev.Finished, now, winner=left[0], shared=left)


REACTIONS = (tickets_won,)
