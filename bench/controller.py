"""Controller benchmark over a real Mosquitto: command round trip and state fan-out.

Starts its own Mosquitto on a free loopback port (the tests' broker,
tests/support/broker.py, on controller.local_broker) and the controller as a
subprocess (tests/support/controller.py), exactly as systemd runs
it (``python -m controller controller FILE --db … --broker … --prefix …``), with
its event log on disk (SQLite WAL, ``synchronous=FULL``). Then, for a
tournament of 10 and one of 100 tables (100 / 1,000 players, 10 a table):

- command round trip: a director command published → its acknowledgement
  received, over a persistent client (the same publish/ack as
  ``controller.director.send``). The commands change state durably:
  ``time add 1`` / ``time add -1`` alternating.
- state fan-out: one table presses "bust" → every simulated table client
  (subscribed to ``<prefix>/state/table/<n>`` and ``<prefix>/state/summary``)
  has the updated summary. Measured from the publish of the press to the
  moment the last client's socket had it (all clients run in one thread on one
  ``select`` loop; a message is stamped when ``select`` reported its socket
  readable, so the benchmark's own processing of the other 99 clients is not
  counted as broker or controller time; a second row stamps after processing,
  an upper bound). Each bust is undone afterwards (the table's "undo" press),
  so the tournament keeps its size; undos are not measured.

The broker runs with ``set_tcp_nodelay true`` as docs/protocol.md asks
(``--nagle`` shows Mosquitto's default: about 45 ms a round trip; 90 ms before
Floorman's clients set TCP_NODELAY themselves).

Target on loopback: p99 ≤ 20 ms for both with 100 tables, durable write
included. ``--profile`` runs the controller in-process under cProfile instead
and prints its hottest functions.

    python bench/controller.py [--commands 300] [--busts 150] [--tables 10 100] [--nagle]

Run it from the checkout (or anywhere): the script puts the checkout first on
``sys.path``, so ``controller`` and the test harness ``tests.support`` are this
checkout's.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

# the checkout first: this script is run as a file, not as a module of a package
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402

from controller import protocol  # noqa: E402
from controller.mqtt import Broker, client  # noqa: E402
from controller.protocol import Topics  # noqa: E402
from tests.support.broker import Mosquitto  # noqa: E402
from tests.support.controller import ControllerProcess  # noqa: E402
from tests.support.figures import pct, print_table  # noqa: E402
from tests.support.mqtt import SelectLoop  # noqa: E402
from tests.support.waiting import wait_for  # noqa: E402

TARGET_MS = 20.0
PER_TABLE = 10


# ------------------------------------------------------------------- processes
class InProcessController:
    """The service in a thread of this process, under cProfile (``--profile``)."""

    def __init__(self, config: Path, db: Path, broker: Broker) -> None:
        from controller.config import load_tournament
        from controller.service import ControllerService

        self.svc = ControllerService(load_tournament(config), str(db), broker)
        self.profile = cProfile.Profile()
        self.svc.start()
        self.thread = threading.Thread(target=self.profile.runcall, args=(self.svc.run,),
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.svc.stop()
        self.thread.join(10)


# ------------------------------------------------------------------- clients
class Director:
    """A persistent director client: publish a command, wait for its ack."""

    def __init__(self, broker: Broker) -> None:
        self.topics = Topics(broker.prefix)
        self.me = f"bench-director-{uuid.uuid4().hex[:6]}"
        self.answers: dict[str, tuple[dict[str, Any], float]] = {}
        self.cond = threading.Condition()
        self.controller_online = threading.Event()
        self.c = client(broker, self.me)
        self.c.on_message = self._on_message
        self.c.connect(broker.host, broker.port, keepalive=30)
        self.c.loop_start()
        subscribed = threading.Event()
        self.c.on_subscribe = lambda *a: subscribed.set()
        # its own answers and the tables': a press is answered on ack/table-N whatever
        # reply_to says (controller/inbound.py, answer_to)
        self.c.subscribe([(self.topics.ack("+"), 1),
                          (self.topics.presence("controller"), 1)])
        if not subscribed.wait(10):
            raise TimeoutError("no SUBACK from the broker")

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        data = json.loads(msg.payload) if msg.payload else {}
        if msg.topic == self.topics.presence("controller"):
            if data.get("online"):
                self.controller_online.set()
            return
        with self.cond:
            self.answers[data.get("id")] = (data, now)
            self.cond.notify_all()

    def publish(self, topic: str, body: dict[str, Any]) -> tuple[str, float]:
        cid = uuid.uuid4().hex
        payload = protocol.dumps({"v": 1, "id": cid, "reply_to": self.me, **body})
        t0 = time.perf_counter()
        self.c.publish(topic, payload, 1)
        return cid, t0

    def answer(self, cid: str, timeout: float = 30.0) -> tuple[dict[str, Any], float]:
        with self.cond:
            if not self.cond.wait_for(lambda: cid in self.answers, timeout):
                raise TimeoutError(f"no answer to {cid}")
            return self.answers.pop(cid)

    def call(self, cmd: str, args: dict[str, Any] | None = None) -> tuple[dict[str, Any], float]:
        """The answer and the round trip in seconds."""
        cid, t0 = self.publish(self.topics.director, {"cmd": cmd, "args": args or {}})
        answer, t1 = self.answer(cid)
        if not answer.get("ok"):
            raise RuntimeError(f"{cmd} {args}: {answer.get('reason')}")
        return answer, t1 - t0

    def press(self, table: int, action: str, **fields: Any) -> str:
        return self.publish(self.topics.table_cmd(table), {"action": action, **fields})[0]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


class Swarm:
    """``n`` table clients on one select loop; each subscribes to its table and the summary."""

    def __init__(self, broker: Broker, tables: list[int]) -> None:
        self.topics = Topics(broker.prefix)
        self.loop = SelectLoop()
        self.clients: dict[int, mqtt.Client] = {}
        #: table → (players_left, select stamp, stamp after this thread processed it)
        self.summary_at: dict[int, tuple[int, float, float]] = {}
        self.table_view: dict[int, bytes] = {}
        self.suback = 0
        for n in tables:
            c = client(broker, f"bench-{broker.prefix.replace('/', '-')}-table-{n}")
            c.user_data_set(n)
            c.on_message = self._on_message
            c.on_subscribe = self._on_subscribe
            c.on_connect = self._on_connect
            c.connect(broker.host, broker.port, keepalive=60)
            self.clients[n] = c
            self.loop.add(c)

    def _on_connect(self, c: mqtt.Client, n: int, flags: Any, rc: Any, props: Any) -> None:
        c.subscribe([(self.topics.table_state(n), 1), (self.topics.state("summary"), 1)])

    def _on_subscribe(self, *a: Any) -> None:
        self.suback += 1

    def _on_message(self, c: mqtt.Client, n: int, msg: mqtt.MQTTMessage) -> None:
        if msg.topic.endswith("/summary"):
            p = msg.payload
            i = p.find(b'"players_left":') + 15
            j = p.find(b",", i)
            self.summary_at[n] = (int(p[i:j]), self.loop.stamp, time.perf_counter())
        else:
            self.table_view[n] = msg.payload

    def all_left(self, players_left: int) -> tuple[float, float] | None:
        """The stamps of the last client to see ``players_left``, or ``None`` if one has not."""
        latest, processed = 0.0, 0.0
        for n in self.clients:
            seen = self.summary_at.get(n)
            if seen is None or seen[0] != players_left:
                return None
            latest, processed = max(latest, seen[1]), max(processed, seen[2])
        return latest, processed

    def seats(self, n: int) -> list[int]:
        view = json.loads(self.table_view[n])
        return [s["seat"] for s in view["seats"] if not s["ghost"]]

    def close(self) -> None:
        self.loop.close()


# ----------------------------------------------------------------- scenario
def tournament_file(tmp: Path, players: int) -> Path:
    path = tmp / f"bench-{players}.yaml"
    path.write_text(f'name: "Benchmark, {players} players"\npreset: psc-five-spades\n'
                    f"players_per_table: {PER_TABLE}\ntable_seats: {PER_TABLE}\n",
                    encoding="utf-8")
    return path


def scenario(tmp: Path, port: int, tables: int, commands: int, busts: int,
             profile: bool) -> dict[str, Any]:
    players = tables * PER_TABLE
    broker = Broker(host="127.0.0.1", port=port, prefix=f"bench/{uuid.uuid4().hex[:8]}")
    config = tournament_file(tmp, players)
    db = tmp / f"bench-{players}.sqlite"
    ctl: ControllerProcess | InProcessController
    if profile:
        ctl = InProcessController(config, db, broker)
    else:
        ctl = ControllerProcess(config, db, tmp / f"controller-{players}.log",
                                broker=str(broker), prefix=broker.prefix).start()
    director = Director(broker)
    swarm: Swarm | None = None
    try:
        if not director.controller_online.wait(20):
            raise TimeoutError("the controller did not come online")
        names = [f"Player {i:04d}" for i in range(1, players + 1)]
        for i in range(0, players, 200):
            director.call("register", {"names": names[i:i + 200]})
        director.call("draw", {"seed": 1})
        director.call("start")

        # command round trip: durable clock changes
        rtt = []
        for i in range(commands):
            _, secs = director.call("time", {"op": "add", "seconds": 1 if i % 2 == 0 else -1})
            rtt.append(secs * 1000)

        # fan-out: one bust → every table client has the new summary
        swarm = Swarm(broker, list(range(1, tables + 1)))
        wait_for(lambda: swarm.all_left(players) is not None and len(swarm.table_view) == tables,
                 30, "the retained state at every table client", every=0.002)
        fan, fan_late, acks = [], [], []
        for k in range(busts):
            n = k % tables + 1
            seat = swarm.seats(n)[0]
            cid, t0 = director.publish(director.topics.table_cmd(n),
                                       {"action": "bust", "seat": seat})
            last = wait_for(lambda: swarm.all_left(players - 1), 10, "the fan-out of a bust",
                            every=0.002)
            answer, t_ack = director.answer(cid)
            if not answer.get("ok"):
                raise RuntimeError(f"bust at table {n} seat {seat}: {answer.get('reason')}")
            fan.append((last[0] - t0) * 1000)
            fan_late.append((last[1] - t0) * 1000)
            acks.append((t_ack - t0) * 1000)
            answer, _ = director.answer(director.press(n, "undo"))
            if not answer.get("ok"):
                raise RuntimeError(f"undo at table {n}: {answer.get('reason')}")
            wait_for(lambda n=n, seat=seat: swarm.all_left(players) is not None
                     and seat in swarm.seats(n), 10, "the fan-out of an undo", every=0.002)
        result = {"tables": tables, "players": players, "rtt": rtt, "fan": fan,
                  "fan_late": fan_late, "acks": acks}
        if isinstance(ctl, InProcessController):
            ctl.stop()
            out = io.StringIO()
            pstats.Stats(ctl.profile, stream=out).sort_stats("cumulative").print_stats(30)
            result["profile"] = out.getvalue()
        return result
    finally:
        if swarm is not None:
            swarm.close()
        director.close()
        ctl.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=300, help="director commands timed")
    ap.add_argument("--busts", type=int, default=150, help="busts timed per tournament")
    ap.add_argument("--tables", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--profile", action="store_true",
                    help="run the controller in-process under cProfile and print its hot spots")
    ap.add_argument("--nagle", action="store_true",
                    help="leave Mosquitto's set_tcp_nodelay at its default (false)")
    args = ap.parse_args()

    started = time.monotonic()
    results = []
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".bench-") as tmpname:
        tmp = Path(tmpname)  # inside the repo, on a real disk: fsync is not free here
        # set_tcp_nodelay (on in the tests' broker): the setting docs/protocol.md asks for;
        # --nagle turns it off again (the last line of the file wins)
        broker = Mosquitto(tmp / "mosquitto.log", config="max_queued_messages 10000\n"
                           + ("set_tcp_nodelay false\n" if args.nagle else ""))
        try:
            for tables in args.tables:
                results.append(scenario(tmp, broker.port, tables, args.commands, args.busts,
                                        args.profile))
        finally:
            broker.close()
    measures = (
        ("rtt", "director command → ack (time add ±1: durable, clock only)", True),
        ("acks", "bust press → its ack (durable, every view recomputed)", True),
        ("fan", "bust press → last table client has the new summary", True),
        ("fan_late", "  the same, stamped after the bench's own processing", False),
    )
    rows: list[tuple[str, ...]] = [("tables", "measure", "p50", "p99", "target", "")]
    for r in results:
        for key, name, targeted in measures:
            v = r[key]
            p99 = pct(v, 99)
            aim = f"p99 ≤ {TARGET_MS:.0f} ms" if targeted and r["tables"] >= 100 else ""
            verdict = ("met" if p99 <= TARGET_MS else "MISSED") if aim else ""
            rows.append((str(r["tables"]), name, f"{statistics.median(v):.2f} ms",
                         f"{p99:.2f} ms", aim, verdict))
    print_table(rows, right=(0, 2, 3))
    print(f"\nsamples per tournament: {args.commands} commands, {args.busts} busts "
          f"(players: 10 a table)")
    print(f"\nwhole run {time.monotonic() - started:.0f} s; controller "
          f"{'in-process (cProfile on: slower)' if args.profile else 'as a subprocess'}, "
          f"Mosquitto on loopback (set_tcp_nodelay {'false' if args.nagle else 'true'}), "
          f"event log on disk")
    for r in results:
        if "profile" in r:
            print(f"\n--- cProfile, {r['tables']} tables ---\n{r['profile']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
