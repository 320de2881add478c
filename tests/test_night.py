"""``floorman night`` from the checkout (issue 29): the broker with its accounts, the
controller and the console start from one command and print one block; two screens with
no broker argument (``broker: auto``, one table, one wall) find the night by DNS-SD, join
with the join code and show the tournament; a third with a wrong code is refused and says
so; Ctrl-C stops it all, and started again it continues the same night from its log."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.broker.local import missing_broker
from controller.wire.mqtt import Broker
from kiosk.app import KioskApp
from kiosk.config import KioskConfig
from tests.support.controller import director
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(missing_broker() is not None, reason="no broker here")


class NightProcess:
    """``scripts/floorman night sample`` with its own state folder; its output collected."""

    def __init__(self, state: Path, extra: list[str] | None = None, *,
                 floorman: Path = ROOT / "scripts" / "floorman", cwd: Path = ROOT,
                 env: dict[str, str] | None = None) -> None:
        self.state = state
        self.lines: list[str] = []
        env = {**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [str(floorman), "night", "sample", "--state", str(state),
             "--port", "0", "--console-port", "0", *(extra or [])], cwd=cwd, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def field(self, pattern: str) -> str:
        m = wait_for(lambda: re.search(pattern, self.text), 60, pattern,
                     explain=lambda: self.text[-3000:])
        return m.group(1)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


def screen(role: str, table: int | None, code: str) -> KioskApp:
    cfg = KioskConfig(sounds=False, fullscreen=False, auto_broker=True)
    return KioskApp(cfg, role, table, (800, 480), None, headless=True,  # type: ignore[arg-type]
                    join=code).start()


def test_a_night_and_its_screens(tmp_path, monkeypatch, caplog):
    play_a_night(NightProcess, tmp_path, monkeypatch, caplog)


def play_a_night(start: Callable[[Path], NightProcess], tmp_path: Path, monkeypatch,
                 caplog) -> None:
    """The night started by ``start(state)``, its screens, its stop and its second start
    (also run by tests/test_wheel.py with the installed wheel's ``floorman``)."""
    caplog.set_level(logging.INFO, logger="kiosk.app")
    night = start(tmp_path / "state")
    apps: list[KioskApp] = []
    try:
        url = night.field(r"director's console: (\S+)")
        password = night.field(r"password: +(\S+)")
        code = night.field(r"join code: +([0-9-]+)")
        port = int(night.field(r"broker: \w+ on port (\d+)"))
        assert len(password) >= 10 and len(code.replace("-", "")) == 8
        assert "█" in night.text  # the QR code
        with urllib.request.urlopen(url + "login", timeout=20) as page:
            assert page.status == 200

        env = dict(line.split("=", 1) for line in (tmp_path / "state" / "broker" /
                   "credentials" / "director.env").read_text().splitlines() if "=" in line
                   and not line.startswith("#"))
        b = Broker("127.0.0.1", port, env["FLOORMAN_USERNAME"], env["FLOORMAN_PASSWORD"],
                   prefix=env["FLOORMAN_PREFIX"])
        names = [f"Player {n:02d}" for n in range(1, 19)]
        director(b, "register", {"names": names})
        director(b, "draw")

        monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path / "table-pi"))
        table = screen("table", 1, code)
        apps.append(table)
        monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path / "wall-pi"))
        wall = screen("wall", None, code)
        apps.append(wall)
        monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path / "stranger"))
        stranger = screen("table", 2, "1234-5678" if code != "1234-5678" else "8765-4321")
        apps.append(stranger)

        def step() -> None:
            for app in apps:
                app.step(0.02)

        def shows_its_table() -> bool:
            seats = (table.view.state.get("table/1") or {}).get("seats") or []
            return table.view.online and any(s.get("name") in names for s in seats)

        wait_for(shows_its_table, 60, "table 1's screen shows its players", step=step,
                 explain=lambda: f"{table.view.problem} {night.text[-2000:]}")
        wait_for(lambda: wall.view.online and (wall.view.state.get("summary") or {})
                 .get("name", "").startswith("PSC Five Spades"), 60,
                 "the wall shows the tournament", step=step,
                 explain=lambda: f"{wall.view.problem}")
        assert table.link.broker.username == "table-1"
        assert wall.link.broker.username == "wall"
        wait_for(lambda: stranger.view.problem is not None
                 and stranger.view.problem.kind == "wrong_code", 60,
                 "the stranger refused", step=step,
                 explain=lambda: f"{stranger.view.problem}")
        assert not stranger.view.online and "table/2" not in stranger.view.state
        assert any("refused the join code" in r.getMessage() for r in caplog.records)
        assert "pairing: a wrong join code from" in night.text
    finally:
        for app in apps:
            app.close()
        rc = night.stop()
    assert rc == 0, night.text[-3000:]

    again = start(tmp_path / "state")
    try:
        again.field(r"(continued from its log)")
        port = int(again.field(r"broker: \w+ on port (\d+)"))
        b = Broker("127.0.0.1", port, env["FLOORMAN_USERNAME"], env["FLOORMAN_PASSWORD"],
                   prefix=env["FLOORMAN_PREFIX"])
        summary = director(b, "status")["result"]["summary"]
        assert summary["players_left"] == 18 and summary["drawn"], summary
    finally:
        assert again.stop() == 0
