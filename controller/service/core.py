"""The controller service: owns the tournament and speaks MQTT to tables, walls and the director.

One thread does all the tournament work: paho's network thread only puts
inbound messages on a queue (and answers clock-sync requests at once, which
needs nothing but the clock, and sends a command's summary, made by the main
thread, the moment the broker has the command's ack). Each command is executed by the engine, its
events and answer stored durably; then the retained state topics are
republished where they changed, and only then is the command acknowledged.

Run it with ``floorman controller CONFIG``. SIGTERM/SIGINT stop it cleanly;
a fatal error (the log cannot be opened or written) exits non-zero.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import queue
import re
import signal
import socket
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

import paho.mqtt.client as mqtt

from controller.club.intake import (
    banned,
    club_path,
    desk_facts,
    is_over,
    standings_view,
    take_in,
)
from controller.engine import clock as clk
from controller.engine import history
from controller.engine.commands import Rejected
from controller.engine.rules import chip_race, final_deal, hands
from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Event, Tournament
from controller.log import lock, snapshot
from controller.log.floor import Floor, fault_from_env, refusal
from controller.service import fanout, heap, inbound, views
from controller.wire import protocol
from controller.wire.mqtt import Broker, client
from controller.wire.protocol import ProtocolError, Topics

log = logging.getLogger("floorman.controller")

_T = TypeVar("_T")

#: how often the service looks at the clock for level changes and expired time calls (s)
TICK = 0.5
#: how many of the last commands ``history`` lists
HISTORY = 30
#: after a write failed, how long the clock's own events wait before they are tried again (s)
STORE_RETRY = 5.0
#: seconds a thread holds the GIL while another waits for it (Python's default: 0.005)
SWITCH_INTERVAL = 0.0005
#: at most this long (s) the summary waits for the broker to acknowledge a command's ack
#: (its PUBACK, about 0.5 ms on loopback): the ack is on its way before the summary's
#: fan-out to every screen fills the broker and the machine (docs/protocol.md, "Ordering")
ACK_FIRST = 0.005
#: events that change the clock anchor and nothing else: after them only state/clock is
#: recomputed (every table view and its JSON cost ~2 ms a publish with 100 tables)
CLOCK_ONLY_EVENTS = frozenset({"clock", "level_started"})
#: the state names a command's events may change (presence changes only by presence
#: messages); the table views among them only where :meth:`ControllerService._touched` says
AFTER_EVENTS = frozenset(set(protocol.STATE) - {"presence", "table"} | {"tables"})
#: table views the tick recomputes and compares, in turn, as a net for a change that no
#: event named (a missed one is published and logged): 1,000 tables in about two minutes,
#: ~2 ms of a tick there (a press that comes meanwhile waits for it)
SWEEP = 4
#: events after which the tick keeps a copy of the state (``Tournament.keep``) at a quiet
#: moment: an undo replays from it, a few thousand events at most (~50 ms at 10,000
#: players) instead of the whole log (1.1 s at 23,500 events)
KEEP_EVERY = 500
#: a quiet moment: no message for this long (s). A copy holds the loop ~30 ms at 10,000
#: players (a snapshot ~160 ms), and a press that comes meanwhile waits for it: at a
#: club's pace there are quiet moments all night, and a festival's stream of presses
#: meets it rarely
QUIET = 1.0
#: ... or, when no moment is quiet, after this many times KEEP_EVERY events
KEEP_ANYWAY = 4
#: the same for a snapshot (``snapshot.EVERY`` events, at a quiet moment): a restart
#: after a crash folds at most this many times as many events (~0.2 s at 10,000)
SNAPSHOT_ANYWAY = 2
#: lines a second the controller writes about one kind of refused message (oversized,
#: retained, over the press rate); the rest are counted and reported once a second
LOG_LINES_PER_SECOND = 20
#: an inbox entry that only wakes the main thread (a press or presence is waiting)
_WAKE = ("", b"", 0.0)
#: at the start, when the broker's retained ``presence/controller`` says another controller
#: (another instance) is online, this long (s) the controller waits, serving nothing, to see
#: whether it is alive: one that is alive was thrown off the broker by this one's
#: connection (one client id per prefix) and comes back within its reconnect delay (1 s),
#: throwing this one off in turn; one that died without the broker noticing yet (a power
#: cut, a cable) does not come back (docs/security.md, "A second controller")
RIVAL_WAIT = 5.0
#: the exit status of a controller that finds another one on its prefix at the broker, or
#: that another one took over from (docs/operations.md)
EXIT_RIVAL = 8


class ControllerService:
    """The running controller of one tournament."""

    def __init__(self, settings: TournamentSettings, db: str, broker: Broker,
                 *, wall: Callable[[], float] = time.time,
                 client_id: str | None = None, new: bool = False) -> None:
        self.settings = settings
        self.db = db
        #: start a new tournament on an empty file too (``floorman controller --new``)
        self.new = new
        self._locks: list[lock.Lock] = []
        #: after a write failed (a full disk), the clock's events wait until then (wall s)
        self._tick_after = 0.0
        #: when the last message came (monotonic s): the tick's quiet moments (QUIET)
        self._heard = 0.0
        self.broker = broker
        self.topics = Topics(broker.prefix)
        self.wall = wall
        # one per tournament: two controllers with one client id on a broker throw each
        # other off, and with a persistent session one gets the other's commands
        self.client_id = client_id or controller_client_id(broker.prefix)
        #: this process among the controllers of the prefix (in presence/controller)
        self.instance = uuid.uuid4().hex[:12]
        self.since = time.time()  # (not ``wall``: the tests' clocks count its calls)
        self.inbox: queue.Queue[tuple[str, bytes, float]] = queue.Queue()
        #: messages that came while the controller was not live yet (its look at the broker)
        self._held: deque[tuple[str, bytes, float]] = deque()
        #: the tables' presses, rate-limited per table and served in turn (inbound.py)
        self.presses = inbound.Presses(*inbound.limits_from_env())
        #: every inbound kind's budget per client, and who is shut out (inbound.py)
        self.gate = inbound.Gate()
        self._flood_seen = threading.Event()
        #: the tables and clients the controller knows (the filters while one is shut out)
        self._known: tuple[frozenset[int], frozenset[str]] = (frozenset(), frozenset())
        #: the inbound topic filters subscribed, with their QoS
        self._subs: dict[str, int] = {}
        self._subs_lock = threading.Lock()
        # another controller on the prefix (docs/security.md, "A second controller"):
        #: the look at the broker's retained state after connecting is under way
        self._looking = False
        self._look_mid: int | None = None
        #: the latest presence/controller of another instance seen during the look
        self._seen_controller: dict[str, Any] | None = None
        #: set from the start (:meth:`start`) and each connection until it has looked and
        #: found nobody else (:meth:`_go_live`): nothing is published, nothing handled
        self._hold = threading.Event()
        self._been_live = False
        #: at the start, another one's "online" seen: wait until then whether it is alive
        self._grace_until = 0.0
        #: another controller that is alive on this prefix: this one stops
        self._rival: dict[str, Any] | None = None
        #: the latest presence message per client, not yet handled: a flood of presence
        #: messages costs one state publish, not one each
        self._presence_in: dict[str, bytes] = {}
        self._presence_lock = threading.Lock()
        self._quiet = _LogLimiter(LOG_LINES_PER_SECOND)
        self.floor: Floor | None = None
        self.presence: dict[str, dict[str, Any]] = {}
        self._published: dict[str, bytes] = {}
        #: which published table view shows which player (controller/service/fanout.py)
        self._shown = fanout.Shown()
        #: the table the published views say breaks next (its screen shows "breaks")
        self._break_table: int | None = None
        #: where the tick's sweep over the table views goes on
        self._sweep_at = 0
        #: the settings the published structure view was made of (immutable: a structure
        #: change, an undo or a rollback makes new ones): 0.2 ms a command at a festival
        self._structure_of: TournamentSettings | None = None
        #: the plan of a state (tournament, events): it changes only with an event
        self._plan: tuple[Tournament | None, int, dict[str, Any]] = (None, 0, {})
        #: the views that failed, by view and kind of error: each is logged once
        self._faults: set[tuple[str, str]] = set()
        #: the command being handled, for the log of a view that fails after it
        self._doing: str | None = None
        #: the tables whose screens show "hand done?" (the tick republishes them on a change)
        self._hand_done_due: set[int] = set()
        #: state topics published by the publish under way (drills: the fault after two)
        self._sent = 0
        #: the last acknowledgement sent, until the broker has it (:meth:`_ack_taken`)
        self._ack_sent: mqtt.MQTTMessageInfo | None = None
        #: the summary waiting for the broker to have the ack (its mid): sent by paho's
        #: thread at the ack's PUBACK (:meth:`_on_publish`), else by the main thread
        self._after_ack: tuple[int, list[tuple[str, bytes]], threading.Event] | None = None
        self._after_ack_lock = threading.Lock()
        self._republish = threading.Event()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self.mqtt: mqtt.Client | None = None
        #: the club database a finished tournament is imported into ($FLOORMAN_CLUB)
        self.club = club_path()
        self._club_at = 0  # the log's length when it was last taken into it
        #: the season's standings for the wall (state/standings), None: no club database
        self.standings = standings_view(self.club) if self.club else None

    # ------------------------------------------------------------- lifecycle
    def start(self) -> None:
        # the locks first: a second controller must not even read (or create) the log
        self._locks = lock.hold(self.db, self.broker.prefix)
        self._hold.set()  # until the broker is looked at: no other controller on the prefix
        try:
            self.floor = Floor.open(self.settings, self.db, now=self.wall(), new=self.new)
        except BaseException:
            self._release()
            raise
        self.floor.fault = fault_from_env()
        # the WAL copied into the database off the main thread (controller/log/store.py)
        self.floor.store.start_checkpoints()
        log.info("tournament %r: %d events replayed from %s", self.settings.name,
                 len(self.floor.log), self.db)
        heap.settle()  # the state lives all night: out of every collection (service/heap.py)
        c = client(self.broker, self.client_id, clean_session=False)
        c.will_set(self.topics.presence("controller"), self._presence(False), 1, True)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_unsubscribe = self._on_unsubscribe
        c.on_publish = self._on_publish
        c.connect_async(self.broker.host, self.broker.port, keepalive=15)
        c.loop_start()
        self.mqtt = c

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> int:
        """Serve until :meth:`stop` (or SIGTERM); returns the exit status."""
        if self.mqtt is None:
            self.start()
        next_tick = 0.0
        quiet = False
        try:
            while not self._stop.is_set():
                if self._rival is not None:
                    quiet = True
                    self._give_way(self._rival)
                    return EXIT_RIVAL
                now = time.monotonic()
                if self._grace_until and now >= self._grace_until and self._connected.is_set():
                    # nobody came back: the other controller is gone (docs/security.md)
                    log.info("the controller the broker still called online did not come "
                             "back within %.0f s: starting", RIVAL_WAIT)
                    self._grace_until = 0.0
                    self._go_live()
                live = not self._hold.is_set()
                timeout = max(0.0, next_tick - now)
                press_in = self.presses.wait(now) if live else None
                if press_in is not None:
                    timeout = min(timeout, press_in)
                if self._grace_until:
                    timeout = min(timeout, max(0.0, self._grace_until - now))
                if live and self._held:
                    self.handle(*self._held.popleft()[:2])
                    timeout = 0.0
                try:
                    topic, payload, received = self.inbox.get(timeout=timeout)
                except queue.Empty:
                    pass
                else:
                    if topic and live:
                        self.handle(topic, payload)
                    elif topic:  # not live yet: handled once it is
                        self._held.append((topic, payload, received))
                self._police(time.monotonic())
                if not live:
                    if time.monotonic() >= next_tick:
                        next_tick = time.monotonic() + TICK
                        self.tick()
                    continue
                self._handle_presence()
                # one press per turn of the loop, the tables in turn: a flooding table
                # waits for its tokens while the others' presses go ahead
                press = self.presses.take(time.monotonic())
                if press is not None:
                    self.handle(*press)
                if self._republish.is_set() and self._connected.is_set():
                    self._republish.clear()
                    self._published.clear()
                    self._shown.clear()
                    self._announce()
                    self.publish_state()
                if time.monotonic() >= next_tick:
                    next_tick = time.monotonic() + TICK
                    self.tick()
                    self._report_drops()
        finally:
            self._shutdown(quiet=quiet)
        return 0

    def _give_way(self, other: dict[str, Any]) -> None:
        """Another controller is alive on this prefix: one line that names it; the caller
        stops without a word on the broker (docs/operations.md, exit 8)."""
        who = describe_controller(other)
        if self._been_live:
            log.error("another controller took over prefix %s on the broker %s: %s; this one "
                      "stops and does not fight back", self.broker.prefix, self.broker, who)
        else:
            log.error("prefix %s is in use by another controller on the broker %s: %s; stop "
                      "it first", self.broker.prefix, self.broker, who)

    def _shutdown(self, quiet: bool = False) -> None:
        """``quiet``: another controller has the prefix: no "offline" on its presence
        topic, and a clean disconnect, so the broker sends no last will either."""
        c = self.mqtt
        if c is not None:
            if self._connected.is_set() and not quiet:
                info = c.publish(self.topics.presence("controller"), self._presence(False),
                                 1, True)
                try:
                    info.wait_for_publish(2)
                except (RuntimeError, ValueError):
                    pass
            c.disconnect()
            c.loop_stop()
        if self.floor is not None:
            if len(self.floor.log) > self.floor.snapshot_at:
                self.floor.snapshot()  # the next start folds nothing
            self.floor.close()
        self._release()

    def _release(self) -> None:
        for held in self._locks:
            held.release()
        self._locks = []

    # ------------------------------------------------------------ mqtt thread
    def _on_connect(self, c: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any = None) -> None:
        if rc.is_failure:
            log.error("broker %s refused the connection: %s", self.broker, rc)
            return
        p = self.topics.prefix
        self._hold.set()
        self._seen_controller = None
        self._looking = True
        wanted = inbound.filters(p, self.gate.shut_out_of(), *self._known)
        with self._subs_lock:
            self._subs = dict(wanted)
        # presence/controller (QoS 0) and state/# only for their retained messages (what the
        # broker still holds: another controller's presence, maybe the last tournament's
        # state: _check_stale); they are queued for us when the broker handles the
        # SUBSCRIBE, before it handles the UNSUBSCRIBE, so its answer ends the look
        # (_on_unsubscribe). While a client is shut out, the persistent session's cmd/#
        # must go too (inbound.filters)
        ctl = self.topics.presence("controller")
        c.subscribe([(ctl, 0), (f"{p}/state/#", 0),
                     *((t, q) for t, q in wanted.items() if t != ctl)])
        _, self._look_mid = c.unsubscribe(
            [f"{p}/state/#", *([] if f"{p}/cmd/#" in wanted else [f"{p}/cmd/#"])])
        log.info("connected to broker %s", self.broker)
        self._connected.set()

    def _on_unsubscribe(self, c: mqtt.Client, userdata: Any, mid: int, rcs: Any,
                        props: Any = None) -> None:
        if mid != self._look_mid or not self._looking:
            return
        # the look is done: every retained message of presence/controller has come
        self._looking = False
        seen = self._seen_controller
        if seen is not None and seen.get("online") is True:
            if self._been_live:
                # it went online while this one was away: it has the prefix now
                self._rival = seen
            else:
                log.warning("the broker says another controller is online on prefix %s: %s; "
                            "waiting up to %.0f s to see whether it is alive", self.topics.prefix,
                            describe_controller(seen), RIVAL_WAIT)
                self._grace_until = time.monotonic() + RIVAL_WAIT
        elif not self._grace_until:
            self._go_live()
        self.inbox.put(_WAKE)

    def _go_live(self) -> None:
        self._been_live = True
        self._hold.clear()
        self._republish.set()

    def _on_disconnect(self, c: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                       props: Any = None) -> None:
        self._connected.clear()
        self._hold.set()
        if not self._been_live and (self._grace_until or (
                self._seen_controller or {}).get("online") is True):
            # thrown off while it looked at another controller's "online": that one is
            # alive and took its connection back. Not again (no reconnect that would
            # throw it off in turn): stop
            self._rival = self._seen_controller or {}
            c.disconnect()
            self.inbox.put(_WAKE)
            return
        if not self._stop.is_set() and self._rival is None:
            log.warning("lost the broker %s (%s); reconnecting", self.broker, rc)

    def _on_message(self, c: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        received = self.wall()
        payload = bytes(msg.payload)
        topic = msg.topic
        if len(payload) > protocol.MAX_PAYLOAD:
            # refused unread: not parsed, not queued (docs/security.md, sizes)
            self._quiet.warning("oversized", "payload of %d bytes on %s: larger than %d, "
                                "dropped unread", len(payload), topic, protocol.MAX_PAYLOAD)
            return
        if topic == self.topics.presence("controller"):
            self._controller_presence(payload, bool(msg.retain))
            return
        if topic.startswith(self.topics.prefix + "/state/"):
            if msg.retain and payload:  # our own live publishes come back without the flag
                self.inbox.put((topic, payload, received))
            return
        kind, key = self.topics.classify(topic)
        if kind in ("director", "table"):
            if msg.retain:
                # a retained command would be handled again at every start: never
                # handled, and cleared from the broker (an empty retained message removes
                # it; the ACL lets the controller write the command topics for that alone)
                if payload:
                    self._quiet.warning("retained", "retained command on %s: ignored and "
                                        "cleared", topic)
                    c.publish(topic, b"", 1, True)
                return
            if not payload:  # what clearing a retained command sends to every subscriber
                log.info("empty message on %s: ignored", topic)
                return
            who = inbound.sender(kind, key)
            if not self.gate.admit(kind, who, time.monotonic()):
                self._flooded(topic)
                return
            if kind == "table":
                if self.presses.offer(who, (topic, payload)):
                    self.inbox.put(_WAKE)
                else:
                    self.gate.overdrawn(kind, who)
                    self._flooded(topic)
                return
        if kind == "time":
            if msg.retain or self._hold.is_set():
                return  # an old request (its asker has long stopped waiting); not live yet
            if not self.gate.admit(kind, key or "?", time.monotonic()):
                self._flooded(topic)
                return
            # answered here, at once: the round trip must not wait behind commands
            try:
                req = protocol.parse_time_request(payload)
            except ProtocolError as exc:
                log.warning("bad time request on %s: %s", topic, exc)
                return
            c.publish(self.topics.time_response(key or ""), protocol.dumps(
                {"v": 1, "id": req["id"], "t0": req["t0"], "t1": received, "t2": self.wall()}), 0)
            return
        if kind == "presence" and key != "controller":
            if not self.gate.admit(kind, key or "?", time.monotonic()):
                self._flooded(topic)
                return
            with self._presence_lock:
                fresh = key not in self._presence_in
                self._presence_in[key or "?"] = payload
            if fresh:
                self.inbox.put(_WAKE)
            return
        self.inbox.put((topic, payload, received))

    def _flooded(self, topic: str) -> None:
        """A message on ``topic`` was over its client's budget (or its client is shut out):
        a word in the log (at most 20 lines a second); the main thread shuts the client out
        (woken once, not once for each of a flood's messages)."""
        self._quiet.warning("over budget", "message on %s: dropped, its sender is over its "
                            "budget or shut out (docs/security.md, floods)", topic)
        if not self._flood_seen.is_set():
            self._flood_seen.set()
            self.inbox.put(_WAKE)

    def _controller_presence(self, payload: bytes, retained: bool) -> None:
        """``presence/controller``: this controller's own (ignored), or another's. Only
        a live message says the other one is alive now; a retained one (a subscription's
        copy) only what the broker last heard."""
        try:
            data = json.loads(payload) if payload else None
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("instance") == self.instance:
            return
        if self._looking:
            self._seen_controller = data
            return
        if data.get("online") is not True or retained:
            return
        if self._grace_until:
            self._rival = data  # it is alive and says so
        elif not self._hold.is_set() and (_number(data.get("since")), str(data.get("instance"))) \
                < (self.since, self.instance):
            # two at once (not one client id: they do not throw each other off): the one
            # that started later gives way
            self._rival = data
        else:
            return
        self.inbox.put(_WAKE)

    # ------------------------------------------------------------- main thread
    @property
    def tournament(self) -> Tournament:
        assert self.floor is not None
        return self.floor.tournament

    def handle(self, topic: str, payload: bytes) -> None:
        """Handle one inbound message. Never raises on bad input."""
        self._heard = time.monotonic()
        if topic.startswith(self.topics.prefix + "/state/"):
            self._check_stale(topic)
            return
        kind, key = self.topics.classify(topic)
        try:
            if len(payload) > protocol.MAX_PAYLOAD:
                raise ProtocolError(f"payload of {len(payload)} bytes is larger than "
                                    f"{protocol.MAX_PAYLOAD}")
            if kind == "presence":
                if key == "controller":
                    return
                data = protocol.parse_presence(payload)
                self.presence[key or "?"] = inbound.presence_of(key or "?", data)
                self.publish_state(only={"presence"})
                return
            if kind == "director":
                data = protocol.parse_director_command(payload)
                self._doing = f"the director's {data['cmd']}"
                answer = self._answered(lambda: self.director(
                    data["cmd"], data.get("args", {}),
                    inbound.scoped_id("director", data["id"])))
            elif kind == "table":
                data = protocol.parse_table_command(payload, key)
                self._doing = f"table {key}'s {data['action']}"
                answer = self._answered(lambda: self.table_press(int(key or 0), data))
            else:
                log.warning("message on unknown topic %s ignored", topic)
                return
        except ProtocolError as exc:
            log.warning("rejected message on %s: %s", topic, exc)
            reply, cid = _envelope(payload)
            if reply and cid:
                self._ack(inbound.answer_to(kind, key, reply),
                          {"v": 1, "id": cid, "ok": False, "reason": str(exc),
                           "why": {"key": str(exc), "params": {}}})
            return

        def ack() -> None:
            # after the state it changed (the broker keeps our order: whoever has the ack
            # finds the effect in the retained state), before the summary's fan-out to
            # every screen (docs/protocol.md, "Ordering and durability")
            self._ack(inbound.answer_to(kind, key, data["reply_to"]),
                      {"v": 1, "id": data["id"], **answer})

        if answer.get("ok") and answer.get("events"):
            self.publish_state(*self._touched(answer["events"]), then=ack)
            if self._undid(answer["events"]):
                heap.freeze()  # a new state, frozen (the old one is gone: no cycles)
        else:
            ack()

    def _answered(self, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """``run()``'s answer; when it raised (a bug after the engine: its words, a
        reading of the state), the controller stays up and answers what is true: the
        events it stored, or that nothing was changed."""
        length = len(self.floor.log) if self.floor is not None else 0
        try:
            return run()
        except Exception as exc:  # noqa: BLE001 - the controller stays up, whatever it is
            log.exception("%s failed after the engine", self._doing)
            stored = list(range(length + 1, len(self.floor.log) + 1)) \
                if self.floor is not None else []
            if stored:
                return {"ok": True, "events": stored,
                        "message": f"done (events {stored[0]}-{stored[-1]}); its words "
                                   f"failed ({type(exc).__name__})"}
            return refusal(Rejected("internal error ({kind}); nothing was changed",
                                    kind=type(exc).__name__))

    def _undid(self, seqs: list[int]) -> bool:
        """Whether the events ``seqs`` have an undo (it rebuilt the state)."""
        assert self.floor is not None
        events = self.floor.log
        return any(events[s - 1]["type"] == "undo" for s in seqs if 0 < s <= len(events))

    def _handle_presence(self) -> None:
        """The presence messages that came since the last call, the latest per client."""
        with self._presence_lock:
            pending, self._presence_in = self._presence_in, {}
        for key, payload in pending.items():
            self.handle(self.topics.presence(key), payload)

    def _check_stale(self, topic: str) -> None:
        """A retained state topic the broker holds: cleared unless this tournament
        publishes it (a table of the last tournament on this prefix that this one does
        not have, say)."""
        if self.floor is None or self.mqtt is None:
            return
        t = self.tournament
        current = {self.topics.state(n) for n in protocol.STATE if n != "table"}
        current |= {self.topics.table_state(n) for n in set(t.tables) | set(t.broken)}
        if topic not in current:
            log.info("clearing %s: left on the broker, not part of this tournament", topic)
            self.mqtt.publish(topic, b"", 1, True)
            self._published.pop(topic, None)

    def _police(self, now: float) -> None:
        """Shut the clients that overdrew a budget out of their kind, let in those whose
        time is up; the subscriptions follow (inbound.filters)."""
        self._flood_seen.clear()
        flooding = self.gate.flooding()
        back = self.gate.reopen(now)
        for kind, who in flooding:
            seconds = self.gate.shut(kind, who, now)
            log.warning("%s floods %s: not listened to for %.0f s (the broker stops queueing "
                        "its messages for the controller; everybody else goes on)", who,
                        _KIND_WORDS[kind][1], seconds)
        for kind, who in back:
            log.info("%s: listened to again on %s", who, _KIND_WORDS[kind][1])
        if flooding or back:
            self._know()
            self._resubscribe()

    def _know(self) -> bool:
        """The tables and clients known now (the filters while one is shut out);
        whether they changed."""
        if self.floor is None:
            return False
        t = self.tournament
        known = (frozenset(t.tables) | frozenset(t.broken), frozenset(self.presence))
        if known == self._known:
            return False
        self._known = known
        return True

    def _resubscribe(self) -> None:
        """Subscribe to what :func:`inbound.filters` says now and unsubscribe the rest
        (the new ones first: a moment of two copies, not one of none)."""
        wanted = inbound.filters(self.topics.prefix, self.gate.shut_out_of(), *self._known)
        with self._subs_lock:
            add = [(t, q) for t, q in wanted.items() if self._subs.get(t) != q]
            drop = [t for t in self._subs if t not in wanted]
            self._subs = wanted
        c = self.mqtt
        if c is None or not self._connected.is_set():
            return  # the next connection subscribes to them
        if add:
            c.subscribe(add)
        if drop:
            c.unsubscribe(drop)

    def _report_drops(self) -> None:
        presses = self.presses.drops()
        others: dict[tuple[str, str], int] = {}
        for (kind, who), n in self.gate.drops().items():
            if kind == "table":
                presses[who] = presses.get(who, 0) + n
            else:
                others[kind, who] = n
        for who, n in presses.items():
            log.warning("%s: %d presses dropped, more than %.0f a second (it resends what "
                        "it still waits for)", who, n, self.presses.rate)
        for (kind, who), n in others.items():
            log.warning("%s: %d %s dropped, more than %.0f a second", who, n,
                        _KIND_WORDS[kind][0], self.gate.budgets[kind][0])
        self._quiet.report()

    def director(self, cmd: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
        """A director command (engine command or read-only query) → the answer."""
        if cmd in protocol.READ_ONLY:
            return self.query(cmd)
        return self._execute({"cmd": cmd, **args}, cid)

    def table_press(self, table: int, data: dict[str, Any]) -> dict[str, Any]:
        """A dealer's press at ``table`` → the answer."""
        cmd = inbound.press_command(table, data)
        return self._execute(cmd, inbound.scoped_id(f"table-{table}", data["id"]))

    def _execute(self, cmd: dict[str, Any], cid: str) -> dict[str, Any]:
        # an undo's replays (and its answer's words) make whole states: no collection in
        # them (controller/service/heap.py)
        with heap.paused() if cmd.get("cmd") == "undo" else contextlib.nullcontext():
            return self._run(cmd, cid)

    def _run(self, cmd: dict[str, Any], cid: str) -> dict[str, Any]:
        assert self.floor is not None
        now = self.wall()
        refused = self._banned(cmd, now)
        if refused is None:
            cmd, refused = self._members(cmd, now)
        if refused is not None:
            # the desk's refusal from the club database (000 2.7 ban, 000 1.1 age): not an
            # event (nothing happened in the tournament), but kept in the journal
            log.warning("refused %s at the desk: %s", cmd.get("cmd"), refused.get("reason"))
            return refused
        answer = self.floor.execute(cmd, now, command_id=cid)
        self.floor.fault("after-store")
        if answer.get("ok") and "message" not in answer:
            # the events by seq (= position + 1), not "what is new": a resent command gets
            # its stored answer, whose events are older, and must be told the same message
            events = self.floor.log
            new = [events[s - 1] for s in answer["events"] if 0 < s <= len(events)]
            said = history.said(self.tournament, new, now)
            answer = {**answer, "message": history.line(said),
                      "phrases": [p.as_dict() for p in said]}
        if not answer.get("ok"):
            log.info("rejected %s: %s", cmd.get("cmd"), answer.get("reason"))
        elif self.club is not None and is_over(self.tournament) \
                and len(self.floor.log) != self._club_at:
            # the tournament's end (or a change after it): into the club database
            # (docs/club.md); a failure is logged, the controller goes on
            self._club_at = len(self.floor.log)
            if take_in(self.club, self.floor.log, self.db):
                self.standings = standings_view(self.club)
                self.publish_state(only={"standings"})
        return answer

    def _banned(self, cmd: dict[str, Any], now: float) -> dict[str, Any] | None:
        """000 2.7: a registration of a player whom a no-show ban in the club database holds
        today is refused with its end (the director lifts it: floorman club lift-ban).
        Nothing is logged: the registration never happened."""
        if self.club is None or cmd.get("cmd") not in ("register", "late", "preregister"):
            return None
        names = cmd.get("names", cmd.get("name"))
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None  # the engine names what is wrong with it
        import datetime

        found = banned(self.club, names, datetime.date.fromtimestamp(now))
        if not found:
            return None
        name, until = found[0]
        return refusal(Rejected("{player} is banned from tournaments until {until} for "
                                "not coming without calling off (000 2.7)",
                                player=name, until=until))

    def _members(self, cmd: dict[str, Any], now: float
                 ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The club's record of the registered (issue 31, controller/club/members.py) into
        the command, so the engine decides from the log: those without the season's fee
        are guests (000 2.1: ``guests``); with ``desk.ask_age``, a player whose 18 is not
        on record is asked first (000 1.1, 003 1: refused until ``adult``)."""
        if self.club is None or cmd.get("cmd") not in ("register", "late", "preregister"):
            return cmd, None
        names = cmd.get("names", cmd.get("name"))
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return cmd, None
        import datetime

        settings = self.tournament.settings
        known = desk_facts(self.club, names, datetime.date.fromtimestamp(now),
                           settings.club.seasons)
        if settings.desk.ask_age and cmd.get("adult") is None:
            ask = [n for n in names if known.get(n, (False, None))[1] is None]
            if ask:
                return cmd, refusal(Rejected(
                    "ask {player}: 18 or older? No confirmation on record (000 1.1, 003 1): "
                    "register again with 18+ confirmed", player=", ".join(ask)))
        guests = [n for n in names if n in known and not known[n][0]]
        if not guests:
            return cmd, None
        if cmd["cmd"] == "late":
            return {**cmd, "member": False}, None
        return {**cmd, "guests": sorted(set(guests) | set(cmd.get("guests") or []))}, None

    def query(self, cmd: str) -> dict[str, Any]:
        t = self.tournament
        now = self.wall()
        if cmd == "results":
            return {"ok": True, "result": views.results_view(t, whole=True),
                    "message": "results"}
        if cmd == "players":
            pv = views.players_view(t)
            return {"ok": True, "result": pv, "message": f"{len(pv['players'])} players"}
        if cmd == "moves":
            mv = views.moves_view(t)
            return {"ok": True, "result": mv,
                    "message": f"{len(mv['pending'])} moves pending, plan: {mv['plan']}"}
        if cmd == "deal_proposal":  # a deal at the final table, proposed (issue 30)
            try:
                proposed = final_deal.proposal(t)
            except Rejected as exc:
                return refusal(exc)
            return {"ok": True, "result": {"v": views.SCHEMA, **proposed},
                    "message": deal_lines(proposed)}
        if cmd == "history":
            rows = history.recent(t, HISTORY)
            return {"ok": True, "result": {"v": views.SCHEMA, "commands": rows},
                    "message": history_lines(rows)}
        summary = views.summary_view(t)
        clock = views.clock_view(t, now)
        offline = sorted(k for k, v in self.presence.items() if not v["online"])
        # before the start (and paused) the level waits with this much time
        left = clk.left(t.clock, t.settings.structure, now)
        tables = sorted(t.tables)
        return {"ok": True, "result": {"summary": summary, "tables": tables, "clock": clock,
                                        "presence": self.presence, "offline": offline,
                                        "server_time": now},
                "message": status_line(summary, tables, clock, now, offline, left)}

    def tick(self) -> None:
        """Level changes, ghosts, add-on, expired time calls: whatever the passing time made."""
        if self.floor is None:
            return
        t = self.tournament
        now = self.wall()
        seqs: list[int] = []
        if t.drawn and not t.finished and now >= self._tick_after:
            # the engine decides what the time made: levels, ghosts, add-on, expired time calls
            answer = self.floor.execute({"cmd": "tick"}, now)
            if not answer.get("ok"):
                # not stored (a full disk): the screens' clock runs on from its anchor; try
                # again in a while, not every tick (each failure rebuilds the state)
                self._tick_after = now + STORE_RETRY
            seqs += answer.get("events") or []
        if self._background_due(len(self.floor.log) - self.floor.snapshot_at,
                                snapshot.EVERY, SNAPSHOT_ANYWAY):
            # a restart folds at most a few times this many events; taken at a quiet moment
            # (a pickle of 50,000 events and the collection hold the loop ~160 ms)
            self.floor.snapshot()
            heap.settle()  # and the events since the last one frozen with the rest
        if self._background_due(len(self.floor.log) - self.tournament.kept_at,
                                KEEP_EVERY, KEEP_ANYWAY):
            self.tournament.keep()
        only, tables = self._touched(seqs) if seqs else (set(), set())
        flipped = self._hand_done_flips(now)
        if only is not None and flipped:
            only = only | {"tables"}
            tables = None if tables is None else tables | flipped
        if only is None or only:
            self.publish_state(only=only, tables=tables)
        self._sweep()
        if self._know() and self.gate.shut_out_of():
            self._resubscribe()  # a table or a client that came while one is shut out

    def _background_due(self, grown: int, every: int, anyway: int) -> bool:
        """Whether work that holds the loop (a snapshot, a kept state) is due: ``grown``
        events since the last, at least ``every``, nothing waiting, and a quiet moment
        (:data:`QUIET`) or ``anyway`` times ``every`` events without one."""
        return grown >= every and self.inbox.empty() and (
            time.monotonic() - self._heard >= QUIET or grown >= anyway * every)

    def _hand_done_flips(self, now: float) -> set[int]:
        """The tables whose "hand done?" (hands.hand_done_due) came or went since the last
        look: a table that seems to have forgotten it is told so without any event."""
        t = self.tournament
        due = hands.hand_done_due_tables(t, now)
        flipped = due ^ self._hand_done_due
        self._hand_done_due = due
        return flipped

    # ---------------------------------------------------------------- publish
    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        if self.mqtt is None:
            return
        body = protocol.dumps(answer)
        if len(body) > protocol.BROKER_MESSAGE_LIMIT:
            # the broker would drop it and the asker wait for nothing (a query's answer
            # about a field of ~15,000 players): say so instead
            log.error("the answer to %s (%d bytes) is larger than the broker carries (%d)",
                      reply_to, len(body), protocol.BROKER_MESSAGE_LIMIT)
            body = protocol.dumps({"v": 1, "id": answer.get("id"), **refusal(Rejected(
                "the answer has {size} bytes, more than the broker carries ({limit}); "
                "nothing was changed by asking", size=len(body),
                limit=protocol.BROKER_MESSAGE_LIMIT))})
        self._ack_sent = self.mqtt.publish(self.topics.ack(reply_to), body, 1)

    def _ack_taken(self, then: list[tuple[str, bytes]] | None = None) -> None:
        """Wait (at most :data:`ACK_FIRST`) until the broker has acknowledged the last ack:
        it has then passed it on to its subscriber, ahead of the summary's fan-out.

        ``then``: (topic, payload) to publish retained the moment it has: paho's thread
        publishes them as it reads the PUBACK (:meth:`_on_publish`), without waiting for
        this thread to wake first (on a busy machine a wake-up can cost milliseconds,
        issue 32.2); this thread publishes them itself after the wait when it did not."""
        sent, self._ack_sent = self._ack_sent, None
        done = threading.Event()
        if sent is not None and then:
            with self._after_ack_lock:
                self._after_ack = (sent.mid, then, done)
        try:
            if sent is not None:
                sent.wait_for_publish(ACK_FIRST)
        except (RuntimeError, ValueError):
            pass  # not sent (no connection: paho sends it after the reconnect); no wait
        finally:
            with self._after_ack_lock:
                left, self._after_ack = self._after_ack, None
            if then and (sent is None or left is not None):
                assert self.mqtt is not None
                for topic, payload in then:
                    self.mqtt.publish(topic, payload, 1, True)
            elif then:
                # paho's thread took it: its publish is under way; nothing of this thread
                # (a newer summary) may go out before it
                done.wait(1.0)

    def _on_publish(self, c: mqtt.Client, userdata: Any, mid: int, *rest: Any) -> None:
        """paho's thread: the broker has message ``mid``; when it is the ack a summary waits
        for (:meth:`_ack_taken`), the summary goes out now."""
        with self._after_ack_lock:
            waiting = self._after_ack
            if waiting is None or waiting[0] != mid:
                return
            self._after_ack = None
        try:
            for topic, payload in waiting[1]:
                c.publish(topic, payload, 1, True)
        except Exception:  # noqa: BLE001 - paho's thread must live on (its loop would stop)
            log.exception("the summary after an ack could not be published")
        finally:
            waiting[2].set()

    def _presence(self, online: bool) -> bytes:
        """This controller's presence: who it is, for a second one on the prefix to name
        (docs/protocol.md, "Presence")."""
        return protocol.dumps({"v": 1, "online": online, "role": "controller",
                               "instance": self.instance, "host": socket.gethostname(),
                               "pid": os.getpid(), "since": round(self.since, 3)})

    def _announce(self) -> None:
        if self.mqtt is not None:
            self.mqtt.publish(self.topics.presence("controller"), self._presence(True), 1, True)

    def state_messages(self, only: set[str] | None = None) -> dict[str, dict[str, Any]]:
        """Every retained state topic and its payload, as of now (``only``: just these
        state names, ``"tables"`` for every ``table/N``): what a full recompute says."""
        t = self.tournament
        now = self.wall()
        plan = _once(t.plan)  # once, not once per table (and not the publish's cache)
        before, after = self._views(t, now, plan)
        out: dict[str, dict[str, Any]] = {}
        if only is None or "tables" in only:
            pending = t.pending_moves()
            for n in sorted(set(t.tables) | set(t.broken)):
                out[self.topics.table_state(n)] = views.table_view(
                    t, n, plan=plan(), pending=pending, now=now)
        out.update((self.topics.state(name), make()) for name, make in before + after
                   if only is None or name in only)
        return out

    def _made(self, what: str, make: Callable[[], _T]) -> _T | None:
        """``make()``, or ``None`` when it raised: a view or a reading of the state that
        fails must not take the controller down (it would again at every restart, the
        log replaying into the same state). The failure is logged once for each view and
        kind, with the command that led to it; the last good view stays published."""
        try:
            return make()
        except Exception as exc:  # noqa: BLE001 - the controller stays up, whatever it is
            key = (what.split("/")[0], type(exc).__name__)
            if key not in self._faults:
                self._faults.add(key)
                log.exception("the %s view failed after %s; the last good one stays "
                              "published", what, self._doing or "the start")
            return None

    def _views(self, t: Tournament, now: float, plan: Callable[[], dict[str, Any]]) -> tuple[
            tuple[tuple[str, Callable[[], dict[str, Any]]], ...],
            tuple[tuple[str, Callable[[], dict[str, Any]]], ...]]:
        """The state names but the tables and how each is made, in two parts: those sent
        before a command's acknowledgement, and the summary, sent right after it (every
        screen has it: its fan-out would hold the ack up; docs/protocol.md, "Ordering").
        ``plan``: the plan, made once."""
        before: tuple[tuple[str, Callable[[], dict[str, Any]]], ...] = (
            ("clock", lambda: views.clock_view(t, now)),
            ("moves", lambda: views.moves_view(t, plan=plan())),
            ("results", lambda: views.results_view(t)),
            ("structure", lambda: views.structure_view(t)),
            ("presence", lambda: {"v": 1, "clients": self.presence}),
            ("announcement", lambda: views.announcement_view(t)),
        )
        if self.standings is not None:  # the club's season (docs/club.md)
            standings = self.standings
            before += (("standings", lambda: standings),)
        after: tuple[tuple[str, Callable[[], dict[str, Any]]], ...] = (
            ("summary", lambda: views.summary_view(t)),
        )
        return before, after

    def _plan_of(self, t: Tournament) -> dict[str, Any]:
        """``t.plan()``, made once for each state (it costs time in the number of tables;
        the state changes only with an event, an undo or a rollback makes a new one)."""
        made, length, plan = self._plan
        if made is not t or length != len(t.log):
            plan = t.plan()
            self._plan = (t, len(t.log), plan)
        return plan

    def _touched(self, seqs: list[int]) -> tuple[set[str] | None, set[int] | None]:
        """What events ``seqs`` can have changed: the state names (``None``: any) and the
        tables whose views to recompute (``None``: every table; controller/service/fanout.py)."""
        assert self.floor is not None
        events = self.floor.log
        new = [events[s - 1] for s in seqs if 0 < s <= len(events)]
        types = {e["type"] for e in new}
        if any(chip_race_edge(self.tournament, e) for e in new):
            return None, None  # a colour-up break begins or ends: every table's chip race changes
        if "undo" in types and any(e["type"] == "colour_up" for x in new if x["type"] == "undo"
                                   for e in _group(events, int(x["target"]))):
            return None, None  # the director's colour-up undone: its chip races go
        if types and types <= CLOCK_ONLY_EVENTS:
            if "level_started" in types:
                # a table whose hand is in play keeps the level before (000 9.6,
                # rules/hands.py hand_level): every table's view, once a level
                return {"clock", "tables"}, None
            return {"clock"}, set()  # time add/set, pause, resume
        scan = list(new)
        for e in new:
            if e["type"] == "undo":  # what the undone command touched is touched again
                scan += _group(events, int(e["target"]))
        found = fanout.referenced(scan)
        if found is None:
            return None, None
        tables, players = found
        t = self.tournament
        for pid in players:
            p = t.players.get(pid)
            if p is not None and p.table is not None:
                tables.add(p.table)
            tables |= self._shown.tables_of(pid)
        return set(AFTER_EVENTS), tables

    def _send(self, topic: str, data: dict[str, Any] | bytes) -> bool:
        """Publish ``data`` (or its JSON, made already) on ``topic`` retained unless the
        broker holds it already."""
        assert self.mqtt is not None
        payload = data if isinstance(data, bytes) else protocol.dumps(data)
        if not self._due(topic, payload):
            return False
        self.mqtt.publish(topic, payload, 1, True)
        self._sent_one(topic, payload)
        return True

    def _due(self, topic: str, payload: bytes) -> bool:
        """``payload`` is to be published on ``topic``: the broker does not hold it yet."""
        # (held: all of it is published when the controller goes live)
        return self._published.get(topic) != payload and not self._hold.is_set()

    def _sent_one(self, topic: str, payload: bytes) -> None:
        """``payload`` was published on ``topic``."""
        assert self.floor is not None
        self._published[topic] = payload
        self._sent += 1
        if self._sent == 2:
            self.floor.fault("during-publish")  # drills: FLOORMAN_FAULT=during-publish

    def publish_state(self, only: set[str] | None = None,
                      tables: set[int] | None = None,
                      then: Callable[[], None] | None = None) -> int:
        """Publish the retained state topics whose payload changed; returns how many.

        ``only``: recompute just these state names (see :meth:`state_messages`); the
        others are known not to have changed. ``tables``: with ``"tables"`` in ``only``,
        the table views to recompute (``None``: every one); the tables whose published
        views show the same players follow, and when one table that nobody touched
        changed too (a change every table shows), every table is recomputed.

        ``then`` (a command's acknowledgement) is called after every changed view but the
        summary, which follows it once the broker has the ack (at most :data:`ACK_FIRST`
        later; docs/protocol.md, "Ordering and durability")."""
        if self.mqtt is None or self.floor is None:
            if then is not None:
                then()
            return 0
        t = self.tournament
        now = self.wall()
        self._sent = 0
        plan = _once(lambda: self._plan_of(t))  # once for the tables and the moves
        before, after = self._views(t, now, plan)
        if only is None or "tables" in only:
            made = self._made("plan", plan)
            if made is not None:
                self._publish_tables(t, now, made, None if only is None else tables)
        for name, make in before:
            if name == "structure" and only is not None and t.settings is self._structure_of:
                continue  # made of the settings alone, and they are the ones it was made of
            if only is None or name in only:
                data = self._made(name, make)
                if data is None:
                    continue
                self._send(self.topics.state(name), data)
                if name == "structure":
                    self._structure_of = t.settings
        if then is not None:
            then()
        # the summary made and its JSON too while the broker takes the ack (its PUBACK
        # comes in ~0.5 ms): then only its publish is left (issue 32.2)
        last = [(name, protocol.dumps(data)) for name, make in after
                if (only is None or name in only)
                and (data := self._made(name, make)) is not None]
        if then is None or not last:
            for name, payload in last:
                self._send(self.topics.state(name), payload)
            return self._sent
        # the summary's fan-out after the ack has left the broker, published by whichever
        # thread knows it first (:meth:`_ack_taken`)
        due = [(self.topics.state(name), payload) for name, payload in last
               if self._due(self.topics.state(name), payload)]
        if due:
            self._ack_taken(due)
        else:
            self._ack_sent = None  # the summary as it was: no fan-out to keep behind the ack
        for topic, payload in due:
            self._sent_one(topic, payload)
        return self._sent

    def _publish_tables(self, t: Tournament, now: float, plan: dict[str, Any],
                        tables: set[int] | None) -> None:
        pending = t.pending_moves()  # once, not once per table

        def send(n: int) -> set[int]:
            """Table ``n``'s view published if it changed; the players it showed or shows."""
            view = self._made(f"table/{n}", lambda: views.table_view(
                t, n, plan=plan, pending=pending, now=now))
            if view is None:
                return set()
            before = self._shown.players_at(n)
            if not self._send(self.topics.table_state(n), view):
                return set()
            self._shown.update(n, view)
            return before | self._shown.players_at(n)

        def shown(n: int | None) -> bool:
            """Table ``n`` has a view (in play or broken): looked up, not a set of a
            festival's 1,000 tables made for every press."""
            return n in t.tables or n in t.broken

        if tables is not None:
            # the table that breaks next says so, and the one that did not any more
            todo = {n for n in tables | {plan["break_table"], self._break_table} if shown(n)}
            if self._untouched_changed(t, now, plan, pending, todo):
                tables = None
        self._break_table = plan["break_table"]
        if tables is None:
            for n in sorted(set(t.tables) | set(t.broken)):
                send(n)
            return
        done: set[int] = set()
        queue = sorted(todo, reverse=True)
        while queue:
            n = queue.pop()
            if n in done or not shown(n):
                continue
            done.add(n)
            # a changed view: every other view that shows one of its players may have
            # changed with it (the other end of a move)
            for pid in send(n):
                queue += [m for m in self._shown.tables_of(pid) if m not in done]
                p = t.players.get(pid)
                if p is not None and p.table is not None and p.table not in done:
                    queue.append(p.table)

    def _untouched_changed(self, t: Tournament, now: float, plan: dict[str, Any],
                           pending: list[Any], todo: set[int]) -> bool:
        """Whether one table in play and one broken table outside ``todo`` show something
        else than their published views: a change no event named, which every table shows
        (hand-for-hand, the final table due, a renamed level)."""
        # any one of each: the first in the dicts' order (sorting a festival's tables for
        # it cost more than the look)
        in_play = next((n for n in t.tables if n not in todo), None)
        broken = next((n for n in t.broken if n not in todo), None)
        for n in (in_play, broken):
            if n is None:
                continue
            view = self._made(f"table/{n}", functools.partial(
                views.table_view, t, n, plan=plan, pending=pending, now=now))
            if view is not None \
                    and self._published.get(self.topics.table_state(n)) != protocol.dumps(view):
                return True
        return False

    def _sweep(self) -> None:
        """A few table views recomputed and compared, in turn: a change that reached no
        screen (an engine dependency :mod:`controller.service.fanout` does not know) is published
        within a sweep over every table, and logged."""
        if self.mqtt is None or self.floor is None or not self._published:
            return
        t = self.tournament
        every = sorted(set(t.tables) | set(t.broken))
        if not every:
            return
        start = self._sweep_at % len(every)
        chunk = every[start:start + SWEEP]
        self._sweep_at = start + SWEEP
        now = self.wall()
        plan = self._made("plan", lambda: self._plan_of(t))
        if plan is None:
            return
        pending = t.pending_moves()
        self._sent = 0
        for n in chunk:
            view = self._made(f"table/{n}", functools.partial(
                views.table_view, t, n, plan=plan, pending=pending, now=now))
            if view is None:
                continue
            if self._send(self.topics.table_state(n), view):
                self._shown.update(n, view)
                log.warning("table %d's view had changed without being published (a missed "
                            "dependency in controller/service/fanout.py): published now", n)


def chip_race_edge(t: Tournament, event: dict[str, Any]) -> bool:
    """``event`` starts a level that begins or ends a colour-up break (000 3.17), or is the
    director's colour-up (002): the tables' ``chip_race`` appears or goes, so the table
    views are published again."""
    if event["type"] == "colour_up":
        return True
    if event["type"] != "level_started":
        return False
    structure = t.settings.structure
    here = event["level"]
    return any(0 <= i < len(structure) and structure[i].is_break
               and chip_race.colour_up(structure[i].note, t.settings.chip_race.chips)
               is not None for i in (here, here - 1))


class _LogLimiter:
    """At most ``per_second`` warnings a second per kind; the rest are counted and
    reported by :meth:`report` (a flood must not fill the journal)."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._second: dict[str, tuple[int, int]] = {}  # kind -> (second, lines in it)
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def warning(self, kind: str, fmt: str, *args: Any) -> None:
        now = int(time.monotonic())
        with self._lock:
            second, lines = self._second.get(kind, (now, 0))
            if second != now:
                second, lines = now, 0
            if lines >= self.per_second:
                self._held[kind] = self._held.get(kind, 0) + 1
                return
            self._second[kind] = (second, lines + 1)
        log.warning(fmt, *args)

    def report(self) -> None:
        with self._lock:
            held, self._held = self._held, {}
        for kind, n in held.items():
            log.warning("%d more %s messages refused (not logged one by one)", n, kind)


def _once(make: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """``make``, called at most once (the plan costs time in the number of tables)."""
    made: list[dict[str, Any]] = []

    def get() -> dict[str, Any]:
        if not made:
            made.append(make())
        return made[0]

    return get


def _group(events: list[Event], group: int) -> list[Event]:
    """The events of one command (``group``: the seq of its first; they follow it)."""
    out = []
    for e in events[group - 1:]:
        if e.get("group") != group:
            break
        out.append(e)
    return out


#: what a kind's messages are called in the log, and its topic
_KIND_WORDS = {"table": ("presses", "cmd/table/N"), "director": ("director commands",
                                                                 "cmd/director"),
               "time": ("clock-sync requests", "time/request/CLIENT"),
               "presence": ("presence messages", "presence/CLIENT")}


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else 0.0


def describe_controller(presence: dict[str, Any]) -> str:
    """Another controller, as its presence names it: ``pid 4711 on floor-pi since
    2026-11-20 19:02:11 (instance 3f2a9c1b04de)``."""
    parts = []
    if presence.get("pid") is not None:
        parts.append(f"pid {str(presence['pid'])[:12]}")
    if presence.get("host"):
        parts.append(f"on {str(presence['host'])[:64]}")
    since = _number(presence.get("since"))
    if since:
        parts.append("since " + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since)))
    if presence.get("instance"):
        parts.append(f"(instance {str(presence['instance'])[:16]})")
    return " ".join(parts) or "a controller that does not say who it is (an older Floorman)"


def controller_client_id(prefix: str) -> str:
    """The controller's MQTT client id for a topic prefix (unique per tournament)."""
    return "floorman-controller-" + re.sub(r"[^A-Za-z0-9_.-]", "-", prefix)


def _envelope(payload: bytes) -> tuple[str | None, str | None]:
    """reply_to and id of a payload that failed validation, if they can be read (an
    oversized one is not read)."""
    if len(payload) > protocol.MAX_PAYLOAD:
        return None, None
    try:
        import json

        data = json.loads(payload)
        reply, cid = data.get("reply_to"), data.get("id")
        if isinstance(reply, str) and isinstance(cid, str) and protocol._CLIENT.match(reply) \
                and protocol._ID.match(cid):
            return reply, cid
    except Exception:  # noqa: BLE001 - anything unreadable simply has no envelope
        pass
    return None, None


def deal_lines(proposed: dict[str, Any]) -> str:
    """``floorman deal-proposal``: ICM and chip chop side by side, one player a line."""
    from controller.engine.settings import cents_text

    cur = proposed["currency"]
    lines = [f"{'player':<24} {'stack':>12} {'ICM':>12} {'chip chop':>12}"]
    for r in proposed["players"]:
        lines.append(f"{r['name'][:24]:<24} {r['stack']:>12,} {cents_text(r['icm']):>12} "
                     f"{cents_text(r['chip_chop']):>12}")
    lines.append(f"played for (the winner takes it): {cents_text(proposed['played_for'])} {cur}"
                 f" of the {cents_text(proposed['open'])} {cur} still open")
    return "\n".join(lines)


def history_lines(rows: list[dict[str, Any]]) -> str:
    """``floorman history``: one line per command, its number first (``undo --event N``)."""
    if not rows:
        return "nothing has happened yet"
    out = []
    for r in rows:
        when = time.strftime("%H:%M:%S", time.localtime(r["at"]))
        mark = " (by itself)" if r["by_itself"] else ""
        if r["undone_by"] is not None:
            mark += f" [undone by #{r['undone_by']}]"
        out.append(f"#{r['event']:<5} {when}  {r['text']}{mark}")
    return "\n".join(out)


def status_line(summary: dict[str, Any], tables: list[int], clock: dict[str, Any],
                now: float, offline: list[str], left: float | None = None) -> str:
    """``tables``: the numbers of the tables in play. ``left``: seconds left in the level
    (as :func:`controller.engine.clock.left`); by default read from the clock view (which
    has none before the start)."""
    cur = clock["current"]
    if left is None:
        left = clock["remaining"] if not clock["running"] else (
            None if clock["ends_at"] is None else max(0.0, clock["ends_at"] - now))
    when = "∞" if left is None else f"{int(left) // 60}:{int(left) % 60:02d}"
    lvl = "break" if cur["is_break"] else (
        f"level {cur['number']} {cur['small_blind']}/{cur['big_blind']}"
        + (f"/{cur['ante']}" if cur["ante"] else ""))
    state = "running" if clock["running"] else ("paused" if clock["started"] else "not started")
    s = (f"{summary['name']}: {lvl}, {when} left ({state}); {summary['players_left']} of "
         f"{summary['entries']} left, average {summary['average_stack']}, "
         f"tables {tables}")
    if summary["hand_for_hand"]["on"]:
        s += f"; hand-for-hand, waiting for {summary['hand_for_hand']['playing']}"
    if summary["finished"]:
        s += f"; champion {summary['champion']}"
    if offline:
        s += f"; offline: {', '.join(offline)}"
    return s


def serve(settings: TournamentSettings, db: str, broker: Broker, *, new: bool = False) -> int:
    """Run the controller until SIGTERM/SIGINT; logs go to stderr (the journal under systemd).

    Raises :class:`~controller.log.store.StoreError` (its ``exit_code``) when the log cannot
    be taken: held by another controller, not a Floorman log, damaged."""
    svc = ControllerService(settings, db, broker, new=new)

    def _stop(signum: int, frame: Any) -> None:
        log.info("signal %d: stopping", signum)
        svc.stop()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    # the network thread sends what the main thread published (an ack) only once it has
    # the GIL; with Python's 5 ms switch interval an ack waited behind the views computed
    # after it (docs/performance.md)
    sys.setswitchinterval(SWITCH_INTERVAL)
    svc.start()
    return svc.run()
