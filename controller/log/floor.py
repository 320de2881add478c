"""A durable tournament: the pure engine plus its event log.

:meth:`Floor.execute` asks the engine, stores the events and the answer in
one transaction, and only then returns the answer. A process killed at any
moment restarts (:meth:`Floor.open`) into the state of every stored event;
a command that was not stored was never acknowledged, and its resend is
applied then. A resend of a stored command id gets the stored answer.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import time
from collections.abc import Callable
from typing import Any

from controller.engine.settings import TournamentSettings, differences, to_data
from controller.engine.tournament import Event, InvalidEvent, Rejected, Tournament
from controller.log import snapshot
from controller.log.store import EventStore, LogDamaged, NotALog, StoreError

log = logging.getLogger("floorman.floor")


class Floor:
    """The tournament of one event log.

    The log is the record: its first event holds the settings the tournament
    was opened with, and every structure change since is an event. The
    tournament file is read for a new log only; when it differs from a log
    that is continued, :attr:`drift` lists the differing keys and the log wins.
    """

    def __init__(self, settings: TournamentSettings, store: EventStore,
                 tournament: Tournament, drift: list[str] | None = None) -> None:
        self.settings = settings
        self.store = store
        self.tournament = tournament
        #: keys where the tournament file differs from the settings in the log
        self.drift: list[str] = drift or []
        #: fault injection for the resilience drills: called with "before-store"
        #: and (by the service) "after-store" and "during-publish"; see :func:`fault_from_env`
        self.fault: Callable[[str], None] = lambda stage: None
        #: the events the log's usable snapshot covers (0: none; controller/log/snapshot.py)
        self.snapshot_at = 0

    @classmethod
    def open(cls, settings: TournamentSettings, path: str | os.PathLike[str],
             seed: int | None = None, now: float = 0.0, *, new: bool = False,
             use_snapshot: bool = True) -> Floor:
        """Continue the tournament of the log at ``path``, or start a new one if ``path``
        does not exist yet.

        ``new``: start a new tournament; ``path`` may also be an empty (0-byte) file, and
        a log is never overwritten. Raises :class:`~controller.log.store.StoreError`:
        :class:`~controller.log.store.NotALog` for a path that is not a Floorman log (an empty
        file without ``new``, a foreign database), :class:`~controller.log.store.LogDamaged`
        for a log that cannot be read back or replayed (the first bad event named).
        ``use_snapshot``: start from the log's snapshot when it fits (False: replay every
        event).
        """
        spath = str(path)
        fresh = spath == ":memory:" or not os.path.exists(spath) or (
            new and os.path.isfile(spath) and os.path.getsize(spath) == 0)
        if new and not fresh:
            raise NotALog(spath, "exists and is not empty: a new tournament starts only on a "
                          "new path or an empty file, a log is never overwritten")
        if fresh:
            t = Tournament.new(settings, secrets.randbits(48) if seed is None else seed, now)
            store = EventStore.create(spath, t.log)
            store.seal()
            return cls(t.settings, store, t)
        store = EventStore(spath)
        try:
            store.check_pages()
            wrong = store.check_answers()  # what a resent command would be answered
            if wrong is not None:
                raise LogDamaged(spath, f"the log is damaged: {wrong}; floorman verify "
                                 f"{spath} checks it, use a copy or a backup")
            # a snapshot that fits the log saves the replay (controller/log/snapshot.py); the
            # log is checked whole either way: by the seal of the events the snapshot covers
            # and the chain of those after it, or by the replay
            restored, unfit = None, None
            if use_snapshot:
                try:
                    restored = snapshot.load(store, settings)
                except snapshot.Unfit as exc:
                    unfit = exc
            if restored is not None:
                t = restored
                covered = snapshot.covered(store)
            else:
                events = store.events()
                if not events:
                    raise NotALog(spath, "is a Floorman log without any event (no tournament "
                                  "was ever opened in it): give a new path for a new "
                                  "tournament")
                covered = 0
                try:
                    t = Tournament.replay(events, settings)
                except InvalidEvent as exc:
                    raise LogDamaged(spath, f"the event log cannot be replayed: {exc}; "
                                     f"floorman verify {spath} checks it, use a copy or a "
                                     "backup") from None
                if unfit is not None:  # the log is whole: only the snapshot did not fit
                    snapshot.ignored(unfit)
                store.seal()
        except BaseException:
            store.close()
            raise
        drift: list[str] = []
        logged = t.log[0].get("settings")
        if logged is not None:
            drift = differences(logged, to_data(settings))
            if drift:
                log.warning("%s: the tournament file differs from the settings in the log "
                            "at %s; the log's settings are used (change the structure with "
                            "the director's 'structure' command)", path, ", ".join(drift))
        floor = cls(t.settings, store, t, drift)
        floor.snapshot_at = covered
        return floor

    def execute(self, command: dict[str, Any], now: float,
                command_id: str | None = None) -> dict[str, Any]:
        """Run a command: ``{"ok": True, "events": [seq…]}`` or ``{"ok": False, "reason": …}``.

        The answer is durable before it is returned. With a ``command_id``
        that was answered before, the stored answer comes back unchanged.
        """
        if command_id is not None:
            try:
                old = self.store.answer(command_id)
            except StoreError as exc:
                return refusal(Rejected("not applied: {reason}", reason=exc.reason))
            if old is not None:
                return old
        before = len(self.tournament.log)
        try:
            events = self.tournament.execute(command, now)
        except Rejected as exc:
            answer: dict[str, Any] = refusal(exc)
            if command_id is not None:
                try:
                    self.store.append([], command_id, answer)
                except StoreError:
                    pass  # not remembered: a resend is decided again, with the same outcome
            return answer
        except Exception as exc:
            # a bug, not bad input: forget what the engine did and keep serving
            log.exception("command %r failed inside the engine", command)
            self._roll_back(before)
            return refusal(Rejected("internal error ({kind}); nothing was changed",
                                    kind=type(exc).__name__))
        answer = {"ok": True, "events": [e["seq"] for e in events]}
        if not events and command_id is None:
            return answer
        self.fault("before-store")
        try:
            self.store.append(events, command_id, answer)
        except StoreError as exc:
            # a full disk (11.9): the events are not in the log, so they must not stay in
            # the state either; the press is answered and may be pressed again
            self._roll_back(before)
            log.error("%s", exc)
            return refusal(Rejected(exc.reason))
        except Exception:
            self._roll_back(before)
            raise
        return answer

    def _roll_back(self, length: int) -> None:
        """Back to the state of the log's first ``length`` events, which are the stored
        log (rebuilt from memory: no disk read, so it works on a failing disk too; from a
        kept state, so a full disk does not cost a whole replay a press)."""
        self.tournament = self.tournament.refold(length)

    def snapshot(self) -> int:
        """Store the state as the log's snapshot (controller/log/snapshot.py); the events it
        covers. A failed write is logged: a snapshot only makes the next start faster."""
        try:
            self.snapshot_at = snapshot.take(self.store, self.tournament)
            return self.snapshot_at
        except StoreError as exc:
            log.warning("no snapshot: %s", exc)
            return 0
        except Exception:  # noqa: BLE001 - state that does not pickle: starts replay, slower
            log.exception("no snapshot: the tournament's state cannot be pickled")
            return 0

    @property
    def log(self) -> list[Event]:
        return self.tournament.log

    def close(self) -> None:
        self.store.close()


def fault_from_env(value: str | None = None) -> Callable[[str], None]:
    """A fault injector for drills: ``FLOORMAN_FAULT=STAGE[:N]`` kills the process with
    SIGKILL at STAGE ("before-store" or "after-store") of the N-th command (default 1),
    or ("during-publish") in the middle of the N-th state publish of two topics or more:
    after the first two went out, before the rest.

    Unset (the normal case) it does nothing.
    """
    value = os.environ.get("FLOORMAN_FAULT") if value is None else value
    if not value:
        return lambda stage: None
    stage, _, n = value.partition(":")
    left = [int(n) if n.isdigit() else 1]

    def fault(at: str) -> None:
        if at == stage:
            left[0] -= 1
            if left[0] <= 0:
                log.warning("FLOORMAN_FAULT: killing the controller at %s", at)
                if at == "during-publish":
                    time.sleep(0.1)  # paho's thread sends what was published so far
                os.kill(os.getpid(), signal.SIGKILL)

    return fault


def refusal(exc: Rejected) -> dict[str, Any]:
    """The answer to a refused command: the reason in English and, as ``why``, its template
    and values for a screen that says it in another language (:mod:`controller.wire.wording`)."""
    return {"ok": False, "reason": str(exc), "why": exc.as_dict()}
