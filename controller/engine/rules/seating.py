"""Seating and balancing: the draw, moves, breaking tables, the final table.

The arithmetic lives in :mod:`controller.engine.seating` (table sizes, the
balancing plan, which table breaks, spreading players); this rule applies it
to the tournament: 000 4.6, 4.9, 9.6, 001 §2 I, TDA 10B/11A, RP-9.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import seating as algo
from controller.engine.commands import Each, Rejected
from controller.engine.rules import field_size, play_day, qualifier, reserve
from controller.engine.state import Move, Player
from controller.engine.table import Table

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


# ------------------------------------------------------------------ commands
def _independent(t: Tournament) -> bool:
    """Tables that play for themselves: a play day's (003 13) or a multi-round final's
    (000 4.19); nobody is moved between them."""
    from controller.engine.rules import rounds

    return play_day.independent(t) or rounds.independent(t)


def draw(t: Tournament, c: cmd.Draw, now: float) -> None:
    if t.drawn:
        raise Rejected("the seats are already drawn")
    from controller.engine.rules import desk

    desk.no_shows(t, now)  # 000 2.7: who was expected and did not come; their seats go on
    real = [p.id for p in t.players.values()]
    if len(real) < 2:
        raise Rejected("at least two players must be registered before the draw")
    qualifier.check_field(t, len(real))
    field_size.check_draw(t, len(real))  # 002: three players a table at least
    tables = len(algo.table_sizes(len(real), t.settings.players_per_table))
    if tables > cmd.MAX_TABLES:
        raise Rejected("{players} players need {tables} tables; table numbers go up to {most}",
                       players=len(real), tables=tables, most=cmd.MAX_TABLES)
    if c.seed is None:
        seed, rng = t.rng()
    else:
        seed, rng = c.seed, random.Random(c.seed)
    kept: list[tuple[int, int]] = []
    if t.reserve:
        # 002: seats kept free for late arrivals (rules/reserve.py)
        placed, kept = algo.draw_with_reserve(real, t.reserve, t.settings.players_per_table,
                                              rng)
        slots: list[tuple[int | None, int, int]] = list(placed)
        by_table: dict[int, int] = {}
        for _, n, _ in placed:
            by_table[n] = by_table.get(n, 0) + 1
        few = sorted(n for n in {n for n, _ in kept} if by_table.get(n, 0) < 2)
        if few:
            raise Rejected("{players} players and {reserve} reserve seats: table {table} "
                           "would seat fewer than two players; reserve fewer seats",
                           players=len(real), reserve=t.reserve, table=few[0])
        # 000 3.12: the high card is dealt to the occupied positions of table 1
        button = rng.choice([s for _, n, s in placed if n == 1])
    else:
        slots, button = algo.draw(real, t.settings.players_per_table, rng,
                                  ghosts=t.settings.ghosts.enabled)
    seats: list[list[int | str | None]] = []
    ghost_no = 0
    for pid, tab, s in slots:
        if pid is None:
            ghost_no += 1
            seats.append([None, tab, s, f"Ghost {ghost_no}"])
        else:
            seats.append([pid, tab, s])
    each: list[list[int]] | None = None
    if t.settings.dealing.first_button == "each_table":
        # every table draws its own button among its players (TDA, 003); 000 3.12: table 1's
        # position at every table
        each = [[n, s] for n, s in algo.buttons(slots, button, rng).items()]
    t.emit(ev.SeatsDrawn, now, seed=seed, seats=seats, button=button, buttons=each,
           reserved=[[n, s] for n, s in kept] or None)
    field_size.warn(t, now, len(real))  # 001 §2 I-II: the field the tournament is made for


def move_apply(t: Tournament, c: cmd.MoveApply, now: float) -> None:
    """Carry out the balancing plan now, each donor's next big blind first."""
    t.require_running()
    if _independent(t):
        raise Rejected("these tables each play for themselves and are not balanced "
                       "(play_day.balancing, 003 13; a multi-round final, 000 4.19)")
    plan = balancing(t)
    if not plan:
        raise Rejected("the tables are balanced: no move is needed")
    if c.from_table is not None:
        # 001 §2 I: "Die Auswahl von welchem Tisch ein Spieler umgesetzt wird, wird von der
        # Turnierleitung bestimmt": the plan's next destination, from the director's table
        donor, dest = t.table(c.from_table), t.tables[plan[0][1]]
        if donor is dest:
            raise Rejected("table {table} is the one short of players: the plan brings a "
                           "player to it", table=donor.number)
        if donor.count() <= dest.count() + 1:
            raise Rejected("table {table} has {count} players, table {to} {to_count}: a "
                           "player from it would not balance the tables", table=donor.number,
                           count=donor.count(), to=dest.number, to_count=dest.count())
        balance_move(t, now, donor, dest, chosen=True)
        return
    for frm, to in plan:
        balance_move(t, now, t.tables[frm], t.tables[to])


def seated(t: Tournament, c: cmd.Seated, now: float) -> None:
    """A moved player sat down (the director names them), or everyone on the way to a table
    did (its button box says so): the moves are done, a waiting table may deal (TDA 11D)."""
    if (c.player is None) == (c.table is None):
        raise Rejected("seated takes a player, or a table whose arrivals have all sat down")
    if c.player is not None:
        p = t.player(c.player)
        if p.id not in t.pending:
            raise Rejected("{player} has no move pending", player=p.name)
        t.emit(ev.Seated, now, player=p.id)
        return
    assert c.table is not None
    t.table(c.table)
    movers = [m for m in t.pending.values() if m.to_table == c.table]
    if not movers:
        raise Rejected("nobody is on the way to table {table}", table=c.table)
    for m in movers:
        t.emit(ev.Seated, now, player=m.player, table=c.table)


def break_table(t: Tournament, c: cmd.BreakTable, now: float) -> None:
    t.require_running()
    t.table(c.table)
    if len(t.tables) < 2:
        raise Rejected("the last table in play cannot break")
    per = t.settings.players_per_table
    free = sum(len([s for s in tab.free_seats() if s <= per])
               for n, tab in t.tables.items() if n != c.table)
    if free < t.tables[c.table].count():
        raise Rejected("the other tables have {free} free seats for {players} players of table "
                       "{table}", free=free, players=t.tables[c.table].count(), table=c.table)
    _break_table(t, now, c.table, f"table {c.table} breaks (director)")


def final_table(t: Tournament, c: cmd.FinalTable, now: float) -> None:
    t.require_running()
    if t.final_table is not None:
        raise Rejected("the final table is already formed")
    if not t.tables:
        raise Rejected("no table is in play: nobody to seat at a final table")
    if _independent(t):
        raise Rejected("the tables play for themselves (a play day's table games, a "
                       "multi-round final): there is no final table")
    if t.seated() > t.settings.table_seats:
        raise Rejected("{players} players do not fit at one table of {seats} seats",
                       players=t.seated(), seats=t.settings.table_seats)
    _form_final_table(t, now, "final table (director)")


# ------------------------------------------------------------------- helpers
def short(t: Tournament, tab: Table) -> bool:
    """``tab`` is ``halt_short_by`` (TDA 11D: 3) or more players short of the table with the
    most players (players on the way count where they go)."""
    by = t.settings.balancing.halt_short_by
    if not by or len(t.tables) < 2:
        return False
    return tab.count() <= t.size_range()[1] - by  # the most: kept by the folds, no walk


def moved_in_level(t: Tournament, pid: int, level: int) -> bool:
    """``pid`` was moved (balancing, a break, a new table) during playing level ``level``."""
    for m in reversed(t.moves):
        if m.level < level:
            return False
        if m.player == pid and m.level == level:
            return True
    return False


def mover_seats(t: Tournament, frm: Table, now: float) -> list[int]:
    """The donor's seats in the order they give a player: the one who would post the next
    big blind first (000 4.9), then clockwise on. A player already moved in this level
    goes to the end: nobody moves twice in a level while someone else can (issue 10.5)."""
    first = frm.next_big_blind()
    if first is None or first not in frm.occupant:
        return []
    order = [first] + [s for s in frm.clockwise(first)[:-1] if s in frm.occupant]
    if t.desk.elsewhere:  # 001 §1 III: one playing an earlier tournament is not moved
        order = [s for s in order if frm.occupant[s] not in t.desk.elsewhere]
    level = t.level_at(now)
    fresh = [s for s in order if not moved_in_level(t, frm.occupant[s], level)]
    return fresh + [s for s in order if s not in fresh]


def balance_move(t: Tournament, now: float, frm: Table, to: Table, *,
                 chosen: bool = False) -> None:
    """One balancing move: the player who would post the next big blind goes to the
    destination's worst seat (000 4.9, 001 §2 I, TDA 11A). A destination that is
    short (TDA 11D) waits for the player before its next hand (``hold``). ``chosen``: the
    director chose ``frm`` (001 §2 I)."""
    seats = mover_seats(t, frm, now)
    dest = to.worst_seat()
    if not seats or dest is None:
        return
    seat = seats[0]
    out = sits_out(t, frm, seat, to)
    t.emit(ev.Moved, now, player=frm.occupant[seat], from_table=frm.number, from_seat=seat,
           to_table=to.number, to_seat=dest, reason="balancing",
           waiting=out or to.arrival_waits(dest), hold=True if short(t, to) else None,
           chosen=True if chosen else None, sits_out=True if out else None)


def sits_out(t: Tournament, frm: Table, seat: int, to: Table) -> bool:
    """The player leaving ``frm``'s ``seat`` for table ``to`` posted a blind in the last
    hand there and sits out at ``to`` until the button has passed (003 12; the preset's
    ``balancing.blinds_sit_out``). Not at the same table (the blinds go on there, 000
    4.11), and not where fewer than two others would be dealt in."""
    return (t.settings.balancing.blinds_sit_out and to is not frm
            and frm.posted_blind(seat) and to.dealt_count() >= 2)


def balancing_moves_from(t: Tournament, now: float, table: Table) -> None:
    """The balancing moves decided at ``table``'s hand boundary: those that leave it (it is
    a donor), and, when it is short (TDA 11D), those that come to it: its next hand waits
    for them, so they are decided now, before it (the donor's player moves when the
    donor's hand is over)."""
    if t.final_table is not None or break_due(t) is not None or _independent(t):
        return
    for frm, to in balancing(t):
        if frm == table.number:
            balance_move(t, now, table, t.tables[to])
    if short(t, table):
        for frm, to in balancing(t):
            if to == table.number:
                balance_move(t, now, t.tables[frm], table)


def waits_for(t: Tournament, table: int) -> list[Move]:
    """The players a waiting table waits for (empty when it may deal)."""
    tab = t.tables.get(table)
    if tab is None or not tab.holds:
        return []
    return [m for m in t.pending.values() if m.to_table == table and m.hold]


def refuse_while_waiting(t: Tournament, tab: Table) -> None:
    """A waiting table deals no new hand, so it cannot finish one (TDA 11D)."""
    waiting = waits_for(t, tab.number)
    if not waiting:
        return
    who = Each("{player} (from table {from_table} seat {from_seat} to seat {to_seat})",
               [{"player": m.name, "from_table": m.from_table, "from_seat": m.from_seat,
                 "to_seat": m.to_seat} for m in waiting])
    raise Rejected("table {table} waits for {who}: no new hand until seated (TDA 11D); press "
                   "seated when they sit down", table=tab.number, who=who)


def hold_after_hand(t: Tournament, tab: Table) -> None:
    """``tab``'s hand is over: it waits when players it must wait for are still on the way."""
    tab.holds = any(m.hold and m.to_table == tab.number for m in t.pending.values())


def seat_entry(t: Tournament, now: float, pid: int, kind: type[ev.Event]) -> None:
    """Seat a late entry, re-entry or rebuy (``kind``).

    A ghost's seat early on (000 9.5); else a seat at the shortest table below
    ``players_per_table``; when every table has that many, the extra seat the preset
    allows (000 4.3: 9 a table, at most 10; ``balancing.extra_seats``); only when those
    are taken too a new table opens (:func:`_open_table`). Among the seats of the
    shortest tables one that is dealt in at once is taken when there is one (000 4.10:
    not between the button and the small blind). Random draws use ``t.rng()``.
    """
    seed, rng = t.rng()
    ghost = next((p for p in t.players.values()
                  if p.ghost and not p.out and p.table is not None), None)
    if ghost is not None and t.level_number() <= t.settings.ghosts.remove_after_levels:
        # 000 9.5: a late arrival may take a ghost's seat (and its stack)
        t.emit(kind, now, player=pid, table=ghost.table, seat=ghost.seat,
               replaces_ghost=ghost.id, seed=seed, waiting=False)
        return
    per = t.settings.players_per_table
    if t.final_table is not None:
        tables = {t.final_table: t.tables[t.final_table]}
        limits = [t.tables[t.final_table].size]
    else:
        tables = {n: tab for n, tab in t.tables.items() if not tab.final}
        limits = [per, max_players(t)]
    held = {n: sorted(tab.reserved) for n, tab in tables.items() if tab.reserved}
    if held:
        # 002: the seats the director kept free are the late arrivals' (rules/reserve.py)
        low = min(tables[n].count() for n in held)
        options = [(n, s) for n in sorted(held) if tables[n].count() == low for s in held[n]]
        dealt_in = [(n, s) for n, s in options if not _waits(t, tables[n], s)]
        tnum, seat = rng.choice(dealt_in or options)
        t.emit(kind, now, player=pid, table=tnum, seat=seat, seed=seed,
               waiting=_waits(t, tables[tnum], seat))
        return
    for limit in limits:
        seats = {n: entry_seats(t, tab) for n, tab in tables.items() if tab.count() < limit}
        seats = {n: free for n, free in seats.items() if free}
        if not seats:
            continue
        low = min(tables[n].count() for n in seats)
        shortest = sorted(n for n in seats if tables[n].count() == low)
        options = [(n, s) for n in shortest for s in seats[n]]
        dealt_in = [(n, s) for n, s in options if not _waits(t, tables[n], s)]
        tnum, seat = rng.choice(dealt_in or options)
        t.emit(kind, now, player=pid, table=tnum, seat=seat, seed=seed,
               waiting=_waits(t, tables[tnum], seat))
        return
    _open_table(t, now, pid, kind, seed, rng)


def max_players(t: Tournament) -> int:
    """Players a table may hold with its extra seat (000 4.3), never beyond its seats."""
    return min(t.settings.players_per_table + t.settings.balancing.extra_seats,
               t.settings.table_seats)


def entry_seats(t: Tournament, tab: Table) -> list[int]:
    """The seats an entry may take at ``tab``: its free seats, else the extra seat
    (``size + 1``: a chair added between the last seat and seat 1) while the table has
    fewer than :func:`max_players` and its seats allow one more."""
    free = tab.free_seats()
    if free or tab.final or tab.reserved:
        return free
    if tab.count() < max_players(t) and tab.size < t.settings.table_seats:
        return [tab.size + 1]
    return []


def _waits(t: Tournament, tab: Table, seat: int) -> bool:
    """An arrival in ``seat`` (perhaps the extra seat, not there yet) waits (000 4.10)."""
    if seat > tab.size:
        tab = dataclasses.replace(tab, size=seat)
    return tab.arrival_waits(seat)


def _open_table(t: Tournament, now: float, pid: int, kind: type[ev.Event], seed: int,
                rng: random.Random) -> None:
    """Every seat is taken: a new table opens for the entry (002: "Zusätzliche Tische können
    jederzeit hinzugefügt werden"). It starts with at least three players (002: "Das Spiel
    an einem Tisch wird erst ab drei Spielgästen begonnen"), never one: the entry and
    players drawn evenly from the fullest tables, one at a time from the table with the
    most (highest number on a tie, 000 4.9), as many as bring the new table within the
    balancing tolerance, so no balancing move follows; each donor gives its next big
    blind (who has not moved in this level yet, if possible). Seats and button at the new
    table are drawn; it deals when its players are seated (TDA 11D)."""
    number = 1
    while number in t.tables:
        number += 1
    if number > cmd.MAX_TABLES:
        raise Rejected("every table number up to {most} is in play: no table can open",
                       most=cmd.MAX_TABLES)
    counts = {n: x.count() for n, x in t.tables.items()}
    counts[number] = 1
    drawn = [f for f, to in algo.balance_plan(counts, t.settings.balancing.tolerance)
             if to == number]
    per = t.settings.players_per_table
    need = min(max(2, len(drawn)), per - 1)  # a table of 2 seats cannot start with three
    others = {n: c for n, c in counts.items() if n != number}
    donors: list[int] = []
    for _ in range(need):
        d = algo.donor(others)
        donors.append(d)
        others[d] -= 1
    chosen: list[tuple[int, int]] = []
    for d in sorted(set(donors)):
        for seat in mover_seats(t, t.tables[d], now)[:donors.count(d)]:
            chosen.append((d, seat))
    seats = rng.sample(range(1, per + 1), len(chosen) + 1)
    button = rng.choice(seats)
    t.emit(kind, now, player=pid, table=number, seat=seats[0], new_table=True, seed=seed,
           waiting=False)
    t.emit(ev.TableOpened, now, table=number, button=button, reason=f"table {number} opens",
           moves=[[t.tables[d].occupant[s], d, s, to]
                  for (d, s), to in zip(chosen, seats[1:], strict=True)])


def entries_open(t: Tournament) -> bool:
    """Late registration, rebuys or re-entries may still bring players back to the tables
    (at the level of the last event; tables are not broken meanwhile, issue 10.5)."""
    e = t.settings.entries
    level = t.level_number()
    return ((e.late_registration_levels > 0 and level <= e.late_registration_levels)
            or (e.rebuys > 0 and level <= e.rebuy_until_level)
            or (e.reentries > 0 and level <= e.reentry_until_level))


def _keep_tables(t: Tournament) -> bool:
    """While entries are open the tables stay as they are (a table broken now would only
    open again for the next entries, and its players move twice), unless they cannot
    keep three players each on average (002)."""
    return entries_open(t) and t.seated() >= 3 * len(t.tables)


def final_table_due(t: Tournament) -> bool:
    """The players fit the final table (000 4.3, 002 "mode + 1", TDA RP-9).

    Also when they already sit at one table that is not the final table yet
    (a final table smaller than a playing table), but never in a tournament
    that started on one table.
    """
    return (t.final_table is None and t.seated() <= t.settings.final_table_size
            and (len(t.tables) > 1 or bool(t.broken)) and not _keep_tables(t)
            and not _independent(t))


def break_due(t: Tournament) -> int | None:
    if t.final_table is not None or len(t.tables) < 2 or _independent(t):
        return None
    room = (len(t.tables) - 1) * t.settings.players_per_table
    held = reserve.held(t)  # seats kept for arrivals count as taken (002)
    if t.seated() + held > room:
        return None
    if _keep_tables(t):
        return None
    return algo.table_to_break(reserve.counts(t) if held else t.counts(),
                               t.settings.players_per_table, t.settings.balancing)


def plan(t: Tournament) -> dict[str, Any]:
    """What the floor will do next: the table to break, or the balancing moves."""
    brk = break_due(t)
    return {
        "break_table": brk,
        "final_table_due": final_table_due(t),
        "balance": [] if brk is not None else [
            {"from_table": f, "to_table": to} for f, to in balancing(t)
        ],
    }


def balancing(t: Tournament) -> list[tuple[int, int]]:
    """The balancing moves ``[(from_table, to_table), ...]`` (000 4.9,
    :func:`~controller.engine.seating.balance_plan`). Every table's count only when the
    tables are not within the tolerance: the sizes the seating folds keep tell it without a
    walk over a festival's every table after every command."""
    tolerance = t.settings.balancing.tolerance
    if reserve.any_held(t):  # a seat kept for an arrival counts as taken (002)
        return algo.balance_plan(reserve.counts(t), tolerance)
    fewest, most = t.size_range()
    if len(t.tables) < 2 or most - fewest <= tolerance:
        return []
    return algo.balance_plan(t.counts(), tolerance)


def _break_table(t: Tournament, now: float, number: int, reason: str | None = None) -> None:
    tab = t.tables[number]
    others = {n: x for n, x in t.tables.items() if n != number}
    per = t.settings.players_per_table
    free = {n: [s for s in x.free_seats() if s <= per] for n, x in others.items()}
    seed, rng = t.rng()
    movers = [tab.occupant[s] for s in sorted(tab.occupant)]
    placed = algo.spread(movers, free, {n: x.count() for n, x in others.items()}, rng)
    # arrivals between button and small blind wait (000 4.10)
    out = [pid for pid, n, _ in placed if sits_out(t, tab, t.players[pid].seat or 0, others[n])]
    moves: list[list[int | bool]] = [[pid, n, s, pid in out or others[n].arrival_waits(s)]
                                     for pid, n, s in placed]
    t.emit(ev.TableBroken, now, table=number, seed=seed, moves=moves,
           reason=reason or f"table {number} breaks", sits_out=out or None)


def _form_final_table(t: Tournament, now: float, reason: str) -> None:
    seed, rng = t.rng()
    number = min(t.tables)
    ids = [pid for n in sorted(t.tables) for _, pid in sorted(t.tables[n].occupant.items())]
    size = max(t.settings.final_table_size, len(ids))
    order = list(ids)
    rng.shuffle(order)
    seats = sorted(rng.sample(range(1, size + 1), len(order)))
    button = rng.choice(seats)
    t.emit(ev.FinalTableFormed, now, table=number, size=size, seed=seed,
           seats=[[pid, s] for pid, s in zip(order, seats, strict=True)], button=button,
           reason=reason)


# ----------------------------------------------------------------- reactions
def final_table_or_break(t: Tournament, now: float) -> None:
    """As soon as the players fit the final table it is drawn; else a table breaks
    as soon as the others can seat its players (000 4.6, TDA 10B)."""
    if not t.drawn or t.finished:
        return
    if final_table_due(t):
        _form_final_table(t, now, "final table")
        return
    number = break_due(t)
    if number is not None:
        _break_table(t, now, number)


# ---------------------------------------------------------------- seat folds
def sit(t: Tournament, pid: int, table: int, seat: int, waiting: bool = False,
        sits_out: bool = False) -> None:
    tab = t.tables.get(table)
    if tab is None:
        raise ev.InvalidEvent(f"table {table} is not in play")
    if seat in tab.occupant:
        raise ev.InvalidEvent(f"seat {seat} at table {table} is taken")
    if not 1 <= seat <= tab.size:
        raise ev.InvalidEvent(f"table {table} has no seat {seat}")
    p = t.players[pid]
    if p.table is not None:
        raise ev.InvalidEvent(f"{p.name} already sits at table {p.table}")
    _resized(t, len(tab.occupant), len(tab.occupant) + 1)
    tab.occupant[seat] = pid
    reserve.give_back(t, tab, seat)  # an arrival took a seat kept for it (002)
    t.seated_count += 1
    if waiting:
        tab.waiting.add(seat)
    if sits_out:
        tab.sits_out.add(seat)
    p.table, p.seat = table, seat


def _resized(t: Tournament, was: int, now: int) -> None:
    """``t.table_sizes``: a table that seated ``was`` players seats ``now``."""
    sizes = t.table_sizes
    if was:
        if sizes[was] == 1:
            del sizes[was]
        else:
            sizes[was] -= 1
    if now:
        sizes[now] = sizes.get(now, 0) + 1


def stand(t: Tournament, pid: int) -> tuple[int, int]:
    p = t.players[pid]
    if p.table is None or p.seat is None:
        raise ev.InvalidEvent(f"{p.name} has no seat")
    tab = t.tables[p.table]
    if tab.occupant.get(p.seat) != pid:
        raise ev.InvalidEvent(f"{p.name} is not at table {p.table} seat {p.seat}")
    _resized(t, len(tab.occupant), len(tab.occupant) - 1)
    del tab.occupant[p.seat]
    t.seated_count -= 1
    tab.waiting.discard(p.seat)
    tab.sits_out.discard(p.seat)
    where = (p.table, p.seat)
    p.table = p.seat = None
    return where


def close_moves(t: Tournament, pid: int) -> None:
    """A seat taken, a newer move or a bust ends any move of ``pid`` still pending; a table
    that waited for it deals again once nobody it waits for is on the way."""
    m = t.pending.pop(pid, None)
    if m is None:
        return
    m.done = True
    tab = t.tables.get(m.to_table)
    if m.hold and tab is not None and tab.holds and not any(
            x.hold and x.to_table == m.to_table for x in t.pending.values()):
        tab.holds = False


def _add_move(t: Tournament, move: Move) -> None:
    t.moves.append(move)
    t.pending[move.player] = move


def enter(t: Tournament, e: ev.LateEntry | ev.Reentry | ev.Rebuy) -> None:
    """Seat an entry: a new table if the event opens one, a ghost's seat, a free seat, or
    the extra seat (one past the table's last seat, within ``table_seats``, 000 4.3)."""
    if e.new_table:
        if t.final_table is not None:
            # the final table was full and entries are open (002: "Zusätzliche Tische können
            # jederzeit hinzugefügt werden"): the field plays at tables again, balanced and
            # broken as before the final table, which is drawn again when it fits
            t.tables[t.final_table].final = False
            t.final_table = None
        t.tables[e.table] = Table(e.table, t.settings.players_per_table, hand_id=e.seq)
    tab = t.tables.get(e.table)
    if tab is not None and e.seat == tab.size + 1 and e.seat <= t.settings.table_seats:
        tab.size = e.seat
    if e.replaces_ghost is not None:
        g = t.players[e.replaces_ghost]
        stand(t, e.replaces_ghost)
        g.out = g.removed = True
        # the arrival takes over the ghost's seat and stack (000 9.5)
        t.chips -= t.settings.start_stack
    sit(t, e.player, e.table, e.seat, e.waiting)
    tab = t.tables[e.table]
    if tab.bb is None and tab.dealt_count() >= 2:
        tab.first_hand(tab.button or e.seat)


def on_seats_drawn(t: Tournament, e: ev.SeatsDrawn) -> None:
    if t.drawn:
        raise ev.InvalidEvent("seats drawn twice")
    per = t.settings.players_per_table
    for row in e.seats:
        pid, n, s = row[0], int(row[1] or 0), int(row[2] or 0)
        if n not in t.tables:
            t.tables[n] = Table(n, per, hand_id=e.seq)
        if pid is None:
            pid = t.new_player_id()  # never an id a player had (an unregister leaves gaps)
            t.last_player_id = pid
            t.players[pid] = Player(pid, str(row[3]), member=False, ghost=True,
                                    chips=t.settings.start_stack)
            t.chips += t.settings.start_stack
        sit(t, int(pid), n, s)
    for n, s in e.reserved or ():
        reserve.keep(t, t.tables[n], s)
    own = {int(n): int(s) for n, s in e.buttons or ()}
    for tab in t.tables.values():
        tab.first_hand(own.get(tab.number, e.button))
    t.drawn = True


def on_moved(t: Tournament, e: ev.Moved) -> None:
    frm = stand(t, e.player)
    if frm != (e.from_table, e.from_seat):
        raise ev.InvalidEvent(f"player {e.player} was not at table {e.from_table} "
                              f"seat {e.from_seat}")
    sit(t, e.player, e.to_table, e.to_seat, e.waiting, bool(e.sits_out))
    close_moves(t, e.player)
    _add_move(t, Move(e.seq, e.player, t.players[e.player].name, frm[0], frm[1],
                      e.to_table, e.to_seat, e.reason, e.waiting, hold=bool(e.hold),
                      level=t.level_number()))


def on_seated(t: Tournament, e: ev.Seated) -> None:
    m = t.pending.get(e.player)
    if m is not None and m.to_table in t.tables:
        # a player sat down at the new table: its own hands have begun there
        t.tables[m.to_table].redrawn = False
    close_moves(t, e.player)


def on_table_broken(t: Tournament, e: ev.TableBroken) -> None:
    if e.table not in t.tables:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    out = set(e.sits_out or ())
    for pid, n, s, waiting in e.moves:
        frm = stand(t, int(pid))
        sit(t, int(pid), int(n), int(s), bool(waiting), int(pid) in out)
        close_moves(t, int(pid))
        _add_move(t, Move(e.seq, int(pid), t.players[int(pid)].name, frm[0], frm[1],
                          int(n), int(s), e.reason, bool(waiting), level=t.level_number()))
    if t.tables[e.table].occupant:
        raise ev.InvalidEvent(f"table {e.table} broke with players still seated")
    reserve.table_gone(t, t.tables.pop(e.table))
    t.broken.append(e.table)
    if t.hfh.on:
        t.hfh.done.discard(e.table)


def on_table_opened(t: Tournament, e: ev.TableOpened) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    level = t.level_number()
    for pid, frm_table, frm_seat, to_seat in e.moves:
        frm = stand(t, pid)
        if frm != (frm_table, frm_seat):
            raise ev.InvalidEvent(f"player {pid} was not at table {frm_table} seat {frm_seat}")
        sit(t, pid, e.table, to_seat)
        close_moves(t, pid)
        _add_move(t, Move(e.seq, pid, t.players[pid].name, frm_table, frm_seat, e.table,
                          to_seat, e.reason, hold=True, level=level))
    tab.first_hand(e.button)
    tab.holds = True  # its first hand waits for the players drawn to it (TDA 11D)


def on_final_table(t: Tournament, e: ev.FinalTableFormed) -> None:
    for pid, _ in e.seats:
        close_moves(t, pid)  # every earlier move ends: the final table is a new draw
    origin = {pid: stand(t, pid) for pid, _ in e.seats}
    if any(x.occupant for x in t.tables.values()):
        raise ev.InvalidEvent("players left out of the final table")
    for n, tab in list(t.tables.items()):
        if n != e.table:
            t.broken.append(n)
        reserve.table_gone(t, tab)
    t.tables = {e.table: Table(e.table, e.size, final=True, hand_id=e.seq)}
    ft = t.tables[e.table]
    for pid, s in e.seats:
        sit(t, pid, e.table, s)
        if origin[pid] != (e.table, s):
            _add_move(t, Move(e.seq, pid, t.players[pid].name, *origin[pid], e.table, s,
                              e.reason, level=t.level_number()))
    ft.first_hand(e.button)
    # the hand in play when the final table is drawn is still played out at the old tables
    # (the bust that drew it came in a hand); its "hand done" must not move the new button
    ft.redrawn = True
    t.final_table = e.table


COMMANDS = {
    cmd.Draw: draw, cmd.MoveApply: move_apply, cmd.Seated: seated,
    cmd.BreakTable: break_table, cmd.FinalTable: final_table,
}
FOLDS = {
    ev.SeatsDrawn: on_seats_drawn, ev.Moved: on_moved, ev.Seated: on_seated,
    ev.TableBroken: on_table_broken, ev.FinalTableFormed: on_final_table,
    ev.TableOpened: on_table_opened,
}
REACTIONS = (final_table_or_break,)
