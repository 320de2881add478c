"""The start's check of the whole log (issue 27.1), at 50,000 and 500,000 events.

A controller that starts from its snapshot checks every event before it serves: SQLite's
page check (``quick_check``), then the seal of the events the snapshot covers (a SHA-256
over their stored bodies, compared with the one the controller kept when it took the
snapshot: no JSON parsed, nothing replayed). For comparison, the chain walk that
``floorman verify`` and a replay do (every body parsed, its canonical JSON hashed).

The logs: a simulated night (``--players``, the sample tournament with 10 a table),
its events repeated with new numbers and a new chain up to each size (a hash walk does
not read what an event means, only its bytes; the night's own events give the sizes).
``--open``: also a real night of 5,000 players (~50,000 events, about a minute to
simulate) opened by ``Floor.open`` from the snapshot its clean stop took.

    python bench/verify.py [--sizes 50000 500000] [--players 500] [--repeat 3] [--open]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# the checkout first: this script is run as a file, not as a module of a package
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config import load_tournament  # noqa: E402
from controller.engine import chain  # noqa: E402
from controller.engine.settings import TournamentSettings  # noqa: E402
from controller.log.floor import Floor  # noqa: E402
from controller.log.store import EventStore  # noqa: E402
from controller.simulate import simulate  # noqa: E402


def settings() -> TournamentSettings:
    base = load_tournament(ROOT / "config/tournaments/sample.yaml")
    return dataclasses.replace(base, players_per_table=10, table_seats=max(base.table_seats, 10),
                               final_table_size=min(base.final_table_size, 10))


def log_of(path: Path, night: list[dict], size: int) -> None:
    """``size`` events: the night's again and again, numbered and chained anew; sealed as a
    snapshot of every event seals them."""
    events: list[dict] = []
    value = chain.GENESIS
    while len(events) < size:
        for e in night:
            if len(events) == size:
                break
            copy = {k: v for k, v in e.items() if k != "hash"}
            copy["seq"] = len(events) + 1
            value = chain.link(value, copy)
            copy["hash"] = value
            events.append(copy)
    with EventStore.create(path, events) as store:
        store.save_snapshot(size, value, "bench", b"")  # the seal of all of them


def best(f: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median and fastest of ``repeat`` runs, and the median CPU time of this process
    (what a loaded machine does not stretch), in seconds."""
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), min(times), statistics.median(cpu)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[50_000, 500_000])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--open", action="store_true")
    args = ap.parse_args()
    s = settings()
    night = simulate(s, args.players, 1).events
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            path = Path(tmp) / f"log-{size}.sqlite"
            log_of(path, night, size)
            mb = os.path.getsize(path) / 1e6
            with EventStore(path, readonly=True) as store:
                pages = best(store.check_pages, args.repeat)
                seal = best(lambda st=store, n=size: st.check_seal(n), args.repeat)  # type: ignore[misc]
                assert store.check_seal(size) is None
                walk = best(lambda st=store: chain.check(st.events()), 1)  # type: ignore[misc]
            rows.append((size, mb, pages, seal, walk))
            path.unlink()
        opened = None
        if args.open:
            path = Path(tmp) / "night.sqlite"
            sim = simulate(s, 5000, 1, store=str(path))
            with EventStore(path) as store:  # the clean stop's snapshot
                from controller.log import snapshot
                snapshot.take(store, sim.tournament)
            count = len(sim.tournament.log)

            def open_close() -> None:
                f = Floor.open(s, path)
                assert f.snapshot_at == count
                f.close()

            def seal_only() -> None:
                with EventStore(path) as store:
                    assert store.check_seal(count) is None
            opened = (count, best(open_close, args.repeat), best(seal_only, args.repeat))

    print(f"the start's check of the whole log: wall median / fastest of {args.repeat} "
          f"(CPU median); the chain walk once\n")
    print("| events | log | page check | seal check | start's check, total "
          "| chain walk (verify, replay) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for size, mb, pages, seal, walk in rows:
        total = pages[0] + seal[0]
        print(f"| {size:,} | {mb:.0f} MB | {pages[0]:.3f} / {pages[1]:.3f} s ({pages[2]:.3f}) "
              f"| {seal[0]:.3f} / {seal[1]:.3f} s ({seal[2]:.3f}) | {total:.3f} s "
              f"({pages[2] + seal[2]:.3f}) | {walk[0]:.2f} s ({walk[2]:.2f}) |")
    if opened is not None:
        count, whole, seal = opened
        print(f"\na real night of {count:,} events, Floor.open from its clean stop's "
              f"snapshot: {whole[0]:.3f} s (fastest {whole[1]:.3f}, CPU {whole[2]:.3f}), of "
              f"which the seal check {seal[0]:.3f} s (CPU {seal[2]:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
