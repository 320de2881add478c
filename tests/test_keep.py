"""The controller keeps a copy of the state at a quiet moment (``Tournament.keep``,
``service.KEEP_EVERY``, ``QUIET``), and an undo replays from it (issue 15: an undo late in a
festival's night replayed 23,500 events four times, 1.1 s, and every press waited)."""

from __future__ import annotations

from itertools import count

from controller.engine.tournament import Tournament
from controller.log import snapshot
from controller.service import core as service
from controller.wire import protocol
from tests.support.service import bust
from tests.support.service import service as in_process

_nudges = count(1)


def nudge(svc: service.ControllerService) -> None:
    """The director adds a second to the clock: one event."""
    svc.handle(svc.topics.director, protocol.dumps(
        {"v": 1, "id": f"t-{next(_nudges)}", "reply_to": "director-x", "cmd": "time",
         "args": {"op": "add", "seconds": 1}}))


def test_the_tick_keeps_a_state_while_nothing_waits_and_the_undo_starts_there(monkeypatch):
    monkeypatch.setattr(service, "KEEP_EVERY", 2)
    monkeypatch.setattr(service, "QUIET", 0.0)  # every moment is quiet
    svc, _ = in_process()
    svc.tick()
    kept = svc.tournament.kept_at
    assert kept == len(svc.tournament.log)  # the night's first events: more than 2
    bust(svc)
    svc.tick()
    assert svc.tournament.kept_at == kept  # one event since: not yet
    bust(svc)
    svc.inbox.put(("", b"", 0.0))  # a press waits: it goes first
    svc.tick()
    assert svc.tournament.kept_at == kept
    svc.inbox.get_nowait()
    svc.tick()
    assert svc.tournament.kept_at == len(svc.tournament.log) > kept

    started: list[int] = []
    state_before = Tournament.state_before

    def spy(t: Tournament, before: int) -> Tournament:
        copy = state_before(t, before)
        started.append(len(copy.log))
        return copy

    monkeypatch.setattr(Tournament, "state_before", spy)
    bust(svc)
    bust_at = len(svc.tournament.log)
    svc.handle(svc.topics.table_cmd(1), protocol.dumps(
        {"v": 1, "id": "u-1", "reply_to": "table-1", "action": "undo"}))
    assert svc.tournament.log[-1]["type"] == "undo"
    # every replay of the undo (its check, the new state, its words) began at the kept
    # state, none at the first event
    assert started and set(started) == {svc.tournament.kept_at}
    assert svc.tournament.kept_at < bust_at
    assert svc.tournament.fingerprint() == Tournament.replay(svc.tournament.log).fingerprint()


def test_without_a_quiet_moment_the_state_is_kept_only_after_more_events(monkeypatch):
    """A keep holds the loop (~30 ms at 10,000 players): it waits for a moment without
    messages (QUIET), unless KEEP_ANYWAY times KEEP_EVERY events came without one."""
    monkeypatch.setattr(service, "KEEP_EVERY", 2)
    monkeypatch.setattr(service, "KEEP_ANYWAY", 3)
    monkeypatch.setattr(service, "QUIET", 3600.0)  # never quiet
    svc, _ = in_process()
    svc.tick()  # the night's first events: more than 6
    kept = svc.tournament.kept_at
    assert kept == len(svc.tournament.log)
    for _ in range(5):
        nudge(svc)
        svc.tick()
        assert svc.tournament.kept_at == kept  # 2-5 events since: not yet, not quiet
    nudge(svc)
    svc.tick()
    assert svc.tournament.kept_at == kept + 6 == len(svc.tournament.log)
    nudge(svc)
    nudge(svc)
    monkeypatch.setattr(service, "QUIET", 0.0)  # a quiet moment: KEEP_EVERY is enough
    svc.tick()
    assert svc.tournament.kept_at == kept + 8 == len(svc.tournament.log)


def test_a_snapshot_waits_for_a_quiet_moment_too(monkeypatch):
    """A snapshot holds the loop longer still (~160 ms at 10,000 players, with its
    collection): at a quiet moment after snapshot.EVERY events, or after SNAPSHOT_ANYWAY
    times as many without one."""
    monkeypatch.setattr(snapshot, "EVERY", 3)
    monkeypatch.setattr(service, "SNAPSHOT_ANYWAY", 2)
    monkeypatch.setattr(service, "QUIET", 3600.0)  # never quiet
    svc, _ = in_process()
    assert svc.floor is not None
    svc.tick()  # the night's first events: more than 6
    taken = svc.floor.snapshot_at
    assert taken == len(svc.tournament.log)
    for _ in range(5):
        nudge(svc)
        svc.tick()
        assert svc.floor.snapshot_at == taken  # 3-5 events since: not quiet, not yet
    nudge(svc)
    svc.tick()
    assert svc.floor.snapshot_at == taken + 6
    for _ in range(3):
        nudge(svc)
    monkeypatch.setattr(service, "QUIET", 0.0)
    svc.tick()
    assert svc.floor.snapshot_at == taken + 9 == len(svc.tournament.log)
