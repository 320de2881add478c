"""What the director's console reads of the club database: the printable standings,
the club list the registration picks names from and the bans (000 2.7). Read only, but
for one write: the director lifting a ban (:func:`lift_ban`, recorded with the day and
the reason; the service's door is :mod:`.intake`).

The file is the controller machine's club database: ``$FLOORMAN_CLUB``, else the data
folder's ``club.sqlite`` (:func:`controller.club.cli.default_path`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.club.cli import default_path
from controller.club.db import ClubError, open_club
from controller.club.words import refusal

if TYPE_CHECKING:  # imported when asked: the console starts without the standings' rules
    import datetime

    from controller.club.bans import Ban
    from controller.club.players import ClubPlayer
    from controller.club.standings import Table
    from controller.club.trophies import SeasonTitles, Trophies

__all__ = ["ClubError", "bans_on", "default_path", "find_players", "lift_ban", "refusal",
           "season_titles",
           "standings_table"]


def standings_table(path: str, season: str | None) -> Table:
    """The season's standings (the latest season for ``None``) with public names
    (000 5.8). Raises :class:`ClubError` when there is no club database or it cannot
    be read."""
    from controller.club.standings import standings

    db = open_club(path, create=False, readonly=True)
    try:
        return standings(db, season, public=True)
    finally:
        db.close()


def find_players(path: str, text: str, limit: int) -> list[ClubPlayer]:
    """The club's players matching ``text`` (folded, umlauts and near spellings too), at
    most ``limit``; none when there is no club database."""
    from controller.club import players

    try:
        db = open_club(path, create=False, readonly=True)
    except ClubError:
        return []
    try:
        return players.search(db, text, limit)
    finally:
        db.close()


def season_titles(path: str, season: str | None) -> tuple[SeasonTitles, Trophies]:
    """The season's titles as they stand, its cup field and the club's trophies (000 5.2,
    6, 7.2, 8; names in full: the titles and the cup are the members'). Raises
    :class:`ClubError` when there is no club database or it cannot be read."""
    from controller.club.trophies import season_titles as titles_of
    from controller.club.trophies import trophies

    db = open_club(path, create=False, readonly=True)
    try:
        return titles_of(db, season), trophies(db)
    finally:
        db.close()


def bans_on(path: str, day: datetime.date) -> list[Ban]:
    """The bans that hold on ``day`` (000 2.7), by player; none without a club database."""
    from controller.club.bans import bans

    try:
        db = open_club(path, create=False, readonly=True)
    except ClubError:
        return []
    try:
        return [b for b in bans(db) if b.holds_on(day)]
    finally:
        db.close()


def lift_ban(path: str, name: str, reason: str, day: datetime.date) -> Ban:
    """The director lifts ``name``'s ban (recorded); :class:`ClubError` when there is no
    club database, no such player or no ban, or no reason."""
    from controller.club.bans import lift

    db = open_club(path, create=False)
    try:
        return lift(db, name, reason, day)
    finally:
        db.close()
