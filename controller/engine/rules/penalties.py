"""Penalties and disqualification (000 3.6-3.9, 4.11; 001 §5; 002; 003 25; 004 7).

The floor (the director) gives them; the engine records them and tells the screens:

- a **warning** ("einmalig abgemahnt", 000 3.6; "Mündliche Verwarnung", 002): counted
  per player, nothing else changes;
- a **sit-out** ("Zeitstrafe", "Penalty"): the player leaves the table for a number
  of hands, of orbits ("Richtwert ... eines gesamten Orbits (Dealerbutton geht eine
  ganze Runde)", 000 3.8; "von einer Button-Runde", 004 7) or of minutes (001 §5
  "für einen festgelegten Zeitraum"). "Eröffnungskarten werden jedoch regulär
  ausgeteilt" (000 3.8): the seat stays dealt in, posts its blinds and is folded,
  so nothing about the seating changes. An orbit is as many hands as the table
  deals in when the penalty is given (recorded in the event as ``hands``); hands
  are counted by the "hand done" of the table where the player sits (wherever a
  move takes them); minutes run on the controller's time, the clock's pauses
  included (the player may come back when the time is up, 001 §5). Given again
  while one runs, the lengths add up ("Die Strafe kann ... mehrfach ausgesprochen
  werden", 002);
- **owed blinds** (000 4.11: who dodges the blinds on a move "muss die Blinds
  nachbringen und erhält ein Penalty"): marked at the seat until the next hand
  done at the player's table; the penalty itself is a second command;
- **disqualification** ("aus der Wertung genommen und seine Chips eingezogen",
  000 3.8; 001 §5; 003 25; 004 7): the player leaves the table and the
  tournament, takes no place and no points (unlike a bust, the places of the
  others are counted as if the player had never been in the ranking: those
  already out move up one place, the list has no gap), cannot
  rebuy or re-enter, and the stack leaves play (``stack`` when counted, else the
  average stack at that moment, recorded in the event).

A penalty for a player who is out, not seated, a ghost seat, or unknown is
refused with the reason, as is a sit-out without exactly one length. Each is one
event, so ``undo`` takes it back like any command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import bounties, seating
from controller.engine.state import Player

if TYPE_CHECKING:
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def _playing(t: Tournament, ref: int | str, what: str) -> Player:
    t.require_running()
    p = t.player(ref)
    if p.ghost:
        raise Rejected("{player} is a ghost seat, not a player: no {what}",
                       player=p.name, what=what)
    if p.disqualified:
        raise Rejected("{player} is disqualified already", player=p.name)
    if p.out or p.table is None:
        raise Rejected("{player} is out (not playing): no {what}", player=p.name, what=what)
    return p


def sitting_out(p: Player, now: float) -> bool:
    """The player's sit-out penalty is running at ``now`` (controller time, s)."""
    return p.sit_out_hands is not None or (p.sit_out_until is not None and now < p.sit_out_until)


def penalty(t: Tournament, c: cmd.Penalty, now: float) -> None:
    p = _playing(t, c.player, "penalty")
    lengths = {k: v for k, v in (("hands", c.hands), ("orbits", c.orbits),
                                 ("minutes", c.minutes)) if v is not None}
    if c.kind != "sit_out":
        if lengths:
            raise Rejected("a {what} has no length (got {given})",
                           what=c.kind.replace('_', ' '), given=', '.join(lengths))
        if c.kind == "owed_blinds":
            if p.owes_blinds:
                raise Rejected("{player} owes the blinds already", player=p.name)
            if not any(m.player == p.id for m in t.moves):
                raise Rejected("{player} has not moved tables: there are no blinds to owe (000 "
                               "4.11)", player=p.name)
        t.emit(ev.Penalty, now, player=p.id, what=c.kind, reason=c.reason)
        return
    if len(lengths) != 1:
        raise Rejected("a sit-out needs one length: hands, orbits or minutes (got {given})",
                       given=', '.join(lengths) or 'none')
    running_hands = p.sit_out_hands is not None
    running_minutes = p.sit_out_until is not None and now < p.sit_out_until
    if c.minutes is not None:
        if running_hands:
            raise Rejected("{player} sits out {sit_out_hands} more hands: give the added penalty "
                           "in hands too", player=p.name, sit_out_hands=p.sit_out_hands)
        start = p.sit_out_until if running_minutes and p.sit_out_until is not None else now
        t.emit(ev.Penalty, now, player=p.id, what="sit_out",
               until=round(start + c.minutes * 60, 3), reason=c.reason)
        return
    if running_minutes:
        raise Rejected("{player} sits out for minutes: give the added penalty in minutes too",
                       player=p.name)
    hands = c.hands
    if c.orbits is not None:
        # 000 3.8: an orbit is the button going once round the table, as dealt now
        hands = c.orbits * t.tables[p.table].dealt_count() if p.table is not None else None
    t.emit(ev.Penalty, now, player=p.id, what="sit_out", hands=hands, orbits=c.orbits,
           reason=c.reason)


def disqualify(t: Tournament, c: cmd.Disqualify, now: float) -> None:
    p = _playing(t, c.player, "disqualification")
    if t.remaining <= 1:
        raise Rejected("{player} is the last player in", player=p.name)
    from controller.engine.rules import final_deal

    final_deal.refuse_disqualifying(t, p)  # the deal's money stays exact (issue 30)
    # the stack leaves play (000 3.8 "Chips eingezogen"): counted, or else the average
    chips = c.stack if c.stack is not None else t.chips // max(1, t.remaining)
    if chips > t.chips:
        raise Rejected("a stack of {chips} is more than the {in_play} chips in play",
                       chips=chips, in_play=t.chips)
    t.emit(ev.Disqualified, now, player=p.id, chips=chips, reason=c.reason)


# --------------------------------------------------------------------- folds
def on_penalty(t: Tournament, e: ev.Penalty) -> None:
    p = t.players[e.player]
    if p.out or p.table is None:
        raise ev.InvalidEvent(f"{p.name} is not playing")
    if e.what == "warning":
        p.warnings += 1
    elif e.what == "owed_blinds":
        p.owes_blinds = True
    elif e.until is not None:
        p.sit_out_until = e.until
    elif e.hands is not None:
        p.sit_out_hands = (p.sit_out_hands or 0) + e.hands


def on_disqualified(t: Tournament, e: ev.Disqualified) -> None:
    p = t.players[e.player]
    if p.out or p.table is None:
        raise ev.InvalidEvent(f"{p.name} is not playing")
    seating.stand(t, p.id)
    seating.close_moves(t, p.id)
    p.out = p.disqualified = True
    bounties.busted(t, p, None)  # out of the ranking: nobody wins the head
    p.disqualified_for = e.reason
    t.disqualified.append(p.id)
    p.knocked_by = None
    p.absent_since = None
    p.sit_out_hands = p.sit_out_until = None
    p.owes_blinds = False
    t.chips -= e.chips
    # out of the ranking: no bust group, so no place, and the others' places are
    # counted without this player (places.places counts from ``remaining``)
    t.remaining -= 1


def hand_played(t: Tournament, tab: Table, group: int) -> None:
    """The hand in play at ``tab`` is over (its "hand done" of command ``group``, before the
    button moves): a dealt-in sit-out counts one hand, owed blinds were posted in it. A
    player this hand done moves away (a balancing move of the same command) played it here."""
    played = [pid for seat, pid in tab.occupant.items() if tab.dealt(seat)]
    played += [m.player for m in t.pending.values()
               if m.from_table == tab.number and m.seq >= group]
    for pid in played:
        p = t.players[pid]
        p.owes_blinds = False
        if p.sit_out_hands is not None:
            p.sit_out_hands -= 1
            if p.sit_out_hands <= 0:
                p.sit_out_hands = None


# -------------------------------------------------------------------- queries
def sit_outs(t: Tournament, tab: Table, now: float) -> list[dict[str, object]]:
    """The penalties to show at ``tab``: ``seat``, ``player_id``, ``hands_left`` or
    ``until`` (controller time, s) of a running sit-out, ``owes_blinds``."""
    out: list[dict[str, object]] = []
    for seat, pid in sorted(tab.occupant.items()):
        p = t.players[pid]
        running = sitting_out(p, now)
        if not running and not p.owes_blinds:
            continue
        out.append({"seat": seat, "player_id": pid,
                    "hands_left": p.sit_out_hands if running else None,
                    "until": p.sit_out_until if running and p.sit_out_hands is None else None,
                    "owes_blinds": p.owes_blinds})
    return out


def disqualified(t: Tournament) -> list[Player]:
    """The disqualified players, in the order of their disqualification."""
    return [t.players[pid] for pid in t.disqualified]


COMMANDS = {cmd.Penalty: penalty, cmd.Disqualify: disqualify}
FOLDS = {ev.Penalty: on_penalty, ev.Disqualified: on_disqualified}
