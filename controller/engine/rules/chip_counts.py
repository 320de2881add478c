"""Chip counts: the players' stacks, counted at a break, at a round's end or by the director.

Floorman does not follow the chips hand by hand; a count is what the floor
counted at one moment. The wall shows the average and the chip leader from
it; play the clock (000 4.15) and restart (000 4.14) decide with it; the
same-hand tie-break by stack (000 9.5, ``cross_table_busts: stack``) uses a
count taken since the hand began when the dealer gives no stack.

A count must fit the chips in play (:func:`chips_in_play`: the start stacks
of the entries, rebuys and add-ons, less what left with removed ghosts and
absent players, each with what it had left after the blinds it posted
(:func:`left_in_play`), and the director's corrections): the counts of every
player still in add up to exactly that, a part of them to no more; a count that
does not is refused with how far it is off. A count for an empty seat, a player
who is out or a player named twice is refused with the reason, and nothing
changes. Chips that leave the game otherwise (a player takes them home, a chip
is found on the floor) are the director's ``chip_correction``, with its reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.state import Player
    from controller.engine.tournament import Tournament


def chips_in_play(t: Tournament) -> int:
    """Chips in the tournament now: start stacks of entries, rebuys, add-ons, less what
    left with removed ghosts and absent players (000 9.5) and the disqualified, the chip
    races' change and the director's corrections. The one place that says it."""
    return t.chips


def start_stack(t: Tournament, player: int | None = None) -> int:
    """The stack ``player`` starts with: their own (Landesliga final, 000 4.18) or the
    tournament's. The one place to look a start stack up."""
    if player is not None and player in t.players:
        own = t.players[player].start_stack
        if own is not None:
            return own
    return t.settings.start_stack


def buy_ins(p: Player) -> int:
    """How many times ``p`` bought chips (entries, rebuys, the add-on): a count made
    before the latest is stale."""
    return p.entries + p.rebuys + (1 if p.addon else 0)


def known_stack(t: Tournament, pid: int) -> int | None:
    """The player's last counted stack while it still holds: the player is in and has
    bought no chips since (chips, or ``None``)."""
    p = t.players[pid]
    if p.out or p.stack is None or p.counted_at != buy_ins(p):
        return None
    return p.stack


def hand_stack(t: Tournament, pid: int) -> int | None:
    """The player's stack at the start of the hand in play at their table, when a count
    was taken since that hand began (counts are taken between hands, at a break or a
    round's end); otherwise ``None`` (000 9.5: the dealer says the stacks)."""
    p = t.players[pid]
    tab = t.tables.get(p.table) if p.table is not None else None
    if tab is None or p.counted_seq < tab.hand_id:
        return None
    return known_stack(t, pid)


def left_in_play(t: Tournament, p: Player) -> int:
    """What a ghost seat or an absent player takes out of play when removed (000 9.5): the
    stack last known (a count; an absent player's stack when they left; else a ghost's
    start stack or the player's buy-ins) less the blinds and antes posted since
    (:func:`controller.engine.rules.ghosts.hand_posted`), never below 0 nor above the
    chips in play."""
    known = known_stack(t, p.id)
    if not p.ghost and p.away_stack is not None:
        known = p.away_stack
    base = p.chips if known is None else known
    return max(0, min(base - p.posted, t.chips))


def in_play(t: Tournament) -> list[Player]:
    """The players whose chips are in play: everyone still in, ghosts included."""
    return [p for p in t.players.values() if not p.out and p.table is not None]


def resolve(t: Tournament, counts: list[cmd.ChipCount]) -> dict[int, int]:
    """The counts as ``player id → chips``; refuses an empty seat, a player who is out,
    a player named twice or an entry that names nobody."""
    out: dict[int, int] = {}
    for c in counts:
        if c.player is not None:
            if c.table is not None or c.seat is not None:
                raise Rejected("a count names a player, or a table and a seat, not both")
            p = t.player(c.player)
        else:
            if c.table is None or c.seat is None:
                raise Rejected("a count needs a player, or a table and a seat")
            tab = t.table(c.table)
            if c.seat not in tab.occupant:
                raise Rejected("seat {seat} at table {table} is empty: nobody there to count",
                               seat=c.seat, table=c.table)
            p = t.players[tab.occupant[c.seat]]
        if p.out or p.table is None:
            raise Rejected("{player} is out: no chips to count", player=p.name)
        if p.id in out:
            raise Rejected("{player} is counted twice", player=p.name)
        out[p.id] = c.chips
    return out


def check_total(t: Tournament, stacks: dict[int, int], *, complete: bool = False) -> None:
    """Counts of everybody in must add up to the chips in play, a part of them to no more.
    ``complete``: every player still in must be counted (a round's end)."""
    total = sum(stacks.values())
    chips = chips_in_play(t)
    missing = [p.name for p in in_play(t) if p.id not in stacks]
    if complete and missing:
        raise Rejected(f"count every player still in: {', '.join(sorted(missing)[:5])}"
                       + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
                       + " not counted")
    if not missing and total < chips:
        raise Rejected("the counts add up to {total:,} chips, but {chips:,} are in play (entries, "
                       "rebuys and add-ons, less what left the game): {off:,} short: count "
                       "again, or correct the chips in play with the reason they left "
                       "(chip_correction)", total=total, chips=chips, off=chips - total)
    if not missing and total > chips:
        raise Rejected("the counts add up to {total:,} chips, but {chips:,} are in play (entries, "
                       "rebuys and add-ons, less what left the game): {off:,} over: count again, "
                       "or correct the chips in play with the reason (chip_correction)",
                       total=total, chips=chips, off=total - chips)
    if missing and total > chips:
        raise Rejected("the counts add up to {total:,} chips, more than the {chips:,} in play by "
                       "{off:,}: count again, or correct the chips in play with the reason "
                       "(chip_correction)", total=total, chips=chips, off=total - chips)


def emit_counts(t: Tournament, stacks: dict[int, int], now: float, reason: str) -> None:
    t.emit(ev.ChipsCounted, now, stacks=[[pid, chips] for pid, chips in sorted(stacks.items())],
           reason=reason)


# ------------------------------------------------------------------ commands
def chip_counts(t: Tournament, c: cmd.ChipCounts, now: float) -> None:
    t.require_running()
    stacks = resolve(t, c.counts)
    check_total(t, stacks)
    emit_counts(t, stacks, now, "director")


def chip_correction(t: Tournament, c: cmd.ChipCorrection, now: float) -> None:
    """The director corrects the chips in play (chips that left the game, or came back),
    with the reason for the record."""
    t.require_running()
    if c.change == 0:
        raise Rejected("a correction of 0 chips changes nothing")
    if not c.reason.strip():
        raise Rejected("a correction of the chips in play needs its reason")
    chips = chips_in_play(t)
    if chips + c.change < 1:
        raise Rejected("{chips:,} chips are in play: a correction of {change:,} leaves none",
                       chips=chips, change=c.change)
    t.emit(ev.ChipsCorrected, now, change=c.change, reason=c.reason.strip())


# --------------------------------------------------------------------- folds
def on_corrected(t: Tournament, e: ev.ChipsCorrected) -> None:
    t.chips += e.change


def on_counted(t: Tournament, e: ev.ChipsCounted) -> None:
    for pid, chips in e.stacks:
        p = t.players.get(pid)
        if p is None or p.out:
            raise ev.InvalidEvent(f"player {pid} is not in: no stack to count")
        record(t, p, chips, e.seq)


def record(t: Tournament, p: Player, chips: int, seq: int) -> None:
    """``p``'s stack is ``chips`` as of event ``seq`` (a count, a round's end, a start
    stack): the one place a stack is set, so :func:`leader` knows whom to look at."""
    p.stack = chips
    p.counted_at = buy_ins(p)
    p.counted_seq = seq
    t.counted.add(p.id)
    p.posted = 0  # the blinds a ghost or an absent player posts count from here
    if p.absent_since is not None:
        p.away_stack = chips


# ---------------------------------------------------------------------- read
def leader(t: Tournament) -> tuple[int, int] | None:
    """The chip leader among the known counts, ``(player, chips)``; ``None`` before any
    count, or when the most chips are shared (after a restart everybody has the same)."""
    known = [(s, pid) for pid in t.counted
             if not t.players[pid].ghost and (s := known_stack(t, pid)) is not None]
    if not known:
        return None
    chips, pid = max(known)
    if sum(1 for s, _ in known if s == chips) > 1:
        return None
    return pid, chips


COMMANDS = {cmd.ChipCounts: chip_counts, cmd.ChipCorrection: chip_correction}
FOLDS = {ev.ChipsCounted: on_counted, ev.ChipsCorrected: on_corrected}
