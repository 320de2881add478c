"""The tournament's rules, one module each, in the floor's words.

Every rule module declares what it owns:

``COMMANDS``
    command class (:mod:`~controller.engine.commands`) → handler
    ``(tournament, command, now)``: checks the command against the state and
    emits events with ``tournament.emit``, or raises ``Rejected``.
``FOLDS``
    event class (:mod:`~controller.engine.events`) → fold
    ``(tournament, event)``: changes the state; never decides anything.
``REACTIONS``
    functions ``(tournament, now)`` run after every command, in the order of
    :data:`RULES` and of each tuple, until none emits anything more: the
    automatic rules (a level that began, the bubble, a table to break, a
    time call whose time is up). They decide from the state and ``now`` only,
    so a replay or a simulation sees exactly what the controller saw.

A new club rule is one more module here, added to :data:`RULES` (see
``docs/engine.md``, "Adding a rule").
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from controller.engine.rules import (
    announcements,
    blinds_sit_out,
    busts,
    chip_counts,
    chip_race,
    clock,
    dealing,
    desk,
    entries,
    field_size,
    final_deal,
    ghosts,
    hand_for_hand,
    hands,
    landesliga,
    membership,
    multitabling,
    names,
    penalties,
    play_day,
    prize_pool,
    qualifier,
    reseat,
    reserve,
    rounds,
    seating,
    time_calls,
    undo,
)

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

Handler = Callable[["Tournament", Any, float], None]
Fold = Callable[["Tournament", Any], None]
Reaction = Callable[["Tournament", float], None]

#: every rule, in the order their reactions run
RULES: tuple[ModuleType, ...] = (
    # a qualifier's last two and a play day's table games end before the field would
    clock, ghosts, qualifier, prize_pool, play_day, busts, seating, hand_for_hand, entries, hands,
    time_calls, undo, names, announcements, chip_counts, rounds, landesliga, penalties,
    field_size, dealing, chip_race, reseat, reserve, blinds_sit_out,
    desk,  # the registration desk (issue 31): a seat that came free calls the next in line
    final_deal,  # the deal at the final table (issue 30)
    membership, multitabling,  # members and guests (000 1, 2.5); one table a player (001 §1 III)
)


def _collect() -> tuple[dict[type, Handler], dict[str, Fold], tuple[Reaction, ...]]:
    commands: dict[type, Handler] = {}
    folds: dict[str, Fold] = {}
    reactions: list[Reaction] = []
    for rule in RULES:
        for cls, handler in getattr(rule, "COMMANDS", {}).items():
            if cls in commands:
                raise RuntimeError(f"two rules handle the command {cls.__name__}")
            commands[cls] = handler
        for cls, fold in getattr(rule, "FOLDS", {}).items():
            name = cls.model_fields["type"].default
            if name in folds:
                raise RuntimeError(f"two rules fold the event {name}")
            folds[name] = fold
        reactions += getattr(rule, "REACTIONS", ())
    return commands, folds, tuple(reactions)


COMMANDS, FOLDS, REACTIONS = _collect()
