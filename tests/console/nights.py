"""Nights in every state for the console's page tests, played on the pure engine: the state
the controller would publish (its views), the ``players`` and ``history`` answers, and a
hub that holds them, so the console renders every page without a broker (issue 28.8)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.config import load_tournament
from controller.console.hub import desk_of
from controller.engine import history
from controller.engine.tournament import Rejected, Tournament
from controller.service import views
from tests.support.paths import ROOT

REBUY_NIGHT = ROOT / "config" / "tournaments" / "psc-rebuy-evening.yaml"
#: what the director types in the nights (a penalty's reason, an announcement): their own
#: words in any language, left out of the language checks like the names
TYPED = ["Handy am Tisch", "Karten geworfen", "Chips weitergegeben", "Add-on 10.000"]
#: the night's start: a Friday evening, 27 November 2026, 19:30 UTC (a sheet's date)
T0 = 1_795_807_800.0
NAMES = ["Rüdiger Lauterbach-Schönefeld", "Anna Schmidt", "Ben Meyer", "Cem Yilmaz",
         "Dora Wagner", "Emil Becker", "Fritz Hoffmann", "Greta Schulz", "Hakan Demir",
         "Ida Koch", "Jonas Richter", "Klara Wolf", "Lena Braun", "Mats Keller",
         "Nora Vogel", "Olga Brandt", "Paul Krüger", "Rita Lange", "Sven Haas", "Tina Roth"]


def published(t: Tournament, now: float) -> dict[str, dict[str, Any]]:
    """The retained state (names without the prefix) as the controller publishes it."""
    plan = t.plan()
    pending = t.pending_moves()
    state: dict[str, dict[str, Any]] = {
        f"table/{n}": views.table_view(t, n, plan=plan, pending=pending, now=now)
        for n in sorted(set(t.tables) | set(t.broken))}
    state.update({"clock": views.clock_view(t, now), "moves": views.moves_view(t, plan=plan),
                  "results": views.results_view(t), "structure": views.structure_view(t),
                  "announcement": views.announcement_view(t),
                  "summary": views.summary_view(t),
                  "presence": {"v": 1, "clients": {
                      "table-2": {"role": "table", "table": 2, "online": False}}}})
    return state


@dataclass
class StillHub:
    """What :class:`controller.console.hub.Hub` gives the pages, standing still: the state,
    the answers, the controller's time; a command is answered by ``answer``."""

    state: dict[str, dict[str, Any]]
    players: list[dict[str, Any]]
    history: list[dict[str, Any]]
    at: float
    results: dict[str, Any] = field(default_factory=dict)
    answer: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
    version: int = 1
    link_up: bool = True
    controller_online: bool | None = True
    #: the registration desk as the hub keeps it from the ``players`` answer (issue 31)
    desk: dict[str, Any] = field(default_factory=dict)

    def now(self) -> float:
        return self.at

    async def players_now(self) -> list[dict[str, Any]]:
        return self.players

    async def send(self, cmd: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        if cmd == "results":
            return {"ok": True, "result": self.results}
        if self.answer is not None:
            return self.answer(cmd, args or {})
        return {"ok": False, "reason": "no controller here"}

    async def wait(self, version: int, timeout: float) -> int:
        if version == self.version:  # nothing changes: a stream only keeps alive
            await asyncio.sleep(min(timeout, 1.0))
        return self.version

    async def start(self) -> None:
        """Nothing to connect to (the console's lifespan starts a hub)."""

    async def stop(self) -> None:
        """Nothing to let go."""


def hub_of(t: Tournament, now: float) -> StillHub:
    answer = views.players_view(t)
    return StillHub(published(t, now), answer["players"], history.recent(t, 30), now,
                    views.results_view(t, whole=True), desk=desk_of(answer))


def _bust(t: Tournament, name: str, now: float, **more: Any) -> None:
    t.execute({"cmd": "bust", "player": name, **more}, now)


def nights() -> dict[str, tuple[Tournament, float]]:
    """A German rebuy night of 20 players at each moment the console shows differently:
    ``registered`` (before the draw), ``running`` (busts, two out in one hand, a rebuy, a
    move due, a time call, a count, an announcement), ``colour_up`` (the break after level
    4 with its chip race and the add-on), ``hand_for_hand`` (a table broken by the
    director), ``final`` (the final table) and ``finished`` (the champion)."""
    import dataclasses

    # three tables of at most 8: a balancing move, a table the director breaks, the final
    settings = dataclasses.replace(load_tournament(REBUY_NIGHT), language="de",
                                   players_per_table=8)
    out: dict[str, tuple[Tournament, float]] = {}
    t = Tournament.new(settings, 7, T0)
    t.execute({"cmd": "register", "names": NAMES[:18]}, T0 + 1)
    t.execute({"cmd": "register", "names": NAMES[18:], "member": False}, T0 + 2)
    out["registered"] = (Tournament.replay(t.log), T0 + 3)

    t.execute({"cmd": "draw"}, T0 + 10)
    t.execute({"cmd": "start"}, T0 + 20)
    now = T0 + 30
    seated = {p.name: p for p in t.players.values() if p.table is not None}
    table1 = sorted((p for p in seated.values() if p.table == 1), key=lambda p: p.seat)
    _bust(t, table1[0].name, now, stack=3000)
    _bust(t, table1[1].name, now + 1, stack=5000, same_hand=True)
    t.execute({"cmd": "rebuy", "player": table1[0].name}, now + 5)
    t.execute({"cmd": "time_call", "table": 1, "op": "start", "seat": table1[2].seat}, now + 8)
    t.execute({"cmd": "chip_counts", "counts": [{"player": table1[3].name, "chips": 12000}]},
              now + 9)
    t.execute({"cmd": "announce", "text": "Add-on 10.000", "minutes": 10}, now + 10)
    t.execute({"cmd": "time", "op": "add", "seconds": 120}, now + 11)
    t.execute({"cmd": "undo"}, now + 11.5)  # the director's own undo: no "by itself"
    t.execute({"cmd": "time", "op": "add", "seconds": 60}, now + 11.8)
    # penalties (000 3.6-3.8): a warning, a sit-out, a disqualification
    t.execute({"cmd": "penalty", "player": table1[4].name, "kind": "warning",
               "reason": "Handy am Tisch"}, now + 11.6)
    t.execute({"cmd": "penalty", "player": table1[5].name, "kind": "sit_out", "orbits": 1,
               "reason": "Karten geworfen"}, now + 11.7)
    t.execute({"cmd": "disqualify", "player": table1[6].name, "reason": "Chips weitergegeben"},
              now + 11.8)
    # the structure: a break inserted after level 6, levels from 8 on 15 minutes
    t.execute({"cmd": "structure", "op": "insert", "after": 6,
               "level": {"kind": "break", "minutes": 10}}, now + 11.9)
    t.execute({"cmd": "structure", "op": "minutes", "from_level": 8, "minutes": 15},
              now + 11.95)
    out["running"] = (Tournament.replay(t.log), now + 12)

    # busts at table 3: the others give it players at their HAND DONE (balancing)
    while not t.pending_moves():
        _bust(t, _someone(t, at=3), now)
        donor = max((n for n in t.tables if n != 3), key=lambda n: len(t.tables[n].occupant))
        t.execute({"cmd": "hand_done", "table": donor}, now + 0.5)
        now += 1
    out["moves_due"] = (Tournament.replay(t.log), now + 1)
    for m in t.pending_moves():
        t.execute({"cmd": "seated", "player": m.player}, now + 2)
    # entries are open (no table breaks by itself): the director breaks table 3 as soon
    # as the others have its seats, and plays hand-for-hand
    while True:
        try:
            t.execute({"cmd": "break_table", "table": 3}, now + 3)
            break
        except Rejected:
            _bust(t, _someone(t, at=3), now + 3)
            now += 1
    t.execute({"cmd": "hfh", "on": True}, now + 4)
    t.execute({"cmd": "hand_done", "table": 1}, now + 4.5)
    out["table_broken"] = (Tournament.replay(t.log), now + 5)
    t.execute({"cmd": "hfh", "on": False}, now + 6)
    for m in t.pending_moves():
        t.execute({"cmd": "seated", "player": m.player}, now + 7)

    # the break after level 4: its chip race (Chipraise 25) and the add-on
    now = _clock_to_break(t, now + 20)
    out["colour_up"] = (Tournament.replay(t.log), now + 5)
    t.execute({"cmd": "level", "to": "next"}, now + 10)
    # down to the final table, then to the champion
    now += 10
    while t.final_table is None:
        _bust(t, _someone(t, at=max(t.tables)), now)
        now += 1
    out["final"] = (Tournament.replay(t.log), now + 1)
    while not t.finished:
        _bust(t, _someone(t, at=t.final_table), now)
        now += 1
    out["finished"] = (Tournament.replay(t.log), now + 1)
    return out


def _clock_to_break(t: Tournament, now: float) -> float:
    """The level changed by hand until the clock stands in the first break."""
    from controller.service import views as v

    for _ in range(10):
        if v.clock_view(t, now)["current"]["is_break"]:
            return now
        t.execute({"cmd": "level", "to": "next"}, now)
        now += 1
    raise AssertionError("no break in the structure")


def _someone(t: Tournament, at: int) -> str:
    table = t.tables[at]
    return next(t.players[pid].name for _, pid in sorted(table.occupant.items())
                if not t.players[pid].ghost)
