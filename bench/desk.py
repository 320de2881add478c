"""The registration desk (issue 31) at a festival's size: what a registration costs
with a seat limit and a waiting list, a seat that comes free (the first in line is
called), and a member's guaranteed seat (000 2.3), whose choice of who gives the seat
reads the log. The engine alone, one registration a command, as the desk sends them.

    python bench/desk.py [--players 5000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.engine.settings import Desk  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402
from tests.support.settings import new_tournament  # noqa: E402

START = "2026-11-27T19:30+01:00"
START_AT = 1_795_804_200.0


def timed(t, cmd: dict, now: float) -> float:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    t.execute(cmd, now)
    return (time.perf_counter() - began) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=5000)
    n = ap.parse_args().players
    seats = n * 9 // 10
    rows = [["what", "commands", "median ms", "p99 ms", "max ms"]]

    def row(what: str, ms: list[float]) -> None:
        rows.append([what, str(len(ms)), f"{pct(ms, 50):.2f}", f"{pct(ms, 99):.2f}",
                     f"{max(ms):.2f}"])

    free = new_tournament(0, draw=False, start=False)
    row("register, no limit", [timed(free, {"cmd": "register", "names": f"P{i}"}, 1.0)
                               for i in range(n)])
    t = new_tournament(0, draw=False, start=False,
                       desk=Desk(seats=seats, starts=START, members_guaranteed_days=7))
    ms = [timed(t, {"cmd": "register", "names": f"P{i}", "member": False}, START_AT - 30 * 86400)
          for i in range(n)]
    row(f"register, limit {seats}", ms[:seats])
    row("register, to the waiting list", ms[seats:])
    row("unregister, first in line called",
        [timed(t, {"cmd": "unregister", "player": f"P{i}"}, START_AT - 20 * 86400)
         for i in range(100)])
    row("member a week ahead, a guest bumped",
        [timed(t, {"cmd": "register", "names": f"M{i}"}, START_AT - 10 * 86400)
         for i in range(100)])
    print(f"{n} players, {seats} seats, {len(t.desk.waiting)} waiting at the end")
    print_table(rows, right=(1, 2, 3, 4))


if __name__ == "__main__":
    main()
