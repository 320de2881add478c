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


#: a play day (003 6) is table games, not one tournament; a qualifier seats 6-10 (001 §2 III)
PLAY_DAY = "ace-of-spades-playday"
QUALIFIER = "pokerlounge-qualifier"


@pytest.mark.parametrize("players", [27, 300])
@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_simulate_finishes_with_one_champion(path, players, capsys):
    if path.stem == QUALIFIER:
        # 001 §2 III: the draw refuses the field with the reason, no prizes vanish
        assert main(["simulate", str(path), "--players", str(players), "--seed", "11"]) == 1
        assert "6-10 players (001 §2 III)" in capsys.readouterr().err
        return
    assert main(["simulate", str(path), "--players", str(players), "--seed", "11", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    if path.stem == PLAY_DAY:
        check_play_day(out, players)
        return
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


def check_play_day(out, players):
    """003 6: every table game ends with its own winner, its best three score 2 / 1 / 0.5,
    everybody who played gets the attendance point once; nobody is moved (003 9)."""
    results, events = out["results"], out["events"]
    games: dict[int, list[dict]] = {}
    for r in results:
        if r["game"] is not None:
            games.setdefault(r["game"], []).append(r)
    assert len(games) > players // 10  # more tables than the draw: players sat down again
    for rows in games.values():
        assert [r["place"] for r in rows].count(1) == 1
        assert max(r["place"] for r in rows) <= len(rows)
        assert sorted(r["points"] for r in rows)[-1] == 2
    day = [r for r in results if r["game"] is None]
    assert len(day) == out["summary"]["players"] == players
    assert all(r["attendance"] == 1 and r["tables_played"] >= 1 for r in day)
    assert max(r["tables_played"] for r in day) >= 2
    assert events[-1]["type"] == "table_game_over"
    assert out["summary"]["balancing_moves"] == 0 and not out["summary"]["final_table"]


@pytest.mark.parametrize(("players", "firsts"), [(10, 2), (7, 1)])
def test_simulate_a_qualifier_001_2_III(players, firsts, capsys):
    """9-10 players: the last two share first (two tickets); 6-8: the heads-up is played."""
    path = ROOT / "config/tournaments/pokerlounge-qualifier.yaml"
    assert main(["simulate", str(path), "--players", str(players), "--seed", "11", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    top = [r for r in out["results"] if r["place"] == 1]
    assert len(top) == firsts and all(r["prize"] == "ticket" for r in top)
    assert out["events"][-1]["type"] == "finished"


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
