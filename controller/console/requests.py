"""The players' own registration requests (issue 31; 000 2.2: "per Mail, per
facebook-Veranstaltungseinladung ... oder persönlich beim Organisator"): a name and a
contact from the players' page, without an account; the director confirms one on the
Spieler page (a pre-registration, as if it had come by mail) or drops it.

Kept in the console's memory only: a contact is personal data and an unconfirmed
request is no registration, so neither goes to disk or into the event log (a restart
forgets the unconfirmed ones; the confirmed one is the log's ``preregister``). Bounded:
:data:`PER_CLIENT` requests an address in :data:`WINDOW` seconds, :data:`MOST` waiting in
all, a name :data:`MAX_NAME` and a contact :data:`MAX_CONTACT` characters.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass

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
    """The requests waiting for the director, oldest first."""

    def __init__(self) -> None:
        self.pending: OrderedDict[int, Ask] = OrderedDict()
        self._sent: dict[str, deque[float]] = {}
        self._next = 1

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
        return ask

    def take(self, ident: int) -> Ask | None:
        """Off the list (confirmed or dropped); ``None``: no such request (any more)."""
        return self.pending.pop(ident, None)

    def put_back(self, ask: Ask) -> None:
        """A confirmation the controller refused: the request waits again, in its place."""
        self.pending[ask.id] = ask
        self.pending = OrderedDict(sorted(self.pending.items()))
