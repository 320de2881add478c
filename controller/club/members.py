"""Members and guests (000 1.1, 1.3-1.7, 2.1, 2.5; 003 1, 8): the yearly fee, the day
memberships, the confirmed age.

000 1.3 and 003 1: a member pays a yearly fee; it is recorded for the season it pays
(``fees``), so a member who has not paid for the season of the night registers as a
guest (000 2.1: "eine gültige Mitgliedschaft"). A club that never recorded a fee keeps
the players' member flag alone (``floorman club member``). 000 1.7: a guest plays a
public tournament on a day membership: the import records one for each guest of a
tournament that is not members only (``day_memberships``). 000 1.1, 003 1: the desk
asks whether a player is 18; the date a player confirmed it is kept (``adults``), no ID.

The engine never reads this: the desk's door (:func:`controller.club.intake.desk_facts`)
puts the facts into the registration command, so the decision is the log's.
"""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from controller.club import players as club_players
from controller.club.db import ClubError, transaction
from controller.club.seasons import season_of

__all__ = ["Facts", "Member", "confirm_adult", "facts", "members", "pay_fee"]


@dataclass(frozen=True)
class Facts:
    """What the desk needs of one club player on a day: a member (fee paid for the day's
    season, or the member flag where no fee is ever recorded), and since when 18 is
    confirmed (ISO date, ``None``: never asked)."""

    name: str
    member: bool
    adult_since: str | None
    season: str


@dataclass(frozen=True)
class Member:
    """One line of the club list: member flag, the seasons paid, the confirmed age, the
    day memberships (000 1.7) taken."""

    name: str
    member: bool
    paid: tuple[str, ...]
    adult_since: str | None
    day_memberships: int


def _player(db: sqlite3.Connection, name: str) -> club_players.ClubPlayer:
    p = club_players.find(db, name)
    if p is None:
        raise ClubError(f"no player {name!r} in the club list (floorman club add NAME)")
    return p


def pay_fee(db: sqlite3.Connection, name: str, season: str, day: datetime.date) -> str:
    """000 1.3: ``name`` paid the yearly fee for ``season`` on ``day``; a member from now
    on. Returns the player's name."""
    season = season.strip()
    if not season or len(season) > 20:
        raise ClubError(f"{season!r} is no season (e.g. 2026; floorman club seasons)")
    with transaction(db):
        p = _player(db, name)
        db.execute("INSERT OR REPLACE INTO fees VALUES (?, ?, ?)",
                   (p.id, season, day.isoformat()))
        if not p.member:
            db.execute("UPDATE players SET member = 1, member_since = ? WHERE id = ?",
                       (day.isoformat(), p.id))
    return p.name


def confirm_adult(db: sqlite3.Connection, name: str, day: datetime.date) -> str:
    """000 1.1, 003 1: ``name`` confirmed being 18 on ``day`` (the first date is kept)."""
    with transaction(db):
        p = _player(db, name)
        db.execute("INSERT OR IGNORE INTO adults VALUES (?, ?)", (p.id, day.isoformat()))
    return p.name


def facts(db: sqlite3.Connection, names: Sequence[str], day: datetime.date,
          seasons: Sequence[str]) -> dict[str, Facts]:
    """The desk's facts of each of ``names`` the club knows (by name or alias), by the name
    as given; a name the club does not know is left out (a new player)."""
    season = season_of(day, seasons).name
    any_fee = db.execute("SELECT 1 FROM fees LIMIT 1").fetchone() is not None
    out: dict[str, Facts] = {}
    for n in names:
        p = club_players.find(db, n)
        if p is None:
            continue
        member = p.member
        if any_fee:
            member = p.member and db.execute(
                "SELECT 1 FROM fees WHERE player_id = ? AND season = ?",
                (p.id, season)).fetchone() is not None
        row = db.execute("SELECT confirmed_on FROM adults WHERE player_id = ?",
                         (p.id,)).fetchone()
        out[n] = Facts(p.name, member, row[0] if row else None, season)
    return out


def members(db: sqlite3.Connection, everyone: bool = False) -> list[Member]:
    """The club list: the members (``everyone``: the guests too), by name."""
    out = []
    for p in club_players.all_players(db):
        if not (p.member or everyone):
            continue
        paid = tuple(r[0] for r in db.execute(
            "SELECT season FROM fees WHERE player_id = ? ORDER BY season", (p.id,)))
        row = db.execute("SELECT confirmed_on FROM adults WHERE player_id = ?",
                         (p.id,)).fetchone()
        days = db.execute("SELECT COUNT(*) FROM day_memberships WHERE player_id = ?",
                          (p.id,)).fetchone()[0]
        out.append(Member(p.name, p.member, paid, row[0] if row else None, days))
    return out
