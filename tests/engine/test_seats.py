"""Seats on a real night (issue 10, points 4 and 5): a short table waits for its arrivals,
a move is done when the player sits down, and late entries fill the tables without
breaking and reopening them.

Rules: TDA 11D (play halts on a table three or more players short), 000 4.9 (the next big
blind moves, to the worst seat), 000 4.3 (9 a table, at most 10), 002 ("Das Spiel an einem
Tisch wird erst ab drei Spielgästen begonnen"), 000 4.10 (arrivals are dealt in, except
between the button and the small blind).
"""

from __future__ import annotations

import copy

import pytest

from controller import views
from controller.engine.commands import Rejected
from controller.engine.settings import Balancing
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament


def rejected(t: Tournament, command: dict, now: float = 100.0) -> str:
    """The command is refused with a reason and changes nothing."""
    before = copy.deepcopy(t.fingerprint())
    log = len(t.log)
    with pytest.raises(Rejected) as info:
        t.execute(command, now)
    assert t.fingerprint() == before and len(t.log) == log
    return str(info.value)


def bust_at(t: Tournament, table: int, n: int, now: float = 10.0) -> None:
    for _ in range(n):
        seat = sorted(t.tables[table].occupant)[0]
        t.execute({"cmd": "bust", "table": table, "seat": seat}, now)


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def replays(t: Tournament) -> bool:
    return Tournament.replay(t.log).fingerprint() == t.fingerprint()


# --------------------------------------------------------- 10.4 a short table waits
def test_short_table_waits_for_its_arrival_donor_first_TDA_11D():
    """T1 9, T2 6: T2 is three short. T1's hand ends first: its next big blind moves to T2
    (000 4.9) and T2, once its hand is over, deals no new hand until the player sits down."""
    t = new_tournament(18)
    bust_at(t, 2, 3)
    assert t.counts() == {1: 9, 2: 6}
    mover = t.tables[1].occupant[t.tables[1].next_big_blind()]
    moved = of(t.execute({"cmd": "hand_done", "table": 1}, 20.0), "moved")
    assert [(m["player"], m["to_table"], m.get("hold")) for m in moved] == [(mover, 2, True)]
    # T2 was still playing its hand: it finishes it, then waits
    assert not t.tables[2].holds
    done = t.execute({"cmd": "hand_done", "table": 2}, 30.0)
    assert of(done, "hand_done") and t.tables[2].holds
    # the move is not done because T2 finished a hand: only a seat taken does that
    assert [m.player for m in t.pending_moves()] == [mover]
    view = views.table_view(t, 2)
    assert [w["player_id"] for w in view["waits_for"]] == [mover]
    assert views.table_view(t, 1)["waits_for"] == []
    # no hand can be finished at a table that may not deal one: the reason names who and
    # where from
    name = t.players[mover].name
    reason = rejected(t, {"cmd": "hand_done", "table": 2})
    assert name in reason and "from table 1 seat" in reason and "TDA 11D" in reason
    # T1's button box cannot say T2's arrival sat down
    assert "nobody is on the way to table 1" in rejected(t, {"cmd": "seated", "table": 1})
    seated = t.execute({"cmd": "seated", "table": 2}, 40.0)
    assert [(e["player"], e["table"]) for e in of(seated, "seated")] == [(mover, 2)]
    assert not t.tables[2].holds and t.pending_moves() == []
    assert [m.done for m in t.moves] == [True]
    assert views.table_view(t, 2)["waits_for"] == []
    assert of(t.execute({"cmd": "hand_done", "table": 2}, 50.0), "hand_done")
    assert replays(t)


def test_short_table_gets_its_move_before_its_next_hand_TDA_11D_000_4_9():
    """T2 (three short) finishes its hand before the donor: the move is decided at once,
    the donor's next big blind (who walks over when T1's hand is over); T2 waits for him."""
    t = new_tournament(18)
    bust_at(t, 2, 3)
    tab1 = t.tables[1]
    positions = (tab1.button, tab1.sb, tab1.bb)
    mover_seat = tab1.next_big_blind()
    mover = tab1.occupant[mover_seat]
    worst = t.tables[2].worst_seat()
    events = t.execute({"cmd": "hand_done", "table": 2}, 20.0)
    moved = of(events, "moved")
    assert [(m["player"], m["from_table"], m["from_seat"], m["to_table"], m["hold"])
            for m in moved] == [(mover, 1, mover_seat, 2, True)]
    assert [e["type"] for e in events][-1] == "hand_done"  # the move came first
    assert t.tables[2].holds and t.counts() == {1: 8, 2: 7}
    # T1's hand in play is untouched; when it ends nobody else moves, and the big blind
    # goes on to the next player, as if the mover had left at T1's hand boundary
    assert (tab1.button, tab1.sb, tab1.bb) == positions
    later = t.execute({"cmd": "hand_done", "table": 1}, 25.0)
    assert not of(later, "moved")
    assert tab1.sb == positions[2]
    assert tab1.bb == next(s for s in tab1.clockwise(mover_seat) if s in tab1.occupant)
    # the worst seat at T2, counted from the big blind of T2's hand just over (000 4.9)
    assert moved[0]["to_seat"] == worst
    assert t.execute({"cmd": "seated", "player": mover}, 30.0)
    assert not t.tables[2].holds
    assert replays(t)


def test_two_short_does_not_halt_but_the_move_waits_for_the_seat_TDA_11D():
    """T1 9, T2 7: balancing within 1 moves a player, but T2 plays on (TDA 11D halts only
    three short). The move is still pending after T2's next hand: only seated ends it."""
    t = new_tournament(18)
    bust_at(t, 2, 2)
    moved = of(t.execute({"cmd": "hand_done", "table": 1}, 20.0), "moved")
    assert len(moved) == 1 and "hold" not in moved[0]
    t.execute({"cmd": "hand_done", "table": 2}, 30.0)
    assert not t.tables[2].holds
    t.execute({"cmd": "hand_done", "table": 2}, 40.0)
    assert len(t.pending_moves()) == 1
    t.execute({"cmd": "seated", "table": 2}, 50.0)
    assert t.pending_moves() == []


def test_halt_short_by_zero_never_halts():
    """The preset may switch the halt off (TDA 11D: other formats at the TD's discretion)."""
    t = new_tournament(18, balancing=Balancing(halt_short_by=0))
    bust_at(t, 2, 4)
    t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    t.execute({"cmd": "hand_done", "table": 2}, 30.0)
    assert not t.tables[2].holds
    t.execute({"cmd": "hand_done", "table": 2}, 40.0)


def test_a_waiting_table_deals_again_when_its_arrival_busts_out():
    """The player on the way busts (by name, at the director): nobody is left to wait for."""
    t = new_tournament(18)
    bust_at(t, 2, 3)
    t.execute({"cmd": "hand_done", "table": 2}, 20.0)
    assert t.tables[2].holds
    mover = t.pending_moves()[0].player
    t.execute({"cmd": "bust", "player": mover}, 25.0)
    assert not t.tables[2].holds and views.table_view(t, 2)["waits_for"] == []
    t.execute({"cmd": "hand_done", "table": 2}, 30.0)
    assert replays(t)


def test_seated_needs_a_player_or_a_table():
    t = new_tournament(18)
    assert "a player, or a table" in rejected(t, {"cmd": "seated"})
    assert "a player, or a table" in rejected(t, {"cmd": "seated", "player": 1, "table": 1})
    assert "not in play" in rejected(t, {"cmd": "seated", "table": 7})
