"""Command-line benchmark: a director verb from the shell to its answer printed.

Starts its own Mosquitto on a free loopback port and the controller as a subprocess (the
test harness's, tests/support), with the sample tournament, and then runs each command
below ``--runs`` times as a director types it — ``.venv/bin/floorman VERB …`` (the console
script), a new process each time — and takes the wall time from the start of the process
to its exit:

- ``python -c pass``: the interpreter alone (with ``site``, as every command has it): the
  floor no command gets under;
- ``floorman --help``, ``floorman status --help``: the parser alone, no broker;
- ``floorman status``: connect, one read-only query, its answer printed;
- ``floorman register NAME``: connect, one durable command (the controller writes the
  event log with ``fsync``), its answer printed; a new name each run;
- in-process, ``controller.director.send(broker, "status")``: the broker round trip of one
  command on a connection of its own (connect, subscribe, send, answer, disconnect),
  without the interpreter and the imports.

Target: ≤ 0.3 s for the whole command (issue 32.3). The machine's other load shows in the
wall time: the table gives the median and the 90th percentile, and the runs alternate the
commands so that a busy moment does not fall on one of them only; the command's own CPU
time (user + system, ``RUSAGE_CHILDREN``) is much less disturbed by the neighbours.

    python bench/cli.py [--runs 15] [--as-module]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.director import send  # noqa: E402
from controller.wire.mqtt import Broker  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.controller import ControllerProcess, wait_up  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402
from tests.support.paths import SAMPLE_TOURNAMENT  # noqa: E402

TARGET_S = 0.3


def floorman_program(as_module: bool = False) -> list[str]:
    """The console script beside this interpreter (as installed), else (or with
    ``as_module``: this checkout's code, whatever the environment installed) ``python -m
    controller`` run in the checkout."""
    script = Path(sys.executable).parent / "floorman"
    if script.exists() and not as_module:
        return [str(script)]
    return [sys.executable, "-m", "controller"]


def timed(argv: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """The wall time of the command; its CPU time (user + system) appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {r.returncode}: {r.stderr.strip()}")
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command")
    ap.add_argument("--as-module", action="store_true", help="python -m controller in this "
                    "checkout instead of the installed floorman script (to time another "
                    "checkout's code with this environment)")
    ap.add_argument("--samples", type=Path, metavar="FILE",
                    help="write every sample (s) as JSON to FILE (bench/table.py reads it)")
    args = ap.parse_args()
    started = time.monotonic()
    program = floorman_program(args.as_module)
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-") as tmpname:
        tmp = Path(tmpname)  # inside the repo, on a real disk: fsync is not free here
        mosquitto = Mosquitto(tmp / "mosquitto.log")
        broker = Broker(host="127.0.0.1", port=mosquitto.port,
                        prefix=f"bench/{uuid.uuid4().hex[:8]}")
        controller = ControllerProcess(SAMPLE_TOURNAMENT, tmp / "cli.sqlite",
                                       tmp / "controller.log", broker=str(broker),
                                       prefix=broker.prefix).start()
        try:
            wait_up(broker, every=0.5)
            env = {k: v for k, v in os.environ.items() if not k.startswith("FLOORMAN_")}
            env |= {"FLOORMAN_BROKER": str(broker), "FLOORMAN_PREFIX": broker.prefix,
                    "FLOORMAN_CREDENTIALS": str(tmp / "none.env")}  # no director.env here
            (tmp / "none.env").write_text("", encoding="utf-8")
            (tmp / "none.env").chmod(0o600)
            measures: dict[str, list[float]] = {}
            cpu: dict[str, list[float]] = {}
            commands = {
                "python -c pass (the interpreter)": [sys.executable, "-c", "pass"],
                "floorman --help": [*program, "--help"],
                "floorman status --help": [*program, "status", "--help"],
                "floorman status": [*program, "status"],
                "floorman register NAME": [*program, "register"],
            }
            for label, argv in commands.items():  # once each: the disk cache warm
                timed(argv + (["Warm Up"] if label.endswith("NAME") else []), env)
            for run in range(args.runs):
                for label, argv in commands.items():
                    extra = [f"Bench Player {run:03d}"] if label.endswith("NAME") else []
                    measures.setdefault(label, []).append(
                        timed(argv + extra, env, cpu.setdefault(label, [])))
                t0 = time.perf_counter()
                send(broker, "status", timeout=10)
                measures.setdefault("in-process send(status): the round trip only",
                                    []).append(time.perf_counter() - t0)
        finally:
            controller.stop()
            mosquitto.close()

    if args.samples is not None:
        args.samples.write_text(json.dumps({"wall": measures, "cpu": cpu}, indent=1),
                                encoding="utf-8")
    print(f"a director's command from the shell to its answer ({args.runs} runs each, "
          f"wall time; {' '.join(Path(p).name for p in program)})")
    rows: list[tuple[str, ...]] = [("command", "median", "p90", "min", "CPU, median",
                                    "target", "")]
    for label, v in measures.items():
        whole = label.startswith("floorman status") and "help" not in label or \
            label.startswith("floorman register")
        aim = f"≤ {TARGET_S:.1f} s" if whole else ""
        verdict = ("met" if statistics.median(v) <= TARGET_S else "MISSED") if whole else ""
        rows.append((label, f"{statistics.median(v) * 1000:.0f} ms",
                     f"{pct(v, 90) * 1000:.0f} ms", f"{min(v) * 1000:.0f} ms",
                     f"{statistics.median(cpu[label]) * 1000:.0f} ms" if label in cpu else "",
                     aim, verdict))
    print_table(rows, (1, 2, 3, 4))
    load = os.getloadavg()
    print(f"\nwhole run {time.monotonic() - started:.0f} s; load average {load[0]:.1f} "
          f"{load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
