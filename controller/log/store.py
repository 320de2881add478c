"""The append-only event log in SQLite.

WAL journal with ``synchronous=FULL``: when :meth:`EventStore.append` returns,
the events are on disk and survive a power cut. Nothing is ever updated or
deleted; an undo is a new event. Each command's answer is stored with its
events, in the same transaction, under the command's id, so a resent command
gets the same answer and is applied once. The stored answers are sealed too
(:data:`ANSWERS`): an answer edited, added or removed afterwards is found at the
start and by ``floorman verify``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

Event = dict[str, Any]

log = logging.getLogger("floorman.store")

#: seconds between the background checkpointer's looks at the write-ahead log
CHECKPOINT_EVERY = 2.0
#: WAL pages (4 KiB) it lets grow before it copies them into the database (SQLite's own
#: automatic checkpoint is at 1,000)
CHECKPOINT_PAGES = 1000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY,
    grp   INTEGER NOT NULL,
    type  TEXT NOT NULL,
    at    REAL NOT NULL,
    body  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
    id     TEXT PRIMARY KEY,
    answer TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

#: the state after the log's first ``count`` events (controller/log/snapshot.py): a cache for
#: a fast start, never the record; ``chain`` is the hash chain's value after event
#: ``count``, ``format`` says which Floorman wrote ``body``. At most one row.
_SNAPSHOTS = """
CREATE TABLE IF NOT EXISTS snapshots (
    count  INTEGER PRIMARY KEY,
    chain  TEXT NOT NULL,
    format TEXT NOT NULL,
    body   BLOB NOT NULL
);
"""


#: ``PRAGMA application_id`` of a Floorman event log ("FMAN"); logs made before it was
#: set have 0 and are recognised by their tables
APPLICATION_ID = 0x464D414E
#: the tables every Floorman log has had since the first one, with their columns in order
#: (``snapshots`` came later and is made when a log is continued)
_TABLES = {"events": ["seq", "grp", "type", "at", "body"],
           "commands": ["id", "answer"],
           "meta": ["key", "value"]}
_EVENT_COLUMNS = _TABLES["events"]
#: the ``meta`` key of the seal: ``"COUNT DIGEST"``, the SHA-256 of the stored bodies of
#: events 1..COUNT as this controller wrote them (each followed by a line feed), kept with
#: the snapshot of the same count (:meth:`EventStore.check_seal`)
SEAL = "sealed"
#: the ``meta`` key of the answers' seal: ``"COUNT SUM"``, how many answers are stored and the
#: sum (mod 2**256, hex) of the SHA-256 of each one's ``id``, a line feed and its stored
#: answer. Written with every answer, in its transaction; a sum, not a chain, because the
#: answers are a set keyed by id (SQLite keeps no order of them that a VACUUM could not
#: change), and so that an answer adds to it without reading the others
#: (:meth:`EventStore.check_answers`)
ANSWERS = "answers"
_SUM = 1 << 256
#: event numbers read at once when a seal is computed
_SEAL_BATCH = 10_000

# exit codes of ``floorman controller`` and ``floorman verify`` (docs/operations.md)
EXIT_LOCKED = 3
EXIT_NOT_A_LOG = 4
EXIT_DAMAGED = 5
EXIT_UNWRITABLE = 6
EXIT_NO_CHAIN = 7


class StoreError(Exception):
    """The log cannot be opened or written (wrong file, disk full, a foreign database).

    ``exit_code`` is the controller's exit status for it; ``reason`` the words without
    the file's name (what a press is answered).
    """

    exit_code = EXIT_UNWRITABLE

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class NotALog(StoreError):
    """The path exists and is not a Floorman event log (empty, not SQLite, a foreign
    database), or holds no tournament where one is expected."""

    exit_code = EXIT_NOT_A_LOG


class LogDamaged(StoreError):
    """A Floorman log that cannot be read back as it was written: a corrupt page, an
    event that is not JSON, a broken hash chain, an event that does not fit."""

    exit_code = EXIT_DAMAGED


class NotStored(StoreError):
    """A write failed and was rolled back: nothing of it is in the log."""

    exit_code = EXIT_UNWRITABLE


class DiskFull(NotStored):
    """A write failed because the disk (or the log's size limit) is full."""


def _answer_hash(command_id: str, text: str | bytes) -> int:
    raw = text.encode() if isinstance(text, str) else text
    return int.from_bytes(hashlib.sha256(command_id.encode() + b"\n" + raw).digest(), "big")


def renumbered(position: int, stored: int, said: object) -> str:
    """What is wrong where the ``position``-th stored event is stored as event ``stored``
    and its record says ``said``: the first bad event named."""
    if said == position:
        return f"event {position}: is stored under the number {stored} (the log was renumbered)"
    if stored == position:
        return (f"event {position}: holds the record of event {said!r} (the log was "
                "renumbered)")
    return f"event {stored}: holds the record of event {said!r} (the log was renumbered)"


def _disk_full(path: str) -> bool:
    """Less than 64 KiB free where the log lives (an I/O error there is a full disk)."""
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 65536


def _write_error(path: str, exc: sqlite3.Error) -> NotStored:
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "full" in str(exc) or (
            path != ":memory:" and _disk_full(path)):
        return DiskFull(path, "not stored: the disk is full")
    return NotStored(path, f"not stored: the log cannot be written ({exc})")


def _one_line(text: str, limit: int = 160) -> str:
    """SQLite's report (``quick_check`` gives one finding a line, after a header) as one
    line: the first finding and how many more."""
    lines = [ln.strip() for ln in text.splitlines()
             if ln.strip() and not ln.strip().startswith("***")]
    if not lines:
        return text.strip()
    first = lines[0] if len(lines[0]) <= limit else lines[0][:limit - 1] + "…"
    more = len(lines) - 1
    return first if not more else f"{first}; {more} more finding{'s' if more > 1 else ''}"


def _read_error(path: str, exc: sqlite3.Error) -> StoreError:
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return LogDamaged(path, f"the log is damaged ({_one_line(str(exc))}); use a copy or a "
                          "backup")
    if path != ":memory:" and _disk_full(path):
        return DiskFull(path, f"the log cannot be opened: the disk is full ({exc})")
    return StoreError(path, f"the log cannot be read ({exc})")


class EventStore:
    """An event log in one SQLite file (``":memory:"`` for throwaway runs).

    A path that does not exist becomes a new, empty log. An existing file is opened
    only if it is a Floorman log (:class:`NotALog` otherwise: it is never turned into
    one). ``readonly``: open without writing anything (``floorman verify``).
    """

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False) -> None:
        self.path = str(path)
        self._readonly = readonly
        self._checkpointer: threading.Thread | None = None  # start_checkpoints
        self._stop_checkpoints = threading.Event()
        #: the running seal (:meth:`seal`): the digest of the first ``_sealed`` events'
        #: bodies as they were verified or written by this process; ``None``: not kept
        self._seal: Any = None
        self._sealed = 0
        #: the answers' seal as this process checked and wrote it (:meth:`check_answers`):
        #: (count, sum); ``None``: not read yet
        self._answers: tuple[int, int] | None = None
        memory = self.path == ":memory:"
        exists = not memory and os.path.exists(self.path)
        if exists and os.path.isdir(self.path):
            raise NotALog(self.path, "is a folder, not a Floorman event log")
        if exists and os.path.getsize(self.path) == 0:
            raise NotALog(self.path, "is empty (0 bytes), not a Floorman event log: if it "
                          "should hold a tournament, it is lost (use a backup); to start a "
                          "new tournament in it, give --new")
        if readonly and not exists:
            raise NotALog(self.path, "does not exist")
        try:
            if readonly:
                uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                           check_same_thread=False)
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(self.path, f"cannot open the event log: {exc}") from None
        try:
            if exists:
                self._recognise()
            if not readonly:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
            if not exists:
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.executescript(_SCHEMA)
                self._db.execute("INSERT INTO meta VALUES (?, ?)", (ANSWERS, "0 0"))
                self._answers = (0, 0)
            if not readonly:  # a log of an older Floorman gets it when it is continued
                self._db.executescript(_SNAPSHOTS)
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as exc:
            self._db.close()
            if exists:
                raise _read_error(self.path, exc) from None
            raise _write_error(self.path, exc) from None

    def _recognise(self) -> None:
        """A Floorman log, or :class:`NotALog` saying what the file is instead."""
        try:
            tables = [r[0] for r in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise NotALog(self.path, "is not an SQLite database, not a Floorman event "
                              "log") from None
            raise _read_error(self.path, exc) from None
        if "events" not in tables or "commands" not in tables:
            raise NotALog(self.path, "is an SQLite database but not a Floorman event log "
                          f"(its tables: {', '.join(tables) or 'none'})")
        columns = [r[1] for r in self._db.execute("PRAGMA table_info(events)")]
        if columns != _EVENT_COLUMNS:
            raise NotALog(self.path, "is an SQLite database but not a Floorman event log "
                          f"(its events table has the columns {', '.join(columns)})")
        # a Floorman log whose tables were changed afterwards (issue 27.1: ``meta`` dropped)
        for table, want in _TABLES.items():
            if table not in tables:
                raise LogDamaged(self.path, f"the log is damaged: its table {table} is "
                                 "missing (the log was altered); use a copy or a backup")
            have = [r[1] for r in self._db.execute(f"PRAGMA table_info({table})")]
            if have != want:
                raise LogDamaged(self.path, f"the log is damaged: its table {table} has the "
                                 f"columns {', '.join(have)} instead of {', '.join(want)} "
                                 "(the log was altered); use a copy or a backup")

    @classmethod
    def create(cls, path: str | os.PathLike[str], events: Sequence[Event]) -> EventStore:
        """A new log at ``path`` holding ``events``, all or nothing: it is written beside
        ``path`` and linked into place, so a crash never leaves a log without its first
        event. :class:`NotALog` if ``path`` exists (an empty file is replaced: the
        controller's ``--new``)."""
        path = str(path)
        if path == ":memory:":
            store = cls(path)
            store.append(events)
            return store
        if os.path.exists(path) and (os.path.isdir(path) or os.path.getsize(path) > 0):
            raise NotALog(path, "exists already: a new tournament never overwrites a file")
        folder, name = os.path.split(os.path.abspath(path))
        tmp = os.path.join(folder, f".{name}.new-{os.getpid()}")
        for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
            if os.path.exists(leftover):
                os.unlink(leftover)
        try:
            with cls(tmp) as store:
                store.append(events)
            if os.path.exists(path):  # the empty file of --new
                os.replace(tmp, path)
            else:
                os.link(tmp, path)  # fails if someone made it meanwhile
                os.unlink(tmp)
            dirfd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dirfd)
            finally:
                os.close(dirfd)
        except FileExistsError:
            raise NotALog(path, "was made by someone else meanwhile") from None
        except OSError as exc:
            raise NotStored(path, f"cannot create the event log: {exc.strerror}") from None
        finally:
            for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
        return cls(path)

    def close(self) -> None:
        self.stop_checkpoints()
        self._db.close()

    # -- checkpoints
    def start_checkpoints(self, every: float = CHECKPOINT_EVERY,
                          pages: int = CHECKPOINT_PAGES) -> None:
        """Copy the write-ahead log into the database from a thread of its own.

        SQLite does it after a commit once the WAL has 1,000 pages, in the committing
        call: its fsync of the database file held one command's acknowledgement up by
        100-400 ms about once in 300 commands on the test machine (docs/performance.md).
        The writer's automatic checkpoint is turned off; this thread's own connection runs
        a PASSIVE checkpoint (it never blocks the writer, and the writer never waits for
        it) every ``every`` seconds once the WAL has ``pages`` pages. The durability of a
        commit is the WAL's fsync either way. A failed checkpoint (a full disk) is logged
        and tried again."""
        if self.path == ":memory:" or self._checkpointer is not None:
            return
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._stop_checkpoints.clear()
        self._checkpointer = threading.Thread(
            target=self._checkpoints, args=(every, pages), name="floorman-checkpoint",
            daemon=True)
        self._checkpointer.start()

    def stop_checkpoints(self) -> None:
        thread = self._checkpointer
        if thread is None:
            return
        self._stop_checkpoints.set()
        thread.join(30)
        self._checkpointer = None

    def _checkpoints(self, every: float, pages: int) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            log.warning("%s: no background checkpoints (%s)", self.path, exc)
            return
        failed = False
        try:
            while not self._stop_checkpoints.wait(every):
                try:
                    if os.path.getsize(self.path + "-wal") < pages * 4096:
                        continue
                except OSError:
                    continue
                try:
                    # a PASSIVE checkpoint copies what no reader still needs; the writer
                    # starts the WAL again from its beginning once every frame is in
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    failed = False
                except sqlite3.Error as exc:
                    if not failed:
                        log.warning("%s: checkpoint failed (%s); trying again", self.path, exc)
                    failed = True
        finally:
            db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing
    def append(self, events: Sequence[Event], command_id: str | None = None,
               answer: dict[str, Any] | None = None) -> None:
        """Store ``events`` (and the command's answer) in one durable transaction."""
        rows = [(e["seq"], e["group"], e["type"], e["at"], json.dumps(e, separators=(",", ":")))
                for e in events]
        sealed = None
        if command_id is not None:
            text = json.dumps(answer or {})
            count, total = self._answers if self._answers is not None else self._answer_sum()
            sealed = (count + 1, (total + _answer_hash(command_id, text)) % _SUM)
        with self._writing():
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
            if command_id is not None and sealed is not None:
                self._db.execute("INSERT INTO commands VALUES (?, ?)", (command_id, text))
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                 (ANSWERS, f"{sealed[0]} {sealed[1]:x}"))
        if sealed is not None:
            self._answers = sealed
        if self._seal is not None and rows:  # the bytes written, not what the disk says later
            if rows[0][0] != self._sealed + 1:
                self._seal = None  # not the next events (a tool's bulk write): no seal kept
            else:
                for row in rows:
                    self._seal.update(row[4].encode() + b"\n")
                self._sealed += len(rows)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One durable transaction; a failure is rolled back and raised as
        :class:`NotStored` (:class:`DiskFull` for a full disk)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            # SQLite may have rolled back already (a full disk does): no transaction left
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise _write_error(self.path, exc) from None

    def save_snapshot(self, count: int, chain: str, fmt: str, body: bytes) -> None:
        """Keep ``body``, the state after the first ``count`` events, in place of the
        snapshot before (a snapshot is a cache: replacing it loses nothing), and the seal
        of those events beside it: the running seal when it covers them (what this
        process verified and wrote), else the events on the disk (a tool's snapshot)."""
        if self._seal is not None and self._sealed == count:
            digest = self._seal.hexdigest()
        else:
            h = hashlib.sha256()
            self._digest(h, 0, count)
            digest = h.hexdigest()
        with self._writing():
            self._db.execute("DELETE FROM snapshots")
            self._db.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?)",
                             (count, chain, fmt, body))
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                             (SEAL, f"{count} {digest}"))

    # -- the seal: the whole log checked at a start without a replay (issue 27.1)
    def _digest(self, h: Any, after: int, upto: int | None = None) -> int:
        """Feed the bodies of the events ``after`` < seq <= ``upto`` to ``h`` in order,
        each followed by a line feed, as stored (no JSON parsed); how many there were.

        Up to ``upto``, SQLite joins the bodies of a range of numbers at a time (fewer
        Python objects: 0.3 s of CPU for 500,000 events against 0.45 s a row at a time);
        a range with gaps has fewer rows (the count says so). Without ``upto`` (the few
        events after a snapshot, whose numbers are not checked yet) a row at a time.
        Should SQLite ever join them in another order, the seal only fails to match: the
        start replays instead (slower, as safe)."""
        if upto is None:  # the events after a snapshot: few, and their numbers unchecked
            n = 0
            for (body,) in self._read("SELECT CAST(body AS BLOB) FROM events WHERE seq > ? "
                                      "ORDER BY seq", (after,)):
                h.update(body + b"\n")
                n += 1
            return n
        last = upto
        n = 0
        lo = after
        while lo < last:
            hi = min(lo + _SEAL_BATCH, last)
            count, blob = self._read(
                "SELECT count(*), CAST(group_concat(body, char(10)) AS BLOB) FROM "
                "(SELECT body FROM events WHERE seq > ? AND seq <= ? ORDER BY seq)",
                (lo, hi))[0]
            if count:
                h.update(blob)
                h.update(b"\n")
                n += count
            lo = hi
        return n

    def seal(self) -> None:
        """Keep the running seal from the events on the disk, all of them: call it once
        they are verified (a replay checked their chain, :meth:`check_seal` their seal);
        every append then adds what it wrote."""
        h = hashlib.sha256()
        top = self._read("SELECT max(seq) FROM events")[0][0]
        self._sealed = self._digest(h, 0, top or 0) if top == self.count() else self._digest(h, 0)
        self._seal = h

    def check_seal(self, count: int) -> str | None:
        """``None`` when the stored events are exactly 1..n and the first ``count`` of
        them are, byte for byte, the ones sealed with the snapshot of ``count`` events
        (then the running seal is kept, the events after ``count`` included); otherwise
        why not. A hash walk over the stored bodies without parsing them: 0.1 s for 50,000
        events (docs/performance.md); the chain of the events after ``count`` is checked
        by their fold."""
        recorded = self.meta(SEAL)
        if recorded is None:
            return "has no seal (written by an older Floorman)"
        at, _, digest = recorded.partition(" ")
        if at != str(count):
            return f"has a seal of {at} events, not of {count}"
        first = self._read("SELECT min(seq) FROM events")[0][0]
        last = self._read("SELECT max(seq) FROM events WHERE seq <= ?", (count,))[0][0]
        if count and (first != 1 or last != count):
            return f"covers events 1-{count}, and the log's are numbered {first}-{last}"
        h = hashlib.sha256()
        n = self._digest(h, 0, count)
        if n != count:
            return f"covers {count} events, and the log has {n} up to event {count}"
        if h.hexdigest() != digest:
            return f"does not match events 1-{count}: one of them was changed"
        self._sealed = count + self._digest(h, count)
        self._seal = h
        return None

    # -- the answers' seal (issue 32): a stored answer is what a resent command gets
    def _answer_sum(self) -> tuple[int, int]:
        """How many answers are stored and the sum of their hashes, from the disk."""
        count, total = 0, 0
        for command_id, text in self._read("SELECT id, CAST(answer AS BLOB) FROM commands"):
            total += _answer_hash(str(command_id), bytes(text))
            count += 1
        return count, total % _SUM

    def check_answers(self) -> str | None:
        """``None`` when the stored answers are exactly the ones sealed (then the seal is
        kept and every answer stored from now on adds to it); otherwise why not. A log of
        an older Floorman has no such seal: written now, it covers the answers from here
        on (not in a read-only store: ``None``, nothing said). Each answer is also a JSON
        object naming only events the log has (SQLite's JSON functions, no parse here:
        0.27 s of CPU for 50,000 answers with the sum, on the loaded 2-core machine)."""
        try:
            self._db.execute("BEGIN")  # the seal and the answers of one moment
            recorded = self.meta(ANSWERS)
            count, total = self._answer_sum()
            top = self._read("SELECT max(seq) FROM events")[0][0] or 0
            wrong = self._answer_wrong(top)
        finally:
            self._db.execute("COMMIT")
        if wrong is not None:
            return wrong
        if recorded is None:
            if self._readonly:
                return None
            self.set_meta(ANSWERS, f"{count} {total:x}")
            self._answers = (count, total)
            return None
        said_count, _, said_sum = recorded.partition(" ")
        if said_count != str(count) or said_sum != f"{total:x}":
            more = "" if said_count == str(count) else (
                f" ({count} are stored, {said_count} were sealed)")
            return ("the stored answers to commands do not match their seal: one was "
                    f"edited, added or removed{more}")
        self._answers = (count, total)
        return None

    def _answer_wrong(self, top: int) -> str | None:
        """The first stored answer that is not a JSON object, or names an event the log
        does not have (the log's events are 1..``top``)."""
        try:
            bad = self._db.execute(
                "SELECT id FROM commands WHERE NOT json_valid(answer) OR "
                "json_type(answer) != 'object' LIMIT 1").fetchall()
            if bad:
                return f"the answer to command {bad[0][0]!r} is not a JSON object"
            late = self._db.execute(
                "SELECT c.id, j.value FROM commands c, json_each(c.answer, '$.events') j "
                "WHERE j.type != 'integer' OR j.value < 1 OR j.value > ? LIMIT 1",
                (top,)).fetchall()
        except sqlite3.OperationalError:  # an SQLite without its JSON functions: parsed here
            late = []
            for command_id, text in self._read("SELECT id, answer FROM commands"):
                try:
                    answer = json.loads(text)
                    seqs = answer.get("events") or []
                except (ValueError, TypeError, AttributeError):
                    return f"the answer to command {command_id!r} is not a JSON object"
                late += [(command_id, s) for s in seqs
                         if not isinstance(s, int) or not 0 < s <= top][:1]
                if late:
                    break
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None
        if late:
            return (f"the answer to command {late[0][0]!r} names event {late[0][1]!r}, which "
                    "the log does not have")
        return None

    def snapshot(self) -> tuple[int, str, str, bytes] | None:
        """The latest snapshot: (count, chain, format, body), or ``None``."""
        try:
            rows = self._db.execute("SELECT count, chain, format, body FROM snapshots "
                                    "ORDER BY count DESC LIMIT 1").fetchall()
        except sqlite3.OperationalError:
            return None  # a read-only log of an older Floorman has no such table
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None
        if not rows:
            return None
        count, chain, fmt, body = rows[0]
        return int(count), str(chain), str(fmt), bytes(body)

    def set_meta(self, key: str, value: str) -> None:
        try:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        except sqlite3.Error as exc:
            raise _write_error(self.path, exc) from None

    # -- reading
    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None

    def meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def events(self, after: int = 0) -> list[Event]:
        """Every stored event, in order (``after``: only those with a greater seq).
        :class:`LogDamaged` names one that is not JSON."""
        out = []
        for position, (seq, body) in enumerate(self._read(
                "SELECT seq, body FROM events WHERE seq > ? ORDER BY seq", (after,)), after + 1):
            try:
                e = json.loads(body)
            except (ValueError, TypeError) as exc:
                raise LogDamaged(self.path, f"the log is damaged: event {seq} is not JSON "
                                 f"({exc})") from None
            said = e.get("seq") if isinstance(e, dict) else None
            if isinstance(said, int) and said != seq:  # the row renumbered (issue 27.1)
                raise LogDamaged(self.path, f"the log is damaged: {renumbered(position, seq, said)}"
                                 "; use a copy or a backup")
            out.append(e)
        return out

    def answer(self, command_id: str) -> dict[str, Any] | None:
        """The stored answer to a command id, or ``None`` if it was never applied."""
        rows = self._read("SELECT answer FROM commands WHERE id = ?", (command_id,))
        if not rows:
            return None
        try:
            answer: dict[str, Any] = json.loads(rows[0][0])
        except (ValueError, TypeError) as exc:
            raise LogDamaged(self.path, f"the log is damaged: the answer to {command_id!r} "
                             f"is not JSON ({exc})") from None
        return answer

    def count(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM events")[0][0])

    def check_pages(self) -> None:
        """SQLite's own check of every page (``PRAGMA quick_check``, about 1 s per
        100 MB); :class:`LogDamaged` with its first finding."""
        rows = self._read("PRAGMA quick_check")
        if rows and rows[0][0] != "ok":
            report = "\n".join(str(r[0]) for r in rows)
            raise LogDamaged(self.path, f"the log is damaged ({_one_line(report)}); use a copy "
                             "or a backup")

    def extend(self, events: Iterable[Event]) -> None:
        """Bulk-append events (replay tools, tests)."""
        self.append(list(events))
