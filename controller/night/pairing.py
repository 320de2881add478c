"""The night's pairing door: a screen gives the join code and gets its own broker account.

``POST /pair`` with ``{"v": 1, "code": "48213377", "role": "table", "table": 3, "screen":
"<the screen's own id>"}`` answers ``{"ok": true, "username": "table-3", "password": …,
"prefix": …}``; a wrong code ``403 {"ok": false, "reason": "wrong_code"}``. Every try
counts before its check: 10 at once, then one a second from everybody together (``429``,
``"retry"``), so 8 random digits are not guessed in a night (docs/security.md, "Pairing").
A wall gets a wall account of its own (``wall``, ``wall-2`` …), the same one again when the
same screen asks again (``pairings.json`` in the broker's folder).
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from controller.wire.discovery import CODE_DIGITS, PAIR_PATH, normal_code

log = logging.getLogger("floorman.night")

#: wrong (or right) codes let through at once, then one a second
BURST = 10
RATE = 1.0
#: the largest request body read
MAX_BODY = 4096


def new_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


class Bucket:
    """BURST tries at once, then RATE a second (for everybody together)."""

    def __init__(self, burst: int = BURST, rate: float = RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.at = clock()
        self.lock = threading.Lock()

    def take(self) -> float:
        """0 when a try may go through now, else the seconds to wait."""
        with self.lock:
            now = self.clock()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            if self.tokens >= 1:
                self.tokens -= 1
                return 0.0
            return (1 - self.tokens) / self.rate


class Door:
    """The accounts a screen may be given: ``credentials(account)`` reads one (``{}`` when
    there is none); ``code`` is the night's join code."""

    def __init__(self, code: str, credentials: Callable[[str], dict[str, str]],
                 folder: Path, walls: int, bucket: Bucket | None = None) -> None:
        self.code = normal_code(code)
        self.credentials = credentials
        self.walls = walls
        self.file = folder / "pairings.json"
        self.bucket = bucket or Bucket()
        self.lock = threading.Lock()
        self.joined: list[str] = []

    def _wall_account(self, screen: str) -> str | None:
        with self.lock:
            try:
                known = json.loads(self.file.read_text())
            except (OSError, ValueError):
                known = {}
            if not isinstance(known, dict):
                known = {}
            if screen in known:
                return str(known[screen])
            taken = set(known.values())
            for n in range(1, self.walls + 1):
                name = "wall" if n == 1 else f"wall-{n}"
                if name not in taken:
                    known[screen] = name
                    tmp = self.file.with_suffix(".tmp")
                    tmp.write_text(json.dumps(known, indent=1))
                    tmp.chmod(0o600)
                    tmp.replace(self.file)
                    return name
        return None

    def answer(self, body: Any, peer: str) -> tuple[int, dict[str, Any]]:
        """(HTTP status, answer) for a request's JSON ``body`` from address ``peer``."""
        wait = self.bucket.take()
        if wait > 0:
            return 429, {"ok": False, "reason": "too_many", "retry": round(wait, 1)}
        if not isinstance(body, dict) or not isinstance(body.get("code"), str):
            return 400, {"ok": False, "reason": "bad_request"}
        if not hmac.compare_digest(normal_code(body["code"]).encode(), self.code.encode()):
            log.warning("pairing: a wrong join code from %s", peer)
            return 403, {"ok": False, "reason": "wrong_code"}
        role, table, screen = body.get("role"), body.get("table"), body.get("screen")
        if not isinstance(screen, str) or not 1 <= len(screen) <= 64:
            return 400, {"ok": False, "reason": "bad_request"}
        if role == "table" and isinstance(table, int) and not isinstance(table, bool):
            account: str | None = f"table-{table}"
        elif role == "wall":
            account = self._wall_account(screen)
        else:
            return 400, {"ok": False, "reason": "bad_request"}
        env = self.credentials(account) if account else {}
        if not env.get("FLOORMAN_PASSWORD"):
            return 404, {"ok": False, "reason": "no_account"}
        log.info("pairing: %s joined from %s", account, peer)
        self.joined.append(str(account))
        return 200, {"ok": True, "username": account, "password": env["FLOORMAN_PASSWORD"],
                     "prefix": env.get("FLOORMAN_PREFIX", "")}


class PairingServer:
    """The door on ``port`` (0: a free one) of every interface, in a thread of its own."""

    def __init__(self, door: Door, port: int = 0, host: str = "0.0.0.0") -> None:
        class Handler(BaseHTTPRequestHandler):
            timeout = 5  # a request's head and body must come within this

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                if self.path != PAIR_PATH:
                    self._send(404, {"ok": False, "reason": "bad_request"})
                    return
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    length = -1
                if not 0 < length <= MAX_BODY:
                    self._send(400, {"ok": False, "reason": "bad_request"})
                    return
                try:
                    body = json.loads(self.rfile.read(length))
                except ValueError:
                    body = None
                self._send(*door.answer(body, self.client_address[0]))

            def _send(self, status: int, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.2}, name="pairing",
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
