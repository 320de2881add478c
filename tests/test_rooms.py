"""The rooms of the house (docs/architecture.md): the walls between them hold, and the
controller's hall stays small enough to see the rooms from the folders."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parent.parent
CONTROLLER = ROOT / "controller"


def test_the_walls_hold() -> None:
    """Every import-linter contract in pyproject.toml is kept (the same check as .ci/run)."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        found = shutil.which("lint-imports")
        if found is None:
            pytest.skip("import-linter is not installed (scripts/setup installs it)")
        lint = Path(found)
    r = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout


def test_the_controller_hall_holds_at_most_eight_modules() -> None:
    modules = sorted(p.name for p in CONTROLLER.glob("*.py"))
    assert len(modules) <= 8, modules


def test_every_room_says_what_it_holds() -> None:
    """A newcomer finds the room for a change from the folder names and each room's
    docstring; a room without one is a hall."""
    rooms = [p for p in CONTROLLER.iterdir() if (p / "__init__.py").is_file()
             and p.name != "data"]
    assert {p.name for p in rooms} >= {"engine", "wire", "service", "log", "broker",
                                        "console", "club", "night"}
    for room in rooms:
        doc = ast.get_docstring(parse((room / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"{room.name}/__init__.py says nothing of the room"
