"""``floorman night``: a real club night on this computer, in one command.

It starts the room's broker (:class:`~controller.broker.room.RoomBroker`: Mosquitto where
installed, else the embedded amqtt; the accounts and ACL made on first use and kept in the
state folder), the controller (its log in the state folder, named after the tournament
and the date: started again, it continues the night), the director's console (on every
interface, a fresh password each start), the pairing door and the DNS-SD announcement the
screens find it by, and prints one block: the console's address, its password, the join
code for the screens and a QR code of the console's address for the director's phone.

SIGINT (Ctrl-C), SIGTERM and SIGHUP stop it all within a second or two.

The state folder: ``$FLOORMAN_STATE``, else ``$XDG_STATE_HOME/floorman``, else
``~/.local/state/floorman``::

    broker/       floorman.passwd, floorman.acl, credentials/*.env, pairings.json
    nights/       <tournament>-<YYYY-MM-DD>.sqlite, the event logs
    console.passwd, night-id
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

log = logging.getLogger("floorman.night")

#: the signals that stop the night
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: wall screens that can join (each its own account)
WALLS = 4
#: the console's port when it is free
CONSOLE_PORT = 8080
#: a log older than this (by its last change) is yesterday's night, not this one
CONTINUE_HOURS = 12


def state_folder(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    if env.get("FLOORMAN_STATE"):
        return Path(env["FLOORMAN_STATE"])
    base = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME") or Path.home())
                                             / ".local" / "state")
    return Path(base) / "floorman"


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:40] or "tournament"


def log_path(folder: Path, name: str, today: dt.date, now: float | None = None) -> Path:
    """The night's event log: today's of this tournament, else yesterday's when it changed
    within :data:`CONTINUE_HOURS` (a night past midnight), else a new one of today."""
    now = time.time() if now is None else now
    mine = folder / f"{slug(name)}-{today.isoformat()}.sqlite"
    if mine.exists():
        return mine
    before = folder / f"{slug(name)}-{(today - dt.timedelta(days=1)).isoformat()}.sqlite"
    if before.exists() and now - before.stat().st_mtime < CONTINUE_HOURS * 3600:
        return before
    return mine


def night_id(folder: Path) -> str:
    path = folder / "night-id"
    try:
        value = path.read_text().strip()
    except OSError:
        value = ""
    if not re.fullmatch(r"[0-9a-f]{16}", value):
        value = secrets.token_hex(8)
        path.write_text(value + "\n")
    return value


def console_port(wanted: int = CONSOLE_PORT) -> int:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", wanted))
        except OSError:
            s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def qr_text(url: str) -> str:
    """The QR code of ``url`` for a terminal (two rows a character)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


class Night:
    """See the module docstring. :meth:`run` until :meth:`stop` or a signal."""

    def __init__(self, config: Path, *, state: Path | None = None, tables: int = 40,
                 port: int = 0, console: int = CONSOLE_PORT, prefer: str = "mosquitto",
                 announce: bool = True, today: dt.date | None = None,
                 out: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.state = state or state_folder()
        self.tables = tables
        self.port = port
        self.wanted_console = console
        self.prefer = prefer
        self.announce = announce
        self.today = today or dt.date.today()
        self.out = out or (lambda text: print(text, flush=True))
        self._stop = threading.Event()
        self.stopped_by: int | None = None
        self.ready = threading.Event()
        self._closers: list[tuple[str, Callable[[], Any]]] = []
        self.console_url = ""
        self.console_password = ""
        self.code = ""
        self.db: Path | None = None
        self.broker: Any = None
        self.pairing: Any = None

    def stop(self, signum: int | None = None) -> None:
        if signum is not None and self.stopped_by is None:
            self.stopped_by = signum
            log.info("%s: stopping", signal.Signals(signum).name)
        self._stop.set()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stop(signum)

    def run(self) -> int:
        restore = self._catch_signals()
        try:
            self.start()
            self.ready.set()
            while not self._stop.wait(0.2):
                if self._service_thread is not None and not self._service_thread.is_alive():
                    log.error("the controller stopped; the night ends")
                    return 1
            return 0
        finally:
            self.close()
            restore()

    def _catch_signals(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = {s: signal.signal(s, self._on_signal) for s in STOP_SIGNALS}

        def restore() -> None:
            for s, handler in previous.items():
                signal.signal(s, handler)
        return restore

    # ------------------------------------------------------------------ the parts
    def start(self) -> None:
        from controller.broker.room import RoomBroker
        from controller.config import load_tournament
        from controller.console import auth
        from controller.console.app import Console, public_url, serve
        from controller.console.hub import Hub
        from controller.night.pairing import Door, PairingServer, new_code
        from controller.service.core import ControllerService

        self._service_thread: threading.Thread | None = None
        settings = load_tournament(self.config)
        prefix = settings.broker.prefix
        self.state.mkdir(mode=0o700, parents=True, exist_ok=True)
        nights = self.state / "nights"
        nights.mkdir(mode=0o700, exist_ok=True)
        self.db = log_path(nights, settings.name or self.config.stem, self.today)
        continued = self.db.exists()

        self.broker = rb = RoomBroker(self.state / "broker", tables=self.tables, walls=WALLS,
                                      prefix=prefix, port=self.port, prefer=self.prefer)
        self._closers.append(("broker", rb.stop))

        self.service = svc = ControllerService(settings, str(self.db), rb.client("controller"),
                                               client_id="controller")
        svc.start()
        self._service_thread = threading.Thread(target=svc.run, name="controller",
                                                daemon=True)
        self._service_thread.start()
        self._closers.insert(0, ("controller", self._stop_controller))

        self.console_password = secrets.token_urlsafe(12)  # 16 characters
        pw = self.state / "console.passwd"
        auth.write_password(pw, self.console_password)
        port = console_port(self.wanted_console)
        players = public_url("0.0.0.0", port)
        self.console_url = players.removesuffix("p")
        hub = Hub(rb.client("console"), name="console", public_url=players)
        self.sign_in = auth.SignInKey()
        # the players' requests beside the night's log: a console restart loses none
        requests = self.db.with_name(self.db.stem + ".requests.json")
        server = serve(Console(hub, auth.read_password(pw), sign_in_key=self.sign_in,
                               requests_file=requests), "0.0.0.0", port)
        self._console_thread = threading.Thread(target=server.run, name="console",
                                                daemon=True)
        self._console_thread.start()
        self._closers.insert(0, ("console", lambda: self._stop_console(server)))
        # the block names the console's address: printed once it answers there (a loaded
        # machine took seconds, and a director's phone that tries at once was refused)
        up_by = time.monotonic() + 30
        while not server.started and self._console_thread.is_alive() \
                and time.monotonic() < up_by and not self._stop.is_set():
            time.sleep(0.05)

        self.code = new_code()
        door = Door(self.code, rb.credentials, rb.folder, WALLS)
        self.pairing = PairingServer(door)
        self._closers.insert(0, ("pairing door", self.pairing.close))
        if self.announce:
            threading.Thread(target=self._announce, args=(settings, prefix), daemon=True,
                             name="announce").start()
        self.out(self.block(settings.name, continued, rb.kind, rb.port))

    def _announce(self, settings: Any, prefix: str) -> None:
        """DNS-SD takes a second or two to claim its name: in a thread, so the block comes
        first; a screen that looks meanwhile keeps looking."""
        from controller.wire.discovery import Announcement

        try:
            a = Announcement(name=settings.name or "Floorman", port=self.broker.port,
                             pair_port=self.pairing.port, prefix=prefix,
                             night_id=night_id(self.state), tournament=settings.name or "")
        except Exception as exc:  # noqa: BLE001 - the night goes on; screens can be told
            log.error("the night could not announce itself on the network (%s); screens "
                      "need --broker %s", exc, self.broker.port)
            return
        if self._stop.is_set():
            a.close()
            return
        self.announcement = a
        self._closers.insert(0, ("announcement", a.close))
        log.info("announced on the network as %r", a.info.name)

    def block(self, name: str, continued: bool, kind: str, port: int) -> str:
        from controller.broker.room import EMBEDDED_TABLES
        from controller.wire.discovery import show_code

        url = self.console_url
        lines = [
            "",
            f"Floorman night: {name}" + (" (continued from its log)" if continued else ""),
            f"  director's console: {url}",
            f"  password:           {self.console_password}",
            f"  screens' join code: {show_code(self.code)}   "
            "(floorman kiosk --table N --join CODE, or floorman kiosk --wall --join CODE)",
            f"  broker: {kind} on port {port}; the night's log: {self.db}",
            *([f"  the embedded broker serves up to {EMBEDDED_TABLES} table screens; for "
               "more, install Mosquitto (sudo apt-get install mosquitto) and start again"]
              if kind == "amqtt" else []),
            "  Ctrl-C stops the night; started again it continues.",
            "  The QR code signs the director's phone in, once, for 15 minutes:",
            qr_text(f"{url}login?key={self.sign_in.key}"),
        ]
        return "\n".join(lines)

    def _stop_controller(self) -> None:
        self.service.stop()
        if self._service_thread is not None:
            self._service_thread.join(3)

    def _stop_console(self, server: Any) -> None:
        server.should_exit = True
        self._console_thread.join(3)

    def close(self) -> None:
        """Stop what was started, newest first; the announcement and the console together
        with the controller (each in its own thread), the broker last."""
        closers, self._closers = self._closers, []
        last = [c for c in closers if c[0] == "broker"]
        rest = [c for c in closers if c[0] != "broker"]
        threads = []
        for what, step in rest:
            t = threading.Thread(target=self._safely, args=(what, step), daemon=True)
            t.start()
            threads.append(t)
        for t in threads:
            t.join(3)
        for what, step in last:
            self._safely(what, step)

    @staticmethod
    def _safely(what: str, step: Callable[[], Any]) -> None:
        try:
            step()
        except Exception:  # noqa: BLE001 - stop the rest all the same
            log.exception("night: stopping the %s failed", what)
