"""Ghosts: reserve seats played by nobody, and players who left (000 9.5, 9.6).

A reserve-seat ghost leaves after ``remove_after_levels`` full levels or at
the first break, whichever comes first, "jedoch max. 2 Stunden Spielzeit":
never later than ``remove_after_minutes`` of net playing time (the clock
running in a playing level). Counting levels alone let a ghost sit on past
two hours when the levels are long (4 × 40 minutes). Its chips leave the
tournament and it is never ranked.

"Spieler die ein aktives Turnier verlassen werden als Ghostplayer
weitergespielt": on the director's ``absent`` command the player stays in
the seat and is dealt in and folded; after ``absent_minutes`` (2 h) of net
playing time from the moment they left they are removed, their chips leave
the tournament, and they are ranked at that moment (several removed together:
the chip stack decides, 000 9.5). A removed player gives nobody a bounty or
knock-out point. An absent player who busts all-in is an ordinary bust.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine.commands import Rejected
from controller.engine.rules import bounties, chip_counts, seating

if TYPE_CHECKING:
    from controller.engine.settings import Level
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def remove(t: Tournament, now: float) -> None:
    g = t.settings.ghosts
    if not g.enabled or t.ghosts_removed or not t.clock.started or t.finished:
        return
    c = clk.at(t.clock, t.settings.structure, now)
    is_break = t.settings.structure[c.level].is_break
    played = t.level_number(c.level) - (0 if is_break else 1)
    if (played >= g.remove_after_levels or (is_break and g.remove_at_first_break)
            or t.played(now) >= g.remove_after_minutes * 60):
        ghosts = [p for p in t.players.values() if p.ghost and not p.out]
        t.emit(ev.GhostsRemoved, now, players=[p.id for p in ghosts],
               chips=[chip_counts.left_in_play(t, p) for p in ghosts])


def absent(t: Tournament, c: cmd.Absent, now: float) -> None:
    t.require_running()
    p = t.player(c.player)
    if p.ghost:
        raise Rejected("{player} is a ghost seat already", player=p.name)
    if p.out or p.table is None:
        raise Rejected("{player} is not playing", player=p.name)
    if not c.back and p.absent_since is not None:
        raise Rejected("{player} is already played as a ghost", player=p.name)
    if c.back and p.absent_since is None:
        raise Rejected("{player} is not absent", player=p.name)
    if c.back and c.stack is not None:
        raise Rejected("a stack is given when the player leaves, not when they are back")
    t.emit(ev.Absent, now, player=p.id, on=not c.back, stack=c.stack)


def remove_absent(t: Tournament, now: float) -> None:
    """000 9.5: a player absent for ``absent_minutes`` of net playing time is removed."""
    if not t.drawn or t.finished:
        return
    limit = t.settings.ghosts.absent_minutes * 60
    played = t.played(now)
    # removed from a seat: a play day's player between table games has none (003 6); the
    # absent time goes on and removes them once a table game seats them again
    due = [p for p in (t.players[pid] for pid in sorted(t.absent_players))
           if p.absent_since is not None and not p.out and p.table is not None
           and played - p.absent_since >= limit]
    if not due:
        return
    # never the last player: the tournament ends with its winner, absent or not
    due = due[: max(0, t.remaining - 1)]
    if due:
        t.emit(ev.AbsentRemoved, now, players=[p.id for p in due],
               stacks=[p.absent_stack for p in due],
               chips=[chip_counts.left_in_play(t, p) for p in due])


# --------------------------------------------------------------------- folds
def hand_posted(t: Tournament, tab: Table) -> None:
    """The hand in play at ``tab`` is over (its "hand done", before the button moves): a
    ghost seat or an absent player dealt in posted its blinds and antes in it (000 9.5:
    dealt in and folded), at the blinds of the hand's level (in a break, the level
    before it)."""
    if not (t.settings.ghosts.enabled or t.absent_players):
        return  # no ghost can sit here: nothing to look at
    for seat, pid in tab.occupant.items():
        p = t.players[pid]
        if not (p.ghost or p.absent_since is not None) or not tab.dealt(seat):
            continue
        level = _hand_level(t)
        ante = level.ante if level.ante_type == "standard" or seat == tab.bb else 0
        p.posted += (ante + (level.small_blind if seat == tab.sb else 0)
                     + (level.big_blind if seat == tab.bb else 0))


def _hand_level(t: Tournament) -> Level:
    """The playing level whose blinds the hand ending now was dealt at."""
    structure = t.settings.structure
    index = t.clock.level
    while index > 0 and structure[index].is_break:
        index -= 1
    return structure[index]


def on_ghosts_removed(t: Tournament, e: ev.GhostsRemoved) -> None:
    t.ghosts_removed = True
    for i, pid in enumerate(e.players):
        p = t.players[pid]
        if p.out:
            continue
        seating.stand(t, pid)
        p.out = p.removed = True
        # 000 9.5: a removed ghost's chips leave the tournament: what it had left (a log
        # written before recorded none: its start stack)
        t.chips -= p.chips if e.chips is None else e.chips[i]


def on_absent(t: Tournament, e: ev.Absent) -> None:
    p = t.players[e.player]
    # the fold runs after the net playing time was counted up to this event
    p.absent_since = t.play_seconds if e.on else None
    p.absent_stack = e.stack if e.on else None
    # the stack known when the player left: the one given, else the last count
    p.away_stack = (e.stack if e.stack is not None else chip_counts.known_stack(t, p.id)
                    ) if e.on else None
    p.posted = 0
    if e.on:
        t.absent_players.add(p.id)


def on_absent_removed(t: Tournament, e: ev.AbsentRemoved) -> None:
    group: list[plc.Bust] = []
    for i, (pid, stack) in enumerate(zip(e.players, e.stacks, strict=True)):
        p = t.players[pid]
        if p.out or p.table is None:
            raise ev.InvalidEvent(f"{p.name} is not playing")
        if p.absent_since is None:  # an undone "absent" cannot leave its removal behind
            raise ev.InvalidEvent(f"{p.name} was removed as absent, but is not absent")
        seating.stand(t, pid)
        seating.close_moves(t, pid)
        p.out = p.removed = True
        p.knocked_by = None
        bounties.busted(t, p, None)  # removed, not busted: nobody wins the head
        p.absent_since = None
        # 000 9.5: their chips leave the tournament too: what they had left (a log written
        # before recorded none: their buy-ins)
        t.chips -= p.chips if e.chips is None else e.chips[i]
        t.remaining -= 1
        t.bust_order += 1
        # no table: players removed together are ranked by stack wherever they sat
        group.append(plc.Bust(pid, None, stack, t.bust_order))
    # ranked at this moment, together: the chip stack decides (000 9.5)
    t.groups.append(group)
    t.group_of[("absent", e.seq)] = group


COMMANDS = {cmd.Absent: absent}
FOLDS = {ev.GhostsRemoved: on_ghosts_removed, ev.Absent: on_absent,
         ev.AbsentRemoved: on_absent_removed}
REACTIONS = (remove, remove_absent)
