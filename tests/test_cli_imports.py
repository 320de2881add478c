"""A director's verb imports only what it needs (issue 32.3): ``floorman status`` against a
running controller waited over half a second, most of it importing the screens' and the
console's modules, pydantic and the engine's command models that a command sent over the
broker never uses. Each verb runs here in a fresh interpreter, as typed at the floor,
against a real controller; what it imported is read from ``sys.modules`` at its end."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.controller import wait_up
from tests.support.paths import ROOT

#: what no director verb may import: the screens (pygame, the button box), the console
#: (the web framework, templates, QR codes), the service and its log, the tournament
#: file's loader and the protocol's schemas (pydantic, the engine's command models)
HEAVY = ("pygame", "gpiozero", "starlette", "uvicorn", "jinja2", "segno", "zeroconf",
         "amqtt", "pydantic", "pydantic_core", "yaml", "sqlite3",
         "controller.console", "controller.service", "controller.log", "controller.engine",
         "controller.config", "controller.wire.protocol", "controller.simulate")
#: the rooms whose verbs are registered in every command: their ``cli`` module only
ONLY_CLI = ("kiosk", "controller.night", "controller.club")

RUN = """
import json, sys
from controller.cli import main
out, argv = sys.argv[1], sys.argv[2:]
try:
    rc = main(argv)
except SystemExit as exc:  # --help
    rc = exc.code
with open(out, "w") as f:
    json.dump({"rc": rc, "modules": sorted(sys.modules)}, f)
"""


def heavy(modules: list[str]) -> list[str]:
    """The modules of ``modules`` a director's verb must not import."""
    bad = [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    for room in ONLY_CLI:
        bad += [m for m in modules if m.startswith(room + ".") and m != room + ".cli"]
    return bad


def run_verb(tmp_path, *argv: str) -> tuple[int, list[str], str]:
    out = tmp_path / "modules.json"
    r = subprocess.run([sys.executable, "-c", RUN, str(out), *argv], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    data = json.loads(out.read_text())
    return data["rc"], data["modules"], r.stdout + r.stderr


def test_the_list_catches_what_it_names():
    named = ["pygame", "pygame.font", "controller.engine.commands", "pydantic", "kiosk.app",
             "controller.console.app", "controller.club.db"]
    assert sorted(heavy(named)) == sorted(named)
    assert heavy(["kiosk", "kiosk.cli", "controller.night.cli", "controller.wire.topics",
                  "paho.mqtt.client"]) == []


@pytest.mark.parametrize("argv", [
    ("status",),
    ("register", "Anna Schmidt", "Björn Weiß"),
    ("players",),
    ("bust", "Nobody", "Here"),  # refused: not drawn yet; the refusal is printed
    ("history",),
])
def test_a_director_verb_imports_only_what_it_needs(tmp_path, broker, prefix,
                                                    controller_factory, argv):
    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc, modules, output = run_verb(tmp_path, *argv, "--broker", broker.address,
                                   "--prefix", prefix)
    assert rc in (0, 1), output  # answered (1: refused), not unreachable (2)
    assert "controller.director" in modules
    assert heavy(modules) == [], output


@pytest.mark.parametrize("argv", [("--help",), ("status", "--help"), ("bust", "--help")])
def test_the_help_imports_only_the_parser(tmp_path, argv):
    rc, modules, output = run_verb(tmp_path, *argv)
    assert rc == 0, output
    assert "usage: floorman" in output
    assert heavy(modules) == []
