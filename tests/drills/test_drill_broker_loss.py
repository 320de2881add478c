"""Drill 2, broker loss: Mosquitto stops (losing every session and retained message) and
comes back, again and again, while the dealers keep pressing and the clock keeps running
through short levels.

- The kiosks' links and the controller reconnect by themselves.
- Every press, also those made while the broker was away, is applied once, and each
  table's presses are stored in the order they were pressed.
- The screens never show a wrong level: every kiosk's clock, computed from its retained
  anchor (``kiosk.view.clock_now``) at its estimate of controller time, is sampled ten
  times a second (five in the soak), and compared with the controller's level at that
  controller time (a replay of the events stored up to then); a difference within a
  second of a level boundary is allowed.
"""

from __future__ import annotations

import random
import threading
import time

from controller.config import load_tournament
from controller.engine import clock as clk
from controller.engine.tournament import Tournament
from controller.wire.mqtt import Broker
from kiosk.view import ScreenView, clock_now
from tests.support import drill as dr
from tests.support.controller import wait_up
from tests.support.eventlog import read_log
from tests.support.waiting import wait_for


def test_broker_loss(broker, prefix, controllers, report, tmp_path):
    players = dr.scale(36, 90)
    outages = dr.scale(4, 20)
    outage_s = dr.scale(3.0, 30.0)
    level_s = dr.scale(2, 10)
    config = dr.write_tournament(tmp_path / "broker-loss.yaml", "Drill: broker loss",
                                 structure=dr.short_levels(level_s, dr.scale(80, 200)))
    settings = load_tournament(config)
    b = Broker.from_env(broker.address, prefix)
    ctrl = controllers(config)
    tables = dr.open_tournament(ctrl, b, players)
    dealers = {n: dr.Dealer(b, n).start() for n in tables}
    for d in dealers.values():
        d.ready()

    stop = threading.Event()
    offline = threading.Event()  # the broker is away
    samples: list[tuple[float, int, int, bool]] = []  # (controller time, level, table, offline)
    errors: list[str] = []

    def deal(d, rng: random.Random) -> None:
        busted: set[int] = set()
        try:
            while not stop.is_set():
                view = d.view()
                if view and view.get("in_play"):
                    seats = [s["seat"] for s in view["seats"] if s["seat"] not in busted]
                    if seats and rng.random() < 0.04:
                        seat = rng.choice(seats)
                        busted.add(seat)
                        d.press("bust", seat=seat)
                    else:
                        d.press("hand_done")
                stop.wait(rng.uniform(0.25, 0.5))
        except Exception as exc:  # noqa: BLE001
            errors.append(f"table {d.table}: {exc!r}")

    def sample() -> None:
        while not stop.wait(dr.scale(0.1, 0.2)):  # (the soak's ten links share one GIL)
            for n, d in dealers.items():
                link = d.link
                state = dict(link.state)
                if not link.sync.synced or "clock" not in state or "structure" not in state:
                    continue
                view = ScreenView(role="table", table=n, state=state, now=link.sync.now())
                cn = clock_now(view)
                if cn is not None:
                    samples.append((view.now, cn.level["index"], n, offline.is_set()))

    threads = [threading.Thread(target=deal, args=(d, random.Random(7 * n)), daemon=True)
               for n, d in dealers.items()]
    threads.append(threading.Thread(target=sample, daemon=True))
    for t in threads:
        t.start()

    links_back: list[float] = []
    ctrl_back: list[float] = []
    try:
        for _ in range(outages):
            time.sleep(random.uniform(1.0, 2.0))
            offline.set()
            broker.stop()
            time.sleep(outage_s)
            broker.start()
            t0 = time.monotonic()
            wait_for(lambda: all(d.link.connected.is_set() for d in dealers.values()),
                     outage_s + 60, "every kiosk back")
            links_back.append(time.monotonic() - t0)
            wait_up(b, timeout=outage_s + 60)
            ctrl_back.append(time.monotonic() - t0)
            offline.clear()
        time.sleep(2.0)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    assert not errors, errors
    wait_for(lambda: all(d.pending() == 0 for d in dealers.values()), dr.scale(30, 300),
             "every press answered")
    status = wait_up(b)
    assert ctrl.alive
    for d in dealers.values():
        d.stop()
    assert ctrl.terminate() == 0
    assert "Traceback" not in ctrl.output(all_of_it=True)

    log = read_log(ctrl.db)
    # once: every answer stored as given, no event twice, nobody out twice
    presses = [(cid, a, f) for d in dealers.values() for cid, a, f, _ in d.pressed]
    acks = {cid: a for d in dealers.values() for cid, a in d.acks.items()}
    assert len(acks) == len(presses)
    audit = dr.audit(log, presses, acks)
    # in order: each table's presses were stored in the order they were pressed
    out_of_order = []
    for n, d in dealers.items():
        ids = [cid for cid, *_ in d.pressed]
        mine = set(ids)
        # (stored as "table-N/<id>": controller/service/inbound.py, scoped_id)
        stored = [cid for key in log.order if (cid := key.rpartition("/")[2]) in mine]
        if stored != ids:
            out_of_order.append(n)

    # the level each screen showed against the controller's level at that moment
    structure = settings.structure
    t = Tournament(settings)
    k = 0
    wrong: list[tuple] = []
    boundary = 0
    rolled = 0  # samples offline in a later level than the outage began with
    first_offline: dict[int, int] = {}
    for now, level, n, off in sorted(samples):
        while k < len(log.events) and log.events[k]["at"] <= now:
            t.apply(log.events[k])
            t.log.append(log.events[k])
            k += 1
        truth = clk.at(t.clock, structure, now).level
        if off:
            first = first_offline.setdefault(n, level)
            rolled += level != first
        else:
            first_offline.pop(n, None)
        if level != truth:
            near = {clk.at(t.clock, structure, now + dt).level for dt in (-1.0, 1.0)}
            if level in near:
                boundary += 1
            else:
                wrong.append((round(now, 3), n, level, truth))

    offline_presses = sum(1 for d in dealers.values() for *_, off in d.pressed if off)
    report.update(players=players, tables=len(tables), outages=outages, outage_s=outage_s,
                  presses=len(presses), presses_offline=offline_presses,
                  events=len(log.events), levels_reached=status["clock"]["level"],
                  links_back_max_s=round(max(links_back), 2),
                  controller_back_max_s=round(max(ctrl_back), 2),
                  level_samples=len(samples),
                  level_samples_offline=sum(1 for s in samples if s[3]),
                  levels_rolled_offline=rolled, level_boundary_second=boundary,
                  wrong_levels=len(wrong), out_of_order_tables=len(out_of_order),
                  **audit.figures())
    report.emit()
    assert not audit.lost, audit.lost[:5]
    assert not audit.doubled, audit.doubled[:5]
    assert not out_of_order, out_of_order
    assert not wrong, wrong[:10]
    assert offline_presses > 0 and rolled > 0
