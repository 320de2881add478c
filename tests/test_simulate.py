"""`floorman simulate` finishes a 27- and a 300-player tournament with every preset."""

from __future__ import annotations

import json
from collections import Counter
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


def final_busts(events: list[dict]) -> list[dict]:
    """Each registered player's last bust (a rebuy or re-entry brought the earlier ones
    back), in the order they were reported; ghosts are nobody's place."""
    names = {e["player"]: e["name"] for e in events if e["type"] == "registered"}
    last: dict[int, dict] = {}
    for e in events:
        if e["type"] == "busted" and e["player"] in names:
            last[e["player"]] = {**e, "name": names[e["player"]]}
        elif e["type"] in ("rebuy", "reentry"):
            last.pop(e["player"], None)
    return sorted(last.values(), key=lambda e: e["seq"])


@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_forgetful_dealers_still_give_places_in_bust_order_000_9_5_000_3_11(path, capsys):
    """`--forgetful 0.3`: dealers forget "hand done" after 30 % of hands (000 3.11: the
    players deal). Every preset still ends with one champion, and a player out in a
    later hand finishes better than everyone out before (000 9.5: only the busts of one
    hand, which the table declares, share a group)."""
    assert main(["simulate", str(path), "--players", "120", "--seed", "11", "--forgetful", "0.3",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    summary, results, events = out["summary"], out["results"], out["events"]
    firsts = [r for r in results if r["place"] == 1]
    assert len(firsts) == 1 and firsts[0]["name"] == summary["champion"]
    assert summary["hands_done_forgotten"] > 0.15 * summary["hands"]
    place = {r["name"]: r["place"] for r in results}
    busts = [b for b in final_busts(events) if b["name"] != summary["champion"]]
    assert len(busts) == len(results) - 1
    size = Counter(tuple(b["hand"]) for b in busts)
    for earlier, later in zip(busts, busts[1:], strict=False):
        if earlier["hand"] != later["hand"]:  # not one hand: strictly in bust order
            assert place[later["name"]] < place[earlier["name"]], (earlier, later)
        else:  # one hand: ranked by stacks within the hand's places
            assert abs(place[later["name"]] - place[earlier["name"]]) < size[tuple(later["hand"])]


def test_forgetful_busts_catch_up_the_missed_hand_done(capsys):
    assert main(["simulate", str(ROOT / "config/tournaments/sample.yaml"), "--players", "120",
                 "--seed", "2", "--forgetful", "0.7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["hands_done_caught_up"] > 0
    caught = [e for e in out["events"] if e["type"] == "hand_done" and e.get("missed")]
    for e in caught:  # always in the group of the bust that caught it up, right before it
        nxt = out["events"][e["seq"]]
        assert nxt["type"] == "busted" and nxt["group"] == e["group"]
        assert nxt["hand"] == ["table", e["table"], e["seq"]]


def test_simulate_forgetful_share_is_checked(capsys):
    assert main(["simulate", str(ROOT / "config/tournaments/sample.yaml"), "--players", "10",
                 "--forgetful", "1.5"]) == 2
    assert "--forgetful" in capsys.readouterr().err
