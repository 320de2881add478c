"""Cannonball (000 4.16): a freeze-out whose levels grow steadily longer.

"Hier wird nur die Blindstruktur eines Freeze-Out-Turniers angepasst. Die
Blindstufen steigen von der Dauer kontinuierlich auf." Only the durations
change: playing level ``n`` (1-based) lasts ``first_minutes + (n - 1) ×
step_minutes``, at most ``max_minutes``; breaks keep theirs. The tournament
file's loader writes them into the structure (``mode.kind: cannonball``), so
the log records the levels as played.
"""

from __future__ import annotations

import dataclasses

from controller.engine.settings import Level, Mode


def durations(levels: int, *, first_minutes: int, step_minutes: int,
              max_minutes: int) -> list[int]:
    """Seconds of each of ``levels`` playing levels, growing by ``step_minutes``."""
    return [min(first_minutes + i * step_minutes, max(max_minutes, first_minutes)) * 60
            for i in range(levels)]


def structure(levels: tuple[Level, ...], mode: Mode) -> tuple[Level, ...]:
    """``levels`` with the playing levels' durations of :func:`durations` (an unlimited last
    level stays unlimited)."""
    playing = sum(1 for lv in levels if not lv.is_break)
    seconds = iter(durations(playing, first_minutes=mode.first_minutes,
                             step_minutes=mode.step_minutes, max_minutes=mode.max_minutes))
    out = []
    for lv in levels:
        if lv.is_break:
            out.append(lv)
            continue
        d = next(seconds)
        out.append(lv if lv.seconds is None else dataclasses.replace(lv, seconds=d))
    return tuple(out)
