"""The order of a command's messages (docs/protocol.md, "Ordering and durability"):
the changed views, the acknowledgement, and the summary only once the broker has taken
the ack (its PUBACK, waited for at most ``ACK_FIRST``): the summary's fan-out to every
screen must not hold the ack up (issue 15). Without a broker: paho's message info is
stood in for by one that records the wait."""

from __future__ import annotations

from controller.service import core as service
from controller.wire import protocol
from tests.support.service import bust
from tests.support.service import service as in_process


def test_the_summary_waits_until_the_broker_has_the_ack() -> None:
    svc, mqtt = in_process()
    mqtt.log.clear()
    bust(svc)
    t = svc.topics
    ack = ("publish", t.ack("table-1"))
    assert ack in mqtt.log
    i = mqtt.log.index(ack)
    # the bust's table view before the ack, the summary after the broker took the ack
    assert ("publish", t.table_state(1)) in mqtt.log[:i]
    assert mqtt.log[i + 1:] == [("wait", (t.ack("table-1"), service.ACK_FIRST)),
                                ("publish", t.state("summary"))]
    assert 0 < service.ACK_FIRST <= 0.01  # a wait never longer than a frame of a screen


def test_no_wait_when_the_summary_does_not_change() -> None:
    svc, mqtt = in_process()
    mqtt.log.clear()
    svc.handle(svc.topics.director, protocol.dumps(
        {"v": 1, "id": "d-time", "reply_to": "director-x", "cmd": "time",
         "args": {"op": "add", "seconds": 60}}))
    assert mqtt.log == [("publish", svc.topics.state("clock")),
                        ("publish", svc.topics.ack("director-x"))]


def test_without_a_connection_the_summary_goes_at_once() -> None:
    svc, mqtt = in_process()
    mqtt.connected = False  # paho queues both and sends them in order after the reconnect
    mqtt.log.clear()
    bust(svc)
    assert not [e for e in mqtt.log if e[0] == "wait"]
    assert mqtt.log[-2:] == [("publish", svc.topics.ack("table-1")),
                             ("publish", svc.topics.state("summary"))]


def test_pahos_thread_sends_the_summary_as_it_reads_the_acks_puback(monkeypatch) -> None:
    """The PUBACK is read by paho's network thread, which publishes the summary there and
    then (issue 32.2): on a busy machine the main thread's wake-up after the wait took
    milliseconds the summary waited for. Published once, before the wait is over."""
    from tests.support import service as support

    svc, mqtt = in_process()
    waited = support.Sent.wait_for_publish

    def puback(self: support.Sent, timeout: float | None = None) -> None:
        svc._on_publish(mqtt, None, self.mid + 1000)  # another message's PUBACK: nothing
        svc._on_publish(mqtt, None, self.mid)  # the ack's, as paho's thread has it
        waited(self, timeout)

    monkeypatch.setattr(support.Sent, "wait_for_publish", puback)
    mqtt.log.clear()
    bust(svc)
    t = svc.topics
    i = mqtt.log.index(("publish", t.ack("table-1")))
    assert mqtt.log[i + 1:] == [("publish", t.state("summary")),
                                ("wait", (t.ack("table-1"), service.ACK_FIRST))]
    mqtt.log.clear()
    svc._on_publish(mqtt, None, 1)  # a late PUBACK of anything: the summary is not sent again
    assert mqtt.log == []


def test_no_wait_when_the_summary_is_recomputed_unchanged() -> None:
    svc, mqtt = in_process()
    bust(svc)
    mqtt.log.clear()
    # every view recomputed, nothing changed: the ack, and no wait for its PUBACK
    svc.publish_state(then=lambda: svc._ack("director-x", {"v": 1, "id": "x", "ok": True}))
    assert mqtt.log == [("publish", svc.topics.ack("director-x"))]
