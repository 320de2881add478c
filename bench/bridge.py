"""Beyond one broker (issue 15): a hall's Mosquitto bridged to a central one.

Two Mosquittos on loopback: the hall broker, where the controller publishes,
carries a bridge (``topic P/state/# out 1``) to the central broker, where a
lobby wall or a festival scoreboard subscribes (docs/raspberry-pi.md, "A
festival with more than one broker"). The benchmark publishes table views as
the controller does (retained, QoS 1, ~1.5 KB) one at a time and measures:

- hall: publish → a subscriber on the hall broker has it (what a table screen
  in the hall sees);
- central: publish → a subscriber on the central broker has it, through the bridge.

    python bench/bridge.py [--messages 500]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402

from controller.wire.mqtt import Broker, client  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402


class Listener:
    """A subscriber that stamps each message's arrival by its payload's number."""

    def __init__(self, broker: Broker, topic: str) -> None:
        self.at: dict[int, float] = {}
        self.cond = threading.Condition()
        self.c = client(broker, f"bench-bridge-{uuid.uuid4().hex[:6]}")
        subscribed = threading.Event()
        self.c.on_subscribe = lambda *a: subscribed.set()
        self.c.on_message = self._on_message
        self.c.connect(broker.host, broker.port, keepalive=30)
        self.c.loop_start()
        self.c.subscribe(topic, 1)
        if not subscribed.wait(10):
            raise TimeoutError("no SUBACK")

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        if msg.retain or not msg.payload:
            return
        n = int(msg.payload[:8])
        with self.cond:
            self.at[n] = now
            self.cond.notify_all()

    def wait(self, n: int, timeout: float = 10.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: n in self.at, timeout):
                raise TimeoutError(f"message {n} did not arrive")
            return self.at[n]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=500)
    args = ap.parse_args()
    prefix = f"festival/{uuid.uuid4().hex[:6]}"
    topic = f"{prefix}/state/table/7"
    with tempfile.TemporaryDirectory(prefix="bench-bridge-") as tmpname:
        tmp = Path(tmpname)
        central = Mosquitto(tmp / "central.log")
        hall = Mosquitto(tmp / "hall.log", config=(
            "connection central\n"
            f"address 127.0.0.1:{central.port}\n"
            f"topic {prefix}/state/# out 1\n"
            "bridge_protocol_version mqttv311\n"
            "cleansession true\n"))
        try:
            near = Listener(hall.for_prefix(prefix), f"{prefix}/state/#")
            far = Listener(central.for_prefix(prefix), f"{prefix}/state/#")
            pub = client(hall.for_prefix(prefix), f"bench-bridge-pub-{uuid.uuid4().hex[:6]}")
            pub.connect("127.0.0.1", hall.port, keepalive=30)
            pub.loop_start()
            body = b"x" * 1500
            # the bridge connects on its own time: wait until a message goes through
            deadline = time.monotonic() + 20
            while True:
                pub.publish(topic, b"%08d" % 99_999_999 + body, 1, False)
                try:
                    far.wait(99_999_999, timeout=0.5)
                    break
                except TimeoutError:
                    if time.monotonic() > deadline:
                        raise
            hall_ms, central_ms = [], []
            for n in range(args.messages):
                t0 = time.perf_counter()
                pub.publish(topic, b"%08d" % n + body, 1, True)
                hall_ms.append((near.wait(n) - t0) * 1000)
                central_ms.append((far.wait(n) - t0) * 1000)
            pub.disconnect()
            pub.loop_stop()
            near.close()
            far.close()
        finally:
            hall.close()
            central.close()
    rows: list[tuple[str, ...]] = [("subscriber", "p50", "p99")]
    for name, v in (("on the hall broker", hall_ms),
                    ("on the central broker, through the bridge", central_ms)):
        rows.append((name, f"{statistics.median(v):.2f} ms", f"{pct(v, 99):.2f} ms"))
    print_table(rows, right=(1, 2))
    print(f"\n{args.messages} retained table views of 1.5 KB, QoS 1, one at a time; two "
          "Mosquittos on loopback, the hall's bridged out to the central one")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
