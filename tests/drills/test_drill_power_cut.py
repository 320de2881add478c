"""Drill 1, power cut at the controller: a tournament played by simulated dealers over
MQTT while the controller is killed with SIGKILL again and again.

The kills alternate: at a random wall-clock moment (from outside), then at a stage inside
the controller (``FLOORMAN_FAULT``: between receiving a command and storing it, between
storing it and acknowledging it, in the middle of publishing the retained state). After
every restart, and at the end:

- the retained state is what a reference replay of the stored events publishes;
- the log only grew (every earlier log is a prefix of the later one);
- every answer a dealer got is stored under its command id, with the same answer;
- nothing was applied twice: no event belongs to two commands, no player is out twice,
  one "hand done" event per acknowledged "hand done" press.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from controller.config import load_tournament
from controller.engine.tournament import Tournament
from controller.wire.mqtt import Broker
from tests.support import drill as dr
from tests.support.controller import wait_up
from tests.support.eventlog import read_log
from tests.support.waiting import wait_for

STAGES = ("before-store", "after-store", "during-publish")


def play_down_to(crew: dr.DealerCrew, target: int) -> None:
    """Let the crew play until ``target`` players are left or the night is over. The night
    keeps going: fail when no player went out for the whole bound (a stuck night), not
    when a loaded machine deals the night slower than a bound for all of it (a fresh
    clone's run once timed out at 12 left, once at the end)."""
    bound = dr.scale(120, 1200)
    stalled = {"left": crew.players_left(), "since": time.monotonic()}

    def reached() -> bool:
        left = crew.players_left()
        if left != stalled["left"]:
            stalled.update(left=left, since=time.monotonic())
        return left <= target or crew.finished() or time.monotonic() - stalled["since"] > bound

    wait_for(reached, bound * 10, f"{target} players left", every=0.05,
             explain=crew.describe)
    assert crew.players_left() <= target or crew.finished(), \
        f"no player out for {bound} s at {crew.players_left()} left\n{crew.describe()}"


def test_power_cut(broker, prefix, controllers, report, tmp_path):
    players = dr.scale(120, 300)
    rounds = dr.scale(7, 25)  # two kills each: one from outside, one at a stage inside
    seed = 20251009
    rng = random.Random(seed)
    config = dr.write_tournament(tmp_path / "power-cut.yaml", "Drill: power cut",
                                 places=dr.scale(12, 30))
    settings = load_tournament(config)
    b = Broker.from_env(broker.address, prefix)
    ctrl = controllers(config)
    tables = dr.open_tournament(ctrl, b, players)
    crew = dr.DealerCrew(b, tables, seed).start()

    kills: Counter[str] = Counter()
    restarts: list[float] = []
    checked: list[int] = []
    last_events: list[dict] = []

    def check(when: str) -> None:
        nonlocal last_events
        crew.pause()
        log = read_log(ctrl.db)
        assert log.events[:len(last_events)] == last_events, f"{when}: the log was rewritten"
        expected, t = dr.expected_state(settings, log.events)
        got = dr.retained(b)
        diff = dr.state_diff(expected, got)
        assert not diff, (when, diff[:5], {k: (expected.get(k), got.get(k)) for k in diff[:2]})
        last_events = log.events
        checked.append(len(log.events))
        assert not crew.errors, crew.errors

    stages = [STAGES[i % 3] for i in range(rounds)]
    rng.shuffle(stages)
    try:
        crew.resume()
        for i, stage in enumerate(stages):
            # spread over the night: round i once this many players are left (the last
            # rounds at the bubble and the final table), then a random moment later
            target = players - (players - 12) * (i + 1) // rounds
            play_down_to(crew, target)
            time.sleep(rng.uniform(0.0, 0.5))
            if crew.finished():
                break
            ctrl.kill()
            kills["external"] += 1
            # the restart is armed: it dies at the N-th time it reaches the stage
            n = rng.randint(2, 12)
            t0 = time.monotonic()
            ctrl.start(fault=f"{stage}:{n}")
            rc = None
            while rc is None and time.monotonic() - t0 < 30 and not crew.finished():
                rc = ctrl.wait_exit(0.1)
            if rc is None:  # nothing reached the stage (the tournament is over): pull the plug
                ctrl.kill()
                kills["external"] += 1
            else:
                assert rc == -9, ctrl.output()
                assert f"FLOORMAN_FAULT: killing the controller at {stage}" in ctrl.output()
                kills[stage] += 1
            t0 = time.monotonic()
            ctrl.start()
            wait_up(b)
            restarts.append(time.monotonic() - t0)
            check(f"after kill {sum(kills.values())} ({stage})")
            crew.resume()

        play_down_to(crew, 1)
        wait_for(crew.finished, dr.scale(60, 600), "the tournament to finish", every=0.2)
        check("at the end")
        status = wait_up(b)
        assert status["summary"]["finished"] and status["summary"]["players_left"] == 1
    finally:
        crew.close()
    assert ctrl.terminate() == 0
    assert "Traceback" not in ctrl.output(all_of_it=True)

    log = read_log(ctrl.db)
    assert log.events == last_events
    final = Tournament.replay(log.events, settings)
    # every earlier state checked is the replay of a prefix of the final log
    assert all(n <= len(log.events) for n in checked)
    presses = [(cid, action, fields) for d in crew.dealers.values()
               for cid, action, fields, _ in d.pressed]
    acks = {cid: a for d in crew.dealers.values() for cid, a in d.acks.items()}
    assert len(acks) == len(presses), "a press was never answered"
    audit = dr.audit(log, presses, acks)
    busts = sum(1 for e in log.events if e["type"] == "busted"
                and e["group"] not in dr.undone_groups(log.events))
    report.update(players=players, tables=len(tables), presses=len(presses),
                  events=len(log.events), busts=busts,
                  hand_done=sum(1 for e in log.events if e["type"] == "hand_done"),
                  undos=sum(1 for e in log.events if e["type"] == "undo"),
                  kills=sum(kills.values()), **{f"kills_{k}": v for k, v in sorted(kills.items())},
                  state_checks=len(checked), restart_max_s=round(max(restarts, default=0), 2),
                  fingerprint=dr.fingerprint_hash(final), **audit.figures())
    report.emit()
    assert not audit.lost, audit.lost[:5]
    assert not audit.doubled, audit.doubled[:5]
    assert final.finished
    assert sum(1 for p in final.players.values() if p.out and not p.ghost) == players - 1
    assert sum(kills.values()) >= 2 * rounds - 2
