"""The kiosk YAML loader: defaults, the shipped examples, and every kind of mistake
reported as FILE:LINE: key.path: message."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import build_parser
from kiosk.config import ConfigError, KioskConfig, load_kiosk, load_kiosk_text

ROOT = Path(__file__).resolve().parent.parent.parent


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as exc:
        load_kiosk_text(text, "k.yaml")
    return [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("name", ["table.yaml", "wall.yaml", "desktop.yaml"])
def test_shipped_examples_load(name):
    cfg = load_kiosk(ROOT / "config" / "kiosk" / name)
    assert isinstance(cfg, KioskConfig)


def test_table_example_has_the_whole_box():
    cfg = load_kiosk(ROOT / "config/kiosk/table.yaml")
    b = cfg.buttons
    assert set(b.pins) == {"seat_next", "seat_prev", "bust", "time", "hand_done", "undo"}
    assert b.hold("bust") == b.hold("undo") == 1.5
    assert b.hold("time") is None and b.debounce_ms == 50 and b.pull_up


def test_defaults_and_empty_file():
    cfg = load_kiosk_text("# nothing but a comment\n", "k.yaml")
    assert cfg.language is None and cfg.sounds and cfg.fullscreen
    assert cfg.buttons.pins == {} and cfg.buttons.hold("bust") == 1.5
    assert cfg.broker.host == "localhost" and cfg.broker.port == 1883


def test_values():
    cfg = load_kiosk_text(
        "broker: {host: pi.local, port: 1884, prefix: club/friday}\n"
        "language: de\nsounds: false\nfullscreen: false\n"
        "buttons:\n  pins: {bust: 5, undo: 6}\n  hold_seconds: {undo: 2.5}\n"
        "  debounce_ms: 20\n  pull_up: false\n", "k.yaml")
    assert (cfg.broker.host, cfg.broker.port, cfg.broker.prefix) == ("pi.local", 1884,
                                                                     "club/friday")
    assert cfg.language == "de" and not cfg.sounds and not cfg.fullscreen
    assert cfg.buttons.pins == {"bust": 5, "undo": 6}
    assert cfg.buttons.hold("bust") == 1.5 and cfg.buttons.hold("undo") == 2.5
    assert cfg.buttons.debounce_ms == 20 and not cfg.buttons.pull_up


def test_unknown_keys_with_line_and_path():
    assert problems("sounds: true\nsound: false\n") == [
        "k.yaml:2: sound: unknown key 'sound' (did you mean 'sounds'?)"]
    assert problems("buttons:\n  pins:\n    bust: 5\n    bustt: 6\n") == [
        "k.yaml:4: buttons.pins.bustt: unknown key 'bustt' (did you mean 'bust'?)"]
    out = problems("buttons:\n  debounce: 30\n")
    assert out[0].startswith("k.yaml:2: buttons.debounce: unknown key 'debounce'")


def test_wrong_types():
    assert problems("sounds: 1\n") == ["k.yaml:1: sounds: must be true or false, got 1"]
    assert problems("buttons:\n  pins: {bust: '5'}\n") == [
        "k.yaml:2: buttons.pins.bust: must be a whole number, got '5' (text; write numbers "
        "without quotes)"]
    assert problems("buttons:\n  hold_seconds: long\n") == [
        "k.yaml:2: buttons.hold_seconds: must be a number, got 'long' (text)"]
    assert problems("buttons: [17, 27]\n")[0].startswith("k.yaml:1: buttons: must be a mapping")
    assert problems("language: fr\n") == [
        "k.yaml:1: language: unknown language 'fr'; allowed: de, en"]
    assert problems("broker:\n  port: 99999\n") == [
        "k.yaml:2: broker.port: must be at most 65535, got 99999"]


def test_pins():
    assert problems("buttons:\n  pins:\n    bust: 17\n    undo: 17\n") == [
        "k.yaml:4: buttons.pins.undo: pin 17 is already used by bust"]
    assert problems("buttons:\n  pins: {time: 1}\n") == [
        "k.yaml:2: buttons.pins.time: must be at least 2, got 1"]
    assert problems("buttons:\n  pins: {time: 28}\n") == [
        "k.yaml:2: buttons.pins.time: must be at most 27, got 28"]


def test_ranges_and_all_problems_at_once():
    out = problems("buttons:\n  hold_seconds: 0\n  debounce_ms: 900\nfullscreen: no\n"
                   "input_poll_ms: -1\n")
    assert out == [
        "k.yaml:2: buttons.hold_seconds: must be more than 0.2, got 0",
        "k.yaml:3: buttons.debounce_ms: must be at most 500, got 900",
        "k.yaml:5: input_poll_ms: must be at least 0, got -1",
    ]


def test_yaml_errors_and_missing_file(tmp_path):
    out = problems("buttons: {pins: [\n")
    assert len(out) == 1 and out[0].startswith("k.yaml:") and "YAML syntax error" in out[0]
    assert problems("- a\n- b\n")[0].startswith("k.yaml:1: the top level must be a mapping")
    with pytest.raises(ConfigError) as exc:
        load_kiosk(tmp_path / "nope.yaml")
    assert str(exc.value) == f"{tmp_path / 'nope.yaml'}: file not found"


def test_cli_kiosk_verb(tmp_path, capsys):
    p = build_parser()
    a = p.parse_args(["kiosk", "config/kiosk/table.yaml", "--table", "3", "--windowed",
                      "800x480", "--broker", "h:1", "--prefix", "x/y"])
    assert (a.config, a.table, a.wall, a.windowed, a.broker, a.prefix) == (
        "config/kiosk/table.yaml", 3, False, "800x480", "h:1", "x/y")
    assert p.parse_args(["kiosk", "w.yaml", "--wall"]).wall
    with pytest.raises(SystemExit):
        p.parse_args(["kiosk", "w.yaml"])  # --table N or --wall
    with pytest.raises(SystemExit):
        p.parse_args(["kiosk", "w.yaml", "--wall", "--table", "2"])
    capsys.readouterr()
    bad = tmp_path / "bad.yaml"
    bad.write_text("buttons:\n  pins: {bust: 40}\n")
    assert a.func(p.parse_args(["kiosk", str(bad), "--table", "1"])) == 1
    assert capsys.readouterr().err.strip() == (f"{bad}:2: buttons.pins.bust: must be at most "
                                               "27, got 40")
    table_yaml = str(Path(__file__).resolve().parents[2] / "config/kiosk/table.yaml")
    assert a.func(p.parse_args(["kiosk", table_yaml, "--table", "1",
                                "--windowed", "big"])) == 1
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
