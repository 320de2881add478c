"""Snapshots of the tournament in its log database: a restart in a second (issue 15).

Replaying a festival's 50,000 events takes seconds before the controller serves
anything. A snapshot is the whole :class:`~controller.engine.tournament.Tournament`
(its state and its log, pickled: whatever fields a rule adds are in it without a
line here) after the log's first ``count`` events, stored beside them
(:meth:`controller.log.store.EventStore.save_snapshot`). At the start the snapshot
is taken only when it fits the log it came from:

- it was written by this very engine (:func:`fmt`: the format and a hash of the
  engine's source, so a Floorman whose rules fold differently replays instead);
- the log's event ``count`` carries the chain value the snapshot recorded
  (:mod:`controller.engine.chain`), and the snapshot's own last event is that event;
- the events after it continue the chain and fold (the tail is folded like live
  events, an undo included);
- the events it covers are those it was taken after, byte for byte: their seal (a
  SHA-256 of their stored bodies, kept in ``meta`` with the snapshot) matches
  (:meth:`~controller.log.store.EventStore.check_seal`). So the whole log is checked at
  every start without a replay: an event edited, deleted, renumbered or made unreadable
  after the controller stopped is found (issue 27.1).

Anything else — another Floorman, a log edited or cut back, a damaged body, a class
that is not Floorman's in the pickle — is ignored: the full replay from the
first event runs, as it always can, and names the first bad event of a damaged log (the
controller then refuses it); only when the replay works is the snapshot's misfit logged.
``floorman verify`` checks the whole chain of the log itself.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import io
import logging
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Any

from controller.engine import chain
from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Tournament
from controller.log.store import EventStore

log = logging.getLogger("floorman.snapshot")

#: the snapshot's layout (a pickled Tournament with its log); bump when it changes
FORMAT = 1
#: take a snapshot after this many new events (and at every clean stop)
EVERY = 5000
#: the modules a snapshot's pickle may name: the engine's own classes and plain data
_ALLOWED = ("controller.engine.", "builtins", "collections", "fractions", "decimal")
_BUILTINS = frozenset({"set", "frozenset", "dict", "list", "tuple", "bytes", "bytearray",
                       "complex", "int", "float", "str", "bool", "NoneType", "object",
                       "slice", "range"})


@lru_cache(maxsize=1)
def fmt() -> str:
    """``FORMAT`` and a hash of the engine's source files: a snapshot is folded state,
    and another engine may fold the same events differently."""
    engine = Path(__file__).resolve().parents[1] / "engine"
    h = hashlib.sha256()
    for path in sorted(engine.rglob("*.py")):
        h.update(str(path.relative_to(engine)).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{FORMAT}:{h.hexdigest()[:32]}"


class _Unpickler(pickle.Unpickler):
    """Only Floorman's engine classes and plain data: a crafted snapshot in a log file
    must not run anything."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name not in _BUILTINS:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a snapshot")
        if not (module == "builtins" or module.startswith(_ALLOWED)):
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a snapshot")
        return super().find_class(module, name)


def dumps(t: Tournament) -> bytes:
    return pickle.dumps(t, protocol=5)


def loads(body: bytes) -> Tournament:
    """A Tournament from :func:`dumps`; ``pickle.UnpicklingError`` and others for
    anything else."""
    enabled = gc.isenabled()
    gc.disable()  # 50,000 events are as many dicts: the collector would walk them all
    try:
        t = _Unpickler(io.BytesIO(body)).load()
    finally:
        if enabled:
            gc.enable()
    if not isinstance(t, Tournament):
        raise pickle.UnpicklingError(f"a snapshot holds a Tournament, not {type(t).__name__}")
    return t


def take(store: EventStore, t: Tournament) -> int:
    """Store the state after every event of ``t`` as the log's snapshot; its event count."""
    count = len(t.log)
    store.save_snapshot(count, t._chain, fmt(), dumps(t))
    return count


def covered(store: EventStore) -> int:
    """The events the log's snapshot covers (0: none)."""
    row = store.snapshot()
    return 0 if row is None else row[0]


class Unfit(Exception):
    """The log's snapshot does not fit it: ``level`` is how loudly to say so (another
    Floorman's snapshot is expected after an update)."""

    def __init__(self, message: str, level: int = logging.WARNING) -> None:
        super().__init__(message)
        self.level = level


def ignored(exc: Unfit) -> None:
    """Say that the snapshot was not used (after the replay that replaced it worked: a log
    that is refused says only why)."""
    log.log(exc.level, "%s", exc)


def restore(store: EventStore, settings: TournamentSettings | None = None
            ) -> Tournament | None:
    """The tournament of the log from its snapshot and the events after it, or ``None``
    (no snapshot, or one that does not fit: logged) for a full replay."""
    try:
        return load(store, settings)
    except Unfit as exc:
        ignored(exc)
        return None


def load(store: EventStore, settings: TournamentSettings | None = None) -> Tournament | None:
    """The tournament of the log from its snapshot and the events after it; ``None``
    without a snapshot, :class:`Unfit` when it does not fit the log (replay it instead).

    The events the snapshot covers are checked by their seal (:meth:`EventStore.check_seal`,
    a hash of their stored bytes, not a replay), those after it by the chain as they are
    folded: the whole log is checked at every start (issue 27.1)."""
    row = store.snapshot()
    if row is None:
        return None
    count, value, written_by, body = row
    where = f"{store.path}: the snapshot after event {count}"
    if written_by != fmt():
        raise Unfit(f"{where} was written by another Floorman: replaying the log", logging.INFO)
    why = store.check_seal(count)
    if why is not None:
        raise Unfit(f"{where} {why}: replaying the log")
    # event ``count`` and the tail after it, in one read
    rest = store.events(after=count - 1) if count > 0 else []
    last, tail = rest[:1], rest[1:]
    if not last or last[0].get("seq") != count or last[0].get("hash") != value:
        raise Unfit(f"{where} does not fit the log (event {count} is not the one it was "
                    "taken after): ignored, replaying the log")
    try:
        t = loads(body)
    except Exception as exc:  # noqa: BLE001 - a damaged body is only a slower start
        raise Unfit(f"{where} cannot be read ({exc}): ignored, replaying the log") from None
    if len(t.log) != count or t._chain != value or t.log[-1] != last[0]:
        raise Unfit(f"{where} does not hold the events it names: ignored, replaying the log")
    try:
        for seq, e in enumerate(tail, count + 1):
            if e.get("seq") != seq:
                raise chain.BadEvent(seq, "is missing or out of place")
            value = chain.link(value, e)
            if e.get("hash") is not None and e["hash"] != value:
                raise chain.BadEvent(seq, "does not match its hash")
            t.apply(e)  # an undo's fold rebuilds from t.log, which holds what came before
            t.log.append(e)
    except Exception as exc:  # noqa: BLE001 - the full replay names what is wrong
        raise Unfit(f"{where}: the events after it do not fit ({exc}): replaying the "
                    "log") from None
    t._chain = value
    if settings is not None:  # the broker section is the tournament file's, never logged
        t.settings = dataclasses.replace(t.settings, broker=settings.broker)
    log.info("%s: %d events after it folded", where, len(tail))
    return t
