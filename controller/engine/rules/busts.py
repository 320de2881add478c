"""Busts and places: an elimination, its hand, and the end of the tournament.

Busts of one hand at one table form a group ranked by the starting stacks
the director supplies (000 9.5); during hand-for-hand every bust of the same
hand-for-hand hand is one group (002 b). The places themselves are counted
by :mod:`controller.engine.places`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine.commands import Rejected
from controller.engine.rules import seating

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def bust(t: Tournament, c: cmd.Bust, now: float) -> None:
    t.require_running()
    if c.player is not None:
        p = t.player(c.player)
        if p.out:
            raise Rejected(f"{p.name} is already out")
        if p.table is None:
            raise Rejected(f"{p.name} has no seat")
    else:
        if c.seat is None or c.table is None:
            raise Rejected("bust needs a table and a seat, or a player")
        tab = t.table(c.table)
        if not 1 <= c.seat <= tab.size:
            raise Rejected(f"table {c.table} has seats 1-{tab.size}, not {c.seat}")
        if c.seat not in tab.occupant:
            raise Rejected(f"seat {c.seat} at table {c.table} is empty")
        p = t.players[tab.occupant[c.seat]]
    knocker = None
    if c.by is not None:
        k = t.player(c.by)
        if k.id == p.id or k.out:
            raise Rejected(f"{k.name} cannot have knocked out {p.name}")
        knocker = k.id
    assert p.table is not None
    tab = t.tables[p.table]
    if t.remaining <= 1 and not p.ghost:
        raise Rejected("only one player is left")
    # one group per hand: the table's own hand, or during hand-for-hand the hand every
    # table plays (002 b) -- also the bubble hand after hand-for-hand ended in it. A
    # table whose hand already had a bust before hand-for-hand began keeps its own
    # group, so the busts of that hand are still ranked by stack (000 9.5).
    key: list[Any] = ["table", tab.number, tab.hand_id]
    if tab.hfh_hand is not None and tuple(key) not in t.group_of:
        key = ["hfh", tab.hfh_hand]
    t.emit(ev.Busted, now, player=p.id, table=tab.number, seat=p.seat, stack=c.stack, hand=key,
           by=knocker)


def unbust(t: Tournament, pid: int) -> None:
    """Take ``pid`` out of the place groups (a rebuy or re-entry)."""
    for g in t.groups:
        for b in g:
            if b.player == pid:
                g.remove(b)
                break
    t.groups = [g for g in t.groups if g]
    t.group_of = {k: g for k, g in t.group_of.items() if g}


# --------------------------------------------------------------------- folds
def on_busted(t: Tournament, e: ev.Busted) -> None:
    p = t.players[e.player]
    if p.out:
        raise ev.InvalidEvent(f"{p.name} is already out")
    seating.stand(t, p.id)
    seating.close_moves(t, p.id)
    p.out = True
    p.knocked_by = e.by
    p.absent_since = None  # an absent player all-in is out as usual (000 9.5)
    if p.ghost:
        return
    t.remaining -= 1
    key = tuple(e.hand)
    group = t.group_of.get(key)
    if group is None:
        group = []
        t.group_of[key] = group
        t.groups.append(group)
    t.bust_order += 1
    group.append(plc.Bust(p.id, e.table, e.stack, t.bust_order))


def on_finished(t: Tournament, e: ev.Finished) -> None:
    t.finished = True
    t.winner = e.winner
    t.co_winners = list(e.shared or [])
    if t.clock.running:
        t.clock = clk.pause(t.clock, t.settings.structure, e.at)


# ----------------------------------------------------------------- reactions
def finish(t: Tournament, now: float) -> None:
    """The last player left wins (a play day's games end by themselves, 003 6)."""
    if t.drawn and t.remaining == 1 and not t.finished and not t.settings.play_day.enabled:
        winner = next(p.id for p in t.players.values() if not p.out and not p.ghost)
        t.emit(ev.Finished, now, winner=winner)


COMMANDS = {cmd.Bust: bust}
FOLDS = {ev.Busted: on_busted, ev.Finished: on_finished}
REACTIONS = (finish,)
