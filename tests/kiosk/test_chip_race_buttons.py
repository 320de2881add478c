"""The dealer enters a chip race with the button box (000 3.17; docs/screens.md): ◀ ▶ a
seat, TIME one more leftover chip, hold BUST "all they have", HAND DONE sends. On
gpiozero's MockFactory with a fake clock, as tests/kiosk/test_buttons.py."""

from __future__ import annotations

import pytest

from tests.kiosk.test_buttons import TABLE, Box

#: table 1 in the "Chipraise 25" break, its chip race not run yet: at most 3 25s a seat
RACING = {**TABLE, "chip_race": {"leaving": 25, "new": 100, "start_seat": 2,
                                 "start": "seat_1", "rounding": "up",
                                 "one_chip_per_player": True, "most": 3, "result": None}}


@pytest.fixture
def box(mock_pins):
    b = Box(mock_pins)
    b.controls.update_table(RACING)
    yield b
    b.box.close()


def hold(box: Box, action: str) -> None:
    box.down(action)
    box.wait(1.6)
    box.up(action)
    box.wait(0.2)


def test_the_dealer_enters_leftover_chips_per_seat_and_sends_the_race(box):
    """Seat 2 (Anna) has 3 leftover 25s, seat 9 (Cem) one, which is all he has."""
    box.tap("seat_next")  # seat 2
    for _ in range(3):
        box.tap("time")
    box.tap("seat_prev")  # wraps to seat 9
    box.tap("time")
    hold(box, "bust")  # all Cem has: no bust in a chip race
    assert box.controls.race == {2: 3, 9: 1} and box.controls.race_short == {9}
    assert box.sent == []  # nothing leaves the box before HAND DONE
    box.tap("hand_done")
    assert box.sent == [("chip_race", {"chips": [0, 3, 0, 0, 0, 0, 0, 0, 1], "short": [9]})]


def test_time_past_the_most_a_seat_can_have_goes_back_to_zero(box):
    """4 x 25 are a 100 (colour-up, not a race): after 3 the count starts again at 0."""
    box.tap("seat_next")
    for _ in range(4):
        box.tap("time")
    assert box.controls.race == {}
    box.tap("time")
    assert box.controls.race == {2: 1}


def test_without_a_seat_or_chips_nothing_is_sent(box):
    box.tap("time")
    box.tap("hand_done")
    assert box.sent == []
    assert [o.message for o in box.outcomes] == ["no_seat", "race_empty"]


def test_all_they_have_needs_leftover_chips_first(box):
    box.tap("seat_next")
    hold(box, "bust")
    assert box.controls.race_short == set() and box.sent == []
    assert box.outcomes[-1].message == "race_no_chips"


def test_undo_stays_the_undo_button(box):
    hold(box, "undo")
    assert box.sent == [("undo", {})]


def test_after_the_race_the_buttons_are_the_table_buttons_again(box):
    """The result is in: TIME is a time call, hold BUST a bust; the entry is kept until the
    break ends (an undone race is corrected, not typed again)."""
    box.tap("seat_next")
    box.tap("time")
    result = {"seats": [], "new_chips": 1, "change": 75}
    box.controls.update_table({**RACING, "chip_race": {**RACING["chip_race"],
                                                        "result": result}})
    box.tap("time")
    assert box.sent[-1][0] == "time"
    assert box.controls.race == {2: 1}
    box.controls.update_table(TABLE)  # the break is over
    assert box.controls.race == {}


def test_a_seat_whose_player_left_loses_its_entry(box):
    box.tap("seat_next")
    box.tap("time")
    box.controls.update_table({**RACING, "seats": RACING["seats"][1:]})  # Anna moved
    assert box.controls.race == {}


def test_a_table_state_left_over_from_the_break_never_takes_the_buttons(mock_pins):
    """After the break the clock says so: TIME is a time call again even before the
    table's state without the chip race arrives."""
    b = Box(mock_pins)
    b.controls.in_break = lambda: False
    b.controls.update_table(RACING)
    try:
        b.tap("seat_next")
        b.tap("time")
        assert b.sent == [("time", {"seat": 2})]
        assert b.controls.race == {}
    finally:
        b.box.close()


def test_several_chips_are_entered_one_race_at_a_time(box):
    """Issue 32: the director called the 25s and the 100s; once the 25s' race is run the
    table's view is the 100s' entry, and the box starts a new, empty entry for it."""
    two = [{"leaving": 25, "new": 100, "raced": False},
           {"leaving": 100, "new": 500, "raced": False}]
    box.controls.update_table({**RACING, "chip_race": {**RACING["chip_race"], "chips": two}})
    box.tap("seat_next")
    box.tap("time")
    box.tap("hand_done")
    assert box.sent == [("chip_race", {"chips": [0, 1], "short": []})]
    done = [{**two[0], "raced": True}, two[1]]
    box.controls.update_table({**RACING, "chip_race": {
        **RACING["chip_race"], "leaving": 100, "new": 500, "most": 4, "chips": done}})
    assert box.controls.race == {} and box.controls.racing()
    for _ in range(4):  # 4 x 100 stay below a 500
        box.tap("time")
    box.tap("hand_done")
    assert box.sent[-1] == ("chip_race", {"chips": [0, 4], "short": []})
