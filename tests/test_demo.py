"""`floorman demo --simulate --speed 600 --headless --screenshots DIR` ends with a champion,
and its screenshots show each notable moment (issue: kiosk and demo)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parent.parent
# a balancing move nearly always comes too, but even busts can make it unnecessary
MOMENTS = ["start", "table-break", "hand-for-hand", "final-table", "champion"]


@pytest.mark.timeout_demo
def test_demo_headless_runs_to_a_champion_with_screenshots(tmp_path):
    shots = tmp_path / "shots"
    # the README's --speed 60 waits 2 s of the wall between rounds of hands (120 s of the
    # clock, 230 s for the night); at 600 a round is 0.25 s (150 s of the clock): the same
    # night in the clock's time, every moment on screen, in 27 s (issue 32: the suite's time)
    r = subprocess.run(
        [sys.executable, "-m", "controller", "demo", "--simulate", "--speed", "600",
         "--headless", "--screenshots", str(shots), "--seed", "4", "--timeout", "420"],
        cwd=ROOT, capture_output=True, text=True, timeout=480,
        env={"PATH": "/usr/sbin:/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy",
             "SDL_AUDIODRIVER": "dummy", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr[-3000:]
    # the director's console is part of the demo: its address and password are printed
    assert re.search(r"director's console: http://127\.0\.0\.1:\d+/  password: \S+", r.stdout)
    last = r.stdout.strip().splitlines()[-1]
    assert "screenshots in" in last
    files = sorted(p.name for p in shots.glob("*.png"))
    for moment in MOMENTS:
        # every screen (wall and three tables) at every notable moment
        for who in ("wall", "table1", "table2", "table3"):
            assert any(f.endswith(f"-{moment}-{who}.png") for f in files), (moment, who, files)
    # the pictures are real frames, not blanks
    img = pygame.image.load(str(next(shots.glob("*-champion-wall.png"))))
    assert img.get_size() == (960, 540)
    colours = {img.get_at((x, y))[:3] for x in range(0, 960, 37) for y in range(0, 540, 29)}
    assert len(colours) > 3


@pytest.mark.timeout_demo
@pytest.mark.parametrize("config", ["psc-restart", "psc-play-the-clock"])
def test_demo_headless_plays_a_mode_to_its_end(config, tmp_path):
    """000 4.14 / 4.15: the demo's director ends each round when it is due, with every
    stack counted, and the tournament still ends with a champion; the screens show the
    round's end."""
    shots = tmp_path / "shots"
    r = subprocess.run(
        [sys.executable, "-m", "controller", "demo", "--config", config, "--simulate",
         "--speed", "600", "--headless", "--screenshots", str(shots), "--seed", "4",
         "--timeout", "420"],
        cwd=ROOT, capture_output=True, text=True, timeout=480,
        env={"PATH": "/usr/sbin:/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy",
             "SDL_AUDIODRIVER": "dummy", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr[-3000:]
    assert "round 1 over" in r.stderr and "round 2 over" in r.stderr
    files = sorted(p.name for p in shots.glob("*.png"))
    for moment in ("round-end", "champion"):
        for who in ("wall", "table1"):
            assert any(f.endswith(f"-{moment}-{who}.png") for f in files), (moment, who, files)
