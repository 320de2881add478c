"""The floor's duties on the screens: a penalised seat and its countdown (000 3.8), owed
blinds (000 4.11) and who deals where the players deal (000 3.11).

Pure reading of the table payload (``penalties``, ``dealer``, docs/protocol.md): the table
screen tags the seat (:func:`seat_tags`) and names a dealer who is out and deals standing
(:func:`standing_dealer`); the wall marks the player in its seating list
(:func:`wall_mark`). A penalty in minutes counts down on the screen's own clock (the
view's controller time) and disappears by itself when its time is up.
"""

from __future__ import annotations

import math
from typing import Any

from controller.wire.i18n import tr
from kiosk.screens.widgets import GREEN, RED, Colour


def minutes_left(until: float, now: float) -> int:
    """Whole minutes left of a penalty ending at ``until`` (controller time, s), rounded
    up: a penalty shows "1 min" until it is over; 0 once it is."""
    return max(0, math.ceil((until - now) / 60 - 1e-9))


def penalty_of(tab: dict[str, Any], seat: int) -> dict[str, Any] | None:
    return next((p for p in tab.get("penalties") or [] if p.get("seat") == seat), None)


def _running(p: dict[str, Any], now: float) -> int | None:
    """Hands or minutes left of the sit-out (``None``: none is running)."""
    if isinstance(p.get("hands_left"), int):
        return int(p["hands_left"])
    until = p.get("until")
    if isinstance(until, (int, float)):
        left = minutes_left(float(until), now)
        return left if left > 0 else None
    return None


def penalty_texts(p: dict[str, Any], now: float, lang: str) -> list[str]:
    """The wordings of a seat's penalty, longest first (``[]``: nothing to show)."""
    left = _running(p, now)
    if left is not None:
        if not isinstance(p.get("hands_left"), int):
            return [tr("penalty_minutes", lang, n=left),
                    tr("penalty_minutes_short", lang, n=left)]
        if left == 1:
            return [tr("penalty_hand", lang), tr("penalty_hand_short", lang)]
        return [tr("penalty_hands", lang, n=left), tr("penalty_hands_short", lang, n=left)]
    if p.get("owes_blinds"):
        return [tr("owes_blinds", lang), tr("owes_blinds_short", lang)]
    return []


def seat_tags(tab: dict[str, Any], seat: int, now: float, lang: str
              ) -> tuple[list[str], Colour] | None:
    """The tag a seat carries for the floor's duties: a penalty (red) or, where the players
    deal, the dealer (green); ``None``: none."""
    p = penalty_of(tab, seat)
    if p is not None:
        texts = penalty_texts(p, now, lang)
        if texts:
            return texts, RED
    dealer = tab.get("dealer") or {}
    if dealer.get("seat") == seat:
        return [tr("deals", lang)], GREEN
    return None


def standing_dealer(tab: dict[str, Any], lang: str) -> str | None:
    """"Dealer: NAME (out)" where a player who is out deals (000 3.11), else ``None``."""
    dealer = tab.get("dealer") or {}
    if dealer and dealer.get("seat") is None and dealer.get("name"):
        return tr("dealer_standing", lang, name=dealer["name"])
    return None


def wall_mark(state: dict[str, dict[str, Any]], table: int, seat: int, now: float,
              lang: str) -> str | None:
    """The short penalty text for the wall's seating list ("8 hands", "7 min"; ``None``: no
    running penalty)."""
    p = penalty_of(state.get(f"table/{table}") or {}, seat)
    if p is None or _running(p, now) is None:
        return None
    return penalty_texts(p, now, lang)[-1]


def key_of(state: dict[str, dict[str, Any]], now: float) -> tuple[Any, ...]:
    """What changes the picture by itself: the minutes left of every running penalty (the
    screen lays out again once a minute while one runs)."""
    out = []
    for topic, tab in state.items():
        if not topic.startswith("table/") or not tab:
            continue
        for p in tab.get("penalties") or []:
            if isinstance(p.get("until"), (int, float)):
                out.append((topic, p.get("seat"), minutes_left(float(p["until"]), now)))
    return tuple(sorted(out, key=repr))
