"""Pure point tables and scoring rules.

No I/O, no clock reads and no hidden randomness: every draw takes a ``seed``.
Each table and function names the rule it implements; the rulebooks are the
German files in ``shared/seeds`` (``000`` PSC Five Spades, ``001`` Pokerlounge
Berlin house rules, ``003`` Ace Of Spades Härtsfeld).

Choices where the rulebooks are silent (also listed in the function docs):

* **Shared places** (000 9.5: equal stacks busting in the same hand share the
  place). ``n`` players sharing place ``p`` cover places ``p .. p+n-1`` and
  the next player is ``p+n`` ("1, 2, 2, 4"). Each of them gets the *mean* of
  the points of the covered places (:func:`shared_place_points`), the way TDA
  splits prize money between tied players; the total handed out stays the
  same. The mean is kept exact (:class:`fractions.Fraction`) and only rounded
  for display, half up to 2 decimals (:func:`round_points`).
* **Knock-out points** (000 6.3, 8.2): every actively eliminated opponent
  counts (member or not), only members earn points (6.2), and only the final
  elimination of a player counts (6.1).
* **Landesliga** (000 4.18): places 10 and below score 0 points and so start
  the final round with the 5,000 minimum.
* **Multi-round** (000 4.19): "18+2 (vor Ende der Zeit)" is read as: the winner
  gets 18 and 2 more if the table was decided *before* the time ran out; the
  second "18" is place 2. See :func:`multi_round_points`.
* **Ace of Spades bonus** (003 6): the brackets are read as lower bounds
  (0.549 gives 1 point, not 2); no rounding of the average.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Protocol, get_args

from controller.engine.settings import Points, PointsSystem

__all__ = [
    "ACE_OF_SPADES_ATTENDANCE_POINT",
    "ACE_OF_SPADES_BONUS_BRACKETS",
    "ACE_OF_SPADES_BONUS_MIN_TABLES",
    "ACE_OF_SPADES_TABLE_POINTS",
    "CLUB_CHAMPIONSHIP_CHIPS_PER_POINT",
    "CLUB_CHAMPIONSHIP_EXTRA_POINTS",
    "LANDESLIGA_CHIPS_PER_POINT",
    "LANDESLIGA_MAX_STACK",
    "LANDESLIGA_MIN_STACK",
    "LANDESLIGA_POINTS",
    "MULTI_ROUND_POINTS",
    "MULTI_ROUND_WIN_BONUS",
    "PSC_MAX_COLUMN",
    "PSC_MIN_PLAYERS",
    "PSC_RANKING_TABLE",
    "QUALIFIER_MAX_PLAYERS",
    "QUALIFIER_MIN_PLAYERS",
    "RE_ENTRY",
    "SYSTEMS",
    "TICKET",
    "Elimination",
    "ace_of_spades_bonus",
    "ace_of_spades_table_points",
    "bounty_leaders",
    "club_championship_stack",
    "credited_knockouts",
    "draw_names",
    "knockout_counts",
    "knockout_points",
    "landesliga_points",
    "landesliga_stack",
    "multi_round_final_table",
    "multi_round_points",
    "multi_round_ranking",
    "multi_round_totals",
    "mystery_hits",
    "paid_places",
    "psc_ranking_points",
    "psc_scoring_places",
    "public_name",
    "qualifier_ends_with",
    "qualifier_prizes",
    "round_points",
    "scoring_places",
    "shared_place_points",
]

Number = int | float | Fraction

#: The values of ``Points.system`` this module scores (none, psc_ranking 000 5.4, landesliga
#: 000 4.18, multi_round 000 4.19, ace_of_spades 003 6, qualifier 001 §2 III).
SYSTEMS: tuple[str, ...] = get_args(PointsSystem)

# --------------------------------------------------------------------------
# Shared places (000 9.5)
# --------------------------------------------------------------------------


def shared_place_points(
    place: int, tied: int, points_for_place: Callable[[int], Number]
) -> Fraction:
    """Points for each of ``tied`` players who share ``place`` (000 9.5).

    000 9.5: "Bei exakt gleich hohen Stacks teilen sich die beteiligten
    Spieler den Rangplatz." The rulebooks do not say how points are shared.
    Chosen rule: the tied players cover places ``place .. place+tied-1`` and
    each gets the exact mean of those places' points, so the total handed out
    is the same as without the tie (e.g. 13 players, two share 7th: places 7
    and 8 score 1 and 0, each gets 0.5).
    """
    if place < 1:
        raise ValueError(f"place must be >= 1, got {place}")
    if tied < 1:
        raise ValueError(f"tied must be >= 1, got {tied}")
    total = sum((Fraction(points_for_place(p)) for p in range(place, place + tied)), Fraction(0))
    return total / tied


def round_points(value: Number) -> float:
    """Round points for display: half up to 2 decimals (shared places, 000 9.5).

    Only a three-way (or wider) shared place produces more than one decimal;
    the exact :class:`~fractions.Fraction` is used for any further arithmetic
    (stacks), this is for the result lists.
    """
    exact = Fraction(value)
    dec = Decimal(exact.numerator) / Decimal(exact.denominator)
    return float(dec.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


# --------------------------------------------------------------------------
# PSC ranking points (000 5.4)
# --------------------------------------------------------------------------

#: Fewest players for which 000 5.4 awards points (the table starts at 6).
PSC_MIN_PLAYERS = 6
#: The last column of the 000 5.4 table; more players score like 30.
PSC_MAX_COLUMN = 30

#: 000 5.4, copied from the seed. ``PSC_RANKING_TABLE[place][players - 6]``
#: for 6..30 players; a blank cell in the seed is 0. Every data row of the
#: seed has one value more than its header (RULES.md 9): that extra last value
#: repeats the 30-player value and is read as "more than 30", so it is not
#: stored here (:func:`psc_ranking_points` uses column 30 for 31+ players).
# fmt: off
PSC_RANKING_TABLE: Mapping[int, tuple[int, ...]] = {
    #    6   7   8   9  10  11  12  13  14  15  16  17  18  19  20  21  22  23  24  25  26  27  28  29  30   <- players  # noqa: E501
    1: ( 6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18),  # noqa: E501
    2: ( 3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15),  # noqa: E501
    3: ( 1,  2,  3,  4,  4,  5,  6,  7,  8,  9, 10, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12),  # noqa: E501
    4: ( 0,  1,  1,  2,  2,  3,  4,  5,  6,  7,  8,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9),  # noqa: E501
    5: ( 0,  0,  0,  1,  1,  2,  2,  3,  4,  5,  6,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7),  # noqa: E501
    6: ( 0,  0,  0,  0,  0,  1,  1,  2,  2,  3,  4,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5),  # noqa: E501
    7: ( 0,  0,  0,  0,  0,  0,  0,  1,  1,  2,  2,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3),  # noqa: E501
    8: ( 0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  2,  2,  2,  2,  2,  2,  3,  3,  3,  3,  3,  3,  3,  3),  # noqa: E501
    9: ( 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  2,  2,  2,  2,  2,  2,  2,  2,  2,  3),  # noqa: E501
    10: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  2,  2,  2,  2,  2,  2,  2),  # noqa: E501
    11: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  2,  2,  2),  # noqa: E501
    12: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  2),  # noqa: E501
    13: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1),  # noqa: E501
    14: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1),  # noqa: E501
    15: (0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1),  # noqa: E501
}
# fmt: on


def psc_ranking_points(place: int, players: int) -> int:
    """Ranking points for ``place`` among ``players`` players (000 5.4).

    000 5.4: "Bei jedem Turnier erhalten die Top-Platzierten Ranglisten-Punkte"
    by the table for 6..30 players and places 1..15. Fewer than 6 players
    score nothing; more than 30 players score like 30 (the seed's extra last
    column, RULES.md 9); places below 15 and blank cells score 0. ``players``
    is the number of players (a rebuy or add-on is not a new player).
    SCENARIOS S11: 13 players score 13, 10, 7, 5, 3, 2, 1 for places 1-7.
    """
    if players < 1:
        raise ValueError(f"players must be >= 1, got {players}")
    if not 1 <= place <= players:
        raise ValueError(f"place must be in 1..{players}, got {place}")
    if players < PSC_MIN_PLAYERS:
        return 0
    row = PSC_RANKING_TABLE.get(place)
    if row is None:
        return 0
    return row[min(players, PSC_MAX_COLUMN) - PSC_MIN_PLAYERS]


def psc_scoring_places(players: int) -> int:
    """How many places score 000 5.4 ranking points with ``players`` players.

    6 players: 3; 13: 7; 18: 9; 29 and more: 15; fewer than 6: 0. Used for the
    points bubble (hand-for-hand, 001 §2 I).
    """
    if players < PSC_MIN_PLAYERS:
        return 0
    return sum(
        1 for place in range(1, min(players, 15) + 1) if psc_ranking_points(place, players) > 0
    )


# --------------------------------------------------------------------------
# Landesliga (000 4.18)
# --------------------------------------------------------------------------

#: 000 4.18 "Punkte der Vorrunde: 20-17-15-13-11-9-7-6-5" for SNG places 1-9.
LANDESLIGA_POINTS: tuple[int, ...] = (20, 17, 15, 13, 11, 9, 7, 6, 5)
#: 000 4.18 "pro Punkt erhält man 1000 Startchips für das Final".
LANDESLIGA_CHIPS_PER_POINT = 1_000
#: 000 4.18 "(max. 20000, mind. 5000)".
LANDESLIGA_MIN_STACK = 5_000
LANDESLIGA_MAX_STACK = 20_000


def landesliga_points(place: int) -> int:
    """Points for a place in the Landesliga SNG first round (000 4.18).

    Places 1-9 score 20-17-15-13-11-9-7-6-5. The SNG has "bis zu 9 Spielern
    pro Tisch"; should a table have a 10th player, places 10 and below score
    0 (rule silent) and start the final with the 5,000 minimum stack.
    """
    if place < 1:
        raise ValueError(f"place must be >= 1, got {place}")
    return LANDESLIGA_POINTS[place - 1] if place <= len(LANDESLIGA_POINTS) else 0


def landesliga_stack(points: Number) -> int:
    """Final-round starting stack for Landesliga ``points`` (000 4.18).

    1,000 chips per point, at least 5,000 and at most 20,000. Shared places
    can give fractional points (000 9.5); the stack is rounded half up to a
    whole chip (17⅓ points → 17,333).
    """
    if points < 0:
        raise ValueError(f"points must be >= 0, got {points}")
    whole = _round_half_up(Fraction(points) * LANDESLIGA_CHIPS_PER_POINT)
    return max(LANDESLIGA_MIN_STACK, min(LANDESLIGA_MAX_STACK, whole))


def _round_half_up(value: Fraction) -> int:
    """Round a nonnegative fraction half up to an integer."""
    return int((value * 2 + 1) // 2)


# --------------------------------------------------------------------------
# Multi-round 3+1 / 2+1 (000 4.19)
# --------------------------------------------------------------------------

#: 000 4.19 "Punkte pro Vorrunde: 18+2(vor Ende der Zeit)-18-15-12-9-7-5-3-2-1"
#: for places 1-10 (the "+2" is :data:`MULTI_ROUND_WIN_BONUS`).
MULTI_ROUND_POINTS: tuple[int, ...] = (18, 18, 15, 12, 9, 7, 5, 3, 2, 1)
#: 000 4.19 the "+2 (vor Ende der Zeit)" for winning a round before time.
MULTI_ROUND_WIN_BONUS = 2


def multi_round_points(place: int, *, won_before_time: bool = False) -> int:
    """Points for a place in one preliminary round (000 4.19).

    The seed reads "18+2(vor Ende der Zeit)-18-15-12-9-7-5-3-2-1": ten
    numbers for places 1-10, the first written as "18+2". Reading chosen:
    the round winner gets 18, plus 2 when the round is decided *before the
    end of the time* ("vor Ende der Zeit"), i.e. the winner took every chip
    before the clock ran out; when the time runs out (000 4.4: the chips are
    counted) the chip leader gets 18, the same as place 2. Places 11 and
    below score 0. ``won_before_time`` is ignored for places other than 1.

    (RULES.md 9 paraphrases this as "+2 if still playing at the end of time";
    the German says *before* the end of the time, and that reading would
    give the winner of an early-finished table no more than place 2.)
    """
    if place < 1:
        raise ValueError(f"place must be >= 1, got {place}")
    if place > len(MULTI_ROUND_POINTS):
        return 0
    base = MULTI_ROUND_POINTS[place - 1]
    if place == 1 and won_before_time:
        return base + MULTI_ROUND_WIN_BONUS
    return base


def multi_round_totals(rounds: Iterable[Mapping[int, Number]]) -> dict[int, float]:
    """Add up each player's points over the preliminary rounds (000 4.19).

    ``rounds``: one mapping ``player_id -> points`` per round. A player who
    is missing from a round scores 0 for it.
    """
    totals: dict[int, Fraction] = {}
    for round_points_ in rounds:
        for pid, pts in round_points_.items():
            totals[pid] = totals.get(pid, Fraction(0)) + Fraction(pts)
    return {pid: float(total) for pid, total in totals.items()}


def multi_round_ranking(rounds: Sequence[Mapping[int, Number]], *, seed: int) -> tuple[int, ...]:
    """All players, best on points first, after the preliminary rounds (000 4.19).

    000 4.19: "Die Punktebesten treffen einander am Final Table (9 Spieler),
    alle weiteren Spieler werden ebenfalls auf die weiteren Tische aufgeteilt".
    Ties (rule silent): first the higher total, then the better single-round
    score, then a draw with ``seed`` (the rulebook decides by lot elsewhere,
    000 4.6, 4.19).
    """
    totals: dict[int, Fraction] = {}
    best: dict[int, Fraction] = {}
    for rnd in rounds:
        for pid, pts in rnd.items():
            value = Fraction(pts)
            totals[pid] = totals.get(pid, Fraction(0)) + value
            best[pid] = max(best.get(pid, value), value)
    players = sorted(totals)
    lot = list(players)
    random.Random(seed).shuffle(lot)
    lot_position = {pid: i for i, pid in enumerate(lot)}
    return tuple(sorted(players, key=lambda p: (-totals[p], -best[p], lot_position[p])))


def multi_round_final_table(
    rounds: Sequence[Mapping[int, Number]], *, seed: int, seats: int = 9
) -> tuple[int, ...]:
    """The ``seats`` best on points who meet at the final table (000 4.19, 4.3).

    Ties at the cut are broken as in :func:`multi_round_ranking`.
    """
    if seats < 1:
        raise ValueError(f"seats must be >= 1, got {seats}")
    return multi_round_ranking(rounds, seed=seed)[:seats]


# --------------------------------------------------------------------------
# Ace of Spades season points (003 6, 8)
# --------------------------------------------------------------------------

#: 003 6: "1. Platz = (W)inner = 2 Punkte, 2. Platz = (S)wan = 1 Punkt,
#: 3. Platz = (C)rab = 0,5 Punkte".
ACE_OF_SPADES_TABLE_POINTS: tuple[float, ...] = (2.0, 1.0, 0.5)
#: 003 6: "für die (A)nwesenheit in Verbindung mit mindestens einem gespielten
#: Tisch ein weiterer Punkt" (per game day, not per table).
ACE_OF_SPADES_ATTENDANCE_POINT = 1
#: 003 6: "Voraussetzung ... sind mindestens 25 gespielte Tische".
ACE_OF_SPADES_BONUS_MIN_TABLES = 25
#: 003 6 "Bereinigter Durchschnitt / Bonuspunkte", as (lower bound, bonus),
#: highest first: 0,50-0,54 → 1, 0,55-0,59 → 2, 0,60-0,64 → 4, 0,65-0,69 → 6,
#: 0,70-0,74 → 9, 0,75-0,79 → 12, 0,80-0,84 → 16, 0,85 und mehr → 20.
ACE_OF_SPADES_BONUS_BRACKETS: tuple[tuple[Fraction, int], ...] = (
    (Fraction("0.85"), 20),
    (Fraction("0.80"), 16),
    (Fraction("0.75"), 12),
    (Fraction("0.70"), 9),
    (Fraction("0.65"), 6),
    (Fraction("0.60"), 4),
    (Fraction("0.55"), 2),
    (Fraction("0.50"), 1),
)
#: 003 8: "Für jeden Punkt wird ein Stack von 1.000 vergeben".
CLUB_CHAMPIONSHIP_CHIPS_PER_POINT = 1_000
#: 003 8: "bekommt JEDER Spieler grundsätzlich 5 Punkte zu seinem Punktekonto".
CLUB_CHAMPIONSHIP_EXTRA_POINTS = 5


def ace_of_spades_table_points(place: int) -> float:
    """Points for a place at one table on a regular game day (003 6).

    2 for the winner, 1 for second, 0.5 for third, 0 below. The attendance
    point is given per game day, see :data:`ACE_OF_SPADES_ATTENDANCE_POINT`.
    """
    if place < 1:
        raise ValueError(f"place must be >= 1, got {place}")
    if place > len(ACE_OF_SPADES_TABLE_POINTS):
        return 0.0
    return ACE_OF_SPADES_TABLE_POINTS[place - 1]


def ace_of_spades_bonus(table_points: Number, tables: int) -> int:
    """Season bonus from the attendance-free average (003 6, from 01.04.2011).

    ``table_points``: the season's points *without* attendance points;
    ``tables``: tables played. Fewer than 25 tables: no bonus. The average is
    ``table_points / tables``, compared exactly against the lower bounds of
    :data:`ACE_OF_SPADES_BONUS_BRACKETS` (rule silent between 0.54 and 0.55:
    chosen 0.549 → 1, no rounding up).
    """
    if tables < 0:
        raise ValueError(f"tables must be >= 0, got {tables}")
    if table_points < 0:
        raise ValueError(f"table_points must be >= 0, got {table_points}")
    if tables < ACE_OF_SPADES_BONUS_MIN_TABLES:
        return 0
    average = Fraction(table_points) / tables
    for lower, bonus in ACE_OF_SPADES_BONUS_BRACKETS:
        if average >= lower:
            return bonus
    return 0


def club_championship_stack(season_points: Number) -> int:
    """Starting stack for the Ace of Spades club championship (003 8).

    ``(season_points + 5) × 1,000``; 003 8's example: 32.5 points → 37,500.
    Rounded half up to a whole chip if shared places made the points finer
    than 0.001.
    """
    if season_points < 0:
        raise ValueError(f"season_points must be >= 0, got {season_points}")
    chips = (Fraction(season_points) + CLUB_CHAMPIONSHIP_EXTRA_POINTS) * (
        CLUB_CHAMPIONSHIP_CHIPS_PER_POINT
    )
    return _round_half_up(chips)


# --------------------------------------------------------------------------
# Qualifier SNG (001 §2 III)
# --------------------------------------------------------------------------

TICKET = "ticket"
RE_ENTRY = "re-entry"
#: 001 §2 III: "startet mit mindestens 6 und maximal 10 Spielern".
QUALIFIER_MIN_PLAYERS = 6
QUALIFIER_MAX_PLAYERS = 10


def _check_qualifier(players: int) -> None:
    if not QUALIFIER_MIN_PLAYERS <= players <= QUALIFIER_MAX_PLAYERS:
        raise ValueError(
            f"a qualifier SNG starts with {QUALIFIER_MIN_PLAYERS}-{QUALIFIER_MAX_PLAYERS}"
            f" players (001 §2 III), got {players}"
        )


def qualifier_prizes(players: int) -> dict[int, str]:
    """Prize per place of a qualifier SNG (001 §2 III).

    6-8 starting players: 1st a ticket for the main event, 2nd a re-entry.
    9-10: 1st and 2nd a ticket, 3rd a re-entry. Outside 6-10 the SNG may not
    start: :class:`ValueError`.
    """
    _check_qualifier(players)
    if players <= 8:
        return {1: TICKET, 2: RE_ENTRY}
    return {1: TICKET, 2: TICKET, 3: RE_ENTRY}


def qualifier_ends_with(players: int) -> int:
    """How many players are left when a qualifier SNG stops (001 §2 III).

    9-10 players: 2 — "In diesem Fall wird das Heads-Up nicht ausgespielt, da
    beide Spieler qualifiziert sind". 6-8 players: 1 — the heads-up decides
    ticket against re-entry and is played out.
    """
    _check_qualifier(players)
    return 2 if players >= 9 else 1


# --------------------------------------------------------------------------
# Knock-outs: championship (000 6, 8.2), bounty and mystery bounty (000 4.17)
# --------------------------------------------------------------------------


class Elimination(Protocol):
    """What the knock-out rules need from a finish (``results.Finish``)."""

    @property
    def player_id(self) -> int: ...

    @property
    def member(self) -> bool: ...

    @property
    def eliminated_by(self) -> int | None: ...

    @property
    def removed_as_ghost(self) -> bool: ...


def credited_knockouts(finishes: Iterable[Elimination]) -> list[tuple[int, int]]:
    """``(eliminator, eliminated)`` pairs that count as knock-outs.

    000 9.5: a player removed as a ghost after being absent gives no bounty
    point ("gibt es für diese Spieler auch keine Bounty-Punkte"); a finish
    without ``eliminated_by`` (winner, removed, unknown) credits nobody.
    000 6.1: only the final elimination counts (after a rebuy phase), so a
    finish carries at most one eliminator. Eliminating oneself is an error.
    """
    pairs: list[tuple[int, int]] = []
    for f in finishes:
        if f.eliminated_by is None or f.removed_as_ghost:
            continue
        if f.eliminated_by == f.player_id:
            raise ValueError(f"player {f.player_id} cannot eliminate themselves")
        pairs.append((f.eliminated_by, f.player_id))
    return pairs


def knockout_counts(finishes: Iterable[Elimination]) -> dict[int, int]:
    """Knock-outs per player, ghosts not counted (000 4.17, 6.1, 9.5)."""
    counts: dict[int, int] = {}
    for hunter, _victim in credited_knockouts(finishes):
        counts[hunter] = counts.get(hunter, 0) + 1
    return counts


def knockout_points(
    finishes: Sequence[Elimination],
    drawn_names: Mapping[int, Sequence[int]] | None = None,
    *,
    per_knockout: int = 1,
    drawn_bonus: int = 2,
) -> dict[int, int]:
    """Championship points per member (000 6.1-6.3, 8.2).

    8.2: "1 Punkt pro aktiv eliminierten Gegner"; 6.3: each member draws 3
    names of other members before the start, eliminating one of them is
    worth "zusätzlich zum Bountypunkt 2 weitere Punkte"; 6.2: only members
    are scored, so a non-member's knock-outs earn nothing (a knocked-out
    non-member still counts for the member who did it — any "Gegner").
    Removed ghosts give nothing (000 9.5). ``drawn_names`` ``None``: nobody
    drew names. Every member in ``finishes`` gets an entry (0 if none).
    """
    members = {f.player_id for f in finishes if f.member}
    drawn = drawn_names or {}
    points = {pid: 0 for pid in members}
    for hunter, victim in credited_knockouts(finishes):
        if hunter not in members:
            continue
        points[hunter] += per_knockout
        if victim in drawn.get(hunter, ()):
            points[hunter] += drawn_bonus
    return points


def draw_names(player_ids: Iterable[int], k: int, seed: int) -> dict[int, tuple[int, ...]]:
    """Each player draws ``k`` other players' names, seeded (000 6.3, 4.17).

    000 6.3: each member draws 3 names of other members; 000 4.17 mystery
    bounty: a list of 5 names per player. Each player's names are distinct
    and never their own; draws are independent between players (one name can
    be on several lists). With fewer than ``k`` other players everybody gets
    all the others. Same ids, ``k`` and ``seed`` → same result, whatever the
    order of ``player_ids``.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    ids = sorted(set(player_ids))
    rng = random.Random(seed)
    result: dict[int, tuple[int, ...]] = {}
    for pid in ids:
        others = [o for o in ids if o != pid]
        result[pid] = tuple(rng.sample(others, min(k, len(others))))
    return result


def bounty_leaders(finishes: Iterable[Elimination]) -> tuple[int, ...]:
    """The player(s) who knocked out the most players (000 4.17 bounty).

    "Jene/r Spieler welche die meisten Spieler aus dem Turnier werfen
    konnte/n, erhält/erhalten zusätzlich Preise": ties share. Ghosts give no
    bounty (000 9.5). Nobody knocked out anybody: ``()``. Sorted by id.
    """
    counts = knockout_counts(finishes)
    if not counts:
        return ()
    most = max(counts.values())
    return tuple(sorted(pid for pid, n in counts.items() if n == most))


def mystery_hits(
    finishes: Iterable[Elimination], lists: Mapping[int, Sequence[int]]
) -> dict[int, int]:
    """Mystery-bounty hits per player (000 4.17).

    Each player has a list of 5 names (:func:`draw_names` with ``k=5``); a
    hit is knocking out a player on one's own list ("Ziel ist es einen dieser
    5 Spieler aus dem Turnier zu werfen"). Ghosts give nothing (000 9.5).
    Only players with at least one hit appear.
    """
    hits: dict[int, int] = {}
    for hunter, victim in credited_knockouts(finishes):
        if victim in lists.get(hunter, ()):
            hits[hunter] = hits.get(hunter, 0) + 1
    return hits


# --------------------------------------------------------------------------
# Public lists (000 5.8) and bubble size
# --------------------------------------------------------------------------


def public_name(name: str, member: bool) -> str:
    """A name as shown on a public ranking list (000 5.8).

    "Nicht-Vereinsmitglieder werden jedoch verkürzt dargestellt": a
    non-member is shown as first name plus the initial of the last name
    ("Anna Schmidt" → "Anna S.", "Hans-Peter von Berg" → "Hans-Peter B.");
    a single name stays as it is. Members are shown in full. Whitespace is
    normalised.
    """
    parts = name.split()
    if member or len(parts) < 2:
        return " ".join(parts)
    return f"{parts[0]} {parts[-1][0]}."


def paid_places(places: int | str, field: int) -> int:
    """The paid places of a money venue (002): a count, or a share of ``field`` ("15%").

    A share is rounded half up and is at least 1 (a field of 27 at "10%" pays 3);
    never more than ``field``. The rulebook leaves the number to the venue.
    """
    if isinstance(places, int):
        return max(0, min(places, field))
    share = Fraction(places.rstrip("%")) / 100
    if share == 0:
        return 0
    return max(1, min(field, _round_half_up(share * field)))


def scoring_places(points: Points, entries: int) -> int:
    """How many places score points or a prize — the bubble (001 §2 I, 002).

    ``points.places`` wins when set (a count, or a share of ``entries``, see
    :func:`paid_places`). Otherwise by system: ``psc_ranking`` per
    the 000 5.4 table, ``landesliga`` 9 (000 4.18), ``multi_round`` 10 (000
    4.19), ``ace_of_spades`` 3 (003 6), ``qualifier`` 2 or 3 (001 §2 III),
    ``none`` 0; never more than ``entries``.
    """
    if points.places is not None:
        return paid_places(points.places, entries)
    system = points.system
    if system == "none":
        n = 0
    elif system == "psc_ranking":
        n = psc_scoring_places(entries)
    elif system == "landesliga":
        n = len(LANDESLIGA_POINTS)
    elif system == "multi_round":
        n = len(MULTI_ROUND_POINTS)
    elif system == "ace_of_spades":
        n = len(ACE_OF_SPADES_TABLE_POINTS)
    elif system == "qualifier":
        n = len(qualifier_prizes(entries))
    else:
        raise ValueError(f"unknown points system {system!r}")
    return min(n, entries)
