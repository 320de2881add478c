"""`floorman simulate` finishes a 27- and a 300-player tournament with every preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import load_tournament

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENTS = sorted((ROOT / "config/tournaments").glob("*.yaml"))


def test_every_preset_has_a_sample_tournament():
    presets = {p.stem for p in (ROOT / "config/clubs").glob("*.yaml")}
    used = {load_tournament(f).preset for f in TOURNAMENTS}
    assert presets <= used, f"presets without a sample tournament: {presets - used}"


@pytest.mark.parametrize("players", [27, 300])
@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_simulate_finishes_with_one_champion(path, players, capsys):
    assert main(["simulate", str(path), "--players", str(players), "--seed", "11", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    results, events, moves = out["results"], out["events"], out["moves"]
    summary = out["summary"]
    assert summary["champion"]
    firsts = [r for r in results if r["place"] == 1]
    assert len(firsts) == 1 and firsts[0]["name"] == summary["champion"]
    # everyone who played has a place; places never exceed the field
    assert len(results) == summary["players"]
    assert max(r["place"] for r in results) <= summary["players"]
    assert events[0]["type"] == "opened" and events[-1]["type"] == "finished"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for m in moves:
        assert {"player", "from", "to", "reason"} <= set(m)
        assert m["from"] != m["to"]
    if players == 300:
        assert summary["tables_broken"] > 0 and summary["final_table"]


def test_simulate_text_summary(capsys):
    assert main(["simulate", str(ROOT / "config/tournaments/sample.yaml"), "--players", "27",
                 "--seed", "3", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "champion Player" in out and "hand for hand hands" in out
    assert out.strip().splitlines()[-3].startswith("1,")


def test_simulate_rejects_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "t.yaml"
    bad.write_text("name: x\nstart_stack: 0\n")
    assert main(["simulate", str(bad), "--players", "10"]) == 1
    assert "t.yaml:2: start_stack:" in capsys.readouterr().err
