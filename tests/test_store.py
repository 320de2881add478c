"""The event log on a bad day, in-process (issue 11 points 6-9; the real processes are in
tests/drills/test_drill_bad_disk.py): what is not a Floorman log is refused and left
untouched, damage is named, one controller per log and prefix, a write that fails is
answered "not stored" and leaves the state equal to the stored log."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.engine.tournament import Tournament
from controller.log import lock
from controller.log.floor import Floor
from controller.log.store import (
    EXIT_DAMAGED,
    EXIT_LOCKED,
    EXIT_NOT_A_LOG,
    DiskFull,
    EventStore,
    LogDamaged,
    NotALog,
    StoreError,
)
from tests.support.settings import make_settings
from tests.support.waiting import wait_for


def opened(path: Path, players: int = 12) -> Floor:
    f = Floor.open(make_settings(), path, seed=1, now=0.0)
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(players)]}, 1.0)
    f.execute({"cmd": "draw"}, 2.0)
    f.execute({"cmd": "start"}, 3.0)
    return f


# --------------------------------------------------------------- 11.7: what is a log
def test_a_new_tournament_starts_on_a_path_that_does_not_exist(tmp_path):
    path = tmp_path / "new.sqlite"
    opened(path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sqlite"]  # no leftovers
    again = Floor.open(make_settings(), path)
    assert len(again.log) > 12 and again.tournament.drawn


def test_an_empty_file_is_not_a_new_tournament(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.touch()
    with pytest.raises(NotALog, match="empty.sqlite: is empty \\(0 bytes\\)") as info:
        Floor.open(make_settings(), path)
    assert info.value.exit_code == EXIT_NOT_A_LOG
    assert path.stat().st_size == 0
    # the explicit flag takes it
    f = Floor.open(make_settings(), path, new=True)
    assert f.log[0]["type"] == "opened"
    f.close()
    assert EventStore(path).count() == 1


def test_new_never_overwrites_a_log(tmp_path):
    path = tmp_path / "log.sqlite"
    opened(path).close()
    before = path.read_bytes()
    with pytest.raises(NotALog, match="never overwritten"):
        Floor.open(make_settings(), path, new=True)
    assert path.read_bytes() == before


def test_a_foreign_database_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "members.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE members (name TEXT)")
    db.execute("INSERT INTO members VALUES ('Anna')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(NotALog, match="not a Floorman event log \\(its tables: members\\)"):
        Floor.open(make_settings(), path)
    assert path.read_bytes() == before  # no tables of ours added


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("the seating of last friday\n")
    with pytest.raises(NotALog, match="is not an SQLite database"):
        Floor.open(make_settings(), path)
    assert path.read_text() == "the seating of last friday\n"


def test_a_log_without_any_event_is_refused(tmp_path):
    path = tmp_path / "log.sqlite"
    EventStore(path).close()  # the tables, no event: no tournament was ever opened
    with pytest.raises(NotALog, match="without any event"):
        Floor.open(make_settings(), path)


# ---------------------------------------------------------- 11.8: a damaged log
def test_an_event_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "log.sqlite"
    opened(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body = '{\"seq\": 5, ' WHERE seq = 5")
    db.commit()
    db.close()
    with pytest.raises(LogDamaged, match="log.sqlite: the log is damaged: event 5 is not JSON") \
            as info:
        Floor.open(make_settings(), path)
    assert info.value.exit_code == EXIT_DAMAGED


def test_a_corrupt_page_is_named(tmp_path):
    path = tmp_path / "log.sqlite"
    opened(path, players=60).close()
    corrupt_events_root(path)
    with pytest.raises(LogDamaged, match="log.sqlite: the log is damaged \\(.*malformed"):
        Floor.open(make_settings(), path)


def corrupt_events_root(path: Path) -> None:
    """Overwrite the head of the events table's root page (mid-file: page 2 or later)."""
    db = sqlite3.connect(path)
    root, = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()
    size, = db.execute("PRAGMA page_size").fetchone()
    db.close()
    assert root > 1
    with open(path, "r+b") as f:
        f.seek(size * (root - 1))
        f.write(b"\xff" * 64)


def test_an_edited_event_is_refused_naming_it(tmp_path):
    path = tmp_path / "log.sqlite"
    opened(path).close()
    db = sqlite3.connect(path)
    body = json.loads(db.execute("SELECT body FROM events WHERE seq = 7").fetchone()[0])
    db.execute("UPDATE events SET body = ? WHERE seq = 7",
               (json.dumps({**body, "name": "Somebody Else"}),))
    db.commit()
    db.close()
    with pytest.raises(LogDamaged, match="cannot be replayed: event 7: does not match its hash"):
        Floor.open(make_settings(), path)


# --------------------------------------------------------------- 11.9: disk full
def test_a_press_that_cannot_be_stored_is_answered_and_rolled_back(tmp_path):
    """A full log (SQLite's page limit here; the real full disk is in the bad-disk drill):
    the answer says so, the state stays equal to the stored log, the next press after
    space is back is accepted."""
    path = tmp_path / "log.sqlite"
    f = opened(path)
    pages = f.store._db.execute("PRAGMA page_count").fetchone()[0]
    f.store._db.execute(f"PRAGMA max_page_count = {pages}")
    seat = min(f.tournament.tables[1].occupant)
    answers = [f.execute({"cmd": "bust", "table": 1, "seat": seat}, 10.0, command_id="b1")]
    for i in range(200):  # until the log has no room left
        if not answers[-1]["ok"]:
            break
        answers.append(f.execute({"cmd": "hand_done", "table": 2}, 11.0 + i,
                                 command_id=f"h{i}"))
    assert answers[-1] == {"ok": False, "reason": "not stored: the disk is full",
                           "why": {"key": "not stored: the disk is full", "params": {}}}
    stored = f.store.events()
    assert f.log == stored
    assert Tournament.replay(stored).fingerprint() == f.tournament.fingerprint()
    assert f.store.answer(f"h{len(answers) - 2}") is None  # the failed one is not remembered

    f.store._db.execute("PRAGMA max_page_count = 1000000")
    again = f.execute({"cmd": "hand_done", "table": 2}, 500.0, command_id="after")
    assert again["ok"], again
    assert Tournament.replay(f.store.events()).fingerprint() == f.tournament.fingerprint()


def test_a_failed_write_leaves_the_store_usable():
    """Today: 'cannot rollback - no transaction is active' after a full disk."""
    store = EventStore(":memory:")
    store._db.execute("PRAGMA max_page_count = 3")
    big = [{"seq": i, "group": 1, "type": "x", "at": 0.0, "pad": "x" * 3000}
           for i in range(1, 20)]
    with pytest.raises(DiskFull, match="not stored: the disk is full"):
        store.append(big, "c1", {"ok": True})
    assert store.count() == 0 and store.answer("c1") is None
    store.append(big[:1])
    assert store.count() == 1


# --------------------------------------------------------------- 11.6: the lock
def test_a_second_holder_of_the_log_is_refused_naming_the_first(tmp_path):
    path = tmp_path / "log.sqlite"
    held = lock.hold(str(path), "club/friday")
    try:
        with pytest.raises(lock.LogLocked, match=rf"log.sqlite: is in use by another "
                           rf"controller: pid {os.getpid()} on ") as info:
            lock.hold(str(path), "club/other")
        assert info.value.exit_code == EXIT_LOCKED
        with pytest.raises(lock.LogLocked, match="prefix club/friday: is in use .*log.sqlite"):
            lock.hold(str(tmp_path / "other.sqlite"), "club/friday")
    finally:
        for h in held:
            h.release()
    for h in lock.hold(str(path), "club/friday"):  # released: free again
        h.release()


def test_the_lock_dies_with_its_process(tmp_path):
    path = tmp_path / "log.sqlite"
    code = ("import sys, time; from controller.log import lock; "
            f"lock.hold({str(path)!r}, 'club/friday'); print('held', flush=True); "
            "time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        with pytest.raises(lock.LogLocked, match=f"pid {proc.pid} "):
            lock.hold(str(path), "club/friday")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    for h in lock.hold(str(path), "club/friday"):
        h.release()


def test_store_errors_carry_the_file_and_an_exit_code(tmp_path):
    for cls in (StoreError, NotALog, LogDamaged, DiskFull):
        exc = cls("x.sqlite", "what")
        assert str(exc) == "x.sqlite: what" and exc.exit_code >= 3


# ------------------------------------------------------------ background checkpoints


def test_the_wal_is_copied_into_the_database_off_the_writers_thread(tmp_path):
    """The writer's own automatic checkpoint is off (its fsync held an ack up); the
    checkpointer's thread copies the WAL into the database file once it has grown, and
    the log reads back whole, also after the store is closed and opened again."""
    path = tmp_path / "log.sqlite"
    t = Tournament.new(make_settings(), seed=1)
    store = EventStore.create(path, t.log)
    store.start_checkpoints(every=0.02, pages=4)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    before = os.path.getsize(path)
    seq = len(t.log)
    body = "x" * 2000
    for i in range(60):  # about 60 pages of WAL
        seq += 1
        store.append([{"seq": seq, "group": seq, "type": "note", "at": float(i),
                       "text": body}])
    wait_for(lambda: os.path.getsize(path) > before + 40 * 4096, 10,
             "the database file to take the WAL's pages")
    store.close()
    assert store._checkpointer is None
    again = EventStore(path)
    try:
        assert again.count() == seq
        assert again.events()[-1]["text"] == body
    finally:
        again.close()


def test_a_store_in_memory_has_no_checkpointer():
    store = EventStore(":memory:")
    store.start_checkpoints()
    assert store._checkpointer is None
    store.close()
