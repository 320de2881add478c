"""Kiosk YAML files (``config/kiosk/*.yaml``) → :class:`KioskConfig`.

One file per kind of screen (a table with its button box, a wall screen); the
table number comes from the command line (``floorman kiosk FILE --table 3``),
so every table's Pi can share one file. Example::

    broker: {host: floor.local, port: 1883, prefix: floorman/default}
    language: de            # optional: overrides the tournament's language
    sounds: true
    fullscreen: true
    buttons:
      pins: {seat_next: 17, seat_prev: 27, bust: 22, time: 23, hand_done: 24, undo: 25}
      hold_seconds: 1.5     # or {bust: 1.5, undo: 2}
      debounce_ms: 50
      pull_up: true

Problems are reported like the tournament files' (:mod:`controller.config`,
whose YAML reader and validator this reuses): ``FILE:LINE: key.path: what was
expected``, all of them at once, in a :class:`~controller.config.ConfigError`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.config import (
    BAD,
    BROKER_CHECKS,
    LANGUAGES,
    ConfigError,
    ConfigProblem,
    Node,
    Validator,
    key_path,
    parse_yaml,
    read_file,
    show_value,
)
from controller.engine.settings import BrokerSettings

__all__ = ["ACTIONS", "HOLD_ACTIONS", "ButtonConfig", "ConfigError", "KioskConfig",
           "PIN_RANGE", "load_kiosk", "load_kiosk_text"]

#: every button of the box, in the order they sit on the box
ACTIONS = ("seat_prev", "seat_next", "bust", "time", "hand_done", "undo")
#: buttons that must be held (a tap must never eliminate anyone or undo anything)
HOLD_ACTIONS = ("bust", "undo")
#: BCM numbers of the Raspberry Pi header's general-purpose pins (0 and 1 are the HAT EEPROM)
PIN_RANGE = (2, 27)
DEFAULT_HOLD = 1.5
DEFAULT_DEBOUNCE_MS = 50


@dataclass(frozen=True)
class ButtonConfig:
    """The button box: BCM pin per action (a box may leave actions out)."""

    pins: dict[str, int] = field(default_factory=dict)
    #: seconds ``bust`` and ``undo`` must be held
    hold_seconds: dict[str, float] = field(
        default_factory=lambda: {a: DEFAULT_HOLD for a in HOLD_ACTIONS})
    #: edges within this many ms of the last accepted edge are contact bounce
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    #: buttons switch the pin to ground, against the Pi's internal pull-up
    pull_up: bool = True

    def hold(self, action: str) -> float | None:
        """Seconds ``action`` must be held, ``None`` if it fires when pressed."""
        return self.hold_seconds.get(action, DEFAULT_HOLD) if action in HOLD_ACTIONS else None


@dataclass(frozen=True)
class KioskConfig:
    """One kiosk file. ``language=None``: the tournament's language."""

    broker: BrokerSettings = field(default_factory=BrokerSettings)
    language: str | None = None
    sounds: bool = True
    fullscreen: bool = True
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    #: how often (ms) the idle loop looks for keys and window events; GPIO and network
    #: events wake it at once. 0: sleep in pygame.event.wait instead, which answers keys
    #: at once but polls SDL every millisecond inside (see kiosk/app.py)
    input_poll_ms: int = 50
    file: str = "<defaults>"


_TOP_KEYS = ("broker", "language", "sounds", "fullscreen", "buttons", "input_poll_ms")
_BUTTON_KEYS = ("pins", "hold_seconds", "debounce_ms", "pull_up")


def _seconds(v: Validator, node: Node, path: str, lo: float, hi: float) -> Any:
    x = node.value
    if x is BAD:
        return BAD
    if isinstance(x, bool) or not isinstance(x, int | float):
        return v.bad(node, path, f"must be a number of seconds, got {show_value(x)}")
    if not lo < x <= hi:
        return v.bad(node, path, f"must be more than {lo:g} and at most {hi:g} seconds, got {x!r}")
    return float(x)


def _pins(v: Validator, node: Node, path: str) -> Any:
    if not node.is_map:
        return v.bad(node, path, f"must be a mapping of action: BCM pin ({', '.join(ACTIONS)}), "
                     f"got {show_value(node.value)}")
    v.unknown_keys(node, path, ACTIONS)
    out: dict[str, int] = {}
    used: dict[int, str] = {}
    ok = True
    lo, hi = PIN_RANGE
    for action, child in node.value.items():
        if action not in ACTIONS:
            ok = False
            continue
        kpath = key_path(path, action)
        pin = v.integer(child, kpath, lo, hi)
        if pin is BAD:
            ok = False
        elif pin in used:
            v.bad(child, kpath, f"pin {pin} is already used by {used[pin]}")
            ok = False
        else:
            used[pin] = action
            out[action] = pin
    return out if ok else BAD


def _holds(v: Validator, node: Node, path: str) -> Any:
    if node.is_map:
        v.unknown_keys(node, path, HOLD_ACTIONS)
        out = {a: DEFAULT_HOLD for a in HOLD_ACTIONS}
        ok = True
        for action, child in node.value.items():
            if action in HOLD_ACTIONS:
                s = _seconds(v, child, key_path(path, action), 0.2, 10)
                ok = ok and s is not BAD
                out[action] = s
            else:
                ok = False
        return out if ok else BAD
    s = _seconds(v, node, path, 0.2, 10)
    if s is BAD:
        return BAD
    return {a: s for a in HOLD_ACTIONS}


def _buttons(v: Validator, node: Node) -> Any:
    if node.value is None:  # "buttons:" with nothing under it: no box
        return ButtonConfig()
    if not node.is_map:
        return v.bad(node, "buttons", f"must be a mapping with keys {', '.join(_BUTTON_KEYS)}, "
                     f"got {show_value(node.value)}")
    v.unknown_keys(node, "buttons", _BUTTON_KEYS)
    m = node.value
    values: dict[str, Any] = {}
    if "pins" in m:
        values["pins"] = _pins(v, m["pins"], "buttons.pins")
    if "hold_seconds" in m:
        values["hold_seconds"] = _holds(v, m["hold_seconds"], "buttons.hold_seconds")
    if "debounce_ms" in m:
        values["debounce_ms"] = v.integer(m["debounce_ms"], "buttons.debounce_ms", 0, 500)
    if "pull_up" in m:
        values["pull_up"] = v.boolean(m["pull_up"], "buttons.pull_up")
    if any(x is BAD for x in values.values()) or any(k not in _BUTTON_KEYS for k in m):
        return BAD
    return ButtonConfig(**values)


def _build(doc: Node, v: Validator) -> KioskConfig | None:
    m: dict[str, Node] = doc.value
    v.unknown_keys(doc, "", _TOP_KEYS)
    values: dict[str, Any] = {}
    if "broker" in m:
        values["broker"], _, _ = v.section(m, "broker", BrokerSettings, BROKER_CHECKS)
    if "language" in m:
        node = m["language"]
        values["language"] = (None if node.value is None
                              else v.choice(node, "language", LANGUAGES, "language"))
    for key in ("sounds", "fullscreen"):
        if key in m:
            values[key] = v.boolean(m[key], key)
    if "buttons" in m:
        values["buttons"] = _buttons(v, m["buttons"])
    if "input_poll_ms" in m:
        values["input_poll_ms"] = v.integer(m["input_poll_ms"], "input_poll_ms", 0, 1000)
    if v.problems or any(x is BAD for x in values.values()):
        return None
    return KioskConfig(**values, file=v.main_file)


def _empty(text: str) -> bool:
    return not any(line.split("#", 1)[0].strip() for line in text.splitlines())


def load_kiosk_text(text: str, filename: str = "<string>") -> KioskConfig:
    """Parse and validate kiosk YAML ``text``. Raises :class:`ConfigError` listing every
    problem. An empty file (or only comments) means all defaults."""
    problems: list[ConfigProblem] = []
    if _empty(text):
        return KioskConfig(file=filename)
    doc = parse_yaml(text, filename, problems)
    if doc is None:
        raise ConfigError(problems)
    v = Validator(filename, problems)
    cfg = _build(doc, v)
    if problems or cfg is None:
        raise ConfigError(sorted(problems, key=lambda p: p.line or 0))
    return cfg


def load_kiosk(path: str | os.PathLike) -> KioskConfig:
    """Read and validate a kiosk file; a missing or unreadable file is a
    :class:`ConfigError` too."""
    problems: list[ConfigProblem] = []
    text = read_file(Path(path), str(path), problems)
    if text is None:
        raise ConfigError(problems)
    return load_kiosk_text(text, str(path))
