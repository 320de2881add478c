"""Draw a :class:`~kiosk.view.ScreenView`: the table screen or the wall screen.

The main loop (:mod:`kiosk.app`) owns the display and the timing::

    renderer = Renderer(screen.get_size(), language="de")
    while True:
        view = …                                   # fill the ScreenView
        dirty = renderer.draw(screen, view)        # [] when nothing changed
        if dirty:
            pygame.display.update(dirty)
        pygame.event.wait(int(renderer.next_change(view) * 1000) + 1)

How it stays cheap on a Pi:

- the screen is laid out again only when what it shows changes (the retained
  state — a payload changes by being replaced with a new one under its topic, never
  by being edited in place —, the level, online/offline, the selected seat, a press's
  feedback …); a layout records what it paints (``Canvas.ops``) and repaints only
  where that differs from the layout on the screen — a press's answer repaints its
  line and the seat's row, not the screen — and ``draw`` returns those rects (the
  whole screen on a new surface);
- otherwise only the *slots* are redrawn: the remaining time, the break
  countdown and the time-call seconds sit in fixed character cells, and a new
  second redraws just the cells that changed (one digit, usually) and returns
  that small rect; the hold-to-confirm bar is redrawn on its own;
- rendered text is kept in an LRU cache (text, face, size, colours), and what a
  layout measures (a text's width, its ink box) with the fonts, between layouts;
- ``next_change`` says how long nothing will change by itself (next second
  of a running clock or time call, a feedback line expiring, the wall's
  seating page turning), so the loop sleeps instead of polling.

The wall's seating list turns a page when ``view.wall_page`` changes; the
loop sets it with :func:`wall_page` (one page every :data:`WALL_PAGE_SECONDS`).
A table's moves that do not fit turn a page every
:data:`~kiosk.screens.common.TABLE_PAGE_SECONDS` of ``view.now`` by themselves.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pygame

from kiosk.screens import table, wall
from kiosk.screens.common import (
    FEEDBACK_SECONDS,
    TABLE_PAGE_SECONDS,
    Frame,
    frame_of,
    table_page,
    tick,
)
from kiosk.screens.widgets import Canvas, Fonts, KeyItem, TextCache
from kiosk.view import ScreenView

__all__ = ["FEEDBACK_SECONDS", "MAX_WAIT", "KeyItem", "Renderer", "WALL_PAGE_SECONDS", "headless",
           "wall_page"]

#: the wall's seating list shows each page this long
WALL_PAGE_SECONDS = 12.0
#: ``next_change`` never asks the loop to sleep longer than this
MAX_WAIT = 60.0


def wall_page(now: float) -> int:
    """The seating page the wall shows at controller time ``now`` (for ``view.wall_page``)."""
    return int(now // WALL_PAGE_SECONDS)


class Renderer:
    """Draws table and wall screens at one size (1920×1080, 800×480 or anything between).

    ``items``: every text drawn in the last layout with its rect on the screen
    (slots are kept up to date as their seconds change). ``monotonic``: the
    kiosk's local clock, to expire :attr:`ScreenView.feedback` (its ``since``
    is local monotonic time).
    """

    #: the largest rendered text a warm-up keeps (bytes): the names, the answer lines; the
    #: big digits of a made-up clock are rendered (their glyphs loaded) and let go
    WARM_KEEP = 32_768

    def __init__(self, size: tuple[int, int], language: str = "en", *,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(size[0]), int(size[1]))
        self.language = language
        self.monotonic = monotonic
        self.items: list[tuple[str, pygame.Rect]] = []
        #: the key items of the last layout: what is read from a distance (sizes.py)
        self.keys: list[KeyItem] = []
        self.fonts = Fonts()
        self.cache = TextCache(self.fonts)
        self.layouts = 0  #: full layouts so far (for tests and the benchmark)
        self.warmed = 0  #: layouts off the screen (:meth:`warm`)
        self._spare: pygame.Surface | None = None
        self._canvas: Canvas | None = None
        self._key: tuple | None = None
        self._state: dict | None = None
        self._surface_id: int | None = None
        self._pages = 1
        self._table_page = 0

    # ------------------------------------------------------------------ API
    def draw(self, surface: pygame.Surface, view: ScreenView) -> list[pygame.Rect]:
        """Draw the frame for ``view``; returns the dirty rects ([] = nothing changed)."""
        size = surface.get_size()
        frame = frame_of(view, self.language, self.monotonic(), size)
        c = self._canvas
        turned = (view.role == "table" and self._pages > 1
                  and table_page(view.now) != self._table_page)  # the moves' next page
        if (c is None or frame.key != self._key or id(surface) != self._surface_id
                or c.surface is not surface or view.state != self._state or turned):
            return self._layout(surface, frame)
        dirty: list[pygame.Rect] = []
        for name, s in c.slots.items():
            value = frame.values.get(name)
            if value is None:
                continue
            r = c.update_slot(s, value)
            if r is not None:
                dirty.append(r)
        hold = c.bars.get("hold")
        if hold is not None and view.hold is not None:
            r = c.update_bar(hold, view.hold[1])
            if r is not None:
                dirty.append(r)
        self.items = c.items
        return dirty

    def warm(self, view: ScreenView) -> None:
        """Lay ``view`` out off the screen, at this renderer's size: the fonts it needs
        are opened, their glyphs loaded and its texts measured and rendered into the
        caches, so that laying it (or one like it) out on the screen is warm
        (:mod:`kiosk.warmup`). What is on the screen, and what :meth:`draw` compares
        with, is not touched."""
        spare = self._spare
        if spare is None or spare.get_size() != self.size:
            spare = self._spare = pygame.Surface(self.size)
        w, h = self.size
        frame = frame_of(view, self.language, self.monotonic(), self.size)
        c = Canvas(spare, self.fonts, self.cache, *_units(w, h), role=view.role)
        self.cache.keep = self.WARM_KEEP
        try:
            if view.role == "wall":
                wall.draw(c, frame)
            else:
                table.draw(c, frame)
            c.paint(None)
        finally:
            self.cache.keep = None
        self.warmed += 1

    def warmed_up(self) -> None:
        """The warm-up is over: the surface it laid out on is not needed."""
        self._spare = None

    def next_change(self, view: ScreenView) -> float:
        """Seconds until the picture changes by itself (at most :data:`MAX_WAIT`)."""
        mono = self.monotonic()
        frame = frame_of(view, self.language, mono, self.size)
        waits = [MAX_WAIT]
        cn = frame.cn
        if cn is not None and cn.running and frame.mode != "champion":
            for value in (cn.remaining, cn.break_in):
                t = tick(value)
                if t is not None:
                    waits.append(t)
        if frame.timecall is not None and frame.mode == "timecall":
            t = tick(frame.timecall.left)
            if t is not None:
                waits.append(t)
        if frame.feedback is not None:
            fb = frame.feedback
            waits.append(fb.since + FEEDBACK_SECONDS.get(fb.kind, 5.0) - mono + 0.002)
        if view.role == "wall" and self._pages > 1:
            waits.append(WALL_PAGE_SECONDS - view.now % WALL_PAGE_SECONDS + 0.002)
        if view.role == "table" and self._pages > 1:
            waits.append(TABLE_PAGE_SECONDS - view.now % TABLE_PAGE_SECONDS + 0.002)
        return max(0.0, min(waits))

    # ------------------------------------------------------------ internals
    @property
    def pages(self) -> int:
        """Seating pages on the wall at the last layout."""
        return self._pages

    def _layout(self, surface: pygame.Surface, frame: Frame) -> list[pygame.Rect]:
        """Lay the screen out for ``frame`` and paint what differs from the layout on the
        screen now (all of it on a new surface); the rects painted."""
        before = self._canvas
        w, h = surface.get_size()
        c = Canvas(surface, self.fonts, self.cache, *_units(w, h), role=frame.view.role)
        if frame.view.role == "wall":
            self._pages = wall.draw(c, frame)
        else:
            table.draw(c, frame)
            self._pages = c.pages
        dirty = None
        if before is not None and before.surface is surface and id(surface) == \
                self._surface_id:
            dirty = c.changes(before)
        c.paint(dirty)
        self._canvas = c
        self.items = c.items
        self.keys = c.keys
        self._key = frame.key
        # a shallow copy: a payload changes by being replaced (the link parses a new one
        # for every message; nothing edits one in place), so the comparison in draw()
        # is by identity for every unchanged payload. A deep copy cost 1.3 ms a layout
        # with 50 tables' payloads on a desktop CPU (several times that on a Pi), in the
        # main thread, before the frame of a press's answer.
        self._state = dict(frame.view.state)
        self._surface_id = id(surface)
        self._table_page = table_page(frame.view.now)
        self.layouts += 1
        return [surface.get_rect()] if dirty is None else dirty


def _units(w: int, h: int) -> tuple[float, int]:
    """(pixels per 1080p pixel, the smallest text size) of a screen ``w`` × ``h``."""
    unit = min(w / 1920, h / 1080)
    # the smallest text: 22 px on a big screen; a 7" screen is read from closer
    return unit, max(15, round(22 * unit)) if h >= 600 else max(15, round(34 * unit))


def headless() -> None:
    """Set SDL up for drawing without a screen (tests, screenshots, benchmarks)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()

