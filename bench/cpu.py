"""CPU time per operation of the controller service, in-process (issue 15).

The real service (engine, SQLite log on disk, views, the publish) with a broker
that only counts what it is given: no network, no broker, no other process. For
tournaments of 10, 100 and 1,000 tables (10 players a table) it presses busts
at table after table and prints, per bust, the CPU time of this process
(``time.process_time``: the fsync wait of the durable write is not in it, the
write's own work is), the wall time beside it
(fsync included, so it tells the disk more than the code) and the messages
published; then the CPU time of one tick (the clock's look every half second) and
of the table's undo that takes each bust back (from the state the controller kept).
Each size is measured twice: at the start, and late in the night with ``--out`` of
the field busted for real (not undone): what grows with the players out (the
results, the history) shows there.

``--cold`` writes over 64 MB before each bust, so that the press finds the caches as
the controller finds them at a festival: between two presses there the broker's fan-out
to 1,000 sockets and the table clients run on the same cores, and at 1,000 tables a bust
takes about 1.7 times the CPU of the warm loop (docs/performance.md, "No walk over every
table in a press").

    python bench/cpu.py [--tables 10 100 1000] [--busts 60] [--out 0.5] [--cold]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config import load_tournament  # noqa: E402
from controller.log.floor import Floor  # noqa: E402
from controller.service import core as service  # noqa: E402
from controller.service import heap  # noqa: E402
from controller.service.core import ControllerService  # noqa: E402
from controller.wire import protocol  # noqa: E402
from controller.wire.mqtt import Broker  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402


class CountingBroker:
    def __init__(self) -> None:
        self.sent = 0

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.sent += 1


class Service(ControllerService):
    """The service on a log in ``folder``, its answers kept, its clock a counter."""

    def __init__(self, config: Path, db: Path) -> None:
        self.clock = [1_760_036_400.0]
        settings = load_tournament(config)
        super().__init__(settings, str(db), Broker(prefix="bench/cpu"),
                         wall=lambda: self.clock[0])
        self.floor = Floor.open(settings, db, seed=3, now=self.clock[0])
        self.counting = CountingBroker()
        self.mqtt = self.counting  # type: ignore[assignment]
        self.answers: list[dict[str, Any]] = []
        self.k = 0

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        self.answers.append(answer)

    def send(self, topic: str, **data: Any) -> dict[str, Any]:
        self.k += 1
        self.clock[0] += 1
        self.handle(topic, protocol.dumps({"v": 1, "id": f"c{self.k}", "reply_to": "b",
                                           **data}))
        return self.answers[-1]


def bust_out(svc: Service, players: int) -> None:
    """Bust ``players`` for real at the fullest tables, a hand done after each there and at
    every table a moved player is on the way to (its dealer deals on: the move is done)."""
    t = svc.tournament
    for _ in range(players):
        tab = max(t.tables.values(), key=lambda x: (len(x.occupant), x.number))
        seat = max(tab.occupant)
        answer = svc.send(svc.topics.table_cmd(tab.number), action="bust", seat=seat,
                          confirm=True)
        assert answer["ok"], answer
        t = svc.tournament  # an undo or a rollback makes a new one
        for n in [tab.number, *sorted({m.to_table for m in t.pending.values()})]:
            if n in t.tables:
                answer = svc.send(svc.topics.table_cmd(n), action="hand_done")
                assert answer["ok"] or "waits for" in answer["reason"], answer
            t = svc.tournament


#: what ``--cold`` writes over before each bust (more than this machine's caches)
COLD_BYTES = 64 << 20


def evict(junk: bytearray, k: int) -> None:
    """Write one byte of every 64-byte line of ``junk``: the caches hold it, not the
    controller's state and code."""
    junk[::64] = bytes([k & 0xFF]) * len(range(0, len(junk), 64))


def measure(tmp: Path, tables: int, busts: int, out: float = 0.0,
            cold: bool = False) -> dict[str, Any]:
    config = tmp / f"cpu-{tables}-{out}.yaml"
    config.write_text('name: "CPU"\npreset: psc-five-spades\nplayers_per_table: 10\n'
                      "table_seats: 10\n", encoding="utf-8")
    svc = Service(config, tmp / f"cpu-{tables}-{out}.sqlite")
    names = [f"Player {i:05d}" for i in range(1, tables * 10 + 1)]
    for i in range(0, len(names), 200):
        assert svc.send(svc.topics.director, cmd="register", args={"names": names[i:i + 200]})["ok"]
    assert svc.send(svc.topics.director, cmd="draw", args={"seed": 1})["ok"]
    assert svc.send(svc.topics.director, cmd="start", args={})["ok"]
    svc.publish_state()
    bust_out(svc, round(out * len(names)))
    heap.settle()  # as the controller's start does (controller/service/heap.py)
    time.sleep(service.QUIET)  # a quiet second, then the tick keeps a copy of the state
    svc.tick()  # (service.KEEP_EVERY): the undos below start from it, as in the controller
    cpu, wall, sent, undo = [], [], [], []
    playing = sorted(svc.tournament.tables)
    junk = bytearray(COLD_BYTES if cold else 0)
    for k in range(busts):
        n = playing[k % len(playing)]
        seat = min(svc.tournament.tables[n].occupant)
        if cold:
            evict(junk, k)
        c0, w0, s0 = time.process_time(), time.perf_counter(), svc.counting.sent
        answer = svc.send(svc.topics.table_cmd(n), action="bust", seat=seat)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        sent.append(svc.counting.sent - s0)
        assert answer["ok"], answer
        c0 = time.process_time()
        assert svc.send(svc.topics.table_cmd(n), action="undo")["ok"]
        undo.append((time.process_time() - c0) * 1000)
    c0 = time.process_time()
    for _ in range(20):
        svc.clock[0] += 0.5
        svc.tick()
    tick = (time.process_time() - c0) / 20 * 1000
    assert svc.floor is not None
    svc.floor.close()
    return {"tables": tables, "cpu": cpu, "wall": wall, "sent": sent, "tick": tick, "undo": undo,
            "out": round(out * len(names)), "in_play": len(playing)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--busts", type=int, default=60)
    ap.add_argument("--out", type=float, default=0.5,
                    help="the share of the field busted for the second row of each size")
    ap.add_argument("--cold", action="store_true",
                    help="write over 64 MB before each bust (the caches as at a festival)")
    args = ap.parse_args()
    rows: list[tuple[str, ...]] = [("tables", "players out", "bust CPU p50", "bust CPU p99",
                                    "bust wall p50", "bust wall p99", "messages a bust",
                                    "tick CPU", "undo CPU p50", "undo CPU p99")]
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-") as tmpname:
        for tables in args.tables:
            for out in (0.0, args.out) if args.out else (0.0,):
                r = measure(Path(tmpname), tables, args.busts, out, args.cold)
                rows.append((str(r["in_play"]), f"{r['out']:,}",
                             f"{statistics.median(r['cpu']):.2f} ms",
                             f"{pct(r['cpu'], 99):.2f} ms",
                             f"{statistics.median(r['wall']):.2f} ms",
                             f"{pct(r['wall'], 99):.2f} ms", f"{statistics.median(r['sent']):.0f}",
                             f"{r['tick']:.2f} ms", f"{statistics.median(r['undo']):.1f} ms",
                             f"{pct(r['undo'], 99):.1f} ms"))
    print_table(rows, right=range(10))
    print(f"\n{args.busts} busts a tournament, each undone again by the table's undo (a replay "
          "from the state the controller kept last, service.KEEP_EVERY), at the start "
          f"and with {args.out:.0%} of the field out for real (tables: those in play then); "
          "CPU: this process's time (the fsync wait of the durable write not in it); wall: "
          "with it" + ("; before each bust 64 MB written over (--cold)" if args.cold else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
