"""A kiosk's connection to the controller: retained state in, dealer presses out.

- Presence: a retained ``online`` message, and a last will that says
  ``offline`` when the kiosk vanishes.
- State: every retained ``state/…`` topic is cached; :attr:`Link.state` holds
  the latest payload per topic suffix (``"clock"``, ``"table/3"`` …).
- Presses: :meth:`Link.press` queues a command with a fresh id; the outbox is
  sent in order, one press at a time (the next when the controller answered the
  one before), each resent until answered, across broker outages. The
  controller applies each id once, in press order.
- Clock: time requests on connect and every ``sync_every`` seconds keep a
  :class:`~kiosk.sync.ClockSync` up to date.

Everything arrives in paho's network thread and is handed to the main loop
through ``notify`` (a ``queue.Queue.put`` or ``pygame.event.post`` wrapper);
nothing here draws.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import paho.mqtt.client as mqtt

from controller.wire import protocol
from controller.wire.mqtt import Broker, client
from controller.wire.protocol import Topics
from kiosk.problems import diagnose
from kiosk.sync import ClockSync
from kiosk.view import Problem

#: seconds between resends of an unanswered press
RESEND = 2.0
#: seconds until an unanswered time request is asked again, doubled each time up to the
#: link's ``sync_every`` (a controller that is down is not asked twice a second by every screen)
UNSYNCED_RETRY = 0.5
#: round trips taken one after the other when a screen connects: the clock uses the one with
#: the shortest delay. Each next one is asked when the last is answered, so a room of 120
#: screens joining at once sends 120 requests, not 360 (and none while the answers queue)
FIRST_SAMPLES = 3
#: longest wait for the broker to take the ``offline`` presence when a link stops (s)
GOODBYE = 1.0
#: the ``state/…`` topics a table screen leaves out: the other tables' views (it has its
#: own), the clients' presence (the console's, not shown on a table)
TABLE_SCREEN_SKIPS = ("table", "presence")


def _account(broker: Broker) -> str | None:
    """A kiosk that logs in is called by its user name (``table-3``, ``wall``): the broker's
    ACL (``floorman broker-config``) grants ``presence/<user>`` and ``ack/<user>`` per account,
    so the client id must be the user name. ``None`` when there is no usable user name."""
    user = broker.username
    return user if user and protocol.CLIENT_ID.match(user) else None


class Link:
    """One kiosk's MQTT link. ``table=None`` for a wall screen.

    Client id: ``name``, else the broker user name, else ``table-<n>`` / ``wall-<random>``."""

    def __init__(self, broker: Broker, *, table: int | None = None, name: str | None = None,
                 notify: Callable[[str, Any], None] | None = None,
                 local: Callable[[], float] = time.monotonic, sync_every: float = 10.0) -> None:
        self.broker = broker
        self.table = table
        self.topics = Topics(broker.prefix)
        self.client_id = name or _account(broker) or (
            f"table-{table}" if table else f"wall-{uuid.uuid4().hex[:6]}")
        #: whose answers this link reads: a table's presses are answered on
        #: ``ack/table-N`` whatever the client id (controller/service/inbound.py, answer_to)
        self.reply_to = f"table-{table}" if table else self.client_id
        self.notify = notify or (lambda kind, data: None)
        self.sync = ClockSync(local)
        self.sync_every = sync_every
        self._next_sync = 0.0  # time.monotonic() of the next time request (the pump's)
        self._retry = UNSYNCED_RETRY  # the wait after the next unanswered one (s)
        self.state: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.outbox: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.mqtt = client(broker, self.client_id)
        self.mqtt.will_set(self.topics.presence(self.client_id), self._presence(False), 1, True)
        self.mqtt.on_connect = self._on_connect
        self.mqtt.on_disconnect = self._on_disconnect
        self.mqtt.on_connect_fail = self._on_connect_fail
        self.mqtt.on_message = self._on_message

    # -------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.mqtt.connect_async(self.broker.host, self.broker.port, keepalive=5)
        self.mqtt.loop_start()
        self._thread = threading.Thread(target=self._pump, name="link-pump", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = GOODBYE) -> None:
        """Say ``offline`` (waiting at most ``timeout`` s for the broker), disconnect and
        end the link's threads. See :func:`stop_links` for several links at once."""
        stop_links([self], timeout)

    def _presence(self, online: bool) -> bytes:
        return protocol.dumps({"v": 1, "online": online,
                               "role": "table" if self.table else "wall", "table": self.table})

    # ------------------------------------------------------------------ press
    def press(self, action: str, **fields: Any) -> str:
        """Queue a dealer press (``bust`` with ``seat``, ``time``, ``hand_done``, ``undo``)."""
        if self.table is None:
            raise ValueError("a wall screen has no buttons")
        cid = uuid.uuid4().hex
        msg = {"v": 1, "id": cid, "reply_to": self.reply_to, "action": action, **fields}
        with self._lock:
            self.outbox[cid] = {"payload": protocol.dumps(msg), "sent": 0.0}
        self._flush()
        return cid

    def pending(self) -> int:
        with self._lock:
            return len(self.outbox)

    def _flush(self, force: bool = False) -> None:
        """Send the oldest unanswered press: at once, else again after :data:`RESEND` s.

        One press at a time, the next when this one is answered: a press can be lost on
        the way (after a broker restart the controller may not be subscribed yet), and
        with several in flight the resend of a lost one would reach the controller after
        a newer one, which it would then apply first (tests/drills, broker loss)."""
        if not self.connected.is_set() or self.table is None:
            return
        now = time.monotonic()
        with self._lock:
            head = next(iter(self.outbox.values()), None)
            if head is None or not (force or now - head["sent"] >= RESEND):
                return
            head["sent"] = now
            payload = head["payload"]
        self.mqtt.publish(self.topics.table_cmd(self.table), payload, 1)

    def _pump(self) -> None:
        while not self._stop.wait(0.25):
            self._flush()
            if self.connected.is_set() and time.monotonic() >= self._next_sync:
                # synced: a fresh sample now and then; not yet (the controller was down
                # when we connected: nobody answered): ask again, less often each time —
                # the screen shows no clock until then
                self.request_time()

    def _schedule_sync(self) -> None:
        if self.sync.synced:
            self._retry = UNSYNCED_RETRY
            self._next_sync = time.monotonic() + self.sync_every
        else:
            self._next_sync = time.monotonic() + self._retry
            self._retry = min(self._retry * 2, max(self.sync_every, UNSYNCED_RETRY))

    def request_time(self) -> None:
        self._schedule_sync()
        self.mqtt.publish(self.topics.time_request(self.client_id),
                          protocol.dumps(self.sync.request()), 0)

    def state_topics(self) -> list[str]:
        """What this screen subscribes to of ``P/state/…``: a wall every topic; a table
        screen the shared topics and its own table's view only. At a festival of 1,000
        tables a table screen would otherwise get every table's view of every command,
        and after a broker restart 1,000 retained views (docs/performance.md). Nor the
        clients' presence, which no table screen shows: every screen that comes or goes
        republishes it, so 1,000 screens starting sent each other a million copies
        (issue 32.3: the benchmark's 500 screens did not start)."""
        p = self.topics.prefix
        if self.table is None:
            return [f"{p}/state/#"]
        return [*(self.topics.state(name) for name in protocol.STATE
                  if name not in TABLE_SCREEN_SKIPS), self.topics.table_state(self.table)]

    # ----------------------------------------------------------- mqtt thread
    def _on_connect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            # 4 and 5 in MQTT 3.1.1 (134/135 in 5): the user name or password, not allowed
            kind = "account" if rc.value in (4, 5, 134, 135) else "refused"
            self.notify("problem", Problem(kind, str(self.broker), str(rc)))
            return
        p = self.topics.prefix
        c.subscribe([*((t, 1) for t in self.state_topics()), (self.topics.ack(self.reply_to), 1),
                     (self.topics.time_response(self.client_id), 0),
                     # the players' page, for the QR code on the wall (docs/console.md)
                     (f"{p}/console/public", 1)])
        c.publish(self.topics.presence(self.client_id), self._presence(True), 1, True)
        self.connected.set()
        self._retry = UNSYNCED_RETRY
        self.request_time()
        self._flush(force=True)
        self.notify("online", True)

    def _on_connect_fail(self, c: mqtt.Client, u: Any) -> None:
        """paho could not connect (name, port, TLS): find out why, in its network thread
        (which waits before its next try anyway)."""
        if not self._stop.is_set():
            self.notify("problem", diagnose(self.broker))

    def _on_disconnect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any,
                       props: Any = None) -> None:
        self.connected.clear()
        self.notify("online", False)

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            data = json.loads(msg.payload) if msg.payload else None
        except (ValueError, RecursionError):  # an exception here would end paho's thread
            return
        topic = msg.topic
        if data is None and topic == f"{self.topics.prefix}/console/public":
            self.state.pop("console/public", None)  # the console stopped: no QR code
            self.notify("state", "console/public")
            return
        if not isinstance(data, dict):
            return
        if topic == self.topics.time_response(self.client_id):
            if self.sync.response(data) is not None:
                self.notify("synced", self.sync.best)
                if len(self.sync.samples) < FIRST_SAMPLES:
                    self.request_time()  # the next of the first round trips
                else:
                    self._schedule_sync()
            return
        if topic == self.topics.ack(self.reply_to):
            cid = data.get("id")
            if not isinstance(cid, str):
                return
            with self._lock:
                known = self.outbox.pop(cid, None) is not None
            if known or cid in self.answers:
                self.answers[cid] = data
                self.notify("answer", data)
            if known:
                self._flush()  # the next press, if one is waiting
            return
        if topic == f"{self.topics.prefix}/console/public":
            key = "console/public"
        else:
            key = topic[len(self.topics.prefix) + len("/state/"):]
        self.state[key] = data
        self.notify("state", key)


def stop_links(links: Sequence[Link], timeout: float = GOODBYE) -> None:
    """Stop several links together, so that stopping takes as long as one link, not the sum:
    each says ``offline`` (all within ``timeout`` s), then all disconnect, then their
    threads end. paho's network thread sleeps up to 1 s between reconnect attempts when
    the broker is gone; here those sleeps overlap."""
    for link in links:
        link._stop.set()
    sent = [link.mqtt.publish(link.topics.presence(link.client_id), link._presence(False), 1,
                              True)
            for link in links if link.connected.is_set()]
    deadline = time.monotonic() + timeout
    for info in sent:
        try:
            info.wait_for_publish(max(0.0, deadline - time.monotonic()))
        except (RuntimeError, ValueError):  # not queued: the connection is gone
            pass
    for link in links:
        link.mqtt.disconnect()
    for link in links:
        link.mqtt.loop_stop()
        if link._thread is not None:
            link._thread.join()
            link._thread = None
