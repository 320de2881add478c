"""Wall screens whose own clocks are hours wrong show the same time left as each other
and as the controller: NTP-style sync over the real broker."""

from __future__ import annotations

import time

from controller.wire.protocol import Topics
from kiosk.link import Link
from tests.support.controller import start_tournament
from tests.support.mqtt import Probe
from tests.support.waiting import wait_for

HOUR = 3600.0
OFFSETS = {"wall-plus3h": 3 * HOUR, "wall-minus5h": -5 * HOUR, "wall-plus11h": 11 * HOUR}


def _local(offset: float):
    return lambda: time.monotonic() + offset


def test_three_walls_agree_on_the_time_left(broker, prefix, controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)
    start_tournament(b)
    links = {name: Link(b, name=name, local=_local(off), sync_every=0.3)
             for name, off in OFFSETS.items()}
    for link in links.values():
        link.start()
    try:
        for name, link in links.items():
            wait_for(lambda link=link: len(link.sync.samples) >= 6 and "clock" in link.state,
                     15, f"{name} synced")
        clock = links["wall-plus3h"].state["clock"]
        assert clock["running"] and clock["ends_at"] is not None
        assert all(link.state["clock"] == clock for link in links.values())

        # the controller's own view: the time left at its server_time, which it read somewhere
        # between our request and its answer; carried forward on our monotonic clock from the
        # middle of that round trip (so its error is at most half the round trip)
        top = Topics(prefix)
        probe = Probe(broker.address, (top.ack("clock-check"),), client_id="clock-check")
        try:
            sent = time.monotonic()
            probe.publish(top.director, {"v": 1, "id": "status-1", "reply_to": "clock-check",
                                         "cmd": "status"})
            res = probe.wait_on(top.ack("clock-check"))[0]["result"]
            got = probe.arrived[0]
        finally:
            probe.close()
        assert res["clock"]["ends_at"] == clock["ends_at"]
        ctrl_left_at_mid = res["clock"]["ends_at"] - res["server_time"]
        mid, round_trip = (sent + got) / 2, got - sent

        spreads, vs_ctrl, vs_wall = [], [], []
        for _ in range(5):
            left = {n: clock["ends_at"] - link.sync.now() for n, link in links.items()}
            mono, wall = time.monotonic(), time.time()
            ctrl_left = ctrl_left_at_mid - (mono - mid)
            spreads.append(max(left.values()) - min(left.values()))
            vs_ctrl.append(max(abs(v - ctrl_left) for v in left.values()))
            # the controller runs on this host: its clock is our time.time()
            vs_wall.append(max(abs(link.sync.now() - wall) for link in links.values()))
            time.sleep(0.05)
        delays = {n: round(link.sync.best.delay * 1000, 3) for n, link in links.items()}
        report = (f"clock agreement: spread between walls {max(spreads) * 1000:.3f} ms, "
                  f"walls vs controller status {max(vs_ctrl) * 1000:.3f} ms "
                  f"(status round trip {round_trip * 1000:.1f} ms), "
                  f"walls vs controller clock {max(vs_wall) * 1000:.3f} ms; "
                  f"best round-trip delays (ms) {delays}; local offsets (h) "
                  f"{ {n: o / HOUR for n, o in OFFSETS.items()} }")
        print("\n" + report)
        # the local clocks are hours apart, the synced ones are not
        raw = [link.sync.local() for link in links.values()]
        assert max(raw) - min(raw) > 15 * HOUR
        assert max(spreads) < 0.020, report
        assert max(vs_ctrl) < 0.050, report
        assert max(vs_wall) < 0.020, report
        assert 0 < ctrl_left <= clock["current"]["seconds"]
        assert all(0 < v <= clock["current"]["seconds"] for v in left.values()), left
    finally:
        for link in links.values():
            link.stop()
