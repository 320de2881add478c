"""The demo's broker: Mosquitto when installed, else embedded amqtt; both keep retained state."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt
import pytest

from controller.local_broker import LocalBroker, mosquitto_path


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
