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


#: a play day (003 6) is table games, not one tournament; a qualifier seats 6-10 (001 §2 III)
PLAY_DAY = "ace-of-spades-playday"
QUALIFIER = "pokerlounge-qualifier"
#: 000 4.15 / 4.14: the chip counts decide (play the clock) or bring players back (restart)
PLAY_THE_CLOCK = "psc-play-the-clock"
MULTI_ROUND = "psc-multi-round"
COUNTED = (PLAY_THE_CLOCK, "psc-restart", MULTI_ROUND)
#: 002: ends when only the ticket winners are left, who share first place (issue 30)
SATELLITE = "venue-faq-satellite"


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
    if path.stem == SATELLITE:  # 002: the ticket winners share first place
        assert len(firsts) == summary["prize_pool"]["tickets"] >= 2
        assert all(r["ticket"] == summary["prize_pool"]["ticket"] for r in firsts)
    else:
        assert len(firsts) == 1 and firsts[0]["name"] == summary["champion"]
    # everyone who played has a place; places never exceed the field
    assert len(results) == summary["players"]
    assert max(r["place"] for r in results) <= summary["players"]
    assert events[0]["type"] == "opened" and events[-1]["type"] == "finished"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for m in moves:
        assert {"player", "from", "to", "reason"} <= set(m)
        assert m["from"] != m["to"]
    # 000 4.15: the count ends play the clock; 000 4.19: each final table plays for itself
    if players == 300 and path.stem not in (PLAY_THE_CLOCK, MULTI_ROUND, SATELLITE):
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
    players = 8 if path.stem == QUALIFIER else 120  # 001 §2 III: 6-10; 8 play heads-up
    assert main(["simulate", str(path), "--players", str(players), "--seed", "11",
                 "--forgetful", "0.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    if path.stem == PLAY_DAY:  # 003 6: each table game has its own winner and places
        check_play_day(out, players)
        return
    if path.stem in COUNTED:  # not in bust order: see test_simulate_play_the_clock/_restart
        assert out["summary"]["champion"]
        return
    if path.stem == SATELLITE:  # 002: the ticket winners share first place
        firsts = [r for r in out["results"] if r["place"] == 1]
        assert len(firsts) == out["summary"]["prize_pool"]["tickets"] >= 2
        return
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


# ------------------------------------------------------------ modes of PSC Five Spades
def _run(stem: str, players: int, capsys, seed: int = 11) -> dict:
    path = ROOT / "config/tournaments" / f"{stem}.yaml"
    assert main(["simulate", str(path), "--players", str(players), "--seed", str(seed),
                 "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_play_the_clock_000_4_15(capsys):
    """000 4.15: three rounds of 1.5 h, a reseat by lot between them with the stacks; at
    the end the counts decide the places (the most chips win, 000 4.4)."""
    out = _run("psc-play-the-clock", 40, capsys)
    events = out["events"]
    ended = [e for e in events if e["type"] == "round_ended"]
    assert [e["round"] for e in ended] == [1, 2, 3]
    # the rounds end after 90, 180 and 270 minutes of play, never before
    assert all(e["seats"] for e in ended[:2]) and ended[2]["seats"] == []
    standings = ended[2]["standings"]
    assert events[-1]["type"] == "finished" and events[-1]["winner"] == standings[0][0]
    place = {r["player_id"]: r["place"] for r in out["results"]}
    chips = [c for _, c in standings]
    assert chips == sorted(chips, reverse=True)
    for (a, ca), (b, cb) in zip(standings, standings[1:], strict=False):
        assert place[a] <= place[b] and (place[a] == place[b]) == (ca == cb)
    # the count adds up to the chips in play (every player still in)
    counted = [e for e in events if e["type"] == "chips_counted"][-1]
    assert sum(c for _, c in counted["stacks"]) == 40 * 10_000
    # busted players rank below everybody counted
    assert max(place[p] for p, _ in standings) < min(
        place[e["player"]] for e in events if e["type"] == "busted")


def test_simulate_restart_000_4_14(capsys):
    """000 4.14: counted after level 8, everybody back at level 1, counted after level 8
    again, on at level 9 with each player's higher stack; out of both rounds is out."""
    out = _run("psc-restart", 40, capsys)
    events = out["events"]
    ended = [e for e in events if e["type"] == "round_ended"]
    assert [e["round"] for e in ended] == [1, 2]
    assert len(ended[0]["stacks"]) == 40  # everybody restarts
    assert {c for _, c in ended[0]["stacks"]} == {10_000}
    counts = [dict(map(tuple, e["stacks"])) for e in events if e["type"] == "chips_counted"]
    first, second = counts[0], counts[1]
    for pid, chips in ended[1]["stacks"]:
        assert chips == max(first.get(pid, 0), second.get(pid, 0)) > 0
    out_of_both = set(range(1, 41)) - {pid for pid, _ in ended[1]["stacks"]}
    assert out_of_both and not out_of_both & (set(first) | set(second))
    after = [e for e in events if e["seq"] > ended[1]["seq"] and e["type"] == "level_started"]
    assert after[0]["number"] == 9
    assert out["summary"]["champion"] and events[-1]["type"] == "finished"
    place = {r["player_id"]: r["place"] for r in out["results"]}
    assert all(place[p] > 40 - len(out_of_both) for p in out_of_both)


def test_simulate_landesliga_final_000_4_18(capsys):
    """000 4.18: 1,000 start chips a point of the sit & go round, 5,000-20,000."""
    out = _run("psc-landesliga-final", 27, capsys)
    stacks = [e for e in out["events"] if e["type"] == "start_stacks"][0]["stacks"]
    assert len(stacks) == 27
    for _pid, points, chips in stacks:
        assert chips == max(5_000, min(20_000, points * 1_000))
    assert {c for *_, c in stacks} >= {20_000, 5_000}
    assert out["summary"]["champion"]


def test_simulate_cannonball_000_4_16(capsys):
    """000 4.16: the levels last longer and longer."""
    settings = load_tournament(ROOT / "config/tournaments/psc-cannonball.yaml")
    minutes = [lv.seconds // 60 for lv in settings.structure if not lv.is_break]
    assert minutes[:4] == [10, 12, 14, 16] and minutes[-1] == 30
    assert all(a <= b for a, b in zip(minutes, minutes[1:], strict=False))
    assert _run("psc-cannonball", 27, capsys)["summary"]["champion"]


@pytest.mark.parametrize("players", [30, 300])
def test_simulate_bounty_000_4_17(players, capsys):
    """000 4.17 bounty: the most knock-outs win the prize "bounty" (ties share), on top of
    the ranking points; the sample plays to its champion."""
    assert load_tournament(ROOT / "config/tournaments/psc-bounty.yaml").points.bounty \
        == "bounty"
    out = _run("psc-bounty", players, capsys, seed=1)
    results = out["results"]
    assert out["summary"]["champion"] and len(results) == out["summary"]["players"]
    most = max(r["knockouts"] for r in results)
    assert most > 0
    assert {r["player_id"] for r in results if r["prize"] == "bounty"} \
        == {r["player_id"] for r in results if r["knockouts"] == most}
    assert all(r["bounty_hits"] == r["knockouts"] for r in results)


def test_simulate_mystery_bounty_000_4_17(capsys):
    """000 4.17 mystery bounty: "jeder Spieler erhält vor dem Turnierstart eine Liste mit 5
    Namen": the simulation draws the envelopes and enters every list before the draw;
    knocking out a name on one's list wins the prize "mystery-bounty". Before: no list was
    entered, so nobody ever had a hit. The ranking points (000 5.4) count all the same."""
    s = load_tournament(ROOT / "config/tournaments/psc-mystery-bounty.yaml")
    assert (s.points.bounty, s.points.mystery_names) == ("mystery", 5)
    out = _run("psc-mystery-bounty", 30, capsys, seed=1)
    results, events = out["results"], out["events"]
    assert out["summary"]["champion"] and len(results) == out["summary"]["players"]
    assert [r["points"] for r in results][:3] == [18, 15, 12]
    # every player registered before the start has a list of 5 others, entered before the
    # seats were drawn
    lists = {e["player"]: e["names"] for e in events if e["type"] == "names_listed"}
    drawn_at = next(e["seq"] for e in events if e["type"] == "seats_drawn")
    assert all(e["seq"] < drawn_at for e in events if e["type"] == "names_listed")
    at_start = {e["player"] for e in events
                if e["type"] == "registered" and e["seq"] < drawn_at}
    assert set(lists) == at_start and out["summary"]["mystery_lists"] == len(at_start) == 27
    assert all(len(set(n)) == 5 and pid not in n for pid, n in lists.items())
    # a hit is a knock-out of a name on one's own list, and wins the prize
    busts = [(e["by"], e["player"]) for e in events if e["type"] == "busted" and e.get("by")]
    for r in results:
        hits = sum(1 for by, out_ in busts if by == r["player_id"]
                   and out_ in lists.get(r["player_id"], ()))
        assert r["bounty_hits"] == hits
        assert (r["prize"] == "mystery-bounty") == (hits > 0)
    assert out["summary"]["mystery_hits"] == sum(r["bounty_hits"] for r in results) > 0
    # the same seed draws the same envelopes
    again = _run("psc-mystery-bounty", 30, capsys, seed=1)
    assert {e["player"]: e["names"] for e in again["events"]
            if e["type"] == "names_listed"} == lists


def test_simulate_multi_round_000_4_19(capsys):
    """000 4.19: points per preliminary round, a new draw after each, then the best nine on
    points at table 1 playing for places 1-9, the others at the next tables for theirs."""
    out = _run("psc-multi-round", 40, capsys)
    events = out["events"]
    ended = [e for e in events if e["type"] == "round_ended"]
    assert [e["round"] for e in ended] == [1, 2, 3]
    totals: dict[int, int] = {}
    for e in ended:
        assert len(e["points"]) == 40 and len(e["seats"]) == 40
        assert sorted(p for _, _, p in e["points"])[-10:][0] >= 1  # ten places score
        for pid, _place, points in e["points"]:
            totals[pid] = totals.get(pid, 0) + points
    final = ended[-1]
    assert final["tables"][0] == [1, 1] and final["tables"][1] == [2, 10]
    at_1 = {pid for pid, table, _ in final["seats"] if table == 1}
    assert len(at_1) == 9 and min(totals[p] for p in at_1) >= max(
        totals[p] for p in totals if p not in at_1)
    place = {r["player_id"]: r["place"] for r in out["results"]}
    assert sorted(place[p] for p in at_1) == list(range(1, 10))
    assert len(place) == 40  # two out in one hand with equal stacks share (000 9.5)
    for table, best in final["tables"]:
        size = sum(1 for _, n, _ in final["seats"] if n == table)
        mine = [place[pid] for pid, n, _ in final["seats"] if n == table]
        assert min(mine) == best and max(mine) <= best + size - 1
    decided = [e for e in events if e["type"] == "table_decided"]
    assert len(decided) == len(final["tables"]) and events[-1]["type"] == "finished"
    assert out["summary"]["balancing_moves"] == 0 or all(
        e["seq"] < final["seq"] for e in events if e["type"] == "moved")
