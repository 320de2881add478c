"""What the commands did, in words: the director's replies, ``undo`` and ``floorman history``.

Pure functions of the tournament and its log (no I/O, no clock reads: ``now`` is
passed in where the clock is echoed). Every piece is a :class:`Phrase`: a message
key and its parameters, so a screen can translate it one day, and the English
text the director's command line prints today.

- :func:`said`: what a command's events did (``Karl Meier out in place 19
  (table 1 seat 4)``), with the clock after it when the command touched the clock;
- :func:`command`: a command group named as a thing (``bust of Karl Meier,
  table 1 seat 4, place 19``): what an undo takes back;
- :func:`undone`: the answer of an undo (``bust of … undone``);
- :func:`recent`: the last commands with their numbers (the ``target`` of
  ``undo``), what they did and whether they were undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.engine import clock as clk
from controller.engine.events import Record

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

#: groups made by the passing time alone, never by a command (``undo`` cannot take them)
SYSTEM = frozenset({"opened", "level_started", "ghosts_removed", "absent_removed", "addon",
                    "undo"})
#: a reply lists at most this many phrases, then "… and N more"
MAX_PHRASES = 6


@dataclass(frozen=True)
class Phrase:
    """One thing said: ``key`` and ``params`` for a translation, ``text`` in English."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params, "text": self.text}

    def __str__(self) -> str:
        return self.text


class Steps(tuple[tuple[int, Phrase], ...]):
    """Commands by their event number, as a reason names them: ``#12 bust …; #14 …``."""

    def __str__(self) -> str:
        return "; ".join(f"#{g} {p.text}" for g, p in self)

    def as_dict(self) -> list[dict[str, Any]]:
        return [{"event": g, **p.as_dict()} for g, p in self]


def line(phrases: list[Phrase]) -> str:
    """The phrases as one reply line (``ok`` when there is nothing to say)."""
    texts = [p.text for p in phrases]
    if len(texts) > MAX_PHRASES:
        texts = texts[:MAX_PHRASES - 1] + [f"… and {len(texts) - MAX_PHRASES + 1} more"]
    return "; ".join(texts) or "ok"


# ------------------------------------------------------------------- helpers
def name(t: Tournament, pid: int, before: int | None = None) -> str:
    """A player's name: as the state has it, or (an unregistered or undone player) as the
    log last gave it before event ``before``."""
    p = t.players.get(pid)
    if p is not None and before is None:
        return p.name
    found = p.name if p is not None else f"player {pid}"
    for e in t.log:
        if before is not None and e["seq"] >= before:
            break
        if e["type"] in ("registered", "renamed", "waitlisted") and e.get("player") == pid:
            found = e["name"]
    return found


def undone_groups(t: Tournament) -> dict[int, int]:
    """Undone group → the seq of its undo."""
    return {e["target"]: e["seq"] for e in t.log if e["type"] == "undo"}


def group(t: Tournament, number: int) -> list[Record]:
    """The events of one command group, in order (the log is in seq order)."""
    start = number - 1
    if not 0 <= start < len(t.log):
        return []
    out = []
    for e in t.log[start:]:
        if e["group"] != number:
            break
        out.append(e)
    return out


def is_command(events: list[Record]) -> bool:
    """A group a command made (it has an event the time alone never makes)."""
    return any(not (e["type"] in SYSTEM or (e["type"] == "time_call" and e.get("op") == "expire"))
               for e in events)


def clock_now(t: Tournament, now: float) -> Phrase:
    """The level and its time left at ``now``: ``level 3 100/200: 12:30 left (running)``."""
    from controller.engine.rules.clock import level_name, mmss

    s = t.settings.structure
    c = clk.at(t.clock, s, now)
    lv = s[c.level]
    left = clk.left(t.clock, s, now)
    what = level_name(t, c.level)
    blinds = "" if lv.is_break else f" {lv.small_blind}/{lv.big_blind}" + (
        f"/{lv.ante}" if lv.ante else "")
    state = "running" if c.running else ("paused" if c.started else "not started")
    when = "no end" if left is None else f"{mmss(left)} left"
    return Phrase("clock_now", {"level": t.level_number(c.level), "is_break": lv.is_break,
                                "small_blind": lv.small_blind, "big_blind": lv.big_blind,
                                "ante": lv.ante, "left": left, "state": state},
                  f"{what}{blinds}: {when} ({state})")


# ------------------------------------------------------------ one event each
def event(t: Tournament, e: Record, places: dict[int, int] | None = None) -> Phrase | None:
    """What one event did (``None``: nothing worth a word, e.g. a level the time began)."""
    from controller.engine.rules.clock import mmss

    typ = e["type"]
    if typ in DESK:
        return desk(t, e)
    if typ == "busted":
        who = name(t, e["player"])
        pl = (places or {}).get(e["player"])
        where = f"table {e['table']}" + (f" seat {e['seat']}" if e.get("seat") else "")
        return Phrase("busted", {"player": who, "place": pl, "table": e["table"],
                                 "seat": e.get("seat")},
                      # the place says it all (the table screen knows where it is);
                      # without one (an undone bust in the history) the seat says who
                      f"{who} out in place {pl}" if pl else f"{who} out ({where})")
    if typ == "registered":
        return Phrase("registered", {"player": e["name"]}, f"registered {e['name']}")
    if typ == "renamed":
        old = name(t, e["player"], before=e["seq"])
        return Phrase("renamed", {"old": old, "name": e["name"]}, f"{old} renamed {e['name']}")
    if typ == "unregistered":
        who = name(t, e["player"], before=e["seq"])
        return Phrase("unregistered", {"player": who}, f"{who} taken off the list")
    if typ in ("late_entry", "reentry", "rebuy"):
        who = name(t, e["player"])
        word = {"late_entry": "late entry", "reentry": "re-entry", "rebuy": "rebuy"}[typ]
        return Phrase(typ, {"player": who, "table": e["table"], "seat": e["seat"]},
                      f"{word} of {who} at table {e['table']} seat {e['seat']}")
    if typ == "moved":
        who = name(t, e["player"])
        return Phrase("moved", {"player": who, "from_table": e["from_table"],
                                "from_seat": e["from_seat"], "to_table": e["to_table"],
                                "to_seat": e["to_seat"]},
                      f"move {who}: table {e['from_table']} seat {e['from_seat']} → "
                      f"table {e['to_table']} seat {e['to_seat']}")
    if typ == "reseated":
        who = name(t, e["player"])
        return Phrase("reseated", {"player": who, "from_table": e["from_table"],
                                   "from_seat": e["from_seat"], "to_table": e["to_table"],
                                   "to_seat": e["to_seat"], "reason": e["reason"]},
                      f"reseat {who}: table {e['from_table']} seat {e['from_seat']} → "
                      f"table {e['to_table']} seat {e['to_seat']} ({e['reason']})")
    if typ == "dealt_in":  # 003 12: the player does not sit out
        who = name(t, e["player"])
        waits = bool(e.get("waits"))  # the seat lies between the button and the small blind
        return Phrase("dealt_in", {"player": who, "table": e["table"], "seat": e["seat"],
                                   "waits": waits},
                      f"{who} is dealt in at once at table {e['table']} seat {e['seat']}"
                      + ("; the seat still waits for the button as every arrival's between "
                         "the button and the small blind (000 4.10)" if waits else ""))
    if typ == "seats_reserved":
        seats = e.get("add") or e.get("release") or []
        where = ", ".join(f"table {n} seat {s}" for n, s in seats)
        return Phrase("seats_reserved", {"count": e["count"], "reason": e["reason"],
                                         "seats": seats, "released": bool(e.get("release"))},
                      f"reserve seats: {e['count']}" + (f" ({where} given back)"
                                                        if e.get("release") else
                                                        f" (kept free: {where})" if where
                                                        else "") + f" ({e['reason']})")
    if typ == "seated":
        who = name(t, e["player"])
        return Phrase("seated", {"player": who}, f"{who} seated")
    if typ == "table_opened":
        return Phrase("table_opened", {"table": e["table"], "players": len(e["moves"]) + 1},
                      f"table {e['table']} opens with {len(e['moves']) + 1} players")
    if typ == "table_broken":
        return Phrase("table_broken", {"table": e["table"]}, f"table {e['table']} breaks")
    if typ == "final_table":
        return Phrase("final_table", {"table": e["table"]}, f"final table at table {e['table']}")
    if typ == "seats_drawn":
        tables = len({row[1] for row in e["seats"]})
        return Phrase("seats_drawn", {"tables": tables},
                      f"seats drawn: {tables} table{'' if tables == 1 else 's'}")
    if typ == "hand_done":
        missed = bool(e.get("missed"))  # a bust caught up the hand done nobody pressed
        return Phrase("hand_done", {"table": e["table"], "missed": missed},
                      f"table {e['table']}: hand done"
                      + (" (the missed one, caught up)" if missed else ""))
    if typ == "hands_left" and e.get("card") is not None:  # the end of the day (002)
        return Phrase("day_end_card", {"count": e["count"]},
                      f"end of the day: a {e['count']} drawn, {e['count']} more hands a table")
    if typ == "hands_left":
        return Phrase("hands_left", {"count": e["count"]}, f"{e['count']} more hands a table")
    if typ == "colour_up":  # 002 "jederzeit"
        return Phrase("colour_up", {"leaving": e["leaving"], "new": e["new"]},
                      f"colour-up: the {e['leaving']} chips leave for {e['new']}")
    if typ == "time_call" and e.get("action"):  # 001 §1 VI, 002 shot clock
        return Phrase("action_clock", {"table": e["table"], "seconds": e["seconds"]},
                      f"table {e['table']}: action clock {e['seconds']} s")
    if typ == "time_call":
        return Phrase("time_call", {"table": e["table"], "op": e["op"]},
                      f"table {e['table']}: time call {e['op']}")
    if typ == "chip_race":  # 000 3.17
        wins = [f"seat {s} +{n}" for s, n in zip(e["winners"], e["won"], strict=True)]
        wins += [f"seat {s} keeps one" for s in e["saved"]]
        gone = list(zip(e.get("absent") or (), e.get("lost") or (), strict=True))
        return Phrase("chip_race", {"table": e["table"], "leaving": e["leaving"],
                                    "new": e["new"], "winners": e["winners"], "won": e["won"],
                                    "saved": e["saved"],
                                    **({"absent": [[s, n] for s, n in gone]} if gone else {})},
                      f"table {e['table']}: chip race {e['leaving']} → {e['new']}: "
                      + (", ".join(wins) or "no new chip")
                      + "".join(f", seat {s} absent loses {n}" for s, n in gone))
    if typ == "hfh":
        return Phrase("hfh", {"on": e["on"], "reason": e["reason"]},
                      "hand-for-hand " + ("on" if e["on"] else "off") + f" ({e['reason']})")
    if typ == "hfh_released":
        return Phrase("hfh_released", {"hand": e["hand"]},
                      f"hand-for-hand hand {e['hand']}: deal")
    if typ == "finished" and e.get("shared"):  # 001 §2 III: the two left both qualify
        who_all = [name(t, p) for p in e["shared"]]
        return Phrase("qualified", {"players": who_all}, "qualified: " + ", ".join(who_all))
    if typ == "finished":
        who = name(t, e["winner"])
        return Phrase("finished", {"player": who}, f"champion: {who}")
    if typ == "table_game":
        at = ", ".join(str(n) for n in e["tables"])
        return Phrase("table_game", {"game": e["game"], "tables": e["tables"]},
                      f"table game {e['game']} at table {at}")
    if typ == "table_game_over":
        who = name(t, e["winner"])
        return Phrase("table_game_over", {"game": e["game"], "player": who},
                      f"table game {e['game']} won by {who}")
    if typ == "chips_counted":  # chip counts (rules/chip_counts.py)
        n = len(e["stacks"])
        return Phrase("chips_counted", {"count": n, "reason": e["reason"]},
                      f"{n} stack{'s' if n != 1 else ''} counted")
    if typ == "round_ended":  # play the clock, restart, multi-round (rules/rounds.py)
        how = ("chips" if e.get("standings") is not None
               else "points" if e.get("tables") is not None else "lot")
        said = {"chips": "the chips decide", "points": "the final tables by points",
                "lot": "new seats by lot"}[how]
        return Phrase("round_ended", {"round": e["round"], "how": how},
                      f"round {e['round']} over: {said}")
    if typ == "start_stacks":  # a Landesliga final (rules/landesliga.py)
        n = len(e["stacks"])
        return Phrase("start_stacks", {"count": n},
                      f"start stacks from points for {n} player{'s' if n != 1 else ''}")
    if typ == "table_decided":
        who = name(t, e["winner"])
        return Phrase("table_decided", {"table": e["table"], "player": who},
                      f"table {e['table']} decided: {who}")
    if typ == "absent":
        who = name(t, e["player"])
        return Phrase("absent", {"player": who, "on": e["on"]},
                      f"{who} played as a ghost" if e["on"] else f"{who} is back")
    if typ == "absent_removed":
        who_all = [name(t, p) for p in e["players"]]
        chips = sum(e["chips"]) if e.get("chips") is not None else None
        return Phrase("absent_removed", {"players": who_all, "chips": chips},
                      "removed after 2 h absent: " + ", ".join(who_all) + _leave(chips))
    if typ == "addon":
        return Phrase("addon", {"players": len(e["players"]), "chips": e["chips"]},
                      f"add-on: {e['chips']} chips each for {len(e['players'])} players")
    if typ == "ghosts_removed":
        chips = sum(e["chips"]) if e.get("chips") is not None else None
        return Phrase("ghosts_removed", {"count": len(e["players"]), "chips": chips},
                      f"{len(e['players'])} ghost seats removed" + _leave(chips))
    if typ == "deal":  # a deal at the final table (rules/final_deal.py)
        from controller.engine.settings import cents_text

        n = len(e["shares"])
        money = t.settings.money
        cur = money.currency if money is not None else ""
        how = {"icm": "ICM", "chip_chop": "chip chop"}.get(e["method"], "own split")
        return Phrase("deal", {"players": n, "method": e["method"], "currency": cur,
                               "played_for": cents_text(e["played_for"])},
                      f"deal ({how}) of {n} players, {cents_text(e['played_for'])} {cur} "
                      "played for")
    if typ == "chips_corrected":
        return Phrase("chips_corrected", {"change": e["change"], "reason": e["reason"]},
                      f"chips in play corrected by {e['change']:+,} ({e['reason']})")
    if typ == "heads_up":
        return Phrase("heads_up", {}, "heads-up")
    if typ == "structure_changed":
        return Phrase("structure_changed", {"change": e["change"]}, f"structure: {e['change']}")
    if typ == "clock":
        op, value = e["op"], e.get("value")
        if op == "add":
            v = float(value or 0)
            return Phrase("time_added", {"seconds": v},
                          f"{mmss(abs(v))} " + ("added" if v >= 0 else "removed"))
        if op == "set":
            return Phrase("time_set", {"seconds": value}, f"time set to {mmss(value or 0)}")
        word = {"start": "clock started", "pause": "clock paused", "resume": "clock resumed",
                "level": "level changed"}[op]
        return Phrase(f"clock_{op}", {}, word)
    if typ == "announced":
        if not e["text"]:
            return Phrase("announcement_cleared", {}, "announcement taken down")
        until = e.get("until")
        return Phrase("announced", {"text": e["text"], "until": until,
                                    "seconds": None if until is None else until - e["at"]},
                      f"announced “{e['text']}”"
                      + ("" if until is None else f" for {mmss(until - e['at'])}"))
    if typ in ("penalty", "disqualified", "field_warning"):
        return _floor_duty(t, e)
    if typ == "undo":
        return Phrase("undo", {"event": e["target"]}, f"undone event {e['target']}")
    if typ in ("level_started", "opened"):
        return None
    return Phrase(typ, {}, typ.replace("_", " "))


def _leave(chips: int | None) -> str:
    """What left play with removed ghosts or absent players (a log written before: no
    figure)."""
    return "" if chips is None else f" ({chips:,} chips leave play)"


# ------------------------------------------------- the registration desk (issue 31)
#: the desk's events (rules/desk.py)
DESK = frozenset({"waitlisted", "waiting_called", "waiting_left", "capacity_set", "expected",
                  "checked_in", "no_shows", "bumped", "age_confirmed", "elsewhere"})


def desk(t: Tournament, e: Record) -> Phrase | None:
    """What one event of the registration desk did."""
    typ = e["type"]
    if typ == "no_shows":
        return Phrase("no_shows", {"players": e["names"]},
                      "no-shows (not arrived by the draw): " + ", ".join(e["names"]))
    if typ == "capacity_set":
        seats = e.get("seats")
        return Phrase("capacity_set", {"seats": seats},
                      "no seat limit" if seats is None else f"seat limit {seats}")
    who = name(t, e["player"])
    if typ == "expected":
        return Phrase("expected", {"player": who}, f"{who} pre-registered, expected")
    if typ == "waitlisted":
        at = next((i for i, w in enumerate(t.desk.waiting, 1) if w.id == e["player"]), None)
        return Phrase("waitlisted", {"player": who, "position": at},
                      f"{who} on the waiting list" + (f" (position {at})" if at else ""))
    if typ == "waiting_called":
        return Phrase("waiting_called", {"player": who},
                      f"{who} called from the waiting list: a seat is free")
    if typ == "bumped":
        return Phrase("bumped", {"player": who},
                      f"{who} to the head of the waiting list: a member registered a week "
                      "ahead has the seat (000 2.3)")
    if typ == "waiting_left":
        return Phrase("waiting_left", {"player": who}, f"{who} taken off the waiting list")
    if typ == "age_confirmed":  # 000 1.1, 003 1
        return Phrase("age_confirmed", {"player": who}, f"{who}: 18 or older, confirmed")
    if typ == "elsewhere":  # 001 §1 III
        where = e["tournament"]
        if e.get("done"):
            return Phrase("elsewhere_done", {"player": who, "tournament": where},
                          f"{who} is done at {where}: plays here now")
        return Phrase("elsewhere", {"player": who, "tournament": where},
                      f"{who} plays at {where} first (started earlier, 001 §1 III)")
    return Phrase("checked_in", {"player": who}, f"{who} checked in")


def said(t: Tournament, events: list[Record], now: float | None = None) -> list[Phrase]:
    """What a command's ``events`` did, one phrase each; with ``now``, a command that
    changed the clock (start, pause, resume, level, time) ends with the level and its
    time left after it. An undo is named
    by what it undid (:func:`undone`)."""
    places = t.places_of(e["player"] for e in events if e["type"] == "busted")
    out = _phrases(t, events, places, lambda t, e, places: undone(t, e))
    if now is not None and any(e["type"] == "clock" for e in events):
        out.append(clock_now(t, now))
    return out


def _phrases(t: Tournament, events: list[Record], places: dict[int, int] | None,
             undo: Any) -> list[Phrase]:
    """One phrase an event, a batch of registrations as one; ``undo(t, e, places)`` names
    an undo event."""
    reg = [e["name"] for e in events if e["type"] == "registered"]
    out: list[Phrase] = []
    if len(reg) > 1:
        out.append(Phrase("registered_many", {"count": len(reg), "players": reg},
                          f"registered {len(reg)} players: {', '.join(reg)}"))
    # pre-registrations (rules/desk.py) as one phrase too
    exp = [name(t, e["player"]) for e in events if e["type"] == "expected"]
    if len(exp) > 1:
        out.append(Phrase("expected_many", {"count": len(exp), "players": exp},
                          f"{len(exp)} pre-registered, expected: {', '.join(exp)}"))
    # the ages a registration's batch confirmed (000 1.1) as one phrase too
    ages = [name(t, e["player"]) for e in events if e["type"] == "age_confirmed"]
    if len(ages) > 1:
        out.append(Phrase("age_confirmed_many", {"count": len(ages), "players": ages},
                          f"18 or older, confirmed: {', '.join(ages)}"))
    for e in events:
        if (e["type"] == "registered" and len(reg) > 1) or \
                (e["type"] == "expected" and len(exp) > 1) or \
                (e["type"] == "age_confirmed" and len(ages) > 1):
            continue
        p = undo(t, e, places) if e["type"] == "undo" else event(t, e, places)
        if p is not None:
            out.append(p)
    return out


# --------------------------------------------------------------- a command as a thing
def command(t: Tournament, number: int, places: dict[int, int] | None = None) -> Phrase:
    """Command group ``number`` named as a thing: ``bust of Karl Meier, table 1 seat 4,
    place 19``; ``places``: the places to name (by default the state's)."""
    events = group(t, number)
    if not events:
        return Phrase("event", {"event": number}, f"event {number}")
    types = {e["type"] for e in events}
    main = next((e for e in events if e["type"] not in SYSTEM), events[0])
    typ = "hand_done" if "hand_done" in types and "busted" not in types else main["type"]
    if typ == "busted":
        busts = [e for e in events if e["type"] == "busted"]
        places = t.places() if places is None else places
        each = [{"player": name(t, b["player"]), "table": b["table"], "seat": b.get("seat"),
                 "place": places.get(b["player"])} for b in busts]
        parts = [f"{b['player']}, table {b['table']}" + (f" seat {b['seat']}" if b["seat"] else "")
                 + (f", place {b['place']}" if b["place"] else "") for b in each]
        return Phrase("bust", {**each[0], "busts": each}, "bust of " + "; ".join(parts))
    if typ == "registered" and "late_entry" in types:
        entries = [p for p in _phrases(t, events, places, event) if p.key == "late_entry"]
        return Phrase("late_entries", {"players": [p.params["player"] for p in entries]},
                      "; ".join(p.text for p in entries))
    if typ == "registered":
        names = [e["name"] for e in events if e["type"] == "registered"]
        return Phrase("registration", {"players": names},
                      "registration of " + ", ".join(names))
    phrases = _phrases(t, events, places, event)
    if typ == "hand_done":
        hd = next(e for e in events if e["type"] == "hand_done")
        also = [p for p in phrases if p.key != "hand_done"]
        return Phrase("hand_done", {"table": hd["table"], "with": [p.as_dict() for p in also]},
                      f"hand done at table {hd['table']}"
                      + (f" (with: {'; '.join(p.text for p in also)})" if also else ""))
    return Phrase(phrases[0].key if phrases else typ, phrases[0].params if phrases else {},
                  line(phrases) if phrases else typ.replace("_", " "))


def undone(t: Tournament, undo_event: Record) -> Phrase:
    """What an undo took back, as the floor saw it just before (a bust's place then)."""
    target = undo_event["target"]
    if t.undone_as is not None and t.undone_as[0] == undo_event["seq"]:
        what = t.undone_as[1]  # named by the undo itself, before it took the command back
    else:
        # the log in memory was checked when it was read and is extended only by this
        # engine
        what = command(t.refold(undo_event["seq"] - 1), target)
    return _undone_phrase(t, undo_event, what, f"{what.text} undone (event {target})")


def _undone_phrase(t: Tournament, undo_event: Record, what: Phrase, text: str) -> Phrase:
    """An undo's phrase, with the balancing moves it withdrew and those that stay
    (rules/undo.py): ``…; withdrawn: move Anna: table 2 seat 5 → table 1 seat 3``."""
    params: dict[str, Any] = {"event": undo_event["target"], "what": what.as_dict()}
    for key, word in (("withdrawn", "withdrawn"), ("stays", "stays (carried out)")):
        moves = [p for s in undo_event.get(key) or ()
                 if 0 < s <= len(t.log) and (p := event(t, t.log[s - 1])) is not None]
        if moves:
            params[key] = [p.as_dict() for p in moves]
            text += f"; {word}: " + "; ".join(p.text for p in moves)
    return Phrase("undone", params, text)


# --------------------------------------------------------------------- history
def recent(t: Tournament, count: int = 20) -> list[dict[str, Any]]:
    """The last ``count`` groups, newest last: a command (``undo`` takes its ``event``) or
    what the time made by itself (``by_itself``), what it did, and who undid it."""
    # from the end back, group by group (a group's events stand together): a festival's
    # history is asked after every change, its log has tens of thousands of events. Every
    # undo of a listed group comes after it, so it is seen before the group is.
    undone_by: dict[int, int] = {}
    picked: list[list[Record]] = []
    end = len(t.log)
    while end > 1 and len(picked) < count:
        number = t.log[end - 1]["group"]
        events = t.log[number - 1:end]
        end = number - 1
        undone_by.update((e["target"], e["seq"]) for e in events if e["type"] == "undo")
        if events[0]["type"] == "opened" or all(e["type"] == "level_started" for e in events):
            continue  # the time rolled a level over: the clock shows it
        picked.append(events)
    places = t.places_of(e["player"] for events in picked if events[0]["group"] not in undone_by
                         for e in events if e["type"] == "busted")
    rows: list[dict[str, Any]] = []
    for events in picked:
        first = events[0]
        number = first["group"]
        by = undone_by.get(number)
        # an undo is named by its target as the log has it (no replay per row)
        said_ = _phrases(t, events, None if by else places,
                         lambda t, e, places: _undo_row(t, e))
        rows.append({"event": number, "at": first["at"], "by_itself": not is_command(events),
                     "undone_by": by, "text": line(said_),
                     "phrases": [p.as_dict() for p in said_]})
    rows.reverse()
    return rows


def _undo_row(t: Tournament, e: Record) -> Phrase:
    what = command(t, e["target"], places={})
    return _undone_phrase(t, e, what, f"undone: {what.text} (event {e['target']})")


def _floor_duty(t: Tournament, e: Record) -> Phrase:
    """A penalty, a disqualification (rules/penalties.py) or a field warning (field_size)."""
    from controller.engine.rules.clock import mmss

    typ = e["type"]
    if typ == "field_warning":
        lo, hi = e.get("min_players"), e.get("max_players")
        span = f"{lo or 1}-{hi}" if hi is not None else f"at least {lo}"
        return Phrase("field_warning", {"players": e["players"], "min": lo, "max": hi},
                      f"warning: {e['players']} players, this tournament is made for {span} "
                      "(001 §2)")
    who = name(t, e["player"])
    why = f" ({e['reason']})" if e.get("reason") else ""
    if typ == "disqualified":
        return Phrase("disqualified", {"player": who, "chips": e["chips"], "reason": e["reason"]},
                      f"{who} disqualified, {e['chips']} chips leave play{why}")
    what = e["what"]
    if what == "warning":
        return Phrase("penalty_warning", {"player": who, "reason": e["reason"]},
                      f"warning for {who}{why}")
    if what == "owed_blinds":
        return Phrase("penalty_owed_blinds", {"player": who, "reason": e["reason"]},
                      f"{who} owes the blinds (000 4.11){why}")
    if e.get("until") is not None:
        minutes = (e["until"] - e["at"]) / 60
        length = f"for {mmss(e['until'] - e['at'])} min"
        params: dict[str, Any] = {"player": who, "minutes": round(minutes, 2)}
    else:
        orbits = e.get("orbits")
        length = (f"{orbits} orbit{'s' if orbits != 1 else ''} ({e['hands']} hands)"
                  if orbits else f"{e['hands']} hands")
        params = {"player": who, "hands": e["hands"], "orbits": orbits}
    return Phrase("penalty_sit_out", {**params, "reason": e["reason"]},
                  f"{who} sits out {length}{why}")
