"""Properties of the modes of PSC Five Spades under random floor sequences (hypothesis).

Random busts, chip counts (right and wrong), rounds ended (early and on time) and undos
in play the clock (000 4.15), restart (000 4.14) and multi-round (000 4.19). After every
step:

- a refused command changed nothing (the reason is its answer);
- nobody sits twice, player.table/seat agree with table.occupant;
- every stored count of the players still in adds up to the chips in play when it is
  a full count (a round's end), and no count is of a player who is out;
- places never repeat except shared ones, and a finished tournament places everybody;
- the replay of the log equals the live state.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.engine.settings import Level, Mode
from controller.engine.tournament import Rejected, Tournament
from tests.support.settings import make_settings

MIN = 60.0
ACTIONS = ["bust", "bust", "bust", "count", "bad_count", "end", "end_early", "undo", "wait"]


def build(kind: str, players: int, seed: int) -> Tournament:
    structure = make_settings().structure
    if kind == "play_the_clock":
        structure = tuple(Level("level", 30 * 60, 100, 200) for _ in range(3))
    s = make_settings(structure=structure, players_per_table=6, table_seats=9,
                      final_table_size=6,
                      mode=Mode(kind=kind, rounds=2, round_minutes=30, round_levels=3))
    t = Tournament.new(s, seed, 0.0)
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(players)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    return t


def counts(t: Tournament, data: st.DataObject, off: int = 0) -> list[dict[str, int]]:
    ins = sorted(p.id for p in t.players.values() if not p.out and p.table is not None)
    if not ins:
        return []
    cuts = sorted(data.draw(st.lists(st.integers(1, max(1, t.chips - 1)),
                                     min_size=len(ins) - 1, max_size=len(ins) - 1)))
    edges = [0, *cuts, t.chips]
    chips = [max(1, b - a) for a, b in zip(edges, edges[1:], strict=False)]
    chips[-1] += t.chips - sum(chips) + off
    return [{"player": pid, "chips": c} for pid, c in zip(ins, chips, strict=True)]


def check(t: Tournament) -> None:
    seen: set[int] = set()
    for n, tab in t.tables.items():
        for seat, pid in tab.occupant.items():
            assert pid not in seen
            seen.add(pid)
            p = t.players[pid]
            assert (p.table, p.seat) == (n, seat) and not p.out
    for p in t.players.values():
        assert p.table is None or p.id in seen
    places = t.places()
    if t.finished:
        assert set(places) == {p.id for p in t.players.values() if not p.ghost}
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["play_the_clock", "restart", "multi_round"]),
       players=st.integers(2, 14), seed=st.integers(0, 2**16), data=st.data())
def test_modes_keep_their_invariants(kind, players, seed, data):
    t = build(kind, players, seed)
    now = 10.0
    for _ in range(data.draw(st.integers(5, 40))):
        if t.finished:
            break
        action = data.draw(st.sampled_from(ACTIONS))
        now += data.draw(st.sampled_from([5.0, 60.0, 10 * MIN]))
        cmd: dict | None = None
        if action == "bust":
            ins = sorted(p.id for p in t.players.values() if not p.out and p.table is not None)
            if ins:
                cmd = {"cmd": "bust", "player": data.draw(st.sampled_from(ins))}
        elif action == "count":
            cmd = {"cmd": "chip_counts", "counts": counts(t, data)}
        elif action == "bad_count":
            cmd = {"cmd": "chip_counts", "counts": counts(t, data, off=1)}
        elif action in ("end", "end_early"):
            if action == "end":
                now += 40 * MIN
            cmd = {"cmd": "end_round", "counts": counts(t, data)}
        elif action == "undo":
            cmd = {"cmd": "undo"}
        else:
            cmd = {"cmd": "tick"}
        if cmd is None or (cmd["cmd"] == "chip_counts" and not cmd["counts"]):
            continue
        before, log = copy.deepcopy(t.fingerprint()), len(t.log)
        try:
            t.execute(cmd, now)
        except Rejected as exc:
            assert str(exc)
            assert t.fingerprint() == before and len(t.log) == log
        else:
            if cmd["cmd"] == "chip_counts" and action == "bad_count":
                raise AssertionError("a full count off by one chip was taken")
            if t.settings.mode.kind == "restart" and t.rounds.number > 1 \
                    and cmd["cmd"] == "end_round":
                assert t.clock.running is False
            if t.clock.started and not t.clock.running and not t.finished:
                t.execute({"cmd": "start"}, now)
        check(t)
