"""End to end: a real Mosquitto, the controller as its own process, and headless kiosks.

Each test gets a fresh broker (tests/integration/conftest.py's, which can be
stopped and started for an outage), a controller process running a small
tournament (18 players on two tables of 9, preset ``psc-five-spades``) and a
:class:`Floor` to open kiosks on: table screens whose button boxes are
gpiozero ``MockFactory`` pins (one factory per table, like one Pi per table)
with the pin numbers of ``config/kiosk/table.yaml``, and a wall screen.

Nothing steps the kiosks behind the test's back: :meth:`Floor.run_until` and
:meth:`Floor.steps` step every open kiosk's loop, in this thread, as
``KioskApp.run`` would.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from controller.director import NoAnswer, send  # noqa: E402
from controller.mqtt import Broker  # noqa: E402
from kiosk.app import KioskApp  # noqa: E402
from kiosk.config import load_kiosk  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# the broker and controller-process fixtures of the integration tests, imported by path
# (tests/ has no packages; the kiosk tests do the same)
_spec = importlib.util.spec_from_file_location("floorman_e2e_integration_conftest",
                                               ROOT / "tests" / "integration" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_integration)
broker = _integration.broker
prefix = _integration.prefix
controller_factory = _integration.controller_factory

#: the tournament: the club preset, English screens, no ghosts (two full tables of 9)
TOURNAMENT = """\
name: "E2E Friday"
preset: psc-five-spades
language: en
players_per_table: 9
ghosts: {enabled: false}
"""
PLAYERS = [f"Player {i:02d}" for i in range(1, 19)]
#: how long a bust must be held in these tests (the table file says 1.5 s)
HOLD = 0.4
#: the table file every table Pi uses: its pin numbers and debounce
TABLE_FILE = ROOT / "config" / "kiosk" / "table.yaml"


def table_config():
    cfg = load_kiosk(TABLE_FILE)
    buttons = dataclasses.replace(cfg.buttons, hold_seconds={"bust": HOLD, "undo": HOLD})
    return dataclasses.replace(cfg, sounds=False, buttons=buttons)


def wall_config():
    return dataclasses.replace(load_kiosk(ROOT / "config" / "kiosk" / "wall.yaml"), sounds=False)


# --------------------------------------------------------------------------- the floor


class Floor:
    """The kiosks of one test, and the controller they talk to."""

    def __init__(self, broker: Any, prefix: str, controller: Any, db: Path) -> None:
        self.mosquitto = broker
        self.address = broker.address
        self.prefix = prefix
        self.broker = Broker.from_env(broker.address, prefix)
        self.controller = controller
        self.db = db
        self.apps: list[KioskApp] = []
        self.pins: dict[int, Any] = {}  #: table -> its MockFactory
        #: every text each kiosk drew since it started (by id of the app), for the
        #: short-lived ones ("sent …" is replaced by the answer within milliseconds)
        self.drawn: dict[int, list[str]] = {}

    # -- kiosks
    def table(self, n: int, size: tuple[int, int] = (800, 480)) -> KioskApp:
        """Start table ``n``'s screen with its (mock) button box."""
        from gpiozero.pins.mock import MockFactory

        factory = self.pins.get(n)
        if factory is None:
            factory = self.pins[n] = MockFactory()
        app = KioskApp(table_config(), "table", n, size, self.broker, headless=True,
                       pin_factory=factory)
        assert app.box is not None, "no button box"
        return self._add(app, size)

    def wall(self, size: tuple[int, int] = (1280, 720)) -> KioskApp:
        app = KioskApp(wall_config(), "wall", None, size, self.broker, headless=True)
        return self._add(app, size)

    def _add(self, app: KioskApp, size: tuple[int, int]) -> KioskApp:
        # SDL has one window per process and every KioskApp's set_mode resizes it: each
        # kiosk here draws on a surface of its own instead, at its own size
        import pygame

        app.screen = pygame.Surface(size)
        app.renderer = app._make_renderer()
        self.apps.append(app)
        return app.start()

    def close(self, app: KioskApp) -> None:
        app.close()
        self.apps.remove(app)
        self.drawn.pop(id(app), None)  # a new app may get the same id

    def close_all(self) -> None:
        for app in list(self.apps):
            self.close(app)
        for f in self.pins.values():
            f.reset()

    # -- what the screens show (the renderer's items: every text drawn, as drawn)
    @staticmethod
    def texts(app: KioskApp) -> list[str]:
        return [t for t, _ in app.renderer.items]

    def shows(self, app: KioskApp, needle: str) -> bool:
        """Some text on ``app``'s screen contains ``needle``."""
        return any(needle in t for t in self.texts(app))

    def after(self, app: KioskApp, label: str) -> str | None:
        """The text drawn right after the text ``label`` (a value beside its label)."""
        t = self.texts(app)
        return t[t.index(label) + 1] if label in t[:-1] else None

    @staticmethod
    def clock(app: KioskApp) -> int:
        """The level's remaining time as drawn on ``app``'s screen, in seconds."""
        slot = app.renderer._canvas.slots["clock"]
        total = 0
        for part in app.renderer.items[slot.item][0].split(":"):
            total = total * 60 + int(part)
        return total

    # -- the loops
    def step(self) -> None:
        for app in self.apps:
            frames = app.frames
            app.step(0.01)
            if app.frames != frames:
                self.drawn.setdefault(id(app), []).extend(self.texts(app))

    def ever_showed(self, app: KioskApp, needle: str) -> bool:
        """Some frame since the app started had a text containing ``needle``."""
        return any(needle in t for t in self.drawn.get(id(app), ()))

    def steps(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.step()

    def run_until(self, cond: Callable[[], Any], timeout: float = 5.0,
                  what: str = "condition") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            self.step()
            v = cond()
            if v:
                return v
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")

    def ready(self, *apps: KioskApp, timeout: float = 5.0) -> None:
        """Every app online, synced and showing its table (or, on a wall, the summary)."""
        def ok(app: KioskApp) -> bool:
            v = app.view
            need = "summary" if app.role == "wall" else f"table/{app.table}"
            return (v.online and app.link.sync.synced and need in v.state
                    and "clock" in v.state and "structure" in v.state)
        self.run_until(lambda: all(ok(a) for a in apps), timeout, "kiosks ready")
        self.steps(0.1)

    # -- the button box
    def pin(self, table: int, action: str) -> Any:
        app = next(a for a in self.apps if a.table == table)
        return self.pins[table].pin(app.config.buttons.pins[action])

    def tap(self, table: int, action: str) -> float:
        """Press and release a button of table ``table``'s box; returns when it was pressed."""
        pin = self.pin(table, action)
        t = time.monotonic()
        pin.drive_low()
        self.steps(0.08)
        pin.drive_high()
        self.steps(0.08)
        return t

    def hold(self, table: int, action: str, seconds: float = HOLD + 0.15) -> float:
        """Hold a button (bust, undo) for ``seconds``; returns when the hold completed."""
        pin = self.pin(table, action)
        t = time.monotonic()
        pin.drive_low()
        self.steps(seconds)
        pin.drive_high()
        self.steps(0.08)
        return t + HOLD

    def select(self, table: int, seat: int) -> None:
        """Press seat_next until ``seat`` is selected on the table's screen."""
        app = next(a for a in self.apps if a.table == table)
        for _ in range(12):
            if app.view.selected_seat == seat:
                return
            self.tap(table, "seat_next")
        raise AssertionError(f"seat {seat} never selected at table {table}")

    def answer(self, app: KioskApp, since: float, timeout: float = 5.0):
        """The feedback line once the controller's answer to a press made at ``since``
        replaced "sent …"."""
        def got():
            fb = app.view.feedback
            return fb is not None and fb.kind != "sent" and fb.since >= since and fb
        return self.run_until(got, timeout, f"the answer on table {app.table}")

    # -- the controller
    def director(self, cmd: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = send(self.broker, cmd, args, timeout=10)
        assert answer.get("ok"), answer
        return answer

    def status(self) -> dict[str, Any]:
        return self.director("status")["result"]

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        """The director's command line, exactly as typed at the floor."""
        return subprocess.run([sys.executable, "-m", "controller", *args, "--broker",
                               self.address, "--prefix", self.prefix], cwd=ROOT,
                              capture_output=True, text=True, timeout=20)

    def events(self, type_: str | None = None) -> list[dict[str, Any]]:
        """The controller's event log, read-only while it runs."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            rows = [json.loads(b) for (b,) in con.execute("SELECT body FROM events ORDER BY seq")]
        finally:
            con.close()
        return [e for e in rows if type_ is None or e["type"] == type_]


def _wait_up(b: Broker, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            send(b, "status", timeout=0.5)
            return
        except NoAnswer:
            if time.monotonic() > deadline:
                raise


@pytest.fixture
def floor(tmp_path, broker, prefix, controller_factory):
    """The controller with 18 players drawn on tables 1 and 2 and the clock running."""
    config = tmp_path / "e2e.yaml"
    config.write_text(TOURNAMENT)
    db = tmp_path / "e2e.sqlite"
    proc = controller_factory(config, db)
    f = Floor(broker, prefix, proc, db)
    _wait_up(f.broker)
    f.director("register", {"names": PLAYERS})
    f.director("draw")
    f.director("start")
    try:
        yield f
    finally:
        f.close_all()
