"""What the screens are told: the tournament state as retained MQTT payloads.

Each function turns the engine's state at controller time ``now`` into one
JSON-able payload of the protocol (see ``docs/protocol.md``). A screen that
connects draws the right picture from these retained messages alone. Names of
non-members are shortened on every public screen (000 5.8).
"""

from __future__ import annotations

from typing import Any

from controller.engine import clock as clk
from controller.engine.points import public_name
from controller.engine.rules import (
    bounties,
    busts,
    chip_counts,
    chip_race,
    dealing,
    desk,
    hands,
    penalties,
    reserve,
)
from controller.engine.settings import Level
from controller.engine.tournament import Tournament

SCHEMA = 1


def level_info(level: Level, index: int, number: int) -> dict[str, Any]:
    return {
        "index": index,
        "number": number,
        "is_break": level.is_break,
        "seconds": level.seconds,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ante_type": level.ante_type,
        "note": level.note,
    }


def structure_view(t: Tournament) -> dict[str, Any]:
    """The whole blind structure, so a kiosk can roll levels over while offline."""
    s = t.settings
    return {
        "v": SCHEMA,
        "name": s.name,
        "language": s.language,
        "levels": [level_info(lv, i, t.level_number(i)) for i, lv in enumerate(s.structure)],
        "time_call": {"seconds": s.time_call.seconds, "countdown": s.time_call.countdown,
                      "red_seconds": s.time_call.red_seconds},
    }


def clock_view(t: Tournament, now: float) -> dict[str, Any]:
    """The clock anchor: "level N ends at T" (running) or "paused with R left"."""
    s = t.settings.structure
    c = clk.at(t.clock, s, now)
    nxt = c.level + 1 if c.level + 1 < len(s) else None
    brk = clk.next_break(c, s, now)
    return {
        "v": SCHEMA,
        "level": c.level,
        "running": c.running,
        "started": c.started,
        "ends_at": c.ends_at,
        "remaining": c.remaining if not c.running else None,
        "halved": c.halved,
        "current": level_info(s[c.level], c.level, t.level_number(c.level)),
        "next": None if nxt is None else level_info(s[nxt], nxt, t.level_number(nxt)),
        # an anchor too: controller time the next break starts (running) or seconds to it (paused)
        "break_at": None if brk is None or not c.running else round(now + brk, 3),
        "break_in": None if brk is None or c.running else brk,
        # sent while so, so the screens of every other moment stay as they were:
        **_chip_race_call(t, now), **_day_end(t, now),
    }


def _chip_race_call(t: Tournament, now: float) -> dict[str, Any]:
    """The chip race announced before a colour-up break (002: 2-3 minutes before): the
    screens show it from ``from`` until ``until`` (controller time; ``None``: now, the
    clock stopped in the window)."""
    w = chip_race.call_window(t, now)
    if w is None:
        return {}
    return {"chip_race_call": {"leaving": w.leaving, "new": w.new, "from": w.start,
                               "until": w.end}}


def _day_end(t: Tournament, now: float) -> dict[str, Any]:
    """When the end of the day may be drawn (002: the last 7-15 minutes of the last level):
    the console's button is active from ``from`` until ``until`` (controller time; both
    ``None``: now, the clock stopped in the window)."""
    w = hands.day_end_window(t, now)
    if w is None:
        return {}
    running = t.clock.running
    return {"day_end": {"from": w[0] if running else None, "until": w[1] if running else None,
                        "level": t.level_number(hands.last_level(t) or 0)}}


def _name(t: Tournament, pid: int) -> str:
    p = t.players[pid]
    # a ghost seat ("Ghost 2") is no guest to shorten into "Ghost 2."
    return public_name(p.name, p.member or p.ghost)


def _move(t: Tournament, m: Any) -> dict[str, Any]:
    d = m.as_dict()
    d["player"] = _name(t, m.player)
    return d


def hfh_view(t: Tournament) -> dict[str, Any]:
    h = t.hfh
    return {
        "on": h.on,
        "hand": h.hand if h.on else None,
        "done": sorted(h.done) if h.on else [],
        "playing": sorted(set(t.tables) - h.done) if h.on else [],
        "hands_played": h.hands_played,
    }


def summary_view(t: Tournament) -> dict[str, Any]:
    """Players left, entries, average stack, the places that count, hand-for-hand."""
    left = t.remaining
    winner = t.winner
    held = reserve.held(t)
    return {
        "v": SCHEMA,
        "name": t.settings.name,
        "language": t.settings.language,
        "drawn": t.drawn,
        "finished": t.finished,
        "champion": None if winner is None else _name(t, winner),
        "players_left": left,
        "entries": t.entries,
        "average_stack": round(t.chips / left) if left else 0,
        "chips_in_play": t.chips,
        "places_paid": t.bubble_places(),
        # a count, not the list: the summary goes to every screen at every bust, and at a
        # festival the numbers of 1,000 tables are 4 KB each screen never draws (the
        # director's status has the list; a wall's hand-for-hand lists its tables)
        "tables_in_play": len(t.tables),
        "final_table": t.final_table,
        "hand_for_hand": hfh_view(t),
        "hands_left": t.hands_left,
        # every table played its last hand of the day (002); sent once the hands are set
        **({} if t.hands_left is None else {"day_over": hands.day_over(t)}),
        "chip_leader": _chip_leader(t),
        "round": _round(t),
        "entry_rules": _entry_rules(t),
        "desk": _desk(t),
        # the seats the director keeps for late arrivals (002), sent while there are any
        **({"reserve": held} if held else {}),
        # a tournament for money only: a points club's screens get no money key at all
        **({} if t.settings.money is None else {"prize_pool": _prize_pool(t)}),
    }


def _desk(t: Tournament) -> dict[str, Any]:
    """The registration desk (rules/desk.py): the seat limit (``None``: none; the seats
    taken are ``players_left``), how many wait and how many pre-registered players are
    still expected (counts only: the summary goes to every screen; the names are in the
    ``players`` answer)."""
    return {"seats": desk.limit(t), "waiting": len(t.desk.waiting),
            "expected": len(desk.expected(t))}


def _prize_pool(t: Tournament) -> dict[str, Any] | None:
    """A tournament for money (issue 30): the pool, the paid places, the wall's ladder and
    the place the next player out takes; ``None`` for points only (no money shows)."""
    from controller.engine.rules.payouts import ladder
    from controller.engine.rules.prize_pool import prize_pool

    pool = prize_pool(t)
    if pool is None:
        return None
    # no "final" here: it changes with the level, and a level change republishes the
    # clock and the tables only (entry_rules says until which level the field grows)
    return {"currency": pool.currency, "pool": pool.pool, "paid_places": pool.paid_places,
            # after a deal at the final table each player left has their amount: the next
            # player out no longer takes the ladder's place amount (rules/final_deal.py)
            "next_place": t.remaining if not t.finished and t.deal is None else None,
            # while it stands, the part still played for (the winner's); absent: no deal
            **({} if t.deal is None or t.finished
               else {"deal": {"played_for": t.deal.played_for,
                              # each dealt player's own amount, the largest first
                              "players": [{"player_id": pid, "name": _name(t, pid),
                                           "amount": cents}
                                          for pid, _, cents in sorted(
                                              t.deal.shares, key=lambda s: (-s[2], s[0]))]}}),
            "ladder": [list(row) for row in ladder(pool.payouts, t.remaining)],
            # the players' page's whole ladder: every paid place (a festival's thousand
            # paid places would go to every screen at every bust: then the ladder only)
            **({"payouts": list(pool.payouts)} if pool.paid_places <= FULL_LADDER else {}),
            **({"tickets": pool.tickets} if pool.ticket is not None else {})}


#: the most paid places the summary lists whole (``payouts``): 300 places are ~2 KB
FULL_LADDER = 300


def _entry_rules(t: Tournament) -> dict[str, Any]:
    """Until which level the field may still grow (late registration, rebuys, re-entries;
    ``None``: none of that kind), when the add-on is and whether it was given: what the
    director's console shows as the entries' state. ``keeps_tables_until``: the last level
    with entries open, while which no table breaks (rules/seating.py entries_open)."""
    e = t.settings.entries
    late = e.late_registration_levels or None
    rebuys = e.rebuy_until_level if e.rebuys else None
    reentries = e.reentry_until_level if e.reentries else None
    open_until = [n for n in (late, rebuys, reentries) if n is not None]
    has_addon = bool(e.auto_addon_multiplier) and e.addon_after_level is not None
    return {"late_until_level": late, "rebuys": e.rebuys, "rebuy_until_level": rebuys,
            "reentries": e.reentries, "reentry_until_level": reentries,
            "addon_after_level": e.addon_after_level if has_addon else None,
            "addon_done": t.addon_done,
            "keeps_tables_until": max(open_until) if open_until else None}


def _chip_leader(t: Tournament) -> dict[str, Any] | None:
    """The most chips among the known counts (rules/chip_counts.py), for the wall."""
    from controller.engine.rules import chip_counts

    lead = chip_counts.leader(t)
    if lead is None:
        return None
    # money bounties (issue 30): the leader's head, what the room hunts
    head = {"bounty": t.players[lead[0]].bounty} if bounties.price(t) > 0 else {}
    return {"name": _name(t, lead[0]), "chips": lead[1], **head}


def _round(t: Tournament) -> dict[str, Any] | None:
    """The round in play of play the clock, restart or multi-round (rules/rounds.py); past
    the preliminary rounds only multi-round's final is one."""
    from controller.engine.rules import rounds

    kind = t.settings.mode.kind
    if kind not in rounds.ROUND_MODES:
        return None
    of = rounds.RESTART_ROUNDS if kind == rounds.RESTART else t.settings.mode.rounds
    if t.rounds.number > of and kind != rounds.MULTI_ROUND:
        return None  # the preliminary rounds are over: a tournament like any other
    return {"mode": kind, "number": t.rounds.number, "of": of}


def table_view(t: Tournament, number: int, *, plan: dict[str, Any] | None = None,
               pending: list[Any] | None = None, now: float | None = None) -> dict[str, Any]:
    """One table: seats and names, button and blinds, moves in and out, notices.

    ``plan`` (:meth:`Tournament.plan`) and ``pending`` (:meth:`Tournament.pending_moves`)
    may be passed in when every table is drawn at once: both cost time in the number of
    tables, so computing them per table made a publish quadratic in the tables.
    ``now`` (controller time, s) decides ``hand_done_due``; without it that is false.
    """
    tab = t.tables.get(number)
    pending = t.pending_moves() if pending is None else pending
    # a seat change within the table (final-table redraw) is shown once, as a move in
    moves_out = [_move(t, m) for m in pending
                 if m.from_table == number and m.to_table != number]
    if tab is None:
        return {"v": SCHEMA, "table": number, "in_play": False, "broken": number in t.broken,
                "final_table": t.final_table, "moves_out": moves_out, "seats": []}
    incoming = {m.to_seat for m in pending if m.to_table == number}
    nb, nsb, nbb = tab.next_positions()
    plan = t.plan() if plan is None else plan
    notices = []
    if plan["break_table"] == number:
        notices.append("breaks")
    if tab.final:
        notices.append("final_table")
    elif plan["final_table_due"]:
        notices.append("final_table_next")
    tc = tab.time_call
    busts_here = busts.hand_busts(t, tab)
    heads = bounties.price(t) > 0
    return {
        "v": SCHEMA,
        "table": number,
        "in_play": True,
        "final": tab.final,
        "size": tab.size,
        "seats": [
            {"seat": s, "player_id": pid, "name": _name(t, pid),
             "ghost": t.players[pid].ghost, "waiting": s in tab.waiting, "incoming": s in incoming,
             # played as a ghost while away (000 9.5): dealt in and folded; sent while true,
             # so the examples and the screens of every other night stay as they were
             **({"absent": True} if t.players[pid].absent_since is not None else {}),
             # moved after posting a blind, sits out until the button passes (003 12): the
             # director may deal the player in at once (``deal_in``); sent while true
             **({"sits_out": True} if s in tab.sits_out else {}),
             # money bounties (issue 30): what busting this player wins now (a progressive
             # head grows); only where the tournament plays them
             **({"bounty": t.players[pid].bounty, "bounty_won": t.players[pid].bounty_won}
                if heads and not t.players[pid].ghost else {})}
            for s, pid in sorted(tab.occupant.items())
        ],
        # empty seats kept for late arrivals (002), sent while there are any
        **({"reserved": sorted(tab.reserved)} if tab.reserved else {}),
        "button": tab.button,
        "small_blind": tab.sb if tab.small_blind_posted() else None,
        "big_blind": tab.bb,
        "next": {"button": nb, "small_blind": nsb, "big_blind": nbb},
        "hands": tab.hands,
        "hands_left": tab.hands_left,
        "moves_in": [_move(t, m) for m in pending if m.to_table == number],
        # TDA 11D: no new hand here until these players are seated (a short table)
        "waits_for": [_move(t, m) for m in pending
                      if tab.holds and m.to_table == number and m.hold],
        "moves_out": moves_out,
        "notices": notices,
        "hand_for_hand": {**hfh_view(t), "this_table_done": number in t.hfh.done},
        "time_call": None if tc is None else {
            "started_at": tc.started_at, "seconds": tc.seconds, "countdown": tc.countdown,
            "seat": tc.seat, "action": tc.action},
        "chip_race": chip_race_view(t, tab, now),
        # the busts of the hand in play here; a bust now asks "same hand?" (000 9.5)
        "hand_busts": [{"player_id": b.player, "name": _name(t, b.player), "seat": b.seat,
                        "stack": b.stack} for b in busts_here],
        "asks_same_hand": busts.asks_same_hand(t, tab),
        # no "hand done" for a while: the table seems to have forgotten it
        "hand_done_due": now is not None and hands.hand_done_due(t, number, now),
        # sit-out penalties (hands left or until, controller time) and owed blinds (000 3.8)
        "penalties": penalties.sit_outs(t, tab, now if now is not None else t.played_at or 0.0),
        "dealer": _dealer(t, tab),
        # the hand in play keeps the level before the clock's (000 9.6): sent while so, so
        # the examples and the screens of every other moment stay as they were
        **_hand_level(t, number),
    }


def _hand_level(t: Tournament, number: int) -> dict[str, Any]:
    index = hands.hand_level(t, number)
    if index is None:
        return {}
    return {"hand_level": level_info(t.settings.structure[index], index,
                                     t.level_number(index))}


def _dealer(t: Tournament, tab: Any) -> dict[str, Any] | None:
    """Who deals the next hand where the players deal (000 3.11); ``seat`` ``None``: a
    player who is out deals standing."""
    d = dealing.dealer(t, tab)
    if d is None:
        return None
    return {"player_id": d[0], "name": _name(t, d[0]), "seat": d[1]}


def chip_race_view(t: Tournament, tab: Any, now: float | None) -> dict[str, Any] | None:
    """The table's chip race in a colour-up break (000 3.17): what the screen guides with
    (which chip leaves, which comes, where the cards start, how many chips at most a seat
    can have left over) and, once the race is run, its result; ``None`` outside such a
    break."""
    colour = chip_race.due(t, now, tab.number)
    if colour is None:
        return None
    leaving, new = colour.leaving, colour.new
    # several chips the director called (002): each is raced on its own, the smaller
    # first; the screen enters the first not raced and lists them all (sent while so)
    calls = chip_race.under_way(t, now)
    chips = [{"leaving": d.leaving, "new": d.new,
              "raced": chip_race.has_raced(t, tab.number, d)} for d in calls]
    rules = t.settings.chip_race
    seats = sorted(tab.occupant)
    order = chip_race.deal_order(seats, tab.size, rules.start, tab.button)
    e = tab.chip_race if chip_race.raced(tab.chip_race, colour) else None
    result: dict[str, Any] | None = None
    if e is not None:
        won = dict(zip(e.winners, e.won, strict=True))
        result = {
            "seats": [{"seat": s, "name": _name(t, tab.occupant[s]) if s in tab.occupant
                       else "", "leftover": n, "cards": cards, "won": won.get(s, 0),
                       "saved": s in e.saved}
                      for s, n, cards in zip(e.seats, e.leftover, e.cards, strict=True)],
            "new_chips": sum(e.won) + len(e.saved), "change": e.change}
        if e.absent:  # 002: not at the table, the small chips are lost
            result["absent"] = [{"seat": s, "name": _name(t, tab.occupant[s])
                                 if s in tab.occupant else "", "lost": lost}
                                for s, lost in zip(e.absent, e.lost or (), strict=True)]
    most = -(-new // leaving) - 1
    # the new chips that n leftover chips make, for every n the seats can have: the
    # screen's preview while the dealer enters them is the engine's arithmetic, not its own
    makes = [chip_race.new_chips(n * leaving, new, rules.rounding)
             for n in range(len(seats) * most + 1)]
    return {"leaving": leaving, "new": new, "start_seat": order[0] if order else None,
            "start": rules.start, "rounding": rules.rounding,
            "one_chip_per_player": rules.one_chip_per_player,
            "most": most, "makes": makes, "result": result,
            # the director's colour-up (002 "jederzeit"), not a break's: sent while so
            **({"called": True} if colour.call is not None else {}),
            **({"chips": chips} if len(chips) > 1 else {})}


def moves_view(t: Tournament, recent: int = 20, *,
               plan: dict[str, Any] | None = None) -> dict[str, Any]:
    """Pending and recent moves and the plan; ``plan`` (:meth:`Tournament.plan`) may be
    passed in when the table views computed it already (it costs time in the tables)."""
    return {
        "v": SCHEMA,
        "pending": [_move(t, m) for m in t.pending_moves()],
        "recent": [_move(t, m) for m in t.moves[-recent:]],
        "plan": t.plan() if plan is None else plan,
    }


#: places the retained results carry while the tournament runs and more players are out:
#: the last players out, the best place first (a wall shows about 30). Scoring a
#: festival's whole field at every bust cost ~50 ms, and sent 700 KB to every screen, at
#: 5,000 out; the director's ``results`` query and the finished tournament have them all
LIVE_ROWS = 60


def results_view(t: Tournament, *, whole: bool = False) -> dict[str, Any]:
    """Places so far, best first, scored (points, knock-outs, prizes) by the preset.

    While the tournament runs and more than :data:`LIVE_ROWS` players are out, only the
    last of them, places and names (``complete`` false); ``whole``: every place (the
    director's query)."""
    from controller.engine.results import results_json

    # out of the ranking (000 3.8), listed apart: no place, no points
    dq = [{"player_id": p.id, "name": _name(t, p.id), "reason": p.disqualified_for}
          for p in penalties.disqualified(t)]
    latest = None if whole else t.latest_out(LIVE_ROWS + 1)  # one more: are there more?
    if latest is not None and len(latest) > LIVE_ROWS:
        return {"v": SCHEMA, "finished": False, "complete": False, "disqualified": dq,
                "rows": [{"place": pl, "name": _name(t, pid)} for pid, pl in latest[:-1]]}
    rows: list[dict[str, Any]]
    try:
        rows = results_json(t.results(), public=True)
    except ValueError:  # a field size the points system does not score: places only
        places = t.places()
        rows = [{"place": pl, "name": _name(t, pid)}
                for pid, pl in sorted(places.items(), key=lambda x: x[1])]
    return {"v": SCHEMA, "finished": t.finished, "complete": True, "rows": rows,
            "disqualified": dq, "scored": _scored(t)}


def _scored(t: Tournament) -> bool:
    """The preset plays for points (a system, knock-out points or bounty prizes): a
    tournament for money without them shows no all-zero points column (issue 30)."""
    p = t.settings.points
    return p.system != "none" or p.knockout or p.bounty != "none"


def players_view(t: Tournament) -> dict[str, Any]:
    """Every registered player (ghosts are no players) with full name, for the director's
    ``players`` query only: never a retained topic, which every screen may read (000 5.8).

    ``status``: ``registered`` (not seated yet), ``seated`` (``table``, ``seat``), ``out``
    (``place``) or ``disqualified`` (000 3.8, no place); ``entries`` counts re-entries too."""
    places = t.places()
    rows = []
    for p in sorted(t.players.values(), key=lambda p: p.id):
        if p.ghost or p.removed:
            continue
        status = ("disqualified" if p.disqualified else "out" if p.out
                  else "seated" if p.table is not None else "registered")
        rows.append({"player_id": p.id, "name": p.name, "member": p.member, "status": status,
                     "table": p.table if status == "seated" else None,
                     "seat": p.seat if status == "seated" else None,
                     "place": places.get(p.id) if status == "out" else None,
                     "entries": p.entries, "rebuys": p.rebuys, "addon": p.addon,
                     # the last count while it holds (rules/chip_counts.py known_stack)
                     "chips": chip_counts.known_stack(t, p.id),
                     # pre-registered, not checked in yet (000 2.2)
                     "expected": p.id in t.desk.expected,
                     # 001 §1 III: the earlier tournament the player plays in first
                     "elsewhere": t.desk.elsewhere.get(p.id)})
    # the waiting list in its order (002), and who did not come (000 2.7)
    waiting = [{"player_id": w.id, "name": w.name, "member": w.member, "position": i,
                "expected": w.expected} for i, w in enumerate(t.desk.waiting, 1)]
    return {"v": SCHEMA, "players": rows, "waiting": waiting, "seats": desk.limit(t),
            "no_shows": list(t.desk.no_shows)}


def announcement_view(t: Tournament) -> dict[str, Any]:
    """The banner for every screen (``state/announcement``): ``text`` (``None``: no banner),
    ``since`` and ``until`` in controller time (``until`` ``None``: until the next one).
    A screen hides a banner whose ``until`` has passed by itself."""
    a = t.announcement
    if a is None:
        return {"v": SCHEMA, "text": None, "since": None, "until": None}
    return {"v": SCHEMA, "text": a.text, "since": a.since, "until": a.until}
