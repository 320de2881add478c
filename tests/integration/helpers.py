"""Small helpers shared by the integration tests."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

ROOT = Path(__file__).resolve().parent.parent.parent


def floorman(broker: str, prefix: str, *args: str, timeout: float = 15.0
             ) -> subprocess.CompletedProcess:
    """Run the director's command line exactly as a director would."""
    return subprocess.run(
        [sys.executable, "-m", "controller", *args, "--broker", broker, "--prefix", prefix],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def floorman_json(broker: str, prefix: str, *args: str) -> dict[str, Any]:
    r = floorman(broker, prefix, *args, "--json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def wait_for(cond: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


# --------------------------------------------------------------------------- raw MQTT


class Probe:
    """A raw paho client for the tests: publishes any bytes to any topic and records every
    message of the topics it subscribed to (retained ones too), in arrival order."""

    def __init__(self, address: str, subscribe: tuple[str, ...] = (), *,
                 client_id: str | None = None) -> None:
        host, _, port = address.rpartition(":")
        self.client_id = client_id or f"probe-{uuid.uuid4().hex[:8]}"
        self.messages: list[tuple[str, bytes, bool]] = []
        self.arrived: list[float] = []  #: time.monotonic() of each message's arrival
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.connected = threading.Event()
        self._topics = list(subscribe)
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                        protocol=mqtt.MQTTv311)
        c.on_connect = self._on_connect
        c.on_disconnect = lambda *a: self.connected.clear()
        c.on_subscribe = lambda *a: self._subscribed.set()
        c.on_message = self._on_message
        c.reconnect_delay_set(0.2, 1)
        self.client = c
        c.connect(host, int(port), keepalive=10)
        c.loop_start()
        wait_for(self.connected.is_set, 10, "probe connected")
        if self._topics:
            wait_for(self._subscribed.is_set, 10, "probe subscribed")

    def _on_connect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if self._topics:
            c.subscribe([(t, 1) for t in self._topics])
        self.connected.set()

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.arrived.append(time.monotonic())
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self._cond.notify_all()

    def publish(self, topic: str, payload: bytes | str | dict, qos: int = 1,
                retain: bool = False) -> None:
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        info = self.client.publish(topic, payload, qos, retain)
        if qos:
            info.wait_for_publish(5)

    def on(self, topic: str) -> list[Any]:
        """Every payload seen on ``topic``, decoded as JSON where it is JSON."""
        with self._cond:
            out = []
            for t, p, _ in self.messages:
                if t == topic:
                    try:
                        out.append(json.loads(p) if p else None)
                    except ValueError:
                        out.append(p)
            return out

    def latest(self) -> dict[str, Any]:
        """The last JSON payload per topic."""
        with self._cond:
            out: dict[str, Any] = {}
            for t, p, _ in self.messages:
                try:
                    out[t] = json.loads(p) if p else None
                except ValueError:
                    out[t] = p
            return out

    def wait_on(self, topic: str, count: int = 1, timeout: float = 10.0) -> list[Any]:
        return wait_for(lambda: (lambda v: v if len(v) >= count else None)(self.on(topic)),
                        timeout, f"{count} message(s) on {topic}")

    def quiet(self, seconds: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until no message arrived for ``seconds``."""
        deadline = time.monotonic() + timeout
        n = -1
        while time.monotonic() < deadline:
            with self._cond:
                if len(self.messages) == n:
                    return
                n = len(self.messages)
            time.sleep(seconds)
        raise AssertionError("the probe never went quiet")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def retained_state(address: str, prefix: str, timeout: float = 10.0) -> dict[str, Any]:
    """What a brand-new screen sees: every retained ``<prefix>/state/…`` message, by suffix
    (``"clock"``, ``"table/1"`` …), from a fresh client that only subscribes."""
    p = Probe(address, (f"{prefix}/state/#",))
    try:
        base = {"structure", "clock", "summary", "moves", "results", "presence"}

        def complete() -> dict[str, Any] | None:
            got = {t[len(prefix) + len("/state/"):]: v for t, v in p.latest().items()}
            if not base <= set(got):
                return None
            if any(f"table/{n}" not in got for n in got["summary"]["tables"]):
                return None
            return got

        wait_for(complete, timeout, "every retained state topic")
        p.quiet(0.2)
        first: dict[str, bool] = {}
        for t, _, r in p.messages:
            first.setdefault(t, r)
        # the first of each came from the broker's retained store (a later one may be live)
        assert all(first.values()), [t for t, r in first.items() if not r]
        return complete() or {}
    finally:
        p.close()


def read_log(db: Path | str) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """(events, answers by command id) of an event log, read-only (the controller may run)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        events = [json.loads(b) for (b,) in con.execute("SELECT body FROM events ORDER BY seq")]
        answers = {k: json.loads(a) for k, a in con.execute("SELECT id, answer FROM commands")}
    finally:
        con.close()
    return events, answers


def director(address: str, prefix: str, cmd: str, args: dict[str, Any] | None = None,
             *, timeout: float = 10.0, ok: bool | None = True,
             command_id: str | None = None) -> dict[str, Any]:
    """One director command in-process (faster than the CLI); asserts ``ok`` unless None."""
    from controller.director import send
    from controller.mqtt import Broker

    answer = send(Broker.from_env(address, prefix), cmd, args, timeout=timeout,
                  command_id=command_id)
    if ok is not None:
        assert answer.get("ok") is ok, answer
    return answer


def status(address: str, prefix: str) -> dict[str, Any]:
    return director(address, prefix, "status")["result"]


def wait_controller_up(address: str, prefix: str, timeout: float = 15.0) -> dict[str, Any]:
    """Wait until the controller answers a status query."""
    from controller.director import NoAnswer

    deadline = time.monotonic() + timeout
    while True:
        try:
            return director(address, prefix, "status", timeout=max(0.5, min(
                3.0, deadline - time.monotonic())))["result"]
        except NoAnswer:
            if time.monotonic() >= deadline:
                raise


def start_tournament(address: str, prefix: str, players: int = 12) -> list[str]:
    """Register ``players`` players, draw the seats and start the clock."""
    names = [f"P{i}" for i in range(1, players + 1)]
    director(address, prefix, "register", {"names": names})
    director(address, prefix, "draw")
    director(address, prefix, "start")
    return names
