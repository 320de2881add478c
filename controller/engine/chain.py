"""The log's hash chain: a removed, reordered or edited event is found (000 3.3).

Every event of schema version 3 and later carries ``hash``: the SHA-256 (hex) of
the previous event's chain value and this event's canonical JSON without its
``hash`` (keys sorted, no spaces, ASCII). The chain value of an event written
by an older Floorman (version 1 or 2, no ``hash``) is computed the same way but
not stored, so the first chained event of a log continued by this Floorman
covers everything before it.

Pure: no I/O. :func:`check` walks a log and raises :class:`BadEvent` at the
first event that is missing, out of place, of an older version than the one
before it, or whose hash does not match.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.engine.events import VERSION, InvalidEvent

#: the chain value before the first event
GENESIS = ""
#: the first schema version whose events carry their hash
CHAINED_FROM_VERSION = 3


class BadEvent(InvalidEvent):
    """The first event of a log that breaks it: ``seq`` (its place in the log) and ``what``."""

    def __init__(self, seq: int, what: str) -> None:
        super().__init__(f"event {seq}: {what}")
        self.seq = seq
        self.what = what


def canonical(record: Mapping[str, Any]) -> bytes:
    """The bytes an event's hash covers: its JSON without ``hash``, keys sorted."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def link(previous: str, record: Mapping[str, Any]) -> str:
    """The chain value of ``record`` after the chain value ``previous``."""
    return hashlib.sha256(previous.encode() + b"\n" + canonical(record)).hexdigest()


@dataclass(frozen=True)
class Checked:
    """A log whose chain holds: ``count`` events, the chain value after the last
    (``last``), and the seq of the first event that carries its hash (``None``: no
    event does, the log was written by a Floorman before the chain)."""

    count: int
    last: str
    chained_from: int | None


def check(events: Iterable[Mapping[str, Any]]) -> Checked:
    """Walk the log; :class:`BadEvent` names the first event that breaks it."""
    events = list(events)
    value = GENESIS
    version = 0
    chained_from: int | None = None
    for position, e in enumerate(events, 1):
        if not isinstance(e, Mapping):
            raise BadEvent(position, "is not a JSON object")
        seq = e.get("seq")
        if seq != position:
            if isinstance(seq, int) and any(x.get("seq") == position for x in events
                                            if isinstance(x, Mapping)):
                raise BadEvent(position, f"is out of order (event {seq} stands in its place)")
            if isinstance(seq, int) and seq > position:
                raise BadEvent(position, f"is missing (the next stored event is {seq})")
            raise BadEvent(position, f"stands where its seq says {seq!r}")
        v = e.get("v", 1)
        if isinstance(v, int) and v > VERSION:
            raise BadEvent(position, f"has schema version {v}; this Floorman reads versions "
                           f"up to {VERSION} (update Floorman)")
        if not isinstance(v, int) or v < version:
            raise BadEvent(position, f"has version {v!r} after an event of version {version} "
                           "(the chain was stripped)")
        version = v
        value = link(value, e)
        stored = e.get("hash")
        if stored is None and v >= CHAINED_FROM_VERSION:
            raise BadEvent(position, "has no hash (the chain was stripped)")
        if stored is None and chained_from is not None:
            raise BadEvent(position, "has no hash after chained events (the chain was stripped)")
        if stored is not None:
            if stored != value:
                raise BadEvent(position, "does not match its hash: it, or an event before it, "
                               "was edited")
            if chained_from is None:
                chained_from = position
    return Checked(len(events), value, chained_from)
