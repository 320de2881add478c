"""Kiosk benchmark: press-to-screen latency, frame times, an idle kiosk's CPU and memory.

Starts its own Mosquitto on a free loopback port (``set_tcp_nodelay true``, as
docs/protocol.md asks) and the controller as a subprocess, exactly as systemd
runs them (both the test harness's, tests/support), with a tournament of 1, 10
and 50 tables (9 players a table, preset ``psc-five-spades``). Then:

- **press → screen**: a full headless :class:`~kiosk.app.KioskApp` for table 1
  (800×480, its button box on gpiozero ``MockFactory`` pins, the pin numbers of
  ``config/kiosk/table.yaml``) runs its own loop in the main thread
  (``step(MAX_WAIT)``, as ``KioskApp.run`` does). Another thread — like
  gpiozero's pin thread on the Pi — drives the ``hand_done`` pin low at random
  moments (0.15-0.35 s apart); the time is taken from ``drive_low`` to the end
  of the first loop step whose frame shows the controller's answer (the
  "accepted" feedback line, in the renderer's ``items``) — the frame is drawn
  and ``display.update`` has been called. The press is split into its parts from
  the kiosk's own calls (``PARTS``: the edge → published, → paho's thread has the
  answer, → the main loop takes it in, → drawn), with the collector's pauses and the
  layouts in it; and the kiosk's start (the first state drawn, its warm-up done, the
  first press after it). ``hand_done`` has no hold; every press
  is a durable command that makes the controller republish table 1's state.
  The other tables are **Link clients** (the kiosk's own MQTT link,
  ``kiosk.link.Link``: subscribed to its table's and the shared ``state/…`` topics,
  clock sync every 10 s) in processes of their own (250 links each), so they load
  the broker and the controller's fan-out without sharing this process's GIL — on
  the floor every kiosk is its own Pi; above 100 other tables they are bare MQTT
  sockets (``bench/controller.py``'s ``RawSwarm``: their table's view and the
  summary), as 1,000 paho links would measure this machine's threads. (Full
  KioskApps for 49 more tables would draw 49 screens in one process: a benchmark of
  this machine's CPU, not of one kiosk.)
- **frame time**: :class:`~kiosk.render.Renderer` alone, on a surface of
  1920×1080 and of 800×480, with the state the kiosk above received from the
  controller (the table screen: table 1 of 10 tables; the wall: 50 tables, 450
  players). "layout" is a new layout (a new selected seat / seating page; the
  text cache warm), painting only what differs from the screen's last layout (issue
  32.1: the seat rows), "layout, cold" a new renderer (no fonts, no text cache, nothing
  warmed), "layout, first after a start" the first layout of a kiosk's first state after
  its warm-up (kiosk/warmup.py: the made-up moments it lays out off the screen while it
  connects; the warm-up's own time in the row below it), "tick" the frame of a new
  second (the clock's changed digits). Wall time and CPU time (``time.process_time``:
  what a loaded machine disturbs least).
  Goals of issue 32: a table layout at 1920×1080 ≤ 2.4 ms warm (one frame on a Pi 4
  at the factor 7 of docs/performance.md), ≤ 5 ms cold.
- **idle kiosk**: ``floorman kiosk config/kiosk/table.yaml --table 1 --windowed
  800x480`` in its own process (``SDL_VIDEODRIVER=dummy``,
  ``GPIOZERO_PIN_FACTORY=mock``), the clock running, nobody pressing: CPU from
  ``/proc/PID/stat`` (utime + stime) over ``--idle-seconds`` (60), resident
  memory (``VmRSS``, and the peak ``VmHWM``) at the end.

Targets: press → screen p99 ≤ 16.7 ms (one 60 Hz frame, issue 32) on loopback with 50
tables and more; idle CPU ≤ 2 % of one core; RSS ≤ 80 MB.

    python bench/kiosk.py [--presses 100] [--tables 1 10 50] [--idle-seconds 60]

Run it from the checkout (or anywhere): the script puts the checkout first on
``sys.path``, so ``controller``, ``kiosk`` and ``tests.support`` are this checkout's.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

# the checkout first: this script is run as a file, not as a module of a package
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.headless import headless  # noqa: E402

headless()

from controller.wire.mqtt import Broker  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.controller import ControllerProcess, director, wait_up  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402
from tests.support.kiosks import KioskProcess  # noqa: E402
from tests.support.paths import TABLE_KIOSK  # noqa: E402
from tests.support.waiting import wait_for  # noqa: E402

PER_TABLE = 9
TARGET_P99_MS = 16.7
TARGET_CPU_PCT = 2.0
TARGET_RSS_MB = 80.0
#: the parts of a press, each from the kiosk's own calls: the pin's edge → the main loop's
#: ``Link.press`` returned (published to paho); → paho's thread has the answer; → the
#: main loop takes it from its inbox; → the frame with the answer is drawn and updated
#: a kiosk's start (ms after ``KioskApp()``), and the warm-up's moments
STARTUP = ("first state drawn", "warm-up done", "moments warmed before the first state",
           "moments")
PARTS = ("press → published", "published → answer arrives", "answer arrives → taken in",
         "taken in → drawn")


# ------------------------------------------------------------------- processes
class Tournament:
    """The controller process with ``tables`` tables drawn and the clock running."""

    def __init__(self, tmp: Path, port: int, tables: int) -> None:
        self.tables = tables
        self.broker = Broker(host="127.0.0.1", port=port, prefix=f"bench/{uuid.uuid4().hex[:8]}")
        players = tables * PER_TABLE
        config = tmp / f"kiosk-bench-{tables}.yaml"
        db = tmp / f"kiosk-bench-{self.broker.prefix.rpartition('/')[2]}.sqlite"
        config.write_text(f'name: "Kiosk benchmark, {tables} tables"\npreset: psc-five-spades\n'
                          f"language: en\nplayers_per_table: {PER_TABLE}\n"
                          "ghosts: {enabled: false}\n", encoding="utf-8")
        self.log = tmp / f"controller-{tables}.log"
        self.controller = ControllerProcess(config, db, self.log,
                                            broker=str(self.broker),
                                            prefix=self.broker.prefix).start()
        wait_up(self.broker, every=0.5)
        names = [f"Player {i:03d}" for i in range(1, players + 1)]
        for i in range(0, players, 200):
            self.call("register", {"names": names[i:i + 200]})
        self.call("draw", {"seed": 1})
        self.call("start")

    def call(self, cmd: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        return director(self.broker, cmd, args, timeout=20)

    def stop(self) -> None:
        self.controller.stop()


class LoadClients:
    """The other tables' links in processes of their own (``--load-clients``), at most
    :data:`LINKS_A_PROCESS` links each, started together."""

    def __init__(self, broker: Broker, tables: range, log: Path) -> None:
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        for first in range(tables.start, tables.stop, LINKS_A_PROCESS):
            stop = min(tables.stop, first + LINKS_A_PROCESS)
            err = log.with_name(f"{log.stem}-{first}-{stop - 1}.log")
            self.logs.append(err)
            with err.open("w") as f:
                self.procs.append(subprocess.Popen(
                    [sys.executable, __file__, "--load-clients", str(broker), broker.prefix,
                     str(first), str(stop)],
                    cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=f,
                    text=True))
        for proc, err in zip(self.procs, self.logs, strict=True):
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if line.strip() != "ready":
                self.stop()
                tail = err.read_text(errors="replace").strip().splitlines()[-3:]
                raise RuntimeError(f"the load clients did not start: {line!r}; "
                                   f"{' / '.join(tail)} ({err})")

    def stop(self) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            if not proc.stdin.closed:
                proc.stdin.close()  # the signal to leave (presence offline, disconnect)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


#: table links in one load-client process: 1,000 links (2,000 threads) in one
#: interpreter spend their time fighting for its lock
LINKS_A_PROCESS = 250
#: above this many other tables, they are bare MQTT sockets (:class:`RawLoad`): 1,000
#: kiosk links (paho's thread and the link's pump each, keep-alive 5 s) on this machine's
#: two cores missed their keep-alives and were disconnected by the broker over and over
LINKS_AT_MOST = 100


class RawLoad:
    """The other tables as bench/controller.py's table clients (:class:`RawSwarm`: one
    socket each, subscribed to its table's view and the summary, read by one thread in a
    process of its own): the broker's and the controller's load of 1,000 screens without
    2,000 Python threads here. Ready when every one has its table and the summary."""

    def __init__(self, broker: Broker, tables: range, players_left: int) -> None:
        from bench.controller import SwarmProcess

        self.swarm = SwarmProcess(broker, list(tables))
        if not self.swarm.ready(players_left, max(60.0, len(tables) / 10)):
            self.swarm.close()
            raise RuntimeError("the load clients did not start: not every one has its "
                               "table and the summary")

    def stop(self) -> None:
        self.swarm.close()


def load_clients_main(address: str, prefix: str, first: int, stop: int) -> int:
    """Run Links for tables first..stop-1 until stdin closes."""
    from kiosk.link import Link

    broker = Broker.from_env(address, prefix)
    links = [Link(broker, table=n, name=f"bench-load-table-{n}") for n in range(first, stop)]
    for link in links:
        link.start()

    def progress() -> str:
        return (f"{sum(link.connected.is_set() for link in links)} connected, "
                f"{sum(f'table/{link.table}' in link.state for link in links)} with their "
                f"table, {sum(link.sync.synced for link in links)} synced of {len(links)}")

    # a loaded machine: a second for every ten links, at least a minute
    wait_for(lambda: all(link.connected.is_set() and f"table/{link.table}" in link.state
                         and link.sync.synced for link in links), max(60.0, len(links) / 10),
             "every load client ready", explain=progress)
    print("ready", flush=True)
    sys.stdin.read()
    for link in links:
        link.stop()
    return 0


# ------------------------------------------------------------------- press → screen
def table_app(broker: Broker) -> tuple[Any, Any]:
    """The measured kiosk (table 1, 800×480, its button box on mock pins) and its
    hand_done pin."""
    import dataclasses

    from gpiozero.pins.mock import MockFactory

    from kiosk.app import KioskApp
    from kiosk.config import load_kiosk

    cfg = load_kiosk(TABLE_KIOSK)
    cfg = dataclasses.replace(cfg, sounds=False)
    factory = MockFactory()
    app = KioskApp(cfg, "table", 1, (800, 480), broker, headless=True, pin_factory=factory)
    return app.start(), factory.pin(cfg.buttons.pins["hand_done"])


def press_to_screen(tour: Tournament, presses: int, warmup: int = 5
                    ) -> tuple[list[float], list[float], dict[str, Any], dict[str, list[float]]]:
    """(press → answer on screen ms, press → "sent" frame ms, the kiosk's state at the end,
    the press's parts: :data:`PARTS` → ms each, and ``gc``: the collector's pauses (ms)
    inside a press, ``layouts``: layouts after the press was published, its answer's frame
    the last)."""
    import gc

    from kiosk.app import MAX_WAIT

    others = range(2, tour.tables + 1)
    load: LoadClients | RawLoad | None = None
    if len(others) > LINKS_AT_MOST:
        load = RawLoad(tour.broker, others, tour.tables * PER_TABLE)
    elif others:
        load = LoadClients(tour.broker, others, tour.log.with_name(f"load-{tour.tables}.log"))
    app, pin = table_app(tour.broker)
    started = time.monotonic()  # KioskApp() and start() returned: its loop begins
    first: list[float] = []  # the first frame with the table's state, the warm-up left

    def step() -> None:
        app.step(0.05)
        if not first and "table/1" in app.view.state and "clock" in app.view.state \
                and not app._dirty:
            first[:] = [time.monotonic(), getattr(app, "warm_slices", 0)]

    try:
        wait_for(lambda: app.view.online and app.link.sync.synced and "table/1" in app.view.state
                 and "clock" in app.view.state and bool(first), 20, "the kiosk ready",
                 step=step)
        # (a checkout before the warm-up has none: measured the same, as "before")
        warms = hasattr(app, "warm_done")
        if warms:
            wait_for(lambda: app.warm_done is not None, 60, "the warm-up done", step=step)
        startup = {"first state drawn": (first[0] - started) * 1000,
                   "warm-up done": (app.warm_done - started) * 1000 if warms else 0.0,
                   "moments warmed before the first state": first[1],
                   "moments": getattr(app, "warm_slices", 0)}
        lock = threading.Lock()
        pressed: list[float] = []  # time.monotonic() (the app's clock) of the press in flight
        done = threading.Event()
        answered: list[float] = []
        local: list[float] = []
        parts: dict[str, list[float]] = {k: [] for k in (*PARTS, "gc", "layouts")}
        stop = threading.Event()
        rng = random.Random(1)
        # the moments of the press in flight (time.monotonic()), from the kiosk's own calls
        marks: dict[str, float] = {}
        pauses: list[tuple[float, float]] = []  # the collector's (start, end)
        gc_start: list[float] = []

        def on_gc(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                gc_start[:] = [time.monotonic()]
            elif gc_start:
                pauses.append((gc_start[0], time.monotonic()))

        link_press, link_notify, app_answer = app.link.press, app.link.notify, app._answer

        def press(action: str, **fields: Any) -> str:  # the main thread: sent to paho
            cid = link_press(action, **fields)
            marks.setdefault("published", time.monotonic())
            marks.setdefault("layouts", app.renderer.layouts)
            return cid

        def notify(kind: str, data: Any) -> None:  # paho's thread: the answer is in
            if kind == "answer":
                marks.setdefault("arrived", time.monotonic())
            link_notify(kind, data)

        def answer(data: dict[str, Any]) -> None:  # the main thread takes it in
            marks.setdefault("taken", time.monotonic())
            app_answer(data)

        app.link.press, app.link.notify, app._answer = press, notify, answer  # type: ignore
        gc.callbacks.append(on_gc)

        def presser() -> None:  # gpiozero's thread on a Pi
            for _ in range(warmup + presses):
                if stop.wait(rng.uniform(0.15, 0.35)):
                    return
                done.clear()
                with lock:
                    marks.clear()
                    pressed[:] = [time.monotonic()]
                pin.drive_low()
                time.sleep(0.06)  # a finger: longer than the 50 ms debounce
                pin.drive_high()
                if not done.wait(10):
                    break
            stop.set()

        thread = threading.Thread(target=presser, daemon=True)
        thread.start()
        seen_sent = False
        while not stop.is_set():
            app.step(MAX_WAIT)  # the kiosk's own loop: sleeps until something is due
            now = time.monotonic()
            with lock:
                t0 = pressed[0] if pressed else None
            fb = app.view.feedback
            if t0 is None or done.is_set() or fb is None or fb.since < t0:
                continue
            if not any(text == fb.text for text, _ in app.renderer.items):
                continue  # not on the screen (yet)
            if fb.kind == "sent" and not seen_sent:
                seen_sent = True
                local.append((now - t0) * 1000)
            elif fb.kind == "accepted":
                answered.append((now - t0) * 1000)
                m = dict(marks)
                parts["press → published"].append((m["published"] - t0) * 1000)
                parts["published → answer arrives"].append((m["arrived"] - m["published"]) * 1000)
                parts["answer arrives → taken in"].append((m["taken"] - m["arrived"]) * 1000)
                parts["taken in → drawn"].append((now - m["taken"]) * 1000)
                parts["gc"].append(sum((b - a) * 1000 for a, b in pauses if a >= t0))
                parts["layouts"].append(app.renderer.layouts - m["layouts"])
                pauses.clear()
                seen_sent = False
                done.set()
            elif fb.kind == "rejected":
                raise RuntimeError(f"the press was rejected: {fb.text}")
        thread.join(5)
        gc.callbacks.remove(on_gc)
        if len(answered) < warmup + presses:
            raise RuntimeError(f"only {len(answered)} of {warmup + presses} presses answered")
        state = copy.deepcopy(app.view.state)
    finally:
        app.close()
        if load is not None:
            load.stop()
    out = {k: v[warmup:] for k, v in parts.items()}
    out["startup"] = [startup[k] for k in STARTUP]
    out["first press"] = [answered[0], local[0]]  # the first after the start (not timed)
    return answered[warmup:], local[warmup:], state, out


# ------------------------------------------------------------------- frame time
def frame_times(state_table: dict[str, Any], state_wall: dict[str, Any],
                samples: int) -> list[tuple[str, str, str, list[float], list[float]]]:
    """(screen, size, frame, wall ms, CPU ms) rows: the CPU time (``time.process_time``,
    this process's own) is what the neighbours of a shared machine disturb least."""
    import pygame

    from kiosk.app import text
    from kiosk.render import Renderer
    from kiosk.view import ScreenView
    from kiosk.warmup import moments

    warms = hasattr(Renderer, "warm")  # not a checkout before the warm-up ("before")

    pygame.display.init()
    pygame.font.init()
    now = time.time()
    rows = []
    for role, state in (("table", state_table), ("wall", state_wall)):
        for size in ((1920, 1080), (800, 480)):
            surface = pygame.Surface(size)
            seats = [s["seat"] for s in state["table/1"]["seats"]]

            def view(i: int, t: float, role: str = role, state: dict = state,
                     seats: list[int] = seats) -> ScreenView:
                v = ScreenView(role=role, table=1 if role == "table" else None,  # type: ignore
                               state=state, now=t, online=True, language="en")
                if role == "table":
                    v.selected_seat = seats[i % len(seats)]
                else:
                    v.wall_page = i
                return v

            r = Renderer(size, "en")
            r.draw(surface, view(0, now))
            layout, cold, tick = [], [], []
            cpu: dict[str, list[float]] = {"layout": [], "cold": [], "tick": []}
            for i in range(1, samples + 1):
                n = r.layouts
                t0, c0 = time.perf_counter(), time.process_time()
                r.draw(surface, view(i, now))
                layout.append((time.perf_counter() - t0) * 1000)
                cpu["layout"].append((time.process_time() - c0) * 1000)
                assert r.layouts == n + 1, "no layout"
            v = view(0, now)
            r.draw(surface, v)
            for i in range(1, samples + 1):
                v.now = now + i  # one second later: the clock's digits
                n = r.layouts
                t0, c0 = time.perf_counter(), time.process_time()
                rects = r.draw(surface, v)
                tick.append((time.perf_counter() - t0) * 1000)
                cpu["tick"].append((time.process_time() - c0) * 1000)
                assert rects and r.layouts == n, "a tick made a layout"
            for i in range(max(5, samples // 10)):
                fresh = Renderer(size, "en")
                t0, c0 = time.perf_counter(), time.process_time()
                fresh.draw(surface, view(i, now))
                cold.append((time.perf_counter() - t0) * 1000)
                cpu["cold"].append((time.process_time() - c0) * 1000)
            label = f"{size[0]}×{size[1]}"
            rows += [(role, label, "layout", layout, cpu["layout"]),
                     (role, label, "layout, cold", cold, cpu["cold"])]
            if role == "table" and warms:
                # as a kiosk after its start: the warm-up (kiosk/warmup.py) laid its
                # made-up tournament out while it connected, then the first state came
                first, warmup = [], []
                cpu["first"], cpu["warmup"] = [], []
                for i in range(max(5, samples // 10)):
                    fresh = Renderer(size, "en")
                    t0, c0 = time.perf_counter(), time.process_time()
                    for v in moments(view(i, now), "en", now, time.monotonic(), text):
                        fresh.warm(v)
                    warmup.append((time.perf_counter() - t0) * 1000)
                    cpu["warmup"].append((time.process_time() - c0) * 1000)
                    fresh.warmed_up()
                    t0, c0 = time.perf_counter(), time.process_time()
                    fresh.draw(surface, view(i, now))
                    first.append((time.perf_counter() - t0) * 1000)
                    cpu["first"].append((time.process_time() - c0) * 1000)
                rows += [(role, label, "layout, first after a start", first, cpu["first"]),
                         (role, label, f"  the warm-up before it ({fresh.warmed} moments)",
                          warmup, cpu["warmup"])]
            rows.append((role, label, "tick (new second)", tick, cpu["tick"]))
    return rows


# ------------------------------------------------------------------- idle kiosk
def idle_kiosk(tour: Tournament, seconds: float, log: Path) -> dict[str, float]:
    """``floorman kiosk`` for table 1 in its own process: CPU and memory while idle."""
    kiosk = KioskProcess(TABLE_KIOSK, 1, tour.broker, log, "--windowed", "800x480").start()
    proc = kiosk.proc
    assert proc is not None
    try:
        # online and drawn: it says so on presence/table-1; then let it settle
        from kiosk.link import Link

        probe = Link(tour.broker, name=f"bench-probe-{uuid.uuid4().hex[:6]}")
        probe.start()
        try:
            wait_for(lambda: (probe.state.get("presence") or {}).get("clients", {})
                     .get("table-1", {}).get("online"), 30, "the kiosk online")
        finally:
            probe.stop()
        time.sleep(3)
        tck = os.sysconf("SC_CLK_TCK")

        def cpu() -> float:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tck  # utime, stime

        c0, t0 = cpu(), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu(), time.monotonic()
        mem = {}
        with open(f"/proc/{proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    mem[key] = int(value.split()[0]) / 1024
        threads = len(os.listdir(f"/proc/{proc.pid}/task"))
        if proc.poll() is not None:
            raise RuntimeError(f"the kiosk exited: {log.read_text(errors='replace')}")
        return {"cpu_pct": (c1 - c0) / (t1 - t0) * 100, "rss_mb": mem["VmRSS"],
                "hwm_mb": mem["VmHWM"], "threads": threads, "seconds": t1 - t0}
    finally:
        kiosk.stop()


# ------------------------------------------------------------------- report
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=300,
                    help="timed presses per tournament (300: a p99 with 3 above it)")
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 10, 50])
    ap.add_argument("--frames", type=int, default=100, help="frames timed per measure")
    ap.add_argument("--idle-seconds", type=float, default=60.0)
    ap.add_argument("--samples", type=Path, metavar="FILE",
                    help="write every sample (ms) as JSON to FILE (bench/table.py reads it)")
    ap.add_argument("--load-clients", nargs=4, metavar=("BROKER", "PREFIX", "FIRST", "STOP"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.load_clients:
        address, prefix, first, stop = args.load_clients
        return load_clients_main(address, prefix, int(first), int(stop))

    started = time.monotonic()
    latency: list[tuple[int, list[float], list[float]]] = []
    split: dict[int, dict[str, list[float]]] = {}
    states: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-") as tmpname:
        tmp = Path(tmpname)  # inside the repo, on a real disk: fsync is not free here
        broker = Mosquitto(tmp / "mosquitto.log", config="max_queued_messages 10000\n")
        try:
            for n in args.tables:
                tour = Tournament(tmp, broker.port, n)
                try:
                    answered, local, states[n], split[n] = press_to_screen(tour, args.presses)
                    latency.append((n, answered, local))
                finally:
                    tour.stop()
            idle = None
            if args.idle_seconds > 0:
                tour = Tournament(tmp, broker.port, min(10, max(args.tables)))
                try:
                    idle = idle_kiosk(tour, args.idle_seconds, tmp / "kiosk.log")
                finally:
                    tour.stop()
        finally:
            broker.close()
    table_state = states.get(10) or states[min(states)]
    wall_state = states[max(states)]
    frames = frame_times(table_state, wall_state, args.frames)

    if args.samples is not None:
        args.samples.write_text(json.dumps({
            "latency": [{"tables": n, "answered": a, "local": loc, "parts": split[n]}
                        for n, a, loc in latency],
            "frames": [{"screen": role, "size": size, "frame": kind, "wall": v, "cpu": c}
                       for role, size, kind, v, c in frames],
            "idle": idle}, indent=1), encoding="utf-8")

    print("press → screen: hand_done on table 1's mock pin → the frame with the controller's "
          "answer")
    rows: list[tuple[str, ...]] = [("tables", "measure", "p50", "p99", "max", "target", "")]
    for n, answered, local in latency:
        aim = f"p99 ≤ {TARGET_P99_MS:.1f} ms" if n >= 50 else ""
        p99 = pct(answered, 99)
        verdict = ("met" if p99 <= TARGET_P99_MS else "MISSED") if aim else ""
        rows.append((str(n), "press → answer on screen", f"{statistics.median(answered):.1f} ms",
                     f"{p99:.1f} ms", f"{max(answered):.1f} ms", aim, verdict))
        rows.append((str(n), "  press → \"sent …\" frame (local)",
                     f"{statistics.median(local):.1f} ms", f"{pct(local, 99):.1f} ms",
                     f"{max(local):.1f} ms", "", ""))
        for part in PARTS:
            v = split[n][part]
            rows.append((str(n), f"  {part}", f"{statistics.median(v):.1f} ms",
                         f"{pct(v, 99):.1f} ms", f"{max(v):.1f} ms", "", ""))
    print_table(rows, (0, 2, 3, 4))
    print("(the parts add up to press → answer on screen; \"taken in → drawn\" holds the "
          "layout of the answer's frame, with the state the press changed; \"layouts\": the "
          "kiosk's layouts after the press was published, the answer's frame the last)")
    for n, answered, _ in latency:
        # the slowest presses, part by part: where the tail is
        order = sorted(range(len(answered)), key=answered.__getitem__)[-3:][::-1]
        sp = split[n]
        print(f"  {n} table(s), the slowest 3: " + "; ".join(
            f"{answered[i]:.1f} = " + " + ".join(f"{sp[p][i]:.1f}" for p in PARTS)
            + f" (gc {sp['gc'][i]:.1f} ms, {sp['layouts'][i]:.0f} layouts)" for i in order))
        st = dict(zip(STARTUP, sp["startup"], strict=True))
        print(f"  {n} table(s), the kiosk's start: the first state drawn after "
              f"{st['first state drawn']:.0f} ms with "
              f"{st['moments warmed before the first state']:.0f} of {st['moments']:.0f} "
              "moments warmed; the warm-up done after "
              f"{st['warm-up done']:.0f} ms; the first press after it (not in the figures "
              f"above): {sp['first press'][0]:.1f} ms to the answer, "
              f"{sp['first press'][1]:.1f} ms to the \"sent\" frame")
        gcs = [g for g in sp["gc"] if g > 0]
        print(f"  {n} table(s): the collector ran in {len(gcs)} of {len(answered)} presses"
              + (f", {max(gcs):.2f} ms at most" if gcs else ""))

    print(f"\nframe time: Renderer.draw ({args.frames} frames a row; table screen: table 1 of "
          f"{10 if 10 in states else min(states)} tables, wall: {max(states)} tables)")
    rows = [("screen", "size", "frame", "p50", "p99", "CPU p50", "CPU p99")]
    for role, size, kind, v, c in frames:
        rows.append((role, size, kind, f"{statistics.median(v):.2f} ms", f"{pct(v, 99):.2f} ms",
                     f"{statistics.median(c):.2f} ms", f"{pct(c, 99):.2f} ms"))
    print_table(rows, (3, 4, 5, 6))

    if idle is not None:
        print(f"\nidle kiosk: floorman kiosk --table 1 --windowed 800x480, its own process, "
              f"{idle['seconds']:.0f} s, clock running, nobody pressing")
        rows = [("measure", "measured", "target", "")]
        rows.append(("CPU (utime + stime) of one core", f"{idle['cpu_pct']:.2f} %",
                     f"≤ {TARGET_CPU_PCT:.0f} %",
                     "met" if idle["cpu_pct"] <= TARGET_CPU_PCT else "MISSED"))
        rows.append(("resident memory (VmRSS)", f"{idle['rss_mb']:.1f} MB",
                     f"≤ {TARGET_RSS_MB:.0f} MB",
                     "met" if idle["rss_mb"] <= TARGET_RSS_MB else "MISSED"))
        rows.append(("  peak (VmHWM)", f"{idle['hwm_mb']:.1f} MB", "", ""))
        rows.append(("  threads", f"{idle['threads']:.0f}", "", ""))
        print_table(rows, (1,))
    print(f"\nwhole run {time.monotonic() - started:.0f} s; {args.presses} presses per "
          f"tournament (9 players a table), the other tables: kiosk Links in their own "
          f"processes (bare MQTT sockets above {LINKS_AT_MOST}); Mosquitto and the "
          f"controller on loopback, CPU: {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
