"""`floorman check` on a club preset: every key checked, nothing demanded that a tournament
file gives (name, start_stack, structure); the same `FILE:LINE: key.path: what` lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import resources
from controller.cli import main
from controller.config import ConfigError, is_preset_file, load_preset, main_check

REPO = Path(__file__).resolve().parents[2]
PRESETS = sorted((REPO / "config/clubs").glob("*.yaml"))

BAD = """\
language: fr
table_seats: 99
time_call:
  seconds: x
colour: red
structure:
  - {minutes: 10, blinds: 50/25}
"""


@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_every_shipped_preset_checks_as_a_preset(path, capsys):
    assert is_preset_file(path)
    assert main_check(str(path)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: OK — preset {path.stem}")
    assert "a tournament file using it must set name" in out


def test_the_summary_says_what_a_tournament_must_add(capsys):
    assert main_check(str(REPO / "config/clubs/floor-sheet.yaml")) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "must set name, start_stack, structure")
    s = load_preset(REPO / "config/clubs/psc-five-spades-6max.yaml")
    assert (s.name, s.base, s.levels, s.missing) == (
        "psc-five-spades-6max", "psc-five-spades", 23, ("name",))


def test_a_broken_preset_reports_every_problem_and_nothing_missing(tmp_path, capsys):
    clubs = tmp_path / "clubs"
    clubs.mkdir()
    bad = clubs / "bad.yaml"
    bad.write_text(BAD)
    assert main_check(str(bad)) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"{bad}:1", "language"],
        [f"{bad}:2", "table_seats"],
        [f"{bad}:4", "time_call.seconds"],
        [f"{bad}:5", "colour"],
        [f"{bad}:7", "structure[0].blinds"],
    ]
    assert not any("missing" in line for line in lines)


def test_a_preset_on_a_broken_preset_reports_the_base_file(tmp_path):
    clubs = tmp_path / "clubs"
    clubs.mkdir()
    (clubs / "base.yaml").write_text("table_seats: 0\n")
    (clubs / "child.yaml").write_text("preset: base\nstart_stack: 1000\n")
    with pytest.raises(ConfigError) as exc:
        load_preset(clubs / "child.yaml")
    assert [str(p) for p in exc.value.problems] == [
        f"{clubs / 'base.yaml'}:1: table_seats: must be at least 2, got 0"]
    (clubs / "loop.yaml").write_text("preset: loop\n")
    with pytest.raises(ConfigError, match="cycle"):
        load_preset(clubs / "loop.yaml")


def test_where_a_file_lies_decides_how_it_is_checked(tmp_path, monkeypatch, capsys):
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    p = elsewhere / "house.yaml"
    p.write_text("language: en\n")
    monkeypatch.delenv("FLOORMAN_PRESETS", raising=False)
    assert not is_preset_file(p)
    assert main_check(str(p)) == 1  # a tournament file: name, start_stack, structure missing
    assert "name: missing" in capsys.readouterr().out
    assert main_check(str(p), as_preset=True) == 0
    assert "OK — preset house" in capsys.readouterr().out
    monkeypatch.setenv("FLOORMAN_PRESETS", str(elsewhere))
    assert is_preset_file(p)
    assert main(["check", str(p)]) == 0
    # --tournament: a file in a presets folder read as a tournament after all
    assert main(["check", "--tournament", str(p)]) == 1
    capsys.readouterr()


def test_check_all_and_shipped_names(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(resources.shipped("presets")) + len(resources.shipped("tournaments"))
    assert all(": OK — " in line for line in lines)
    assert main(["check", "sample", "venue-faq"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{resources.sample_tournament()}: OK — PSC Five Spades")
    assert ": OK — preset venue-faq," in out[1]
    assert main(["check", "no-such-thing"]) == 1
    assert "no-such-thing: file not found" in capsys.readouterr().out
    assert main(["check"]) == 2
