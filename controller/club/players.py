"""The club's players: name, member or guest, member since, aliases; near duplicates.

A name is typed once: registration picks from this list (:func:`search`), an import
finds a log's names here by name or alias (:func:`find`) and adds the new ones. Names
that differ only in case, accents or the German spelling of umlauts ("Müller",
"Mueller", "muller") are flagged as near duplicates (:func:`near_duplicates`), so the
director can make one an alias of the other instead of keeping two players.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import sqlite3
import unicodedata
from dataclasses import dataclass

from controller.club.db import ClubError, transaction

__all__ = ["ClubPlayer", "add", "add_alias", "all_players", "find", "fold", "get", "merge",
           "near_duplicates", "search", "set_member", "similar"]

#: how alike two folded names must be (0-1, difflib's ratio) to be flagged
SIMILAR = 0.85
#: the German spellings of umlauts without the dots (and ß)
_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


@dataclass(frozen=True)
class ClubPlayer:
    """One player of the club. ``member_since``: ISO date or ``None`` (unknown or guest)."""

    id: int
    name: str
    member: bool
    member_since: str | None
    aliases: tuple[str, ...] = ()


@functools.lru_cache(maxsize=8192)
def fold(name: str) -> str:
    """The name as compared: case folded, umlauts written out (ü → ue), other accents
    dropped, spaces collapsed. "Müller" and "MUELLER" fold alike; "Muller" folds to
    "muller" (flagged as similar, not equal)."""
    text = " ".join(name.split()).casefold()
    text = "".join(_UMLAUTS.get(c, c) for c in text)
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c))


@functools.lru_cache(maxsize=8192)
def _loose(name: str) -> str:
    """Folded further for the near-duplicate check: umlauts as bare vowels ("ue" → "u")."""
    text = fold(name)
    for written, bare in (("ae", "a"), ("oe", "o"), ("ue", "u")):
        text = text.replace(written, bare)
    return text


def similar(a: str, b: str) -> bool:
    """Whether two names are probably the same person ("Müller" / "Mueller" / "muller",
    "Anna Schmid" / "Anna Schmidt"). Names with different numbers in them ("Player 11",
    "Player 14") are different players."""
    la, lb = _loose(a), _loose(b)
    if la == lb:
        return True
    if [c for c in la if c.isdigit()] != [c for c in lb if c.isdigit()]:
        return False
    m = difflib.SequenceMatcher(None, la, lb)
    # the cheap upper bounds first: most pairs of a big club list are far apart
    return m.real_quick_ratio() >= SIMILAR and m.quick_ratio() >= SIMILAR \
        and m.ratio() >= SIMILAR


def _row(db: sqlite3.Connection, row: tuple) -> ClubPlayer:
    aliases = tuple(r[0] for r in db.execute(
        "SELECT alias FROM aliases WHERE player_id = ? ORDER BY alias", (row[0],)))
    return ClubPlayer(row[0], row[1], bool(row[2]), row[3], aliases)


def all_players(db: sqlite3.Connection) -> list[ClubPlayer]:
    """Every player, by name (one query for the names, one for the aliases)."""
    aliases: dict[int, list[str]] = {}
    for alias, pid in db.execute("SELECT alias, player_id FROM aliases ORDER BY alias"):
        aliases.setdefault(pid, []).append(alias)
    rows = db.execute("SELECT id, name, member, member_since FROM players ORDER BY name, id")
    return [ClubPlayer(r[0], r[1], bool(r[2]), r[3], tuple(aliases.get(r[0], ())))
            for r in rows.fetchall()]


def find(db: sqlite3.Connection, name: str) -> ClubPlayer | None:
    """The player with this name or alias, compared folded (:func:`fold`)."""
    key = fold(name)
    for pid, pname in db.execute("SELECT id, name FROM players").fetchall():
        if fold(pname) == key:
            return get(db, pid)
    row = db.execute("SELECT player_id FROM aliases WHERE alias = ?", (key,)).fetchone()
    return get(db, row[0]) if row else None


def get(db: sqlite3.Connection, player_id: int) -> ClubPlayer:
    row = db.execute("SELECT id, name, member, member_since FROM players WHERE id = ?",
                     (player_id,)).fetchone()
    if row is None:
        raise ClubError(f"no player #{player_id} in the club database")
    return _row(db, row)


def search(db: sqlite3.Connection, text: str, limit: int = 20) -> list[ClubPlayer]:
    """Players whose name or an alias contains ``text`` (folded; "mül" finds "Müller",
    "Mueller" and "Muller"), the best first: a name or word that starts with it, then
    names that contain it, then similar spellings."""
    keys = {fold(text), _loose(text)}
    out: list[tuple[int, str, ClubPlayer]] = []
    for p in all_players(db):
        names = {fold(p.name), _loose(p.name), *p.aliases, *(_loose(a) for a in p.aliases)}
        words = [w for n in names for w in n.split()]
        if any(n.startswith(k) for n in names for k in keys) or \
                any(w.startswith(k) for w in words for k in keys):
            rank = 0
        elif any(k in n for n in names for k in keys):
            rank = 1
        elif text.strip() and similar(text, p.name):
            rank = 2
        else:
            continue
        out.append((rank, p.name, p))
    out.sort(key=lambda x: (x[0], x[1]))
    return [p for _, _, p in out[:limit]]


def near_duplicates(db: sqlite3.Connection, name: str) -> list[ClubPlayer]:
    """Players whose name is like ``name`` but not the same (a typo, an umlaut written
    out): the director is asked before a second player is made."""
    key = fold(name)
    return [p for p in all_players(db) if fold(p.name) != key and similar(name, p.name)]


def _check_name(name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise ClubError("a player needs a name")
    if len(clean) > 80:
        raise ClubError(f"a name has at most 80 characters, got {len(clean)}")
    return clean


def _check_date(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        raise ClubError(f"member since must be a date YYYY-MM-DD, got {text!r}") from None


def add(db: sqlite3.Connection, name: str, *, member: bool = False,
        member_since: str | None = None, force: bool = False) -> ClubPlayer:
    """Add a player. :class:`ClubError` when the name (folded) or an alias is taken, or
    when it is a near duplicate of another player and ``force`` is off."""
    clean = _check_name(name)
    since = _check_date(member_since)
    with transaction(db):
        return _add(db, clean, member, since, force)


def _add(db: sqlite3.Connection, name: str, member: bool, since: str | None,
         force: bool) -> ClubPlayer:
    """:func:`add` inside the caller's transaction."""
    existing = find(db, name)
    if existing is not None:
        raise ClubError(f"{name!r} is already in the club list as {existing.name!r}",
                        "already_listed", name=name, as_=existing.name)
    if not force:
        near = near_duplicates(db, name)
        if near:
            raise ClubError(f"{name!r} looks like {', '.join(repr(p.name) for p in near)}: "
                            "is it the same player? (--alias-of NAME makes it an alias, "
                            "--force adds a new player)", "looks_like_known", name=name,
                            like=", ".join(p.name for p in near))
    cur = db.execute("INSERT INTO players (name, member, member_since) VALUES (?, ?, ?)",
                     (name, int(member), since))
    assert cur.lastrowid is not None
    return get(db, cur.lastrowid)


def add_alias(db: sqlite3.Connection, alias: str, of: str) -> ClubPlayer:
    """Another spelling of a player's name (a log's "Mueller" is the club's "Müller")."""
    clean = _check_name(alias)
    with transaction(db):
        player = find(db, of)
        if player is None:
            raise ClubError(f"no player {of!r} in the club list", "no_player", name=of)
        taken = find(db, clean)
        if taken is not None:
            raise ClubError(f"{clean!r} is already the club's {taken.name!r}")
        db.execute("INSERT INTO aliases VALUES (?, ?)", (fold(clean), player.id))
        return get(db, player.id)


def merge(db: sqlite3.Connection, name: str, into: str) -> ClubPlayer:
    """Two entries of one person: ``name``'s results go to ``into``, ``name`` becomes its
    alias. Refused when both played the same tournament (that is two people)."""
    with transaction(db):
        a, b = find(db, name), find(db, into)
        if a is None or b is None:
            missing = name if a is None else into
            raise ClubError(f"no player {missing!r} in the club list", "no_player",
                            name=missing)
        if a.id == b.id:
            raise ClubError(f"{name!r} and {into!r} are one player already")
        both = db.execute("SELECT COUNT(*) FROM results x JOIN results y ON "
                          "x.tournament_id = y.tournament_id WHERE x.player_id = ? AND "
                          "y.player_id = ?", (a.id, b.id)).fetchone()[0]
        if both:
            raise ClubError(f"{a.name!r} and {b.name!r} played the same tournament: two "
                            "people, not merged")
        db.execute("UPDATE results SET player_id = ? WHERE player_id = ?", (b.id, a.id))
        # the desk's records (issue 31): one person's no-shows and lifted bans
        db.execute("UPDATE OR IGNORE no_shows SET player_id = ? WHERE player_id = ?",
                   (b.id, a.id))
        db.execute("DELETE FROM no_shows WHERE player_id = ?", (a.id,))
        db.execute("UPDATE OR IGNORE bans_lifted SET player_id = ? WHERE player_id = ?",
                   (b.id, a.id))
        db.execute("DELETE FROM bans_lifted WHERE player_id = ?", (a.id,))
        db.execute("UPDATE OR IGNORE trophies SET player_id = ? WHERE player_id = ?",
                   (b.id, a.id))
        db.execute("DELETE FROM trophies WHERE player_id = ?", (a.id,))
        # members and guests (issue 31): fees, day memberships, the confirmed age
        for table in ("fees", "day_memberships", "adults"):
            db.execute(f"UPDATE OR IGNORE {table} SET player_id = ? WHERE player_id = ?",
                       (b.id, a.id))
            db.execute(f"DELETE FROM {table} WHERE player_id = ?", (a.id,))
        db.execute("UPDATE aliases SET player_id = ? WHERE player_id = ?", (b.id, a.id))
        db.execute("DELETE FROM players WHERE id = ?", (a.id,))
        db.execute("INSERT OR IGNORE INTO aliases VALUES (?, ?)", (fold(a.name), b.id))
        return get(db, b.id)


def set_member(db: sqlite3.Connection, name: str, member: bool,
               member_since: str | None = None) -> ClubPlayer:
    """Make a guest a member (with the date) or a member a guest."""
    since = _check_date(member_since)
    with transaction(db):
        player = find(db, name)
        if player is None:
            raise ClubError(f"no player {name!r} in the club list", "no_player", name=name)
        db.execute("UPDATE players SET member = ?, member_since = ? WHERE id = ?",
                   (int(member), since if member else None, player.id))
        return get(db, player.id)
