"""An undo near the final table and near a balancing move (issue 26, points 3 and 8).

000 3.3: a correction is an explicit entry in the record, and an undo must never reseat
players silently who have played on at their new seats. A seating decision a command made
(the final table, a broken table) that the floor has played on since keeps the undo from
going through: it is refused with what was played there, newest first. A balancing move
the undone bust called for goes with the undo while the mover has not sat down yet; once
the move is carried out it stays, and the undo says so.
"""

from __future__ import annotations

import pytest

from controller.engine import history
from controller.engine.commands import Rejected
from controller.engine.tournament import Tournament
from tests.support.settings import make_settings, new_tournament, rejected, replay_equal

SIX = {"players_per_table": 6, "table_seats": 6, "final_table_size": 6}


def _bust(t: Tournament, table: int, now: float) -> list[dict]:
    seat = sorted(s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost)[0]
    return t.execute({"cmd": "bust", "table": table, "seat": seat}, now)


def _seats(t: Tournament) -> dict[int, tuple[int | None, int | None]]:
    return {p.id: (p.table, p.seat) for p in t.players.values() if not p.out}


# ------------------------------------------------------------------ 26.3
def test_the_bust_that_drew_the_final_table_is_refused_once_it_was_played_on_000_3_3():
    """10 on two tables: the bust of one draws the final table at table 1; a hand there,
    another bust, another hand. Undoing the first bust would draw a new final table and
    give every player a new seat: it is refused, naming the hands and the bust played at
    the final table since, and nothing moves."""
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    assert [e["type"] for e in first] == ["busted", "final_table"]
    hd1 = t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    second = _bust(t, 1, 12.0)
    hd2 = t.execute({"cmd": "hand_done", "table": 1}, 13.0)
    seats = _seats(t)
    reason = rejected(t, {"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    busted = t.players[first[0]["player"]].name
    assert reason.startswith(f"cannot undo the bust of {busted}, table 2 seat "
                             f"{first[0]['seat']}, place 10 (event {first[0]['seq']}): "
                             "the seats it drew (final table at table 1) have been played on "
                             "since: ")
    for g in (hd2, second, hd1):
        assert f"#{g[0]['seq']} " in reason
    assert (f"undo --event {hd2[0]['seq']} then undo --event {second[0]['seq']} then "
            f"undo --event {hd1[0]['seq']}") in reason
    assert _seats(t) == seats and t.final_table == 1
    assert t.broken == [2]
    replay_equal(t)


def test_done_as_the_refusal_says_the_final_table_goes_with_the_bust_000_3_3():
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    hd1 = t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    t.execute({"cmd": "undo", "target": hd1[0]["seq"]}, 12.0)
    assert t.counts() == {1: 9}
    t.execute({"cmd": "undo", "target": first[0]["seq"]}, 13.0)
    assert t.counts() == {1: 5, 2: 5} and t.final_table is None
    replay_equal(t)


def test_the_final_table_drawn_by_a_bust_goes_with_its_undo_while_nobody_played_000_3_3():
    t = new_tournament(10)
    seats = _seats(t)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "undo", "target": first[0]["seq"]}, 11.0)
    assert _seats(t) == seats and t.final_table is None


def test_a_bust_that_broke_a_table_is_refused_once_a_hand_was_played_there_000_3_3():
    """18 at 6/6/6: the sixth bust leaves 12, table 3 breaks onto tables 1 and 2. Once a
    hand is over at a table that took its players, the bust's undo would send them back
    to the broken table: refused, naming that hand."""
    t = new_tournament(18, **SIX)
    for i in range(5):
        _bust(t, 1 + i % 2, 10.0 + i)
    last = _bust(t, 3, 20.0)
    broke = next(e for e in last if e["type"] == "table_broken")
    to = sorted({m[1] for m in broke["moves"]})
    hd = t.execute({"cmd": "hand_done", "table": to[0]}, 21.0)
    seats = _seats(t)
    reason = rejected(t, {"cmd": "undo", "target": last[0]["seq"]}, 22.0)
    assert f"(table 3 breaks) have been played on since: #{hd[0]['seq']} hand done" in reason
    assert _seats(t) == seats
    # a hand done at a table that took nobody from table 3 stands on nothing
    other = [n for n in t.tables if n not in to]
    assert not other or t.execute({"cmd": "hand_done", "table": other[0]}, 23.0)


def test_the_refusal_says_it_in_german():
    from controller.engine.commands import Rejected
    from controller.wire import wording

    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    try:
        t.execute({"cmd": "undo", "target": first[0]["seq"]}, 12.0)
    except Rejected as why:
        german = wording.reason({"reason": str(why), "why": why.as_dict()}, "de")
    assert german.startswith("„Ausscheiden von ")
    assert "Finaltisch an Tisch 1" in german and "Hand fertig an Tisch 1" in german


def test_the_history_of_the_refused_undo_is_unchanged():
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    rows = history.recent(t, 5)
    rejected(t, {"cmd": "undo", "target": first[0]["seq"]}, 12.0)
    assert history.recent(t, 5) == rows


# ------------------------------------------------------------------ 26.8
def _move_after_two_busts(t: Tournament, first: int = 1, second: int = 2
                          ) -> tuple[list[dict], list[dict], dict]:
    """12 at 6/6 (seed 1): busts at table 1 seats ``first`` and ``second`` make 4/6, table
    2's hand done moves one of its players to table 1: to seat 1 (the first bust's seat)
    after busts at 1 and 2, to seat 5 after busts at 1 and 5. Without the first bust (5/6)
    that move is not called for."""
    busted = t.execute({"cmd": "bust", "table": 1, "seat": first}, 10.0)
    t.execute({"cmd": "bust", "table": 1, "seat": second}, 11.0)
    hd = t.execute({"cmd": "hand_done", "table": 2}, 12.0)
    (move,) = [e for e in hd if e["type"] == "moved"]
    return busted, hd, move


@pytest.mark.parametrize("second", [2, 5])
def test_the_undo_of_a_bust_withdraws_the_move_it_caused_while_the_mover_is_on_the_way(
        second):
    """The director undoes the first bust: the move nobody needs any more goes with it
    (whether it was to the busted player's seat or another), the mover stays at table 2,
    the hand done of table 2 stands (its button moved on), and the answer names the
    withdrawn move."""
    t = new_tournament(12, **SIX)
    first, hd, move = _move_after_two_busts(t, 1, second)
    assert (move["to_seat"] == 1) == (second == 2)
    button = t.tables[2].button
    u = t.execute({"cmd": "undo", "target": first[0]["seq"]}, 13.0)
    mover = t.players[move["player"]]
    assert (mover.table, mover.seat) == (2, move["from_seat"])
    assert t.counts() == {1: 5, 2: 6} and t.pending_moves() == []
    assert not t.players[first[0]["player"]].out
    assert t.tables[2].button == button and t.tables[2].hands == 1  # the hand done stands
    assert u[0]["withdrawn"] == [move["seq"]] and u[0]["players"] == [mover.id]
    assert "stays" not in u[0]
    busted = t.players[first[0]["player"]].name
    assert history.line(history.said(t, u)) == (
        f"bust of {busted}, table 1 seat {first[0]['seat']}, place 12 undone (event "
        f"{first[0]['seq']}); withdrawn: move {mover.name}: table 2 seat {move['from_seat']} "
        f"→ table 1 seat {move['to_seat']}")
    row = history.recent(t, 1)[-1]
    assert row["text"].endswith(f"withdrawn: move {mover.name}: table 2 seat "
                                f"{move['from_seat']} → table 1 seat {move['to_seat']}")
    replay_equal(t)
    # the next command sees the move gone, and so does a replay after it
    t.execute({"cmd": "hand_done", "table": 1}, 14.0)
    replay_equal(t)


def test_the_withdrawn_move_in_german():
    from controller.wire import wording

    t = new_tournament(12, **SIX)
    first, _, move = _move_after_two_busts(t)
    u = t.execute({"cmd": "undo", "target": first[0]["seq"]}, 13.0)
    (p,) = history.said(t, u)
    german = wording.phrase(p.as_dict(), "de")
    assert german.endswith(f"zurückgezogen: Umsetzen {t.players[move['player']].name}: "
                           f"Tisch 2 Platz {move['from_seat']} → Tisch 1 Platz "
                           f"{move['to_seat']}")


def test_a_move_carried_out_stays_and_the_undo_says_so():
    """The mover sat down at table 1: the undo of the first bust goes through, the move
    stays (6/5 after it, within the tolerance), and the answer says it stays."""
    t = new_tournament(12, **SIX)
    first, hd, move = _move_after_two_busts(t, 1, 5)
    t.execute({"cmd": "seated", "player": move["player"]}, 13.0)
    u = t.execute({"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    mover = t.players[move["player"]]
    assert (mover.table, mover.seat) == (1, move["to_seat"])
    assert t.counts() == {1: 6, 2: 5}
    assert u[0]["stays"] == [move["seq"]] and "withdrawn" not in u[0]
    assert history.line(history.said(t, u)).endswith(
        f"; stays (carried out): move {mover.name}: table 2 seat {move['from_seat']} → "
        f"table 1 seat {move['to_seat']}")
    replay_equal(t)


def test_a_move_the_table_dealt_on_with_stays_too():
    t = new_tournament(12, **SIX)
    first, hd, move = _move_after_two_busts(t, 1, 5)
    t.execute({"cmd": "hand_done", "table": 1}, 13.0)  # a hand at table 1 with the mover
    assert t.pending_moves() == []
    u = t.execute({"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    assert u[0]["stays"] == [move["seq"]]
    assert t.players[move["player"]].table == 1
    replay_equal(t)


def test_a_move_carried_out_into_the_busted_players_seat_keeps_the_undo_from_going_through():
    """The mover sat down in the seat of the bust to be undone: that player has no seat to
    come back to while the move stays, so the undo is refused and names the move."""
    t = new_tournament(12, **SIX)
    first, hd, move = _move_after_two_busts(t, 1, 2)
    t.execute({"cmd": "seated", "player": move["player"]}, 13.0)
    reason = rejected(t, {"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    name = t.players[move["player"]].name
    assert (f"#{hd[0]['seq']} hand done at table 2 (with: move {name}: table 2 seat "
            f"{move['from_seat']} → table 1 seat 1)") in reason


def test_a_cancellation_from_before_the_draw_is_not_undone_after_it():
    """Found by the floor model (its desk before the draw): the undo of a cancellation
    after the draw brought the player back onto the list without a seat, and the places
    had a gap. Refused with the reason; undone before the draw it is taken back."""
    t = Tournament.new(make_settings(), 3, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 13)]}, 0.0)
    [gone] = t.execute({"cmd": "cancel", "player": "P5", "force": True}, 1.0)
    t.execute({"cmd": "draw"}, 2.0)
    t.execute({"cmd": "start"}, 3.0)
    before = len(t.log)
    with pytest.raises(Rejected, match=r"cannot undo the .* the seats were drawn after it on "
                                        r"the list without the player \(event \d+\); undo the "
                                        r"draw first, or enter the player as a late entry"):
        t.execute({"cmd": "undo", "target": gone["group"]}, 4.0)
    assert len(t.log) == before and "P5" not in {p.name for p in t.players.values()}
    # before the draw the cancellation is taken back
    u = Tournament.new(make_settings(), 3, 0.0)
    u.execute({"cmd": "register", "names": ["A", "B", "C"]}, 0.0)
    [gone] = u.execute({"cmd": "cancel", "player": "B", "force": True}, 1.0)
    u.execute({"cmd": "undo", "target": gone["group"]}, 2.0)
    assert "B" in {p.name for p in u.players.values()}
