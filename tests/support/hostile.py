"""The hostile-client drill's tools (tests/drills/test_drill_hostile_client.py) and the
flood benchmark's (bench/flood.py): the shipped broker with a running tournament, a table
account's presses and their answers, a flooding account in its own process, presses
measured while it floods."""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from controller.director import send
from controller.service.inbound import PRESS_RATE
from controller.wire import protocol
from controller.wire.protocol import Topics

from . import drill as dr
from .controller import ControllerProcess
from .mqtt import Probe
from .paths import ROOT
from .secure import SecureBroker, login
from .waiting import wait_for

PLAYERS = 36  # four tables of nine


class Room:
    """The shipped broker, the controller as the unit runs it, a drawn and running
    tournament of 36 players at 4 tables."""

    def __init__(self, tmp: Path, config: Path) -> None:
        self.tmp = tmp
        self.b = SecureBroker(tmp, tables=4).start()
        self.top = Topics(self.b.prefix)
        self.config = config
        self.ctl: ControllerProcess = self.b.controller(tmp, config)
        self.director = self.b.broker("director")

    def send(self, cmd: str, args: dict[str, Any] | None = None, timeout: float = 20
             ) -> dict[str, Any]:
        return send(self.director, cmd, args, timeout=timeout)

    def open(self, players: int = PLAYERS) -> Room:
        assert self.send("register", {"names": dr.names(players)}, timeout=30)["ok"], \
            self.ctl.output()
        assert self.send("draw")["ok"] and self.send("start")["ok"]
        return self

    def state(self) -> dict[str, Any]:
        """Every retained ``state/…`` payload by its suffix, as a new wall (``wall-2``'s
        account) sees it."""
        base = f"{self.b.prefix}/state/"
        p = login(self.b, "wall-2")
        assert p.connected()
        try:
            p.subscribe(base + "#")
            wait_for(lambda: p.messages and p.silent_for() >= 0.3, 10, "the retained state")
            return {t[len(base):]: v for t, v in p.latest().items() if v is not None}
        finally:
            p.close()

    def rss_mb(self) -> float:
        assert self.ctl.proc is not None
        for line in Path(f"/proc/{self.ctl.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        self.ctl.stop()
        self.b.stop()


def press(who: Probe, table: int, top: Topics, action: str = "undo", *,
          cid: str | None = None, reply_to: str | None = None, **fields: Any) -> str:
    cid = cid or uuid.uuid4().hex
    who.publish(top.table_cmd(table), protocol.dumps(
        {"v": 1, "id": cid, "reply_to": reply_to or f"table-{table}", "action": action,
         **fields}))
    return cid


def answer(who: Probe, top: Topics, client: str, cid: str, timeout: float = 15
           ) -> dict[str, Any]:
    return wait_for(lambda: next((a for a in who.on(top.ack(client))
                                  if isinstance(a, dict) and a.get("id") == cid), None),
                    timeout, f"the answer to {cid} on ack/{client}")


#: the flooding account's program, in a process of its own as on its own Pi (in the test's
#: process its network thread would slow the measuring client down). It floods the way
#: the review's attack did: paho with no limit on the messages in flight
#: (``max_inflight_messages_set(0)``; paho's default of 20 waits for the broker's PUBACKs,
#: and the drill's first flooder allowed 1,000), every publish handed to paho in one loop,
#: as fast as it sends them. ``time`` floods clock-sync requests (QoS 0) and counts the
#: answers it gets.
FLOODER = """
import sys, time
from controller.wire import protocol
from tests.support.mqtt import raw_client
address, user, password, ca, topic, count, kind = sys.argv[1:8]
c = raw_client(address, "flood", username=user, password=password, ca=ca, connect=False)
c.max_inflight_messages_set(0)
answers = []
c.on_message = lambda c, u, m: answers.append(1)
host, port = address.rsplit(":", 1)
c.connect(host, int(port), keepalive=30)
c.loop_start()
if kind == "time":
    c.subscribe(topic.replace("/time/request/", "/time/response/"), 0)
time.sleep(0.5)
print("ready", flush=True)
sys.stdin.readline()
t0 = time.monotonic()
if kind == "time":
    infos = [c.publish(topic, protocol.dumps({"v": 1, "id": i, "t0": 1.0}), 0)
             for i in range(int(count))]
else:
    infos = [c.publish(topic, protocol.dumps({"v": 1, "id": f"flood-{i}", "reply_to": "table-3",
                                              "action": "hand_done"}), 1)
             for i in range(int(count))]
for info in infos:
    info.wait_for_publish(120)
print(f"sent {time.monotonic() - t0:.3f}", flush=True)
time.sleep(2.0)
print(f"answers {len(answers)}", flush=True)
c.disconnect()
c.loop_stop()
"""


class Flooder:
    """:data:`FLOODER` as table 3's account, started ready; :meth:`go` floods."""

    def __init__(self, room: Room, kind: str, count: int) -> None:
        acc = room.b.account("table-3")
        topic = room.top.time_request("table-3") if kind == "time" else room.top.table_cmd(3)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", FLOODER, f"localhost:{room.b.tls_port}",
             acc["FLOORMAN_USERNAME"], acc["FLOORMAN_PASSWORD"], str(room.b.ca), topic,
             str(count), kind],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "ready"
        self.started = 0.0

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.started = time.monotonic()
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def result(self) -> tuple[float, int]:
        """(seconds its publishes took, clock-sync answers it got)."""
        assert self.proc.stdout is not None
        sent = self.proc.stdout.readline().split()
        answers = self.proc.stdout.readline().split()
        assert self.proc.wait(120) == 0 and sent[0] == "sent" and answers[0] == "answers", \
            (sent, answers)
        return float(sent[1]), int(answers[1])

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def press_answered(room: Room, probe: Probe, n: int) -> float:
    """One press of table ``n`` (undo with nothing to undo: an answer without a change);
    milliseconds from its publish to its answer's arrival in the client's network thread."""
    s = time.monotonic()
    cid = press(probe, n, room.top, "undo")
    answer(probe, room.top, f"table-{n}", cid, timeout=30)
    came = probe.arrival(room.top.ack(f"table-{n}"),
                         lambda a, cid=cid: isinstance(a, dict) and a.get("id") == cid)
    assert came is not None
    return (came - s) * 1000


def latencies(room: Room, tables: dict[int, Probe], presses: int) -> list[float]:
    """Milliseconds from a press to its answer, one press at a time, the ``tables`` in turn.

    Each table stays within its own rate (controller/service/inbound.py PRESS_RATE): a single
    table pressing 16 times a second would measure its own limit, not the flood's effect
    (the first run of this drill did: a steady 150 ms, the wait for table 1's next token).
    """
    out = []
    order = sorted(tables)
    gap = 1.0 / PRESS_RATE / len(order) * 1.25  # each table at 80 % of its rate
    for i in range(presses):
        s = time.monotonic()
        out.append(press_answered(room, tables[order[i % len(order)]], order[i % len(order)]))
        time.sleep(max(0.0, gap - (time.monotonic() - s)))
    return out


def pressing(room: Room, tables: dict[int, Probe], seconds: float) -> list[float]:
    """The ``tables`` pressing at once, each in its own thread as its own kiosk does, one
    press at a time at 80 % of its rate, for ``seconds``: the presses the flood meets
    (the review's attack measured them so; a single client pressing in turn met only the
    first of the flood's second)."""
    out: list[float] = []
    lock = threading.Lock()
    gap = 1.0 / PRESS_RATE * 1.25
    end = time.monotonic() + seconds

    def table(n: int) -> None:
        while time.monotonic() < end:
            s = time.monotonic()
            ms = press_answered(room, tables[n], n)
            with lock:
                out.append(ms)
            time.sleep(max(0.0, gap - (time.monotonic() - s)))

    threads = [threading.Thread(target=table, args=(n,), daemon=True) for n in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return out


def figures(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"p50_ms": round(statistics.median(ms), 1),
            "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
            "max_ms": round(ms[-1], 1)}
