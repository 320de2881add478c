"""The registration desk's keys (issue 31): the seat limit as seats or tables (002), the
announced start and the cancellation deadline (000 2.6); mistakes give FILE:LINE key."""

from __future__ import annotations

import textwrap

import pytest

from controller.config import ConfigError, load_tournament_text
from controller.engine.rules import desk
from controller.engine.tournament import Tournament

BASE = """\
name: Test
start_stack: 10000
players_per_table: 8
structure:
  - {minutes: 18, small_blind: 50, big_blind: 100}
"""


def load(extra: str):
    return load_tournament_text(BASE + textwrap.dedent(extra), "t.yaml")


def problems(extra: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load(extra)
    return [str(p) for p in info.value.problems]


def test_the_seat_limit_as_seats_or_as_the_rooms_tables_002():
    s = load("desk:\n  seats: 40\n")
    assert desk.limit(Tournament.new(s, 1)) == 40
    s = load("desk:\n  tables: 5\n")
    assert desk.limit(Tournament.new(s, 1)) == 40  # 5 tables × 8 players
    assert desk.limit(Tournament.new(load(""), 1)) is None


def test_seats_and_tables_together_are_refused_with_file_and_line():
    found = problems("desk:\n  seats: 40\n  tables: 5\n")
    assert found == ["t.yaml:8: desk.tables: give the seat limit as seats or as tables, "
                     "not both"]


def test_bad_desk_values_name_their_line():
    assert problems("desk:\n  seats: 0\n")[0].startswith("t.yaml:7: desk.seats:")
    assert problems("desk:\n  tables: many\n")[0].startswith("t.yaml:7: desk.tables:")
    found = problems("desk:\n  starts: '19:30'\n")
    assert found[0].startswith("t.yaml:7: desk.starts: must be a date and time")
    found = problems("desk:\n  starts: '2026-11-27T19:30'\n")
    assert "needs its offset from UTC" in found[0]
    assert problems("desk:\n  cancel_hours: -1\n")[0].startswith("t.yaml:7: desk.cancel_hours")
    assert problems("desk:\n  seets: 4\n")[0].startswith("t.yaml:7: desk")


def test_the_start_and_the_cancellation_deadline_load_000_2_6():
    s = load("desk:\n  starts: '2026-11-27T19:30+01:00'\n  cancel_hours: 6\n")
    assert s.desk.starts == "2026-11-27T19:30+01:00" and s.desk.cancel_hours == 6


@pytest.mark.parametrize("written", ["2026-11-27T19:30:00+01:00", "2026-11-27 19:30:00+01:00",
                                     "2026-11-27t19:30:00.5+01:00"])
def test_an_unquoted_start_is_read_as_written(written):
    """YAML 1.1 reads an unquoted date and time with seconds as a timestamp: the key takes
    the text as the file writes it (it was refused as "must be text, got a date")."""
    s = load(f"desk:\n  starts: {written}\n  cancel_hours: 6\n")
    assert s.desk.starts == written
    t = Tournament.new(s, 1)
    assert t.settings.desk.starts == written


@pytest.mark.parametrize("written", ["19:30", "9:05", "19:30:00"])
def test_an_unquoted_time_alone_is_refused_as_written_not_as_minutes(written):
    """``starts: 19:30`` is YAML 1.1's base-60 number 1170: the refusal says 19:30 (it said
    "must be text, got 1170") and what is missing, on the key's line."""
    found = problems(f"desk:\n  seats: 40\n  starts: {written}\n")
    assert found == [f't.yaml:8: desk.starts: must be a date and time like '
                     f'"2026-11-27T19:30+01:00", got {written!r}: a time alone; give the '
                     f'day and the offset from UTC too']
    assert found == problems(f"desk:\n  seats: 40\n  starts: '{written}'\n")


def test_an_unquoted_start_without_its_offset_is_refused_as_written():
    found = problems("desk:\n  starts: 2026-11-27T19:30:00\n")
    assert found == ["t.yaml:7: desk.starts: needs its offset from UTC, like "
                     "\"2026-11-27T19:30+01:00\", got '2026-11-27T19:30:00'"]
