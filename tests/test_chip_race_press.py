"""The chip race through the controller (000 3.17): the table's button box sends the
leftover chips (``P/cmd/table/N`` ``chip_race``), the director may send them for a table,
the table's state shows the result, the answer says who won."""

from __future__ import annotations

from tests.test_seated_press import _Service

IN_BREAK = 4 * 600 + 60  #: the test structure's "Chipraise 25" break, a minute in


def test_the_table_press_runs_the_chip_race_and_the_state_shows_it():
    svc = _Service()
    assert svc.order("register", names=[f"Player {i}" for i in range(1, 10)])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    svc.clock[0] += IN_BREAK
    state = svc.state_messages()[svc.topics.table_state(1)]
    assert state["chip_race"]["leaving"] == 25 and state["chip_race"]["result"] is None
    answer = svc.press(1, "chip_race", chips=[3, 2, 0, 1], short=[4])
    assert answer["ok"], answer
    assert "chip race 25 → 100" in answer["message"]
    result = svc.state_messages()[svc.topics.table_state(1)]["chip_race"]["result"]
    assert [s["seat"] for s in result["seats"]] == [1, 2, 4]
    assert result["new_chips"] == 2 + sum(s["saved"] for s in result["seats"])
    # a second race in the break is refused, the director's included; the undo button
    # takes it back
    again = svc.order("chip_race", table=1, chips=[1])
    assert not again["ok"] and "already had its chip race" in again["reason"]
    assert svc.press(1, "undo")["ok"]
    assert svc.order("chip_race", table=1, chips=[1])["ok"]


def test_a_chip_race_press_without_chips_is_refused_before_the_engine():
    svc = _Service()
    assert svc.order("register", names=["A", "B", "C"])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    answer = svc.press(1, "chip_race")
    assert not answer["ok"] and "'chips'" in answer["reason"]
    answer = svc.press(1, "hand_done", chips=[1])
    assert not answer["ok"] and "belongs to a chip race" in answer["reason"]


def test_the_tables_are_published_again_when_a_colour_up_break_begins_and_ends():
    """A level change republishes the clock and compares every table (a table whose hand
    is in play keeps the level before, 000 9.6); into or out of a colour-up break the
    tables' chip race appears or goes, so every view is published again."""
    svc = _Service()
    assert svc.order("register", names=[f"Player {i}" for i in range(1, 10)])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    started = svc.clock[0]

    def tick_at(offset: float) -> tuple[set[str] | None, set[int] | None]:
        svc.clock[0] = started + offset
        seqs = svc.floor.execute({"cmd": "tick"}, svc.clock[0])["events"]
        return svc._touched(seqs)

    # (the state names, the tables to recompute; None: every one)
    assert tick_at(600 + 1) == ({"clock", "tables"}, None)  # level 2: clock and tables
    assert tick_at(4 * 600 + 1) == (None, None)  # the "Chipraise 25" break begins
    assert tick_at(5 * 600 + 1) == (None, None)  # and ends
    assert tick_at(6 * 600 + 1) == ({"clock", "tables"}, None)
