"""What leaves the chips in play, and the director's correction (issue 26, point 4).

A complete chip count must equal the chips in play (rules/chip_counts.py), so the chips in
play must follow what really leaves: a removed ghost takes what it has left after the
blinds it posted (000 9.5: it is dealt in and folded), an absent player what they left
with less the blinds posted while away; chips that leave the game otherwise (a player
who leaves the room with chips, a chip found on the floor) are the director's
``chip_correction`` with its reason, in the log. A count that does not add up says by how
much.
"""

from __future__ import annotations

from controller.engine import history
from controller.engine.rules import chip_counts
from controller.engine.settings import Ghosts
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament, rejected, replay_equal

#: the structure of tests/support/settings: levels of 600 s, a break after level 4
LEVEL = 600.0


def _hands(t: Tournament, table: int, n: int, now: float, who: int) -> tuple[float, int]:
    """``n`` hands done at ``table`` from ``now`` on; the blinds and antes player ``who``
    posted in them (the level's blinds, as the table's positions had them in each hand)."""
    posted = 0
    tab = t.tables[table]
    for _ in range(n):
        lv = t.settings.structure[t.clock.level]
        seat = t.players[who].seat
        posted += (lv.small_blind if seat == tab.sb else 0) + (lv.big_blind if seat == tab.bb
                                                                else 0)
        t.execute({"cmd": "hand_done", "table": table}, now)
        now += 1.0
    return now, posted


def _count_all(t: Tournament, total: int) -> list[dict]:
    """A complete count of everybody in that adds up to ``total``, the last one takes the
    rest."""
    players = [p for p in t.players.values() if not p.out and p.table is not None]
    each = total // len(players)
    counts = [{"player": p.id, "chips": each} for p in players[:-1]]
    counts.append({"player": players[-1].id, "chips": total - each * (len(players) - 1)})
    return counts


def test_a_removed_ghost_takes_what_it_has_left_after_its_blinds_000_9_5():
    """11 players: a ghost fills table 2's reserve seat. It posts its blinds in the hands
    played there; at the first break it leaves with what is left, not the start stack, and
    a true count of the 11 players is taken."""
    t = new_tournament(11, ghosts=Ghosts(enabled=True))
    (ghost,) = [p for p in t.players.values() if p.ghost]
    assert t.chips == 120_000
    now, posted = _hands(t, ghost.table, 8, 10.0, ghost.id)
    assert posted == 150  # twice its small and big blind of level 1 (25/50) in 8 hands
    ev = t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)  # the break: the ghost leaves
    removed = next(e for e in ev if e["type"] == "ghosts_removed")
    assert removed["chips"] == [10_000 - posted]
    assert chip_counts.chips_in_play(t) == 110_000 + posted
    t.execute({"cmd": "chip_counts", "counts": _count_all(t, 110_000 + posted)}, now + 4 * LEVEL)
    assert history.line(history.said(t, ev)).endswith(
        f"1 ghost seats removed ({10_000 - posted:,} chips leave play)")
    replay_equal(t)


def test_a_counted_ghost_leaves_with_its_count_less_what_it_posted_since():
    t = new_tournament(11, ghosts=Ghosts(enabled=True))
    (ghost,) = [p for p in t.players.values() if p.ghost]
    now, _ = _hands(t, ghost.table, 3, 10.0, ghost.id)
    t.execute({"cmd": "chip_counts", "counts": [{"player": ghost.id, "chips": 9_000}]}, now)
    now, posted = _hands(t, ghost.table, 6, now + 1, ghost.id)
    assert posted > 0
    ev = t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)
    assert next(e for e in ev if e["type"] == "ghosts_removed")["chips"] == [9_000 - posted]
    assert chip_counts.chips_in_play(t) == 120_000 - 9_000 + posted


def test_an_absent_player_leaves_with_the_stack_given_less_the_blinds_posted_away_000_9_5():
    """A player leaves with 12,000 and is played as a ghost; after ``absent_minutes`` of
    net playing time they are removed with what is left after the blinds posted since."""
    t = new_tournament(10, ghosts=Ghosts(enabled=False, absent_minutes=20))
    who = t.player("Player 3")
    t.execute({"cmd": "absent", "player": who.id, "stack": 12_000}, 5.0)
    now, posted = _hands(t, who.table, 10, 10.0, who.id)
    assert posted > 0
    ev = t.execute({"cmd": "tick"}, 5.0 + 20 * 60 + 1)
    removed = next(e for e in ev if e["type"] == "absent_removed")
    assert removed["chips"] == [12_000 - posted]
    assert chip_counts.chips_in_play(t) == 100_000 - 12_000 + posted
    t.execute({"cmd": "chip_counts", "counts": _count_all(t, 88_000 + posted)}, now + 1300)
    replay_equal(t)


def test_an_absent_player_without_a_stack_leaves_with_the_last_count_or_the_buy_ins():
    t = new_tournament(10, ghosts=Ghosts(enabled=False, absent_minutes=20))
    who = t.player("Player 3")
    t.execute({"cmd": "absent", "player": who.id}, 5.0)
    now, posted = _hands(t, who.table, 10, 10.0, who.id)
    t.execute({"cmd": "chip_counts", "counts": [{"player": who.id, "chips": 7_000}]}, now)
    now, since = _hands(t, who.table, 10, now + 1, who.id)
    ev = t.execute({"cmd": "tick"}, 5.0 + 20 * 60 + 1)
    assert next(e for e in ev if e["type"] == "absent_removed")["chips"] == [7_000 - since]


# ------------------------------------------------------------ the director's correction
def test_pocketed_chips_are_taken_out_of_play_with_the_reason_in_the_log():
    """Player 4 leaves the room with 5,000 chips in the pocket: the count of the others
    then adds up to 5,000 less than the chips in play. The refusal says by how much, the
    director corrects the chips in play with the reason, and the same count is taken."""
    t = new_tournament(4)
    t.execute({"cmd": "bust", "player": "Player 4"}, 10.0)
    counts = _count_all(t, 35_000)
    reason = rejected(t, {"cmd": "chip_counts", "counts": counts}, 20.0)
    assert "35,000" in reason and "40,000" in reason and "5,000 short" in reason
    assert "chip_correction" in reason
    ev = t.execute({"cmd": "chip_correction", "change": -5_000,
                    "reason": "Player 4 took 5,000 home"}, 21.0)
    assert [(e["type"], e["change"], e["reason"]) for e in ev] == [
        ("chips_corrected", -5_000, "Player 4 took 5,000 home")]
    assert chip_counts.chips_in_play(t) == 35_000
    assert history.line(history.said(t, ev)) == (
        "chips in play corrected by -5,000 (Player 4 took 5,000 home)")
    t.execute({"cmd": "chip_counts", "counts": counts}, 22.0)
    replay_equal(t)
    # and undone like any command
    t2 = new_tournament(4)
    t2.execute({"cmd": "chip_correction", "change": 500, "reason": "found under table 1"}, 5.0)
    assert chip_counts.chips_in_play(t2) == 40_500
    t2.execute({"cmd": "undo"}, 6.0)
    assert chip_counts.chips_in_play(t2) == 40_000


def test_a_count_over_the_chips_in_play_says_by_how_much():
    t = new_tournament(3)
    reason = rejected(t, {"cmd": "chip_counts", "counts": _count_all(t, 31_000)})
    assert "1,000 over" in reason
    reason = rejected(t, {"cmd": "chip_counts", "counts": [{"player": 1, "chips": 30_500}]})
    assert "more than the 30,000 in play by 500" in reason


def test_a_correction_needs_a_reason_and_a_change_that_leaves_chips():
    t = new_tournament(3)
    rejected(t, {"cmd": "chip_correction", "change": -1_000}, match="reason is missing")
    rejected(t, {"cmd": "chip_correction", "change": -1_000, "reason": ""}, match="reason")
    rejected(t, {"cmd": "chip_correction", "change": 0, "reason": "nothing"},
             match="changes nothing")
    rejected(t, {"cmd": "chip_correction", "change": -30_000, "reason": "all gone"},
             match="30,000 chips are in play")


def test_the_correction_says_it_in_german():
    from controller.wire import wording

    t = new_tournament(3)
    ev = t.execute({"cmd": "chip_correction", "change": -2_500, "reason": "eingesteckt"}, 5.0)
    (p,) = history.said(t, ev)
    assert wording.phrase(p.as_dict(), "de") == (
        "Chips im Spiel korrigiert um -2.500 (eingesteckt)")


def test_old_logs_without_the_chips_that_left_replay_as_before():
    """A ghosts_removed of a log written before (no ``chips``) takes the start stack, as it
    did then."""
    t = new_tournament(11, ghosts=Ghosts(enabled=True))
    _hands(t, next(p for p in t.players.values() if p.ghost).table, 8, 10.0,
           next(p.id for p in t.players.values() if p.ghost))
    t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)
    old = [{k: v for k, v in e.items() if not (e["type"] == "ghosts_removed" and k == "chips")}
           for e in t.log]
    assert Tournament.replay(old, check=False).chips == 110_000
