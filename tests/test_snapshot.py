"""Issue 15: snapshots in the log database, checked against the log they came from.

A controller starts from the log's snapshot and the events after it; the state is
the one a replay from the first event gives (which stays possible and is what these
tests compare with). A snapshot that does not fit — another log's, an edited one,
one of another engine, a damaged or hostile pickle — is ignored and the log replayed.
"""

from __future__ import annotations

import logging
import os
import pickle
import sqlite3
from pathlib import Path

import pytest

from controller.config import load_tournament
from controller.engine.tournament import Tournament
from controller.log import snapshot
from controller.log.floor import Floor
from controller.log.store import EventStore
from controller.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENTS = sorted((ROOT / "config/tournaments").glob("*.yaml"))


def _replayed(path: Path) -> Tournament:
    with EventStore(path) as store:
        return Tournament.replay(store.events())


def _same(a: Tournament, b: Tournament) -> None:
    assert a.fingerprint() == b.fingerprint()
    assert a.log == b.log
    assert a._chain == b._chain


@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_snapshot_and_tail_give_the_state_of_a_full_replay(path: Path, tmp_path: Path) -> None:
    """Issue 15: for every sample tournament, a snapshot taken after any event and the
    events after it fold into the state the replay from the first event gives."""
    settings = load_tournament(path)
    db = tmp_path / "night.sqlite"
    simulate(settings, 10 if "qualifier" in path.stem else 40, 7, store=str(db))
    full = _replayed(db)
    n = len(full.log)
    for cut in sorted({1, n // 3, n // 2 + 1, n - 1, n}):
        with EventStore(db) as store:
            part = Tournament.replay(full.log[:cut])
            assert snapshot.take(store, part) == cut
        floor = Floor.open(settings, db)
        try:
            assert floor.snapshot_at == cut  # it started from the snapshot
            _same(floor.tournament, full)
        finally:
            floor.close()


def _night(tmp_path: Path) -> tuple[Path, Floor]:
    settings = load_tournament(ROOT / "config/tournaments/sample.yaml")
    db = tmp_path / "night.sqlite"
    floor = Floor.open(settings, db, seed=4)
    assert floor.execute({"cmd": "register", "names": [f"P{i}" for i in range(30)]}, 1)["ok"]
    assert floor.execute({"cmd": "draw", "seed": 2}, 2)["ok"]
    assert floor.execute({"cmd": "start"}, 3)["ok"]
    return db, floor


def _bust(floor: Floor, table: int, at: float) -> None:
    seat = min(floor.tournament.tables[table].occupant)
    assert floor.execute({"cmd": "bust", "table": table, "seat": seat}, at)["ok"]


def test_an_undo_after_the_snapshot_of_a_command_before_it(tmp_path: Path) -> None:
    """The tail is folded like live events: an undo in it takes back a command the
    snapshot holds (the undo rebuilds from the log)."""
    db, floor = _night(tmp_path)
    _bust(floor, 1, 10)
    _bust(floor, 2, 11)
    assert floor.snapshot() == len(floor.log)
    assert floor.execute({"cmd": "undo"}, 12)["ok"]  # the bust at table 2
    _bust(floor, 3, 13)
    live = floor.tournament
    floor.close()
    again = Floor.open(floor.settings, db)
    try:
        assert 0 < again.snapshot_at < len(again.log)
        _same(again.tournament, live)
        _same(again.tournament, _replayed(db))
    finally:
        again.close()


def _tamper(db: Path, sql: str, *args: object) -> None:
    con = sqlite3.connect(db)
    with con:
        con.execute(sql, args)
    con.close()


@pytest.mark.parametrize("how", ["chain", "count", "format", "body", "hostile", "foreign"])
def test_a_snapshot_that_does_not_fit_the_log_is_refused(
        how: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 15: a snapshot of another log, of another engine, edited or damaged is
    ignored (and logged); the log is replayed from its first event."""
    db, floor = _night(tmp_path)
    _bust(floor, 1, 10)
    floor.snapshot()
    _bust(floor, 2, 11)
    live = floor.tournament
    floor.close()
    marker = tmp_path / "pwned"
    if how == "chain":  # the log was edited and rehashed, or the snapshot is another's
        _tamper(db, "UPDATE snapshots SET chain = ?", "0" * 64)
    elif how == "count":  # says it covers more than it does
        _tamper(db, "UPDATE snapshots SET count = count - 1")
    elif how == "format":  # written by a Floorman whose engine folds differently
        _tamper(db, "UPDATE snapshots SET format = ?", "1:an-older-engine")
    elif how == "body":
        _tamper(db, "UPDATE snapshots SET body = ?", b"\x80\x05 not a pickle")
    elif how == "hostile":  # a pickle that would run a command if it were loaded
        evil = pickle.dumps(_Evil(str(marker)), protocol=5)
        _tamper(db, "UPDATE snapshots SET body = ?", evil)
    else:  # the state of another tournament, stored under this log's chain value
        (tmp_path / "other").mkdir()
        other_db, other = _night(tmp_path / "other")
        body = snapshot.dumps(other.tournament)
        other.close()
        _tamper(db, "UPDATE snapshots SET body = ?", body)
        assert other_db.exists()
    with caplog.at_level(logging.INFO, logger="floorman.snapshot"):
        again = Floor.open(live.settings, db)
    try:
        assert again.snapshot_at == 0  # replayed from the first event
        _same(again.tournament, live)
    finally:
        again.close()
    assert "replaying the log" in caplog.text
    assert not marker.exists()


class _Evil:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.path}",))


def test_a_snapshot_at_a_clean_stop_covers_every_event(tmp_path: Path) -> None:
    """The controller's stop and its tick take snapshots through Floor.snapshot: the
    next start folds nothing."""
    db, floor = _night(tmp_path)
    _bust(floor, 1, 10)
    count = floor.snapshot()
    assert count == len(floor.log) == floor.snapshot_at
    floor.close()
    again = Floor.open(floor.settings, db)
    assert again.snapshot_at == len(again.log) == count
    again.close()
    # and the replay from the first event stays possible
    replay = Floor.open(floor.settings, db, use_snapshot=False)
    assert replay.snapshot_at == 0
    _same(replay.tournament, _replayed(db))
    replay.close()


def test_a_state_that_does_not_pickle_costs_the_snapshot_only(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A field some rule adds that pickle cannot write (a lambda, a lock) must not stop
    the controller: no snapshot, logged, and the next start replays."""
    db, floor = _night(tmp_path)
    floor.tournament.odd = lambda: None  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="floorman.floor"):
        assert floor.snapshot() == 0
    assert "cannot be pickled" in caplog.text
    del floor.tournament.odd  # type: ignore[attr-defined]
    live = floor.tournament
    floor.close()
    again = Floor.open(live.settings, db)
    assert again.snapshot_at == 0
    _same(again.tournament, live)
    again.close()


def test_the_snapshot_format_hashes_every_engine_source() -> None:
    """A snapshot of another engine is refused by its format: the hash must cover the
    engine's files wherever the log room sits (a move once pointed it at no folder)."""
    engine = ROOT / "controller" / "engine"
    sources = sorted(engine.rglob("*.py"))
    assert len(sources) > 20
    snapshot.fmt.cache_clear()
    try:
        before = snapshot.fmt()
        original = sources[0].read_bytes()
        sources[0].write_bytes(original + b"\n# another engine\n")
        try:
            snapshot.fmt.cache_clear()
            assert snapshot.fmt() != before
        finally:
            sources[0].write_bytes(original)
    finally:
        snapshot.fmt.cache_clear()
