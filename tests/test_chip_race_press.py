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



def test_the_directors_colour_up_opens_every_tables_chip_race_and_an_absent_seat_loses_002():
    """002 "jederzeit": the colour-up in a playing level republishes every table (their
    chip race appears, ``called``); an absent seat's small chips leave the chips in play
    (002 "Du musst anwesend sein")."""
    svc = _Service()
    assert svc.order("register", names=[f"Player {i}" for i in range(1, 19)])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    svc.clock[0] += 300
    assert svc.order("colour_up", chip=25)["ok"]
    assert svc._touched([len(svc.floor.log)]) == (None, None)  # every table published
    for n in (1, 2):
        race = svc.state_messages()[svc.topics.table_state(n)]["chip_race"]
        assert (race["leaving"], race["new"], race["called"]) == (25, 100, True)
    summary = svc.topics.state("summary")
    before = svc.state_messages()[summary]["chips_in_play"]
    answer = svc.order("chip_race", table=1, chips=[2, 0, 5], absent=[3])
    assert answer["ok"] and "seat 3 absent loses 125" in answer["message"], answer
    state = svc.state_messages()
    result = state[svc.topics.table_state(1)]["chip_race"]["result"]
    assert result["absent"][0]["seat"] == 3 and result["absent"][0]["lost"] == 125
    assert state[summary]["chips_in_play"] == before + result["change"] - 125


def test_the_clock_says_when_the_chip_race_is_announced_002():
    """002 "2-3 Minuten vor der Pause": the clock's ``chip_race_call`` from 3 minutes
    before the "Chipraise 25" break to its start."""
    svc = _Service()
    assert svc.order("register", names=[f"Player {i}" for i in range(1, 10)])["ok"]
    assert svc.order("draw")["ok"] and svc.order("start")["ok"]
    clock = svc.topics.state("clock")
    assert "chip_race_call" not in svc.state_messages()[clock]
    svc.clock[0] += 3 * 600 + 100  # level 4, the break next
    call = svc.state_messages()[clock]["chip_race_call"]
    assert (call["leaving"], call["new"], call["until"] - call["from"]) == (25, 100, 180)
