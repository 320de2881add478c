"""The append-only event log in SQLite.

WAL journal with ``synchronous=FULL``: when :meth:`EventStore.append` returns,
the events are on disk and survive a power cut. Nothing is ever updated or
deleted; an undo is a new event. Each command's answer is stored with its
events, in the same transaction, under the command's id, so a resent command
gets the same answer and is applied once.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

Event = dict[str, Any]

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


class StoreError(Exception):
    """The log cannot be opened or written (wrong file, disk full, a foreign database)."""


class EventStore:
    """An event log in one SQLite file (``":memory:"`` for throwaway runs)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot open the event log: {exc}") from None

    def close(self) -> None:
        self._db.close()

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
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
            if command_id is not None:
                self._db.execute("INSERT INTO commands VALUES (?, ?)",
                                 (command_id, json.dumps(answer or {})))
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            self._db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: cannot write events: {exc}") from None

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- reading
    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def events(self) -> list[Event]:
        """Every stored event, in order."""
        return [json.loads(b) for (b,) in self._db.execute("SELECT body FROM events ORDER BY seq")]

    def answer(self, command_id: str) -> dict[str, Any] | None:
        """The stored answer to a command id, or ``None`` if it was never applied."""
        row = self._db.execute("SELECT answer FROM commands WHERE id = ?", (command_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def extend(self, events: Iterable[Event]) -> None:
        """Bulk-append events (replay tools, tests)."""
        self.append(list(events))
