"""Where things are: the checkout and the shipped files the tests start from."""

from __future__ import annotations

from pathlib import Path

#: the checkout (the controller and kiosk processes run here)
ROOT = Path(__file__).resolve().parents[2]
#: the sample tournament the integration tests' controller runs by default
SAMPLE_TOURNAMENT = ROOT / "config" / "tournaments" / "sample.yaml"
#: the kiosk files a table Pi and a wall screen use
TABLE_KIOSK = ROOT / "config" / "kiosk" / "table.yaml"
WALL_KIOSK = ROOT / "config" / "kiosk" / "wall.yaml"
DESKTOP_KIOSK = ROOT / "config" / "kiosk" / "desktop.yaml"
