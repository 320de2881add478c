"""The clock: start, pause, levels, time, the structure's coming levels, heads-up.

The clock itself is an anchor (:mod:`controller.engine.clock`); this rule
turns the director's clock commands into events, records each level change
the passing time made (``level_started``), halves the levels at heads-up
when the preset says so (002), and lets the director change the part of the
structure that has not been played yet (a level or a break inserted, new
level lengths), as an event like every other change.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.settings import Level

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def start(t: Tournament, c: cmd.Start, now: float) -> None:
    t.require_running()
    if t.clock.running:
        raise Rejected("the clock is already running")
    t.emit(ev.ClockChanged, now, op="start" if not t.clock.started else "resume")


def pause(t: Tournament, c: cmd.Pause, now: float) -> None:
    if not t.clock.running:
        raise Rejected("the clock is not running")
    t.emit(ev.ClockChanged, now, op="pause")


def resume(t: Tournament, c: cmd.Resume, now: float) -> None:
    if t.clock.running:
        raise Rejected("the clock is already running")
    if not t.drawn:
        raise Rejected("the seats have not been drawn yet")
    t.emit(ev.ClockChanged, now, op="resume")


def level(t: Tournament, c: cmd.Level, now: float) -> None:
    structure = t.settings.structure
    current = clk.at(t.clock, structure, now)
    last = len(structure) - 1
    if c.to == "next":
        target = current.level + 1
    elif c.to == "prev":
        target = current.level - 1
    else:
        # the director counts playing levels from 1; breaks are not numbered
        idx = _playing(t)
        if not 1 <= c.to <= len(idx):
            raise Rejected("there is no level {to} (levels 1-{count})", to=c.to, count=len(idx))
        target = idx[c.to - 1]
    if not 0 <= target <= last:
        raise Rejected("already at the last level" if target > last else
                       "already at the first level")
    t.emit(ev.ClockChanged, now, op="level", value=target)


def time(t: Tournament, c: cmd.Time, now: float) -> None:
    """Change the time left in the level (seconds). It never ends the level: a change
    that leaves no time is refused, the level's end is ``level next`` (the director's
    explicit decision, TDA 2024), so a slip of the finger cannot skip a level."""
    if c.op == "set" and c.seconds < 0:
        raise Rejected("the time left cannot be negative")
    left = clk.left(t.clock, t.settings.structure, now)
    if left is None:
        raise Rejected("this level has no end")
    after = c.seconds if c.op == "set" else left + c.seconds
    if after <= 0:
        index = clk.at(t.clock, t.settings.structure, now).level
        said = {"time": mmss(c.seconds if c.op == "set" else left), "removed": mmss(-c.seconds)}
        if t.settings.structure[index].is_break:
            if c.op == "set":
                raise Rejected("time set {time} would end the break; to end the level: level "
                               "next", **said)
            raise Rejected("the break has only {time} left: removing {removed} would end it; "
                           "to end the level: level next", **said)
        if c.op == "set":
            raise Rejected("time set {time} would end level {level}; to end the level: level "
                           "next", level=t.level_number(index), **said)
        raise Rejected("level {level} has only {time} left: removing {removed} would end it; "
                       "to end the level: level next", level=t.level_number(index), **said)
    t.emit(ev.ClockChanged, now, op=c.op, value=float(c.seconds))


def mmss(seconds: float) -> str:
    """Seconds as the clock shows them: ``M:SS`` (``H:MM:SS`` from an hour on)."""
    s = max(0, round(seconds))
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def level_name(t: Tournament, index: int) -> str:
    """``level 4`` for a playing level (its number), ``the break`` for a break."""
    if t.settings.structure[index].is_break:
        return "the break"
    return f"level {t.level_number(index)}"


def tick(t: Tournament, c: cmd.Tick, now: float) -> None:
    """Nothing of its own: the reactions record whatever the passing time made."""


def structure(t: Tournament, c: cmd.Structure, now: float) -> None:
    levels = list(t.settings.structure)
    current = clk.at(t.clock, t.settings.structure, now).level if t.clock.started else -1
    playing = _playing(t)
    if c.op == "insert":
        if c.after is None or c.level is None:
            raise Rejected("structure insert needs 'after' (a level number, 0 = first) "
                           "and 'level'")
        if c.after > len(playing):
            raise Rejected("there is no level {after} (levels 1-{count})",
                           after=c.after, count=len(playing))
        index = 0 if c.after == 0 else playing[c.after - 1] + 1
        if index <= current:
            raise Rejected("level {level} is already being played: only the coming levels can "
                           "change", level=t.level_number(current))
        new = c.level
        if new.kind == "level" and not 0 < new.small_blind <= new.big_blind:
            raise Rejected("a level needs blinds with 0 < small blind <= big blind")
        if new.kind == "break" and (new.small_blind or new.big_blind or new.ante):
            raise Rejected("a break has no blinds or ante")
        lv = Level(kind=new.kind, seconds=round(new.minutes * 60), small_blind=new.small_blind,
                   big_blind=new.big_blind, ante=new.ante, ante_type=new.ante_type,
                   note=new.note)
        levels.insert(index, lv)
        what = ("a break" if new.kind == "break" else
                f"a level {new.small_blind}/{new.big_blind}" + (f" ante {new.ante}"
                                                               if new.ante else ""))
        change = (f"{what} of {_minutes(new.minutes)} inserted "
                  + (f"after level {c.after}" if c.after else "before level 1"))
    else:
        if c.from_level is None or c.minutes is None:
            raise Rejected("structure minutes needs 'from_level' and 'minutes'")
        if c.from_level > len(playing):
            raise Rejected("there is no level {from_level} (levels 1-{count})",
                           from_level=c.from_level, count=len(playing))
        first = playing[c.from_level - 1]
        if first <= current:
            raise Rejected("level {from_level} has already begun: only the coming levels can "
                           "change (the time left of this one: time set)", from_level=c.from_level)
        seconds = round(c.minutes * 60)
        for i in range(first, len(levels)):
            lv = levels[i]
            if lv.seconds is not None and (not lv.is_break or c.breaks):
                levels[i] = dataclasses.replace(lv, seconds=seconds)
        change = (f"levels from {c.from_level} on last {_minutes(c.minutes)}"
                  + (" (breaks too)" if c.breaks else ""))
    t.emit(ev.StructureChanged, now, levels=[dataclasses.asdict(lv) for lv in levels],
           change=change)


def _playing(t: Tournament) -> list[int]:
    """Structure indexes of the playing levels (level number N is ``[N - 1]``)."""
    return [i for i, lv in enumerate(t.settings.structure) if not lv.is_break]


def _minutes(m: float) -> str:
    return f"{m:g} min"


# --------------------------------------------------------------------- folds
def on_clock(t: Tournament, e: ev.ClockChanged) -> None:
    s, now = t.settings.structure, e.at
    if e.op == "start":
        t.clock = clk.start(t.clock, s, now)
    elif e.op == "pause":
        t.clock = clk.pause(t.clock, s, now)
    elif e.op == "resume":
        t.clock = clk.resume(t.clock, s, now)
    elif e.op == "level":
        t.clock = clk.set_level(t.clock, s, int(e.value or 0), now)
    elif e.op == "add":
        t.clock = clk.add(t.clock, s, e.value or 0.0, now)
    else:
        t.clock = clk.set_left(t.clock, s, e.value or 0.0, now)


def on_level_started(t: Tournament, e: ev.LevelStarted) -> None:
    t.level_before = (t.level_announced, t.level_started_at)
    t.level_announced = e.level
    t.level_started_at = e.at


def on_structure_changed(t: Tournament, e: ev.StructureChanged) -> None:
    levels = tuple(Level(**lv) for lv in e.levels)
    if len(levels) < t.clock.level + 1:
        raise ev.InvalidEvent("the new structure ends before the level in play")
    t.settings = dataclasses.replace(t.settings, structure=levels)


def on_heads_up(t: Tournament, e: ev.HeadsUp) -> None:
    t.heads_up = True
    t.clock = clk.halve(t.clock, t.settings.structure, e.at)


# ----------------------------------------------------------------- reactions
def announce_level(t: Tournament, now: float) -> None:
    """Record a level change the passing time (or a jump) made."""
    c = clk.at(t.clock, t.settings.structure, now)
    if c.level != t.level_announced:
        t.emit(ev.LevelStarted, now, level=c.level, number=t.level_number(c.level),
               is_break=t.settings.structure[c.level].is_break)


def heads_up(t: Tournament, now: float) -> None:
    """002: heads-up halves the following levels."""
    if (t.settings.heads_up_halves_level and t.remaining == 2 and not t.heads_up
            and t.drawn and not t.finished):
        t.emit(ev.HeadsUp, now)


COMMANDS = {
    cmd.Start: start, cmd.Pause: pause, cmd.Resume: resume, cmd.Level: level, cmd.Time: time,
    cmd.Tick: tick, cmd.Structure: structure,
}
FOLDS = {
    ev.ClockChanged: on_clock, ev.LevelStarted: on_level_started,
    ev.StructureChanged: on_structure_changed, ev.HeadsUp: on_heads_up,
}
REACTIONS = (announce_level, heads_up)
