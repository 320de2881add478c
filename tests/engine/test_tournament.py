"""The event-sourced tournament: registration, draw, ghosts, entries, busts and places,
hand-for-hand, time calls, hands left, undo, and rejected commands.

Every test names the rule it checks (000 = PSC Five Spades, 002 = venue FAQ,
TDA = Tournament Directors Association rules; see /work/shared/RULES.md).
"""

from __future__ import annotations

import copy

import pytest

from controller.engine import clock as clk
from controller.engine.settings import (
    Dealing,
    Entries,
    Ghosts,
    HandForHand,
    Level,
    Points,
    TimeCall,
)
from controller.engine.tournament import Tournament
from tests.support.settings import make_settings, new_tournament, rejected, replay_equal

LEVEL = 600.0  # make_settings: ten-minute levels, a ten-minute break after level 4


def new(players: int = 0, seed: int = 1, draw: bool = True, start: bool = True,
        **overrides) -> Tournament:
    return new_tournament(players, seed, draw=draw, start=start, **overrides)


def any_seat(t: Tournament, table: int) -> int:
    return sorted(s for s, p in t.tables[table].occupant.items()
                  if not t.players[p].ghost)[0]


def bust_at(t: Tournament, table: int, now: float = 100.0, **kw) -> int:
    seat = any_seat(t, table)
    pid = t.tables[table].occupant[seat]
    t.execute({"cmd": "bust", "table": table, "seat": seat, **kw}, now)
    return pid


def check_seating(t: Tournament) -> None:
    seen = set()
    for n, tab in t.tables.items():
        for s, pid in tab.occupant.items():
            assert pid not in seen
            seen.add(pid)
            p = t.players[pid]
            assert (p.table, p.seat) == (n, s) and not p.out
    for p in t.players.values():
        assert (p.id in seen) == (not p.out)


# ======================================================================= registration


def test_register_members_and_guests_000_5_8():
    t = new(draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Anna Maier", "Bernd"]}, 0.0)
    t.execute({"cmd": "register", "names": ["Carla Gast"], "member": False}, 0.0)
    t.execute({"cmd": "late", "name": "  Dieter   Dorn "}, 0.0)  # before the draw: a registration
    assert [(p.name, p.member) for p in t.players.values()] == [
        ("Anna Maier", True), ("Bernd", True), ("Carla Gast", False), ("Dieter Dorn", True)]
    assert t.entries == 4 and t.remaining == 4
    assert t.player("anna maier").id == 1 and t.player(3).name == "Carla Gast"
    replay_equal(t)


@pytest.mark.parametrize("names", [["Anna", "anna"], ["ANNA"], ["  anna "], ["Bert", "Bert"]])
def test_duplicate_names_rejected(names):
    t = new(draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Anna"]}, 0.0)
    rejected(t, {"cmd": "register", "names": names}, match="already registered")


@pytest.mark.parametrize("names", [[], [""], ["   "], [42], ["x" * 41], None])
def test_bad_names_rejected(names):
    t = new(draw=False, start=False)
    rejected(t, {"cmd": "register", "names": names})


def test_duplicate_after_the_draw_rejected():
    t = new(4)
    rejected(t, {"cmd": "late", "name": "player 1"}, match="already registered")
    rejected(t, {"cmd": "register", "names": ["Neu", "PLAYER 2"]}, match="already registered")


# ======================================================================= draw


def test_seeded_draw_is_exact_and_replays_000_4_6():
    a = new(23, seed=9, start=False)
    b = new(23, seed=9, start=False)
    assert a.log == b.log and a.fingerprint() == b.fingerprint()
    replay_equal(a)
    c = new(23, seed=10, start=False)
    assert c.fingerprint()["tables"] != a.fingerprint()["tables"]
    # an explicit seed gives the same seats whatever the tournament seed
    d = new(23, seed=1, draw=False, start=False)
    e = new(23, seed=2, draw=False, start=False)
    d.execute({"cmd": "draw", "seed": 77}, 1.0)
    e.execute({"cmd": "draw", "seed": 77}, 1.0)
    assert d.log[-1]["seats"] == e.log[-1]["seats"]
    assert d.log[-1]["seed"] == 77


@pytest.mark.parametrize("players", [2, 9, 10, 17, 18, 19, 27, 28, 37, 55, 60])
def test_tables_start_equal_000_9_6(players):
    t = new(players, seed=players, start=False)
    counts = list(t.counts().values())
    assert sum(counts) == players
    assert max(counts) - min(counts) <= 1  # as equal as the numbers allow
    assert max(counts) <= 9
    check_seating(t)


@pytest.mark.parametrize("players", [10, 19, 29, 37, 46])
def test_ghosts_make_every_table_equal_000_9_6(players):
    t = new(players, seed=3, start=False, ghosts=Ghosts(enabled=True))
    counts = set(t.counts().values())
    assert len(counts) == 1  # every table starts with the same number (000 9.6)
    ghosts = [p for p in t.players.values() if p.ghost]
    real = {n: sum(1 for pid in tab.occupant.values() if not t.players[pid].ghost)
            for n, tab in t.tables.items()}
    assert sum(real.values()) == players
    # the ghosts are spread: the real players stay within one
    assert max(real.values()) - min(real.values()) <= 1
    assert all(g.chips == t.settings.start_stack and not g.member for g in ghosts)
    assert t.remaining == players and t.entries == players  # ghosts are not players
    assert t.chips == (players + len(ghosts)) * t.settings.start_stack
    replay_equal(t)


def test_first_button_same_seat_on_every_table_000_3_12():
    for seed in range(10):
        t = new(40, seed=seed, start=False, dealing=Dealing(first_button="table_1"))
        button = t.log[-1]["button"]
        assert button in t.tables[1].occupant  # the high card was dealt to a player at T1
        assert {tab.button for tab in t.tables.values()} == {button}


def test_first_button_drawn_at_each_table_among_its_players():
    """The default (TDA; 003, 002): each table draws its own button among its players; table
    1's is the one the draw always made, so 000 3.12's draw stays what it was."""
    for seed in range(10):
        t = new(40, seed=seed, start=False, dealing=Dealing())
        assert t.settings.dealing.first_button == "each_table"  # the default
        drawn = t.log[-1]
        assert dict(drawn["buttons"])[1] == drawn["button"]
        for n, seat in drawn["buttons"]:
            assert seat in t.tables[n].occupant and t.tables[n].button == seat
        replay_equal(t)


def test_draw_needs_two_players_and_happens_once():
    t = new(1, draw=False, start=False)
    rejected(t, {"cmd": "draw"}, match="two players")
    t.execute({"cmd": "register", "names": ["B"]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    rejected(t, {"cmd": "draw"}, match="already drawn")


# ======================================================================= ghosts


def ghost_tournament(**g) -> Tournament:
    return new(29, seed=4, ghosts=Ghosts(enabled=True, **g))


def test_ghosts_removed_at_the_first_break_000_9_6():
    t = ghost_tournament()
    ghosts = [p.id for p in t.players.values() if p.ghost]
    assert len(ghosts) == 3
    t.execute({"cmd": "tick"}, 2.0 + 3 * LEVEL + 10)  # level 4
    assert not t.ghosts_removed
    ev = t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)  # the break after level 4
    assert [e["type"] for e in ev][:2] == ["level_started", "ghosts_removed"]
    assert t.ghosts_removed
    for g in ghosts:
        assert t.players[g].out and t.players[g].removed and t.players[g].table is None
    # their chips leave the tournament (000 9.5), they are never ranked
    assert t.chips == 29 * t.settings.start_stack
    assert t.remaining == 29
    assert not set(ghosts) & set(t.places())
    check_seating(t)
    replay_equal(t)


def test_ghosts_removed_after_n_full_levels_000_9_5():
    t = ghost_tournament(remove_after_levels=2)
    t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL - 1)
    assert not t.ghosts_removed
    t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL)  # level 3 starts: 2 full levels played
    assert t.ghosts_removed


def test_ghosts_stay_through_the_break_when_the_policy_says_so_000_9_5():
    t = ghost_tournament(remove_after_levels=5, remove_at_first_break=False)
    t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)
    assert not t.ghosts_removed
    t.execute({"cmd": "tick"}, 2.0 + 5 * LEVEL + 1)  # level 5
    assert not t.ghosts_removed
    t.execute({"cmd": "tick"}, 2.0 + 6 * LEVEL + 1)  # level 6: 5 full levels played
    assert t.ghosts_removed


def test_a_busted_ghost_is_never_ranked_000_9_5():
    t = ghost_tournament()
    g = next(p for p in t.players.values() if p.ghost)
    t.execute({"cmd": "bust", "player": g.id}, 50.0)
    assert g.out and t.remaining == 29 and t.places() == {}
    pid = bust_at(t, 1, 60.0)
    assert t.places() == {pid: 29}
    replay_equal(t)


def test_ghost_removal_may_break_a_table_000_9_6():
    # 19 players + 2 ghosts: three tables of 7
    t = new(19, seed=2, ghosts=Ghosts(enabled=True))
    assert t.counts() == {1: 7, 2: 7, 3: 7}
    bust_at(t, 1, 50.0)
    assert len(t.tables) == 3  # 18 players and 2 ghosts do not fit on two tables
    ev = t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)
    assert [e["type"] for e in ev][-2:] == ["ghosts_removed", "table_broken"]
    assert t.counts() == {1: 9, 2: 9}
    check_seating(t)
    replay_equal(t)


# ======================================================================= late registration


def test_late_entry_takes_a_ghosts_seat_in_the_first_levels_000_9_5():
    t = new(29, seed=4, ghosts=Ghosts(enabled=True), entries=Entries(late_registration_levels=4))
    chips = t.chips
    ev = t.execute({"cmd": "late", "name": "Spät"}, 2.0 + LEVEL + 5)
    # the reactions record the level the clock rolled into after the entry
    entry = next(e for e in ev if e["type"] == "late_entry")
    assert entry["type"] == "late_entry" and entry["replaces_ghost"]
    ghost = t.players[entry["replaces_ghost"]]
    assert ghost.ghost and ghost.out and ghost.removed and ghost.table is None
    p = t.player("Spät")
    assert (p.table, p.seat) == (entry["table"], entry["seat"])
    assert t.chips == chips  # takes over the ghost's stack
    assert t.remaining == 30 and t.entries == 30
    check_seating(t)
    replay_equal(t)


def test_late_entry_goes_to_the_shortest_table():
    t = new(19, seed=1, entries=Entries(late_registration_levels=2))
    assert sorted(t.counts().values()) == [6, 6, 7]
    short = {n for n, c in t.counts().items() if c == 6}
    ev = t.execute({"cmd": "late", "name": "Spät"}, 50.0)
    assert ev[-1]["type"] == "late_entry" and ev[-1]["table"] in short
    tab = t.tables[ev[-1]["table"]]
    assert tab.occupant[ev[-1]["seat"]] == t.player("Spät").id
    # the arrival waits for the button when it sits between button and small blind
    assert ev[-1]["waiting"] == (ev[-1]["seat"] in tab.waiting)
    check_seating(t)
    replay_equal(t)


def test_late_registration_closes_after_its_levels():
    t = new(9, seed=1, entries=Entries(late_registration_levels=1))
    # level 2 has started by the clock, though nothing ticked yet
    rejected(t, {"cmd": "late", "name": "Zu Spät"}, now=2.0 + LEVEL + 1, match="closed")
    t.execute({"cmd": "late", "name": "Zu Spät", "force": True}, 2.0 + LEVEL + 1)
    assert not t.player("Zu Spät").out


def test_late_entry_opens_a_new_table_when_all_are_full():
    """Every seat taken (9-seat tables: no extra seat): a new table opens with the entry and
    players drawn from the fullest tables, never a table of one (002: three at least);
    issue 10.5."""
    t = new(18, seed=1, entries=Entries(late_registration_levels=3))
    assert t.counts() == {1: 9, 2: 9}
    ev = t.execute({"cmd": "late", "name": "Neu"}, 50.0)
    assert ev[-2]["new_table"] and ev[-2]["table"] == 3 and ev[-1]["type"] == "table_opened"
    assert sorted(t.counts().values()) == [6, 6, 7]
    assert t.tables[3].holds  # it deals when the drawn players sit down
    # the floor is balanced at once: no balancing move follows at the donors' hand done
    for n in (2, 1, 2, 1):
        assert not [e for e in t.execute({"cmd": "hand_done", "table": n}, 60.0)
                    if e["type"] == "moved"]
    check_seating(t)
    replay_equal(t)


# ======================================================================= re-entry, rebuy, add-on


def test_reentry_brings_a_busted_player_back_001_2_III():
    t = new(12, seed=1, entries=Entries(reentries=1, reentry_until_level=2))
    pid = bust_at(t, 1, 50.0)
    assert t.places() == {pid: 12}
    t.execute({"cmd": "reentry", "player": pid}, 60.0)
    p = t.players[pid]
    assert not p.out and p.entries == 2 and p.table is not None
    assert t.entries == 13 and t.remaining == 12 and pid not in t.places()
    t.execute({"cmd": "bust", "player": pid}, 70.0)
    rejected(t, {"cmd": "reentry", "player": pid}, match="no re-entry left")
    check_seating(t)
    replay_equal(t)


def test_reentry_closes_after_its_level():
    t = new(12, seed=1, entries=Entries(reentries=3, reentry_until_level=1))
    pid = bust_at(t, 1, 50.0)
    rejected(t, {"cmd": "reentry", "player": pid}, now=2.0 + LEVEL + 1, match="closed")


def test_reentry_of_a_player_still_in_rejected():
    t = new(12, seed=1, entries=Entries(reentries=1, reentry_until_level=2))
    rejected(t, {"cmd": "reentry", "player": 1}, match="still in")


def test_free_rebuy_once_keeps_the_seat_000_4_13():
    t = new(12, seed=1, entries=Entries(rebuys=1, rebuy_until_level=4, addon_after_level=4,
                                        auto_addon_multiplier=2))
    seat = any_seat(t, 2)
    pid = t.tables[2].occupant[seat]
    t.execute({"cmd": "bust", "table": 2, "seat": seat}, 50.0)
    ev = t.execute({"cmd": "rebuy", "player": pid}, 51.0)
    assert ev[-1]["type"] == "rebuy"
    p = t.players[pid]
    assert (p.table, p.seat) == (2, seat) and p.rebuys == 1 and not p.out
    assert t.entries == 12 and t.remaining == 12 and t.places() == {}
    assert p.chips == 2 * t.settings.start_stack
    t.execute({"cmd": "bust", "player": pid}, 60.0)
    rejected(t, {"cmd": "rebuy", "player": pid}, match="no rebuy left")
    assert t.places() == {pid: 12}
    replay_equal(t)


def test_rebuy_closes_after_level_4_000_4_13():
    t = new(12, seed=1, entries=Entries(rebuys=1, rebuy_until_level=4))
    pid = bust_at(t, 1, 50.0)
    # level 5 by the clock (4 levels + the break), without a tick in between
    rejected(t, {"cmd": "rebuy", "player": pid}, now=2.0 + 5 * LEVEL + 1, match="closed")
    t2 = new(12, seed=1, entries=Entries(rebuys=1, rebuy_until_level=4))
    pid = bust_at(t2, 1, 50.0)
    t2.execute({"cmd": "rebuy", "player": pid}, 2.0 + 4 * LEVEL - 1)


def test_rebuy_not_offered_rejected():
    t = new(12, seed=1)
    pid = bust_at(t, 1, 50.0)
    rejected(t, {"cmd": "rebuy", "player": pid}, match="no rebuy")


def test_ghost_cannot_rebuy_or_reenter_000_9_5():
    t = new(29, seed=4, ghosts=Ghosts(enabled=True),
            entries=Entries(rebuys=1, reentries=1, reentry_until_level=4))
    g = next(p for p in t.players.values() if p.ghost)
    t.execute({"cmd": "bust", "player": g.id}, 50.0)
    rejected(t, {"cmd": "rebuy", "player": g.id})
    rejected(t, {"cmd": "reentry", "player": g.id})


def test_automatic_addon_after_level_4_000_4_13():
    t = new(12, seed=1, entries=Entries(rebuys=1, rebuy_until_level=4, addon_after_level=4,
                                        auto_addon_multiplier=2))
    stack = t.settings.start_stack
    rebuyer = bust_at(t, 1, 50.0)
    t.execute({"cmd": "rebuy", "player": rebuyer}, 51.0)
    out = bust_at(t, 2, 60.0)
    t.execute({"cmd": "tick"}, 2.0 + 3 * LEVEL + 1)  # level 4: no add-on yet
    assert not t.addon_done
    ev = t.execute({"cmd": "tick"}, 2.0 + 4 * LEVEL + 1)  # the break after level 4
    addon = next(e for e in ev if e["type"] == "addon")
    assert addon["chips"] == 2 * stack
    assert rebuyer not in addon["players"] and out not in addon["players"]
    assert len(addon["players"]) == 10
    assert all(t.players[pid].addon for pid in addon["players"])
    assert t.players[rebuyer].chips == 2 * stack and not t.players[rebuyer].addon
    assert t.chips == 13 * stack + 10 * 2 * stack
    rejected(t, {"cmd": "addon"}, match="already")
    replay_equal(t)


def test_addon_without_add_on_rejected():
    t = new(4)
    rejected(t, {"cmd": "addon"}, match="no add-on")


# ======================================================================= busts and places


def test_bust_by_seat_and_by_player_000_4_8():
    t = new(18, seed=1)
    a = bust_at(t, 1, 50.0)
    b_seat = any_seat(t, 2)
    b = t.tables[2].occupant[b_seat]
    t.execute({"cmd": "hand_done", "table": 1}, 55.0)
    t.execute({"cmd": "bust", "player": t.players[b].name, "by": 5}, 60.0)
    assert t.players[a].out and t.players[b].out and t.players[b].knocked_by == 5
    assert t.places() == {a: 18, b: 17}
    assert t.remaining == 16
    check_seating(t)
    replay_equal(t)


def test_two_busts_in_one_hand_ranked_by_starting_stack_000_9_5_002_c():
    t = new(18, seed=1)
    s1, s2, s3 = sorted(t.tables[1].occupant)[:3]
    p1, p2, p3 = (t.tables[1].occupant[s] for s in (s1, s2, s3))
    t.execute({"cmd": "bust", "table": 1, "seat": s1, "stack": 5000}, 50.0)
    # the table says the next two are out in the same hand
    t.execute({"cmd": "bust", "table": 1, "seat": s2, "stack": 9000, "same_hand": True}, 51.0)
    t.execute({"cmd": "bust", "table": 1, "seat": s3, "stack": 1000, "same_hand": True}, 52.0)
    assert t.places() == {p2: 16, p1: 17, p3: 18}
    replay_equal(t)


def test_equal_stacks_in_one_hand_share_the_place_000_9_5():
    t = new(18, seed=1)
    s1, s2, s3 = sorted(t.tables[1].occupant)[:3]
    p1, p2, p3 = (t.tables[1].occupant[s] for s in (s1, s2, s3))
    t.execute({"cmd": "bust", "table": 1, "seat": s1, "stack": 5000}, 50.0)
    t.execute({"cmd": "bust", "table": 1, "seat": s2, "stack": 5000, "same_hand": True}, 51.0)
    t.execute({"cmd": "bust", "table": 1, "seat": s3, "stack": 1000, "same_hand": True}, 52.0)
    assert t.places() == {p1: 16, p2: 16, p3: 18}


def test_busts_in_different_hands_are_not_grouped_000_9_5():
    t = new(18, seed=1)
    a = bust_at(t, 1, 50.0, stack=100)
    t.execute({"cmd": "hand_done", "table": 1}, 55.0)
    b = bust_at(t, 1, 60.0, stack=99999)
    assert t.places() == {a: 18, b: 17}  # the later hand is the better place


def test_busts_at_different_tables_outside_hfh_by_report_order():
    t = new(18, seed=1)
    a = bust_at(t, 2, 50.0, stack=10)
    b = bust_at(t, 1, 51.0, stack=1)
    assert t.places() == {a: 18, b: 17}


def test_places_after_the_winner_000_4_8():
    t = new(3, seed=1)
    a = bust_at(t, 1, 50.0)
    t.execute({"cmd": "hand_done", "table": 1}, 51.0)
    b = bust_at(t, 1, 60.0)
    assert t.finished
    winner = next(p.id for p in t.players.values() if not p.out)
    assert t.winner == winner
    assert t.places() == {winner: 1, b: 2, a: 3}
    rejected(t, {"cmd": "bust", "player": winner}, match="over")
    rejected(t, {"cmd": "hand_done", "table": 1}, match="over")
    replay_equal(t)


# ======================================================================= hand-for-hand


def bubble(**overrides) -> Tournament:
    """13 players, PSC ranking points: 7 places score (000 5.4), 6-handed tables."""
    opts = dict(points=Points(system="psc_ranking"), players_per_table=6, final_table_size=6)
    opts.update(overrides)
    t = new(13, seed=3, **opts)
    now = 10.0
    while t.remaining > 9:
        big = max(t.tables, key=lambda n: (t.tables[n].count(), n))
        bust_at(t, big, now)
        t.execute({"cmd": "hand_done", "table": big}, now + 0.5)  # one bust per hand
        now += 1
    assert not t.hfh.on and len(t.tables) >= 2
    return t


def test_hfh_starts_automatically_on_the_points_bubble_001_2_I_002():
    t = bubble()
    assert t.bubble_places() == 7  # 13 players score places 1-7 (000 5.4)
    assert len(t.tables) == 2
    ev_tables = max(t.tables, key=lambda n: t.tables[n].count())
    ev = t.execute({"cmd": "bust", "table": ev_tables, "seat": any_seat(t, ev_tables)}, 100.0)
    assert [e["type"] for e in ev] == ["busted", "hfh"]
    assert t.hfh.on and t.hfh.hand == 1 and t.remaining == 8
    replay_equal(t)


def test_hfh_next_hand_only_when_all_tables_are_done_002():
    t = bubble()
    bust_at(t, 1, 100.0)
    assert t.hfh.on
    ev = t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    assert [e["type"] for e in ev] == ["hand_done"]
    reason = rejected(t, {"cmd": "hand_done", "table": 1}, now=111.0)
    assert "waiting for table 2" in reason
    ev = t.execute({"cmd": "hand_done", "table": 2}, 120.0)
    assert [e["type"] for e in ev] == ["hand_done", "hfh_released"]
    assert t.hfh.hand == 2 and t.hfh.done == set() and t.hfh.hands_played == 1
    t.execute({"cmd": "hand_done", "table": 1}, 130.0)
    replay_equal(t)


def on_the_bubble(**overrides) -> Tournament:
    """8 players left, hand-for-hand on, its first hand played out at both tables."""
    t = bubble(**overrides)
    # a player from the broken table may still be "on the way" here: the bust is confirmed
    bust_at(t, 1, 100.0, confirm=True)
    if not t.hfh.on:
        t.execute({"cmd": "hfh", "on": True}, 101.0)  # the director starts it earlier
    assert t.hfh.on and t.remaining == 8 and len(t.tables) == 2
    t.execute({"cmd": "hand_done", "table": 1}, 110.0)
    t.execute({"cmd": "hand_done", "table": 2}, 120.0)
    assert t.hfh.hand == 2
    return t


def test_hfh_cross_table_busts_share_the_place_on_the_bubble_002_b():
    t = on_the_bubble(players_per_table=5, final_table_size=5)
    a = bust_at(t, 1, 130.0, stack=3000)
    # the bubble burst with a, but table 2 is still playing the same hand-for-hand hand
    assert not t.hfh.on
    b = bust_at(t, 2, 131.0, stack=8000)
    places = t.places()
    assert places[a] == places[b] == 7  # they share 7th place (002 b)
    # the next hand at table 2 is a normal hand again
    t.execute({"cmd": "hand_done", "table": 2}, 140.0)
    c = bust_at(t, 2, 141.0)
    assert t.places()[c] == 6 and t.places()[a] == 7
    replay_equal(t)


# places 1-4 count: the bubble is at 5 left, so hand-for-hand runs with 8, 7, 6 left
DEEP = dict(points=Points(places=4), players_per_table=4, final_table_size=4)


def test_hfh_cross_table_busts_in_one_hand_share_002_b():
    t = on_the_bubble(**DEEP)
    a = bust_at(t, 1, 130.0, stack=3000)
    b = bust_at(t, 2, 131.0, stack=8000)
    assert t.hfh.on
    assert t.places()[a] == t.places()[b] == 7
    t.execute({"cmd": "hand_done", "table": 2}, 140.0)
    c = bust_at(t, 1, 141.0, stack=100)  # table 1 is still in the same hand
    p = t.places()
    # a and b were first out at their tables: they share; c had less than a at table 1
    assert (p[a], p[b], p[c]) == (6, 6, 8)
    t.execute({"cmd": "hand_done", "table": 1}, 150.0)  # released: the next hand
    assert t.hfh.hand == 3
    d = bust_at(t, 2, 151.0)
    assert t.places()[d] == 5 and t.places()[a] == 6
    assert not t.hfh.on  # 4 left: the bubble burst
    replay_equal(t)


def test_hfh_late_bust_report_after_hand_done_belongs_to_the_hand_002_b():
    t = on_the_bubble(**DEEP)
    a = bust_at(t, 1, 130.0)
    t.execute({"cmd": "hand_done", "table": 2}, 131.0)
    b = bust_at(t, 2, 132.0)  # reported after table 2 pressed "hand done", same hand
    assert t.places()[a] == t.places()[b] == 7


def test_hfh_cross_table_busts_ranked_by_stack_when_configured():
    t = on_the_bubble(hand_for_hand=HandForHand(cross_table_busts="stack"), final_table_size=5)
    a = bust_at(t, 1, 130.0, stack=3000)
    b = bust_at(t, 2, 131.0, stack=8000)
    assert t.places()[b] == 7 and t.places()[a] == 8


def test_hfh_same_table_still_by_stack_within_share_002_c():
    t = on_the_bubble(**DEEP)
    a = bust_at(t, 1, 130.0, stack=3000)
    b = bust_at(t, 1, 131.0, stack=500)
    c = bust_at(t, 2, 132.0, stack=100)
    p = t.places()
    # table 1: a before b by stack; a shares with table 2's c (both first at their table)
    assert p[a] == p[c] == 6 and p[b] == 8


def test_hfh_bubble_hand_same_table_busts_stay_ranked_by_stack_000_9_5():
    # the bust that starts hand-for-hand and a second bust of the same hand at that table
    t = bubble()
    a = bust_at(t, 1, 100.0, stack=500)
    assert t.hfh.on
    b = bust_at(t, 1, 101.0, stack=9000)
    assert t.places()[b] == 8 and t.places()[a] == 9


def test_hfh_ends_when_the_bubble_bursts_and_the_clock_resumes_002():
    t = bubble()
    bust_at(t, 1, 100.0)
    assert t.hfh.on and not t.clock.running and t.hfh.paused_clock
    left = clk.left(t.clock, t.settings.structure, 100.0)
    ev = t.execute({"cmd": "bust", "table": 1, "seat": any_seat(t, 1)}, 400.0)
    assert [e["type"] for e in ev] == ["busted", "hfh"]
    assert ev[-1]["on"] is False and ev[-1]["reason"] == "bubble burst"
    assert not t.hfh.on and t.clock.running
    # the clock stood still for the whole hand-for-hand (002 a: "Clock wird gestoppt")
    assert clk.left(t.clock, t.settings.structure, 400.0) == left
    replay_equal(t)


def test_hfh_clock_deducts_at_most_n_per_hand_TDA_RP_8():
    t = bubble(hand_for_hand=HandForHand(clock="deduct", deduct_seconds=120))
    bust_at(t, 1, 100.0)
    assert not t.clock.running
    left0 = clk.left(t.clock, t.settings.structure, 100.0)
    t.execute({"cmd": "hand_done", "table": 1}, 200.0)
    t.execute({"cmd": "hand_done", "table": 2}, 400.0)  # a 300 s hand: 120 s deducted
    assert clk.left(t.clock, t.settings.structure, 400.0) == left0 - 120
    t.execute({"cmd": "hand_done", "table": 2}, 430.0)
    t.execute({"cmd": "hand_done", "table": 1}, 460.0)  # a 60 s hand: 60 s deducted
    assert clk.left(t.clock, t.settings.structure, 460.0) == left0 - 180
    assert not t.clock.running
    replay_equal(t)


def test_hfh_clock_runs_when_configured():
    t = bubble(hand_for_hand=HandForHand(clock="runs"))
    bust_at(t, 1, 100.0)
    assert t.hfh.on and t.clock.running


def test_hfh_director_on_and_off_001_2_I():
    t = new(18, seed=1)
    t.execute({"cmd": "hfh", "on": True}, 50.0)
    assert t.hfh.on and not t.clock.running
    rejected(t, {"cmd": "hfh", "on": True}, match="already")
    t.execute({"cmd": "hfh", "on": False}, 60.0)
    assert not t.hfh.on and t.clock.running
    rejected(t, {"cmd": "hfh", "on": False}, match="not on")
    replay_equal(t)


def test_hfh_needs_two_tables():
    t = new(6, seed=1)
    rejected(t, {"cmd": "hfh", "on": True}, match="more than one table")


def test_hfh_busts_in_a_later_session_do_not_share_with_an_earlier_one_002_b():
    t = new(18, seed=1)
    t.execute({"cmd": "hfh", "on": True}, 50.0)
    a = bust_at(t, 1, 51.0)
    t.execute({"cmd": "hfh", "on": False}, 60.0)
    t.execute({"cmd": "hand_done", "table": 2}, 61.0)
    t.execute({"cmd": "hfh", "on": True}, 70.0)
    b = bust_at(t, 2, 71.0)
    assert t.places() == {a: 18, b: 17}
    replay_equal(t)


def test_hfh_table_break_releases_the_waiting_tables_002():
    # 3 tables in hand-for-hand; tables 1 and 2 finished, a bust at table 3 breaks it
    t = new(19, seed=2, points=Points(places=3))
    assert t.counts() == {1: 7, 2: 6, 3: 6}
    t.execute({"cmd": "hfh", "on": True}, 50.0)
    t.execute({"cmd": "hand_done", "table": 1}, 51.0)
    t.execute({"cmd": "hand_done", "table": 2}, 52.0)
    assert t.hfh.hand == 1
    ev = t.execute({"cmd": "bust", "table": 3, "seat": any_seat(t, 3)}, 53.0)
    assert [e["type"] for e in ev] == ["busted", "table_broken", "hfh_released"]
    assert t.hfh.on and t.hfh.hand == 2 and t.hfh.done == set()
    check_seating(t)
    replay_equal(t)


# ======================================================================= heads-up


def test_heads_up_halves_the_level_002():
    t = new(3, seed=1, heads_up_halves_level=True)
    ev = t.execute({"cmd": "bust", "table": 1, "seat": any_seat(t, 1)}, 100.0)
    assert "heads_up" in [e["type"] for e in ev]
    assert t.heads_up and t.clock.halved
    # the current level runs out, the next one is half as long
    c = clk.at(t.clock, t.settings.structure, 2.0 + LEVEL)
    assert c.level == 1 and c.ends_at == 2.0 + LEVEL + LEVEL / 2
    replay_equal(t)


# ======================================================================= clock commands


def test_clock_commands_through_the_tournament():
    t = new(4, start=False)
    assert clk.left(t.clock, t.settings.structure, 1.0) == LEVEL
    t.execute({"cmd": "time", "op": "set", "seconds": 300}, 1.5)  # before the start
    t.execute({"cmd": "start"}, 2.0)
    assert clk.left(t.clock, t.settings.structure, 2.0) == 300
    rejected(t, {"cmd": "start"}, match="already running")
    t.execute({"cmd": "pause"}, 102.0)
    rejected(t, {"cmd": "pause"}, match="not running")
    t.execute({"cmd": "start"}, 500.0)  # start after a pause is a resume
    assert clk.left(t.clock, t.settings.structure, 500.0) == 200
    t.execute({"cmd": "time", "op": "add", "seconds": -50}, 500.0)
    assert clk.left(t.clock, t.settings.structure, 500.0) == 150
    t.execute({"cmd": "level", "to": "next"}, 510.0)
    assert t.clock.level == 1 and t.level_announced == 1
    t.execute({"cmd": "level", "to": "prev"}, 520.0)
    assert t.clock.level == 0
    t.execute({"cmd": "level", "to": 5}, 530.0)  # the fifth playing level is after the break
    assert t.clock.level == 5 and t.level_number() == 5
    rejected(t, {"cmd": "level", "to": 0}, match="to must be one of next or prev or a number "
                                                   "at least 1, got 0")
    rejected(t, {"cmd": "level", "to": 13}, match="no level")
    rejected(t, {"cmd": "level", "to": "up"})
    rejected(t, {"cmd": "time", "op": "mul", "seconds": 2})
    rejected(t, {"cmd": "time", "op": "set", "seconds": -1})
    rejected(t, {"cmd": "time", "op": "add", "seconds": "60"})
    replay_equal(t)


def test_resume_before_start_starts_with_full_time():
    t = new(4, start=False)
    t.execute({"cmd": "resume"}, 10.0)
    assert t.clock.running and clk.left(t.clock, t.settings.structure, 10.0) == LEVEL


def test_level_prev_at_first_and_next_at_last_rejected():
    t = new(4)
    rejected(t, {"cmd": "level", "to": "prev"}, match="first")
    t.execute({"cmd": "level", "to": 12}, 10.0)
    rejected(t, {"cmd": "level", "to": "next"}, match="last")


def test_final_level_without_end_rejects_time_003_7():
    s = (Level("level", 600, 25, 50), Level("level", None, 50, 100))
    t = new(4, structure=s)
    t.execute({"cmd": "level", "to": "next"}, 10.0)
    rejected(t, {"cmd": "time", "op": "add", "seconds": 60}, match="no end")


def test_tick_announces_levels_that_passed():
    t = new(4)
    ev = t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL + 1)
    assert [(e["type"], e["level"]) for e in ev] == [("level_started", 2)]
    assert t.execute({"cmd": "tick"}, 2.0 + 2 * LEVEL + 2) == []
    replay_equal(t)


# ======================================================================= time call


def test_time_call_start_cancel_expire_with_preset_durations_000_9_5_001():
    t = new(9, time_call=TimeCall(seconds=30, countdown=5))
    ev = t.execute({"cmd": "time_call", "table": 1, "op": "start", "seat": 4}, 50.0)
    assert (ev[0]["seconds"], ev[0]["countdown"]) == (30, 5)
    tc = t.tables[1].time_call
    assert tc is not None and (tc.started_at, tc.seconds, tc.countdown, tc.seat) == (50.0, 30, 5, 4)
    rejected(t, {"cmd": "time_call", "table": 1}, match="already")
    t.execute({"cmd": "time_call", "table": 1, "op": "cancel"}, 55.0)
    assert t.tables[1].time_call is None
    rejected(t, {"cmd": "time_call", "table": 1, "op": "cancel"}, match="no time call")
    t.execute({"cmd": "time_call", "table": 1}, 60.0)
    t.execute({"cmd": "time_call", "table": 1, "op": "expire"}, 95.0)
    assert t.tables[1].time_call is None
    rejected(t, {"cmd": "time_call", "table": 1, "op": "explode"})
    rejected(t, {"cmd": "time_call", "table": 7}, match="not in play")
    replay_equal(t)


def test_time_call_default_60_plus_10_and_hand_done_clears_it_000_9_5():
    t = new(9)
    ev = t.execute({"cmd": "time_call", "table": 1}, 50.0)
    assert (ev[0]["seconds"], ev[0]["countdown"]) == (60, 10)
    t.execute({"cmd": "hand_done", "table": 1}, 70.0)
    assert t.tables[1].time_call is None


# ======================================================================= hands left (002)


def test_hands_left_at_the_end_of_the_day_002():
    t = new(18, seed=1)
    t.execute({"cmd": "hands_left", "count": 2}, 50.0)
    assert all(tab.hands_left == 2 for tab in t.tables.values())
    for now, tab in ((60, 1), (61, 2), (62, 1)):
        t.execute({"cmd": "hand_done", "table": tab}, float(now))
    assert t.tables[1].hands_left == 0 and t.tables[2].hands_left == 1
    rejected(t, {"cmd": "hand_done", "table": 1}, match="last hand")
    assert t.clock.running
    t.execute({"cmd": "hand_done", "table": 2}, 70.0)
    assert not t.clock.running  # every table has played its hands: the day is over
    replay_equal(t)


@pytest.mark.parametrize("count", [-1, 51, "3", True, 2.5])
def test_hands_left_bad_count_rejected(count):
    t = new(9)
    rejected(t, {"cmd": "hands_left", "count": count})


# ======================================================================= undo


def test_undo_a_bust_is_a_compensating_event_000_3_3():
    t = new(18, seed=1)
    before = copy.deepcopy(t.fingerprint())
    n = len(t.log)
    ev = t.execute({"cmd": "bust", "table": 1, "seat": any_seat(t, 1), "stack": 100}, 50.0)
    target = ev[0]["seq"]
    undo = t.execute({"cmd": "undo"}, 60.0)
    assert [e["type"] for e in undo] == ["undo"] and undo[0]["target"] == target
    assert len(t.log) == n + 2  # nothing is deleted, the log grows
    assert t.fingerprint() == before
    replay_equal(t)
    rejected(t, {"cmd": "undo", "target": target}, match="cannot be undone")


def test_undo_a_bust_that_broke_a_table_restores_it_000_4_6():
    t = new(28, seed=3)
    before = copy.deepcopy(t.fingerprint())
    ev = t.execute({"cmd": "bust", "table": 3, "seat": any_seat(t, 3)}, 50.0)
    assert ev[-1]["type"] == "table_broken"
    t.execute({"cmd": "undo", "target": ev[0]["seq"]}, 60.0)
    assert t.fingerprint() == before
    assert t.counts() == {1: 7, 2: 7, 3: 7, 4: 7}
    replay_equal(t)


def test_undo_rejected_when_later_events_depend_on_it():
    t = new(12, seed=1, entries=Entries(rebuys=1, rebuy_until_level=4))
    pid = bust_at(t, 1, 50.0)
    bust_event = next(e for e in reversed(t.log) if e["type"] == "busted")["seq"]
    t.execute({"cmd": "rebuy", "player": pid}, 55.0)
    reason = rejected(t, {"cmd": "undo", "target": bust_event}, now=60.0)
    assert "depend" in reason
    # the rebuy itself can be undone, then the bust
    t.execute({"cmd": "undo"}, 61.0)
    assert t.players[pid].out
    t.execute({"cmd": "undo"}, 62.0)
    assert not t.players[pid].out
    replay_equal(t)


def test_undo_rejected_when_a_late_entry_took_the_freed_seat():
    t = new(17, seed=1, entries=Entries(late_registration_levels=3))
    assert sorted(t.counts().values()) == [8, 9]
    short = min(t.counts(), key=lambda n: t.counts()[n])
    ev = t.execute({"cmd": "bust", "table": short, "seat": any_seat(t, short)}, 50.0)
    freed = (ev[0]["table"], ev[0]["seat"])
    # keep entering until someone sits in the freed seat
    i = 0
    while t.tables[freed[0]].occupant.get(freed[1]) is None and i < 40:
        t.execute({"cmd": "late", "name": f"Late {i}"}, 51.0 + i)
        i += 1
    assert t.tables[freed[0]].occupant.get(freed[1]) is not None
    rejected(t, {"cmd": "undo", "target": ev[0]["seq"]}, match="depend")


def test_undo_of_a_balancing_hand_done_returns_the_mover_000_4_9():
    t = new(18, seed=1)
    for _ in range(2):
        bust_at(t, 2, 50.0)
    before = copy.deepcopy(t.fingerprint())
    ev = t.execute({"cmd": "hand_done", "table": 1}, 60.0)
    assert [e["type"] for e in ev] == ["moved", "hand_done"]
    t.execute({"cmd": "undo"}, 61.0)
    assert t.fingerprint() == before
    replay_equal(t)


def test_undo_without_anything_to_undo():
    t = new(draw=False, start=False)
    rejected(t, {"cmd": "undo"}, match="nothing to undo")
    rejected(t, {"cmd": "undo", "target": 1}, match="cannot be undone")  # the opened event


def test_undo_skips_system_events():
    t = new(9)
    t.execute({"cmd": "tick"}, 2.0 + LEVEL + 1)
    last = t.log[-1]
    assert last["type"] == "level_started"
    ev = t.execute({"cmd": "undo"}, 2.0 + LEVEL + 2)
    assert ev[0]["target"] != last["seq"]


# ======================================================================= balancing, breaking, final


def test_move_apply_and_seated_000_4_9():
    t = new(18, seed=1)
    rejected(t, {"cmd": "move_apply"}, match="balanced")
    for _ in range(2):
        bust_at(t, 1, 50.0)
    ev = t.execute({"cmd": "move_apply"}, 60.0)
    assert [(e["type"], e["from_table"], e["to_table"]) for e in ev] == [("moved", 2, 1)]
    mover = ev[0]["player"]
    assert [m.player for m in t.pending_moves()] == [mover]
    rejected(t, {"cmd": "seated", "player": 1 if mover != 1 else 2}, match="no move pending")
    t.execute({"cmd": "seated", "player": mover}, 61.0)
    assert t.pending_moves() == []
    replay_equal(t)


def test_director_break_needs_free_seats_000_4_6():
    t = new(20, seed=1)
    assert t.counts() == {1: 7, 2: 7, 3: 6}
    rejected(t, {"cmd": "break_table", "table": 1}, match="free seats")
    # once the others can take a table's players it breaks by itself (highest number)
    for _ in range(2):
        bust_at(t, 1, 50.0)
    assert 3 not in t.tables and t.seated() == 18
    check_seating(t)
    replay_equal(t)


def test_last_table_cannot_break():
    t = new(6, seed=1)
    rejected(t, {"cmd": "break_table", "table": 1}, match="last table")


def test_director_forms_the_final_table():
    t = new(12, seed=1)
    rejected(t, {"cmd": "final_table"}, match="do not fit")
    for _ in range(3):
        bust_at(t, 1, 50.0)
    # 9 left: the final table formed by itself
    assert t.final_table is not None
    rejected(t, {"cmd": "final_table"}, match="already")


def test_final_table_hfh_switches_off():
    t = new(11, seed=1)
    t.execute({"cmd": "hfh", "on": True}, 10.0)
    bust_at(t, 1, 20.0)
    bust_at(t, 2, 21.0)
    assert t.final_table is not None and not t.hfh.on
    assert t.clock.running
    replay_equal(t)


# ======================================================================= rejected commands


def test_impossible_commands_change_nothing():
    t = new(18, seed=1)
    bust_at(t, 1, 50.0)
    out = next(p for p in t.players.values() if p.out)
    empty = next(s for s in range(1, 10) if s not in t.tables[1].occupant)
    in_p = t.tables[2].occupant[any_seat(t, 2)]
    bad = [
        ({"cmd": "bust", "table": 1, "seat": empty}, "empty"),
        ({"cmd": "bust", "table": 9, "seat": 1}, "not in play"),
        ({"cmd": "bust", "table": 1, "seat": 10}, "seats 1-9"),
        ({"cmd": "bust", "table": 1, "seat": "3"}, "seat must be"),
        ({"cmd": "bust", "table": "1", "seat": 3}, "table must be"),
        ({"cmd": "bust", "table": 1}, "needs a table and a seat"),
        ({"cmd": "bust", "player": out.id}, "already out"),
        ({"cmd": "bust", "player": "Nobody"}, "no player"),
        ({"cmd": "bust", "player": in_p, "by": in_p}, "cannot have knocked out"),
        ({"cmd": "bust", "player": in_p, "by": out.id}, "cannot have knocked out"),
        ({"cmd": "bust", "player": in_p, "stack": -5}, "stack"),
        ({"cmd": "bust", "player": in_p, "stack": 1.5}, "stack"),
        ({"cmd": "bust", "player": True}, None),
        ({"cmd": "hand_done", "table": 5}, "not in play"),
        ({"cmd": "hand_done"}, "bad arguments"),
        ({"cmd": "hand_done", "table": 1, "bogus": 1}, "bad arguments"),
        ({"cmd": "explode"}, "unknown command"),
        ({"nocmd": 1}, "needs a 'cmd'"),
        ({"cmd": "seated", "player": in_p}, "no move pending"),
        ({"cmd": "break_table", "table": 3}, "not in play"),
        ({"cmd": "rebuy", "player": in_p}, None),
        ({"cmd": "late", "name": "X"}, "closed"),
        ({"cmd": "draw"}, "already"),
        ({"cmd": "hfh", "on": False}, "not on"),
        ({"cmd": "undo", "target": 99999}, "cannot be undone"),
    ]
    for cmd, reason in bad:
        rejected(t, cmd, now=2.0 + LEVEL + 10, match=reason)
    check_seating(t)
    replay_equal(t)


def test_commands_before_the_draw_rejected():
    t = new(5, draw=False, start=False)
    for cmd in ({"cmd": "start"}, {"cmd": "bust", "table": 1, "seat": 1},
                {"cmd": "hand_done", "table": 1}, {"cmd": "move_apply"},
                {"cmd": "hands_left", "count": 3}, {"cmd": "time_call", "table": 1},
                {"cmd": "pause"}, {"cmd": "resume"}):
        rejected(t, cmd)


def test_bust_twice_rejected_000_4_8():
    t = new(9)
    pid = bust_at(t, 1, 50.0)
    rejected(t, {"cmd": "bust", "player": pid}, match="already out")
    rejected(t, {"cmd": "bust", "table": 1, "seat": t.log[-1]["seat"]}, match="empty")


def test_hand_done_twice_in_one_hfh_hand_rejected_002():
    t = new(18, seed=1)
    t.execute({"cmd": "hfh", "on": True}, 10.0)
    t.execute({"cmd": "hand_done", "table": 2}, 20.0)
    rejected(t, {"cmd": "hand_done", "table": 2}, match="already finished")


def test_final_table_smaller_than_a_playing_table_is_redrawn():
    # 000 4.3: the final table is always 9, even when tables played 10-handed
    s = make_settings(table_seats=10, players_per_table=10, final_table_size=9)
    t = Tournament.new(s, seed=5)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(20)]}, 0)
    t.execute({"cmd": "draw"}, 1)
    while t.final_table is None:
        tab = t.tables[max(t.tables)]
        t.execute({"cmd": "bust", "table": tab.number, "seat": min(tab.occupant)}, 2)
    assert t.seated() == 9 and len(t.tables) == 1 and t.tables[t.final_table].final


def test_single_table_tournament_is_never_redrawn_as_a_final_table():
    s = make_settings()
    t = Tournament.new(s, seed=5)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(6)]}, 0)
    t.execute({"cmd": "draw"}, 1)
    t.execute({"cmd": "bust", "table": 1, "seat": min(t.tables[1].occupant)}, 2)
    assert t.final_table is None and not any(e["type"] == "final_table" for e in t.log)


def test_a_real_player_called_ghost_keeps_his_name():
    # 000 9.5: ghosts sit in reserve seats; they are not players and have no name to find
    s = make_settings(ghosts=Ghosts(enabled=True))
    t = Tournament.new(s, seed=3)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(9)] + ["Ghost 1"]}, 0)
    t.execute({"cmd": "draw"}, 1)
    assert t.player("Ghost 1").ghost is False


def test_a_move_ends_when_the_player_busts_or_moves_again():
    # a move is an instruction until the player is seated; a bust or a newer move ends it
    s = make_settings()
    t = Tournament.new(s, seed=2)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(18)]}, 0)
    t.execute({"cmd": "draw"}, 1)
    while not t.pending_moves():
        tab = t.tables[max(t.tables)]
        t.execute({"cmd": "bust", "table": tab.number, "seat": min(tab.occupant)}, 2)
    pending = t.pending_moves()
    for m in pending[:1]:
        t.execute({"cmd": "bust", "player": m.player}, 3)
    assert all(m.player != pending[0].player for m in t.pending_moves())
    assert len({m.player for m in t.pending_moves()}) == len(t.pending_moves())
