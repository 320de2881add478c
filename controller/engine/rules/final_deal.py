"""The deal at the final table (002 "Deal-Berechnung: ICM oder Chip Chop", "10% des
verbleibenden Preispools müssen ausgespielt werden"; issue 30).

The director asks for the proposal (:func:`proposal`, a query that changes nothing: ICM
and chip chop side by side from the counted stacks) and accepts one, or the players'
own split (``method: custom``), with the ``deal`` command. Its ``deal`` event stores for
every player left the stack it was made from and what they take now, the money of the
places still open it split, and the part still played for. The arithmetic is
:mod:`~controller.engine.rules.deals`.

A deal is refused, with nothing changed, for a tournament without money or a satellite
(tickets are not split), while players can still buy in (the pool is not final), with
players left at more than one table, when a player left has no count since their last
buy-in or the counts do not add up to the chips in play, when a deal stands already,
and a custom split that is not every player left once or does not add up to the money
open less the part played for.

After the deal play goes on: the places still decide who takes the part played for (the
winner; a shared first place splits it to the cent, :func:`payouts.shares`). A dealt
player's payout is their deal plus that share (:func:`dealt_payouts`). The deal is
undone like any command; a bust before it cannot be undone while it stands (the deal's
players would no longer be the players left: its fold refuses them), nor can a bust be
put into a hand from before it (:func:`refuse_a_hand_before`), nor a dealt player
disqualified (:func:`refuse_disqualifying`: their deal would be paid to nobody), nor
anybody buy in (:func:`refuse_entries`: a forced late entry, a re-entry reopened).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import chip_counts, deals, payouts
from controller.engine.settings import cents_text

if TYPE_CHECKING:
    from controller.engine.state import Player
    from controller.engine.tournament import Tournament

#: the share of the money open played for when the director says none (002: 10 %)
DEFAULT_PERCENT = 10


@dataclass(frozen=True)
class Table:
    """What a deal is made from: the players left (by id), their counted stacks, the
    amounts of the places still open (best first, cents) and the currency."""

    players: tuple[int, ...]
    stacks: tuple[int, ...]
    amounts: tuple[int, ...]
    currency: str

    @property
    def open(self) -> int:
        return sum(self.amounts)


def players_left(t: Tournament) -> list[Player]:
    return sorted((p for p in t.players.values() if not p.out and not p.ghost),
                  key=lambda p: p.id)


def at_the_table(t: Tournament) -> Table:
    """The players left, their counts and the money open; :class:`Rejected` says why no
    deal can be made now."""
    from controller.engine.rules.prize_pool import prize_pool

    money = t.settings.money
    if money is None:
        raise Rejected("this tournament plays for points: there is no money to deal")
    if money.satellite is not None:
        raise Rejected("a satellite pays tickets: they are not dealt")
    t.require_running()
    if t.deal is not None:
        raise Rejected("a deal stands already (event {event}): undo it first to make another",
                       event=t.deal.seq)
    pool = prize_pool(t)
    if pool is None or not pool.final:
        raise Rejected("players can still buy in (late registration, re-entries, rebuys or "
                       "the add-on): the prize pool is not final, no deal yet")
    if any(p.ghost and not p.out and p.table is not None for p in t.players.values()):
        raise Rejected("a ghost seat is still in play: no deal before the ghosts are gone")
    left = players_left(t)
    if len(left) < 2:
        raise Rejected("a deal needs two players left at least")
    if len(left) > deals.MAX_PLAYERS:
        raise Rejected("{count} players are left: a deal is made at the final table",
                       count=len(left))
    tables = {p.table for p in left}
    if len(tables) > 1:
        raise Rejected("the players left sit at {count} tables: a deal is made at the final "
                       "table", count=len(tables))
    stacks: dict[int, int] = {}
    missing: list[str] = []
    for p in left:
        s = chip_counts.known_stack(t, p.id)
        if s is None:
            missing.append(p.name)
        else:
            stacks[p.id] = s
    if missing:
        raise Rejected("count the stacks of the players left first (chip_counts): {players} "
                       "not counted since their last buy-in", players=", ".join(missing))
    chip_counts.check_total(t, stacks)
    amounts = tuple(pool.payouts[:len(left)])
    if sum(amounts) <= 0:
        raise Rejected("no paid place is left among the players left: nothing to deal")
    return Table(tuple(p.id for p in left), tuple(stacks[p.id] for p in left), amounts,
                 money.currency)


def played_for_of(table: Table, percent: int | None, played_for: int | None) -> int:
    """The cents still played for: ``played_for``, else ``percent`` (default 002's 10 %)
    of the money open, rounded down; refused when it is more than the first place pays."""
    if percent is not None and played_for is not None:
        raise Rejected("give the part played for in percent or in cents, not both")
    if played_for is None:
        played_for = table.open * (DEFAULT_PERCENT if percent is None else percent) // 100
    if played_for > table.amounts[0]:
        raise Rejected("{amount} {currency} played for is more than the first place pays "
                       "({first} {currency}): it is taken off it",
                       amount=cents_text(played_for), first=cents_text(table.amounts[0]),
                       currency=table.currency)
    return played_for


def computed(table: Table, method: str, played_for: int) -> list[int]:
    """What each player left takes now by ``method`` (icm, chip_chop)."""
    return list(deals.deal(table.stacks, table.amounts, method,
                           played_for=played_for).shares)


def proposal(t: Tournament, percent: int | None = None,
             played_for: int | None = None) -> dict[str, Any]:
    """The query: ICM and chip chop for the players left, side by side, with the part
    played for; nothing changes. :class:`Rejected` when no deal can be made now."""
    table = at_the_table(t)
    names = {pid: t.players[pid].name for pid in table.players}
    seats = {pid: t.players[pid].seat for pid in table.players}
    return split(table, names, seats, percent, played_for)


def split(table: Table, names: dict[int, str], seats: dict[int, int | None],
          percent: int | None = None, played_for: int | None = None) -> dict[str, Any]:
    """ICM and chip chop of ``table`` side by side (players by stack, biggest first), for
    ``percent`` or ``played_for`` cents played for (the console's dialog asks again with
    the director's amount, from the query's table)."""
    played = played_for_of(table, percent, played_for)
    icm = computed(table, "icm", played)
    chop = computed(table, "chip_chop", played)
    return {
        "currency": table.currency, "open": table.open, "played_for": played,
        "percent": None if played_for is not None else (
            DEFAULT_PERCENT if percent is None else percent),
        "amounts": list(table.amounts),
        "players": [{"player_id": pid, "name": names[pid], "seat": seats.get(pid),
                     "stack": stack, "icm": i, "chip_chop": c}
                    for pid, stack, i, c in sorted(
                        zip(table.players, table.stacks, icm, chop, strict=True),
                        key=lambda r: (-r[1], r[0]))],
    }


def table_of(result: dict[str, Any]) -> Table:
    """The :class:`Table` a proposal (:func:`split`) was made from."""
    rows = sorted(result["players"], key=lambda r: r["player_id"])
    return Table(tuple(r["player_id"] for r in rows), tuple(r["stack"] for r in rows),
                 tuple(result["amounts"]), result["currency"])


# ------------------------------------------------------------------ command
def make_deal(t: Tournament, c: cmd.Deal, now: float) -> None:
    table = at_the_table(t)
    played = played_for_of(table, c.percent, c.played_for)
    if c.method == "custom":
        shares = _custom(t, table, c.amounts, played)
    else:
        if c.amounts:
            raise Rejected("amounts are for a custom deal (method custom); {method} computes "
                           "them", method=c.method)
        try:
            shares = computed(table, c.method, played)
        except ValueError as exc:  # the arithmetic's own limits (a checked case)
            raise Rejected("no deal: {reason}", reason=str(exc)) from None
    t.emit(ev.DealMade, now, method=c.method, played_for=played, open=table.open,
           shares=[(pid, stack, cents) for pid, stack, cents
                   in zip(table.players, table.stacks, shares, strict=True)])


def _custom(t: Tournament, table: Table, amounts: list[cmd.DealAmount],
            played: int) -> list[int]:
    """The director's own split: every player left once, adding up to the money open less
    the part played for."""
    got: dict[int, int] = {}
    for a in amounts:
        p = t.player(a.player)
        if p.id not in table.players:
            raise Rejected("{player} is not among the players left", player=p.name)
        if p.id in got:
            raise Rejected("{player} is named twice in the deal", player=p.name)
        got[p.id] = a.amount
    missing = [t.players[pid].name for pid in table.players if pid not in got]
    if missing:
        raise Rejected("a deal gives every player left their part: {players} missing",
                       players=", ".join(missing))
    total = sum(got.values())
    if total != table.open - played:
        raise Rejected("the deal adds up to {total} {currency}, but {dealt} {currency} are "
                       "dealt (the {open} of the places open less {played} played for)",
                       total=cents_text(total), dealt=cents_text(table.open - played),
                       open=cents_text(table.open), played=cents_text(played),
                       currency=table.currency)
    return [got[pid] for pid in table.players]


# --------------------------------------------------------------------- fold
def on_deal(t: Tournament, e: ev.DealMade) -> None:
    left = {p.id for p in players_left(t)}
    dealt = {pid for pid, _, _ in e.shares}
    if dealt != left:
        # a bust before the deal undone: the deal was made among other players
        raise ev.InvalidEvent(f"event {e.seq}: the deal's players are not the players left")
    if sum(cents for _, _, cents in e.shares) + e.played_for != e.open:
        raise ev.InvalidEvent(f"event {e.seq}: the deal does not add up to the money open")
    t.deal = e


# ------------------------------------------------------------------ busts
def refuse_a_hand_before(t: Tournament, hand: list[Any], player: str) -> None:
    """A bust into a hand with a player out before the deal (``same_hand``, or the
    hand-for-hand hand) would rank a dealt player into a hand before it: the deal was
    made among other players left, and the places and payouts under it would change
    (more paid than the pool). Refused while the deal stands, like undoing a bust before
    it; ``hand``: the busts of that hand (places.Bust)."""
    d = t.deal
    if d is None:
        return
    dealt = {pid for pid, _, _ in d.shares}
    earlier = [b.player for b in hand
               if b.player not in dealt and b.player in t.players
               and not t.players[b.player].ghost]
    if earlier:
        raise Rejected("a deal stands (event {event}), made after {players} went out: "
                       "{player} cannot be out in that hand; out in a hand of its own, or "
                       "undo the deal first", event=d.seq, player=player,
                       players=", ".join(t.players[pid].name for pid in earlier))


def refuse_disqualifying(t: Tournament, p: Player) -> None:
    """A dealt player disqualified would leave the ranking (000 3.8) and their deal with
    it: the results would pay less than the pool. No rulebook says where that money
    goes, so the director undoes the deal first (and deals again among the rest)."""
    d = t.deal
    if d is not None and any(pid == p.id for pid, _, _ in d.shares):
        raise Rejected("{player} is in the deal (event {event}): undo the deal first, then "
                       "disqualify, and deal again among the players left",
                       player=p.name, event=d.seq)


def refuse_entries(t: Tournament) -> None:
    """Nobody buys in while a deal stands (a forced late entry, a re-entry a level back
    reopened): the deal split the final pool among the players left then."""
    d = t.deal
    if d is not None:
        raise Rejected("a deal stands (event {event}): the pool it split is final, nobody "
                       "buys in; undo the deal first", event=d.seq)


# --------------------------------------------------------------------- read
def dealt_payouts(t: Tournament, paid: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """The placed players' payouts with the deal: a dealt player's is their deal plus
    their share of the part played for (the winner's; a shared first place splits it);
    the others' as ``paid`` says. And each dealt player's deal (cents)."""
    d = t.deal
    if d is None:
        return paid, {}
    dealt = {pid: cents for pid, _, cents in d.shares}
    places = {pid: place for pid, place in t.places().items() if pid in dealt}
    played = payouts.shares({pid: place for pid, place in places.items() if place == 1},
                            [d.played_for])
    out = dict(paid)
    for pid in places:
        out[pid] = dealt[pid] + played.get(pid, 0)
    return out, dealt


COMMANDS = {cmd.Deal: make_deal}
FOLDS = {ev.DealMade: on_deal}
