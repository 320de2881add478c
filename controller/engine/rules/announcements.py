"""Announcements: a banner the director puts on every screen ("Add-on jetzt möglich"),
for a number of minutes or until the next one, and takes down with ``clear``.

Not a tournament rule, but a decision of the floor all the same: it is an event in the
log (``announced``), so it survives a controller restart, replays like everything else,
can be undone, and shows in the history. The screens hide a banner whose ``until`` has
passed by themselves (they know the controller's time); no event is needed for that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.state import Announcement

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def showing(t: Tournament, now: float) -> Announcement | None:
    """The banner up at ``now`` (one whose time ran out is no longer up)."""
    a = t.announcement
    if a is None or (a.until is not None and now >= a.until):
        return None
    return a


def announce(t: Tournament, c: cmd.Announce, now: float) -> None:
    # one line on a screen: runs of spaces and line breaks become one space
    text = " ".join(c.text.split())
    if c.clear:
        if text or c.minutes is not None:
            raise Rejected("announce: clear takes no text and no minutes")
        if showing(t, now) is None:
            raise Rejected("there is no announcement to clear")
        t.emit(ev.Announced, now, text="", until=None)
        return
    if not text:
        raise Rejected("announce: say what to announce (or clear the banner)")
    until = None if c.minutes is None else now + c.minutes * 60
    t.emit(ev.Announced, now, text=text, until=until)


def on_announced(t: Tournament, e: ev.Announced) -> None:
    t.announcement = Announcement(e.text, e.at, e.until) if e.text else None


COMMANDS = {cmd.Announce: announce}
FOLDS = {ev.Announced: on_announced}
