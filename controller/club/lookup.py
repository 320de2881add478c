"""What the director's console reads of the club database: the printable standings and
the club list the registration picks names from. Read only; the console never changes
the club database (the service's door is :mod:`.intake`).

The file is the controller machine's club database: ``$FLOORMAN_CLUB``, else the data
folder's ``club.sqlite`` (:func:`controller.club.cli.default_path`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.club.cli import default_path
from controller.club.db import ClubError, open_club
from controller.club.words import refusal

if TYPE_CHECKING:  # imported when asked: the console starts without the standings' rules
    from controller.club.players import ClubPlayer
    from controller.club.standings import Table
    from controller.club.trophies import SeasonTitles, Trophies

__all__ = ["ClubError", "default_path", "find_players", "refusal", "season_titles",
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
