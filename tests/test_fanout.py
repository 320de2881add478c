"""Issue 15: a command republishes exactly the retained views whose content changed.

The service recomputes only the table views a command's events touched
(controller/service/fanout.py). The net: every command of whole simulated tournaments
(every sample tournament file, with dealers who forget "hand done", undos,
renames) is followed by a full recompute of every state topic, which must
equal what the broker was sent — nothing missed — and the topics sent must be
exactly those whose payload changed — nothing republished for nothing.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from controller.config import load_tournament
from controller.engine.rules import hands
from controller.log.floor import Floor
from controller.service import views
from controller.service.core import ControllerService
from controller.simulate import simulate
from controller.wire import protocol
from controller.wire.mqtt import Broker

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENTS = sorted((ROOT / "config/tournaments").glob("*.yaml"))


class _Broker:
    """Collects what the service publishes."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.sent.append(topic)


class _Checked:
    """The service around the simulator's floor: after every command, what was published
    is compared with a full recompute."""

    def __init__(self, settings: Any, seed: int) -> None:
        self.now = 1_760_036_400.0
        self.svc = ControllerService(settings, ":memory:", Broker(prefix="floorman/fan"),
                                     wall=lambda: self.now)
        self.svc._sweep = lambda: None  # type: ignore[method-assign]  # the net under test
        self.broker = _Broker()
        self.svc.mqtt = self.broker  # type: ignore[assignment]
        self.rng = random.Random(seed)
        self.commands = 0
        self.partial = 0  # commands that recomputed some tables, not all
        self.levels = 0  # level changes: every table, once a level (000 9.6, hand_level)
        self.busy = False

    def attach(self, floor: Floor) -> None:
        self.svc.floor = floor
        self.svc.publish_state()

    def full(self) -> dict[str, bytes]:
        return {topic: protocol.dumps(data)
                for topic, data in self.svc.state_messages().items()}

    def after(self, floor: Floor, command: dict[str, Any], answer: dict[str, Any],
              now: float) -> None:
        svc = self.svc
        self.now = now + 1_760_036_400.0
        if svc.floor is not floor:
            self.attach(floor)
            return
        # what the passing time made: the service's tick looks every half second
        if flipped := svc._hand_done_flips(self.now):
            svc.publish_state(only={"tables"}, tables=flipped)
        t = svc.tournament  # the tick's look at every table at once is the rule's, per table
        assert svc._hand_done_due == {n for n in t.tables
                                      if hands.hand_done_due(t, n, self.now)}
        before = dict(svc._published)
        self.broker.sent.clear()
        if answer.get("ok") and answer.get("events"):
            only, tables = svc._touched(answer["events"])
            self.partial += tables is not None
            self.levels += only == {"clock", "tables"}
            svc.publish_state(only, tables)
        self.commands += 1
        full = self.full()
        changed = {topic for topic, payload in full.items() if before.get(topic) != payload}
        sent = set(self.broker.sent)
        assert sent == changed, (command, "missed", sorted(changed - sent),
                                 "republished", sorted(sent - changed))
        assert len(self.broker.sent) == len(sent), "a topic sent twice in one command"
        assert all(svc._published[topic] == payload for topic, payload in full.items())


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[_Checked]:
    """Every floor the simulator opens reports its commands to a :class:`_Checked`."""
    made: list[_Checked] = []

    class CheckedFloor(Floor):
        def execute(self, command: dict[str, Any], now: float,
                    command_id: str | None = None) -> dict[str, Any]:
            check = made[-1]
            answer = super().execute(command, now, command_id)
            if check.busy:
                return answer
            check.busy = True
            try:
                check.after(self, command, answer, now)
                # a table undoes a bust now and then, and the bust is pressed again: the
                # undo's views are those of the undone command
                if command.get("cmd") == "bust" and answer.get("ok") \
                        and check.rng.random() < 0.15:
                    undo = super().execute({"cmd": "undo", "table": command["table"]}, now)
                    check.after(self, {"cmd": "undo"}, undo, now)
                    again = super().execute(command, now)
                    check.after(self, command, again, now)
                if command.get("cmd") == "hand_done" and check.rng.random() < 0.02:
                    t = self.tournament
                    pid = next(iter(sorted(t.tables[command["table"]].occupant.values())),
                               None) if command["table"] in t.tables else None
                    if pid is not None and not t.players[pid].ghost:
                        name = f"Renamed {check.commands}"
                        ren = super().execute({"cmd": "rename", "player": pid,
                                               "name": name}, now)
                        check.after(self, {"cmd": "rename"}, ren, now)
            finally:
                check.busy = False
            return answer

    monkeypatch.setattr("controller.simulate.Floor", CheckedFloor)
    return made


@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_a_command_publishes_exactly_the_views_it_changed(
        path: Path, checked: list[_Checked]) -> None:
    """Issue 15: nothing missed, nothing republished, over whole simulated nights."""
    settings = load_tournament(path)
    checked.append(_Checked(settings, 5))
    # a qualifier sit & go starts with 6-10 players (001 §2 III)
    simulate(settings, 10 if "qualifier" in path.stem else 45, 11, forgetful=0.2)
    check = checked[-1]
    assert check.commands > 30
    # most commands recompute a few tables, not every one (a draw, a final table, a new
    # level: all)
    assert check.partial > (check.commands - check.levels) // 2


def _started(players: int) -> tuple[ControllerService, _Broker, list[float]]:
    """The sample tournament in a service with ``players`` drawn and started, every view
    published; its broker and its clock."""
    settings = load_tournament(ROOT / "config/tournaments/sample.yaml")
    now = [1_760_036_400.0]
    svc = ControllerService(settings, ":memory:", Broker(prefix="floorman/fan"),
                            wall=lambda: now[0])
    svc.floor = Floor.open(settings, ":memory:", seed=3, now=now[0])
    broker = _Broker()
    svc.mqtt = broker  # type: ignore[assignment]
    for cmd in ({"cmd": "register", "names": [f"P{i}" for i in range(players)]},
                {"cmd": "draw", "seed": 1}, {"cmd": "start"}):
        assert svc.floor.execute(cmd, now[0])["ok"]
    svc.publish_state()
    return svc, broker, now


def test_a_press_at_a_festival_recomputes_its_own_tables_only() -> None:
    """Issue 15: a bust at one of 60 tables computes a handful of table views."""
    svc, broker, now = _started(600)
    computed: list[int] = []
    real = views.table_view

    def counting(t: Any, number: int, **kw: Any) -> dict[str, Any]:
        computed.append(number)
        return real(t, number, **kw)

    t = svc.tournament
    seat = min(t.tables[7].occupant)
    answer = svc.floor.execute({"cmd": "bust", "table": 7, "seat": seat}, now[0])
    broker.sent.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(views, "table_view", counting)
        svc.publish_state(*svc._touched(answer["events"]))
    # the table itself, and one table nobody touched to compare (sent only if it changed)
    assert sorted(computed) == [1, 7]
    assert sorted(broker.sent) == sorted({svc.topics.table_state(7), svc.topics.state("summary"),
                                          svc.topics.state("results")})


def test_a_bust_and_a_hand_done_at_200_tables_walk_no_table() -> None:
    """Issue 32.2: the command's work does not grow with the tables. A bust at one of 200
    full tables makes and serialises two table views (its own, one to compare); neither it
    nor a hand done looks at every table: the seats kept for arrivals (rules/reserve.py)
    and the largest table (TDA 11D's short table, rules/seating.py ``short``) are counts the
    folds keep. Before, a hand done asked every table its count and a bust walked every
    table's reserve seats (the controller's CPU a bust 1.57× at 1,000 tables of 10's)."""
    from controller.engine.table import Table

    svc, broker, now = _started(1800)
    t = svc.tournament
    assert len(t.tables) == 200
    made: list[int] = []
    dumped: list[str] = []
    asked: list[int] = []
    real_view, real_dumps = views.table_view, protocol.dumps
    real_count, real_free = Table.count, Table.free_seats

    def view(t: Any, number: int, **kw: Any) -> dict[str, Any]:
        made.append(number)
        return real_view(t, number, **kw)

    def dumps(data: Any) -> bytes:
        if isinstance(data, dict) and "seats" in data:
            dumped.append(str(data.get("table")))
        return real_dumps(data)

    def count(self: Table) -> int:
        asked.append(self.number)
        return real_count(self)

    def free_seats(self: Table) -> list[int]:
        asked.append(self.number)
        return real_free(self)

    class Watched(dict):  # every walk over the tables (len() and lookups are no walk)
        def values(self):  # type: ignore[override]
            asked.extend(self)
            return super().values()

        def items(self):  # type: ignore[override]
            asked.extend(self)
            return super().items()

    seat = min(t.tables[7].occupant)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(t, "tables", Watched(t.tables))
        mp.setattr(views, "table_view", view)
        mp.setattr(protocol, "dumps", dumps)
        mp.setattr(Table, "count", count)
        mp.setattr(Table, "free_seats", free_seats)
        answer = svc.floor.execute({"cmd": "bust", "table": 7, "seat": seat}, now[0])
        assert answer["ok"], answer
        broker.sent.clear()
        svc.publish_state(*svc._touched(answer["events"]))
        assert sorted(made) == [1, 7] and len(dumped) == 2
        assert len(set(asked)) <= 2, f"the bust asked {len(set(asked))} tables"
        asked.clear()
        answer = svc.floor.execute({"cmd": "hand_done", "table": 9}, now[0] + 60)
        assert answer["ok"], answer
        svc.publish_state(*svc._touched(answer["events"]))
        assert len(set(asked)) <= 2, f"a hand done asked {len(set(asked))} tables"


def test_the_structure_is_made_again_only_when_the_settings_change() -> None:
    """The structure view is made of the settings alone (0.2 ms a command at a festival):
    a bust does not make it; a structure change, and its undo, do, and are published."""
    svc, broker, now = _started(30)
    made: list[tuple[Any, ...]] = []
    real = views.structure_view

    def counting(t: Any) -> dict[str, Any]:
        made.append(tuple(lv.seconds for lv in t.settings.structure))
        return real(t)

    structure = svc.topics.state("structure")

    def run(cmd: dict[str, Any]) -> None:
        answer = svc.floor.execute(cmd, now[0])
        assert answer["ok"], answer
        broker.sent.clear()
        svc.publish_state(*svc._touched(answer["events"]))

    first = tuple(lv.seconds for lv in svc.tournament.settings.structure)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(views, "structure_view", counting)
        run({"cmd": "bust", "table": 1, "seat": min(svc.tournament.tables[1].occupant)})
        assert made == [] and structure not in broker.sent
        run({"cmd": "structure", "op": "minutes", "from_level": 5, "minutes": 45})
        assert len(made) == 1 and made[0] != first and structure in broker.sent
        run({"cmd": "undo"})
        assert made[1:] == [first] and structure in broker.sent
        run({"cmd": "hand_done", "table": 1})
        assert len(made) == 2 and structure not in broker.sent


def test_every_table_events_are_real_event_types() -> None:
    """The events that reseat the room are named as the engine names them: the final
    table's draw and a play day's table game once went by misspelt names."""
    from controller.engine import events as ev
    from controller.service import fanout

    known = {cls.model_fields["type"].default for cls in ev.Event.__subclasses__()}
    assert fanout.EVERY_TABLE <= known
    assert {"final_table", "table_game", "seats_drawn"} <= fanout.EVERY_TABLE
    final = {"type": "final_table", "seq": 9, "table": 1, "seats": [[4, 1, 3]]}
    assert fanout.referenced([final]) is None
