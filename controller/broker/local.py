"""A broker on this computer for the demo: Mosquitto when installed, otherwise amqtt.

Both listen on loopback only, anonymous, no persistence: a demo broker is
never reachable from the club's network. amqtt is not installed with Floorman
itself (no Pi needs it): ``pip install 'floorman[demo]'`` adds it.

The tests and benchmarks start their brokers with the same code
(tests/support/broker.py): :class:`MosquittoProcess` runs Mosquitto with any
configuration file and can be stopped and started again on the same ports (a
broker outage).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("floorman.broker")


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0,
              alive: Callable[[], bool] | None = None) -> None:
    """Wait until something listens on loopback ``port`` (raises TimeoutError); stop
    waiting as soon as ``alive()`` says the process that should open it has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if alive is not None and not alive():
                break
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


class MosquittoProcess:
    """``mosquitto -c CONF`` until :meth:`stop`; :meth:`start` runs it again with the same
    file on the same ports (for the tests: a broker outage). Its output goes to ``log``
    (appended; default: nowhere). ``ports``: what it listens on, waited for at the start."""

    def __init__(self, conf: Path, ports: tuple[int, ...], log: Path | None = None,
                 exe: str | None = None) -> None:
        self.conf = conf
        self.ports = ports
        self.log = log
        self.exe = exe or mosquitto_path()
        self.proc: subprocess.Popen | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start Mosquitto and wait until it listens on every port; if it does not, it is
        ended and RuntimeError says why (the end of its log)."""
        if self.exe is None:
            raise RuntimeError("mosquitto is not installed (apt-get install mosquitto)")
        assert self.proc is None, "mosquitto is running already"
        if self.log is None:
            self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        else:
            with open(self.log, "ab") as out:
                # its own session: Ctrl-C in a terminal (SIGINT to the whole foreground
                # group) or SIGHUP reach only the demo, which stops the broker last, after
                # the controller and the screens have said goodbye
                self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdout=out,
                                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            for port in self.ports:
                wait_port(port, alive=lambda: self.running)
        except TimeoutError:
            code = self.proc.poll()
            self.stop()
            why = f"mosquitto -c {self.conf} did not open ports {self.ports}"
            if code is not None:
                why += f" (exit status {code})"
            if self.log is not None and self.log.exists():
                why += ":\n" + self.log.read_text(errors="replace")[-2000:]
            raise RuntimeError(why) from None

    def stop(self) -> None:
        """End it (SIGTERM, SIGKILL after 5 s); nothing happens when it is not running."""
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None


class RunningBroker:
    """What :class:`LocalBroker` and the room's broker (:mod:`controller.broker.room`)
    share: Mosquitto with a configuration file in a temporary folder, or amqtt in a thread
    of its own with its own event loop; :meth:`stop` ends either. ``kind``: "mosquitto"
    or "amqtt"; :attr:`mosquitto` is Mosquitto's process."""

    port: int

    def __init__(self, tmp_prefix: str) -> None:
        self.kind = ""
        self.mosquitto: MosquittoProcess | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix=tmp_prefix)

    def _run_mosquitto(self, exe: str, conf_text: str, log_file: Path | None) -> None:
        conf = Path(self._tmp.name) / "mosquitto.conf"
        conf.write_text(conf_text)
        self.mosquitto = MosquittoProcess(conf, (self.port,), log_file, exe)
        self.kind = "mosquitto"
        try:
            self.mosquitto.start()
        except RuntimeError:
            self._tmp.cleanup()
            raise

    def _run_amqtt(self, make: Callable[[asyncio.AbstractEventLoop], Any]) -> None:
        """``make(loop)``: the amqtt broker to start; started in a thread, and waited for
        until it listens on :attr:`port` (RuntimeError or TimeoutError when it does not;
        then nothing is left running)."""
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(make(loop).start())
            except BaseException as exc:  # noqa: BLE001 - said by the caller
                failed.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()

        threading.Thread(target=run, name="amqtt", daemon=True).start()
        # its start() returns once it listens: no look at the port (amqtt logged such a
        # look, a connection without a packet, as an ERROR at every start of the night)
        started = ready.wait(20)
        if failed:
            self._tmp.cleanup()
            raise RuntimeError(f"the embedded broker did not start: {failed[0]}")
        self._loop = loop
        self.kind = "amqtt"
        if not started:  # leave nothing running
            self.stop()
            raise TimeoutError(f"the embedded broker did not open port {self.port} in 20 s")

    def stop(self) -> None:
        if self.mosquitto is not None:
            self.mosquitto.stop()
            self.mosquitto = None
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._loop = None
        self._tmp.cleanup()


class LocalBroker(RunningBroker):
    """A running loopback broker; :meth:`stop` ends it. ``kind``: "mosquitto" or "amqtt".

    With Mosquitto, ``config`` adds lines to its configuration file and ``log_file`` is
    where its output goes; :attr:`mosquitto` is its process."""

    def __init__(self, port: int | None = None, prefer: str = "mosquitto", *,
                 config: str = "", log_file: Path | None = None) -> None:
        super().__init__("floorman-broker-")
        self.port = port or free_port()
        exe = mosquitto_path()
        if exe and prefer == "mosquitto":
            from controller.wire.protocol import BROKER_MESSAGE_LIMIT

            self._run_mosquitto(
                exe, f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                "persistence false\nlog_type error\nset_tcp_nodelay true\n"
                f"message_size_limit {BROKER_MESSAGE_LIMIT}\n" + config, log_file)
        else:
            self._start_amqtt()
        log.info("%s broker on 127.0.0.1:%d", self.kind, self.port)

    def _start_amqtt(self) -> None:
        try:
            from amqtt.broker import Broker
        except ImportError as exc:
            self._tmp.cleanup()
            raise RuntimeError(NO_BROKER) from exc
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}},
            "sys_interval": 0,
            "auth": {"allow-anonymous": True, "plugins": ["auth_anonymous"]},
            "topic-check": {"enabled": False},
        }
        self._run_amqtt(lambda loop: Broker(config, loop=loop))

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"
