"""A night as the floor plays it, with the shipped presets (issue 26).

Each test replays what a director and the dealers did with the real engine
commands and checks the places, the results or the button that came out wrong.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from controller.config import load_tournament
from controller.engine.rules import busts
from controller.engine.tournament import Tournament
from tests.support.settings import replay_equal

TOURNAMENTS = Path(__file__).resolve().parents[2] / "config" / "tournaments"


class Night:
    """A tournament of a shipped file, played with the time passed in."""

    def __init__(self, file: str, players: int, seed: int = 1, **points: object) -> None:
        s = load_tournament(TOURNAMENTS / file)
        if points:  # a variant of the file's points (a bounty)
            s = dataclasses.replace(s, points=dataclasses.replace(s.points, **points))
        self.t = Tournament.new(s, seed=seed, now=0.0)
        self.now = 0.0
        self.do({"cmd": "register", "names": [f"P{i}" for i in range(1, players + 1)]})
        self.do({"cmd": "draw"})
        self.do({"cmd": "start"})

    def do(self, command: dict, dt: float = 10.0) -> list[dict]:
        self.now += dt
        return self.t.execute(command, self.now)

    def first_seat(self, table: int) -> int:
        tab = self.t.tables[table]
        return min(s for s, p in tab.occupant.items() if not self.t.players[p].ghost)

    def bust(self, table: int, dt: float = 10.0, **kw) -> tuple[int, list[dict]]:
        seat = self.first_seat(table)
        pid = self.t.tables[table].occupant[seat]
        return pid, self.do({"cmd": "bust", "table": table, "seat": seat, **kw}, dt)

    def hand_done(self, table: int, dt: float = 10.0) -> list[dict]:
        return self.do({"cmd": "hand_done", "table": table}, dt)

    def down_to(self, left: int, tables: int) -> None:
        """Bust at the fullest table, every table's hand done, movers seated, until
        ``left`` players are in at ``tables`` tables."""
        t = self.t
        while t.remaining > left or len(t.tables) > tables:
            self.bust(max(t.tables, key=lambda n: (t.tables[n].count(), n)))
            for n in sorted(t.tables):
                if n in t.tables:
                    self.hand_done(n)
            for pid in list(t.pending):
                self.do({"cmd": "seated", "player": pid}, 1.0)


# ------------------------------------------------- 1. a bust in hand-for-hand (002 b, 000 9.5)


def psc_bubble_of_ten() -> Night:
    """PSC Five Spades (the sample): 20 players score 10 places (000 5.4), so hand-for-hand
    starts by itself at 11 left. Late registration is over (level 5), 14 left on two tables."""
    night = Night("sample.yaml", 20)
    night.do({"cmd": "level", "to": 5})
    night.down_to(14, 2)
    assert night.t.bubble_places() == 10 and night.t.clock.running
    assert sorted(night.t.tables) == [1, 2]
    return night


def test_a_hfh_bust_at_a_table_that_forgot_hand_done_is_placed_in_bust_order_002_b():
    """Table 2 busts a player and forgets "hand done"; table 1 busts two more, hand-for-hand
    starts at 11 left. The next bust at table 2 is in the hand-for-hand hand (its screen says
    "Hand für Hand · Hand 1"): she is 11th, not ranked with table 2's bust of 55 s before."""
    night = psc_bubble_of_ten()
    t = night.t
    early, _ = night.bust(2)                       # 14th, no hand done at table 2
    b, _ = night.bust(1, 15.0)                     # 13th
    night.hand_done(1)
    c, ev = night.bust(1, 15.0)                    # 12th: 11 left, hand-for-hand
    assert [e["type"] for e in ev] == ["busted", "hfh"] and t.hfh.on
    night.hand_done(1, 5.0)
    she, ev = night.bust(2)                        # table 2 in hand-for-hand hand 1
    busted = next(e for e in ev if e["type"] == "busted")
    assert busted["hand"][0] == "hfh"
    assert t.places()[early] == 14
    assert (t.places()[b], t.places()[c], t.places()[she]) == (13, 12, 11)
    replay_equal(t)


def test_same_hand_in_hfh_joins_the_tables_hand_from_before_it_000_9_5():
    """The bust that starts hand-for-hand and a second player out in that very hand at the
    same table: the table says so (``same_hand``), and the two are ranked by stack."""
    night = psc_bubble_of_ten()
    t = night.t
    night.bust(2)
    night.hand_done(2)
    night.bust(1)
    night.hand_done(1)
    a, ev = night.bust(1, stack=9000)              # 11 left: hand-for-hand
    assert t.hfh.on
    assert busts.asks_same_hand(t, t.tables[1]) is False
    assert busts.hand_busts(t, t.tables[1]) == []  # the hand-for-hand hand had no bust yet
    b, ev = night.bust(1, stack=3000, same_hand=True)
    assert [e["type"] for e in ev] == ["busted", "hfh"]  # the bubble burst
    assert ev[0]["hand"] == next(e for e in t.log if e["type"] == "busted"
                                 and e["player"] == a)["hand"]
    assert (t.places()[a], t.places()[b]) == (11, 12)  # the bigger starting stack is better
    replay_equal(t)


def test_same_hand_after_hfh_began_again_joins_the_tables_last_bust_000_9_5():
    """Found by the floor model (psc-mystery-bounty): at table 1 a bust starts hand-for-hand,
    the next one (in hand-for-hand hand 1) bursts the bubble, the director starts
    hand-for-hand again before table 1's "hand done", and table 1 reports a player out in the
    same hand as its bust before. That is hand-for-hand hand 1's, where she shares the place
    with the equal stack (000 9.5, 002 b) -- not the hand from before hand-for-hand, which
    ranked her two places below the bust she came after."""
    night = psc_bubble_of_ten()
    t = night.t
    night.bust(2)
    night.hand_done(2)
    night.bust(1)
    night.hand_done(1)
    a, _ = night.bust(1, stack=9000)               # 11 left: hand-for-hand
    c, ev = night.bust(1, stack=5000)              # in hand-for-hand hand 1: the bubble burst
    assert [e["type"] for e in ev] == ["busted", "hfh"] and not t.hfh.on
    night.do({"cmd": "hfh", "on": True})           # the director: hand-for-hand again
    d, ev = night.bust(1, stack=5000, same_hand=True)
    hand_of_c = next(e for e in t.log if e["type"] == "busted" and e["player"] == c)["hand"]
    assert ev[0]["hand"] == hand_of_c, "the same hand as the table's bust before"
    assert (t.places()[c], t.places()[d], t.places()[a]) == (10, 10, 12)
    replay_equal(t)


# ------------------------------------------------------- 2. bounty and mystery bounty (000 4.17)


def bounty_night(bounty: str) -> Night:
    """The sample night with a bounty (``bounty`` or ``mystery``), 12 players."""
    return Night("sample.yaml", 12, bounty=bounty)


def test_results_of_a_bounty_night_while_the_bounty_leader_is_still_in_000_4_17():
    """`bust P3 --by P1`: P1 leads the bounty and is still in. The results have a row for
    P3 (no prize); P1's prize shows on P1's row once P1 has a place."""
    night = bounty_night("bounty")
    t = night.t
    night.do({"cmd": "bust", "player": "P3", "by": "P1"})
    rows = t.results()
    assert [(r.name, r.prize, r.bounty_hits) for r in rows] == [("P3", None, 0)]
    # played to the end: P1 is placed and has the most knock-outs
    for name in [f"P{i}" for i in range(4, 13)] + ["P2"]:
        night.do({"cmd": "bust", "player": name, "by": "P1"})
    assert t.finished and t.winner == t.player("P1").id
    first = t.results()[0]
    assert (first.name, first.place, first.prize, first.bounty_hits) == ("P1", 1, "bounty", 11)
    replay_equal(t)


def test_results_of_a_mystery_bounty_night_with_a_hit_by_a_player_still_in_000_4_17():
    night = bounty_night("mystery")
    t = night.t
    night.do({"cmd": "mystery_list", "player": "P1", "names": ["P3", "P4", "P5", "P6", "P7"]})
    night.do({"cmd": "bust", "player": "P3", "by": "P1"})
    assert [(r.name, r.prize) for r in t.results()] == [("P3", None)]
    night.do({"cmd": "bust", "player": "P1", "by": "P2"})
    p1 = next(r for r in t.results() if r.name == "P1")
    assert (p1.prize, p1.bounty_hits) == ("mystery-bounty", 1)
    replay_equal(t)


def test_results_after_a_knocker_is_disqualified_000_3_8():
    """P1 knocked P3 out and is disqualified: out of the ranking (000 3.8), so the
    knock-out credits nobody, and the results still compute."""
    night = Night("sample.yaml", 12)
    t = night.t
    night.do({"cmd": "bust", "player": "P3", "by": "P1"})
    night.do({"cmd": "disqualify", "player": "P1"})
    rows = t.results()
    assert [r.name for r in rows] == ["P3"] and rows[0].knockouts == 0
    replay_equal(t)


def test_the_bounty_samples_give_results_after_every_bust_000_4_17():
    """The shipped bounty and mystery-bounty nights, every list drawn (5 names each), every
    bust credited: ``results()`` after each bust, and at the end the prizes of 000 4.17."""
    import random

    from controller.engine.points import draw_names

    for file in ("psc-bounty.yaml", "psc-mystery-bounty.yaml"):
        night = Night(file, 20, seed=4)
        t = night.t
        if t.settings.points.bounty == "mystery":
            ids = sorted(p.id for p in t.players.values() if not p.ghost)
            for pid, names in draw_names(ids, 5, seed=4).items():
                night.do({"cmd": "mystery_list", "player": pid, "names": list(names)}, 1.0)
        rng = random.Random(4)
        while not t.finished:
            table = rng.choice(sorted(t.tables))
            seats = [s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost]
            if len(seats) > 1:
                victim, killer = rng.sample(seats, 2)
                night.do({"cmd": "bust", "table": table, "seat": victim, "confirm": True,
                          "by": t.tables[table].occupant[killer]})
                assert len(t.results()) == len(t.places())
            if t.finished:
                break
            night.hand_done(table)
            for pid in list(t.pending):
                night.do({"cmd": "seated", "player": pid}, 1.0)
        rows = t.results()
        assert len(rows) == 20
        if t.settings.points.bounty == "bounty":
            most = max(r.knockouts for r in rows)
            assert {r.name for r in rows if r.prize == "bounty"} \
                == {r.name for r in rows if r.knockouts == most}
        else:
            hits = {r.name for r in rows if r.bounty_hits}
            assert hits and hits == {r.name for r in rows if r.prize == "mystery-bounty"}
        replay_equal(t)


# ------------------------------------------------------------------------ 10. the button


def test_the_first_button_is_drawn_at_each_table_among_its_players_002():
    """The venue (002; TDA): every table draws its own button among the players seated there,
    never an empty seat. 25 players at three tables of 9, 8 and 8: some seats are empty."""
    for seed in range(8):
        night = Night("venue-faq-main-event.yaml", 25, seed=seed)
        t = night.t
        drawn = next(e for e in t.log if e["type"] == "seats_drawn")
        assert sorted(n for n, _ in drawn["buttons"]) == sorted(t.tables)
        for n, seat in drawn["buttons"]:
            tab = t.tables[n]
            assert seat in tab.occupant and tab.button == seat
            assert tab.sb == tab._next_dealt(seat) and tab.bb == tab._next_dealt(tab.sb)
        replay_equal(t)
    # drawn, not copied: somewhere the tables' buttons are on different seats
    positions = set()
    for seed in range(8):
        t = Night("venue-faq-main-event.yaml", 25, seed=seed).t
        positions.add(len({tab.button for tab in t.tables.values()}))
    assert max(positions) > 1


def test_the_first_button_is_table_1s_position_at_every_table_000_3_12():
    """PSC (000 3.12): the high card is dealt on table 1's positions, and that position has
    the button "auch auf allen anderen Tischen"."""
    t = Night("sample.yaml", 27).t
    drawn = next(e for e in t.log if e["type"] == "seats_drawn")
    assert "buttons" not in drawn
    assert {tab.button for tab in t.tables.values()} == {drawn["button"]}
    assert t.settings.dealing.first_button == "table_1"


def final_table_night() -> tuple[Night, int]:
    """The sample night down to 10 players on two tables; the next bust at table 1 draws the
    final table. Returns the night and the drawn button."""
    night = Night("sample.yaml", 27)
    night.do({"cmd": "level", "to": 5})  # late registration over: tables break
    night.down_to(10, 2)
    _, ev = night.bust(1)
    final = next(e for e in ev if e["type"] == "final_table")
    assert night.t.tables[final["table"]].button == final["button"]
    return night, final["button"]


def test_the_hand_done_of_the_hand_before_the_final_table_draw_keeps_the_drawn_button():
    """The 10th player went out at table 1 and the final table was drawn (button on seat B).
    The dealer's HAND DONE then ends the hand in which that player went out, played before
    the redraw: the button stays on B for the final table's first hand, whose HAND DONE
    moves it on."""
    night, button = final_table_night()
    t = night.t
    ft = t.tables[t.final_table]
    first = (ft.button, ft.sb, ft.bb)
    nxt = ft.next_positions()
    night.hand_done(ft.number)              # the hand before the redraw
    assert (ft.button, ft.sb, ft.bb) == first and ft.button == button
    assert t.pending                         # the players are still on their way
    night.hand_done(ft.number)              # the final table's first hand
    assert (ft.button, ft.sb, ft.bb) == nxt
    assert not t.pending
    replay_equal(t)


def test_seated_at_the_final_table_means_its_first_hand_is_dealt():
    """The director (or a button box) says the players sat down: the hand before the redraw
    is over, and the next HAND DONE is the final table's first hand."""
    night, button = final_table_night()
    t = night.t
    ft = t.tables[t.final_table]
    nxt = ft.next_positions()
    night.do({"cmd": "seated", "table": ft.number})
    night.hand_done(ft.number)
    assert (ft.button, ft.sb, ft.bb) == nxt
    replay_equal(t)


def test_a_hand_done_whose_passing_time_draws_the_final_table_ends_the_hand_before_it():
    """Table 1 reports "hand done" in the break: the ghost leaves (000 9.5) and the final
    table is drawn on table 1's number. That press ended the hand played before the redraw:
    it is recorded at the final table and leaves the drawn button for its first hand."""
    from controller.engine.settings import Entries, Ghosts
    from tests.support.settings import new_tournament

    t = new_tournament(11, seed=2, ghosts=Ghosts(enabled=True),
                       entries=Entries(late_registration_levels=0))
    assert t.seated() == 12  # 6 + 5 players and a ghost
    for at in (100.0, 200.0):
        table = next(n for n, tab in t.tables.items()
                     if any(not t.players[p].ghost for p in tab.occupant.values()))
        seat = min(s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost)
        t.execute({"cmd": "bust", "table": table, "seat": seat}, at)
        t.execute({"cmd": "hand_done", "table": table}, at + 5)
    assert t.final_table is None and t.seated() == 10
    ev = t.execute({"cmd": "hand_done", "table": 1}, 2500.0)  # in the first break
    types = [e["type"] for e in ev]
    assert "ghosts_removed" in types and "final_table" in types and types[-1] == "hand_done"
    final = next(e for e in ev if e["type"] == "final_table")
    ft = t.tables[final["table"]]
    assert ft.button == final["button"] and not ft.redrawn
    nxt = ft.next_positions()
    t.execute({"cmd": "hand_done", "table": ft.number}, 2600.0)
    assert (ft.button, ft.sb, ft.bb) == nxt
    replay_equal(t)
