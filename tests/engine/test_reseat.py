"""The director's hand on the seating (issue 31.7): a named player to a table and seat.

Rules: 002 (a seat for special needs, the room balanced by hand at the start), 000 4.10 /
TDA 10A (an arrival between the button and the small blind waits for the button), 000 3.3
(a decision is corrected by a new entry: the reseat is an event with its reason, undone
by an undo).
"""

from __future__ import annotations

from controller.engine.rules import seating
from controller.engine.tournament import Tournament
from controller.service import views
from controller.wire import wording
from tests.support.settings import new_tournament, rejected


def replays(t: Tournament) -> bool:
    return Tournament.replay(t.log).fingerprint() == t.fingerprint()


def free_seat(t: Tournament, table: int) -> int:
    return next(s for s in range(1, t.tables[table].size + 1)
                if s not in t.tables[table].occupant)


def test_a_player_goes_to_the_seat_the_director_names_002():
    t = new_tournament(16)  # two tables of 8: a ninth seat free at each
    pid = t.tables[1].occupant[3]
    seat = free_seat(t, 2)
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": seat,
                     "reason": "Rollstuhl: Platz am Gang"}, 5.0)
    assert (e["type"], e["from_table"], e["from_seat"], e["to_table"], e["to_seat"]) == \
        ("reseated", 1, 3, 2, seat)
    assert e["reason"] == "Rollstuhl: Platz am Gang"
    p = t.players[pid]
    assert (p.table, p.seat) == (2, seat) and t.counts() == {1: 7, 2: 9}
    # shown as a move on both tables' screens until the player sits down
    assert [m["player_id"] for m in views.table_view(t, 1)["moves_out"]] == [pid]
    assert [m["player_id"] for m in views.table_view(t, 2)["moves_in"]] == [pid]
    t.execute({"cmd": "seated", "player": pid}, 6.0)
    assert views.table_view(t, 2)["moves_in"] == []
    assert replays(t)


def test_without_a_seat_the_one_that_posts_the_big_blind_soonest_TDA_11A():
    t = new_tournament(16)
    pid = t.tables[1].occupant[2]
    worst = t.tables[2].worst_seat()
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "reason": "Wunsch"}, 5.0)
    assert e["to_seat"] == worst


def test_a_seat_change_at_the_same_table():
    t = new_tournament(16)
    pid = t.tables[1].occupant[4]
    seat = free_seat(t, 1)
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 1, "seat": seat,
                     "reason": "Zugluft"}, 5.0)
    assert (e["from_table"], e["to_table"], e["to_seat"]) == (1, 1, seat)
    assert t.tables[1].occupant.get(seat) == pid and 4 not in t.tables[1].occupant
    assert t.counts() == {1: 8, 2: 8}
    assert replays(t)


def test_an_arrival_between_the_button_and_the_small_blind_waits_000_4_10():
    t = new_tournament(16)
    tab = t.tables[2]

    def between() -> list[int]:
        button, sb, _ = tab.next_positions()
        return [s for s in range(1, tab.size + 1)
                if s not in tab.occupant and tab.between_button_and_sb(s, button, sb)]

    # hands are played until the table's free seat lies between the next button and the
    # next small blind
    for hand in range(tab.size):
        if between():
            break
        t.execute({"cmd": "hand_done", "table": 2}, 4.0 + hand)
    assert between(), "no free seat between the button and the small blind"
    pid = next(iter(t.tables[1].occupant.values()))
    seat = between()[0]
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": seat,
                     "reason": "Wunsch"}, 20.0)
    assert e["waiting"] is True and seat in t.tables[2].waiting


def test_impossible_reseats_are_refused_with_the_reason():
    t = new_tournament(16)
    pid = t.tables[1].occupant[3]
    taken = t.tables[2].occupant[1]
    name = t.players[taken].name
    assert name in rejected(t, {"cmd": "reseat", "player": pid, "table": 2, "seat": 1,
                                "reason": "x"})
    assert "already sits at table 1 seat 3" in rejected(
        t, {"cmd": "reseat", "player": pid, "table": 1, "seat": 3, "reason": "x"})
    assert "has seats 1 to" in rejected(t, {"cmd": "reseat", "player": pid, "table": 2,
                                            "seat": 12, "reason": "x"})
    assert "not in play" in rejected(t, {"cmd": "reseat", "player": pid, "table": 7,
                                         "reason": "x"})
    assert "needs a reason" in rejected(t, {"cmd": "reseat", "player": pid, "table": 2,
                                            "reason": "   "})
    t.execute({"cmd": "bust", "table": 1, "seat": 3}, 5.0)
    assert "has no seat" in rejected(t, {"cmd": "reseat", "player": pid, "table": 2,
                                         "reason": "x"})


def test_undo_takes_the_reseat_back_and_an_earlier_bust_stays_undoable():
    t = new_tournament(16)
    out = t.tables[2].occupant[5]
    bust = t.execute({"cmd": "bust", "table": 2, "seat": 5}, 5.0)[0]["seq"]
    pid = t.tables[1].occupant[3]
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": 5,
                     "reason": "Wunsch"}, 6.0)
    # the reseat is not a balancing decision: the bust before it is undone on its own...
    # unless the reseated player sits in the busted player's seat, which the undo names
    reason = rejected(t, {"cmd": "undo", "target": bust})
    assert "reseat" in reason, reason
    t.execute({"cmd": "undo", "target": e["seq"]}, 7.0)
    assert (t.players[pid].table, t.players[pid].seat) == (1, 3)
    t.execute({"cmd": "undo", "target": bust}, 8.0)
    assert t.tables[2].occupant[5] == out
    assert replays(t)


def test_the_history_says_it_in_german():
    t = new_tournament(16)
    pid = t.tables[1].occupant[3]
    t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": free_seat(t, 2),
               "reason": "Rollstuhl"}, 5.0)
    from controller.engine import history

    said = history.event(t, t.log[-1])
    assert said is not None
    line = wording.phrase(said.as_dict(), "de")
    assert line.startswith("Umsetzen durch die Turnierleitung") and "(Rollstuhl)" in line


def test_the_director_chooses_the_table_that_gives_the_player_001_2_I():
    """001 §2 I: "Die Auswahl von welchem Tisch ein Spieler umgesetzt wird, wird von der
    Turnierleitung bestimmt". Tables of 9, 7 and 5: the plan takes table 1's player; the
    director takes table 2's (its next big blind, 000 4.9)."""
    t = new_tournament(27)
    busts = []
    for table, n in ((2, 2), (3, 4)):
        for _ in range(n):
            seat = sorted(t.tables[table].occupant)[0]
            busts.append(t.execute({"cmd": "bust", "table": table, "seat": seat}, 5.0)[0]["seq"])
    assert t.counts() == {1: 9, 2: 7, 3: 5}
    assert seating.balancing(t)[0] == (1, 3)
    assert "is the one short of players" in rejected(t, {"cmd": "move_apply",
                                                         "from_table": 3})
    mover = t.tables[2].occupant[t.tables[2].next_big_blind()]
    [m] = [e for e in t.execute({"cmd": "move_apply", "from_table": 2}, 6.0)
           if e["type"] == "moved"]
    assert (m["player"], m["from_table"], m["to_table"], m["chosen"]) == (mover, 2, 3, True)
    assert t.counts() == {1: 9, 2: 6, 3: 6}
    assert replays(t)
    # the last bust at table 3 undone: 9, 7 and 6 before the move, and table 2's player
    # would not have balanced them: the move, still on the way, is withdrawn with the undo
    # (issue 26.8), as a plan's move is
    t.execute({"cmd": "undo", "target": busts[-1]}, 7.0)
    assert t.counts() == {1: 9, 2: 7, 3: 6}
    assert t.players[mover].table == 2 and mover not in t.pending
    assert replays(t)


def test_a_chosen_table_with_no_player_to_spare_is_refused_001_2_I():
    """Tables of 9, 7 and 6: table 2's player would leave it at 6 and table 3 at 7, the
    tables no more even than before: refused with the counts."""
    t = new_tournament(27)
    for table, n in ((2, 2), (3, 3)):
        for _ in range(n):
            seat = sorted(t.tables[table].occupant)[0]
            t.execute({"cmd": "bust", "table": table, "seat": seat}, 5.0)
    assert t.counts() == {1: 9, 2: 7, 3: 6} and seating.balancing(t)[0] == (1, 3)
    assert "table 2 has 7 players, table 3 6: a player from it would not balance" in \
        rejected(t, {"cmd": "move_apply", "from_table": 2})
