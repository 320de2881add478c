"""A finished tournament's results into the club database, from its event log.

The log is verified first, exactly as ``floorman verify`` does (SQLite's page check,
the hash chain, a replay of every event): a damaged log is never taken, not even in
part. Then, in one ``BEGIN IMMEDIATE`` transaction, the tournament, its players (found
by name or alias, new ones added) and its result rows are written. A tournament is
known by the hash of its log's first event (``tournaments.opened_hash``, UNIQUE):
importing the same log again changes nothing, and two imports at once cannot both
write it (the second waits for the first, then finds it; the UNIQUE constraint holds
should anything slip past). A log that went on from the version imported (its hash
chain passes through the imported last hash: an undo after the end, a play day's next
table game) replaces it; any other copy is refused.

Refused with one line and nothing changed (:class:`ClubError`): a file that is no
log, a damaged log, a tournament that is not over, a tournament of another club (its
preset's ``club.name``) or of no club, a different copy of a tournament already taken.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from controller.club import players as club_players
from controller.club.db import ClubError, transaction
from controller.club.seasons import season_of
from controller.engine import chain
from controller.engine.events import InvalidEvent
from controller.engine.results import ResultRow
from controller.engine.tournament import Tournament

__all__ = ["Imported", "import_events", "import_log", "is_over", "read_log"]


@dataclass
class Imported:
    """What an import did: ``status`` ``"imported"``, ``"updated"`` (the log went on
    from the version taken before, which it replaces) or ``"unchanged"`` (taken before);
    ``new_players``: names added to the club list; ``warnings``: near duplicates."""

    path: str
    status: str
    tournament: str
    season: str
    date: str
    rows: int = 0
    new_players: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: the new names that look like a known player's, each with those players' names
    looks_like: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def line(self) -> str:
        if self.status == "unchanged":
            return f"{self.path}: {self.tournament} ({self.date}) was imported before; " \
                "nothing changed"
        new = f", {len(self.new_players)} new players" if self.new_players else ""
        return (f"{self.path}: {self.status} {self.tournament} ({self.date}, season "
                f"{self.season}): {self.rows} results{new}")


def read_log(path: str) -> list[dict[str, Any]]:
    """Every event of the log at ``path``, verified as ``floorman verify`` does;
    :class:`ClubError` naming what is wrong."""
    from controller.log.store import EventStore, StoreError

    try:
        with EventStore(path, readonly=True) as store:
            store.check_pages()
            return store.events()
    except StoreError as exc:
        if exc.reason == "does not exist":
            raise ClubError(f"{exc}; nothing imported", "no_log", path=exc.path) from None
        raise ClubError(f"{exc}; nothing imported", "log_unreadable", path=exc.path,
                        why=exc.reason) from None


def is_over(t: Tournament) -> bool:
    """The tournament has ended: a winner, or a play day whose table games are all over
    (003 6: nobody is still at a table)."""
    if t.finished:
        return True
    return bool(t.settings.play_day.enabled and t.games and not t.tables
                and all(g.over for g in t.games.values()))


def _replayed(path: str, events: list[dict[str, Any]]) -> tuple[Tournament, str, str]:
    if not events:
        raise ClubError(f"{path}: the log holds no tournament; nothing imported", "log_empty",
                        path=path)
    try:
        checked = chain.check(events)
        if events[0].get("settings") is None:
            raise ClubError(f"{path}: the log does not record its rules (written by an old "
                            "Floorman); nothing imported", "log_no_rules", path=path)
        t = Tournament.replay(events)
    except InvalidEvent as exc:
        raise ClubError(f"{path}: the log is damaged ({exc}); nothing imported", "log_damaged",
                        path=path, why=str(exc)) from None
    return t, chain.link(chain.GENESIS, events[0]), checked.last


def _date(events: list[dict[str, Any]], given: datetime.date | None) -> datetime.date:
    """The tournament's day: ``given``, else the day (UTC) its log was opened."""
    if given is not None:
        return given
    return datetime.datetime.fromtimestamp(float(events[0]["at"]), datetime.UTC).date()


def import_log(db: sqlite3.Connection, path: str, *, date: datetime.date | None = None,
               club: str | None = None) -> Imported:
    """Verify the log at ``path`` and import it (:func:`import_events`)."""
    return import_events(db, read_log(path), path=path, date=date, club=club)


def import_events(db: sqlite3.Connection, events: list[dict[str, Any]], *, path: str,
                  date: datetime.date | None = None, club: str | None = None) -> Imported:
    """Import a finished tournament's verified ``events``. ``date``: the tournament's day
    (default: the day its log was opened). ``club``: the club the database must belong
    to (default: the one it already holds, or the log's for a new database)."""
    t, opened_hash, last_hash = _replayed(path, events)
    name = t.settings.name
    if not is_over(t):
        raise ClubError(f"{path}: {name} is not over yet (no winner); nothing imported",
                        "not_over_yet", path=path, name=name)
    own = t.settings.club.name
    if own is None:
        raise ClubError(f"{path}: {name} belongs to no club (its preset has no club: "
                        "name); nothing imported", "no_club_of_its_own", path=path, name=name)
    try:
        rows = t.results()
    except ValueError as exc:
        raise ClubError(f"{path}: {name} cannot be scored ({exc}); nothing imported",
                        "cannot_score", path=path, name=name, why=str(exc)) from None
    day = _date(events, date)
    try:
        return _write(db, t, rows, path=path, day=day, date=date, club=club, own=own,
                      opened_hash=opened_hash, last_hash=last_hash, events=events)
    except sqlite3.Error as exc:  # locked too long, disk full, damaged: rolled back
        raise ClubError(f"{path}: the club database cannot be written ({exc}); nothing "
                        "imported", "import_unwritten", path=path, why=str(exc)) from None


def _write(db: sqlite3.Connection, t: Tournament, rows: list[ResultRow], *, path: str,
           day: datetime.date, date: datetime.date | None, club: str | None, own: str,
           opened_hash: str, last_hash: str, events: list[dict[str, Any]]) -> Imported:
    """The import's one transaction (see :func:`import_events`)."""
    name = t.settings.name
    season = season_of(day, t.settings.club.seasons)
    with transaction(db):
        held = _club(db) or club
        if held is not None and held != own:
            raise ClubError(f"{path}: {name} is a tournament of {own}, this is the club "
                            f"database of {held}; nothing imported", "other_club",
                            path=path, name=name, own=own, held=held)
        before = db.execute("SELECT id, last_hash, date FROM tournaments WHERE "
                            "opened_hash = ?", (opened_hash,)).fetchone()
        if before is not None:
            if before[1] == last_hash:
                return Imported(path, "unchanged", name, season.name, before[2])
            if before[1] not in _chain_values(events):
                raise ClubError(f"{path}: another copy of {name} (with other events) was "
                                "imported before; nothing imported", "other_copy",
                                path=path, name=name)
            # the log goes on from the imported one (an undo after the end, the next
            # table game of a play day): it replaces it
            db.execute("DELETE FROM results WHERE tournament_id = ?", (before[0],))
            db.execute("DELETE FROM no_shows WHERE tournament_id = ?", (before[0],))
            db.execute("DELETE FROM day_memberships WHERE tournament_id = ?", (before[0],))
            db.execute("DELETE FROM tournaments WHERE id = ?", (before[0],))
            day = datetime.date.fromisoformat(before[2]) if date is None else day
            season = season_of(day, t.settings.club.seasons)
        if held is None:
            db.execute("INSERT INTO meta VALUES ('club', ?)", (own,))
        # the language the club's command line speaks (its latest tournament's)
        db.execute("INSERT OR REPLACE INTO meta VALUES ('language', ?)",
                   (t.settings.language,))
        result = Imported(path, "imported" if before is None else "updated", name,
                          season.name, day.isoformat())
        try:
            cur = db.execute(
                "INSERT INTO tournaments (opened_hash, last_hash, name, preset, date, season, "
                "system, players, entries, club_rules, source, currency, prize_pool) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (opened_hash, last_hash, name, t.settings.preset, day.isoformat(),
                 season.name, t.settings.points.system, t.real_players(), t.entries,
                 json.dumps(dataclasses.asdict(t.settings.club)), path, *_money(t)))
        except sqlite3.IntegrityError:  # taken by another import meanwhile
            return Imported(path, "unchanged", name, season.name, day.isoformat())
        _rows(db, t, cur.lastrowid, rows, result)
        _no_shows(db, t, cur.lastrowid, result)
        _guests_and_ages(db, t, cur.lastrowid, day, result)
    return result


def _money(t: Tournament) -> tuple[str | None, int | None]:
    """The night's currency and prize pool (cents); ``None`` for points only."""
    from controller.engine.rules.prize_pool import prize_pool

    pool = prize_pool(t)
    return (None, None) if pool is None else (pool.currency, pool.pool)


def _guests_and_ages(db: sqlite3.Connection, t: Tournament, tid: int | None,
                     day: datetime.date, result: Imported) -> None:
    """000 1.7: each guest of a public tournament played on a day membership; 000 1.1,
    003 1: the date a player confirmed being 18 at this desk (the first one is kept)."""
    public = not t.settings.desk.members_only
    for e in t.log:
        p = t.players.get(e.get("player", 0))  # by the name it ended with (a rename)
        if p is None or p.ghost:  # a no-show, a cancellation: never played
            continue
        if public and e["type"] == "registered" and not e["member"]:
            pid = _player(db, p.name, False, result, taken=set())
            db.execute("INSERT OR IGNORE INTO day_memberships VALUES (?, ?)", (tid, pid))
        elif e["type"] == "age_confirmed":
            pid = _player(db, p.name, False, result, taken=set())
            db.execute("INSERT OR IGNORE INTO adults VALUES (?, ?)", (pid, day.isoformat()))


def _no_shows(db: sqlite3.Connection, t: Tournament, tid: int | None,
              result: Imported) -> None:
    """The night's no-shows (000 2.7, the draw's ``no_shows`` event) for the bans
    (controller/club/bans.py); each as a club player, added when new."""
    member = {e["name"]: e["member"] for e in t.log if e["type"] in ("registered", "waitlisted")}
    for name in t.desk.no_shows:
        pid = _player(db, name, bool(member.get(name, False)), result, taken=set())
        db.execute("INSERT OR IGNORE INTO no_shows VALUES (?, ?)", (tid, pid))


def _chain_values(events: list[dict[str, Any]]) -> set[str]:
    """The hash chain's value after each event: a log that went on from an imported one
    holds the imported one's last value."""
    value, out = chain.GENESIS, set()
    for e in events:
        value = chain.link(value, e)
        out.add(value)
    return out


def _club(db: sqlite3.Connection) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = 'club'").fetchone()
    return None if row is None else str(row[0])


def club_of(db: sqlite3.Connection) -> str | None:
    """The club this database belongs to (``None``: nothing imported yet)."""
    return _club(db)


def _rows(db: sqlite3.Connection, t: Tournament, tid: int | None, rows: list[ResultRow],
          result: Imported) -> None:
    ids: dict[int, int] = {}
    # a start stack of the player's own (003 8, 000 4.18), as registered
    stacks = {e["player"]: e["stack"] for e in t.log
              if e["type"] == "registered" and e.get("stack") is not None}
    for row in rows:
        if row.player_id not in ids:
            ids[row.player_id] = _player(db, row.name, row.member, result,
                                         taken=set(ids.values()))
        stack = stacks.get(row.player_id)
        db.execute("INSERT INTO results (tournament_id, player_id, game, place, points, "
                   "knockouts, knockout_points, bounty_hits, prize, member, attendance, "
                   "tables_played, stack, payout, ticket, bounties) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (tid, ids[row.player_id], row.game or 0, row.place, row.points,
                    row.knockouts, row.knockout_points, row.bounty_hits, row.prize,
                    int(row.member), row.attendance, row.tables_played, stack,
                    row.payout, row.ticket, row.bounties))
        result.rows += 1


def _player(db: sqlite3.Connection, name: str, member: bool, result: Imported,
            taken: set[int]) -> int:
    """The club player of a log's name; ``taken``: club players already in this
    tournament ("Müller" and "Mueller" both played: two people, the second is added)."""
    found = club_players.find(db, name)
    if found is not None and found.id not in taken:
        return found.id
    if found is not None and found.name == " ".join(name.split()):
        # the engine never allows it
        raise ClubError(f"{name!r} is twice in the tournament", "twice", name=name)
    near = club_players.near_duplicates(db, name)
    if near:
        result.warnings.append(f"{name!r} is new and looks like "
                               f"{', '.join(repr(p.name) for p in near)}: if it is the same "
                               "player, merge them (floorman club merge)")
        result.looks_like.append((name, tuple(p.name for p in near)))
    cur = db.execute("INSERT INTO players (name, member) VALUES (?, ?)",
                     (" ".join(name.split()), int(member)))
    result.new_players.append(name)
    assert cur.lastrowid is not None
    return cur.lastrowid
