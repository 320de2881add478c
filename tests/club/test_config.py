"""The ``club:`` section of a preset or tournament file: checked like every other key,
with file, line and key."""

from __future__ import annotations

import datetime

import pytest

from controller.club.seasons import season_of
from controller.config import ConfigError, load_tournament_text

BASE = "name: T\nstart_stack: 1000\nstructure:\n  - {minutes: 10, blinds: 10/20}\n"


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_tournament_text(BASE + text, "t.yaml")
    return [str(p) for p in info.value.problems]


def test_bad_club_keys_are_named_with_their_line():
    assert problems("club:\n  seasons: ['13-01']\n") == [
        't.yaml:6: club.seasons: must be dates "MM-DD" (e.g. "01-01"), got \'13-01\'']
    assert problems("club:\n  seasons: ['07-01', '01-01']\n") == [
        "t.yaml:6: club.seasons: must be in calendar order without repeats, got "
        "['07-01', '01-01']"]
    (one,) = problems("club:\n  standings: golf\n")
    assert one == ("t.yaml:6: club.standings: unknown standings 'golf'; allowed: points, "
                   "ace_of_spades")
    (one,) = problems("club:\n  cup_min: -1\n")
    assert one.startswith("t.yaml:6: club.cup_min: ")
    (one,) = problems("club:\n  flavour: 1\n")
    assert one.startswith("t.yaml:6: club.flavour: unknown key")


def test_the_presets_name_their_club():
    s = load_tournament_text("name: T\npreset: psc-five-spades-cup\n", "t.yaml")
    assert s.club.name == "psc-five-spades" and s.club.cup_min == 5  # 000 7.2
    s = load_tournament_text("name: T\npreset: ace-of-spades\n", "t.yaml")
    assert s.club.standings == "ace_of_spades" and s.club.seasons == ("01-01", "07-01")


@pytest.mark.parametrize(("day", "starts", "name", "first", "last"), [
    ("2026-03-13", ["01-01"], "2026", "2026-01-01", "2026-12-31"),  # 000 5.6
    ("2026-06-30", ["01-01", "07-01"], "2026-1", "2026-01-01", "2026-06-30"),
    ("2026-07-01", ["01-01", "07-01"], "2026-2", "2026-07-01", "2026-12-31"),
    ("2026-03-01", ["09-01"], "2025/26", "2025-09-01", "2026-08-31"),
    ("2026-09-01", ["09-01"], "2026/27", "2026-09-01", "2027-08-31"),
])
def test_which_season_a_day_belongs_to(day, starts, name, first, last):
    s = season_of(datetime.date.fromisoformat(day), starts)
    assert (s.name, s.first, s.last) == (name, first, last)
