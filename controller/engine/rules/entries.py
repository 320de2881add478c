"""Entries: registration (and its corrections), late registration, rebuy, re-entry, add-on.

000 4.13: one free rebuy until the add-on phase, then who did not need it
gets ``auto_addon_multiplier`` × the start stack automatically. 001 §2 III:
re-entries in qualifiers. 000 9.5: a late arrival may take a ghost's seat.
A typo in a name is corrected by ``rename`` (any time: the record shows the
right name); a player who registered by mistake is taken off the list by
``unregister`` before the draw (after it the seat exists: bust or ghost).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import (
    bounties,
    desk,
    membership,
    play_day,
    qualifier,
    rounds,
    seating,
)
from controller.engine.state import Player

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

#: longest name the screens show whole
MAX_NAME = 40
#: Unicode categories no screen can show (:data:`controller.engine.commands.UNSHOWABLE`)
UNSHOWABLE = cmd.UNSHOWABLE
#: letters that show as nothing: the Hangul fillers, the braille blank, the Khmer inherent
#: vowels, the combining grapheme joiner (issue 27.6: a name of them showed as blank, and
#: "Anna" with one beside it looks like "Anna")
BLANK = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0})


def register(t: Tournament, c: cmd.Register, now: float) -> None:
    names = [c.names] if isinstance(c.names, str) else c.names
    clean = check_names(t, names)
    member = membership.members(clean, c.member, c.guests)
    membership.check(t, clean, member, c.adult)  # 000 1.1, 2.5
    since = len(t.log)
    _register(t, c, now, clean, member)
    membership.record(t, now, c.adult, since)


def _register(t: Tournament, c: cmd.Register, now: float, clean: list[str],
              member: list[bool]) -> None:
    if t.drawn:
        if c.stack is not None:
            # a late arrival may take a ghost's seat and stack (000 9.5): one stack only
            raise Rejected("a start stack of its own is given at registration, before the "
                           "draw (003 8, 000 4.18)")
        for n, m in zip(clean, member, strict=True):
            _late(t, now, n, m, c.force)
        return
    for n, m in zip(clean, member, strict=True):  # a seat, or the waiting list (002)
        desk.admit(t, now, n, m, c.stack, force=c.force)


def late(t: Tournament, c: cmd.Late, now: float) -> None:
    (n,) = check_names(t, [c.name])
    membership.check(t, [n], [c.member], c.adult)  # 000 1.1, 2.5
    since = len(t.log)
    if not t.drawn:
        desk.admit(t, now, n, c.member, force=c.force)
    else:
        _late(t, now, n, c.member, c.force)
    membership.record(t, now, c.adult, since)


def check_names(t: Tournament, names: Sequence[str], keep: int | None = None) -> list[str]:
    """The names with spaces tidied; each must be new (``keep``: a player whose own name
    may be given again, in another spelling: a rename)."""
    if not names:
        raise Rejected("give at least one name")
    clean: list[str] = []
    seen: set[str] = set()
    for n in names:
        n = showable(n)
        if len(n) > MAX_NAME:
            raise Rejected("name {start!r}… is longer than {limit} characters",
                           start=n[:MAX_NAME], limit=MAX_NAME)
        key = n.casefold()
        if (key in t.by_name and t.by_name[key] != keep) or key in seen:
            known = t.players.get(t.by_name.get(key, 0))
            raise Rejected("{player} is already registered", player=known.name if known else n)
        desk.check_name(t, key)
        seen.add(key)
        clean.append(n)
    return clean


def rename(t: Tournament, c: cmd.Rename, now: float) -> None:
    """A typo in a name: the player keeps id, seat, chips and place; only the name changes."""
    p = t.player(c.player)
    if p.ghost:
        raise Rejected("{player} is a ghost seat, not a player", player=p.name)
    (n,) = check_names(t, [c.name], keep=p.id)
    if n == p.name:
        raise Rejected("{player} is already called so", player=p.name)
    t.emit(ev.Renamed, now, player=p.id, name=n)


def unregister(t: Tournament, c: cmd.Unregister, now: float) -> None:
    """Off the list before the draw; after it the player has a seat (bust, or undo the draw).
    A player on the waiting list leaves it (rules/desk.py)."""
    if desk.leave(t, c.player, now):
        return
    p = t.player(c.player)
    if t.drawn:
        if p.table is not None:
            raise Rejected("the seats are drawn: {player} has a place in the field (table "
                           "{table} seat {seat}); unregister is only possible before the draw "
                           "(undo the draw first, or bust the player)",
                           player=p.name, table=p.table, seat=p.seat)
        raise Rejected("the seats are drawn: {player} has a place in the field; unregister is "
                       "only possible before the draw (undo the draw first, or bust the "
                       "player)", player=p.name)
    t.emit(ev.Unregistered, now, player=p.id)


def showable(name: str) -> str:
    """``name`` as the screens show it (NFC, runs of white space as one space, trimmed);
    :class:`Rejected` when it has a character no screen can show (:data:`UNSHOWABLE`; a
    line break or tab is white space) or one that shows as blank (:data:`BLANK`), or
    nothing is left that shows (only combining marks)."""
    n = " ".join(unicodedata.normalize("NFC", name).split())
    for ch in n:
        if unicodedata.category(ch) in UNSHOWABLE:
            raise Rejected("name {name!r} has a character that cannot be shown (U+{code:04X}); "
                           "type the name again", name=n, code=ord(ch))
    if not n:
        raise Rejected("a player's name must be text, got {name!r}", name=name)
    for ch in n:
        if ord(ch) in BLANK:
            raise Rejected("name {name!r} has a character that shows as blank "
                           "(U+{code:04X}); type the name again", name=n, code=ord(ch))
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in n):  # only marks and spaces
        raise Rejected("name {name!r} has no letter, digit or sign that shows; type the "
                       "name again", name=n)
    return n


def late_open(t: Tournament, now: float) -> bool:
    """Late registration is still open at ``now``."""
    if not t.clock.started:
        return True
    return t.level_at(now) <= t.settings.entries.late_registration_levels


def _late(t: Tournament, now: float, name: str, member: bool, force: bool) -> None:
    t.require_running()
    from controller.engine.rules import final_deal

    final_deal.refuse_entries(t)  # the deal split the final pool (issue 30)
    rounds.refuse_entries(t)  # the multi-round final by points (000 4.19)
    if not force and not late_open(t, now):
        raise Rejected("late registration closed after level {late_registration_levels}",
                       late_registration_levels=t.settings.entries.late_registration_levels)
    qualifier.check_field(t, t.real_players() + 1)
    if desk.late_waits(t, now, name, member, force):  # no seat left: the waiting list (002)
        return
    pid = t.new_player_id()
    t.emit(ev.Registered, now, player=pid, name=name, member=member)
    if play_day.may_seat_late(t):  # a play day's late arrival waits for a table game
        seating.seat_entry(t, now, pid, ev.LateEntry)


def rebuy(t: Tournament, c: cmd.Rebuy, now: float) -> None:
    t.require_running()
    from controller.engine.rules import final_deal

    final_deal.refuse_entries(t)  # the deal split the final pool (issue 30)
    rounds.refuse_entries(t)  # the multi-round final by points (000 4.19)
    p = t.player(c.player)
    e = t.settings.entries
    _may_come_back(p)
    if p.rebuys >= e.rebuys:
        raise Rejected("{player} has no rebuy left ({rebuys} allowed)",
                       player=p.name, rebuys=e.rebuys)
    if t.level_at(now) > e.rebuy_until_level:
        raise Rejected("rebuys closed after level {rebuy_until_level}",
                       rebuy_until_level=e.rebuy_until_level)
    if t.addon_done or addon_phase(t, now):
        # 000 4.13: the rebuy is there until the add-on phase; the add-on closes it
        raise Rejected("rebuys closed: the add-on phase has begun (000 4.13)")
    # the rebuy keeps the old seat where it is still free (000 4.13: a continuation)
    last = next((x for x in reversed(t.log) if x["type"] == "busted"
                 and x["player"] == p.id), None)
    tab = t.tables.get(last["table"]) if last is not None else None
    if last is not None and tab is not None and last["seat"] not in tab.occupant \
            and last["seat"] not in tab.reserved:
        t.emit(ev.Rebuy, now, player=p.id, table=tab.number, seat=last["seat"],
               waiting=tab.arrival_waits(last["seat"]))
    else:
        seating.seat_entry(t, now, p.id, ev.Rebuy)


def reentry(t: Tournament, c: cmd.Reentry, now: float) -> None:
    t.require_running()
    from controller.engine.rules import final_deal

    final_deal.refuse_entries(t)  # the deal split the final pool (issue 30)
    rounds.refuse_entries(t)  # the multi-round final by points (000 4.19)
    p = t.player(c.player)
    e = t.settings.entries
    _may_come_back(p)
    if p.entries - 1 >= e.reentries:
        raise Rejected("{player} has no re-entry left ({reentries} allowed)",
                       player=p.name, reentries=e.reentries)
    if t.clock.started and t.level_at(now) > e.reentry_until_level:
        raise Rejected("re-entry closed after level {reentry_until_level}",
                       reentry_until_level=e.reentry_until_level)
    paid = t.bubble_places()
    if paid and t.remaining <= paid:
        # 002: re-entry ends when the money is reached
        raise Rejected("re-entry closed: the money is reached ({left} left, {paid} places paid)",
                       left=t.remaining, paid=paid)
    if desk.reentry_waits(t, now, p.id):  # a sold-out night: the waiting list (002)
        return
    seating.seat_entry(t, now, p.id, ev.Reentry)


def _may_come_back(p: Player) -> None:
    if p.ghost:
        raise Rejected("{player} is a ghost seat, not a player", player=p.name)
    if not p.out:
        raise Rejected("{player} is still in the tournament", player=p.name)
    if p.disqualified:
        raise Rejected("{player} is disqualified (000 3.8): no rebuy, no re-entry", player=p.name)


def addon(t: Tournament, c: cmd.Addon, now: float) -> None:
    """The add-on now, in the add-on phase only (000 4.13), if the time has not given it yet."""
    t.require_running()
    e = t.settings.entries
    if t.addon_done:
        raise Rejected("the add-on was already given")
    if not e.auto_addon_multiplier or e.addon_after_level is None:
        raise Rejected("this tournament has no add-on")
    if not addon_phase(t, now):
        lv = e.addon_after_level
        raise Rejected("the add-on phase is after level {lv} (the break after it, or level "
                       "{next_level}); this is level {level} (000 4.13)",
                       lv=lv, next_level=lv + 1, level=t.level_at(now))
    _addon(t, now)


def addon_phase(t: Tournament, now: float) -> bool:
    """000 4.13: the add-on phase has begun at ``now``: the break after level
    ``addon_after_level``, or the level after it when there is no such break."""
    lv = t.settings.entries.addon_after_level
    if lv is None or not t.clock.started:
        return False
    c = clk.at(t.clock, t.settings.structure, now)
    number = t.level_number(c.level)
    return number >= lv and (t.settings.structure[c.level].is_break or number > lv)


def _addon(t: Tournament, now: float) -> None:
    # 000 4.13: who did not need the rebuy gets double the start stack automatically
    chips = t.settings.entries.auto_addon_multiplier * t.settings.start_stack
    ids = [p.id for p in t.players.values() if not p.out and not p.ghost and p.rebuys == 0]
    t.emit(ev.Addon, now, players=ids, chips=chips)


# --------------------------------------------------------------------- folds
def on_registered(t: Tournament, e: ev.Registered) -> None:
    if e.player in t.players or e.name.casefold() in t.by_name:
        raise ev.InvalidEvent(f"player {e.player} {e.name!r} registered twice")
    # 003 8, 000 4.18: a stack from the standings, else the tournament's start stack
    # (chip_counts.start_stack reads it: a restart's round starts from it again)
    stack = t.settings.start_stack if e.stack is None else e.stack
    t.players[e.player] = Player(e.player, e.name, member=e.member, chips=stack,
                                 start_stack=e.stack)
    bounties.put_on(t, t.players[e.player])
    t.last_player_id = max(t.last_player_id, e.player)
    t.by_name[e.name.casefold()] = e.player
    t.entries += 1
    t.remaining += 1
    t.chips += stack


def on_renamed(t: Tournament, e: ev.Renamed) -> None:
    p = t.players.get(e.player)
    if p is None:
        raise ev.InvalidEvent(f"there is no player {e.player} to rename")
    key = e.name.casefold()
    if t.by_name.get(key, p.id) != p.id:
        raise ev.InvalidEvent(f"{e.name!r} is another player's name")
    del t.by_name[p.name.casefold()]
    t.by_name[key] = p.id
    p.name = e.name
    for m in t.moves:  # the moves on the screens carry the name
        if m.player == p.id:
            m.name = e.name


def on_unregistered(t: Tournament, e: ev.Unregistered) -> None:
    p = t.players.get(e.player)
    if p is None or t.drawn:
        raise ev.InvalidEvent(f"player {e.player} cannot be taken off the list")
    del t.players[p.id]
    del t.by_name[p.name.casefold()]
    t.entries -= p.entries
    t.remaining -= 1
    t.chips -= p.chips
    t.counted.discard(p.id)  # a count of the stack leaves with the player


def on_late_entry(t: Tournament, e: ev.LateEntry) -> None:
    seating.enter(t, e)


def on_reentry(t: Tournament, e: ev.Reentry) -> None:
    p = t.players[e.player]
    if not p.out:
        raise ev.InvalidEvent(f"{p.name} is not out")
    p.entries += 1
    t.entries += 1
    _back_in(t, p, e)


def on_rebuy(t: Tournament, e: ev.Rebuy) -> None:
    p = t.players[e.player]
    if not p.out:
        raise ev.InvalidEvent(f"{p.name} is not out")
    p.rebuys += 1
    _back_in(t, p, e)


def _back_in(t: Tournament, p: Player, e: ev.Reentry | ev.Rebuy) -> None:
    from controller.engine.rules import busts

    p.out = False
    p.knocked_by = None
    bounties.put_on(t, p)
    p.chips += t.settings.start_stack
    t.chips += t.settings.start_stack
    t.remaining += 1
    busts.unbust(t, p.id)
    seating.enter(t, e)


def on_addon(t: Tournament, e: ev.Addon) -> None:
    t.addon_done = True
    for pid in e.players:
        p = t.players[pid]
        p.addon = True
        p.chips += e.chips
        t.chips += e.chips


# ----------------------------------------------------------------- reactions
def automatic_addon(t: Tournament, now: float) -> None:
    """000 4.13: the add-on phase after ``addon_after_level`` (its break or the next level)."""
    e = t.settings.entries
    if (e.addon_after_level is None or not e.auto_addon_multiplier or t.addon_done
            or not t.drawn or t.finished):
        return
    if addon_phase(t, now):
        _addon(t, now)


COMMANDS = {
    cmd.Register: register, cmd.Late: late, cmd.Rebuy: rebuy, cmd.Reentry: reentry,
    cmd.Addon: addon, cmd.Rename: rename, cmd.Unregister: unregister,
}
FOLDS = {
    ev.Registered: on_registered, ev.LateEntry: on_late_entry, ev.Reentry: on_reentry,
    ev.Rebuy: on_rebuy, ev.Addon: on_addon, ev.Renamed: on_renamed,
    ev.Unregistered: on_unregistered,
}
REACTIONS = (automatic_addon,)
