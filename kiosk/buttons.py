"""The dealer's button box: six buttons on GPIO pins, and the same logic for a keyboard.

Three layers, so the logic can be tested without hardware or time passing:

- :class:`ButtonBox` owns the gpiozero input devices and does nothing but
  report raw edges ``(input, pressed, time)`` to a callback, from gpiozero's
  thread. The callback hands them to the main loop (a queue); nothing here draws.
- :class:`Inputs` turns timestamped raw edges into actions, in the main
  thread: our own debounce (an edge within ``debounce`` of the last accepted
  edge of that input is ignored; when the window closes the last raw level
  wins, so a tap shorter than the window is not lost and a button never sticks),
  and hold-to-confirm (``bust``/``undo`` fire once, when held for ``hold``
  seconds; a tap fires nothing). Every decision uses the edges' own timestamps,
  so a main loop that was late still measures holds correctly.
- :class:`TableControls` is the table's dealer: seat selection over the
  occupied seats and the presses sent to the controller. A bust that needs an
  answer first is held back as a question (:attr:`TableControls.question`):
  "same hand?" when the table's hand already had a bust (the table state's
  ``asks_same_hand``; hold Bust: yes, tap Hand done: no, a new hand), or "out
  all the same?" when the seat's player is still on the way to it (``incoming``;
  hold Bust again). Any other button, a seat change or :data:`QUESTION_SECONDS`
  without an answer drop the bust: nothing is sent.

gpiozero's ``bounce_time`` is not used: its MockFactory does not simulate it,
and it drops the release of a tap shorter than the bounce time. Each pin is a
``DigitalInputDevice`` (what gpiozero's ``Button`` is made of) rather than a
``Button``: a ``Button`` starts a hold thread that wakes ten times a second even
when nobody touches it (six buttons: 60 wake-ups a second on an idle Pi), and
our hold timing is our own anyway.
"""

from __future__ import annotations

import logging
import math
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kiosk.config import ACTIONS, HOLD_ACTIONS, ButtonConfig

log = logging.getLogger(__name__)

__all__ = ["ACTIONS", "HOLD_ACTIONS", "ButtonBox", "Inputs", "Outcome", "TableControls",
           "occupied_seats", "step_seat"]

Edge = Callable[[str, bool, float], None]

#: how long a question about a bust waits for the dealer's answer (s)
QUESTION_SECONDS = 20.0


# --------------------------------------------------------------------------- debounce + hold


@dataclass
class _Input:
    action: str
    debounce: float
    hold: float | None  #: None: fires when pressed
    level: bool = False  #: the debounced state
    raw: bool = False  #: the last raw edge
    accepted_at: float = -math.inf  #: time of the last accepted edge
    down_at: float | None = None  #: when the accepted press began
    fired: bool = False  #: this press already fired


class Inputs:
    """Debounce and hold logic for any number of named inputs (pure; time passed in).

    ``add("bust", "bust", debounce=0.05, hold=1.5)`` for the box's button,
    ``add("key:bust", "bust", debounce=0, hold=1.5)`` for the keyboard's B.
    :meth:`edge` and :meth:`advance` return the actions that fired, in order.
    """

    def __init__(self) -> None:
        self.inputs: dict[str, _Input] = {}
        #: hold actions released before they fired (a short tap), in order; whoever
        #: shows feedback takes them out (TableControls: "hold to bust")
        self.short: list[str] = []

    def add(self, name: str, action: str, *, debounce: float = 0.0,
            hold: float | None = None) -> None:
        self.inputs[name] = _Input(action, debounce, hold)

    def edge(self, name: str, pressed: bool, at: float) -> list[str]:
        """A raw edge of input ``name`` at time ``at``."""
        fired = self.advance(at)
        inp = self.inputs.get(name)
        if inp is None:
            return fired
        inp.raw = pressed
        if at - inp.accepted_at < inp.debounce:
            return fired  # bounce: the window's end settles on the last raw level
        if pressed != inp.level:
            fired += self._accept(inp, pressed, at)
        return fired

    def advance(self, now: float) -> list[str]:
        """Let time pass to ``now``: close debounce windows, complete holds."""
        fired: list[str] = []
        for inp in self.inputs.values():
            settle = inp.accepted_at + inp.debounce
            if inp.raw != inp.level and now >= settle:
                fired += self._accept(inp, inp.raw, settle)
            if (inp.level and not inp.fired and inp.hold is not None and inp.down_at is not None
                    and now >= inp.down_at + inp.hold):
                inp.fired = True
                fired.append(inp.action)
        return fired

    def _accept(self, inp: _Input, pressed: bool, at: float) -> list[str]:
        inp.level = pressed
        inp.accepted_at = at
        if not pressed:
            if inp.hold is not None and inp.down_at is not None and not inp.fired:
                self.short.append(inp.action)
            inp.down_at = None
            return []
        inp.down_at = at
        inp.fired = inp.hold is None
        return [inp.action] if inp.hold is None else []

    def release_all(self) -> None:
        """Forget every press (focus lost: a key-up will never come)."""
        for inp in self.inputs.values():
            inp.level = inp.raw = False
            inp.down_at = None

    def progress(self, now: float) -> tuple[str, float] | None:
        """The hold in progress as ``(action, 0..1)``, the furthest one if several."""
        best: tuple[str, float] | None = None
        for inp in self.inputs.values():
            if inp.level and not inp.fired and inp.hold and inp.down_at is not None:
                p = min(1.0, max(0.0, (now - inp.down_at) / inp.hold))
                if best is None or p > best[1]:
                    best = (inp.action, p)
        return best

    def next_due(self) -> float | None:
        """The earliest time :meth:`advance` has something to do (``None``: nothing)."""
        due = [inp.accepted_at + inp.debounce for inp in self.inputs.values()
               if inp.raw != inp.level]
        due += [inp.down_at + inp.hold for inp in self.inputs.values()
                if inp.level and not inp.fired and inp.hold is not None
                and inp.down_at is not None]
        return min(due) if due else None


# --------------------------------------------------------------------------- GPIO


class ButtonBox:
    """A gpiozero input per configured action (pull-up, no gpiozero debounce); raw edges
    go to ``on_edge``.

    ``on_edge(action, pressed, time)`` is called from gpiozero's thread (or, with
    the MockFactory, from whoever drives the pin): it must only hand the edge on.
    ``clock`` stamps the edges (default ``time.monotonic``).
    """

    def __init__(self, config: ButtonConfig, on_edge: Edge, *,
                 clock: Callable[[], float] = time.monotonic, pin_factory: Any = None) -> None:
        # gpiozero ships neither type hints nor stubs (types-gpiozero does not exist)
        from gpiozero import DigitalInputDevice, PinFactoryFallback  # type: ignore[import-untyped]

        self.config = config
        self.on_edge = on_edge
        self.clock = clock
        self.buttons: dict[str, Any] = {}
        try:
            for action, pin in config.pins.items():
                with warnings.catch_warnings():  # the factories tried on the way: noise
                    warnings.simplefilter("ignore", PinFactoryFallback)
                    b = DigitalInputDevice(pin, pull_up=config.pull_up, bounce_time=None,
                                           pin_factory=pin_factory)
                b.when_activated = self._handler(action, True)
                b.when_deactivated = self._handler(action, False)
                self.buttons[action] = b
        except Exception:
            self.close()
            raise

    def _handler(self, action: str, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            self.on_edge(action, pressed, self.clock())
        return handler

    def pressed(self) -> dict[str, bool]:
        """The pins' levels now (for a start with a button already down)."""
        return {a: bool(b.is_active) for a, b in self.buttons.items()}

    def close(self) -> None:
        for b in self.buttons.values():
            b.when_activated = b.when_deactivated = None
            b.close()
        self.buttons.clear()


# --------------------------------------------------------------------------- the table's dealer


def occupied_seats(table_state: dict[str, Any] | None) -> list[int]:
    """Seat numbers with a player in them, ascending (from a retained ``table/N`` payload)."""
    if not table_state:
        return []
    return sorted(s["seat"] for s in table_state.get("seats", ()) if s.get("player_id")
                  is not None or s.get("name"))


def step_seat(seats: Iterable[int], current: int | None, direction: int) -> int | None:
    """The next (``direction=1``) or previous (``-1``) occupied seat after ``current``,
    wrapping around; from no selection (or an empty seat) the nearest in that direction."""
    seats = sorted(seats)
    if not seats:
        return None
    if current is None:
        return seats[0] if direction > 0 else seats[-1]
    if direction > 0:
        return next((s for s in seats if s > current), seats[0])
    return next((s for s in reversed(seats) if s < current), seats[-1])


@dataclass(frozen=True)
class Outcome:
    """What an action did: ``sent`` a press (``cid``), ``selected`` a seat, or an ``info``."""

    action: str
    kind: str  #: "sent", "selected", "info", "question"
    seat: int | None = None
    cid: str | None = None
    #: for "info" and "question": a key of kiosk.app's texts ("no_seat", "ask_same_hand")
    message: str = ""
    #: the values the message's text names ({names}, {table} …)
    values: dict[str, Any] = field(default_factory=dict)


class TableControls:
    """One table's dealer controls: the button box and keyboard inputs, the selected seat,
    and the presses (``send(action, **fields) -> command id``, e.g. ``Link.press``).

    Feed raw edges with :meth:`edge` (input names are the actions for the box and
    ``"key:<action>"`` for the keyboard), let time pass with :meth:`advance`; both
    return :class:`Outcome` s. :meth:`update_table` with each new ``table/N`` state.
    """

    def __init__(self, config: ButtonConfig, send: Callable[..., str], *,
                 keyboard: bool = True, in_break: Callable[[], bool] = lambda: True) -> None:
        self.config = config
        self.send = send
        self.inputs = Inputs()
        debounce = config.debounce_ms / 1000
        for action in ACTIONS:
            if action in config.pins:
                self.inputs.add(action, action, debounce=debounce, hold=config.hold(action))
            if keyboard:
                self.inputs.add(f"key:{action}", action, hold=config.hold(action))
        self.table: dict[str, Any] | None = None
        self.selected: int | None = None
        self._selected_player: Any = None
        #: the question a held-back bust waits on: "same_hand", "incoming" or None
        self.question: str | None = None
        self._bust: dict[str, Any] = {}  #: the held-back bust: seat, player, the answers
        self._asked_at = 0.0
        self._now = 0.0  #: time of the edge or advance being handled
        #: the chip race being entered (000 3.17): leftover chips by seat, and the seats
        #: whose leftover chips are all they have; kept until the colour-up break is over,
        #: so an undone race can be corrected rather than typed again
        self.race: dict[int, int] = {}
        #: whether the clock stands in a break (the app asks the clock it shows): a table
        #: state left over from the break never turns the buttons into the chip race's
        self.in_break = in_break
        self.race_short: set[int] = set()
        self._race_of: tuple[Any, Any] | None = None

    # -- state
    def update_table(self, table_state: dict[str, Any] | None) -> bool:
        """A new ``table/N`` payload; clears the selection when its player left the seat
        (a bust must never hit whoever sits down there next). True if the selection changed."""
        self.table = table_state
        self._race_follow()
        if self.question is not None and self._occupant(self._bust["seat"]) \
                != self._bust["player"]:
            self._drop()  # the player left the seat: the bust must not hit the next one
        if self.selected is None:
            return False
        if self._occupant(self.selected) != self._selected_player \
                or self.selected not in occupied_seats(table_state):
            self.selected = None
            self._selected_player = None
            return True
        return False

    def _occupant(self, seat: int) -> Any:
        for s in (self.table or {}).get("seats", ()):
            if s.get("seat") == seat:
                return s.get("player_id", s.get("name"))
        return None

    def select(self, seat: int | None) -> None:
        self.selected = seat
        self._selected_player = None if seat is None else self._occupant(seat)

    # -- input
    def edge(self, name: str, pressed: bool, at: float) -> list[Outcome]:
        self._now = at
        return self._expire(at) + self._run(self.inputs.edge(name, pressed, at))

    def advance(self, now: float) -> list[Outcome]:
        self._now = now
        return self._expire(now) + self._run(self.inputs.advance(now))

    def progress(self, now: float) -> tuple[str, float] | None:
        return self.inputs.progress(now)

    def next_due(self) -> float | None:
        due = self.inputs.next_due()
        if self.question is not None:
            end = self._asked_at + QUESTION_SECONDS
            due = end if due is None else min(due, end)
        return due

    def _run(self, actions: list[str]) -> list[Outcome]:
        out = [self.do(a) for a in actions]
        # a short tap on a hold button sends nothing: say how it works ("hold_bust")
        out += [Outcome(a, "info", seat=self.selected, message=f"hold_{a}")
                for a in self.inputs.short]
        self.inputs.short.clear()
        return out

    def do(self, action: str) -> Outcome:
        """Carry out a confirmed action (a tap of a tap button, a completed hold)."""
        if self.question is not None:
            return self._answer(action)
        if self.racing() and action in ("time", "bust", "hand_done"):
            return self._race(action)
        if action in ("seat_next", "seat_prev"):
            seats = occupied_seats(self.table)
            if not seats:
                return Outcome(action, "info", message="no_players")
            self.select(step_seat(seats, self.selected, 1 if action == "seat_next" else -1))
            return Outcome(action, "selected", seat=self.selected)
        if action == "bust":
            if self.selected is None:
                return Outcome(action, "info", message="no_seat")
            self._bust = {"seat": self.selected, "player": self._selected_player}
            return self._ask_or_send()
        if action not in ("time", "hand_done", "undo"):
            raise ValueError(f"unknown action {action!r}")
        if action == "hand_done" and (self.table or {}).get("waits_for"):
            # the table waits for players moving in (TDA 11D): the same button says they
            # sat down; the controller checks it (docs/protocol.md, "seated")
            return Outcome("seated", "sent", cid=self.send("seated"))
        if action == "time" and self.selected is not None and not (self.table or {}).get(
                "time_call"):
            # whose call it is (001 §1 VI: once per player and hand where the preset says;
            # with an action clock, that player's one extension): the pick is used up, the
            # next TIME without a pick starts the action clock
            seat = self.selected
            self.select(None)
            return Outcome(action, "sent", cid=self.send(action, seat=seat), seat=seat)
        return Outcome(action, "sent", cid=self.send(action))

    # -- the chip race of a colour-up break (000 3.17)
    def racing(self) -> bool:
        """The table is in a colour-up break and its chip race is not entered yet: the
        buttons enter the leftover chips (◀ ▶ a seat, Time +1 chip, hold Bust: all they
        have, Hand done: send)."""
        race = (self.table or {}).get("chip_race")
        return race is not None and race.get("result") is None and self.in_break()

    def _race_follow(self) -> None:
        """Forget the entry when the break is over (or another colour-up began) and the
        seats whose player left."""
        race = (self.table or {}).get("chip_race") or None
        key = None if race is None else (race.get("leaving"), race.get("new"))
        if key != self._race_of:
            self.race, self.race_short, self._race_of = {}, set(), key
        seats = set(occupied_seats(self.table))
        self.race = {s: n for s, n in self.race.items() if s in seats}
        self.race_short &= set(self.race)

    def _race(self, action: str) -> Outcome:
        race = (self.table or {}).get("chip_race") or {}
        if action == "hand_done":
            chips = [self.race.get(n, 0) for n in range(1, max(self.race, default=0) + 1)]
            if not any(chips):
                return Outcome("chip_race", "info", message="race_empty")
            cid = self.send("chip_race", chips=chips, short=sorted(self.race_short))
            return Outcome("chip_race", "sent", cid=cid)
        seat = self.selected
        if seat is None:
            return Outcome(action, "info", message="no_seat")
        if action == "time":  # one more leftover chip; past the most a seat can have: 0
            most = max(1, int(race.get("most") or 1))
            n = (self.race.get(seat, 0) + 1) % (most + 1)
            self.race[seat] = n
            if n == 0:
                del self.race[seat]
                self.race_short.discard(seat)
            return Outcome("race_chips", "selected", seat=seat)
        # hold Bust: the seat's leftover chips are all the player has (kept by the race)
        if seat not in self.race:
            return Outcome("race_short", "info", seat=seat, message="race_no_chips")
        self.race_short ^= {seat}
        return Outcome("race_short", "selected", seat=seat)

    # -- a bust that needs an answer first
    def _ask_or_send(self) -> Outcome:
        b = self._bust
        seat = b["seat"]
        move = self._incoming(seat)
        if move is not None and "confirm" not in b:
            src = move.get("from") or {}
            return self._ask("incoming", seat, name=move.get("player", "?"),
                             table=src.get("table", "?"), from_seat=src.get("seat", "?"))
        busts = (self.table or {}).get("hand_busts") or []
        # an empty seat is not asked about: the controller answers why (the seat is empty)
        if (self.table or {}).get("asks_same_hand") and busts and "same_hand" not in b \
                and self._occupant(seat) is not None:
            names = ", ".join(f"{x.get('name', '?')} ({x.get('seat', '?')})" for x in busts)
            return self._ask("same_hand", seat, names=names)
        fields = {k: b[k] for k in ("same_hand", "confirm") if k in b}
        self._drop()
        return Outcome("bust", "sent", seat=seat, cid=self.send("bust", seat=seat, **fields))

    def _ask(self, question: str, seat: int, **values: Any) -> Outcome:
        self.question = question
        self._asked_at = self._now
        return Outcome("bust", "question", seat=seat, message=f"ask_{question}",
                       values={"seat": seat, **values})

    def _answer(self, action: str) -> Outcome:
        """Hold Bust: yes (same hand / out all the same); tap Hand done: a new hand."""
        if self.question == "same_hand" and action in ("bust", "hand_done"):
            self._bust["same_hand"] = action == "bust"
        elif self.question == "incoming" and action == "bust":
            self._bust["confirm"] = True
        else:
            self._drop()
            return Outcome(action, "info", message="bust_dropped")
        self.question = None
        return self._ask_or_send()

    def _expire(self, now: float) -> list[Outcome]:
        if self.question is None or now < self._asked_at + QUESTION_SECONDS:
            return []
        self._drop()
        return [Outcome("bust", "info", message="bust_dropped")]

    def _drop(self) -> None:
        self.question = None
        self._bust = {}

    def _incoming(self, seat: int) -> dict[str, Any] | None:
        """The pending move that brings the seat's player here, if the player is on the way."""
        tab = self.table or {}
        here = next((s for s in tab.get("seats", ()) if s.get("seat") == seat), None)
        if not here or not here.get("incoming"):
            return None
        return next((m for m in tab.get("moves_in", ())
                     if (m.get("to") or {}).get("seat") == seat), {})
