"""Seat draw, balancing plan and table breaks: pure functions over counts.

Randomness always comes from a ``random.Random`` seeded by the caller; the
seed is stored in the event, and so is the outcome, so a replay is exact.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from controller.engine.settings import Balancing


def table_sizes(players: int, per_table: int) -> list[int]:
    """Equal table sizes for a start draw (000 9.6): the fewest tables, sizes within one."""
    if players <= 0:
        return []
    n = math.ceil(players / per_table)
    base, extra = divmod(players, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def draw(
    players: Sequence[int], per_table: int, rng: random.Random, ghosts: bool = False
) -> tuple[list[tuple[int | None, int, int]], int]:
    """Random draw of ``players`` to tables 1..n and seats 1..per_table.

    Returns ``([(player_or_None, table, seat), ...], button_seat)``. ``None``
    marks a ghost's seat when ``ghosts`` is set: reserve seats that make every
    table start equal (000 9.5/9.6). The first button is one drawn seat, the
    same seat position on every table (000 3.12).
    """
    sizes = table_sizes(len(players), per_table)
    # with ghosts every table starts with the largest size; the ghosts are spread
    # so that the real players stay within one of each other (000 9.6)
    width = max(sizes) if ghosts and sizes else 0
    order = list(players)
    rng.shuffle(order)
    slots: list[tuple[int | None, int, int]] = []
    it = iter(order)
    for t, size in enumerate(sizes, start=1):
        seats = sorted(rng.sample(range(1, per_table + 1), max(size, width)))
        ghost_seats = set(rng.sample(seats, len(seats) - size))
        for s in seats:
            slots.append((None if s in ghost_seats else next(it), t, s))
    # 000 3.12: the high card is dealt to the occupied positions of table 1 and
    # the winning position holds the button on every table
    table_1 = [s for p, t, s in slots if t == 1]
    button = rng.choice(table_1) if table_1 else 1
    return slots, button


def buttons(slots: Sequence[tuple[int | None, int, int]], button: int,
            rng: random.Random) -> dict[int, int]:
    """Every table's own first button among its occupied seats (TDA; 003): table 1 keeps
    ``button`` (drawn there by :func:`draw`), each other table draws one with ``rng``."""
    seats: dict[int, list[int]] = {}
    for _, table, seat in slots:
        seats.setdefault(table, []).append(seat)
    return {table: button if table == 1 else rng.choice(sorted(occupied))
            for table, occupied in sorted(seats.items())}


def donor(counts: dict[int, int]) -> int:
    """The table that gives a player: most players, then the highest number (000 4.9)."""
    most = max(counts.values())  # two plain passes: a festival's plan looks at 1,000 tables
    return max(t for t, n in counts.items() if n == most)


def receiver(counts: dict[int, int]) -> int:
    """The table that takes a player: fewest players, then the lowest number."""
    fewest = min(counts.values())
    return min(t for t, n in counts.items() if n == fewest)


def balance_plan(counts: dict[int, int], tolerance: int) -> list[tuple[int, int]]:
    """Moves ``[(from_table, to_table), ...]`` that bring tables within ``tolerance``.

    One player at a time from the donor (000 4.9) to the shortest table, until
    the largest and smallest table differ by at most ``tolerance``.
    """
    if len(counts) < 2 or max(counts.values()) - min(counts.values()) <= tolerance:
        return []  # balanced, the usual case: two passes in C over a festival's 1,000 tables
    counts = dict(counts)
    plan: list[tuple[int, int]] = []
    while len(counts) > 1:
        d, r = donor(counts), receiver(counts)
        if counts[d] - counts[r] <= tolerance:
            break
        plan.append((d, r))
        counts[d] -= 1
        counts[r] += 1
    return plan


def table_to_break(
    counts: dict[int, int], per_table: int, policy: Balancing
) -> int | None:
    """The table to break, once the others can seat its players (000 4.6, TDA 10B).

    ``counts`` are the players at each table in play. Order: highest number
    first by default, ``"lowest"`` or an explicit list otherwise.
    """
    if len(counts) < 2:
        return None
    total = sum(counts.values())
    if total > (len(counts) - 1) * per_table:
        return None
    order = policy.break_order
    if order == "highest":
        return max(counts)
    if order == "lowest":
        return min(counts)
    for t in order:
        if t in counts:
            return t
    return max(counts)


def spread(
    players: Sequence[int],
    free: dict[int, list[int]],
    counts: dict[int, int],
    rng: random.Random,
) -> list[tuple[int, int, int]]:
    """Draw ``players`` at random into free seats, filling the shortest tables first.

    ``free``: table → free seat numbers, ``counts``: table → players seated.
    Returns ``[(player, table, seat), ...]``. Used for a table break: the
    tables end up as even as the seats allow.
    """
    counts = dict(counts)
    free = {t: list(s) for t, s in free.items()}
    targets: list[tuple[int, int]] = []
    for _ in players:
        open_tables = [t for t in free if free[t]]
        if not open_tables:
            raise ValueError("not enough free seats")
        low = min(counts[t] for t in open_tables)
        t = rng.choice(sorted(x for x in open_tables if counts[x] == low))
        seat = free[t].pop(rng.randrange(len(free[t])))
        counts[t] += 1
        targets.append((t, seat))
    order = list(players)
    rng.shuffle(order)
    return [(p, table, s) for p, (table, s) in zip(order, targets, strict=True)]


def draw_with_reserve(
    players: Sequence[int], reserve: int, per_table: int, rng: random.Random
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """A draw that keeps ``reserve`` seats free for late arrivals (002): the tables are
    made for the players and the reserve together (:func:`table_sizes`), the reserve
    spread one seat at a time over the tables with the most players, the seats drawn at
    random. Returns ``([(player, table, seat), ...], [(table, seat), ...])``: the
    reserve seats."""
    sizes = table_sizes(len(players) + reserve, per_table)
    held = [0] * len(sizes)
    for _ in range(reserve):
        i = max(range(len(sizes)), key=lambda k: (sizes[k] - held[k], -k))
        held[i] += 1
    order = list(players)
    rng.shuffle(order)
    it = iter(order)
    slots: list[tuple[int, int, int]] = []
    kept: list[tuple[int, int]] = []
    for t, (size, free) in enumerate(zip(sizes, held, strict=True), start=1):
        seats = sorted(rng.sample(range(1, per_table + 1), size))
        spare = set(rng.sample(seats, free))
        for s in seats:
            if s in spare:
                kept.append((t, s))
            else:
                slots.append((next(it), t, s))
    return slots, kept
