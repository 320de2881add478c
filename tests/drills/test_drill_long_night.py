"""Drill 5, a long night: a whole tournament played twice through MQTT from one dealer
script, once without faults and once with the faults of drills 1-3 mixed in (the
controller killed from outside and at its fault stages, the broker lost, table screens
lost). Both nights end with the same places, by name, as the reference run of the
script; and the two event logs are the same, event for event, but for their times.

The script is made in advance from a seed against a reference engine (as the simulator
deals, controller/simulate.py): every press, and what the engine will answer. It is then
replayed in order, each press waiting for its answer before the next, so faults cannot
change the outcome. The blinds go up by the director's "level next" every few rounds:
the levels themselves are longer than the night, because a level that ends by the clock
lands at a different place in the log in two runs, and the engine's seating draws depend
on their place in the log.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from controller.config import load_tournament
from controller.director import BrokerUnreachable, NoAnswer, send
from controller.engine.tournament import Rejected, Tournament
from controller.log.floor import Floor
from controller.wire.mqtt import Broker
from tests.support import drill as dr
from tests.support.controller import ControllerProcess, wait_up
from tests.support.eventlog import read_log, strip_at

BASE_SEED = 424242  # the log's own seed (its "opened" event), the same in every run
STAGES = ("before-store", "after-store", "during-publish")


@dataclass
class Step:
    who: str  # "director" or "table"
    table: int | None
    action: str  # the director's command, or the table's press
    args: dict[str, Any]
    ok: bool  # what the reference engine answered


def long_structure(levels: int = 24) -> list[str]:
    out = []
    for i in range(levels):
        sb = 50 * (i + 1)
        out.append(f"{{minutes: 600, small_blind: {sb}, big_blind: {2 * sb}}}")
        if i % 4 == 3 and i < levels - 1:
            out.append("{break: 600}")
    return out


def make_script(settings, players: int, seed: int) -> tuple[list[Step], Tournament]:
    """The whole night as presses, decided against a reference engine."""
    rng = random.Random(seed)
    t = Tournament.new(settings, BASE_SEED, 0.0)
    now = 1.0
    steps: list[Step] = []

    def do(who: str, table: int | None, action: str, args: dict[str, Any]) -> None:
        nonlocal now
        now += 1.0
        if who == "director":
            cmd = {"cmd": action, **args}
        elif action == "bust":
            cmd = {"cmd": "bust", "table": table, **args}
        elif action == "hand_done":
            cmd = {"cmd": "hand_done", "table": table}
        else:  # "time": one button, start or cancel (controller/service/core.py, table_press)
            tab = t.tables.get(table)
            running = tab is not None and tab.time_call is not None
            cmd = {"cmd": "time_call", "table": table, "op": "cancel" if running else "start"}
        try:
            t.execute(cmd, now)
            ok = True
        except Rejected:
            ok = False
        steps.append(Step(who, table, action, args, ok))

    do("director", None, "register", {"names": [f"Player {i:03d}" for i in range(1, players + 1)]})
    do("director", None, "draw", {"seed": rng.randrange(2**31)})
    do("director", None, "start", {})
    rounds = 0
    while not t.finished:
        rounds += 1
        if rounds % 8 == 0 and t.clock.level < len(settings.structure) - 1:
            do("director", None, "level", {"to": "next"})
        for n in rng.sample(sorted(t.tables), len(t.tables)):
            tab = t.tables.get(n)
            if tab is None or t.finished or (t.hfh.on and n in t.hfh.done):
                continue
            if rng.random() < 0.03:
                do("table", n, "time", {})
                do("table", n, "time", {})
            seats = sorted(tab.occupant)
            if seats and rng.random() < (0.12 if t.remaining > 2 else 0.3):
                two = len(seats) > 3 and rng.random() < 0.1
                for seat in rng.sample(seats, 2 if two else 1):
                    do("table", n, "bust", {"seat": seat, "stack": rng.choice([1000, 2000, 5000])}
                       if two else {"seat": seat})
            if t.finished:
                break
            do("table", n, "hand_done", {})
        assert rounds < 100_000
    return steps, t


def places_by_name(t: Tournament) -> list[tuple[int, str]]:
    return sorted((pl, t.players[pid].name) for pid, pl in t.places().items()
                  if not t.players[pid].ghost)


class Night:
    """One run of the script against a controller process of its own."""

    def __init__(self, broker, config, settings, prefix: str, tmp, name: str,
                 tables: list[int]) -> None:
        self.broker = broker
        self.b = Broker.from_env(broker.address, prefix)
        self.db = tmp / f"{name}.sqlite"
        # the log is opened with the script's seed: both nights draw the same seats
        Floor.open(settings, self.db, seed=BASE_SEED, now=time.time()).close()
        # the script presses as fast as the answers come, far faster than a dealer: the
        # tables' rate limit (controller/service/inbound.py) raised for it
        self.ctrl = ControllerProcess(config, self.db, tmp / f"{name}.log",
                                      broker=broker.address, prefix=prefix,
                                      env={**os.environ, "FLOORMAN_PRESS_RATE": "1000/1000"})
        self.tables = tables
        self.dealers: dict[int, Any] = {}
        self.index = 0  # the step being played
        self.lock = threading.Lock()  # the controller's process: the supervisor or chaos
        self.stop = threading.Event()
        self.restarts = 0
        self.kiosk_restarts = 0
        self.mismatches: list[str] = []

    def start(self) -> None:
        self.ctrl.start()
        wait_up(self.b)

    def director(self, cmd: str, args: dict[str, Any]) -> dict[str, Any]:
        cid = uuid.uuid4().hex  # one id, however often it must be sent
        deadline = time.monotonic() + 300
        while True:
            try:
                return send(self.b, cmd, args, timeout=5, command_id=cid)
            except (NoAnswer, BrokerUnreachable):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def supervise(self) -> None:
        """systemd's Restart=always: a controller that died is started again."""
        while not self.stop.wait(0.05):
            with self.lock:
                if not self.ctrl.alive:
                    self.ctrl.proc = None
                    self.ctrl.start()
                    self.restarts += 1

    def play(self, steps: list[Step], kiosk_loss_at: set[int] = frozenset(),
             rng: random.Random | None = None) -> None:
        for i, step in enumerate(steps):
            self.index = i
            if i in kiosk_loss_at and self.dealers:
                d = self.dealers[(rng or random).choice(sorted(self.dealers))]
                d.crash()  # its screen dies between two presses, and comes back
                d.restart()
                d.ready(timeout=300)
                self.kiosk_restarts += 1
            if step.who == "director":
                ok = self.director(step.action, step.args).get("ok")
                if step.action == "draw":
                    self.dealers = {n: dr.Dealer(self.b, n).start() for n in self.tables}
                    for d in self.dealers.values():
                        d.ready(timeout=300)
            else:
                d = self.dealers[step.table]
                answer = d.answer(d.press(step.action, **step.args), timeout=300)
                assert answer is not None, f"step {i}: no answer to {step}"
                ok = answer.get("ok")
            if ok is not step.ok:
                self.mismatches.append(f"step {i} {step}: answered {ok}")
        self.index = len(steps)

    def finish(self) -> Any:
        self.stop.set()
        with self.lock:
            status = wait_up(self.b, timeout=60)
            for d in self.dealers.values():
                d.stop()
            assert self.ctrl.terminate() == 0
        return status


def test_long_night(broker, prefix, report, tmp_path):
    players = dr.scale(60, 300)
    seed = 1009
    config = dr.write_tournament(tmp_path / "long-night.yaml", "Drill: a long night",
                                 places=dr.scale(8, 30), structure=long_structure(),
                                 extra="time_call: {seconds: 600, countdown: 10}\n")
    settings = load_tournament(config)
    steps, reference = make_script(settings, players, seed)
    # the tables after the draw: replay the first three steps
    probe = Tournament.new(settings, BASE_SEED, 0.0)
    for k, step in enumerate(steps[:2]):
        probe.execute({"cmd": step.action, **step.args}, float(k + 1))
    tables = sorted(probe.tables)

    # ---- the clean night
    t0 = time.monotonic()
    clean = Night(broker, config, settings, f"{prefix}/clean", tmp_path, "clean", tables)
    clean.start()
    clean.play(steps)
    clean_status = clean.finish()
    clean_s = time.monotonic() - t0

    # ---- the night with faults
    rng = random.Random(seed)
    night = Night(broker, config, settings, f"{prefix}/faults", tmp_path, "faults", tables)
    night.start()
    kills = dr.scale(3, 10)
    armed = dr.scale(3, 9)
    outages = dr.scale(2, 6)
    outage_s = dr.scale(3.0, 30.0)
    kiosk_losses = dr.scale(3, 10)
    plan = ["kill"] * kills + [STAGES[i % 3] for i in range(armed)] + ["outage"] * outages
    rng.shuffle(plan)
    n = len(steps)
    kiosk_loss_at = set(rng.sample(range(10, n), kiosk_losses))
    done: Counter[str] = Counter()
    chaos_errors: list[str] = []

    def chaos() -> None:
        try:
            for k, fault in enumerate(plan):
                at = 5 + (n - 10) * (k + 1) // (len(plan) + 1)
                while night.index < at and not night.stop.is_set():
                    time.sleep(0.01)
                if night.stop.is_set():
                    return
                time.sleep(rng.uniform(0.0, 0.3))
                if fault == "outage":
                    broker.stop()
                    time.sleep(outage_s)
                    broker.start()
                    done["outages"] += 1
                    continue
                with night.lock:
                    if night.ctrl.alive:
                        night.ctrl.kill()
                        done["kills_external"] += 1
                    if fault == "kill":
                        night.ctrl.start()
                    else:  # the next start dies by itself at this stage
                        night.ctrl.start(fault=f"{fault}:{rng.randint(1, 6)}")
                        armed_log.append((fault, night.ctrl.log.stat().st_size))
        except Exception as exc:  # noqa: BLE001
            chaos_errors.append(repr(exc))

    armed_log: list[tuple[str, int]] = []
    threads = [threading.Thread(target=chaos, daemon=True),
               threading.Thread(target=night.supervise, daemon=True)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    try:
        night.play(steps, kiosk_loss_at, rng)
    finally:
        night.stop.set()
        for t in threads:
            t.join(120)
    faults_status = night.finish()
    faults_s = time.monotonic() - t0
    assert not chaos_errors, chaos_errors
    output = night.ctrl.output(all_of_it=True)
    for stage in STAGES:
        done[f"kills_{stage}"] = output.count(f"killing the controller at {stage}")

    # ---- the same night
    clean_log = read_log(clean.db)
    faults_log = read_log(night.db)
    t_clean = Tournament.replay(clean_log.events, settings)
    t_faults = Tournament.replay(faults_log.events, settings)
    presses = [(cid, a, f) for d in night.dealers.values() for cid, a, f, _ in d.pressed]
    acks = {cid: a for d in night.dealers.values() for cid, a in d.acks.items()}
    audit = dr.audit(faults_log, presses, acks)
    same_log = strip_at(clean_log.events) == strip_at(faults_log.events)
    first_diff = next((i for i, (a, c) in enumerate(zip(strip_at(clean_log.events),
                                                         strip_at(faults_log.events),
                                                         strict=False)) if a != c), None)
    report.update(players=players, tables=len(tables), steps=len(steps),
                  presses=len(presses), events=len(faults_log.events),
                  clean_night_s=round(clean_s, 1), faulted_night_s=round(faults_s, 1),
                  controller_restarts=night.restarts, outages=done["outages"],
                  kiosk_restarts=night.kiosk_restarts,
                  **{k: v for k, v in sorted(done.items()) if k != "outages"},
                  answers_unlike_reference=len(clean.mismatches) + len(night.mismatches),
                  same_results=places_by_name(t_faults) == places_by_name(t_clean),
                  same_log=same_log, champion=clean_status["summary"]["champion"],
                  **audit.figures())
    report.emit()
    assert not clean.mismatches, clean.mismatches[:5]
    assert not night.mismatches, night.mismatches[:5]
    assert not audit.lost, audit.lost[:5]
    assert not audit.doubled, audit.doubled[:5]
    assert t_clean.finished and t_faults.finished
    assert places_by_name(t_clean) == places_by_name(reference)
    assert places_by_name(t_faults) == places_by_name(t_clean)
    assert faults_status["summary"]["champion"] == clean_status["summary"]["champion"]
    assert same_log, (first_diff, clean_log.events[first_diff:first_diff + 2],
                      faults_log.events[first_diff:first_diff + 2])
    assert strip_at(clean_log.events) == strip_at(reference.log)
    assert done["outages"] == outages
    assert sum(v for k, v in done.items() if k.startswith("kills_")) >= kills + armed
    assert "Traceback" not in output
