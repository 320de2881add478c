"""The field a tournament is made for (001 §2 I-II, 002).

"Freeze Out Turniere starten mit mindestens 12 und maximal 40 Spielern" (001 §2 I),
"Ein Sit & Go Tisch startet mit mindestens 8 und maximal 11 Spielern" (001 §2 II):
the rulebook names the field but says nothing of refusing another one, so the draw
stands and carries a ``field_warning`` the director sees in the reply
(``field_size.min_players`` / ``max_players``). "Das Spiel an einem Tisch wird erst ab
drei Spielgästen begonnen" (002): a draw that would start a table with fewer than
``field_size.min_per_table`` players is refused (a table opened later for an entry
starts with three anyway, :func:`controller.engine.rules.seating._open_table`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import events as ev
from controller.engine import seating as algo
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def check_draw(t: Tournament, players: int) -> None:
    """Refuse a draw that starts a table with fewer than ``min_per_table`` players (002)."""
    least = t.settings.field_size.min_per_table
    sizes = algo.table_sizes(players, t.settings.players_per_table)
    if sizes and min(sizes) < least:
        raise Rejected("a table starts with at least {least} players (002); {players} players "
                       "would make a table of {smallest}",
                       least=least, players=players, smallest=min(sizes))


def warn(t: Tournament, now: float, players: int) -> None:
    """After the draw: a ``field_warning`` when ``players`` is outside the field (001 §2)."""
    f = t.settings.field_size
    if (f.min_players is not None and players < f.min_players) or \
            (f.max_players is not None and players > f.max_players):
        t.emit(ev.FieldWarning, now, players=players, min_players=f.min_players,
               max_players=f.max_players)


def on_field_warning(t: Tournament, e: ev.FieldWarning) -> None:
    """A warning changes nothing (the draw stands)."""


FOLDS = {ev.FieldWarning: on_field_warning}
