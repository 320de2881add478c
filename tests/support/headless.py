"""pygame without a screen or a sound card: SDL's dummy drivers.

Call :func:`headless` before pygame is imported (the conftest files and bench/kiosk.py
do); a variable already set (a developer who wants to watch) is kept."""

from __future__ import annotations

import os

DUMMY = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
         "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def headless() -> None:
    for key, value in DUMMY.items():
        os.environ.setdefault(key, value)


def headless_env(**extra: str) -> dict[str, str]:
    """The environment for a kiosk process without a screen (always the dummy drivers)."""
    return {**os.environ, **DUMMY, "PYTHONUNBUFFERED": "1", **extra}
