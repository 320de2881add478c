"""One table: who sits where, the button and the blinds.

Positions always describe the hand in play (the "last hand" of the floor
scenarios, once it is finished). :meth:`Table.next_positions` gives the next
hand's button, small blind and big blind under the dead-button rule
(000 9.4, 003 18/19, TDA 32) and the heads-up rule (000 9.4, 003 38,
TDA 34B): the big blind moves one dealt-in player clockwise every hand, the
small blind goes to the seat that was big blind (dead when that seat is now
empty), and the button to the seat that was small blind (it may stay on an
empty seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.engine.events import ChipRaced


@dataclass
class TimeCallState:
    """A running "time" call: ``started_at`` (controller time), seconds, countdown."""

    started_at: float
    seconds: int
    countdown: int
    seat: int | None = None
    #: the action clock (001 §1 VI, 002 shot clock) rather than a clock call
    action: bool = False


@dataclass
class Table:
    """A table in play.

    ``size``: seats numbered 1..size clockwise. ``occupant``: seat → player id.
    ``waiting``: seats whose new player waits for the button to pass (000 4.10).
    ``sits_out``: those of them whose player posted a blind at the old table and sits
    out until the button has passed the seat (003 12), wherever the seat lies.
    ``button``, ``sb``, ``bb``: seat positions of the hand in play; ``sb`` may be
    an empty seat (dead small blind), ``button`` may be an empty seat (dead
    button). ``None`` before the first hand.
    """

    number: int
    size: int
    occupant: dict[int, int] = field(default_factory=dict)
    waiting: set[int] = field(default_factory=set)
    sits_out: set[int] = field(default_factory=set)
    #: empty seats the director keeps free for late arrivals (002, rules/reserve.py): only
    #: an entry sits there; balancing counts them as taken
    reserved: set[int] = field(default_factory=set)
    button: int | None = None
    sb: int | None = None
    bb: int | None = None
    hands: int = 0
    #: seq of the event that started the hand in play: busts in one hand share it
    hand_id: int = 0
    #: seq of the hand-for-hand event (on / released) whose hand is in play here; busts at
    #: every table in one hand-for-hand hand share it (002 b). ``None`` outside hand-for-hand.
    hfh_hand: int | None = None
    hands_left: int | None = None
    time_call: TimeCallState | None = None
    final: bool = False
    #: players who had their time call in the hand in play (001 §1 VI: once per hand)
    time_called: list[int] = field(default_factory=list)
    #: between hands, the table deals no new hand until the players moving to it with
    #: ``Move.hold`` are seated (TDA 11D: three or more short; a table just opened)
    holds: bool = False
    #: the table's last chip race (000 3.17); the screens show it while its break lasts
    chip_race: ChipRaced | None = None
    #: a final table just drawn whose players still play out the hand of the redraw at
    #: their old tables: its first "hand done" ends that hand and leaves the drawn button
    #: where it is; ``seated`` there says the final table's own hands have begun
    redrawn: bool = False

    # -- seats -------------------------------------------------------------
    def clockwise(self, after: int) -> list[int]:
        """Every seat number clockwise after seat ``after``, ending with ``after``."""
        n = self.size
        return [((after - 1 + i) % n) + 1 for i in range(1, n + 1)]

    def free_seats(self) -> list[int]:
        """The empty seats a move may take (reserved ones are kept for arrivals)."""
        return [s for s in range(1, self.size + 1)
                if s not in self.occupant and s not in self.reserved]

    def dealt(self, seat: int) -> bool:
        """True when the seat's player receives cards (seated, not waiting)."""
        return seat in self.occupant and seat not in self.waiting

    def count(self) -> int:
        return len(self.occupant)

    def dealt_count(self) -> int:
        return len(self.occupant) - len(self.waiting)

    def _next_dealt(self, after: int) -> int | None:
        for s in self.clockwise(after):
            if self.dealt(s):
                return s
        return None

    # -- positions ---------------------------------------------------------
    def first_hand(self, button: int) -> None:
        """Place the first button on seat ``button`` and the blinds after it.

        000 3.12: the first button is drawn at table 1 and goes to the same seat
        position on every table, so at a table where that seat is empty the
        button stays on it (a dead button) and the next two players post the
        blinds. Heads-up the button posts the small blind (000 9.4), so it goes
        to a player.
        """
        self.waiting.clear()
        self.sits_out.clear()
        if self.dealt_count() < 2:
            b = button if button in self.occupant else self._next_dealt(button)
            self.button, self.sb, self.bb = b, None, None
            if b is None:
                self.button = None
            return
        if self.dealt_count() == 2:
            # heads-up: the button posts the small blind (000 9.4)
            b = button if self.dealt(button) else self._next_dealt(button)
            self.button, self.sb, self.bb = b, b, self._next_dealt(b)  # type: ignore[arg-type]
            return
        sb = self._next_dealt(button)
        self.button, self.sb, self.bb = button, sb, self._next_dealt(sb)  # type: ignore[arg-type]

    def next_positions(self) -> tuple[int | None, int | None, int | None]:
        """Button, small blind and big blind of the next hand (see module docstring)."""
        if self.bb is None or self.button is None:
            return self.button, self.sb, self.bb
        dealt = self.dealt_count()
        if dealt < 2:
            return self.button, self.sb, self.bb
        bb = self._next_dealt(self.bb)
        if dealt == 2:
            # heads-up (000 9.4, TDA 34B): the other player has the button and posts the SB;
            # the big blind moves on, so nobody posts it twice in a row
            other = next(s for s in self.occupant if self.dealt(s) and s != bb)
            return other, other, bb
        sb = self.bb
        button = self.sb if self.sb is not None else self.button
        return button, sb, bb

    def small_blind_posted(self) -> bool:
        """False when the small blind is dead (its seat is empty or not dealt in)."""
        return self.sb is not None and self.dealt(self.sb)

    def between_button_and_sb(self, seat: int, button: int | None, sb: int | None) -> bool:
        """True when ``seat`` lies strictly between ``button`` and ``sb`` clockwise."""
        if button is None or sb is None or button == sb:
            return False
        for s in self.clockwise(button):
            if s == sb:
                return False
            if s == seat:
                return True
        return False

    def passed(self, before: int | None, after: int | None) -> list[int]:
        """The seats the button went past moving clockwise from ``before`` to ``after``
        (``after`` included)."""
        if before is None or after is None or before == after:
            return []
        seats = self.clockwise(before)
        return seats[:seats.index(after) + 1] if after in seats else []

    def posted_blind(self, seat: int) -> bool:
        """The player in ``seat`` posted a blind in the hand in play (the last hand once
        it is over): the small blind or the big blind (003 12)."""
        return self.dealt(seat) and seat in (self.sb, self.bb)

    def arrival_waits(self, seat: int) -> bool:
        """A player arriving in ``seat`` now waits for the button (000 4.10, TDA 10A)."""
        button, sb, _ = self.next_positions()
        return self.between_button_and_sb(seat, button, sb)

    def advance(self) -> None:
        """The hand in play is done: move to the next hand's positions.

        Waiting players whose seat the button has now passed are dealt in.
        """
        self.hands += 1
        if self.hands_left is not None and self.hands_left > 0:
            self.hands_left -= 1
        before = self.button
        self.button, self.sb, self.bb = self.next_positions()
        if self.sits_out:
            # 003 12: dealt in once the button has gone past the seat (it skips a seat
            # not dealt in), or at once when the table would have fewer than two to deal
            self.sits_out -= set(self.passed(before, self.button))
            if self.dealt_count() < 2:
                self.sits_out.clear()
        if self.waiting:
            self.waiting = {
                s for s in self.waiting
                if s in self.sits_out or self.between_button_and_sb(s, self.button, self.sb)
            }
            if self.bb is not None and not self.dealt(self.bb):
                self.bb = self._next_dealt(self.bb)
        if self.dealt_count() >= 2 and (self.bb is None or not self.dealt(self.bb)):
            self.first_hand(self.button or 1)

    def next_big_blind(self) -> int | None:
        """The seat that posts the big blind in the next hand (the mover, 000 4.9)."""
        return self.next_positions()[2]

    def worst_seat(self) -> int | None:
        """The free seat that posts the big blind soonest, never the small blind (000 4.9,
        001 §2 I, TDA 11A).

        Count clockwise from the seat right after the big blind of the hand in play (the
        "last hand" once it is over): the big blind moves on to the next dealt-in seat,
        so a player who sits in the first free seat after it posts the very next big
        blind (TDA 11A: "including a single big blind"). The seat of that big blind
        itself comes last: it is where the next small blind falls (empty when that
        player busted: a dead small blind), taken only when nothing else is free.
        Seats between the next button and small blind come just before it: a player
        there waits for the button (000 4.10) and posts the big blind last of all.
        """
        free = self.free_seats()
        if not free:
            return None
        if self.bb is None:
            return free[0]
        _, sb, _ = self.next_positions()
        order = [s for s in self.clockwise(self.bb) if s in free]
        preferred = [s for s in order if s != sb]
        return (preferred or order)[0]
