"""A player's history in the club database: every night played, the place, the points
and, where the night played for money (issue 30, 002), the payout, the ticket and the
bounties won, in cents; and the season's winnings for the standings.

A club database written before the money (schema 2) and opened read-only (it is only
brought up to date when opened for writing) has no money columns: its nights show
none, as they had none.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from collections import defaultdict
from dataclasses import dataclass

from controller.club import players as club_players
from controller.club.db import ClubError
from controller.engine.results import spreadsheet_cell
from controller.engine.settings import cents_text

__all__ = ["Night", "has_money", "history", "history_csv", "history_text", "winnings"]


@dataclass(frozen=True)
class Night:
    """One tournament a player played. Amounts in cents; ``None``: points only."""

    date: str
    tournament: str
    season: str
    place: int
    points: float
    currency: str | None = None
    payout: int | None = None
    ticket: int | None = None
    bounties: int | None = None

    @property
    def won(self) -> int:
        """Cash won this night: the payout and the bounties (a ticket is no cash)."""
        return (self.payout or 0) + (self.bounties or 0)


def has_money(db: sqlite3.Connection) -> bool:
    """The database has the money columns (schema 3 on)."""
    return any(r[1] == "payout" for r in db.execute("PRAGMA table_info(results)"))


def history(db: sqlite3.Connection, name: str) -> tuple[club_players.ClubPlayer, list[Night]]:
    """The club player called ``name`` (or an alias) and every night they played, oldest
    first. :class:`ClubError` for a name the club does not know."""
    player = club_players.find(db, name)
    if player is None:
        raise ClubError(f"no player {' '.join(name.split())!r} in the club database "
                        "(floorman club players SEARCH)")
    money = ("t.currency, r.payout, r.ticket, r.bounties" if has_money(db)
             else "NULL, NULL, NULL, NULL")
    rows = db.execute(
        f"SELECT t.date, t.name, t.season, r.place, r.points, {money} "  # noqa: S608 (fixed)
        "FROM results r JOIN tournaments t ON t.id = r.tournament_id "
        "WHERE r.player_id = ? AND r.game = 0 ORDER BY t.date, t.id", (player.id,))
    return player, [Night(*r) for r in rows]


def winnings(db: sqlite3.Connection, season: str) -> dict[int, int] | None:
    """Each club player's cash won in ``season`` (payouts and bounties, cents); ``None``
    when no night of the season played for money."""
    if not has_money(db):
        return None
    rows = db.execute(
        "SELECT r.player_id, COALESCE(r.payout, 0) + COALESCE(r.bounties, 0), t.currency "
        "FROM results r JOIN tournaments t ON t.id = r.tournament_id "
        "WHERE t.season = ? AND r.game = 0", (season,)).fetchall()
    if not any(currency is not None for _, _, currency in rows):
        return None
    out: dict[int, int] = defaultdict(int)
    for pid, won, _ in rows:
        out[pid] += won
    return dict(out)


def _amount(cents: int | None, currency: str | None) -> str:
    return "" if cents is None else f"{cents_text(cents)} {currency or ''}".strip()


def history_text(player: club_players.ClubPlayer, nights: list[Night]) -> str:
    """The history as the terminal shows it: a line a night, then the totals."""
    kind = "member" if player.member else "guest"
    lines = [f"{player.name} ({kind}): {len(nights)} tournaments"]
    for n in nights:
        line = f"{n.date}  {n.tournament} (season {n.season}): place {n.place}"
        if n.currency is None:
            line += f", {n.points:g} points"
        if n.ticket:
            line += f", ticket ({_amount(n.ticket, n.currency)})"
        elif n.payout:
            line += f", payout {_amount(n.payout, n.currency)}"
        if n.bounties:
            line += f", bounties {_amount(n.bounties, n.currency)}"
        lines.append(line)
    totals: dict[str, int] = defaultdict(int)
    tickets = 0
    for n in nights:
        if n.currency is not None:
            totals[n.currency] += n.won
            tickets += 1 if n.ticket else 0
    if totals:
        won = ", ".join(_amount(c, cur) for cur, c in sorted(totals.items()))
        lines.append(f"won: {won}" + (f", {tickets} tickets" if tickets else ""))
    return "\n".join(lines) + "\n"


def history_csv(nights: list[Night]) -> str:
    """The history as CSV; amounts in cents as every export gives them."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["date", "tournament", "season", "place", "points", "currency", "payout",
                "ticket", "bounties"])
    for n in nights:
        w.writerow([spreadsheet_cell(v) for v in (
            n.date, n.tournament, n.season, n.place, f"{n.points:g}", n.currency or "",
            "" if n.payout is None else n.payout, "" if n.ticket is None else n.ticket,
            "" if n.bounties is None else n.bounties)])
    return buf.getvalue()
