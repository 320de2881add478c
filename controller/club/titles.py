"""The season's titles (000 5-8): who is Meister, Jahressieger and Cupsieger, who plays
the cup and where, and who keeps a trophy. Pure decisions from the standings' lines and
the recorded winners; no database, no clock (the database side is
:mod:`controller.club.trophies`).

- **Championship** (000 5.2: "wird gesondert auf der Meisterschafts-Rangliste
  aufgeführt"; 6.1-6.3, 8.2): its own list of the members (6.2) by their knock-out
  points (1 a knocked-out opponent, 2 more for a drawn name), counted by the engine at
  each night and stored at the import. The **Meister** has the most (8.2).
- **Jahressieger** (8.3): the member first in the yearly ranking (5.4 points) — the
  standings' ``title`` column, which ranks members only (8.1) with the club's ties.
- **Cup** (7.2): qualified are the members with at least ``cup_min`` public tournaments
  and one points finish; the final has 10 seats; the top 3 (11-15 qualified), 4
  (16-20) or 5 (21 and more) of the yearly ranking are in the final, the rest play a
  preliminary round for the remaining seats.
- **Trophies** (8.2-8.5): a challenge trophy goes to the next winner; three in a row
  (8.5 "3 mal in Folge"), or all three titles in one season, and the winner keeps it.

Where 000 is silent, the choice is written next to the code: equal points share a title
(8.2/8.3 name no tie-break for the championship; the yearly ranking's tie-break is the
club's ``ties``); the cup's "Top 3" are the best qualified members of the yearly ranking;
"Vereinsmitglieder" in 7.2 is read as the qualified members; "mehr als
21" as 21 and more (16-20 is the row before); a tie at the cut of the fixed places puts
all the tied in the final (or, when that leaves no seat to play for, all of them in the
preliminary round).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from controller.club.standings import Standing

__all__ = ["FINAL_SEATS", "TITLES", "Award", "CupDraw", "Kept", "Listed", "championship",
           "cup_draw", "fixed_seats", "jahressieger", "kept_trophies", "meister",
           "qualified_for_cup"]

#: the three titles of a season (000 8.1), in the rulebook's order
TITLES = ("meister", "jahressieger", "cupsieger")
#: 000 7.2: "Das Finale wird mit 10 Personen gespielt"
FINAL_SEATS = 10
#: 000 8.5: "3 mal in Folge"
HATTRICK = 3


@dataclass(frozen=True)
class Listed:
    """One line of the championship list: place (shared when equal), name, points."""

    place: int
    player_id: int
    name: str
    points: int


def championship(lines: Sequence[Standing]) -> list[Listed]:
    """The championship list (000 5.2, 6.1-6.3): the members only (6.2), by knock-out
    points, most first; equal points share the place (000 silent). A member without a
    knock-out is listed with 0 (1.6: every member is on every list)."""
    members = [s for s in lines if s.member]
    members.sort(key=lambda s: (-int(s.extra.get("knockout_points") or 0), s.name,
                                s.player_id))
    out: list[Listed] = []
    for i, s in enumerate(members):
        pts = int(s.extra.get("knockout_points") or 0)
        place = out[-1].place if out and out[-1].points == pts else i + 1
        out.append(Listed(place, s.player_id, s.name, pts))
    return out


def meister(lines: Sequence[Standing]) -> tuple[str, ...]:
    """000 8.2: the member with the most championship points ("meisten Punkte (1 Punkt
    pro aktiv eliminierten Gegner)"); equal: all of them; nobody with a point: none."""
    return tuple(x.name for x in championship(lines) if x.place == 1 and x.points > 0)


def jahressieger(lines: Sequence[Standing]) -> tuple[str, ...]:
    """000 8.3: the member with the most points of the yearly ranking, after the club's
    tie-break (the standings' ``title`` rank 1, members only by 8.1); a shared first
    place: all of them; nobody with a point: none."""
    return tuple(s.name for s in lines
                 if s.member and s.extra.get("title") == 1 and s.points > 0)


def qualified_for_cup(lines: Sequence[Standing], public_played: Mapping[int, int], *,
                      cup_min: int, needs_points: bool) -> list[Standing]:
    """000 7.2: "alle Vereinsmitglieder, die in der aktuellen Saison mindestens 5 der 10
    öffentlichen Turniere gespielt haben und zumindest 1-mal in die Punkteränge gekommen
    sind" — ``public_played``: the public tournaments each played (the cup's own rounds
    do not count); scored: points in the season. In the order of the yearly ranking."""
    if cup_min <= 0:
        return []
    return [s for s in lines if s.member and public_played.get(s.player_id, 0) >= cup_min
            and (s.points > 0 or not needs_points)]


def fixed_seats(qualified: int) -> int:
    """How many of the yearly ranking's best are in the cup final without a preliminary
    round (000 7.2: "Top 3 (bei 11-15 Vereinsmitgliedern), Top 4 (bei 16-20 ...), bzw.
    Top 5 (bei mehr als 21 ...)"). Up to 10 qualified: all of them (the final has 10
    seats: no preliminary round is needed). 21 is read with "more than 20"."""
    if qualified <= FINAL_SEATS:
        return qualified
    if qualified <= 15:
        return 3
    if qualified <= 20:
        return 4
    return 5


@dataclass(frozen=True)
class CupDraw:
    """The cup (000 7.2): the qualified members (yearly ranking order), those in the
    final by their ranking (``seeded``), those who play the preliminary round, and how
    many final seats the preliminary round gives."""

    qualified: tuple[Standing, ...]
    seeded: tuple[Standing, ...]
    preliminary: tuple[Standing, ...]
    preliminary_seats: int


def cup_draw(qualified: Sequence[Standing]) -> CupDraw:
    """Split the qualified (in yearly ranking order, the members' ``title`` rank) into
    the seeded finalists and the preliminary round (000 7.2). A tie at the cut (the same
    title rank after the club's tie-break) puts all the tied in the final (000 silent:
    equal players are not split by chance) — unless that leaves no seat to play for:
    then all the tied play the preliminary round."""
    ranked = sorted(qualified, key=lambda s: (_rank(s), s.name, s.player_id))
    n = fixed_seats(len(ranked))
    if 0 < n < len(ranked):
        cut = _rank(ranked[n - 1])
        while n < len(ranked) and _rank(ranked[n]) == cut:
            n += 1
        if n >= FINAL_SEATS:
            # so many tied that no final seat would be left to play for: all the tied
            # play the preliminary round instead
            n = next(i for i, s in enumerate(ranked) if _rank(s) == cut)
    seeded, rest = tuple(ranked[:n]), tuple(ranked[n:])
    seats = max(0, FINAL_SEATS - len(seeded)) if rest else 0
    return CupDraw(tuple(ranked), seeded, rest, seats)


def _rank(s: Standing) -> int:
    title = s.extra.get("title")
    return title if isinstance(title, int) else s.place


@dataclass(frozen=True)
class Award:
    """A title won: the season, the title (one of :data:`TITLES`) and the player. Equal
    winners of one title are two awards."""

    season: str
    title: str
    player: str


@dataclass(frozen=True)
class Kept:
    """A trophy the winner keeps (000 8.5): the season, the titles, the player and why:
    ``hattrick`` (3 in a row) or ``all_three`` (all three titles in one season)."""

    season: str
    titles: tuple[str, ...]
    player: str
    why: str


def kept_trophies(awards: Iterable[Award], seasons: Sequence[str]) -> list[Kept]:
    """The trophies kept (000 8.5: "Gelingt es einem Spieler 3 mal in Folge den Pokal
    des Meisters, Jahressiegers oder Cupsiegers zu gewinnen, so darf er den/die Pokal/e
    behalten, ebenfalls ... alle 3 Pokale in 1 Saison"), in ``seasons`` order.

    "In Folge" counts the title's awards one after the other (a season that awarded the
    title to someone else breaks the run; a season that awarded it to nobody does not).
    A kept trophy leaves the club: the next one starts with no runs, so the same winner
    needs three more wins to keep it too."""
    by_season: dict[str, dict[str, set[str]]] = {}
    for a in awards:
        by_season.setdefault(a.season, {}).setdefault(a.title, set()).add(a.player)
    runs: dict[str, dict[str, int]] = {t: {} for t in TITLES}
    out: list[Kept] = []
    for season in seasons:
        won = by_season.get(season, {})
        kept_now: dict[str, list[str]] = {}
        for title in TITLES:
            winners = won.get(title)
            if not winners:
                continue
            runs[title] = {p: runs[title].get(p, 0) + 1 for p in winners}
            for p in sorted(winners):
                if runs[title][p] >= HATTRICK:
                    kept_now.setdefault(p, []).append(title)
        for p in sorted({p for ws in won.values() for p in ws}):
            if all(p in won.get(t, set()) for t in TITLES):
                out.append(Kept(season, TITLES, p, "all_three"))
                kept_now.pop(p, None)
                for t in TITLES:
                    runs[t] = {}
        for p, titles in kept_now.items():
            out.append(Kept(season, tuple(titles), p, "hattrick"))
            for t in titles:
                runs[t] = {}
    return out
