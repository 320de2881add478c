"""Backup, restore and a plain export of the club database, so a club is never locked in.

:func:`backup` copies the database with SQLite's online backup API (consistent even
while the controller writes to it) into a new file beside the target, then moves it
into place. :func:`restore` checks that the file is a sound club database first and
replaces the club's file the same way: either the old or the new one, never half.
:func:`export` writes every table as CSV and everything once more as one JSON file.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import sqlite3
from pathlib import Path

from controller.club.db import ClubError, open_club
from controller.engine.results import spreadsheet_cell

__all__ = ["TABLES", "backup", "export", "restore"]

#: the tables an export writes (one CSV each), in the order they refer to each other
TABLES = ("meta", "players", "aliases", "tournaments", "results",
          # the registration desk (issue 31; a file of schema 1 has none)
          "no_shows", "bans_lifted", "trophies",
          # members and guests (issue 31, schema 5): fees, day memberships, confirmed ages
          "fees", "day_memberships", "adults")


def _copy(source: sqlite3.Connection, target: str) -> None:
    """``source`` into a new file at ``target``, atomically (a temp file, then a rename)."""
    folder = os.path.dirname(os.path.abspath(target))
    tmp = os.path.join(folder, f".{os.path.basename(target)}.new-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    try:
        out = sqlite3.connect(tmp)
        try:
            source.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            out.close()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise ClubError(f"{target}: cannot write ({exc}); nothing changed", "copy_unwritten",
                        target=target, why=str(exc)) from None


def backup(club: str, target: str) -> None:
    """A consistent copy of the club database ``club`` at ``target`` (a file; an existing
    one is replaced only by a complete copy)."""
    if os.path.isdir(target):
        raise ClubError(f"{target}: is a folder; give the backup's file name", "backup_folder",
                        target=target)
    db = open_club(club, create=False, readonly=True)
    try:
        _copy(db, target)
    finally:
        db.close()


def restore(source: str, club: str) -> None:
    """Replace the club database ``club`` with the backup ``source``, after checking that
    ``source`` is a sound club database (:class:`ClubError` otherwise, nothing changed)."""
    if not os.path.exists(source):
        raise ClubError(f"{source}: no such file; nothing restored", "no_backup", source=source)
    db = open_club(source, create=False, readonly=True)
    try:
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            db.execute("SELECT COUNT(*) FROM players").fetchone()
        except sqlite3.Error as exc:
            raise ClubError(f"{source}: the backup is damaged ({exc}); nothing restored",
                            "backup_damaged", source=source, why=str(exc)) from None
        if check != "ok":
            raise ClubError(f"{source}: the backup is damaged ({check}); nothing restored",
                            "backup_damaged", source=source, why=check)
        if os.path.exists(club):
            # fold the old file's journal into it, then drop it: it must never be
            # replayed onto the restored file
            with contextlib.suppress(ClubError):
                open_club(club, create=False).close()
            for leftover in (club + "-wal", club + "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(leftover)
        _copy(db, club)
    finally:
        db.close()


def export(club: str, folder: str) -> list[Path]:
    """Every table of ``club`` as ``TABLE.csv`` (a header line, then the rows) and all of
    it as ``club.json`` in ``folder`` (made if missing). Returns the files written."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ClubError(f"{folder}: is a file; give a folder", "export_file", folder=folder)
    db = open_club(club, create=False, readonly=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
        everything: dict[str, list[dict[str, object]]] = {}
        written = []
        present = {r[0] for r in db.execute("SELECT name FROM sqlite_master "
                                            "WHERE type = 'table'")}
        for table in (t for t in TABLES if t in present):
            cur = db.execute(f"SELECT * FROM {table} ORDER BY rowid")  # noqa: S608 (fixed names)
            columns = [d[0] for d in cur.description]
            rows = cur.fetchall()
            everything[table] = [dict(zip(columns, r, strict=True)) for r in rows]
            path = out / f"{table}.csv"
            with path.open("w", newline="", encoding="utf-8") as f:
                writer = csv.writer(f)
                writer.writerow(columns)
                # the CSVs are for spreadsheets: a text that would start a formula is
                # written as text (club.json below keeps every value as it is)
                writer.writerows([spreadsheet_cell(v) for v in r] for r in rows)
            written.append(path)
        path = out / "club.json"
        path.write_text(json.dumps(everything, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
        written.append(path)
        return written
    except OSError as exc:
        raise ClubError(f"{folder}: cannot write ({exc.strerror})", "export_unwritten",
                        folder=folder, why=exc.strerror) from None
    finally:
        db.close()
