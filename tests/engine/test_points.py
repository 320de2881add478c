"""Tests for controller.engine.points — every test names the rule it checks.

Rulebooks: /work/shared/seeds (000 PSC Five Spades, 001 Pokerlounge Berlin,
003 Ace Of Spades), RULES.md section 9, SCENARIOS.md S11.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.engine import points as P
from controller.engine.settings import Points

# ---------------------------------------------------------------------------
# 000 5.4: the table, checked cell by cell against the raw seed text
# ---------------------------------------------------------------------------

# Byte copy of the seed's lines 131-147 (000 5.4), used when the shared seed
# directory is not next to the repository (a clean CI clone). When it is,
# test_seed_copy_is_current checks this copy against it.
_SEED_5_4_COPY = (
    "\tSpieler\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\t18\t19\t20\t21\t22\t23\t24\t25\t26\t27\t28\t29\t30\t\n",  # noqa: E501
    "Platz\tPunkte\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n",  # noqa: E501
    "1\t\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\t18\t18\t18\t18\t18\t18\t18\t18\t18\t18\t18\t18\t18\t18\n",  # noqa: E501
    "2\t\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t15\t15\t15\t15\t15\t15\t15\t15\t15\t15\t15\t15\t15\n",  # noqa: E501
    "3\t\t1\t2\t3\t4\t4\t5\t6\t7\t8\t9\t10\t11\t12\t12\t12\t12\t12\t12\t12\t12\t12\t12\t12\t12\t12\t12\n",  # noqa: E501
    "4\t\t\t1\t1\t2\t2\t3\t4\t5\t6\t7\t8\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\t9\n",  # noqa: E501
    "5\t\t\t\t\t1\t1\t2\t2\t3\t4\t5\t6\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\t7\n",  # noqa: E501
    "6\t\t\t\t\t\t\t1\t1\t2\t2\t3\t4\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\t5\n",  # noqa: E501
    "7\t\t\t\t\t\t\t\t\t1\t1\t2\t2\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\t3\n",  # noqa: E501
    "8\t\t\t\t\t\t\t\t\t\t\t1\t1\t2\t2\t2\t2\t2\t2\t3\t3\t3\t3\t3\t3\t3\t3\t3\n",  # noqa: E501
    "9\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t2\t2\t2\t2\t2\t2\t2\t2\t2\t3\t3\n",  # noqa: E501
    "10\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t1\t2\t2\t2\t2\t2\t2\t2\t2\n",  # noqa: E501
    "11\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t1\t1\t2\t2\t2\t2\n",  # noqa: E501
    "12\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t1\t1\t1\t2\t2\n",  # noqa: E501
    "13\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t1\t1\t1\t1\n",  # noqa: E501
    "14\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\t1\t1\n",  # noqa: E501
    "15\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\t1\t1\n",  # noqa: E501
)


def _seed_file() -> Path | None:
    seeds = Path(__file__).resolve().parents[3] / "shared" / "seeds"
    found = sorted(seeds.glob("000_*.txt")) if seeds.is_dir() else []
    return found[0] if found else None


def _seed_table_lines() -> list[str]:
    """The 000 5.4 table lines: from the seed file if present, else the copy."""
    path = _seed_file()
    if path is None:
        return list(_SEED_5_4_COPY)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("\tSpieler\t"))
    return lines[start : start + len(_SEED_5_4_COPY)]


def _parse_seed_table(lines: list[str]) -> dict[tuple[int, int | str], int]:
    """Independent parse of the seed's 000 5.4 table (RULES.md 9 note).

    Header: ``\\tSpieler\\t6\\t...\\t30\\t``. Data rows: ``place\\t\\t`` then one
    value per column — one more than the header has: the first is for 6
    players, the extra last one is ">30" (and equals the 30 value). Blank = 0.
    """
    header = lines[0].rstrip("\n").split("\t")
    assert header[1] == "Spieler"
    columns = [int(h) for h in header[2:] if h]
    assert columns == list(range(6, 31))
    cells: dict[tuple[int, int | str], int] = {}
    data = [line for line in lines[1:] if line.split("\t", 1)[0].isdigit()]
    assert [int(line.split("\t", 1)[0]) for line in data] == list(range(1, 16))
    for line in data:
        fields = line.rstrip("\n").split("\t")
        place = int(fields[0])
        values = fields[2:]
        assert len(values) == len(columns) + 1, f"row {place}: one extra value expected"
        keys: list[int | str] = [*columns, ">30"]
        for key, raw in zip(keys, values, strict=True):
            cells[(place, key)] = int(raw) if raw.strip() else 0
        assert cells[(place, ">30")] == cells[(place, 30)], f"row {place}: >30 != 30"
    return cells


def test_seed_copy_is_current():  # 000 5.4: the embedded copy is the seed's text
    path = _seed_file()
    if path is None:
        pytest.skip("shared seeds not present; the embedded copy is used")
    assert _seed_table_lines() == list(_SEED_5_4_COPY)


@pytest.mark.parametrize("source", ["seed file", "embedded copy"])
def test_psc_table_every_cell_matches_seed(source):  # 000 5.4, RULES.md 9 (one-extra-value rule)
    if source == "seed file":
        if _seed_file() is None:
            pytest.skip("shared seeds not present")
        lines = _seed_table_lines()
    else:
        lines = list(_SEED_5_4_COPY)
    cells = _parse_seed_table(lines)
    for place in range(1, 16):
        for players in range(6, 41):
            expected = cells[(place, players if players <= 30 else ">30")]
            encoded = P.PSC_RANKING_TABLE[place][min(players, 30) - 6]
            assert encoded == expected, (place, players)
            if place <= players:
                assert P.psc_ranking_points(place, players) == expected, (place, players)
            else:
                assert expected == 0  # a place that cannot exist scores nothing


def test_psc_table_shape():  # 000 5.4: places 1-15, columns 6..30
    assert sorted(P.PSC_RANKING_TABLE) == list(range(1, 16))
    assert all(len(row) == 25 for row in P.PSC_RANKING_TABLE.values())


def test_psc_ranking_13_players_S11():  # 000 5.4, SCENARIOS S11
    assert [P.psc_ranking_points(p, 13) for p in range(1, 14)] == [
        13, 10, 7, 5, 3, 2, 1, 0, 0, 0, 0, 0, 0,
    ]  # fmt: skip


def test_psc_ranking_30_players_S11():  # 000 5.4, SCENARIOS S11
    assert P.psc_ranking_points(1, 30) == 18
    assert P.psc_ranking_points(15, 30) == 1
    assert P.psc_ranking_points(16, 30) == 0


def test_psc_ranking_40_players_like_30_S11():  # 000 5.4 ">30" column, SCENARIOS S11
    for place in range(1, 41):
        expected = P.psc_ranking_points(place, 30) if place <= 30 else 0
        assert P.psc_ranking_points(place, 40) == expected


def test_psc_ranking_5_players_nothing_S11():  # 000 5.4 table starts at 6, SCENARIOS S11
    assert [P.psc_ranking_points(p, 5) for p in range(1, 6)] == [0] * 5
    assert P.psc_ranking_points(1, 1) == 0


def test_psc_ranking_rules_md_examples():  # RULES.md 9: 6 → 6/3/1, 18 → 1-9, 29+ → 1-15
    assert [P.psc_ranking_points(p, 6) for p in range(1, 7)] == [6, 3, 1, 0, 0, 0]
    assert P.psc_scoring_places(6) == 3
    assert P.psc_scoring_places(13) == 7
    assert P.psc_scoring_places(18) == 9
    assert P.psc_ranking_points(9, 18) == 1 and P.psc_ranking_points(10, 18) == 0
    assert P.psc_scoring_places(29) == 15
    assert P.psc_scoring_places(30) == 15
    assert P.psc_scoring_places(100) == 15
    assert P.psc_scoring_places(5) == 0


@pytest.mark.parametrize("place, players", [(0, 10), (-1, 10), (11, 10), (1, 0)])
def test_psc_ranking_rejects_impossible_place(place, players):  # 000 5.4 input domain
    with pytest.raises(ValueError):
        P.psc_ranking_points(place, players)


@given(players=st.integers(min_value=6, max_value=300))
def test_psc_ranking_nonincreasing_and_nonnegative(players):  # 000 5.4 property
    values = [P.psc_ranking_points(p, players) for p in range(1, players + 1)]
    assert all(v >= 0 for v in values)
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert P.psc_scoring_places(players) == sum(1 for v in values if v > 0)


@given(place=st.integers(min_value=1, max_value=15), players=st.integers(6, 60))
def test_psc_ranking_never_less_with_more_players(place, players):  # 000 5.4 table property
    if place <= players:
        assert P.psc_ranking_points(place, players + 1) >= P.psc_ranking_points(place, players)


# ---------------------------------------------------------------------------
# Shared places (000 9.5) — chosen rule: mean of the covered places
# ---------------------------------------------------------------------------


def test_shared_place_mean_of_covered_places_000_9_5():
    # 13 players, two share 7th: places 7 and 8 score 1 and 0 → 0.5 each
    assert P.shared_place_points(7, 2, lambda p: P.psc_ranking_points(p, 13)) == Fraction(1, 2)
    # three share 2nd: (10 + 7 + 5) / 3
    assert P.shared_place_points(2, 3, lambda p: P.psc_ranking_points(p, 13)) == Fraction(22, 3)
    # a single player is not shared
    assert P.shared_place_points(1, 1, lambda p: P.psc_ranking_points(p, 13)) == 13


def test_round_points_half_up_two_decimals_000_9_5():
    assert P.round_points(Fraction(22, 3)) == 7.33
    assert P.round_points(Fraction(23, 3)) == 7.67
    assert P.round_points(Fraction(1, 8)) == 0.13  # half up, not to even
    assert P.round_points(Fraction(3, 8)) == 0.38
    assert P.round_points(13) == 13.0


def test_shared_place_rejects_bad_input_000_9_5():
    with pytest.raises(ValueError):
        P.shared_place_points(0, 1, P.landesliga_points)
    with pytest.raises(ValueError):
        P.shared_place_points(1, 0, P.landesliga_points)


@given(
    players=st.integers(min_value=6, max_value=40),
    data=st.data(),
)
def test_shared_places_keep_the_total_000_9_5(players, data):
    """Any split of places 1..players into shared groups hands out the same total."""
    sizes: list[int] = []
    left = players
    while left:
        size = data.draw(st.integers(min_value=1, max_value=min(left, 4)))
        sizes.append(size)
        left -= size

    def table(p: int) -> int:
        return P.psc_ranking_points(p, players)

    place, total = 1, Fraction(0)
    for size in sizes:
        total += size * P.shared_place_points(place, size, table)
        place += size
    assert total == sum(P.psc_ranking_points(p, players) for p in range(1, players + 1))


# ---------------------------------------------------------------------------
# Landesliga (000 4.18)
# ---------------------------------------------------------------------------


def test_landesliga_points_000_4_18():
    assert [P.landesliga_points(p) for p in range(1, 12)] == [
        20, 17, 15, 13, 11, 9, 7, 6, 5, 0, 0,
    ]  # fmt: skip
    with pytest.raises(ValueError):
        P.landesliga_points(0)


def test_landesliga_stack_1000_per_point_min_5000_max_20000_000_4_18():
    assert P.landesliga_stack(20) == 20_000
    assert P.landesliga_stack(13) == 13_000
    assert P.landesliga_stack(5) == 5_000
    assert P.landesliga_stack(0) == 5_000  # places 10+: 0 points → minimum
    assert P.landesliga_stack(25) == 20_000
    assert P.landesliga_stack(18.5) == 18_500  # two share 1st (000 9.5)
    assert P.landesliga_stack(Fraction(52, 3)) == 17_333  # three share 1st
    with pytest.raises(ValueError):
        P.landesliga_stack(-1)


@given(place=st.integers(min_value=1, max_value=12))
def test_landesliga_stack_within_bounds_000_4_18(place):
    stack = P.landesliga_stack(P.landesliga_points(place))
    assert P.LANDESLIGA_MIN_STACK <= stack <= P.LANDESLIGA_MAX_STACK


# ---------------------------------------------------------------------------
# Multi-round 3+1 / 2+1 (000 4.19)
# ---------------------------------------------------------------------------


def test_multi_round_points_table_000_4_19():
    assert [P.multi_round_points(p) for p in range(1, 12)] == [
        18, 18, 15, 12, 9, 7, 5, 3, 2, 1, 0,
    ]  # fmt: skip


def test_multi_round_winner_bonus_before_end_of_time_000_4_19():
    # "18+2 (vor Ende der Zeit)": 20 for a table won before the time ran out
    assert P.multi_round_points(1, won_before_time=True) == 20
    assert P.multi_round_points(1, won_before_time=False) == 18
    assert P.multi_round_points(2, won_before_time=True) == 18  # only the winner
    with pytest.raises(ValueError):
        P.multi_round_points(0)


def test_multi_round_totals_accumulate_000_4_19():
    rounds = [{1: 20, 2: 18, 3: 15}, {1: 5, 2: 18, 4: 12}, {3: 1.5}]
    assert P.multi_round_totals(rounds) == {1: 25.0, 2: 36.0, 3: 16.5, 4: 12.0}


def test_multi_round_final_table_best_nine_000_4_19():
    rounds = [{pid: 30 - pid for pid in range(1, 13)}, {pid: 0 for pid in range(1, 13)}]
    assert P.multi_round_final_table(rounds, seed=1) == tuple(range(1, 10))
    assert P.multi_round_final_table(rounds, seed=1, seats=3) == (1, 2, 3)
    with pytest.raises(ValueError):
        P.multi_round_final_table(rounds, seed=1, seats=0)


def test_multi_round_ties_best_round_then_seeded_draw_000_4_19():
    # 1 and 2 both total 20; 1 had the better single round → 1 first
    rounds = [{1: 20, 2: 10, 3: 5, 4: 5}, {1: 0, 2: 10, 3: 5, 4: 5}]
    ranking = P.multi_round_ranking(rounds, seed=7)
    assert ranking[:2] == (1, 2)
    # 3 and 4 are equal in every way: the seed decides, reproducibly
    assert set(ranking[2:]) == {3, 4}
    orders = {P.multi_round_ranking(rounds, seed=s)[2:] for s in range(40)}
    assert orders == {(3, 4), (4, 3)}
    assert P.multi_round_ranking(rounds, seed=7) == ranking


# ---------------------------------------------------------------------------
# Ace of Spades (003 6, 8)
# ---------------------------------------------------------------------------


def test_ace_of_spades_table_points_003_6():
    assert [P.ace_of_spades_table_points(p) for p in range(1, 6)] == [2.0, 1.0, 0.5, 0.0, 0.0]
    assert P.ACE_OF_SPADES_ATTENDANCE_POINT == 1
    with pytest.raises(ValueError):
        P.ace_of_spades_table_points(0)


@pytest.mark.parametrize(
    "average, bonus",
    [
        ("0.49", 0), ("0.50", 1), ("0.54", 1), ("0.549", 1), ("0.55", 2), ("0.59", 2),
        ("0.60", 4), ("0.64", 4), ("0.65", 6), ("0.69", 6), ("0.70", 9), ("0.74", 9),
        ("0.75", 12), ("0.79", 12), ("0.80", 16), ("0.84", 16), ("0.85", 20), ("2", 20),
    ],
)  # fmt: skip
def test_ace_of_spades_bonus_brackets_003_6(average, bonus):
    tables = 1000  # exact averages
    assert P.ace_of_spades_bonus(Fraction(average) * tables, tables) == bonus


def test_ace_of_spades_bonus_needs_25_tables_003_6():
    assert P.ace_of_spades_bonus(24 * 2, 24) == 0  # average 2.0 but only 24 tables
    assert P.ace_of_spades_bonus(25 * 2, 25) == 20
    assert P.ace_of_spades_bonus(12.5, 25) == 1  # exactly 0.50
    assert P.ace_of_spades_bonus(0, 0) == 0
    with pytest.raises(ValueError):
        P.ace_of_spades_bonus(1, -1)


def test_club_championship_stack_003_8():
    assert P.club_championship_stack(32.5) == 37_500  # the rulebook's example
    assert P.club_championship_stack(0) == 5_000
    assert P.club_championship_stack(Fraction(1, 3)) == 5_333
    with pytest.raises(ValueError):
        P.club_championship_stack(-0.5)


# ---------------------------------------------------------------------------
# Qualifier SNG (001 §2 III)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [6, 7, 8])
def test_qualifier_6_to_8_ticket_and_re_entry_001_2_III(players):
    assert P.qualifier_prizes(players) == {1: "ticket", 2: "re-entry"}
    assert P.qualifier_ends_with(players) == 1  # heads-up is played out


@pytest.mark.parametrize("players", [9, 10])
def test_qualifier_9_10_two_tickets_and_re_entry_001_2_III(players):
    assert P.qualifier_prizes(players) == {1: "ticket", 2: "ticket", 3: "re-entry"}
    assert P.qualifier_ends_with(players) == 2  # "das Heads-Up nicht ausgespielt"


@pytest.mark.parametrize("players", [0, 5, 11])
def test_qualifier_needs_6_to_10_players_001_2_III(players):
    with pytest.raises(ValueError):
        P.qualifier_prizes(players)
    with pytest.raises(ValueError):
        P.qualifier_ends_with(players)


# ---------------------------------------------------------------------------
# Knock-outs (000 6, 8.2, 4.17, 9.5)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _F:
    player_id: int
    member: bool = True
    eliminated_by: int | None = None
    removed_as_ghost: bool = False


def test_knockout_counts_skip_ghosts_000_9_5():
    fs = [
        _F(1),
        _F(2, eliminated_by=1),
        _F(3, eliminated_by=1),
        _F(4, removed_as_ghost=True, eliminated_by=1),
        _F(5, eliminated_by=2),
    ]
    assert P.knockout_counts(fs) == {1: 2, 2: 1}
    assert P.credited_knockouts(fs) == [(1, 2), (1, 3), (2, 5)]


def test_knockout_self_elimination_is_an_error():  # 000 8.2 "Gegner"
    with pytest.raises(ValueError):
        P.knockout_counts([_F(1, eliminated_by=1)])


def test_knockout_points_one_per_opponent_plus_two_for_drawn_name_000_6_3_8_2():
    fs = [
        _F(1),
        _F(2, eliminated_by=1),  # drawn by 1: 1 + 2
        _F(3, eliminated_by=1),  # not drawn: 1
        _F(4, member=False, eliminated_by=1),  # a non-member opponent still counts: 1
        _F(5, eliminated_by=4),  # 4 is no member: no points (000 6.2)
        _F(6, eliminated_by=1, removed_as_ghost=True),  # ghost: nothing (000 9.5)
        _F(7),
    ]
    drawn = {1: (2, 6, 7), 7: (1, 2, 3)}
    assert P.knockout_points(fs, drawn) == {1: 5, 2: 0, 3: 0, 5: 0, 6: 0, 7: 0}
    assert P.knockout_points(fs) == {1: 3, 2: 0, 3: 0, 5: 0, 6: 0, 7: 0}  # nobody drew


def test_draw_names_three_others_seeded_000_6_3():
    ids = list(range(1, 13))
    drawn = P.draw_names(ids, 3, seed=42)
    assert sorted(drawn) == ids
    for pid, names in drawn.items():
        assert len(names) == 3 and len(set(names)) == 3
        assert pid not in names and set(names) <= set(ids)
    assert P.draw_names(list(reversed(ids)), 3, seed=42) == drawn  # order-independent
    assert P.draw_names(ids, 3, seed=43) != drawn


def test_draw_names_small_field_gets_all_others_000_6_3():
    assert {k: sorted(v) for k, v in P.draw_names([1, 2, 3], 5, seed=0).items()} == {
        1: [2, 3], 2: [1, 3], 3: [1, 2],
    }  # fmt: skip
    assert P.draw_names([1], 3, seed=0) == {1: ()}
    with pytest.raises(ValueError):
        P.draw_names([1, 2], -1, seed=0)


@given(
    ids=st.sets(st.integers(min_value=0, max_value=500), max_size=40),
    k=st.integers(min_value=0, max_value=8),
    seed=st.integers(),
)
def test_draw_names_never_oneself_property_000_6_3_4_17(ids, k, seed):
    drawn = P.draw_names(ids, k, seed)
    assert set(drawn) == ids
    for pid, names in drawn.items():
        assert pid not in names
        assert len(set(names)) == len(names) == min(k, len(ids) - 1)


def test_bounty_leaders_most_knockouts_ties_share_000_4_17():
    fs = [
        _F(1),
        _F(2, eliminated_by=1),
        _F(3, eliminated_by=4),
        _F(4, eliminated_by=1),
        _F(5, eliminated_by=6),
        _F(6, eliminated_by=1),
        _F(7, eliminated_by=6),
        _F(8, eliminated_by=6),
    ]
    assert P.bounty_leaders(fs) == (1, 6)
    assert P.bounty_leaders([_F(1), _F(2)]) == ()
    # a ghost removal is no bounty (000 9.5)
    assert P.bounty_leaders([_F(1), _F(2, eliminated_by=1, removed_as_ghost=True)]) == ()


def test_mystery_hits_names_on_own_list_000_4_17():
    fs = [
        _F(1),
        _F(2, eliminated_by=1),
        _F(3, eliminated_by=1),
        _F(4, eliminated_by=3),
        _F(5, eliminated_by=1, removed_as_ghost=True),
    ]
    lists = {1: (3, 5, 7, 8, 9), 3: (4, 1, 2, 6, 7)}
    assert P.mystery_hits(fs, lists) == {1: 1, 3: 1}
    lists5 = P.draw_names(range(1, 20), 5, seed=3)
    assert all(len(v) == 5 for v in lists5.values())


# ---------------------------------------------------------------------------
# Public names (000 5.8) and bubble size
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, member, shown",
    [
        ("Anna Schmidt", False, "Anna S."),
        ("Anna Schmidt", True, "Anna Schmidt"),
        ("Hans-Peter von Berg", False, "Hans-Peter B."),
        ("  Ömer   Çelik ", False, "Ömer Ç."),
        ("Cher", False, "Cher"),
        ("", False, ""),
    ],
)
def test_public_name_non_members_shortened_000_5_8(name, member, shown):
    assert P.public_name(name, member) == shown


@given(st.text(), st.booleans())
def test_public_name_shortens_only_non_members_000_5_8(name, member):
    shown = P.public_name(name, member)
    parts = name.split()
    if member or len(parts) < 2:
        assert shown == " ".join(parts)
    else:
        assert shown == f"{parts[0]} {parts[-1][0]}."
        assert len(shown.split()) == 2


def test_scoring_places_per_system():  # 000 5.4, 4.18, 4.19; 003 6; 001 §2 III
    assert P.scoring_places(Points(system="psc_ranking"), 13) == 7
    assert P.scoring_places(Points(system="psc_ranking"), 5) == 0
    assert P.scoring_places(Points(system="landesliga"), 9) == 9
    assert P.scoring_places(Points(system="landesliga"), 7) == 7
    assert P.scoring_places(Points(system="multi_round"), 10) == 10
    assert P.scoring_places(Points(system="ace_of_spades"), 8) == 3
    assert P.scoring_places(Points(system="qualifier"), 8) == 2
    assert P.scoring_places(Points(system="qualifier"), 10) == 3
    assert P.scoring_places(Points(system="none"), 10) == 0
    assert P.scoring_places(Points(system="psc_ranking", places=4), 13) == 4
    with pytest.raises(ValueError):
        P.scoring_places(Points(system="bogus"), 10)


def test_module_is_deterministic_without_global_random():  # brief: no hidden randomness
    random.seed(1)
    a = P.draw_names(range(10), 3, seed=5)
    random.seed(2)
    assert P.draw_names(range(10), 3, seed=5) == a
