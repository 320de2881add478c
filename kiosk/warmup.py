"""What a table screen lays out off the screen before the dealer needs it (issue 32.1).

A new :class:`~kiosk.render.Renderer` is cold: the first layout opens some 17 fonts,
loads and hints every glyph at every size it measures or draws (the blinds, the clock's
digits at size 386, the names, the answer line) and measures every text once — 24 ms on
this machine's CPU, ~165 ms on a Raspberry Pi 4, where a warm one takes 1.6 ms. A kiosk
starts cold, and again after a change of language or of the screen's size (a new
renderer).

:func:`moments` are the moments a table screen shows, in the screen's language and at its
size: the clock with the blinds of several lengths and every digit, the seats with short
and long names (the two-line layout), a selected seat, every answer line a press can
produce ("sent …", the controller's answers, a rejection, the hints), a hold, the time
call's countdown, hand-for-hand, the break and the chip race's entry. The kiosk lays them
out one at a time while it waits (:meth:`kiosk.render.Renderer.warm`: off the screen, the
fonts and the measurements kept, nothing shown), so the first frame a dealer sees is
laid out warm. Before the tournament's first state arrives they are made of the
tournament below (names, levels); once it is there, of the real one (the real names and
blinds), so what is warmed is what will be drawn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from controller.wire import wording
from kiosk.view import Feedback, ScreenView

__all__ = ["moments"]

#: short and long names (the engine allows 40 characters): one and two lines, umlauts
NAMES = ("Mia Fischer", "Anna Schmidt", "Vera Krüger", "Frieda Wolf",
         "Maximiliane Schäfer-Grünewald von Oberndorf", "Ben Weber", "Zoë Lehmann",
         "Yusuf Kaya", "Sven Wagner", "Jörg Ølsen-Müller")

#: (small blind, big blind, ante, its kind): the blinds' lengths a night goes through
LEVELS = ((50, 100, 0, "standard"), (150, 300, 0, "standard"), (400, 800, 75, "standard"),
          (1500, 3000, 3000, "big_blind"), (10000, 20000, 2000, "standard"))

#: the keys of a press's "sent" line (kiosk.app.TEXTS) and what it was
PRESSES: tuple[tuple[str, dict[str, int]], ...] = (
    ("bust", {"seat": 4}), ("bust", {"seat": 10}), ("time", {}), ("time_cancel", {}),
    ("hand_done", {}), ("undo", {}))


def _level(i: int, sb: int, bb: int, ante: int, kind: str = "standard", *,
           is_break: bool = False, note: str = "") -> dict[str, Any]:
    return {"index": i, "number": i + 1, "is_break": is_break, "seconds": 1200,
            "small_blind": 0 if is_break else sb, "big_blind": 0 if is_break else bb,
            "ante": 0 if is_break else ante, "ante_type": kind, "note": note}


def _structure(lang: str) -> list[dict[str, Any]]:
    levels = [_level(i, *lv) for i, lv in enumerate(LEVELS)]
    levels.insert(2, _level(2, 0, 0, 0, is_break=True, note="Chipraise 25"))
    for i, lv in enumerate(levels):
        lv["index"] = i
    return levels


def _clock(levels: list[dict[str, Any]], index: int, now: float, left: float,
           running: bool = True) -> dict[str, Any]:
    nxt = levels[index + 1] if index + 1 < len(levels) else None
    return {"v": 1, "level": index, "running": running, "started": True,
            "ends_at": now + left if running else None,
            "remaining": None if running else left, "halved": False,
            "current": levels[index], "next": nxt, "break_at": None, "break_in": None}


def _table(table: int, names: tuple[str, ...]) -> dict[str, Any]:
    seats = [{"seat": i + 1, "player_id": i + 1, "name": n, "ghost": False, "waiting": False,
              "incoming": False} for i, n in enumerate(names)]
    return {"v": 1, "table": table, "in_play": True, "final": False, "size": len(seats),
            "seats": seats, "button": 1, "small_blind": 2, "big_blind": 3,
            "next": {"button": 2, "small_blind": 3, "big_blind": 4}, "hands": 3,
            "hands_left": None, "moves_in": [], "waits_for": [], "moves_out": [],
            "notices": [], "hand_for_hand": {"on": False, "hand": None, "done": [],
                                             "playing": [], "hands_played": 0,
                                             "this_table_done": False},
            "time_call": None, "chip_race": None, "hand_busts": [], "asks_same_hand": False,
            "hand_done_due": False, "penalties": [], "dealer": None}


def _summary(lang: str, players: int) -> dict[str, Any]:
    return {"v": 1, "name": "Floorman", "language": lang, "drawn": True, "finished": False,
            "champion": None, "players_left": players, "entries": players,
            "average_stack": 10000, "chips_in_play": players * 10000, "places_paid": 14,
            "tables_in_play": 3, "final_table": None,
            "hand_for_hand": {"on": False, "hand": None, "done": [], "playing": [],
                              "hands_played": 0},
            "hands_left": None, "chip_leader": None, "round": None}


def _answers(lang: str, table: int, seats: list[dict[str, Any]]) -> list[str]:
    """What the controller answers a table's presses, as the kiosk shows it."""
    who = [s for s in seats if s.get("name")]
    lines = []
    for s in who[:3] + who[-1:]:
        place = 27
        phrase = {"key": "busted", "params": {"player": s["name"], "place": place,
                                              "table": table, "seat": s["seat"]}}
        lines.append(wording.message({"message": f"{s['name']} out in place {place}",
                                      "phrases": [phrase]}, lang))
    done = {"key": "hand_done", "params": {"table": table}}
    lines.append(wording.message({"message": f"table {table}: hand done",
                                  "phrases": [done]}, lang))
    return lines


def moments(view: ScreenView, language: str, now: float, mono: float,
            text: Callable[..., str], state: Callable[[], Mapping[str, Any]] | None = None
            ) -> Iterator[ScreenView]:
    """The moments a table screen ``view`` (its table, its role) will show, one at a time,
    in ``language``: of ``state()`` (the retained state when it is asked, for the real
    names and blinds) when it has the table and the clock, else of a tournament made up
    here. ``now``: controller time; ``mono``: the kiosk's monotonic time (the answer
    lines' ``since``); ``text``: the kiosk's own lines (:func:`kiosk.app.text`)."""
    if view.role != "table" or view.table is None:
        return
    table = view.table
    made_up: dict[str, Any] = {}

    def base() -> dict[str, Any]:
        real = dict(state()) if state is not None else {}
        if f"table/{table}" in real and "clock" in real and "structure" in real:
            return real
        if not made_up:
            levels = _structure(language)
            made_up.update({
                "structure": {"v": 1, "name": "Floorman", "language": language,
                              "levels": levels},
                "clock": _clock(levels, 0, now, 1134.0),
                "summary": _summary(language, 27),
                f"table/{table}": _table(table, NAMES[:9]),
            })
        return dict(made_up)

    def moment(st: dict[str, Any], **changes: Any) -> ScreenView:
        fields: dict[str, Any] = {"feedback": None, "hold": None, "problem": None, "race": {},
                                  "race_short": frozenset(), "selected_seat": None}
        fields.update(changes)
        return dataclasses.replace(view, state=st, now=now, online=True, language=language,
                                   **fields)

    def fb(kind: str, line: str) -> Feedback:
        return Feedback(kind, line, mono)  # type: ignore[arg-type]

    st = base()
    tab = st[f"table/{table}"]
    seats = [s for s in tab.get("seats") or [] if isinstance(s, dict)]
    numbers = [s["seat"] for s in seats if isinstance(s.get("seat"), int)] or [1]
    yield moment(st)
    # every seat selected once (its row drawn in the selected colours)
    for seat in numbers:
        yield moment(base(), selected_seat=seat)
    st = base()
    # the clock's digits, every one of them, running and paused, in the level it is in
    # (the other levels' blinds are a layout a level, not a press: each size is a font
    # kept, some 0.2 MB, so they are not warmed ahead)
    levels = (st.get("structure") or {}).get("levels") or []
    level = min(int((st.get("clock") or {}).get("level") or 0), max(0, len(levels) - 1))
    for k, left in enumerate((1134.0, 2689.0, 457.0, 3599.0)):
        yield moment(dict(st, clock=_clock(levels, level, now, left, running=k != 3)))
    # every line a press can bring, in this language
    selected = numbers[min(3, len(numbers) - 1)]
    for key, values in PRESSES:
        what = text(key, language, **values)
        for line in (text("sent", language, what=what), text("queued", language, what=what)):
            yield moment(base(), selected_seat=selected, feedback=fb("sent", line))
    for line in [text("accepted", language), *_answers(language, table, seats)]:
        yield moment(base(), selected_seat=selected, feedback=fb("accepted", line))
    for reason in (f"seat {selected} at table {table} is empty", "no hand in play"):
        line = text("rejected", language, reason=reason)
        yield moment(base(), selected_seat=selected, feedback=fb("rejected", line))
    for key in ("no_seat", "hold_bust", "hold_undo", "hand_done_due", "bust_dropped"):
        yield moment(base(), feedback=fb("info", text(key, language)))
    names = [s.get("name") or "?" for s in seats] or ["?"]
    yield moment(base(), feedback=fb("info", text(
        "ask_same_hand", language, seat=selected, names=", ".join(names[:2]))))
    for action in ("bust", "undo"):
        yield moment(base(), selected_seat=selected, hold=(action, 0.4))
    # the time call's countdown, every second of it
    st = base()
    tab = st[f"table/{table}"]
    for left in (47.0, 9.0, 0.0):
        call = {"started_at": now - 70 + left, "seconds": 60, "countdown": 10,
                "seat": selected, "action": False}
        yield moment(dict(st, **{f"table/{table}": dict(tab, time_call=call)}))
    # hand-for-hand: this table playing, this table done, the next hand dealt
    for done, playing_ in (([2], [table]), ([table], [2]), ([table, 2], [])):
        hfh = {"on": True, "hand": 2, "done": done, "playing": playing_, "hands_played": 1}
        summary = dict(st.get("summary") or {}, hand_for_hand=hfh)
        yield moment(dict(st, summary=summary, **{f"table/{table}": dict(
            tab, hand_for_hand=dict(hfh, this_table_done=table in done))}))
    # the break, and the chip race the dealer enters in it
    breaks = [i for i, lv in enumerate(levels) if lv.get("is_break")]
    if breaks:
        clock = _clock(levels, breaks[0], now, 477.0)
        yield moment(dict(st, clock=clock))
        race = {"leaving": 25, "new": 100, "start_seat": numbers[0], "start": "seat_1",
                "rounding": "up", "one_chip_per_player": True, "most": 3,
                "makes": [0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4], "result": None}
        yield moment(dict(st, clock=clock, **{f"table/{table}": dict(tab, chip_race=race)}),
                     selected_seat=numbers[min(1, len(numbers) - 1)],
                     race={n: (k % 3) + 1 for k, n in enumerate(numbers[:3])},
                     race_short=frozenset(numbers[2:3]))
    # long names: the two-line layout at the smallest size
    yield moment(dict(st, **{f"table/{table}": _table(table, NAMES)}))
    # and the moment the screen will show first
    yield moment(base())
