"""The modes of PSC Five Spades (000 4.14-4.18): play the clock, restart, Landesliga final,
cannonball. Each is a rule module of the engine; a mode's command in a tournament of another
mode is refused, and so is a round ended before its time."""

from __future__ import annotations

from controller.engine.settings import Level, Mode
from controller.engine.tournament import Tournament
from tests.support.settings import make_settings, new_tournament, rejected, replay_equal

MIN = 60.0


def _ptc(players: int = 12) -> Tournament:
    # 000 4.15: no blind raise, three rounds of 1.5 h
    structure = tuple(Level("level", 90 * 60, 100, 200) for _ in range(3))
    return new_tournament(players, structure=structure, mode=Mode(kind="play_the_clock"),
                          players_per_table=6, table_seats=9)


def _all_counts(t: Tournament, leader: str | None = None, bonus: int = 0) -> list[dict]:
    ins = sorted((p for p in t.players.values() if not p.out), key=lambda p: p.id)
    total = t.chips
    each = (total - bonus) // len(ins)
    counts = [{"player": p.id, "chips": each} for p in ins]
    counts[0]["chips"] += (total - bonus) - each * len(ins)
    if leader is not None:
        for c in counts:
            if c["player"] == t.player(leader).id:
                c["chips"] += bonus
    return counts


def test_play_the_clock_round_ended_before_its_time_is_refused():
    t = _ptc()
    rejected(t, {"cmd": "end_round"}, now=2 + 80 * MIN, match="still to play")


def test_play_the_clock_reseats_by_lot_and_the_stacks_travel():
    """000 4.15: after 1.5 h the players are drawn to new opponents; the stack goes along."""
    t = _ptc()
    t.execute({"cmd": "chip_counts", "counts": [{"player": "Player 1", "chips": 25_000}]},
              60 * MIN)
    before = {p.id: (p.table, p.seat) for p in t.players.values()}
    events = t.execute({"cmd": "end_round"}, 2 + 90 * MIN)
    ended = [e for e in events if e["type"] == "round_ended"][0]
    assert ended["round"] == 1 and len(ended["seats"]) == 12 and "seed" in ended
    after = {p.id: (p.table, p.seat) for p in t.players.values()}
    assert after != before
    assert sorted(t.counts().values()) == [6, 6]
    assert t.player("Player 1").stack == 25_000  # the stack travels with the player
    assert t.rounds.number == 2 and not t.finished
    # the screens show every player who changed seats where to go
    moved = {m.player: (m.to_table, m.to_seat) for m in t.pending_moves()}
    assert moved and all(after[pid] == to for pid, to in moved.items())
    assert all(m.reason == "round 1 over: new seats by lot" for m in t.pending_moves())
    replay_equal(t)


def test_play_the_clock_final_count_decides_the_places():
    """000 4.4 / 4.15: after three rounds all chips are counted; the most chips win."""
    t = _ptc(6)
    t.execute({"cmd": "end_round"}, 2 + 90 * MIN)
    t.execute({"cmd": "bust", "player": "Player 6"}, 100 * MIN)
    t.execute({"cmd": "end_round"}, 2 + 180 * MIN)
    # the last round's end needs every stack
    rejected(t, {"cmd": "end_round", "counts": [{"player": "Player 1", "chips": 60_000}]},
             now=2 + 270 * MIN, match="count every player still in")
    bad = _all_counts(t)
    bad[0]["chips"] -= 1
    rejected(t, {"cmd": "end_round", "counts": bad}, now=2 + 270 * MIN, match="count again")
    counts = [{"player": "Player 1", "chips": 8_000}, {"player": "Player 2", "chips": 20_000},
              {"player": "Player 3", "chips": 12_000}, {"player": "Player 4", "chips": 12_000},
              {"player": "Player 5", "chips": 8_000}]
    t.execute({"cmd": "end_round", "counts": counts}, 2 + 270 * MIN)
    assert t.finished and t.winner == t.player("Player 2").id
    places = {t.players[pid].name: place for pid, place in t.places().items()}
    # equal counts share the place (1, 2, 2, 4, 4), the early bust is last
    assert places == {"Player 2": 1, "Player 3": 2, "Player 4": 2, "Player 1": 4,
                      "Player 5": 4, "Player 6": 6}
    replay_equal(t)


def test_play_the_clock_equal_leaders_share_the_win():
    t = _ptc(2)
    for r in (1, 2):
        t.execute({"cmd": "end_round"}, 2 + r * 90 * MIN)
    t.execute({"cmd": "end_round", "counts": [{"player": "Player 1", "chips": 10_000},
                                              {"player": "Player 2", "chips": 10_000}]},
              2 + 270 * MIN)
    assert t.finished and sorted(t.co_winners) == [1, 2]
    assert set(t.places().values()) == {1}


def _restart(players: int = 8) -> Tournament:
    return new_tournament(players, mode=Mode(kind="restart", round_levels=8),
                          players_per_table=6, table_seats=9)


def _past_level(t: Tournament, number: int, start: float = 2.0) -> float:
    """Controller time just after playing level ``number`` of the test structure (10-minute
    levels, a 10-minute break after level 4) when the clock ran from ``start``."""
    breaks = 1 if number >= 4 else 0
    return start + (number + breaks) * 10 * MIN + 1


def test_restart_stops_after_level_8_and_not_before():
    t = _restart()
    rejected(t, {"cmd": "end_round", "counts": _all_counts(t)}, now=_past_level(t, 7),
             match="after level 8")


def test_restart_everybody_starts_again_at_level_1_then_plays_on_with_the_higher_stack():
    """000 4.14: round 1 counted and stored, everybody restarts at level 1 with new seats;
    after round 2 play goes on at level 9 with each player's higher stack; out of both
    rounds is out."""
    t = _restart(8)
    t.execute({"cmd": "bust", "player": "Player 8"}, 20 * MIN)
    t.execute({"cmd": "bust", "player": "Player 7"}, 30 * MIN)
    end1 = _past_level(t, 8)
    # every player still in is counted; the six have the 80,000 in play
    counts1 = [{"player": f"Player {i}", "chips": c} for i, c in
               zip(range(1, 7), (30_000, 20_000, 10_000, 10_000, 5_000, 5_000), strict=True)]
    rejected(t, {"cmd": "end_round", "counts": counts1[:5]}, now=end1, match="count every")
    t.execute({"cmd": "end_round", "counts": counts1}, end1)
    assert t.rounds.number == 2
    assert t.remaining == 8 and all(not p.out for p in t.players.values())
    assert t.chips == 80_000 and t.player("Player 8").stack == 10_000
    assert t.clock.level == 0 and not t.clock.running  # level 1 again, paused
    assert t.places() == {}
    t.execute({"cmd": "resume"}, end1 + 60)
    start2 = end1 + 60
    t.execute({"cmd": "bust", "player": "Player 8"}, start2 + 5 * MIN)  # out in both rounds
    t.execute({"cmd": "bust", "player": "Player 1"}, start2 + 6 * MIN)  # had 30,000 in round 1
    end2 = _past_level(t, 8, start2)
    counts2 = [{"player": f"Player {i}", "chips": c} for i, c in
               zip(range(2, 8), (10_000, 35_000, 5_000, 5_000, 5_000, 20_000), strict=True)]
    t.execute({"cmd": "end_round", "counts": counts2}, end2)
    stacks = {p.name: p.chips for p in t.players.values() if not p.out}
    assert stacks == {"Player 1": 30_000, "Player 2": 20_000, "Player 3": 35_000,
                      "Player 4": 10_000, "Player 5": 5_000, "Player 6": 5_000,
                      "Player 7": 20_000}
    assert t.player("Player 8").out and t.places()[t.player("Player 8").id] == 8
    assert t.level_number() == 9 and not t.clock.running
    assert t.chips == sum(stacks.values())
    rejected(t, {"cmd": "end_round"}, now=end2 + 100, match="both preliminary rounds")
    replay_equal(t)


def test_restart_round_does_not_end_the_tournament_with_its_last_player():
    t = _restart(2)
    t.execute({"cmd": "bust", "player": "Player 2"}, 10 * MIN)
    assert not t.finished
    # one player has every chip: the round is decided before level 8
    t.execute({"cmd": "end_round", "counts": [{"player": "Player 1", "chips": 20_000}]},
              11 * MIN)
    assert t.remaining == 2 and not t.finished


def test_a_modes_command_in_another_mode_is_refused():
    t = new_tournament(4)
    rejected(t, {"cmd": "end_round"}, match="this tournament is tournament")
    t2 = new_tournament(4, draw=False, start=False)
    rejected(t2, {"cmd": "landesliga_points", "points": [{"player": "Player 1", "points": 20}]},
             match="Landesliga final")


def test_landesliga_final_stacks_are_1000_chips_a_point_within_5000_and_20000():
    """000 4.18: 1,000 start chips a point for the final (max. 20,000, min. 5,000)."""
    t = new_tournament(4, draw=False, start=False, start_stack=5_000,
                       mode=Mode(kind="landesliga_final"))
    t.execute({"cmd": "landesliga_points", "points": [
        {"player": "Player 1", "points": 20}, {"player": "Player 2", "points": 13},
        {"player": "Player 3", "points": 3}, {"player": "Player 4", "points": 37}]}, 1.0)
    stacks = {p.name: p.chips for p in t.players.values()}
    assert stacks == {"Player 1": 20_000, "Player 2": 13_000, "Player 3": 5_000,
                      "Player 4": 20_000}
    assert t.chips == 58_000
    t.execute({"cmd": "draw"}, 2.0)
    rejected(t, {"cmd": "landesliga_points", "points": [{"player": "Player 1", "points": 5}]},
             match="before the draw")
    from controller.engine.rules import chip_counts
    assert chip_counts.leader(t) is None  # two have the most: no one leads
    assert chip_counts.start_stack(t, t.player("Player 2").id) == 13_000
    replay_equal(t)


def test_cannonball_levels_grow_steadily():
    """000 4.16: the levels' durations rise continuously."""
    from controller.engine.cannonball import durations

    assert durations(6, first_minutes=10, step_minutes=2, max_minutes=18) == \
        [600, 720, 840, 960, 1080, 1080]


def test_a_restart_structure_needs_a_level_after_the_rounds():
    import pytest
    from pydantic import TypeAdapter, ValidationError

    from controller.engine.settings import TournamentSettings, to_data

    data = to_data(make_settings())
    data["mode"] = {"kind": "restart", "round_levels": 12}
    with pytest.raises(ValidationError, match="000 4.14"):
        TypeAdapter(TournamentSettings).validate_python(data, context={"levels": 12})


def _multi(players: int, rounds: int = 2) -> Tournament:
    return new_tournament(players, mode=Mode(kind="multi_round", rounds=rounds, round_minutes=60),
                          players_per_table=6, table_seats=9, final_table_size=6)


def test_multi_round_round_ended_before_its_time_is_refused():
    t = _multi(12)
    rejected(t, {"cmd": "end_round", "counts": _all_counts(t)}, now=2 + 50 * MIN,
             match="000 4.19")


def test_multi_round_points_per_round_then_the_best_on_points_meet_at_table_1():
    """000 4.19: points by the round's places (18+2 before the end of the time, 18, 15 …),
    everybody redrawn after each round; the best on points meet at the final table, the
    others play at the next tables for the places after theirs."""
    t = _multi(12, rounds=2)
    # round 1 decided before its time: one player takes every chip (+2)
    for i in range(12, 1, -1):
        t.execute({"cmd": "bust", "player": f"Player {i}"}, 10 * MIN + i)
    assert not t.finished
    t.execute({"cmd": "end_round"}, 30 * MIN)
    points1 = t.rounds.points[0]
    assert points1[t.player("Player 1").id] == 20 and points1[t.player("Player 2").id] == 18
    assert points1[t.player("Player 12").id] == 0  # place 12: below the ten that score
    assert t.remaining == 12 and t.chips == 120_000 and t.clock.level == 0
    t.execute({"cmd": "resume"}, 31 * MIN)
    # round 2 at its time: busts, then the count of those still in
    t.execute({"cmd": "bust", "player": "Player 1"}, 40 * MIN)
    start2 = t.rounds.began
    end2 = 31 * MIN + 70 * MIN + 1  # 60 minutes of play and the break after level 4
    assert start2 > 0
    chips = {2: 16_000, 12: 15_000, 11: 9_000, **{i: 10_000 for i in range(3, 11)}}
    counts = [{"player": f"Player {i}", "chips": c} for i, c in sorted(chips.items())]
    counts[0]["chips"] -= 1_000
    rejected(t, {"cmd": "end_round", "counts": counts}, now=end2, match="count again")
    counts[0]["chips"] += 1_000
    t.execute({"cmd": "end_round", "counts": counts}, end2)
    points2 = t.rounds.points[1]
    assert points2[t.player("Player 2").id] == 18  # the chip leader at the time: no +2
    assert points2[t.player("Player 12").id] == 18
    assert {points2[t.player(f"Player {i}").id] for i in range(3, 11)} == {15}  # shared 3rd
    assert points2[t.player("Player 1").id] == 0  # out first of 12
    # the final: table 1 has the best six on points, table 2 the others
    table1 = {t.players[pid].name for pid in t.tables[1].occupant.values()}
    # totals: P2 36, P3 30, P4 27, P5 24, P6 22, then P1 and P7 20: P1's best round wins
    assert table1 == {"Player 1", "Player 2", "Player 3", "Player 4", "Player 5", "Player 6"}
    assert len(table1) == 6 and len(t.tables[2].occupant) == 6
    assert t.rounds.final == {1: 1, 2: 7}
    rejected(t, {"cmd": "end_round"}, now=end2 + 10, match="preliminary rounds are over")
    t.execute({"cmd": "resume"}, end2 + 60)
    # table 2 plays for places 7-12; nobody is moved when it shrinks
    at2 = sorted(t.tables[2].occupant.values())
    for i, pid in enumerate(at2[:5]):
        t.execute({"cmd": "bust", "player": pid}, end2 + 100 + i)
    assert t.places()[at2[0]] == 12 and t.places()[at2[4]] == 8
    assert t.places()[at2[5]] == 7 and 2 not in t.tables and t.rounds.decided[2] == at2[5]
    assert len(t.tables[1].occupant) == 6  # nobody moved to the final table
    at1 = sorted(t.tables[1].occupant.values())
    for i, pid in enumerate(at1[:5]):
        t.execute({"cmd": "bust", "player": pid}, end2 + 200 + i)
    assert t.finished and t.winner == at1[5]
    places = t.places()
    assert sorted(places.values()) == list(range(1, 13))
    assert places[at1[5]] == 1 and places[at1[4]] == 2
    replay_equal(t)


def test_a_rounds_end_is_said_in_words_and_can_be_undone():
    """The director's answer names what happened; an undo takes the round's end back
    (its seats, counts and round number) and the log replays to the same state."""
    from controller.engine import history

    t = _ptc(6)
    before = t.fingerprint()
    events = t.execute({"cmd": "end_round", "counts": _all_counts(t, "Player 3", 6_000)},
                       2 + 90 * MIN)
    words = [p.text for p in history.said(t, events)]
    assert "6 stacks counted" in words and "round 1 over: new seats by lot" in words
    t.execute({"cmd": "undo"}, 2 + 91 * MIN)
    after = t.fingerprint()
    assert after["rounds"] == before["rounds"] and after["tables"] == before["tables"]
    replay_equal(t)


def test_no_bubble_in_a_preliminary_round():
    """000 4.14: a player out in the first round plays the second: no hand-for-hand bubble
    until the preliminary rounds are over."""
    t = _restart(8)
    assert t.bubble_places() == 0
    structure = tuple(Level("level", 90 * 60, 100, 200) for _ in range(3))
    from controller.engine.settings import Points

    ptc = new_tournament(8, structure=structure, mode=Mode(kind="play_the_clock"),
                         points=Points(system="psc_ranking"))
    assert ptc.bubble_places() > 0  # play the clock: a bust is out for good (000 9.1)


def test_a_restart_does_not_bring_a_disqualified_player_back_000_3_8():
    """Found by the floor model (issue 26): the restart's round end (000 4.14) seated a
    disqualified player again (000 3.8: out of the ranking), whom the players' list showed
    as disqualified while the table showed the seat."""
    t = _restart(8)
    t.execute({"cmd": "disqualify", "player": 3, "stack": 1000}, 10.0)
    now = _past_level(t, 8)
    ins = [p.id for p in t.players.values() if not p.out and p.table is not None]
    counts = [{"player": pid, "chips": 1000} for pid in ins]
    counts[0]["chips"] = t.chips - 1000 * (len(ins) - 1)
    t.execute({"cmd": "end_round", "counts": counts}, now)
    p = t.players[3]
    assert p.out and p.disqualified and p.table is None and t.remaining == 7
    replay_equal(t)


def test_a_multi_round_does_not_bring_a_removed_absent_player_back_000_9_5():
    """Found by the floor model (psc-multi-round, issue 26): a player who left the
    tournament and was taken out after the absent time (000 9.5: "aus dem Turnier genommen",
    ranked at that moment) was seated again by the round's end (000 4.19), while the
    players' list said removed and the engine counted 15 seated against the list's 14."""
    from controller.engine.settings import Ghosts

    t = new_tournament(12, mode=Mode(kind="multi_round", rounds=2, round_minutes=60),
                       players_per_table=6, table_seats=9, final_table_size=6,
                       ghosts=Ghosts(absent_minutes=20))
    t.execute({"cmd": "absent", "player": 3}, 5 * MIN)
    t.execute({"cmd": "tick"}, 30 * MIN)
    p = t.players[3]
    assert p.out and p.removed and t.remaining == 11
    ins = [q.id for q in t.players.values() if not q.out and q.table is not None]
    counts = [{"player": pid, "chips": t.chips // len(ins)} for pid in ins]
    counts[0]["chips"] += t.chips - sum(c["chips"] for c in counts)
    t.execute({"cmd": "end_round", "counts": counts}, 2 + 70 * MIN + 1)
    assert p.out and p.removed and p.table is None, "the removed player is not seated again"
    assert t.remaining == 11, "the next round is played by the eleven others"
    replay_equal(t)


def _end_multi_round(t, now: float) -> float:
    """End the round in play at its first due minute from ``now`` (breaks are no play)."""
    from controller.engine.rules.rounds import round_due

    if not t.clock.running:
        t.execute({"cmd": "resume"}, now)
    while round_due(t, now) is not None:
        now += 60
    ins = [q.id for q in t.players.values() if not q.out and q.table is not None]
    counts = [{"player": pid, "chips": t.chips // len(ins)} for pid in ins]
    counts[0]["chips"] += t.chips - sum(c["chips"] for c in counts)
    t.execute({"cmd": "end_round", "counts": counts}, now)
    return now


def test_the_multi_round_final_does_not_seat_a_player_disqualified_after_round_one():
    """Found by the floor model (psc-multi-round, longer nights): a player disqualified in
    the last preliminary round (000 3.8) still had the points of round 1, and the final
    tables by points (000 4.19) seated them again — the wall showed them at table 1 seat 1
    while the engine had them out and disqualified."""
    t = new_tournament(12, mode=Mode(kind="multi_round", rounds=2, round_minutes=60),
                       players_per_table=6, table_seats=9, final_table_size=6)
    now = _end_multi_round(t, 60 * MIN)
    assert t.rounds.number == 2
    t.execute({"cmd": "disqualify", "player": 3, "stack": 1000}, now + 60)
    _end_multi_round(t, now + 120)
    p = t.players[3]
    assert p.out and p.disqualified and p.table is None, "the disqualified player is not seated"
    seated = [q.id for q in t.players.values() if q.table is not None and not q.ghost]
    assert sorted(seated) == [q for q in range(1, 13) if q != 3]
    assert t.tables[1].final, "the final by points is drawn"
    replay_equal(t)


def test_the_multi_round_final_takes_no_entry_000_4_19():
    """Found by the floor model (psc-multi-round, 300-step nights): late registration
    opens again with each round's level 1, and a late entry was seated at a table of the
    final by points — a player without points in a block of places drawn by them, who then
    won the table. A preliminary round takes late entries; the final none (a re-entry or
    rebuy neither)."""
    from controller.engine.settings import Entries

    t = new_tournament(12, mode=Mode(kind="multi_round", rounds=2, round_minutes=60),
                       players_per_table=6, table_seats=9, final_table_size=6,
                       entries=Entries(late_registration_levels=2, reentries=1,
                                       reentry_until_level=2))
    now = _end_multi_round(t, 60 * MIN)
    t.execute({"cmd": "late", "name": "Early Late"}, now + 60)  # round 2: a preliminary
    assert t.players[13].table is not None
    now = _end_multi_round(t, now + 120)
    assert t.rounds.final and t.level_number() == 1
    final = "multi-round final is seated by the points"
    rejected(t, {"cmd": "late", "name": "Too Late"}, now + 60, final)
    rejected(t, {"cmd": "late", "name": "Forced", "force": True}, now + 60, final)
    tab = t.tables[2]
    out = tab.occupant[min(tab.occupant)]
    t.execute({"cmd": "bust", "table": 2, "seat": min(tab.occupant), "confirm": True}, now + 61)
    rejected(t, {"cmd": "reentry", "player": out}, now + 62, final)
    replay_equal(t)
