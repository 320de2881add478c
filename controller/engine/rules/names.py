"""Drawn names (000 6.3) and mystery-bounty lists (000 4.17), entered by the director.

000 6.3: "Jedes Vereinsmitglied zieht zusätzlich vor Turnierbeginn 3 Spielernamen
anderer Vereinsmitglieder": knocking out one of them is worth 2 more
championship points. 000 4.17: in a mystery bounty "jeder Spieler erhält vor dem
Turnierstart eine Liste mit 5 Namen"; knocking out one of them wins a prize.
The names are drawn on paper before the start; the director types them in
(before, during or after the night: they score only in the results). Entering a list
again replaces it (a typo), ``[]`` clears it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


def _names(t: Tournament, owner: int, refs: list[int | str], limit: int, rule: str,
           members: bool) -> list[int]:
    ids: list[int] = []
    for ref in refs:
        p = t.player(ref)
        if p.ghost:
            raise Rejected("{player} is a ghost seat, not a player", player=p.name)
        if p.id == owner:
            raise Rejected("{player} cannot draw their own name ({rule})", player=p.name, rule=rule)
        if members and not p.member:
            raise Rejected("{player} is not a member: members draw members' names ({rule})",
                           player=p.name, rule=rule)
        if p.id in ids:
            raise Rejected("{player} is on the list twice", player=p.name)
        ids.append(p.id)
    if len(ids) > limit:
        raise Rejected("{count} names, at most {limit} ({rule})",
                       count=len(ids), limit=limit, rule=rule)
    return ids


def drawn_names(t: Tournament, c: cmd.DrawnNames, now: float) -> None:
    pts = t.settings.points
    if not pts.knockout:
        raise Rejected("this tournament has no championship knock-out points (000 6)")
    p = t.player(c.player)
    if p.ghost or not p.member:
        raise Rejected("{player} is not a member: only members draw names (000 6.3)", player=p.name)
    ids = _names(t, p.id, c.names, pts.knockout_drawn_names, "000 6.3", members=True)
    t.emit(ev.NamesListed, now, what="drawn", player=p.id, names=ids)


def mystery_list(t: Tournament, c: cmd.MysteryList, now: float) -> None:
    pts = t.settings.points
    if pts.bounty != "mystery":
        raise Rejected("this tournament is not a mystery bounty (000 4.17)")
    p = t.player(c.player)
    if p.ghost:
        raise Rejected("{player} is a ghost seat, not a player", player=p.name)
    ids = _names(t, p.id, c.names, pts.mystery_names, "000 4.17", members=False)
    t.emit(ev.NamesListed, now, what="mystery", player=p.id, names=ids)


def on_names(t: Tournament, e: ev.NamesListed) -> None:
    lists = t.drawn_names if e.what == "drawn" else t.mystery_lists
    if e.names:
        lists[e.player] = tuple(e.names)
    else:
        lists.pop(e.player, None)


COMMANDS = {cmd.DrawnNames: drawn_names, cmd.MysteryList: mystery_list}
FOLDS = {ev.NamesListed: on_names}
