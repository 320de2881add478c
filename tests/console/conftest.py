"""Fixtures of the console tests: the console in this process (uvicorn in a thread) on the
test's Mosquitto and a real controller process, and Debian's chromium driven by Playwright.

Without chromium (or Playwright) the browser tests are skipped, except in CI (``CI`` set),
where .ci/run installs it and a skip would hide a missing install step."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.console import auth
from controller.console.app import Console, serve
from controller.console.hub import Hub
from controller.wire.mqtt import Broker
from tests.support.controller import wait_up
from tests.support.waiting import wait_for

PASSWORD = "Kreuz-Ass-7"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RunningConsole:
    url: str
    broker: Broker
    console: Console
    server: Any
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def start_console(broker: Broker, folder: Path, **options: Any) -> RunningConsole:
    """``options``: more of :class:`Console`'s (``limits``, ``hosts``)."""
    pw = folder / "console.passwd"
    auth.write_password(pw, PASSWORD)
    port = free_port()
    console = Console(Hub(broker, public_url=f"http://127.0.0.1:{port}/p"),
                      auth.read_password(pw), **options)
    server = serve(console, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="console", daemon=True)
    thread.start()
    wait_for(lambda: server.started and console.hub.link_up, 20, "the console is up")
    return RunningConsole(f"http://127.0.0.1:{port}", broker, console, server, thread)


@pytest.fixture
def console(tmp_path, broker, prefix, controller_factory) -> Iterator[RunningConsole]:
    """The console on this test's broker and a started controller (sample tournament)."""
    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    yield rc
    rc.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (no browser download)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is not installed")
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (scripts/test installs it as root)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


class TableClient:
    """A screen's view of the broker (as kiosk/link.py subscribes): every retained
    ``state/…`` payload and the console's players' page, with the local time each came."""

    def __init__(self, broker: Broker) -> None:
        import json

        import paho.mqtt.client as mqtt

        from controller.wire.mqtt import client

        self.prefix = broker.prefix
        self.state: dict[str, Any] = {}
        self.arrived: dict[str, float] = {}
        self.lock = threading.Lock()
        self.client = c = client(broker, f"table-test-{os.getpid()}-{id(self)}")

        def on_connect(c: mqtt.Client, u: Any, f: Any, rc: Any, p: Any = None) -> None:
            c.subscribe([(f"{self.prefix}/state/#", 1), (f"{self.prefix}/console/public", 1)])

        def on_message(c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
            key = msg.topic[len(self.prefix) + 1:]
            with self.lock:
                self.state[key] = json.loads(msg.payload) if msg.payload else None
                self.arrived[key] = time.perf_counter()

        c.on_connect = on_connect
        c.on_message = on_message
        c.connect(broker.host, broker.port)
        c.loop_start()

    def get(self, key: str) -> Any:
        with self.lock:
            return self.state.get(key)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def settle(page: Any, seconds: float = 0.0) -> None:
    """Let the page's stream catch up (a screenshot of a half-updated page says nothing)."""
    if seconds:
        time.sleep(seconds)
    page.wait_for_load_state("domcontentloaded")
