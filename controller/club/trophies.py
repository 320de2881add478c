"""The season's titles from the club database (000 5-8; the decisions are
:mod:`controller.club.titles`): the championship list, the Meister, the Jahressieger,
the Cupsieger, the cup's field, and the trophies recorded each season (table
``trophies``, schema 3) with those kept after a hattrick (8.5).

The titles shown for a season are worked out from its tournaments as they stand (during
the season: who leads). ``record`` writes a season's winners into ``trophies`` when the
season is over (8.2: "nach Beendigung aller Turniere (inkl. Cupfinale)"); winners of the
years before Floorman are entered by hand the same way.
"""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from controller.club import players
from controller.club.db import ClubError, transaction
from controller.club.standings import Table, seasons, standings
from controller.club.titles import (
    TITLES,
    Award,
    CupDraw,
    Kept,
    Listed,
    championship,
    cup_draw,
    jahressieger,
    kept_trophies,
    meister,
    qualified_for_cup,
)

__all__ = ["SeasonTitles", "Trophies", "awards", "public_played", "record", "record_season",
           "season_titles", "trophies"]


@dataclass(frozen=True)
class SeasonTitles:
    """One season's titles as they stand: the standings they come from, the championship
    list, the winners (or leaders) of each title, whether the cup final was played, and
    the cup's field."""

    table: Table
    championship: list[Listed]
    winners: dict[str, tuple[str, ...]]
    final_played: bool
    cup: CupDraw
    #: the public tournaments each player played (000 7.2; the cup's rounds are none)
    public_played: dict[int, int]

    @property
    def applies(self) -> bool:
        """Whether the club awards these titles: its titles are the members' (000 8.1,
        ``club.members_only_titles``); a club of another rulebook has none of them."""
        return self.table.rules.members_only_titles


def public_played(db: sqlite3.Connection, season: str) -> dict[int, int]:
    """The public tournaments each player played in ``season`` (000 7.2: the cup's own
    rounds are none of "den 10 öffentlichen Turnieren")."""
    rows = db.execute(
        "SELECT r.player_id, COUNT(DISTINCT r.tournament_id) FROM results r "
        "JOIN tournaments t ON t.id = r.tournament_id WHERE t.season = ? AND r.game = 0 "
        "AND COALESCE(json_extract(t.club_rules, '$.cup_round'), 'none') = 'none' "
        "GROUP BY r.player_id", (season,))
    return {pid: n for pid, n in rows}


def _cup_winners(db: sqlite3.Connection, season: str) -> tuple[bool, tuple[str, ...]]:
    """Whether ``season`` had its cup final, and its winner if a member (8.1, 8.4: the
    season's latest tournament with ``cup_round: final``)."""
    final = db.execute(
        "SELECT id FROM tournaments WHERE season = ? "
        "AND json_extract(club_rules, '$.cup_round') = 'final' "
        "ORDER BY date DESC, id DESC LIMIT 1", (season,)).fetchone()
    if final is None:
        return False, ()
    rows = db.execute(
        "SELECT p.name FROM results r JOIN players p ON p.id = r.player_id "
        "WHERE r.tournament_id = ? AND r.game = 0 AND r.place = 1 AND p.member = 1 "
        "ORDER BY p.name", (final[0],)).fetchall()
    return True, tuple(r[0] for r in rows)


def season_titles(db: sqlite3.Connection, season: str | None = None) -> SeasonTitles:
    """The titles of ``season`` (default: the latest) as its tournaments stand. Names in
    full: the titles and the cup are the members' (8.1, 2.5)."""
    table = standings(db, season)
    played, cup_winner = _cup_winners(db, table.season)
    rules = table.rules
    played_public = public_played(db, table.season)
    qualified = qualified_for_cup(table.lines, played_public,
                                  cup_min=rules.cup_min, needs_points=rules.cup_needs_points)
    return SeasonTitles(table, championship(table.lines), {
        "meister": meister(table.lines),
        "jahressieger": jahressieger(table.lines),
        "cupsieger": cup_winner,
    }, played, cup_draw(qualified), played_public)


def record(db: sqlite3.Connection, season: str, title: str, names: Sequence[str],
           day: datetime.date) -> list[str]:
    """Record the winner(s) of ``title`` in ``season`` (in place of those recorded
    before): the club's players named, members only (8.1). Returns their names."""
    if title not in TITLES:
        raise ClubError(f"no title {title!r} (titles: {', '.join(TITLES)})", "no_title",
                        title=title, titles=", ".join(TITLES))
    if not season.strip() or len(season) > 20:
        raise ClubError(f"not a season: {season!r}", "not_a_season", season=season)
    found = []
    for name in names:
        p = players.find(db, name)
        if p is None:
            raise ClubError(f"no player {name!r} in the club database (floorman club add)",
                            "no_player", name=name)
        if not p.member:
            raise ClubError(f"{p.name} is no member: the titles are the members' (000 8.1)",
                            "title_no_member", name=p.name)
        found.append(p)
    with transaction(db):
        db.execute("DELETE FROM trophies WHERE season = ? AND title = ?", (season, title))
        for p in found:
            db.execute("INSERT OR IGNORE INTO trophies VALUES (?, ?, ?, ?)",
                       (season, title, p.id, day.isoformat()))
    return [p.name for p in found]


def record_season(db: sqlite3.Connection, season: str | None,
                  day: datetime.date) -> tuple[str, dict[str, tuple[str, ...]]]:
    """Record the season's winners as its tournaments stand (``None``: the latest
    season). A title without a winner (no cup final yet) is left as it was."""
    t = season_titles(db, season)
    done = {}
    for title in TITLES:
        if t.winners[title]:
            done[title] = tuple(record(db, t.table.season, title, t.winners[title], day))
    return t.table.season, done


def awards(db: sqlite3.Connection) -> list[Award]:
    """Every recorded title, by season and title."""
    return [Award(s, t, n) for s, t, n in db.execute(
        "SELECT t.season, t.title, p.name FROM trophies t JOIN players p "
        "ON p.id = t.player_id ORDER BY t.season, t.title, p.name")]


@dataclass(frozen=True)
class Trophies:
    """The trophies: who holds each challenge trophy now (title → the season and its
    winners; a trophy just kept has no holder), every trophy kept (8.5), every award."""

    holders: dict[str, tuple[str, tuple[str, ...]]]
    kept: list[Kept]
    awards: list[Award]
    #: title → the holders who are no members any more (8.6: "muss er den erhaltenen
    #: Pokal vorzeitig zurückgeben")
    to_return: dict[str, tuple[str, ...]]


def _season_order(db: sqlite3.Connection, names: set[str]) -> list[str]:
    """The seasons in time: those with tournaments in their order, the others (entered by
    hand, before Floorman) by name among them."""
    known = [s[0] for s in seasons(db)]
    return sorted(names | set(known), key=lambda s: (s[:4], known.index(s) if s in known
                                                       else -1, s))


def trophies(db: sqlite3.Connection) -> Trophies:
    """The trophies as the recorded titles make them (000 8.2-8.6)."""
    got = awards(db)
    order = _season_order(db, {a.season for a in got})
    kept = kept_trophies(got, order)
    holders: dict[str, tuple[str, tuple[str, ...]]] = {}
    for title in TITLES:
        won = [a for a in got if a.title == title]
        if not won:
            continue
        last = max((a.season for a in won), key=order.index)
        if any(k.season == last and title in k.titles for k in kept):
            continue  # kept: a new trophy, nobody holds it yet
        holders[title] = (last, tuple(sorted(a.player for a in won if a.season == last)))
    members = {name: bool(m) for name, m in db.execute("SELECT name, member FROM players")}
    to_return = {title: gone for title, (_, names) in holders.items()
                 if (gone := tuple(n for n in names if not members.get(n, True)))}
    return Trophies(holders, kept, got, to_return)
