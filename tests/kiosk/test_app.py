"""The kiosk app headless against a real Mosquitto and a real controller process:
state on screen, a bust held on the (mock) button box, and a broker outage."""

from __future__ import annotations

import time

import pytest

from controller.wire.mqtt import Broker
from kiosk.app import KioskApp
from kiosk.config import ButtonConfig, KioskConfig
from kiosk.view import clock_now
from tests.support.controller import director, status, wait_up
from tests.support.kiosks import KioskProcess
from tests.support.mqtt import Probe
from tests.support.paths import TABLE_KIOSK
from tests.support.waiting import wait_for

PINS = {"seat_prev": 17, "seat_next": 27, "bust": 22, "time": 23, "hand_done": 24, "undo": 25}
HOLD = 0.3


def run_until(app: KioskApp, cond, timeout: float, what: str):
    return wait_for(cond, timeout, what, step=lambda: app.step(0.05))


def steps(app: KioskApp, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step(min(0.05, max(0.0, end - time.monotonic())))


@pytest.fixture
def tournament(broker, prefix, controller_factory):
    """A running controller with 12 players drawn (two tables of 6) and the clock started."""
    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b, every=0.5)
    director(b, "register", {"names": [f"P{i}" for i in range(1, 13)]})
    director(b, "draw")
    director(b, "start")
    return b


@pytest.fixture
def make_app(mock_pins):
    apps: list[KioskApp] = []

    def make(b: Broker, warm: bool = True, **kw) -> KioskApp:
        """``warm``: return once the kiosk's warm-up is over, as a dealer meets it. Its
        moments (and its last full collection, long in a worker that ran many tests)
        make single steps long on a loaded machine, which a 0.1 s tap on a 0.3 s hold
        or a second counted by steps would read as a hold or a late clock."""
        cfg = KioskConfig(sounds=False, buttons=ButtonConfig(
            pins=PINS, hold_seconds={"bust": HOLD, "undo": HOLD}))
        app = KioskApp(cfg, "table", 1, (800, 480), b, headless=True, pin_factory=mock_pins,
                       **kw)
        apps.append(app)
        app.start()
        if warm:
            run_until(app, lambda: app.warm_done is not None, 60, "the kiosk's warm-up")
        return app

    yield make
    for app in apps:
        app.close()


def tap(app: KioskApp, pins, action: str) -> None:
    pin = pins.pin(PINS[action])
    pin.drive_low()
    steps(app, 0.1)
    pin.drive_high()
    steps(app, 0.1)


def test_shows_the_controllers_state_within_a_second(tournament, make_app):
    app = make_app(tournament, warm=False)  # the state comes while it warms up
    t0 = time.monotonic()
    frames = app.frames
    run_until(app, lambda: "table/1" in app.view.state and "clock" in app.view.state
              and "structure" in app.view.state and app.link.sync.synced and app.view.online,
              1.0, "the controller's state")
    assert time.monotonic() - t0 < 1.0
    assert app.frames > frames  # drawn in the step that brought it
    assert len(app.view.state["table/1"]["seats"]) == 6
    cn = clock_now(app.view)
    assert cn is not None and cn.running and cn.started
    # the frame is redrawn as the clock counts, not more often than needed
    frames = app.frames
    steps(app, 1.5)
    assert 1 <= app.frames - frames <= 4


def test_bust_hold_on_the_button_box_shows_the_answer(tournament, make_app, mock_pins):
    app = make_app(tournament)
    run_until(app, lambda: "table/1" in app.view.state, 2, "table state")
    seats = [s["seat"] for s in app.view.state["table/1"]["seats"]]
    tap(app, mock_pins, "seat_next")
    assert app.view.selected_seat == seats[0]
    # a tap on bust sends nothing; it says to hold (issue 16: a tap gave no feedback)
    tap(app, mock_pins, "bust")
    steps(app, 0.2)
    assert app.link.pending() == 0 and not app.link.answers
    assert app.view.feedback is not None and app.view.feedback.kind == "info"
    assert app.view.feedback.text in ("Hold to bust", "Zum Ausscheiden halten")
    # a hold: the progress bar fills, then "sent" in the frame of the press, then the answer
    pin = mock_pins.pin(PINS["bust"])
    pin.drive_low()
    progress = []
    while not app._pending and not app.link.answers:
        app.step(0.05)
        if app.view.hold:
            progress.append(app.view.hold)
    assert progress and all(a == "bust" for a, _ in progress)
    assert max(p for _, p in progress) > 0.5
    assert app.view.feedback is not None and app.view.feedback.kind == "sent"
    assert app.view.hold is None
    pin.drive_high()
    fb = run_until(app, lambda: app.view.feedback.kind != "sent" and app.view.feedback, 3,
                   "the controller's answer")
    assert fb.kind == "accepted", fb
    assert "raus auf Platz 12" in fb.text, fb  # the preset is German: so is the answer (10.17)
    run_until(app, lambda: len(app.view.state["table/1"]["seats"]) == 5, 2, "the seat empty")
    assert app.view.selected_seat is None  # the busted seat is no target any more
    # the same seat again (selected by key) is rejected with the controller's reason
    app.controls.select(seats[0])
    app._outcomes([app.controls.do("bust")], time.monotonic())
    fb = run_until(app, lambda: app.view.feedback.kind == "rejected" and app.view.feedback, 3,
                   "the rejection")
    # the preset is German: the kiosk's own words follow it, the reason is the controller's
    assert app.view.language == "de"
    assert fb.text == f"abgelehnt: Platz {seats[0]} an Tisch 1 ist frei"  # German, 10.17


def test_outage_offline_badge_clock_counts_press_applied_once(broker, tournament, make_app,
                                                               mock_pins):
    app = make_app(tournament)
    run_until(app, lambda: "table/1" in app.view.state and app.link.sync.synced
              and app.view.online, 2, "online with state")
    assert app.view.state["table/1"]["hands"] == 0
    broker.stop()
    run_until(app, lambda: not app.view.online, 3, "the offline badge")
    # the clock keeps counting from the last anchor
    t0, r0 = time.monotonic(), clock_now(app.view).remaining
    steps(app, 1.0)
    r1 = clock_now(app.view).remaining
    assert r0 - r1 == pytest.approx(time.monotonic() - t0, abs=0.15)
    assert not app.view.online
    # a press during the outage waits in the outbox
    tap(app, mock_pins, "hand_done")
    assert app.link.pending() == 1
    assert app.view.feedback.kind == "sent" and "offline" in app.view.feedback.text
    broker.start()
    fb = run_until(app, lambda: app.view.feedback.kind != "sent" and app.view.feedback, 20,
                   "the answer after the outage")
    assert fb.kind == "accepted", fb
    assert app.view.online and app.link.pending() == 0
    run_until(app, lambda: app.view.state["table/1"]["hands"] == 1, 5, "the hand counted")
    steps(app, 2.5)  # longer than a resend: still applied once
    assert app.view.state["table/1"]["hands"] == 1
    assert status(tournament)["summary"]["players_left"] == 12


# --------------------------------------------------------------------------- without a broker


def offline_app(mock_pins, **cfg) -> KioskApp:
    """An app whose broker does not exist: presses queue, keys and frames still work."""
    config = KioskConfig(sounds=False, buttons=ButtonConfig(
        pins=PINS, hold_seconds={"bust": HOLD, "undo": HOLD}), **cfg)
    app = KioskApp(config, "table", 1, (800, 480), Broker("127.0.0.1", 1, prefix="test/none"),
                   headless=True, pin_factory=mock_pins)
    app.state["table/1"] = {"table": 1, "in_play": True, "seats": [
        {"seat": 3, "player_id": 1, "name": "A"}, {"seat": 7, "player_id": 2, "name": "B"}]}
    app.controls.update_table(app.state["table/1"])
    return app


def key(app: KioskApp, name: str, down: bool) -> None:
    import pygame

    pygame.event.post(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP,
                                         key=pygame.key.key_code(name)))


@pytest.mark.parametrize("poll_ms", [50, 0])
def test_keyboard_holds_like_the_box(mock_pins, poll_ms):
    app = offline_app(mock_pins, input_poll_ms=poll_ms)
    try:
        key(app, "right", True)
        key(app, "right", False)
        steps(app, 0.1)
        assert app.view.selected_seat == 3
        key(app, "left", True)
        key(app, "left", False)
        steps(app, 0.1)
        assert app.view.selected_seat == 7
        key(app, "b", True)  # a tap: nothing
        steps(app, 0.1)
        key(app, "b", False)
        steps(app, HOLD)
        assert app.link.pending() == 0
        key(app, "b", True)  # held: one bust, queued while offline
        steps(app, HOLD + 0.2)
        key(app, "b", False)
        steps(app, 0.1)
        assert app.link.pending() == 1
        assert app.view.feedback.kind == "sent" and "7" in app.view.feedback.text
        key(app, "t", True)
        key(app, "t", False)
        key(app, "return", True)
        key(app, "return", False)
        steps(app, 0.1)
        assert app.link.pending() == 3
        key(app, "f11", True)  # fullscreen and back
        steps(app, 0.1)
        assert app.fullscreen and app.renderer.size == app.screen.get_size()
        key(app, "f11", True)
        steps(app, 0.1)
        assert not app.fullscreen and app.screen.get_size() == (800, 480)
        assert app.renderer.size == (800, 480)
        key(app, "escape", True)
        steps(app, 0.1)
        assert not app.running
    finally:
        app.close()


@pytest.mark.parametrize("poll_ms", [50, 0])
def test_gpio_edges_wake_the_sleeping_loop(mock_pins, poll_ms):
    import threading

    app = offline_app(mock_pins, input_poll_ms=poll_ms)
    try:
        app.step(0)
        pin = mock_pins.pin(PINS["seat_next"])
        threading.Timer(0.2, pin.drive_low).start()  # from another thread, like gpiozero's
        t0 = time.monotonic()
        n = 0
        while app.view.selected_seat is None and time.monotonic() - t0 < 3:
            app._due = time.monotonic() + 5  # nothing else due: only the edge wakes it
            app.step(5.0)
            n += 1
        assert 0.15 < time.monotonic() - t0 < 0.5
        assert app.view.selected_seat == 3
        # polling: a wake-up per input_poll_ms; pygame.event.wait: the posted event wakes it
        assert n <= (6 if poll_ms else 1)
    finally:
        app.close()


def test_idle_loop_sleeps(mock_pins):
    app = offline_app(mock_pins)
    try:
        app.step(0)
        t0, n = time.monotonic(), 0
        while time.monotonic() - t0 < 1.0:
            app.step(1.0)
            n += 1
        frames = app.frames
        # input polling every 50 ms at most; no frames without a change
        assert n <= 25
        steps(app, 0.5)
        assert app.frames == frames
    finally:
        app.close()


def test_wall_screen_follows_the_controllers_clock(mock_pins):
    from kiosk.render import wall_page

    app = KioskApp(KioskConfig(sounds=False), "wall", None, (800, 480),
                   Broker("127.0.0.1", 1), headless=True)
    try:
        assert app.controls is None and app.link.table is None
        app.step(0)
        assert app.view.wall_page == wall_page(app.view.now)
        key(app, "b", True)  # no buttons on a wall
        steps(app, 0.1)
        assert app.link.pending() == 0
    finally:
        app.close()


# --------------------------------------------------------------------------- sounds


def _view(level: int, now: float, table: dict | None = None):
    from kiosk.view import ScreenView

    levels = [{"index": i, "number": i + 1, "is_break": i == 2, "seconds": 600,
               "small_blind": 100 * (i + 1), "big_blind": 200 * (i + 1), "ante": 0}
              for i in range(5)]
    state = {"structure": {"levels": levels, "time_call": {"red_seconds": 3}},
             "clock": {"level": level, "running": True, "started": True,
                       "ends_at": 1000.0 + 600, "remaining": None}}
    if table is not None:
        state["table/1"] = table
    return ScreenView(role="table", table=1, state=state, now=now)


def test_sound_cues():
    from kiosk.sound import Cues

    cues = Cues()
    assert cues(_view(0, 1000.0)) == []  # the first view only sets the baseline
    assert cues(_view(0, 1500.0)) == []
    assert cues(_view(1, 1000.0)) == ["level"]
    assert cues(_view(2, 1000.0)) == ["break_start"]
    assert cues(_view(3, 1000.0)) == ["break_end"]
    # a time call of 10 s + 0 countdown from 1000: ticks in the last 3 seconds, then time up
    tc = {"seats": [], "time_call": {"started_at": 1000.0, "seconds": 10, "countdown": 0}}
    heard = []
    for t in range(0, 121):
        heard += cues(_view(3, 1000.0 + t / 10, tc))
    assert heard == ["tick", "tick", "tick", "time_up"]


def test_sounds_are_silent_without_an_audio_device(monkeypatch):
    import pygame

    from kiosk.sound import Sounds

    def no_device(*a, **kw):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    s = Sounds(True)
    s.play("level")
    s.play("tick")
    assert s.played == ["level", "tick"] and not s.available and s.next_due() is None
    off = Sounds(False)
    off.play("level")
    assert not off.available


def test_sounds_play_and_close_the_mixer_when_quiet():
    import pygame

    from kiosk.sound import IDLE_CLOSE, Sounds

    t = [100.0]
    s = Sounds(True, clock=lambda: t[0])
    s.play("break_start")  # the dummy SDL audio driver: a real mixer that makes no sound
    assert s.available and pygame.mixer.get_init()
    assert s.next_due() == 100.0 + IDLE_CLOSE
    s.tick(100.0 + IDLE_CLOSE)
    assert not pygame.mixer.get_init() and s.next_due() is None


def test_floorman_kiosk_command_goes_online_and_stops_on_sigterm(broker, prefix, tmp_path):
    import signal

    topic = f"{prefix}/presence/table-4"
    probe = Probe(broker.address, (topic,))
    kiosk = KioskProcess(TABLE_KIOSK, 4, broker.for_prefix(prefix), tmp_path / "kiosk.log",
                         "--windowed", "640x400")
    kiosk.start()
    proc = kiosk.proc
    assert proc is not None
    try:
        presence = wait_for(lambda: (p := probe.on(topic)) and p[-1]["online"] and p, 15,
                            "the kiosk online")
        assert presence[-1]["role"] == "table" and presence[-1]["table"] == 4
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        wait_for(lambda: not probe.on(topic)[-1]["online"], 5, "the kiosk offline")
        out = kiosk.output()
        assert "Traceback" not in out and "no button box" not in out, out
    finally:
        kiosk.stop()
        probe.close()


def test_second_bust_asks_same_hand_on_the_status_line_000_9_5(tournament, make_app,
                                                               mock_pins):
    """Issue 10.1 at the table: after a bust with no "hand done" since, the next bust asks
    "same hand?" on the status line (in the preset's language) and stays there while it is
    open; Hand done answers "a new hand" and the controller catches the missed one up."""
    app = make_app(tournament)
    run_until(app, lambda: "table/1" in app.view.state, 2, "table state")
    pin = mock_pins.pin(PINS["bust"])

    def hold_bust() -> None:
        pin.drive_low()
        steps(app, HOLD + 0.15)
        pin.drive_high()
        steps(app, 0.1)

    tap(app, mock_pins, "seat_next")
    hold_bust()
    run_until(app, lambda: app.view.state["table/1"].get("asks_same_hand"), 3, "asks")
    tap(app, mock_pins, "seat_next")
    hold_bust()
    assert app.controls.question == "same_hand" and app.link.pending() == 0
    assert "dieselbe Hand wie" in app.view.feedback.text  # the preset is German
    steps(app, 6.0)  # longer than an info line lasts: the open question stays
    assert app.view.feedback.text.startswith("Platz") and app.controls.question
    tap(app, mock_pins, "hand_done")
    fb = run_until(app, lambda: app.view.feedback.kind == "accepted" and app.view.feedback, 3,
                   "the answer")
    assert "(die vergessene, nachgeholt)" in fb.text  # the hand done caught up, in German
