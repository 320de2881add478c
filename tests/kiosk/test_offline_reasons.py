"""A screen that cannot reach the night says why (issue 29.3): on the screen (its
ScreenView's problem, which the waiting panel draws) and in its log, in the kiosk file's
language from the first frame. One test for each reason: the name, a refused port, the
account, TLS; and the first frame of a screen that looks for the night."""

from __future__ import annotations

import json
import logging
import socket
import ssl
import threading

import pytest

from controller.broker.local import free_port, mosquitto_path
from controller.broker.room import RoomBroker
from controller.wire.discovery import Night
from controller.wire.mqtt import Broker
from kiosk.app import KioskApp
from kiosk.config import KioskConfig
from kiosk.problems import words
from tests.support.secure import make_tls
from tests.support.waiting import wait_for


def screen(broker: Broker | None, language: str = "en", **kw) -> KioskApp:
    cfg = KioskConfig(sounds=False, language=language, fullscreen=False,
                      **({"auto_broker": True} if broker is None else {}))
    return KioskApp(cfg, "table", 3, (800, 480), broker, headless=True, **kw)


def reason(app: KioskApp, kind: str, caplog) -> str:
    """Step the screen until its view has the problem ``kind``; the log line it wrote."""
    problem = wait_for(lambda: app.view.problem if app.view.problem is not None
                       and app.view.problem.kind == kind else None, 20,
                       f"the problem {kind}", step=lambda: app.step(0.05),
                       explain=lambda: f"view.problem = {app.view.problem}")
    what, todo = words(problem, app.language)
    app.step(0)  # the frame drawn with it
    lines = [r.getMessage() for r in caplog.records if r.name == "kiosk.app"]
    assert any(what in line and todo in line for line in lines), lines
    return what


@pytest.fixture
def logged(caplog):
    caplog.set_level(logging.INFO, logger="kiosk.app")
    return caplog


def test_a_name_that_does_not_resolve(logged):
    app = screen(Broker("no-such-night.invalid", 1883)).start()
    try:
        what = reason(app, "no_name", logged)
        assert "no-such-night.invalid:1883" in what
    finally:
        app.close()


def test_a_port_nobody_listens_on_in_german(logged):
    port = free_port()
    app = screen(Broker("127.0.0.1", port), "de").start()
    try:
        what = reason(app, "refused", logged)
        assert what == f"Unter 127.0.0.1:{port} antwortet nichts: Verbindung abgelehnt"
    finally:
        app.close()


@pytest.mark.skipif(mosquitto_path() is None, reason="needs Mosquitto")
def test_an_account_the_broker_refuses(tmp_path, logged):
    rb = RoomBroker(tmp_path / "broker", tables=3, walls=1, prefix="floorman/t", port=0)
    try:
        good = rb.client("table-3")
        wrong = Broker("127.0.0.1", rb.port, username="table-3", password="not-its-password",
                       prefix="floorman/t")
        app = screen(wrong).start()
        try:
            what = reason(app, "account", logged)
            assert f"127.0.0.1:{rb.port}" in what and "refused this screen's account" in what
        finally:
            app.close()
        app = screen(good).start()  # and the right password gets in
        try:
            wait_for(lambda: app.view.online, 20, "online", step=lambda: app.step(0.05))
            assert app.view.problem is None
        finally:
            app.close()
    finally:
        rb.stop()


def test_tls_with_a_certificate_for_another_address(tmp_path, logged):
    tls = make_tls(tmp_path / "tls", names=("elsewhere",), ips=("10.9.9.9",))
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(tls["cert"], tls["key"])
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    done = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            try:
                with ctx.wrap_socket(conn, server_side=True):
                    pass
            except (OSError, ssl.SSLError):
                pass

    threading.Thread(target=serve, daemon=True).start()
    app = screen(Broker("127.0.0.1", port, tls_ca=str(tls["ca"]))).start()
    try:
        what = reason(app, "tls", logged)
        assert f"TLS with 127.0.0.1:{port} failed" in what
        assert "certificate" in what.lower()  # the handshake's own words
    finally:
        app.close()
        done.set()
        server.close()


def test_the_first_frame_of_a_screen_that_looks_for_the_night(tmp_path, monkeypatch, logged):
    monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path))
    app = screen(None, "de", look=lambda timeout: [])
    try:
        assert app.view.problem is not None and app.view.problem.kind == "looking"
        app.start()
        app.step(0)
        lines = [r.getMessage() for r in logged.records if r.name == "kiosk.app"]
        assert lines and lines[0].startswith("Suche den Abend im Netzwerk")
        what = reason(app, "no_night", logged)
        assert what.startswith("Kein Floorman-Abend in diesem Netzwerk gefunden")
    finally:
        app.close()


def _night(port: int) -> Night:
    return Night(name="Freitag", addresses=("127.0.0.1",), port=port, pair_port=1,
                 prefix="floorman/t", id="0123456789abcdef")


def _paired(monkeypatch, answers: list[Broker]) -> list[dict]:
    """``kiosk.join.pair`` answering the accounts of ``answers`` in turn; its calls."""
    calls: list[dict] = []

    def pair(night, code, **kw):
        calls.append({"code": code, **kw})
        b = answers[min(len(calls), len(answers)) - 1]
        return {"username": b.username, "password": b.password, "prefix": b.prefix}

    monkeypatch.setattr("kiosk.join.pair", pair)
    return calls


def test_a_kept_account_the_night_no_longer_knows_pairs_again(tmp_path, monkeypatch, logged):
    """The screen kept its account from an earlier start, and the night's accounts were made
    anew since: the broker refuses it, the screen forgets it and pairs again with its code
    (issue 29), instead of saying "account refused" for the rest of the night."""
    monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path / "pi"))
    rb = RoomBroker(tmp_path / "broker", tables=3, walls=1, prefix="floorman/t", port=0)
    try:
        good = rb.client("table-3")
        night = _night(rb.port)
        kept = tmp_path / "pi" / "screens" / night.id / "table-3.json"
        kept.parent.mkdir(parents=True)
        kept.write_text(json.dumps({"username": "table-3", "password": "last-weeks",
                                    "prefix": "floorman/t"}))
        calls = _paired(monkeypatch, [good])
        app = screen(None, look=lambda timeout: [night], join="1234-5678").start()
        try:
            wait_for(lambda: app.view.online, 30, "online with a new account",
                     step=lambda: app.step(0.05), explain=lambda: f"{app.view.problem}")
            assert [c["code"] for c in calls] == ["1234-5678"]
            assert json.loads(kept.read_text())["password"] == good.password
            lines = [r.getMessage() for r in logged.records]
            assert any("refused this screen's account" in line for line in lines), lines
            assert any("pairing again" in line for line in lines), lines
        finally:
            app.close()
    finally:
        rb.stop()


def test_an_account_refused_right_after_pairing_is_not_paired_again(tmp_path, monkeypatch,
                                                                      logged):
    """An account the night's door has just given and its broker refuses (a broken night)
    stays a problem on the screen: pairing again would only loop."""
    monkeypatch.setenv("FLOORMAN_STATE", str(tmp_path / "pi"))
    rb = RoomBroker(tmp_path / "broker", tables=3, walls=1, prefix="floorman/t", port=0)
    try:
        night = _night(rb.port)
        calls = _paired(monkeypatch, [Broker("127.0.0.1", rb.port, username="table-3",
                                             password="wrong", prefix="floorman/t")])
        app = screen(None, look=lambda timeout: [night], join="1234-5678").start()
        try:
            reason(app, "account", logged)
            for _ in range(40):  # a second's frames: no second pairing comes
                app.step(0.025)
            assert len(calls) == 1 and app.view.problem.kind == "account"
        finally:
            app.close()
    finally:
        rb.stop()
