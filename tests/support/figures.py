"""Figures of the benchmarks and measuring tests: percentiles and a plain-text table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def pct(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def print_table(rows: Sequence[Sequence[str]], right: Iterable[int] = ()) -> None:
    """``rows[0]`` is the header, underlined; the columns in ``right`` are right-aligned."""
    right = set(right)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("  ".join(c.rjust(w) if j in right else c.ljust(w)
                        for j, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
