"""Bad-disk drill (issue 11 points 6-9, issue 10 point 18; docs/reliability.md): every
attack on the event log repeated against the real ``floorman controller`` process on a
real Mosquitto. Each refusal is one line naming the file and what is wrong, with its own
exit code and no traceback; a refused file is left as it was.

- a 0-byte file, a foreign SQLite database, a file that is not SQLite: exit 4;
- a corrupt page, an event that is not JSON, an edited event, an edited event type, a
  missing event, the ``meta`` table dropped, the last event renumbered, each in a log
  whose snapshot covers every event: exit 5, naming the first bad event;
- a second controller on the same log, or on the same prefix: exit 3, naming the first
  (pid, host); the first keeps serving; the lock dies with its process;
- a full disk (a real tmpfs when run as root): presses are answered "not stored: the disk
  is full", the controller keeps serving state and the clock, its state stays equal to
  the stored log, and presses are accepted again once there is space.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.config import load_tournament
from controller.engine.tournament import Tournament
from controller.log.floor import Floor
from controller.log.store import EXIT_DAMAGED, EXIT_LOCKED, EXIT_NOT_A_LOG
from controller.service import views
from controller.wire.protocol import Topics
from tests.support.controller import start_tournament, status, wait_up
from tests.support.eventlog import read_log
from tests.support.mqtt import Probe, retained_state
from tests.support.paths import SAMPLE_TOURNAMENT
from tests.support.waiting import wait_for
from tests.test_store import corrupt_events_root

SETTINGS = load_tournament(SAMPLE_TOURNAMENT)


def played_log(path: Path, busts: int = 6) -> None:
    """A tournament of the sample file, as the controller would have written it: a clean
    stop left a snapshot of every event (issue 27.1: the start checks the whole log
    all the same)."""
    f = Floor.open(SETTINGS, path, seed=1, now=time.time())
    now = time.time()
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(40)]}, now)
    f.execute({"cmd": "draw"}, now)
    f.execute({"cmd": "start"}, now)
    for _ in range(busts):
        seat = min(f.tournament.tables[1].occupant)
        f.execute({"cmd": "bust", "table": 1, "seat": seat, "confirm": True}, now)
        f.execute({"cmd": "hand_done", "table": 1}, now)
    f.snapshot()
    f.close()


def edit(path: Path, seq: int, change: Callable[[dict], dict]) -> None:
    db = sqlite3.connect(path)
    body = json.loads(db.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()[0])
    db.execute("UPDATE events SET body = ? WHERE seq = ?", (json.dumps(change(body)), seq))
    db.commit()
    db.close()


def sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()


def foreign(path: Path) -> None:
    path.unlink()
    sql(path, "CREATE TABLE members (name TEXT)")


def first_bust(path: Path) -> int:
    db = sqlite3.connect(path)
    seq = db.execute("SELECT seq FROM events WHERE type = 'busted' ORDER BY seq").fetchone()[0]
    db.close()
    return int(seq)


#: name → (what is done to a played log, exit code, what the one line says)
ATTACKS: dict[str, tuple[Callable[[Path], None], int, str]] = {
    "0-byte file": (lambda p: p.write_bytes(b""), EXIT_NOT_A_LOG, r"is empty \(0 bytes\)"),
    "foreign db": (foreign, EXIT_NOT_A_LOG,
                   r"is an SQLite database but not a Floorman event log \(its tables: members"),
    "not sqlite": (lambda p: p.write_text("name;place\nAnna;1\n"), EXIT_NOT_A_LOG,
                   "is not an SQLite database"),
    "corrupt page": (corrupt_events_root, EXIT_DAMAGED,
                     r"the log is damaged \(database disk image is malformed\)"),
    "not json": (lambda p: sql(p, "UPDATE events SET body = '{\"seq\": 3,' WHERE seq = 3"),
                 EXIT_DAMAGED, "the log is damaged: event 3 is not JSON"),
    "edited event": (lambda p: edit(p, first_bust(p), lambda e: {**e, "seat": e["seat"] + 1}),
                     EXIT_DAMAGED, r"cannot be replayed: event \d+: does not match its hash"),
    "edited type": (lambda p: edit(p, first_bust(p), lambda e: {**e, "type": "rebuy"}),
                    EXIT_DAMAGED, r"cannot be replayed: event \d+: does not match its hash"),
    "missing event": (lambda p: sql(p, "DELETE FROM events WHERE seq = 20"), EXIT_DAMAGED,
                      r"cannot be replayed: event 20: is missing \(the next stored event is "
                      r"21\)"),
    "meta dropped": (lambda p: sql(p, "DROP TABLE meta"), EXIT_DAMAGED,
                     "the log is damaged: its table meta is missing"),
    "last event renumbered": (
        lambda p: sql(p, "UPDATE events SET seq = seq + 1 WHERE seq = (SELECT max(seq) FROM "
                      "events)"), EXIT_DAMAGED, r"event \d+: is stored under the number \d+"),
}


def test_drill_bad_disk(broker, prefix, controllers, tmp_path, report):
    outcomes: dict[str, int] = {}
    for name, (attack, code, says) in ATTACKS.items():
        db = tmp_path / f"{name.replace(' ', '-')}.sqlite"
        played_log(db)
        attack(db)
        before = db.read_bytes()
        ctrl = controllers(SAMPLE_TOURNAMENT, db=db, log=f"{db.stem}.log").start()
        rc = ctrl.wait_exit(30)
        out = ctrl.output()
        assert rc == code, (name, rc, out)
        lines = [ln for ln in out.splitlines() if ln.strip()]
        assert len(lines) == 1 and "Traceback" not in out, (name, out)
        assert re.fullmatch(rf"floorman controller: {re.escape(str(db))}: .*{says}.*",
                            lines[0]), (name, lines[0])
        assert db.read_bytes() == before, f"{name}: the refused file was changed"
        outcomes[name] = rc
    report.update(attacks=outcomes)

    # a second controller, on the same log and on the same prefix
    db = tmp_path / "tonight.sqlite"
    played_log(db)
    b = broker.for_prefix(prefix)
    first = controllers(SAMPLE_TOURNAMENT, db=db, log="first.log").start()
    wait_up(b)
    assert first.proc is not None
    second = controllers(SAMPLE_TOURNAMENT, db=db, log="second.log").start()
    assert second.wait_exit(30) == EXIT_LOCKED, second.output()
    assert f"{db}: is in use by another controller: pid {first.proc.pid} on " \
        f"{os.uname().nodename}" in second.output()
    other = controllers(SAMPLE_TOURNAMENT, db=tmp_path / "other.sqlite", log="other.log").start()
    assert other.wait_exit(30) == EXIT_LOCKED, other.output()
    assert f"prefix {prefix}: is in use by another controller: pid {first.proc.pid}" \
        in other.output()
    assert not (tmp_path / "other.sqlite").exists()
    assert "Traceback" not in second.output() + other.output()
    assert first.alive and status(b)["summary"]["players_left"] == 34
    # the lock dies with its process: after a power cut the next start takes it
    first.kill()
    third = controllers(SAMPLE_TOURNAMENT, db=db, log="third.log").start()
    assert wait_up(b)["summary"]["players_left"] == 34
    third.terminate()
    outcomes["second controller, same log"] = EXIT_LOCKED
    outcomes["second controller, same prefix"] = EXIT_LOCKED
    report.update(attacks=outcomes)
    report.emit()


# ------------------------------------------------------------------------ disk full
@pytest.fixture
def small_disk(tmp_path):
    """A real 1 MB tmpfs (needs root); the test is skipped where it cannot be mounted."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a real full disk needs root (a tmpfs); tests/test_store.py simulates it")
    where = tmp_path / "disk"
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == 28  # ENOSPC
    finally:
        os.close(fd)
    return filler


def test_drill_disk_full(broker, prefix, controllers, small_disk, report):
    b = broker.for_prefix(prefix)
    db = small_disk / "log.sqlite"
    ctrl = controllers(SAMPLE_TOURNAMENT, db=db, log="full.log").start()
    wait_up(b)
    start_tournament(b, 20)
    top = Topics(prefix)
    probe = Probe(broker.address, (top.ack("table-1"),), client_id="table-1")

    def press() -> dict:
        """Table 1's dealer presses "hand done"; the controller's answer."""
        cid = uuid.uuid4().hex[:12]
        probe.publish(top.table_cmd(1), {"v": 1, "id": cid, "reply_to": "table-1",
                                          "action": "hand_done"})
        return wait_for(lambda: next((a for a in probe.on(top.ack("table-1"))
                                      if a.get("id") == cid), None), 20, f"the answer to {cid}")

    def state_is_the_log() -> None:
        events = read_log(db).events
        t = Tournament.replay(events, SETTINGS)
        assert status(b)["summary"] == json.loads(json.dumps(views.summary_view(t)))

    try:
        filler = fill(small_disk)
        answers = []
        for _ in range(400):  # the WAL reuses its space for a while: press until it is full
            answers.append(press())
            if not answers[-1]["ok"]:
                break
        refused = answers[-1]
        assert refused["ok"] is False and refused["reason"] == "not stored: the disk is full", \
            answers[-3:]
        assert press()["reason"] == "not stored: the disk is full"
        assert ctrl.alive
        state_is_the_log()  # what failed is not in the state either
        clock = retained_state(b, need=("clock",))["clock"]
        assert clock["started"], clock
        assert status(b)["clock"]["running"]

        filler.unlink()
        accepted = press()
        assert accepted["ok"], accepted
        state_is_the_log()
        assert "Traceback" not in ctrl.output()
        report.update(presses_before_full=len(answers) - 1, refused=refused["reason"],
                      accepted_after=accepted["ok"])

        # a restart while the disk is full: it comes up and answers, presses are refused
        filler = fill(small_disk)
        ctrl.kill()
        ctrl.start()
        wait_up(b)
        for _ in range(400):
            again = press()
            if not again["ok"]:
                break
        assert again["reason"] == "not stored: the disk is full"
        state_is_the_log()
        filler.unlink()
        assert press()["ok"]
        assert ctrl.terminate() == 0
        assert "Traceback" not in ctrl.output(all_of_it=True)
    finally:
        probe.close()
        if ctrl.alive:
            ctrl.kill()
    report.emit()
