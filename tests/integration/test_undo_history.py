"""Undo, corrections and the history through the real broker and the controller in its own
process (issue 10, points 6-9): the replies say in words what happened, `floorman history`
gives the numbers `undo --event` takes, and a batch of registrations undone and entered
again works (it used to answer `internal error (InvalidEvent)` to every later register).
000 3.3: the record is corrected by explicit events only."""

from __future__ import annotations

import re

from tests.support.controller import director, floorman, status, wait_up


def test_undo_rename_unregister_and_history_over_the_broker(broker, prefix, controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)

    # 10.7: the first of two batches undone, its names registered again
    first = director(b, "register", {"names": ["Karl Meier", "Anna Roth", "Jonas Weber"]})
    director(b, "register", {"names": ["Sarah Krause", "Tim Wolf"]})
    undo = director(b, "undo", {"target": first["events"][0]})
    assert undo["message"] == (f"registration of Karl Meier, Anna Roth, Jonas Weber undone "
                               f"(event {first['events'][0]})")
    again = director(b, "register", {"names": ["Karl Meier", "Anna Roth", "Jonas Weber"]})
    assert again["message"].startswith("registered 3 players")
    assert director(b, "register", {"names": ["Greta Sommer"]})["message"] == (
        "registered Greta Sommer")

    # rename (a typo) and unregister (before the draw), on the command line
    r = floorman(b, "rename", "Tim", "Wolf", "--to", "Tim", "Wolff")
    assert r.returncode == 0 and r.stdout.strip() == "Tim Wolf renamed Tim Wolff", r.stderr
    r = floorman(b, "unregister", "greta sommer")
    assert r.returncode == 0 and r.stdout.strip() == "Greta Sommer taken off the list", r.stderr
    director(b, "register", {"names": [f"P{i}" for i in range(1, 8)]})
    summary = status(b)["summary"]
    assert summary["entries"] == 12 and summary["players_left"] == 12

    # 10.9: before the start the status shows the level's full time (sample: 18 minutes)
    director(b, "draw")
    assert "level 1 50/100, 18:00 left (not started)" in director(b, "status")["message"]
    start = director(b, "start")
    assert start["message"] == "clock started; level 1 50/100: 18:00 left (running)"
    refused = director(b, "time", {"op": "add", "seconds": -3600}, ok=False)
    assert re.fullmatch(r"level 1 has only 1[78]:\d\d left: removing 1:00:00 would end it; "
                        r"to end the level: level next", refused["reason"]), refused
    assert status(b)["clock"]["level"] == 0

    # 10.8: a bust undone is answered in words, with its place
    bust = director(b, "bust", {"player": "Karl Meier"})
    assert bust["message"] == "Karl Meier out in place 12"
    ev = director(b, "history")["result"]["commands"][-1]["phrases"][0]["params"]
    table, seat = ev["table"], ev["seat"]
    undo = director(b, "undo")
    assert undo["message"] == (f"bust of Karl Meier, table {table} seat {seat}, place 12 "
                               f"undone (event {bust['events'][0]})")

    # the history: numbers, what each did, and who undid it
    hist = director(b, "history")
    rows = {r["event"]: r for r in hist["result"]["commands"]}
    assert rows[bust["events"][0]]["undone_by"] == undo["events"][0]
    assert rows[undo["events"][0]]["phrases"][0]["key"] == "undone"
    r = floorman(b, "history")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith(f"#{bust['events'][0]} "))
    assert re.search(r"\d\d:\d\d:\d\d  Karl Meier out \(table \d seat \d+\) \[undone by "
                     rf"#{undo['events'][0]}\]$", line), line
    assert f"#{first['events'][0]} " in r.stdout  # the undone registration is listed too
