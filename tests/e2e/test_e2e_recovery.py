"""Things going wrong on the floor, end to end: a table's kiosk restarts, the broker goes
away (fixtures in conftest.py: real Mosquitto, the controller process, mock-pin boxes)."""

from __future__ import annotations

import re


def seats_of(app, table: int) -> dict[int, str]:
    return {s["seat"]: s["name"] for s in app.view.state[f"table/{table}"]["seats"]}


def test_a_restarted_kiosk_shows_the_current_state(floor):
    """From the retained topics and one clock sync, nothing else waited for (the tests
    check what it shows, not how fast: the 3 s below is only how long to wait at most)."""
    t1, wall = floor.table(1), floor.wall()
    floor.ready(t1, wall)
    # the evening moves on: a bust at this table, the next level
    seat = min(seats_of(t1, 1))
    floor.select(1, seat)
    assert floor.answer(t1, floor.hold(1, "bust")).kind == "accepted"
    floor.director("level", {"to": "next"})
    # the hand in play ends: table 1 deals at the new level (before it, its screen shows
    # the hand's level 1 and the next hand's blinds, 000 9.6)
    floor.director("hand_done", {"table": 1})
    floor.run_until(lambda: "LEVEL 2" in floor.texts(wall)
                    and len(seats_of(wall, 1)) == 8, 2, "the wall up to date")
    expected = seats_of(wall, 1)  # what the room sees, from the wall's own link
    floor.close(t1)

    # the Pi comes back (a new process would do the same): a fresh app for table 1
    again = floor.table(1)

    def current() -> bool:
        texts = floor.texts(again)
        return (again.view.online and "table/1" in again.view.state
                and "LEVEL 2" in texts and "75 / 150" in texts
                and all(name in texts for name in expected.values()))

    floor.run_until(current, 3, "the current state on the restarted kiosk")
    assert seats_of(again, 1) == expected
    assert floor.texts(again).count("free") == 1  # the busted seat
    assert abs(floor.clock(again) - floor.clock(wall)) <= 1
    # and never a remaining time counted from its own clock before the first sync
    # (that was "498695:04:26" for a frame, or for good if the controller did not answer)
    assert not [t for t in floor.drawn[id(again)] if re.fullmatch(r"\d{3,}:\d\d:\d\d", t)]
    # its button box works: the pins were released by the old app and taken by the new one
    floor.tap(1, "seat_next")
    assert again.view.selected_seat == min(expected)


def test_broker_outage_the_kiosks_keep_counting_and_presses_are_applied_once(floor):
    t1, t2 = floor.table(1), floor.table(2)
    floor.ready(t1, t2)
    assert not floor.shows(t1, "OFFLINE")
    floor.mosquitto.stop()
    floor.run_until(lambda: floor.shows(t1, "OFFLINE") and floor.shows(t2, "OFFLINE"), 5,
                    "the offline badge")
    # the clock counts on from the last anchor, on the screen
    before = floor.clock(t1)
    floor.steps(1.2)
    assert before - 2 <= floor.clock(t1) <= before - 1
    # presses during the outage: a hand done at table 1, a bust held at table 2
    floor.tap(1, "hand_done")
    assert t1.link.pending() == 1
    assert floor.shows(t1, "Hand done: offline, will be sent")
    seat, name = min(seats_of(t2, 2).items())
    floor.select(2, seat)
    floor.hold(2, "bust")
    assert t2.link.pending() == 1
    assert floor.shows(t2, f"Bust: seat {seat}: offline, will be sent")
    floor.steps(0.3)
    floor.mosquitto.start()

    # back: both presses answered, and applied once
    def answered(app):
        fb = app.view.feedback
        return fb is not None and fb.kind == "accepted" and app.link.pending() == 0

    floor.run_until(lambda: answered(t1) and answered(t2), 20, "the answers after the outage")
    assert t2.view.feedback.text == f"{name} out in place 18"
    floor.run_until(lambda: not floor.shows(t1, "OFFLINE") and not floor.shows(t2, "OFFLINE")
                    and t1.view.state["table/1"]["hands"] == 1
                    and name not in seats_of(t2, 2).values(), 5, "the screens up to date")
    floor.steps(2.5)  # longer than a resend
    assert [e["table"] for e in floor.events("hand_done")] == [1]
    assert [e["seat"] for e in floor.events("busted")] == [seat]
    assert floor.status()["summary"]["players_left"] == 17
    assert t1.view.state["table/1"]["hands"] == 1


def test_a_kiosk_started_while_the_controller_is_down_makes_up_no_time(floor):
    """The broker still has the retained state, but nobody answers the clock sync: the
    seats are known, the controller's time is not. No invented remaining time; the
    clock appears as soon as the controller is back."""
    wall = floor.wall()
    floor.ready(wall)
    assert floor.controller.terminate() == 0
    t1 = floor.table(1)
    floor.run_until(lambda: t1.view.online and "table/1" in t1.view.state, 20,
                    "retained state")
    floor.steps(1.0)
    assert not t1.link.sync.synced
    assert not [t for t in floor.drawn[id(t1)] if re.fullmatch(r"\d{3,}:\d\d:\d\d", t)]
    assert floor.shows(t1, "Waiting for the tournament")
    floor.controller.start()
    # a controller's start took over 5 s with the suite in parallel on a loaded machine
    floor.run_until(lambda: t1.link.sync.synced and "LEVEL 1" in floor.texts(t1), 60,
                    "the clock once the controller is back")
    assert abs(floor.clock(t1) - floor.clock(wall)) <= 1
