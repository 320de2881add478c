"""Outages with the real broker and the controller in its own process: the broker
restarts, the controller is killed with SIGKILL between storing a command and
acknowledging it (or before storing it), and is stopped or refused a bad config."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from controller.log.store import EventStore
from controller.wire.mqtt import Broker
from controller.wire.protocol import Topics
from kiosk.link import Link
from tests.support.controller import start_tournament, status, wait_up
from tests.support.eventlog import read_log, strip_at
from tests.support.mqtt import Probe, retained_state
from tests.support.paths import ROOT
from tests.support.waiting import wait_for


def _seats(state: dict, table: int) -> list[int]:
    return [s["seat"] for s in state[f"table/{table}"]["seats"]]


def test_broker_restart_mid_tournament(broker, prefix, controller_factory, tmp_path):
    ctrl = controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b)
    link = Link(b, table=1)
    link.start()
    try:
        wait_for(lambda: "table/1" in link.state and link.sync.synced, what="link ready")
        seats = _seats(link.state, 1)
        before = status(b)["summary"]

        broker.stop()
        wait_for(lambda: not link.connected.is_set(), what="link notices the outage")
        cid = link.press("bust", seat=seats[0])  # queued: there is no broker
        assert link.pending() == 1
        time.sleep(3)
        assert link.pending() == 1 and cid not in link.answers
        broker.start()

        # both reconnect by themselves, and the press goes through once. paho's backoff
        # (1 s doubling from the moment each lost the broker) brings them back 3 or 7 s
        # after it went away, 15 s on a slow machine; until the controller is back and
        # subscribed again the link resends the press every 2 s. On a timeout the error
        # says which part was not back (the link, or the controller: its log)
        def parts() -> str:
            return (f"link: connected={link.connected.is_set()}, pending={link.pending()}\n"
                    + ctrl.explain())

        wait_for(link.connected.is_set, 45, "link reconnected", explain=parts)
        ans = wait_for(lambda: link.answers.get(cid), 45, "the queued press answered",
                       explain=parts)
        assert ans["ok"] and "out in place 12" in ans["message"], ans
        assert link.pending() == 0
        probe = Probe(b, (Topics(prefix).presence("controller"),))
        try:
            online = probe.wait_on(Topics(prefix).presence("controller"))[-1]
            assert online["online"] is True and online["role"] == "controller"
        finally:
            probe.close()

        # the broker lost every retained message: the controller published them all again
        state = retained_state(b)
        st = status(b)
        assert state["summary"] == st["summary"]
        assert state["clock"] == st["clock"]
        assert st["summary"]["players_left"] == before["players_left"] - 1
        for n in st["tables"]:
            assert state[f"table/{n}"]["in_play"]
        assert seats[0] not in _seats(state, 1)
        assert state["presence"]["clients"]["table-1"]["online"] is True
        wait_for(lambda: seats[0] not in _seats(link.state, 1), what="link sees the bust")
        # and the link keeps working
        cid2 = link.press("hand_done")
        assert wait_for(lambda: link.answers.get(cid2), what="hand done")["ok"]
    finally:
        link.stop()
    assert ctrl.terminate() == 0
    with EventStore(tmp_path / "log.sqlite") as store:
        assert len([e for e in store.events() if e["type"] == "busted"]) == 1
        assert store.answer(f"table-1/{cid}")["ok"]  # stored per sender (inbound.scoped_id)


def _cli(b: Broker, *args: str) -> subprocess.Popen:
    """The director's command line in the background, as a director would start it."""
    return subprocess.Popen(
        [sys.executable, "-m", "controller", *args, "--broker", str(b), "--prefix", b.prefix],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("stage", ["after-store", "before-store"])
def test_controller_killed_between_command_and_ack(stage, broker, prefix, controller_factory,
                                                   tmp_path):
    b = broker.for_prefix(prefix)
    db = tmp_path / "log.sqlite"
    ctrl = controller_factory()
    start_tournament(b)
    state = retained_state(b)
    seat = _seats(state, 2)[0]
    name = next(s["name"] for s in state["table/2"]["seats"] if s["seat"] == seat)
    summary = status(b)["summary"]
    assert ctrl.terminate() == 0
    events_before, answers_before = read_log(db)
    assert len(answers_before) == 3
    # the same tournament, now with the fault at the first command that comes in (counting
    # from here: a resend answered from the log counts too, so the setup must not)
    ctrl.start(fault=stage)
    assert wait_up(b)["summary"] == summary

    cli = _cli(b, "bust", "2", str(seat), "--timeout", "60")
    try:
        assert ctrl.proc is not None
        ctrl.proc.wait(20)  # the fault kills it with SIGKILL
        assert ctrl.proc.returncode == -9, ctrl.output()
        ctrl.proc = None
        assert f"FLOORMAN_FAULT: killing the controller at {stage}" in ctrl.output()
        assert cli.poll() is None  # the director is still waiting, resending

        events, answers = read_log(db)
        assert strip_at(events[:len(events_before)]) == strip_at(events_before)
        if stage == "after-store":
            # stored, never acknowledged
            assert len(answers) == 4
            assert [e["type"] for e in events[len(events_before):]][0] == "busted"
        else:
            # never stored: the log is as it was
            assert (events, answers) == (events_before, answers_before)

        ctrl.start()
        out, err = cli.communicate(timeout=30)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.communicate()
    assert cli.returncode == 0, (out, err, ctrl.output())
    assert out.strip() == f"{name} out in place 12", out

    st = status(b)["summary"]
    assert st["players_left"] == summary["players_left"] - 1
    assert {k: v for k, v in st.items() if k not in ("players_left", "average_stack")} == \
        {k: v for k, v in summary.items() if k not in ("players_left", "average_stack")}
    state_after = retained_state(b)
    assert seat not in _seats(state_after, 2)
    assert state_after["table/1"] == state["table/1"]
    assert ctrl.terminate() == 0

    # exactly once: the log is the old log and one bust
    with EventStore(db) as store:
        events = store.events()
        bust_id = next(k for k in read_log(db)[1] if k not in answers_before)
        answer = store.answer(bust_id)
    assert strip_at(events[:len(events_before)]) == strip_at(events_before)
    new = events[len(events_before):]
    assert answer["ok"] and answer["events"] == [e["seq"] for e in new]
    assert len({e["group"] for e in new}) == 1
    assert [e for e in new if e["type"] == "busted"] == [new[0]]
    assert new[0]["table"] == 2 and new[0]["seat"] == seat
    assert len(read_log(db)[1]) == len(answers_before) + 1


def test_sigterm_exits_zero_and_says_offline(broker, prefix, controller_factory):
    top = Topics(prefix)
    probe = Probe(broker.address, (top.presence("controller"),))
    ctrl = controller_factory()
    assert ctrl.proc is not None
    pid = ctrl.proc.pid
    try:
        wait_for(lambda: any(m and m.get("online") for m in probe.on(top.presence("controller"))),
                 15, "controller online")
        wait_up(broker.for_prefix(prefix))
        assert ctrl.terminate() == 0, ctrl.output()
        last = probe.wait_on(top.presence("controller"), 2)[-1]
        # who it is, for a second controller on the prefix to name (docs/protocol.md)
        assert {k: last.get(k) for k in ("v", "online", "role")} == {
            "v": 1, "online": False, "role": "controller"}
        assert last["instance"] and last["pid"] == pid
    finally:
        probe.close()
    # retained: a screen that comes later is told so too
    late = Probe(broker.address, (top.presence("controller"),))
    try:
        got = late.wait_on(top.presence("controller"))
        assert got[-1]["online"] is False and late.messages[-1][2] is True
    finally:
        late.close()
    assert "Traceback" not in ctrl.output()


@pytest.mark.parametrize("text, where", [
    ('name: "x"\npreset: psc-five-spades\nstart_stack: [1, 2\n', ":4: YAML syntax error"),
    ('name: "x"\npreset: psc-five-spades\nstart_stack: lots\n', ":3: start_stack"),
])
def test_unreadable_config_exits_non_zero(text, where, broker, prefix, controller_factory,
                                          tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    ctrl = controller_factory(bad)
    assert ctrl.proc is not None
    rc = ctrl.proc.wait(20)
    ctrl.proc = None
    out = ctrl.output()
    assert rc != 0, out
    assert f"{bad}{where}" in out, out
    assert "Traceback" not in out
    assert not (tmp_path / "log.sqlite").exists()

    missing = controller_factory(tmp_path / "nowhere.yaml")
    assert missing.proc is not None
    assert missing.proc.wait(20) != 0
    missing.proc = None
    assert f"{tmp_path / 'nowhere.yaml'}: file not found" in missing.output()


def test_kiosk_link_survives_garbage_on_its_topics(broker, prefix, controller_factory):
    """Anything a stray client publishes on a kiosk's topics is ignored; the kiosk's MQTT
    thread (which an exception in a callback would end for good) keeps running."""
    controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b)
    seen: list[str] = []
    link = Link(b, table=1, sync_every=0.5,
                notify=lambda kind, data: seen.append(kind))
    link.start()
    top = Topics(prefix)
    rogue = Probe(b)
    try:
        wait_for(lambda: link.sync.synced and "table/1" in link.state, what="link ready")
        pending = link.sync.request()  # a request in flight, never sent: its id is known
        n, t0 = pending["id"], pending["t0"]
        nested = b"[" * 100_000 + b"]" * 100_000
        garbage: list[tuple[str, bytes | dict]] = [
            (top.ack(link.client_id), nested),
            (top.ack(link.client_id), {"id": [], "ok": True}),
            (top.ack(link.client_id), {"id": {"x": 1}, "ok": True}),
            (top.ack(link.client_id), b"\xff not json"),
            (top.time_response(link.client_id), nested),
            (top.time_response(link.client_id), {"v": 1, "id": n, "t0": None, "t1": 1, "t2": 1}),
            (top.time_response(link.client_id), {"v": 1, "id": n, "t0": "x", "t1": 1, "t2": 1}),
            (top.time_response(link.client_id), {"v": 1, "id": [n], "t0": t0, "t1": 1, "t2": 1}),
            (top.time_response(link.client_id),
             f'{{"v": 1, "id": {n}, "t0": {t0!r}, "t1": NaN, "t2": NaN}}'.encode()),
            (top.time_response(link.client_id),
             f'{{"v": 1, "id": {n}, "t1": 1e400, "t2": 1e400}}'.encode()),
            (top.time_response(link.client_id),
             f'{{"v": 1, "id": {n}, "t1": {"9" * 400}, "t2": 1}}'.encode()),
            (top.time_response(link.client_id),
             f'{{"v": 1, "id": {n}, "t0": NaN, "t1": 1, "t2": 1}}'.encode()),
            (f"{prefix}/state/junk", nested),
        ]
        for topic, payload in garbage:
            rogue.publish(topic, payload)
        # the request was not used up by the broken answers to it
        assert n in link.sync._sent
        before_synced = seen.count("synced")
        cid = link.press("hand_done")
        assert wait_for(lambda: link.answers.get(cid), what="press answered")["ok"]
        wait_for(lambda: seen.count("synced") >= before_synced + 2, what="sync goes on")
        assert all(s.offset == s.offset and s.delay == s.delay for s in link.sync.samples)
        assert abs(link.sync.now() - time.time()) < 0.02
        assert "junk" not in link.state
    finally:
        rogue.close()
        link.stop()
