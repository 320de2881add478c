"""Small helpers shared by the integration tests."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def floorman(broker: str, prefix: str, *args: str, timeout: float = 15.0
             ) -> subprocess.CompletedProcess:
    """Run the director's command line exactly as a director would."""
    return subprocess.run(
        [sys.executable, "-m", "controller", *args, "--broker", broker, "--prefix", prefix],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def floorman_json(broker: str, prefix: str, *args: str) -> dict[str, Any]:
    r = floorman(broker, prefix, *args, "--json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def wait_for(cond: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
