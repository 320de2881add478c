"""``floorman night sample``: how long to the console's first page and to a table screen
showing its table (how many tables the embedded broker serves: bench/room_broker.py).

For each broker (Mosquitto, the embedded amqtt: ``--embedded``), a fresh state folder (the
first night of a computer: the accounts are made) and then the same folder again (a
restart: the night continues):

- **console**: from starting ``scripts/floorman night sample`` to the console's ``/login``
  answering 200;
- **screen**: from the same start to a headless table screen (``broker: auto``, found by
  DNS-SD, joined with the printed code, started together with the night) showing table
  1's seats (the director registers 18 players and draws as soon as the broker answers).

    .venv/bin/python bench/night.py [--runs 2]
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from controller.wire.mqtt import Broker  # noqa: E402
from kiosk.app import KioskApp  # noqa: E402
from kiosk.config import KioskConfig  # noqa: E402
from tests.support.controller import director  # noqa: E402
from tests.test_night import NightProcess  # noqa: E402


def creds(state: Path, account: str, port: int) -> Broker:
    env = dict(line.split("=", 1) for line in (state / "broker" / "credentials" /
               f"{account}.env").read_text().splitlines() if "=" in line and line[0] != "#")
    return Broker("127.0.0.1", port, env["FLOORMAN_USERNAME"], env["FLOORMAN_PASSWORD"],
                  prefix=env["FLOORMAN_PREFIX"])


def one_night(state: Path, embedded: bool, kiosk_state: Path) -> tuple[float, float, Path]:
    t0 = time.monotonic()
    night = NightProcess(state, extra=["--embedded"] if embedded else [])
    console = screen = float("nan")
    app = None
    try:
        url = night.field(r"director's console: (\S+)")
        code = night.field(r"join code: +([0-9-]+)")
        port = int(night.field(r"broker: \w+ on port (\d+)"))
        os.environ["FLOORMAN_STATE"] = str(kiosk_state)
        app = KioskApp(KioskConfig(sounds=False, fullscreen=False, auto_broker=True), "table",
                       1, (800, 480), None, headless=True, join=code).start()
        while True:
            try:
                with urllib.request.urlopen(url + "login", timeout=5) as page:
                    if page.status == 200:
                        console = time.monotonic() - t0
                        break
            except OSError:
                time.sleep(0.02)
        b = creds(state, "director", port)
        summary = director(b, "status")["result"]["summary"]
        if not summary.get("drawn"):
            director(b, "register", {"names": [f"Player {n:02d}" for n in range(1, 19)]})
            director(b, "draw")
        while time.monotonic() - t0 < 120:
            app.step(0.02)
            seats = (app.view.state.get("table/1") or {}).get("seats") or []
            if app.view.online and seats:
                screen = time.monotonic() - t0
                break
    finally:
        if app is not None:
            app.close()
        night.stop()
    return console, screen, state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=2, help="starts per broker (fresh, again)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print("| broker | start | console's first page (s) | table screen shows its table (s) |")
    print("| --- | --- | --- | --- |")
    for embedded in (False, True):
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(args.runs):
                c, s, _ = one_night(Path(tmp) / "state", embedded, Path(tmp) / f"pi{run}")
                kind = "amqtt" if embedded else "mosquitto"
                what = "first (accounts made)" if run == 0 else "again (continued)"
                print(f"| {kind} | {what} | {c:.2f} | {s:.2f} |", flush=True)

if __name__ == "__main__":
    main()
