"""The season's titles as pure decisions (000 5.2, 6, 7.2, 8.1-8.5): the championship
list and its Meister, the Jahressieger, the cup's field, the trophies kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.club.standings import Standing
from controller.club.titles import (
    FINAL_SEATS,
    TITLES,
    Award,
    championship,
    cup_draw,
    fixed_seats,
    jahressieger,
    kept_trophies,
    meister,
    qualified_for_cup,
)


def line(pid: int, name: str, *, points: float = 0, ko: int = 0, member: bool = True,
         title: int | None = None, place: int | None = None) -> Standing:
    return Standing(place or pid, pid, name, member, points, 1,
                    {"member": member, "knockout_points": ko if member else 0,
                     "title": title if member else None})


def test_the_championship_lists_members_only_by_knock_out_points():
    """000 5.2 (its own list), 6.2 (members only), 8.2 (the most points is Meister)."""
    lines = [line(1, "Anna", ko=4, points=20, title=1), line(2, "Gast", member=False, ko=9),
             line(3, "Bert", ko=7, points=3, title=3), line(4, "Carl", ko=4, title=2),
             line(5, "Dora", title=4)]
    listed = [(x.place, x.name, x.points) for x in championship(lines)]
    assert listed == [(1, "Bert", 7), (2, "Anna", 4), (2, "Carl", 4), (4, "Dora", 0)]
    assert meister(lines) == ("Bert",)
    # 8.3: the yearly ranking's first member (the standings' members-only title rank)
    assert jahressieger(lines) == ("Anna",)


def test_equal_championship_points_share_the_title_and_nobody_without_points():
    lines = [line(1, "Anna", ko=5), line(2, "Bert", ko=5), line(3, "Carl", ko=1)]
    assert meister(lines) == ("Anna", "Bert")
    assert meister([line(1, "Anna"), line(2, "Bert")]) == ()
    assert jahressieger([line(1, "Anna", title=1)]) == ()  # 0 points: no Jahressieger


def test_cup_qualification_five_public_tournaments_and_a_points_finish():
    """000 7.2: members, at least 5 of the 10 public tournaments, once in the points."""
    lines = [line(1, "Anna", points=10, title=1), line(2, "Bert", points=0, title=2),
             line(3, "Gast", points=30, member=False), line(4, "Carl", points=2, title=3)]
    played = {1: 5, 2: 9, 3: 10, 4: 4}
    got = qualified_for_cup(lines, played, cup_min=5, needs_points=True)
    assert [s.name for s in got] == ["Anna"]
    got = qualified_for_cup(lines, played, cup_min=5, needs_points=False)
    assert [s.name for s in got] == ["Anna", "Bert"]
    assert qualified_for_cup(lines, played, cup_min=0, needs_points=True) == []


def test_fixed_seats_by_the_7_2_brackets():
    """000 7.2: top 3 at 11-15, top 4 at 16-20, top 5 above; up to 10 all in the final."""
    assert [fixed_seats(n) for n in (0, 7, 10)] == [0, 7, 10]
    assert [fixed_seats(n) for n in (11, 15, 16, 20, 21, 22, 40)] == [3, 3, 4, 4, 5, 5, 5]


def test_the_cup_seeds_the_ranking_s_best_and_the_rest_play_the_preliminary_round():
    q = [line(i, f"P{i:02d}", points=50 - i, title=i) for i in range(1, 17)]  # 16 qualified
    draw = cup_draw(list(reversed(q)))
    assert [s.name for s in draw.seeded] == ["P01", "P02", "P03", "P04"]  # 16-20: top 4
    assert [s.name for s in draw.preliminary] == [f"P{i:02d}" for i in range(5, 17)]
    assert draw.preliminary_seats == 6  # the final's 10 seats less the 4 seeded


def test_a_tie_at_the_cut_takes_all_the_tied_into_the_final():
    q = [line(i, f"P{i:02d}", points=50 - i, title=min(i, 3)) for i in range(1, 13)]
    draw = cup_draw(q)  # 12 qualified: top 3, but P03..P12 share rank 3: no seat left
    assert [s.name for s in draw.seeded] == ["P01", "P02"]  # so the tied all play for 8
    assert len(draw.preliminary) == 10 and draw.preliminary_seats == 8
    q = [line(i, f"P{i:02d}", title=[1, 2, 3, 3, 5, 6, 7, 8, 9, 10, 11][i - 1])
         for i in range(1, 12)]
    draw = cup_draw(q)
    assert [s.name for s in draw.seeded] == ["P01", "P02", "P03", "P04"]
    assert draw.preliminary_seats == 6


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=60))
def test_the_final_never_has_more_than_ten_seats(steps):
    """000 7.2: "Das Finale wird mit 10 Personen gespielt"; everybody qualified plays;
    a better rank is never behind a worse one (ties: a step of 0)."""
    n = len(steps)
    ranks = [1 + sum(1 for s in steps[1:i + 1] if s) for i in range(n)]
    q = [line(i + 1, f"P{i:02d}", title=ranks[i]) for i in range(n)]
    draw = cup_draw(q)
    assert len(draw.seeded) + draw.preliminary_seats <= FINAL_SEATS
    assert len(draw.seeded) + len(draw.preliminary) == n
    assert (draw.preliminary_seats > 0) == bool(draw.preliminary)
    assert all(a.extra["title"] <= b.extra["title"] for a in draw.seeded
               for b in draw.preliminary)


def test_three_in_a_row_keeps_the_trophy():
    """000 8.5: "3 mal in Folge ... so darf er den/die Pokal/e behalten"."""
    seasons = ["2023", "2024", "2025", "2026", "2027", "2028"]
    awards = [Award(s, "meister", "Anna") for s in seasons]
    kept = kept_trophies(awards, seasons)
    # the kept trophy leaves the club; the next one needs three more wins
    assert [(k.season, k.titles, k.player, k.why) for k in kept] == [
        ("2025", ("meister",), "Anna", "hattrick"), ("2028", ("meister",), "Anna", "hattrick")]


def test_another_winner_between_breaks_the_run():
    seasons = ["2023", "2024", "2025", "2026"]
    awards = [Award("2023", "cupsieger", "Anna"), Award("2024", "cupsieger", "Anna"),
              Award("2025", "cupsieger", "Bert"), Award("2026", "cupsieger", "Anna")]
    assert kept_trophies(awards, seasons) == []


def test_all_three_titles_in_one_season_keep_all_three():
    """000 8.5: "ebenfalls ..., wenn es einem Spieler gelingt alle 3 Pokale in 1 Saison
    zu erspielen"."""
    awards = [Award("2026", t, "Anna") for t in TITLES] + [Award("2025", "meister", "Anna")]
    kept = kept_trophies(awards, ["2025", "2026"])
    assert [(k.season, k.titles, k.why) for k in kept] == [("2026", TITLES, "all_three")]


@given(st.lists(st.tuples(st.sampled_from(TITLES), st.sampled_from(["A", "B", "C"])),
                max_size=12))
def test_a_trophy_is_kept_only_after_three_wins_in_a_row_or_all_three(won):
    seasons = [str(2000 + i) for i in range(len(won))]
    awards = [Award(s, t, p) for s, (t, p) in zip(seasons, won, strict=True)]
    for k in kept_trophies(awards, seasons):
        assert k.why == "hattrick"  # one title a season here: never all three
        (title,) = k.titles
        i = seasons.index(k.season)
        mine = [w for w in won[: i + 1] if w[0] == title]
        assert mine[-3:] == [(title, k.player)] * 3


def test_the_cli_names_the_titles_as_the_rules_do():
    """The parser writes the titles out (it imports no rule): the same three (000 8.1)."""
    import argparse

    from controller.club import cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["club", "trophy", "cupsieger", "2025", "Anna"])
    assert args.title == "cupsieger"
    for title in TITLES:
        assert parser.parse_args(["club", "trophy", title, "2025", "Anna"]).title == title
