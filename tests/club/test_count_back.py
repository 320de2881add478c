"""The season's count-back (``ties: count_back``, controller/club/standings.py): more wins
first, then more second places, and so on. The key is each player's places sorted, not a
count per place down to the deepest place (bench/titles.py: 1,600 players); the order
must stay the old definition's, kept here as the reference."""

from __future__ import annotations

import random

import pytest

from controller.club.standings import Standing, _placed, count_back
from controller.engine.results import ResultRow
from controller.engine.settings import Club


def reference_key(lines, nights):  # type: ignore[no-untyped-def]
    """The old definition: points, then the count of each place 1 .. the deepest."""
    deepest = max((r.place for rows in nights for r in rows), default=0)
    counts = {s.player_id: [0] * deepest for s in lines}
    for rows in nights:
        for r in rows:
            counts[r.player_id][r.place - 1] += 1
    return {s.player_id: (-s.points, *(-c for c in counts[s.player_id])) for s in lines}


def reference_placed(lines, nights):  # type: ignore[no-untyped-def]
    keys = reference_key(lines, nights)
    ordered = sorted(lines, key=lambda s: (keys[s.player_id], s.name, s.player_id))
    out: list[tuple[int, int]] = []
    for i, s in enumerate(ordered):
        same = out and keys[ordered[i - 1].player_id] == keys[s.player_id]
        out.append((out[-1][0] if same else i + 1, s.player_id))
    return out


def row(place: int, pid: int) -> ResultRow:
    return ResultRow(place, pid, f"P{pid}", 0.0, 0, 0, 0, None, True)


def season(rng: random.Random) -> tuple[list[Standing], list[list[ResultRow]]]:
    players = rng.randint(1, 12)
    nights = []
    for _ in range(rng.randint(0, 6)):
        field = rng.sample(range(players), rng.randint(1, players))
        # shared places too: a place repeated, the next one skipped
        places = sorted(rng.choice((p, max(1, p - 1))) for p in range(1, len(field) + 1))
        nights.append([row(p, pid) for p, pid in zip(places, field, strict=True)])
    played = {r.player_id for rows in nights for r in rows}
    # few distinct totals: equal points are what the count-back is for
    lines = [Standing(0, pid, f"P{pid}", True, float(rng.choice((0, 3, 3, 6))), 0,
                      {"title": None})
             for pid in sorted(played)]
    return lines, nights


@pytest.mark.parametrize("seed", range(400))
def test_same_order_and_places_as_counting_each_place(seed):
    lines, nights = season(random.Random(seed))
    placed = _placed(list(lines), nights, Club(ties="count_back"))
    assert [(s.place, s.player_id) for s in placed] == reference_placed(lines, nights)
    # and every pair of keys compares as the reference's do
    new, old = count_back(lines, nights), reference_key(lines, nights)
    for a in lines:
        for b in lines:
            assert (new[a.player_id] < new[b.player_id]) == (old[a.player_id] < old[b.player_id])
            assert (new[a.player_id] == new[b.player_id]) == (old[a.player_id] == old[b.player_id])


def test_key_as_long_as_the_nights_not_the_deepest_place():
    """A festival night of 100,000 entries: the key stays one entry a night played."""
    lines = [Standing(0, pid, f"P{pid}", True, 6.0, 0) for pid in (1, 2, 3)]
    nights = [[row(1, 1), row(100_000, 2)], [row(3, 2), row(99_999, 3)]]
    keys = count_back(lines, nights)
    assert {len(k) for k in keys.values()} == {1 + 2}
    # P2 (3rd, 100,000th) before P1 (a win, nothing else)? No: the win counts first.
    assert sorted(keys, key=keys.__getitem__) == [1, 2, 3]


def test_more_nights_at_the_same_place_ranks_first():
    """Equal points, equal wins: the one with one more 5th place is ahead (the padding is
    worse than any place, not better)."""
    lines = [Standing(0, pid, f"P{pid}", True, 6.0, 0) for pid in (1, 2)]
    nights = [[row(1, 1), row(1, 2)], [row(5, 2)]]
    keys = count_back(lines, nights)
    assert keys[2] < keys[1]
    assert reference_key(lines, nights)[2] < reference_key(lines, nights)[1]
