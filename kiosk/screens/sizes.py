"""How big the things read from a distance must be, by rule (see docs/screens.md).

A text is legible when its capital letters subtend a large enough angle at the
reader's eye: ISO 9241-303 asks at least 16 arc minutes for reading; a number
read *at a glance* across a room gets three times what a reader with 20/60 vision
just makes out (15′), 45′. The cap height in millimetres is ``distance ·
tan(angle)``; the screen's pixel pitch turns it into pixels.

The screens (assumed; the smallest we build for, so the numbers hold on larger ones):

- a **table screen** is read from **1.5 m** by the players, its dealer reads his
  instructions from **0.7 m**; it is a 7" panel at 800×480 or a 15.6" monitor at
  1920×1080: both about 0.18 mm a pixel, whatever the resolution;
- the **wall** is read from **5 m**; it is a 55" TV (685 mm tall) at any resolution.

:func:`minimum` gives the smallest cap height in pixels of each key item (the
renderer records them, :attr:`kiosk.render.Renderer.keys`); the layouts use it
and ``tests/kiosk/test_sizes.py`` measures every screenshot moment against it.
"""

from __future__ import annotations

import math

#: reading distance in mm by reader: the players at a table, its dealer, the room
DISTANCE_MM = {"table": 1500.0, "dealer": 700.0, "wall": 5000.0}
#: mm per pixel of a table screen (7" 800×480: 86 mm / 480; 15.6" 1920×1080: 194 mm / 1080)
TABLE_PITCH_MM = 0.18
#: height of the wall's picture in mm (a 55" TV)
WALL_HEIGHT_MM = 685.0
#: visual angle of a capital letter in arc minutes, by tier
READ_ARCMIN = 16.0  #: ISO 9241-303's minimum character height for reading
GLANCE_ARCMIN = 45.0  #: 3 × the 15′ a 20/60 reader just resolves: read at a glance

#: key item kind -> (who reads it, arc minutes)
RULES: dict[str, tuple[str, float]] = {
    "time_left": ("room", GLANCE_ARCMIN),  # the remaining time of the level or break
    "time_call": ("room", GLANCE_ARCMIN),  # the seconds of a time call
    "blinds": ("room", READ_ARCMIN),  # 200 / 400
    "hfh": ("room", READ_ARCMIN),  # the hand-for-hand state ("Waiting for table 2", "DEAL")
    "move": ("room", READ_ARCMIN),  # a move instruction (the moved player reads it)
    "dealer": ("dealer", READ_ARCMIN),  # what the dealer is told: hints, the state's meaning
}


def pitch_mm(role: str, size: tuple[int, int]) -> float:
    """Millimetres per pixel of a ``role`` screen of ``size``."""
    if role == "wall":
        return WALL_HEIGHT_MM / max(1, size[1])
    return TABLE_PITCH_MM


def minimum(kind: str, role: str, size: tuple[int, int]) -> int:
    """The smallest cap height in pixels a key item of ``kind`` may have on a ``role``
    screen (``"table"``/``"wall"``) of ``size`` (width, height)."""
    reader, arcmin = RULES[kind]
    who = role if reader == "room" else reader
    distance = DISTANCE_MM["wall" if who == "wall" else who]
    mm = distance * math.tan(math.radians(arcmin / 60))
    return math.ceil(mm / pitch_mm(role, size))


def font_size_for_cap(cap: int) -> int:
    """The font size whose capitals are at least ``cap`` pixels tall (DejaVu Sans Bold:
    caps are 0.729 of the size; one pixel spare for hinting)."""
    return math.ceil((cap + 1) / 0.729)
