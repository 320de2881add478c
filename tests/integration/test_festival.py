"""Issue 15: a festival — three tournaments, each with its own controller and topic
prefix, on one Mosquitto. No tournament sees another's messages: a press at one
changes only its own retained state and is answered only on its own prefix."""

from __future__ import annotations

import json
import uuid

from controller.wire.protocol import Topics
from kiosk.view import tables_in_play
from tests.support.controller import ControllerFactory, director, start_tournament, wait_up
from tests.support.mqtt import Probe, retained_state
from tests.support.waiting import wait_for


def test_three_tournaments_on_one_broker_do_not_see_each_other(broker, tmp_path):
    """Issue 15: three controllers, three prefixes, one broker (a festival)."""
    prefixes = [f"festival/{name}-{uuid.uuid4().hex[:6]}" for name in ("main", "side", "turbo")]
    factories = []
    for i, p in enumerate(prefixes):
        folder = tmp_path / f"t{i}"
        folder.mkdir()
        factories.append(ControllerFactory(folder, broker.address, p))
    try:
        for f in factories:
            f()
        brokers = [broker.for_prefix(p) for p in prefixes]
        for b, players in zip(brokers, (12, 14, 16), strict=True):
            wait_up(b)
            start_tournament(b, players)
        before = [retained_state(b) for b in brokers]
        # everything on the broker, by prefix
        everything = Probe(broker.address, ("festival/#",))
        try:
            top = Topics(prefixes[1])
            table = tables_in_play(before[1])[0]
            seat = before[1][f"table/{table}"]["seats"][0]["seat"]
            director(brokers[1], "bust", {"table": table, "seat": seat})
            # the summary follows the ack (docs/protocol.md, "Ordering"): waited for by its
            # content, not taken as the first summary the probe has (the retained one)
            summaries = lambda: [json.loads(p)["players_left"]  # noqa: E731
                                 for t, p, _ in everything.messages if t == top.state("summary")]
            wait_for(lambda: 13 in summaries(), 10, "the side event's new summary")
            assert summaries()[-1] == 13
            for i in (0, 2):  # the others' topics: only what the probe's subscribe gave
                theirs = [(t, r) for t, _, r in everything.messages
                          if t.startswith(prefixes[i] + "/")]
                assert all(retain for _, retain in theirs), [t for t, r in theirs if not r]
        finally:
            everything.close()
        after = [retained_state(b) for b in brokers]
        assert after[0] == before[0] and after[2] == before[2]
        assert after[1]["summary"]["players_left"] == 13
        # each tournament counts its own players only
        assert [s["summary"]["entries"] for s in after] == [12, 14, 16]
    finally:
        for f in factories:
            f.close()
