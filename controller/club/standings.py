"""A season's standings by the club's rules (the ``club:`` section of its preset).

The nights' points are the engine's (:func:`controller.engine.results.score`, stored at
the import); this module only adds them up, never scores again:

- ``standings: points`` (PSC 000 5.4/5.5, Pokerlounge): the season's sum of each
  night's points (:func:`~controller.engine.results.season_totals`), the tournaments
  played, wins, the championship's knock-out points with the drawn-name bonus (000 6,
  8.2; members only, 6.2), cup qualification (000 7.2: a member who played at least
  ``cup_min`` tournaments and, with ``cup_needs_points``, scored at least once), the
  members' ranking for the titles (000 8.1), and qualifier tickets and re-entries
  issued and used (001 §2 III).
- ``standings: ace_of_spades`` (003 6, 8): table points, one attendance point per play
  day, the season bonus from 25 tables
  (:func:`~controller.engine.results.ace_of_spades_season`) and the club championship's
  start stack ((points + 5) × 1,000).

Equal totals (``ties``): ``share`` the place ("1, 2, 2, 4"), or ``count_back``: more
wins first, then more second places, and so on (still equal: shared). Public lists
shorten non-members' names (000 5.8, ``public_short_names``).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from controller.club import words
from controller.club.db import ClubError
from controller.club.history import winnings
from controller.club.seasons import season_of
from controller.engine import points as rules
from controller.engine.results import (
    ResultRow,
    ace_of_spades_season,
    season_totals,
    spreadsheet_cell,
)
from controller.engine.settings import Club
from controller.wire.i18n import num

__all__ = ["Standing", "Table", "seasons", "standings", "standings_csv"]


@dataclass(frozen=True)
class Standing:
    """One line: ``place`` (equal places are shared), the club player's id and name,
    ``points`` (exact sum, rounded to 2 decimals), ``tournaments`` played in the season
    and the club's ``extra`` columns (in order)."""

    place: int
    player_id: int
    name: str
    member: bool
    points: float
    tournaments: int
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """A season's standings: the club, the season's name and its first and last day, its
    rules, the lines and how many tournaments it has had."""

    club: str
    season: str
    first: str
    last: str
    rules: Club
    lines: list[Standing]
    tournaments: int

    @property
    def columns(self) -> tuple[str, ...]:
        return ("place", "name", "points", "tournaments",
                *(self.lines[0].extra if self.lines else _extra_columns(self.rules)))


def _extra_columns(rules_: Club) -> tuple[str, ...]:
    if rules_.standings == "ace_of_spades":
        return ("member", "tables", "table_points", "attendance", "average", "bonus", "stack")
    return ("member", "wins", "knockout_points", "cup", "title", "tickets", "tickets_used",
            "re_entries")


def seasons(db: sqlite3.Connection) -> list[tuple[str, str, str, int]]:
    """``(season, first day, last day, tournaments)`` of every season with a tournament,
    oldest first; the days are the season's own (by the club's ``seasons`` starts)."""
    out = []
    for name, day, count in db.execute(
            "SELECT season, MAX(date), COUNT(*) FROM tournaments GROUP BY season "
            "ORDER BY MIN(date), season").fetchall():
        span = season_of(datetime.date.fromisoformat(day), _rules(db, name).seasons)
        out.append((name, span.first, span.last, count))
    return out


def _rules(db: sqlite3.Connection, season: str) -> Club:
    """The club's rules for ``season``: those of its latest tournament (a preset changed
    mid-season counts from then on for the whole season: the club's last word)."""
    row = db.execute("SELECT club_rules FROM tournaments WHERE season = ? "
                     "ORDER BY date DESC, id DESC LIMIT 1", (season,)).fetchone()
    return TypeAdapter(Club).validate_python(json.loads(row[0]))


def _pick_season(db: sqlite3.Connection, season: str | None) -> str:
    known = [s[0] for s in seasons(db)]
    if not known:
        raise ClubError("no tournament imported yet: no standings (floorman club import LOG)",
                        "no_tournament")
    if season is None:
        return known[-1]
    if season not in known:
        raise ClubError(f"no season {season!r} in the club database (seasons: "
                        f"{', '.join(known)})", "no_season", season=season,
                        known=", ".join(known))
    return season


def _rows(db: sqlite3.Connection, tid: int, game: str) -> list[ResultRow]:
    """The stored rows of one tournament (``game``: SQL condition on the game column),
    with the club's player ids and names."""
    out = []
    for r in db.execute(
            "SELECT r.place, r.player_id, p.name, r.points, r.knockouts, r.knockout_points, "
            "r.bounty_hits, r.prize, r.member, r.game, r.attendance, r.tables_played "
            f"FROM results r JOIN players p ON p.id = r.player_id WHERE r.tournament_id = ? "
            f"AND {game} ORDER BY r.game, r.place, p.name", (tid,)):
        out.append(ResultRow(place=r[0], player_id=r[1], name=r[2], points=r[3],
                             knockouts=r[4], knockout_points=r[5], bounty_hits=r[6],
                             prize=r[7], member=bool(r[8]), game=r[9] or None,
                             attendance=r[10], tables_played=r[11]))
    return out


def standings(db: sqlite3.Connection, season: str | None = None, *,
              public: bool = False) -> Table:
    """The standings of ``season`` (default: the latest). :class:`ClubError` for a season
    the database does not know. ``public``: non-members shortened where the club says so
    (000 5.8)."""
    name = _pick_season(db, season)
    tours = db.execute("SELECT id, date, system, club_rules FROM tournaments WHERE season = ? "
                       "ORDER BY date, id", (name,)).fetchall()
    club_rules = _rules(db, name)
    members = {r[0]: bool(r[1]) for r in db.execute("SELECT id, member FROM players")}
    nights = [_rows(db, t[0], "r.game = 0") for t in tours]
    if club_rules.standings == "ace_of_spades":
        lines = _ace_of_spades(db, tours, nights, members)
    else:
        lines = _points(tours, nights, members, club_rules)
    lines = _placed(lines, nights, club_rules)
    won = winnings(db, name)
    if won is not None:  # a season with nights for money (issue 30): the cash won, cents
        lines = [Standing(s.place, s.player_id, s.name, s.member, s.points, s.tournaments,
                          {**s.extra, "winnings": won.get(s.player_id, 0)}) for s in lines]
    if public and club_rules.public_short_names:
        lines = [Standing(s.place, s.player_id, rules.public_name(s.name, s.member), s.member,
                          s.points, s.tournaments, s.extra) for s in lines]
    span = season_of(datetime.date.fromisoformat(tours[-1][1]), club_rules.seasons)
    row = db.execute("SELECT value FROM meta WHERE key = 'club'").fetchone()
    return Table(row[0] if row else "", name, span.first, span.last, club_rules, lines,
                 len(tours))


def _played(nights: Sequence[Sequence[ResultRow]]) -> dict[int, int]:
    count: dict[int, int] = {}
    for rows in nights:
        for pid in {r.player_id for r in rows}:
            count[pid] = count.get(pid, 0) + 1
    return count


def _points(tours: Sequence[tuple], nights: list[list[ResultRow]], members: dict[int, bool],
            club_rules: Club) -> list[Standing]:
    totals = season_totals(nights)
    kos = season_totals(nights, field="knockout_points")
    played = _played(nights)
    names = {r.player_id: r.name for rows in nights for r in rows}
    wins = {pid: 0 for pid in names}
    scored = {pid: False for pid in names}
    tickets = dict.fromkeys(names, 0)
    re_entries = dict.fromkeys(names, 0)
    used = dict.fromkeys(names, 0)
    public = dict.fromkeys(names, 0)
    for (_, _, system, club_json), rows in zip(tours, nights, strict=True):
        cup_round = json.loads(club_json).get("cup_round", "none")
        for r in rows:
            # 000 7.2: "5 der 10 öffentlichen Turniere": the cup's own rounds are not one
            public[r.player_id] += cup_round == "none"
            wins[r.player_id] += r.place == 1
            scored[r.player_id] |= r.points > 0
            prizes = (r.prize or "").split(", ")
            if system == "qualifier":
                tickets[r.player_id] += prizes.count(rules.TICKET)
                re_entries[r.player_id] += prizes.count(rules.RE_ENTRY)
            elif used[r.player_id] < tickets[r.player_id]:
                # a ticket holder's next tournament that is no qualifier is the main event
                # the ticket was for (001 §2 III): it uses one ticket
                used[r.player_id] += 1
    lines = []
    for pid, name in names.items():
        member = members.get(pid, False)
        cup = (club_rules.cup_min > 0 and member and public[pid] >= club_rules.cup_min
               and (scored[pid] or not club_rules.cup_needs_points))
        lines.append(Standing(0, pid, name, member, rules.round_points(totals[pid]),
                              played[pid], {
                                  "member": member, "wins": wins[pid],
                                  # 000 6.2: only members count for the championship
                                  "knockout_points": kos.get(pid, 0) if member else 0,
                                  "cup": cup, "title": None, "tickets": tickets[pid],
                                  "tickets_used": used[pid], "re_entries": re_entries[pid]}))
    return lines


def _ace_of_spades(db: sqlite3.Connection, tours: Sequence[tuple],
                   nights: list[list[ResultRow]], members: dict[int, bool]) -> list[Standing]:
    tables: list[list[ResultRow]] = []
    days: list[int] = []
    for t in tours:
        if t[2] != "ace_of_spades":
            continue
        games: dict[int, list[ResultRow]] = {}
        for r in _rows(db, t[0], "r.game > 0"):
            games.setdefault(r.game or 0, []).append(r)
        for n in sorted(games):
            tables.append(games[n])
            days.append(t[0])
    played = _played(nights)
    season = {s.player_id: s for s in ace_of_spades_season(tables, days=days)}
    names = {r.player_id: r.name for rows in nights for r in rows}
    lines = []
    for pid, name in names.items():
        s = season.get(pid)
        lines.append(Standing(0, pid, name, members.get(pid, False),
                              rules.round_points(s.total) if s else 0.0, played[pid], {
                                  "member": members.get(pid, False),
                                  "tables": s.tables if s else 0,
                                  "table_points": rules.round_points(s.table_points) if s else 0,
                                  "attendance": s.attendance if s else 0,
                                  "average": rules.round_points(s.average) if s else 0,
                                  "bonus": s.bonus if s else 0,
                                  # 003 8: (season points + 5) × 1,000
                                  "stack": rules.club_championship_stack(s.total if s else 0)}))
    return lines


def count_back(lines: Sequence[Standing],
               nights: Sequence[Sequence[ResultRow]]) -> dict[int, tuple]:
    """Each line's sort key for ``ties: count_back``: fewer points last, then more wins
    first, more second places, and so on; equal keys share the place.

    Comparing the counts of each place (wins, seconds, …) orders the same as comparing
    each player's places sorted best first, padded with a place worse than any: the first
    place where the counts differ is the first position where the sorted places differ.
    The key is as long as the most nights a player played, not as the deepest place (a
    1,600-player season: 1,600 counts a player)."""
    places: dict[int, list[int]] = {s.player_id: [] for s in lines}
    for rows in nights:
        for r in rows:
            places[r.player_id].append(r.place)
    longest = max(map(len, places.values()), default=0)
    worse = 1 + max((p for ps in places.values() for p in ps), default=0)
    keys: dict[int, tuple] = {}
    for s in lines:
        ps = sorted(places[s.player_id])
        keys[s.player_id] = (-s.points, *ps, *[worse] * (longest - len(ps)))
    return keys


def _placed(lines: list[Standing], nights: Sequence[Sequence[ResultRow]],
            club_rules: Club) -> list[Standing]:
    """Sort and number the lines: points, then (``count_back``) wins, seconds, …"""
    keys = (count_back(lines, nights) if club_rules.ties == "count_back"
            else {s.player_id: (-s.points,) for s in lines})

    def key(s: Standing) -> tuple:
        return keys[s.player_id]

    lines.sort(key=lambda s: (key(s), s.name, s.player_id))
    out: list[Standing] = []
    title = 0
    title_key: tuple | None = None
    title_place = 0
    for i, s in enumerate(lines):
        place = out[-1].place if out and key(lines[i - 1]) == key(s) else i + 1
        extra = dict(s.extra)
        if "title" in extra:
            # 000 8.1: the titles go to members only: their own ranking
            if club_rules.members_only_titles and not s.member:
                extra["title"] = None
            else:
                title += 1
                if key(s) != title_key:
                    title_place, title_key = title, key(s)
                extra["title"] = title_place
        out.append(Standing(place, s.player_id, s.name, s.member, s.points, s.tournaments,
                            extra))
    return out


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    return str(value)


def standings_csv(table: Table) -> str:
    """The standings as CSV: place, name, points, tournaments, then the club's columns."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(table.columns)
    for s in table.lines:
        # a name like "=HYPERLINK(…)" is text, not a formula, in the club's spreadsheet
        writer.writerow([spreadsheet_cell(_cell(v)) for v in (s.place, s.name, s.points,
                                                              s.tournaments, *s.extra.values())])
    return buf.getvalue()


def _said(value: Any, lang: str) -> str:
    """A cell as the terminal says it: yes/no, a decimal comma in German."""
    if isinstance(value, bool):
        return words.say("yes" if value else "no", lang)
    text = _cell(value)
    return text.replace(".", ",") if lang == "de" and isinstance(value, float) else text


def standings_text(table: Table, lang: str = "en") -> str:
    """The standings as the terminal shows them: one aligned line a player, in the club's
    language (``lang``: ``en`` or ``de``)."""
    head = [words.column(c, lang) for c in table.columns]
    body = [[_said(v, lang) for v in (s.place, s.name, s.points, s.tournaments,
                                      *s.extra.values())]
            for s in table.lines]
    if "stack" in table.columns:  # chips as the screens write them: 20.000 in German
        at = table.columns.index("stack")
        for row, s in zip(body, table.lines, strict=True):
            row[at] = num(s.extra["stack"], lang)
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = [words.say("season_head", lang, club=table.club, season=table.season,
                       first=table.first, last=table.last,
                       tournaments=words.tournaments(table.tournaments, lang))]
    for r in [head, *body]:
        lines.append("  ".join(c.rjust(w) if i != 1 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    return "\n".join(lines) + "\n"
