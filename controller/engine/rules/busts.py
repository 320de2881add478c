"""Busts and places: an elimination, its hand, and the end of the tournament.

Busts of one hand at one table form a group ranked by the starting stacks
the director supplies (000 9.5); during hand-for-hand every bust of the same
hand-for-hand hand is one group (002 b). The places themselves are counted
by :mod:`controller.engine.places`.

A second bust at a table whose hand already had one is in the same hand only
when the table says so (``same_hand``). Otherwise it is a new hand: the table
forgot "hand done" (000 3.11: where the players deal, they often do), so the
bust first catches that press up (a ``hand_done`` event marked ``missed``,
button and blinds advance once) and then opens a group of its own. Places
therefore follow the order of the busts, and a place announced at a bust
changes only by an explicit correction: a same-hand bust re-ranked by stacks
(000 9.5), an undo, or a player coming back (rebuy, re-entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine.commands import Rejected
from controller.engine.rules import bounties, seating

if TYPE_CHECKING:
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def hand_key(t: Tournament, tab: Table, same_hand: bool = False) -> tuple[Any, ...]:
    """The group a bust at ``tab`` belongs to when it is in the hand in play there.

    The table's own hand, or during hand-for-hand the hand every table plays
    (002 b) -- also the bubble hand after hand-for-hand ended in it. When
    hand-for-hand starts, every table is in a new hand: a bust at a table whose
    hand had a bust before it began is in the hand-for-hand hand, so places
    follow the order of the busts. Only the table's word (``same_hand``) puts a
    bust into the hand of the table's bust before when that is an earlier one (a
    second player out in the hand whose bust started hand-for-hand, or in the
    hand-for-hand hand the table still plays when hand-for-hand began again);
    the two are then ranked by stack (000 9.5).
    """
    key: tuple[Any, ...] = ("table", tab.number, tab.hand_id)
    if tab.hfh_hand is None:
        return key
    bubble: tuple[Any, ...] = ("hfh", tab.hfh_hand)
    if same_hand:
        last = _last_bust_hand(t, tab)
        # still the table's hand in play: no "hand done" there since it began
        if last is not None and (last == key or (last[0] == "hfh" and last[1] > tab.hand_id)):
            return last
    return bubble


def _last_bust_hand(t: Tournament, tab: Table) -> tuple[Any, ...] | None:
    """The hand of the table's latest bust (only a ``same_hand`` bust during hand-for-hand
    asks, so the walk over the groups is rare)."""
    last: tuple[int, tuple[Any, ...]] | None = None
    for k, group in t.group_of.items():
        for b in group:
            if b.table == tab.number and (last is None or b.order > last[0]):
                last = (b.order, k)
    return last[1] if last is not None else None


def hand_busts(t: Tournament, tab: Table, same_hand: bool = False) -> list[plc.Bust]:
    """The busts at ``tab`` in the hand in play there, in the order they were reported
    (``same_hand``: in the hand a bust that says so joins, :func:`hand_key`)."""
    return [b for b in t.group_of.get(hand_key(t, tab, same_hand), ())
            if b.table == tab.number]


def asks_same_hand(t: Tournament, tab: Table) -> bool:
    """A bust at ``tab`` now needs the table to say whether it is the hand of the bust before.

    Not during hand-for-hand: a table deals its next hand only when every table
    finished this one, so a second bust before that is this hand (002 b).
    """
    return bool(hand_busts(t, tab)) and not (t.hfh.on and tab.hfh_hand is not None)


def bust(t: Tournament, c: cmd.Bust, now: float) -> None:
    bubble = _satellite_bubble_hand(t, c)
    if bubble is None:
        t.require_running()
    if c.player is not None:
        p = t.player(c.player)
        if p.out:
            raise Rejected("{player} is already out", player=p.name)
        if p.table is None:
            raise Rejected("{player} has no seat", player=p.name)
    else:
        if c.seat is None or c.table is None:
            raise Rejected("bust needs a table and a seat, or a player")
        tab = t.table(c.table)
        if not 1 <= c.seat <= tab.size:
            raise Rejected("table {table} has seats 1-{seats}, not {seat}",
                           table=c.table, seats=tab.size, seat=c.seat)
        if c.seat not in tab.occupant:
            raise Rejected("seat {seat} at table {table} is empty", seat=c.seat, table=c.table)
        p = t.players[tab.occupant[c.seat]]
        on_the_way(t, p.id, c.table, c.seat, c.confirm)
    if t.desk.elsewhere:
        from controller.engine.rules import multitabling

        multitabling.check(t, p.id)  # 001 §1 III: the earlier tournament first
    knocker = None
    if c.by is not None:
        k = t.player(c.by)
        if k.id == p.id or k.out:
            raise Rejected("{killer} cannot have knocked out {player}",
                           killer=k.name, player=p.name)
        knocker = k.id
    assert p.table is not None
    tab = t.tables[p.table]
    if t.remaining <= 1 and not p.ghost:
        raise Rejected("only one player is left")
    before = hand_busts(t, tab, c.same_hand)
    if c.same_hand and not before:
        raise Rejected("nobody at table {table} is out in this hand yet: {player}'s bust cannot "
                       "be in the same hand", table=tab.number, player=p.name)
    new_hand = bool(before) and not c.same_hand and asks_same_hand(t, tab)
    if t.deal is not None and not p.ghost and not new_hand:
        # no bust into a hand from before the deal (issue 30)
        from controller.engine.rules import final_deal

        final_deal.refuse_a_hand_before(
            t, list(t.group_of.get(hand_key(t, tab, c.same_hand), ())), p.name)
    if new_hand and tab.hands_left == 0:
        raise Rejected("table {table} has played its last hand of the day: {player} can only be "
                       "out in the same hand as {players} (same_hand)",
                       table=tab.number, player=p.name, players=_names(t, before))
    if new_hand:
        # the table forgot "hand done" after the hand of the bust before: catch it up,
        # so button and blinds advance once and this bust opens a group of its own
        t.emit(ev.HandDone, now, table=tab.number, missed=True)
    from controller.engine.rules import chip_counts

    # without the dealer's stack, one counted since the hand began ranks a same-hand bust
    # (000 9.5)
    stack = c.stack if c.stack is not None else chip_counts.hand_stack(t, p.id)
    t.emit(ev.Busted, now, player=p.id, table=tab.number, seat=p.seat, stack=stack,
           hand=list(hand_key(t, tab, c.same_hand)), by=knocker)
    if bubble is not None:
        # the satellite's end again, without the player out in its last hand: they share
        # the last ticket's place with the bust that ended it (the lot, rules/prize_pool.py)
        left = [pid for pid in bubble if pid != p.id]
        t.emit(ev.Finished, now, winner=left[0], shared=left if len(left) > 1 else None)


def _satellite_bubble_hand(t: Tournament, c: cmd.Bust) -> list[int] | None:
    """A satellite ended by its tickets (rules/prize_pool.py ``tickets_won``) at a bust, and
    a second player went out in that same hand (000 9.5, 002 b): the report is taken, and
    the ticket winners who share first place are then these, without that player
    (``None``: not such a report — a finished tournament refuses it). The same hand is the
    table's word (``same_hand``), or in hand-for-hand the hand every table plays: a report
    from another table that has not said "hand done" since the hand-for-hand hand that
    ended the satellite began (002 b: a table deals on only when every table is done).
    Only for a named player; not with money bounties (the heads were handed out at the
    end)."""
    money = t.settings.money
    if not (t.finished and money is not None and money.satellite is not None
            and not money.bounty and t.co_winners and c.player is not None):
        return None
    shared = sorted({*([t.winner] if t.winner is not None else []), *t.co_winners})
    try:
        p = t.player(c.player)
    except Rejected:
        return None
    if p.id not in shared or p.table is None or len(shared) < 2:
        return None
    if c.same_hand:
        # the hand is the table's (a bust there and no HAND DONE since): bust() refuses
        # ``same_hand`` otherwise
        return shared
    tab = t.tables.get(p.table)
    # (hand-for-hand may have ended at that bust: the tables still play its hand out)
    if tab is None or tab.hfh_hand is None or tab.number in t.hfh.done:
        return None
    return shared if _last_hand(t) == ("hfh", tab.hfh_hand) else None


def _last_hand(t: Tournament) -> tuple[Any, ...] | None:
    """The hand of the latest bust on the floor."""
    last = max(((b.order, k) for k, group in t.group_of.items() for b in group),
               default=None)
    return last[1] if last is not None else None


def on_the_way(t: Tournament, pid: int, table: int, seat: int, confirm: bool) -> None:
    """A bust by seat of a player still on the way to it needs ``confirm``.

    The move is decided, the player has not sat down yet (no ``seated``, no hand
    at the new table): a bust pressed on that seat is most likely meant for
    somebody else. A player who did sit down and went out is confirmed (or
    busted by name).
    """
    m = t.pending.get(pid)
    if confirm or m is None or (m.to_table, m.to_seat) != (table, seat):
        return
    raise Rejected("seat {seat} at table {table} is {player}'s, who is on the way from table "
                   "{from_table} seat {from_seat} and has not sat down yet: confirm the bust if "
                   "that player is out",
                   seat=seat, table=table, player=m.name, from_table=m.from_table,
                   from_seat=m.from_seat)


def _names(t: Tournament, busts: list[plc.Bust]) -> str:
    return ", ".join(t.players[b.player].name for b in busts)


def unbust(t: Tournament, pid: int) -> None:
    """Take ``pid`` out of the place groups (a rebuy or re-entry)."""
    for g in t.groups:
        for b in g:
            if b.player == pid:
                g.remove(b)
                break
    t.groups = [g for g in t.groups if g]
    t.group_of = {k: g for k, g in t.group_of.items() if g}


# --------------------------------------------------------------------- folds
def on_busted(t: Tournament, e: ev.Busted) -> None:
    p = t.players[e.player]
    if p.out:
        raise ev.InvalidEvent(f"{p.name} is already out")
    seating.stand(t, p.id)
    seating.close_moves(t, p.id)
    p.out = True
    p.knocked_by = e.by
    p.absent_since = None  # an absent player all-in is out as usual (000 9.5)
    if p.ghost:
        return
    bounties.busted(t, p, e.by)
    t.remaining -= 1
    key = tuple(e.hand)
    group = t.group_of.get(key)
    if group is None:
        group = []
        t.group_of[key] = group
        t.groups.append(group)
    t.bust_order += 1
    group.append(plc.Bust(p.id, e.table, e.stack, t.bust_order, e.seat))


def on_finished(t: Tournament, e: ev.Finished) -> None:
    t.finished = True
    t.winner = e.winner
    t.co_winners = list(e.shared or [])
    bounties.finished(t, [e.winner, *t.co_winners] if e.winner is not None else t.co_winners)
    if t.clock.running:
        t.clock = clk.pause(t.clock, t.settings.structure, e.at)


# ----------------------------------------------------------------- reactions
def finish(t: Tournament, now: float) -> None:
    """The last player left wins (a play day's games end by themselves, 003 6)."""
    from controller.engine.rules import rounds

    if t.drawn and t.remaining == 1 and not t.finished and not t.settings.play_day.enabled \
            and not rounds.holds_finish(t):  # a restart's round waits for its end (000 4.14)
        winner = next(p.id for p in t.players.values() if not p.out and not p.ghost)
        t.emit(ev.Finished, now, winner=winner)


COMMANDS = {cmd.Bust: bust}
FOLDS = {ev.Busted: on_busted, ev.Finished: on_finished}
REACTIONS = (finish,)
