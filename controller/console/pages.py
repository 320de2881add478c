"""What the console's pages show, made from the state the controller published (and the
``players`` answer): no decision of the floor is made here, only what to draw."""

from __future__ import annotations

import time
from typing import Any

from controller.console.i18n import tr
from controller.wire import i18n as screen
from controller.wire import wording

#: the live parts of each page: element id → template
LIVE: dict[str, dict[str, str]] = {
    "floor": {"banner": "_banner.html", "clockbox": "_clock.html", "tables": "_tables.html",
              "clockbuttons": "_clock_buttons.html", "floorbuttons": "_floor_buttons.html",
              "moves": "_moves.html", "names": "_names.html", "history": "_history.html",
              "undobox": "_undo.html", "applies": "_applies.html",
              "structurelist": "_structure.html"},
    "players": {"banner": "_banner.html", "playerlist": "_players.html", "names": "_names.html",
                "applies": "_applies.html"},
    "results": {"banner": "_banner.html", "resultlist": "_results.html"},
    # the players' page: no sign-in, only what the public screens show (000 5.8, 001 §14)
    "public": {"pbanner": "_public_banner.html", "clockbox": "_public_clock.html",
               "pseating": "_public_seating.html", "pmoves": "_public_moves.html",
               "presults": "_results.html", "structurelist": "_structure.html",
               "pwaiting": "_public_waiting.html", "pladder": "_public_ladder.html"},
}


def public_waiting(desk: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The waiting list as the players' page shows it (issue 31, 002): the position and
    the public name (non-members shortened, 000 5.8)."""
    from controller.engine.points import public_name

    return [{"position": w["position"], "name": public_name(w["name"], w["member"])}
            for w in (desk or {}).get("waiting", [])]


def seating(state: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Everyone seated (no ghosts) as the public table topics name them (non-members
    shortened, 000 5.8), alphabetically: ``name``, ``table``, ``seat``, ``incoming``; with
    money bounties ``bounty`` (the head on the player) and ``bounty_won`` (the heads won),
    while a deal at the final table stands ``deal`` (the player's own amount), each in
    cents and ``None`` where there is none."""
    deal = ((((state.get("summary") or {}).get("prize_pool") or {}).get("deal") or {})
            .get("players") or [])
    dealt = {d.get("player_id"): d.get("amount") for d in deal}
    rows = []
    for key, view in state.items():
        if not key.startswith("table/") or not view.get("in_play"):
            continue
        for s in view.get("seats", []):
            if not s.get("ghost"):
                rows.append({"name": s["name"], "table": view["table"], "seat": s["seat"],
                             "incoming": bool(s.get("incoming")),
                             "bounty": s.get("bounty"), "bounty_won": s.get("bounty_won"),
                             "deal": dealt.get(s.get("player_id"))})
    rows.sort(key=lambda r: (screen.sort_key(r["name"]), r["table"], r["seat"]))
    return rows


def by_table(players: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The seated players (the ``players`` answer) by table, each table by seat."""
    tables: dict[int, list[dict[str, Any]]] = {}
    for p in players:
        if p["status"] == "seated":
            tables.setdefault(p["table"], []).append(p)
    return [(n, sorted(rows, key=lambda p: p["seat"])) for n, rows in sorted(tables.items())]


def clock_left(clock: dict[str, Any] | None, now: float) -> float | None:
    """Seconds left in the level (``None``: no end), as the screens count (protocol.md)."""
    if not clock:
        return None
    if clock.get("running"):
        ends = clock.get("ends_at")
        return None if ends is None else max(0.0, ends - now)
    if clock.get("remaining") is not None:
        return float(clock["remaining"])
    return (clock.get("current") or {}).get("seconds")


def break_left(clock: dict[str, Any] | None, now: float) -> float | None:
    if not clock:
        return None
    if clock.get("break_at") is not None:
        return max(0.0, clock["break_at"] - now)
    return clock.get("break_in")


def level_text(level: dict[str, Any] | None, lang: str) -> str:
    if not level:
        return ""
    if level.get("is_break"):
        note = f" · {level['note']}" if level.get("note") else ""
        return f"{tr('break', lang)}{note}"
    ante = f" · {screen.ante(level, lang, short=True)}" if level.get("ante") else ""
    return f"{tr('level_n', lang, n=level['number'])}: {screen.blinds(level, lang)}{ante}"


def tables(state: dict[str, dict[str, Any]], players: list[dict[str, Any]] | None = None
           ) -> tuple[list[dict[str, Any]], list[int]]:
    """(the tables in play with every seat 1…size, the numbers of tables that broke). Each
    seat has its player's full name as ``full`` (the ``players`` answer; the public name
    until it comes), for the director's search and bust by name."""
    full = {(p["table"], p["seat"]): p["name"] for p in players or ()
            if p["status"] == "seated"}
    offline = {c.get("table") for c in (state.get("presence") or {}).get("clients", {}).values()
               if c.get("role") == "table" and not c.get("online")}
    playing, gone = [], []
    for key, view in state.items():
        if not key.startswith("table/"):
            continue
        if not view.get("in_play"):
            gone.append(view["table"])
            continue
        by_seat = {s["seat"]: s for s in view.get("seats", [])}
        seats = [{"seat": n, **by_seat.get(n, {})} for n in range(1, view.get("size", 0) + 1)]
        for s in seats:
            if s.get("name") and not s.get("ghost"):
                s["full"] = full.get((view["table"], s["seat"]), s["name"])
        tc = view.get("time_call")
        playing.append({**view, "all_seats": seats, "offline": view["table"] in offline,
                        "time_call_ends": None if tc is None else
                        tc["started_at"] + tc["seconds"] + tc["countdown"]})
    playing.sort(key=lambda v: v["table"])
    return playing, sorted(gone)


def history_rows(commands: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """The history, newest first, each row's ``text`` in ``lang`` and marked ``undoable``: a
    command (not what the time made by itself, not an undo) that is not undone yet. Whether
    the undo is possible now (a later decision may depend on it) is the controller's to say
    when it is pressed."""
    rows = []
    for c in reversed(commands):
        said = [p for p in c.get("phrases", []) if not _nothing(p)]
        if not said and c.get("phrases"):
            continue  # the time found nothing to do: no line for it
        if len(said) != len(c.get("phrases", [])):
            c = {**c, "phrases": said, "text": "; ".join(str(p.get("text", "")) for p in said)}
        keys = {p.get("key") for p in c.get("phrases", [])}
        is_undo = "undone" in keys
        text = wording.capital(wording.message({"message": c.get("text"),
                                                "phrases": c.get("phrases")}, lang),
                               c.get("phrases"))
        rows.append({**c, "text": text, "is_undo": is_undo,
                     "undoable": not c.get("by_itself") and c.get("undone_by") is None
                     and not is_undo})
    return rows


def _nothing(phrase: dict[str, Any]) -> bool:
    """A phrase that says nothing happened: "0 ghost seats removed" (the ghosts' time came
    with none left; the rule records it once all the same)."""
    return phrase.get("key") == "ghosts_removed" and not (phrase.get("params") or {}).get("count")


def last_undo(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The command "undo the last command" takes back: the newest history row that can be
    undone (the console sends its number, so what the button names is what is undone)."""
    return next((r for r in rows if r["undoable"]), None)


def entry_state(summary: dict[str, Any] | None, clock: dict[str, Any] | None
                ) -> dict[str, Any]:
    """What the entries allow at the clock's level, from the summary's ``entry_rules`` (the
    controller decides each entry; this only says it): ``lines`` (label key, values) for the
    indicator, ``rebuy``/``reentry``/``late`` open, ``addon`` still to come, and
    ``keeps_tables`` (the last level while which no table breaks, or ``None``)."""
    rules = (summary or {}).get("entry_rules")
    out: dict[str, Any] = {"lines": [], "rebuy": False, "reentry": False, "late": False,
                           "addon": False, "keeps_tables": None}
    if not rules or not summary or summary.get("finished"):
        return out
    current = (clock or {}).get("current") or {}
    level = current.get("number") or 1
    # a break carries the level before it, and the entries of that level stay open through
    # it (rules/entries.py level_at): in the break after the last one, "until the end of
    # level 4" would name a level already over
    last_break = bool(current.get("is_break"))

    def still(until: int | None) -> bool:
        return until is not None and level <= until

    def line(key: str, until: int) -> tuple[str, dict[str, Any]]:
        return (f"{key}_break", {}) if last_break and level == until else (key, {"n": until})

    out["late"] = still(rules.get("late_until_level"))
    out["rebuy"] = bool(rules.get("rebuys")) and still(rules.get("rebuy_until_level")) \
        and not rules.get("addon_done")
    out["reentry"] = bool(rules.get("reentries")) and still(rules.get("reentry_until_level"))
    if out["late"]:
        out["lines"].append(line("entry_late", rules["late_until_level"]))
    if out["rebuy"]:
        out["lines"].append(line("entry_rebuy", rules["rebuy_until_level"]))
    if out["reentry"]:
        out["lines"].append(line("entry_reentry", rules["reentry_until_level"]))
    if rules.get("addon_after_level") is not None:
        out["addon"] = not rules.get("addon_done")
        out["lines"].append(("entry_addon", {"n": rules["addon_after_level"]})
                            if out["addon"] else ("entry_addon_done", {}))
    if still(rules.get("keeps_tables_until")) and summary.get("tables_in_play", 0) > 1:
        out["keeps_tables"] = rules["keeps_tables_until"]
    return out


def applies(summary: dict[str, Any] | None, playing: list[dict[str, Any]],
            entry: dict[str, Any]) -> list[str]:
    """Which forms apply now (the page shows only those): ``running`` (drawn, no champion
    yet), ``open`` (no champion yet), ``chip_race`` (a table's race is due), ``counts``,
    ``rebuy``, ``reentry``, ``finished``."""
    s = summary or {}
    out = []
    if s.get("finished"):
        return ["finished"]
    out.append("open")
    if s.get("drawn"):
        out += ["running", "counts"]
    if any(v.get("chip_race") and not v["chip_race"].get("result") for v in playing):
        out.append("chip_race")
    out += [k for k in ("rebuy", "reentry") if entry.get(k)]
    return out


def day_end(clock: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The end of the day's button (002, ``state/clock`` ``day_end``): ``open`` now, from /
    until (controller time; ``None``: open while the clock stands); ``None``: not in the
    day's last level (or the hands are set)."""
    w = (clock or {}).get("day_end")
    if not w:
        return None
    start, end = w.get("from"), w.get("until")
    is_open = (start is None or start <= now) and (end is None or now <= end)
    return {"open": is_open, "from": start, "until": end, "level": w.get("level")}


def hhmm(at: float | None) -> str:
    """Controller time as the local time of day (``21:07``): the console runs beside it."""
    if at is None:
        return ""
    return time.strftime("%H:%M", time.localtime(at))


def printed_at(at: float, lang: str) -> str:
    """When a sheet was printed, the day too (a results sheet is kept): ``27.11.2026 21:07``
    (German) or ``2026-11-27 21:07``."""
    day = time.strftime("%d.%m.%Y" if lang == "de" else "%Y-%m-%d", time.localtime(at))
    return f"{day} {hhmm(at)}"


def announcement(state: dict[str, dict[str, Any]], now: float) -> dict[str, Any] | None:
    """The banner up at ``now`` (``state/announcement``), or ``None``."""
    a = state.get("announcement") or {}
    if not a.get("text") or (a.get("until") is not None and now >= a["until"]):
        return None
    return a


def offline_screens(clients: dict[str, Any], lang: str) -> list[str]:
    """The screens that are offline in the floor's words ("Tisch 2", "Wand wall-1"), not as
    client ids: a table's by its number, the others by their role and id."""
    out = []
    for key, c in sorted(clients.items()):
        if c.get("online"):
            continue
        if c.get("role") == "table" and c.get("table") is not None:
            out.append((0, int(c["table"]), tr("table_n", lang, n=c["table"])))
        else:
            role = c.get("role")
            label = f"screen_{role}" if role in ("wall", "director") else "screen_other"
            out.append((1, 0, tr(label, lang, id=key)))
    return [text for *_, text in sorted(out)]


def context(state: dict[str, dict[str, Any]], players: list[dict[str, Any]], now: float,
            lang: str, *, link_up: bool, controller_online: bool | None,
            history: list[dict[str, Any]] | None = None,
            desk: dict[str, Any] | None = None) -> dict[str, Any]:
    clock = state.get("clock")
    playing, gone = tables(state, players)
    rows = history_rows(history or [], lang)
    entry = entry_state(state.get("summary"), clock)
    presence = (state.get("presence") or {}).get("clients", {})
    return {
        "lang": lang,
        "now": now,
        "link_up": link_up,
        "controller_online": controller_online,
        "screens_offline": offline_screens(presence, lang),
        "summary": state.get("summary"),
        "clock": clock,
        "left": clock_left(clock, now),
        "break_left": break_left(clock, now),
        "current": level_text((clock or {}).get("current"), lang),
        "next_level": level_text((clock or {}).get("next"), lang),
        "tables": playing,
        "broken": gone,
        "moves": state.get("moves"),
        "results": state.get("results"),
        "players": players,
        "names": sorted(p["name"] for p in players),
        "rebuys": sum(p["rebuys"] for p in players),
        "addons": sum(1 for p in players if p["addon"]),
        "history": rows,
        "last_undo": last_undo(rows),
        "entry": entry,
        "applies": applies(state.get("summary"), playing, entry),
        "seating": seating(state),
        "announcement": announcement(state, now),
        "day_end": day_end(clock, now),  # 002: the last 7-15 minutes of the last level
        # the registration desk (issue 31): waiting list, seat limit, no-shows
        "desk": desk or {"waiting": [], "seats": None, "no_shows": []},
        "structure": structure_rows(state.get("structure"), clock, lang),
        "public_waiting": public_waiting(desk),
    }


def structure_rows(structure: dict[str, Any] | None, clock: dict[str, Any] | None,
                   lang: str) -> list[dict[str, Any]]:
    """The levels and breaks (``state/structure``), each with ``what`` (``Level 3: 100 /
    200 · Ante 25`` or ``Pause · Chipraise 25``), its minutes, and ``now`` on the one the
    clock is in, ``past`` on those played."""
    current = ((clock or {}).get("current") or {}).get("index")
    started = bool((clock or {}).get("started"))
    rows = []
    for lv in (structure or {}).get("levels", []):
        i = lv.get("index")
        rows.append({"what": level_text(lv, lang), "is_break": lv.get("is_break"),
                     "minutes": None if lv.get("seconds") is None else
                     f"{lv['seconds'] / 60:g}".replace(".", "," if lang == "de" else "."),
                     "now": started and i == current,
                     "past": started and current is not None and i is not None
                     and i < current})
    return rows
