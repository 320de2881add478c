"""A dry run of a whole tournament through the real engine and event log, without network.

Seeded random dealers play "hands": each table in turn may lose a player
(sometimes two in one hand, with their starting stacks, and the dealer says
"same hand"), may call the clock, and reports "hand done". The engine
balances, breaks tables, starts hand-for-hand on the bubble and forms the
final table exactly as it would on a Saturday night. A director uses it to try
a structure; the tests use it to check the rules at scale.

``forgetful``: the share of hands after which the dealer forgets "hand done"
(000 3.11: where the players deal, they often do). The next bust at that table
catches it up; during hand-for-hand nobody forgets, the whole room waits for
the table that has not reported.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.engine.results import ResultRow, results_json, score
from controller.engine.rules import chip_counts, entries, rounds
from controller.engine.rules.prize_pool import prize_pool
from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Event, Tournament
from controller.log.floor import Floor

#: seconds of tournament time one round of hands takes at every table
HAND_SECONDS = 150.0


@dataclass
class Simulation:
    """What a simulated tournament produced."""

    tournament: Tournament
    results: list[ResultRow]
    hands: int = 0
    rounds: int = 0
    #: hands after which the dealer forgot "hand done"
    forgotten: int = 0
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
            "hands_done_forgotten": self.forgotten,
            "hands_done_caught_up": sum(1 for e in self.events
                                        if e["type"] == "hand_done" and e.get("missed")),
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
            # 000 4.17: the lists drawn and the knock-outs of a name on one's list
            **({} if t.settings.points.bounty != "mystery" else {
                "mystery_lists": len(t.mystery_lists),
                "mystery_hits": sum(r.bounty_hits for r in self.results)}),
            # issue 30: only a tournament for money has one (amounts in cents)
            **({} if (pool := prize_pool(t)) is None else {"prize_pool": pool.as_dict()}),
        }

    def as_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "results": results_json(self.results),
                "moves": self.moves(), "events": self.events}


def simulate(settings: TournamentSettings, players: int, seed: int, *,
             store: str = ":memory:", bust_rate: float = 0.12, forgetful: float = 0.0,
             timer: Callable[[], float] = time.perf_counter) -> Simulation:
    """Play a whole tournament of ``players`` with seeded random dealers until one is left.

    ``store``: the SQLite event log, a path that does not exist yet (``":memory:"`` for a
    throwaway run); :class:`~controller.log.store.NotALog` for one that exists.
    ``forgetful``: share (0-1) of hands whose "hand done" the dealer forgets.
    ``timer`` measures each bust (decision plus durable write) for the benchmark.
    """
    if players < 2:
        raise ValueError("a tournament needs at least two players")
    if not 0.0 <= forgetful <= 1.0:
        raise ValueError(f"forgetful must be a share from 0 to 1, got {forgetful}")
    rng = random.Random(seed)
    floor = Floor.open(settings, store, seed=seed, new=True)  # never on a log that exists
    t = floor.tournament
    sim = Simulation(t, [])
    now = 0.0

    def run(cmd: dict[str, Any]) -> bool:
        answer = floor.execute(cmd, now)
        return bool(answer["ok"])

    late = players // 10 if settings.entries.late_registration_levels else 0
    run({"cmd": "register", "names": [f"Player {i:04d}" for i in range(1, players - late + 1)]})
    if settings.mode.kind == "landesliga_final":
        _landesliga_points(floor, rng, now)
    if settings.points.bounty == "mystery":
        _mystery_lists(floor, seed, now)
    drawn = floor.execute({"cmd": "draw", "seed": rng.randrange(2**32)}, now)
    if not drawn["ok"]:
        floor.close()
        raise ValueError(f"the draw was refused: {drawn['reason']}")
    run({"cmd": "start"})
    late_no = players - late
    day = settings.play_day.enabled
    while not floor.tournament.finished:
        t = floor.tournament
        if day and not _next_table_game(floor, rng, now, players):
            break  # a play day (003 6): every table game is over
        sim.rounds += 1
        now += HAND_SECONDS
        run({"cmd": "tick"})
        if _end_round(floor, rng, now):
            continue
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
            sim.hands += 1
            # only drawn when asked for, so a run without it stays what it always was
            if forgetful and not floor.tournament.hfh.on and rng.random() < forgetful:
                sim.forgotten += 1
                continue
            run({"cmd": "hand_done", "table": number})
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


def _landesliga_points(floor: Floor, rng: random.Random, now: float) -> None:
    """000 4.18: the sit & go round's places give the points (20-17-15-…, then 0)."""
    from controller.engine.points import landesliga_points

    ids = sorted(p.id for p in floor.tournament.players.values())
    rng.shuffle(ids)
    per = floor.tournament.settings.players_per_table
    rows = [{"player": pid, "points": landesliga_points(i % per + 1)} for i, pid in enumerate(ids)]
    floor.execute({"cmd": "landesliga_points", "points": rows}, now)


def _mystery_lists(floor: Floor, seed: int, now: float) -> None:
    """000 4.17: "jeder Spieler erhält vor dem Turnierstart eine Liste mit 5 Namen": the
    night's draw of envelopes, each player's list the director types in, before the
    draw of the seats. From a generator of its own, so the night's play (the seats, the
    busts) is the one the same seed plays without the lists."""
    t = floor.tournament
    draw = random.Random(f"mystery lists {seed}")
    ids = sorted(p.id for p in t.players.values() if not p.ghost)
    size = min(t.settings.points.mystery_names, len(ids) - 1)
    for pid in ids:
        names = draw.sample([o for o in ids if o != pid], size)
        answer = floor.execute({"cmd": "mystery_list", "player": pid, "names": names}, now)
        if not answer["ok"]:
            raise RuntimeError(f"a mystery list was refused: {answer['reason']}")


def _end_round(floor: Floor, rng: random.Random, now: float) -> bool:
    """Play the clock, restart, multi-round (000 4.14, 4.15, 4.19): the director ends a round
    once its time is played (or its last player won it), with every stack counted where the
    round's end counts them; a restarted clock is started again. Whether a round ended."""
    t = floor.tournament
    kind = t.settings.mode.kind
    if kind not in rounds.ROUND_MODES or t.finished:
        return False
    if kind != rounds.PLAY_THE_CLOCK and not rounds.preliminary(t):
        return False
    if rounds.round_due(t, now) is not None:
        return False
    decided = sum(1 for p in t.players.values() if not p.out and not p.ghost) <= 1
    counts = [] if decided and kind == rounds.MULTI_ROUND else _counts(t, rng)
    answer = floor.execute({"cmd": "end_round", "counts": counts}, now)
    if not answer["ok"]:
        raise RuntimeError(f"the round's end was refused: {answer['reason']}")
    if not floor.tournament.clock.running and not floor.tournament.finished:
        floor.execute({"cmd": "resume"}, now)
    return True


def _counts(t: Tournament, rng: random.Random) -> list[dict[str, int]]:
    """Every stack in play, drawn at random, adding up to the chips in play."""
    ins = sorted(p.id for p in chip_counts.in_play(t))
    total = chip_counts.chips_in_play(t)
    weights = [rng.randint(1, 100) for _ in ins]
    chips = [max(1, total * w // sum(weights)) for w in weights]
    chips[chips.index(max(chips))] += total - sum(chips)
    return [{"player": pid, "chips": c} for pid, c in zip(ins, chips, strict=True)]


def _next_table_game(floor: Floor, rng: random.Random, now: float, players: int) -> bool:
    """A play day: free players sit down for another table game while the day is young
    (about one table more per ten players); ``False`` when no table is in play any more."""
    t = floor.tournament
    free = [p.id for p in t.players.values() if p.table is None and not p.ghost]
    per = t.settings.players_per_table
    if len(free) >= max(3, per // 2) and len(t.games) < (players * 2) // per + 1:
        chosen = rng.sample(free, min(per, len(free)))
        floor.execute({"cmd": "table_game", "players": chosen}, now)
    return bool(floor.tournament.tables)


def _deal_hand(floor: Floor, number: int, rng: random.Random, now: float, sim: Simulation,
               timer: Callable[[], float]) -> None:
    t = floor.tournament
    tab = t.tables[number]
    if rng.random() < 0.03:
        # the call names a seat (001 §1 VI: once per player and hand where the preset says)
        call: dict[str, Any] = {"cmd": "time_call", "table": number}
        if tab.occupant:
            call["seat"] = min(tab.occupant)
        floor.execute(call, now)
        if rng.random() < 0.5:
            floor.execute({"cmd": "time_call", "table": number, "op": "cancel"}, now + 30)
        # otherwise the player takes all the time: the engine expires the call by itself
        # once its seconds and countdown are over (the next hand or tick)
    if not tab.occupant or rng.random() >= sim_bust_rate(t):
        return
    seats = sorted(tab.occupant)
    out = rng.sample(seats, 2 if len(seats) > 3 and rng.random() < 0.1 else 1)
    stacks = [rng.choice([1000, 2000, 2000, 5000]) for _ in out]
    for i, (seat, stack) in enumerate(zip(out, stacks, strict=True)):
        t = floor.tournament
        now_at = t.tables.get(number)
        if now_at is None or seat not in now_at.occupant or t.finished:
            return
        tab = now_at
        pid = tab.occupant[seat]
        others = [p for s, p in tab.occupant.items() if s != seat and not t.players[p].ghost]
        by = rng.choice(others) if others else None
        start = timer()
        # the second of two is out in the same hand, and the dealer says so; a player who
        # moved here and has not been marked seated is confirmed (the dealer saw the bust)
        answer = floor.execute({"cmd": "bust", "table": number, "seat": seat, "stack": stack,
                                "by": by, "same_hand": i > 0, "confirm": True}, now)
        sim.bust_seconds.append(timer() - start)
        if not answer["ok"]:
            continue
        _maybe_reenter(floor, pid, rng, now)


def sim_bust_rate(t: Tournament) -> float:
    """Chance that a hand at one table loses a player: steady, a little higher short-handed."""
    if t.settings.mode.kind == "play_the_clock":
        return 0.03  # 000 4.15: no blind raise, players lose their stacks slowly
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
