"""Drill 3, kiosk loss: table screens die and come back while the tables play on.

- Kiosk processes (``python -m controller kiosk config/kiosk/desktop.yaml --table N``,
  SDL's dummy video driver) are killed with SIGKILL at random and started again: each is
  back online (its retained presence says so) and never prints a traceback.
- In-process table screens (headless :class:`~kiosk.app.KioskApp`) are killed the same
  way (their connection just drops) while their table plays on, and started again: the
  time from connecting to the first frame that shows the right seats (the table as a
  replay of the log has it, every name drawn) and the right level is measured; the
  longest must stay under a second.
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import time

from controller.config import load_tournament
from controller.engine import clock as clk
from controller.engine.tournament import Tournament
from controller.service import views
from controller.wire.mqtt import Broker
from controller.wire.protocol import Topics
from kiosk.config import load_kiosk
from kiosk.view import clock_now
from tests.support import drill as dr
from tests.support.eventlog import read_log
from tests.support.kiosks import KioskProcess
from tests.support.mqtt import raw_client
from tests.support.paths import DESKTOP_KIOSK
from tests.support.waiting import wait_for

SIZE = (800, 480)


def test_kiosk_loss(broker, prefix, controllers, report, tmp_path):
    players = dr.scale(45, 300)
    restarts = dr.scale(10, 100)  # in-process screens
    process_kills = dr.scale(4, 30)
    rng = random.Random(31)
    config = dr.write_tournament(tmp_path / "kiosk-loss.yaml", "Drill: kiosk loss",
                                 structure=dr.short_levels(3, dr.scale(60, 600)),
                                 extra="ghosts: {enabled: false}\n")
    settings = load_tournament(config)
    b = Broker.from_env(broker.address, prefix)
    ctrl = controllers(config)
    tables = dr.open_tournament(ctrl, b, players)
    screens, procs_tables = tables[:3], tables[3:5]
    # the dealers press through links of their own (named apart from the screens)
    crew = dr.DealerCrew(b, tables, seed=5, think=(0.05, 0.15), undo_rate=0.0)
    for n, d in crew.dealers.items():
        d.name = f"dealer-{n}"
        d.link = d._link()
    crew.start()
    crew.resume()

    # ---- kiosk processes, killed and restarted in the background
    top = Topics(prefix)
    online_at: dict[int, list[float]] = {n: [] for n in procs_tables}

    def on_presence(c, u, msg) -> None:
        n = int(msg.topic.rsplit("-", 1)[1])
        data = json.loads(msg.payload) if msg.payload else {}
        if data.get("online"):
            online_at[n].append(time.monotonic())

    watch = raw_client(broker.address)
    watch.on_connect = lambda c, u, f, rc, p=None: c.subscribe(
        [(top.presence(f"table-{n}"), 1) for n in procs_tables])
    watch.on_message = on_presence
    watch.loop_start()
    procs = {n: KioskProcess(DESKTOP_KIOSK, n, b, tmp_path / f"kiosk-{n}.log")
             for n in procs_tables}
    for p in procs.values():
        p.start()
    proc_online: list[float] = []
    proc_errors: list[str] = []
    killed: list[int] = []
    #: set only to abandon the kills when the drill fails elsewhere: the kills are not cut
    #: short when the screens' restarts are done first (issue 27.7: on a loaded machine
    #: they were, and the drill counted its own thread's turns, 3 == 4)
    stop = threading.Event()
    kill_rng = random.Random(32)  # its own: the main thread's draws do not shift it

    def kill_processes() -> None:
        try:
            for _ in range(process_kills):
                if stop.wait(kill_rng.uniform(0.5, 2.0)):
                    return
                p = procs[kill_rng.choice(procs_tables)]
                wait_for(lambda p=p: any(t > p.started for t in online_at[p.table]), 30,
                         f"kiosk {p.table} online")
                p.kill()
                killed.append(p.table)
                p.start()
                wait_for(lambda p=p: any(t > p.started for t in online_at[p.table]), 30,
                         f"kiosk {p.table} back online")
                proc_online.append(next(t for t in online_at[p.table] if t > p.started)
                                   - p.started)
        except Exception as exc:  # noqa: BLE001
            proc_errors.append(repr(exc))

    killer = threading.Thread(target=kill_processes, daemon=True)
    if procs:
        killer.start()

    # ---- in-process screens
    import pygame

    from kiosk.app import KioskApp

    kiosk_cfg = dataclasses.replace(load_kiosk(DESKTOP_KIOSK), sounds=False)

    def open_screen(n: int) -> tuple[KioskApp, list[float]]:
        app = KioskApp(kiosk_cfg, "table", n, SIZE, b, headless=True)
        app.screen = pygame.Surface(SIZE)  # one SDL window per process: a surface each
        app.renderer = app._make_renderer()
        connected: list[float] = []
        inner = app.link.notify

        def notify(kind, data) -> None:
            if kind == "online" and data:
                connected.append(time.monotonic())
            inner(kind, data)

        app.link.notify = notify
        return app.start(), connected

    def crash(app: KioskApp) -> None:
        dr.kill_link(app.link)
        app.sounds.close()

    apps = {n: open_screen(n)[0] for n in screens}
    latencies: list[float] = []
    changed = level_moved = 0  # restarts after which the table / the level was not the same
    try:
        for _ in range(restarts):
            n = rng.choice(screens)
            before = apps[n].view.state.get(f"table/{n}")
            cn = clock_now(apps[n].view)
            level_before = None if cn is None else cn.level["index"]
            crash(apps.pop(n))
            end = time.monotonic() + rng.uniform(0.5, 1.5)
            while time.monotonic() < end:  # the other screens live on; the table plays
                for app in apps.values():
                    app.step(0.01)
            crew.pause()
            log = read_log(ctrl.db)
            t = Tournament.replay(log.events, settings)
            want = json.loads(json.dumps(views.table_view(t, n)))
            changed += want != before
            level_moved += clk.at(t.clock, settings.structure, time.time()).level != \
                level_before
            app, connected = open_screen(n)
            apps[n] = app
            deadline = time.monotonic() + 10
            good_at = None
            while good_at is None:
                frames = app.frames
                app.step(0.005)
                assert time.monotonic() < deadline, (n, app.view.state.get(f"table/{n}"), want)
                if app.frames == frames or not connected:
                    continue
                v = app.view
                if v.state.get(f"table/{n}") != want:
                    continue
                cn = clock_now(v)
                if cn is None:
                    continue
                level = cn.level["index"]
                if level not in {clk.at(t.clock, settings.structure, v.now + dt).level
                                 for dt in (-1.0, 0.0, 1.0)}:
                    continue
                texts = [s for s, _ in app.renderer.items]
                if all(any(seat["name"] in s for s in texts) for seat in want["seats"]):
                    good_at = time.monotonic()
            latencies.append(good_at - connected[0])
            crew.resume()
        if procs:  # the tables play on until every kiosk process was killed and is back
            killer.join(process_kills * 65)  # each kill waits at most 2 s + 2 x 30 s
            assert not killer.is_alive(), f"the kills did not end: {len(killed)} done"
    finally:
        stop.set()
        crew.close()
        for app in apps.values():
            app.close()
        watch.disconnect()
        watch.loop_stop()
        alive = {n: p.proc is not None and p.proc.poll() is None for n, p in procs.items()}
        for p in procs.values():
            if p.proc is not None and p.proc.poll() is None:
                p.proc.terminate()
                p.proc.wait(10)
    assert not proc_errors, proc_errors
    assert all(alive.values()), alive
    for p in procs.values():
        assert "Traceback" not in p.output(), p.output()[-2000:]
        assert p.proc is not None and p.proc.returncode == 0, p.output()[-2000:]
    assert ctrl.alive and not crew.errors, crew.errors
    report.update(players=players, tables=len(tables), screen_restarts=len(latencies),
                  connect_to_right_frame_max_s=round(max(latencies), 3),
                  connect_to_right_frame_median_s=round(sorted(latencies)[len(latencies) // 2],
                                                        3),
                  table_changed_while_down=changed, level_changed_while_down=level_moved,
                  process_kills=len(proc_online),
                  process_start_to_online_max_s=round(max(proc_online, default=0), 2),
                  presses=sum(len(d.pressed) for d in crew.dealers.values()))
    report.emit()
    assert len(latencies) == restarts
    assert max(latencies) < 1.0, latencies
    # what happened to the screens: every kiosk process killed came back online
    assert len(killed) == (process_kills if procs else 0), killed
    assert len(proc_online) == len(killed), (proc_online, killed)
