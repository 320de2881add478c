"""Time calls: a player is given ``seconds`` to act, then a ``countdown``, so
``seconds + countdown`` in all (000 9.5 / 004 5: 60 s + 10 s; 001 §1 VI; 002: one
minute whose last 10 s are counted down, 50 s + 10 s; turbo 25 s + 5 s; 003 35).

The engine ends a call whose time is up by itself, from the time passed in,
so a replay and a simulation see the same expiry as the controller did.
Where the preset says ``once_per_hand`` (001 §1 VI "einmalig"), each player
gets one call per hand: the call names the seat, a second one is refused.

The action clock (``action_seconds``: 001 §1 VI "xx Sekunden Zeit seinen Spielzug
zu tätigen", 002 "Shot Clock") is a call of its own kind: the dealer's button
(``toggle``) starts it for each decision and every tap starts it again; a clock
call (``start``) replaces it; ``cancel`` and "hand done" end it. Where the preset
also has the one extension a hand (001 §1 VI), the button with a player picked
(``toggle`` with a seat) grants that player's extension instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.table import TimeCallState

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def time_call(t: Tournament, c: cmd.TimeCall, now: float) -> None:
    t.require_running()
    tab = t.table(c.table)
    op = c.op
    action = t.settings.time_call.action_seconds
    if op == "toggle" and action is not None and c.seat is not None \
            and t.settings.time_call.once_per_hand \
            and (tab.time_call is None or tab.time_call.action):
        # the dealer picked a player (◀ ▶) and pressed TIME: that player's one extension
        # of the hand (001 §1 VI "einmalig … weitere 30 Sekunden"), in place of the
        # action clock; a second one is refused with the reason
        op = "start"
    elif op == "toggle" and action is not None and (tab.time_call is None
                                                     or tab.time_call.action):
        # the action clock (001 §1 VI, 002 shot clock): each tap starts it for the next
        # decision, a running one starts again
        if c.seat is not None and not 1 <= c.seat <= tab.size:
            raise Rejected("seat must be a seat of table {table} (1-{seats}), got {seat!r}",
                           table=c.table, seats=tab.size, seat=c.seat)
        t.emit(ev.TimeCall, now, table=c.table, op="start", seconds=action, countdown=0,
               seat=c.seat, action=True)
        return
    if op == "toggle":  # the dealer's one "time" button: start, or cancel the running call
        op = "cancel" if tab.time_call is not None else "start"
    if op == "start":
        if c.seat is not None and not 1 <= c.seat <= tab.size:
            raise Rejected("seat must be a seat of table {table} (1-{seats}), got {seat!r}",
                           table=c.table, seats=tab.size, seat=c.seat)
        tc = t.settings.time_call
        # a clock call replaces a running action clock (the player asked for time)
        if tab.time_call is not None and not tab.time_call.action:
            raise Rejected("a time call is already running at table {table}", table=c.table)
        if tc.once_per_hand:
            once_per_hand(t, c.table, c.seat)
        t.emit(ev.TimeCall, now, table=c.table, op="start", seconds=tc.seconds,
               countdown=tc.countdown, seat=c.seat)
    else:
        if tab.time_call is None:
            raise Rejected("no time call is running at table {table}", table=c.table)
        t.emit(ev.TimeCall, now, table=c.table, op=op)


def once_per_hand(t: Tournament, table: int, seat: int | None) -> None:
    """001 §1 VI: a player may ask for the extra time once ("einmalig") per hand.

    The call must name the seat, so the engine knows whose call it is.
    """
    tab = t.tables[table]
    if seat is None:
        raise Rejected("a time call at table {table} must name the seat: each player has one per "
                       "hand (001 §1 VI)", table=table)
    pid = tab.occupant.get(seat)
    if pid is None:
        raise Rejected("seat {seat} at table {table} is empty", seat=seat, table=table)
    if pid in tab.time_called:
        raise Rejected("{player} (seat {seat}) already had the time call in this hand: once per "
                       "hand (001 §1 VI)", player=t.players[pid].name, seat=seat)


def ends_at(state: TimeCallState) -> float:
    """Controller time at which a call is over (its seconds and its countdown)."""
    return state.started_at + state.seconds + state.countdown


def expire(t: Tournament, now: float) -> None:
    """End every call whose time is up."""
    for n in sorted(t.time_call_tables):
        tab = t.tables.get(n)
        if tab is not None and tab.time_call is not None and now >= ends_at(tab.time_call):
            t.emit(ev.TimeCall, now, table=n, op="expire")


def on_time_call(t: Tournament, e: ev.TimeCall) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    if e.op == "start":
        tab.time_call = TimeCallState(e.at, e.seconds or 0, e.countdown or 0, e.seat,
                                      e.action is True)
        t.time_call_tables.add(e.table)
        pid = tab.occupant.get(e.seat) if e.seat is not None else None
        if pid is not None and pid not in tab.time_called and not e.action:
            tab.time_called.append(pid)
    else:
        tab.time_call = None
        t.time_call_tables.discard(e.table)


COMMANDS = {cmd.TimeCall: time_call}
FOLDS = {ev.TimeCall: on_time_call}
REACTIONS = (expire,)
