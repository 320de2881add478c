"""Tournament bans for no-shows (000 2.7), counted from the club's recorded no-shows.

000 2.7: "Meldet sich ein Turnierteilnehmer zu einem Turnier an und erscheint ohne
Abmeldung nicht, wird dies bei mehrfachem Vorkommen durch eine 3-monatige Turniersperre
bestraft. Bei weiteren Vergehen dieser Art wird eine 12-monatige Turniersperre verhängt."
Read as: the second no-show gives 3 months from that night, every one after it 12
months from its night (the rulebook names no period after which a no-show is forgotten:
every recorded one counts). A ban is never stored, only counted from the no-shows
(imported with each night, :mod:`.imports`), so a merged player or a corrected import
gives the right ban at once; what is stored is the director's lifting of one
(``bans_lifted``, with the day and the reason), which :func:`lift` records.
"""

from __future__ import annotations

import calendar
import datetime
import sqlite3
from dataclasses import dataclass

from controller.club import players as club_players
from controller.club.db import ClubError, transaction

#: months of the ban for the second no-show, and for each one after it (000 2.7)
FIRST_BAN_MONTHS = 3
NEXT_BAN_MONTHS = 12


@dataclass(frozen=True)
class Ban:
    """One ban: ``player`` from the night ``since`` (its ``count``-th no-show) up to and
    including the day before ``until``; ``lifted``: (day, reason) when the director lifted
    it."""

    player: str
    since: datetime.date
    until: datetime.date
    months: int
    count: int
    lifted: tuple[str, str] | None = None

    def holds_on(self, day: datetime.date) -> bool:
        return self.lifted is None and self.since <= day < self.until


def add_months(day: datetime.date, months: int) -> datetime.date:
    """``day`` ``months`` later (the month's last day where it has no such day)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(year=year, month=month,
                       day=min(day.day, calendar.monthrange(year, month)[1]))


def bans(db: sqlite3.Connection) -> list[Ban]:
    """Every ban the recorded no-shows give, by player then date."""
    rows = db.execute(
        "SELECT p.id, p.name, t.date FROM no_shows n JOIN players p ON p.id = n.player_id "
        "JOIN tournaments t ON t.id = n.tournament_id ORDER BY p.name, t.date, t.id").fetchall()
    lifted = {(pid, until): (on, why) for pid, until, on, why in db.execute(
        "SELECT player_id, until, lifted_on, reason FROM bans_lifted")}
    out: list[Ban] = []
    count: dict[int, int] = {}
    for pid, name, date in rows:
        count[pid] = n = count.get(pid, 0) + 1
        if n < 2:
            continue
        months = FIRST_BAN_MONTHS if n == 2 else NEXT_BAN_MONTHS
        since = datetime.date.fromisoformat(date)
        until = add_months(since, months)
        out.append(Ban(name, since, until, months, n, lifted.get((pid, until.isoformat()))))
    return out


def banned(db: sqlite3.Connection, name: str, day: datetime.date) -> Ban | None:
    """The ban that holds ``name`` (a club player's name or alias) on ``day``, the one
    that ends last; ``None``: free to register."""
    p = club_players.find(db, name)
    if p is None:
        return None
    holding = [b for b in bans(db) if b.player == p.name and b.holds_on(day)]
    return max(holding, key=lambda b: b.until, default=None)


def lift(db: sqlite3.Connection, name: str, reason: str, day: datetime.date) -> Ban:
    """The director lifts the ban that holds ``name`` on ``day`` (recorded with the day and
    the reason); :class:`ClubError` when none holds."""
    reason = " ".join(reason.split())
    if not reason:
        raise ClubError("say why the ban is lifted (--reason)", "ban_reason")
    with transaction(db):
        ban = banned(db, name, day)
        if ban is None:
            raise ClubError(f"{name!r} has no ban on {day.isoformat()}", "no_ban", name=name,
                        day=day.isoformat())
        p = club_players.find(db, name)
        assert p is not None
        db.execute("INSERT INTO bans_lifted VALUES (?, ?, ?, ?)",
                   (p.id, ban.until.isoformat(), day.isoformat(), reason))
    return ban
