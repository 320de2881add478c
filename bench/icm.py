"""ICM for a deal at the final table (issue 30: "below 100 ms for 10 players").

Times :func:`controller.engine.rules.deals.deal` (Malmuth-Harville over every subset of
the players, 50 digits) for 2-12 players with random stacks, and prints a table:
players, the median and the worst time of ``--runs`` runs.

    python bench/icm.py [--runs 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.engine.rules.deals import deal  # noqa: E402

GOAL_MS = 100.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    rng = random.Random(30)
    print(f"{'players':>7}  {'median ms':>9}  {'worst ms':>8}  goal")
    for n in (2, 4, 6, 8, 9, 10, 11, 12):
        times = []
        for _ in range(args.runs):
            stacks = [rng.randint(1_000, 500_000) for _ in range(n)]
            amounts = sorted((rng.randint(10_000, 1_000_000) for _ in range(n)), reverse=True)
            start = time.perf_counter()
            deal(stacks, amounts, "icm", 10)
            times.append((time.perf_counter() - start) * 1000)
        worst = max(times)
        goal = ("ok" if worst < GOAL_MS else "SLOW") if n <= 10 else "-"
        print(f"{n:>7}  {statistics.median(times):>9.1f}  {worst:>8.1f}  {goal}")
    proposal(args.runs)
    return 0


def proposal(runs: int) -> None:
    """The console's question (the ``deal_proposal`` query, issue 30): ICM and chip chop
    side by side for a final table of 10 with 10 % played for, the checks included (a
    tournament for money of 20 players, 10 out, every stack counted)."""
    from controller.engine.rules.final_deal import proposal as propose
    from controller.engine.settings import Money
    from tests.support.settings import new_tournament

    t = new_tournament(20, money=Money(buy_in=10_000, fee=1_000, places=10), table_seats=10,
                       players_per_table=10, final_table_size=10)
    for pid in range(11, 21):
        t.execute({"cmd": "bust", "player": pid}, 10.0)
    stacks = [40_000, 30_000, 25_000, 20_000, 20_000, 18_000, 15_000, 12_000, 11_000, 9_000]
    t.execute({"cmd": "chip_counts", "counts": [{"player": pid, "chips": c} for pid, c
                                                 in zip(range(1, 11), stacks, strict=True)]},
              20.0)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        propose(t)
        times.append((time.perf_counter() - start) * 1000)
    worst = max(times)
    print(f"\nthe deal_proposal query, 10 players left: median "
          f"{statistics.median(times):.1f} ms, worst {worst:.1f} ms "
          f"({'ok' if worst < GOAL_MS else 'SLOW'})")


if __name__ == "__main__":
    raise SystemExit(main())
