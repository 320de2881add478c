"""Headless kiosks on a floor for the end-to-end tests: table screens whose button boxes
are gpiozero ``MockFactory`` pins (one factory per table, like one Pi per table) with the
pin numbers of ``config/kiosk/table.yaml``, and wall screens, all talking to one
controller.

Nothing steps the kiosks behind the test's back: :meth:`Floor.run_until` and
:meth:`Floor.steps` step every open kiosk's loop, in this thread, as ``KioskApp.run``
would.
"""

from __future__ import annotations

import contextlib
import dataclasses
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .headless import headless, headless_env

headless()

from controller.wire.mqtt import Broker  # noqa: E402
from kiosk.app import KioskApp  # noqa: E402
from kiosk.config import load_kiosk  # noqa: E402

from .controller import director, floorman, wait_up  # noqa: E402
from .eventlog import read_log  # noqa: E402
from .paths import TABLE_KIOSK, WALL_KIOSK  # noqa: E402
from .processes import LoggedProcess  # noqa: E402
from .waiting import wait_for  # noqa: E402

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
TABLE_FILE = TABLE_KIOSK


def table_config():
    cfg = load_kiosk(TABLE_FILE)
    buttons = dataclasses.replace(cfg.buttons, hold_seconds={"bust": HOLD, "undo": HOLD})
    return dataclasses.replace(cfg, sounds=False, buttons=buttons)


def wall_config():
    return dataclasses.replace(load_kiosk(WALL_KIOSK), sounds=False)


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

    def reads(self, app: KioskApp, needle: str) -> bool:
        """``needle`` is on ``app``'s screen, also where it is wrapped over several lines."""
        return needle in " ".join(self.texts(app))

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
        """Step every kiosk until ``cond()`` is true; its value."""
        return wait_for(cond, timeout, what, step=self.step)

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
        return director(self.broker, cmd, args)

    def status(self) -> dict[str, Any]:
        return self.director("status")["result"]

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        """The director's command line, exactly as typed at the floor."""
        return floorman(self.broker, *args, timeout=20)

    def events(self, type_: str | None = None) -> list[dict[str, Any]]:
        """The controller's event log, read-only while it runs."""
        return [e for e in read_log(self.db).events if type_ is None or e["type"] == type_]


@contextlib.contextmanager
def mock_pin_factory() -> Iterator[Any]:
    """gpiozero's ``MockFactory`` as every device's pin factory, the previous one after."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = old


def open_floor(broker: Any, prefix: str, controller: Any, db: Path) -> Floor:
    """A :class:`Floor` on a controller that was just started: once it answers, 18
    players registered, drawn on tables 1 and 2, and the clock running."""
    f = Floor(broker, prefix, controller, db)
    wait_up(f.broker, every=0.5)
    f.director("register", {"names": PLAYERS})
    f.director("draw")
    f.director("start")
    return f


class KioskProcess(LoggedProcess):
    """``floorman kiosk CONFIG --table N [EXTRA]`` in its own process, as a Pi runs it:
    SDL's dummy drivers, gpiozero's mock pins; its output appended to ``log``."""

    def __init__(self, config: Path, table: int, b: Broker, log: Path, *extra: str) -> None:
        super().__init__([sys.executable, "-m", "controller", "kiosk", str(config),
                          "--table", str(table), *extra, "--broker", str(b),
                          "--prefix", b.prefix], log)
        self.table = table

    def environment(self) -> dict[str, str]:
        return headless_env(GPIOZERO_PIN_FACTORY="mock")
