"""An answer larger than the broker carries (``protocol.BROKER_MESSAGE_LIMIT``, Mosquitto's
``message_size_limit``) would be dropped by the broker, and the asker would wait for
nothing: the controller answers with a refusal that says so (a query about a field of
~15,000 players, beyond issue 15's 10,000)."""

from __future__ import annotations

import json

from controller.wire import protocol, wording
from tests.support.service import service as in_process


def test_an_answer_the_broker_would_drop_is_a_refusal_that_says_why(monkeypatch):
    svc, mqtt = in_process()
    ask = {"v": 1, "id": "q-1", "reply_to": "director-x", "cmd": "players", "args": {}}
    svc.handle(svc.topics.director, protocol.dumps(ask))
    whole = json.loads(mqtt.payloads[svc.topics.ack("director-x")])
    assert whole["ok"] and len(whole["result"]["players"]) == 18
    size = len(protocol.dumps(whole))

    monkeypatch.setattr(protocol, "BROKER_MESSAGE_LIMIT", size - 1)
    svc.handle(svc.topics.director, protocol.dumps({**ask, "id": "q-2"}))
    body = mqtt.payloads[svc.topics.ack("director-x")]
    answer = json.loads(body)
    protocol.validate_ack(answer)
    assert len(body) < size and answer["id"] == "q-2" and answer["ok"] is False
    assert f"{size} bytes, more than the broker carries ({size - 1})" in answer["reason"]
    assert "mehr als der Broker weitergibt" in wording.reason(answer, "de")
