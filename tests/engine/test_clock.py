"""The clock anchor: start, pause, resume, level changes, time changes, roll-over.

Rules: 000 4.12 (structure with breaks), 003 7 (last level without end),
002 (heads-up halves the level time), RULES.md 1. The clock never reads the
time: every function takes ``now``.
"""

from __future__ import annotations

import time

import pytest

from controller.engine import clock as clk
from controller.engine.clock import Clock
from controller.engine.settings import Level

L = Level
# three 600 s levels, a 300 s break, two 600 s levels, a final level without end (003 7)
S = (
    L("level", 600, 25, 50),
    L("level", 600, 50, 100),
    L("level", 600, 75, 150),
    L("break", 300, note="Chipraise 25"),
    L("level", 600, 100, 200),
    L("level", 600, 150, 300),
    L("level", None, 200, 400),
)
# a structure whose last level has an end: the clock stays in it afterwards
FINITE = (L("level", 100, 1, 2), L("break", 50), L("level", 100, 2, 4))


def started(now=1000.0, structure=S) -> Clock:
    return clk.start(Clock(), structure, now)


# ---------------------------------------------------------------- basics


def test_start_anchors_the_level_end():
    c = started(1000.0)
    assert c.running and c.started and c.level == 0
    assert c.ends_at == 1600.0 and c.remaining is None
    assert clk.left(c, S, 1000.0) == 600.0
    assert clk.left(c, S, 1250.5) == 349.5


def test_before_start_the_level_shows_its_full_time():
    assert clk.left(Clock(), S, 0.0) == 600.0
    assert clk.next_break(Clock(), S, 0.0) == 1800.0


def test_pause_keeps_remaining_and_resume_continues():
    c = started(1000.0)
    p = clk.pause(c, S, 1100.0)
    assert not p.running and p.remaining == 500.0 and p.ends_at is None
    # paused time does not pass
    assert clk.left(p, S, 99999.0) == 500.0
    r = clk.resume(p, S, 5000.0)
    assert r.running and r.ends_at == 5500.0
    assert clk.left(r, S, 5100.0) == 400.0


def test_pause_after_rollover_is_in_the_right_level():
    c = started(0.0)
    p = clk.pause(c, S, 700.0)
    assert p.level == 1 and p.remaining == 500.0


def test_resume_before_start_is_a_start_not_a_level_without_end():
    c = clk.resume(Clock(), S, 10.0)
    assert c.running and c.started and c.ends_at == 610.0


# ---------------------------------------------------------------- levels


def test_levels_roll_over_by_themselves_anchor_arithmetic():
    c = started(0.0)
    assert clk.at(c, S, 599.9).level == 0
    c1 = clk.at(c, S, 600.0)
    assert c1.level == 1 and c1.ends_at == 1200.0
    # three levels and the break in one step: no per-second state needed
    c2 = clk.at(c, S, 2200.0)
    assert c2.level == 4 and c2.ends_at == 2700.0
    assert clk.left(c, S, 2200.0) == 500.0
    # at() is pure: the original anchor is unchanged
    assert c.level == 0 and c.ends_at == 600.0


def test_break_is_a_level_of_its_own_000_4_12():
    c = started(0.0)
    b = clk.at(c, S, 1800.0)
    assert S[b.level].is_break and S[b.level].note == "Chipraise 25"
    assert clk.left(c, S, 1900.0) == 200.0
    assert clk.at(c, S, 2100.0).level == 4


def test_final_level_without_end_003_7():
    c = started(0.0)
    last = clk.at(c, S, 3300.0)  # 3*600 + 300 + 2*600 = 3300
    assert last.level == 6 and last.ends_at is None
    assert clk.left(c, S, 3300.0) is None
    assert clk.at(c, S, 10**9).level == 6
    assert clk.left(last, S, 10**9) is None
    p = clk.pause(last, S, 4000.0)
    assert p.remaining is None and clk.left(p, S, 4000.0) is None
    assert clk.resume(p, S, 5000.0).ends_at is None


def test_past_the_last_printed_level_the_clock_stays_there_003_7():
    c = started(0.0, FINITE)
    end = clk.at(c, FINITE, 251.0)
    assert end.level == 2 and end.ends_at is None
    assert clk.left(c, FINITE, 10_000.0) is None


def test_next_level_and_previous_level_get_full_time():
    c = started(0.0)
    n = clk.set_level(c, S, 1, 100.0)
    assert n.level == 1 and n.ends_at == 700.0
    p = clk.set_level(n, S, 0, 200.0)
    assert p.level == 0 and p.ends_at == 800.0
    # clamped to the structure
    assert clk.set_level(c, S, 99, 0.0).level == len(S) - 1
    assert clk.set_level(c, S, -3, 0.0).level == 0


def test_set_level_while_paused_stays_paused():
    p = clk.pause(started(0.0), S, 100.0)
    n = clk.set_level(p, S, 3, 200.0)
    assert not n.running and n.level == 3 and n.remaining == 300.0


def test_set_level_to_the_endless_level():
    n = clk.set_level(started(0.0), S, 6, 10.0)
    assert n.ends_at is None and clk.left(n, S, 10**6) is None


# ---------------------------------------------------------------- time


def test_add_time():
    c = started(0.0)
    c = clk.add(c, S, 120, 100.0)
    assert clk.left(c, S, 100.0) == 620.0
    assert clk.at(c, S, 719.0).level == 0 and clk.at(c, S, 720.0).level == 1


def test_remove_time_and_remove_more_than_left_ends_the_level():
    c = started(0.0)
    c = clk.add(c, S, -100, 100.0)
    assert clk.left(c, S, 100.0) == 400.0
    c = clk.add(c, S, -10_000, 200.0)
    assert clk.left(c, S, 200.0) == 600.0  # level 2 started now with full time
    assert clk.at(c, S, 200.0).level == 1


def test_set_time_running_and_paused():
    c = clk.set_left(started(0.0), S, 42, 100.0)
    assert clk.left(c, S, 100.0) == 42.0 and c.ends_at == 142.0
    p = clk.pause(started(0.0), S, 100.0)
    p = clk.set_left(p, S, 30, 500.0)
    assert p.remaining == 30.0 and not p.running
    p = clk.add(p, S, 15, 600.0)
    assert p.remaining == 45.0
    assert clk.set_left(p, S, -5, 600.0).remaining == 0.0


def test_time_set_before_the_start_is_kept():
    c = clk.set_left(Clock(), S, 90, 0.0)
    c = clk.start(c, S, 1000.0)
    assert c.ends_at == 1090.0


def test_add_time_on_endless_level_is_a_no_op_003_7():
    c = clk.set_level(started(0.0), S, 6, 0.0)
    assert clk.add(c, S, 60, 5.0) == clk.at(c, S, 5.0)


# ---------------------------------------------------------------- heads-up


def test_heads_up_halves_from_the_next_level_002():
    c = started(0.0)
    h = clk.halve(c, S, 100.0)
    assert h.halved and h.ends_at == 600.0  # the current level runs out as it is
    n = clk.at(h, S, 600.0)
    assert n.level == 1 and n.ends_at == 900.0  # 600 s halved to 300 s
    # the break is not halved
    b = clk.at(h, S, 1200.0)
    assert S[b.level].is_break and b.ends_at == 1500.0
    assert clk.at(h, S, 1500.0).ends_at == 1800.0
    assert clk.duration(S, 1, True) == 300.0
    assert clk.duration(S, 3, True) == 300.0
    assert clk.duration(S, 6, True) is None


def test_set_level_after_heads_up_gets_halved_time_002():
    h = clk.halve(started(0.0), S, 10.0)
    assert clk.set_level(h, S, 2, 20.0).ends_at == 320.0


# ---------------------------------------------------------------- next break


def test_next_break_countdown():
    c = started(0.0)
    assert clk.next_break(c, S, 0.0) == 1800.0
    assert clk.next_break(c, S, 700.0) == 1100.0
    assert clk.next_break(c, S, 1850.0) == 0.0  # during the break
    assert clk.next_break(c, S, 2100.0) is None  # no break ahead
    p = clk.pause(c, S, 100.0)
    assert clk.next_break(p, S, 99_999.0) == 1700.0


def test_next_break_with_halved_levels_002():
    h = clk.halve(started(0.0), S, 0.0)
    # level 1 runs out in full (600), then two halved levels of 300
    assert clk.next_break(h, S, 0.0) == 1200.0


# ---------------------------------------------------------------- purity


def test_time_is_passed_in_only(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the clock read the time")

    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns"):
        monkeypatch.setattr(time, name, boom)
    c = started(0.0)
    c = clk.pause(c, S, 10.0)
    c = clk.resume(c, S, 20.0)
    c = clk.add(c, S, 5, 30.0)
    c = clk.set_left(c, S, 100, 40.0)
    c = clk.set_level(c, S, 2, 50.0)
    c = clk.halve(c, S, 60.0)
    assert clk.left(c, S, 70.0) is not None
    assert clk.next_break(c, S, 80.0) is not None
    assert clk.at(c, S, 10**7).level == 6


@pytest.mark.parametrize("now", [0.0, 599.0, 600.0, 1799.0, 1800.0, 2099.0, 3299.0, 3300.0])
def test_at_is_idempotent_and_stepwise_equals_jump(now):
    c = started(0.0)
    step = c
    for t in range(0, int(now) + 1, 37):
        step = clk.at(step, S, float(t))
    step = clk.at(step, S, now)
    assert step == clk.at(c, S, now) == clk.at(clk.at(c, S, now), S, now)
