"""Engine benchmark: a tournament of 5,000 players on 500 tables (``--players 10000``:
a festival's 1,000 tables) simulated to the end.

Prints a table: total time, per-bust time p50/p99 (decision plus durable
write to the SQLite log), the CPU time of the same (the process's own time:
what is left when the disk's fsync wait is taken out), the time to replay the
resulting log and to start from its snapshot. Targets on the development
machine: per-bust p99 ≤ 2 ms (issue 15, 10,000 players), replay of 50,000
events ≤ 2 s.

    python bench/engine.py [--players 10000] [--per-table 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

# the checkout first: this script is run as a file, not as a module of a package
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config import load_tournament  # noqa: E402
from controller.engine.tournament import Tournament  # noqa: E402
from controller.log import snapshot  # noqa: E402
from controller.log.store import EventStore  # noqa: E402
from controller.simulate import simulate  # noqa: E402
from tests.support.figures import pct  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5000)
    ap.add_argument("--per-table", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", default=str(ROOT / "config/tournaments/sample.yaml"))
    args = ap.parse_args()

    base = load_tournament(args.config)
    settings = dataclasses.replace(base, players_per_table=args.per_table,
                                   table_seats=max(base.table_seats, args.per_table),
                                   final_table_size=min(base.final_table_size, args.per_table))
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        db = str(Path(tmp) / "bench.sqlite")
        cpu: list[float] = []

        def timer() -> float:
            """Wall time for the simulator; the CPU time beside it, start and end."""
            cpu.append(time.process_time())
            return time.perf_counter()

        t0 = time.perf_counter()
        sim = simulate(settings, args.players, args.seed, store=db, timer=timer)
        total = time.perf_counter() - t0
        with EventStore(db) as store:
            t1 = time.perf_counter()
            events = store.events()
            t2 = time.perf_counter()
            replayed = Tournament.replay(events, settings)
            t3 = time.perf_counter()
            snapshot.take(store, replayed)
            t4 = time.perf_counter()
            restored = snapshot.restore(store, settings)
            t5 = time.perf_counter()
        same = replayed.fingerprint() == sim.tournament.fingerprint()
        same = same and restored is not None and restored.fingerprint() == replayed.fingerprint()
    busts = [s * 1000 for s in sim.bust_seconds]
    cpu_busts = [(b - a) * 1000 for a, b in zip(cpu[::2], cpu[1::2], strict=True)]
    tables = -(-args.players // args.per_table)
    rows = [
        ("players / tables", f"{args.players} / {tables}", ""),
        ("hands played", f"{sim.hands}", ""),
        ("events in the log", f"{len(events)}", ""),
        ("total simulated run", f"{total:.2f} s", ""),
        ("bust p50 (decide + durable write)", f"{statistics.median(busts):.3f} ms", ""),
        ("bust p99 (decide + durable write)", f"{pct(busts, 99):.3f} ms", "target ≤ 2 ms"),
        ("bust max", f"{max(busts):.3f} ms", ""),
        ("bust CPU p50 (the process's own time)", f"{statistics.median(cpu_busts):.3f} ms", ""),
        ("bust CPU p99", f"{pct(cpu_busts, 99):.3f} ms", "fsync wait taken out"),
        ("read log from SQLite", f"{t2 - t1:.3f} s", ""),
        ("replay the log", f"{t3 - t2:.3f} s", "target ≤ 2 s for 50,000 events"),
        ("replay per 50,000 events", f"{(t3 - t2) / len(events) * 50_000:.3f} s", ""),
        ("take a snapshot", f"{t4 - t3:.3f} s", ""),
        ("start from the snapshot (read + check)", f"{t5 - t4:.3f} s", "target ≤ 1 s"),
        ("replayed state == snapshot == live state", "yes" if same else "NO", ""),
    ]
    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    print(f"{'measure':<{w}}  {'value':>{v}}  note")
    print(f"{'-' * w}  {'-' * v}  ----")
    for name, value, note in rows:
        print(f"{name:<{w}}  {value:>{v}}  {note}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
