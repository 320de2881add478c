"""The clock commands never jump a level by themselves, and the add-on phase closes the
rebuys (issue 10, points 9 and 10).

Clock: 000 4.11 runs the levels by the clock; where the rulebooks are silent about the
director's corrections, TDA 2024 (the floor's decisions are the director's, made
explicitly) decides: a time correction changes the time left, a level change is `level`.
"""

from __future__ import annotations

import pytest

from controller.engine import clock as clk
from controller.engine.settings import Entries
from controller.engine.tournament import Rejected, Tournament
from tests.support.settings import new_tournament

LEVEL = 600.0
START = 2.0  # new_tournament starts the clock at 2 s
ENTRIES = Entries(rebuys=1, rebuy_until_level=4, addon_after_level=4, auto_addon_multiplier=2)


def _left(t: Tournament, now: float) -> float | None:
    return clk.left(t.clock, t.settings.structure, now)


def _refused(t: Tournament, command: dict, now: float, match: str) -> None:
    before = t.fingerprint()
    with pytest.raises(Rejected, match=match):
        t.execute(command, now)
    assert t.fingerprint() == before


# ------------------------------------------------------------------ 10.9 the clock
def test_removing_more_than_the_time_left_is_refused_not_a_level_jump_tda():
    """issue 10.9: 'time remove 15:00' with 4:00 left used to roll into the next level."""
    t = new_tournament(4)
    now = START + 6 * 60  # 4:00 left in level 1
    _refused(t, {"cmd": "time", "op": "add", "seconds": -900}, now,
             r"level 1 has only 4:00 left: removing 15:00 would end it; to end the level: "
             r"level next")
    assert t.clock.level == 0 and _left(t, now) == pytest.approx(240)
    # removing less than what is left works, and the level stays
    t.execute({"cmd": "time", "op": "add", "seconds": -180}, now)
    assert t.clock.level == 0 and _left(t, now) == pytest.approx(60)


def test_removing_all_the_time_left_is_refused_too():
    t = new_tournament(4)
    now = START + 6 * 60
    _refused(t, {"cmd": "time", "op": "add", "seconds": -240}, now, "would end it")


def test_time_set_to_zero_is_refused_and_points_to_level_next():
    t = new_tournament(4)
    _refused(t, {"cmd": "time", "op": "set", "seconds": 0}, 10.0, "level next")
    _refused(t, {"cmd": "time", "op": "set", "seconds": -5}, 10.0, "cannot be negative")


def test_time_changes_before_the_start_and_while_paused_keep_the_level():
    t = new_tournament(4, start=False)
    _refused(t, {"cmd": "time", "op": "add", "seconds": -LEVEL}, 5.0, "would end it")
    t.execute({"cmd": "time", "op": "add", "seconds": -60}, 5.0)
    assert _left(t, 5.0) == pytest.approx(LEVEL - 60)
    t.execute({"cmd": "start"}, 6.0)
    t.execute({"cmd": "pause"}, 100.0)
    _refused(t, {"cmd": "time", "op": "add", "seconds": -1000}, 200.0, "would end it")
    assert _left(t, 200.0) == pytest.approx(LEVEL - 60 - 94)


def test_the_full_time_of_a_level_before_the_start_000_4_11():
    """issue 10.9: before the start the level waits with its full time (status shows it)."""
    t = new_tournament(4, start=False)
    assert _left(t, 0.0) == LEVEL


# ---------------------------------------------------------------- 10.10 the add-on
def test_the_addon_is_refused_before_its_phase_000_4_13():
    """issue 10.10: seen, an add-on accepted in level 4 (the phase is after level 4)."""
    t = new_tournament(12, entries=ENTRIES)
    in_level_4 = START + 3 * LEVEL + 10
    _refused(t, {"cmd": "addon"}, in_level_4,
             r"the add-on phase is after level 4 \(the break after it, or level 5\); "
             r"this is level 4 \(000 4.13\)")
    assert not t.addon_done


def test_the_addon_in_its_phase_closes_the_rebuys_000_4_13():
    """issue 10.10: seen, a rebuy accepted after the add-on."""
    t = new_tournament(12, entries=ENTRIES)
    pid = next(iter(t.tables[1].occupant.values()))
    t.execute({"cmd": "bust", "player": pid}, 50.0)
    in_the_break = START + 4 * LEVEL + 10
    events = t.execute({"cmd": "addon"}, in_the_break)
    assert [e["type"] for e in events if e["type"] == "addon"] == ["addon"]
    assert t.addon_done
    _refused(t, {"cmd": "rebuy", "player": pid}, in_the_break + 1, "add-on phase has begun")
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_the_addon_phase_closes_the_rebuys_before_a_tick_gave_it_000_4_13():
    """A rebuy asked in the add-on phase, before the time was recorded, is refused: the
    phase has begun even if no event says so yet (the decision depends on now only)."""
    t = new_tournament(12, entries=Entries(rebuys=1, rebuy_until_level=5, addon_after_level=4,
                                           auto_addon_multiplier=2))
    pid = next(iter(t.tables[1].occupant.values()))
    t.execute({"cmd": "bust", "player": pid}, 50.0)
    _refused(t, {"cmd": "rebuy", "player": pid}, START + 4 * LEVEL + 10, "add-on phase")
    # in level 4 (before the phase) the rebuy is still there
    t.execute({"cmd": "rebuy", "player": pid}, START + 3 * LEVEL + 10)
    assert not t.players[pid].out


def test_the_automatic_addon_keeps_its_phase_000_4_13():
    t = new_tournament(12, entries=ENTRIES)
    assert not [e for e in t.execute({"cmd": "tick"}, START + 4 * LEVEL - 1)
                if e["type"] == "addon"]
    assert [e["type"] for e in t.execute({"cmd": "tick"}, START + 4 * LEVEL + 1)
            if e["type"] == "addon"] == ["addon"]
