"""The registration desk: the seat limit and the waiting list (002, 000 2.3-2.4),
pre-registration and check-in (000 2.2), cancellation (000 2.6), the no-shows (000 2.7).

002 "Warteliste (first come, first serve): Spieler ohne Sitzplatz werden in
Reihenfolge des Eintreffens vorgemerkt"; 000 2.4 "Eine Nennung am Turniertag ist vor
Ort bei freien Kapazitäten möglich". The limit is the settings' ``desk.seats`` (or
``desk.tables`` × ``players_per_table``), or what the director set (``capacity``).
A registration beyond it goes on the waiting list (``waitlisted``); a seat that comes
free (a cancelled registration, a bust during late registration, more seats) calls the
first in line (``waiting_called`` and the player's ``registered``, seated at once after
the draw): a reaction, so a replay calls the same player at the same moment.

000 2.2: players register ahead (``preregister``); they hold a seat but are expected
until the desk checks them in (``check_in``). 000 2.6: a cancellation is possible until
``desk.cancel_hours`` before ``desk.starts``. At the draw, whoever is still expected did
not come: the ``no_shows`` event takes them off the list, which frees their seats for
the waiting list before the seats are drawn (000 2.7: the club's sanction counts them).
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import membership, play_day, qualifier, reserve, seating
from controller.engine.state import Waiting

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


# ------------------------------------------------------------------ the limit
def limit(t: Tournament) -> int | None:
    """The seat limit now (``None``: none): the director's, else the settings'."""
    if t.desk.limited:
        return t.desk.seats
    s = t.settings.desk
    if s.seats is not None:
        return s.seats
    if s.tables is not None:
        return s.tables * t.settings.players_per_table
    return None


def seats_free(t: Tournament) -> int | None:
    """Seats left under the limit (``None``: no limit). A seat is a registered player's
    before the draw, a player's still in after it (a bust frees one), and before the draw
    a reserve seat (rules/reserve.py): it is kept for late arrivals, not for sale. After
    the draw the reserved seats are the late arrivals' own — a late entry takes one first
    — so a newcomer then counts against the players only."""
    most = limit(t)
    return None if most is None else max(0, most - t.remaining - unsold(t))


def unsold(t: Tournament) -> int:
    """The seats under the limit the desk does not give a registration: the reserve the
    draw will keep (002 "können einige Plätze für eventuell zu spät kommende Gäste
    freigehalten werden"); 0 after the draw."""
    return 0 if t.drawn else reserve.held(t)


def position(t: Tournament, pid: int) -> int | None:
    """``pid``'s place in the waiting line (1: next), ``None``: not waiting."""
    return next((i for i, w in enumerate(t.desk.waiting, 1) if w.id == pid), None)


def waiting_entry(t: Tournament, ref: int | str) -> Waiting | None:
    """The waiting player ``ref`` names (id or name, case-insensitive), if any."""
    for w in t.desk.waiting:
        if (isinstance(ref, int) and not isinstance(ref, bool) and w.id == ref) or \
                (isinstance(ref, str) and w.name.casefold() == ref.strip().casefold()):
            return w
    return None


def check_name(t: Tournament, key: str) -> None:
    """A new name must not be on the waiting list either (``key``: casefolded)."""
    for i, w in enumerate(t.desk.waiting, 1):
        if w.name.casefold() == key:
            raise Rejected("{player} is already on the waiting list (position {position})",
                           player=w.name, position=i)


def expected(t: Tournament) -> list[int]:
    """The pre-registered players on the list who have not arrived yet, by id."""
    return sorted(p for p in t.desk.expected if p in t.players)


def full(t: Tournament) -> bool:
    """No seat for a newcomer: none left, or somebody already waits for one (first come,
    first served)."""
    free = seats_free(t)
    return bool(t.desk.waiting) or (free is not None and free <= 0)


# ------------------------------------------------------------------ commands
def admit(t: Tournament, now: float, name: str, member: bool, stack: int | None = None, *,
          force: bool = False, expect: bool = False) -> None:
    """A new registration before the draw: a seat, or the end of the waiting line (002).
    ``force``: the director seats the player beyond the limit."""
    pid = t.new_player_id()
    if full(t) and not force:
        seat = _seat_to_give(t) if guaranteed(t, member, now) else None
        if seat is None:
            t.emit(ev.Waitlisted, now, player=pid, name=name, member=member, stack=stack,
                   expected=expect)
            return
        t.emit(ev.Bumped, now, player=seat)  # 000 2.3: the member's seat is sure
    t.emit(ev.Registered, now, player=pid, name=name, member=member, stack=stack)
    if expect:
        t.emit(ev.Expected, now, player=pid)


def guaranteed(t: Tournament, member: bool, at: float) -> bool:
    """000 2.3: a member who registers at ``at``, a week (``members_guaranteed_days``) or
    more before the announced start, has a seat for sure."""
    s = t.settings.desk
    if not member or not s.members_guaranteed_days or s.starts is None:
        return False
    start = datetime.datetime.fromisoformat(s.starts).timestamp()
    return at <= start - s.members_guaranteed_days * 86400


def _seat_to_give(t: Tournament) -> int | None:
    """000 2.3: the player on the list who gives a guaranteed member the seat: the last to
    register without the guarantee (when each first came to the desk, the waiting list
    included); ``None``: every seat is guaranteed."""
    first: dict[int, float] = {}
    for e in t.log:
        if e["type"] in ("registered", "waitlisted") and e["player"] not in first:
            first[e["player"]] = e["at"]
    order = sorted((at, pid) for pid, at in first.items() if pid in t.players)
    for at, pid in reversed(order):
        p = t.players[pid]
        if not p.ghost and not guaranteed(t, p.member, at):
            return pid
    return None


def late_waits(t: Tournament, now: float, name: str, member: bool, force: bool) -> bool:
    """A late arrival after the draw when no seat is left: on the waiting list (002: they
    come before anyone who arrives later); ``True`` when so."""
    if force or not full(t):
        return False
    t.emit(ev.Waitlisted, now, player=t.new_player_id(), name=name, member=member)
    return True


def reentry_waits(t: Tournament, now: float, pid: int) -> bool:
    """A re-entry when no seat is left (002: a sold-out night): the busted player goes on
    the waiting list behind those already there and re-enters when called; ``True``
    when so."""
    if not full(t):
        return False
    p = t.players[pid]
    if waiting_entry(t, pid) is not None:
        raise Rejected("{player} is already on the waiting list (position {position})",
                       player=p.name, position=position(t, pid))
    t.emit(ev.Waitlisted, now, player=pid, name=p.name, member=p.member, reentry=True)
    return True


def leave(t: Tournament, ref: int | str, now: float) -> bool:
    """``ref`` is on the waiting list: taken off it (``True``); else ``False``."""
    w = waiting_entry(t, ref)
    if w is None:
        return False
    t.emit(ev.WaitingLeft, now, player=w.id)
    return True


def capacity(t: Tournament, c: cmd.Capacity, now: float) -> None:
    if c.seats is not None and c.tables is not None:
        raise Rejected("give the seat limit as seats or as tables, not both")
    seats = c.seats if c.tables is None else c.tables * t.settings.players_per_table
    if seats is None and limit(t) is None:
        raise Rejected("there is no seat limit to lift")
    if seats == limit(t):
        raise Rejected("the seat limit is already {seats}", seats=seats)
    if seats is not None and seats < t.remaining:
        raise Rejected("{players} players already have a seat: the limit cannot be {seats} "
                       "(take players off the list first)", players=t.remaining, seats=seats)
    if seats is not None and seats < t.remaining + unsold(t):
        raise Rejected("{players} players have a seat and {reserve} seats are reserved: the "
                       "limit cannot be {seats} (reserve fewer seats first)",
                       players=t.remaining, reserve=unsold(t), seats=seats)
    t.emit(ev.CapacitySet, now, seats=seats)


def preregister(t: Tournament, c: cmd.Preregister, now: float) -> None:
    """000 2.2: players who registered ahead; expected until they are checked in."""
    from controller.engine.rules.entries import check_names

    if t.drawn:
        raise Rejected("the seats are drawn: register arrivals as late entries")
    names = [c.names] if isinstance(c.names, str) else c.names
    clean = check_names(t, names)
    member = membership.members(clean, c.member, c.guests)
    membership.check(t, clean, member, c.adult)  # 000 1.1, 2.5
    since = len(t.log)
    for n, m in zip(clean, member, strict=True):
        admit(t, now, n, m, expect=True)
    membership.record(t, now, c.adult, since)


def check_in(t: Tournament, c: cmd.CheckIn, now: float) -> None:
    w = waiting_entry(t, c.player)
    if w is not None:
        if not w.expected:
            raise Rejected("{player} is already checked in (waiting list, position "
                           "{position})", player=w.name, position=position(t, w.id))
        t.emit(ev.CheckedIn, now, player=w.id)
        return
    p = t.player(c.player)
    if p.id not in t.desk.expected:
        raise Rejected("{player} is already checked in", player=p.name)
    t.emit(ev.CheckedIn, now, player=p.id)


def cancel(t: Tournament, c: cmd.Cancel, now: float) -> None:
    """000 2.6: a cancellation until ``cancel_hours`` before the start; after that the
    director may still take it (``force``)."""
    from controller.engine.rules import entries

    s = t.settings.desk
    if not c.force and s.starts is not None and s.cancel_hours:
        start = datetime.datetime.fromisoformat(s.starts).timestamp()
        if now > start - s.cancel_hours * 3600:
            raise Rejected("cancellations close {hours} h before the start (000 2.6): "
                           "confirm to take it all the same", hours=s.cancel_hours)
    if leave(t, c.player, now):
        return
    entries.unregister(t, cmd.Unregister(player=c.player), now)


def no_shows(t: Tournament, now: float) -> None:
    """Before the seats are drawn: the expected who did not come are the no-shows (000 2.7);
    their seats go to the waiting list first."""
    gone = expected(t)
    away = [w.id for w in t.desk.waiting if w.expected]
    if gone or away:
        names = [t.players[p].name for p in gone] + \
            [w.name for w in t.desk.waiting if w.expected]
        t.emit(ev.NoShows, now, players=gone, waiting=away, names=names)
    call_waiting(t, now)


# ----------------------------------------------------------------- reactions
def call_waiting(t: Tournament, now: float) -> None:
    """A free seat calls the first in line: before the draw onto the list, after it into
    a seat while late registration is open (002)."""
    d = t.desk
    if not d.waiting or t.finished:
        return
    free = seats_free(t)
    while d.waiting and (free is None or free > 0):
        if t.drawn and not _may_seat(t, now):
            return
        w = d.waiting[0]
        t.emit(ev.WaitingCalled, now, player=w.id)
        if w.reentry:  # a busted player's re-entry (002): the same player, a new entry
            seating.seat_entry(t, now, w.id, ev.Reentry)
        elif not t.drawn:
            t.emit(ev.Registered, now, player=w.id, name=w.name, member=w.member, stack=w.stack)
            if w.expected:
                t.emit(ev.Expected, now, player=w.id)
        else:
            t.emit(ev.Registered, now, player=w.id, name=w.name, member=w.member)
            if play_day.may_seat_late(t):  # a play day's late arrival waits for a game
                seating.seat_entry(t, now, w.id, ev.LateEntry)
        free = seats_free(t)


def _may_seat(t: Tournament, now: float) -> bool:
    """The first in line may come in now: what a late entry at the desk is asked too."""
    from controller.engine.rules import final_deal, rounds
    from controller.engine.rules.entries import late_open

    if not late_open(t, now):
        return False
    try:  # checks only: they emit nothing
        qualifier.check_field(t, t.real_players() + 1)
        final_deal.refuse_entries(t)  # a deal split the pool among the players left
        rounds.refuse_entries(t)  # the multi-round final is seated by points (000 4.19)
    except Rejected:
        return False
    return True


# --------------------------------------------------------------------- folds
def on_waitlisted(t: Tournament, e: ev.Waitlisted) -> None:
    if e.reentry:
        p = t.players.get(e.player)
        if p is None or not p.out or waiting_entry(t, e.player) is not None:
            raise ev.InvalidEvent(f"player {e.player} cannot wait to re-enter")
        t.desk.waiting.append(Waiting(e.player, p.name, p.member, reentry=True))
        return
    key = e.name.casefold()
    if e.player in t.players or key in t.by_name or waiting_entry(t, e.name) is not None:
        raise ev.InvalidEvent(f"player {e.player} {e.name!r} registered twice")
    t.desk.waiting.append(Waiting(e.player, e.name, e.member, e.stack, e.expected))
    t.last_player_id = max(t.last_player_id, e.player)


def _off_the_line(t: Tournament, pid: int) -> Waiting:
    w = next((w for w in t.desk.waiting if w.id == pid), None)
    if w is None:
        raise ev.InvalidEvent(f"player {pid} is not on the waiting list")
    t.desk.waiting.remove(w)
    return w


def on_waiting_called(t: Tournament, e: ev.WaitingCalled) -> None:
    _off_the_line(t, e.player)


def on_waiting_left(t: Tournament, e: ev.WaitingLeft) -> None:
    _off_the_line(t, e.player)


def on_capacity_set(t: Tournament, e: ev.CapacitySet) -> None:
    t.desk.seats = e.seats
    t.desk.limited = True


def on_expected(t: Tournament, e: ev.Expected) -> None:
    if e.player not in t.players:
        raise ev.InvalidEvent(f"there is no player {e.player} to expect")
    t.desk.expected.add(e.player)


def on_checked_in(t: Tournament, e: ev.CheckedIn) -> None:
    w = waiting_entry(t, e.player)
    if w is not None:
        w.expected = False
        return
    if e.player not in t.desk.expected:
        raise ev.InvalidEvent(f"player {e.player} is not expected")
    t.desk.expected.discard(e.player)


def on_bumped(t: Tournament, e: ev.Bumped) -> None:
    """Off the list, to the head of the waiting list (000 2.3), expected or not as before."""
    p = t.players.pop(e.player, None)
    if p is None or t.drawn:
        raise ev.InvalidEvent(f"player {e.player} cannot give up a seat")
    del t.by_name[p.name.casefold()]
    t.entries -= p.entries
    t.remaining -= 1
    t.chips -= p.chips
    t.counted.discard(p.id)  # a count of the stack leaves with the player
    expected = e.player in t.desk.expected
    t.desk.expected.discard(e.player)
    t.desk.waiting.insert(0, Waiting(p.id, p.name, p.member, p.start_stack, expected))


def on_no_shows(t: Tournament, e: ev.NoShows) -> None:
    if t.drawn:
        raise ev.InvalidEvent("no-shows are found before the draw")
    for pid in e.players:
        p = t.players.pop(pid, None)
        if p is None:
            raise ev.InvalidEvent(f"there is no player {pid} to count as a no-show")
        del t.by_name[p.name.casefold()]
        t.entries -= p.entries
        t.remaining -= 1
        t.chips -= p.chips
        t.counted.discard(pid)  # counted while the draw stood, before it was undone
        t.desk.expected.discard(pid)
    for pid in e.waiting:
        _off_the_line(t, pid)
    t.desk.no_shows += e.names


COMMANDS = {cmd.Capacity: capacity, cmd.Preregister: preregister, cmd.CheckIn: check_in,
            cmd.Cancel: cancel}
FOLDS = {ev.Waitlisted: on_waitlisted, ev.WaitingCalled: on_waiting_called,
         ev.WaitingLeft: on_waiting_left, ev.CapacitySet: on_capacity_set,
         ev.Expected: on_expected, ev.CheckedIn: on_checked_in, ev.NoShows: on_no_shows,
         ev.Bumped: on_bumped}
REACTIONS = (call_waiting,)
