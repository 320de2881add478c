"""One player, one table across the floor's tournaments (001 §1 III).

001 §1 III "Multitabling": "Ist ein Spieler an zwei parallel laufenden Tischen
registriert, kann er aktiv an dem Tisch teilnehmen der früher gestartet ist – an dem
zweiten sind ihm erst Aktionen möglich wenn er den ersten beendet hat."

Each tournament on a floor is its own log (its own controller and prefix), so the fact
that a player sits in another one comes in as a command (``elsewhere``, from the
director or the floor's door) with the other tournament's start; the decision, which
one started earlier, is made here and kept in the log (``elsewhere`` event), so a
replay refuses the same busts and moves. Until ``done``, a bust of the player and a
move (a reseat, a balancing move: the next player in line goes instead) are refused
with the reason; the seat keeps its chips and its blinds as an absent player's does.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def started_at(t: Tournament) -> float | None:
    """When this tournament's clock first started (``None``: not yet)."""
    return next((e["at"] for e in t.log if e["type"] == "clock" and e.get("op") == "start"),
                None)


def elsewhere(t: Tournament, c: cmd.Elsewhere, now: float) -> None:
    p = t.player(c.player)
    if p.ghost:
        raise Rejected("{player} is a ghost seat, not a player", player=p.name)
    where = t.desk.elsewhere.get(p.id)
    if c.done:
        if where is None:
            raise Rejected("{player} plays here only (no other tournament is marked)",
                           player=p.name)
        t.emit(ev.Elsewhere, now, player=p.id, tournament=where, done=True)
        return
    if p.out:
        raise Rejected("{player} is already out", player=p.name)
    if where is not None:
        raise Rejected("{player} already plays at {tournament} (001 §1 III)", player=p.name,
                       tournament=where)
    if c.started is None:
        raise Rejected("say when {tournament} started (started: ISO date and time)",
                       tournament=c.tournament)
    try:
        other = datetime.datetime.fromisoformat(c.started)
    except ValueError:
        raise Rejected("{started!r} is no date and time (ISO, e.g. 2026-11-27T19:30+01:00)",
                       started=c.started) from None
    if other.tzinfo is None:
        raise Rejected("{started!r} needs its UTC offset (e.g. +01:00)", started=c.started)
    ours = started_at(t)
    if ours is not None and ours <= other.timestamp():
        # 001 §1 III: the earlier one is where the player plays, and that is this one
        raise Rejected("{tournament} started after this tournament: {player} plays here, "
                       "and waits there (001 §1 III)", tournament=c.tournament, player=p.name)
    t.emit(ev.Elsewhere, now, player=p.id, tournament=c.tournament)


def check(t: Tournament, pid: int) -> None:
    """Refuse a bust or a move of ``pid`` while they play in an earlier tournament."""
    where = t.desk.elsewhere.get(pid)
    if where is not None:
        raise Rejected("{player} plays at {tournament}, which started earlier: a bust or a "
                       "move here waits until that is over for the player (001 §1 III)",
                       player=t.players[pid].name, tournament=where)


def on_elsewhere(t: Tournament, e: ev.Elsewhere) -> None:
    if e.player not in t.players:
        raise ev.InvalidEvent(f"there is no player {e.player}")
    if e.done:
        t.desk.elsewhere.pop(e.player, None)
    else:
        t.desk.elsewhere[e.player] = e.tournament


COMMANDS = {cmd.Elsewhere: elsewhere}
FOLDS = {ev.Elsewhere: on_elsewhere}
