"""Tournament results: finishing places → points, knock-outs, prizes, lists.

Pure functions over :class:`Finish` records; the point rules themselves live
in :mod:`controller.engine.points`. :func:`score` dispatches on
``Points.system``; :func:`results_csv` / :func:`results_json` render the rows,
shortening non-members' names on public lists (000 5.8). The season helpers
add up per-tournament results (000 5.5, 8.2; 000 4.19; 003 6, 8).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from controller.engine import points as rules
from controller.engine.settings import Points

__all__ = [
    "BOUNTY",
    "CSV_COLUMNS",
    "MYSTERY_BOUNTY",
    "PLAY_DAY_COLUMNS",
    "AceOfSpadesSeason",
    "Finish",
    "ResultRow",
    "ace_of_spades_season",
    "landesliga_stacks",
    "multi_round_finalists",
    "multi_round_standings",
    "play_day_tables",
    "results_csv",
    "spreadsheet_cell",
    "results_json",
    "score",
    "season_totals",
]

#: Prize for the player(s) with the most knock-outs (000 4.17 bounty).
BOUNTY = "bounty"
#: Prize for knocking out a name on one's mystery list (000 4.17).
MYSTERY_BOUNTY = "mystery-bounty"

#: Column order of :func:`results_csv` and keys of :func:`results_json`.
CSV_COLUMNS: tuple[str, ...] = (
    "place",
    "player_id",
    "name",
    "points",
    "knockouts",
    "knockout_points",
    "bounty_hits",
    "prize",
    "member",
)
#: Extra columns of a play day's rows (003 6), after :data:`CSV_COLUMNS`.
PLAY_DAY_COLUMNS: tuple[str, ...] = ("game", "attendance", "tables_played")


@dataclass(frozen=True)
class Finish:
    """One player's final result in one tournament (or one table/round).

    ``place``: 1 = winner; equal numbers are a declared shared place (000
    9.5: equal stacks busting in the same hand share the place); ``n`` players
    sharing place ``p`` cover ``p .. p+n-1`` and the next place is ``p+n``.
    ``eliminated_by``: who knocked this player out for good (000 6.1: after
    any rebuy phase); ``None`` for the winner, removed or unknown.
    ``removed_as_ghost``: 000 9.5, an absent player removed from play: ranked,
    but gives nobody a bounty or knock-out point. ``playing_at_end``: the
    player still had chips when the round's time ran out (000 4.4, 4.19).
    """

    player_id: int
    name: str
    place: int
    member: bool = True
    eliminated_by: int | None = None
    removed_as_ghost: bool = False
    playing_at_end: bool = False


@dataclass(frozen=True)
class ResultRow:
    """One line of a result list.

    ``points``: the system's points, rounded half up to 2 decimals (only a
    shared place gives fractions, see :func:`points.shared_place_points`).
    ``knockouts``: credited knock-outs (ghosts excluded, 000 9.5).
    ``knockout_points``: championship points (000 6, 8.2; 0 unless
    ``Points.knockout``, and 0 for non-members, 000 6.2). ``bounty_hits``:
    knock-outs (``bounty``) or mystery-list hits (``mystery``), else 0.
    ``prize``: ``"ticket"``, ``"re-entry"``, ``"bounty"``,
    ``"mystery-bounty"`` or several joined by ``", "``; ``None`` if none.
    A play day (003 6) has two kinds of rows: a table game's (``game`` its
    number, ``points`` 2 / 1 / 0.5) and the day's (``game`` ``None``,
    ``attendance`` the attendance point, ``tables_played``, ``points`` the
    table points plus attendance). ``payout``: cents, for money only.
    """

    place: int
    player_id: int
    name: str
    points: float
    knockouts: int
    knockout_points: int
    bounty_hits: int
    prize: str | None
    member: bool
    game: int | None = None
    attendance: int = 0
    tables_played: int = 0
    #: the payout in cents of a tournament for money (issue 30; 0 outside the paid
    #: places); ``None`` where it plays for points only: no payout column then
    payout: int | None = None
    #: a satellite's ticket winner: the ticket's value in cents (the target's buy-in)
    ticket: int | None = None
    #: a deal at the final table: what the player took by it (cents, within ``payout``)
    deal: int | None = None
    #: the money bounties the player won, in cents (rules/bounties.py); ``None``: the
    #: tournament plays no money bounties
    bounties: int | None = None
    #: a satellite's shared place that covered a ticket and cash: the ticket or the cash
    #: was drawn by lot (rules/prize_pool.py ``satellite_prizes``); ``None``: no lot
    lot: bool | None = None


# --------------------------------------------------------------------------
# score
# --------------------------------------------------------------------------


def _check_finishes(finishes: Sequence[Finish], entries: int,
                    playing: Iterable[int] = ()) -> dict[int, list[Finish]]:
    """Validate the finishes and group them by place (000 9.5 shared places).

    ``playing``: players still in (no place yet) who may have knocked somebody out."""
    if entries < 1:
        raise ValueError(f"entries must be >= 1, got {entries}")
    if len(finishes) > entries:
        raise ValueError(f"{len(finishes)} finishes but only {entries} entries")
    ids = [f.player_id for f in finishes]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears more than once in the finishes")
    known = set(ids) | set(playing)
    groups: dict[int, list[Finish]] = {}
    for f in finishes:
        if f.place < 1:
            raise ValueError(f"player {f.player_id}: place must be >= 1, got {f.place}")
        if f.eliminated_by is not None and f.eliminated_by not in known:
            raise ValueError(f"player {f.player_id} eliminated by unknown player {f.eliminated_by}")
        groups.setdefault(f.place, []).append(f)
    covered_until = 0
    for place in sorted(groups):
        if place <= covered_until:
            raise ValueError(
                f"place {place} is already covered by a shared place (000 9.5: "
                f"n players sharing place p cover p..p+n-1)"
            )
        covered_until = place + len(groups[place]) - 1
        if covered_until > entries:
            raise ValueError(f"place {place} shared by {len(groups[place])} exceeds {entries}")
    return groups


def _check_lists(lists: Mapping[int, Sequence[int]], limit: int, what: str, rule: str) -> None:
    for pid, names in lists.items():
        if pid in names:
            raise ValueError(f"{what}: player {pid} drew their own name ({rule})")
        if len(names) > limit:
            raise ValueError(f"{what}: player {pid} has {len(names)} names, at most {limit}")


def _exact_points(system: str, place: int, tied: Sequence[Finish], entries: int) -> Fraction:
    """Points for each finish in a group of ``tied`` sharing ``place``."""
    n = len(tied)
    table: Callable[[int], rules.Number]
    if system == "none" or system == "qualifier":
        return Fraction(0)
    if system == "psc_ranking":
        table = lambda p: rules.psc_ranking_points(p, entries)  # noqa: E731
    elif system == "landesliga":
        table = rules.landesliga_points
    elif system == "multi_round":
        # 000 4.19: the +2 needs a sole winner who took every chip before the
        # time ran out (not playing when the time ended).
        won = n == 1 and not tied[0].playing_at_end
        table = lambda p: rules.multi_round_points(p, won_before_time=won)  # noqa: E731
    elif system == "ace_of_spades":
        table = rules.ace_of_spades_table_points
    else:
        raise ValueError(f"unknown points system {system!r}")
    return rules.shared_place_points(place, n, table)


def _qualifier_prizes(
    groups: Mapping[int, list[Finish]], entries: int, seed: int | None
) -> dict[int, str]:
    """Ticket / re-entry per player (001 §2 III), shared places included.

    A shared place whose covered places all carry the same prize (or none)
    gives it to each tied player — e.g. 9-10 players, the two left share 1st
    since the heads-up is not played: both get a ticket. If the covered
    places carry different prizes, the prizes are indivisible and are drawn
    among the tied players with ``seed`` (the rulebook decides ties by lot,
    000 3.12); without a seed that is an error.
    """
    table = rules.qualifier_prizes(entries)
    rng = random.Random(seed)
    out: dict[int, str] = {}
    for place in sorted(groups):
        tied = sorted(groups[place], key=lambda f: f.player_id)
        covered = [table.get(p) for p in range(place, place + len(tied))]
        if len(set(covered)) == 1:
            assigned = covered
        else:
            if seed is None:
                raise ValueError(
                    f"players {[f.player_id for f in tied]} share place {place}, which covers "
                    f"different prizes {covered}: pass prize_draw_seed to draw them"
                )
            assigned = list(covered)
            rng.shuffle(assigned)
        for f, prize in zip(tied, assigned, strict=True):
            if prize is not None:
                out[f.player_id] = prize
    return out


def score(
    points: Points,
    finishes: Sequence[Finish],
    *,
    entries: int,
    drawn_names: Mapping[int, Sequence[int]] | None = None,
    mystery_lists: Mapping[int, Sequence[int]] | None = None,
    prize_draw_seed: int | None = None,
    playing: Iterable[int] = (),
) -> list[ResultRow]:
    """Score one tournament (or one SNG table / round) by ``points.system``.

    ``entries``: the number of players the system counts (000 5.4 "Spieler";
    for Landesliga / multi-round / Ace of Spades / qualifier the players at
    the table). Systems: ``none`` (0), ``psc_ranking`` (000 5.4),
    ``landesliga`` (000 4.18, points; stacks via :func:`landesliga_stacks`),
    ``multi_round`` (000 4.19, per round), ``ace_of_spades`` (003 6, table
    points without the per-day attendance point, see
    :func:`ace_of_spades_season`), ``qualifier`` (001 §2 III, 0 points and a
    ticket / re-entry prize). Shared places get the mean of the covered
    places (000 9.5, :func:`points.shared_place_points`).

    ``points.knockout``: championship points from ``drawn_names`` (000 6.3;
    ``None`` = nobody drew). ``points.bounty``: ``"bounty"`` gives the prize
    to the most knock-outs, ties share (000 4.17); ``"mystery"`` gives the prize to every
    player with a hit on their ``mystery_lists`` (``None``: no list entered, no hit).
    ``prize_draw_seed``: draws indivisible qualifier prizes between players
    sharing a place that covers different prizes. ``playing``: the players
    still in during the tournament; their knock-outs so far count (a drawn name
    knocked out scores before the knocker finishes).

    Rows are sorted by place, then name, then id.
    """
    system = points.system
    if system not in rules.SYSTEMS:
        raise ValueError(f"unknown points system {system!r}, expected one of {rules.SYSTEMS}")
    groups = _check_finishes(finishes, entries, playing)

    exact: dict[int, Fraction] = {}
    for place, tied in groups.items():
        value = _exact_points(system, place, tied, entries)
        for f in tied:
            exact[f.player_id] = value

    prizes: dict[int, list[str]] = {f.player_id: [] for f in finishes}
    if system == "qualifier":
        for pid, prize in _qualifier_prizes(groups, entries, prize_draw_seed).items():
            prizes[pid].append(prize)

    knockouts = rules.knockout_counts(finishes)

    ko_points: dict[int, int] = {}
    if points.knockout:
        drawn = drawn_names or {}
        _check_lists(drawn, points.knockout_drawn_names, "drawn_names", "000 6.3")
        ko_points = rules.knockout_points(
            finishes, drawn, per_knockout=1, drawn_bonus=points.knockout_drawn_bonus
        )

    bounty_hits: dict[int, int] = {}
    if points.bounty == "bounty":
        bounty_hits = knockouts
        # the leaders are counted over everybody, the players still in too; a prize shows
        # on a row, so a leader still in gets it with a place
        for pid in rules.bounty_leaders(finishes):
            if pid in prizes:
                prizes[pid].append(BOUNTY)
    elif points.bounty == "mystery":
        # lists not entered (yet) give no hits; the ranking points count all the same
        lists = mystery_lists or {}
        _check_lists(lists, points.mystery_names, "mystery_lists", "000 4.17")
        bounty_hits = rules.mystery_hits(finishes, lists)
        for pid in sorted(bounty_hits):
            if pid in prizes:  # a hit by a player still in shows with a place
                prizes[pid].append(MYSTERY_BOUNTY)
    elif points.bounty != "none":
        raise ValueError(f"unknown bounty mode {points.bounty!r}")

    rows = [
        ResultRow(
            place=f.place,
            player_id=f.player_id,
            name=f.name,
            points=rules.round_points(exact[f.player_id]),
            knockouts=knockouts.get(f.player_id, 0),
            knockout_points=ko_points.get(f.player_id, 0),
            bounty_hits=bounty_hits.get(f.player_id, 0),
            prize=", ".join(prizes[f.player_id]) or None,
            member=f.member,
        )
        for f in finishes
    ]
    rows.sort(key=lambda r: (r.place, r.name, r.player_id))
    return rows


# --------------------------------------------------------------------------
# Rendering (000 5.8)
# --------------------------------------------------------------------------


def _format_points(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _play_day(rows: Sequence[ResultRow]) -> bool:
    return any(r.game is not None or r.tables_played for r in rows)


def _row_dict(row: ResultRow, public: bool, play_day: bool = False) -> dict[str, Any]:
    extra = ({"game": row.game, "attendance": row.attendance,
              "tables_played": row.tables_played} if play_day else {})
    return {
        "place": row.place,
        "player_id": row.player_id,
        "name": rules.public_name(row.name, row.member) if public else row.name,
        "points": row.points,
        "knockouts": row.knockouts,
        "knockout_points": row.knockout_points,
        "bounty_hits": row.bounty_hits,
        "prize": row.prize,
        "member": row.member,
        **extra,
        **({} if row.payout is None else {"payout": row.payout}),
        **({} if row.ticket is None else {"ticket": row.ticket}),
        **({} if row.deal is None else {"deal": row.deal}),
        **({} if row.bounties is None else {"bounties": row.bounties}),
        **({"lot": True} if row.lot else {}),
    }


#: what makes a spreadsheet read a cell as a formula (OWASP, CSV injection): =, +, -, @,
#: a tab, a carriage return, a line feed, and the full-width =, +, -, @ some spreadsheets
#: take for them
FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a text that would start a formula
    (``=HYPERLINK(…)``, ``@SUM(…)``, ``-2+3``) gets a ``'`` before it, as OWASP recommends;
    numbers (and text that is a number, ``-0,5`` with a German decimal comma) stay
    numbers."""
    if not isinstance(value, str) or not value or value[0] not in FORMULA_START:
        return value
    try:
        float(value.replace(",", "."))
    except ValueError:
        return "'" + value
    return value


def results_csv(rows: Iterable[ResultRow], *, public: bool = False) -> str:
    """The rows as CSV text with a header line (RFC 4180 ``\\r\\n`` line ends).

    ``public=True``: non-members' names shortened (000 5.8, "Anna S.").
    Points without trailing zeros ("13", "0.5", "7.33"); ``prize`` empty if
    none; ``member`` ``true`` / ``false``. A play day's rows add the columns
    :data:`PLAY_DAY_COLUMNS` (``game`` empty on the day's own rows); a tournament for
    money the column ``payout`` (cents, issue 30).
    """
    rows = list(rows)
    day = _play_day(rows)
    money = any(row.payout is not None for row in rows)
    tickets = any(row.ticket is not None for row in rows)
    dealt = any(row.deal is not None for row in rows)
    bounties = any(row.bounties is not None for row in rows)
    lots = any(row.lot for row in rows)
    columns = (CSV_COLUMNS + (PLAY_DAY_COLUMNS if day else ()) + (("payout",) if money else ())
               + (("ticket",) if tickets else ()) + (("deal",) if dealt else ())
               + (("bounties",) if bounties else ()) + (("lot",) if lots else ()))
    buf = io.StringIO()
    writer = csv.writer(buf)  # "\r\n": fields with \r or \n get quoted
    writer.writerow(columns)
    for row in rows:
        d = _row_dict(row, public, day)
        d["points"] = _format_points(row.points)
        d["prize"] = row.prize or ""
        d["member"] = "true" if row.member else "false"
        if day:
            d["game"] = "" if row.game is None else row.game
        if tickets:
            d["ticket"] = "" if row.ticket is None else row.ticket
        if dealt:
            d["deal"] = "" if row.deal is None else row.deal
        if bounties:
            d["bounties"] = row.bounties or 0
        if lots:
            d["lot"] = "true" if row.lot else ""
        writer.writerow([spreadsheet_cell(d[c]) for c in columns])
    return buf.getvalue()


def results_json(rows: Iterable[ResultRow], *, public: bool = False) -> list[dict[str, Any]]:
    """The rows as JSON-ready dicts with the :data:`CSV_COLUMNS` keys.

    ``public=True``: non-members' names shortened (000 5.8). A play day's rows
    also carry ``game``, ``attendance`` and ``tables_played``; a tournament for money's
    rows ``payout`` (cents, issue 30).
    """
    rows = list(rows)
    day = _play_day(rows)
    return [_row_dict(row, public, day) for row in rows]


# --------------------------------------------------------------------------
# Seasons and multi-round events
# --------------------------------------------------------------------------

_Field = Literal["points", "knockout_points", "knockouts", "bounty_hits"]


def _exact(value: float) -> Fraction:
    """The decimal a rounded points value stands for (0.1 → 1/10)."""
    return Fraction(repr(value))


def season_totals(
    tournaments: Iterable[Sequence[ResultRow]], *, field: _Field = "points"
) -> dict[int, float]:
    """Sum one column per player over a season's tournaments.

    ``field="points"``: the yearly ranking (000 5.1, 5.5: the points of every
    public tournament and the cup final of the season; reset each season —
    pass only that season's results). ``field="knockout_points"``: the
    championship (000 6, 8.2; only members earn them).
    """
    # Exact decimal sums (0.1 + 0.2 is 0.3), as _exact's fractions give, at a fraction of
    # their cost: a season of 16,000 rows took 1.8 s in Fraction's string parsing. The
    # points are short decimals, far inside Decimal's 28 digits, and float() of either
    # exact sum is the nearest float.
    exact: dict[float, Decimal] = {}
    totals: dict[int, Decimal] = {}
    zero = Decimal(0)
    for rows in tournaments:
        for row in rows:
            value = float(getattr(row, field))
            d = exact.get(value)
            if d is None:
                d = exact[value] = Decimal(repr(value))
            totals[row.player_id] = totals.get(row.player_id, zero) + d
    return {pid: float(total) for pid, total in totals.items()}


def landesliga_stacks(rows: Iterable[ResultRow]) -> dict[int, int]:
    """Final-round starting stacks from the Landesliga first round (000 4.18).

    1,000 chips per point, min 5,000, max 20,000 (places 10+ score 0 → 5,000).
    """
    return {row.player_id: rules.landesliga_stack(_exact(row.points)) for row in rows}


def multi_round_standings(
    rounds: Sequence[Sequence[ResultRow]], *, seed: int
) -> list[tuple[int, float]]:
    """``(player_id, total points)`` best first after the rounds (000 4.19).

    ``rounds``: one list of rows per preliminary round (all tables of the
    round together). Ties: higher total, better single round, seeded draw
    (:func:`points.multi_round_ranking`).
    """
    per_round = [{row.player_id: _exact(row.points) for row in rows} for rows in rounds]
    totals = rules.multi_round_totals(per_round)
    return [(pid, totals[pid]) for pid in rules.multi_round_ranking(per_round, seed=seed)]


def multi_round_finalists(
    rounds: Sequence[Sequence[ResultRow]], *, seed: int, seats: int = 9
) -> tuple[int, ...]:
    """The best on points who meet at the final table (000 4.19: 9 players)."""
    per_round = [{row.player_id: _exact(row.points) for row in rows} for rows in rounds]
    return rules.multi_round_final_table(per_round, seed=seed, seats=seats)


def play_day_tables(rows: Iterable[ResultRow]) -> list[list[ResultRow]]:
    """A play day's results (``Tournament.results()``) as one list of rows per table game,
    in game order: what :func:`ace_of_spades_season` takes for that day (003 6)."""
    games: dict[int, list[ResultRow]] = {}
    for row in rows:
        if row.game is not None:
            games.setdefault(row.game, []).append(row)
    return [games[n] for n in sorted(games)]


@dataclass(frozen=True)
class AceOfSpadesSeason:
    """One player's Ace of Spades season (003 6, 8).

    ``table_points``: placement points (2 / 1 / 0.5) over all tables;
    ``attendance``: game days with at least one table; ``average``:
    ``table_points / tables`` (attendance-free);
    ``bonus``: the season bonus (from 25 tables); ``total`` = table points +
    attendance + bonus; ``championship_stack`` = (total + 5) × 1,000.
    """

    player_id: int
    name: str
    member: bool
    tables: int
    table_points: float
    attendance: int
    average: float
    bonus: int
    total: float
    championship_stack: int


def ace_of_spades_season(
    tables: Sequence[Sequence[ResultRow]], *, days: Sequence[Hashable] | None = None
) -> list[AceOfSpadesSeason]:
    """Season standings of the Ace of Spades club (003 6, 8).

    ``tables``: one :func:`score` result (system ``ace_of_spades``) per table
    played. ``days``: the game day of each table (same length); the
    attendance point is given once per game day on which the player played
    at least one table (003 6 "für die Anwesenheit in Verbindung mit
    mindestens einem gespielten Tisch"). ``None``: every table is its own day.
    Sorted by total (best first), then name.
    """
    if days is not None and len(days) != len(tables):
        raise ValueError(f"{len(days)} days for {len(tables)} tables")
    day_keys: Sequence[Hashable] = days if days is not None else list(range(len(tables)))
    count: dict[int, int] = {}
    pts: dict[int, Fraction] = {}
    attended: dict[int, set[Hashable]] = {}
    names: dict[int, tuple[str, bool]] = {}
    for rows, day in zip(tables, day_keys, strict=True):
        for row in rows:
            pid = row.player_id
            count[pid] = count.get(pid, 0) + 1
            pts[pid] = pts.get(pid, Fraction(0)) + _exact(row.points)
            attended.setdefault(pid, set()).add(day)
            names[pid] = (row.name, row.member)
    season: list[AceOfSpadesSeason] = []
    for pid, n in count.items():
        attendance = len(attended[pid]) * rules.ACE_OF_SPADES_ATTENDANCE_POINT
        bonus = rules.ace_of_spades_bonus(pts[pid], n)
        total = pts[pid] + attendance + bonus
        season.append(
            AceOfSpadesSeason(
                player_id=pid,
                name=names[pid][0],
                member=names[pid][1],
                tables=n,
                table_points=float(pts[pid]),
                attendance=attendance,
                average=float(pts[pid] / n),
                bonus=bonus,
                total=float(total),
                championship_stack=rules.club_championship_stack(total),
            )
        )
    season.sort(key=lambda s: (-s.total, s.name, s.player_id))
    return season
