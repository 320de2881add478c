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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
