"""``floorman demo``, ``controller`` and ``kiosk`` as real processes: SIGTERM and SIGINT end
each within 2 s with exit code 0 and no traceback, and nothing they started outlives them
(the demo's Mosquitto, its port). Without a screen the demo says how to run headless
(issue "one shape for the core", items 8 and 10)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.broker.local import mosquitto_path
from tests.support.controller import wait_up
from tests.support.mqtt import Probe
from tests.support.paths import ROOT
from tests.support.waiting import wait_for

#: how long a stop may take (the issue's bound) on a machine with a core to spare
LIMIT = 2.0


def allowed() -> float:
    """The bound stretched by how many runnable processes share each core (load average per
    core, at least 1): a stop that is 2 s on a quiet machine is 2 s of *its* time, and a CI
    machine under load 50 on 2 cores gives it a 25th of a core (it once took 2.37 s there)."""
    return LIMIT * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
SIGNALS = pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return {**env, "PYTHONUNBUFFERED": "1", "SDL_AUDIODRIVER": "dummy", **extra}


class Floorman:
    """``python -m controller ARGS`` with its output in a file."""

    def __init__(self, tmp: Path, *args: str, group: bool = False, **env: str) -> None:
        self.log = tmp / f"floorman-{args[0]}.log"
        self.group = group  # a process group of its own, signalled as a whole (a terminal)
        self.proc = subprocess.Popen([sys.executable, "-m", "controller", *args], cwd=ROOT,
                                     env=_env(**env), stdout=open(self.log, "wb"),
                                     stderr=subprocess.STDOUT, start_new_session=group)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_output(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        def found() -> re.Match[str] | None:
            assert self.proc.poll() is None, f"ended early ({self.proc.returncode}):\n" \
                f"{self.output()[-3000:]}"
            return re.search(pattern, self.output())
        return wait_for(found, timeout, f"{pattern!r} in the output")

    def stop(self, sig: int) -> tuple[int, float]:
        """Send ``sig``; (exit code, seconds until the process was gone)."""
        t0 = time.monotonic()
        if self.group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(allowed() + 8)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"still running {allowed() + 8:.0f} s after {signal.Signals(sig).name}:\n"
                        f"{self.output()[-3000:]}")
        return rc, time.monotonic() - t0

    def kill(self) -> None:
        """End the process and its children (a demo that failed to stop leaves no broker)."""
        if self.proc.poll() is None:
            for pid in children(self.proc.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.kill()
            self.proc.wait()


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def assert_clean(rc: int, took: float, output: str, sig: int) -> None:
    assert rc == 0, output[-3000:]
    bound = allowed()
    assert took < bound, f"{signal.Signals(sig).name}: {took:.2f} s (bound {bound:.1f} s at " \
        f"load {os.getloadavg()[0]:.1f})\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]


# ------------------------------------------------------------------------------- demo


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("when", ["running", "starting"])
@SIGNALS
def test_demo_stops_on_signal_with_its_broker(tmp_path, sig, when):
    demo = Floorman(tmp_path, "demo", "--headless", "--speed", "60", "--seed", "3",
                    SDL_VIDEODRIVER="dummy")
    try:
        # "starting": while the controller starts and the evening is set up
        port = int(demo.wait_output(r"broker on 127\.0\.0\.1:(\d+)").group(1))
        if when == "running":
            demo.wait_output(r"moment: start")  # screens up, the loop runs
        kids = children(demo.proc.pid)
        if mosquitto_path() is not None:
            assert kids, "the demo's mosquitto is not its child"
        rc, took = demo.stop(sig)
    finally:
        demo.kill()
    out = demo.output()
    assert_clean(rc, took, out, sig)
    assert f"{signal.Signals(sig).name}: stopping" in out
    assert [k for k in kids if running(k)] == []
    assert not listening(port)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP], ids=["INT", "HUP"])
def test_demo_stops_when_its_terminal_signals_the_whole_group(tmp_path, sig):
    """Ctrl-C reaches every process of the terminal's foreground group, closing the terminal
    sends SIGHUP: the demo stops its broker itself, after the screens and the controller."""
    demo = Floorman(tmp_path, "demo", "--headless", "--speed", "60", "--seed", "3",
                    group=True, SDL_VIDEODRIVER="dummy")
    try:
        port = int(demo.wait_output(r"broker on 127\.0\.0\.1:(\d+)").group(1))
        demo.wait_output(r"moment: start")
        kids = children(demo.proc.pid)
        rc, took = demo.stop(sig)
    finally:
        demo.kill()
    assert_clean(rc, took, demo.output(), sig)
    assert [k for k in kids if running(k)] == []
    assert not listening(port)


@pytest.mark.parametrize("env", [{}, {"SDL_VIDEODRIVER": "offscreen"}, {"DISPLAY": ":97"}],
                         ids=["nothing", "offscreen-driver", "display-unreachable"])
def test_demo_without_a_screen_says_how_to_run_headless(tmp_path, env):
    if not env and list(Path("/dev/dri").glob("card*")):
        pytest.skip("this computer has a KMS display device")
    demo = Floorman(tmp_path, "demo", "--speed", "60", **env)
    try:
        rc = demo.proc.wait(30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after 30 s:\n{demo.output()[-3000:]}")
    finally:
        demo.kill()
    out = demo.output()
    assert rc == 1, out
    assert "floorman demo: no screen to show the demo on" in out
    assert "floorman demo --headless --speed 60 --screenshots DIR" in out
    assert "Traceback" not in out
    assert "broker on" not in out  # nothing was started


# ------------------------------------------------------------------- controller, kiosk


@SIGNALS
def test_controller_stops_on_signal_and_says_offline(tmp_path, broker, prefix, sig):
    ctl = Floorman(tmp_path, "controller", str(ROOT / "config/tournaments/sample.yaml"),
                   "--db", str(tmp_path / "log.sqlite"), "--broker", broker.address,
                   "--prefix", prefix)
    try:
        wait_up(broker.for_prefix(prefix), timeout=30)
        rc, took = ctl.stop(sig)
    finally:
        ctl.kill()
    assert_clean(rc, took, ctl.output(), sig)
    assert _presence(broker.address, f"{prefix}/presence/controller") is False


@SIGNALS
def test_kiosk_stops_on_signal_and_says_offline(tmp_path, broker, prefix, sig):
    topic = f"{prefix}/presence/table-1"
    watch = Probe(broker.address, (topic,))
    kiosk = Floorman(tmp_path, "kiosk", str(ROOT / "config/kiosk/table.yaml"), "--table", "1",
                     "--windowed", "800x480", "--broker", broker.address, "--prefix", prefix,
                     SDL_VIDEODRIVER="dummy")
    try:
        wait_for(lambda: any(p and p.get("online") for p in watch.on(topic)), 30,
                 "the kiosk online")
        rc, took = kiosk.stop(sig)
    finally:
        kiosk.kill()
        watch.close()
    assert_clean(rc, took, kiosk.output(), sig)
    assert _presence(broker.address, topic) is False


def _presence(address: str, topic: str) -> bool | None:
    """The retained presence on ``topic``: ``online`` true/false (``None``: none)."""
    p = Probe(address, (topic,))
    try:
        last = wait_for(lambda: p.on(topic), 5, f"retained {topic}")[-1]
        return last.get("online") if isinstance(last, dict) else None
    finally:
        p.close()
