"""Sounds: a chime on a level change, a break's start and end, and ticks in the last
seconds of a time call.

:class:`Cues` decides *when* (pure: it watches successive :class:`ScreenView` s);
:class:`Sounds` plays, through ``pygame.mixer``, with tones generated at start (no
files, no numpy). The mixer is opened only when a sound is due and closed again
after a quiet while: an open SDL audio device mixes silence all the time, which
an idle kiosk should not pay for. Without an audio device (or with sounds off)
everything is a silent no-op and never raises.
"""

from __future__ import annotations

import array
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from kiosk.view import ScreenView, clock_now

log = logging.getLogger(__name__)

__all__ = ["CUES", "Cues", "Sounds", "tone"]

#: cue → (frequency Hz, ms) notes
CUES: dict[str, tuple[tuple[float, int], ...]] = {
    "level": ((660, 160), (880, 260)),
    "break_start": ((880, 180), (660, 180), (523, 360)),
    "break_end": ((523, 160), (660, 160), (784, 160), (1046, 320)),
    "tick": ((1000, 70),),
    "time_up": ((440, 700),),
}
#: close the mixer after this many seconds without a sound
IDLE_CLOSE = 20.0


class Cues:
    """Which cues a new view calls for, compared with the previous one.

    The first view with a clock only sets the baseline (no chime when a kiosk
    starts or a level was already running). Time-call ticks: one per second in
    the last ``red_seconds`` (from the structure; the seconds the screens mark red),
    then ``time_up``.
    """

    def __init__(self) -> None:
        self.level: tuple[int, bool] | None = None
        self.tick_second: int | None = None
        self.tick_call: Any = None

    def __call__(self, view: ScreenView) -> list[str]:
        out: list[str] = []
        c = clock_now(view)
        if c is not None:
            cur = (int(c.level.get("index", -1)), bool(c.level.get("is_break")))
            prev, self.level = self.level, cur
            if prev is not None and prev[0] != cur[0] and c.started:
                if cur[1]:
                    out.append("break_start")
                elif prev[1]:
                    out.append("break_end")
                else:
                    out.append("level")
        out += self._time_call(view)
        return out

    def _time_call(self, view: ScreenView) -> list[str]:
        left = time_call_left(view)
        if left is None:
            self.tick_call = self.tick_second = None
            return []
        key, remaining, red = left
        if key != self.tick_call:  # a new time call: no ticks for seconds already gone
            self.tick_call = key
            self.tick_second = math.ceil(remaining)
            return []
        second = math.ceil(remaining)
        prev, self.tick_second = self.tick_second, second
        if second == prev:
            return []
        if prev is not None and prev > 0 >= second and remaining > -1.5:
            return ["time_up"]
        if 0 < second <= red:
            return ["tick"]
        return []

    def next_due(self, view: ScreenView) -> float | None:
        """Seconds until the next tick may be due (``None``: no time call running)."""
        left = time_call_left(view)
        if left is None or left[1] < -1.5:
            return None
        remaining = left[1]
        return max(0.0, remaining - math.floor(remaining)) or 1.0


def time_call_left(view: ScreenView) -> tuple[Any, float, int] | None:
    """``(identity, seconds left, red seconds)`` of this table's running time call."""
    if view.table is None:
        return None
    tab = view.state.get(f"table/{view.table}") or {}
    tc = tab.get("time_call")
    if not tc:
        return None
    try:
        end = float(tc["started_at"]) + float(tc["seconds"]) + float(tc.get("countdown", 0))
    except (KeyError, TypeError, ValueError):
        return None
    red = (view.state.get("structure") or {}).get("time_call", {}).get("red_seconds", 10)
    return tc["started_at"], end - view.now, int(red or 0)


def tone(notes: tuple[tuple[float, int], ...], rate: int, channels: int, size: int) -> bytes:
    """Raw PCM for ``notes`` in the mixer's format (signed 16 bit or unsigned 8 bit)."""
    samples: list[float] = []
    for freq, ms in notes:
        n = int(rate * ms / 1000)
        fade = max(1, min(n // 4, int(rate * 0.01)))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            samples.append(0.35 * env * math.sin(2 * math.pi * freq * i / rate))
    if abs(size) == 8:
        data = array.array("B", (int(128 + 127 * s) for s in samples for _ in range(channels)))
    else:
        data = array.array("h", (int(32767 * s) for s in samples for _ in range(channels)))
    return data.tobytes()


class Sounds:
    """Plays cues; a silent no-op when ``enabled`` is false or there is no audio device."""

    def __init__(self, enabled: bool = True, *, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.enabled = enabled
        self.clock = clock
        self.available = enabled
        self.played: list[str] = []  #: every cue asked for (tests, logs)
        self._sounds: dict[str, Any] = {}
        self._open = False
        self._last = -math.inf

    def play(self, cue: str) -> None:
        self.played.append(cue)
        if not self.available or cue not in CUES:
            return
        if not self._open and not self._init():
            return
        try:
            self._sounds[cue].play()
        except Exception as exc:  # noqa: BLE001 - a sound must never stop the screen
            log.warning("cannot play %s: %s", cue, exc)
        self._last = self.clock()

    def _init(self) -> bool:
        try:
            import pygame

            if not pygame.mixer.get_init():
                pygame.mixer.init(22050, -16, 1, 512)
            rate, size, channels = pygame.mixer.get_init()
            self._sounds = {cue: pygame.mixer.Sound(buffer=tone(notes, rate, channels, size))
                            for cue, notes in CUES.items()}
        except Exception as exc:  # noqa: BLE001 - pygame.error, no device, no SDL audio
            log.info("no sound: %s", exc)
            self.available = False
            return False
        self._open = True
        return True

    def next_due(self) -> float | None:
        """Monotonic time the mixer should be closed (``None``: it is not open)."""
        return self._last + IDLE_CLOSE if self._open else None

    def tick(self, now: float) -> None:
        """Close the mixer after a quiet while."""
        if self._open and now >= self._last + IDLE_CLOSE:
            self.close()

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        self._sounds = {}
        try:
            import pygame

            pygame.mixer.quit()
        except Exception:  # noqa: BLE001
            pass
