"""``floorman demo``: the whole system on one computer.

A broker on loopback (Mosquitto when installed, otherwise the embedded
amqtt), the controller with a sample tournament (27 players on three tables,
the PSC Five Spades preset), a wall screen and three table screens tiled in
one window — every screen a real MQTT client with its own link and clock sync,
exactly as on the Pis. ``--speed N`` runs the tournament clock N times faster;
``--simulate`` plays the dealers through the table links (busts, time calls,
hand done), so a newcomer sees a balancing move, a table break, hand-for-hand
and the final table within a few minutes. ``--headless --screenshots DIR``
writes a PNG of every screen at each of those moments and exits when the
tournament has a champion.
"""

from __future__ import annotations

import logging
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import resources
from controller.mqtt import Broker
from kiosk.view import ScreenView

log = logging.getLogger("floorman.demo")

SAMPLE = resources.sample_tournament()

#: players of the sample evening: long and short names, members and guests
NAMES = [
    "Anna Schmidt", "Ben Meyer", "Cem Yilmaz", "Dora Wagner", "Emil Becker", "Fritz Hoffmann",
    "Greta Schulz", "Hakan Demir", "Ida Koch", "Jonas Richter", "Klara Wolf", "Lukas Neumann",
    "Mia Schwarz", "Nils Zimmermann", "Olga Braun", "Paul Krüger", "Quirin Hofmann",
    "Rosa Hartmann", "Sven Lange", "Tanja Schmitt", "Uwe Werner", "Vera Krause",
    "Willi Meier", "Xenia Lehmann", "Yusuf Kaya", "Zoe Köhler",
    "Maximilian-Alexander von Hohenzollern",
]

#: seconds of tournament time one round of hands takes at a table
HAND_SECONDS = 120.0


def scaled(base: Callable[[], float], speed: float) -> Callable[[], float]:
    """A clock that runs ``speed`` times faster than ``base``, from now on."""
    t0 = base()
    return lambda: t0 + (base() - t0) * speed


class Panel:
    """One screen of the demo: a link, a renderer and its tile of the window."""

    def __init__(self, broker: Broker, role: str, table: int | None, surface: Any,
                 origin: tuple[int, int], local: Callable[[], float]) -> None:
        from kiosk.link import Link
        from kiosk.render import Renderer

        self.role, self.table = role, table
        self.link = Link(broker, table=table,
                         name=f"demo-{role}-{table or 'room'}-{os.getpid()}", local=local)
        self.surface = surface
        self.origin = origin
        self.view = ScreenView(role=role, table=table)  # type: ignore[arg-type]
        self.renderer = Renderer(surface.get_size(), "en")
        self.language = "en"

    def refresh(self) -> None:
        from kiosk.render import Renderer, wall_page

        v = self.view
        v.state = dict(self.link.state)
        v.now = self.link.sync.now()
        v.online = self.link.connected.is_set()
        lang = (v.state.get("structure") or {}).get("language", "en")
        if lang != self.language:
            self.language = v.language = lang
            self.renderer = Renderer(self.surface.get_size(), lang)
        if self.role == "wall":
            v.wall_page = wall_page(v.now)

    def draw(self) -> list[Any]:
        rects = self.renderer.draw(self.surface, self.view)
        return [r.move(self.origin) for r in rects]


class Demo:
    """The demo's parts and its main loop. See the module docstring."""

    def __init__(self, config: Path = SAMPLE, *, speed: float = 1.0, simulate: bool = False,
                 headless: bool = False, screenshots: Path | None = None,
                 size: tuple[int, int] = (1920, 1080), seed: int | None = None,
                 tables: int = 3) -> None:
        self.config = config
        self.speed = max(0.1, speed)
        self.simulate = simulate
        self.headless = headless
        self.screenshots = screenshots
        self.size = size
        self.rng = random.Random(seed)
        self.tables = tables
        self.shots: list[Path] = []
        self.moments: list[str] = []
        self._seen: set[str] = set()
        self._tmp = tempfile.TemporaryDirectory(prefix="floorman-demo-")

    # ------------------------------------------------------------------ parts
    def _start_backend(self) -> None:
        from controller.config import load_tournament
        from controller.local_broker import LocalBroker
        from controller.service import ControllerService

        self.settings = load_tournament(self.config)
        self.local_broker = LocalBroker()
        self.broker = Broker(host="127.0.0.1", port=self.local_broker.port,
                             prefix=f"floorman/demo-{os.getpid()}")
        log.info("%s broker on %s", self.local_broker.kind, self.local_broker.address)
        self.service = ControllerService(self.settings, str(Path(self._tmp.name) / "demo.sqlite"),
                                         self.broker, wall=scaled(time.time, self.speed),
                                         client_id=f"floorman-demo-controller-{os.getpid()}")
        self.service.start()
        self._service_thread = threading.Thread(target=self.service.run, name="controller",
                                                daemon=True)
        self._service_thread.start()

    def _director(self, cmd: str, **args: Any) -> dict[str, Any]:
        from controller.director import send

        answer = send(self.broker, cmd, args, timeout=15)
        if not answer.get("ok"):
            raise RuntimeError(f"demo: {cmd} rejected: {answer.get('reason')}")
        return answer

    def _start_screens(self) -> None:
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pg = pygame
        pygame.display.init()
        pygame.font.init()
        self.window = pygame.display.set_mode(self.size)
        pygame.display.set_caption("Floorman demo — wall and tables 1-3")
        w, h = self.size[0] // 2, self.size[1] // 2
        local = scaled(time.monotonic, self.speed)
        tiles = [("wall", None)] + [("table", n) for n in range(1, self.tables + 1)]
        self.panels: list[Panel] = []
        for i, (role, table) in enumerate(tiles[:4]):
            origin = ((i % 2) * w, (i // 2) * h)
            sub = self.window.subsurface(pygame.Rect(origin, (w, h)))
            self.panels.append(Panel(self.broker, role, table, sub, origin, local))
        for p in self.panels:
            p.link.start()

    # -------------------------------------------------------------- the night
    def run(self, timeout: float | None = None) -> int:
        """Run until the window closes (or, headless, until the champion); returns 0."""
        self._start_backend()
        try:
            self._director("register", names=NAMES[:27])
            self._director("draw")
            self._director("start")
            self._start_screens()
            return self._loop(timeout)
        finally:
            self.close()

    def _loop(self, timeout: float | None) -> int:
        pg = self.pg
        started = time.monotonic()
        next_hand = time.monotonic() + 1.0
        champion_at: float | None = None
        while True:
            for ev in pg.event.get():
                if ev.type == pg.QUIT or (ev.type == pg.KEYDOWN and ev.key == pg.K_ESCAPE):
                    return 0
            dirty: list[Any] = []
            for p in self.panels:
                p.refresh()
                dirty += p.draw()
            if dirty:
                pg.display.update(dirty)
            self._moments()
            if self.simulate and time.monotonic() >= next_hand:
                next_hand = time.monotonic() + max(0.25, HAND_SECONDS / self.speed)
                self._deal()
            summary = self.panels[0].link.state.get("summary", {})
            if summary.get("finished") and champion_at is None:
                champion_at = time.monotonic()
            if self.headless and champion_at is not None and \
                    time.monotonic() - champion_at > 1.0:
                return 0
            if timeout is not None and time.monotonic() - started > timeout:
                raise TimeoutError(f"the demo did not finish within {timeout:.0f} s")
            pg.event.wait(50)

    def _deal(self) -> None:
        """The simulated dealers: every table plays a hand."""
        state = self.panels[0].link.state
        summary = state.get("summary") or {}
        if summary.get("finished"):
            return
        links = {p.table: p.link for p in self.panels if p.table}
        for number in summary.get("tables", []):
            link = links.get(number)
            tv = state.get(f"table/{number}") or {}
            if link is None or not tv.get("in_play"):
                continue
            hfh = tv.get("hand_for_hand") or {}
            if hfh.get("this_table_done"):
                continue
            if link.pending():
                continue  # the dealer waits for the last press's answer
            seats = [s["seat"] for s in tv.get("seats", []) if not s.get("incoming")]
            rate = 0.3 if len(summary.get("tables", [])) == 1 else 0.18
            if tv.get("time_call"):
                link.press("time")  # the player acted: cancel
            elif self.rng.random() < 0.04:
                link.press("time")
                continue
            if seats and len(seats) > 1 and self.rng.random() < rate:
                link.press("bust", seat=self.rng.choice(seats))
            link.press("hand_done")

    # ------------------------------------------------------------ screenshots
    def _moments(self) -> None:
        state = self.panels[0].link.state
        summary, clock = state.get("summary") or {}, state.get("clock") or {}
        moves = (state.get("moves") or {}).get("recent", [])
        tables = [state.get(f"table/{n}") or {} for n in range(1, 10)]
        checks = {
            "start": bool(clock.get("running")) and bool(summary.get("drawn")),
            "balancing-move": any(m.get("reason") == "balancing" for m in moves),
            "table-break": any("breaks" in (m.get("reason") or "") for m in moves),
            "time-call": any(t.get("time_call") for t in tables),
            "break": bool((clock.get("current") or {}).get("is_break")),
            "hand-for-hand": bool((summary.get("hand_for_hand") or {}).get("on")),
            "final-table": summary.get("final_table") is not None,
            "champion": bool(summary.get("finished")),
        }
        for name, hit in checks.items():
            if hit and name not in self._seen:
                self._seen.add(name)
                self.moments.append(name)
                log.info("moment: %s", name)
                self._screenshot(name)

    def _screenshot(self, moment: str) -> None:
        if self.screenshots is None:
            return
        self.screenshots.mkdir(parents=True, exist_ok=True)
        n = len(self.moments)
        for p in self.panels:
            p.refresh()
            p.draw()
            who = "wall" if p.role == "wall" else f"table{p.table}"
            path = self.screenshots / f"{n:02d}-{moment}-{who}.png"
            self.pg.image.save(p.surface, str(path))
            self.shots.append(path)

    def close(self) -> None:
        for p in getattr(self, "panels", []):
            p.link.stop()
        if hasattr(self, "service"):
            self.service.stop()
            self._service_thread.join(5)
        if hasattr(self, "local_broker"):
            self.local_broker.stop()
        if hasattr(self, "pg"):
            self.pg.display.quit()
        self._tmp.cleanup()
