"""A controller's event log as the tests read it: read-only, the controller may be running
or killed halfway."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple


class Log(NamedTuple):
    """The events in order, and every stored answer by command id, in the order the
    commands were stored (``events, answers = read_log(db)`` unpacks the two)."""

    events: list[dict[str, Any]]
    answers: dict[str, dict[str, Any]]

    @property
    def order(self) -> list[str]:
        """The command ids in the order they were stored (SQLite's rowid)."""
        return list(self.answers)


def read_log(db: Path | str) -> Log:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        events = [json.loads(b) for (b,) in con.execute("SELECT body FROM events ORDER BY seq")]
        rows = con.execute("SELECT id, answer FROM commands ORDER BY rowid").fetchall()
    finally:
        con.close()
    return Log(events, {k: json.loads(a) for k, a in rows})


def strip_at(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without their time stamps (two runs of one script differ only there) and
    their hashes (which cover the time stamps)."""
    return [{k: v for k, v in e.items() if k not in ("at", "hash")} for e in events]
