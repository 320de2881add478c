"""Tournament settings for the engine tests: small, quick, overridable."""

from __future__ import annotations

import dataclasses

from controller.engine.settings import Level, Points, TournamentSettings


def make_settings(**overrides) -> TournamentSettings:
    """Small tournament: 9 players per 9-seat table, 12 ten-minute levels, a break after 4."""
    levels = []
    for i in range(12):
        levels.append(Level("level", 600, 25 * 2**i, 50 * 2**i, 0))
        if i == 3:
            levels.append(Level("break", 600, note="Chipraise 25"))
    base = TournamentSettings(
        name="Test",
        structure=tuple(levels),
        start_stack=10_000,
        table_seats=9,
        players_per_table=9,
        final_table_size=9,
        points=Points(system="none"),
    )
    return dataclasses.replace(base, **overrides)
