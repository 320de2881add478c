"""End to end: a real Mosquitto (tests/conftest.py's, which can be stopped and started for
an outage), the controller as its own process running a small tournament (18 players on
two tables of 9, preset ``psc-five-spades``) and a :class:`~tests.support.kiosks.Floor`
to open headless kiosks on (their button boxes on gpiozero mock pins)."""

from __future__ import annotations

import pytest

from tests.support.kiosks import TOURNAMENT, open_floor


@pytest.fixture
def floor(tmp_path, broker, prefix, controller_factory):
    """The controller with 18 players drawn on tables 1 and 2 and the clock running."""
    config = tmp_path / "e2e.yaml"
    config.write_text(TOURNAMENT)
    db = tmp_path / "e2e.sqlite"
    f = open_floor(broker, prefix, controller_factory(config, db), db)
    try:
        yield f
    finally:
        f.close_all()
