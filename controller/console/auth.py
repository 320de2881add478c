"""Who may use the console: the director's password, sessions and cross-site protection.

- The password is stored as a hash only (PBKDF2-SHA512 in Mosquitto's ``$7$`` format,
  :func:`controller.broker.accounts.hash_password`), in a file of one line written by
  ``floorman console --set-password``. The browser never sees it again, nor any broker
  credential: the console's broker account stays on the server.
- A session is a random token in an HttpOnly, SameSite=Strict cookie; the sessions live in
  memory (a restart signs everyone out).
- Every state change needs the session's CSRF token (a form field or the
  ``X-CSRF-Token`` header) and, when the browser sends one, an ``Origin`` of this site.
- Wrong passwords are slowed down per address (:class:`Backoff`).
"""

from __future__ import annotations

import hmac
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.broker.accounts import check_password, hash_password

#: PBKDF2 rounds of the sign-in hash (about 0.1 s on a Raspberry Pi 4, paid per sign-in)
ITERATIONS = 100_000
#: a session ends after this many seconds without a request (a long night: 14 h)
IDLE = 14 * 3600
#: at most this many sessions; the one unused longest goes first
MAX_SESSIONS = 200
COOKIE = "floorman_console"


class PasswordMissing(RuntimeError):
    """No usable password file; ``str()`` says which file and how to make it."""


def write_password(path: Path, password: str) -> None:
    """Store the hash of ``password`` in ``path`` (mode 0600; replaced atomically)."""
    if len(password) < 4:
        raise ValueError("the password must have at least 4 characters")
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(hash_password(password, iterations=ITERATIONS) + "\n")
    os.replace(tmp, path)


def read_password(path: Path) -> str:
    """The stored hash; :class:`PasswordMissing` when there is none."""
    try:
        line = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise PasswordMissing(f"cannot read the console's password file {path}: "
                              f"{exc.strerror}; set a password with "
                              f"floorman console --set-password --password-file {path}") from None
    if not line.startswith(("$7$", "$6$")):
        raise PasswordMissing(f"{path} holds no password hash; set a password with "
                              f"floorman console --set-password --password-file {path}")
    return line


class Backoff:
    """Per address: after :data:`FREE` wrong passwords in a row, the next try is refused
    until 1, 2, 4 … (at most :data:`LONGEST`) seconds have passed since the last wrong one.
    A right password clears the address. ``now``: a monotonic clock in seconds."""

    FREE = 3
    LONGEST = 60.0

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._wrong: dict[str, tuple[int, float]] = {}

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        count, last = self._wrong.get(address, (0, 0.0))
        if count < self.FREE:
            return 0.0
        delay = min(self.LONGEST, 2.0 ** (count - self.FREE))
        return max(0.0, last + delay - self.now())

    def failed(self, address: str) -> None:
        count, _ = self._wrong.get(address, (0, 0.0))
        self._wrong[address] = (count + 1, self.now())
        if len(self._wrong) > 10_000:  # a flood of addresses: forget the oldest
            oldest = min(self._wrong, key=lambda a: self._wrong[a][1])
            del self._wrong[oldest]

    def succeeded(self, address: str) -> None:
        self._wrong.pop(address, None)


@dataclass
class Session:
    token: str
    csrf: str
    seen: float
    lang: str | None = None
    notes: list[str] = field(default_factory=list)


class Sessions:
    """The signed-in browsers. ``now``: a monotonic clock in seconds."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._by_token: dict[str, Session] = {}

    def create(self) -> Session:
        s = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), self.now())
        self._by_token[s.token] = s
        if len(self._by_token) > MAX_SESSIONS:
            oldest = min(self._by_token.values(), key=lambda x: x.seen)
            del self._by_token[oldest.token]
        return s

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        s = self._by_token.get(token)
        if s is None:
            return None
        if self.now() - s.seen > IDLE:
            del self._by_token[token]
            return None
        s.seen = self.now()
        return s

    def end(self, token: str | None) -> None:
        if token:
            self._by_token.pop(token, None)


def csrf_ok(session: Session, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(session.csrf.encode(), (sent or "").encode())


def password_ok(password: str, hashed: str) -> bool:
    return check_password(password, hashed)
