"""Chip counts (issue 14): stacks counted at a break, a round's end or by the director; they
must fit the chips in play; the wall's average and chip leader; the same-hand tie-break
(000 9.5) uses a known count."""

from __future__ import annotations

from controller.engine.rules import chip_counts
from tests.support.settings import new_tournament, rejected, replay_equal


def _seat(t, name):
    p = t.player(name)
    return p.table, p.seat


def test_a_full_count_that_adds_up_is_stored_and_shows_the_leader_on_the_wall():
    t = new_tournament(4)  # 4 × 10,000 in play
    counts = [{"player": "Player 1", "chips": 16_000}, {"player": "Player 2", "chips": 9_000},
              {"player": "Player 3", "chips": 8_000}]
    table, seat = _seat(t, "Player 4")
    counts.append({"table": table, "seat": seat, "chips": 7_000})
    t.execute({"cmd": "chip_counts", "counts": counts}, 100.0)
    assert chip_counts.known_stack(t, t.player("Player 4").id) == 7_000
    assert chip_counts.leader(t) == (t.player("Player 1").id, 16_000)
    replay_equal(t)


def test_counts_that_do_not_add_up_to_the_chips_in_play_are_refused():
    t = new_tournament(3)
    reason = rejected(t, {"cmd": "chip_counts", "counts": [
        {"player": "Player 1", "chips": 10_000}, {"player": "Player 2", "chips": 10_000},
        {"player": "Player 3", "chips": 9_000}]})
    assert "29,000" in reason and "30,000" in reason
    # a part of the field may not hold more than all the chips
    rejected(t, {"cmd": "chip_counts", "counts": [{"player": "Player 1", "chips": 30_001}]},
             match="more than the 30,000")


def test_a_partial_count_within_the_chips_in_play_is_taken():
    t = new_tournament(3)
    t.execute({"cmd": "chip_counts", "counts": [{"player": "Player 2", "chips": 21_000}]}, 50.0)
    assert chip_counts.leader(t) == (t.player("Player 2").id, 21_000)


def test_a_count_for_an_empty_seat_a_player_out_or_twice_is_refused():
    t = new_tournament(3)
    tab = t.tables[1]
    empty = next(s for s in range(1, tab.size + 1) if s not in tab.occupant)
    rejected(t, {"cmd": "chip_counts", "counts": [{"table": 1, "seat": empty, "chips": 5}]},
             match="is empty")
    t.execute({"cmd": "bust", "player": "Player 3"}, 60.0)
    rejected(t, {"cmd": "chip_counts", "counts": [{"player": "Player 3", "chips": 5}]},
             match="is out")
    rejected(t, {"cmd": "chip_counts", "counts": [{"player": "Player 1", "chips": 5},
                                                  {"player": "Player 1", "chips": 5}]},
             match="counted twice")


def test_the_chips_in_play_count_a_rebuy_and_a_bust_removes_none():
    """000 9.1: a busted player's chips went to the others; 000 4.13: a rebuy adds a stack."""
    import dataclasses

    from controller.engine.settings import Entries
    t = new_tournament(3, entries=dataclasses.replace(Entries(), rebuys=1, rebuy_until_level=4))
    t.execute({"cmd": "bust", "player": "Player 3"}, 60.0)
    rejected(t, {"cmd": "chip_counts", "counts": [{"player": "Player 1", "chips": 10_000},
                                                  {"player": "Player 2", "chips": 10_000}]},
             match="30,000 are in play")
    t.execute({"cmd": "rebuy", "player": "Player 3"}, 61.0)
    assert chip_counts.chips_in_play(t) == 40_000
    t.execute({"cmd": "chip_counts", "counts": [{"player": "Player 1", "chips": 12_000},
                                                {"player": "Player 2", "chips": 18_000},
                                                {"player": "Player 3", "chips": 10_000}]}, 70.0)


def test_a_count_is_stale_once_the_player_buys_chips_again():
    import dataclasses

    from controller.engine.settings import Entries
    t = new_tournament(3, entries=dataclasses.replace(Entries(), rebuys=1, rebuy_until_level=4))
    t.execute({"cmd": "chip_counts", "counts": [{"player": "Player 3", "chips": 4_000}]}, 50.0)
    t.execute({"cmd": "bust", "player": "Player 3"}, 60.0)
    t.execute({"cmd": "rebuy", "player": "Player 3"}, 61.0)
    assert chip_counts.known_stack(t, t.player("Player 3").id) is None


def test_two_busts_of_one_hand_are_ranked_by_the_counted_stacks():
    """000 9.5: two out in one hand, the bigger stack at its start gets the better place;
    without the dealer's stacks the last count decides."""
    t = new_tournament(4)
    t.execute({"cmd": "chip_counts", "counts": [
        {"player": "Player 1", "chips": 5_000}, {"player": "Player 2", "chips": 8_000},
        {"player": "Player 3", "chips": 12_000}, {"player": "Player 4", "chips": 15_000}]}, 50.0)
    t.execute({"cmd": "bust", "player": "Player 2"}, 60.0)
    t.execute({"cmd": "bust", "player": "Player 1", "same_hand": True}, 60.0)
    places = t.places()
    assert places[t.player("Player 2").id] == 3
    assert places[t.player("Player 1").id] == 4
    replay_equal(t)


def test_a_count_from_before_the_hand_does_not_rank_its_busts():
    """000 9.5 ranks by the stacks at the start of the hand: a count from hands ago is not
    that; the later report gets the better place as without stacks."""
    t = new_tournament(4)
    t.execute({"cmd": "chip_counts", "counts": [
        {"player": "Player 1", "chips": 5_000}, {"player": "Player 2", "chips": 8_000},
        {"player": "Player 3", "chips": 12_000}, {"player": "Player 4", "chips": 15_000}]}, 50.0)
    t.execute({"cmd": "hand_done", "table": 1}, 55.0)  # a new hand since the count
    t.execute({"cmd": "bust", "player": "Player 2"}, 60.0)
    t.execute({"cmd": "bust", "player": "Player 1", "same_hand": True}, 60.0)
    places = t.places()
    # by the old count Player 2 (8,000) would rank above Player 1 (5,000)
    assert places[t.player("Player 1").id] == 3  # reported later: the better place
    assert places[t.player("Player 2").id] == 4
