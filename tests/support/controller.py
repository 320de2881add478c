"""The controller as the tests and benchmarks run it: its own process, as systemd runs it,
and the director's side (the command line, a command in-process, waiting until it answers).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from controller.director import NoAnswer, send
from controller.wire.mqtt import Broker

from .paths import ROOT
from .processes import LoggedProcess


class ControllerProcess(LoggedProcess):
    """``python -m controller controller CONFIG --db DB [--broker A --prefix P]`` in its own
    process, its output appended to ``log``; restartable and killable.

    ``broker``/``prefix``: where it connects (without them: from ``env``, as the
    installed unit does). ``FLOORMAN_FAULT`` is set only by :meth:`start` (``fault``: a
    stage where it kills itself), never inherited."""

    def __init__(self, config: Path | str, db: Path, log: Path, *, broker: str | None = None,
                 prefix: str | None = None, env: dict[str, str] | None = None) -> None:
        args = [sys.executable, "-m", "controller", "controller", str(config), "--db", str(db)]
        if broker is not None:
            args += ["--broker", broker]
        if prefix is not None:
            args += ["--prefix", prefix]
        super().__init__(args, log, env)
        self.config = Path(config)
        self.db = db
        self.fault: str | None = None

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env.pop("FLOORMAN_FAULT", None)
        if self.fault:
            env["FLOORMAN_FAULT"] = self.fault
        return env

    def start(self, fault: str | None = None) -> ControllerProcess:
        self.fault = fault
        return super().start()

    def wait_exit(self, timeout: float) -> int | None:
        """Its exit status once it ended by itself, or None if it still runs."""
        assert self.proc is not None
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self.proc = None
        return rc


class ControllerFactory:
    """``make(config=…, db=None, start=True)`` → a :class:`ControllerProcess` on one
    broker and prefix, its files in ``folder``; :meth:`close` stops every one made."""

    def __init__(self, folder: Path, broker: str, prefix: str,
                 default_config: Path | None = None) -> None:
        from .paths import SAMPLE_TOURNAMENT

        self.folder = folder
        self.broker = broker
        self.prefix = prefix
        self.default_config = default_config or SAMPLE_TOURNAMENT
        self.made: list[ControllerProcess] = []

    def __call__(self, config: Path | str | None = None, db: Path | None = None, *,
                 start: bool = True, log: str | None = None) -> ControllerProcess:
        n = len(self.made)
        c = ControllerProcess(config or self.default_config,
                              db or self.folder / ("log.sqlite" if n == 0 else f"log{n}.sqlite"),
                              self.folder / (log or f"controller{n}.log"),
                              broker=self.broker, prefix=self.prefix)
        self.made.append(c)
        return c.start() if start else c

    def close(self) -> None:
        for c in self.made:
            if c.alive:
                c.kill()


# --------------------------------------------------------------------------- the director


def floorman_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60.0
                 ) -> subprocess.CompletedProcess:
    """``python -m controller ARGS`` to the end, as typed at the floor (output as text).
    The timeouts here are generous: under xdist on a loaded machine a process's start
    alone has taken half a minute; only a failing test waits that long."""
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def floorman(b: Broker, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess:
    """A director verb against broker ``b`` and its prefix (``--broker``, ``--prefix``)."""
    return floorman_cli(*args, "--broker", str(b), "--prefix", b.prefix, timeout=timeout)


def floorman_json(b: Broker, *args: str) -> dict[str, Any]:
    """A verb with ``--json``: its answer (exit 0 or 1)."""
    r = floorman(b, *args, "--json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def director(b: Broker, cmd: str, args: dict[str, Any] | None = None, *,
             timeout: float = 60.0, ok: bool | None = True,
             command_id: str | None = None) -> dict[str, Any]:
    """One director command in-process (faster than the command line); the answer, which
    must be ``ok`` unless that is None."""
    answer = send(b, cmd, args, timeout=timeout, command_id=command_id)
    if ok is not None:
        assert answer.get("ok") is ok, (cmd, args, answer)
    return answer


def status(b: Broker) -> dict[str, Any]:
    return director(b, "status")["result"]


def wait_up(b: Broker, timeout: float = 60.0, *, every: float = 3.0) -> dict[str, Any]:
    """Wait until the controller answers a status query; its result. Each query waits at
    most ``every`` seconds for its answer (a controller that is still starting, or still
    in its reconnect backoff, is asked again)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return send(b, "status", timeout=max(0.5, min(every, deadline - time.monotonic()))
                        )["result"]
        except NoAnswer:
            if time.monotonic() >= deadline:
                raise


def start_tournament(b: Broker, players: int = 12) -> list[str]:
    """Register ``players`` players (P1, P2 …), draw the seats and start the clock."""
    names = [f"P{i}" for i in range(1, players + 1)]
    director(b, "register", {"names": names})
    director(b, "draw")
    director(b, "start")
    return names
