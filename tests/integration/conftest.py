"""Real parts for integration tests: a Mosquitto broker on a free loopback port, and the
controller as a separate process. No broker is assumed to be running."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from controller.local_broker import free_port, wait_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)

requires_broker = pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")






class Mosquitto:
    """A real broker process; :meth:`stop` and :meth:`start` simulate an outage."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.conf = tmp / "mosquitto.conf"
        self.conf.write_text((HERE / "mosquitto.conf").read_text()
                             + f"\nlistener {self.port} 127.0.0.1\n")
        self.proc: subprocess.Popen | None = None
        self.log = tmp / "mosquitto.log"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def broker(tmp_path):
    if MOSQUITTO is None:
        pytest.skip("mosquitto is not installed")
    b = Mosquitto(tmp_path)
    b.start()
    yield b
    b.stop()


@pytest.fixture
def prefix():
    """A unique topic prefix per test, so tests never see each other's retained messages."""
    return f"test/{uuid.uuid4().hex[:10]}"


class ControllerProcess:
    """``floorman controller`` in its own process, as systemd would run it."""

    def __init__(self, config: Path, db: Path, broker: Mosquitto, prefix: str, log: Path):
        self.args = [sys.executable, "-m", "controller", "controller", str(config),
                     "--db", str(db), "--broker", broker.address, "--prefix", prefix]
        self.log = log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(self.args, cwd=ROOT, env=env, stdout=open(self.log, "ab"),
                                     stderr=subprocess.STDOUT)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def terminate(self) -> int:
        assert self.proc is not None
        self.proc.terminate()
        rc = self.proc.wait(10)
        self.proc = None
        return rc

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def controller_factory(tmp_path, broker, prefix):
    procs: list[ControllerProcess] = []

    def make(config: Path | str = ROOT / "config/tournaments/sample.yaml",
             db: Path | None = None) -> ControllerProcess:
        c = ControllerProcess(Path(config), db or tmp_path / "log.sqlite", broker, prefix,
                              tmp_path / f"controller{len(procs)}.log")
        c.start()
        procs.append(c)
        return c

    yield make
    for c in procs:
        if c.proc is not None:
            c.proc.kill()
            c.proc.wait(10)
