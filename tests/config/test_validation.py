"""Every kind of bad input: the right file, line, key path and message, all at once."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from controller.config import (
    ConfigError,
    ConfigProblem,
    list_presets,
    load_tournament,
    load_tournament_text,
    main_check,
    preset_dirs,
)

BASE = """\
name: Test
start_stack: 10000
structure:
  - {minutes: 18, small_blind: 50, big_blind: 100}
  - {break: 10}
  - {minutes: 18, small_blind: 100, big_blind: 200, ante: 25}
"""


def problems(text: str, filename: str = "t.yaml", base_dir: Path | None = None):
    with pytest.raises(ConfigError) as info:
        load_tournament_text(textwrap.dedent(text), filename, base_dir)
    return info.value.problems


def only(text: str, **kw) -> ConfigProblem:
    found = problems(text, **kw)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def test_a_valid_file_loads():
    s = load_tournament_text(BASE)
    assert s.name == "Test" and s.start_stack == 10000 and s.preset is None
    assert [lvl.kind for lvl in s.structure] == ["level", "break", "level"]
    assert s.structure[0].seconds == 18 * 60 and s.structure[1].seconds == 600
    assert s.structure[2].ante == 25
    assert s.final_table_size == 9 and s.language == "en"


# --------------------------------------------------------------------------- formats


def test_problem_and_error_format():
    p = ConfigProblem("t.yaml", 12, "structure[3].big_blind",
                      "must be at least small_blind (100), got 50")
    assert str(p) == "t.yaml:12: structure[3].big_blind: must be at least small_blind (100), got 50"
    assert str(ConfigProblem("t.yaml", None, "name", "missing")) == "t.yaml: name: missing"
    assert str(ConfigProblem("t.yaml", 3, "", "YAML syntax error")) == "t.yaml:3: YAML syntax error"
    err = ConfigError([p, ConfigProblem("t.yaml", None, "name", "missing")])
    assert str(err).splitlines() == [str(p), "t.yaml: name: missing"]
    assert len(err.problems) == 2


# --------------------------------------------------------------------------- keys and types


def test_unknown_key_suggests_the_closest():
    p = only(BASE + "balancing:\n  tolerence: 2\n")
    assert (p.file, p.line, p.key) == ("t.yaml", 8, "balancing.tolerence")
    assert p.message == "unknown key 'tolerence' (did you mean 'tolerance'?)"


def test_unknown_key_without_a_close_match_lists_the_allowed():
    p = only(BASE + "flavour: vanilla\n")
    assert (p.line, p.key) == (7, "flavour")
    assert p.message.startswith("unknown key 'flavour'; allowed here: name, structure, "
                                "start_stack, preset, language,")
    assert p.message.endswith(", chip_race, play_day, mode, dealing, field_size, club, desk, "
                              "money, "
                              "ante_type, level_minutes")


def test_unknown_key_in_a_level():
    p = only(BASE + "  - {minutes: 18, small_blind: 200, big_blind: 400, antee: 50}\n")
    assert (p.line, p.key) == (7, "structure[3].antee")
    assert "did you mean 'ante'?" in p.message


def test_bool_is_not_an_int():
    p = only(BASE + "table_seats: true\n")
    assert (p.line, p.key) == (7, "table_seats")
    assert p.message == "must be a whole number, got true (a yes/no value)"


def test_quoted_number_is_text():
    p = only(BASE.replace("start_stack: 10000", 'start_stack: "10000"'))
    assert (p.line, p.key) == (2, "start_stack")
    assert "write numbers without quotes" in p.message


def test_float_is_not_a_chip_count():
    p = only(BASE.replace("small_blind: 50,", "small_blind: 50.5,"))
    assert (p.line, p.key) == (4, "structure[0].small_blind")
    assert p.message == "must be a whole number, got 50.5"


def test_wrong_type_for_a_bool_and_a_section():
    found = problems(BASE + "heads_up_halves_level: 1\nghosts: yes please\n")
    assert [(p.line, p.key) for p in found] == [(7, "heads_up_halves_level"), (8, "ghosts")]
    assert found[0].message == "must be true or false, got 1"
    assert found[1].message.startswith("must be a mapping with keys enabled,")


def test_duplicate_key():
    found = problems(BASE + "name: Again\n")
    assert [(p.line, p.key) for p in found] == [(7, "name")]
    assert found[0].message == "duplicate key 'name' (first given on line 1)"


def test_missing_required_keys():
    found = problems("language: de\n")
    assert {(p.key, p.line) for p in found} == {("name", None), ("start_stack", None),
                                              ("structure", None)}
    assert all(p.message.startswith("missing") for p in found)


# --------------------------------------------------------------------------- structure


def test_big_blind_smaller_than_small_blind():
    p = only(BASE.replace("small_blind: 100, big_blind: 200", "small_blind: 100, big_blind: 50"))
    assert (p.file, p.line, p.key) == ("t.yaml", 6, "structure[2].big_blind")
    assert p.message == "must be at least small_blind (100), got 50"
    assert str(p) == "t.yaml:6: structure[2].big_blind: must be at least small_blind (100), got 50"


def test_big_blind_equal_to_small_blind_is_fine():  # 001 §1 V level 1 is 100/100
    s = load_tournament_text(BASE.replace("small_blind: 50, big_blind: 100",
                                          "small_blind: 100, big_blind: 100"))
    assert (s.structure[0].small_blind, s.structure[0].big_blind) == (100, 100)


@pytest.mark.parametrize("old,new,key,message", [
    ("small_blind: 50,", "small_blind: 0,", "structure[0].small_blind",
     "must be at least 1, got 0"),
    ("big_blind: 100}", "big_blind: -100}", "structure[0].big_blind",
     "must be at least 0, got -100"),
    ("ante: 25}", "ante: -25}", "structure[2].ante", "must be at least 0, got -25"),
    ("start_stack: 10000", "start_stack: 0", "start_stack", "must be at least 1, got 0"),
    ("start_stack: 10000", "start_stack: 50", "start_stack",
     "must be at least the first big blind (100), got 50"),
])
def test_impossible_chip_amounts(old, new, key, message):
    p = only(BASE.replace(old, new))
    assert (p.key, p.message) == (key, message)


@pytest.mark.parametrize("old,new,key,message", [
    ("{minutes: 18, small_blind: 50", "{minutes: 0, small_blind: 50", "structure[0].minutes",
     "must be more than 0 minutes, got 0"),
    ("{minutes: 18, small_blind: 50", "{minutes: -5, small_blind: 50", "structure[0].minutes",
     "must be more than 0 minutes, got -5"),
    ("{minutes: 18, small_blind: 50", "{seconds: 0, small_blind: 50", "structure[0].seconds",
     "must be at least 1, got 0"),
    ("{break: 10}", "{break: 0}", "structure[1].break", "must be more than 0 minutes, got 0"),
    ("{break: 10}", "{break: unlimited}", "structure[1].break",
     "a break needs a length in minutes, not 'unlimited'"),
    ("{minutes: 18, small_blind: 50", "{minutes: 0.01, small_blind: 50",
     "structure[0].minutes", "must come to whole seconds, got 0.01 minutes"),
])
def test_zero_or_impossible_durations(old, new, key, message):
    p = only(BASE.replace(old, new))
    assert (p.key, p.message) == (key, message)


def test_break_with_blinds_reports_each_blind_key():
    found = problems(BASE.replace("{break: 10}", "{break: 10, small_blind: 25, ante: 5}"))
    assert [(p.line, p.key) for p in found] == [(5, "structure[1].small_blind"),
                                               (5, "structure[1].ante")]
    assert found[0].message.startswith("a break has no blinds or ante")


def test_misspelt_break_is_one_problem():
    p = only(BASE + "  - {brake: 10}\n  - {minutes: 18, blinds: 200/400}\n")
    assert (p.line, p.key) == (7, "structure[3].brake")
    assert p.message == "unknown key 'brake' (did you mean 'break'?)"


def test_break_with_minutes():
    p = only(BASE.replace("{break: 10}", "{break: 10, minutes: 10}"))
    assert (p.key, p.message) == ("structure[1].minutes",
                                  "a break gives its length as 'break: <minutes>'")


def test_unlimited_level_must_be_last():  # 003 7: only the last level has no end
    p = only(BASE.replace("{minutes: 18, small_blind: 50", "{minutes: unlimited, small_blind: 50"))
    assert (p.line, p.key) == (4, "structure[0].minutes")
    assert p.message == "only the last level can be unlimited (003 7); 2 more entries follow it"


def test_unlimited_last_level_is_fine():
    s = load_tournament_text(BASE.replace("{minutes: 18, small_blind: 100",
                                          "{minutes: unlimited, small_blind: 100"))
    assert s.structure[-1].seconds is None


def test_structure_without_a_playing_level():
    p = only(BASE.split("structure:")[0].replace("start_stack: 10000", "start_stack: 100")
             + "structure:\n  - {break: 10}\n  - {break: 20}\n")
    assert (p.line, p.key) == (3, "structure")
    assert "has no playing level" in p.message


def test_empty_structure():
    p = only("name: T\nstart_stack: 100\nstructure: []\n")
    assert (p.line, p.key, p.message) == (3, "structure", "is empty: give at least one level")


def test_structure_ending_with_a_break():
    p = only(BASE + "  - {break: 15}\n")
    assert (p.line, p.key) == (7, "structure[3]")
    assert p.message.startswith("the structure ends with a break")


def test_structure_is_not_a_list():
    p = only("name: T\nstart_stack: 100\nstructure: 18 minutes\n")
    assert (p.line, p.key) == (3, "structure")
    assert p.message == "must be a list of levels and breaks, got '18 minutes' (text)"


def test_level_is_not_a_mapping():
    p = only(BASE + "  - 18\n")
    assert (p.line, p.key) == (7, "structure[3]")


def test_missing_blinds_and_minutes():
    found = problems(BASE + "  - {ante: 10}\n")
    assert {p.key for p in found} == {"structure[3]", "structure[3].small_blind",
                                      "structure[3].big_blind"}
    assert all(p.line == 7 for p in found)


def test_compact_blinds():
    s = load_tournament_text(BASE + "  - {minutes: 20, blinds: 1.000/2.000/200}\n"
                             "  - {minutes: 20, blinds: '1,500/3,000', ante: 300}\n")
    assert (s.structure[3].small_blind, s.structure[3].big_blind, s.structure[3].ante) == (
        1000, 2000, 200)
    assert (s.structure[4].small_blind, s.structure[4].big_blind, s.structure[4].ante) == (
        1500, 3000, 300)
    assert s.structure[3].seconds == 1200


@pytest.mark.parametrize("level,key,message", [
    ("{minutes: 18, blinds: 100/50}", "structure[3].blinds",
     "the big blind must be at least small_blind (100), got 50"),
    ("{minutes: 18, blinds: 100}", "structure[3].blinds", "must look like SB/BB"),
    ("{minutes: 18, blinds: 0/100}", "structure[3].blinds",
     "the small blind must be at least 1, got 0"),
    ("{minutes: 18, blinds: 50/100/10, ante: 10}", "structure[3].ante",
     "the ante is already given in blinds"),
    ("{minutes: 18, blinds: 50/100, small_blind: 50}", "structure[3].blinds",
     "give either blinds: SB/BB or small_blind/big_blind, not both"),
    ("{minutes: 18, seconds: 60, blinds: 50/100}", "structure[3].seconds",
     "give either minutes or seconds, not both"),
    ("{minutes: 18, blinds: 50/100, ante_type: bb}", "structure[3].ante_type",
     "unknown ante type 'bb'; allowed: standard, big_blind"),
])
def test_bad_compact_levels(level, key, message):
    p = only(BASE + f"  - {level}\n")
    assert p.line == 7 and p.key == key
    assert p.message.startswith(message)


def test_minutes_seconds_and_level_minutes():
    s = load_tournament_text(textwrap.dedent("""\
        name: T
        start_stack: 1000
        level_minutes: 12
        ante_type: big_blind
        structure:
          - {blinds: 25/50}
          - {minutes: 7.5, blinds: 50/100}
          - {seconds: 90, blinds: 75/150, ante_type: standard, ante: 10}
        """))
    assert [lvl.seconds for lvl in s.structure] == [720, 450, 90]
    assert [lvl.ante_type for lvl in s.structure] == ["big_blind", "big_blind", "standard"]


def test_level_without_minutes_and_without_default():
    p = only(BASE + "  - {blinds: 50/100}\n")
    assert (p.line, p.key) == (7, "structure[3]")
    assert "no level_minutes default" in p.message


def test_level_note():
    s = load_tournament_text(BASE + "  - {minutes: 18, blinds: 200/400, note: Antes up}\n")
    assert s.structure[-1].note == "Antes up"


# --------------------------------------------------------------------------- tables


def test_players_per_table_larger_than_seats():
    p = only(BASE + "table_seats: 8\nplayers_per_table: 9\nfinal_table_size: 8\n")
    assert (p.line, p.key) == (8, "players_per_table")
    assert p.message == "players_per_table (9) must be at most table_seats (8)"


def test_final_table_larger_than_seats():
    p = only(BASE + "table_seats: 9\nfinal_table_size: 10\n")
    assert (p.line, p.key, p.message) == (8, "final_table_size",
                                          "must be at most table_seats (9), got 10")


def test_final_table_mode_plus_one():  # 002: mode + 1, at most 9, at most the seats
    assert load_tournament_text(BASE + "players_per_table: 6\nfinal_table_size: mode+1\n"
                                ).final_table_size == 7
    assert load_tournament_text(BASE + "final_table_size: mode + 1\n").final_table_size == 9
    assert load_tournament_text(BASE + "table_seats: 7\nplayers_per_table: 7\n"
                                "final_table_size: mode+1\n").final_table_size == 7


def test_final_table_default_never_exceeds_seats():
    s = load_tournament_text(BASE + "table_seats: 6\nplayers_per_table: 6\n")
    assert s.final_table_size == 6


def test_final_table_nonsense():
    p = only(BASE + "final_table_size: mode+2\n")
    assert (p.line, p.key) == (7, "final_table_size")
    assert p.message == "must be a number of players or 'mode+1' (002), got 'mode+2' (text)"


def test_table_seats_limits():
    assert only(BASE + "table_seats: 1\n").message == "must be at least 2, got 1"
    assert only(BASE + "table_seats: 40\n").message == "must be at most 12, got 40"


# --------------------------------------------------------------------------- sections


def test_tolerance_below_one():
    p = only(BASE + "balancing:\n  tolerance: 0\n")
    assert (p.line, p.key, p.message) == (8, "balancing.tolerance", "must be at least 1, got 0")


def test_break_order_forms():
    assert load_tournament_text(BASE + "balancing: {break_order: lowest}\n"
                                ).balancing.break_order == "lowest"
    assert load_tournament_text(BASE + "balancing: {break_order: [3, 1, 2]}\n"
                                ).balancing.break_order == (3, 1, 2)
    p = only(BASE + "balancing: {break_order: highes}\n")
    assert p.message == ("unknown break order 'highes' (did you mean 'highest'?); "
                         "allowed: highest, lowest")
    p = only(BASE + "balancing:\n  break_order: [3, 3]\n")
    assert (p.line, p.key, p.message) == (8, "balancing.break_order[1]", "table 3 is listed twice")
    p = only(BASE + "balancing: {break_order: []}\n")
    assert p.key == "balancing.break_order"


@pytest.mark.parametrize("seconds", [0, -10])
def test_time_call_seconds_must_be_positive(seconds):
    p = only(BASE + f"time_call:\n  seconds: {seconds}\n  countdown: 0\n")
    assert (p.line, p.key) == (8, "time_call.seconds")
    assert p.message == f"must be at least 1, got {seconds}"


def test_time_call_red_seconds_fit():
    p = only(BASE + "time_call: {seconds: 30, countdown: 0, red_seconds: 40}\n")
    assert (p.key, p.message) == ("time_call.red_seconds",
                                  "must be at most seconds + countdown (30), got 40")


def test_default_red_seconds_fit_a_short_time_call():
    s = load_tournament_text(BASE + "time_call: {seconds: 5, countdown: 0}\n")
    assert (s.time_call.seconds, s.time_call.red_seconds) == (5, 5)


def test_time_call_values():
    s = load_tournament_text(BASE + "time_call: {seconds: 30, countdown: 5, red_seconds: 5}\n")
    assert (s.time_call.seconds, s.time_call.countdown, s.time_call.red_seconds) == (30, 5, 5)


def test_unknown_language():
    p = only(BASE + "language: fr\n")
    assert (p.line, p.key, p.message) == (7, "language", "unknown language 'fr'; allowed: de, en")


def test_norwegian_no_is_not_a_language():
    p = only(BASE + "language: no\n")
    assert p.message == "must be one of de, en, got false (a yes/no value)"


def test_unknown_points_system():
    p = only(BASE + "points:\n  system: psc_rankings\n")
    assert (p.line, p.key) == (8, "points.system")
    assert p.message == ("unknown system 'psc_rankings' (did you mean 'psc_ranking'?); "
                         "allowed: none, psc_ranking, landesliga, multi_round, ace_of_spades, "
                         "qualifier")


@pytest.mark.parametrize("section,key,value,allowed", [
    ("hand_for_hand", "clock", "paused", "runs, stops, deduct"),
    ("hand_for_hand", "cross_table_busts", "split", "share, stack"),
    ("points", "bounty", "mystic", "none, bounty, mystery"),
    ("chip_race", "start", "seat_9", "seat_1, left_of_dealer"),
    ("chip_race", "rounding", "down", "up, half_up"),
])
def test_unknown_enum_values_list_the_allowed(section, key, value, allowed):
    p = only(BASE + f"{section}:\n  {key}: {value}\n")
    assert (p.line, p.key) == (8, f"{section}.{key}")
    assert p.message.startswith("unknown ") and p.message.endswith(f"allowed: {allowed}")


def test_all_sections_load():
    s = load_tournament_text(BASE + textwrap.dedent("""\
        hand_for_hand: {auto: false, clock: deduct, deduct_seconds: 90, cross_table_busts: stack}
        ghosts: {enabled: true, remove_after_levels: 2, remove_at_first_break: false}
        entries: {rebuys: 2, rebuy_until_level: 2, addon_after_level: 2, auto_addon_multiplier: 1,
                  reentries: 1, reentry_until_level: 1, late_registration_levels: 2}
        points: {system: landesliga, knockout: true, knockout_drawn_names: 2,
                 knockout_drawn_bonus: 3, bounty: mystery, mystery_names: 4, places: 9}
        chip_race: {start: left_of_dealer, rounding: half_up, one_chip_per_player: false}
        heads_up_halves_level: true
        """))
    assert s.hand_for_hand.clock == "deduct" and s.hand_for_hand.deduct_seconds == 90
    assert s.ghosts.remove_after_levels == 2 and not s.ghosts.remove_at_first_break
    assert s.entries.rebuys == 2 and s.entries.addon_after_level == 2
    assert s.points.places == 9 and s.points.bounty == "mystery"
    assert s.chip_race.start == "left_of_dealer"
    assert s.heads_up_halves_level


def test_entries_cross_checks():
    found = problems(BASE + textwrap.dedent("""\
        entries:
          rebuys: 1
          rebuy_until_level: 0
          reentries: 1
          auto_addon_multiplier: 2
          late_registration_levels: 5
        """))
    got = {(p.line, p.key): p.message for p in found}
    assert got == {
        (9, "entries.rebuy_until_level"): "must be at least 1 when rebuys are allowed",
        (7, "entries.reentry_until_level"): "must be at least 1 when re-entries are allowed",
        (11, "entries.auto_addon_multiplier"): "needs addon_after_level (when the add-on phase "
                                               "is)",
        (12, "entries.late_registration_levels"): "the structure has only 2 levels, got 5",
    }


# --------------------------------------------------------------------------- files and YAML


def test_empty_file():
    for text in ("", "\n\n", "# only a comment\n"):
        p = only(text)
        assert (p.file, p.line, p.key) == ("t.yaml", None, "")
        assert p.message.startswith("the file is empty")


@pytest.mark.parametrize("text,got", [("- a\n- b\n", "a list"), ("just text\n", "'just text'"),
                                      ("42\n", "42")])
def test_top_level_not_a_mapping(text, got):
    p = only(text)
    assert p.line == 1
    assert p.message.startswith("the top level must be a mapping") and got in p.message


def test_yaml_syntax_error_has_a_line():
    p = only(BASE.replace("  - {break: 10}", "  - {break: 10"))
    assert (p.file, p.line) == ("t.yaml", 6)
    assert p.message.startswith("YAML syntax error") and "on line 5" in p.message
    p = only("name: T\nstart_stack: 10\n  structure: x\n")
    assert p.line == 3 and p.message.startswith("YAML syntax error")


def test_yaml_tab_indentation():
    p = only("name: T\n\tstart_stack: 10\n")
    assert p.line == 2 and "YAML" in p.message


def test_two_documents():
    p = only(BASE + "---\nname: Other\n")
    assert p.line == 7 and p.message.startswith("YAML syntax error: a second document")


def test_unsafe_tag_is_a_problem_not_a_crash():
    p = only(BASE.replace("name: Test", "name: !!python/object:os.system ls"))
    assert (p.line, p.key) == (1, "name")
    assert "cannot read this value" in p.message


def test_impossible_date_is_a_problem_not_a_crash():
    p = only(BASE.replace("name: Test", "name: 2024-13-45"))
    assert p.line == 1 and p.key == "name"


def test_recursive_alias():
    found = problems(BASE + "x: &a [*a]\n")
    assert any("refers to itself" in p.message for p in found)


def test_billion_laughs():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    p = only("\n".join(lines) + "\n")
    assert "too large" in p.message


def test_anchors_and_merge_keys_work():
    s = load_tournament_text(textwrap.dedent("""\
        name: T
        start_stack: 1000
        structure:
          - &lvl {minutes: 10, small_blind: 25, big_blind: 50}
          - {<<: *lvl, big_blind: 60}
          - *lvl
        """))
    assert [lvl.big_blind for lvl in s.structure] == [50, 60, 50]


def test_non_text_key():
    p = only(BASE + "1: one\n")
    assert (p.line, p.message) == (7, "keys must be text, got 1")


def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as info:
        load_tournament(path)
    [p] = info.value.problems
    assert (p.file, p.line, p.message) == (str(path), None, "file not found")


def test_folder_instead_of_file(tmp_path):
    with pytest.raises(ConfigError) as info:
        load_tournament(tmp_path)
    assert "folder" in info.value.problems[0].message


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(BASE.replace("Test", "Fünf").encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        load_tournament(path)
    assert "not UTF-8" in info.value.problems[0].message


def test_several_problems_are_all_reported_in_line_order():
    found = problems("""\
        name: ""
        language: fr
        start_stack: -1
        table_seats: true
        structure:
          - {minutes: 0, small_blind: 100, big_blind: 50}
          - {break: 10, ante: 5}
        time_call: {seconds: 0}
        balancing: {tolerence: 1}
        points: {system: bogus}
        """)
    assert [(p.line, p.key) for p in found] == [
        (1, "name"), (2, "language"), (3, "start_stack"), (4, "table_seats"),
        (6, "structure[0].minutes"), (6, "structure[0].big_blind"), (7, "structure[1].ante"),
        (8, "time_call.seconds"), (9, "balancing.tolerence"), (10, "points.system"),
    ]
    assert all(p.file == "t.yaml" for p in found)


# --------------------------------------------------------------------------- presets


CLUB = """\
# a small club preset
language: de
start_stack: 5000
time_call:
  seconds: 60
  countdown: 10
structure:
  - {minutes: 20, blinds: 25/50}
  - {minutes: 20, blinds: 50/100}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_tournament_overrides_preset(tmp_path):
    write(tmp_path / "clubs" / "club.yaml", CLUB)
    t = write(tmp_path / "t.yaml", """\
        name: Evening
        preset: club
        time_call:
          seconds: 45
        structure:
          - {minutes: 15, blinds: 100/200}
        """)
    s = load_tournament(t)
    assert s.preset == "club" and s.language == "de" and s.start_stack == 5000
    assert (s.time_call.seconds, s.time_call.countdown) == (45, 10)  # mappings merge
    assert [(lvl.small_blind, lvl.seconds) for lvl in s.structure] == [(100, 900)]  # lists replace


def test_preset_next_to_the_tournament_file(tmp_path):
    write(tmp_path / "club.yaml", CLUB)
    s = load_tournament(write(tmp_path / "t.yaml", "name: E\npreset: club\n"))
    assert s.start_stack == 5000


def test_problem_inside_a_preset_names_the_preset_file(tmp_path):
    write(tmp_path / "clubs" / "club.yaml", CLUB.replace("countdown: 10", "countdown: -1")
          .replace("blinds: 50/100", "blinds: 50/10"))
    t = write(tmp_path / "t.yaml", "name: E\npreset: club\nlanguage: xx\n")
    with pytest.raises(ConfigError) as info:
        load_tournament(t)
    found = info.value.problems
    assert [(Path(p.file).name, p.line, p.key) for p in found] == [
        ("t.yaml", 3, "language"),
        ("club.yaml", 6, "time_call.countdown"),
        ("club.yaml", 9, "structure[1].blinds"),
    ]
    assert found[0].file == str(t)


def test_override_hides_a_preset_problem(tmp_path):
    write(tmp_path / "clubs" / "club.yaml", CLUB.replace("countdown: 10", "countdown: -1"))
    t = write(tmp_path / "t.yaml", "name: E\npreset: club\ntime_call: {countdown: 5}\n")
    assert load_tournament(t).time_call.countdown == 5


def test_preset_syntax_error_names_the_preset(tmp_path):
    write(tmp_path / "clubs" / "club.yaml", "language: de\nstructure: [\n")
    t = write(tmp_path / "t.yaml", "name: E\npreset: club\n")
    with pytest.raises(ConfigError) as info:
        load_tournament(t)
    [p] = info.value.problems  # no "missing start_stack" noise when the preset is broken
    assert Path(p.file).name == "club.yaml" and p.message.startswith("YAML syntax error")


def test_unknown_preset_lists_the_known_ones():
    p = only("name: E\npreset: psc-five-spade\n")
    assert (p.line, p.key) == (2, "preset")
    assert p.message.startswith("unknown preset 'psc-five-spade' (did you mean "
                                "'psc-five-spades'?); known presets: ")
    for name in ("ace-of-spades", "pokerlounge-berlin", "psc-five-spades", "venue-faq"):
        assert name in p.message


def test_preset_name_must_be_a_name():
    p = only("name: E\npreset: ../etc/passwd\n")
    assert p.key == "preset" and p.message.startswith("must be a preset name")
    p = only("name: E\npreset: 7\n")
    assert p.key == "preset"


def test_preset_chain(tmp_path):
    write(tmp_path / "clubs" / "base.yaml", CLUB)
    write(tmp_path / "clubs" / "turbo.yaml", "preset: base\ntime_call: {seconds: 30}\n")
    s = load_tournament(write(tmp_path / "t.yaml", "name: E\npreset: turbo\n"))
    assert s.preset == "turbo"
    assert (s.time_call.seconds, s.time_call.countdown) == (30, 10)
    assert s.start_stack == 5000


def test_preset_cycle(tmp_path):
    write(tmp_path / "clubs" / "a.yaml", "preset: b\nlanguage: de\n")
    write(tmp_path / "clubs" / "b.yaml", "preset: a\n")
    t = write(tmp_path / "t.yaml", "name: E\npreset: a\n")
    with pytest.raises(ConfigError) as info:
        load_tournament(t)
    [p] = info.value.problems
    assert (Path(p.file).name, p.line, p.key) == ("b.yaml", 1, "preset")
    assert p.message == "presets form a cycle: t.yaml -> a -> b -> a".replace(
        "t.yaml", str(t))


def test_tournament_naming_itself(tmp_path):
    t = write(tmp_path / "self.yaml", "name: E\npreset: self\n")
    with pytest.raises(ConfigError) as info:
        load_tournament(t)
    assert "cycle" in info.value.problems[0].message


def test_floorman_presets_env(tmp_path, monkeypatch):
    write(tmp_path / "elsewhere" / "myclub.yaml", CLUB)
    monkeypatch.setenv("FLOORMAN_PRESETS",
                       os.pathsep.join([str(tmp_path / "nothing"), str(tmp_path / "elsewhere")]))
    assert (tmp_path / "elsewhere") in preset_dirs()
    assert "myclub" in list_presets()
    assert load_tournament_text("name: E\npreset: myclub\n").start_stack == 5000


def test_preset_dirs_order(tmp_path, monkeypatch):
    monkeypatch.delenv("FLOORMAN_PRESETS", raising=False)
    dirs = preset_dirs(tmp_path)
    assert dirs[:2] == [tmp_path, tmp_path / "clubs"]
    assert dirs[-1].parts[-2:] == ("config", "clubs")


# --------------------------------------------------------------------------- floorman check


def test_main_check_ok(tmp_path, capsys):
    t = write(tmp_path / "t.yaml", "name: Friday\npreset: psc-five-spades\n")
    assert main_check(str(t)) == 0
    assert capsys.readouterr().out == f"{t}: OK — Friday, 23 levels, preset psc-five-spades\n"


def test_main_check_without_preset(tmp_path, capsys):
    t = write(tmp_path / "t.yaml", BASE)
    assert main_check(str(t)) == 0
    assert capsys.readouterr().out == f"{t}: OK — Test, 2 levels, preset none\n"


def test_main_check_problems(tmp_path, capsys):
    t = write(tmp_path / "t.yaml", BASE + "language: fr\ntime_call: {seconds: 0}\n")
    assert main_check(str(t)) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{t}:7: language: unknown language 'fr'; allowed: de, en",
                   f"{t}:8: time_call.seconds: must be at least 1, got 0"]


def test_main_check_missing_file(tmp_path, capsys):
    assert main_check(str(tmp_path / "x.yaml")) == 1
    assert capsys.readouterr().out == f"{tmp_path / 'x.yaml'}: file not found\n"


# -- broker section (deployment settings kept in the tournament file)

def test_broker_section_loads_and_defaults():
    from controller.config import load_tournament_text

    base = "name: T\nstart_stack: 1000\nstructure:\n  - {minutes: 10, blinds: 25/50}\n"
    s = load_tournament_text(base)
    assert (s.broker.host, s.broker.port, s.broker.prefix) == ("localhost", 1883,
                                                               "floorman/default")
    s = load_tournament_text(base + "broker:\n  host: 10.0.0.2\n  port: 8883\n"
                             "  prefix: club/friday\n")
    assert (s.broker.host, s.broker.port, s.broker.prefix) == ("10.0.0.2", 8883, "club/friday")


def test_broker_section_rejects_bad_values_with_line_and_key():
    import pytest

    from controller.config import ConfigError, load_tournament_text

    text = ("name: T\nstart_stack: 1000\nstructure:\n  - {minutes: 10, blinds: 25/50}\n"
            "broker:\n  port: 70000\n  prefix: club/#\n  hots: x\n")
    with pytest.raises(ConfigError) as err:
        load_tournament_text(text, "t.yaml")
    msg = str(err.value)
    assert "t.yaml:6: broker.port:" in msg
    assert "t.yaml:7: broker.prefix:" in msg
    assert "t.yaml:8: broker.hots: unknown key 'hots' (did you mean 'host'?)" in msg


def test_a_value_with_a_line_break_stays_on_its_problems_line(tmp_path):
    """Found by the bad-input drill: a preset name with a newline split check's output."""
    path = tmp_path / "t.yaml"
    path.write_text('name: X\npreset: "psc-five-spades\\nfoo"\n"odd\\tkey": 1\n',
                    encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_tournament(path)
    lines = str(info.value).splitlines()
    assert len(lines) == len(info.value.problems) >= 2
    assert all(line.startswith(f"{path}:") for line in lines)
    assert any("psc-five-spades\\nfoo" in line for line in lines)
