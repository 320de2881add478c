"""Qualifier sit & go (001 §2 III): a field of 6-10, and no heads-up with 9-10 players.

"Ein Qualifier Sit & Go Tisch startet mit mindestens 6 und maximal 10 Spielern":
the draw (and a late entry that would make the field bigger) is refused outside
that field with the reason, instead of prizes vanishing at the end. With 9 or 10
players the first two qualify and "das Heads-Up wird nicht ausgespielt": when
two are left the tournament ends and both share first place (places 1-2, a
ticket each; :func:`controller.engine.points.qualifier_prizes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.points import (
    QUALIFIER_MAX_PLAYERS,
    QUALIFIER_MIN_PLAYERS,
    qualifier_ends_with,
)

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def _qualifier(t: Tournament) -> bool:
    return t.settings.points.system == "qualifier"


def check_field(t: Tournament, players: int) -> None:
    """Refuse a qualifier field of ``players`` outside 6-10 (001 §2 III); others pass."""
    if _qualifier(t) and not QUALIFIER_MIN_PLAYERS <= players <= QUALIFIER_MAX_PLAYERS:
        raise Rejected("a qualifier sit & go starts with {least}-{most} players (001 §2 III), not "
                       "{players}",
                       least=QUALIFIER_MIN_PLAYERS, most=QUALIFIER_MAX_PLAYERS, players=players)


def two_qualified(t: Tournament, now: float) -> None:
    """9-10 players: the last two both qualify, the heads-up is not played (001 §2 III)."""
    if not _qualifier(t) or not t.drawn or t.finished or t.remaining != 2:
        return
    if not QUALIFIER_MIN_PLAYERS <= t.real_players() <= QUALIFIER_MAX_PLAYERS:
        return  # a forced field outside 6-10: played out as usual
    if qualifier_ends_with(t.real_players()) != 2:
        return
    left = sorted(p.id for p in t.players.values() if not p.out and not p.ghost)
    t.emit(ev.Finished, now, winner=left[0], shared=left)


REACTIONS = (two_qualified,)
