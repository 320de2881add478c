"""Undo and the history in words (issue 10, points 6 and 8).

000 3.3: the floor's decisions are final unless corrected explicitly; a correction is an
``undo`` event in the record. An undo never leaves a move nobody needs: a later seating
decision taken with the undone bust counted must be undone first (TDA 2024: the
director's decisions are explicit, the floor is told what changes).
"""

from __future__ import annotations

import pytest

from controller.engine import history
from controller.engine.settings import Entries
from controller.engine.tournament import Rejected, Tournament
from tests.support.settings import new_tournament

SIX = {"players_per_table": 6, "table_seats": 6, "final_table_size": 6}


def _bust(t: Tournament, table: int, now: float) -> list[dict]:
    seat = sorted(s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost)[0]
    return t.execute({"cmd": "bust", "table": table, "seat": seat}, now)


def _refused(t: Tournament, command: dict, now: float) -> str:
    before = t.fingerprint()
    n = len(t.log)
    with pytest.raises(Rejected) as info:
        t.execute(command, now)
    assert t.fingerprint() == before and len(t.log) == n
    return str(info.value)


# ------------------------------------------------------------------- 10.6
def test_a_bust_whose_seat_a_carried_out_move_took_is_refused_with_the_move_000_4_9():
    """12 players at 6/6: two busts at table 1 make 4/6, table 2's hand done moves a
    player to table 1, into the first busted player's seat, and the mover sits down.
    Without the first bust the move is not needed, but it was carried out and stays
    (issue 26.8; on the way it would be withdrawn: tests/engine/test_undo_played_on.py),
    so the busted player has no seat to come back to: the bust's undo names the hand done
    that moved and how to go on."""
    t = new_tournament(12, **SIX)
    first = _bust(t, 1, 10.0)
    _bust(t, 1, 11.0)
    hd = t.execute({"cmd": "hand_done", "table": 2}, 12.0)
    move = next(e for e in hd if e["type"] == "moved")
    assert move["to_seat"] == first[0]["seat"]
    t.execute({"cmd": "seated", "player": move["player"]}, 12.5)
    name = t.players[move["player"]].name
    busted = t.players[first[0]["player"]].name
    reason = _refused(t, {"cmd": "undo", "target": first[0]["seq"]}, 13.0)
    assert reason.startswith(f"cannot undo the bust of {busted}, table 1 seat "
                             f"{first[0]['seat']}, place 12 (event {first[0]['seq']}): "
                             "later commands depend on it: ")
    assert (f"#{hd[0]['seq']} hand done at table 2 (with: move {name}: table 2 seat "
            f"{move['from_seat']} → table 1 seat {move['to_seat']})") in reason
    assert f"undo --event {hd[0]['seq']}" in reason
    assert "press it again there" in reason
    # done as the reason says: the counts are as they were before the bust, no move left
    t.execute({"cmd": "undo", "target": hd[0]["seq"]}, 14.0)
    t.execute({"cmd": "undo", "target": first[0]["seq"]}, 15.0)
    assert t.counts() == {1: 5, 2: 6} and t.pending_moves() == []
    assert not t.players[first[0]["player"]].out
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_a_carried_out_move_is_a_dependent_too_000_4_9():
    t = new_tournament(12, **SIX)
    first = _bust(t, 1, 10.0)
    _bust(t, 1, 11.0)
    hd = t.execute({"cmd": "hand_done", "table": 2}, 12.0)
    mover = next(e for e in hd if e["type"] == "moved")["player"]
    t.execute({"cmd": "seated", "player": mover}, 13.0)
    reason = _refused(t, {"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    assert f"undo --event {hd[0]['seq']}" in reason


def test_a_bust_whose_move_would_be_made_anyway_can_be_undone_000_4_9():
    """18 at 6/6/6: busts at table 3 and table 2, then at table 3 again → 6/5/4, table 1
    moves one to table 3. Without table 2's bust (6/6/4) a move to table 3 from one of the
    fullest tables is still called for: that undo is no orphan and goes through."""
    t = new_tournament(18, **SIX)
    _bust(t, 3, 10.0)
    b2 = _bust(t, 2, 11.0)
    _bust(t, 3, 12.0)
    hd = t.execute({"cmd": "hand_done", "table": 1}, 13.0)
    assert [(e["from_table"], e["to_table"]) for e in hd if e["type"] == "moved"] == [(1, 3)]
    t.execute({"cmd": "undo", "target": b2[0]["seq"]}, 14.0)
    assert t.counts() == {1: 5, 2: 6, 3: 5}
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_a_bust_that_a_rebuy_stands_on_names_the_rebuy_000_4_13():
    t = new_tournament(12, entries=Entries(rebuys=1, rebuy_until_level=4))
    b = _bust(t, 1, 10.0)
    pid = b[0]["player"]
    rb = t.execute({"cmd": "rebuy", "player": pid}, 11.0)
    reason = _refused(t, {"cmd": "undo", "target": b[0]["seq"]}, 12.0)
    name = t.players[pid].name
    assert f"#{rb[0]['seq']} rebuy of {name} at table 1" in reason
    # no raw exception text of a fold ("is not out", "InvalidEvent")
    assert "not out" not in reason and "Invalid" not in reason


def test_the_final_table_drawn_by_a_bust_goes_with_its_undo_000_4_3():
    """12 at 6/6: the bust that leaves 6 players draws the final table as its own
    reaction (one group), so the undo of that bust takes the final table back with it and
    the two tables are as they were."""
    t = new_tournament(12, **SIX)
    for i in range(5):
        _bust(t, 1 + i % 2, 10.0 + i)
    before = t.fingerprint()
    last = _bust(t, 2, 20.0)
    assert any(e["type"] == "final_table" for e in last)
    t.execute({"cmd": "undo"}, 21.0)
    assert t.fingerprint() == before


# ------------------------------------------------------------------- 10.8
def test_undo_answers_in_words_what_it_undid_000_3_3():
    t = new_tournament(20, **SIX)
    t.execute({"cmd": "rename", "player": "Player 4", "name": "Karl Meier"}, 5.0)
    seat = t.players[4].seat
    b = t.execute({"cmd": "bust", "player": "Karl Meier"}, 10.0)
    u = t.execute({"cmd": "undo"}, 11.0)
    assert history.line(history.said(t, u)) == (
        f"bust of Karl Meier, table {b[0]['table']} seat {seat}, place 20 undone "
        f"(event {b[0]['seq']})")
    (p,) = history.said(t, u)
    assert p.key == "undone" and p.params["what"]["key"] == "bust"
    one = {"player": "Karl Meier", "table": b[0]["table"], "seat": seat, "place": 20}
    assert p.params["what"]["params"] == {**one, "busts": [one]}


def test_the_reply_of_a_bust_and_a_registration_in_words():
    t = new_tournament(draw=False, start=False)
    reg = t.execute({"cmd": "register", "names": ["Anna Roth", "Jonas Weber"]}, 0.0)
    assert history.line(history.said(t, reg)) == "registered 2 players: Anna Roth, Jonas Weber"
    u = t.execute({"cmd": "undo"}, 1.0)
    assert history.line(history.said(t, u)) == (
        "registration of Anna Roth, Jonas Weber undone (event 2)")


def test_history_lists_the_commands_with_their_numbers_and_undos():
    t = new_tournament(12, **SIX)
    b = _bust(t, 1, 10.0)
    t.execute({"cmd": "time", "op": "add", "seconds": 60}, 11.0)
    u = t.execute({"cmd": "undo", "target": b[0]["seq"]}, 12.0)
    rows = history.recent(t, 3)
    assert [r["event"] for r in rows] == [b[0]["seq"], b[0]["seq"] + 1, u[0]["seq"]]
    bust_row, time_row, undo_row = rows
    name = t.players[b[0]["player"]].name
    assert bust_row["undone_by"] == u[0]["seq"] and not bust_row["by_itself"]
    assert bust_row["text"] == f"{name} out (table 1 seat {b[0]['seat']})"
    assert time_row["text"] == "1:00 added" and time_row["undone_by"] is None
    assert undo_row["text"] == (f"undone: bust of {name}, table 1 seat {b[0]['seat']} "
                                f"(event {b[0]['seq']})")
    # the numbers are what undo takes
    t.execute({"cmd": "undo", "target": time_row["event"]}, 13.0)
    assert history.recent(t, 5)[-3]["undone_by"] is not None


def test_history_marks_what_the_time_did_by_itself():
    t = new_tournament(12, **SIX, entries=Entries(rebuys=1, rebuy_until_level=4,
                                                  addon_after_level=1,
                                                  auto_addon_multiplier=2))
    t.execute({"cmd": "tick"}, 2.0 + 601)  # level 2: the add-on phase
    row = history.recent(t, 1)[-1]
    assert row["by_itself"] and row["text"].startswith("add-on: 20000 chips each for 12")
    with pytest.raises(Rejected):  # the time's own events are no one's command
        t.execute({"cmd": "undo", "target": row["event"]}, 604.0)


def test_every_clock_reply_echoes_the_level_and_time_left_tda():
    """issue 10.9: the reply of a clock command says where the clock stands after it."""
    t = new_tournament(4, start=False)
    ev = t.execute({"cmd": "start"}, 100.0)
    assert history.line(history.said(t, ev, 100.0)) == (
        "clock started; level 1 25/50: 10:00 left (running)")
    ev = t.execute({"cmd": "time", "op": "add", "seconds": -90}, 160.0)
    assert history.line(history.said(t, ev, 160.0)) == (
        "1:30 removed; level 1 25/50: 7:30 left (running)")
    ev = t.execute({"cmd": "level", "to": "next"}, 170.0)
    assert history.line(history.said(t, ev, 170.0)) == (
        "level changed; level 2 50/100: 10:00 left (running)")
    ev = t.execute({"cmd": "pause"}, 230.0)
    assert history.line(history.said(t, ev, 230.0)) == (
        "clock paused; level 2 50/100: 9:00 left (paused)")
    ev = t.execute({"cmd": "time", "op": "set", "seconds": 300}, 240.0)
    assert history.line(history.said(t, ev, 240.0)) == (
        "time set to 5:00; level 2 50/100: 5:00 left (paused)")


def test_an_earlier_bust_is_not_undone_under_the_champion():
    """Found by the floor model (issue 26): an earlier bust undone after the last bust had
    finished the tournament left it over with two players in (places 1, 3: no place 2).
    The champion's bust stands on it: undo that first."""
    t = new_tournament(3)
    first = t.execute({"cmd": "bust", "player": 1}, 10.0)[0]["group"]
    t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    last = t.execute({"cmd": "bust", "player": 2}, 30.0)[0]["group"]
    assert t.finished
    with pytest.raises(Rejected, match=f"later commands depend on it: #{last} bust of Player 2"):
        t.execute({"cmd": "undo", "target": first}, 40.0)
    assert t.finished and t.places() == {1: 3, 2: 2, 3: 1}
    t.execute({"cmd": "undo", "target": last}, 40.0)
    t.execute({"cmd": "undo", "target": first}, 41.0)
    assert not t.finished and t.remaining == 3 and t.places() == {}


def test_the_champions_late_entry_is_not_undone_under_the_end():
    """Found by the floor model (ace-of-spades-championship, issue 26): the late entry of
    the player who then won was undone; the tournament stayed over with a winner who no
    longer existed (places named a player the field did not have). The end stands on it."""
    t = new_tournament(3)
    late = t.execute({"cmd": "late", "name": "Late 1", "force": True}, 10.0)[0]["group"]
    for i, pid in enumerate((1, 2, 3)):
        t.execute({"cmd": "bust", "player": pid}, 20.0 + 10 * i)
        if not t.finished:
            t.execute({"cmd": "hand_done", "table": 1}, 25.0 + 10 * i)
    assert t.finished and t.winner == 4
    with pytest.raises(Rejected, match="later commands depend on it: #[0-9]+ bust of Player 3"):
        t.execute({"cmd": "undo", "target": late}, 60.0)
    assert t.finished and t.winner == 4 and t.places()[4] == 1


def test_an_earlier_bust_is_not_undone_under_a_shared_first_place_001_2_iii():
    """The same for a qualifier of 9 whose last two share place 1 (found by the model)."""
    from controller.config import load_tournament

    t = Tournament.new(load_tournament("config/tournaments/pokerlounge-qualifier.yaml"), 1, 0.0)
    t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(1, 10)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    groups = [t.execute({"cmd": "bust", "player": pid}, 10.0 * pid)[0]["group"]
              for pid in range(1, 8)]
    assert t.finished and sorted(t.co_winners) == [8, 9]
    with pytest.raises(Rejected, match=f"later commands depend on it: #{groups[-1]} "):
        t.execute({"cmd": "undo", "target": groups[0]}, 100.0)
    assert sorted(t.places().values()) == [1, 1, 3, 4, 5, 6, 7, 8, 9]


def test_an_earlier_bust_is_not_undone_under_heads_up_002():
    """Found with the floor model (issue 26): an earlier bust undone after the bust that
    made it heads-up left three players in with the levels halved (002). The heads-up
    bust stands on it: undo that first."""
    t = new_tournament(4, heads_up_halves_level=True)
    first = t.execute({"cmd": "bust", "player": 1}, 10.0)[0]["group"]
    t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    last = t.execute({"cmd": "bust", "player": 2}, 30.0)[0]["group"]
    assert t.heads_up and t.clock.halved
    with pytest.raises(Rejected, match=f"later commands depend on it: #{last} bust of Player 2"):
        t.execute({"cmd": "undo", "target": first}, 40.0)
    t.execute({"cmd": "undo", "target": last}, 40.0)
    t.execute({"cmd": "undo", "target": first}, 41.0)
    assert t.remaining == 4 and not t.heads_up and not t.clock.halved


def test_hand_for_hand_is_not_undone_under_the_busts_of_its_hand_000_9_5():
    """Found by the floor model (pokerlounge-berlin, longer nights): A out at table 1 (its
    first hand); the director switched hand-for-hand on, B out at table 1 in the
    hand-for-hand hand; the hand-for-hand was undone an hour later. Table 1 was back in A's
    hand (its dealer had pressed no "hand done"): the next player out there, D, joined it
    and was ranked by stack with A — below A, though D went out a hand after B. The undo
    of hand-for-hand is refused while a bust stands in its hand (undo B first)."""
    t = new_tournament(18)
    seats = sorted(t.tables[1].occupant)
    who = {s: t.tables[1].occupant[s] for s in seats}
    t.execute({"cmd": "bust", "table": 1, "seat": seats[0], "stack": 20000}, 10.0)
    hfh = t.execute({"cmd": "hfh", "on": True}, 20.0)
    b = t.execute({"cmd": "bust", "table": 1, "seat": seats[1], "stack": 3000}, 30.0)
    assert b[0]["hand"] == ["hfh", hfh[0]["seq"]]
    reason = _refused(t, {"cmd": "undo", "target": hfh[0]["group"]}, 3600.0)
    assert f"undo --event {b[0]['group']}" in reason, reason
    t.execute({"cmd": "undo", "target": b[0]["group"]}, 3601.0)
    t.execute({"cmd": "undo", "target": hfh[0]["group"]}, 3602.0)
    assert not t.hfh.on
    t.execute({"cmd": "hand_done", "table": 1}, 3603.0)
    t.execute({"cmd": "bust", "table": 1, "seat": seats[3], "stack": 5000}, 3610.0)
    places = {r.player_id: r.place for r in t.results()}
    assert places[who[seats[3]]] < places[who[seats[0]]], places
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_a_bust_that_caught_up_a_hand_done_stays_under_the_busts_of_that_hand_000_9_5():
    """Found by the floor model (psc-mystery-bounty, issue 26): A out at table 1; B out there
    without "same hand" (a new hand: the forgotten HAND DONE is caught up); C out in B's hand.
    Undoing B took the caught-up hand done with it: table 1 was back in A's hand, and the next
    player out, D, joined it and was ranked by stack with A — below A, though D went out two
    hands later. The undo of B is refused while C's bust stands in the hand B began (undo C
    first); then B's undo is taken, and D ranks above A."""
    t = new_tournament(18)
    seats = sorted(t.tables[1].occupant)
    who = {s: t.tables[1].occupant[s] for s in seats}
    t.execute({"cmd": "bust", "table": 1, "seat": seats[0], "stack": 20000}, 10.0)
    b = t.execute({"cmd": "bust", "table": 1, "seat": seats[1], "stack": 3000}, 20.0)
    assert b[0]["type"] == "hand_done" and b[0].get("missed")  # caught up
    c = t.execute({"cmd": "bust", "table": 1, "seat": seats[2], "stack": 4000,
                   "same_hand": True}, 30.0)
    reason = ""
    try:
        t.execute({"cmd": "undo", "target": b[0]["group"]}, 40.0)
    except Rejected as why:
        reason = str(why)
    assert f"undo --event {c[0]['group']}" in reason, reason
    t.execute({"cmd": "undo", "target": c[0]["group"]}, 41.0)
    t.execute({"cmd": "undo", "target": b[0]["group"]}, 42.0)
    t.execute({"cmd": "bust", "table": 1, "seat": seats[3], "stack": 5000}, 50.0)
    places = {r.player_id: r.place for r in t.results()}
    # D went out after A, in a later hand: D's place is better, whatever the stacks
    assert places[who[seats[3]]] < places[who[seats[0]]], places
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()
