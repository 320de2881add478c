"""The chip race at a colour-up break (000 3.17, 001 §1 X, 002, 003 37, 004 2).

Each club's rule as a worked example: the chip race settings come from the club's
preset (config/clubs), the test structure's break carries the note "Chipraise 25"
(the 25 chips leave, the 100 chips race for them).
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import load_tournament_text
from controller.engine.rules import chip_race as cr
from controller.engine.settings import ChipRace, Level
from controller.engine.tournament import Tournament
from tests.support.settings import make_settings, rejected, replay_equal

#: the test structure: four ten-minute levels, then the break "Chipraise 25" (clock at 2 s)
IN_BREAK = 2 + 4 * 600 + 60.0


def preset(club: str) -> ChipRace:
    """The chip race settings of a club's preset, as shipped."""
    text = f"name: T\npreset: {club}\nstart_stack: 20000\n"
    if club == "floor-sheet":
        text += "level_minutes: 20\nstructure:\n  - {blinds: 100/200}\n"
    return load_tournament_text(text, "t.yaml").chip_race


def club_tournament(club: str, players: int = 9, seed: int = 1) -> Tournament:
    t = Tournament.new(make_settings(chip_race=preset(club)), seed, 0.0)
    t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(1, players + 1)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    return t


def race(t: Tournament, chips: list[int], short: list[int] | None = None,
         now: float = IN_BREAK) -> dict:
    (e,) = [e for e in t.execute({"cmd": "chip_race", "table": 1, "chips": chips,
                                  "short": short or []}, now) if e["type"] == "chip_race"]
    return e


def best(card_lists: list[list[str]]) -> list[tuple[int, int]]:
    return [max(map(cr.strength, cards)) for cards in card_lists]


# ------------------------------------------------------------------ pure parts


def test_a_colour_up_note_names_the_leaving_chip_and_the_next_chip_is_the_new_one():
    """000 4.12 "Chipraise 25": the 25s leave; the next chip of the set (100) comes."""
    chips = ChipRace().chips
    assert cr.colour_up("Chipraise 25", chips) == (25, 100)
    assert cr.colour_up("Colour-up 100", chips) == (100, 500)
    assert cr.colour_up("Chip race: 50er", chips) == (50, 100)
    assert cr.colour_up("Colour-up 1.000", chips) == (1000, 5000)
    assert cr.colour_up("Dinner", chips) is None
    assert cr.colour_up("Chipraise 100000", chips) is None  # no higher chip


def test_new_chips_rounded_up_000_3_17_and_commercially_002():
    """000 3.17: the leftover total "auf die nächsthöhere Werteinheit aufgerundet";
    002: "kaufmännisch gerundet (ab 250 = 500er Chip)"."""
    assert cr.new_chips(150, 100, "up") == 2
    assert cr.new_chips(200, 100, "up") == 2
    assert cr.new_chips(25, 100, "up") == 1
    assert cr.new_chips(249, 500, "half_up") == 0
    assert cr.new_chips(250, 500, "half_up") == 1
    assert cr.new_chips(700, 500, "half_up") == 1
    assert cr.new_chips(800, 500, "half_up") == 2


def test_cards_rank_by_rank_then_suit_spades_hearts_diamonds_clubs_000_3_17():
    """000 3.17: "bei gleich hohen Karten zählt das Symbol mit der Reihenfolge – Pik, Herz,
    Karo, Treff"."""
    order = sorted(["A♣", "A♠", "K♠", "A♥", "2♠", "A♦"], key=cr.strength, reverse=True)
    assert order == ["A♠", "A♥", "A♦", "A♣", "K♠", "2♠"]


def test_one_chip_each_goes_to_the_best_cards_000_3_17():
    """000 3.17: "Ein Spieler kann maximal einen Jeton erhalten" — two new chips for
    three players: the players with the two best cards win one each."""
    cards = [["9♠", "3♥"], ["K♣"], ["K♦", "2♣", "4♣"]]
    assert cr.decide(cards, 2, ChipRace()) == ([2, 1], [1, 1])


def test_the_highest_card_takes_all_003_37():
    """003 37: "Der Spieler mit der höchsten Karte erhält alle noch zu wechselnden Chips"."""
    cards = [["9♠", "3♥"], ["K♣"], ["K♦", "2♣", "4♣"]]
    assert cr.decide(cards, 2, ChipRace(one_chip_per_player=False)) == ([2], [2])


def test_the_deal_starts_at_seat_1_or_left_of_the_dealer_003_37():
    """000 3.17 / 001 §1 X / 004 2: "beginnend bei Platz 1"; 003 37: "beim Spieler der
    links vom Dealer sitzt" (clockwise, wrapping past the last seat)."""
    assert cr.deal_order([7, 2, 5], 9, "seat_1", 4) == [2, 5, 7]
    assert cr.deal_order([7, 2, 5], 9, "left_of_dealer", 4) == [5, 7, 2]
    assert cr.deal_order([7, 2, 5], 9, "left_of_dealer", 7) == [2, 5, 7]
    assert cr.deal_order([7, 2, 5], 9, "left_of_dealer", None) == [2, 5, 7]


# ------------------------------------------------------- worked example per club


@pytest.mark.parametrize("club", ["psc-five-spades", "pokerlounge-berlin", "floor-sheet"])
def test_worked_example_seat_1_one_chip_each_rounded_up(club):
    """000 3.17, 001 §1 X, 004 2: seats 1, 2 and 5 keep 3, 2 and 1 chips of 25 (150):
    rounded up that makes 2 chips of 100; cards from seat 1, all of a player's cards
    before the next; the two best cards win one 100 each; seat 5 has nothing else
    ("nur noch einen Jeton") and keeps a 100 if it loses."""
    t = club_tournament(club)
    in_play = t.chips
    e = race(t, [3, 2, 0, 0, 1], short=[5])
    assert (e["leaving"], e["new"]) == (25, 100)
    assert e["seats"] == [1, 2, 5] and e["leftover"] == [3, 2, 1]
    assert [len(c) for c in e["cards"]] == [3, 2, 1]
    assert len({c for cards in e["cards"] for c in cards}) == 6  # one deck
    assert sum(e["won"]) == 2 and e["won"] == [1, 1]
    ranked = sorted(e["seats"], key=lambda s: best(e["cards"])[e["seats"].index(s)],
                    reverse=True)
    assert e["winners"] == ranked[:2]
    assert e["saved"] == ([] if 5 in e["winners"] else [5])
    assert e["change"] == (2 + len(e["saved"])) * 100 - 150
    assert t.tables[1].chip_race is not None
    assert t.chips == in_play + e["change"]  # the chips in play: rounded up, 50 or 150 more
    replay_equal(t)


def test_worked_example_002_commercial_rounding_from_half_a_chip():
    """002: 100s leave, 500s come. Two players keep 2 and 1 chips of 100 (300): from 250
    a 500, so one 500 for the best card; a single 100 alone (100) makes none."""
    t = Tournament.new(make_settings(chip_race=preset("venue-faq"), structure=(
        Level("level", 600, 100, 200), Level("break", 600, note="Colour-up 100"),
        Level("level", 600, 500, 1000))), 3, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 6)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    a, b, c = sorted(t.tables[1].occupant)[:3]
    chips = [0] * c
    chips[a - 1], chips[b - 1] = 2, 1
    e = race(t, chips, now=700.0)
    assert (e["leaving"], e["new"]) == (100, 500)
    assert e["won"] == [1]
    i = max(range(2), key=lambda k: best(e["cards"])[k])
    assert e["winners"] == [e["seats"][i]]
    assert e["change"] == 500 - 300
    in_play = t.chips - e["change"]
    t.execute({"cmd": "undo"}, 701.0)
    assert t.chips == in_play
    chips = [0] * c
    chips[c - 1] = 1
    e = race(t, chips, now=702.0)
    assert e["won"] == [] and e["winners"] == [] and e["change"] == -100
    assert t.chips == in_play - 100  # a lone 100 makes no 500: it leaves play


def test_worked_example_003_left_of_dealer_highest_card_takes_all():
    """003 37: 3 x 25 do not make a 100; seats 2, 3 and 7 keep 3, 3 and 1 (175): rounded up
    2 chips of 100, all to the highest card; dealt from the player left of the dealer;
    seat 7 has nothing else and "erhält ... aufgerundet" one 100 if it loses."""
    t = club_tournament("ace-of-spades")
    button = t.tables[1].button
    e = race(t, [0, 3, 3, 0, 0, 0, 1], short=[7])
    assert e["seats"] == cr.deal_order([2, 3, 7], t.tables[1].size, "left_of_dealer", button)
    top = max(range(3), key=lambda k: best(e["cards"])[k])
    assert e["winners"] == [e["seats"][top]] and e["won"] == [2]
    assert e["saved"] == ([] if e["winners"] == [7] else [7])


def test_the_same_log_replays_the_same_cards():
    """The cards are drawn with t.rng() and stored: a replay never draws again."""
    t = club_tournament("psc-five-spades")
    e = race(t, [3, 3, 3, 3, 3, 3, 3, 3, 3])
    again = Tournament.replay(t.log)
    assert again.tables[1].chip_race is not None
    assert again.tables[1].chip_race.cards == e["cards"]
    assert sum(e["won"]) == 9 * 3 * 25 // 100 + 1  # 675 rounded up: 7


# ------------------------------------------------------------------ bad input


def test_no_chip_race_when_no_colour_up_is_due():
    t = club_tournament("psc-five-spades")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 100.0, "no colour-up is due")


def test_a_break_without_a_chip_in_its_note_is_no_colour_up():
    t = Tournament.new(make_settings(structure=(
        Level("level", 600, 25, 50), Level("break", 600, note="Dinner"),
        Level("level", 600, 50, 100))), 1, 0.0)
    t.execute({"cmd": "register", "names": ["A", "B", "C"]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, 700.0, "no colour-up is due")


def test_leftover_chips_for_an_empty_seat_are_rejected():
    t = club_tournament("psc-five-spades", players=5)
    empty = t.tables[1].free_seats()[0]
    chips = [0] * empty
    chips[empty - 1] = 2
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": chips}, IN_BREAK,
             f"seat {empty} at table 1 is empty")


def test_negative_counts_are_rejected():
    t = club_tournament("psc-five-spades")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1, -1]}, IN_BREAK, "chips")


def test_chips_that_colour_up_evenly_are_not_leftovers():
    """002: "Colour-up: Einfacher Umtausch (geht auf)": 4 x 25 are a 100, not a race."""
    t = club_tournament("psc-five-spades")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [4]}, IN_BREAK,
             "colour those up first (at most 3")


def test_a_short_seat_needs_leftover_chips_and_nothing_to_race_is_rejected():
    t = club_tournament("psc-five-spades")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1], "short": [2]}, IN_BREAK,
             "seat 2 is short")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [0, 0]}, IN_BREAK, "nothing to race")


def test_one_chip_race_per_table_and_break_until_undone():
    t = club_tournament("psc-five-spades")
    race(t, [1, 2])
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, IN_BREAK + 1,
             "already had its chip race")
    t.execute({"cmd": "undo", "table": 1}, IN_BREAK + 2)  # the table's undo button
    assert t.tables[1].chip_race is None
    race(t, [1], now=IN_BREAK + 3)


def test_more_seats_than_the_table_has_are_rejected():
    t = club_tournament("psc-five-spades")
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [0] * 10 + [1]}, IN_BREAK,
             "has 9 seats")


def test_a_chip_race_before_the_draw_is_rejected():
    t = Tournament.new(make_settings(), 1, 0.0)
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [1]}, IN_BREAK)


def test_the_presets_chip_values_are_read():
    """The preset's ``chips`` decide the new chip: with 25, 50, 100 the 25s race for 50s."""
    s = make_settings(chip_race=dataclasses.replace(preset("psc-five-spades"),
                                                    chips=(25, 50, 100)))
    t = Tournament.new(s, 1, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(9)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    e = race(t, [1, 1, 1])
    assert e["new"] == 50 and sum(e["won"]) == 2
    rejected(t, {"cmd": "chip_race", "table": 1, "chips": [2]}, IN_BREAK + 1)


# ------------------------------------------------------------------ properties


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(0, 3), min_size=9, max_size=9),
       short=st.sets(st.integers(1, 9)), seed=st.integers(0, 10**6),
       club=st.sampled_from(["psc-five-spades", "venue-faq", "ace-of-spades"]))
def test_any_chip_race_follows_its_club_and_eliminates_nobody(counts, short, seed, club):
    """For any leftover chips: the new chips are the rounded total (000 3.17 / 002), the
    winners hold better cards than every loser, one chip each (or all to the highest,
    003 37), and a short seat that wins nothing keeps one (nobody is eliminated)."""
    if not any(counts):
        return
    t = club_tournament(club, seed=seed % 1000 + 1)
    short = sorted(s for s in short if counts[s - 1])
    e = race(t, counts, short=short)
    rules = t.settings.chip_race
    total = sum(counts) * 25
    made = cr.new_chips(total, 100, rules.rounding)
    assert sum(e["won"]) == made
    strengths = dict(zip(e["seats"], best(e["cards"]), strict=True))
    losers = [s for s in e["seats"] if s not in e["winners"]]
    assert all(strengths[w] > strengths[x] for w in e["winners"] for x in losers)
    if rules.one_chip_per_player:
        assert set(e["won"]) <= {1}
    else:
        assert len(e["winners"]) <= 1
    assert e["saved"] == [s for s in e["seats"] if s in short and s not in e["winners"]]
    assert e["change"] == (made + len(e["saved"])) * 100 - total
    assert sorted(c for cards in e["cards"] for c in cards) == sorted(
        set(c for cards in e["cards"] for c in cards))  # one deck: no card twice
