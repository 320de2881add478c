"""The shipped club presets and sample tournaments: every structure exactly as printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller import resources
from controller.config import (
    list_presets,
    load_tournament,
    load_tournament_text,
    main_check,
)
from controller.engine.settings import TournamentSettings

REPO = Path(__file__).resolve().parents[2]
CLUBS = REPO / "config" / "clubs"
TOURNAMENTS = REPO / "config" / "tournaments"

PRESETS = sorted(p.stem for p in CLUBS.glob("*.yaml"))
SAMPLES = sorted(TOURNAMENTS.glob("*.yaml"))

# 004 prints no structure and no start stack: a tournament must give them.
_NEEDS = {
    "floor-sheet": "start_stack: 5000\nstructure:\n  - {minutes: 20, blinds: 25/50}\n",
}


def preset(name: str, extra: str = "") -> TournamentSettings:
    return load_tournament_text(f"name: T\npreset: {name}\n{_NEEDS.get(name, '')}{extra}")


def rows(s: TournamentSettings) -> list[tuple]:
    """The structure as printed: (sb, bb, ante) for a level, ("break", minutes, note)."""
    out: list[tuple] = []
    for lvl in s.structure:
        if lvl.is_break:
            out.append(("break", lvl.seconds // 60, lvl.note))
        else:
            out.append((lvl.small_blind, lvl.big_blind, lvl.ante))
    return out


def test_the_repo_presets_are_where_the_loader_looks():
    # an editable install: the shipped presets are the repository's own files
    assert resources.folder("presets").resolve() == CLUBS.resolve()
    assert set(PRESETS) <= set(list_presets())
    assert {"psc-five-spades", "pokerlounge-berlin", "venue-faq", "venue-faq-turbo",
            "ace-of-spades", "floor-sheet"} <= set(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads(name):
    s = preset(name)
    assert s.preset == name
    assert s.language == "de"  # all five rulebooks are German
    assert any(not lvl.is_break for lvl in s.structure)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_cites_its_rulebook(name):
    head = (CLUBS / f"{name}.yaml").read_text(encoding="utf-8").splitlines()[0:3]
    assert any(line.startswith("#") for line in head)
    assert "rulebook" in "".join(head).lower() or "regulativ" in "".join(head).lower()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_tournament_loads(path, capsys):
    assert main_check(str(path)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: OK — ")


def test_every_preset_has_a_sample_tournament():
    used = {load_tournament(p).preset for p in SAMPLES}
    assert set(PRESETS) <= used


# --------------------------------------------------------------------------- 000


PSC_4_12 = [
    # left column
    (50, 100, 0), (75, 150, 0), (100, 200, 0), (150, 300, 0),
    ("break", 10, ""),
    (200, 400, 25), (300, 600, 50), (400, 800, 75), (600, 1200, 100),
    ("break", 10, "Chipraise 25"),
    (800, 1600, 200), (1000, 2000, 300), (1500, 3000, 400), (2000, 4000, 500),
    ("break", 25, "Chipraise 100"),
    # right column
    (3000, 6000, 500), (4000, 8000, 500), (5000, 10000, 1000), (6000, 12000, 1000),
    ("break", 10, "Chipraise 500"),
    (8000, 16000, 2000), (10000, 20000, 3000), (15000, 30000, 4000), (20000, 40000, 5000),
    ("break", 10, ""),
    (30000, 60000, 6000), (40000, 80000, 8000), (50000, 100000, 10000),
]


def test_psc_structure_is_000_4_12():  # 000 4.12, both columns, breaks 10/10/25/10/10
    s = preset("psc-five-spades")
    assert rows(s) == PSC_4_12
    assert [lvl.seconds for lvl in s.structure if not lvl.is_break] == [18 * 60] * 23
    assert [lvl.seconds // 60 for lvl in s.structure if lvl.is_break] == [10, 10, 25, 10, 10]
    assert all(lvl.ante_type == "standard" for lvl in s.structure)


def test_psc_tables_clock_ghosts_points():  # 000 4.3, 4.9, 9.5, 9.6, 5.4, 6, 3.17
    s = preset("psc-five-spades")
    assert (s.table_seats, s.players_per_table, s.final_table_size) == (10, 9, 9)
    assert (s.time_call.seconds, s.time_call.countdown) == (60, 10)
    assert s.ghosts.enabled and s.ghosts.remove_after_levels == 4
    assert s.ghosts.remove_at_first_break
    assert s.points.system == "psc_ranking"
    assert s.points.knockout and s.points.knockout_drawn_names == 3
    assert s.points.knockout_drawn_bonus == 2
    assert s.balancing.tolerance == 1 and s.balancing.break_order == "highest"
    assert s.hand_for_hand.clock == "stops"
    assert s.entries.rebuys == 0 and s.entries.reentries == 0  # 4.5
    assert s.entries.late_registration_levels == 4  # 9.6: a ghost's seat in the first 4 levels
    assert (s.chip_race.start, s.chip_race.rounding) == ("seat_1", "up")
    assert s.chip_race.one_chip_per_player


def test_psc_rebuy_variant_000_4_13():
    s = preset("psc-five-spades-rebuy")
    assert rows(s) == PSC_4_12  # inherits the club's structure
    e = s.entries
    assert (e.rebuys, e.rebuy_until_level, e.addon_after_level, e.auto_addon_multiplier) == (
        1, 4, 4, 2)
    assert s.points.system == "psc_ranking"


def test_psc_6max_000_4_3():
    s = preset("psc-five-spades-6max")
    assert (s.players_per_table, s.final_table_size) == (6, 9)  # final table still 9
    assert rows(s) == PSC_4_12


def test_psc_cup_final_000_4_3_and_7():
    s = preset("psc-five-spades-cup")
    assert (s.table_seats, s.players_per_table, s.final_table_size) == (10, 10, 10)


def test_sample_is_a_27_player_psc_evening():
    s = load_tournament(TOURNAMENTS / "sample.yaml")
    assert s.preset == "psc-five-spades"
    assert rows(s) == PSC_4_12
    assert s.start_stack == 10000
    assert 27 <= 3 * s.players_per_table  # three full tables of 9


def test_bounty_samples_000_4_17():
    """000 4.17: a normal freeze-out with a bounty on every player (the most knock-outs win
    a prize), or a mystery bounty (a list of 5 names each); the evening's points count."""
    for stem, bounty in (("psc-bounty", "bounty"), ("psc-mystery-bounty", "mystery")):
        s = load_tournament(TOURNAMENTS / f"{stem}.yaml")
        assert s.preset == "psc-five-spades" and s.mode.kind == "tournament"
        assert (s.points.system, s.points.bounty, s.points.mystery_names) \
            == ("psc_ranking", bounty, 5)
        assert rows(s) == PSC_4_12


# --------------------------------------------------------------------------- 001


def test_pokerlounge_structure_001_1_v():  # 001 §1 IV, §1 V
    s = preset("pokerlounge-berlin")
    assert s.start_stack == 50000
    assert rows(s) == [(100, 100, 0), (100, 200, 0), (200, 400, 0), (300, 600, 0),
                       (400, 800, 0), (500, 1000, 0), (700, 1400, 0), (1000, 2000, 0)]
    # durations are not printed: the preset picks 20 minutes for every level
    assert {lvl.seconds for lvl in s.structure} == {20 * 60}


def test_pokerlounge_time_and_hand_for_hand():  # 001 §1 VI, §2 I
    s = preset("pokerlounge-berlin")
    assert (s.time_call.seconds, s.time_call.countdown) == (30, 0)
    assert s.hand_for_hand.auto is False  # ordered by the floor
    assert s.points.system == "none"


def test_pokerlounge_qualifier_sample_001_2_iii():
    s = load_tournament(TOURNAMENTS / "pokerlounge-qualifier.yaml")
    assert s.points.system == "qualifier"
    assert s.players_per_table == 10


# --------------------------------------------------------------------------- 002


def test_venue_faq_structure_002():  # 15-minute levels, big-blind ante
    s = preset("venue-faq")
    assert rows(s) == [(25, 50, 50), (50, 100, 100), (75, 150, 150), (100, 200, 200)]
    assert {lvl.seconds for lvl in s.structure} == {15 * 60}
    assert {lvl.ante_type for lvl in s.structure} == {"big_blind"}
    assert s.heads_up_halves_level
    assert (s.time_call.seconds, s.time_call.countdown) == (50, 10)  # 60 s, the last 10 aloud
    h = s.hand_for_hand
    assert (h.auto, h.clock, h.cross_table_busts) == (True, "stops", "share")  # 002 a, b
    assert s.chip_race.rounding == "half_up"  # "kaufmännisch gerundet"


#: the rulebooks' time call: (seconds in all from the call, the last ones counted down)
TIME_CALLS = {
    # 000 9.5: "60 sec. Zeit ... Bei Überschreitung ... ein Countdown von 10 sec."
    "psc-five-spades": (70, 10),
    # 004 5: "eine Minute Zeit ... Hat er nach Ablauf ... erfolgt ein Countdown von 10 Sekunden"
    "floor-sheet": (70, 10),
    # 002: "noch eine weitere Minute Zeit - Die letzten 10 Sekunden werden laut
    # heruntergezählt": the countdown is the end of the minute
    "venue-faq": (60, 10),
    # 002: "Turbo-Turniere: 30 Sekunden Bedenkzeit mit 5 Sekunden Countdown"
    "venue-faq-turbo": (30, 5),
    # 001 §1 VI: "einmalig ... weitere 30 Sekunden"; 003 35: "weitere 30 Sekunden"
    "pokerlounge-berlin": (30, 0),
    "ace-of-spades": (30, 0),
}


@pytest.mark.parametrize("name", sorted(TIME_CALLS))
def test_the_time_call_lasts_as_the_rulebook_says(name):
    """A call lasts ``seconds`` + ``countdown`` in all, the countdown its last seconds (the
    table screen shows the seconds left and says COUNTDOWN in them); the engine ends it then."""
    from controller.engine.tournament import Tournament

    total, counted = TIME_CALLS[name]
    s = preset(name)
    assert (s.time_call.seconds + s.time_call.countdown, s.time_call.countdown) \
        == (total, counted)
    t = Tournament.new(s, 1, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 7)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    seat = min(t.tables[1].occupant)
    t.execute({"cmd": "time_call", "table": 1, "seat": seat}, 100.0)
    assert t.tables[1].time_call is not None
    t.execute({"cmd": "tick"}, 100.0 + total - 0.5)
    assert t.tables[1].time_call is not None
    t.execute({"cmd": "tick"}, 100.0 + total)
    assert t.tables[1].time_call is None


def test_venue_faq_mode_plus_one_002():
    assert preset("venue-faq").final_table_size == 9  # 9-handed: 10, capped at 9
    assert preset("venue-faq", "players_per_table: 6\n").final_table_size == 7
    assert preset("venue-faq", "players_per_table: 8\n").final_table_size == 9
    assert preset("venue-faq", "players_per_table: 5\n").final_table_size == 6
    # never more than the physical seats
    six = "table_seats: 6\nplayers_per_table: 6\n"
    assert preset("venue-faq", six).final_table_size == 6


def test_venue_faq_turbo_inherits_002():
    s = preset("venue-faq-turbo")
    assert rows(s) == rows(preset("venue-faq"))
    assert {lvl.seconds for lvl in s.structure} == {10 * 60}  # "10 Min (Turbo)"
    assert {lvl.ante_type for lvl in s.structure} == {"big_blind"}
    assert (s.time_call.seconds, s.time_call.countdown) == (25, 5)  # 30 s, the last 5 counted
    assert s.heads_up_halves_level
    assert s.final_table_size == 9


def test_turbo_6max_sample_plays_a_final_table_of_7():  # 002 "6-handed wird zu 7"
    s = load_tournament(TOURNAMENTS / "venue-faq-turbo-6max.yaml")
    assert (s.players_per_table, s.final_table_size) == (6, 7)
    assert s.time_call.seconds + s.time_call.countdown == 30


# --------------------------------------------------------------------------- 003


def test_ace_of_spades_structure_003_7():
    s = preset("ace-of-spades")
    assert s.start_stack == 4000
    assert rows(s) == [(25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 0), (200, 400, 0),
                       (300, 600, 0), (400, 800, 0), (500, 1000, 100), (1000, 2000, 200),
                       (2000, 4000, 400)]
    assert [lvl.seconds for lvl in s.structure] == [600] * 9 + [None]  # last: "Nicht limitiert"


def test_ace_of_spades_championship_plays_long_levels_003_7():
    """003 7: tournaments and club championships set their own blinds, "grundsätzlich lange
    Blindstufen (15 - 20 Minuten)", not the play day's ten minutes; the last one unlimited."""
    s = load_tournament(TOURNAMENTS / "ace-of-spades-championship.yaml")
    levels = [lvl for lvl in s.structure if not lvl.is_break]
    timed = [lvl.seconds for lvl in levels if lvl.seconds is not None]
    assert timed and all(15 * 60 <= sec <= 20 * 60 for sec in timed), timed
    assert levels[-1].seconds is None  # 003 7: the last level "Nicht limitiert"
    assert not s.play_day.enabled and s.club.start_stacks == "club_championship"  # 003 8


def test_ace_of_spades_time_points_chip_race():  # 003 35, 6, 2, 37
    s = preset("ace-of-spades")
    assert (s.time_call.seconds, s.time_call.countdown) == (30, 0)
    assert s.points.system == "ace_of_spades"
    assert s.entries.rebuys == 0
    assert s.chip_race.start == "left_of_dealer"
    assert s.chip_race.one_chip_per_player is False


# --------------------------------------------------------------------------- 004


def test_floor_sheet_004():  # 004 2, 5
    s = preset("floor-sheet")
    assert (s.time_call.seconds, s.time_call.countdown) == (60, 10)
    assert s.chip_race.start == "seat_1" and s.chip_race.one_chip_per_player


# --------------------------------------------------------------------------- docs


def test_the_complete_example_in_docs_config_md_loads():
    doc = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    block = re.search(r"## 5\..*?```yaml\n(.*?)```", doc, re.S)
    assert block, "docs/config.md section 5 has a yaml example"
    s = load_tournament_text(block.group(1), "docs/config.md")
    assert s.points.system == "psc_ranking"
    assert s.structure[-1].seconds is None
    assert s.structure[6].seconds == 18 * 60  # from level_minutes


def test_field_sizes_and_dealing_of_the_presets():  # 001 §2 I, III; 002; 000 3.11
    def sample(name: str) -> TournamentSettings:
        return load_tournament(TOURNAMENTS / f"{name}.yaml")

    berlin = sample("pokerlounge-freezeout")
    assert (berlin.field_size.min_players, berlin.field_size.max_players) == (12, 40)
    qualifier = sample("pokerlounge-qualifier")
    assert (qualifier.field_size.min_players, qualifier.field_size.max_players) == (6, 10)
    assert sample("venue-faq-main-event").field_size.min_per_table == 3
    assert not sample("sample").dealing.players_deal  # 000 3.11: only without a croupier
    assert preset("psc-five-spades").field_size.min_per_table == 2
