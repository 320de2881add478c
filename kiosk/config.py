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
whose YAML reader and pydantic check this reuses): ``FILE:LINE: key.path: what was
expected``, all of them at once, in a :class:`~controller.config.ConfigError`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, ConfigDict, Field, Strict

from controller.config import (
    BAD,
    ConfigError,
    ConfigProblem,
    Node,
    Shape,
    parse_yaml,
    read_file,
    validate,
)
from controller.engine.settings import BrokerSettings, problem

__all__ = ["ACTIONS", "HOLD_ACTIONS", "ButtonConfig", "ConfigError", "KioskConfig",
           "PIN_RANGE", "load_kiosk", "load_kiosk_text"]

#: every button of the box, in the order they sit on the box
Action = Literal["seat_prev", "seat_next", "bust", "time", "hand_done", "undo"]
ACTIONS: tuple[str, ...] = get_args(Action)
#: buttons that must be held (a tap must never eliminate anyone or undo anything)
HoldAction = Literal["bust", "undo"]
HOLD_ACTIONS: tuple[str, ...] = get_args(HoldAction)
#: BCM numbers of the Raspberry Pi header's general-purpose pins (0 and 1 are the HAT EEPROM)
PIN_RANGE = (2, 27)
DEFAULT_HOLD = 1.5
DEFAULT_DEBOUNCE_MS = 50
_FORBID = ConfigDict(extra="forbid")


def _one_pin_each(pins: dict[str, int]) -> dict[str, int]:
    used: dict[int, str] = {}
    for action, pin in pins.items():
        if pin in used:
            raise problem(f"pin {pin} is already used by {used[pin]}", at=(action,))
        used[pin] = action
    return pins


Pin = Annotated[int, Strict(), Field(ge=PIN_RANGE[0], le=PIN_RANGE[1])]
Seconds = Annotated[float, Strict(), Field(gt=0.2, le=10)]


@dataclass(frozen=True)
class ButtonConfig:
    """The button box: BCM pin per action (a box may leave actions out)."""

    __pydantic_config__ = _FORBID
    pins: Annotated[dict[Action, Pin], AfterValidator(_one_pin_each)] = field(
        default_factory=dict)
    #: seconds ``bust`` and ``undo`` must be held
    hold_seconds: dict[HoldAction, Seconds] = field(
        default_factory=lambda: dict.fromkeys(get_args(HoldAction), DEFAULT_HOLD))
    #: edges within this many ms of the last accepted edge are contact bounce
    debounce_ms: Annotated[int, Strict(), Field(ge=0, le=500)] = DEFAULT_DEBOUNCE_MS
    #: buttons switch the pin to ground, against the Pi's internal pull-up
    pull_up: Annotated[bool, Strict()] = True

    def hold(self, action: str) -> float | None:
        """Seconds ``action`` must be held, ``None`` if it fires when pressed."""
        if action not in HOLD_ACTIONS:
            return None
        return next((s for a, s in self.hold_seconds.items() if a == action), DEFAULT_HOLD)


@dataclass(frozen=True)
class KioskConfig:
    """One kiosk file. ``language=None``: the tournament's language."""

    __pydantic_config__ = _FORBID
    #: where the broker is (``broker: auto`` in the file: see ``auto_broker``)
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    language: Literal["de", "en"] | None = None
    sounds: Annotated[bool, Strict()] = True
    #: the wall says announcements, table breaks, moves and hand-for-hand aloud with
    #: espeak-ng (optional, apt-get install espeak-ng; kiosk/speech.py)
    speech: Annotated[bool, Strict()] = False
    fullscreen: Annotated[bool, Strict()] = True
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    #: how often (ms) the idle loop looks for keys and window events; GPIO and network
    #: events wake it at once. 0: sleep in pygame.event.wait instead, which answers keys
    #: at once but polls SDL every millisecond inside (see kiosk/app.py)
    input_poll_ms: Annotated[int, Strict(), Field(ge=0, le=1000)] = 50
    file: str = "<defaults>"
    #: ``broker: auto``: find the night on the network (DNS-SD) and join it (kiosk/join.py)
    auto_broker: bool = False


def _check(doc: Node, filename: str, problems: list[ConfigProblem]) -> KioskConfig | None:
    shape = Shape(problems)
    broker = doc.value.get("broker")
    auto = broker is not None and broker.value == "auto"
    if auto:  # not a mapping: taken out before the check, given back as auto_broker
        doc.value.pop("broker")
    data = shape.plain(doc, (), "")
    for key in ("file", "auto_broker"):
        if key in data:  # a field, but not a key of the file
            data[key] = BAD
            shape.unknown({key: doc.value[key]}, "", tuple(
                f.name for f in dataclasses.fields(KioskConfig)
                if f.name not in ("file", "auto_broker")))
    buttons = doc.value.get("buttons")
    if buttons is not None and buttons.value is None:  # "buttons:" with nothing under it: no box
        del data["buttons"]
    elif buttons is not None and buttons.is_map and "hold_seconds" in buttons.value:
        hold = buttons.value["hold_seconds"]
        if not hold.is_map:  # one time for both: as if written for each
            loc = ("buttons", "hold_seconds")
            data["buttons"]["hold_seconds"] = {a: hold.value for a in HOLD_ACTIONS}
            shape.where.update({(*loc, a): (hold, "buttons.hold_seconds") for a in HOLD_ACTIONS})
        else:
            data["buttons"]["hold_seconds"] = {**{a: DEFAULT_HOLD for a in HOLD_ACTIONS},
                                               **data["buttons"]["hold_seconds"]}
    cfg = validate(KioskConfig, data, shape, filename)
    return None if cfg is None else dataclasses.replace(cfg, file=filename, auto_broker=auto)


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
    cfg = _check(doc, filename, problems)
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
