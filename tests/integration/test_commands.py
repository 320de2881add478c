"""Commands over a real Mosquitto, with the controller in its own process:
duplicate ids are applied once, malformed input changes nothing, and the retained
state alone tells a late screen everything."""

from __future__ import annotations

import json
import time

from controller.log.store import EventStore
from controller.wire.mqtt import Broker
from controller.wire.protocol import MAX_PAYLOAD, Topics
from tests.support.controller import (
    director,
    floorman_json,
    start_tournament,
    status,
    wait_up,
)
from tests.support.eventlog import read_log
from tests.support.mqtt import Probe, retained_state
from tests.support.waiting import wait_for


def _seats(state: dict, table: int) -> list[int]:
    return [s["seat"] for s in state[f"table/{table}"]["seats"]]


def test_duplicate_director_command_is_applied_once(broker, prefix, controller_factory,
                                                    tmp_path):
    ctrl = controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)
    top = Topics(prefix)
    probe = Probe(broker.address, (top.ack("dup-director"),), client_id="dup-director")
    try:
        reg = {"v": 1, "id": "register-ann-bob", "reply_to": "dup-director", "cmd": "register",
               "args": {"names": ["Ann", "Bob"]}}
        for _ in range(3):
            probe.publish(top.director, reg)
        answers = probe.wait_on(top.ack("dup-director"), 3)
        assert answers[0]["ok"] and answers[0]["message"] == "registered 2 players: Ann, Bob"
        assert answers[1] == answers[0] and answers[2] == answers[0]

        director(b, "register", {"names": [f"P{i}" for i in range(10)]})
        director(b, "draw")
        result = floorman_json(b, "status")["result"]
        summary = result["summary"]
        assert summary["entries"] == 12 and summary["players_left"] == 12

        # a bust by the director, sent three times with one id: one player out
        table = result["tables"][0]
        seat = _seats(retained_state(b), table)[0]
        bust = {"v": 1, "id": "bust-1", "reply_to": "dup-director", "cmd": "bust",
                "args": {"table": table, "seat": seat}}
        for _ in range(3):
            probe.publish(top.director, bust)
        answers = probe.wait_on(top.ack("dup-director"), 6)[3:]
        assert answers[0]["ok"] and "out in place 12" in answers[0]["message"], answers[0]
        assert answers[1] == answers[0] and answers[2] == answers[0]
        summary = floorman_json(b, "status")["result"]["summary"]
        assert summary["players_left"] == 11
    finally:
        probe.close()
    assert ctrl.terminate() == 0
    with EventStore(tmp_path / "log.sqlite") as store:
        events = store.events()
        assert sorted(e["name"] for e in events if e["type"] == "registered") == \
            sorted(["Ann", "Bob"] + [f"P{i}" for i in range(10)])
        assert len([e for e in events if e["type"] == "busted"]) == 1
        # stored per sender (controller/service/inbound.py, scoped_id)
        assert store.answer("director/register-ann-bob")["ok"]
        assert store.answer("director/bust-1")["ok"]


def test_duplicate_table_press_is_applied_once(broker, prefix, controller_factory, tmp_path):
    controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b)
    top = Topics(prefix)
    seats = _seats(retained_state(b), 1)
    probe = Probe(broker.address, (top.ack("table-1"),), client_id="table-1")
    db = tmp_path / "log.sqlite"
    try:
        def press(cid: str, action: str, times: int, **fields: object) -> list[dict]:
            before = len(probe.on(top.ack("table-1")))
            msg = {"v": 1, "id": cid, "reply_to": "table-1", "action": action, **fields}
            for _ in range(times):
                probe.publish(top.table_cmd(1), msg)
            got = probe.wait_on(top.ack("table-1"), before + times)[before:]
            assert all(a["id"] == cid for a in got)
            return got

        a = press("press-bust", "bust", 2, seat=seats[0])
        assert a[0]["ok"] and "out in place 12" in a[0]["message"], a[0]
        assert a[1] == a[0]
        assert status(b)["summary"]["players_left"] == 11
        events, _ = read_log(db)
        assert len([e for e in events if e["type"] == "busted"]) == 1

        # hand done twice with one id: one hand
        a = press("press-hand", "hand_done", 3)
        assert a[0]["ok"] and a[1] == a[0] == a[2]
        events, _ = read_log(db)
        assert len([e for e in events if e["type"] == "hand_done"]) == 1

        # an undo pressed twice with one id undoes one press, and the resend is answered
        # with the same answer (not "nothing to undo")
        a = press("press-undo", "undo", 1)
        assert a[0]["ok"], a[0]
        a += press("press-undo", "undo", 1)
        assert a[1] == a[0]
        a = press("press-undo-2", "undo", 2)
        assert a[0]["ok"] and a[1] == a[0], a
        events, _ = read_log(db)
        assert len([e for e in events if e["type"] == "undo"]) == 2
        # both presses undone: the player is back
        assert status(b)["summary"]["players_left"] == 12
        a = press("press-undo-3", "undo", 1)
        assert not a[0]["ok"] and a[0]["reason"] == "nothing to undo at table 1"
    finally:
        probe.close()


def _snapshot(b: Broker) -> dict:
    """Everything the controller tells: the status summary and clock, every retained state
    topic (tables included) except the presence list."""
    st = status(b)
    state = retained_state(b)
    state.pop("presence")
    return {"summary": st["summary"], "clock": st["clock"], "state": state}


def test_malformed_input_changes_nothing(broker, prefix, controller_factory):
    ctrl = controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b)
    top = Topics(prefix)
    before = _snapshot(b)
    occupied = _seats(before["state"], 1)
    empty = next(s for s in range(1, before["state"]["table/1"]["size"] + 1)
                 if s not in occupied)
    # every answer: a table's go to ack/table-N whatever reply_to says (inbound.answer_to)
    probe = Probe(broker.address, (f"{prefix}/ack/#",), client_id="mal")

    def cmd(cid: str, **kw: object) -> dict:
        return {"v": 1, "id": cid, "reply_to": "mal", **kw}

    big = json.dumps(cmd("big", action="hand_done", pad="x" * (MAX_PAYLOAD + 10)))
    # deeper than Python's json can parse, smaller than the payload limit
    nested = b"[" * 8000 + b"]" * 8000
    nested_in = json.dumps(cmd("d-nested", cmd="register", args={"names": "@"})).replace(
        '"@"', "[" * 5000 + "]" * 5000)
    press = top.table_cmd(1)
    d = top.director
    # (topic, payload, words of the rejection reason (or alternatives), None: no answer)
    cases: list[tuple[str, bytes | str | dict, str | tuple[str, ...] | None]] = [
        # not JSON, not an object, no envelope: nobody to answer
        (d, b"not json {", None),
        (d, b"\xff\xfe\x00garbage", None),
        (d, "[1, 2, 3]", None),
        (d, '"register"', None),
        (d, {"v": 1, "reply_to": "mal", "cmd": "draw"}, None),  # missing id
        (d, b"", None),
        (press, b"not json", None),
        (d, nested, None),
        (d, nested_in, None),
        (press, nested, None),
        (top.time_request("X"), nested, None),
        (top.presence("X"), nested, None),
        (press, "[]", None),
        (press, {"v": 1, "reply_to": "mal", "action": "hand_done"}, None),  # missing id
        # an envelope: a rejection with a readable reason
        (d, cmd("d-v2", cmd="draw") | {"v": 2}, "schema version must be 1"),
        (d, cmd("d-v-missing", cmd="draw") | {"v": None}, "schema version must be 1"),
        (d, cmd("d-unknown", cmd="shuffle_up_and_deal"), "unknown command 'shuffle_up_and_deal'"),
        (d, cmd("d-tick", cmd="tick"), "unknown command 'tick'"),
        (d, cmd("d-args", cmd="register", args=["X"]), "'args' must be a JSON object"),
        (d, cmd("d-extra", cmd="draw", sudo=True), "unknown field(s) sudo"),
        (d, cmd("d-bust-empty", cmd="bust", args={"table": 1, "seat": empty}),
         f"seat {empty} at table 1 is empty"),
        (d, cmd("d-bust-table", cmd="bust", args={"table": 9, "seat": 1}),
         "table 9 is not in play"),
        (d, cmd("d-bust-str", cmd="bust", args={"table": "1", "seat": 1}),
         "table must be a whole number"),
        (d, cmd("d-draw-again", cmd="draw"), "the seats are already drawn"),
        (d, cmd("d-bad-args", cmd="start", args={"force": True}), "bad arguments for start"),
        # the validated command is the one executed: args cannot smuggle in another one
        (d, cmd("d-smuggle", cmd="hfh", args={"cmd": "undo"}),
         ("bad arguments for hfh", "'args' must not contain 'cmd'")),
        (d, big, None),  # oversized: dropped unread, so unanswered (docs/security.md)
        (press, cmd("t-v0", action="hand_done") | {"v": 0}, "schema version must be 1"),
        (press, cmd("t-seat-str", action="bust", seat="3"), "'seat' must be a whole number"),
        (press, cmd("t-seat-0", action="bust", seat=0), "'seat' must be a whole number"),
        (press, cmd("t-seat-true", action="bust", seat=True), "'seat' must be a whole number"),
        (press, cmd("t-seat-none", action="bust"), "'seat' must be a whole number"),
        (press, cmd("t-seat-float", action="bust", seat=3.0), "'seat' must be a whole number"),
        (press, cmd("t-stack", action="bust", seat=occupied[0], stack=-1),
         "'stack' must be a whole number"),
        (press, cmd("t-action", action="shove"), "'action' must be one of"),
        (press, cmd("t-action-none"), "'action' must be one of"),
        (press, cmd("t-extra", action="hand_done", table=2), "unknown field(s) table"),
        (press, cmd("t-empty", action="bust", seat=empty), f"seat {empty} at table 1 is empty"),
        (press, cmd("t-seat-big", action="bust", seat=99), "table 1 has seats"),
        (top.table_cmd(7), cmd("t-7", action="bust", seat=1), "table 7 is not in play"),
        (top.table_cmd(7), cmd("t-7-hand", action="hand_done"), "table 7 is not in play"),
        (top.table_cmd("abc"), cmd("t-abc", action="hand_done"),
         "table in the topic must be a number"),
        (top.table_cmd(0), cmd("t-0", action="hand_done"), "table in the topic must be a number"),
        (top.table_cmd("²"), cmd("t-sup2", action="hand_done"),
         "table in the topic must be a number"),
        (top.table_cmd("١"), cmd("t-arabic-1", action="hand_done"),
         "table in the topic must be a number"),
        (press, big.replace('"big"', '"t-big"'), None),
        (press, cmd("bad id with spaces", action="hand_done"), None),
        (press, {"v": 1, "id": "t-reply", "reply_to": "no/slashes", "action": "hand_done"},
         None),
        # clock-sync requests and presence: never answered when broken
        (top.time_request("X"), b"not json", None),
        (top.time_request("X"), "[]", None),
        (top.time_request("X"), {"v": 1, "id": "a"}, None),
        (top.time_request("X"), {"v": 1, "id": True, "t0": 1.0}, None),
        (top.time_request("X"), {"v": 1, "id": "a", "t0": "now"}, None),
        (top.time_request("X"), b'{"v": 1, "id": "a", "t0": NaN}', None),
        (top.time_request("X"), b'{"v": 1, "id": "a", "t0": Infinity}', None),
        (top.time_request("X"), {"v": 1, "id": "a", "t0": 1.0, "pad": "x" * MAX_PAYLOAD},
         None),
        (top.presence("X"), b"not json", None),
        (top.presence("X"), "[true]", None),
        (top.presence("X"), {"v": 1, "online": "yes", "role": "wall"}, None),
        (top.presence("X"), {"v": 1, "online": True, "role": "dealer"}, None),
        (top.presence("X"), {"v": 1, "online": True, "role": "table", "table": "3"}, None),
        (top.presence("X"), {"v": 2, "online": True, "role": "wall"}, None),
        # topics nobody listens on
        (f"{prefix}/cmd/table/1/extra", cmd("u-1", action="hand_done"), None),
        (f"{prefix}/cmd/undo", cmd("u-2", cmd="undo"), None),
        (f"{prefix}/cmd", cmd("u-3", cmd="undo"), None),
        (f"{prefix}/presence/X/extra", {"v": 1, "online": True, "role": "wall"}, None),
    ]
    try:
        probe_time = Probe(broker.address, (f"{prefix}/time/response/#",))
        for topic, payload, _ in cases:
            probe.publish(topic, payload)
        expected = {json.loads(p if isinstance(p, (str, bytes)) else json.dumps(p))["id"]: why
                    for _, p, why in cases if why is not None}
        # everything was handled: a valid query behind all of it is answered
        assert status(b)["summary"] == before["summary"]
        assert ctrl.proc is not None and ctrl.proc.poll() is None, ctrl.output()

        def answered() -> dict:
            return {a["id"]: a for a in (json.loads(m) for _, m, _ in probe.messages)
                    if a["id"] in expected}

        # (a table's presses wait for their turn, at most 5 a second: inbound.Presses)
        wait_for(lambda: len(answered()) == len(expected), 20, "every answer")
        answers = answered()
        time.sleep(0.3)  # nothing else comes
        unexpected = {json.loads(m)["id"] for _, m, _ in probe.messages} - set(expected)
        assert all(not i.startswith(("d-", "t-", "u-", "big")) for i in unexpected), unexpected
        for cid, why in expected.items():
            a = answers[cid]
            whys = (why,) if isinstance(why, str) else why
            assert a["ok"] is False and any(w in a["reason"] for w in whys), (cid, a)
        assert probe_time.on(f"{prefix}/time/response/X") == []
        probe_time.close()
        # a valid time request still gets its answer
        p = Probe(broker.address, (top.time_response("Y"),))
        p.publish(top.time_request("Y"), {"v": 1, "id": 7, "t0": 1.5})
        r = p.wait_on(top.time_response("Y"))[0]
        assert r["id"] == 7 and r["t0"] == 1.5 and r["t1"] <= r["t2"]
        p.close()
    finally:
        probe.close()
    assert ctrl.proc.poll() is None, ctrl.output()
    after = _snapshot(b)
    assert after == before
    st = status(b)
    assert "X" not in st["presence"], st["presence"]
    assert "Traceback" not in ctrl.output(), ctrl.output()


def test_late_subscriber_sees_the_whole_state(broker, prefix, controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b, players=20)
    st = status(b)
    tables = st["tables"]
    assert len(tables) >= 2
    first = retained_state(b)
    # a few busts so that moves and results have something in them
    for _ in range(4):
        t = status(b)["tables"][-1]
        state = retained_state(b)
        seat = next(s["seat"] for s in state[f"table/{t}"]["seats"] if not s["ghost"])
        director(b, "bust", {"table": t, "seat": seat})
    director(b, "hand_done", {"table": tables[0]})
    director(b, "pause")
    wait_for(lambda: retained_state(b)["clock"]["running"] is False, what="paused clock")

    state = retained_state(b)
    st = status(b)
    assert state["summary"] == st["summary"]
    assert state["clock"] == st["clock"]
    assert state["structure"] == first["structure"]
    assert state["structure"]["levels"][0]["big_blind"] == st["clock"]["current"]["big_blind"]
    assert state["moves"] == director(b, "moves")["result"]
    assert state["results"] == director(b, "results")["result"]
    assert sorted(r["place"] for r in state["results"]["rows"]) == [17, 18, 19, 20]
    assert state["presence"]["clients"] == st["presence"]
    seated = 0
    for n in st["tables"]:
        view = state[f"table/{n}"]
        assert view["in_play"] and view["table"] == n
        seated += len([s for s in view["seats"] if not s["ghost"]])
    assert seated == st["summary"]["players_left"] == 16
    assert state[f"table/{tables[0]}"]["hands"] == 1
    broken = [k for k, v in state.items() if k.startswith("table/") and not v["in_play"]]
    assert all(state[k]["broken"] for k in broken)
