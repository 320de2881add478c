"""Raw MQTT clients for the tests: a recording probe, a bare paho client, the retained
state as a new screen sees it, and many clients on one ``select`` loop."""

from __future__ import annotations

import json
import selectors
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.wire.mqtt import Broker
from kiosk.view import tables_in_play

from .waiting import WaitTimeout, wait_for

#: the retained state every running tournament has (and ``table/<n>`` of each table)
STATE_TOPICS = ("structure", "clock", "summary", "moves", "results", "presence")


def host_port(address: str | Broker) -> tuple[str, int]:
    """``"host:port"`` (or a :class:`~controller.wire.mqtt.Broker`) → (host, port)."""
    host, _, port = str(address).rpartition(":")
    return host, int(port)


def raw_client(address: str | Broker, client_id: str | None = None, *,
               username: str | None = None, password: str | None = None,
               ca: Path | None = None, connect: bool = True) -> mqtt.Client:
    """A bare paho client (MQTT 3.1.1, quick reconnects, no limits on what is in flight),
    connected unless ``connect`` is false; its loop is not started."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                    client_id=client_id or f"test-{uuid.uuid4().hex[:10]}",
                    protocol=mqtt.MQTTv311)
    if username is not None:
        c.username_pw_set(username, password)
    if ca is not None:
        c.tls_set(ca_certs=str(ca))
    c.reconnect_delay_set(0.2, 1)  # type: ignore[arg-type]  # seconds; paho's hint says int
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    if connect:
        host, port = host_port(address)
        c.connect(host, port, keepalive=30)
    return c


class Probe:
    """A raw client that publishes any bytes to any topic and records every message of its
    subscriptions (retained ones too), in arrival order: ``messages`` (topic, payload,
    retain) and ``arrived`` (``time.monotonic()`` of each).

    ``wait``: the constructor returns once connected and subscribed (else it fails).
    Without it, a client that may be refused (a wrong password, no TLS, a strange CA):
    :meth:`connected` says whether the broker took it, ``error`` holds what the connect
    raised."""

    def __init__(self, address: str | Broker, subscribe: Iterable[str] = (), *,
                 client_id: str | None = None, username: str | None = None,
                 password: str | None = None, ca: Path | None = None, wait: bool = True,
                 timeout: float = 10.0) -> None:
        self.client_id = client_id or f"probe-{uuid.uuid4().hex[:8]}"
        self.messages: list[tuple[str, bytes, bool]] = []
        self.arrived: list[float] = []
        self.connack: Any = None  #: the reason code of the first CONNACK
        self.granted: list[Any] = []  #: the reason codes of the last SUBACK
        self.error: Exception | None = None
        self._cond = threading.Condition()
        self._online = threading.Event()
        self._connack = threading.Event()
        self._suback = threading.Event()
        self._topics: list[tuple[str, int]] = [(t, 1) for t in subscribe]
        c = raw_client(address, self.client_id, username=username, password=password, ca=ca,
                       connect=False)
        c.on_connect = self._on_connect
        c.on_disconnect = lambda *a: self._online.clear()
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message
        self.client = c
        try:
            c.connect(*host_port(address), keepalive=30)
        except (OSError, ssl.SSLError) as exc:
            if wait:
                raise
            self.error = exc
            return
        c.loop_start()
        if wait:
            wait_for(self._online.is_set, timeout, f"{self.client_id} connected")
            if self._topics:
                wait_for(self._suback.is_set, timeout, f"{self.client_id} subscribed")

    def _on_connect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if self.connack is None:
            self.connack = rc
        self._connack.set()
        if rc.is_failure:
            return
        if self._topics:
            c.subscribe(self._topics)
        self._online.set()

    def _on_subscribe(self, c: mqtt.Client, u: Any, mid: Any, rcs: Any, props: Any = None
                      ) -> None:
        self.granted = list(rcs)
        self._suback.set()

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.arrived.append(time.monotonic())
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self._cond.notify_all()

    # ------------------------------------------------------------------ acting
    def connected(self, timeout: float = 5.0) -> bool:
        """True if the broker accepted the login; False if it refused, hung up or never
        answered within ``timeout``."""
        if self.error is not None or not self._connack.wait(timeout):
            return False
        return not self.connack.is_failure

    def subscribe(self, *topics: str, qos: int = 1, timeout: float = 5.0) -> list[Any]:
        """Subscribe now (and again after a reconnect); the SUBACK's reason codes."""
        self._suback.clear()
        self._topics += [(t, qos) for t in topics]
        self.client.subscribe([(t, qos) for t in topics])
        assert self._suback.wait(timeout), "no SUBACK"
        return self.granted

    def publish(self, topic: str, payload: bytes | str | dict, qos: int = 1,
                retain: bool = False) -> None:
        """With QoS 1 it returns once the broker has the message (PUBACK), allowed or not."""
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        info = self.client.publish(topic, payload, qos, retain)
        if qos:
            info.wait_for_publish(5)
            assert info.is_published(), f"no PUBACK for {topic}"

    def close(self) -> None:
        if self.error is None:
            self.client.disconnect()
            self.client.loop_stop()

    # ------------------------------------------------------------------ what came
    def topics(self) -> list[str]:
        with self._cond:
            return [t for t, _, _ in self.messages]

    def on(self, topic: str) -> list[Any]:
        """Every payload seen on ``topic``, decoded as JSON where it is JSON."""
        with self._cond:
            return [_decode(p) for t, p, _ in self.messages if t == topic]

    def arrival(self, topic: str, pred: Callable[[Any], bool]) -> float | None:
        """When (``time.monotonic()`` in the network thread, as it came) the first payload
        on ``topic`` that ``pred`` accepts arrived; None: not yet. For latencies that must
        not include a poll loop's sleep."""
        with self._cond:
            for at, (t, p, _) in zip(self.arrived, self.messages, strict=True):
                if t == topic and pred(_decode(p)):
                    return at
            return None

    def latest(self) -> dict[str, Any]:
        """The last payload per topic, decoded as JSON where it is JSON."""
        with self._cond:
            return {t: _decode(p) for t, p, _ in self.messages}

    def wait_on(self, topic: str, count: int = 1, timeout: float = 10.0) -> list[Any]:
        """The payloads on ``topic`` once there are ``count`` of them."""
        found: list[Any] | None = wait_for(
            lambda: (lambda v: v if len(v) >= count else None)(self.on(topic)),
            timeout, f"{count} message(s) on {topic}")
        assert found is not None  # wait_for returns only what is true
        return found

    def silent_for(self) -> float:
        """Seconds since the last message arrived (since the start if none did)."""
        with self._cond:
            return time.monotonic() - (self.arrived[-1] if self.arrived else 0.0)

    def quiet(self, seconds: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until no message arrived for ``seconds``."""
        wait_for(lambda: self.silent_for() >= seconds, timeout, "the probe to go quiet",
                 every=min(0.05, seconds / 4))


def _decode(payload: bytes) -> Any:
    try:
        return json.loads(payload) if payload else None
    except ValueError:
        return payload


def retained_state(b: Broker, *, need: Iterable[str] = STATE_TOPICS, quiet: float = 0.2,
                   timeout: float = 10.0, all_retained: bool = True) -> dict[str, Any]:
    """What a brand-new screen sees: every ``<prefix>/state/…`` payload by its suffix
    (``"clock"``, ``"table/1"`` …), from a fresh client that only subscribes, once the
    topics in ``need`` and every table the summary names are there and nothing came for
    ``quiet`` seconds.

    ``all_retained``: every topic must come from the broker's retained store. A topic
    whose first message came live was (re)published while the client subscribed (the
    controller republishes everything after a reconnect) and says nothing either way, so
    a fresh client looks again until each topic's first message is a retained one or
    the time is up."""
    deadline = time.monotonic() + timeout
    while True:
        got, live = _look(b, set(need), quiet, max(1.0, deadline - time.monotonic()))
        if not all_retained or not live:
            return got
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"not in the broker's retained store after {timeout:g} s: "
                              f"{sorted(live)}")


def _look(b: Broker, need: set[str], quiet: float, timeout: float
          ) -> tuple[dict[str, Any], list[str]]:
    """(the state by suffix, the topics whose first message came live)."""
    base = f"{b.prefix}/state/"
    p = Probe(b, (base + "#",))
    try:
        def complete() -> dict[str, Any] | None:
            got = {t[len(base):]: v for t, v in p.latest().items()}
            if not need <= set(got):
                return None
            count = (got.get("summary") or {}).get("tables_in_play") or 0
            if len(tables_in_play(got)) < count:
                return None
            return got

        wait_for(lambda: complete() is not None and p.silent_for() >= quiet, timeout,
                 "every retained state topic", every=0.02)
        first: dict[str, bool] = {}
        with p._cond:
            for t, _, r in p.messages:
                first.setdefault(t, r)
        return complete() or {}, [t for t, r in first.items() if not r]
    finally:
        p.close()


class SelectLoop:
    """Many paho clients served by one thread on one ``select`` loop (a room of kiosks
    without a thread each). :attr:`stamp` is when ``select`` last reported sockets
    readable: the moment their data was there, before this thread processed any of it."""

    def __init__(self, misc_every: float = 1.0) -> None:
        self.sel = selectors.DefaultSelector()
        self.clients: list[mqtt.Client] = []
        self.stamp = 0.0
        self.misc_every = misc_every
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, c: mqtt.Client) -> None:
        """A client whose ``connect()`` was called; the loop starts with the first."""
        with self._lock:
            self.clients.append(c)
            sock = c.socket()
            assert sock is not None, "connect() first"
            self.sel.register(sock, selectors.EVENT_READ, c)
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="select-loop", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        last_misc = time.monotonic()
        while not self._stop.is_set():
            with self._lock:
                clients = list(self.clients)
            for c in clients:
                if c.want_write():
                    c.loop_write()
            events = self.sel.select(0.05)
            self.stamp = time.perf_counter()
            for key, _ in events:
                c = key.data
                c.loop_read()
                sock = c.socket()
                while sock is not None and getattr(sock, "pending", lambda: 0)():
                    c.loop_read()  # TLS: records already decrypted wait in the SSL buffer
            if time.monotonic() - last_misc > self.misc_every:
                last_misc = time.monotonic()
                for c in clients:
                    c.loop_misc()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        for c in self.clients:
            try:
                c.disconnect()
                c.loop_write()
            except (OSError, ValueError):
                pass
