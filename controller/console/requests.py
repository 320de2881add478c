"""The players' own registration requests (issue 31; 000 2.2: "per Mail, per
facebook-Veranstaltungseinladung ... oder persönlich beim Organisator"): a name and a
contact from the players' page, without an account; the director confirms one on the
Spieler page (a pre-registration, as if it had come by mail) or drops it.

An unconfirmed request is no registration and no tournament event: it stays out of the
event log (the confirmed one is the log's ``preregister``). With a ``store`` file (the
console's own, in the tournament's data folder: ``floorman console --requests FILE``,
``floorman night`` beside the night's log) the waiting requests and each address's
recent ones are kept there — a console restart loses none and the limits hold across it
— written whole to a temporary file and renamed over it (never half a list), readable by
this user only (a contact is personal data); without one they are in memory only.
Bounded: :data:`PER_CLIENT` requests an address in :data:`WINDOW` seconds, :data:`MOST`
waiting in all, a name :data:`MAX_NAME` and a contact :data:`MAX_CONTACT` characters.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import unicodedata
from collections import OrderedDict, deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("floorman.console")

#: requests one client address may send in :data:`WINDOW` seconds
PER_CLIENT = 3
WINDOW = 600.0
#: requests waiting for the director at most (a full list refuses new ones)
MOST = 200
MAX_NAME = 40
MAX_CONTACT = 120


class RequestError(ValueError):
    """Why a request is not taken: a label key of :mod:`controller.console.i18n`."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class Ask:
    """One request: ``at`` the console's time it came."""

    id: int
    name: str
    contact: str
    at: float


def _clean(text: str, most: int, key: str) -> str:
    value = " ".join(unicodedata.normalize("NFC", text or "").split())
    if not value:
        raise RequestError(f"request_no_{key}")
    if len(value) > most or any(unicodedata.category(c)[0] == "C" for c in value):
        raise RequestError(f"request_bad_{key}")
    return value


class Requests:
    """The requests waiting for the director, oldest first; kept in ``store`` when given
    (read back here)."""

    def __init__(self, store: str | os.PathLike[str] | None = None) -> None:
        self.pending: OrderedDict[int, Ask] = OrderedDict()
        self._sent: dict[str, deque[float]] = {}
        self._next = 1
        self.store = Path(store) if store is not None else None
        if self.store is not None:
            self._load(self.store)

    # ------------------------------------------------------------------ the store
    def _load(self, path: Path) -> None:
        """The requests the file keeps. A file that cannot be read as one is put aside
        (``FILE.damaged``, said in the log) and the console starts with none: a console
        that does not start would take no request at all."""
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("requests: %s cannot be read (%s); starting without them", path,
                      exc.strerror)
            return
        try:
            data = json.loads(raw)
            pending = [Ask(int(a["id"]), _clean(a["name"], MAX_NAME, "name"),
                           _clean(a["contact"], MAX_CONTACT, "contact"), float(a["at"]))
                       for a in data["pending"]][:MOST]
            sent = {str(k): deque(float(x) for x in v[-PER_CLIENT:])
                    for k, v in data["sent"].items()}
            after = max(int(data["next"]), 1 + max((a.id for a in pending), default=0))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            aside = path.with_name(path.name + ".damaged")
            with contextlib.suppress(OSError):
                os.replace(path, aside)
            log.error("requests: %s is damaged (%s); put aside as %s, starting without "
                      "them", path, exc, aside)
            return
        self.pending = OrderedDict((a.id, a) for a in sorted(pending, key=lambda a: a.id))
        self._sent, self._next = sent, after

    def _save(self) -> None:
        """The whole list into the store: a temporary file beside it, flushed to the disk,
        renamed over the old one. A disk that refuses is said in the log; the requests
        stay in memory."""
        if self.store is None:
            return
        data: dict[str, Any] = {"v": 1, "next": self._next,
                                "pending": [asdict(a) for a in self.pending.values()],
                                "sent": {k: list(q) for k, q in self._sent.items() if q}}
        tmp = self.store.with_name(self.store.name + ".tmp")
        try:
            self.store.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.store)
            with contextlib.suppress(OSError):  # the rename itself on the disk
                folder = os.open(self.store.parent, os.O_RDONLY)
                try:
                    os.fsync(folder)
                finally:
                    os.close(folder)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            log.error("requests: %s cannot be written (%s); the requests are kept in "
                      "memory only", self.store, exc.strerror or exc)

    def add(self, name: str, contact: str, address: str, now: float) -> Ask:
        """Take a request from ``address``; :class:`RequestError` (nothing kept) when it is
        malformed, a repeat, or one too many."""
        name = _clean(name, MAX_NAME, "name")
        contact = _clean(contact, MAX_CONTACT, "contact")
        sent = self._sent.setdefault(address, deque())
        while sent and sent[0] <= now - WINDOW:
            sent.popleft()
        if len(sent) >= PER_CLIENT:
            raise RequestError("request_too_many")
        if any(a.name.casefold() == name.casefold() for a in self.pending.values()):
            raise RequestError("request_twice")
        if len(self.pending) >= MOST:
            raise RequestError("request_full")
        sent.append(now)
        if len(self._sent) > 10 * MOST:  # forget the addresses whose window is over
            self._sent = {a: q for a, q in self._sent.items() if q and q[-1] > now - WINDOW}
        ask = Ask(self._next, name, contact, now)
        self._next += 1
        self.pending[ask.id] = ask
        self._save()
        return ask

    def take(self, ident: int) -> Ask | None:
        """Off the list (confirmed or dropped); ``None``: no such request (any more)."""
        ask = self.pending.pop(ident, None)
        if ask is not None:
            self._save()
        return ask

    def put_back(self, ask: Ask) -> None:
        """A confirmation the controller refused: the request waits again, in its place."""
        self.pending[ask.id] = ask
        self.pending = OrderedDict(sorted(self.pending.items()))
        self._save()
