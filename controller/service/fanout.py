"""Which retained table views a command can have changed (issue 15, festival scale).

A press at one table of a festival with 1,000 tables must not recompute and
compare 1,000 table views. The events a command produced name what they touched:
tables (``table``, ``from_table``, ``to_table``, ``tables``…) and players
(``player``, ``players``, ``by``, ``winner``…). A player's table view is the
table the player sits at now, and every table whose published view shows the
player (a move is shown at both ends): :class:`Shown` keeps that index of the
published views, read from whatever :func:`controller.service.views.table_view`
returns (every ``player_id`` in it), so a field added to the views needs no
entry here.

What no event names — hand-for-hand, the final table coming, a level — shows
on every table: the service compares one table nobody touched with its
published view, and recomputes every table when that one changed
(:meth:`controller.service.core.ControllerService.publish_state`). A few events
rebuild the room (the draw, the final table): after them every table is
recomputed at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.engine import events as ev

#: events after which every table view is recomputed and compared: they reseat the room
#: (named by their classes: two misspelt type names once left the final table's draw to
#: the untouched-table look)
EVERY_TABLE = frozenset(cls.model_fields["type"].default for cls in (
    ev.Opened, ev.SeatsDrawn, ev.FinalTableFormed, ev.TableOpened, ev.StructureChanged,
    ev.TableGameStarted))
#: fields of an event record that name a player (or several)
PLAYER_KEYS = frozenset({"player", "players", "by", "winner", "shared", "replaces_ghost"})
#: fields every event has, which name nothing
_ENVELOPE = frozenset({"seq", "group", "at", "v", "hash", "type"})


def _ints(value: Any, into: set[int]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        into.add(value)
    elif isinstance(value, list | tuple):
        for v in value:
            _ints(v, into)


def referenced(events: Iterable[Mapping[str, Any]]) -> tuple[set[int], set[int]] | None:
    """(tables, players) the events name; ``None``: an event that reseats the room
    (:data:`EVERY_TABLE`)."""
    tables: set[int] = set()
    players: set[int] = set()
    for e in events:
        if e.get("type") in EVERY_TABLE:
            return None
        for key, value in e.items():
            if key in _ENVELOPE:
                continue
            if "table" in key:
                _ints(value, tables)
            elif key in PLAYER_KEYS:
                _ints(value, players)
    return tables, players


def player_ids(view: Any, into: set[int] | None = None) -> set[int]:
    """Every ``player_id`` anywhere in a view (seats, moves in and out, busts…)."""
    out = set() if into is None else into
    if isinstance(view, dict):
        for key, value in view.items():
            if key == "player_id" and isinstance(value, int):
                out.add(value)
            elif isinstance(value, dict | list):
                player_ids(value, out)
    elif isinstance(view, list):
        for item in view:
            if isinstance(item, dict | list):
                player_ids(item, out)
    return out


class Shown:
    """Which published table view shows which player (both ends of a move show it)."""

    def __init__(self) -> None:
        self._tables: dict[int, set[int]] = {}  # player id -> tables
        self._players: dict[int, set[int]] = {}  # table -> player ids

    def clear(self) -> None:
        self._tables.clear()
        self._players.clear()

    def tables_of(self, player: int) -> set[int]:
        return self._tables.get(player, set())

    def players_at(self, table: int) -> set[int]:
        return self._players.get(table, set())

    def update(self, table: int, view: dict[str, Any]) -> None:
        """``table``'s view as published now."""
        new = player_ids(view)
        old = self._players.get(table, set())
        for pid in old - new:
            at = self._tables.get(pid)
            if at is not None:
                at.discard(table)
                if not at:
                    del self._tables[pid]
        for pid in new - old:
            self._tables.setdefault(pid, set()).add(table)
        self._players[table] = new
