"""The locked-down broker for real: the shipped drop-in, the accounts and ACL of
``floorman broker-config``, TLS with a test CA, the real controller logged in as
``controller`` and the director's command line logged in as ``director``.

Table 3's account tries everything it must not do; after each attempt the
controller's retained state is compared with what it was, and a harmless command of
table 3 (an undo with nothing to undo, rejected without a change) is sent behind the
attempt: the broker keeps the order of one client's messages, so once its answer is
in, anything the attempt had smuggled through would have been handled already.
"""

from __future__ import annotations

import json
import ssl
import time
import uuid
from pathlib import Path

import pytest

from controller.director import send
from controller.wire import protocol
from controller.wire.protocol import Topics
from tests.support.broker import MOSQUITTO
from tests.support.controller import floorman_cli
from tests.support.mqtt import Probe
from tests.support.secure import OPENSSL, SecureBroker, login, make_tls
from tests.support.waiting import wait_for

pytestmark = pytest.mark.skipif(MOSQUITTO is None or OPENSSL is None,
                                reason="mosquitto and openssl are needed")


def snapshot(b: SecureBroker) -> dict[str, bytes]:
    """Every retained ``state/…`` topic, as a fresh reader (the wall's account) sees it."""
    c = login(b, "wall-2", client_id=f"snap-{uuid.uuid4().hex[:6]}")
    assert c.connected()
    try:
        c.subscribe(f"{b.prefix}/state/#")
        wait_for(lambda: len(c.messages) >= 7, 10, "the retained state")
        last = -1
        while last != len(c.messages):  # until nothing more arrives for a moment
            last = len(c.messages)
            time.sleep(0.15)
        return {t: p for t, p, _ in c.messages}
    finally:
        c.close()


@pytest.fixture
def room(secure_broker, tmp_path):
    """A running tournament: 36 players at 4 tables, clock started, via the director."""
    b = secure_broker
    ctl = b.controller(tmp_path)
    try:
        director = b.env("director")
        names = [f"Player {i:02d}" for i in range(1, 37)]
        r = floorman_cli("register", *names, env=director)
        assert r.returncode == 0, r.stderr + ctl.output()
        for verb in ("draw", "start"):
            r = floorman_cli(verb, env=director)
            assert r.returncode == 0, r.stderr + ctl.output()
        yield b, ctl
    finally:
        ctl.stop()


def barrier(t3: Probe, topics: Topics) -> None:
    """Table 3's own harmless command, answered: everything it sent before is handled."""
    cid = uuid.uuid4().hex
    t3.publish(topics.table_cmd(3), protocol.dumps(
        {"v": 1, "id": cid, "reply_to": "table-3", "action": "undo"}))
    wait_for(lambda: any(t == topics.ack("table-3") and json.loads(p)["id"] == cid
                         for t, p, _ in t3.messages), 10, "table 3's answer")


def test_anonymous_and_wrong_passwords_are_refused(secure_broker):
    b = secure_broker
    for tls in (True, False):
        anon = login(b, None, tls=tls)
        assert not anon.connected(), f"anonymous login accepted (tls={tls})"
        anon.close()
        wrong = login(b, "table-3", tls=tls, password="not-the-password")
        assert not wrong.connected()
        wrong.close()
        ok = login(b, "table-3", tls=tls)
        assert ok.connected()
        ok.close()


def test_tls_listener_needs_tls_and_the_room_ca(secure_broker, tmp_path):
    b = secure_broker
    acc = b.account("table-3")
    user, pw = acc["FLOORMAN_USERNAME"], acc["FLOORMAN_PASSWORD"]
    good = Probe(f"localhost:{b.tls_port}", username=user, password=pw, ca=b.ca, wait=False)
    assert good.connected()
    good.close()
    # a plain MQTT client on the TLS port gets no CONNACK
    plain = Probe(f"127.0.0.1:{b.tls_port}", username=user, password=pw, wait=False)
    assert not plain.connected(timeout=3)
    plain.close()
    # a client that trusts another CA (another room's) refuses the broker's certificate
    other = make_tls(tmp_path / "other-room")["ca"]
    stranger = Probe(f"localhost:{b.tls_port}", username=user, password=pw, ca=other,
                     wait=False)
    assert not stranger.connected(timeout=3)
    assert isinstance(stranger.error, ssl.SSLCertVerificationError), stranger.error
    stranger.close()
    # and one that trusts no CA of ours at all (the system's list) as well
    bundle = Path(ssl.get_default_verify_paths().cafile or "/etc/ssl/certs/ca-certificates.crt")
    if bundle.exists():
        system = Probe(f"localhost:{b.tls_port}", username=user, password=pw, ca=bundle,
                       wait=False)
        assert not system.connected(timeout=3)
        system.close()


def test_a_table_cannot_act_for_another_table_or_the_director(room):
    b, ctl = room
    top = Topics(b.prefix)
    t3 = login(b, "table-3", client_id="table-3")
    assert t3.connected()
    t3.subscribe(top.ack("table-3"))
    before = snapshot(b)
    table4 = json.loads(before[top.table_state(4)])
    assert table4["in_play"] and table4["seats"]
    seat = table4["seats"][0]["seat"]
    clock = json.loads(before[top.state("clock")])
    assert clock["running"]

    def envelope(**body):
        return protocol.dumps({"v": 1, "id": uuid.uuid4().hex, "reply_to": "table-3", **body})

    attempts = [
        ("table 4's bust button", top.table_cmd(4), envelope(action="bust", seat=seat), False),
        ("table 4's hand done", top.table_cmd(4), envelope(action="hand_done"), False),
        ("a director command", top.director, envelope(cmd="pause", args={}), False),
        ("a director bust", top.director, envelope(cmd="bust", args={"table": 4, "seat": seat}),
         False),
        ("table 4's retained state", top.table_state(4),
         protocol.dumps({**table4, "seats": []}), True),
        ("the clock", top.state("clock"), protocol.dumps({**clock, "running": False}), True),
        ("the summary", top.state("summary"), b'{"v": 1}', True),
        ("table 4's presence", top.presence("table-4"),
         protocol.dumps({"v": 1, "online": False, "role": "table", "table": 4}), True),
        ("the controller's presence", top.presence("controller"),
         protocol.dumps({"v": 1, "online": False, "role": "controller"}), True),
        ("an answer to the director", top.ack("director-0123456789ab"),
         protocol.dumps({"v": 1, "id": "x", "ok": False, "reason": "forged"}), False),
        ("outside the prefix", "elsewhere/cmd/director", envelope(cmd="pause", args={}), False),
    ]
    for what, topic, payload, retain in attempts:
        t3.publish(topic, payload, retain=retain)
        barrier(t3, top)
        assert snapshot(b) == before, f"table 3 changed the state with {what}"
    t3.close()

    # the same account under table 4's client id gets no further
    spoof = login(b, "table-3", client_id="table-4")
    assert spoof.connected()
    spoof.publish(top.table_cmd(4), envelope(action="bust", seat=seat))
    spoof.publish(top.presence("table-4"), b'{"v":1,"online":false,"role":"table","table":4}',
                  retain=True)
    spoof.close()
    t3 = login(b, "table-3", client_id="table-3")
    t3.subscribe(top.ack("table-3"))
    barrier(t3, top)
    t3.close()
    assert snapshot(b) == before

    log = b.log_text()
    assert "Denied PUBLISH from table-3" in log
    out = ctl.output()
    assert "pause" not in out and "bust" not in out, out
    # the table-4 presses never reached the controller: nothing at table 4 changed
    assert json.loads(snapshot(b)[top.table_state(4)]) == table4


def test_a_table_reads_only_its_own_answers(room):
    b, _ = room
    top = Topics(b.prefix)
    snoop = login(b, "table-3", client_id="table-3")
    assert snoop.connected()
    snoop.subscribe(f"{b.prefix}/cmd/#", f"{b.prefix}/ack/#", f"{b.prefix}/time/#",
                    f"{b.prefix}/presence/#", "#")
    answer = send(b.broker("director"), "status")
    assert answer["ok"]
    t4 = login(b, "table-4", client_id="table-4")
    assert t4.connected()
    t4.subscribe(top.ack("table-4"))
    t4.publish(top.table_cmd(4), protocol.dumps(
        {"v": 1, "id": uuid.uuid4().hex, "reply_to": "table-4", "action": "undo"}))
    wait_for(lambda: t4.messages, 10, "table 4's answer")
    time.sleep(0.3)
    leaked = [t for t in snoop.topics() if not t.startswith(f"{b.prefix}/state/")]
    assert leaked == [], leaked
    snoop.close()
    t4.close()


def test_the_director_commands_work_with_the_directors_account_only(room):
    b, ctl = room
    director = b.env("director")
    r = floorman_cli("pause", env=director)
    assert r.returncode == 0, r.stderr
    r = floorman_cli("status", "--json", env=director)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"]["clock"]["running"] is False
    r = floorman_cli("resume", env=director)
    assert r.returncode == 0, r.stderr

    # a table's account publishing the same command: no answer, nothing happens
    as_table = b.env("table-3")
    r = floorman_cli("pause", "--timeout", "3", env=as_table)
    assert r.returncode == 2 and "did not answer" in r.stderr, r.stderr
    r = floorman_cli("status", "--json", env=director)
    assert json.loads(r.stdout)["result"]["clock"]["running"] is True
    # and the controller's account is not the director's either
    r = floorman_cli("pause", "--timeout", "3", env=b.env("controller", tls=False))
    assert r.returncode == 2, r.stderr
    r = floorman_cli("status", "--json", env=director)
    assert json.loads(r.stdout)["result"]["clock"]["running"] is True


def test_kiosk_links_work_under_their_accounts(room):
    """The real kiosk link of table 3 and of the wall: client id = user name, presence,
    clock sync and a dealer's press all pass the ACL."""
    from kiosk.link import Link

    b, _ = room
    top = Topics(b.prefix)
    links = [Link(b.broker("table-3"), table=3, sync_every=0.5), Link(b.broker("wall"))]
    assert [lk.client_id for lk in links] == ["table-3", "wall"]
    for lk in links:
        lk.start()
    try:
        for lk in links:
            wait_for(lambda lk=lk: lk.connected.is_set() and lk.state.get("table/3")
                     and lk.sync.synced, 15, f"{lk.client_id} online, with state and clock")
        cid = links[0].press("hand_done")
        answer = wait_for(lambda: links[0].answers.get(cid), 10, "the answer to table 3's press")
        assert answer["ok"], answer

        def online() -> dict:
            return json.loads(snapshot(b)[top.state("presence")])["clients"]

        clients = wait_for(lambda: (c := online()).get("wall", {}).get("online")
                           and c.get("table-3", {}).get("online") and c, 10, "presence")
        assert clients["table-3"]["table"] == 3 and clients["wall"]["role"] == "wall"
    finally:
        for lk in links:
            lk.stop()


def test_own_hashes_work_in_mosquitto(tmp_path):
    """Without mosquitto_passwd the hashes are our own: Mosquitto must take them."""
    b = SecureBroker(tmp_path, tables=1, hasher="python").start()
    try:
        ok = login(b, "table-1")
        assert ok.connected()
        ok.close()
        bad = login(b, "table-1", password="nope")
        assert not bad.connected()
        bad.close()
    finally:
        b.stop()
