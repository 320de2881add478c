"""Bounties in money (002 "Bounty Turniere"; issue 30): a part of every buy-in, re-entry
and rebuy (``money.bounty``) goes onto the player's head instead of into the prize pool.

The player who busts another wins that head in cash. In a progressive knock-out
(``money.progressive``) the hunter wins half of it (the odd cent too) and the other half
goes onto the hunter's own head. The winner takes their own head at the end (players
sharing first place each their own).

A head nobody wins — the player was removed as absent (000 9.5), disqualified, or the
bust names no hunter or a ghost seat — is held (``Tournament.bounty_unclaimed``) and goes
to the winner at the end with their own head; players sharing first place split it to
the cent, the cents that do not divide one each in the order they registered.

The heads live in the state (``Player.bounty`` on the head, ``Player.bounty_won`` won in
cash), changed only by the folds of the events: a progressive head depends on the order
of the busts, which the places alone do not keep. Before the end, every cent of the
bounties paid in is on a head, won, or held: :func:`accounted` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.engine.state import Player
    from controller.engine.tournament import Tournament


def price(t: Tournament) -> int:
    """The bounty (cents) each buy-in, re-entry and rebuy puts on the head (0: none)."""
    money = t.settings.money
    return 0 if money is None else money.bounty


def put_on(t: Tournament, p: Player) -> None:
    """An entry, a re-entry or a rebuy: a fresh bounty on the player's head."""
    if not p.ghost:
        p.bounty += price(t)


def busted(t: Tournament, p: Player, by: int | None) -> None:
    """``p`` is out, busted by ``by`` (``None``: nobody named, removed, disqualified)."""
    head, p.bounty = p.bounty, 0
    if not head:
        return
    hunter = t.players.get(by) if by is not None else None
    if hunter is None or hunter.ghost or hunter.disqualified or hunter.id == p.id:
        t.bounty_unclaimed += head
        return
    money = t.settings.money
    if money is not None and money.progressive:
        onto_head = head // 2  # the odd cent goes to the hunter's pocket
        hunter.bounty += onto_head
        hunter.bounty_won += head - onto_head
    else:
        hunter.bounty_won += head


def finished(t: Tournament, winners: list[int]) -> None:
    """The end: every winner takes their own head, and the held heads are split."""
    winners = sorted(set(winners))
    if not winners:
        return
    for pid in winners:
        w = t.players[pid]
        w.bounty_won += w.bounty
        w.bounty = 0
    each, left = divmod(t.bounty_unclaimed, len(winners))
    for i, pid in enumerate(winners):
        t.players[pid].bounty_won += each + (1 if i < left else 0)
    t.bounty_unclaimed = 0


def won(t: Tournament) -> dict[int, int]:
    """Each player's bounties won in cents (only players who won any)."""
    return {p.id: p.bounty_won for p in t.players.values() if p.bounty_won}


def accounted(t: Tournament) -> int:
    """Every bounty cent now on a head, won, or held: what the bounties took in."""
    return (sum(p.bounty + p.bounty_won for p in t.players.values())
            + t.bounty_unclaimed)
