"""A console form → the director command it sends.

Only the shape is made here (text to numbers, a list of names, which command a button
means); whether the command is possible is the controller's decision, and its reason is
shown as it comes. A form that cannot become a command raises :class:`FormError`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from typing import Any

Form = Mapping[str, str]


class FormError(ValueError):
    """What is wrong with what was typed (English; the pages translate the key)."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def _text(form: Form, key: str) -> str:
    value = (form.get(key) or "").strip()
    if not value:
        raise FormError("missing", field=key)
    return value


def _whole(form: Form, key: str, *, optional: bool = False) -> int | None:
    value = (form.get(key) or "").strip()
    if not value and optional:
        return None
    if not re.fullmatch(r"-?[0-9]{1,12}", value):
        raise FormError("not_a_number", field=key, value=value)
    return int(value)


def seconds(text: str) -> float:
    """``"90"``, ``"1:30"``, ``"-2:00"``, ``"1:02:00"`` → seconds; :class:`FormError`."""
    t = text.strip().replace(",", ".")
    sign = -1 if t.startswith("-") else 1
    parts = (t[1:] if t[:1] in ("+", "-") else t).split(":")
    ok = 1 <= len(parts) <= 3 and all(re.fullmatch(r"\d{1,4}", x) for x in parts[:-1]) \
        and re.fullmatch(r"\d{1,5}(\.\d+)?", parts[-1]) is not None
    if not ok or (len(parts) > 1 and float(parts[-1]) >= 60) or \
            (len(parts) == 3 and int(parts[1]) >= 60):
        raise FormError("bad_time", value=text)
    total = 0.0
    for x in parts:
        total = total * 60 + float(x)
    return sign * total


def _player(form: Form) -> int | str:
    """A player picked from a list (``player_id``) or typed by name."""
    pid = (form.get("player_id") or "").strip()
    if pid.isdigit():
        return int(pid)
    return _text(form, "player")


def _names(form: Form) -> list[str]:
    names = [n.strip() for n in re.split(r"[\n;]", form.get("names") or "") if n.strip()]
    if not names:
        raise FormError("missing", field="names")
    return names


def _member(form: Form) -> bool:
    return form.get("guest") not in ("on", "1", "true")


def _force(form: Form) -> dict[str, bool]:
    """The director's override (a late arrival after the cutoff)."""
    return {"force": True} if form.get("force") in ("on", "1", "true") else {}


def _entry(form: Form, args: dict[str, Any]) -> dict[str, Any]:
    """A registration's arguments, with ``adult`` when the desk asked and the player said
    18 or older (000 1.1, 003 1; the record keeps the date)."""
    return {**args, "adult": True} if form.get("adult") in ("on", "1", "true") else args


def _level(form: Form) -> dict[str, Any]:
    to = (form.get("to") or "").strip()
    if to in ("next", "prev"):
        return {"to": to}
    return {"to": _whole(form, "to")}


def _time(form: Form) -> dict[str, Any]:
    op = form.get("op") or "add"
    value = seconds(_text(form, "value"))
    if op == "remove":
        return {"op": "add", "seconds": -abs(value)}
    if op not in ("add", "set"):
        raise FormError("bad_choice", field="op", value=op)
    return {"op": op, "seconds": value}


def _bust(form: Form) -> dict[str, Any]:
    if (form.get("table") or "").strip():
        args: dict[str, Any] = {"table": _whole(form, "table"), "seat": _whole(form, "seat")}
    else:
        args = {"player": _player(form)}
    stack = _whole(form, "stack", optional=True)
    if stack is not None:
        args["stack"] = stack
    by = (form.get("by") or "").strip()
    if by:
        args["by"] = int(by) if by.isdigit() else by
    if form.get("same_hand") in ("1", "on", "true"):  # two out in one hand (000 9.5)
        args["same_hand"] = True
    return args


def _minutes(form: Form) -> float | None:
    value = (form.get("minutes") or "").strip().replace(",", ".")
    if not value:
        return None
    if not re.fullmatch(r"[0-9]{1,4}(\.[0-9]+)?", value):
        raise FormError("not_a_number", field="minutes", value=value)
    return float(value)


def _structure_insert(form: Form) -> dict[str, Any]:
    """A level or a break inserted after playing level ``after`` (0: before the first),
    ``minutes`` long; a level with its blinds (and ante)."""
    minutes = _minutes(form)
    if minutes is None:
        raise FormError("missing", field="minutes")
    kind = form.get("kind") or "level"
    if kind not in ("level", "break"):
        raise FormError("bad_choice", field="kind", value=kind)
    level: dict[str, Any] = {"kind": kind, "minutes": minutes}
    if kind == "level":
        level["small_blind"] = _whole(form, "small_blind")
        level["big_blind"] = _whole(form, "big_blind")
        ante = _whole(form, "ante", optional=True)
        if ante:
            level["ante"] = ante
    return {"op": "insert", "after": _whole(form, "after"), "level": level}


def _structure_minutes(form: Form) -> dict[str, Any]:
    """The levels from ``from_level`` on ``minutes`` long (the breaks too when ticked)."""
    minutes = _minutes(form)
    if minutes is None:
        raise FormError("missing", field="minutes")
    return {"op": "minutes", "from_level": _whole(form, "from_level"), "minutes": minutes,
            "breaks": form.get("breaks") in ("on", "1", "true")}


def _announce(form: Form) -> dict[str, Any]:
    args: dict[str, Any] = {"text": _text(form, "text")}
    minutes = _minutes(form)
    if minutes is not None:
        args["minutes"] = minutes
    return args


def _reason(form: Form, args: dict[str, Any]) -> dict[str, Any]:
    reason = (form.get("reason") or "").strip()
    if reason:
        args["reason"] = reason
    return args


def _penalty(form: Form) -> dict[str, Any]:
    """A sit-out (000 3.8): ``length`` in ``unit`` (orbits, hands or minutes)."""
    unit = form.get("unit") or "orbits"
    if unit not in ("orbits", "hands", "minutes"):
        raise FormError("bad_choice", field="unit", value=unit)
    if unit == "minutes":
        length: float | int | None = _minutes({"minutes": form.get("length") or ""})
        if length is None:
            raise FormError("missing", field="length")
    else:
        length = _whole(form, "length")
    return _reason(form, {"player": _player(form), unit: length})


def _disqualify(form: Form) -> dict[str, Any]:
    args: dict[str, Any] = {"player": _player(form)}
    stack = _whole(form, "stack", optional=True)
    if stack is not None:
        args["stack"] = stack
    return _reason(form, args)


def _undo(form: Form) -> dict[str, Any]:
    target = _whole(form, "target", optional=True)
    return {} if target is None else {"target": target}


def _chip_race(form: Form) -> dict[str, Any]:
    """``table``, ``chips`` typed as seat:count pairs ("1:3 2:2 5:1"), ``short`` and
    ``absent`` as seats ("5"): the leftover chips of a colour-up (000 3.17; an absent
    seat's are all its small chips, 002), a list by seat for the command."""
    pairs = (form.get("chips") or "").replace(",", " ").split()
    if not pairs:
        raise FormError("missing", field="chips")
    by_seat: dict[int, int] = {}
    for pair in pairs:
        m = re.fullmatch(r"([0-9]{1,2}):([0-9]{1,2})", pair)
        if m is None or int(m.group(1)) < 1:
            raise FormError("bad_chips", value=pair)
        by_seat[int(m.group(1))] = int(m.group(2))
    short = _seats(form, "short")
    args: dict[str, Any] = {"table": _whole(form, "table"),
                            "chips": [by_seat.get(n, 0) for n in range(1, max(by_seat) + 1)],
                            "short": short}
    absent = _seats(form, "absent")  # 002: not at the table, the small chips are lost
    if absent:
        args["absent"] = absent
    return args


def _seats(form: Form, key: str) -> list[int]:
    """Seats typed with spaces or commas between ("3 5")."""
    seats = (form.get(key) or "").replace(",", " ").split()
    if not all(re.fullmatch(r"[0-9]{1,2}", s) for s in seats):
        raise FormError("not_a_number", field=key, value=" ".join(seats))
    return [int(s) for s in seats]


def _colour_up(form: Form) -> dict[str, Any]:
    """The chip or chips that leave (002), typed with spaces or commas between ("25 100",
    "25, 100"; "1.000" is a thousand): one is ``chip``, several ``chips``."""
    typed = (form.get("chip") or "").replace(",", " ").replace(";", " ").split()
    chips = [t.replace(".", "").replace("'", "") for t in typed]
    if not chips or not all(re.fullmatch(r"[0-9]{1,10}", c) for c in chips):
        raise FormError("not_a_number", field="chip", value=" ".join(typed))
    return {"chip": int(chips[0])} if len(chips) == 1 else {"chips": [int(c) for c in chips]}


#: where a count names a seat instead of a player: "3/4", "T3/S4" (table 3, seat 4)
_SEAT = re.compile(r"[Tt]?([0-9]{1,3})\s*/\s*[Ss]?([0-9]{1,2})")


def _counts(form: Form, *, optional: bool = False) -> list[dict[str, Any]]:
    """``counts`` typed one a line (or ``;`` between): a player's name or a table/seat
    ("3/4"), then the chips ("23500", "23.500", "23,500"): the counted stacks of the
    command (``chip_counts``, ``end_round``). Without a line: ``[]`` if ``optional``."""
    entries = [e.strip() for e in re.split(r"[\n;]", form.get("counts") or "") if e.strip()]
    if not entries and not optional:
        raise FormError("missing", field="counts")
    counts: list[dict[str, Any]] = []
    for entry in entries:
        who, _, chips = entry.rpartition(" ")
        who, chips = who.strip(), re.sub(r"[.,'’]", "", chips)
        if not who or not re.fullmatch(r"[0-9]{1,12}", chips):
            raise FormError("bad_count", value=entry)
        seat = _SEAT.fullmatch(who)
        where: dict[str, Any] = {"table": int(seat.group(1)), "seat": int(seat.group(2))} \
            if seat else {"player": who}
        counts.append({**where, "chips": int(chips)})
    return counts


def _reseat(form: Form) -> dict[str, Any]:
    """The director's reseat (002): a table, a seat (empty: the one that posts the big
    blind soonest) and the reason the log keeps."""
    args: dict[str, Any] = {"player": _player(form), "table": _whole(form, "table")}
    seat = _whole(form, "seat", optional=True)
    if seat is not None:
        args["seat"] = seat
    args["reason"] = _text(form, "reason")
    return args


def _move_apply(form: Form) -> dict[str, Any]:
    """The balancing plan now; ``from_table``: the table the director chooses to give the
    player (001 §2 I); empty: the plan's."""
    frm = _whole(form, "from_table", optional=True)
    return {} if frm is None else {"from_table": frm}


#: action name → (command, form → arguments)
ACTIONS: dict[str, tuple[str, Callable[[Form], dict[str, Any]]]] = {
    "start": ("start", lambda f: {}),
    "pause": ("pause", lambda f: {}),
    "resume": ("resume", lambda f: {}),
    "draw": ("draw", lambda f: {}),
    "addon": ("addon", lambda f: {}),
    "final_table": ("final_table", lambda f: {}),
    "move_apply": ("move_apply", _move_apply),
    "reseat": ("reseat", _reseat),
    # 003 12: a moved blind who sits out until the button passes is dealt in at once
    "deal_in": ("deal_in", lambda f: {"player": _player(f)}),
    # 002: seats kept free for late arrivals (0 gives them back)
    "reserve": ("reserve", lambda f: {"seats": _whole(f, "seats"),
                                      "reason": _text(f, "reason")}),
    "level": ("level", _level),
    "time": ("time", _time),
    "register": ("register", lambda f: _entry(f, {"names": _names(f), "member": _member(f)})),
    "late": ("late", lambda f: _entry(f, {"name": _text(f, "name"), "member": _member(f)}
                                      | _force(f))),
    "rebuy": ("rebuy", lambda f: {"player": _player(f)}),
    "reentry": ("reentry", lambda f: {"player": _player(f)}),
    "seated": ("seated", lambda f: {"player": _player(f)}),
    "bust": ("bust", _bust),
    "break_table": ("break_table", lambda f: {"table": _whole(f, "table")}),
    "hfh": ("hfh", lambda f: {"on": f.get("on") in ("on", "1", "true")}),
    "hands_left": ("hands_left", lambda f: {"count": _whole(f, "count")}),
    "time_call": ("time_call", lambda f: {"table": _whole(f, "table"),
                                          "op": f.get("op") or "toggle"}),
    "hand_done": ("hand_done", lambda f: {"table": _whole(f, "table")}),
    "undo": ("undo", _undo),
    "rename": ("rename", lambda f: {"player": _player(f), "name": _text(f, "new_name")}),
    "unregister": ("unregister", lambda f: {"player": _player(f)}),
    "announce": ("announce", _announce),
    "structure_insert": ("structure", _structure_insert),
    "structure_minutes": ("structure", _structure_minutes),
    "chip_race": ("chip_race", _chip_race),
    # the director's colour-up at any time and the end of the day by a drawn card (002)
    "colour_up": ("colour_up", _colour_up),
    "end_of_day": ("end_of_day", lambda f: {"card": _whole(f, "card")}),
    # counted stacks (at a break, by the director) and a round's end with them (000 4.14,
    # 4.15, 4.19: the engine says which counts a round's end needs)
    "chip_counts": ("chip_counts", lambda f: {"counts": _counts(f)}),
    "end_round": ("end_round", lambda f: {"counts": _counts(f, optional=True)}),
    "announce_clear": ("announce", lambda f: {"clear": True}),
    # penalties and disqualification (000 3.6-3.8, 4.11)
    "penalty": ("penalty", _penalty),
    "penalty_warning": ("penalty", lambda f: _reason(f, {"player": _player(f),
                                                          "kind": "warning"})),
    "penalty_owed_blinds": ("penalty", lambda f: _reason(f, {"player": _player(f),
                                                              "kind": "owed_blinds"})),
    "disqualify": ("disqualify", _disqualify),
}


# ------------------------------------------------- the registration desk (issue 31)
def _capacity(form: Form) -> dict[str, Any]:
    """The seat limit: a number of seats; empty: no limit."""
    seats = _whole(form, "seats", optional=True)
    return {} if seats is None else {"seats": seats}


def _elsewhere(form: Form) -> dict[str, Any]:
    """001 §1 III: the player sits in another tournament of the floor (its name, and the
    time of day it started: ``19:00``, today in this machine's time zone, beside the
    controller); ``done``: it is over for the player there."""
    args: dict[str, Any] = {"player": _player(form), "tournament": _text(form, "tournament")}
    if form.get("done") in ("on", "1", "true"):
        return {**args, "done": True}
    at = _text(form, "started")
    if not re.fullmatch(r"([01]?[0-9]|2[0-3]):[0-5][0-9]", at):
        raise FormError("bad_time_of_day", value=at)
    day = datetime.datetime.now().astimezone()
    hour, minute = (int(x) for x in at.split(":"))
    return {**args, "started": day.replace(hour=hour, minute=minute, second=0,
                                           microsecond=0).isoformat(timespec="minutes")}


ACTIONS.update({
    "elsewhere": ("elsewhere", _elsewhere),
    "capacity": ("capacity", _capacity),
    "preregister": ("preregister", lambda f: _entry(f, {"names": _names(f),
                                                         "member": _member(f)})),
    "check_in": ("check_in", lambda f: {"player": _player(f)}),
    "cancel": ("cancel", lambda f: {"player": _player(f),
                                    "force": f.get("force") in ("on", "1", "true")}),
})

# ------------------------------------------------- the deal at the final table (issue 30)
def cents(text: str, field: str) -> int:
    """An amount as typed, in the currency's units: ``450``, ``450,50``, ``450.5``,
    ``1.450,50`` or ``1,450.50`` → cents; :class:`FormError`."""
    t = re.sub(r"[\s'’€$£]|CHF|EUR", "", text)
    m = re.fullmatch(r"([0-9]{1,3}(?:([.,])[0-9]{3})*|[0-9]{1,12})(?:([.,])([0-9]{1,2}))?", t)
    if m is None or (m.group(2) and m.group(3) == m.group(2)):
        raise FormError("not_an_amount", field=field, value=text)
    whole = re.sub(r"[.,]", "", m.group(1))
    return int(whole) * 100 + int((m.group(4) or "0").ljust(2, "0"))


def _deal(method: str) -> Callable[[Form], dict[str, Any]]:
    """A deal as the dialog shows it: ``played_for`` in the currency's units; a custom
    split each player's ``amount_<id>``."""
    def make(form: Form) -> dict[str, Any]:
        args: dict[str, Any] = {"method": method,
                                "played_for": cents(_text(form, "played_for"), "played_for")}
        if method == "custom":
            args["amounts"] = [{"player": int(key[7:]), "amount": cents(value, "amount")}
                               for key, value in form.items()
                               if key.startswith("amount_") and key[7:].isdigit()]
            if not args["amounts"]:
                raise FormError("missing", field="amount")
        return args
    return make


ACTIONS.update({
    "deal_icm": ("deal", _deal("icm")),
    "deal_chip_chop": ("deal", _deal("chip_chop")),
    "deal_custom": ("deal", _deal("custom")),
})


def command(action: str, form: Form) -> tuple[str, dict[str, Any]]:
    """The command of console action ``action`` with ``form``; :class:`FormError`."""
    if action not in ACTIONS:
        raise FormError("unknown_action", value=action)
    cmd, make = ACTIONS[action]
    return cmd, make(form)
