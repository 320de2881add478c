"""Issue 27.1: a damaged or edited log is refused at the start even when it has a
snapshot (and every clean stop writes one), and ``floorman verify`` finds the same.

Each tampering is done with ``sqlite3`` to a log a clean stop left (its snapshot covers
every event), as the review did. The start is the real ``floorman controller`` process:
refused with exit 5 and one line naming the first bad event, no traceback, the file left
as it was; it never reaches the broker (the log is taken first). ``verify`` says the same.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.config import load_tournament
from controller.engine import chain
from controller.log import snapshot
from controller.log.floor import Floor
from controller.log.store import EXIT_DAMAGED, SEAL, EventStore, LogDamaged
from tests.support.controller import floorman_cli
from tests.support.paths import SAMPLE_TOURNAMENT
from tests.test_store import corrupt_events_root

SETTINGS = load_tournament(SAMPLE_TOURNAMENT)
#: nothing listens there: a refused log never gets as far as the broker
NOWHERE = "127.0.0.1:9"


def stopped_log(path: Path) -> int:
    """A played night left by a clean stop: its snapshot covers every event. Its count."""
    f = Floor.open(SETTINGS, path, seed=1, now=time.time())
    now = time.time()
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(30)]}, now)
    f.execute({"cmd": "draw"}, now)
    f.execute({"cmd": "start"}, now)
    for _ in range(3):
        seat = min(f.tournament.tables[1].occupant)
        f.execute({"cmd": "bust", "table": 1, "seat": seat, "confirm": True}, now)
        f.execute({"cmd": "hand_done", "table": 1}, now)
    count = f.snapshot()  # what the service's stop does
    assert count == len(f.log) > 10
    f.close()
    return count


def sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


def edit(path: Path, seq: int, change: Callable[[dict], dict]) -> None:
    db = sqlite3.connect(path)
    body = json.loads(db.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()[0])
    db.execute("UPDATE events SET body = ? WHERE seq = ?", (json.dumps(change(body)), seq))
    db.commit()
    db.close()


#: name → (the tampering, given the log and its count; what the one line must say)
TAMPERINGS: dict[str, tuple[Callable[[Path, int], None], Callable[[int], str]]] = {
    "not json": (lambda p, n: sql(p, "UPDATE events SET body = '{not json' WHERE seq = 5"),
                 lambda n: r"the log is damaged: event 5 is not JSON"),
    "edited event": (lambda p, n: edit(p, 5, lambda e: {**e, "at": e["at"] + 60}),
                     lambda n: r"event 5: does not match its hash"),
    "deleted event": (lambda p, n: sql(p, "DELETE FROM events WHERE seq = 5"),
                      lambda n: r"event 5: is missing \(the next stored event is 6\)"),
    "moved event": (lambda p, n: sql(p, "UPDATE events SET seq = -5 WHERE seq = 5",
                                     "UPDATE events SET seq = 5 WHERE seq = 6",
                                     "UPDATE events SET seq = 6 WHERE seq = -5"),
                    lambda n: r"event 5: holds the record of event 6 \(the log was renumbered\)"),
    "meta dropped": (lambda p, n: sql(p, "DROP TABLE meta"),
                     lambda n: r"the log is damaged: its table meta is missing"),
    "last event renumbered": (
        lambda p, n: sql(p, f"UPDATE events SET seq = {n + 1} WHERE seq = {n}"),
        lambda n: rf"event {n}: is stored under the number {n + 1} \(the log was renumbered\)"),
}


@pytest.mark.parametrize("name", TAMPERINGS)
def test_a_tampered_log_with_a_snapshot_is_refused_at_the_start(name: str,
                                                               tmp_path: Path) -> None:
    """Before: the controller started from the snapshot and said nothing."""
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    tamper, says = TAMPERINGS[name]
    tamper(db, count)
    before = db.read_bytes()
    r = floorman_cli("controller", str(SAMPLE_TOURNAMENT), "--db", str(db),
                     "--broker", NOWHERE, timeout=60)
    out = r.stdout + r.stderr
    assert r.returncode == EXIT_DAMAGED, out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert re.fullmatch(rf"floorman controller: {re.escape(str(db))}: .*{says(count)}.*",
                        lines[0]), lines[0]
    assert db.read_bytes() == before, "a refused log was changed"


@pytest.mark.parametrize("name", TAMPERINGS)
def test_verify_finds_every_tampering(name: str, tmp_path: Path) -> None:
    """Before: ``verify`` said OK with the meta table dropped or the last event renumbered."""
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    tamper, says = TAMPERINGS[name]
    tamper(db, count)
    r = floorman_cli("verify", str(db))
    out = r.stdout + r.stderr
    assert r.returncode == EXIT_DAMAGED, out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert re.search(says(count), lines[0]) and str(db) in lines[0], lines[0]


def test_an_untouched_log_starts_from_its_snapshot_with_every_event_checked(
        tmp_path: Path) -> None:
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    f = Floor.open(SETTINGS, db)
    try:
        assert f.snapshot_at == count == len(f.log)  # no replay
        assert f.store.check_seal(count) is None
    finally:
        f.close()
    r = floorman_cli("verify", str(db))
    assert r.returncode == 0 and ": OK, " in r.stdout, r.stdout + r.stderr


def test_an_edit_while_the_controller_runs_is_not_sealed_by_its_next_snapshot(
        tmp_path: Path) -> None:
    """The seal is of the bytes the controller verified and wrote, not of what the disk
    holds when the snapshot is taken (sqlite3 does not ask for the controller's lock)."""
    db = tmp_path / "friday.sqlite"
    stopped_log(db)
    f = Floor.open(SETTINGS, db)
    sql(db, "UPDATE events SET body = '{not json' WHERE seq = 5")
    f.execute({"cmd": "hand_done", "table": 2}, time.time())
    f.snapshot()
    f.close()
    with pytest.raises(LogDamaged, match="event 5 is not JSON"):
        Floor.open(SETTINGS, db)


def test_the_snapshot_of_an_older_floorman_is_used_after_one_replay(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A snapshot without a seal (the Floorman before this one) cannot vouch for the
    events it covers: the log is replayed (and so checked) once; the next clean stop
    seals its snapshot."""
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    sql(db, f"DELETE FROM meta WHERE key = '{SEAL}'")
    with caplog.at_level("INFO", logger="floorman.snapshot"):
        f = Floor.open(SETTINGS, db)
    assert f.snapshot_at == 0 and len(f.log) == count
    assert "has no seal" in caplog.text
    assert f.snapshot() == count
    f.close()
    again = Floor.open(SETTINGS, db)
    assert again.snapshot_at == count
    again.close()


def test_a_rehashed_edit_is_caught_by_the_seal_and_then_judged_by_the_chain(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An event edited with every hash after it computed again (the chain holds, which
    needs no secret): the seal no longer fits, so the start replays the log instead of
    trusting the snapshot, and says so."""
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    with EventStore(db) as store:
        events = store.events()
    value = chain.GENESIS
    con = sqlite3.connect(db)
    for e in events:
        if e["seq"] == 3:
            e["at"] += 1
        value = chain.link(value, e)
        e["hash"] = value
        con.execute("UPDATE events SET body = ? WHERE seq = ?", (json.dumps(e), e["seq"]))
    con.execute("UPDATE snapshots SET chain = ?", (value,))
    con.commit()
    con.close()
    with caplog.at_level("INFO", logger="floorman.snapshot"):
        f = Floor.open(SETTINGS, db)
    assert f.snapshot_at == 0 and len(f.log) == count
    assert "does not match events 1-" in caplog.text
    f.close()


def test_a_garbage_page_is_one_line(tmp_path: Path) -> None:
    """Before: SQLite's whole report (26 lines for one page) was the refusal."""
    db = tmp_path / "friday.sqlite"
    f = Floor.open(SETTINGS, db, seed=1, now=0.0)
    f.execute({"cmd": "register", "names": [f"Player number {i}" for i in range(300)]}, 0.0)
    f.execute({"cmd": "draw"}, 0.0)
    f.close()
    garbage_leaf(db)
    r = floorman_cli("controller", str(SAMPLE_TOURNAMENT), "--db", str(db),
                     "--broker", NOWHERE)
    out = r.stdout + r.stderr
    assert r.returncode == EXIT_DAMAGED, out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert re.fullmatch(rf"floorman controller: {re.escape(str(db))}: the log is damaged "
                        r"\(On tree page \d+ cell \d+: .*; \d+ more findings\); use a copy or "
                        r"a backup", lines[0]), lines[0]
    r = floorman_cli("verify", str(db))
    assert r.returncode == EXIT_DAMAGED and len((r.stdout + r.stderr).splitlines()) == 1, r


def test_a_corrupt_root_page_stays_one_line(tmp_path: Path) -> None:
    db = tmp_path / "friday.sqlite"
    stopped_log(db)
    corrupt_events_root(db)
    with pytest.raises(LogDamaged) as info:
        Floor.open(SETTINGS, db)
    assert "\n" not in str(info.value)


def garbage_leaf(path: Path) -> None:
    """Scribble over the cell pointers of a leaf page of the events table: SQLite's
    quick_check reports each cell of it on a line of its own."""
    con = sqlite3.connect(path)
    root, = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()
    size, = con.execute("PRAGMA page_size").fetchone()
    con.close()
    with open(path, "r+b") as f:
        f.seek(size * (root - 1))
        page = f.read(size)
        assert page[0] == 0x05, "the events table needs more than one page"
        cell = int.from_bytes(page[12:14], "big")  # its first child: a full leaf
        leaf = int.from_bytes(page[cell:cell + 4], "big")
        f.seek(size * (leaf - 1))
        assert f.read(1) == b"\x0d"
        f.seek(size * (leaf - 1) + 8)
        f.write(bytes(range(200, 240)))


def test_the_seal_is_kept_for_the_snapshot_of_the_service(tmp_path: Path) -> None:
    """Every snapshot the controller takes carries the seal of the events it covers."""
    db = tmp_path / "friday.sqlite"
    count = stopped_log(db)
    with EventStore(db) as store:
        recorded = store.meta(SEAL)
        assert recorded is not None and recorded.split()[0] == str(count)
        assert snapshot.covered(store) == count


# -- the stored answers (issue 32): a resent command id is answered from the log, so an
# answer changed afterwards would tell a table something that did not happen


def answered_log(path: Path) -> dict[str, dict]:
    """A night whose presses came with command ids, left by a clean stop; the answers."""
    f = Floor.open(SETTINGS, path, seed=1, now=time.time())
    now = time.time()
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(30)]}, now, "d-1")
    f.execute({"cmd": "draw"}, now, "d-2")
    f.execute({"cmd": "start"}, now, "d-3")
    seat = min(f.tournament.tables[1].occupant)
    answers = {"t1-1": f.execute({"cmd": "bust", "table": 1, "seat": seat, "confirm": True},
                                 now, "t1-1"),
               "t1-2": f.execute({"cmd": "bust", "table": 1, "seat": 99}, now, "t1-2")}
    assert answers["t1-1"]["ok"] and not answers["t1-2"]["ok"]
    f.snapshot()
    f.close()
    return answers


#: name → (the tampering; what the one line must say)
ANSWER_TAMPERINGS: dict[str, tuple[Callable[[Path], None], str]] = {
    "refusal made a success": (
        lambda p: sql(p, """UPDATE commands SET answer = '{"ok": true, "events": []}'
                            WHERE id = 't1-2'"""),
        "the stored answers to commands do not match their seal: one was edited, added or "
        "removed"),
    "success made a refusal": (
        lambda p: sql(p, """UPDATE commands SET answer = '{"ok": false, "reason": "no"}'
                            WHERE id = 't1-1'"""),
        "do not match their seal"),
    "answer removed": (lambda p: sql(p, "DELETE FROM commands WHERE id = 't1-1'"),
                       r"do not match their seal: one was edited, added or removed \(4 are "
                       r"stored, 5 were sealed\)"),
    "answer added": (lambda p: sql(p, """INSERT INTO commands VALUES ('t2-9',
                                         '{"ok": false, "reason": "later"}')"""),
                     r"\(6 are stored, 5 were sealed\)"),
    "answer names an event not there": (
        lambda p: sql(p, """UPDATE commands SET answer = '{"ok": true, "events": [9999]}'
                            WHERE id = 't1-2'"""),
        "the answer to command 't1-2' names event 9999, which the log does not have"),
    "answer not json": (lambda p: sql(p, """UPDATE commands SET answer = '{"events" oops'
                                           WHERE id = 'd-2'"""),
                        "the answer to command 'd-2' is not a JSON object"),
}


@pytest.mark.parametrize("name", ANSWER_TAMPERINGS)
def test_a_tampered_answer_is_refused_at_the_start_and_by_verify(name: str,
                                                                 tmp_path: Path) -> None:
    """Before: the answers were under no seal: the controller started and answered the
    resent command with the edited answer; ``verify`` said OK."""
    db = tmp_path / "friday.sqlite"
    answered_log(db)
    tamper, says = ANSWER_TAMPERINGS[name]
    tamper(db)
    before = db.read_bytes()
    r = floorman_cli("controller", str(SAMPLE_TOURNAMENT), "--db", str(db),
                     "--broker", NOWHERE, timeout=60)
    out = r.stdout + r.stderr
    assert r.returncode == EXIT_DAMAGED, out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert re.fullmatch(rf"floorman controller: {re.escape(str(db))}: the log is damaged: "
                        rf".*{says}.*", lines[0]), lines[0]
    assert db.read_bytes() == before, "a refused log was changed"
    r = floorman_cli("verify", str(db))
    out = r.stdout + r.stderr
    assert r.returncode == EXIT_DAMAGED, out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert re.fullmatch(rf"{re.escape(str(db))}: BAD: .*{says}.*", lines[0]), lines[0]


def test_untouched_answers_are_given_again_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "friday.sqlite"
    answers = answered_log(db)
    r = floorman_cli("verify", str(db))
    assert r.returncode == 0 and ": OK, " in r.stdout, r.stdout + r.stderr
    f = Floor.open(SETTINGS, db)
    try:
        for cid, answer in answers.items():
            assert f.execute({"cmd": "hand_done", "table": 1}, time.time(), cid) == answer
        f.execute({"cmd": "hand_done", "table": 1}, time.time(), "t1-3")  # adds to the seal
    finally:
        f.close()
    Floor.open(SETTINGS, db).close()
    assert floorman_cli("verify", str(db)).returncode == 0


def test_an_answer_edited_while_the_controller_runs_is_not_sealed_by_the_next(
        tmp_path: Path) -> None:
    """The seal adds what the controller wrote, not what the disk holds by then."""
    db = tmp_path / "friday.sqlite"
    answered_log(db)
    f = Floor.open(SETTINGS, db)
    sql(db, """UPDATE commands SET answer = '{"ok": true, "events": []}' WHERE id = 't1-2'""")
    f.execute({"cmd": "hand_done", "table": 2}, time.time(), "t2-1")
    f.snapshot()
    f.close()
    with pytest.raises(LogDamaged, match="do not match their seal"):
        Floor.open(SETTINGS, db)


def test_the_answers_of_an_older_floorman_are_sealed_when_it_is_continued(
        tmp_path: Path) -> None:
    """A log from before the answers' seal opens as before, and is sealed from then on."""
    db = tmp_path / "friday.sqlite"
    answered_log(db)
    sql(db, "DELETE FROM meta WHERE key = 'answers'")
    assert floorman_cli("verify", str(db)).returncode == 0
    Floor.open(SETTINGS, db).close()
    sql(db, "DELETE FROM commands WHERE id = 'd-1'")
    r = floorman_cli("verify", str(db))
    assert r.returncode == EXIT_DAMAGED and "do not match their seal" in r.stdout, r.stdout


class _NoJson:
    """An SQLite without its JSON functions (built without them)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if "json_" in sql:
            raise sqlite3.OperationalError("no such function: json_valid")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._db, name)


@pytest.mark.parametrize("name", ["answer names an event not there", "answer not json"])
def test_an_sqlite_without_json_functions_finds_the_same(name: str, tmp_path: Path) -> None:
    db = tmp_path / "friday.sqlite"
    answered_log(db)
    tamper, says = ANSWER_TAMPERINGS[name]
    tamper(db)
    with EventStore(db, readonly=True) as store:
        store._db = _NoJson(store._db)  # type: ignore[assignment]
        assert re.search(says, store.check_answers() or ""), name
