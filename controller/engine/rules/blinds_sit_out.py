"""A moved blind may sit out until the button has passed, or be dealt in at once (003 12).

003 12: "Wenn der Spieler am vorherigen Tisch den großen oder kleinen Blind gesetzt hat,
kann er aussetzen, bis der Button vorbei ist." — *kann*: the player may sit out, and
may as well take the new seat's rights and duties at once ("Sie können im großen Blind,
im kleinen Blind und am Button einsteigen"). The preset's ``balancing.blinds_sit_out``
sits such a player out (rules/seating.py ``sits_out``); ``deal_in`` is the player's
choice to play from the next hand instead. Only the sitting out is taken back: a seat
between the button and the small blind still waits for the button as every arrival does
(000 4.10), and the hand in play is not dealt again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def deal_in(t: Tournament, c: cmd.DealIn, now: float) -> None:
    t.require_running()
    p = t.player(c.player)
    if p.table is None or p.seat is None or p.table not in t.tables:
        raise Rejected("{player} has no seat: nobody to deal in", player=p.name)
    tab = t.tables[p.table]
    if p.seat not in tab.sits_out:
        raise Rejected("{player} does not sit out at table {table} seat {seat}: only a "
                       "player moved after posting a blind sits out until the button has "
                       "passed (003 12)", player=p.name, table=tab.number, seat=p.seat)
    # the wait every arrival has between the button and the small blind stays (000 4.10)
    waits = tab.between_button_and_sb(p.seat, *tab.next_positions()[:2])
    t.emit(ev.DealtIn, now, player=p.id, table=tab.number, seat=p.seat,
           waits=True if waits else None)


def on_dealt_in(t: Tournament, e: ev.DealtIn) -> None:
    tab = t.tables.get(e.table)
    if tab is None or tab.occupant.get(e.seat) != e.player or e.seat not in tab.sits_out:
        raise ev.InvalidEvent(f"player {e.player} does not sit out at table {e.table} seat "
                              f"{e.seat}")
    tab.sits_out.discard(e.seat)
    if not e.waits:
        tab.waiting.discard(e.seat)
    move = t.pending.get(e.player)  # the screens' "waits for the button" of the move
    if move is not None and (move.to_table, move.to_seat) == (e.table, e.seat):
        move.waiting = bool(e.waits)


COMMANDS = {cmd.DealIn: deal_in}
FOLDS = {ev.DealtIn: on_dealt_in}
