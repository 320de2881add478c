"""The controller service: owns the tournament and speaks MQTT to tables, walls and the director.

One thread does all the tournament work: paho's network thread only puts
inbound messages on a queue (and answers clock-sync requests at once, which
needs nothing but the clock). Each command is executed by the engine, its
events and answer stored durably; then the retained state topics are
republished where they changed, and only then is the command acknowledged.

Run it with ``floorman controller CONFIG``. SIGTERM/SIGINT stop it cleanly;
a fatal error (the log cannot be opened or written) exits non-zero.
"""

from __future__ import annotations

import logging
import queue
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import paho.mqtt.client as mqtt

from controller import protocol, views
from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Event, Tournament
from controller.floor import Floor, fault_from_env
from controller.mqtt import Broker, client
from controller.protocol import ProtocolError, Topics

log = logging.getLogger("floorman.controller")

#: how often the service looks at the clock for level changes and expired time calls (s)
TICK = 0.5
#: events that change the clock anchor and nothing else: after them only state/clock is
#: recomputed (every table view and its JSON cost ~2 ms a publish with 100 tables)
CLOCK_ONLY_EVENTS = frozenset({"clock", "level_started"})


class ControllerService:
    """The running controller of one tournament."""

    def __init__(self, settings: TournamentSettings, db: str, broker: Broker,
                 *, wall: Callable[[], float] = time.time,
                 client_id: str | None = None) -> None:
        self.settings = settings
        self.db = db
        self.broker = broker
        self.topics = Topics(broker.prefix)
        self.wall = wall
        # one per tournament: two controllers with one client id on a broker throw each
        # other off, and with a persistent session one gets the other's commands
        self.client_id = client_id or controller_client_id(broker.prefix)
        self.inbox: queue.Queue[tuple[str, bytes, float]] = queue.Queue()
        self.floor: Floor | None = None
        self.presence: dict[str, dict[str, Any]] = {}
        self._published: dict[str, bytes] = {}
        self._republish = threading.Event()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self.mqtt: mqtt.Client | None = None

    # ------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.floor = Floor.open(self.settings, self.db, now=self.wall())
        self.floor.fault = fault_from_env()
        log.info("tournament %r: %d events replayed from %s", self.settings.name,
                 len(self.floor.log), self.db)
        c = client(self.broker, self.client_id, clean_session=False)
        c.will_set(self.topics.presence("controller"),
                   protocol.dumps({"v": 1, "online": False, "role": "controller"}), 1, True)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
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
        try:
            while not self._stop.is_set():
                timeout = max(0.0, next_tick - time.monotonic())
                try:
                    topic, payload, received = self.inbox.get(timeout=timeout)
                except queue.Empty:
                    pass
                else:
                    self.handle(topic, payload)
                if self._republish.is_set() and self._connected.is_set():
                    self._republish.clear()
                    self._published.clear()
                    self._announce()
                    self.publish_state()
                if time.monotonic() >= next_tick:
                    next_tick = time.monotonic() + TICK
                    self.tick()
        finally:
            self._shutdown()
        return 0

    def _shutdown(self) -> None:
        c = self.mqtt
        if c is not None:
            if self._connected.is_set():
                info = c.publish(self.topics.presence("controller"),
                                 protocol.dumps({"v": 1, "online": False, "role": "controller"}),
                                 1, True)
                try:
                    info.wait_for_publish(2)
                except (RuntimeError, ValueError):
                    pass
            c.disconnect()
            c.loop_stop()
        if self.floor is not None:
            self.floor.close()

    # ------------------------------------------------------------ mqtt thread
    def _on_connect(self, c: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any = None) -> None:
        if rc.is_failure:
            log.error("broker %s refused the connection: %s", self.broker, rc)
            return
        p = self.topics.prefix
        c.subscribe([(f"{p}/cmd/#", 1), (f"{p}/time/request/+", 0), (f"{p}/presence/+", 1)])
        log.info("connected to broker %s", self.broker)
        self._connected.set()
        self._republish.set()

    def _on_disconnect(self, c: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                       props: Any = None) -> None:
        self._connected.clear()
        if not self._stop.is_set():
            log.warning("lost the broker %s (%s); reconnecting", self.broker, rc)

    def _on_message(self, c: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        received = self.wall()
        payload = bytes(msg.payload)
        kind, key = self.topics.classify(msg.topic)
        if kind == "time":
            # answered here, at once: the round trip must not wait behind commands
            try:
                req = protocol.parse_time_request(payload)
            except ProtocolError as exc:
                log.warning("bad time request on %s: %s", msg.topic, exc)
                return
            c.publish(self.topics.time_response(key or ""), protocol.dumps(
                {"v": 1, "id": req["id"], "t0": req["t0"], "t1": received, "t2": self.wall()}), 0)
            return
        self.inbox.put((msg.topic, payload, received))

    # ------------------------------------------------------------- main thread
    @property
    def tournament(self) -> Tournament:
        assert self.floor is not None
        return self.floor.tournament

    def handle(self, topic: str, payload: bytes) -> None:
        """Handle one inbound message. Never raises on bad input."""
        kind, key = self.topics.classify(topic)
        try:
            if kind == "presence":
                if key == "controller":
                    return
                data = protocol.parse_presence(payload)
                self.presence[key or "?"] = {"online": data["online"], "role": data["role"],
                                             "table": data.get("table")}
                self.publish_state(only={"presence"})
                return
            if kind == "director":
                data = protocol.parse_director_command(payload)
                answer = self.director(data["cmd"], data.get("args", {}), data["id"])
            elif kind == "table":
                data = protocol.parse_table_command(payload, key)
                answer = self.table_press(int(key or 0), data)
            else:
                log.warning("message on unknown topic %s ignored", topic)
                return
        except ProtocolError as exc:
            log.warning("rejected message on %s: %s", topic, exc)
            reply, cid = _envelope(payload)
            if reply and cid:
                self._ack(reply, {"v": 1, "id": cid, "ok": False, "reason": str(exc)})
            return
        if answer.get("ok") and answer.get("events"):
            self.publish_state(only=self._touched(answer["events"]))
        # the ack after the state: the broker keeps our order, so whoever has the ack finds
        # the command's effect in the retained state (docs/protocol.md, "Ordering")
        self._ack(data["reply_to"], {"v": 1, "id": data["id"], **answer})

    def director(self, cmd: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
        """A director command (engine command or read-only query) → the answer."""
        if cmd in protocol.READ_ONLY:
            return self.query(cmd)
        return self._execute({"cmd": cmd, **args}, cid)

    def table_press(self, table: int, data: dict[str, Any]) -> dict[str, Any]:
        """A dealer's press at ``table`` → the answer."""
        action = data["action"]
        if action == "bust":
            cmd: dict[str, Any] = {"cmd": "bust", "table": table, "seat": data["seat"]}
            if data.get("stack") is not None:
                cmd["stack"] = data["stack"]
        elif action == "hand_done":
            cmd = {"cmd": "hand_done", "table": table}
        elif action == "seated":  # everyone on the way to this table (only) has sat down
            cmd = {"cmd": "seated", "table": table}
        elif action == "time":  # the one "time" button: start a call, or cancel the running one
            cmd = {"cmd": "time_call", "table": table, "op": "toggle"}
        elif action in ("time_cancel", "time_expire"):
            cmd = {"cmd": "time_call", "table": table, "op": action.split("_")[1]}
        else:  # undo: the engine finds this table's last press that is not undone yet
            cmd = {"cmd": "undo", "table": table}
        return self._execute(cmd, data["id"])

    def _execute(self, cmd: dict[str, Any], cid: str) -> dict[str, Any]:
        assert self.floor is not None
        now = self.wall()
        answer = self.floor.execute(cmd, now, command_id=cid)
        self.floor.fault("after-store")
        if answer.get("ok") and "message" not in answer:
            # the events by seq (= position + 1), not "what is new": a resent command gets
            # its stored answer, whose events are older, and must be told the same message
            events = self.floor.log
            new = [events[s - 1] for s in answer["events"] if 0 < s <= len(events)]
            answer = {**answer, "message": describe(self.tournament, new)}
        if not answer.get("ok"):
            log.info("rejected %s: %s", cmd.get("cmd"), answer.get("reason"))
        return answer

    def query(self, cmd: str) -> dict[str, Any]:
        t = self.tournament
        now = self.wall()
        if cmd == "results":
            return {"ok": True, "result": views.results_view(t), "message": "results"}
        if cmd == "moves":
            mv = views.moves_view(t)
            return {"ok": True, "result": mv,
                    "message": f"{len(mv['pending'])} moves pending, plan: {mv['plan']}"}
        summary = views.summary_view(t)
        clock = views.clock_view(t, now)
        offline = sorted(k for k, v in self.presence.items() if not v["online"])
        return {"ok": True, "result": {"summary": summary, "clock": clock,
                                        "presence": self.presence, "offline": offline,
                                        "server_time": now},
                "message": status_line(summary, clock, now, offline)}

    def tick(self) -> None:
        """Level changes, ghosts, add-on, expired time calls: whatever the passing time made."""
        if self.floor is None:
            return
        t = self.tournament
        now = self.wall()
        seqs: list[int] = []
        if t.drawn and not t.finished:
            # the engine decides what the time made: levels, ghosts, add-on, expired time calls
            seqs += self.floor.execute({"cmd": "tick"}, now).get("events") or []
        if seqs:
            self.publish_state(only=self._touched(seqs))

    # ---------------------------------------------------------------- publish
    def _ack(self, reply_to: str, answer: dict[str, Any]) -> None:
        if self.mqtt is not None:
            self.mqtt.publish(self.topics.ack(reply_to), protocol.dumps(answer), 1)

    def _announce(self) -> None:
        if self.mqtt is not None:
            self.mqtt.publish(self.topics.presence("controller"),
                              protocol.dumps({"v": 1, "online": True, "role": "controller"}),
                              1, True)

    def state_messages(self, only: set[str] | None = None) -> dict[str, dict[str, Any]]:
        """Every retained state topic and its payload, as of now (``only``: just these
        state names, ``"tables"`` for every ``table/N``)."""
        return dict(self._state_items(only))

    def _state_items(self, only: set[str] | None = None
                     ) -> Iterator[tuple[str, dict[str, Any]]]:
        """(topic, payload) one at a time, so each is sent as soon as it is made: the clock,
        the summary and the tables first, then the rest."""
        t = self.tournament
        now = self.wall()
        top = self.topics
        first: tuple[tuple[str, Callable[[], dict[str, Any]]], ...] = (
            ("clock", lambda: views.clock_view(t, now)),
            ("summary", lambda: views.summary_view(t)),
        )
        rest: tuple[tuple[str, Callable[[], dict[str, Any]]], ...] = (
            ("moves", lambda: views.moves_view(t)),
            ("results", lambda: views.results_view(t)),
            ("structure", lambda: views.structure_view(t)),
            ("presence", lambda: {"v": 1, "clients": self.presence}),
        )
        for name, make in first:
            if only is None or name in only:
                yield top.state(name), make()
        if only is None or "tables" in only:
            time.sleep(0)  # let paho's network thread send the summary before the tables
            plan, pending = t.plan(), t.pending_moves()  # once, not once per table
            for n in sorted(set(t.tables) | set(t.broken)):
                yield top.table_state(n), views.table_view(t, n, plan=plan, pending=pending)
        for name, make in rest:
            if only is None or name in only:
                yield top.state(name), make()

    def _touched(self, seqs: list[int]) -> set[str] | None:
        """The state names events ``seqs`` can have changed; ``None``: any of them."""
        assert self.floor is not None
        events = self.floor.log
        types = {events[s - 1]["type"] for s in seqs if 0 < s <= len(events)}
        if types and types <= CLOCK_ONLY_EVENTS:
            return {"clock"}  # time add/set, pause, resume, a level change: no table changed
        return None

    def publish_state(self, only: set[str] | None = None) -> int:
        """Publish the retained state topics whose payload changed; returns how many.

        ``only``: recompute just these state names (see :meth:`state_messages`); the
        others are known not to have changed."""
        if self.mqtt is None or self.floor is None:
            return 0
        sent = 0
        for topic, data in self._state_items(only):
            payload = protocol.dumps(data)
            if self._published.get(topic) == payload:
                continue
            self.mqtt.publish(topic, payload, 1, True)
            self._published[topic] = payload
            sent += 1
            if sent == 2:
                self.floor.fault("during-publish")  # drills: FLOORMAN_FAULT=during-publish
        return sent


def controller_client_id(prefix: str) -> str:
    """The controller's MQTT client id for a topic prefix (unique per tournament)."""
    return "floorman-controller-" + re.sub(r"[^A-Za-z0-9_.-]", "-", prefix)


def _envelope(payload: bytes) -> tuple[str | None, str | None]:
    """reply_to and id of a payload that failed validation, if they can be read."""
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


def describe(t: Tournament, events: list[Event]) -> str:
    """One readable line for what a command did."""
    parts: list[str] = []
    places = None
    reg = [e["name"] for e in events if e["type"] == "registered"]
    if len(reg) > 1:
        parts.append(f"registered {len(reg)} players: {', '.join(reg)}")
    for e in events:
        if len(reg) > 1 and e["type"] == "registered":
            continue
        typ = e["type"]
        if typ == "busted":
            places = places or t.places()
            p = t.players[e["player"]]
            pl = places.get(p.id)
            parts.append(f"{p.name} out" + (f" in place {pl}" if pl else ""))
        elif typ == "moved":
            parts.append(f"move {t.players[e['player']].name}: table {e['from_table']} seat "
                         f"{e['from_seat']} → table {e['to_table']} seat {e['to_seat']}")
        elif typ == "seated":
            parts.append(f"{t.players[e['player']].name} seated")
        elif typ == "table_broken":
            parts.append(f"table {e['table']} breaks")
        elif typ == "final_table":
            parts.append(f"final table at table {e['table']}")
        elif typ == "hfh":
            parts.append("hand-for-hand " + ("on" if e["on"] else "off") + f" ({e['reason']})")
        elif typ == "hfh_released":
            parts.append(f"hand-for-hand hand {e['hand']}: deal")
        elif typ == "finished":
            parts.append(f"champion: {t.players[e['winner']].name}")
        elif typ == "clock":
            parts.append(f"clock {e['op']}")
        elif typ == "registered":
            parts.append(f"registered {e['name']}")
        elif typ == "seats_drawn":
            parts.append(f"seats drawn: {len(t.tables)} tables")
        elif typ == "hand_done":
            parts.append(f"table {e['table']}: hand done")
        elif typ == "time_call":
            parts.append(f"table {e['table']}: time call {e['op']}")
        elif typ == "undo":
            parts.append(f"undone event {e['target']}")
        elif typ == "structure_changed":
            parts.append(f"structure: {e['change']}")
        elif typ not in ("level_started",):
            parts.append(typ.replace("_", " "))
    if len(parts) > 6:
        parts = parts[:5] + [f"… and {len(parts) - 5} more"]
    return "; ".join(parts) or "ok"


def status_line(summary: dict[str, Any], clock: dict[str, Any], now: float,
                offline: list[str]) -> str:
    cur = clock["current"]
    left = clock["remaining"] if not clock["running"] else (
        None if clock["ends_at"] is None else max(0.0, clock["ends_at"] - now))
    when = "∞" if left is None else f"{int(left) // 60}:{int(left) % 60:02d}"
    lvl = "break" if cur["is_break"] else (
        f"level {cur['number']} {cur['small_blind']}/{cur['big_blind']}"
        + (f"/{cur['ante']}" if cur["ante"] else ""))
    state = "running" if clock["running"] else ("paused" if clock["started"] else "not started")
    s = (f"{summary['name']}: {lvl}, {when} left ({state}); {summary['players_left']} of "
         f"{summary['entries']} left, average {summary['average_stack']}, "
         f"tables {summary['tables']}")
    if summary["hand_for_hand"]["on"]:
        s += f"; hand-for-hand, waiting for {summary['hand_for_hand']['playing']}"
    if summary["finished"]:
        s += f"; champion {summary['champion']}"
    if offline:
        s += f"; offline: {', '.join(offline)}"
    return s


def serve(settings: TournamentSettings, db: str, broker: Broker) -> int:
    """Run the controller until SIGTERM/SIGINT; logs go to stderr (the journal under systemd)."""
    svc = ControllerService(settings, db, broker)

    def _stop(signum: int, frame: Any) -> None:
        log.info("signal %d: stopping", signum)
        svc.stop()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    svc.start()
    return svc.run()
