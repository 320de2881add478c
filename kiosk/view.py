"""What a screen shows at one moment: the retained state plus the kiosk's own local state.

This is the contract between the kiosk's main loop (:mod:`kiosk.app`) and the
drawing code (:mod:`kiosk.render`): the loop fills a :class:`ScreenView`, the
renderer draws it and nothing else. Pure data, no pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

#: what a screen is: a table's screen or a wall screen
Role = Literal["table", "wall"]


def tables_in_play(state: Mapping[str, Any]) -> list[int]:
    """The tables in play of a retained state by suffix (``"table/3"`` …): those whose view
    says so. The summary has only their count; a wall holds every table's view."""
    return sorted(int(key[6:]) for key, view in state.items()
                  if key.startswith("table/") and (view or {}).get("in_play"))
#: what the answer to the dealer's last press says (see :class:`Feedback`)
FeedbackKind = Literal["sent", "accepted", "rejected", "info"]


@dataclass
class Feedback:
    """The answer to the dealer's last press: shown for a few seconds.

    ``kind``: ``"sent"`` (waiting for the controller), ``"accepted"`` or
    ``"rejected"``; ``text`` is what to say ("rejected: seat 4 is empty").
    ``since``: local monotonic time it was set.
    """

    kind: FeedbackKind
    text: str
    since: float


@dataclass(frozen=True)
class Problem:
    """Why the screen has no tournament to show (:mod:`kiosk.problems` has its words).

    ``kind``: ``looking`` (searching the network for the night), ``no_night`` (none
    answered), ``need_code`` (found, but no join code was given), ``wrong_code``,
    ``too_many`` (the night's door waits), ``no_account`` (the night has no account for
    this screen), ``no_name`` (the broker's name did not resolve), ``refused`` (nothing
    listens at the address), ``unreachable`` (no answer), ``account`` (the broker refused
    the user name or password), ``tls`` (the TLS handshake failed). ``address``: what the
    screen tries; ``detail``: the system's own words (an error message)."""

    kind: str
    address: str = ""
    detail: str = ""


@dataclass
class ScreenView:
    """Everything one frame needs.

    ``state``: the retained payloads by topic suffix (``"clock"``,
    ``"structure"``, ``"summary"``, ``"moves"``, ``"results"``,
    ``"table/3"`` …) exactly as the controller published them (see
    ``docs/protocol.md``). ``now``: the controller's time as the kiosk
    estimates it (seconds). ``online``: the broker link is up.
    ``selected_seat``: the seat the dealer picked with seat_next/seat_prev.
    ``hold``: progress 0..1 of a hold-to-confirm button (bust, undo) being held.
    ``language``: "de" or "en" (the preset chooses, the kiosk config may override).
    """

    role: Role
    table: int | None = None
    state: dict[str, dict[str, Any]] = field(default_factory=dict)
    now: float = 0.0
    online: bool = False
    selected_seat: int | None = None
    hold: tuple[str, float] | None = None
    feedback: Feedback | None = None
    language: str = "en"
    #: index of the page of the rotating seating list on the wall screen
    wall_page: int = 0
    #: the chip race the dealer is entering (000 3.17): leftover chips by seat and the
    #: seats whose leftover chips are all they have (``TableControls.race``)
    race: dict[int, int] = field(default_factory=dict)
    race_short: frozenset[int] = frozenset()
    #: why there is nothing to show yet (``None``: connected, or no reason known)
    problem: Problem | None = None


@dataclass(frozen=True)
class ClockNow:
    """The clock as it stands at the view's ``now``, rolled forward from the last anchor.

    ``remaining``/``break_in`` in seconds (``None``: no end / no break ahead).
    ``level``/``next_level``: the structure's level dicts (see docs/protocol.md).
    """

    level: dict[str, Any]
    next_level: dict[str, Any] | None
    remaining: float | None
    break_in: float | None
    running: bool
    started: bool


def clock_now(view: ScreenView) -> ClockNow | None:
    """Compute the clock from the retained anchor and structure at ``view.now``.

    Works offline: levels and breaks roll over from the last anchor, exactly as
    the controller's own clock does (:mod:`controller.engine.clock`).
    """
    from controller.engine import clock as clk
    from controller.engine.settings import Level

    anchor = view.state.get("clock")
    struct = view.state.get("structure")
    if not anchor or not struct or not struct.get("levels"):
        return None
    levels = struct["levels"]
    structure = tuple(
        Level("break" if lv["is_break"] else "level", lv["seconds"], lv["small_blind"],
              lv["big_blind"], lv["ante"], lv.get("ante_type", "standard"), lv.get("note", ""))
        for lv in levels)
    c = clk.Clock(level=min(anchor["level"], len(levels) - 1), running=anchor["running"],
                  started=anchor["started"], ends_at=anchor["ends_at"],
                  remaining=anchor["remaining"], halved=anchor.get("halved", False))
    c = clk.at(c, structure, view.now)
    nxt = levels[c.level + 1] if c.level + 1 < len(levels) else None
    return ClockNow(level=levels[c.level], next_level=nxt,
                    remaining=clk.left(c, structure, view.now),
                    break_in=clk.next_break(c, structure, view.now),
                    running=c.running, started=c.started)
