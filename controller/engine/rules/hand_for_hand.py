"""Hand-for-hand on the bubble (001 §2 I, 002, TDA RP-8).

Starts by itself when the players left are one more than the places that
score, while more than one table plays; every table reports "hand done" and
the next hand is released when all have. The clock runs, stops (002) or
loses at most N seconds per hand (TDA RP-8). It ends when the bubble bursts
or one table is left.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.state import HandForHandState

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


#: why hand-for-hand began or ended, as the event's ``reason`` says it (the words are in
#: every log: they never change; :func:`read_reason` reads them back for other languages)
DIRECTOR = "director"
BURST = "bubble burst"
ONE_TABLE = "one table left"
_BUBBLE = re.compile(r"bubble: ([0-9]+) left, ([0-9]+) places count")


def bubble_reason(left: int, places: int) -> str:
    """The reason hand-for-hand starts on the bubble: ``left`` players, ``places`` count."""
    return f"bubble: {left} left, {places} places count"


def read_reason(reason: str) -> tuple[str, dict[str, int]]:
    """A stored reason → which it is (``director``, ``burst``, ``one_table``, ``bubble``
    with ``left`` and ``places``) and its numbers; ``other`` for words this Floorman
    does not write."""
    fixed = {DIRECTOR: "director", BURST: "burst", ONE_TABLE: "one_table"}
    if reason in fixed:
        return fixed[reason], {}
    m = _BUBBLE.fullmatch(reason)
    if m:
        return "bubble", {"left": int(m.group(1)), "places": int(m.group(2))}
    return "other", {}


def hand_for_hand(t: Tournament, c: cmd.HandForHand, now: float) -> None:
    t.require_running()
    if c.on and t.hfh.on:
        raise Rejected("hand-for-hand is already on")
    if not c.on and not t.hfh.on:
        raise Rejected("hand-for-hand is not on")
    if c.on and len(t.tables) < 2:
        raise Rejected("hand-for-hand needs more than one table")
    t.emit(ev.HandForHand, now, on=c.on, reason=DIRECTOR)


def bubble(t: Tournament, now: float) -> None:
    """Release the next hand when every table is done; on at the bubble, off when it burst."""
    if not t.drawn or t.finished:
        return
    h = t.hfh
    if h.on and h.done and h.done >= set(t.tables) and len(t.tables) > 1:
        t.emit(ev.HandForHandReleased, now, hand=h.hand + 1)
    if not h.on and (not t.settings.hand_for_hand.auto or len(t.tables) < 2):
        return
    places = t.bubble_places()
    # a director's decision holds until a player more is out (or back in)
    director_on = h.on and h.director_at == t.remaining
    director_off = not h.on and h.director_at == t.remaining
    if h.on and (len(t.tables) < 2 or (places and t.remaining <= places and not director_on)):
        t.emit(ev.HandForHand, now, on=False,
               reason=BURST if len(t.tables) > 1 else ONE_TABLE)
    elif (not h.on and t.settings.hand_for_hand.auto and places and len(t.tables) > 1
          and t.remaining == places + 1 and not director_off):
        t.emit(ev.HandForHand, now, on=True,
               reason=bubble_reason(t.remaining, places))


def on_hfh(t: Tournament, e: ev.HandForHand) -> None:
    policy = t.settings.hand_for_hand.clock
    s = t.settings.structure
    if e.on:
        t.hfh = HandForHandState(on=True, hand=1, hand_started_at=e.at,
                                 director_at=t.remaining if e.reason == DIRECTOR else None)
        for tab in t.tables.values():
            tab.hfh_hand = e.seq
        if policy in ("stops", "deduct") and t.clock.running:
            t.clock = clk.pause(t.clock, s, e.at)
            t.hfh.paused_clock = True
    else:
        was_paused = t.hfh.paused_clock
        for n in t.hfh.done:
            if n in t.tables:
                # this table finished the last hand-for-hand hand: its next hand is normal
                t.tables[n].hfh_hand = None
        t.hfh.on = False
        t.hfh.done = set()
        t.hfh.director_at = t.remaining if e.reason == DIRECTOR else None
        if was_paused and not t.clock.running and not t.finished:
            t.clock = clk.resume(t.clock, s, e.at)
        t.hfh.paused_clock = False


def on_hfh_released(t: Tournament, e: ev.HandForHandReleased) -> None:
    h = t.hfh
    s = t.settings.hand_for_hand
    if s.clock == "deduct" and h.paused_clock:
        # TDA RP-8: the clock loses the hand's time, at most deduct_seconds per hand
        spent = min(e.at - h.hand_started_at, s.deduct_seconds)
        t.clock = clk.add(t.clock, t.settings.structure, -spent, e.at)
    h.hand = e.hand
    h.done = set()
    h.hands_played += 1
    h.hand_started_at = e.at
    for tab in t.tables.values():
        tab.hfh_hand = e.seq


COMMANDS = {cmd.HandForHand: hand_for_hand}
FOLDS = {ev.HandForHand: on_hfh, ev.HandForHandReleased: on_hfh_released}
REACTIONS = (bubble,)
