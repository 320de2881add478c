"""Start stacks from the club's standings, where the tournament's mode says so
(``club.start_stacks`` of its preset or file):

- ``club_championship`` (003 8): "(season points + 5) × 1,000" for every player
  (a player without points starts with 5,000); the season's points are its standings'
  (table points + attendance + bonus for Ace of Spades, 003 6).
- ``landesliga`` (000 4.18): 1,000 chips a point of the first round, at least 5,000,
  at most 20,000; the first round is the club's latest ``landesliga`` tournaments (all
  of that day: one log per SNG table).

The engine takes the stack with the registration (``register`` with ``stack``); this
module only works out the numbers and the commands, before the draw.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from controller.club import players as club_players
from controller.club.db import ClubError
from controller.club.standings import standings
from controller.engine import points as rules
from controller.engine.settings import TournamentSettings

__all__ = ["register_commands", "start_stacks"]


def _landesliga_points(db: sqlite3.Connection) -> dict[int, Fraction]:
    day = db.execute("SELECT MAX(date) FROM tournaments WHERE system = 'landesliga'") \
        .fetchone()[0]
    if day is None:
        raise ClubError("no Landesliga first round in the club database (000 4.18): import "
                        "its logs first")
    points: dict[int, Fraction] = {}
    for pid, pts in db.execute(
            "SELECT r.player_id, r.points FROM results r JOIN tournaments t ON "
            "t.id = r.tournament_id WHERE t.system = 'landesliga' AND t.date = ? AND "
            "r.game = 0", (day,)):
        points[pid] = points.get(pid, Fraction(0)) + Fraction(repr(pts))
    return points


def start_stacks(db: sqlite3.Connection, settings: TournamentSettings, names: Sequence[str],
                 season: str | None = None) -> dict[str, int]:
    """Each name's start stack for a tournament of ``settings`` (``club.start_stacks``);
    ``season``: the standings' season (default: the latest). :class:`ClubError` when the
    tournament takes no stacks from the standings."""
    mode = settings.club.start_stacks
    if mode == "none":
        raise ClubError(f"{settings.name} takes no start stacks from the standings "
                        "(club.start_stacks: none)")
    ids = {}
    for name in names:
        p = club_players.find(db, name)
        ids[name] = None if p is None else p.id
    if mode == "club_championship":
        table = standings(db, season)
        points = {s.player_id: Fraction(repr(s.points)) for s in table.lines}
        # 003 8: every player gets 5 points more; nobody in the standings: 5 points
        return {n: rules.club_championship_stack(points.get(pid, Fraction(0)) if pid else 0)
                for n, pid in ids.items()}
    first_round = _landesliga_points(db)
    return {n: rules.landesliga_stack(first_round.get(pid, Fraction(0)) if pid else 0)
            for n, pid in ids.items()}


def register_commands(db: sqlite3.Connection, settings: TournamentSettings,
                      names: Sequence[str], *, member: bool = True,
                      season: str | None = None) -> list[dict[str, Any]]:
    """The ``register`` commands that enter ``names`` with their stacks from the standings:
    one command per stack, in the order the names first appear."""
    stacks = start_stacks(db, settings, names, season)
    groups: dict[int, list[str]] = {}
    for name in names:
        groups.setdefault(stacks[name], []).append(name)
    return [{"cmd": "register", "names": group, "member": member, "stack": stack}
            for stack, group in groups.items()]
