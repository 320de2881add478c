"""The console's door: no one client on the club's network takes the console from the rest.

uvicorn (h11) closes a kept-alive connection that stays idle, but a connection that has
sent half a request and then nothing has no timer at all, and it accepts connections until
the process runs out of file descriptors; then every ``accept()`` fails, with a traceback
each (issue 27: 1,100 such connections from one phone locked the director out, and wrote
156,829 tracebacks). uvicorn has no option for a slow request's head, so the door bounds
it here, in uvicorn's h11 protocol (:class:`GuardedProtocol`):

- **A request must arrive in time**: its head and its body within :data:`HEAD_TIMEOUT`
  seconds of the connection being opened, or of its last answer; else the connection is
  closed. A connection whose request is being answered (an event stream) has no deadline.
- **One address holds at most** :data:`PER_ADDRESS` connections (a browser opens six);
  more are closed as they come. A trusted proxy (``--trusted-proxy``) is not counted.
- **All connections stay** :data:`RESERVE` **below the open-files limit** (raised towards
  :data:`NOFILE` at the start): a connection that finds no room closes the oldest one that
  still waits for its request, or is closed itself when every one is being answered. So
  ``accept()`` never runs out of descriptors and ``/login`` always gets a connection.
- **What was refused or closed is said in one line**, at most every
  :data:`REPORT_EVERY` seconds; so are asyncio's accept errors, should the machine still
  run out of descriptors (never a traceback a connection).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("floorman.console")

#: seconds a request (head and body) may take to arrive, from the connection or the last answer
HEAD_TIMEOUT = 10.0
#: seconds an idle kept-alive connection stays open (uvicorn's ``timeout_keep_alive``)
KEEP_ALIVE = 5
#: open connections of one address at most
PER_ADDRESS = 32
#: connections the kernel keeps waiting for ``accept()``; also how many asyncio accepts in one
#: go before the door sees any of them
BACKLOG = 64
#: file descriptors kept for everything but the connections: one round of accepts, the
#: broker's connection, templates, the club database, the log
RESERVE = BACKLOG + 64
#: the open-files limit the console raises its own to, as far as the hard limit allows (the
#: unit sets it: ``LimitNOFILE``)
NOFILE = 8192
#: seconds between two lines that say what the door refused
REPORT_EVERY = 10.0

_OUT_OF = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def open_files_limit(wanted: int = NOFILE) -> int:
    """This process's open-files limit, first raised towards ``wanted`` as far as the hard
    limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


@dataclass(frozen=True)
class Limits:
    """``max_connections`` 0: the open-files limit less :data:`RESERVE`."""

    head_timeout: float = HEAD_TIMEOUT
    per_address: int = PER_ADDRESS
    max_connections: int = 0
    #: addresses of proxies: their connections are every client's, never refused by address
    trusted: frozenset[str] = frozenset()


class Door:
    """The open connections of one server, by address, and the ones waiting for a request
    (oldest first)."""

    def __init__(self, limits: Limits | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits = limits or Limits()
        self.max_connections = limits.max_connections or max(16, open_files_limit() - RESERVE)
        self.now = now
        self.open: set[GuardedProtocol] = set()
        self.by_address: Counter[str] = Counter()
        self.waiting: OrderedDict[GuardedProtocol, None] = OrderedDict()
        #: what happened since the last report: kind → count, and the addresses refused
        self.counts: Counter[str] = Counter()
        self.refused_from: Counter[str] = Counter()
        #: every count since the start (tests, figures)
        self.total: Counter[str] = Counter()
        self._last_report = -REPORT_EVERY
        self._report: asyncio.TimerHandle | None = None

    def protocol(self) -> type[GuardedProtocol]:
        """uvicorn's h11 protocol with this door (``uvicorn.Config(http=…)``)."""
        return type("ConsoleProtocol", (GuardedProtocol,), {"door": self})

    # ------------------------------------------------------------ connections
    def admit(self, p: GuardedProtocol) -> bool:
        """A new connection: counted (True), or to be closed at once (False)."""
        trusted = p.address in self.limits.trusted
        if not trusted and self.by_address[p.address] >= self.limits.per_address:
            self.note("refused_address", p.address)
            return False
        if len(self.open) >= self.max_connections:
            if not self.waiting:
                self.note("refused_full", p.address)
                return False
            oldest = next(iter(self.waiting))
            self.note("evicted", oldest.address)
            self.gone(oldest)
            oldest.transport.abort()
        self.open.add(p)
        self.by_address[p.address] += 1
        return True

    def gone(self, p: GuardedProtocol) -> None:
        """``p`` is closed (or being closed): counted no longer. Idempotent."""
        self.busy(p)
        if p in self.open:
            self.open.discard(p)
            self.by_address[p.address] -= 1
            if self.by_address[p.address] <= 0:
                del self.by_address[p.address]

    def wait_for_request(self, p: GuardedProtocol) -> None:
        """``p`` waits for a request: it has :attr:`Limits.head_timeout` seconds, from now
        unless its clock already runs."""
        if p in self.open and p not in self.waiting:
            self.waiting[p] = None
            p.deadline = asyncio.get_running_loop().call_later(self.limits.head_timeout,
                                                               p.too_slow)

    def busy(self, p: GuardedProtocol) -> None:
        """``p``'s request has arrived and is being answered: no deadline."""
        if p.deadline is not None:
            p.deadline.cancel()
            p.deadline = None
        self.waiting.pop(p, None)

    # ---------------------------------------------------------------- reports
    def note(self, kind: str, address: str | None = None) -> None:
        """Count what happened; one line says it, at most every :data:`REPORT_EVERY` s."""
        self.counts[kind] += 1
        self.total[kind] += 1
        if address is not None and kind.startswith("refused"):
            self.refused_from[address] += 1
        if self._report is None:
            since = self.now() - self._last_report
            delay = 1.0 if since >= REPORT_EVERY else REPORT_EVERY - since
            try:
                self._report = asyncio.get_running_loop().call_later(delay, self.report)
            except RuntimeError:  # no loop (a test of the door alone)
                self.report()

    WORDS = {
        "refused_address": "connections refused (more than {per} open from one address)",
        "refused_full": "connections refused (all {max} connections being answered)",
        "evicted": "connections closed to make room (still waiting for a request)",
        "slow": "connections closed after {timeout:g} s without a whole request",
        "accept_error": "accept() errors (out of file descriptors)",
    }

    def report(self) -> None:
        self._report = None
        self._last_report = self.now()
        if not self.counts:
            return
        parts = [f"{n:,} " + self.WORDS[kind].format(per=self.limits.per_address,
                                                   max=self.max_connections,
                                                   timeout=self.limits.head_timeout)
                 for kind, n in sorted(self.counts.items())]
        who = ", ".join(f"{a} ({n:,})" for a, n in self.refused_from.most_common(3))
        log.warning("console: %s%s; %d connections open", "; ".join(parts),
                    f"; refused most: {who}" if who else "", len(self.open))
        self.counts.clear()
        self.refused_from.clear()

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's exception handler: an ``accept()`` out of descriptors is counted and
        reported with the rest; anything else goes to asyncio's own handler."""
        exc = context.get("exception")
        message = str(context.get("message", ""))
        if (isinstance(exc, OSError) and exc.errno in _OUT_OF) or \
                message.startswith("socket.accept() out of system resource") or \
                (isinstance(exc, ValueError) and "_start_serving" in message):
            # the last: asyncio's retry of the accept, after the server is closed
            self.note("accept_error")
            return
        loop.default_exception_handler(context)


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol under a :class:`Door`: counted by address, closed when its
    request does not arrive in time."""

    door: Door

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = "?"
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = str(self.client[0]) if self.client else "?"
        if not self.door.admit(self):
            transport.abort()
            return
        self.door.wait_for_request(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.gone(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._check()

    def _check(self) -> None:
        if self.transport.is_closing():
            return
        if self._answering():
            self.door.busy(self)
        else:
            self.door.wait_for_request(self)

    def _answering(self) -> bool:
        """A whole request has arrived and its answer is not complete yet."""
        cycle = self.cycle
        return (cycle is not None and not cycle.response_complete
                and self.conn.their_state is h11.DONE)

    def too_slow(self) -> None:
        self.deadline = None
        if self._answering() or self.transport.is_closing():
            self.door.busy(self)
            return
        self.door.note("slow", self.address)
        self.door.gone(self)
        self.transport.abort()
