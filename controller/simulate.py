"""A dry run of a whole tournament through the real engine and event log, without network.

Seeded random dealers play "hands": each table in turn may lose a player
(sometimes two in one hand, with their starting stacks), may call the clock,
and reports "hand done". The engine balances, breaks tables, starts
hand-for-hand on the bubble and forms the final table exactly as it would on
a Saturday night. A director uses it to try a structure; the tests use it to
check the rules at scale.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.engine.results import ResultRow, results_json, score
from controller.engine.rules import entries
from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Event, Tournament
from controller.floor import Floor

#: seconds of tournament time one round of hands takes at every table
HAND_SECONDS = 150.0


@dataclass
class Simulation:
    """What a simulated tournament produced."""

    tournament: Tournament
    results: list[ResultRow]
    hands: int = 0
    rounds: int = 0
    bust_seconds: list[float] = field(default_factory=list)

    @property
    def events(self) -> list[Event]:
        return self.tournament.log

    def counts(self) -> Counter[str]:
        return Counter(e["type"] for e in self.events)

    def moves(self) -> list[dict[str, Any]]:
        return [m.as_dict() for m in self.tournament.moves]

    def summary(self) -> dict[str, Any]:
        c = self.counts()
        t = self.tournament
        return {
            "name": t.settings.name,
            "players": t.real_players(),
            "entries": t.entries,
            "hands": self.hands,
            "moves": len(t.moves),
            "balancing_moves": c["moved"],
            "tables_broken": c["table_broken"] + (1 if t.final_table is not None else 0),
            "final_table": t.final_table is not None,
            # every release starts a hand-for-hand hand, and so does each "on"
            "hand_for_hand_hands": c["hfh_released"] + sum(
                1 for e in self.events if e["type"] == "hfh" and e["on"]),
            "rebuys": c["rebuy"],
            "reentries": c["reentry"],
            "time_calls": sum(1 for e in self.events
                              if e["type"] == "time_call" and e["op"] == "start"),
            "levels_reached": t.level_number(),
            "events": len(self.events),
            "champion": t.players[t.winner].name if t.winner else None,
        }

    def as_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "results": results_json(self.results),
                "moves": self.moves(), "events": self.events}


def simulate(settings: TournamentSettings, players: int, seed: int, *,
             store: str = ":memory:", bust_rate: float = 0.12,
             timer: Callable[[], float] = time.perf_counter) -> Simulation:
    """Play a whole tournament of ``players`` with seeded random dealers until one is left.

    ``store``: the SQLite event log (``":memory:"`` for a throwaway run).
    ``timer`` measures each bust (decision plus durable write) for the benchmark.
    """
    if players < 2:
        raise ValueError("a tournament needs at least two players")
    rng = random.Random(seed)
    floor = Floor.open(settings, store, seed=seed)
    t = floor.tournament
    sim = Simulation(t, [])
    now = 0.0

    def run(cmd: dict[str, Any]) -> bool:
        answer = floor.execute(cmd, now)
        return bool(answer["ok"])

    late = players // 10 if settings.entries.late_registration_levels else 0
    run({"cmd": "register", "names": [f"Player {i:04d}" for i in range(1, players - late + 1)]})
    run({"cmd": "draw", "seed": rng.randrange(2**32)})
    run({"cmd": "start"})
    late_no = players - late
    while not floor.tournament.finished:
        t = floor.tournament
        sim.rounds += 1
        now += HAND_SECONDS
        run({"cmd": "tick"})
        if late_no < players and entries.late_open(t, now) and rng.random() < 0.3:
            late_no += 1
            run({"cmd": "late", "name": f"Player {late_no:04d}"})
        for number in rng.sample(sorted(t.tables), len(t.tables)):
            t = floor.tournament
            tab = t.tables.get(number)
            if tab is None or t.finished:
                continue
            if t.hfh.on and number in t.hfh.done:
                continue
            if any(m.to_table == number for m in t.pending.values()):
                # the players moving here sit down before the next hand (a short table
                # waits for them, TDA 11D); the table's button box says so
                run({"cmd": "seated", "table": number})
            _deal_hand(floor, tab.number, rng, now, sim, timer)
            if floor.tournament.finished:
                break
            run({"cmd": "hand_done", "table": number})
            sim.hands += 1
        if sim.rounds > 200_000:
            raise RuntimeError("simulation did not finish")  # a bug, never a club's night
    t = floor.tournament
    try:
        sim.results = t.results()
    except ValueError:
        from dataclasses import replace

        sim.results = score(replace(settings.points, system="none"), t.finishes(),
                            entries=t.real_players())
    sim.tournament = t
    floor.close()
    return sim


def _deal_hand(floor: Floor, number: int, rng: random.Random, now: float, sim: Simulation,
               timer: Callable[[], float]) -> None:
    t = floor.tournament
    tab = t.tables[number]
    if rng.random() < 0.03:
        floor.execute({"cmd": "time_call", "table": number}, now)
        if rng.random() < 0.5:
            floor.execute({"cmd": "time_call", "table": number, "op": "cancel"}, now + 30)
        # otherwise the player takes all the time: the engine expires the call by itself
        # once its seconds and countdown are over (the next hand or tick)
    if not tab.occupant or rng.random() >= sim_bust_rate(t):
        return
    seats = sorted(tab.occupant)
    out = rng.sample(seats, 2 if len(seats) > 3 and rng.random() < 0.1 else 1)
    stacks = [rng.choice([1000, 2000, 2000, 5000]) for _ in out]
    for seat, stack in zip(out, stacks, strict=True):
        t = floor.tournament
        now_at = t.tables.get(number)
        if now_at is None or seat not in now_at.occupant or t.finished:
            return
        tab = now_at
        pid = tab.occupant[seat]
        others = [p for s, p in tab.occupant.items() if s != seat and not t.players[p].ghost]
        by = rng.choice(others) if others else None
        start = timer()
        answer = floor.execute({"cmd": "bust", "table": number, "seat": seat, "stack": stack,
                                "by": by}, now)
        sim.bust_seconds.append(timer() - start)
        if not answer["ok"]:
            continue
        _maybe_reenter(floor, pid, rng, now)


def sim_bust_rate(t: Tournament) -> float:
    """Chance that a hand at one table loses a player: steady, a little higher short-handed."""
    return 0.12 if t.remaining > 2 else 0.3


def _maybe_reenter(floor: Floor, pid: int, rng: random.Random, now: float) -> None:
    t = floor.tournament
    p = t.players[pid]
    e = t.settings.entries
    if not p.out or p.ghost or t.finished:
        return
    if p.rebuys < e.rebuys and t.level_number() <= e.rebuy_until_level and rng.random() < 0.6:
        floor.execute({"cmd": "rebuy", "player": pid}, now)
    elif p.entries - 1 < e.reentries and t.level_number() <= e.reentry_until_level \
            and rng.random() < 0.4:
        floor.execute({"cmd": "reentry", "player": pid}, now)
