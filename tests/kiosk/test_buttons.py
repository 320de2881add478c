"""The button box on gpiozero's MockFactory: debounce, hold-to-confirm, seat selection.

Time is a fake clock the tests move by hand, so nothing here sleeps."""

from __future__ import annotations

import pytest

from kiosk.buttons import ButtonBox, Inputs, TableControls, occupied_seats, step_seat
from kiosk.config import ButtonConfig

PINS = {"seat_prev": 17, "seat_next": 27, "bust": 22, "time": 23, "hand_done": 24, "undo": 25}
TABLE = {"table": 1, "in_play": True, "seats": [
    {"seat": 2, "player_id": 11, "name": "Anna"},
    {"seat": 5, "player_id": 12, "name": "Ben"},
    {"seat": 9, "player_id": 13, "name": "Cem"},
]}


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Box:
    """The whole chain as the app wires it, minus the queue: mock pins → ButtonBox →
    TableControls → a fake ``send`` that records the presses."""

    def __init__(self, factory, **config) -> None:
        self.clock = Clock()
        self.sent: list[tuple[str, dict]] = []
        self.outcomes: list = []
        self.controls = TableControls(ButtonConfig(pins=PINS, **config), self.send)
        self.controls.update_table(TABLE)
        self.box = ButtonBox(self.controls.config, self.edge, clock=self.clock)
        self.factory = factory

    def send(self, action: str, **fields) -> str:
        self.sent.append((action, fields))
        return f"c{len(self.sent)}"

    def edge(self, action: str, pressed: bool, at: float) -> None:
        self.outcomes += self.controls.edge(action, pressed, at)

    def pin(self, action: str):
        return self.factory.pin(PINS[action])

    def down(self, action: str) -> None:
        self.pin(action).drive_low()  # pull-up: pressed pulls the pin to ground

    def up(self, action: str) -> None:
        self.pin(action).drive_high()

    def wait(self, seconds: float) -> None:
        self.clock.t += seconds
        self.outcomes += self.controls.advance(self.clock.t)

    def tap(self, action: str, length: float = 0.1) -> None:
        self.down(action)
        self.wait(length)
        self.up(action)
        self.wait(0.2)


@pytest.fixture
def box(mock_pins):
    b = Box(mock_pins)
    yield b
    b.box.close()


def test_tap_on_bust_sends_nothing(box):
    box.tap("seat_next")
    assert box.controls.selected == 2
    box.tap("bust", 0.5)
    box.tap("bust", 1.4)
    assert box.sent == []


def test_hold_on_bust_sends_one_bust_for_the_selected_seat(box):
    box.tap("seat_next")
    box.tap("seat_next")
    assert box.controls.selected == 5
    box.down("bust")
    box.wait(0.75)
    action, progress = box.controls.progress(box.clock.t)
    assert action == "bust" and progress == pytest.approx(0.5)
    assert box.sent == []
    box.wait(0.75)  # 1.5 s: fires while still held
    assert box.sent == [("bust", {"seat": 5})]
    assert box.controls.progress(box.clock.t) is None
    box.wait(5)  # held on: still once
    box.up("bust")
    box.wait(1)
    assert box.sent == [("bust", {"seat": 5})]


def test_bust_without_a_selected_seat_sends_nothing(box):
    box.down("bust")
    box.wait(2)
    box.up("bust")
    assert box.sent == []
    assert [(o.action, o.kind, o.message) for o in box.outcomes] == [("bust", "info", "no_seat")]


def test_bounce_counts_as_one_press(box):
    # a bouncing contact: five edges within 50 ms, then the button stays down
    for _ in range(3):
        box.down("hand_done")
        box.clock.t += 0.005
        box.up("hand_done")
        box.clock.t += 0.005
    box.down("hand_done")
    box.wait(0.3)
    # and bounces again on release
    box.up("hand_done")
    box.clock.t += 0.004
    box.down("hand_done")
    box.clock.t += 0.004
    box.up("hand_done")
    box.wait(0.3)
    assert box.sent == [("hand_done", {})]
    box.tap("hand_done")
    assert box.sent == [("hand_done", {})] * 2


def test_a_glitch_during_a_hold_restarts_it(box):
    # a release seen mid-hold (a worn contact) ends the press: the safe side is to hold
    # again, never to count the time before the glitch
    box.tap("seat_next")
    box.down("bust")
    box.wait(1.0)
    box.up("bust")
    box.clock.t += 0.003
    box.down("bust")  # within 50 ms of the accepted release: settles when the window closes
    box.wait(1.0)
    assert box.sent == []
    box.wait(0.6)
    assert box.sent == [("bust", {"seat": 2})]


def test_a_tap_shorter_than_the_debounce_window_is_not_lost(box):
    box.down("time")
    box.clock.t += 0.02
    box.up("time")  # released within 50 ms: the press counts, the button is up again
    box.wait(0.1)
    assert box.sent == [("time", {})]
    box.tap("time")
    assert box.sent == [("time", {})] * 2


def test_seat_next_and_prev_wrap_over_occupied_seats(box):
    seen = []
    for _ in range(4):
        box.tap("seat_next")
        seen.append(box.controls.selected)
    assert seen == [2, 5, 9, 2]
    seen = []
    for _ in range(4):
        box.tap("seat_prev")
        seen.append(box.controls.selected)
    assert seen == [9, 5, 2, 9]
    assert box.sent == []  # selecting is local


def test_selection_is_cleared_when_the_player_leaves_the_seat(box):
    box.tap("seat_next")
    box.tap("seat_next")
    assert box.controls.selected == 5
    moved = {**TABLE, "seats": [TABLE["seats"][0], {"seat": 5, "player_id": 99, "name": "Dora"},
                                TABLE["seats"][2]]}
    assert box.controls.update_table(moved)  # someone else sat down: no stale bust target
    assert box.controls.selected is None
    box.tap("seat_next")
    assert box.controls.update_table({**TABLE, "seats": TABLE["seats"][1:]})
    assert box.controls.selected is None


def test_undo_needs_a_hold(box):
    box.tap("undo", 0.3)
    assert box.sent == []
    box.down("undo")
    box.wait(1.6)
    box.up("undo")
    assert box.sent == [("undo", {})]


def test_time_toggles_a_time_call(box):
    # the table's time call is started by one press and cancelled by the next: the kiosk
    # sends "time" each time and the controller toggles (its state decides, not a stale
    # screen); one tap is exactly one press
    box.tap("time")
    assert box.sent == [("time", {})]
    box.controls.update_table({**TABLE, "time_call": {"started_at": 1.0, "seconds": 60,
                                                      "countdown": 10, "seat": None}})
    box.tap("time")
    assert box.sent == [("time", {}), ("time", {})]


def test_hold_time_and_debounce_come_from_the_config(mock_pins):
    b = Box(mock_pins, hold_seconds={"bust": 0.5, "undo": 3.0}, debounce_ms=0)
    try:
        b.tap("seat_next")
        b.down("bust")
        b.wait(0.5)
        b.up("bust")
        b.down("undo")
        b.wait(2.9)
        b.up("undo")
        b.wait(0.2)
        assert b.sent == [("bust", {"seat": 2})]
        b.down("hand_done")
        b.clock.t += 0.001
        b.up("hand_done")
        b.clock.t += 0.001
        b.down("hand_done")
        assert b.sent == [("bust", {"seat": 2}), ("hand_done", {}), ("hand_done", {})]
    finally:
        b.box.close()


def test_edges_are_judged_by_their_own_time():
    # a late main loop sees a tap's press and release together: still no hold
    inp = Inputs()
    inp.add("bust", "bust", debounce=0.05, hold=1.5)
    assert inp.edge("bust", True, 10.0) == []
    assert inp.edge("bust", False, 10.3) == []
    assert inp.advance(20.0) == []
    # a press seen late but held: fires once, at down + hold
    assert inp.edge("bust", True, 30.0) == []
    assert inp.next_due() == 31.5
    assert inp.advance(40.0) == ["bust"]
    assert inp.advance(50.0) == []


def test_keyboard_inputs_share_the_logic(mock_pins):
    b = Box(mock_pins)
    try:
        c = b.controls
        assert [o.seat for o in c.edge("key:seat_next", True, 1.0)] == [2]
        c.edge("key:seat_next", False, 1.1)
        c.edge("key:bust", True, 2.0)
        assert c.advance(3.0) == []
        out = c.advance(3.5)
        assert [(o.action, o.kind, o.seat) for o in out] == [("bust", "sent", 2)]
    finally:
        b.box.close()


def test_helpers():
    assert occupied_seats(TABLE) == [2, 5, 9]
    assert occupied_seats(None) == [] and occupied_seats({"seats": []}) == []
    assert step_seat([], None, 1) is None
    assert step_seat([2, 5, 9], None, -1) == 9
    assert step_seat([2, 5, 9], 6, 1) == 9  # from an empty seat: the next occupied one
    assert step_seat([2, 5, 9], 6, -1) == 5


def test_a_short_tap_on_bust_says_hold_to_bust(box):
    """Issue 16 point 5: a short tap on bust gave no feedback at all. It still sends
    nothing (hold-to-confirm, 000 busts are confirmed), but answers "hold to bust"."""
    box.tap("seat_next")
    box.outcomes.clear()
    box.tap("bust", 0.5)
    assert box.sent == []
    assert [(o.action, o.kind, o.message) for o in box.outcomes] == [
        ("bust", "info", "hold_bust")]
    box.outcomes.clear()
    box.tap("undo", 0.3)
    assert [(o.action, o.kind, o.message) for o in box.outcomes] == [
        ("undo", "info", "hold_undo")]
    # a completed hold is no short tap
    box.outcomes.clear()
    box.down("bust")
    box.wait(2.0)
    box.up("bust")
    box.wait(0.2)
    assert [(o.action, o.kind) for o in box.outcomes] == [("bust", "sent")]


def test_the_app_has_words_for_the_short_tap():
    from kiosk.app import text

    assert text("hold_bust", "en") == "Hold to bust"
    assert text("hold_bust", "de") == "Zum Ausscheiden halten"
    assert text("hold_undo", "en") == "Hold to undo"


# ------------------------------------------------ the bust that needs an answer (issue 10)
ASKS = {**TABLE, "asks_same_hand": True,
        "hand_busts": [{"player_id": 10, "name": "Dora", "seat": 4}]}


def hold(box: Box, action: str) -> None:
    box.down(action)
    box.wait(1.6)
    box.up(action)
    box.wait(0.2)


def asked(box: Box) -> list:
    return [o for o in box.outcomes if o.kind == "question"]


def test_a_second_bust_in_a_hand_asks_same_hand_and_hold_bust_says_yes_000_9_5(box):
    """The table's hand already had a bust: the dealer is asked, and holding Bust again
    sends the bust as the same hand (000 9.5: ranked with the other by stacks)."""
    box.controls.update_table(ASKS)
    box.tap("seat_next")
    hold(box, "bust")
    assert box.sent == []
    (q,) = asked(box)
    assert q.message == "ask_same_hand" and q.values["names"] == "Dora (4)"
    assert box.controls.question == "same_hand"
    hold(box, "bust")
    assert box.sent == [("bust", {"seat": 2, "same_hand": True})]
    assert box.controls.question is None


def test_hand_done_answers_a_new_hand(box):
    """Tap Hand done: not the same hand; the controller catches the missed one up. The
    tap is the answer, not a hand done of its own."""
    box.controls.update_table(ASKS)
    box.tap("seat_next")
    hold(box, "bust")
    box.tap("hand_done")
    assert box.sent == [("bust", {"seat": 2, "same_hand": False})]


def test_any_other_button_or_silence_drops_the_bust(box):
    box.controls.update_table(ASKS)
    box.tap("seat_next")
    hold(box, "bust")
    box.tap("time")
    assert box.sent == [] and box.controls.question is None
    assert box.outcomes[-1].message == "bust_dropped"
    hold(box, "bust")
    assert box.controls.question == "same_hand"
    assert box.controls.next_due() is not None
    box.wait(21)  # QUESTION_SECONDS without an answer
    assert box.sent == [] and box.controls.question is None
    assert box.outcomes[-1].message == "bust_dropped"


def test_the_question_is_dropped_when_the_player_leaves_the_seat(box):
    box.controls.update_table(ASKS)
    box.tap("seat_next")
    hold(box, "bust")
    box.controls.update_table({**ASKS, "seats": TABLE["seats"][1:]})  # seat 2 is empty now
    assert box.controls.question is None
    hold(box, "bust")
    assert box.sent == []


def test_no_question_without_a_bust_in_the_hand(box):
    box.controls.update_table({**TABLE, "asks_same_hand": False, "hand_busts": []})
    box.tap("seat_next")
    hold(box, "bust")
    assert box.sent == [("bust", {"seat": 2})] and not asked(box)


def test_a_player_on_the_way_is_confirmed_first():
    """10.2: the seat's player is still on the way: the screen says who and from where,
    and a second hold confirms; then the same-hand question, if any."""
    sent: list = []
    controls = TableControls(ButtonConfig(pins=PINS), lambda a, **f: sent.append((a, f)) or "c")
    seats = [dict(s) for s in TABLE["seats"]]
    seats[1]["incoming"] = True
    controls.update_table({**ASKS, "seats": seats, "moves_in": [
        {"player": "Ben", "player_id": 12, "from": {"table": 3, "seat": 7},
         "to": {"table": 1, "seat": 5}}]})
    controls.select(5)
    q = controls.do("bust")
    assert (q.kind, q.message) == ("question", "ask_incoming")
    assert q.values == {"seat": 5, "name": "Ben", "table": 3, "from_seat": 7}
    q = controls.do("bust")
    assert (q.kind, q.message) == ("question", "ask_same_hand")
    out = controls.do("bust")
    assert out.kind == "sent" and sent == [("bust", {"seat": 5, "same_hand": True,
                                                     "confirm": True})]


def test_time_names_the_selected_seat_001_1_VI(box):
    """The dealer picks the player and presses TIME: that player's call (with an action
    clock: the one extension of the hand, 001 §1 VI); the pick is used up, so the next
    TIME is the action clock for the next decision."""
    box.tap("seat_next")
    box.tap("time")
    assert box.sent == [("time", {"seat": 2})]
    assert box.controls.selected is None
    box.tap("time")
    assert box.sent == [("time", {"seat": 2}), ("time", {})]


def test_hand_done_says_seated_while_the_table_waits_TDA_11D(box):
    """A short table waits for its arrivals (TDA 11D): while its state lists them in
    ``waits_for`` the hand-done button tells the controller they sat down."""
    coming = {"player": "Dora", "player_id": 14, "from": {"table": 2, "seat": 4},
              "to": {"table": 1, "seat": 3}, "reason": "balancing",
              "waiting_for_button": False, "done": False}
    box.controls.update_table({**TABLE, "waits_for": [coming]})
    box.tap("hand_done")
    assert box.sent == [("seated", {})]
    assert box.outcomes[-1].action == "seated"
    box.controls.update_table({**TABLE, "waits_for": []})
    box.tap("hand_done")
    assert box.sent == [("seated", {}), ("hand_done", {})]
