"""``floorman verify LOG`` (issue 10 point 18, 000 3.3): OK with the count and the last
hash, or the first bad event with exit code 5; an older log without hashes says it has no
chain (exit 7); what is not a log exits 4. Run as the director types it."""

from __future__ import annotations

import json
import sqlite3

from controller.log.floor import Floor
from controller.log.store import EXIT_DAMAGED, EXIT_NO_CHAIN, EXIT_NOT_A_LOG
from tests.support.controller import floorman_cli
from tests.support.settings import make_settings


def make_log(path):
    f = Floor.open(make_settings(), path, seed=1, now=0.0)
    f.execute({"cmd": "register", "names": [f"P{i}" for i in range(12)]}, 1.0)
    f.execute({"cmd": "draw"}, 2.0)
    f.execute({"cmd": "start"}, 3.0)
    seat = min(f.tournament.tables[1].occupant)
    f.execute({"cmd": "bust", "table": 1, "seat": seat}, 4.0)
    log = list(f.log)
    f.close()
    return log


def rewrite(path, change):
    db = sqlite3.connect(path)
    for seq, body in db.execute("SELECT seq, body FROM events").fetchall():
        db.execute("UPDATE events SET body = ? WHERE seq = ?",
                   (json.dumps(change(json.loads(body))), seq))
    db.commit()
    db.close()


def test_an_intact_log_is_ok_with_count_and_last_hash(tmp_path):
    path = tmp_path / "friday.sqlite"
    log = make_log(path)
    r = floorman_cli("verify", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"{path}: OK, {len(log)} events, last hash {log[-1]['hash']}"


def test_a_deleted_event_is_named(tmp_path):
    path = tmp_path / "friday.sqlite"
    make_log(path)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM events WHERE seq = 9")
    db.commit()
    db.close()
    r = floorman_cli("verify", str(path))
    assert r.returncode == EXIT_DAMAGED
    assert r.stdout.strip() == f"{path}: BAD: event 9: is missing (the next stored event is 10)"


def test_an_edited_event_is_named(tmp_path):
    path = tmp_path / "friday.sqlite"
    make_log(path)
    rewrite(path, lambda e: {**e, "stack": 5000} if e["type"] == "busted" else e)
    r = floorman_cli("verify", str(path))
    assert r.returncode == EXIT_DAMAGED
    assert "BAD: event " in r.stdout and "does not match its hash" in r.stdout


def test_a_log_without_hashes_has_no_chain(tmp_path):
    path = tmp_path / "old.sqlite"
    make_log(path)
    rewrite(path, lambda e: {**{k: v for k, v in e.items() if k != "hash"}, "v": 2})
    r = floorman_cli("verify", str(path))
    assert r.returncode == EXIT_NO_CHAIN
    assert "no hash chain" in r.stdout
    # and it still opens: a v2 log is continued, chained from its first new event
    f = Floor.open(make_settings(), path)
    n = len(f.log)
    f.execute({"cmd": "hand_done", "table": 2}, 9.0)
    f.close()
    r = floorman_cli("verify", str(path))
    assert r.returncode == 0, r.stdout
    assert f"the chain from event {n + 1} covers them" in r.stdout


def test_what_is_not_a_log_exits_4_without_a_traceback(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    for path in (empty, tmp_path / "nowhere.sqlite"):
        r = floorman_cli("verify", str(path))
        assert r.returncode == EXIT_NOT_A_LOG, r
        assert r.stderr.startswith(f"floorman verify: {path}: ") and "Traceback" not in r.stderr
    assert not (tmp_path / "nowhere.sqlite").exists()
