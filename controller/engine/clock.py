"""The tournament clock as an anchor, never a write per second.

The state is either "level N ends at controller time T" (running) or
"level N paused with R seconds left". Every function takes ``now`` (seconds on
the controller's monotonic-ish clock) and returns a new :class:`Clock`;
nothing here reads the time.

Levels roll over by themselves: :func:`at` walks the anchor forward through
as many levels as have ended by ``now``. Past the end of the structure the
last level goes on without end (003 7 prints its last level as unlimited).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.engine.settings import Level


@dataclass(frozen=True)
class Clock:
    """Clock anchor.

    ``level``: index into the structure (0-based). ``ends_at``: controller
    time the level ends while running (``None`` for a level without end).
    ``remaining``: seconds left while paused (``None`` for no end).
    ``halved``: heads-up halves the level time from here on (002).
    """

    level: int = 0
    running: bool = False
    started: bool = False
    ends_at: float | None = None
    remaining: float | None = None
    halved: bool = False


def duration(structure: tuple[Level, ...], index: int, halved: bool = False) -> float | None:
    """Seconds of level ``index``; ``None`` when it has no end.

    Beyond the last printed level the clock stays in the last level forever.
    Heads-up halving (002) applies to playing levels only, never to breaks.
    """
    lvl = structure[min(index, len(structure) - 1)]
    if lvl.seconds is None:
        return None
    if halved and not lvl.is_break:
        return lvl.seconds / 2
    return float(lvl.seconds)


def _last(structure: tuple[Level, ...]) -> int:
    return len(structure) - 1


def at(clock: Clock, structure: tuple[Level, ...], now: float) -> Clock:
    """The clock as it stands at ``now``: levels that ended are rolled over."""
    if not clock.running or clock.ends_at is None:
        return clock
    level = clock.level
    ends_at: float | None = clock.ends_at
    while ends_at is not None and now >= ends_at:
        if level >= _last(structure):
            # the structure is exhausted: the last level goes on without end
            ends_at = None
            break
        level += 1
        d = duration(structure, level, clock.halved)
        ends_at = None if d is None else ends_at + d
    if level == clock.level and ends_at == clock.ends_at:
        return clock
    return replace(clock, level=level, ends_at=ends_at)


def played(clock: Clock, structure: tuple[Level, ...], since: float, until: float) -> float:
    """Seconds of playing level (not a break, not paused) between ``since`` and ``until``
    for a clock that stays as it is in between (levels roll over as in :func:`at`)."""
    if not clock.running or until <= since:
        return 0.0
    last = _last(structure)
    level, ends_at = clock.level, clock.ends_at
    total, cursor = 0.0, since
    while cursor < until:
        if ends_at is not None and ends_at <= cursor:
            if level >= last:
                ends_at = None
            else:
                level += 1
                d = duration(structure, level, clock.halved)
                ends_at = None if d is None else ends_at + d
            continue
        end = until if ends_at is None else min(until, ends_at)
        if not structure[min(level, last)].is_break:
            total += end - cursor
        cursor = end
    return total


def left(clock: Clock, structure: tuple[Level, ...], now: float) -> float | None:
    """Seconds left in the current level at ``now`` (``None``: no end)."""
    c = at(clock, structure, now)
    if c.running:
        return None if c.ends_at is None else max(0.0, c.ends_at - now)
    if c.remaining is None:
        # before the start the level waits with its full time
        return None if c.started else duration(structure, c.level, c.halved)
    return max(0.0, c.remaining)


def start(clock: Clock, structure: tuple[Level, ...], now: float) -> Clock:
    """Start the tournament clock at the current level's full duration.

    Time the director set or added before the start (``remaining``) is kept.
    """
    d = clock.remaining if clock.remaining is not None else duration(
        structure, clock.level, clock.halved)
    return replace(clock, running=True, started=True, ends_at=None if d is None else now + d,
                   remaining=None)


def pause(clock: Clock, structure: tuple[Level, ...], now: float) -> Clock:
    c = at(clock, structure, now)
    return replace(c, running=False, remaining=left(c, structure, now), ends_at=None)


def resume(clock: Clock, structure: tuple[Level, ...], now: float) -> Clock:
    if not clock.started:
        # a "resume" before the first start is the start (never a level without end)
        return start(clock, structure, now)
    r = clock.remaining
    return replace(clock, running=True, started=True,
                   ends_at=None if r is None else now + r, remaining=None)


def set_level(clock: Clock, structure: tuple[Level, ...], index: int, now: float) -> Clock:
    """Jump to level ``index`` with its full time (running stays as it was)."""
    index = max(0, min(index, _last(structure)))
    d = duration(structure, index, clock.halved)
    if clock.running:
        return replace(clock, level=index, ends_at=None if d is None else now + d, remaining=None)
    return replace(clock, level=index, remaining=d, ends_at=None)


def set_left(clock: Clock, structure: tuple[Level, ...], seconds: float, now: float) -> Clock:
    """Set the time left in the current level to ``seconds`` (≥ 0)."""
    c = at(clock, structure, now)
    seconds = max(0.0, seconds)
    if c.running:
        return replace(c, ends_at=now + seconds)
    return replace(c, remaining=seconds)


def add(clock: Clock, structure: tuple[Level, ...], seconds: float, now: float) -> Clock:
    """Add (or with a negative value remove) time from the current level."""
    r = left(clock, structure, now)
    if r is None:
        return at(clock, structure, now)
    return set_left(clock, structure, r + seconds, now)


def halve(clock: Clock, structure: tuple[Level, ...], now: float) -> Clock:
    """Heads-up (002): level time halves from the next level on."""
    return replace(at(clock, structure, now), halved=True)


def next_break(clock: Clock, structure: tuple[Level, ...], now: float) -> float | None:
    """Seconds until the next break starts (0 during a break, ``None``: none ahead)."""
    c = at(clock, structure, now)
    if structure[c.level].is_break:
        return 0.0
    t = left(c, structure, now)
    if t is None:
        return None
    for i in range(c.level + 1, len(structure)):
        if structure[i].is_break:
            return t
        d = duration(structure, i, c.halved)
        if d is None:
            return None
        t += d
    return None
