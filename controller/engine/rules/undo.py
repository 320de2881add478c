"""Undo: a compensating event that takes back one command's events.

The state is rebuilt from the log without the undone group. If a later event
no longer fits (say, a move of the player whose bust is undone), the undo is
rejected with the reason. A table's undo button takes back that table's last
press (a bust, a hand done, a time call, a move from it) that is not undone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.events import Record

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

#: events the system makes by itself; a group that starts with one is no one's command
SYSTEM = frozenset({"opened", "level_started", "ghosts_removed", "addon", "undo"})
#: what a table's buttons make (the first event of the press's group)
PRESSES = frozenset({"busted", "hand_done", "time_call", "moved"})


def _system(e: Record) -> bool:
    return e["type"] in SYSTEM or (e["type"] == "time_call" and e.get("op") == "expire")


def _undone(t: Tournament) -> set[int]:
    return {e["target"] for e in t.log if e["type"] == "undo"}


def last_press(t: Tournament, table: int) -> int | None:
    """The group of the last press at ``table`` that is not undone yet."""
    undone = _undone(t)
    for e in reversed(t.log):
        if (e["seq"] == e["group"] and e.get("table") == table and e["group"] not in undone
                and e["type"] in PRESSES and not _system(e)):
            return int(e["group"])
    return None


def undo(t: Tournament, c: cmd.Undo, now: float) -> None:
    from controller.engine.tournament import Tournament

    undone = _undone(t)
    if c.table is not None:
        if c.target is not None:
            raise Rejected("undo takes a target or a table, not both")
        target = last_press(t, c.table)
        if target is None:
            raise Rejected(f"nothing to undo at table {c.table}")
    else:
        groups = [e["group"] for e in t.log
                  if e["seq"] == e["group"] and not _system(e) and e["group"] not in undone]
        if c.target is None:
            if not groups:
                raise Rejected("there is nothing to undo")
            target = groups[-1]
        elif c.target not in groups:
            raise Rejected(f"event {c.target} cannot be undone (not a command, already "
                           f"undone, or an undo)")
        else:
            target = c.target
    probe = [*t.log, {"seq": len(t.log) + 1, "group": len(t.log) + 1, "type": "undo",
                      "at": now, "target": target}]
    try:
        Tournament.replay(probe, t.settings, check=False)  # the probe's undo has no hash yet
    except (ev.InvalidEvent, Rejected, KeyError, ValueError) as exc:
        raise Rejected(f"cannot undo event {target}: later events depend on it ({exc})"
                       ) from None
    t.emit(ev.Undo, now, target=target)


def on_undo(t: Tournament, e: ev.Undo) -> None:
    from controller.engine.tournament import Tournament

    # an undo rebuilds the state from the log without the undone group
    rebuilt = Tournament.replay([*t.log, e.record()], t.settings, check=False)
    rebuilt.log = t.log  # the caller appends the undo to the shared log
    t.__dict__.update(rebuilt.__dict__)


COMMANDS = {cmd.Undo: undo}
FOLDS = {ev.Undo: on_undo}
