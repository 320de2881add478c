"""Running the installer (``scripts/install.sh``) into a throwaway root."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .paths import ROOT

INSTALL = ROOT / "scripts" / "install.sh"


def run(src: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``install.sh ARGS`` of the copy in ``src``; it must succeed."""
    r = subprocess.run(["bash", str(src / "scripts" / "install.sh"), *args],
                       capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "PYTHON": os.environ.get("FLOORMAN_TEST_PYTHON",
                                                                 "python3")})
    assert r.returncode == 0, f"install.sh {' '.join(args)}:\n{r.stdout}\n{r.stderr}"
    return r


def install_twice(src: Path, root: Path, *args: str) -> tuple[str, str]:
    """Install into ``root`` twice (the second run must change nothing); both outputs."""
    first = run(src, *args, "--root", str(root), "--pip-args", "--no-deps").stdout
    second = run(src, *args, "--root", str(root), "--pip-args", "--no-deps").stdout
    return first, second
