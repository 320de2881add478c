"""A program of this checkout in its own process, as a Pi or systemd runs it: started in
the checkout, its output appended to a log file, killed (a power cut) or stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Self

from .paths import ROOT


class LoggedProcess:
    """``args`` in its own process (cwd: the checkout), stdout and stderr appended to
    ``log``; ``env``: its environment (default: this process's), always unbuffered."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.args = args
        self.log = log
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.started = 0.0  #: time.monotonic() of the last start
        self._offset = 0  # where this incarnation's output starts in the log

    def environment(self) -> dict[str, str]:
        return {**(os.environ if self.env is None else self.env), "PYTHONUNBUFFERED": "1"}

    def start(self) -> Self:
        assert not self.alive, f"{self.args} is running already"
        self._offset = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, env=self.environment(),
                                         stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        self.started = time.monotonic()
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """A power cut: SIGKILL, nothing is flushed or said."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM, as systemd stops it; its exit status."""
        assert self.proc is not None
        self.proc.terminate()
        rc = self.proc.wait(timeout)
        self.proc = None
        return rc

    def stop(self) -> None:
        """End it whatever state it is in (SIGTERM, SIGKILL if it hangs); ``proc`` keeps
        its exit status."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def output(self, all_of_it: bool = False) -> str:
        """What this incarnation printed (``all_of_it``: every start's)."""
        if not self.log.exists():
            return ""
        text = self.log.read_bytes()
        return text[0 if all_of_it else self._offset:].decode(errors="replace")

    def explain(self) -> str:
        """Its state and the end of its output, for a failed wait."""
        if self.proc is None:
            state = "not running"
        elif self.proc.poll() is None:
            state = f"running (pid {self.proc.pid})"
        else:
            state = f"exited with {self.proc.returncode}"
        return f"{' '.join(self.args[1:4])}: {state}; the end of its output:\n" \
               f"{self.output()[-3000:]}"
