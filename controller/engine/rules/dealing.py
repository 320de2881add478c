"""Who deals where the club plays without a croupier (000 3.11).

"Wird ohne Croupier gespielt, sollen die Spieler selbst die Funktion des Dealers
übernehmen. Bis zum ersten Ausscheiden eines Spielers wechselt die Funktion des
Dealers nach jeder gespielten Hand im Uhrzeigersinn. Jener Spieler, der als Erstes
ausscheidet soll die Dealer-Funktion solange übernehmen, bis der nächste Spieler
seine gesamten Chips verloren hat."

Only where the preset says so (``dealing.players_deal``). Per table: until a player
is out at that table, the dealer is the player on the button (it moves clockwise
with every hand; on a dead button, the next player clockwise); from then on the
player out last at that table deals, until the next one there is out. A dealer who
comes back into play (a rebuy, a re-entry) hands the cards to the one out before,
or back to the button. A disqualified player or one removed as absent deals nowhere.
Nothing is stored: the dealer follows from the busts and the button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def dealer(t: Tournament, tab: Table) -> tuple[int, int | None] | None:
    """Who deals the next hand at ``tab``: ``(player, seat)`` (``seat`` ``None``: a player
    who is out and deals standing), or ``None`` without ``dealing.players_deal`` or
    without a player to deal."""
    if not t.settings.dealing.players_deal:
        return None
    out_here = [b for g in t.groups for b in g if b.table == tab.number]
    for b in sorted(out_here, key=lambda b: -b.order):
        p = t.players.get(b.player)
        if p is not None and p.out and not p.ghost and not p.removed and not p.disqualified:
            return p.id, None
    if tab.button is None:
        return None
    for seat in [tab.button, *tab.clockwise(tab.button)]:
        if tab.dealt(seat) and not t.players[tab.occupant[seat]].ghost:
            return tab.occupant[seat], seat
    return None
