"""docs/protocol.md is the contract: every example in it fits the code's schemas, every kind
of payload has one, and every payload the real controller produces fits the same schemas.

An example is a ```json block right after a line ``<!-- example: KIND -->`` (KIND: the
topic below the prefix); see "About the examples" at the top of the document.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from controller.config import load_tournament
from controller.log.floor import Floor
from controller.service.core import ControllerService
from controller.simulate import simulate
from controller.wire import protocol
from controller.wire.mqtt import Broker
from controller.wire.protocol import ProtocolError

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
_EXAMPLE = re.compile(r"^<!-- example: (\S+) -->\n```json\n(.*?)\n```$", re.S | re.M)
_FENCE = re.compile(r"^```json\s*$", re.M)


def _examples() -> list[tuple[str, int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2))
            for m in _EXAMPLE.finditer(text)]


EXAMPLES = _examples()


def test_the_document_has_examples():
    assert len(EXAMPLES) >= 20


def test_every_json_block_is_a_tagged_example():
    text = DOC.read_text(encoding="utf-8")
    fences = [text.count("\n", 0, m.start()) + 1 for m in _FENCE.finditer(text)]
    tagged = {line + 1 for _, line, _ in EXAMPLES}
    untagged = [n for n in fences if n not in tagged]
    assert not untagged, (f"```json blocks without a '<!-- example: KIND -->' line right "
                          f"before them at lines {untagged}")


@pytest.mark.parametrize(("kind", "line", "body"), EXAMPLES,
                         ids=[f"{k}@{n}" for k, n, _ in EXAMPLES])
def test_example_fits_the_schema(kind: str, line: int, body: str):
    try:
        payload = json.loads(body)
    except ValueError as exc:
        pytest.fail(f"docs/protocol.md:{line}: the {kind} example is not JSON: {exc}")
    try:
        protocol.validate_example(kind, payload)
    except ProtocolError as exc:
        pytest.fail(f"docs/protocol.md:{line}: the {kind} example breaks the schema: {exc}")


def test_every_kind_of_payload_has_an_example():
    have = {protocol.example_family(k) for k, _, _ in EXAMPLES}
    missing = [k for k in protocol.EXAMPLE_KINDS if k not in have]
    assert not missing, f"docs/protocol.md has no example of {', '.join(missing)}"
    unknown = sorted(have - set(protocol.EXAMPLE_KINDS))
    assert not unknown, f"examples of kinds the protocol does not know: {unknown}"


def test_every_director_command_has_an_example_and_a_row():
    text = DOC.read_text(encoding="utf-8")
    shown = {json.loads(b)["cmd"] for k, _, b in EXAMPLES if k == "cmd/director"}
    assert set(protocol.DIRECTOR_COMMANDS) - shown == set()
    assert [c for c in protocol.DIRECTOR_COMMANDS if f"| `{c}` |" not in text] == []


def test_every_table_action_has_an_example_and_a_row():
    text = DOC.read_text(encoding="utf-8")
    shown = {json.loads(b)["action"] for k, _, b in EXAMPLES if k.startswith("cmd/table/")}
    assert set(protocol.TABLE_ACTIONS) - shown == set()
    assert [a for a in protocol.TABLE_ACTIONS if f"| `{a}` |" not in text] == []


def test_every_ack_shape_has_an_example():
    acks = [json.loads(b) for k, _, b in EXAMPLES if k.startswith("ack/")]
    assert any(a["ok"] and "events" in a for a in acks)
    assert any(a["ok"] and "result" in a for a in acks)
    assert any(not a["ok"] for a in acks)


def test_every_state_topic_is_in_the_topic_table():
    text = DOC.read_text(encoding="utf-8")
    for name in protocol.STATE:
        topic = "P/state/table/<n>" if name == "table" else f"P/state/{name}"
        assert f"| `{topic}` |" in text, topic
    for topic in ("P/cmd/director", "P/cmd/table/<n>", "P/ack/<client>",
                  "P/time/request/<client>", "P/time/response/<client>", "P/presence/<client>"):
        assert f"| `{topic}` |" in text, topic


# ------------------------------------------------- the real payloads fit the schemas
class _Service(ControllerService):
    """The real service without a broker: acks are collected instead of published."""

    def __init__(self, settings: Any, clock: list[float]) -> None:
        super().__init__(settings, ":memory:", Broker(prefix="floorman/test"),
                         wall=lambda: clock[0])
        self.floor = Floor.open(settings, ":memory:", seed=7, now=clock[0])
        self.acks: list[dict[str, Any]] = []

    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        protocol.validate_ack(answer)
        self.acks.append(answer)


def _check_state(svc: ControllerService, moment: str) -> dict[str, dict[str, Any]]:
    msgs = svc.state_messages()
    prefix = svc.topics.prefix + "/state/"
    for topic, payload in msgs.items():
        name = topic[len(prefix):]
        # through JSON, as a client receives it
        wire = json.loads(protocol.dumps(payload))
        try:
            protocol.validate_state(name, wire)
        except ProtocolError as exc:
            pytest.fail(f"{moment}: state/{name} breaks the schema: {exc}")
    return {t[len(prefix):]: p for t, p in msgs.items()}


_MOMENTS = {"a table broke", "final table", "moves pending"}
#: tournament file → the moments a 25-player evening of it must pass through
TOURNAMENTS = {
    "sample.yaml": _MOMENTS | {"hand-for-hand"},
    "psc-rebuy-evening.yaml": _MOMENTS,
    "venue-faq-turbo-6max.yaml": _MOMENTS,
    # 003 6: table games, nobody moved; 001 §2 III: one table of 6-10
    "ace-of-spades-playday.yaml": {"table games"},
    "pokerlounge-qualifier.yaml": set(),
}


@pytest.mark.parametrize("file", sorted(TOURNAMENTS))
def test_every_payload_of_a_tournament_fits_the_schemas(file: str):
    path = ROOT / "config" / "tournaments" / file
    if not path.exists():
        pytest.skip(f"{file} is not there")
    settings = load_tournament(path)
    clock = [1_760_036_400.0]
    svc = _Service(settings, clock)
    rng = random.Random(file)
    ids = iter(range(1, 10**6))

    def director(cmd: str, **args: Any) -> dict[str, Any]:
        svc.handle(svc.topics.director, protocol.dumps(
            {"v": 1, "id": f"d{next(ids)}", "reply_to": "director-x", "cmd": cmd, "args": args}))
        return svc.acks[-1]

    def press(table: int, action: str, **fields: Any) -> dict[str, Any]:
        svc.handle(svc.topics.table_cmd(table), protocol.dumps(
            {"v": 1, "id": f"t{next(ids)}", "reply_to": f"table-{table}", "action": action,
             **fields}))
        return svc.acks[-1]

    seen: set[str] = set()
    names = [f"Player {i:02d} Nachname" for i in range(1, 26)]
    if settings.points.system == "qualifier":
        names = names[:10]  # 001 §2 III: a qualifier seats 6-10
    assert director("register", names=names[:20])["ok"]
    if names[20:]:
        assert director("register", names=names[20:], member=False)["ok"]
    _check_state(svc, "before the draw")
    assert director("draw")["ok"]
    for client, presence in (("table-1", {"v": 1, "online": True, "role": "table", "table": 1}),
                             ("wall-1", {"v": 1, "online": True, "role": "wall", "table": None}),
                             ("table-2", {"v": 1, "online": False, "role": "table",
                                          "table": 2}),
                             ("gone", b"")):
        svc.handle(svc.topics.presence(client), presence if isinstance(presence, bytes)
                   else protocol.dumps(presence))
    _check_state(svc, "drawn, not started")
    assert director("start")["ok"]
    clock[0] += 30
    # the call names the selected seat (001 §1 VI: once per player and hand, Pokerlounge)
    assert press(1, "time", seat=min(svc.tournament.tables[1].occupant))["ok"]
    _check_state(svc, "running, a time call")
    for cmd in ("status", "results", "moves", "players"):
        assert director(cmd)["ok"]
    assert director("pause")["ok"]
    _check_state(svc, "paused")
    assert director("resume")["ok"]

    steps = 0
    while not svc.tournament.finished and svc.tournament.tables:
        steps += 1
        assert steps < 500, "the tournament did not finish"
        t = svc.tournament
        clock[0] += 240
        svc.tick()
        number = rng.choice(sorted(t.tables))
        seats = sorted(s for s, p in t.tables[number].occupant.items()
                       if not t.players[p].ghost)
        if seats and not (t.hfh.on and number in t.hfh.done):
            answer = press(number, "bust", seat=rng.choice(seats), stack=rng.choice([800, 2000]))
            if answer["ok"] and rng.random() < 0.3:
                player = svc.tournament.log[answer["events"][0] - 1]["player"]
                director("rebuy", player=player)  # accepted or rejected: both are answers
        for n in sorted(svc.tournament.tables):
            tt = svc.tournament
            if tt.finished or (tt.hfh.on and n in tt.hfh.done):
                continue
            press(n, "hand_done")
            if n in svc.tournament.tables and svc.tournament.tables[n].holds:
                # TDA 11D: a short table waits; its button box says the arrivals sat down
                assert press(n, "seated")["ok"]
            state = _check_state(svc, f"step {steps}")
            t = svc.tournament
            if t.hfh.on:
                seen.add("hand-for-hand")
            if any(v.get("in_play") is False for k, v in state.items() if k.startswith("table/")):
                seen.add("a table broke")
            if t.final_table is not None:
                seen.add("final table")
            if state["moves"]["pending"]:
                seen.add("moves pending")
            if len(t.games) > 1:
                seen.add("table games")
    state = _check_state(svc, "finished")
    if settings.play_day.enabled:  # the day goes on: every table game is over
        assert all(g.over for g in svc.tournament.games.values())
        assert state["results"]["rows"][0]["attendance"] == 1
    else:
        assert state["summary"]["finished"] and state["results"]["finished"]
    assert TOURNAMENTS[file] <= seen, seen
    assert director("results")["ok"]


def test_the_simulated_tournament_end_state_fits_the_schemas():
    settings = load_tournament(ROOT / "config" / "tournaments" / "sample.yaml")
    sim = simulate(settings, 60, 3)
    svc = ControllerService(settings, ":memory:", Broker(prefix="floorman/sim"),
                            wall=lambda: 1_760_036_400.0)
    svc.floor = Floor(settings, None, sim.tournament)  # type: ignore[arg-type]
    state = _check_state(svc, "simulated to the end")
    assert state["summary"]["finished"]
    # every table that was ever in play keeps its retained topic (54 drawn on 6 tables; the
    # 6 late entries take the tenth seats, 000 4.3, so no seventh table opens)
    t = sim.tournament
    ever = set(t.broken) | set(t.tables)
    assert sum(1 for k in state if k.startswith("table/")) == len(ever) >= 6


def test_the_time_response_fits_the_schema():
    clock = iter([1_760_036_400.25, 1_760_036_400.2502])
    svc = ControllerService(load_tournament(ROOT / "config/tournaments/sample.yaml"),
                            ":memory:", Broker(prefix="floorman/t"), wall=lambda: next(clock))
    sent: list[tuple[str, bytes]] = []

    class Client:
        def publish(self, topic: str, payload: bytes, qos: int = 0) -> None:
            sent.append((topic, payload))

    msg = mqtt.MQTTMessage(topic=b"floorman/t/time/request/table-1")
    msg.payload = protocol.dumps({"v": 1, "id": 1, "t0": 5123.25})
    svc._on_message(Client(), None, msg)  # type: ignore[arg-type]
    ((topic, payload),) = sent
    assert topic == "floorman/t/time/response/table-1"
    assert protocol.validate_example("time/response/table-1", json.loads(payload))["t0"] == 5123.25


def test_every_director_row_names_exactly_the_defined_arguments():
    """docs/protocol.md's table of director commands follows the commands' one definition
    (controller/engine/commands.py): every argument is named in its row, and no other."""
    from controller.engine import commands

    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Director commands"):]
    section = section[:section.index("\n### ", 1)]
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[2]
            for line in section.splitlines() if line.startswith("| `")}
    for cmd in protocol.DIRECTOR_COMMANDS:
        if cmd in protocol.READ_ONLY:
            continue
        args_cell = rows[cmd]
        named = set(re.findall(r"`([a-z_]+)`", args_cell))
        defined = set(commands.arguments(cmd))
        assert defined <= named, f"{cmd}: docs/protocol.md does not name {defined - named}"
        # words in backticks that are neither an argument nor a value of one
        values = {v for a in commands.BY_NAME[cmd].model_fields.values()
                  for v in re.findall(r"'([a-z_]+)'", repr(a.annotation))}
        nested = {k for a in commands.BY_NAME[cmd].model_fields.values()
                  for k in getattr(a.annotation, "model_fields", {})}
        for a in commands.BY_NAME[cmd].model_fields.values():
            for inner in getattr(a.annotation, "__args__", ()):
                nested |= set(getattr(inner, "model_fields", {}))
        assert named - defined - values - nested == set(), cmd
