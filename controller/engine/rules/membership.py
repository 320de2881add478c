"""Members and guests at the desk (000 1.1, 1.5, 1.7, 2.1, 2.5; 003 1, 8).

The club's records (fee paid for the season, the date a player confirmed being 18) live
in the club database, which the engine never reads: the desk's door
(:mod:`controller.club.intake`) puts them into the registration command (``member``,
``adult``), so the decision below is made again from the log alone.

000 2.5 "Die Teilnahme zur vereinsinternen Meisterschaft und dem Cup ist ausschließlich
Vereinsmitgliedern gestattet", 003 8 "eine interne Clubmeisterschaft für Mitglieder":
with ``desk.members_only`` a guest is refused with the reason. At a public night a guest
plays on a day membership (000 1.7): the ``registered`` event with ``member`` false is
its record (the club database counts it on import). 000 1.1 / 003 1: not 18 is refused;
a confirmation the desk asked for is recorded (``age_confirmed``), no ID is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def members(names: Sequence[str], member: bool, guests: Sequence[str] | None) -> list[bool]:
    """Each name's member flag: ``member``, unless the desk named it among ``guests``."""
    out = {g.strip().casefold() for g in guests or ()}
    return [member and n.casefold() not in out for n in names]


def check(t: Tournament, names: Sequence[str], member: Sequence[bool],
          adult: bool | None) -> None:
    """Refuse the registration of ``names`` (all or none) when the desk's rules say no."""
    if adult is False:
        raise Rejected("{player} is not 18: tournaments are for players of 18 and older "
                       "(000 1.1, 003 1)", player=", ".join(names))
    guests = [n for n, m in zip(names, member, strict=True) if not m]
    if guests and t.settings.desk.members_only:
        raise Rejected("{player} is a guest: {tournament} is for members only (000 2.5, "
                       "003 8)", player=", ".join(guests), tournament=t.settings.name)


def record(t: Tournament, now: float, adult: bool | None, since: int) -> None:
    """After the registration's own events (those from ``since`` on in the log): the
    confirmed age of each player it took in (seated or waiting)."""
    if not adult:
        return
    for e in t.log[since:]:
        if e["type"] in ("registered", "waitlisted"):
            t.emit(ev.AgeConfirmed, now, player=e["player"], name=e["name"])


def on_age_confirmed(t: Tournament, e: ev.AgeConfirmed) -> None:
    """Nothing to keep in the tournament: the record is the club's (on import)."""


FOLDS = {ev.AgeConfirmed: on_age_confirmed}
