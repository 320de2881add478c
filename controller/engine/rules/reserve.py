"""Reserve seats: the director keeps seats free for expected late arrivals (002).

002 "Sitzordnung im Turnier": "Ist ein Turnier nicht ausverkauft, können einige Plätze für
eventuell zu spät kommende Gäste freigehalten werden. Die Anzahl der freigehaltenen Plätze
entscheidet die Turnierleitung." Before the draw the number is kept and the draw leaves
that many seats free, spread over the tables (their sizes are made for the players and
the reserve together); after it the shortest tables keep free seats, and a smaller number
gives seats back (0: all). A reserved seat is the arrivals': a late entry, re-entry or
rebuy takes one first (rules/seating.py ``seat_entry``), balancing counts it as taken and
no move, break or reseat sits anyone there. A table that breaks or the final table gives
its reserve back. 000 9.5 keeps the start's reserve with ghosts (rules/ghosts.py): with
ghosts on, the draw's reserve is theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def held(t: Tournament) -> int:
    """The reserve seats now: the number the draw will keep, or the tables' free seats
    kept for arrivals."""
    if not t.drawn:
        return t.reserve
    return t.reserve_held


def counts(t: Tournament) -> dict[int, int]:
    """Players at each table, a reserved seat counted as taken (balancing, breaks)."""
    return {n: len(tab.occupant) + len(tab.reserved) for n, tab in t.tables.items()}


def any_held(t: Tournament) -> bool:
    return t.drawn and t.reserve_held > 0


def keep(t: Tournament, tab: Table, seat: int) -> None:
    """``seat`` at ``tab`` is kept for an arrival (the folds' one way in)."""
    if seat not in tab.reserved:
        tab.reserved.add(seat)
        t.reserve_held += 1


def give_back(t: Tournament, tab: Table, seat: int) -> None:
    """``seat`` at ``tab`` is no longer kept (an arrival took it, or the director freed it)."""
    if seat in tab.reserved:
        tab.reserved.discard(seat)
        t.reserve_held -= 1


def table_gone(t: Tournament, tab: Table) -> None:
    """``tab`` leaves play (broken, decided, or every table drawn anew): its kept seats go."""
    t.reserve_held -= len(tab.reserved)


def reserve(t: Tournament, c: cmd.Reserve, now: float) -> None:
    if not c.reason.strip():
        raise Rejected("reserve seats need a reason (it is kept in the log)")
    if t.finished:
        raise Rejected("the tournament is over")
    now_held = held(t)
    if c.seats == now_held:
        raise Rejected("{count} seats are reserved already", count=now_held)
    if c.seats > now_held:
        _not_sold_out(t, c.seats)
    if not t.drawn:
        if t.settings.ghosts.enabled and c.seats:
            raise Rejected("the ghosts keep the draw's reserve seats (000 9.5); reserve "
                           "seats after the draw")
        t.emit(ev.SeatsReserved, now, count=c.seats, reason=c.reason)
        return
    if t.final_table is not None:
        raise Rejected("the final table keeps no reserve seats")
    if c.seats > now_held:
        t.emit(ev.SeatsReserved, now, count=c.seats, add=_keep(t, c.seats - now_held),
               reason=c.reason)
    else:
        t.emit(ev.SeatsReserved, now, count=c.seats,
               release=_give_back(t, now_held - c.seats), reason=c.reason)


def _not_sold_out(t: Tournament, seats: int) -> None:
    """002 "Ist ein Turnier nicht ausverkauft": a reserved seat is one of the desk's seat
    limit (rules/desk.py) that is not for sale, so the players and the reserve together
    stay within it."""
    from controller.engine.rules import desk  # desk counts the reserve: imports this

    most = desk.limit(t)
    if most is not None and t.remaining + seats > most:
        raise Rejected("{players} of the {limit} seats are taken: at most {free} can be "
                       "reserved (002: seats are kept free when the tournament is not sold "
                       "out)", players=t.remaining, limit=most,
                       free=max(0, most - t.remaining))


def _keep(t: Tournament, n: int) -> list[list[int]]:
    """``n`` more seats kept free: one at a time at the table with the fewest players
    and reserve seats (the lowest number on a tie), its lowest free seat."""
    per = t.settings.players_per_table
    count = counts(t)
    free = {k: [s for s in tab.free_seats() if s <= per] for k, tab in t.tables.items()}
    total = sum(len(seats) for seats in free.values())
    if total < n:
        raise Rejected("the tables have {free} free seats: {count} more cannot be reserved",
                       free=total, count=n)
    kept: list[list[int]] = []
    for _ in range(n):
        k = min((x for x in free if free[x]), key=lambda x: (count[x], x))
        kept.append([k, free[k].pop(0)])
        count[k] += 1
    return kept


def _give_back(t: Tournament, n: int) -> list[list[int]]:
    """``n`` reserve seats given back: from the table with the most players and reserve
    seats (the highest number on a tie), its highest reserved seat."""
    count = counts(t)
    held_at = {k: sorted(tab.reserved) for k, tab in t.tables.items() if tab.reserved}
    back: list[list[int]] = []
    for _ in range(n):
        k = max((x for x in held_at if held_at[x]), key=lambda x: (count[x], x))
        back.append([k, held_at[k].pop()])
        count[k] -= 1
    return back


def refuse_reserved(t: Tournament, tab: Table, seat: int) -> None:
    """A named seat that is reserved is not the director's to give (release it first)."""
    if seat in tab.reserved:
        raise Rejected("seat {seat} at table {table} is reserved for a late arrival "
                       "(reserve fewer seats to give it back)", seat=seat, table=tab.number)


def on_seats_reserved(t: Tournament, e: ev.SeatsReserved) -> None:
    if not t.drawn:
        t.reserve = e.count
        return
    for n, s in e.add:
        tab = t.tables.get(n)
        if tab is None or s in tab.occupant or s in tab.reserved:
            raise ev.InvalidEvent(f"seat {s} at table {n} is not free to reserve")
        keep(t, tab, s)
    for n, s in e.release:
        tab = t.tables.get(n)
        if tab is None or s not in tab.reserved:
            raise ev.InvalidEvent(f"seat {s} at table {n} is not reserved")
        give_back(t, tab, s)


COMMANDS = {cmd.Reserve: reserve}
FOLDS = {ev.SeatsReserved: on_seats_reserved}
