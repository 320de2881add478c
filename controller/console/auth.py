"""Who may use the console: the director's password, sessions and cross-site protection.

- The password is stored as a hash only (PBKDF2-SHA512 in Mosquitto's ``$7$`` format,
  :func:`controller.broker.accounts.hash_password`), in a file of one line written by
  ``floorman console --set-password``. The browser never sees it again, nor any broker
  credential: the console's broker account stays on the server.
- A session is a random token in an HttpOnly, SameSite=Strict cookie; the sessions live in
  memory (a restart signs everyone out).
- Every state change needs the session's CSRF token (a form field or the
  ``X-CSRF-Token`` header) and, when the browser sends one, an ``Origin`` of this site.
- Wrong passwords are slowed down per address and in all (:class:`Backoff`).
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
#: characters a sign-in password has at least: the backoff holds guesses over the network to
#: about one a second, but a copy of the hash file is guessed offline as fast as a machine
#: can (docs/console.md, "The password")
MIN_PASSWORD = 10


class PasswordMissing(RuntimeError):
    """No usable password file; ``str()`` says which file and how to make it."""


def write_password(path: Path, password: str) -> None:
    """Store the hash of ``password`` in ``path`` (mode 0600; replaced atomically)."""
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the password must have at least {MIN_PASSWORD} characters "
                         f"(this one has {len(password)}; docs/console.md says why)")
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(hash_password(password, iterations=ITERATIONS) + "\n")
    os.replace(tmp, path)


def new_password() -> str:
    """A fresh sign-in password: 16 characters of [A-Za-z0-9_-] (96 bits), for the installer
    to show once."""
    return secrets.token_urlsafe(12)


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
    A right password clears the address. From every address together, at most
    :data:`BURST` tries are checked at once, then :data:`RATE` a second (a right one gives
    its try back). ``now``: a monotonic clock in seconds.

    :meth:`attempt` reads the wait and counts the try as a wrong one in one step, before
    the slow password check: tries sent at once are not all checked (issue 27: 100 at once
    were, about 15 guesses a second)."""

    FREE = 3
    LONGEST = 60.0
    BURST = 10
    RATE = 1.0

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._wrong: dict[str, tuple[int, float]] = {}
        self._tokens = float(self.BURST)
        self._filled = now()

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        count, last = self._wrong.get(address, (0, 0.0))
        if count < self.FREE:
            return 0.0
        delay = min(self.LONGEST, 2.0 ** (count - self.FREE))
        return max(0.0, last + delay - self.now())

    def _overall(self) -> float:
        """Seconds before any address may try again (0: now)."""
        now = self.now()
        self._tokens = min(float(self.BURST), self._tokens + (now - self._filled) * self.RATE)
        self._filled = now
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) / self.RATE

    def attempt(self, address: str) -> float:
        """A try from ``address``: 0.0 if its password may be checked now (it counts as a
        wrong one until :meth:`succeeded`), else the seconds to wait (nothing counted)."""
        wait = max(self.wait(address), self._overall())
        if wait > 0:
            return wait
        count, _ = self._wrong.get(address, (0, 0.0))
        self._wrong[address] = (count + 1, self.now())
        self._tokens -= 1.0
        if len(self._wrong) > 10_000:  # a flood of addresses: forget the oldest
            oldest = min(self._wrong, key=lambda a: self._wrong[a][1])
            del self._wrong[oldest]
        return 0.0

    def failed(self, address: str) -> None:
        """The try :meth:`attempt` counted was wrong: the wait runs from now."""
        count, _ = self._wrong.get(address, (1, 0.0))
        self._wrong[address] = (count, self.now())

    def succeeded(self, address: str) -> None:
        if self._wrong.pop(address, None) is not None:
            self._tokens = min(float(self.BURST), self._tokens + 1.0)


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


class SignInKey:
    """A sign-in link's key, good once and for ``ttl`` seconds (default 15 min):
    ``floorman night`` puts it into the QR code it prints, so the director's phone is signed
    in by scanning it, without typing the password. ``now``: a monotonic clock in seconds."""

    def __init__(self, ttl: float = 15 * 60, now: Callable[[], float] = time.monotonic) -> None:
        self.key = secrets.token_urlsafe(24)
        self.until = now() + ttl
        self.now = now

    def use(self, given: str) -> bool:
        """``True`` once, for the right key before it expires; after that never."""
        if not self.key or self.now() > self.until:
            return False
        if not hmac.compare_digest(given.encode(), self.key.encode()):
            return False
        self.key = ""
        return True


def password_ok(password: str, hashed: str) -> bool:
    return check_password(password, hashed)
