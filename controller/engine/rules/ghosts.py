"""Ghosts: reserve seats played by nobody (000 9.5, 9.6).

A ghost leaves after ``remove_after_levels`` full levels or at the first
break, whichever comes first; its chips leave the tournament.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import events as ev
from controller.engine.rules import seating

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def remove(t: Tournament, now: float) -> None:
    g = t.settings.ghosts
    if not g.enabled or t.ghosts_removed or not t.clock.started or t.finished:
        return
    c = clk.at(t.clock, t.settings.structure, now)
    is_break = t.settings.structure[c.level].is_break
    played = t.level_number(c.level) - (0 if is_break else 1)
    if played >= g.remove_after_levels or (is_break and g.remove_at_first_break):
        ghosts = [p.id for p in t.players.values() if p.ghost and not p.out]
        t.emit(ev.GhostsRemoved, now, players=ghosts)


def on_ghosts_removed(t: Tournament, e: ev.GhostsRemoved) -> None:
    t.ghosts_removed = True
    for pid in e.players:
        p = t.players[pid]
        if p.out:
            continue
        seating.stand(t, pid)
        p.out = p.removed = True
        t.chips -= p.chips  # 000 9.5: a removed ghost's chips leave the tournament


FOLDS = {ev.GhostsRemoved: on_ghosts_removed}
REACTIONS = (remove,)
