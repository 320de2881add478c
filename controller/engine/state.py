"""The pieces of a tournament's state that several rules share.

Plain data, changed only by the folds of :mod:`controller.engine.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Player:
    id: int
    name: str
    member: bool = True
    ghost: bool = False
    table: int | None = None
    seat: int | None = None
    out: bool = False
    entries: int = 1
    rebuys: int = 0
    addon: bool = False
    chips: int = 0
    knocked_by: int | None = None
    removed: bool = False
    #: money bounties (rules/bounties.py), cents: on the player's head, won in cash
    bounty: int = 0
    bounty_won: int = 0
    #: net playing time (s) when the player left and was played as a ghost (000 9.5)
    absent_since: float | None = None
    absent_stack: int | None = None
    #: the stack last known while absent: the one given when the player left, or a count
    #: since (rules/chip_counts.py ``left_in_play``)
    away_stack: int | None = None
    #: blinds and antes a ghost seat or an absent player posted since its stack was last
    #: known (the start stack, a count, leaving): what leaves with it is that much less
    posted: int = 0
    #: the last counted stack (chip counts), ``None``: never counted; valid while
    #: ``counted_at`` equals the player's buy-ins (entries + rebuys + add-on) then
    stack: int | None = None
    counted_at: int = 0
    #: the seq of the event that counted ``stack`` (a count since the hand in play began is
    #: that hand's starting stack)
    counted_seq: int = 0
    #: the player's own start stack (Landesliga final, 000 4.18); ``None``: the tournament's
    start_stack: int | None = None
    #: penalties (rules/penalties.py): warnings given, a sit-out's hands left or its end
    #: (controller time, s), blinds owed after dodging them on a move (000 4.11)
    warnings: int = 0
    sit_out_hands: int | None = None
    sit_out_until: float | None = None
    owes_blinds: bool = False
    #: disqualified (000 3.8): out, but out of the ranking too
    disqualified: bool = False
    #: the director's reason for it, as the results list it ("" none given)
    disqualified_for: str = ""


@dataclass
class Move:
    """An instruction for the screens: ``player`` goes from table/seat to table/seat, and why."""

    seq: int
    player: int
    name: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    waiting: bool = False
    done: bool = False
    #: the destination deals no new hand until this player is seated (TDA 11D)
    hold: bool = False
    #: the playing level the move was made in (a player moves at most once a level)
    level: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.name,
            "player_id": self.player,
            "from": {"table": self.from_table, "seat": self.from_seat},
            "to": {"table": self.to_table, "seat": self.to_seat},
            "reason": self.reason,
            "waiting_for_button": self.waiting,
            "done": self.done,
        }


@dataclass
class HandForHandState:
    on: bool = False
    hand: int = 0
    done: set[int] = field(default_factory=set)
    hands_played: int = 0
    paused_clock: bool = False
    hand_started_at: float = 0.0
    #: players left when the director last switched it on or off: the automatic
    #: bubble rule leaves the director's decision alone until that number changes
    director_at: int | None = None


@dataclass
class Announcement:
    """A banner for every screen (rules/announcements.py): ``text`` from ``since`` until
    ``until`` (controller time, s; ``None``: until the next one or a clear)."""

    text: str
    since: float
    until: float | None = None


@dataclass
class RoundsState:
    """Play the clock (000 4.15), restart (000 4.14), multi-round (000 4.19): ``number`` of
    the round in play (1-based), net playing seconds when it ``began``, the controller times
    the rounds ``ended``, each round's ``counts`` (player → chips at its end; 0 for a
    player out) and multi-round ``points`` (player → points of the round). The multi-round
    final: ``final`` table → its best place, ``final_from`` the bust counter when it began,
    ``decided`` table → its last player."""

    number: int = 1
    began: float = 0.0
    ended: list[float] = field(default_factory=list)
    counts: list[dict[int, int]] = field(default_factory=list)
    points: list[dict[int, int]] = field(default_factory=list)
    final: dict[int, int] = field(default_factory=dict)
    final_from: int = 0
    decided: dict[int, int] = field(default_factory=dict)


# ------------------------------------------------- the registration desk (issue 31)
@dataclass
class Waiting:
    """One player on the waiting list (rules/desk.py): the id kept when called."""

    id: int
    name: str
    member: bool
    stack: int | None = None
    #: pre-registered, not arrived yet (000 2.2)
    expected: bool = False
    #: a busted player waiting to re-enter (002: a sold-out night)
    reentry: bool = False


@dataclass
class DeskState:
    """The registration desk (rules/desk.py): the seat limit the director set (``seats``,
    when ``limited``; else the settings'), the waiting list in its order, the pre-registered
    players not arrived yet, and the no-shows of the draw (000 2.7)."""

    seats: int | None = None
    limited: bool = False
    waiting: list[Waiting] = field(default_factory=list)
    expected: set[int] = field(default_factory=set)
    no_shows: list[str] = field(default_factory=list)
    #: 001 §1 III: player → the earlier tournament on the floor they are seated in
    elsewhere: dict[int, str] = field(default_factory=dict)
