"""The club database: one SQLite file per club, its schema and its migrations.

``PRAGMA user_version`` is the schema version; :func:`open_club` brings an older file
up to :data:`SCHEMA_VERSION` in one transaction (a newer file is refused: it was
written by a newer Floorman). ``PRAGMA application_id`` marks the file as a club
database, so a tournament log or a foreign database is never taken for one.

Every change is one transaction begun with ``BEGIN IMMEDIATE`` (:func:`transaction`):
two writers at once wait for each other instead of both reading, then both writing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "ClubError", "open_club", "transaction"]

#: ``PRAGMA application_id`` of a club database ("FMCL")
APPLICATION_ID = 0x464D434C
#: the schema this Floorman writes
SCHEMA_VERSION = 5
#: how long a writer waits for another one (ms) before it gives up
BUSY_MS = 10_000

#: migration n takes a file from version n-1 to n
_MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    member       INTEGER NOT NULL DEFAULT 0,
    member_since TEXT
);
CREATE TABLE aliases (
    alias     TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id)
);
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    -- the hash of the log's first event: one tournament, however often imported
    opened_hash TEXT NOT NULL UNIQUE,
    last_hash   TEXT NOT NULL,
    name        TEXT NOT NULL,
    preset      TEXT,
    date        TEXT NOT NULL,
    season      TEXT NOT NULL,
    system      TEXT NOT NULL,
    players     INTEGER NOT NULL,
    entries     INTEGER NOT NULL,
    -- the club: section of the tournament's rules (JSON): the season's standings follow it
    club_rules  TEXT NOT NULL,
    source      TEXT NOT NULL
);
CREATE TABLE results (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments(id),
    player_id       INTEGER NOT NULL REFERENCES players(id),
    -- 0: the tournament (a play day: the day), n: the play day's table game n (003 6)
    game            INTEGER NOT NULL,
    place           INTEGER NOT NULL,
    points          REAL NOT NULL,
    knockouts       INTEGER NOT NULL,
    knockout_points INTEGER NOT NULL,
    bounty_hits     INTEGER NOT NULL,
    prize           TEXT,
    member          INTEGER NOT NULL,
    attendance      INTEGER NOT NULL,
    tables_played   INTEGER NOT NULL,
    stack           INTEGER,
    PRIMARY KEY (tournament_id, player_id, game)
);
CREATE INDEX results_player ON results(player_id);
CREATE INDEX tournaments_season ON tournaments(season);
""",
    # the registration desk (issue 31): who did not come (000 2.7), the bans the director
    # lifted (a ban is counted from the no-shows, never stored: controller/club/bans.py)
    2: """
CREATE TABLE no_shows (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE TABLE bans_lifted (
    player_id INTEGER NOT NULL REFERENCES players(id),
    until     TEXT NOT NULL,
    lifted_on TEXT NOT NULL,
    reason    TEXT NOT NULL,
    PRIMARY KEY (player_id, until)
);
""",
    # money (issue 30, 002): each night's payout, ticket and bounties per player, in cents
    # (NULL: the tournament played for points only), and the night's currency and pool
    3: """
ALTER TABLE tournaments ADD COLUMN currency TEXT;
ALTER TABLE tournaments ADD COLUMN prize_pool INTEGER;
ALTER TABLE results ADD COLUMN payout INTEGER;
ALTER TABLE results ADD COLUMN ticket INTEGER;
ALTER TABLE results ADD COLUMN bounties INTEGER
""",
    # members and guests (issue 31, controller/club/members.py): the yearly fee by season
    # (000 1.3), the day memberships of guests (000 1.7), the date 18 was confirmed (000 1.1)
    # (schema 5: after the money, 3, and the titles, 4, which _titles_migration adds)
    5: """
CREATE TABLE fees (
    player_id INTEGER NOT NULL REFERENCES players(id),
    season    TEXT NOT NULL,
    paid_on   TEXT NOT NULL,
    PRIMARY KEY (player_id, season)
);
CREATE TABLE day_memberships (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE TABLE adults (
    player_id    INTEGER PRIMARY KEY REFERENCES players(id),
    confirmed_on TEXT NOT NULL
);
""",
}


def _titles_migration() -> str:
    """Schema 4, the season's titles (issue 31, 000 8): the winners recorded each season
    (Meister, Jahressieger, Cupsieger; equal winners are two rows), from which the
    trophies kept after a hattrick are counted (controller/club/trophies.py). Its own
    function, so a merge with another migration only renumbers it."""
    return """
CREATE TABLE trophies (
    season    TEXT NOT NULL,
    title     TEXT NOT NULL CHECK (title IN ('meister', 'jahressieger', 'cupsieger')),
    player_id INTEGER NOT NULL REFERENCES players(id),
    recorded  TEXT NOT NULL,
    PRIMARY KEY (season, title, player_id)
);
"""


_MIGRATIONS[4] = _titles_migration()


class ClubError(Exception):
    """Something the director must be told in one line; nothing was changed.

    ``key`` and ``values``: the same line in the club's words
    (:func:`controller.club.words.refusal` says it in German where the club is German);
    ``str()`` is the English."""

    def __init__(self, message: str, key: str | None = None, **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


def _connect(path: str, readonly: bool) -> sqlite3.Connection:
    if readonly:
        uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_MS / 1000)
    return sqlite3.connect(path, isolation_level=None, timeout=BUSY_MS / 1000)


def open_club(path: str | os.PathLike[str], *, create: bool = True,
              readonly: bool = False) -> sqlite3.Connection:
    """Open (or, with ``create``, make) the club database at ``path``, migrated to
    :data:`SCHEMA_VERSION`. :class:`ClubError` for a file that is no club database, a
    damaged one, one from a newer Floorman, or a missing one when ``create`` is off."""
    path = str(path)
    exists = path == ":memory:" or os.path.exists(path)
    if not exists and (readonly or not create):
        raise ClubError(f"{path}: no club database there (import a tournament first: "
                        "floorman club import LOG)", "no_club", path=path)
    if exists and path != ":memory:" and os.path.isdir(path):
        raise ClubError(f"{path}: is a folder, not a club database", "club_folder", path=path)
    if not exists:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        db = _connect(path, readonly and exists)
    except sqlite3.Error as exc:
        raise ClubError(f"{path}: cannot open the club database ({exc})", "cannot_open",
                        path=path, why=str(exc)) from None
    try:
        db.execute("PRAGMA foreign_keys=ON")
        _recognise(db, path, exists)
        if not readonly:
            _migrate(db, path)
    except ClubError:
        db.close()
        raise
    except sqlite3.Error as exc:
        db.close()
        raise ClubError(f"{path}: the club database is damaged or unreadable ({exc})",
                        "club_damaged", path=path, why=str(exc)) from None
    return db


def _recognise(db: sqlite3.Connection, path: str, exists: bool) -> None:
    try:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    except sqlite3.DatabaseError:
        raise ClubError(f"{path}: is not an SQLite database, not a club database",
                        "not_sqlite", path=path) from None
    if app == APPLICATION_ID:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ClubError(f"{path}: club database of schema {version}; this Floorman reads "
                            f"up to {SCHEMA_VERSION} (update Floorman)", "newer_schema",
                            path=path, version=version, known=SCHEMA_VERSION)
        return
    if tables:
        what = "a tournament's event log" if "events" in tables else "another database"
        raise ClubError(f"{path}: is {what}, not a club database", "not_club", path=path)


def _migrate(db: sqlite3.Connection, path: str) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version >= SCHEMA_VERSION:
        return
    with transaction(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another opener won
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        for n in range(version + 1, SCHEMA_VERSION + 1):
            for statement in _MIGRATIONS[n].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={n}")
    with contextlib.suppress(sqlite3.Error):
        db.execute("PRAGMA journal_mode=WAL")


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken before anything is read (``BEGIN IMMEDIATE``):
    all of it or nothing, and a second writer waits for the first."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.in_transaction:  # SQLite may have rolled back already (a full disk)
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
