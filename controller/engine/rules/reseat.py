"""The director's hand on the seating: a named player to a table and seat.

002 seats a player with special needs where the room allows ("Sonderwünsche … nach
Möglichkeit"), and the director balances the room by hand at the start; a player who
must change seats at the same table (a draught, a wheelchair) is the same command. The
player goes now, with the director's reason in the log, and is shown as a move on both
tables' screens until seated. Where a new player may not be dealt in — between the button
and the small blind — the player waits for the button (000 4.10, TDA 10A), as every
arrival does. It is not a balancing decision: undoing an earlier bust does not have to
undo a reseat first, and the next hand's balancing sees the new counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import reserve, seating
from controller.engine.state import Move

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

#: the reason a reseat's move shows on the screens (the director's own words are in the log)
REASON = "reseat"


def reseat(t: Tournament, c: cmd.Reseat, now: float) -> None:
    t.require_running()
    if not c.reason:
        raise Rejected("a reseat needs a reason (it is kept in the log)")
    p = t.player(c.player)
    if p.table is None or p.seat is None:
        raise Rejected("{player} has no seat", player=p.name)
    if p.ghost:
        raise Rejected("{player} is a ghost: nobody to reseat", player=p.name)
    if t.desk.elsewhere:
        from controller.engine.rules import multitabling

        multitabling.check(t, p.id)  # 001 §1 III
    to = t.table(c.table)
    if c.seat is None:
        seat = to.worst_seat()
        if seat is None:
            raise Rejected("table {table} has no free seat", table=to.number)
    else:
        seat = c.seat
        if (to.number, seat) == (p.table, p.seat):
            raise Rejected("{player} already sits at table {table} seat {seat}",
                           player=p.name, table=to.number, seat=seat)
        if not 1 <= seat <= to.size:
            raise Rejected("table {table} has seats 1 to {size}", table=to.number,
                           size=to.size)
        reserve.refuse_reserved(t, to, seat)
        if seat in to.occupant:
            who = t.players[to.occupant[seat]].name
            raise Rejected("seat {seat} at table {table} is taken by {player}", seat=seat,
                           table=to.number, player=who)
    # an arrival between the button and the small blind waits for the button; at the
    # player's own table the seat left is free when the hand's positions are counted
    waiting = to.arrival_waits(seat)
    # 003 12: a blind posted at the old table, the button may pass first
    out = seating.sits_out(t, t.tables[p.table], p.seat, to)
    t.emit(ev.Reseated, now, player=p.id, from_table=p.table, from_seat=p.seat,
           to_table=to.number, to_seat=seat, waiting=waiting or out, reason=c.reason,
           sits_out=True if out else None)


def on_reseated(t: Tournament, e: ev.Reseated) -> None:
    frm = seating.stand(t, e.player)
    if frm != (e.from_table, e.from_seat):
        raise ev.InvalidEvent(f"player {e.player} was not at table {e.from_table} "
                              f"seat {e.from_seat}")
    seating.sit(t, e.player, e.to_table, e.to_seat, e.waiting, bool(e.sits_out))
    seating.close_moves(t, e.player)
    move = Move(e.seq, e.player, t.players[e.player].name, frm[0], frm[1], e.to_table,
                e.to_seat, REASON, e.waiting, level=t.level_number())
    t.moves.append(move)
    t.pending[move.player] = move


COMMANDS = {cmd.Reseat: reseat}
FOLDS = {ev.Reseated: on_reseated}
