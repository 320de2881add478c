"""controller/service/heap.py: a festival's state out of the garbage collector's way (issue 15).

At 1,000 tables with 5,000 out a full collection took ~100 ms and fell into a bust now and
then (bench/cpu.py); the state is frozen once built, again after an undo (a new state)
and at each snapshot, each time after one whole collection, so an old state's cycles go."""

from __future__ import annotations

import gc
import weakref

from controller.service import heap
from controller.wire import protocol
from tests.support.service import bust
from tests.support.service import service as in_process


class _Node:
    other: _Node | None = None


def test_settle_freezes_what_lives_and_the_next_one_frees_an_old_cycle():
    a, b = _Node(), _Node()
    a.other, b.other = b, a  # a cycle, as an old state may have one
    gone = weakref.ref(a)
    try:
        heap.settle()
        assert gc.get_freeze_count() > 0
        del a, b
        gc.collect()  # the collections leave the frozen alone: the cycle is still there
        assert gone() is not None
        heap.settle()  # the next settle (an undo, a snapshot) collects it
        assert gone() is None
    finally:
        gc.unfreeze()


def test_an_undo_runs_without_collections_and_freezes_its_state_after_its_ack(monkeypatch):
    svc, mqtt = in_process()
    bust(svc)
    seen: list[tuple[str, object]] = []
    monkeypatch.setattr(heap, "freeze", lambda: seen.append(("freeze", len(mqtt.log))) or 0.0)
    monkeypatch.setattr(heap, "settle", lambda: seen.append(("settle", len(mqtt.log))) or 0.0)
    run = svc._run

    def run_and_look(cmd, cid):
        seen.append(("collector on", gc.isenabled()))
        return run(cmd, cid)

    monkeypatch.setattr(svc, "_run", run_and_look)
    mqtt.log.clear()
    svc.handle(svc.topics.table_cmd(1), protocol.dumps(
        {"v": 1, "id": "u-1", "reply_to": "table-1", "action": "undo"}))
    acked = mqtt.log.index(("publish", svc.topics.ack("table-1"))) + 1
    assert seen == [("collector on", False), ("freeze", len(mqtt.log))]
    assert seen[1][1] >= acked and gc.isenabled()
    seen.clear()
    bust(svc)  # a press that undoes nothing: the collector as always, nothing frozen
    assert seen == [("collector on", True)]


def test_an_undo_leaves_no_garbage_with_cycles_so_freezing_its_state_keeps_nothing_dead():
    """heap.freeze after an undo, without a collection: the old state must go by reference
    counting alone. A rule that puts a cycle into the state (a player pointing at its table
    and back) fails here: then an undo needs heap.settle again."""
    svc, _ = in_process()
    bust(svc)
    svc.handle(svc.topics.table_cmd(1), protocol.dumps(
        {"v": 1, "id": "b-2", "reply_to": "table-1", "action": "bust",
         "seat": max(svc.tournament.tables[1].occupant)}))
    try:
        gc.unfreeze()
        gc.collect()
        gc.disable()
        before = svc.tournament
        svc.handle(svc.topics.table_cmd(1), protocol.dumps(
            {"v": 1, "id": "u-9", "reply_to": "table-1", "action": "undo"}))
        assert svc.tournament.log[-1]["type"] == "undo" and svc.tournament is before
        gc.unfreeze()
        assert gc.collect() == 0
    finally:
        gc.enable()
        gc.unfreeze()
