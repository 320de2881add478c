"""The demo's broker: Mosquitto when installed, else embedded amqtt; both keep retained state.
The tests' broker outages: Mosquitto stopped and started again on its port."""

from __future__ import annotations

import socket
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from controller.broker.local import LocalBroker, MosquittoProcess, free_port, mosquitto_path
from tests.support.mqtt import Probe


@pytest.mark.parametrize("prefer", ["mosquitto", "amqtt"])
def test_local_broker_keeps_retained_messages(prefer):
    if prefer == "mosquitto" and mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    b = LocalBroker(prefer=prefer)
    try:
        assert b.kind == prefer
        pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="pub")
        pub.connect("127.0.0.1", b.port)
        pub.loop_start()
        pub.publish("demo/state/clock", b'{"v":1}', 1, True).wait_for_publish(5)
        got = threading.Event()
        seen = []

        def on_message(c, u, m):
            seen.append((m.topic, m.payload, m.retain))
            got.set()

        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="sub")
        sub.on_message = on_message
        sub.on_connect = lambda c, u, f, rc, p=None: c.subscribe("demo/#", 1)
        sub.connect("127.0.0.1", b.port)
        sub.loop_start()
        assert got.wait(5)
        assert seen[0] == ("demo/state/clock", b'{"v":1}', True)
        for c in (pub, sub):
            c.disconnect()
            c.loop_stop()
    finally:
        b.stop()


def test_mosquitto_stops_and_starts_again_on_the_same_port(tmp_path):
    """The tests' outages: LocalBroker's Mosquitto ends and comes back on its port with
    its configuration (extra lines, log file); without persistence nothing is kept."""
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    log = tmp_path / "mosquitto.log"
    b = LocalBroker(prefer="mosquitto", config="log_type all\n", log_file=log)
    try:
        assert b.mosquitto is not None and b.mosquitto.running
        p = Probe(b.address)
        p.publish("demo/state/clock", b'{"v":1}', retain=True)
        p.close()
        b.mosquitto.stop()
        assert not b.mosquitto.running
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", b.port), timeout=1).close()
        b.mosquitto.start()
        late = Probe(b.address, ("demo/#",))
        late.quiet(0.3)
        assert late.messages == []  # the retained message went with the old process
        late.close()
        assert "New client connected" in log.read_text()  # log_type all, in the log file
    finally:
        b.stop()
    assert b.mosquitto is None


def test_mosquitto_that_cannot_start_says_why_at_once(tmp_path):
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed")
    conf = tmp_path / "bad.conf"
    conf.write_text("listener 1 127.0.0.1\nno_such_option true\n")
    m = MosquittoProcess(conf, (free_port(),), tmp_path / "bad.log")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="did not open ports") as err:
        m.start()
    assert time.monotonic() - t0 < 5  # it noticed the process had ended
    assert "no_such_option" in str(err.value)  # the broker's own words, from its log
    assert not m.running


def test_amqtt_that_cannot_start_says_why_at_once():
    """The port is taken: amqtt's own error, as a RuntimeError the demo and the night say
    in one line (before, its thread died with a traceback and a look at the port timed
    out later)."""
    pytest.importorskip("amqtt")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(RuntimeError, match="the embedded broker did not start"):
            LocalBroker(port, prefer="amqtt")
