"""``floorman demo``: the whole system on one computer.

A broker on loopback (Mosquitto when installed, otherwise the embedded
amqtt), the controller with a sample tournament (27 players on three tables,
the PSC Five Spades preset), the director's console in the browser (its address
and password are printed), a wall screen and three table screens tiled in
one window — every screen a real MQTT client with its own link and clock sync,
exactly as on the Pis. ``--speed N`` runs the tournament clock N times faster;
``--simulate`` plays the dealers through the table links (busts, time calls,
hand done), so a newcomer sees a balancing move, a table break, hand-for-hand
and the final table within a few minutes. ``--headless --screenshots DIR``
writes a PNG of every screen at each of those moments and exits when the
tournament has a champion.

Without a screen (and without ``--headless``) it says so and exits
(:class:`NoDisplay`) before starting anything. SIGTERM, SIGINT (Ctrl-C) and SIGHUP
stop it: the screens say offline, the controller and then the broker stop, within a
second or so.
"""

from __future__ import annotations

import dataclasses
import glob
import logging
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from controller import resources
from controller.wire.mqtt import Broker
from kiosk.view import Role, ScreenView, tables_in_play

if TYPE_CHECKING:  # imported when needed: the demo's first lines come sooner
    from controller.broker.local import LocalBroker
    from controller.service.core import ControllerService

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
#: SDL's video drivers that draw into memory, not on a screen
MEMORY_DRIVERS = ("offscreen", "dummy")
#: the signals that stop the demo
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: how to run the demo on a computer without a screen
HEADLESS = "floorman demo --headless --speed 60 --screenshots DIR"


class NoDisplay(RuntimeError):
    """There is no screen to show the demo on; ``str()`` says why and what to run instead."""

    def __init__(self, why: str) -> None:
        super().__init__(
            f"no screen to show the demo on: {why}.\n"
            f"Without a screen, run\n\n    {HEADLESS}\n\n"
            "which plays the evening through, writes a PNG of every screen at each notable "
            "moment into DIR\nand exits when the tournament has a champion.")
        self.why = why


def display_missing(env: Mapping[str, str] | None = None) -> str | None:
    """Why SDL cannot open a screen here, told before asking SDL (``None``: it may).

    No ``DISPLAY`` (X11), no ``WAYLAND_DISPLAY`` and no KMS device (``/dev/dri/card*``, a
    console without a desktop, as on the Pi): SDL would fall back to its offscreen driver
    and draw into memory. An explicit ``SDL_VIDEODRIVER`` is left to SDL."""
    env = os.environ if env is None else env
    driver = env.get("SDL_VIDEODRIVER")
    if driver:
        if driver in MEMORY_DRIVERS:
            return f"SDL_VIDEODRIVER={driver} draws into memory, not on a screen"
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or glob.glob("/dev/dri/card*"):
        return None
    return ("DISPLAY and WAYLAND_DISPLAY are not set and there is no KMS display device "
            "(/dev/dri/card*)")


def on_break(view: ScreenView) -> bool:
    """The clock shows a break at the view's ``now`` (its own roll-over: the anchor may be
    a level's that has since ended)."""
    from kiosk.view import clock_now

    cn = clock_now(view)
    return cn is not None and bool(cn.level.get("is_break"))


def scaled(base: Callable[[], float], speed: float) -> Callable[[], float]:
    """A clock that runs ``speed`` times faster than ``base``, from now on."""
    t0 = base()
    return lambda: t0 + (base() - t0) * speed


class Panel:
    """One screen of the demo: a link, a renderer and its tile of the window."""

    def __init__(self, broker: Broker, role: Role, table: int | None, surface: Any,
                 origin: tuple[int, int], local: Callable[[], float]) -> None:
        from kiosk.link import Link
        from kiosk.render import Renderer

        self.role, self.table = role, table
        self.link = Link(broker, table=table,
                         name=f"demo-{role}-{table or 'room'}-{os.getpid()}", local=local)
        self.surface = surface
        self.origin = origin
        self.view = ScreenView(role=role, table=table)
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
        self._stop = threading.Event()
        #: the signal that stopped the demo (``None``: it ended by itself)
        self.stopped_by: int | None = None
        self.panels: list[Panel] = []
        self.local_broker: LocalBroker | None = None
        self.service: ControllerService | None = None
        self._service_thread: threading.Thread | None = None
        #: the director's console: its address and sign-in password, once it runs
        self.console_url: str | None = None
        self.console_password: str | None = None
        self._console: Any = None
        self._console_thread: threading.Thread | None = None
        #: the round, level and players left the last end_round was tried at
        self._round_tried: tuple[Any, ...] | None = None

    def stop(self, signum: int | None = None) -> None:
        """Ask the demo to end (any thread, or a signal handler): :meth:`run` returns 0
        within a fraction of a second and everything it started is stopped."""
        if signum is not None and self.stopped_by is None:
            self.stopped_by = signum
            log.info("%s: stopping", signal.Signals(signum).name)
        self._stop.set()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stop(signum)

    # ------------------------------------------------------------------ parts
    def _start_backend(self) -> None:
        from controller.broker.local import LocalBroker
        from controller.config import load_tournament
        from controller.service.core import ControllerService

        settings = load_tournament(self.config)
        # the demo registers everyone before the draw and has no late entries: registration
        # is closed, so tables break as players bust (while it is open they stay, 000 4.3)
        self.settings = dataclasses.replace(settings, entries=dataclasses.replace(
            settings.entries, late_registration_levels=0))
        self.local_broker = lb = LocalBroker()
        self.broker = Broker(host="127.0.0.1", port=lb.port,
                             prefix=f"floorman/demo-{os.getpid()}")
        log.info("%s broker on %s", lb.kind, lb.address)
        self.service = svc = ControllerService(
            self.settings, str(Path(self._tmp.name) / "demo.sqlite"), self.broker,
            wall=scaled(time.time, self.speed),
            client_id=f"floorman-demo-controller-{os.getpid()}")
        svc.start()
        self._service_thread = threading.Thread(target=svc.run, name="controller", daemon=True)
        self._service_thread.start()

    def _start_console(self) -> None:
        """The director's console on port 8080 (another free one when 8080 is taken), with a
        fresh password; both are printed."""
        import secrets
        import socket

        from controller.console import auth
        from controller.console.app import Console, serve
        from controller.console.hub import Hub

        self.console_password = secrets.token_urlsafe(9)
        pw = Path(self._tmp.name) / "console.passwd"
        auth.write_password(pw, self.console_password)
        port = 8080
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        hub = Hub(self.broker, public_url=f"http://127.0.0.1:{port}/p")
        self._console = serve(Console(hub, auth.read_password(pw)), "127.0.0.1", port)
        self._console_thread = threading.Thread(target=self._console.run, name="console",
                                                daemon=True)
        self._console_thread.start()
        self.console_url = f"http://127.0.0.1:{port}/"
        print(f"director's console: {self.console_url}  password: {self.console_password}"
              f"  players' page: {self.console_url}p", flush=True)

    def _director(self, cmd: str, **args: Any) -> dict[str, Any]:
        from controller.director import send

        answer = send(self.broker, cmd, args, timeout=15)
        if not answer.get("ok"):
            raise RuntimeError(f"demo: {cmd} rejected: {answer.get('reason')}")
        return answer

    def _open_window(self) -> None:
        """The demo's window, before anything else starts; :class:`NoDisplay` without a
        screen (unless headless: then SDL's dummy driver, no window)."""
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        else:
            why = display_missing()
            if why is not None:
                raise NoDisplay(why)
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        try:
            pygame.display.init()
        except pygame.error as exc:
            raise NoDisplay(f"SDL cannot open a display ({exc})") from None
        self.pg = pygame
        driver = pygame.display.get_driver()
        if not self.headless and driver in MEMORY_DRIVERS:
            tried = ", ".join(f"{k}={os.environ[k]}" for k in ("DISPLAY", "WAYLAND_DISPLAY")
                              if os.environ.get(k))
            raise NoDisplay(f"SDL could not use a display{f' ({tried})' if tried else ''} and "
                            f"fell back to its \"{driver}\" driver, which draws into memory")
        pygame.font.init()
        self.window = pygame.display.set_mode(self.size)
        pygame.display.set_caption("Floorman demo — wall and tables 1-3")

    def _start_screens(self) -> None:
        pygame = self.pg
        w, h = self.size[0] // 2, self.size[1] // 2
        local = scaled(time.monotonic, self.speed)
        tiles: list[tuple[Role, int | None]] = [("wall", None)]
        tiles += [("table", n) for n in range(1, self.tables + 1)]
        for i, (role, table) in enumerate(tiles[:4]):
            origin = ((i % 2) * w, (i // 2) * h)
            sub = self.window.subsurface(pygame.Rect(origin, (w, h)))
            self.panels.append(Panel(self.broker, role, table, sub, origin, local))
        for p in self.panels:
            p.link.start()

    # -------------------------------------------------------------- the night
    def run(self, timeout: float | None = None) -> int:
        """Run until the window closes, :meth:`stop`, SIGTERM, SIGINT or SIGHUP (or, headless,
        until the champion); returns 0. Raises :class:`NoDisplay` without a screen."""
        restore = self._catch_signals()
        try:
            self._open_window()
            steps: list[Callable[[], Any]] = [
                self._start_backend,
                self._start_console,
                lambda: self._director("register", names=NAMES[:27]),
                self._landesliga_points,
                lambda: self._director("draw"),
                lambda: self._director("start"),
                self._start_screens,
            ]
            for step in steps:
                if self._stop.is_set():
                    return 0
                step()
            return self._loop(timeout)
        finally:
            self.close()
            restore()

    def _catch_signals(self) -> Callable[[], None]:
        """SIGTERM, SIGINT and SIGHUP (the terminal closed) stop the demo (in the main
        thread; SDL then installs no handlers of its own). Returns what puts the previous
        handlers back."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = {s: signal.signal(s, self._on_signal) for s in STOP_SIGNALS}

        def restore() -> None:
            for s, handler in previous.items():
                signal.signal(s, handler)
        return restore

    def _loop(self, timeout: float | None) -> int:
        pg = self.pg
        started = time.monotonic()
        next_hand = time.monotonic() + 1.0
        champion_at: float | None = None
        while not self._stop.is_set():
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
            ev = pg.event.wait(50)
            if ev.type != pg.NOEVENT:
                pg.event.post(ev)  # looked at with the others (a quit among them)
        return 0

    # ------------------------------------------------- the modes (000 4.14-4.19)
    def _landesliga_points(self) -> None:
        """A Landesliga final (000 4.18): the sit & go round's points, before the draw."""
        if self.settings.mode.kind != "landesliga_final":
            return
        from controller.engine.points import landesliga_points

        order = list(NAMES[:27])
        self.rng.shuffle(order)
        self._director("landesliga_points", points=[
            {"player": name, "points": landesliga_points(i % 9 + 1)}
            for i, name in enumerate(order)])

    def _end_round(self, state: Mapping[str, Any]) -> bool:
        """Play the clock, restart, multi-round (000 4.14, 4.15, 4.19): the director ends the
        round once the clock has moved on (its time may be up) or one player has every chip,
        with every stack counted, and starts the clock again. Whether a round ended."""
        from controller.director import send

        summary, clock = state.get("summary") or {}, state.get("clock") or {}
        rnd = summary.get("round")
        if not rnd or summary.get("finished"):
            return False
        if rnd["number"] > rnd["of"] and rnd["mode"] != "play_the_clock":
            return False  # the preliminary rounds are over
        key = (rnd["number"], clock.get("level"), summary.get("players_left"))
        if key == self._round_tried:
            return False
        self._round_tried = key
        decided = summary.get("players_left") == 1
        counts = [] if decided and rnd["mode"] == "multi_round" else self._counts(state)
        answer = send(self.broker, "end_round", {"counts": counts}, timeout=15)
        if not answer.get("ok"):
            return False  # its time is not up yet: the reason says how long
        log.info("round %s over", rnd["number"])
        if rnd["mode"] != "play_the_clock":
            self._director("start")  # a restarted round's clock waits, paused
        return True

    def _counts(self, state: Mapping[str, Any]) -> list[dict[str, int]]:
        """Every stack in play, drawn at random, adding up to the chips in play."""
        summary = state.get("summary") or {}
        ins = sorted({s["player_id"] for n in tables_in_play(state)
                      for s in (state.get(f"table/{n}") or {}).get("seats", [])
                      if s.get("player_id") is not None})
        total = int(summary.get("chips_in_play") or 0)
        if not ins or total < len(ins):
            return []
        weights = [self.rng.randint(1, 100) for _ in ins]
        chips = [max(1, total * w // sum(weights)) for w in weights]
        chips[chips.index(max(chips))] += total - sum(chips)
        return [{"player": pid, "chips": c} for pid, c in zip(ins, chips, strict=True)]

    def _deal(self) -> None:
        """The simulated dealers: every table plays a hand."""
        state = self.panels[0].link.state
        summary = state.get("summary") or {}
        if self._end_round(state):
            return
        if summary.get("finished") or on_break(self.panels[0].view):
            return  # no hands are played during a break
        links = {p.table: p.link for p in self.panels if p.table}
        if any(link.pending() for link in links.values()):
            return  # the floor answers one round of presses before the next is dealt
        for number in tables_in_play(state):
            link = links.get(number)
            tv = state.get(f"table/{number}") or {}
            if link is None or not tv.get("in_play"):
                continue
            hfh = tv.get("hand_for_hand") or {}
            if hfh.get("this_table_done"):
                continue
            if link.pending():
                continue  # the dealer waits for the last press's answer
            if tv.get("moves_in"):
                # the players moving here sit down: the table's box says so (a move is done
                # when the player is seated; a short table waits for it, TDA 11D)
                link.press("seated")
                continue
            seats = [s["seat"] for s in tv.get("seats", []) if not s.get("incoming")]
            rate = 0.3 if summary.get("tables_in_play") == 1 else 0.18
            if summary.get("round"):
                rate = 0.06  # a round's time runs out before its field (000 4.14-4.19)
            if tv.get("time_call"):
                link.press("time")  # the player acted: cancel
            elif self.rng.random() < 0.04:
                link.press("time")
                continue
            if seats and len(seats) > 1 and self.rng.random() < rate:
                link.press("bust", seat=self.rng.choice(seats))
                link.press("hand_done")
                # one bust a round: the screens show what it made (the bubble's
                # hand-for-hand) before the next table's bust can end it
                return
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
            # play the clock, restart, multi-round: the first round is over (000 4.14-4.19)
            "round-end": ((summary.get("round") or {}).get("number") or 0) >= 2,
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
        """Stop whatever was started, also after a partial start; safe to call again.

        The controller first gets told (it ends within its tick, 0.5 s), meanwhile the
        screens say offline and disconnect together, then the controller's thread ends and
        the broker stops last."""
        from kiosk.link import stop_links

        service, thread, broker = self.service, self._service_thread, self.local_broker
        self.service = self._service_thread = self.local_broker = None
        steps: list[tuple[str, Callable[[], Any]]] = []
        console, console_thread = self._console, self._console_thread
        self._console = self._console_thread = None
        if console is not None:  # first: its questions to the controller end with it
            console.should_exit = True
        if service is not None:
            steps.append(("controller", service.stop))
        if self.panels:
            links = [p.link for p in self.panels]
            self.panels = []
            steps.append(("screens", lambda: stop_links(links)))
        if console_thread is not None:
            steps.append(("console", lambda: console_thread.join(5)))
        if thread is not None:
            steps.append(("controller thread", lambda: thread.join(5)))
        if broker is not None:
            steps.append(("broker", broker.stop))
        if hasattr(self, "pg"):
            steps.append(("display", self.pg.display.quit))
        steps.append(("temporary folder", self._tmp.cleanup))
        for what, step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - stop the rest all the same
                log.exception("demo: stopping the %s failed", what)
