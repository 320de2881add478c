"""The controller's end-of-tournament import: a finished tournament is taken into the
club database by itself when one is configured (``$FLOORMAN_CLUB``, docs/club.md).
The service's door into the club room (the console's is :mod:`.lookup`).

Never raises: a failure is logged, the controller goes on, and ``floorman club import``
can do it later (an import is idempotent).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from controller.club.imports import is_over

__all__ = ["WALL_ROWS", "banned", "club_path", "desk_facts", "is_over", "standings_view",
           "take_in"]

#: the lines of the standings the wall is sent (the season's best)
WALL_ROWS = 30
#: the championship's leaders the wall is sent (000 5.2: its own list)
WALL_CHAMPIONSHIP = 3

log = logging.getLogger("floorman.club")


def club_path() -> str | None:
    """The club database the controller imports into: ``$FLOORMAN_CLUB``, or ``None``."""
    return os.environ.get("FLOORMAN_CLUB") or None


def take_in(club: str, events: Sequence[dict[str, Any]], source: str) -> bool:
    """Import the finished tournament ``events`` (the controller's verified, stored log,
    named ``source``) into ``club``; ``True`` when it is there (now or before)."""
    from controller.club.db import ClubError, open_club
    from controller.club.imports import import_events

    try:
        db = open_club(club)
        try:
            done = import_events(db, list(events), path=source)
        finally:
            db.close()
    except ClubError as exc:
        log.warning("not taken into the club database %s: %s", club, exc)
        return False
    except Exception:  # the controller must go on whatever happens here
        log.exception("not taken into the club database %s", club)
        return False
    log.info("club database %s: %s", club, done.line())
    return True


def standings_view(club: str) -> dict[str, Any] | None:
    """The latest season's standings as the wall shows them (``state/standings``): public
    names (000 5.8), the best :data:`WALL_ROWS`. ``None``: no club database, or nothing
    in it yet."""
    from controller.club.db import ClubError, open_club
    from controller.club.standings import standings
    from controller.club.titles import championship

    if not os.path.exists(club):
        return None
    try:
        db = open_club(club, create=False, readonly=True)
        try:
            table = standings(db, public=True)
        finally:
            db.close()
        # 000 5.2: the championship's own list, its leaders beside the standings (members
        # only, 6.2: names in full); a club without knock-out points has none
        leaders = [x for x in championship(table.lines) if x.points > 0][:WALL_CHAMPIONSHIP]
    except ClubError:
        return None
    except Exception:  # the wall can do without; the controller must go on
        log.exception("the club's standings from %s", club)
        return None
    return {"v": 1, "club": table.club, "season": table.season, "first": table.first,
            "last": table.last, "tournaments": table.tournaments,
            "rows": [{"place": s.place, "name": s.name, "points": float(s.points),
                      "tournaments": s.tournaments} for s in table.lines[:WALL_ROWS]],
            **({"championship": [{"place": x.place, "name": x.name, "points": x.points}
                                 for x in leaders]} if leaders else {})}


# ------------------------------------------------- the registration desk (issue 31)
def banned(club: str, names: Sequence[str], day: Any) -> list[tuple[str, str]]:
    """The ``names`` a no-show ban holds on ``day`` (000 2.7, :mod:`controller.club.bans`),
    each with the ban's end (ISO date). No club database, or one that cannot be read: none
    (the desk goes on; the failure is logged)."""
    from controller.club.bans import banned as ban_of
    from controller.club.db import ClubError, open_club

    if not os.path.exists(club):
        return []
    try:
        db = open_club(club, create=False, readonly=True)
        try:
            found = [(n, ban_of(db, n, day)) for n in names]
        finally:
            db.close()
    except ClubError as exc:
        log.warning("the bans of the club database %s: %s", club, exc)
        return []
    except Exception:  # the desk can do without; the controller must go on
        log.exception("the bans of the club database %s", club)
        return []
    return [(n, b.until.isoformat()) for n, b in found if b is not None]


def desk_facts(club: str, names: Sequence[str], day: Any,
               seasons: Sequence[str]) -> dict[str, tuple[bool, str | None]]:
    """Each of ``names`` the club knows: (a member on ``day``: the season's fee paid, the
    date 18 was confirmed or ``None``) (000 1.1, 1.3, 2.1; :mod:`controller.club.members`).
    No club database, or one that cannot be read: nothing known (logged)."""
    from controller.club.db import ClubError, open_club
    from controller.club.members import facts

    if not os.path.exists(club):
        return {}
    try:
        db = open_club(club, create=False, readonly=True)
        try:
            found = facts(db, names, day, seasons)
        finally:
            db.close()
    except ClubError as exc:
        log.warning("the members of the club database %s: %s", club, exc)
        return {}
    except Exception:  # the desk can do without; the controller must go on
        log.exception("the members of the club database %s", club)
        return {}
    return {n: (f.member, f.adult_since) for n, f in found.items()}
