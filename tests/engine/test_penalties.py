"""Penalties and disqualification (000 3.6-3.9, 4.11; 001 §5; 002; 003 25; 004 7)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.engine.commands import BadCommand, Rejected
from controller.engine.rules import penalties
from controller.engine.settings import Entries, Points
from controller.engine.tournament import Tournament
from tests.engine.test_place_properties import build, step
from tests.support.settings import new_tournament, rejected, replay_equal


def seat_of(t: Tournament, pid: int) -> tuple[int, int]:
    p = t.players[pid]
    assert p.table is not None and p.seat is not None
    return p.table, p.seat


def bust(t: Tournament, pid: int, now: float) -> None:
    t.execute({"cmd": "bust", "player": pid}, now)


# ------------------------------------------------------------------ warning
def test_a_warning_is_counted_and_changes_nothing_else_000_3_6():
    t = new_tournament(9)
    seats = dict(t.tables[1].occupant)
    events = t.execute({"cmd": "penalty", "player": "Player 3", "kind": "warning",
                        "reason": "cards shown"}, 10.0)
    assert [e["type"] for e in events] == ["penalty"]
    assert events[0]["what"] == "warning" and events[0]["reason"] == "cards shown"
    assert t.players[3].warnings == 1
    assert t.tables[1].occupant == seats
    assert not penalties.sitting_out(t.players[3], 10.0)
    replay_equal(t)


# ------------------------------------------------------------------ sit-out
def test_a_sit_out_in_hands_counts_the_hands_dealt_to_the_seat_000_3_8():
    """000 3.8: the player leaves the table, the opening cards are still dealt: the seat
    stays dealt in and each hand done at the table counts one."""
    t = new_tournament(9)
    t.execute({"cmd": "penalty", "player": 4, "hands": 2}, 10.0)
    tab, seat = seat_of(t, 4)
    assert t.tables[tab].dealt(seat)  # still dealt in
    assert t.players[4].sit_out_hands == 2
    assert penalties.sit_outs(t, t.tables[tab], 10.0) == [
        {"seat": seat, "player_id": 4, "hands_left": 2, "until": None, "owes_blinds": False}]
    t.execute({"cmd": "hand_done", "table": tab}, 20.0)
    assert t.players[4].sit_out_hands == 1
    t.execute({"cmd": "hand_done", "table": tab}, 30.0)
    assert t.players[4].sit_out_hands is None
    assert penalties.sit_outs(t, t.tables[tab], 30.0) == []
    replay_equal(t)


def test_an_orbit_is_as_many_hands_as_the_table_deals_000_3_8():
    """000 3.8 "Aussetzen eines gesamten Orbits (Dealerbutton geht eine ganze Runde)"."""
    t = new_tournament(9)
    events = t.execute({"cmd": "penalty", "player": 2, "orbits": 1}, 10.0)
    assert events[0]["hands"] == 9 and events[0]["orbits"] == 1
    bust(t, 5, 11.0)  # one fewer at the table: the orbit given stays nine hands
    assert t.players[2].sit_out_hands == 9


def test_a_sit_out_in_minutes_ends_on_the_controllers_time_001_5():
    """001 §5: "für einen festgelegten Zeitraum des Tisches verwiesen"."""
    t = new_tournament(9)
    t.execute({"cmd": "penalty", "player": 2, "minutes": 5}, 100.0)
    p = t.players[2]
    assert p.sit_out_until == 400.0
    assert penalties.sitting_out(p, 399.0) and not penalties.sitting_out(p, 400.0)
    row = penalties.sit_outs(t, t.tables[p.table], 399.0)[0]  # type: ignore[index]
    assert row["until"] == 400.0 and row["hands_left"] is None
    assert penalties.sit_outs(t, t.tables[p.table], 400.0) == []  # type: ignore[index]


def test_a_second_sit_out_adds_up_002():
    """002: "Die Strafe kann einfach oder mehrfach ausgesprochen werden"."""
    t = new_tournament(9)
    t.execute({"cmd": "penalty", "player": 2, "hands": 3}, 10.0)
    t.execute({"cmd": "penalty", "player": 2, "hands": 2}, 11.0)
    assert t.players[2].sit_out_hands == 5
    t.execute({"cmd": "penalty", "player": 3, "minutes": 5}, 100.0)
    t.execute({"cmd": "penalty", "player": 3, "minutes": 5}, 200.0)
    assert t.players[3].sit_out_until == 700.0
    rejected(t, {"cmd": "penalty", "player": 2, "minutes": 1}, match="in hands too")
    rejected(t, {"cmd": "penalty", "player": 3, "hands": 1}, 300.0, match="in minutes too")


def test_a_sit_out_counts_the_last_hand_at_the_old_table_and_the_new_ones():
    t = new_tournament(18)
    t.execute({"cmd": "bust", "player": t.tables[1].occupant[min(t.tables[1].occupant)]}, 10.0)
    t.execute({"cmd": "bust", "player": t.tables[1].occupant[min(t.tables[1].occupant)]}, 11.0)
    mover_seat = t.tables[2].next_big_blind()
    assert mover_seat is not None
    mover = t.tables[2].occupant[mover_seat]  # 000 4.9: the next big blind moves
    t.execute({"cmd": "penalty", "player": mover, "hands": 3}, 11.5)
    t.execute({"cmd": "hand_done", "table": 2}, 12.0)
    assert t.moves[-1].player == mover and t.players[mover].table == 1
    assert t.players[mover].sit_out_hands == 2  # the hand at table 2 counted
    t.execute({"cmd": "seated", "player": mover}, 13.0)
    t.execute({"cmd": "hand_done", "table": 2}, 14.0)  # the old table: no longer counts
    assert t.players[mover].sit_out_hands == 2
    t.execute({"cmd": "hand_done", "table": 1}, 15.0)
    assert t.players[mover].sit_out_hands == 1  # dealt in at once at table 1
    replay_equal(t)


def test_a_sit_out_counts_at_the_table_a_move_takes_the_player_to():
    t = new_tournament(18)
    t.execute({"cmd": "penalty", "player": 1, "hands": 3}, 10.0)
    tab, _ = seat_of(t, 1)
    t.execute({"cmd": "hand_done", "table": tab}, 20.0)
    assert t.players[1].sit_out_hands == 2
    other = 2 if tab == 1 else 1
    t.execute({"cmd": "hand_done", "table": other}, 21.0)  # another table: not counted
    assert t.players[1].sit_out_hands == 2


# ------------------------------------------------------------- owed blinds
def test_owed_blinds_after_a_move_until_the_next_hand_000_4_11():
    """000 4.11: who dodges the blinds on a move "muss die Blinds nachbringen"."""
    t = new_tournament(18)
    t.execute({"cmd": "bust", "player": t.tables[1].occupant[min(t.tables[1].occupant)]}, 10.0)
    t.execute({"cmd": "bust", "player": t.tables[1].occupant[min(t.tables[1].occupant)]}, 11.0)
    t.execute({"cmd": "hand_done", "table": 2}, 12.0)  # the donor gives its next big blind
    mover = t.moves[-1].player
    rejected(t, {"cmd": "penalty", "player": 3 if mover != 3 else 4, "kind": "owed_blinds"},
             match="has not moved")
    t.execute({"cmd": "seated", "player": mover}, 13.0)
    t.execute({"cmd": "penalty", "player": mover, "kind": "owed_blinds"}, 14.0)
    assert t.players[mover].owes_blinds
    rejected(t, {"cmd": "penalty", "player": mover, "kind": "owed_blinds"}, match="already")
    tab, seat = seat_of(t, mover)
    assert penalties.sit_outs(t, t.tables[tab], 14.0)[0]["owes_blinds"] is True
    assert t.tables[tab].dealt(seat)  # dealt in at once: the blinds come in the next hand
    t.execute({"cmd": "hand_done", "table": tab}, 15.0)
    assert not t.players[mover].owes_blinds


# ---------------------------------------------------------- disqualification
def test_a_disqualified_player_takes_no_place_and_the_chips_leave_play_000_3_8():
    """000 3.8 "aus der Wertung genommen und seine Chips eingezogen": not a bust."""
    t = new_tournament(9)
    chips = t.chips
    t.execute({"cmd": "disqualify", "player": 5, "stack": 12_000, "reason": "collusion"},
              10.0)
    p = t.players[5]
    assert p.out and p.disqualified and p.table is None
    assert t.chips == chips - 12_000
    assert t.remaining == 8
    assert 5 not in t.places()
    bust(t, 6, 20.0)
    assert t.places()[6] == 8  # the next one out is 8th of the 8 ranked
    assert penalties.disqualified(t) == [p]
    replay_equal(t)


def test_disqualification_without_a_count_takes_the_average_stack():
    t = new_tournament(9)
    events = t.execute({"cmd": "disqualify", "player": 5}, 10.0)
    assert events[0]["chips"] == 10_000  # 90,000 in play, 9 players


def test_the_disqualified_player_scores_no_points_000_3_8():
    t = new_tournament(9, points=Points(system="psc_ranking"))
    t.execute({"cmd": "disqualify", "player": 9}, 5.0)
    for i, pid in enumerate(range(1, 8)):
        bust(t, pid, 10.0 + i)
    assert t.finished and t.winner == 8
    rows = t.results()
    assert 9 not in {r.player_id for r in rows}
    assert sorted(r.place for r in rows) == list(range(1, 9))


def test_a_disqualified_player_cannot_come_back():
    t = new_tournament(9, entries=Entries(rebuys=1, reentries=1))
    t.execute({"cmd": "disqualify", "player": 2}, 10.0)
    rejected(t, {"cmd": "rebuy", "player": 2}, match="disqualified")
    rejected(t, {"cmd": "reentry", "player": 2}, match="disqualified")


def test_disqualifying_the_last_but_one_finishes_the_tournament():
    t = new_tournament(3)
    bust(t, 1, 10.0)
    t.execute({"cmd": "disqualify", "player": 2}, 20.0)
    assert t.finished and t.winner == 3
    assert t.places() == {1: 2, 3: 1}


def test_undo_takes_back_a_disqualification_and_a_penalty():
    t = new_tournament(9)
    before = t.fingerprint()
    t.execute({"cmd": "penalty", "player": 4, "hands": 2}, 10.0)
    t.execute({"cmd": "disqualify", "player": 5}, 11.0)
    t.execute({"cmd": "undo"}, 12.0)
    assert not t.players[5].out and t.players[5].table == 1 and t.remaining == 9
    t.execute({"cmd": "undo"}, 13.0)
    assert t.players[4].sit_out_hands is None
    after = t.fingerprint()
    assert after["players"] == before["players"] and after["scalars"] == before["scalars"]
    replay_equal(t)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("command, match", [
    ({"cmd": "penalty", "player": "Nobody", "hands": 2}, "no player called"),
    ({"cmd": "penalty", "player": 1}, "needs one length"),
    ({"cmd": "penalty", "player": 1, "hands": 2, "minutes": 3}, "needs one length"),
    ({"cmd": "penalty", "player": 1, "kind": "warning", "hands": 2}, "has no length"),
    ({"cmd": "disqualify", "player": "Nobody"}, "no player called"),
    ({"cmd": "disqualify", "player": 1, "stack": 10**9}, "more than the"),
])
def test_bad_penalties_are_refused_and_change_nothing(command, match):
    t = new_tournament(9)
    rejected(t, command, match=match)


def test_a_penalty_for_a_player_who_is_out_is_refused():
    t = new_tournament(9)
    bust(t, 1, 10.0)
    rejected(t, {"cmd": "penalty", "player": 1, "hands": 2}, match="is out")
    rejected(t, {"cmd": "disqualify", "player": 1}, match="is out")
    t.execute({"cmd": "disqualify", "player": 2}, 11.0)
    rejected(t, {"cmd": "penalty", "player": 2, "kind": "warning"}, match="disqualified")


@pytest.mark.parametrize("length", [{"hands": -1}, {"hands": 0}, {"orbits": -2},
                                    {"minutes": -5}, {"minutes": 0}])
def test_a_negative_length_is_refused(length):
    t = new_tournament(9)
    with pytest.raises(BadCommand):
        t.execute({"cmd": "penalty", "player": 1, **length}, 10.0)
    assert t.players[1].sit_out_hands is None


def test_no_penalty_before_the_draw():
    t = new_tournament(9, draw=False, start=False)
    rejected(t, {"cmd": "penalty", "player": 1, "kind": "warning"}, 1.0, match="not been drawn")


def test_the_disqualified_are_listed_in_the_order_of_their_disqualification():
    t = new_tournament(9)
    t.execute({"cmd": "disqualify", "player": 5}, 10.0)
    t.execute({"cmd": "disqualify", "player": 3}, 11.0)
    assert [p.id for p in penalties.disqualified(t)] == [5, 3]
    assert t.remaining == 7 and set(t.places()) == set()


def test_a_disqualification_closes_up_the_places_of_those_out_before_000_3_8():
    """000 3.8 "aus der Wertung genommen": the list has no line for the disqualified player,
    so the players out before move up one place (the ranking of 8, not of 9)."""
    t = new_tournament(9)
    bust(t, 1, 10.0)
    assert t.places()[1] == 9
    t.execute({"cmd": "disqualify", "player": 2}, 20.0)
    assert t.places()[1] == 8


# ------------------------------------------------------------------ properties
PENALTY_ACTIONS = ["bust", "bust", "same_hand", "hand_done", "hand_done", "undo", "tick",
                   "move_apply", "penalty", "penalty", "warning", "disqualify"]


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=4, max_value=30),
    per=st.sampled_from([6, 9]),
    seed=st.integers(min_value=0, max_value=2**20),
    steps=st.lists(st.tuples(st.sampled_from(PENALTY_ACTIONS), st.integers(0, 10**6),
                             st.floats(min_value=0.0, max_value=300.0)), max_size=50),
)
def test_penalties_never_move_a_place_and_a_disqualification_is_never_ranked(
        players, per, seed, steps):
    """A warning or a sit-out changes no place and no seat (000 3.8: the seat stays dealt
    in); a disqualified player never has a place; the log replays to the same state."""
    t = build(players, per, False, None, seed, "share")
    now, late_no = 10.0, [0]
    for action, pick, dt in steps:
        now += dt
        playing = sorted(p.id for p in t.players.values() if not p.out and not p.ghost)
        who = playing[pick % len(playing)] if playing else 1
        before, seats = dict(t.places()), {n: dict(x.occupant) for n, x in t.tables.items()}
        try:
            if action == "penalty":
                length = [{"hands": 1 + pick % 9}, {"orbits": 1}, {"minutes": 1 + pick % 20}]
                t.execute({"cmd": "penalty", "player": who, **length[pick % 3]}, now)
            elif action == "warning":
                t.execute({"cmd": "penalty", "player": who, "kind": "warning"}, now)
            elif action == "disqualify":
                t.execute({"cmd": "disqualify", "player": who}, now)
            else:
                step(t, action, pick, now, late_no)
                continue
        except Rejected:
            continue
        if action != "disqualify":
            assert t.places() == before
            assert {n: dict(x.occupant) for n, x in t.tables.items()} == seats
        assert not any(p.disqualified and p.id in t.places() for p in t.players.values())
        assert all(p.sit_out_hands is None or p.sit_out_hands > 0 for p in t.players.values())
    replay_equal(t)
