"""What the controller lets in before the engine sees it: who sent a message, how big it
is, and how fast its sender may go (docs/security.md).

MQTT 3.1.1 does not tell a subscriber who published a message. The broker's ACL does:
only the account ``table-N`` may publish on ``P/cmd/table/N``, only ``director`` on
``P/cmd/director``, and every account only on its own ``P/presence/<user>`` (``floorman
broker-config``). So the topic *is* the sender, and everything here is derived from it:

- :func:`sender` names the sender of a command topic (``table-3``, ``director``); its
  command ids are scoped by that name (:func:`scoped_id`), so table 4 sending table 3's
  id gets no stored answer of table 3;
- :func:`answer_to` is where the answer goes: a table's to ``ack/table-N`` whatever its
  ``reply_to`` says;
- :func:`presence_of` keeps a presence message to what its topic may claim;
- :class:`Presses` rate-limits each table (a token bucket) and serves the tables in turn,
  so one account's flood does not flood the engine;
- :class:`Gate` gives every inbound kind (presses, director commands, clock-sync requests,
  presence) a budget per client, and shuts a client that overdraws it out: the controller
  unsubscribes from that client's topic for a while (:func:`filters`), so the broker
  stops queueing its flood in front of the other clients' messages.

This module is an adapter's: it reads no clock itself (``now`` is passed in) and does no
I/O.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from controller.wire.protocol import TABLE_DIGITS, ProtocolError

#: presses a table may send per second, sustained (a dealer presses far less than once a
#: second; 20 a second is a stuck button or a script)
PRESS_RATE = 5.0
#: presses a table may send at once before the rate applies (a few busts in a row)
PRESS_BURST = 10
#: presses of one table waiting for their turn; more are dropped (a kiosk resends an
#: unanswered press every 2 s: kiosk/link.py RESEND)
PRESS_QUEUE = 20

#: (rate a second, burst) of the other inbound kinds per client, counted as they arrive:
#: a kiosk asks the time 3 times when it connects, then every 10 s (every 0.5 s while
#: nobody answers: kiosk/link.py); presence comes at each (re)connect; the director's tools
#: send one command at a time, a script a few hundred in a row. Far above what a client
#: sends (a fuzzer that waits for each answer stays below them), far below a flood
BUDGETS: dict[str, tuple[float, int]] = {
    "time": (5.0, 50),
    "presence": (10.0, 100),
    "director": (100.0, 500),
}
#: how long a client that overdrew its budget is not listened to on that kind's topic (s),
#: doubled at each further offence up to :data:`SHUT_OUT_MAX`
SHUT_OUT = 10.0
SHUT_OUT_MAX = 300.0
#: the inbound kinds, by :meth:`~controller.wire.protocol.Topics.classify`'s names
KINDS = ("table", "director", "time", "presence")

def limits_from_env(value: str | None = None) -> tuple[float, int]:
    """``(rate, burst)`` from ``FLOORMAN_PRESS_RATE=RATE[/BURST]`` (presses a second, and
    at once), else :data:`PRESS_RATE` and :data:`PRESS_BURST`. For a table whose presses
    come from a machine rather than a dealer (the drills' scripted nights)."""
    value = os.environ.get("FLOORMAN_PRESS_RATE", "") if value is None else value
    if not value:
        return PRESS_RATE, PRESS_BURST
    rate, _, burst = value.partition("/")
    try:
        r, b = float(rate), int(burst) if burst else max(1, int(float(rate) * 2))
    except ValueError:
        raise ValueError(f"FLOORMAN_PRESS_RATE must be RATE or RATE/BURST, got {value!r}") \
            from None
    if not (r > 0 and b >= 1):
        raise ValueError(f"FLOORMAN_PRESS_RATE must be positive, got {value!r}")
    return r, b


_TABLE_CLIENT = re.compile(rf"^table-([1-9][0-9]{{0,{TABLE_DIGITS - 1}}})\Z")
_WALL_CLIENT = re.compile(r"^wall(-[A-Za-z0-9_.-]+)?\Z")
_TABLE_KEY = re.compile(rf"^[1-9][0-9]{{0,{TABLE_DIGITS - 1}}}\Z")


def table_of(key: str | None) -> int | None:
    """The table number of a ``cmd/table/<key>`` topic, or None when the key is no table
    number (1 to 9999 in ASCII digits, :data:`~controller.engine.commands.MAX_TABLES`)."""
    return int(key) if key is not None and _TABLE_KEY.match(key) else None


def sender(kind: str, key: str | None) -> str:
    """Who sent a command on topic ``(kind, key)``
    (:meth:`~controller.wire.protocol.Topics.classify`): ``table-N`` for ``cmd/table/N``,
    ``director`` for ``cmd/director``."""
    if kind == "table":
        n = table_of(key)
        return f"table-{n}" if n is not None else "table-?"
    return "director"


def scoped_id(who: str, cid: str) -> str:
    """The key a command's answer is stored under: ``who/id``. ``/`` is in neither a
    client name nor an id, so two senders never share a key."""
    return f"{who}/{cid}"


def answer_to(kind: str, key: str | None, reply_to: str) -> str:
    """The client whose ``ack/<client>`` topic gets the answer.

    A table press is answered on ``ack/table-N`` of the table in its topic, whatever its
    ``reply_to`` says: the broker lets only that table's account write the topic and read
    that answer, so an answer never reaches anyone else. A director command is answered on
    its ``reply_to`` (only the director's account may send one; its command-line clients
    choose their id). A table topic with no table number in it (possible on a broker
    without accounts only) falls back to ``reply_to``."""
    if kind == "table":
        n = table_of(key)
        if n is not None:
            return f"table-{n}"
    return reply_to


def presence_of(key: str, data: dict[str, Any]) -> dict[str, Any]:
    """The entry of ``P/presence/<key>`` in ``state/presence``: only ever about ``key``.

    A key that is an account's name binds the role: ``table-N`` is table N, ``wall…`` a
    wall; no client but the controller itself is ``controller``. A payload that claims
    otherwise raises :class:`ProtocolError`. Other keys (a broker without accounts, a
    named test kiosk) keep what they say, but never ``controller``."""
    role, table = data.get("role"), data.get("table")
    if role == "unknown":  # a cleared retained message (protocol.parse_presence)
        return {"online": False, "role": "unknown", "table": None}
    if role == "controller":
        raise ProtocolError(f"presence/{key} claims to be the controller")
    m = _TABLE_CLIENT.match(key)
    if m:
        n = int(m.group(1))
        if role != "table" or table not in (None, n):
            raise ProtocolError(f"presence/{key} must be table {n}, got role {role!r} "
                                f"table {table!r}")
        table = n
    elif _WALL_CLIENT.match(key) and (role != "wall" or table is not None):
        raise ProtocolError(f"presence/{key} must be a wall, got role {role!r} table {table!r}")
    elif role != "table":
        table = None
    return {"online": bool(data["online"]), "role": role, "table": table}


@dataclass
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; a press costs one. ``now`` in seconds of
    any monotonic clock."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float | None = None

    def _fill(self, now: float) -> None:
        if self.at is None or self.tokens < 0:
            self.tokens, self.at = self.burst, now
            return
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, now: float) -> bool:
        self._fill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0: now)."""
        self._fill(now)
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate


@dataclass
class _Lane:
    bucket: TokenBucket
    #: its place in the round: the lowest goes first (a lane served goes last)
    turn: int = 0
    queue: deque[Any] = field(default_factory=deque)
    dropped: int = 0


class Presses:
    """The tables' presses waiting for the engine: one queue and one token bucket per
    table, served in turn.

    The network thread :meth:`offer` s; the main thread :meth:`take` s the next press
    whose table has a token. A table's queue holds at most ``depth`` presses: more are
    dropped (counted in :attr:`dropped`, reported by :meth:`drops`). ``rate`` (presses a
    second), ``burst`` and ``depth`` default to :data:`PRESS_RATE`, :data:`PRESS_BURST`
    and :data:`PRESS_QUEUE`.

    The main thread asks at every turn of its loop: :meth:`take` and :meth:`wait` look
    only at the tables with a press waiting (issue 32: a festival's 1,000 tables have
    each pressed by the evening, and a look at every one cost ~0.15 ms a turn)."""

    def __init__(self, rate: float = PRESS_RATE, burst: int = PRESS_BURST,
                 depth: int = PRESS_QUEUE) -> None:
        self.rate, self.burst, self.depth = rate, burst, depth
        self._lanes: dict[str, _Lane] = {}
        #: the tables with a press waiting, and those that dropped one since :meth:`drops`
        self._waiting: set[str] = set()
        self._dropping: set[str] = set()
        self._turns = itertools.count()
        self._lock = threading.Lock()
        self.dropped = 0  #: presses dropped because their table's queue was full

    def offer(self, who: str, item: Any) -> bool:
        """Queue a press of ``who``; False: dropped, its queue is full."""
        with self._lock:
            lane = self._lanes.get(who)
            if lane is None:
                lane = self._lanes[who] = _Lane(TokenBucket(self.rate, self.burst),
                                                next(self._turns))
            if len(lane.queue) >= self.depth:
                lane.dropped += 1
                self.dropped += 1
                self._dropping.add(who)
                return False
            lane.queue.append(item)
            self._waiting.add(who)
            return True

    def _in_turn(self, whos: set[str]) -> list[str]:
        return sorted(whos, key=lambda who: self._lanes[who].turn)

    def take(self, now: float) -> Any | None:
        """The next press to handle (the tables in turn), or None while none may go."""
        with self._lock:
            for who in self._in_turn(self._waiting):
                lane = self._lanes[who]
                if lane.bucket.take(now):
                    lane.turn = next(self._turns)  # the others first next time
                    item = lane.queue.popleft()
                    if not lane.queue:
                        self._waiting.discard(who)
                    return item
            return None

    def wait(self, now: float) -> float | None:
        """Seconds until :meth:`take` has a press (0: now), None: nothing is waiting."""
        with self._lock:
            waits = [self._lanes[who].bucket.wait(now) for who in self._waiting]
        return min(waits) if waits else None

    def waiting(self) -> int:
        with self._lock:
            return sum(len(self._lanes[who].queue) for who in self._waiting)

    def drops(self) -> dict[str, int]:
        """Presses dropped per table since the last call (and forgets them)."""
        with self._lock:
            out = {who: self._lanes[who].dropped for who in self._in_turn(self._dropping)}
            for who in self._dropping:
                self._lanes[who].dropped = 0
            self._dropping.clear()
            return out


class Gate:
    """Every inbound kind's budget per client, and the clients shut out of a kind.

    The network thread asks :meth:`admit` for each message (``kind`` as
    :meth:`~controller.wire.protocol.Topics.classify` names it, ``who`` its sender); a
    message over its client's budget is dropped and the client is *flooding*. Presses are
    budgeted by their queue (:class:`Presses`): a press that finds it full is reported by
    :meth:`overdrawn`. The main thread takes the flooding clients (:meth:`flooding`) and
    :meth:`shut` s each out of its kind for :data:`SHUT_OUT` seconds (doubling with each
    offence): it then unsubscribes from the client's topic, so the broker no longer queues
    the flood for the controller ahead of the others' messages (:func:`filters`). Until
    the broker has the unsubscription, what comes from a shut-out client is dropped
    unread. :meth:`reopen` lets them in again when their time is up."""

    def __init__(self, budgets: dict[str, tuple[float, int]] | None = None,
                 shut_out: float = SHUT_OUT, shut_out_max: float = SHUT_OUT_MAX) -> None:
        self.budgets = BUDGETS if budgets is None else budgets
        self.shut_out, self.shut_out_max = shut_out, shut_out_max
        self._buckets: dict[tuple[str, str], TokenBucket] = {}
        self._shut: dict[tuple[str, str], float] = {}  # (kind, who) -> until
        self._offences: dict[tuple[str, str], int] = {}
        self._flooding: set[tuple[str, str]] = set()
        self._dropped: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def admit(self, kind: str, who: str, now: float) -> bool:
        """Whether a message of ``kind`` from ``who`` goes on; False: dropped, counted."""
        key = (kind, who)
        with self._lock:
            if key not in self._shut:
                budget = self.budgets.get(kind)
                if budget is None:
                    return True
                bucket = self._buckets.get(key)
                if bucket is None:
                    bucket = self._buckets[key] = TokenBucket(*budget)
                if bucket.take(now):
                    return True
                self._flooding.add(key)
            self._dropped[key] = self._dropped.get(key, 0) + 1
            return False

    def overdrawn(self, kind: str, who: str) -> None:
        """A message of ``who`` was dropped elsewhere for its budget (a full press queue)."""
        with self._lock:
            self._flooding.add((kind, who))

    def is_shut(self, kind: str, who: str) -> bool:
        with self._lock:
            return (kind, who) in self._shut

    def flooding(self) -> list[tuple[str, str]]:
        """The clients that overdrew a budget since the last call and are not shut out yet."""
        with self._lock:
            out = sorted(k for k in self._flooding if k not in self._shut)
            self._flooding.clear()
            return out

    def shut(self, kind: str, who: str, now: float) -> float:
        """Shut ``who`` out of ``kind``; returns for how many seconds."""
        key = (kind, who)
        with self._lock:
            n = self._offences[key] = self._offences.get(key, 0) + 1
            seconds = min(self.shut_out_max, self.shut_out * 2 ** (n - 1))
            self._shut[key] = now + seconds
            return seconds

    def reopen(self, now: float) -> list[tuple[str, str]]:
        """The clients whose time out is up, let in again (with a full budget)."""
        with self._lock:
            out = sorted(k for k, until in self._shut.items() if now >= until)
            for key in out:
                del self._shut[key]
                self._buckets.pop(key, None)
            return out

    def shut_out_of(self) -> dict[str, set[str]]:
        """The clients shut out, by kind."""
        with self._lock:
            out: dict[str, set[str]] = {}
            for kind, who in self._shut:
                out.setdefault(kind, set()).add(who)
            return out

    def drops(self) -> dict[tuple[str, str], int]:
        """Messages dropped per (kind, client) since the last call (and forgets them)."""
        with self._lock:
            out, self._dropped = self._dropped, {}
            return out


def filters(prefix: str, shut: dict[str, set[str]], tables: set[int] | frozenset[int],
            clients: set[str] | frozenset[str]) -> dict[str, int]:
    """The inbound topic filters the controller subscribes to, with their QoS.

    Each kind's wildcard (``cmd/#`` for the presses and the director's commands,
    ``time/request/+``, ``presence/+``); while a client is shut out of a kind, instead
    ``cmd/table/+`` or ``cmd/director`` for the other kind of command, and every other known
    client's own topic of it (``tables``: the tournament's table numbers; ``clients``:
    every client that announced itself, and the tables' kiosks). A client nobody knows
    yet is not heard on that kind until the shut-out ends; ``presence/controller`` is
    always heard (another controller on the prefix: :mod:`controller.service.core`)."""
    p = prefix
    out: dict[str, int] = {}
    table_out = shut.get("table", set())
    director_out = "director" in shut.get("director", set())
    if not table_out and not director_out:
        out[f"{p}/cmd/#"] = 1  # (a message on a topic nobody uses is logged)
    else:
        if table_out:
            out.update((f"{p}/cmd/table/{n}", 1) for n in sorted(tables)
                       if f"table-{n}" not in table_out)
        else:
            out[f"{p}/cmd/table/+"] = 1
        if not director_out:
            out[f"{p}/cmd/director"] = 1
    known = set(clients) | {f"table-{n}" for n in tables}
    for kind, base, qos in (("time", "time/request", 0), ("presence", "presence", 1)):
        gone = shut.get(kind, set())
        if gone:
            out.update((f"{p}/{base}/{c}", qos) for c in sorted(known - gone)
                       if c != "controller")
        else:
            out[f"{p}/{base}/+"] = qos
    out[f"{p}/presence/controller"] = 0
    return out


def press_command(table: int, data: dict[str, Any]) -> dict[str, Any]:
    """A dealer's press at ``table`` (a parsed table message) → the engine's command."""
    action = data["action"]
    if action == "bust":
        cmd: dict[str, Any] = {"cmd": "bust", "table": table, "seat": data["seat"]}
        for key in ("stack", "same_hand", "confirm"):
            if data.get(key) is not None:
                cmd[key] = data[key]
    elif action == "hand_done":
        cmd = {"cmd": "hand_done", "table": table}
    elif action == "seated":  # everyone on the way to this table (only) has sat down
        cmd = {"cmd": "seated", "table": table}
    elif action == "time":  # the one "time" button: start a call, or cancel the running one
        cmd = {"cmd": "time_call", "table": table, "op": "toggle"}
        if data.get("seat") is not None:  # whose call it is (001 §1 VI: once per hand)
            cmd["seat"] = data["seat"]
    elif action == "chip_race":  # the leftover chips the dealer entered (000 3.17)
        cmd = {"cmd": "chip_race", "table": table, "chips": data["chips"],
               "short": data.get("short") or []}
    elif action in ("time_cancel", "time_expire"):
        cmd = {"cmd": "time_call", "table": table, "op": action.split("_")[1]}
    else:  # undo: the engine finds this table's last press that is not undone yet
        cmd = {"cmd": "undo", "table": table}
    return cmd
