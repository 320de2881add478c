"""Rounds of play: play the clock (000 4.4, 4.15, 9.1) and restart (000 4.14).

**Play the clock.** "Nach 1,5 Stunden werden die Spieler neuen Gegnern
zugelost, der Chipstack wandert mit dem Spieler mit. Nach 3 Runden zu je 1,5
Stunden werden alle Chips gezählt. Jener Spieler mit den meisten Chips gewinnt
das Turnier." Round ``r`` is over once ``r × round_minutes`` of net playing
time are played (000 9.5 "Nettospielzeit": pauses and breaks do not count);
the director says so with ``end_round``. Between rounds everybody still in is
drawn to new tables and seats (the seed is in the event) and keeps the stack.
At the end of the last round every stack is counted (the counts add up to the
chips in play) and the counts decide the places: the most chips win, equal
counts share the place. A player who lost every chip before is out as usual
(000 9.1); one player with all the chips wins before the time (000 4.4).

**Restart.** "Das Turnier wird nach Level 8 unterbrochen, die Chips gezählt
und gespeichert. Nun fängt das Turnier erneut bei Level 1 an ... Sitzplätze
erneut zugelost. Nach Level 8 folgt wiederum ein Spielstopp ... Das Turnier
wird mit den höheren Stacks eines Spielers weitergespielt (bei Level 9). Ist
ein Spieler aus beiden Vorrunden ausgeschieden, so ist er aus dem Turnier
ebenfalls ausgeschieden." After level ``round_levels`` the director counts
every stack still in play (``end_round`` with the counts; a player out has 0);
everybody registered is back with the start stack, at new seats, the clock at
level 1, paused. After level ``round_levels`` again the second count; play
goes on at the next level, paused, with each player's higher stack, the
players with a stack drawn to new seats; a player out in both rounds is out,
placed by the second round's busts. The tournament does not end in a
preliminary round (its last player waits for the round's end).

**Multi-round 3+1 / 2+1** (000 4.19). "In jeder Vorrunde werden Punkte anhand
der Platzierung vergeben. Dabei wird nach jeder Vorrunde die Spieler per Los
erneut einem Sitzplatz zugewiesen. Die Punktebesten treffen einander am Final
Table (9 Spieler), alle weiteren Spieler werden ebenfalls auf die weiteren
Tische aufgeteilt und spielen um die endgültige Platzierung." Each of the
``rounds`` preliminary rounds starts everybody with the start stack at drawn
seats and level 1. It ends with its last player (who won it "vor Ende der
Zeit": 18 + 2 points) or, once ``round_minutes`` are played, with the count of
every stack in play (the most chips take the best places; busted players keep
their places). Its places score 18-18-15-12-9-7-5-3-2-1
(:func:`~controller.engine.points.multi_round_points`). After the last
preliminary round the best ``final_table_size`` on points sit at table 1, the
others by points at the next tables; each table plays for its own places
(table 1 for 1-9, table 2 for the places after, …), nobody is moved, and a
table is decided when one player is left.

A round ended before its time is refused with the time still to play; the
command in a tournament of another mode is refused with both modes' names.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine import seating as algo
from controller.engine.commands import Rejected
from controller.engine.rules import busts, chip_counts, reserve, seating
from controller.engine.state import HandForHandState, Move
from controller.engine.table import Table

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

PLAY_THE_CLOCK = "play_the_clock"
RESTART = "restart"
MULTI_ROUND = "multi_round"
#: the modes whose rounds end_round ends
ROUND_MODES = (PLAY_THE_CLOCK, RESTART, MULTI_ROUND)
#: restart: two preliminary rounds, then the tournament goes on (000 4.14)
RESTART_ROUNDS = 2


def kind(t: Tournament) -> str:
    return t.settings.mode.kind


def holds_finish(t: Tournament) -> bool:
    """A preliminary round (restart, multi-round) does not end the tournament with its last
    player; nor does one table of a multi-round final (:func:`decide_tables` ends it)."""
    if kind(t) == RESTART:
        return t.rounds.number <= RESTART_ROUNDS
    return kind(t) == MULTI_ROUND


def independent(t: Tournament) -> bool:
    """The multi-round final (000 4.19): every table plays for its own places; no table is
    balanced, broken or merged into a final table."""
    return kind(t) == MULTI_ROUND and bool(t.rounds.final)


def preliminary(t: Tournament) -> bool:
    """A preliminary round is in play (restart, multi-round)."""
    if kind(t) == RESTART:
        return t.rounds.number <= RESTART_ROUNDS
    return kind(t) == MULTI_ROUND and t.rounds.number <= t.settings.mode.rounds


def level_index(t: Tournament, number: int) -> int:
    """The structure index of playing level ``number`` (1-based)."""
    seen = 0
    for i, lv in enumerate(t.settings.structure):
        if not lv.is_break:
            seen += 1
            if seen == number:
                return i
    return len(t.settings.structure) - 1


def round_due(t: Tournament, now: float) -> Rejected | None:
    """Why the round in play cannot end yet at ``now``, or ``None`` when it can."""
    m = t.settings.mode
    r = t.rounds.number
    real_in = sum(1 for p in t.players.values() if not p.out and not p.ghost)
    if real_in <= 1 and kind(t) != PLAY_THE_CLOCK:
        return None  # one player has every chip: the round is decided
    if kind(t) in (PLAY_THE_CLOCK, MULTI_ROUND):
        due = t.rounds.began + m.round_minutes * 60.0
        played = t.played(now)
        if played + 1e-6 < due:
            left = due - played
            rule = "000 4.15" if kind(t) == PLAY_THE_CLOCK else "000 4.19"
            return Rejected("round {round} ends after {minutes} minutes of play ({rule}); "
                            "{left} are still to play", round=r, minutes=m.round_minutes,
                            rule=rule, left=f"{int(left // 60)}:{int(left % 60):02d}")
        return None
    last = level_index(t, m.round_levels)
    c = clk.at(t.clock, t.settings.structure, now)
    if c.level <= last:
        return Rejected("round {round} stops after level {last} (000 4.14); the clock is in "
                        "level {level}", round=r, last=m.round_levels,
                        level=t.level_number(c.level))
    return None


# ------------------------------------------------------------------ commands
def end_round(t: Tournament, c: cmd.EndRound, now: float) -> None:
    if kind(t) not in ROUND_MODES:
        raise Rejected("end_round belongs to play the clock, restart or multi-round (mode.kind: "
                       "play_the_clock, restart or multi_round); this tournament is {mode}",
                       mode=kind(t).replace("_", " "))
    t.require_running()
    m = t.settings.mode
    r = t.rounds.number
    if kind(t) == RESTART and r > RESTART_ROUNDS:
        raise Rejected("both preliminary rounds are over (000 4.14): the tournament plays on "
                       "to its end")
    if kind(t) == MULTI_ROUND and r > m.rounds:
        raise Rejected("the {rounds} preliminary rounds are over (000 4.19): every table of the "
                       "final plays to its last player", rounds=m.rounds)
    why = round_due(t, now)
    if why is not None:
        raise why
    stacks = chip_counts.resolve(t, list(c.counts))
    last = kind(t) == PLAY_THE_CLOCK and r >= m.rounds
    decided = sum(1 for p in t.players.values() if not p.out and not p.ghost) <= 1
    counted = kind(t) == RESTART or last or (kind(t) == MULTI_ROUND and not decided)
    if counted:
        chip_counts.check_total(t, stacks, complete=True)
    elif stacks:
        chip_counts.check_total(t, stacks)
    if c.seed is None:
        seed, rng = t.rng()
    else:
        seed, rng = c.seed, random.Random(c.seed)
    if stacks:
        chip_counts.emit_counts(t, stacks, now, f"round {r}")
    if last:
        _final_count(t, now, r, seed, stacks)
        return
    if kind(t) == MULTI_ROUND:
        _multi_round(t, now, r, seed, rng, stacks, decided)
        return
    if kind(t) == RESTART:
        going_on = _restart_stacks(t, stacks)
    else:
        going_on = {p.id: 0 for p in chip_counts.in_play(t)}
    slots, button = algo.draw(sorted(going_on), t.settings.players_per_table, rng)
    t.emit(ev.RoundEnded, now, round=r, seed=seed, button=button,
           seats=[[int(pid), n, s] for pid, n, s in slots if pid is not None],
           stacks=None if kind(t) == PLAY_THE_CLOCK
           else [[pid, chips] for pid, chips in sorted(going_on.items())])


def refuse_entries(t: Tournament) -> None:
    """The multi-round final is drawn by the preliminary rounds' points (000 4.19), each
    table playing for its block of places: an entry there has no points and would push
    the blocks into each other. A preliminary round takes late entries as any night."""
    if kind(t) == MULTI_ROUND and t.rounds.final:
        raise Rejected("the multi-round final is seated by the points of the preliminary "
                       "rounds (000 4.19): no late entry, rebuy or re-entry")


def round_places(t: Tournament, stacks: dict[int, int], decided: bool) -> dict[int, int]:
    """A multi-round preliminary round's places (000 4.19): the busted players' as they
    stand, the players still in by their counts (the most chips first, equal share)."""
    places = t.places()
    ins = [p.id for p in t.players.values() if not p.out and not p.ghost]
    if decided:
        return {**places, **{pid: 1 for pid in ins}}
    ranked = sorted(ins, key=lambda pid: -stacks[pid])
    for i, pid in enumerate(ranked):
        same = i and stacks[pid] == stacks[ranked[i - 1]]
        places[pid] = places[ranked[i - 1]] if same else i + 1
    return places


def _multi_round(t: Tournament, now: float, r: int, seed: int, rng: random.Random,
                 stacks: dict[int, int], decided: bool) -> None:
    from controller.engine.points import multi_round_points, multi_round_ranking

    m = t.settings.mode
    places = round_places(t, stacks, decided)
    rows = [[pid, place, multi_round_points(place, won_before_time=decided)]
            for pid, place in sorted(places.items())]
    # disqualified (000 3.8) or taken out after leaving (000 9.5): out of it for good
    players = sorted(p.id for p in t.players.values()
                     if not p.ghost and not p.disqualified and not p.removed)
    going_on = {pid: chip_counts.start_stack(t, pid) for pid in players}
    per = t.settings.players_per_table
    tables = None
    if r < m.rounds:  # 000 4.19: "nach jeder Vorrunde ... per Los erneut einem Sitzplatz"
        slots, button = algo.draw(players, per, rng)
        seats = [[int(pid), n, s] for pid, n, s in slots if pid is not None]
    else:  # the best on points at table 1, the others by points at the next tables
        rounds_points = [*t.rounds.points, {row[0]: row[2] for row in rows}]
        # the points of earlier rounds name players disqualified or taken out since: they
        # play no final (000 3.8, 9.5)
        going = set(players)
        ranking = [pid for pid in multi_round_ranking(rounds_points, seed=seed) if pid in going]
        ranking += [pid for pid in players if pid not in ranking]
        final = min(t.settings.final_table_size, len(ranking))
        groups = [ranking[:final]]
        rest = ranking[final:]
        for size in algo.table_sizes(len(rest), per):
            groups.append(rest[:size])
            rest = rest[size:]
        seats, tables, best = [], [], 1
        width = max(per, final)
        for n, group in enumerate(groups, start=1):
            chosen = sorted(rng.sample(range(1, width + 1), len(group)))
            order = list(group)
            rng.shuffle(order)
            seats += [[pid, n, s] for pid, s in zip(order, chosen, strict=True)]
            tables.append([n, best])
            best += len(group)
        button = rng.choice([s for _, n, s in seats if n == 1])
    t.emit(ev.RoundEnded, now, round=r, seed=seed, button=button, seats=seats,
           stacks=[[pid, chips] for pid, chips in sorted(going_on.items())],
           points=rows, tables=tables)


def _restart_stacks(t: Tournament, stacks: dict[int, int]) -> dict[int, int]:
    """Who plays the next part with how many chips (000 4.14): after the first round
    everybody registered with the start stack; after the second each player's higher
    count, and nobody who is out of both rounds."""
    if t.rounds.number == 1:  # disqualified (000 3.8) or taken out (000 9.5): for good
        return {p.id: chip_counts.start_stack(t, p.id) for p in t.players.values()
                if not p.ghost and not p.disqualified and not p.removed}
    first = t.rounds.counts[0] if t.rounds.counts else {}
    out: dict[int, int] = {}
    for p in t.players.values():
        if p.ghost or p.disqualified or p.removed:
            continue
        best = max(first.get(p.id, 0), stacks.get(p.id, 0))
        if best > 0:
            out[p.id] = best
    return out


def _final_count(t: Tournament, now: float, r: int, seed: int, stacks: dict[int, int]) -> None:
    """000 4.15 / 4.4: the most chips win; equal counts share the place."""
    real = sorted(((pid, chips) for pid, chips in stacks.items() if not t.players[pid].ghost),
                  key=lambda pc: (-pc[1], pc[0]))
    t.emit(ev.RoundEnded, now, round=r, seed=seed, seats=[], button=0,
           standings=[[pid, chips] for pid, chips in real])
    top = [pid for pid, chips in real if chips == real[0][1]]
    t.emit(ev.Finished, now, winner=top[0], shared=top if len(top) > 1 else None)


# --------------------------------------------------------------------- folds
def on_round_ended(t: Tournament, e: ev.RoundEnded) -> None:
    rs = t.rounds
    if e.round != rs.number:
        raise ev.InvalidEvent(f"round {e.round} ended, but round {rs.number} is in play")
    rs.ended.append(e.at)
    rs.counts.append({p.id: (p.stack or 0) if not p.out else 0
                      for p in t.players.values() if not p.ghost})
    rs.number += 1
    rs.began = t.play_seconds  # net play up to this event (folded before it)
    if e.points is not None:
        rs.points.append({pid: points for pid, _place, points in e.points})
    if e.standings is not None:
        _fold_standings(t, e)
        return
    for pid in list(t.pending):
        seating.close_moves(t, pid)
    origin = {p.id: seating.stand(t, p.id) for p in list(t.players.values())
              if p.table is not None}
    if e.stacks is not None:
        _fold_restart(t, e)
    per = t.settings.players_per_table
    width = max([per] + [s for _, _, s in e.seats])
    for tab in t.tables.values():
        reserve.table_gone(t, tab)
    t.tables = {}
    t.final_table = None
    t.hfh = HandForHandState()
    t.hands_left = None
    for pid, n, s in e.seats:
        if n not in t.tables:
            t.tables[n] = Table(n, width, hand_id=e.seq, final=e.tables is not None and n == 1)
        seating.sit(t, pid, n, s)
        if pid in origin and origin[pid] != (n, s):  # the screens show where each one goes
            _move(t, e, pid, origin[pid], (n, s))
    if e.tables is not None:  # the multi-round final (000 4.19)
        rs.final = {n: best for n, best in e.tables}
        rs.final_from = t.bust_order
    for tab in t.tables.values():
        tab.first_hand(e.button)


def _move(t: Tournament, e: ev.RoundEnded, pid: int, frm: tuple[int, int],
          to: tuple[int, int]) -> None:
    reason = (f"round {e.round} over: the final tables by points" if e.tables is not None
              else f"round {e.round} over: new seats by lot")
    m = Move(e.seq, pid, t.players[pid].name, *frm, *to, reason, level=t.level_number())
    t.moves.append(m)
    t.pending[pid] = m


def _fold_standings(t: Tournament, e: ev.RoundEnded) -> None:
    """The final count places everybody below the top: one group ranked by chips."""
    assert e.standings is not None
    best = e.standings[0][1] if e.standings else 0
    group: list[plc.Bust] = []
    for pid, chips in reversed(e.standings):
        if chips == best:
            continue
        p = t.players[pid]
        if p.table is not None:
            seating.stand(t, pid)
        seating.close_moves(t, pid)
        p.out = True
        t.remaining -= 1
        t.bust_order += 1
        group.append(plc.Bust(pid, None, chips, t.bust_order))
    if group:
        t.groups.append(group)
    for p in t.players.values():
        if p.ghost and not p.out:  # a ghost's seat is no place (000 9.5)
            if p.table is not None:
                seating.stand(t, p.id)
            p.out = True


def _fold_restart(t: Tournament, e: ev.RoundEnded) -> None:
    assert e.stacks is not None
    going_on = {pid: chips for pid, chips in e.stacks}
    for p in t.players.values():
        if p.id in going_on:
            if p.out:
                p.out = False
                p.knocked_by = None
                t.remaining += 1
                busts.unbust(t, p.id)
            p.chips = going_on[p.id]
            chip_counts.record(t, p, p.chips, e.seq)
        elif not p.out:
            if not p.ghost:
                raise ev.InvalidEvent(f"{p.name} is in, but has no stack for the next round")
            p.out = p.removed = True  # a reserve seat does not restart (000 4.14)
    t.chips = sum(going_on.values())
    # round 1 over: level 1 again; round 2 over: the level after round_levels (000 4.14);
    # a multi-round round starts at level 1 (000 4.19)
    number = 1 if e.round == 1 or kind(t) == MULTI_ROUND else t.settings.mode.round_levels + 1
    index = level_index(t, number)
    t.clock = clk.Clock(level=index, running=False, started=True, ends_at=None,
                        remaining=clk.duration(t.settings.structure, index))
    t.heads_up = False


def on_table_decided(t: Tournament, e: ev.TableDecided) -> None:
    if e.table not in t.rounds.final or e.table in t.rounds.decided:
        raise ev.InvalidEvent(f"table {e.table} is no final table still playing")
    p = t.players[e.winner]
    if p.table != e.table:
        raise ev.InvalidEvent(f"{p.name} does not sit at table {e.table}")
    seating.stand(t, p.id)
    seating.close_moves(t, p.id)
    t.rounds.decided[e.table] = p.id
    tab = t.tables.pop(e.table)
    reserve.table_gone(t, tab)
    if tab.occupant:
        raise ev.InvalidEvent(f"table {e.table} still has players")


# ----------------------------------------------------------------- reactions
def decide_tables(t: Tournament, now: float) -> None:
    """A multi-round final table with one player left is decided; when every table is,
    the tournament is over and table 1's last player wins it (000 4.19)."""
    if not independent(t) or t.finished:
        return
    for n in sorted(t.rounds.final):
        tab = t.tables.get(n)
        if n in t.rounds.decided or tab is None:
            continue
        real = [pid for pid in tab.occupant.values() if not t.players[pid].ghost]
        if len(real) == 1:
            t.emit(ev.TableDecided, now, table=n, winner=real[0])
    if set(t.rounds.decided) == set(t.rounds.final):
        t.emit(ev.Finished, now, winner=t.rounds.decided[min(t.rounds.final)])


# ------------------------------------------------------------------- places
def final_places(t: Tournament) -> dict[int, int] | None:
    """Places in a multi-round final (000 4.19): each table's own, after the tables before
    it; ``None`` outside it."""
    if not independent(t):
        return None
    res: dict[int, int] = {}
    for n, best in t.rounds.final.items():
        groups = []
        for group in t.groups:
            mine = [b for b in group if b.table == n and b.order > t.rounds.final_from]
            if mine:
                groups.append(mine)
        tab = t.tables.get(n)
        left = 1 if n in t.rounds.decided or tab is None else sum(
            1 for pid in tab.occupant.values() if not t.players[pid].ghost)
        for pid, place in plc.places(groups, left,
                                     t.settings.hand_for_hand.cross_table_busts).items():
            res[pid] = place + best - 1
        if n in t.rounds.decided:
            res[t.rounds.decided[n]] = best
    return res


COMMANDS = {cmd.EndRound: end_round}
FOLDS = {ev.RoundEnded: on_round_ended, ev.TableDecided: on_table_decided}
REACTIONS = (decide_tables,)
