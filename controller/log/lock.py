"""One controller per event log and per topic prefix.

Two controllers on one log (or one prefix) throw each other off the broker and
the screens flip between two states. So the controller holds two locks while it
runs, each an exclusive ``flock`` on a small file:

- ``LOG.lock`` beside the log: one controller per log;
- ``.floorman-prefix-NAME.lock`` in the log's folder (the data folder): one
  controller per prefix among the logs of that folder.

The kernel drops a ``flock`` when its process ends, however it ends (SIGKILL, a
power cut), so a lock never outlives its holder and nothing needs cleaning up.
Each file says who holds it (pid, host, log, prefix, since) for the refusal.
Two controllers on one prefix in different folders or on different machines are
not seen by these locks: they meet on the broker, where the second finds the first's
presence and refuses to start (exit 8; ``controller/service/core.py``, docs/security.md
"A second controller on the prefix").
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import socket
import time
from pathlib import Path

from controller.log.store import EXIT_LOCKED, StoreError


class LogLocked(StoreError):
    """Another controller holds the log or the prefix."""

    exit_code = EXIT_LOCKED


def prefix_lock_path(log: str | os.PathLike[str], prefix: str) -> Path:
    """The prefix's lock file in the log's folder (readable name plus a short hash, so
    ``a/b`` and ``a-b`` differ)."""
    slug = re.sub(r"[^A-Za-z0-9_.-]", "-", prefix)[:60]
    digest = hashlib.sha256(prefix.encode()).hexdigest()[:8]
    return Path(os.path.abspath(log)).parent / f".floorman-prefix-{slug}-{digest}.lock"


class Lock:
    """An exclusive ``flock`` on ``path``, held until :meth:`release` or the process ends."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.what = what
        self._fd: int | None = None

    def acquire(self, holder: dict[str, object]) -> Lock:
        """Take the lock and write ``holder`` into it; :class:`LogLocked` names who has it."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        except OSError as exc:
            raise StoreError(str(self.path), f"cannot make the lock file: {exc.strerror}"
                             ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreError(str(self.path), f"cannot lock: {exc.strerror}") from None
            raise LogLocked(self.what, "is in use by another controller: "
                            + describe(self.path)) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(holder) + "\n").encode(), 0)
        except OSError:
            pass  # a full disk: the lock holds all the same, only its note is missing
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def describe(path: Path) -> str:
    """Who holds the lock file at ``path``, in words."""
    try:
        h = json.loads(path.read_text() or "{}")
    except (OSError, ValueError):
        h = {}
    if not h:
        return "a controller that is just starting (its lock file names nobody yet)"
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(h.get("since", 0)))
    return (f"pid {h.get('pid')} on {h.get('host')} since {since} (log {h.get('log')}, "
            f"prefix {h.get('prefix')}); stop it first")


def hold(log: str, prefix: str) -> list[Lock]:
    """Take both locks of a controller for ``log`` on ``prefix``; :class:`LogLocked` if
    another controller holds either. A ``":memory:"`` log (a throwaway run) takes none."""
    if log == ":memory:":
        return []
    holder = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time(),
              "log": os.path.abspath(log), "prefix": prefix}
    held: list[Lock] = []
    try:
        held.append(Lock(Path(f"{log}.lock"), log).acquire(holder))
        held.append(Lock(prefix_lock_path(log, prefix), f"prefix {prefix}").acquire(holder))
    except BaseException:
        for lock in held:
            lock.release()
        raise
    return held
