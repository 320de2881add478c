"""The log is the record: a tournament file edited during the night does not change a
running tournament. The controller resumes with the settings in the log, says which keys
of the file differ, and a structure change made by command survives the restart."""

from __future__ import annotations

from tests.support.controller import director, floorman, start_tournament, wait_up
from tests.support.mqtt import retained_state
from tests.support.paths import SAMPLE_TOURNAMENT
from tests.support.waiting import wait_for


def test_an_edited_file_is_reported_and_the_log_wins(broker, prefix, controller_factory,
                                                     tmp_path):
    config = tmp_path / "friday.yaml"
    config.write_text(SAMPLE_TOURNAMENT.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "friday.sqlite"
    b = broker.for_prefix(prefix)
    ctrl = controller_factory(config, db)
    wait_up(b)
    start_tournament(b, players=27)
    # the director adds a break after level 2 and makes the levels from 5 on 30 minutes
    director(b, "structure",
             {"op": "insert", "after": 2, "level": {"kind": "break", "minutes": 10,
                                                    "note": "Abendessen"}})
    director(b, "structure",
             {"op": "minutes", "from_level": 5, "minutes": 30})
    before = retained_state(b)
    levels = before["structure"]["levels"]
    assert levels[2]["is_break"] and levels[2]["note"] == "Abendessen"
    seats_before = {n: before[f"table/{n}"]["size"] for n in (1, 2, 3)}
    assert ctrl.terminate() == 0

    # someone edits the file of the running tournament: 8 per table, another stack
    config.write_text(config.read_text(encoding="utf-8").replace(
        "start_stack: 10000", "start_stack: 30000") + "players_per_table: 8\n",
        encoding="utf-8")
    ctrl = controller_factory(config, db)
    up = wait_up(b)
    assert up["summary"]["players_left"] == 27
    assert up["summary"]["average_stack"] == 10000  # the log's start stack, not the file's
    after = retained_state(b)
    assert after["structure"]["levels"] == levels  # the director's changes survived
    assert {n: after[f"table/{n}"]["size"] for n in (1, 2, 3)} == seats_before
    out = wait_for(lambda: "differs from the settings in the log" in ctrl.output()
                   and ctrl.output(), what="the difference reported")
    assert "players_per_table" in out and "start_stack" in out
    # and the tournament goes on at the log's 9 seats: the player in seat 9 can bust
    assert seats_before == {1: 9, 2: 9, 3: 9}
    assert any(s["seat"] == 9 for s in after["table/1"]["seats"])
    director(b, "bust", {"table": 1, "seat": 9})


def test_structure_send_and_a_tables_undo_from_the_command_line(broker, prefix,
                                                                controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)
    start_tournament(b, players=18)
    r = floorman(b, "structure", "insert", "--after", "3", "--break", "--minutes", "15",
                 "--note", "Chipraise 25")
    assert r.returncode == 0 and r.stdout.strip() == \
        "structure: a break of 15 min inserted after level 3", r.stderr
    r = floorman(b, "structure", "minutes", "--from", "1", "--minutes", "30")
    assert r.returncode == 1 and "level 1 has already begun" in r.stderr
    r = floorman(b, "send", "time", "op=add", "seconds=60")
    assert r.returncode == 0 and r.stdout.startswith("1:00 added; level 1 "), r.stderr
    r = floorman(b, "send", "bust", "tabel=1", "seat=2")
    assert r.returncode == 1 and "unknown argument 'tabel' (did you mean 'table'?" in r.stderr
    assert floorman(b, "hand-done", "1").returncode == 0
    r = floorman(b, "undo", "--table", "1")
    assert r.returncode == 0 and r.stdout.startswith("hand done at table 1 undone"), r.stderr
    r = floorman(b, "undo", "--table", "1")
    assert r.returncode == 1 and "nothing to undo at table 1" in r.stderr
    levels = retained_state(b)["structure"]["levels"]
    third = next(i for i, lv in enumerate(levels) if lv["number"] == 3 and not lv["is_break"])
    assert levels[third + 1]["is_break"] and levels[third + 1]["note"] == "Chipraise 25"
    assert levels[third + 1]["seconds"] == 900
