"""The hand: "hand done" at a table, and the last hands of the day (002).

At its hand boundary a donor table gives its balancing moves, then button
and blinds advance (:meth:`controller.engine.table.Table.advance`); a short
table then waits for its arrivals (TDA 11D, :mod:`controller.engine.rules.seating`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import seating

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def hand_done(t: Tournament, c: cmd.HandDone, now: float) -> None:
    t.require_running()
    tab = t.table(c.table)
    if t.hfh.on and c.table in t.hfh.done:
        waiting = sorted(set(t.tables) - t.hfh.done)
        raise Rejected(f"table {c.table} already finished this hand-for-hand hand; "
                       f"waiting for table {', '.join(map(str, waiting))}")
    if tab.hands_left == 0:
        raise Rejected(f"table {c.table} has played its last hand of the day")
    seating.refuse_while_waiting(t, tab)
    # first what the passing time made (a level, the ghosts leaving): the table's next
    # hand starts under it
    t.react(now)
    if t.finished or t.tables.get(c.table) is not tab:
        # the ghosts left and this table broke (or the final table was drawn): its
        # hand is over with it, there is no next hand here to advance to
        return
    seating.balancing_moves_from(t, now, tab)
    t.emit(ev.HandDone, now, table=c.table)


def hands_left(t: Tournament, c: cmd.HandsLeft, now: float) -> None:
    t.require_running()
    t.emit(ev.HandsLeft, now, count=c.count)


def on_hand_done(t: Tournament, e: ev.HandDone) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    tab.advance()
    tab.hand_id = e.seq
    if not t.hfh.on:
        tab.hfh_hand = None  # the hand-for-hand hand in play here is over
    tab.time_call = None
    # a move is done when the player sits down (seated), not when a hand ends here; a
    # table with players it must wait for on the way now waits (TDA 11D)
    seating.hold_after_hand(t, tab)
    if t.hfh.on:
        t.hfh.done.add(tab.number)
    if t.hands_left is not None and all(x.hands_left == 0 for x in t.tables.values()) \
            and t.clock.running:
        t.clock = clk.pause(t.clock, t.settings.structure, e.at)


def on_hands_left(t: Tournament, e: ev.HandsLeft) -> None:
    t.hands_left = e.count
    for tab in t.tables.values():
        tab.hands_left = e.count


COMMANDS = {cmd.HandDone: hand_done, cmd.HandsLeft: hands_left}
FOLDS = {ev.HandDone: on_hand_done, ev.HandsLeft: on_hands_left}
