"""Tests for controller.engine.results — every test names the rule it checks.

Rulebooks: /work/shared/seeds (000 PSC Five Spades, 001 Pokerlounge Berlin,
003 Ace Of Spades), RULES.md section 9, SCENARIOS.md S11.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.engine.results import (
    CSV_COLUMNS,
    Finish,
    ResultRow,
    ace_of_spades_season,
    landesliga_stacks,
    multi_round_finalists,
    multi_round_standings,
    results_csv,
    results_json,
    score,
    season_totals,
    spreadsheet_cell,
)
from controller.engine.settings import Points

NAMES = [
    "Anna Schmidt", "Bernd Huber", "Clara Wolf", "Dieter Mayer", "Eva Bauer", "Felix Gruber",
    "Gerda Wagner", "Hannes Pichler", "Ida Moser", "Jakob Steiner", "Karin Hofer",
    "Lukas Berger", "Maria Fuchs", "Norbert Eder", "Olga Weber", "Paul Leitner",
]  # fmt: skip


def field(n: int, overrides: dict[int, dict[str, Any]] | None = None) -> list[Finish]:
    """n players, player i finishes place i, knocked out by the winner."""
    out = []
    for i in range(1, n + 1):
        kw: dict[str, Any] = {"place": i, "eliminated_by": None if i == 1 else 1}
        kw.update((overrides or {}).get(i, {}))
        out.append(Finish(player_id=i, name=NAMES[(i - 1) % len(NAMES)], **kw))
    return out


PSC = Points(system="psc_ranking")


# ---------------------------------------------------------------------------
# psc_ranking (000 5.4) through score()
# ---------------------------------------------------------------------------


def test_score_psc_13_players_S11():  # 000 5.4, SCENARIOS S11
    rows = score(PSC, field(13), entries=13)
    assert [r.points for r in rows] == [13, 10, 7, 5, 3, 2, 1, 0, 0, 0, 0, 0, 0]
    assert [r.place for r in rows] == list(range(1, 14))
    assert rows[0].knockouts == 12 and rows[1].knockouts == 0
    assert all(r.prize is None and r.bounty_hits == 0 and r.knockout_points == 0 for r in rows)


def test_score_psc_5_players_nothing_S11():  # 000 5.4, SCENARIOS S11
    assert [r.points for r in score(PSC, field(5), entries=5)] == [0] * 5


def test_score_psc_40_players_like_30_S11():  # 000 5.4 ">30", SCENARIOS S11
    fs = [Finish(i, f"P{i:02d}", i) for i in range(1, 41)]
    rows = score(PSC, fs, entries=40)
    assert rows[0].points == 18 and rows[14].points == 1 and rows[15].points == 0


def test_score_shared_place_mean_000_9_5():
    # 13 players: 6th and 7th bust in one hand with equal stacks → both 6th,
    # covering places 6 and 7 (2 and 1 points) → 1.5 each; next is 8th.
    fs = field(13)
    fs[6] = Finish(7, NAMES[6], 6, eliminated_by=1)
    rows = score(PSC, fs, entries=13)
    assert [(r.place, r.player_id, r.points) for r in rows[5:8]] == [
        (6, 6, 1.5),
        (6, 7, 1.5),
        (8, 8, 0),
    ]
    # three share 2nd: (10 + 7 + 5) / 3 = 7.33 each (half up, 2 decimals)
    fs = [Finish(1, "A", 1), Finish(2, "B", 2), Finish(3, "C", 2), Finish(4, "D", 2)]
    fs += [Finish(i, f"X{i}", i) for i in range(5, 14)]
    rows = score(PSC, fs, entries=13)
    assert [r.points for r in rows[1:4]] == [7.33, 7.33, 7.33]
    assert rows[4].points == 3


def test_score_sorted_by_place_then_name():  # result list order
    fs = [Finish(5, "Zoe", 2), Finish(4, "Adam", 2), Finish(3, "Max", 1), Finish(9, "Eve", 4)]
    rows = score(PSC, fs, entries=6)
    assert [r.name for r in rows] == ["Max", "Adam", "Zoe", "Eve"]
    assert rows[1].points == rows[2].points == 2.0  # (3 + 1) / 2 with 6 players


@pytest.mark.parametrize(
    "finishes, entries",
    [
        ([Finish(1, "A", 1), Finish(1, "B", 2)], 5),  # duplicate player
        ([Finish(1, "A", 0)], 5),  # place 0
        ([Finish(1, "A", 1), Finish(2, "B", 1), Finish(3, "C", 2)], 5),  # 2 is covered
        ([Finish(1, "A", 4), Finish(2, "B", 4), Finish(3, "C", 4)], 5),  # 4..6 > 5
        ([Finish(1, "A", 1), Finish(2, "B", 2, eliminated_by=9)], 5),  # unknown hunter
        ([Finish(1, "A", 1, eliminated_by=1)], 5),  # self-elimination
        ([Finish(1, "A", 1), Finish(2, "B", 2)], 1),  # more finishes than entries
        ([], 0),  # no entries
    ],
)
def test_score_rejects_inconsistent_finishes(finishes, entries):  # 000 9.5 shared places
    with pytest.raises(ValueError):
        score(PSC, finishes, entries=entries)


def test_score_unknown_system_or_bounty():
    with pytest.raises(ValueError):
        score(Points(system="bogus"), field(6), entries=6)
    with pytest.raises(ValueError):
        score(Points(bounty="bogus"), field(6), entries=6)  # type: ignore[arg-type]


def test_score_none_system_zero_points_but_counts_knockouts():
    rows = score(Points(), field(8), entries=8)
    assert all(r.points == 0 for r in rows)
    assert rows[0].knockouts == 7


def test_score_removed_ghost_ranked_without_knockout_000_9_5():
    fs = field(8, {8: {"removed_as_ghost": True}})
    rows = score(Points(system="psc_ranking", knockout=True), fs, entries=8)
    assert rows[-1].place == 8 and rows[-1].player_id == 8  # still ranked
    assert rows[0].knockouts == 6 and rows[0].knockout_points == 6


# ---------------------------------------------------------------------------
# Championship knock-out points (000 6, 8.2)
# ---------------------------------------------------------------------------


def test_score_championship_knockout_points_000_6_3_8_2():
    fs = [
        Finish(1, "Anna Schmidt", 1),
        Finish(2, "Bernd Huber", 2, eliminated_by=1),
        Finish(3, "Clara Wolf", 3, eliminated_by=2),
        Finish(4, "Dieter Mayer", 4, member=False, eliminated_by=1),
        Finish(5, "Eva Bauer", 5, eliminated_by=4),  # a non-member earns nothing (6.2)
        Finish(6, "Felix Gruber", 6, eliminated_by=2, removed_as_ghost=True),  # 9.5
    ]
    drawn = {1: (2, 5, 6), 2: (3, 6, 5), 3: (1, 2, 5)}
    rows = score(Points(system="psc_ranking", knockout=True), fs, entries=6, drawn_names=drawn)
    by_id = {r.player_id: r for r in rows}
    assert by_id[1].knockouts == 2 and by_id[1].knockout_points == 1 + 2 + 1
    assert by_id[2].knockouts == 1 and by_id[2].knockout_points == 1 + 2  # ghost 6 gives 0
    assert by_id[4].knockouts == 1 and by_id[4].knockout_points == 0
    assert by_id[3].knockout_points == 0


def test_score_knockout_points_off_unless_enabled_000_6():
    rows = score(PSC, field(6), entries=6, drawn_names={1: (2, 3, 4)})
    assert all(r.knockout_points == 0 for r in rows)


def test_score_drawn_names_validated_000_6_3():
    pts = Points(knockout=True)
    with pytest.raises(ValueError):
        score(pts, field(6), entries=6, drawn_names={1: (1, 2, 3)})  # own name
    with pytest.raises(ValueError):
        score(pts, field(6), entries=6, drawn_names={1: (2, 3, 4, 5)})  # more than 3


# ---------------------------------------------------------------------------
# Bounty and mystery bounty (000 4.17)
# ---------------------------------------------------------------------------


def test_score_bounty_prize_to_most_knockouts_ties_share_000_4_17():
    fs = [
        Finish(1, "A", 1),
        Finish(2, "B", 2, eliminated_by=1),
        Finish(3, "C", 3, eliminated_by=2),
        Finish(4, "D", 4, eliminated_by=2),
        Finish(5, "E", 5, eliminated_by=1),
        Finish(6, "F", 6, eliminated_by=3),
    ]
    rows = score(Points(bounty="bounty"), fs, entries=6)
    by_id = {r.player_id: r for r in rows}
    assert by_id[1].prize == "bounty" and by_id[2].prize == "bounty"
    assert by_id[3].prize is None
    assert [by_id[i].bounty_hits for i in (1, 2, 3)] == [2, 2, 1]


def test_score_mystery_bounty_hits_000_4_17():
    fs = field(7)  # 1 knocks out everybody
    lists = {1: (3, 9, 10, 11, 12), 2: (1, 3, 4, 5, 6)}
    rows = score(Points(bounty="mystery"), fs, entries=7, mystery_lists=lists)
    by_id = {r.player_id: r for r in rows}
    assert by_id[1].bounty_hits == 1 and by_id[1].prize == "mystery-bounty"
    assert by_id[2].bounty_hits == 0 and by_id[2].prize is None


def test_score_bounty_and_mystery_with_the_knocker_still_in_000_4_17():
    """During the night the bounty leader and a mystery hitter are often still in: the
    placed rows are scored, the prize waits for the knocker's place (it crashed, issue 26)."""
    fs = [Finish(5, "E", 5, eliminated_by=1), Finish(4, "D", 4, eliminated_by=1),
          Finish(3, "C", 3, eliminated_by=4)]
    rows = score(Points(bounty="bounty"), fs, entries=5, playing=[1, 2])
    assert [(r.player_id, r.bounty_hits, r.prize) for r in rows] == [
        (3, 0, None), (4, 1, None), (5, 0, None)]  # 1 leads with 2 and has no row yet
    rows = score(Points(bounty="mystery"), fs, entries=5, playing=[1, 2],
                 mystery_lists={1: (5,), 4: (3,)})
    assert [(r.player_id, r.bounty_hits, r.prize) for r in rows] == [
        (3, 0, None), (4, 1, "mystery-bounty"), (5, 0, None)]


def test_score_mystery_without_lists_keeps_the_ranking_points_000_4_17():
    """No list entered: nobody has a hit, and the ranking points (000 5.4) still count."""
    rows = score(Points(system="psc_ranking", bounty="mystery"), field(6), entries=6)
    assert [r.points for r in rows][:3] == [6, 3, 1]
    assert all(r.bounty_hits == 0 and r.prize is None for r in rows)


def test_score_mystery_needs_valid_lists_000_4_17():
    with pytest.raises(ValueError):
        score(Points(bounty="mystery"), field(6), entries=6, mystery_lists={1: (1, 2)})
    with pytest.raises(ValueError):
        score(Points(bounty="mystery"), field(6), entries=6, mystery_lists={1: (2, 3, 4, 5, 6, 7)})


# ---------------------------------------------------------------------------
# Landesliga (000 4.18)
# ---------------------------------------------------------------------------


def test_score_landesliga_points_and_final_stacks_000_4_18():
    rows = score(Points(system="landesliga"), field(10), entries=10)
    assert [r.points for r in rows] == [20, 17, 15, 13, 11, 9, 7, 6, 5, 0]
    stacks = landesliga_stacks(rows)
    assert [stacks[i] for i in range(1, 11)] == [
        20_000, 17_000, 15_000, 13_000, 11_000, 9_000, 7_000, 6_000, 5_000, 5_000,
    ]  # fmt: skip


def test_landesliga_shared_place_stack_000_4_18_9_5():
    # two share 2nd: (17 + 15) / 2 = 16 → 16,000
    fs = [Finish(1, "A", 1), Finish(2, "B", 2), Finish(3, "C", 2), Finish(4, "D", 4)]
    rows = score(Points(system="landesliga"), fs, entries=4)
    assert [r.points for r in rows] == [20, 16, 16, 13]
    assert landesliga_stacks(rows) == {1: 20_000, 2: 16_000, 3: 16_000, 4: 13_000}
    # three share 1st: (20 + 17 + 15) / 3 = 17.33 listed → 17,330 chips (from the list)
    fs = [Finish(1, "A", 1), Finish(2, "B", 1), Finish(3, "C", 1), Finish(4, "D", 4)]
    rows = score(Points(system="landesliga"), fs, entries=4)
    assert [r.points for r in rows] == [17.33, 17.33, 17.33, 13]
    assert landesliga_stacks(rows)[1] == 17_330


# ---------------------------------------------------------------------------
# Multi-round (000 4.19)
# ---------------------------------------------------------------------------

MULTI = Points(system="multi_round")


def test_score_multi_round_winner_before_time_gets_20_000_4_19():
    rows = score(MULTI, field(10), entries=10)  # table won outright
    assert [r.points for r in rows] == [20, 18, 15, 12, 9, 7, 5, 3, 2, 1]


def test_score_multi_round_time_ran_out_winner_18_000_4_19():
    fs = field(10, {i: {"playing_at_end": True, "eliminated_by": None} for i in (1, 2, 3)})
    rows = score(MULTI, fs, entries=10)
    assert [r.points for r in rows[:4]] == [18, 18, 15, 12]


def test_multi_round_standings_and_final_table_000_4_19():
    r1 = score(MULTI, [Finish(i, f"P{i:02d}", i) for i in range(1, 13)], entries=12)
    # round 2: reversed order (reseat by draw, 000 4.19)
    r2 = score(MULTI, [Finish(i, f"P{i:02d}", 13 - i) for i in range(1, 13)], entries=12)
    standings = multi_round_standings([r1, r2], seed=3)
    totals = dict(standings)
    assert totals[1] == 20 + 0 and totals[12] == 0 + 20 and totals[3] == 15 + 1
    assert [t for _, t in standings] == sorted(totals.values(), reverse=True)
    finalists = multi_round_finalists([r1, r2], seed=3)
    assert len(finalists) == 9 and finalists == tuple(p for p, _ in standings[:9])
    assert multi_round_finalists([r1, r2], seed=3) == finalists  # reproducible


# ---------------------------------------------------------------------------
# Ace of Spades (003 6, 8)
# ---------------------------------------------------------------------------

ACE = Points(system="ace_of_spades")


def test_score_ace_of_spades_table_points_003_6():
    rows = score(ACE, field(7), entries=7)
    assert [r.points for r in rows] == [2, 1, 0.5, 0, 0, 0, 0]


def test_ace_of_spades_shared_place_003_6_000_9_5():
    fs = [Finish(1, "A", 1), Finish(2, "B", 2), Finish(3, "C", 2), Finish(4, "D", 4)]
    rows = score(ACE, fs, entries=4)
    assert [r.points for r in rows] == [2, 0.75, 0.75, 0]


def test_ace_of_spades_season_attendance_per_day_003_6():
    t1 = score(ACE, field(6), entries=6)  # day 1: 1 wins, 2 second, 3 third
    t2 = score(ACE, [Finish(i, NAMES[i - 1], 7 - i) for i in range(1, 7)], entries=6)  # day 1
    t3 = score(ACE, field(4), entries=4)  # day 2
    season = {s.player_id: s for s in ace_of_spades_season([t1, t2, t3], days=["d1", "d1", "d2"])}
    p1 = season[1]
    assert p1.tables == 3 and p1.table_points == 4.0 and p1.attendance == 2
    assert p1.bonus == 0 and p1.total == 6.0 and p1.championship_stack == 11_000
    assert p1.average == pytest.approx(4 / 3)
    assert season[6].attendance == 1 and season[6].table_points == 2.0
    # without days every table is its own day
    assert {s.player_id: s.attendance for s in ace_of_spades_season([t1, t2, t3])}[1] == 3
    with pytest.raises(ValueError):
        ace_of_spades_season([t1, t2], days=["d1"])


def test_ace_of_spades_season_bonus_from_25_tables_003_6_8():
    # the same result at 26 tables: averages 2.0 (+20), 1.0 (+20), 0.5 (+1), 0 (nothing)
    tables = [score(ACE, field(6), entries=6) for _ in range(26)]
    season = {s.player_id: s for s in ace_of_spades_season(tables)}
    assert season[1].average == 2.0 and season[1].bonus == 20
    assert season[2].average == 1.0 and season[2].bonus == 20
    assert season[3].average == 0.5 and season[3].bonus == 1
    assert season[4].bonus == 0
    # total = table points + attendance + bonus; stack = (total + 5) × 1,000 (003 8)
    assert season[3].total == 13 + 26 + 1
    assert season[3].championship_stack == (13 + 26 + 1 + 5) * 1_000
    assert season[4].championship_stack == (0 + 26 + 5) * 1_000
    few = {s.player_id: s for s in ace_of_spades_season(tables[:24])}
    assert few[1].bonus == 0  # fewer than 25 tables


def test_ace_of_spades_season_sorted_best_first_003_6():
    t = score(ACE, field(5), entries=5)
    assert [s.player_id for s in ace_of_spades_season([t])] == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------
# Qualifier (001 §2 III)
# ---------------------------------------------------------------------------

QUAL = Points(system="qualifier")


def test_score_qualifier_8_players_001_2_III():
    rows = score(QUAL, field(8), entries=8)
    assert [r.prize for r in rows[:3]] == ["ticket", "re-entry", None]
    assert all(r.points == 0 for r in rows)


def test_score_qualifier_10_players_001_2_III():
    rows = score(QUAL, field(10), entries=10)
    assert [r.prize for r in rows[:4]] == ["ticket", "ticket", "re-entry", None]


def test_score_qualifier_heads_up_not_played_shared_first_001_2_III():
    # 9-10 players: the last two are both qualified; recorded as sharing 1st
    fs = field(9, {2: {"place": 1, "eliminated_by": None}})
    rows = score(QUAL, fs, entries=9)
    assert [(r.place, r.prize) for r in rows[:3]] == [(1, "ticket"), (1, "ticket"), (3, "re-entry")]


def test_score_qualifier_mixed_prize_tie_needs_draw_001_2_III_000_9_5():
    # 8 players: 2nd and 3rd bust in one hand with equal stacks → share 2nd,
    # covering a re-entry and nothing: one re-entry, drawn with the seed
    fs = field(8, {3: {"place": 2}})
    with pytest.raises(ValueError):
        score(QUAL, fs, entries=8)
    rows = score(QUAL, fs, entries=8, prize_draw_seed=11)
    prizes = [r.prize for r in rows if r.place == 2]
    assert sorted(prizes, key=str) == [None, "re-entry"]
    assert score(QUAL, fs, entries=8, prize_draw_seed=11) == rows
    winners = set()
    for seed in range(30):
        drawn = score(QUAL, fs, entries=8, prize_draw_seed=seed)
        winners |= {r.player_id for r in drawn if r.prize == "re-entry"}
    assert winners == {2, 3}  # either can win the draw


@pytest.mark.parametrize("entries", [5, 11])
def test_score_qualifier_needs_6_to_10_001_2_III(entries):
    with pytest.raises(ValueError):
        score(QUAL, field(entries), entries=entries)


def test_score_prizes_combine_qualifier_and_bounty_001_2_III_000_4_17():
    rows = score(Points(system="qualifier", bounty="bounty"), field(6), entries=6)
    assert rows[0].prize == "ticket, bounty"


# ---------------------------------------------------------------------------
# CSV / JSON (000 5.8)
# ---------------------------------------------------------------------------


def _rows() -> list[ResultRow]:
    fs = field(13, {4: {"member": False}, 7: {"member": False}})
    fs[6] = Finish(7, "Gerda Wagner", 6, member=False, eliminated_by=1)
    return score(PSC, fs, entries=13)


def test_results_csv_header_and_rows():
    text = results_csv(_rows())
    lines = text.splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert len(lines) == 14
    assert lines[1] == "1,1,Anna Schmidt,13,12,0,0,,true"
    assert lines[7] == "6,7,Gerda Wagner,1.5,0,0,0,,false"


def test_results_csv_public_shortens_non_members_000_5_8():
    text = results_csv(_rows(), public=True)
    assert "Dieter M." in text and "Dieter Mayer" not in text
    assert "Gerda W." in text
    assert "Anna Schmidt" in text  # members in full
    assert "Dieter Mayer" in results_csv(_rows())  # internal list in full


def test_results_json_000_5_8():
    data = results_json(_rows(), public=True)
    assert json.loads(json.dumps(data)) == data
    assert set(data[0]) == set(CSV_COLUMNS)
    assert data[0] == {
        "place": 1,
        "player_id": 1,
        "name": "Anna Schmidt",
        "points": 13.0,
        "knockouts": 12,
        "knockout_points": 0,
        "bounty_hits": 0,
        "prize": None,
        "member": True,
    }
    assert next(d for d in data if d["player_id"] == 4)["name"] == "Dieter M."
    assert next(d for d in results_json(_rows()) if d["player_id"] == 4)["name"] == "Dieter Mayer"


_row_strategy = st.builds(
    ResultRow,
    place=st.integers(1, 500),
    player_id=st.integers(0, 10**6),
    name=st.text(max_size=30),
    points=st.integers(0, 4000).map(lambda n: n / 100),
    knockouts=st.integers(0, 50),
    knockout_points=st.integers(0, 150),
    bounty_hits=st.integers(0, 50),
    prize=st.one_of(st.none(), st.sampled_from(["ticket", "re-entry", "ticket, bounty"])),
    member=st.booleans(),
)


@given(rows=st.lists(_row_strategy, max_size=20), public=st.booleans())
def test_results_csv_round_trips_through_csv_reader(rows, public):  # 000 5.8 lists
    text = results_csv(rows, public=public)
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert parsed[0] == list(CSV_COLUMNS)
    assert len(parsed) == len(rows) + 1
    for row, rec in zip(rows, parsed[1:], strict=True):
        d = dict(zip(CSV_COLUMNS, rec, strict=True))
        assert int(d["place"]) == row.place and int(d["player_id"]) == row.player_id
        expected_name = row.name
        if public:  # public lists normalise whitespace; non-members shortened (000 5.8)
            parts = row.name.split()
            expected_name = " ".join(parts)
            if not row.member and len(parts) >= 2:
                expected_name = f"{parts[0]} {parts[-1][0]}."
        # a name that would start a formula is written as text (issue 27.6, OWASP)
        assert d["name"] == spreadsheet_cell(expected_name)
        assert float(d["points"]) == row.points
        assert int(d["knockouts"]) == row.knockouts
        assert int(d["knockout_points"]) == row.knockout_points
        assert int(d["bounty_hits"]) == row.bounty_hits
        assert (d["prize"] or None) == row.prize
        assert d["member"] == ("true" if row.member else "false")


@given(
    rows=st.lists(
        _row_strategy.filter(
            lambda r: not any(c in r.name for c in "\r\n\x0b\x0c\x1c\x1d\x1e")
        ).filter(lambda r: all(c not in r.name for c in "\x85\u2028\u2029")),
        max_size=20,
    )
)
def test_results_csv_one_line_per_row_plus_header(rows):
    assert len(results_csv(rows).splitlines()) == len(rows) + 1


# ---------------------------------------------------------------------------
# Season totals (000 5.5, 8.2)
# ---------------------------------------------------------------------------


def test_season_totals_ranking_and_championship_000_5_5_8_2():
    t1 = score(Points(system="psc_ranking", knockout=True), field(13), entries=13)
    t2 = score(Points(system="psc_ranking", knockout=True), field(6), entries=6)
    totals = season_totals([t1, t2])
    assert totals[1] == 13 + 6 and totals[2] == 10 + 3 and totals[13] == 0
    kos = season_totals([t1, t2], field="knockout_points")
    assert kos[1] == 12 + 5 and kos[2] == 0
    assert season_totals([]) == {}
