"""Issue 26: the controller never dies on a read. A view or the results that raise (a
bug, e.g. the bounty night's KeyError) are logged once with the command that led to
them; the last good view stays published; the command is answered; the controller
stays up — and a log that replays into that state still starts."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from controller.service import views
from controller.wire import protocol
from tests.support.service import RecordingMqtt, bust, service


def _failing(*args: Any, **kwargs: Any) -> Any:
    raise KeyError(99)


def _answer_of(mqtt: RecordingMqtt, reply_to: str) -> dict[str, Any]:
    topic = next(t for t in mqtt.payloads if t.endswith(reply_to) and "state" not in t)
    return json.loads(mqtt.payloads[topic])


def test_a_failing_results_view_keeps_the_controller_up(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    svc, mqtt = service()
    results_topic = svc.topics.state("results")
    good = mqtt.payloads[results_topic]
    monkeypatch.setattr(views, "results_view", _failing)
    caplog.set_level(logging.ERROR, logger="floorman.controller")
    out_before = len(svc.tournament.places())
    bust(svc)
    bust(svc)
    # both busts are in the log and answered; the tables show them
    assert len(svc.tournament.places()) == out_before + 2
    answers = [json.loads(p) for t, p in mqtt.payloads.items() if t.endswith("table-1")]
    assert answers and all(a["ok"] for a in answers)
    table = json.loads(mqtt.payloads[svc.topics.table_state(1)])
    assert {s["seat"] for s in table["seats"]} == set(svc.tournament.tables[1].occupant)
    # the last good results stay published; the failure is logged once, with the press
    assert mqtt.payloads[results_topic] == good
    failures = [r for r in caplog.records if "view failed" in r.getMessage()]
    assert len(failures) == 1
    assert "results" in failures[0].getMessage()
    assert "table 1's bust" in failures[0].getMessage()
    # a query that reads the same state is refused with a reason, not a crash
    svc.handle(svc.topics.director, protocol.dumps(
        {"v": 1, "id": "q-results", "reply_to": "director-q", "cmd": "results", "args": {}}))
    answer = _answer_of(mqtt, "director-q")
    assert answer["ok"] is False and "internal error (KeyError)" in answer["reason"]
    assert answer["why"]["key"] == "internal error ({kind}); nothing was changed"


def test_a_failing_table_view_leaves_the_other_tables_published(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    svc, mqtt = service()
    real = views.table_view

    def table_view(t: Any, n: int, **kw: Any) -> Any:
        if n == 1:
            raise ValueError("a bug in table 1's view")
        return real(t, n, **kw)

    monkeypatch.setattr(views, "table_view", table_view)
    old = mqtt.payloads[svc.topics.table_state(1)]
    caplog.set_level(logging.ERROR, logger="floorman.controller")
    svc._published.clear()  # as after a reconnect: everything is published again
    svc.publish_state()
    assert mqtt.payloads[svc.topics.table_state(1)] == old  # the last good one stays
    others = [n for n in svc.tournament.tables if n != 1]
    assert others and all(svc.topics.table_state(n) in svc._published for n in others)
    assert sum("view failed" in r.getMessage() for r in caplog.records) == 1


def test_a_state_whose_views_fail_still_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The controller publishes every view at its start: a view that fails on the
    replayed state must not keep it from starting (it did, at every restart)."""
    svc, mqtt = service()
    monkeypatch.setattr(views, "summary_view", _failing)
    monkeypatch.setattr(views, "results_view", _failing)
    svc._published.clear()
    assert svc.publish_state() > 0
    assert svc.topics.state("clock") in svc._published
