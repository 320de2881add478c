"""Which season a date belongs to, and what the season is called.

A club's preset gives the dates its seasons start each year (``club.seasons``,
"MM-DD"). One start on 1 January: the season is the year ("2026", 000 5.6). One start
on another day: the season spans two years ("2026/27"). Several starts a year: the
year and the season's number in it ("2026-1", "2026-2": 003 8's two club
championships a year). A date before the year's first start belongs to the previous
year's last season.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Season", "season_of"]


@dataclass(frozen=True)
class Season:
    """A season: its ``name`` and its first and last day (ISO dates)."""

    name: str
    first: str
    last: str


def _start(year: int, mmdd: str) -> datetime.date:
    month, day = int(mmdd[:2]), int(mmdd[3:])
    try:
        return datetime.date(year, month, day)
    except ValueError:  # 02-29 in a year without it: the season starts on 1 March
        return datetime.date(year, 3, 1)


def season_of(date: datetime.date, starts: Sequence[str]) -> Season:
    """The season ``date`` falls in, given the season starts ("MM-DD", in calendar order)."""
    year = date.year
    begins = [_start(year, s) for s in starts]
    index = max((i for i, b in enumerate(begins) if b <= date), default=None)
    if index is None:
        year -= 1
        index = len(starts) - 1
    first = _start(year, starts[index])
    if index + 1 < len(starts):
        nxt = _start(year, starts[index + 1])
    else:
        nxt = _start(year + 1, starts[0])
    last = nxt - datetime.timedelta(days=1)
    if len(starts) > 1:
        name = f"{year}-{index + 1}"
    elif starts[0] == "01-01":
        name = str(year)
    else:
        name = f"{year}/{(year + 1) % 100:02d}"
    return Season(name, first.isoformat(), last.isoformat())
