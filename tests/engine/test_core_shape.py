"""The shape of the core: settings in the log, typed commands and events, rules that
react to the time passed in (time calls), a table's undo, structure changes."""

from __future__ import annotations

import copy
import dataclasses
import re
from pathlib import Path

import pytest

from controller.engine import commands, events
from controller.engine.events import InvalidEvent
from controller.engine.rules import COMMANDS, FOLDS, RULES
from controller.engine.settings import TimeCall, from_data
from controller.engine.tournament import Rejected, Tournament
from controller.log.floor import Floor
from tests.support.settings import make_settings, new_tournament, replay_equal

LEVEL = 600.0
DOCS = Path(__file__).resolve().parents[2] / "docs"


def new(players: int = 18, seed: int = 3, **overrides) -> Tournament:
    return new_tournament(players, seed, **overrides)


# ------------------------------------------------------------ settings in the log
def test_the_first_event_records_the_settings_without_the_broker():
    s = make_settings()
    t = Tournament.new(s, 1, 0.0)
    opened = t.log[0]
    assert opened["type"] == "opened" and opened["v"] == events.VERSION
    assert "broker" not in opened["settings"]
    assert from_data(opened["settings"]) == dataclasses.replace(s, broker=s.broker)


def test_replay_uses_the_logs_settings_not_the_callers():
    t = new(18)
    other = make_settings(players_per_table=8, start_stack=30_000)
    again = Tournament.replay(t.log, other)  # the file changed; the log wins
    assert again.settings.players_per_table == 9 and again.settings.start_stack == 10_000
    assert again.fingerprint() == t.fingerprint()


def test_a_version_1_log_replays_with_the_files_settings():
    t = new(18)
    old = [{k: v for k, v in e.items() if k not in ("v", "hash")} for e in t.log]
    del old[0]["settings"]
    assert Tournament.replay(old, t.settings).fingerprint() == t.fingerprint()
    with pytest.raises(InvalidEvent, match="does not record its settings"):
        Tournament.replay(old)


def test_a_newer_event_version_is_refused_not_guessed():
    t = new(18)
    log = copy.deepcopy(t.log)
    log[-1]["v"] = events.VERSION + 1
    with pytest.raises(InvalidEvent, match="update Floorman"):
        Tournament.replay(log)


def test_a_damaged_event_names_the_field():
    t = new(18)
    # a version-2 log (no hash chain, which would name the edit first)
    log = [{**{k: v for k, v in e.items() if k != "hash"}, "v": 2} for e in t.log]
    log[1]["player"] = "one"
    with pytest.raises(InvalidEvent, match=r"event 2 \(registered\): player"):
        Tournament.replay(log)


def test_floor_reports_the_keys_where_the_file_differs(tmp_path):
    path = tmp_path / "log.sqlite"
    s = make_settings()
    f = Floor.open(s, path, seed=1)
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(18)]}, 1.0)
    f.execute({"cmd": "draw"}, 2.0)
    f.close()
    edited = dataclasses.replace(s, players_per_table=8,
                                 time_call=TimeCall(seconds=30, countdown=5))
    f = Floor.open(edited, path)
    assert f.drift == ["players_per_table", "time_call.countdown", "time_call.seconds"]
    assert f.tournament.settings.players_per_table == 9
    assert max(t.size for t in f.tournament.tables.values()) == 9
    f.close()
    assert Floor.open(s, path).drift == []


# ------------------------------------------------------------------- commands
@pytest.mark.parametrize("command,reason", [
    ({"cmd": "bust", "tabel": 1, "seat": 2},
     "bad arguments for bust: unknown argument 'tabel' (did you mean 'table'?"),
    ({"cmd": "hand_done"}, "bad arguments for hand_done: table is missing"),
    ({"cmd": "hfh", "on": "yes"}, "on must be true or false, got 'yes'"),
    ({"cmd": "time", "seconds": "60"}, "seconds must be a number, got '60'"),
    ({"cmd": "time", "seconds": 1e9}, "seconds must be a number at most 86400"),
    ({"cmd": "bust", "table": 1, "seat": 0}, "seat must be a number at least 1, got 0"),
    ({"cmd": "level", "to": "last"}, "to must be one of next or prev or a whole number"),
    ({"cmd": "hand-dnoe", "table": 1}, "unknown command 'hand-dnoe' (did you mean 'hand_done'?)"),
    ({"cmd": "structure", "op": "insert", "after": 2, "level": {"minutes": "ten"}},
     "level.minutes must be a number, got 'ten'"),
])
def test_a_bad_argument_names_the_field_and_what_was_expected(command, reason):
    t = new(18)
    before = t.fingerprint()
    with pytest.raises(Rejected) as info:
        t.execute(command, 100.0)
    assert reason in str(info.value)
    assert t.fingerprint() == before


def test_every_command_has_one_rule_and_every_event_one_fold():
    assert set(COMMANDS) == set(commands.ALL)
    assert set(FOLDS) | {"opened"} == set(events.BY_TYPE)
    assert len({r.__name__ for r in RULES}) == len(RULES)


def test_a_typed_command_runs_like_its_dict():
    a, b = new(18), new(18)
    a.execute(commands.Bust(table=1, seat=2), 50.0)
    b.execute({"cmd": "bust", "table": 1, "seat": 2}, 50.0)
    assert a.log == b.log


def _doc_table(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(heading)
    block = text[start:].split("\n\n")[1]
    return block.strip()


def test_the_docs_tables_are_the_definitions():
    """docs/engine.md shows the commands and events as their definitions make them."""
    doc = DOCS / "engine.md"
    assert _doc_table(doc, "<!-- commands: generated") == commands.table()
    assert _doc_table(doc, "<!-- events: generated") == events.table()


# ----------------------------------------------------------------- time calls
def test_the_engine_expires_a_time_call_when_its_time_is_up():
    t = new(18, time_call=TimeCall(seconds=60, countdown=10))
    t.execute({"cmd": "time_call", "table": 1, "seat": 3}, 100.0)
    assert t.execute({"cmd": "tick"}, 169.9) == []
    assert t.tables[1].time_call is not None
    ev = t.execute({"cmd": "tick"}, 170.0)
    assert [(e["type"], e["op"], e["table"]) for e in ev] == [("time_call", "expire", 1)]
    assert t.tables[1].time_call is None
    replay_equal(t)


def test_any_command_after_the_end_of_a_call_records_its_expiry_first_hand():
    t = new(18)
    t.execute({"cmd": "time_call", "table": 2}, 100.0)
    ev = t.execute({"cmd": "bust", "table": 1, "seat": 1}, 200.0)
    assert [e["type"] for e in ev][:1] == ["busted"]
    assert any(e["type"] == "time_call" and e["op"] == "expire" for e in ev)


def test_the_time_button_starts_and_cancels():
    t = new(18)
    t.execute({"cmd": "time_call", "table": 1, "op": "toggle"}, 100.0)
    assert t.tables[1].time_call is not None
    t.execute({"cmd": "time_call", "table": 1, "op": "toggle"}, 110.0)
    assert t.tables[1].time_call is None
    assert [e["op"] for e in t.log if e["type"] == "time_call"] == ["start", "cancel"]


# ------------------------------------------------------------------ a table's undo
def test_a_tables_undo_takes_back_its_last_press_not_another_tables():
    t = new(18)
    t.execute({"cmd": "hand_done", "table": 1}, 50.0)
    bust2 = t.execute({"cmd": "bust", "table": 2, "seat": 1}, 60.0)[0]
    t.execute({"cmd": "hand_done", "table": 1}, 70.0)
    hands = t.tables[1].hands
    ev = t.execute({"cmd": "undo", "table": 1}, 80.0)
    assert t.tables[1].hands == hands - 1
    assert ev[0]["type"] == "undo" and t.log[ev[0]["target"] - 1]["table"] == 1
    ev = t.execute({"cmd": "undo", "table": 2}, 90.0)
    assert ev[0]["target"] == bust2["group"]
    assert not t.players[bust2["player"]].out
    with pytest.raises(Rejected, match="nothing to undo at table 2"):
        t.execute({"cmd": "undo", "table": 2}, 95.0)
    replay_equal(t)


def test_an_expiry_is_not_a_press_a_table_can_undo():
    t = new(18)
    t.execute({"cmd": "time_call", "table": 1}, 100.0)
    t.execute({"cmd": "tick"}, 500.0)  # expired
    ev = t.execute({"cmd": "undo", "table": 1}, 510.0)
    start = t.log[ev[0]["target"] - 1]
    assert start["type"] == "time_call" and start["op"] == "start"


# ------------------------------------------------------------------- structure
def test_insert_a_break_and_lengthen_the_coming_levels():
    t = new(18)
    n = len(t.settings.structure)
    ev = t.execute({"cmd": "structure", "op": "insert", "after": 2,
                    "level": {"kind": "break", "minutes": 15, "note": "Essen"}}, 100.0)
    assert ev[0]["type"] == "structure_changed"
    assert ev[0]["change"] == "a break of 15 min inserted after level 2"
    s = t.settings.structure
    assert len(s) == n + 1 and s[2].is_break and s[2].seconds == 900 and s[2].note == "Essen"
    t.execute({"cmd": "structure", "op": "minutes", "from_level": 4, "minutes": 20}, 110.0)
    s = t.settings.structure
    playing = [lv for lv in s if not lv.is_break]
    assert [lv.seconds for lv in playing[:3]] == [600] * 3
    assert all(lv.seconds == 1200 for lv in playing[3:])
    assert [lv.seconds for lv in s if lv.is_break] == [900, 600]  # breaks keep their length
    replay_equal(t)
    # the clock follows the new structure: level 2 ends at 2 + 1200, the break 900 later
    t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL + 1)
    assert t.settings.structure[t.clock.level].is_break
    t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL + 901)
    assert t.level_number() == 3


def test_a_level_inserted_and_undone():
    t = new(18)
    n = len(t.settings.structure)
    t.execute({"cmd": "structure", "op": "insert", "after": 12,
               "level": {"minutes": 10, "small_blind": 100_000, "big_blind": 200_000,
                         "ante": 200_000}}, 100.0)
    assert len(t.settings.structure) == n + 1
    assert t.settings.structure[-1].big_blind == 200_000
    t.execute({"cmd": "undo"}, 110.0)
    assert len(t.settings.structure) == n
    replay_equal(t)


@pytest.mark.parametrize("command,reason", [
    ({"op": "insert", "after": 0, "level": {"minutes": 10, "small_blind": 5, "big_blind": 10}},
     "already being played"),
    ({"op": "minutes", "from_level": 1, "minutes": 30}, "has already begun"),
    ({"op": "minutes", "from_level": 99, "minutes": 30}, "there is no level 99"),
    ({"op": "insert", "after": 2, "level": {"minutes": 10, "small_blind": 50, "big_blind": 10}},
     "small blind <= big blind"),
    ({"op": "insert", "after": 2, "level": {"kind": "break", "minutes": 10, "ante": 5}},
     "a break has no blinds"),
    ({"op": "insert", "level": {"minutes": 10}}, "needs 'after'"),
])
def test_the_past_cannot_change(command, reason):
    t = new(18)
    before = t.fingerprint()
    with pytest.raises(Rejected, match=re.escape(reason)):
        t.execute({"cmd": "structure", **command}, 100.0)
    assert t.fingerprint() == before


def test_a_record_in_memory_equals_the_record_read_back():
    """The live log and the stored log are the same data (no tuples for lists)."""
    import json

    t = new(18, balancing=dataclasses.replace(make_settings().balancing, break_order=(2, 1)))
    t.execute({"cmd": "bust", "table": 1, "seat": 1}, 50.0)
    assert json.loads(json.dumps(t.log)) == t.log


def test_a_mystery_bounty_still_scores_the_places():
    """bounty: mystery used to make scoring raise, and the live results dropped the points."""
    from controller.engine.settings import Points

    t = new(6, points=Points(system="psc_ranking", bounty="mystery"))
    for _ in range(5):
        table = next(n for n, tab in t.tables.items() if tab.count() > 0)
        seat = min(t.tables[table].occupant)
        if t.remaining > 1:
            t.execute({"cmd": "bust", "table": table, "seat": seat}, 50.0)
    assert t.finished
    rows = t.results()
    assert [r.points for r in rows[:3]] == [6, 3, 1]  # 000 5.4 with 6 players
    assert all(r.bounty_hits == 0 for r in rows)


def test_a_log_of_a_newer_floorman_is_a_clear_error_at_open(tmp_path):
    import json
    import sqlite3

    from controller.log.store import StoreError

    path = tmp_path / "log.sqlite"
    Floor.open(make_settings(), path, seed=1).close()
    db = sqlite3.connect(path)
    body = json.loads(db.execute("SELECT body FROM events").fetchone()[0])
    db.execute("UPDATE events SET body = ?", (json.dumps({**body, "v": events.VERSION + 1}),))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="cannot be replayed: .*update Floorman"):
        Floor.open(make_settings(), path)
