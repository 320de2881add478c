"""The warm-up (kiosk/warmup.py, issue 32.1): a table screen lays its moments out off the
screen while it connects, so that the first layouts a dealer sees open no font; what
it draws stays byte for byte what a cold renderer draws; an arriving state is drawn
before the warm-up is over; an idle kiosk still sleeps. Counted in the renderer's
caches (fonts opened, texts measured), never in time."""

from __future__ import annotations

import dataclasses
import gc
import time

import pygame
import pytest

from controller.night import shots
from controller.wire.mqtt import Broker
from kiosk.app import KioskApp, text
from kiosk.config import ButtonConfig, KioskConfig
from kiosk.render import Renderer
from kiosk.view import ScreenView
from kiosk.warmup import moments

#: the moments of a table screen a dealer's presses bring (and the screen between them)
PRESSED = ["table_running", "table_paused", "table_time_call", "table_time_call_red",
           "table_hfh_playing", "table_hfh_waiting", "table_hfh_deal", "table_break",
           "table_chip_race_entry", "table_feedback_sent", "table_feedback_accepted",
           "table_feedback_rejected", "table_feedback_tap", "table_hold"]


def warmed(size: tuple[int, int], lang: str, real: ScreenView | None = None) -> Renderer:
    """A new renderer after the warm-up: of the made-up tournament (``real`` None: before
    the first state), or of ``real``'s state."""
    r = Renderer(size, lang, monotonic=lambda: shots.MONO)
    base = real or ScreenView(role="table", table=1, language=lang)
    state = (lambda: real.state) if real is not None else None
    for v in moments(base, lang, 100.0 if real is None else real.now, shots.MONO, text,
                     state=state):
        r.warm(v)
    r.warmed_up()
    return r


def moment(name: str, lang: str) -> ScreenView:
    return dataclasses.replace(shots.moment(name), language=lang)


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", shots.LANGUAGES)
def test_after_the_warm_up_the_pressed_moments_open_no_font(size, lang):
    """Before any state: the made-up tournament's sizes are the real screen's."""
    for name in PRESSED:
        view = moment(name, lang)
        r = warmed(size, lang)
        opened = r.fonts.opened
        r.draw(pygame.Surface(size), view)
        assert r.fonts.opened == opened, f"{name}: {r.fonts.opened - opened} font(s) opened"
        cold = Renderer(size, lang, monotonic=lambda: shots.MONO)
        cold.draw(pygame.Surface(size), view)
        assert cold.fonts.opened > 10  # what the warm-up spared the first layout


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_warmed_on_the_real_state_a_moment_measures_nothing_new(size):
    """Once the state is there the warm-up lays out the real names and blinds: a moment
    of it measures no text again (the answer lines' own words aside)."""
    for name in ("table_running", "table_time_call", "table_hfh_waiting", "table_break",
                 "table_chip_race_entry", "table_hold"):
        view = moment(name, "de")
        r = warmed(size, "de", view)
        opened, measured = r.fonts.opened, r.fonts.measured
        r.draw(pygame.Surface(size), view)
        assert (r.fonts.opened, r.fonts.measured) == (opened, measured), name


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_warm_renderer_draws_what_a_cold_one_draws(size):
    for name in ("table_feedback_accepted", "table_time_call", "table_chip_race_entry",
                 "table_long_names"):
        view = moment(name, "de")
        warm, cold = pygame.Surface(size), pygame.Surface(size)
        warmed(size, "de").draw(warm, view)
        Renderer(size, "de", monotonic=lambda: shots.MONO).draw(cold, view)
        assert pygame.image.tobytes(warm, "RGB") == pygame.image.tobytes(cold, "RGB"), name


def test_the_warm_up_leaves_the_screen_and_its_comparison_alone():
    """A warm layout between two frames: the next frame repaints only what changed."""
    size = (800, 480)
    view = moment("table_running", "en")
    r = Renderer(size, "en", monotonic=lambda: shots.MONO)
    surface = pygame.Surface(size)
    r.draw(surface, view)
    before = pygame.image.tobytes(surface, "RGB")
    items, layouts = list(r.items), r.layouts
    for v in moments(view, "en", view.now, shots.MONO, text, state=lambda: view.state):
        r.warm(v)
    assert pygame.image.tobytes(surface, "RGB") == before
    assert r.items == items and r.layouts == layouts and r.warmed > 30
    assert r.draw(surface, view) == []  # nothing changed on the screen: nothing to paint


def offline_app(**kw) -> KioskApp:
    """A table screen whose broker does not exist: nothing arrives unless a test puts it
    in the inbox as paho's thread would."""
    cfg = KioskConfig(sounds=False, language="en", buttons=ButtonConfig(pins={}))
    return KioskApp(cfg, "table", 1, (800, 480), Broker("127.0.0.1", 1, prefix="test/none"),
                    headless=True, **kw)


def arrive(app: KioskApp, key: str, payload: dict) -> None:
    app.link.state[key] = payload
    app._notify("state", key)


def test_an_arriving_state_is_drawn_before_the_warm_up_is_over():
    app = offline_app().start()
    try:
        app.step(0.05)  # the first frame ("waiting for the controller"), then a moment
        app.step(0.05)
        assert 0 < app.warm_slices and app.warm_done is None
        layouts = app.renderer.layouts
        summary = dict(moment("table_running", "en").state["summary"], name="Abendturnier")
        arrive(app, "summary", summary)
        app.step(0.05)
        assert app.renderer.layouts == layouts + 1
        assert any("Abendturnier" in t for t, _ in app.renderer.items)
        assert app.warm_done is None  # drawn first; the warm-up goes on after it
        slices = app.warm_slices
        for _ in range(200):
            app.step(0.05)
            if app.warm_done is not None:
                break
        assert app.warm_done is not None and app.warm_slices > slices
        assert app.renderer._spare is None  # its surface let go
    finally:
        app.close()


def test_after_the_warm_up_the_loop_sleeps_and_the_collector_skips_what_it_keeps():
    gc.unfreeze()
    app = offline_app().start()
    try:
        while app.warm_done is None:
            app.step(0.05)
        assert gc.get_freeze_count() > 0
        app.step(0)
        t0, n = time.monotonic(), 0
        while time.monotonic() - t0 < 1.0:
            app.step(1.0)
            n += 1
        assert n <= 25  # polling the input every 50 ms, no more: the warm-up is over
    finally:
        app.close()
    # a process that goes on (a test worker) gets what the kiosk froze collected again
    assert gc.get_freeze_count() == 0


def test_a_new_language_or_size_warms_again():
    app = offline_app().start()
    app.config = dataclasses.replace(app.config, language=None)  # the tournament's
    try:
        while app.warm_done is None:
            app.step(0.05)
        slices = app.warm_slices
        arrive(app, "summary", dict(moment("table_running", "de").state["summary"],
                                    language="de"))
        app.step(0.05)
        assert app.language == "de" and app.warm_done is not None
        for _ in range(200):
            app.step(0.05)
            if app.warm_slices > slices + 40:
                break
        assert app.warm_slices > slices + 40  # the German lines laid out
        while app._warm is not None:
            app.step(0.05)
        slices = app.warm_slices
        app.toggle_fullscreen()  # a new size: a new renderer, cold
        for _ in range(200):
            app.step(0.05)
            if app._warm is None:
                break
        assert app._warm is None and app.warm_slices > slices + 40
        assert app.renderer.warmed > 40
    finally:
        app.close()


def test_a_wall_does_not_warm_up():
    cfg = KioskConfig(sounds=False, language="en")
    app = KioskApp(cfg, "wall", None, (800, 480), Broker("127.0.0.1", 1, prefix="test/none"),
                   headless=True).start()
    try:
        app.step(0.05)
        assert app._warm is None and app.warm_slices == 0
    finally:
        app.close()


# ---------------------------------------------------------------- a press's answer


def pressed_app(monkeypatch, grace: float) -> tuple[KioskApp, str, dict]:
    """A warm offline table screen with its table shown and one hand_done press out."""
    import kiosk.app

    monkeypatch.setattr(kiosk.app, "ANSWER_GRACE", grace)
    app = offline_app().start()
    while app.warm_done is None:
        app.step(0.05)
    tab = moment("table_running", "en").state["table/1"]
    arrive(app, "table/1", tab)
    app.step(0.05)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("h")))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.key.key_code("h")))
    app.step(0.05)
    assert len(app._pending) == 1, app.view.feedback
    (cid,) = app._pending
    return app, cid, tab


def test_the_state_a_press_changed_and_its_answer_are_one_frame(monkeypatch):
    """The controller publishes the table's new state, then the answer: the frame waits
    for the answer (a generous grace here; 4 ms on the floor) and lays both out once."""
    import threading

    app, cid, tab = pressed_app(monkeypatch, 5.0)
    try:
        layouts = app.renderer.layouts
        arrive(app, "table/1", dict(tab, hands=tab.get("hands", 0) + 1))
        timer = threading.Timer(0.05, app._notify, ("answer", {"id": cid, "ok": True,
                                                              "message": "Hand done"}))
        timer.start()
        app.step(1.0)
        timer.join()
        assert app.renderer.layouts == layouts + 1  # one layout: the state and the answer
        assert app.view.feedback.kind == "accepted"
        assert any(t == "Hand done" for t, _ in app.renderer.items)
        assert app.view.state["table/1"]["hands"] == tab.get("hands", 0) + 1
    finally:
        app.close()


def test_a_state_without_its_answer_waits_no_longer_than_the_grace(monkeypatch):
    app, cid, tab = pressed_app(monkeypatch, 0.02)
    try:
        layouts = app.renderer.layouts
        arrive(app, "table/1", dict(tab, hands=tab.get("hands", 0) + 1))
        app.step(1.0)
        assert app.renderer.layouts == layouts + 1  # drawn without the answer
        assert app.view.feedback.kind == "sent" and app._answer_due is None
        assert cid in app._pending
    finally:
        app.close()
