"""A tournament evening end to end: real Mosquitto, the controller process, headless table
and wall screens whose button boxes are gpiozero mock pins (fixtures in conftest.py).

18 players on tables 1 and 2 (9 each), the PSC Five Spades preset in English.
Every check reads what the screens drew (the renderers' texts), and, where the
floor's word counts, the controller's own answer or event log.
"""

from __future__ import annotations

import time


def seats_of(app, table: int) -> dict[int, str]:
    return {s["seat"]: s["name"] for s in app.view.state[f"table/{table}"]["seats"]}


def test_bust_on_the_button_box_shows_the_place_at_the_table_and_on_the_wall(floor):
    t1, t2, wall = floor.table(1), floor.table(2), floor.wall()
    floor.ready(t1, t2, wall)
    assert floor.after(wall, "Players left") == "18"
    assert not floor.shows(wall, "Out")
    seat, name = min(seats_of(t1, 1).items())
    floor.select(1, seat)
    # held: the footer shows the hold and its seat while the bar fills
    pin = floor.pin(1, "bust")
    pin.drive_low()
    floor.steps(0.2)
    assert floor.shows(t1, f"Hold: bust · Seat {seat}")
    assert t1.link.pending() == 0  # nothing sent before the hold completes
    floor.steps(0.35)
    pin.drive_high()
    fb = floor.answer(t1, since=time.monotonic() - 1)
    assert fb.kind == "accepted" and fb.text == f"{name} out in place 18", fb
    assert floor.ever_showed(t1, f"Bust: seat {seat}: sent …")  # then the answer
    assert floor.shows(t1, f"{name} out in place 18")  # drawn, not only in the view
    # the seat is free on this table's screen; the other table did not get the answer
    floor.run_until(lambda: name not in floor.texts(t1), 2, "the name gone from table 1")
    assert not floor.shows(t2, "out in place")
    # the wall: players left, and the result list
    floor.run_until(lambda: floor.after(wall, "Players left") == "17", 2, "the wall's count")
    texts = floor.texts(wall)
    assert "Out" in texts and texts[texts.index("18.") + 1] == name, texts
    assert floor.shows(t2, "Players 17 / 18")
    status = floor.status()
    assert status["summary"]["players_left"] == 17
    assert [e["seat"] for e in floor.events("busted")] == [seat]


def test_balancing_move_on_both_tables_and_the_wall(floor):
    t1, t2, wall = floor.table(1), floor.table(2), floor.wall()
    floor.ready(t1, t2, wall)
    # two busts at table 1: 7 against 9, one player has to move from table 2 to table 1
    for i, seat in enumerate(sorted(seats_of(t1, 1))[:2]):
        floor.select(1, seat)
        pressed = floor.hold(1, "bust")
        if i:  # the second in this hand: "same hand?" on the screen, Bust held again = yes
            assert "same hand as" in floor.answer(t1, pressed).text
            pressed = floor.hold(1, "bust")
        assert floor.answer(t1, pressed).kind == "accepted"
    floor.run_until(lambda: len(seats_of(wall, 1)) == 7, 2, "table 1 at 7 on the wall")
    plan = floor.director("moves")["result"]
    assert plan["pending"] == [] and plan["plan"]["balance"] == [
        {"from_table": 2, "to_table": 1}]
    assert floor.texts(wall)[-1] == "–"  # no move yet
    # the donor table's dealer finishes the hand: the player at its next big blind moves
    fb = floor.answer(t2, floor.tap(2, "hand_done"))
    assert fb.kind == "accepted" and fb.text.startswith("move "), fb
    move = floor.director("moves")["result"]["pending"][0]
    who, frm, to = move["player"], move["from"], move["to"]
    assert frm["table"] == 2 and to["table"] == 1
    # the screens say it on one line where it fits, else the name over the destination
    # (docs/screens.md): each line is looked for whole, the pair in order
    def says(screen, *lines):
        texts = floor.texts(screen)
        joined = " ".join(texts)
        return " ".join(lines) in joined or all(line in texts for line in lines)

    floor.run_until(lambda: says(t2, who.upper(), f"→ Table 1, Seat {to['seat']}")
                    and says(t1, f"{who.upper()} → Seat {to['seat']}")
                    and says(wall, who, f"→ Table 1, Seat {to['seat']}"), 2,
                    "the move on every screen")
    # table 1 has the player in the new seat, marked as arriving; table 2 no longer
    assert seats_of(t1, 1)[to["seat"]] == who
    # the seat row's arrival tag: "→ arriving", or the arrow alone where the name needs the room
    assert any(t == "→" or t.startswith("→ arriv") for t in floor.texts(t1))
    assert who not in seats_of(t2, 2).values()
    assert floor.after(wall, "Players left") == "16"
    assert len(floor.events("moved")) == 1


def test_hand_for_hand_across_two_tables(floor):
    t1, t2, wall = floor.table(1), floor.table(2), floor.wall()
    floor.ready(t1, t2, wall)
    r = floor.cli("hfh", "on")
    assert r.returncode == 0, r.stderr
    assert "hand-for-hand on" in r.stdout
    floor.run_until(lambda: all(floor.shows(a, "Hand for hand · hand 1") for a in (t1, t2)),
                    2, "the banner on both tables")
    floor.run_until(lambda: floor.shows(wall, "HAND FOR HAND"), 2, "the wall's badge")
    # the preset stops the clock during hand-for-hand
    assert floor.shows(t1, "PAUSED") and floor.shows(t2, "PAUSED")
    # table 1 done: it waits for table 2; table 2 is told it is the one still playing
    fb = floor.answer(t1, floor.tap(1, "hand_done"))
    assert fb.kind == "accepted", fb
    floor.run_until(lambda: floor.shows(t1, "Waiting for table 2")
                    and floor.reads(t1, "this table is done, do not deal yet")
                    and floor.reads(t2, "press HAND DONE")
                    and floor.reads(t2, "table 1 waits for this table"), 2, "table 1 waiting")
    assert not floor.shows(t1, "DEAL") and not floor.shows(t2, "DEAL")
    # a second press at table 1 is refused with the controller's reason
    fb = floor.answer(t1, floor.tap(1, "hand_done"))
    assert fb.kind == "rejected" and "waiting for table 2" in fb.text, fb
    # table 2 done: the next hand is released everywhere
    fb = floor.answer(t2, floor.tap(2, "hand_done"))
    assert fb.kind == "accepted", fb
    floor.run_until(lambda: all(floor.shows(a, "DEAL") for a in (t1, t2)), 2, "DEAL on both")
    assert floor.reads(t1, "all tables are done, deal the next hand")
    assert not floor.shows(t1, "Waiting for")
    assert floor.status()["summary"]["hand_for_hand"] == {
        "on": True, "hand": 2, "done": [], "playing": [1, 2], "hands_played": 1}


def test_time_call_takes_over_the_table_screen_and_a_second_press_cancels(floor):
    t1, t2 = floor.table(1), floor.table(2)
    floor.ready(t1, t2)
    assert "LEVEL 1" in floor.texts(t1)
    fb = floor.answer(t1, floor.tap(1, "time"))
    assert fb.kind == "accepted", fb
    # 60 s + 10 s countdown (the preset), counting down in big digits
    floor.run_until(lambda: "tc" in t1.renderer._canvas.slots, 2, "the time call's screen")
    assert any(t.startswith("TIME") for t in floor.texts(t1))
    assert "LEVEL 1" not in floor.texts(t1)
    assert floor.shows(t1, "LEVEL 1 · 50 / 100")  # the level, small, under the countdown

    def shown() -> int:
        return int(t1.renderer.items[t1.renderer._canvas.slots["tc"].item][0])

    first = shown()
    assert 68 <= first <= 70
    floor.run_until(lambda: shown() <= first - 1, 2.5, "the countdown")
    # the other table keeps its clock
    assert "LEVEL 1" in floor.texts(t2) and "tc" not in t2.renderer._canvas.slots
    # time again: cancelled, the clock is back
    fb = floor.answer(t1, floor.tap(1, "time"))
    assert floor.ever_showed(t1, "Cancel time call: sent")
    assert fb.kind == "accepted" and "time call cancel" in fb.text, fb
    floor.run_until(lambda: "LEVEL 1" in floor.texts(t1), 2, "the clock back")
    assert "tc" not in t1.renderer._canvas.slots and "TIME" not in floor.texts(t1)
    assert [e["op"] for e in floor.events("time_call")] == ["start", "cancel"]
