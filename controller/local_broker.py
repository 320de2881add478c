"""A broker on this computer for the demo: Mosquitto when installed, otherwise amqtt.

Both listen on loopback only, anonymous, no persistence: a demo broker is
never reachable from the club's network. amqtt is not installed with Floorman
itself (no Pi needs it): ``pip install 'floorman[demo]'`` adds it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

log = logging.getLogger("floorman.broker")


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0) -> None:
    """Wait until something listens on loopback ``port`` (raises TimeoutError)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"the local broker did not open port {port}")


#: what to install when neither broker is there
NO_BROKER = ("no MQTT broker on this computer: install Mosquitto (sudo apt-get install "
             "mosquitto) or the embedded one, amqtt (pip install 'floorman[demo]'; in a "
             "checkout scripts/setup installs it)")


def amqtt_installed() -> bool:
    return importlib.util.find_spec("amqtt") is not None


def missing_broker() -> str | None:
    """Why :class:`LocalBroker` cannot start (what to install), or None when it can."""
    return None if mosquitto_path() or amqtt_installed() else NO_BROKER


def mosquitto_path() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None


class LocalBroker:
    """A running loopback broker; :meth:`stop` ends it. ``kind``: "mosquitto" or "amqtt"."""

    def __init__(self, port: int | None = None, prefer: str = "mosquitto") -> None:
        self.port = port or free_port()
        self.kind = ""
        self._proc: subprocess.Popen | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="floorman-broker-")
        exe = mosquitto_path()
        if exe and prefer == "mosquitto":
            self._start_mosquitto(exe)
        else:
            self._start_amqtt()
        try:
            wait_port(self.port)
        except BaseException:  # no broker after all (or we were interrupted): leave nothing
            self.stop()
            raise
        log.info("%s broker on 127.0.0.1:%d", self.kind, self.port)

    def _start_mosquitto(self, exe: str) -> None:
        conf = Path(self._tmp.name) / "mosquitto.conf"
        conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                        "persistence false\nlog_type error\nset_tcp_nodelay true\n")
        # its own session: Ctrl-C in a terminal (SIGINT to the whole foreground group) or
        # SIGHUP reach only the demo, which stops the broker last, after the controller and
        # the screens have said goodbye; a broker dying at the same time made them wait
        self._proc = subprocess.Popen([exe, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
        self.kind = "mosquitto"

    def _start_amqtt(self) -> None:
        try:
            from amqtt.broker import Broker
        except ImportError as exc:
            raise RuntimeError(NO_BROKER) from exc
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}},
            "sys_interval": 0,
            "auth": {"allow-anonymous": True, "plugins": ["auth_anonymous"]},
            "topic-check": {"enabled": False},
        }
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            broker = Broker(config, loop=loop)
            loop.run_until_complete(broker.start())
            ready.set()
            loop.run_forever()

        threading.Thread(target=run, name="amqtt", daemon=True).start()
        ready.wait(10)
        self._loop = loop
        self.kind = "amqtt"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._loop = None
        self._tmp.cleanup()
