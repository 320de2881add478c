"""Club rules that gave wrong results (issue 10, points 12-16): the qualifier sit & go
(001 §2 III), the Ace of Spades play day (003 6, 7, 11, 13), money venues (002), ghosts
and absent players (000 9.5), drawn names and mystery lists (000 6.3, 4.17)."""

from __future__ import annotations

import pytest

from controller.config import load_tournament
from controller.engine import clock as clk
from controller.engine.commands import Rejected
from controller.engine.points import paid_places
from controller.engine.results import (
    PLAY_DAY_COLUMNS,
    ace_of_spades_season,
    play_day_tables,
    results_csv,
)
from controller.engine.settings import Entries, Ghosts, HandForHand, Level, PlayDay, Points
from controller.engine.tournament import Tournament
from tests.support.paths import ROOT
from tests.support.settings import new_tournament, replay_equal

LEVEL = 600.0


def bust_seat(t: Tournament, table: int, now: float, by: int | None = None) -> int:
    seat = sorted(t.tables[table].occupant)[0]
    pid = t.tables[table].occupant[seat]
    # confirm: a player still on the way to the seat is out all the same (10.2)
    cmd = {"cmd": "bust", "table": table, "seat": seat, "confirm": True}
    if by is not None:
        cmd["by"] = by
    t.execute(cmd, now)
    return pid


def bust_player(t: Tournament, pid: int, now: float, by: int | None = None) -> None:
    cmd = {"cmd": "bust", "player": pid}
    if by is not None:
        cmd["by"] = by
    t.execute(cmd, now)


# ------------------------------------------------------------ 10.12 qualifier
def qualifier(players: int, **kw) -> Tournament:
    return new_tournament(players, table_seats=10, players_per_table=10, final_table_size=10,
                          points=Points(system="qualifier"), **kw)


@pytest.mark.parametrize("players", [5, 11, 12])
def test_qualifier_draw_refuses_a_field_outside_6_to_10_001_2_III(players):
    """001 §2 III: "startet mit mindestens 6 und maximal 10 Spielern" — refused at the draw
    with the reason, instead of prizes vanishing at the end."""
    t = qualifier(players, draw=False, start=False)
    before = list(t.log)
    with pytest.raises(Rejected, match=r"6-10 players \(001 §2 III\), not " + str(players)):
        t.execute({"cmd": "draw"}, 1.0)
    assert t.log == before and not t.drawn


def test_qualifier_late_entry_may_not_make_the_field_11_001_2_III():
    t = qualifier(10)
    with pytest.raises(Rejected, match="001 §2 III"):
        t.execute({"cmd": "late", "name": "Eleven", "force": True}, 10.0)
    assert t.real_players() == 10


@pytest.mark.parametrize("players", [9, 10])
def test_qualifier_of_9_or_10_ends_with_two_tickets_001_2_III(players):
    """001 §2 III: with 9 or 10 players the first two qualify and the heads-up is not
    played: the tournament ends at two, both share 1st and both get a ticket."""
    t = qualifier(players)
    for i in range(players - 3):
        bust_seat(t, 1, 10.0 + i)
    assert not t.finished
    third = bust_seat(t, 1, 100.0)
    assert t.finished
    left = sorted(p.id for p in t.players.values() if not p.out)
    assert len(left) == 2 and t.log[-1]["type"] == "finished"
    assert t.log[-1]["shared"] == left
    places = t.places()
    assert [places[p] for p in left] == [1, 1] and places[third] == 3
    rows = {r.player_id: r for r in t.results()}
    assert [rows[p].prize for p in left] == ["ticket", "ticket"]
    assert rows[third].prize == "re-entry"
    with pytest.raises(Rejected, match="over"):
        bust_seat(t, 1, 200.0)
    replay_equal(t)


def test_qualifier_of_6_to_8_plays_the_heads_up_001_2_III():
    t = qualifier(7)
    for i in range(5):
        bust_seat(t, 1, 10.0 + i)
    assert not t.finished and t.remaining == 2  # 6-8: the heads-up decides ticket vs re-entry
    second = bust_seat(t, 1, 50.0)
    assert t.finished and "shared" not in t.log[-1]
    prizes = {r.place: r.prize for r in t.results()}
    assert prizes[1] == "ticket" and prizes[2] == "re-entry"
    assert t.places()[second] == 2


# ------------------------------------------------------------- 10.14 money
def test_paid_places_count_or_share_of_the_field_002():
    assert paid_places("15%", 27) == 4  # 4.05
    assert paid_places("10%", 25) == 3  # 2.5 rounds half up
    assert paid_places("1%", 10) == 1   # a share pays at least one place
    assert paid_places("0%", 10) == 0
    assert paid_places(12, 9) == 9


def money(players: int, places: int | str, **kw) -> Tournament:
    return new_tournament(players, table_seats=4, players_per_table=4, final_table_size=4,
                          points=Points(system="none", places=places),
                          hand_for_hand=HandForHand(auto=True), **kw)


def test_hand_for_hand_starts_before_the_money_by_itself_002():
    """002: hand-for-hand "tritt vor dem Erreichen der Preisgeld-Platzierungen in Kraft";
    the paid places come from the preset (30 % of 12 = 4 paid: the bubble is 5 left)."""
    t = money(12, "30%")
    assert t.bubble_places() == 4
    now = 10.0
    while t.remaining > 6:
        bust_seat(t, max(t.tables), now)
        now += 1
    assert not t.hfh.on
    events = t.execute({"cmd": "bust", "table": max(t.tables),
                        "seat": sorted(t.tables[max(t.tables)].occupant)[0]}, now)
    assert t.remaining == 5 and len(t.tables) == 2
    hfh = [e for e in events if e["type"] == "hfh"]
    assert hfh and hfh[0]["on"] and hfh[0]["reason"] == "bubble: 5 left, 4 places count"
    replay_equal(t)


def test_reentry_closes_when_the_money_is_reached_002():
    t = money(12, 4, entries=Entries(reentries=3, reentry_until_level=10))
    now = 10.0
    while t.remaining > 6:
        bust_seat(t, max(t.tables), now)
        now += 1
    out = bust_seat(t, max(t.tables), now)  # 5 left: not in the money yet
    t.execute({"cmd": "reentry", "player": out}, now + 1)
    assert t.remaining == 6
    bust_seat(t, max(t.tables), now + 2)
    out = bust_seat(t, max(t.tables), now + 3)  # 4 left: the money is reached
    before = len(t.log)
    with pytest.raises(Rejected, match=r"money is reached \(4 left, 4 places paid\)"):
        t.execute({"cmd": "reentry", "player": out}, now + 4)
    assert len(t.log) == before


def test_the_venue_preset_pays_a_share_of_the_entries_002():
    s = load_tournament(ROOT / "config/tournaments/venue-faq-main-event.yaml")
    assert s.points.places == "15%"
    t = Tournament.new(s, 1, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(40)]}, 0.0)
    assert t.bubble_places() == 6  # 15 % of 40


# ------------------------------------------------------------ 10.15 ghosts
def long_levels(minutes: int = 40, levels: int = 6) -> tuple[Level, ...]:
    return tuple(Level("level", minutes * 60, 25 * 2**i, 50 * 2**i) for i in range(levels))


def test_net_playing_time_leaves_out_pauses_and_breaks_000_9_5():
    t = new_tournament(18)  # clock starts at 2 s; 4 levels of 600 s, then a break of 600 s
    assert t.played(2.0 + 4 * LEVEL + 300) == 4 * LEVEL  # the break does not count
    assert t.played(2.0 + 5 * LEVEL + 100) == 4 * LEVEL + 100
    t.execute({"cmd": "pause"}, 102.0)
    assert t.played(5000.0) == 100.0  # paused: no playing time
    t.execute({"cmd": "resume"}, 5000.0)
    assert t.played(5050.0) == 150.0
    assert clk.played(t.clock, t.settings.structure, 5050.0, 5000.0) == 0.0


def test_a_ghost_leaves_after_2_hours_of_play_even_with_long_levels_000_9_5():
    """000 9.5: "nach 4 ganzen Blindstufen, jedoch max. 2 Stunden Spielzeit". With 40-minute
    levels four levels are 2 h 40: counting levels alone left the ghost seated at 2 h 01."""
    t = new_tournament(25, structure=long_levels(), ghosts=Ghosts(enabled=True))
    ghosts = [p.id for p in t.players.values() if p.ghost]
    assert ghosts
    t.execute({"cmd": "pause"}, 2.0 + 3600)  # a 10-minute pause does not count
    t.execute({"cmd": "resume"}, 2.0 + 4200)
    t.execute({"cmd": "tick"}, 2.0 + 600 + 7200 - 1)
    assert not t.ghosts_removed
    events = t.execute({"cmd": "tick"}, 2.0 + 600 + 7200)
    assert "ghosts_removed" in [e["type"] for e in events]
    assert all(t.players[g].removed and t.players[g].table is None for g in ghosts)
    replay_equal(t)


def test_an_absent_player_is_removed_after_2_hours_net_and_ranked_then_000_9_5():
    """000 9.5: a player who leaves is played as a ghost, removed after 2 h of net playing
    time from the moment they left, ranked at that moment; no bounty point for anybody."""
    t = new_tournament(18, structure=long_levels(), points=Points(knockout=True))
    away = t.tables[1].occupant[sorted(t.tables[1].occupant)[0]]
    t.execute({"cmd": "absent", "player": away}, 100.0)
    with pytest.raises(Rejected, match="already"):
        t.execute({"cmd": "absent", "player": away}, 101.0)
    bust_seat(t, 2, 200.0)  # 17 left
    t.execute({"cmd": "tick"}, 100.0 + 7200 - 1)
    assert not t.players[away].out
    events = t.execute({"cmd": "tick"}, 100.0 + 7200)
    assert [e["type"] for e in events if e["type"] == "absent_removed"] == ["absent_removed"]
    p = t.players[away]
    assert p.out and p.removed and p.table is None
    assert t.places()[away] == 17 and t.remaining == 16  # the place at that moment
    row = next(r for r in t.results() if r.player_id == away)
    assert row.place == 17
    replay_equal(t)


def test_absent_players_removed_together_are_ranked_by_stack_000_9_5():
    t = new_tournament(18, structure=long_levels())
    a = t.tables[1].occupant[sorted(t.tables[1].occupant)[0]]
    b = t.tables[2].occupant[sorted(t.tables[2].occupant)[0]]
    t.execute({"cmd": "absent", "player": a, "stack": 9000}, 100.0)
    t.execute({"cmd": "absent", "player": b, "stack": 4000}, 100.0)
    t.execute({"cmd": "tick"}, 100.0 + 7200)
    places = t.places()
    assert (places[a], places[b]) == (17, 18)  # the bigger stack gets the better place


def test_an_absent_player_who_comes_back_stays_000_9_5():
    t = new_tournament(18, structure=long_levels())
    a = t.tables[1].occupant[sorted(t.tables[1].occupant)[0]]
    t.execute({"cmd": "absent", "player": a}, 100.0)
    t.execute({"cmd": "absent", "player": a, "back": True}, 200.0)
    t.execute({"cmd": "tick"}, 100.0 + 7300)
    assert not t.players[a].out and t.players[a].table == 1
    with pytest.raises(Rejected, match="not absent"):
        t.execute({"cmd": "absent", "player": a, "back": True}, 8000.0)


# ----------------------------------------------- 10.16 drawn names, mystery lists
def test_a_drawn_name_knocked_out_is_worth_2_more_points_000_6_3():
    t = new_tournament(9, points=Points(system="psc_ranking", knockout=True))
    t.execute({"cmd": "drawn_names", "player": "Player 1",
               "names": ["Player 2", "Player 3", "Player 4"]}, 5.0)
    bust_player(t, 2, 10.0, by=1)  # a drawn name: 1 + 2
    bust_player(t, 5, 11.0, by=1)  # not drawn: 1
    for i, victim in enumerate((3, 4, 6, 7, 8, 9)):
        bust_player(t, victim, 20.0 + i)  # nobody credited
    assert t.finished and t.winner == 1
    row = next(r for r in t.results() if r.player_id == 1)
    assert row.knockouts == 2 and row.knockout_points == 4
    replay_equal(t)
    # entering the list again corrects it; the undo takes the correction back
    t.execute({"cmd": "drawn_names", "player": 1, "names": ["Player 6"]}, 12.0)
    assert next(r for r in t.results() if r.player_id == 1).knockout_points == 2
    t.execute({"cmd": "undo"}, 13.0)
    assert t.drawn_names[1] == (2, 3, 4)


@pytest.mark.parametrize(("names", "reason"), [
    (["Player 1"], "own name"),
    (["Player 2", "Player 3", "Player 4", "Player 5"], "at most 3"),
    (["Player 2", "Player 2"], "twice"),
    (["Guest"], "not a member"),
])
def test_drawn_names_are_checked_000_6_3(names, reason):
    t = new_tournament(9, points=Points(system="psc_ranking", knockout=True))
    t.execute({"cmd": "late", "name": "Guest", "member": False, "force": True}, 5.0)
    before = len(t.log)
    with pytest.raises(Rejected, match=reason):
        t.execute({"cmd": "drawn_names", "player": "Player 1", "names": names}, 6.0)
    assert len(t.log) == before


def test_drawn_names_need_championship_points_000_6():
    t = new_tournament(9)
    with pytest.raises(Rejected, match="000 6"):
        t.execute({"cmd": "drawn_names", "player": 1, "names": [2]}, 5.0)


def test_a_mystery_list_is_scored_and_the_ranking_points_stay_000_4_17():
    """000 4.17: knocking out a name on one's list wins a prize; the ranking points (5.4)
    count as always — before the lists were entered too."""
    pts = Points(system="psc_ranking", bounty="mystery")
    t = new_tournament(9, points=pts)
    t.execute({"cmd": "mystery_list", "player": 1, "names": [2, 3, 4, 5, 6]}, 5.0)
    with pytest.raises(Rejected, match="at most 5"):
        t.execute({"cmd": "mystery_list", "player": 2, "names": [1, 3, 4, 5, 6, 7]}, 5.0)
    now = 10.0
    for victim in (2, 7, 8, 9, 3, 4, 5, 6):
        bust_player(t, victim, now, by=1)
        now += 1
    rows = {r.player_id: r for r in t.results()}
    assert rows[1].place == 1 and rows[1].points == 9  # 000 5.4, 9 players
    assert rows[1].bounty_hits == 5 and rows[1].prize == "mystery-bounty"
    # a tournament whose lists were never entered keeps its points
    u = new_tournament(9, points=pts)
    bust_player(u, 2, 10.0, by=1)
    assert next(r for r in u.results() if r.player_id == 2).points == 0
    assert all(r.bounty_hits == 0 for r in u.results())


def test_mystery_list_needs_a_mystery_bounty_000_4_17():
    t = new_tournament(9)
    with pytest.raises(Rejected, match="not a mystery bounty"):
        t.execute({"cmd": "mystery_list", "player": 1, "names": [2]}, 5.0)


# ------------------------------------------------------------ 10.13 play day
def play_day(players: int, balancing: bool = False, **kw) -> Tournament:
    return new_tournament(players, table_seats=10, players_per_table=10, final_table_size=10,
                          points=Points(system="ace_of_spades"),
                          play_day=PlayDay(enabled=True, balancing=balancing), **kw)


def play_out(t: Tournament, table: int, now: float) -> tuple[float, list[int]]:
    """Bust the table's players until its game is over; the busted, first out first."""
    out = []
    while table in t.tables:
        out.append(bust_seat(t, table, now))
        now += 1
    return now, out


def test_a_play_day_is_a_series_of_table_games_003_6():
    """003 6: points "für die drei besten Spieler an einem Tisch": 20 players at two tables
    are two games, each to its own end, and each game's best three score 2 / 1 / 0.5."""
    t = play_day(20)
    assert sorted(t.games) == [1, 2] and t.counts() == {1: 10, 2: 10}
    now, out1 = play_out(t, 1, 10.0)
    assert t.games[1].over and not t.games[2].over
    # nobody was moved to the short table and no table broke (003 9: no floorman)
    assert not t.moves and 1 not in t.tables and t.counts() == {2: 10}
    w1 = t.games[1].winner
    now, out2 = play_out(t, 2, now)
    assert not t.finished  # the day goes on: more tables may start
    rows = t.results()
    games = play_day_tables(rows)
    assert [len(g) for g in games] == [10, 10]
    for g, out in zip(games, (out1, out2), strict=True):
        by_place = {r.place: r for r in g}
        assert [by_place[p].points for p in (1, 2, 3, 4)] == [2, 1, 0.5, 0]
        assert by_place[2].player_id == out[-1] and by_place[10].player_id == out[0]
    assert games[0][0].player_id == w1
    # 003 6: one attendance point for everybody who played a table
    day = [r for r in rows if r.game is None]
    assert len(day) == 20 and all(r.attendance == 1 and r.tables_played == 1 for r in day)
    assert sorted(r.points for r in day)[-2:] == [3, 3]
    replay_equal(t)


def test_a_play_day_has_no_final_table_003_6():
    """Found by the floor model (issue 26): the director's final_table on a play day whose
    games were all over raised ValueError (min() of no tables) inside the engine; while
    games are played it would have merged them into one. Both are refused."""
    t = play_day(20)
    with pytest.raises(Rejected, match="the tables play for themselves"):
        t.execute({"cmd": "final_table"}, 5.0)
    now, _ = play_out(t, 1, 10.0)
    now, _ = play_out(t, 2, now)
    assert not t.tables
    with pytest.raises(Rejected, match="no table is in play"):
        t.execute({"cmd": "final_table"}, now)
    replay_equal(t)


def test_an_absent_winner_of_a_table_game_is_back_for_the_next_000_9_5_003_6():
    """Found by the floor model (ace-of-spades, longer nights): a player away (000 9.5:
    dealt in as a ghost) won their table game and stood up between games, still marked
    away; the absent time ran out and the removal (a reaction to the clock) failed on a
    player with no seat — every later command raised — and nobody could mark them back
    (no seat). The game's end ends the absence with the seat: the winner is named for the
    next table game as anyone else."""
    t = play_day(20, ghosts=Ghosts(absent_minutes=20), structure=long_levels())
    tab = t.tables[1]
    away = tab.occupant[max(tab.occupant)]  # busted last: the game's winner
    t.execute({"cmd": "absent", "player": away}, 5.0)
    now, out1 = play_out(t, 1, 10.0)
    p = t.players[away]
    assert t.games[1].winner == away and p.table is None and p.absent_since is None
    events = t.execute({"cmd": "tick"}, 5.0 + 21 * 60)
    assert not [e for e in events if e["type"] == "absent_removed"]
    events = t.execute({"cmd": "table_game", "players": [away, *out1[-3:]]}, 5.0 + 22 * 60)
    assert not [e for e in events if e["type"] == "absent_removed"]
    t.execute({"cmd": "tick"}, 5.0 + 50 * 60)
    assert not p.out and not p.removed and p.table is not None
    replay_equal(t)


def test_a_player_may_play_several_tables_a_day_003_6_11():
    t = play_day(20)
    now, out1 = play_out(t, 1, 10.0)
    w1 = t.games[1].winner
    seated = t.tables[2].occupant[sorted(t.tables[2].occupant)[0]]
    with pytest.raises(Rejected, match="is playing at table 2"):
        t.execute({"cmd": "table_game", "players": [w1, seated]}, now)
    # the winner and three busted players sit down for a new table, seats drawn (003 11)
    again = [w1, *out1[-3:]]
    events = t.execute({"cmd": "table_game", "players": again}, now)
    assert events[0]["type"] == "table_game" and events[0]["seed"] is not None
    assert t.counts() == {1: 4, 2: 10}
    assert all(not t.players[p].out and t.players[p].table == 1 for p in again)
    now, out3 = play_out(t, 1, now + 1)
    rows = t.results()
    day = {r.player_id: r for r in rows if r.game is None}
    third = play_day_tables(rows)[1]  # game 3 (game 2 is still under way)
    assert {r.player_id for r in third} == set(again)
    w3 = t.games[3].winner
    assert day[w3].tables_played == 2
    won = [r.points for r in rows if r.player_id == w3 and r.game is not None]
    assert day[w3].points == sum(won) + 1  # the attendance point once a day (003 6)
    replay_equal(t)


def test_a_table_game_after_an_earlier_one_was_undone_gets_a_new_number_003_6():
    """Found by the floor model (preset:ace-of-spades): games 3 and 4 started, game 3 taken
    back by its event number; the next game was numbered by the count of games (4 again),
    and the engine raised "table game 4 started twice" out of the command (the live state
    broken, the log no longer replaying)."""
    t = play_day(20)
    now, out1 = play_out(t, 1, 10.0)
    third = t.execute({"cmd": "table_game", "players": out1[:3]}, now)
    t.execute({"cmd": "table_game", "players": out1[3:6]}, now + 1)
    assert sorted(t.games) == [1, 2, 3, 4]
    t.execute({"cmd": "undo", "target": third[0]["group"]}, now + 2)
    assert sorted(t.games) == [1, 2, 4]
    events = t.execute({"cmd": "table_game", "players": out1[:3]}, now + 3)
    assert events[0]["game"] == 5 and sorted(t.games) == [1, 2, 4, 5]
    assert all(t.players[p].table is not None for p in out1[:6])
    replay_equal(t)


def test_a_late_arrival_waits_for_the_next_table_game_003_6():
    t = play_day(20)
    t.execute({"cmd": "late", "name": "Late Larry", "force": True}, 50.0)
    larry = t.player("Late Larry")
    assert larry.table is None and t.counts() == {1: 10, 2: 10}
    now, out1 = play_out(t, 1, 60.0)
    t.execute({"cmd": "table_game", "players": ["Late Larry", *out1[:3]]}, now)
    assert larry.table == 1


def test_a_balanced_play_day_plays_the_draw_as_one_game_003_13():
    """003 13: tables may be balanced and dissolved by the floor (preset's choice): the
    draw's tables are then one game, its last table's best three score."""
    t = play_day(20, balancing=True)
    assert list(t.games) == [1] and t.games[1].tables == [1, 2]
    with pytest.raises(Rejected, match="still played and balanced"):
        t.execute({"cmd": "table_game", "players": [1, 2]}, 5.0)
    now = 10.0
    for _ in range(4):
        bust_seat(t, 1, now)
        now += 1
    t.execute({"cmd": "move_apply"}, now)
    assert t.moves  # the floor balances
    while t.games[1].winner is None:
        bust_seat(t, min(t.tables), now)
        now += 1
    rows = play_day_tables(t.results())
    assert len(rows) == 1 and len(rows[0]) == 20
    assert sorted(r.points for r in rows[0])[-3:] == [0.5, 1, 2]
    replay_equal(t)


def test_play_day_exports_show_tables_attendance_and_the_season_003_6():
    t = play_day(12)
    now, _ = play_out(t, 1, 10.0)
    now, _ = play_out(t, 2, now)
    rows = t.results()
    header = results_csv(rows).splitlines()[0].split(",")
    assert header[-3:] == list(PLAY_DAY_COLUMNS)
    season = ace_of_spades_season(play_day_tables(rows), days=["2026-11-20"] * 2)
    assert sum(s.tables for s in season) == 12 and all(s.attendance == 1 for s in season)
    assert [s.total for s in season][:2] == [3, 3]  # 2 for a table + 1 for attendance


def test_the_ace_of_spades_preset_is_a_play_day_003_6():
    s = load_tournament(ROOT / "config/tournaments/ace-of-spades-playday.yaml")
    assert s.play_day == PlayDay(enabled=True, balancing=False)


def test_the_absent_command_is_undone_and_the_removal_is_the_systems_000_9_5():
    t = new_tournament(18, structure=long_levels())
    a = t.tables[1].occupant[sorted(t.tables[1].occupant)[0]]
    before = t.fingerprint()
    t.execute({"cmd": "absent", "player": a}, 100.0)
    t.execute({"cmd": "undo"}, 110.0)
    assert t.fingerprint() == before and t.players[a].absent_since is None
    t.execute({"cmd": "absent", "player": a}, 120.0)
    t.execute({"cmd": "tick"}, 120.0 + 7200)
    assert t.players[a].removed
    # the removal is the engine's, not a command; the "absent" it follows cannot be taken
    # back from under it: refused with the reason, nothing changed
    before = t.fingerprint()
    with pytest.raises(Rejected, match=r"acted on it by itself \(#\d+ removed after 2 h absent"):
        t.execute({"cmd": "undo"}, 120.0 + 7300)
    assert t.fingerprint() == before


@pytest.mark.parametrize(("value", "message"), [
    ('"150%"', 'a share of the field like "15%" (at most 100 %)'),
    ('"ten"', 'a share of the field like "15%"'),
    ("-2", "must be at least 0"),
])
def test_paid_places_in_the_file_are_a_count_or_a_share_002(value, message):
    from controller.config import ConfigError, load_tournament_text

    text = f"name: x\npreset: venue-faq\npoints:\n  places: {value}\n"
    with pytest.raises(ConfigError) as err:
        load_tournament_text(text, "t.yaml")
    assert message in str(err.value) and "t.yaml:4: points.places" in str(err.value)
    ok = load_tournament_text("name: x\npreset: venue-faq\npoints:\n  places: 12.5%\n", "t.yaml")
    assert ok.points.places == "12.5%"
