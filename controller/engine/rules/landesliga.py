"""Landesliga final (000 4.18): each player's start stack from the points of the sit & go round.

"Die Endplatzierung der Vorrunde ergibt die Höhe des Startstacks der
Finalrunde ... pro Punkt erhält man 1000 Startchips für das Final (max. 20000,
mind. 5000)". Before the draw of the final the director enters every
player's points (``landesliga_points``; the club database may supply them);
each player then starts with ``chips_per_point`` chips a point, at least
``min_stack`` and at most ``max_stack`` (``mode`` settings). A player with
no points entered starts with the tournament's ``start_stack`` (the preset
sets it to the minimum, the stack of 0 points). Entering a player's points
again corrects them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import chip_counts

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

KIND = "landesliga_final"


def stack_for(t: Tournament, points: int) -> int:
    """Start chips for ``points``: ``chips_per_point`` each, within ``min_stack``-``max_stack``
    (000 4.18: 1,000 a point, 5,000-20,000)."""
    m = t.settings.mode
    return max(m.min_stack, min(m.max_stack, points * m.chips_per_point))


def require_mode(t: Tournament, kind: str, command: str, what: str) -> None:
    """A mode's command in a tournament of another mode is refused with both names."""
    if t.settings.mode.kind != kind:
        raise Rejected("{command} belongs to {what} (mode.kind: {kind}); this tournament is "
                       "{mode}", command=command, what=what, kind=kind,
                       mode=t.settings.mode.kind.replace("_", " "))


# ------------------------------------------------------------------ commands
def landesliga_points(t: Tournament, c: cmd.LandesligaPoints, now: float) -> None:
    require_mode(t, KIND, "landesliga_points", "a Landesliga final")
    if t.drawn:
        raise Rejected("the start stacks are set before the draw of the final (000 4.18)")
    rows: list[list[int]] = []
    seen: set[int] = set()
    for entry in c.points:
        p = t.player(entry.player)
        if p.id in seen:
            raise Rejected("{player} has points twice", player=p.name)
        seen.add(p.id)
        rows.append([p.id, entry.points, stack_for(t, entry.points)])
    t.emit(ev.StartStacks, now, stacks=rows)


# --------------------------------------------------------------------- folds
def on_start_stacks(t: Tournament, e: ev.StartStacks) -> None:
    for pid, _points, chips in e.stacks:
        p = t.players.get(pid)
        if p is None or p.ghost:
            raise ev.InvalidEvent(f"player {pid} is not registered")
        t.chips += chips - p.chips
        p.chips = p.start_stack = chips
        chip_counts.record(t, p, chips, e.seq)


COMMANDS = {cmd.LandesligaPoints: landesliga_points}
FOLDS = {ev.StartStacks: on_start_stacks}
