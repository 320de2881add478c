"""The wall's summary shows the chip leader of the last counts and the round of a mode
(issue 14: chip counts; 000 4.15 play the clock)."""

from __future__ import annotations

from controller.engine.settings import Level, Mode
from controller.service.views import summary_view
from controller.wire import protocol
from tests.support.settings import new_tournament


def test_summary_shows_the_chip_leader_once_counted_and_fits_the_schema():
    t = new_tournament(3)
    assert summary_view(t)["chip_leader"] is None and summary_view(t)["round"] is None
    t.execute({"cmd": "chip_counts", "counts": [{"player": "Player 2", "chips": 17_000}]}, 50.0)
    s = summary_view(t)
    assert s["chip_leader"] == {"name": "Player 2", "chips": 17_000}
    protocol.validate_state("summary", s)
    t.execute({"cmd": "bust", "player": "Player 2"}, 60.0)  # the count went with the player
    assert summary_view(t)["chip_leader"] is None


def test_summary_shows_the_round_of_play_the_clock():
    structure = tuple(Level("level", 90 * 60, 100, 200) for _ in range(3))
    t = new_tournament(4, structure=structure, mode=Mode(kind="play_the_clock"))
    assert summary_view(t)["round"] == {"mode": "play_the_clock", "number": 1, "of": 3}
    t.execute({"cmd": "end_round"}, 2 + 90 * 60)
    s = summary_view(t)
    assert s["round"]["number"] == 2
    protocol.validate_state("summary", s)


def test_summary_has_no_round_once_the_restart_plays_on():
    """000 4.14: after the second count the tournament goes on like any other."""
    from tests.engine.test_modes import _all_counts, _past_level, _restart

    t = _restart(4)
    assert summary_view(t)["round"] == {"mode": "restart", "number": 1, "of": 2}
    end1 = _past_level(t, 8)
    t.execute({"cmd": "end_round", "counts": _all_counts(t)}, end1)
    t.execute({"cmd": "start"}, end1 + 1)
    t.execute({"cmd": "end_round", "counts": _all_counts(t)}, _past_level(t, 8, end1 + 1))
    assert summary_view(t)["round"] is None
