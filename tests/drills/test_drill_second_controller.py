"""A drill: a second controller on one prefix (issue 27.5, docs/security.md): two real
controller processes on one broker, their logs in different folders, so the file locks
(controller/log/lock.py) do not see each other. Seen before: the two threw each other off
the broker, the screens saw 36 → 0 → 36 players again and again, and every table's
retained state was cleared each time.

1. a second controller finds the first by its presence on the broker and refuses to start
   (exit 8, one line naming it); the first goes on, the screens never see the second's
   state, and nobody is thrown off again after it;
2. a controller that another one took over from (it is online under the prefix's client
   id) stops instead of taking the connection back;
3. the same controller restarts at once after kill -9, and after a death the broker did
   not notice (an "online" presence nobody is behind) after a short wait.

Against the shipped broker configuration (accounts, ACL, the client id is the user name,
so both log in as ``controller``) and against a broker without accounts (the client id is
made of the prefix).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from controller.director import send
from controller.service.core import EXIT_RIVAL, RIVAL_WAIT
from tests.support import drill as dr
from tests.support.broker import MOSQUITTO
from tests.support.controller import ControllerProcess, wait_up
from tests.support.mqtt import Probe
from tests.support.secure import OPENSSL, SecureBroker, login

pytestmark = pytest.mark.skipif(MOSQUITTO is None or OPENSSL is None,
                                reason="mosquitto and openssl are needed")

PLAYERS = 36  # four tables of nine


class Floor:
    """The shipped broker, controller A with its log in ``a/``, a drawn and running
    tournament, and a wall that records every retained state message it gets."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.b = SecureBroker(tmp, tables=4).start()
        self.config = dr.write_tournament(tmp / "night.yaml", "Drill: a second controller")
        self.a = self.controller("a")
        self.director = self.b.broker("director")
        wait_up(self.director, 30)
        assert self.send("register", {"names": dr.names(PLAYERS)}, timeout=30)["ok"]
        assert self.send("draw")["ok"] and self.send("start")["ok"]
        self.wall = login(self.b, "wall-2")
        assert self.wall.connected()
        self.wall.subscribe(f"{self.b.prefix}/state/#")

    def controller(self, folder: str) -> ControllerProcess:
        (self.tmp / folder).mkdir()
        return ControllerProcess(self.config, self.tmp / folder / "night.sqlite",
                                 self.tmp / folder / "controller.log",
                                 env=self.b.env("controller", tls=False)).start()

    def send(self, cmd: str, args: dict[str, Any] | None = None, timeout: float = 20
             ) -> dict[str, Any]:
        return send(self.director, cmd, args, timeout=timeout)

    def kicks(self) -> int:
        """How often the broker threw a ``controller`` connection off for a new one."""
        return sum(1 for ln in self.b.log_text().splitlines()
                   if "already connected, closing old connection" in ln
                   and "controller" in ln)

    def presence(self) -> dict[str, Any]:
        """The controller's retained presence, as the director's account reads it."""
        look = login(self.b, "director")
        assert look.connected()
        try:
            look.subscribe(f"{self.b.prefix}/presence/controller")
            return look.wait_on(f"{self.b.prefix}/presence/controller")[0]
        finally:
            look.close()

    def seen(self) -> list[tuple[str, Any]]:
        """What the wall got since it subscribed: (topic suffix, payload)."""
        base = f"{self.b.prefix}/"
        return [(t[len(base):], json.loads(p) if p else None)
                for t, p, _ in list(self.wall.messages)]

    def close(self) -> None:
        self.wall.close()
        self.a.stop()
        self.b.stop()


@pytest.fixture
def floor(tmp_path):
    f = Floor(tmp_path)
    try:
        yield f
    finally:
        f.close()


def test_a_second_controller_refuses_to_start(floor, report):
    """Controller B, its log in another folder, on A's prefix: it finds A on the broker,
    says so in one line and exits 8; A goes on; the screens see A's state throughout."""
    assert floor.a.proc is not None
    a_pid = floor.a.proc.pid
    floor.wall.quiet(0.3)
    seen_before = len(floor.seen())
    kicks_before = floor.kicks()
    t0 = time.monotonic()
    b = floor.controller("b")
    try:
        rc = b.wait_exit(60)
        refused_after = time.monotonic() - t0
        out = b.output()
        assert rc == EXIT_RIVAL, (rc, out)
        lines = [ln for ln in out.splitlines() if "in use by another controller" in ln]
        assert len(lines) == 1, out
        assert f"pid {a_pid}" in lines[0] and floor.b.prefix in lines[0], lines
        assert "Traceback" not in out
        # A is up, answers, and says it is the controller on the broker
        assert floor.send("status")["result"]["summary"]["players_left"] == PLAYERS
        time.sleep(3.0)  # long enough for a fight to show: each reconnects after 1 s
        assert floor.a.alive, floor.a.output()
        assert "took over" not in floor.a.output()
        kicks = floor.kicks() - kicks_before
        # B's connection threw A off once, A's reconnection threw B off once; no more
        assert kicks <= 2, floor.b.log_text()[-3000:]
        presence = floor.presence()
        assert presence["online"] and presence["pid"] == a_pid, presence
        # the screens never saw B's state: no table cleared, never a summary without players
        during = floor.seen()[seen_before:]
        cleared = [s for s, p in during if s.startswith("state/") and p is None]
        summaries = [p["players_left"] for s, p in during if s == "state/summary" and p]
        assert not cleared, cleared
        assert all(n == PLAYERS for n in summaries), summaries
        report.update(refused_after_s=round(refused_after, 1), kicks=kicks,
                      a_reconnects=floor.a.output().count("connected to broker") - 1,
                      tables_cleared=len(cleared), summaries_seen=summaries)
        report.emit()
    finally:
        b.stop()


def test_a_controller_taken_over_does_not_fight_back(floor, report):
    """Another controller (an older Floorman, or one that started while A was cut off)
    connects under the prefix's client id and is online: A, thrown off, does not throw it
    off in turn again and again: it stops with exit 8, naming it."""
    kicks_before = floor.kicks()
    other = login(floor.b, "controller", tls=False)
    assert other.connected()
    other.publish(f"{floor.b.prefix}/presence/controller",
                  {"v": 1, "online": True, "role": "controller", "instance": "other-one",
                   "host": "second-box", "pid": 4711, "since": time.time()}, retain=True)
    try:
        rc = floor.a.wait_exit(60)
        out = floor.a.output()
        assert rc == EXIT_RIVAL, (rc, out[-3000:])
        lines = [ln for ln in out.splitlines() if "took over prefix" in ln]
        assert len(lines) == 1 and "pid 4711 on second-box" in lines[0], out[-3000:]
        assert "does not fight back" in lines[0]
        # A left without a word: the other's presence stands
        time.sleep(2.0)
        kicks = floor.kicks() - kicks_before
        assert kicks <= 2, floor.b.log_text()[-3000:]
        got = floor.presence()
        assert got["instance"] == "other-one" and got["online"], got
        report.update(kicks=kicks)
        report.emit()
    finally:
        other.publish(f"{floor.b.prefix}/presence/controller", b"", retain=True)
        other.close()


def test_the_same_controller_restarts_after_a_crash(floor, report):
    """kill -9: the broker sends A's last will at once, and A starts again at once. A
    death the broker has not noticed yet (its presence still says online, nobody behind
    it): the restart waits RIVAL_WAIT seconds for it to come back, then starts."""
    floor.a.kill()
    t0 = time.monotonic()
    floor.a.start()
    wait_up(floor.director, 30)
    after_kill = time.monotonic() - t0
    assert "waiting up to" not in floor.a.output()
    # a presence that says online, with nobody behind it
    floor.a.terminate()
    ghost = login(floor.b, "controller", tls=False)
    assert ghost.connected()
    ghost.publish(f"{floor.b.prefix}/presence/controller",
                  {"v": 1, "online": True, "role": "controller", "instance": "dead-one",
                   "host": "floor-pi", "pid": 99, "since": time.time() - 60}, retain=True)
    ghost.close()
    t0 = time.monotonic()
    floor.a.start()
    status = wait_up(floor.director, 60)
    after_ghost = time.monotonic() - t0
    out = floor.a.output()
    assert status["summary"]["players_left"] == PLAYERS
    assert "waiting up to" in out and "did not come back" in out, out[-3000:]
    report.update(restart_after_kill_s=round(after_kill, 1),
                  restart_after_unnoticed_death_s=round(after_ghost, 1),
                  rival_wait_s=RIVAL_WAIT)
    report.emit()


def test_without_accounts_too(controllers, broker, prefix, tmp_path):
    """A broker without accounts (the demo's, the tests'): the client id is made of the
    prefix, the same for both, and the second refuses in the same way."""
    config = dr.write_tournament(tmp_path / "night.yaml", "Drill: no accounts")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = controllers(config, tmp_path / "a" / "night.sqlite", "a.log").start()
    wait_up(broker.for_prefix(prefix), 30)
    b = controllers(config, tmp_path / "b" / "night.sqlite", "b.log").start()
    assert b.wait_exit(60) == EXIT_RIVAL, b.output()
    assert "is in use by another controller" in b.output()
    assert a.alive
    assert wait_up(broker.for_prefix(prefix), 30)["summary"]
    probe = Probe(broker.for_prefix(prefix), (f"{prefix}/presence/controller",))
    got = probe.wait_on(f"{prefix}/presence/controller")[-1]
    probe.close()
    assert a.proc is not None and got["pid"] == a.proc.pid and got["online"]
