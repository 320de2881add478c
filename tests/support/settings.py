"""Tournament settings for the engine tests: small, quick, overridable."""

from __future__ import annotations

import dataclasses

from controller.engine.settings import Dealing, Level, Points, TournamentSettings
from controller.engine.tournament import Tournament


def make_settings(**overrides) -> TournamentSettings:
    """Small tournament: 9 players per 9-seat table, 12 ten-minute levels, a break after 4.

    The first button is table 1's position at every table (000 3.12), the layouts the
    engine tests were written on; ``dealing=Dealing()`` draws one at each table."""
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
        dealing=Dealing(first_button="table_1"),
    )
    return dataclasses.replace(base, **overrides)


def new_tournament(players: int = 0, seed: int = 1, *, draw: bool = True, start: bool = True,
                   **overrides) -> Tournament:
    """A tournament of :func:`make_settings` (``overrides`` change it): ``players`` named
    "Player 1"…, registered at 0 s, drawn at 1 s, the clock started at 2 s."""
    t = Tournament.new(make_settings(**overrides), seed, 0.0)
    if players:
        t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(1, players + 1)]},
                  0.0)
    if draw:
        t.execute({"cmd": "draw"}, 1.0)
    if start:
        t.execute({"cmd": "start"}, 2.0)
    return t


def replay_equal(t: Tournament) -> None:
    """The log alone rebuilds the same state."""
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def rejected(t: Tournament, command: dict, now: float = 100.0, match: str | None = None) -> str:
    """The command is rejected with a reason (containing ``match``) and changes nothing."""
    import copy

    import pytest

    from controller.engine.commands import Rejected

    before = copy.deepcopy(t.fingerprint())
    log = len(t.log)
    with pytest.raises(Rejected) as info:
        t.execute(command, now)
    assert str(info.value)
    if match:
        assert match in str(info.value)
    assert t.fingerprint() == before
    assert len(t.log) == log
    return str(info.value)
