"""How many table screens the room's broker of ``floorman night`` serves: Mosquitto and the
embedded amqtt (a computer without Mosquitto), issue 29.

For each broker and each number of tables N, as ``floorman night`` runs them:

- the room's broker (:class:`~controller.broker.room.RoomBroker`: accounts and ACL made in
  a fresh folder, every client logs in with its own account), the controller service and
  the console's connection (a watching :class:`~controller.director.Director` under the
  ``console`` account: every ``state/…`` topic), all in this process, as in the night;
- a tournament of N tables (9 players a table, drawn, the clock running);
- N table screens' links (the kiosk's :class:`~kiosk.link.Link`, each with its own
  ``table-K`` account) and one wall's, in a process of their own (on the floor every
  screen is its own computer), all started at once;
- the first ``status`` after the screens joined at once (it waits for what their joining
  left the broker to do: their presence, their clock requests, the controller's answers);
- then the director sends ``--rounds`` rounds of: ``status``, a bust (the lowest seat of a
  table, a different table each round) and its ``undo`` through the console's connection,
  and ``status`` on a connection of its own (as ``floorman status`` at the terminal does,
  ``director`` account: connect, subscribe, ask); the round trip of each,
  p50 and p99 (no answer within 30 s counts as lost);
- the CPU time of the night per round (this process: the controller, the console's
  connection and amqtt, which ``floorman night`` runs in one process; plus Mosquitto's
  process): less disturbed by the other jobs on the machine than the round trips;
- at the end (after a last change every screen gets: the clock paused), how many table
  screens show their table's view, the clock and the summary as the console sees them
  (the screens that got their view at all after joining, and that are current after the
  commands).

    .venv/bin/python bench/room_broker.py [--tables 1 5 10 20 40 80 120] [--rounds 30]
                                          [--brokers mosquitto amqtt]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.broker import accounts  # noqa: E402
from controller.wire.mqtt import Broker  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402

PER_TABLE = 9
#: a command with no answer in this time is lost (what the first try in the docs saw)
ANSWER = 30.0
#: the longest wait for the screens to join, and for their views to come right
JOIN = 60.0


def seen(state: dict[str, Any], table: int) -> str | None:
    """What a screen shows of table ``table``: its view, the clock and the summary (a digest;
    None before its table's view came)."""
    if f"table/{table}" not in state:
        return None
    shown = [state.get(name) for name in (f"table/{table}", "clock", "summary")]
    return hashlib.sha1(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:12]


# ------------------------------------------------------------------ the screens' process
def account(folder: Path, name: str, port: int) -> Broker:
    env = accounts.read_env(folder / accounts.CREDENTIALS / f"{name}.env")
    return Broker("127.0.0.1", port, env["FLOORMAN_USERNAME"], env["FLOORMAN_PASSWORD"],
                  prefix=env["FLOORMAN_PREFIX"])


def screens_main(folder: str, port: int, tables: int) -> int:
    """N table links and a wall's; on each ``report`` line of stdin, one JSON line: per
    table its connection and the digest of its view; ends when stdin closes."""
    from kiosk.link import Link, stop_links

    links = [Link(account(Path(folder), f"table-{n}", port), table=n)
             for n in range(1, tables + 1)]
    links.append(Link(account(Path(folder), "wall", port)))
    for link in links:
        link.start()
    print("started", flush=True)
    for line in sys.stdin:
        if line.strip() == "report":
            out = {str(link.table): [link.connected.is_set(), seen(link.state, link.table)]
                   for link in links if link.table}
            print(json.dumps(out), flush=True)
    stop_links(links)
    return 0


class Screens:
    def __init__(self, folder: Path, port: int, tables: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--screens", str(folder), str(port), str(tables)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "started":
            raise RuntimeError("the screens' process did not start")

    def report(self) -> dict[int, tuple[bool, str | None]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("report\n")
        self.proc.stdin.flush()
        return {int(k): (v[0], v[1]) for k, v in json.loads(self.proc.stdout.readline()).items()}

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


# ------------------------------------------------------------------------- one room
def cpu(rb: Any) -> float:
    """CPU seconds of the night so far: this process (the controller, the console's
    connection and amqtt, as in ``floorman night``) and Mosquitto's process."""
    total = time.process_time()
    if rb.mosquitto is not None and rb.mosquitto.proc is not None:
        fields = Path(f"/proc/{rb.mosquitto.proc.pid}/stat").read_text().rpartition(")")[2]
        utime, stime = fields.split()[11:13]
        total += (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")
    return total


def room(kind: str, tables: int, rounds: int, tmp: Path) -> dict[str, Any]:
    from controller.broker.room import RoomBroker
    from controller.config import load_tournament
    from controller.director import BrokerUnreachable, Director, NoAnswer, send
    from controller.service.core import ControllerService

    config = tmp / "tournament.yaml"
    config.write_text(f'name: "Room broker benchmark, {tables} tables"\n'
                      "preset: psc-five-spades\nlanguage: en\n"
                      f"players_per_table: {PER_TABLE}\nghosts: {{enabled: false}}\n",
                      encoding="utf-8")
    settings = load_tournament(config)
    rb = RoomBroker(tmp / "broker", tables=tables, walls=1, prefix=settings.broker.prefix,
                    port=0, prefer=kind)
    out: dict[str, Any] = {"broker": rb.kind, "tables": tables, "lost": 0,
                           "status": [], "bust": [], "undo": [], "cli": []}
    svc = ControllerService(settings, str(tmp / "night.sqlite"), rb.client("controller"),
                            client_id="controller")
    # the console's connection: it watches every state topic and sends the director's
    # commands; ``floorman status`` at the terminal logs in as "director"
    console = director = Director(rb.client("console"), watch=True)
    screens = None
    try:
        svc.start()
        threading.Thread(target=svc.run, name="controller", daemon=True).start()
        console.connect(30)
        director.send("status", timeout=ANSWER)
        names = [f"Player {i:03d}" for i in range(1, tables * PER_TABLE + 1)]
        for i in range(0, len(names), 200):
            director.send("register", {"names": names[i:i + 200]}, timeout=ANSWER)
        director.send("draw", {"seed": 1}, timeout=ANSWER)
        director.send("start", timeout=ANSWER)

        def views() -> dict[int, str | None]:
            return {n: seen(console.state, n) for n in range(1, tables + 1)}

        def agree(got: dict[int, tuple[bool, str | None]]) -> int:
            want = views()
            return sum(1 for n, (_, d) in got.items() if d is not None and d == want[n])

        t0 = time.monotonic()
        screens = Screens(tmp / "broker", rb.port, tables)
        got = screens.report()
        while agree(got) < tables and time.monotonic() - t0 < JOIN:
            time.sleep(0.2)
            got = screens.report()
        out["joined"] = agree(got)
        out["join_s"] = time.monotonic() - t0
        out["connected"] = sum(1 for c, _ in got.values() if c)

        def timed(what: str, cmd: str, args: dict[str, Any] | None = None) -> None:
            t = time.perf_counter()
            try:
                answer = director.send(cmd, args, timeout=ANSWER)
            except NoAnswer:
                out["lost"] += 1
                return
            out[what].append((time.perf_counter() - t) * 1000)
            if not answer.get("ok"):
                raise RuntimeError(f"{cmd} {args}: {answer.get('reason')}")

        def one_shot() -> None:
            t = time.perf_counter()
            try:
                send(rb.client("director"), "status", timeout=ANSWER)
            except (NoAnswer, BrokerUnreachable):
                out["lost"] += 1
                return
            out["cli"].append((time.perf_counter() - t) * 1000)

        # the first command after the screens joined at once waits for what their joining
        # left the broker to do (their presence, their clock requests): on its own
        t = time.perf_counter()
        director.send("status", timeout=ANSWER)
        out["first_ms"] = (time.perf_counter() - t) * 1000
        cpu0 = cpu(rb)
        for k in range(rounds):
            if out["lost"] >= 3:
                break
            timed("status", "status")
            one_shot()
            n = k % tables + 1
            seats = [s["seat"] for s in console.state.get(f"table/{n}", {}).get("seats", [])
                     if not s.get("incoming")]
            if seats:
                timed("bust", "bust", {"table": n, "seat": min(seats)})
                timed("undo", "undo")
        out["cpu_ms"] = (cpu(rb) - cpu0) * 1000 / max(1, rounds)
        # a last change every screen must get (the clock stops): a screen the broker no
        # longer serves keeps the clock of before
        director.send("pause", timeout=ANSWER)
        t1 = time.monotonic()
        got = screens.report()
        while agree(got) < tables and time.monotonic() - t1 < JOIN:
            time.sleep(0.2)
            got = screens.report()
        out["current"] = agree(got)
    finally:
        if screens is not None:
            screens.stop()
        console.close()
        svc.stop()
        rb.stop()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 5, 10, 20, 40, 80, 120])
    ap.add_argument("--rounds", type=int, default=30, help="status, bust, undo each")
    ap.add_argument("--brokers", nargs="+", default=["mosquitto", "amqtt"])
    ap.add_argument("--screens", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.screens:
        folder, port, tables = args.screens
        return screens_main(folder, int(port), int(tables))
    logging.basicConfig(level=logging.WARNING)
    rows: list[tuple[str, ...]] = [
        ("broker", "tables", "screens joined", "join (s)", "first status ms",
         "status p50/p99 ms",
         "bust p50/p99 ms", "undo p50/p99 ms", "floorman status p50/p99 ms", "lost",
         "views current", "CPU ms a round")]

    def cell(v: list[float]) -> str:
        return f"{pct(v, 50):.0f} / {pct(v, 99):.0f}" if v else "-"

    started = time.monotonic()
    for kind in args.brokers:
        for n in args.tables:
            with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-") as tmp:
                r = room(kind, n, args.rounds, Path(tmp))
            rows.append((r["broker"], str(n), f"{r['joined']}/{n}", f"{r['join_s']:.1f}",
                         f"{r['first_ms']:.0f}",
                         cell(r["status"]), cell(r["bust"]), cell(r["undo"]), cell(r["cli"]),
                         str(r["lost"]),
                         f"{r['current']}/{n}", f"{r['cpu_ms']:.0f}"))
            print(" | ".join(rows[-1]), flush=True)
            if os.environ.get("BENCH_RAW"):
                print({k: [round(x) for x in r[k]] for k in ("status", "bust", "undo", "cli")})
    print()
    print_table(rows, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
    load = os.getloadavg()[0]
    print(f"\n{args.rounds} rounds a room; whole run {time.monotonic() - started:.0f} s; "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
