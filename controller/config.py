"""Tournament YAML files and club presets → :class:`TournamentSettings`.

A tournament file is a YAML mapping (see ``docs/config.md``). It may name a
club preset (``preset: psc-five-spades``): a partial tournament file from
``config/clubs/`` that the tournament file overrides key by key (mappings
merge, lists such as ``structure`` replace). A preset may name a preset of its
own (the turbo variant of a venue inherits the venue).

Every mistake is reported as a :class:`ConfigProblem` with the file where the
offending key was written (tournament file *or* preset), the exact line (the
YAML is composed node by node, so lines survive), the key path and what was
expected. All problems are collected before :class:`ConfigError` is raised.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from controller import resources
from controller.engine.points import SYSTEMS
from controller.engine.settings import (
    Balancing,
    BrokerSettings,
    ChipRace,
    Entries,
    Ghosts,
    HandForHand,
    Level,
    Points,
    TimeCall,
    TournamentSettings,
)
from controller.protocol import valid_prefix

__all__ = [
    "ConfigError",
    "ConfigProblem",
    "LANGUAGES",
    "POINTS_SYSTEMS",
    "list_presets",
    "load_tournament",
    "load_tournament_text",
    "PresetSummary",
    "REQUIRED_KEYS",
    "is_preset_file",
    "load_preset",
    "main_check",
    "preset_dirs",
]

#: Extra preset folders, ``os.pathsep``-separated.
PRESETS_ENV = "FLOORMAN_PRESETS"

LANGUAGES = ("de", "en")
#: the points systems the engine scores (one list: :data:`controller.engine.points.SYSTEMS`)
POINTS_SYSTEMS = SYSTEMS
ANTE_TYPES = ("standard", "big_blind")
#: ``final_table_size: mode+1`` (002) is capped at this many players.
MODE_PLUS_ONE_CAP = 9
#: Sanity limit for physical seats at one table (001 §2 II: a sit & go takes up to 11).
MAX_TABLE_SEATS = 12

_MAX_NODES = 100_000
_PRESET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
_NUMBER = re.compile(r"\d{1,3}(?:([.,_' ])\d{3})(?:\1\d{3})*\Z|\d+\Z")


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class ConfigProblem:
    """One mistake: where it was written and what was expected."""

    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.key:
            return f"{where}: {self.key}: {self.message}"
        return f"{where}: {self.message}"


class ConfigError(Exception):
    """A tournament file (or its presets) has problems; ``problems`` lists them all."""

    def __init__(self, problems: Iterable[ConfigProblem]) -> None:
        self.problems: list[ConfigProblem] = list(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


# --------------------------------------------------------------------------- located YAML


@dataclass
class _Node:
    """A YAML value with the file and line it came from.

    ``value`` is ``dict[str, _Node]``, ``list[_Node]`` or a plain scalar.
    ``line`` is where the value starts, ``key_line`` the line of the mapping
    key that holds it (``None`` for list items and the document root).
    """

    value: Any
    file: str
    line: int | None
    key_line: int | None = None

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list)

    @property
    def at(self) -> int | None:
        """The line to report a problem with this value on."""
        if (self.is_map or self.is_list) and self.key_line is not None:
            return self.key_line
        return self.line


class _TooBig(Exception):
    pass


_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Reader:
    """Turns a composed YAML node tree into :class:`_Node` objects."""

    def __init__(self, file: str, problems: list[ConfigProblem]) -> None:
        self.file = file
        self.problems = problems
        self.count = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def problem(self, line: int | None, key: str, message: str) -> None:
        self.problems.append(ConfigProblem(self.file, line, key, message))

    def scalar(self, node: yaml.Node, path: str) -> Any:
        try:
            value = self.constructor.construct_object(node, deep=True)
            if isinstance(value, str):
                value.encode()  # "\ud800" is a YAML escape, but no text a screen can show
            return value
        except (yaml.YAMLError, ValueError, TypeError, OverflowError, KeyError) as exc:
            text = getattr(exc, "problem", None) or str(exc) or type(exc).__name__
            if isinstance(exc, UnicodeEncodeError):
                text = "not text (a \\uD800-\\uDFFF escape on its own)"
            self.problem(node.start_mark.line + 1, path, f"cannot read this value: {text}")
            return _BAD

    def convert(self, node: yaml.Node, path: str, stack: frozenset[int]) -> _Node:
        self.count += 1
        if self.count > _MAX_NODES:
            raise _TooBig
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and id(node) in stack:
            self.problem(line, path, "a YAML alias refers to itself (recursive anchor)")
            return _Node(_BAD, self.file, line)
        inner = stack | {id(node)}
        if isinstance(node, yaml.MappingNode):
            return _Node(self.mapping(node, path, inner), self.file, line)
        if isinstance(node, yaml.SequenceNode):
            items = [
                self.convert(item, f"{path}[{i}]", inner) for i, item in enumerate(node.value)
            ]
            return _Node(items, self.file, line)
        return _Node(self.scalar(node, path), self.file, line)

    def mapping(self, node: yaml.MappingNode, path: str, stack: frozenset[int]) -> dict:
        out: dict[str, _Node] = {}
        merged: list[_Node] = []
        for knode, vnode in node.value:
            kline = knode.start_mark.line + 1
            if knode.tag == _MERGE_TAG:
                sources = vnode.value if isinstance(vnode, yaml.SequenceNode) else [vnode]
                for src in sources:
                    if not isinstance(src, yaml.MappingNode):
                        self.problem(kline, path, "'<<' must merge a mapping (an &anchor)")
                        continue
                    merged.append(self.convert(src, path, stack))
                continue
            key = self.scalar(knode, path) if isinstance(knode, yaml.ScalarNode) else None
            if key is _BAD:
                continue
            if not isinstance(key, str):
                self.problem(kline, path, f"keys must be text, got {_show(key)}")
                continue
            kpath = _join(path, key)
            if key in out:
                first = out[key].key_line
                self.problem(kline, kpath, f"duplicate key '{key}' (first given on line {first})")
                continue
            child = self.convert(vnode, kpath, stack)
            child.key_line = kline
            out[key] = child
        for m in merged:  # explicit keys win over '<<' merges, earlier merges over later
            if isinstance(m.value, dict):
                for key, child in m.value.items():
                    out.setdefault(key, child)
        return out


def _parse(text: str, file: str, problems: list[ConfigProblem]) -> _Node | None:
    """YAML text → root :class:`_Node` (a mapping), or ``None`` after reporting why not."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        msg = exc.problem or "invalid YAML"
        if msg.startswith("but found another document"):
            problems.append(ConfigProblem(file, line, "", "YAML syntax error: a second document "
                                          "('---') in the file; one file holds one tournament"))
            return None
        if exc.context:
            cm = exc.context_mark
            where = f" on line {cm.line + 1}" if cm is not None and cm is not mark else ""
            msg = f"{msg} ({exc.context}{where})"
        problems.append(ConfigProblem(file, line, "", f"YAML syntax error: {msg}"))
        return None
    except yaml.YAMLError as exc:  # e.g. ReaderError: a control character
        line = None
        position = getattr(exc, "position", None)
        if isinstance(position, int):
            line = text.count("\n", 0, position) + 1
        reason = getattr(exc, "reason", None) or str(exc)
        problems.append(ConfigProblem(file, line, "", f"YAML error: {reason}"))
        return None
    except RecursionError:  # PyYAML composes nested [[[…]]] recursively (tests/drills)
        problems.append(ConfigProblem(file, None, "", "the document is nested too deeply"))
        return None
    if root is None:
        problems.append(ConfigProblem(file, None, "", "the file is empty (expected name:, "
                                      "structure:, start_stack: ... or preset:)"))
        return None
    reader = _Reader(file, problems)
    try:
        doc = reader.convert(root, "", frozenset())
    except _TooBig:
        problems.append(ConfigProblem(file, None, "", f"the document is too large (more than "
                                      f"{_MAX_NODES} values after expanding aliases)"))
        return None
    except RecursionError:
        problems.append(ConfigProblem(file, None, "", "the document is nested too deeply"))
        return None
    if not doc.is_map:
        problems.append(ConfigProblem(file, doc.line, "", "the top level must be a mapping of "
                                      f"keys (name:, structure:, ...), got {_show(doc.value)}"))
        return None
    return doc


def _merge(base: _Node, over: _Node) -> _Node:
    """``over`` wins; mappings merge key by key, everything else (lists too) replaces."""
    if not (base.is_map and over.is_map):
        return over
    out = dict(base.value)
    for key, child in over.value.items():
        out[key] = _merge(out[key], child) if key in out else child
    return _Node(out, over.file, over.line, over.key_line)


# --------------------------------------------------------------------------- presets


def _env_preset_dirs() -> list[Path]:
    """The folders of ``$FLOORMAN_PRESETS``."""
    parts = os.environ.get(PRESETS_ENV, "").split(os.pathsep)
    return [Path(part.strip()) for part in parts if part.strip()]


def preset_dirs(base_dir: str | os.PathLike | None = None) -> list[Path]:
    """Where presets are searched, first match wins.

    ``base_dir`` (the tournament file's folder) and its ``clubs/`` subfolder,
    then every folder in ``$FLOORMAN_PRESETS`` (``os.pathsep``-separated),
    then the shipped presets (:func:`controller.resources.folder`: ``config/clubs/``
    of the repository, installed as the package ``controller.data.clubs``).
    """
    dirs: list[Path] = []
    if base_dir is not None:
        dirs += [Path(base_dir), Path(base_dir) / "clubs"]
    dirs += _env_preset_dirs()
    dirs.append(resources.folder("presets"))
    seen: set[Path] = set()
    out: list[Path] = []
    for d in dirs:
        key = d.resolve()
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _preset_files(dirs: Iterable[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in dirs:
        try:
            entries = sorted(d.iterdir())
        except OSError:
            continue
        for f in entries:
            if f.suffix in (".yaml", ".yml") and f.is_file():
                found.setdefault(f.stem, f)
    return found


def list_presets(base_dir: str | os.PathLike | None = None) -> list[str]:
    """Names of all presets found in :func:`preset_dirs`."""
    return sorted(_preset_files(preset_dirs(base_dir)))


def _find_preset(name: str, dirs: list[Path]) -> Path | None:
    for d in dirs:
        for ext in (".yaml", ".yml"):
            f = d / f"{name}{ext}"
            if f.is_file():
                return f
    return None


def _display(path: Path) -> str:
    """A preset's file name as shown in problems: relative to the cwd when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def _read(path: Path, shown: str, problems: list[ConfigProblem]) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(ConfigProblem(shown, None, "", "file not found"))
    except IsADirectoryError:
        problems.append(ConfigProblem(shown, None, "", "is a folder, not a file"))
    except UnicodeDecodeError as exc:
        problems.append(ConfigProblem(shown, None, "", f"not UTF-8 text ({exc.reason} at byte "
                                      f"{exc.start})"))
    except OSError as exc:
        problems.append(ConfigProblem(shown, None, "", f"cannot read: {exc.strerror or exc}"))
    return None


def _resolve(doc: _Node, base_dir: Path | None, chain: list[tuple[Path, str]],
             problems: list[ConfigProblem]) -> tuple[_Node, bool]:
    """Merge ``doc`` over its preset chain. Returns the merged doc and whether all presets
    could be read (if not, keys a preset would have given are not reported as missing)."""
    pnode = doc.value.get("preset")
    if pnode is None or pnode.value is None:
        return doc, True
    name = pnode.value
    if not isinstance(name, str) or not _PRESET_NAME.match(name):
        problems.append(ConfigProblem(pnode.file, pnode.at, "preset", "must be a preset name "
                                      f"(a file name without .yaml), got {_show(name)}"))
        return doc, False
    dirs = preset_dirs(base_dir)
    path = _find_preset(name, dirs)
    if path is None:
        own = {p for p, _ in chain}  # the tournament file is no preset to suggest
        known = sorted(n for n, f in _preset_files(dirs).items() if f.resolve() not in own)
        problems.append(ConfigProblem(pnode.file, pnode.at, "preset", f"unknown preset "
                                      f"'{name}'{_did_you_mean(name, known)}; known presets: "
                                      f"{', '.join(known) if known else '(none found)'}"))
        return doc, False
    real = path.resolve()
    if any(real == p for p, _ in chain):
        names = [n for _, n in chain] + [name]
        problems.append(ConfigProblem(pnode.file, pnode.at, "preset",
                                      f"presets form a cycle: {' -> '.join(names)}"))
        return doc, False
    shown = _display(path)
    text = _read(path, shown, problems)
    if text is None:
        return doc, False
    pdoc = _parse(text, shown, problems)
    if pdoc is None:
        return doc, False
    base, ok = _resolve(pdoc, path.parent, chain + [(real, name)], problems)
    return _merge(base, doc), ok


# --------------------------------------------------------------------------- helpers


class _Bad:
    def __repr__(self) -> str:
        return "<bad>"


_BAD: Any = _Bad()


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no value)"
    if isinstance(value, str):
        if _NUMBER.match(value.strip()):
            return f"'{value}' (text; write numbers without quotes)"
        short = value if len(value) <= 40 else value[:37] + "..."
        return f"'{short}' (text)"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, datetime.date):
        return f"a date ({value})"
    if isinstance(value, bytes):
        return "binary data"
    return type(value).__name__


def _did_you_mean(word: Any, choices: Iterable[str]) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _whole_seconds(minutes: float) -> int | None:
    secs = minutes * 60
    if not math.isfinite(secs):
        return None
    if abs(secs - round(secs)) > 1e-9:
        return None
    return int(round(secs))


def _chips(text: str) -> int | None:
    """'1.000' / '1,000' / '1_000' / '1000' → 1000."""
    t = text.strip()
    if not _NUMBER.match(t):
        return None
    return int(re.sub(r"[.,_' ]", "", t))


# --------------------------------------------------------------------------- validation

_TOP_KEYS = (
    "name", "preset", "language", "table_seats", "players_per_table", "final_table_size",
    "start_stack", "ante_type", "level_minutes", "structure", "heads_up_halves_level",
    "time_call", "balancing", "hand_for_hand", "ghosts", "entries", "points", "chip_race",
    "broker",
)
_LEVEL_KEYS = ("minutes", "seconds", "blinds", "small_blind", "big_blind", "ante", "ante_type",
               "note")
_BREAK_KEYS = ("break", "note")
_BLIND_KEYS = ("blinds", "small_blind", "big_blind", "ante", "ante_type")

_Check = Callable[["_Validator", _Node, str], Any]


class _Validator:
    def __init__(self, main_file: str, problems: list[ConfigProblem]) -> None:
        self.main_file = main_file
        self.problems = problems

    # -- reporting

    def bad(self, node: _Node, path: str, message: str) -> Any:
        self.problems.append(ConfigProblem(node.file, node.at, path, message))
        return _BAD

    def bad_key(self, node: _Node, path: str, message: str) -> None:
        line = node.key_line if node.key_line is not None else node.line
        self.problems.append(ConfigProblem(node.file, line, path, message))

    def unknown_keys(self, m: _Node, path: str, allowed: Iterable[str]) -> None:
        allowed = list(allowed)
        for key, child in m.value.items():
            if key not in allowed:
                hint = _did_you_mean(key, allowed) or f"; allowed here: {', '.join(allowed)}"
                self.bad_key(child, _join(path, key), f"unknown key '{key}'{hint}")

    # -- scalar checks

    def integer(self, node: _Node, path: str, minimum: int | None = None,
            maximum: int | None = None, allow_none: bool = False) -> Any:
        v = node.value
        if v is _BAD:
            return _BAD
        if v is None and allow_none:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            extra = " or null" if allow_none else ""
            return self.bad(node, path, f"must be a whole number{extra}, got {_show(v)}")
        if minimum is not None and v < minimum:
            return self.bad(node, path, f"must be at least {minimum}, got {v}")
        if maximum is not None and v > maximum:
            return self.bad(node, path, f"must be at most {maximum}, got {v}")
        return v

    def boolean(self, node: _Node, path: str) -> Any:
        v = node.value
        if v is _BAD:
            return _BAD
        if not isinstance(v, bool):
            return self.bad(node, path, f"must be true or false, got {_show(v)}")
        return v

    def text(self, node: _Node, path: str, empty_ok: bool = True) -> Any:
        v = node.value
        if v is _BAD:
            return _BAD
        if not isinstance(v, str):
            return self.bad(node, path, f"must be text, got {_show(v)}")
        if not empty_ok and not v.strip():
            return self.bad(node, path, "must not be empty")
        return v

    def choice(self, node: _Node, path: str, allowed: Iterable[str], what: str) -> Any:
        allowed = list(allowed)
        v = node.value
        if v is _BAD:
            return _BAD
        if isinstance(v, str) and v in allowed:
            return v
        listing = ", ".join(allowed)
        if not isinstance(v, str):
            return self.bad(node, path, f"must be one of {listing}, got {_show(v)}")
        return self.bad(node, path, f"unknown {what} '{v}'{_did_you_mean(v, allowed)}; "
                        f"allowed: {listing}")

    def minutes(self, node: _Node, path: str, unlimited_ok: bool, unit: str = "minutes") -> Any:
        """A duration in ``unit`` (minutes or seconds) → seconds; ``None`` for unlimited."""
        v = node.value
        if v is _BAD:
            return _BAD
        if isinstance(v, str) and v.strip().lower() == "unlimited":
            if unlimited_ok:
                return None
            return self.bad(node, path, "a break needs a length in minutes, not 'unlimited'")
        if isinstance(v, bool) or not isinstance(v, int | float):
            alt = " or 'unlimited'" if unlimited_ok else ""
            return self.bad(node, path, f"must be a number of {unit}{alt}, got {_show(v)}")
        secs: int | None
        if unit == "seconds":
            if isinstance(v, float):
                return self.bad(node, path, f"must be whole seconds, got {v!r}")
            secs = v
        else:
            secs = _whole_seconds(v)
            if secs is None:
                return self.bad(node, path, f"must come to whole seconds, got {v!r} minutes")
        if secs <= 0:
            return self.bad(node, path, f"must be more than 0 {unit}, got {v!r}")
        return secs

    # -- sections

    def section(self, doc: dict[str, _Node], key: str, cls: type,
                checks: dict[str, _Check]) -> tuple[Any, dict[str, Any], _Node | None]:
        """Validate mapping ``key`` field by field → (instance or _BAD, raw values, node)."""
        node = doc.get(key)
        if node is None:
            return cls(), {}, None
        if not node.is_map:
            return self.bad(node, key, f"must be a mapping with keys {', '.join(checks)}, got "
                            f"{_show(node.value)}"), {}, node
        self.unknown_keys(node, key, checks)
        values: dict[str, Any] = {}
        ok = True
        for name, check in checks.items():
            if name in node.value:
                v = check(self, node.value[name], _join(key, name))
                if v is _BAD:
                    ok = False
                else:
                    values[name] = v
        known = {f.name for f in fields(cls)}
        inst = cls(**{k: v for k, v in values.items() if k in known}) if ok else _BAD
        return inst, values, node


def _int_check(minimum: int | None = None, maximum: int | None = None,
               allow_none: bool = False) -> _Check:
    return lambda v, node, path: v.integer(node, path, minimum, maximum, allow_none)


def _bool_check() -> _Check:
    return lambda v, node, path: v.boolean(node, path)


def _choice_check(allowed: tuple[str, ...], what: str) -> _Check:
    return lambda v, node, path: v.choice(node, path, allowed, what)


def _break_order(v: _Validator, node: _Node, path: str) -> Any:
    if isinstance(node.value, str):
        return v.choice(node, path, ("highest", "lowest"), "break order")
    if node.is_list:
        if not node.value:
            return v.bad(node, path, "the list of table numbers must not be empty")
        out: list[int] = []
        ok = True
        for i, item in enumerate(node.value):
            n = v.integer(item, f"{path}[{i}]", minimum=1)
            if n is _BAD:
                ok = False
            elif n in out:
                v.bad(item, f"{path}[{i}]", f"table {n} is listed twice")
                ok = False
            else:
                out.append(n)
        return tuple(out) if ok else _BAD
    return v.bad(node, path, "must be highest, lowest or a list of table numbers, got "
                 f"{_show(node.value)}")


_TIME_CALL: dict[str, _Check] = {
    "seconds": _int_check(1),
    "countdown": _int_check(0),
    "red_seconds": _int_check(0),
}
_BALANCING: dict[str, _Check] = {
    "tolerance": _int_check(1),
    "break_order": _break_order,
}
_HAND_FOR_HAND: dict[str, _Check] = {
    "auto": _bool_check(),
    "clock": _choice_check(("runs", "stops", "deduct"), "hand-for-hand clock policy"),
    "deduct_seconds": _int_check(1),
    "cross_table_busts": _choice_check(("share", "stack"), "cross-table bust rule"),
}
_GHOSTS: dict[str, _Check] = {
    "enabled": _bool_check(),
    "remove_after_levels": _int_check(1),
    "remove_at_first_break": _bool_check(),
}
_ENTRIES: dict[str, _Check] = {
    "rebuys": _int_check(0),
    "rebuy_until_level": _int_check(0),
    "addon_after_level": _int_check(1, allow_none=True),
    "auto_addon_multiplier": _int_check(0),
    "reentries": _int_check(0),
    "reentry_until_level": _int_check(0),
    "late_registration_levels": _int_check(0),
}
_POINTS: dict[str, _Check] = {
    "system": _choice_check(POINTS_SYSTEMS, "points system"),
    "knockout": _bool_check(),
    "knockout_drawn_names": _int_check(0),
    "knockout_drawn_bonus": _int_check(0),
    "bounty": _choice_check(("none", "bounty", "mystery"), "bounty mode"),
    "mystery_names": _int_check(1),
    "places": _int_check(1, allow_none=True),
}


def _prefix(v: _Validator, node: _Node, path: str) -> Any:
    t = v.text(node, path, empty_ok=False)
    if t is _BAD or valid_prefix(t):
        return t
    return v.bad(node, path, "must be topic levels of letters, digits, _ . - joined by / "
                 f"(no wildcards), got {_show(t)}")


_BROKER: dict[str, _Check] = {
    "host": lambda v, node, path: v.text(node, path, empty_ok=False),
    "port": _int_check(1, 65535),
    "prefix": _prefix,
    "username": lambda v, node, path: v.text(node, path, empty_ok=False),
    "password": lambda v, node, path: v.text(node, path),
    "tls_ca": lambda v, node, path: v.text(node, path, empty_ok=False),
}
_CHIP_RACE: dict[str, _Check] = {
    "start": _choice_check(("seat_1", "left_of_dealer"), "chip-race start"),
    "rounding": _choice_check(("up", "half_up"), "chip-race rounding"),
    "one_chip_per_player": _bool_check(),
}


def _structure(v: _Validator, node: _Node, default_seconds: int | None,
               default_ante_type: str) -> Any:
    """``structure`` → a list of levels, or _BAD after reporting every problem in it."""
    if not node.is_list:
        return v.bad(node, "structure", "must be a list of levels and breaks, got "
                     f"{_show(node.value)}")
    items: list[_Node] = node.value
    if not items:
        return v.bad(node, "structure", "is empty: give at least one level")
    parsed: list[Any] = []
    for i, item in enumerate(items):
        path = f"structure[{i}]"
        if not item.is_map:
            parsed.append(v.bad(item, path, "must be a level like {minutes: 18, blinds: "
                                f"50/100}} or a break like {{break: 10}}, got {_show(item.value)}"))
        elif "break" in item.value:
            parsed.append(_break(v, item, path))
        else:
            parsed.append(_level(v, item, path, default_seconds, default_ante_type))
    ok = all(lvl is not _BAD for lvl in parsed)
    # structure-wide checks, on whatever could be read
    has_level = any(it.is_map and "break" not in it.value for it in items)
    if not has_level:
        v.bad(node, "structure", "has no playing level, only breaks")
        ok = False
    last = len(items) - 1
    for i, lvl in enumerate(parsed):
        if lvl is not _BAD and lvl.seconds is None and i != last:
            key = "minutes" if "minutes" in items[i].value else "seconds"
            v.bad(items[i].value[key], f"structure[{i}].{key}", "only the last level can be "
                  f"unlimited (003 7); {last - i} more entries follow it")
            ok = False
    if has_level and parsed[last] is not _BAD and parsed[last].is_break:
        v.bad(items[last], f"structure[{last}]", "the structure ends with a break: the clock "
              "would stay in it for good; end with a level")
        ok = False
    return parsed if ok else _BAD


def _note(v: _Validator, m: dict[str, _Node], path: str) -> Any:
    if "note" not in m:
        return ""
    return v.text(m["note"], _join(path, "note"))


def _break(v: _Validator, item: _Node, path: str) -> Any:
    m = item.value
    ok = True
    for key, child in m.items():
        if key in _BLIND_KEYS:
            v.bad_key(child, _join(path, key), f"a break has no blinds or ante; remove '{key}' "
                      "or make this a level")
            ok = False
        elif key in ("minutes", "seconds"):
            v.bad_key(child, _join(path, key), "a break gives its length as 'break: <minutes>'")
            ok = False
        elif key not in _BREAK_KEYS:
            hint = _did_you_mean(key, _BREAK_KEYS) or f"; allowed here: {', '.join(_BREAK_KEYS)}"
            v.bad_key(child, _join(path, key), f"unknown key '{key}'{hint}")
            ok = False
    secs = v.minutes(m["break"], _join(path, "break"), unlimited_ok=False)
    note = _note(v, m, path)
    if not ok or secs is _BAD or note is _BAD:
        return _BAD
    return Level(kind="break", seconds=secs, note=note)


def _level(v: _Validator, item: _Node, path: str, default_seconds: int | None,
           default_ante_type: str) -> Any:
    m = item.value
    v.unknown_keys(item, path, _LEVEL_KEYS + ("break",))
    ok = not any(k not in _LEVEL_KEYS for k in m)
    if any(_did_you_mean(k, ("break",)) for k in m if k not in _LEVEL_KEYS):
        return _BAD  # a misspelt break ("brake: 10"): the unknown key says it all

    # duration
    secs: Any
    if "minutes" in m and "seconds" in m:
        v.bad_key(m["seconds"], _join(path, "seconds"), "give either minutes or seconds, not both")
        secs = _BAD
    elif "minutes" in m:
        secs = v.minutes(m["minutes"], _join(path, "minutes"), unlimited_ok=True)
    elif "seconds" in m:
        secs = v.minutes(m["seconds"], _join(path, "seconds"), unlimited_ok=True, unit="seconds")
    elif default_seconds is not None:
        secs = default_seconds
    else:
        secs = v.bad(item, path, "missing 'minutes' (or 'seconds'), and no level_minutes "
                     "default is set")

    # blinds
    sb: Any = _BAD
    bb: Any = _BAD
    ante: Any = 0
    ante_in_blinds = False
    if "blinds" in m:
        bnode = m["blinds"]
        bpath = _join(path, "blinds")
        if "small_blind" in m or "big_blind" in m:
            v.bad_key(bnode, bpath, "give either blinds: SB/BB or small_blind/big_blind, not both")
        else:
            parts = bnode.value.split("/") if isinstance(bnode.value, str) else []
            nums = [_chips(p) for p in parts]
            if len(parts) not in (2, 3) or any(n is None for n in nums):
                v.bad(bnode, bpath, "must look like SB/BB or SB/BB/ante, e.g. 50/100 or "
                      f"1000/2000/200, got {_show(bnode.value)}")
            else:
                sb, bb = nums[0], nums[1]
                if len(nums) == 3:
                    ante_in_blinds = True
                    if "ante" in m:
                        v.bad_key(m["ante"], _join(path, "ante"), "the ante is already given in "
                                  "blinds (SB/BB/ante)")
                        ante = _BAD
                    else:
                        ante = nums[2]
                if sb < 1:
                    sb = v.bad(bnode, bpath, f"the small blind must be at least 1, got {sb}")
                elif bb < sb:
                    bb = v.bad(bnode, bpath, f"the big blind must be at least the small blind "
                               f"({sb}), got {bb}")
    else:
        for key in ("small_blind", "big_blind"):
            if key not in m:
                v.bad(item, _join(path, key), "missing (or give blinds: SB/BB)")
        if "small_blind" in m:
            sb = v.integer(m["small_blind"], _join(path, "small_blind"), minimum=1)
        if "big_blind" in m:
            bb_node = m["big_blind"]
            bb = v.integer(bb_node, _join(path, "big_blind"), minimum=1)
            if sb is not _BAD and bb is not _BAD and bb < sb:
                bb = v.bad(bb_node, _join(path, "big_blind"),
                           f"must be at least small_blind ({sb}), got {bb}")
    if "ante" in m and not ante_in_blinds:
        ante = v.integer(m["ante"], _join(path, "ante"), minimum=0)
    ante_type: Any = default_ante_type
    if "ante_type" in m:
        ante_type = v.choice(m["ante_type"], _join(path, "ante_type"), ANTE_TYPES, "ante type")
    note = _note(v, m, path)
    values = (secs, sb, bb, ante, ante_type, note)
    if not ok or any(x is _BAD for x in values):
        return _BAD
    return Level(kind="level", seconds=secs, small_blind=sb, big_blind=bb, ante=ante,
                 ante_type=ante_type, note=note)


def _build(doc: _Node, v: _Validator, preset_ok: bool,
           partial: bool = False) -> TournamentSettings | None:
    """The settings of a merged document, or None after reporting its problems. ``partial``
    (a preset on its own): keys a tournament file must give are not reported as missing,
    and the result is None when one is."""
    m: dict[str, _Node] = doc.value
    v.unknown_keys(doc, "", _TOP_KEYS)
    bad = False

    def need(key: str) -> _Node | None:
        if key in m:
            return m[key]
        if preset_ok and not partial:
            who = "the tournament file or its preset" if "preset" in m else "the tournament file"
            v.problems.append(ConfigProblem(v.main_file, None, key, f"missing: {who} must set "
                                            f"{key}"))
        return None

    def val(key: str, check: Callable[[_Node, str], Any], default: Any) -> Any:
        nonlocal bad
        if key not in m:
            return default
        out = check(m[key], key)
        if out is _BAD:
            bad = True
        return out

    name_node = need("name")
    name = v.text(name_node, "name", empty_ok=False) if name_node else _BAD
    preset = m["preset"].value if "preset" in m and isinstance(m["preset"].value, str) else None
    language = val("language", lambda n, p: v.choice(n, p, LANGUAGES, "language"), "en")
    table_seats = val("table_seats", lambda n, p: v.integer(n, p, 2, MAX_TABLE_SEATS), 10)
    ppt = val("players_per_table", lambda n, p: v.integer(n, p, 2), 9)
    stack_node = need("start_stack")
    start_stack = v.integer(stack_node, "start_stack", minimum=1) if stack_node else _BAD
    heads_up = val("heads_up_halves_level", v.boolean, False)
    ante_type = val("ante_type", lambda n, p: v.choice(n, p, ANTE_TYPES, "ante type"),
                    "standard")
    level_secs = val("level_minutes", lambda n, p: v.minutes(n, p, unlimited_ok=False), None)

    # structure
    structure: Any = _BAD
    snode = need("structure")
    if snode is not None:
        structure = _structure(v, snode, None if level_secs is _BAD else level_secs,
                               "standard" if ante_type is _BAD else ante_type)
    n_levels: int | None = None
    if structure is not _BAD:
        n_levels = sum(1 for lvl in structure if not lvl.is_break)
    if structure is not _BAD and start_stack is not _BAD:
        first_bb = next(lvl.big_blind for lvl in structure if not lvl.is_break)
        if start_stack < first_bb and stack_node is not None:
            start_stack = v.bad(stack_node, "start_stack", f"must be at least the first big "
                                f"blind ({first_bb}), got {start_stack}")

    # table sizes
    if ppt is not _BAD and table_seats is not _BAD and ppt > table_seats:
        ppt = v.bad(m["players_per_table"] if "players_per_table" in m else m["table_seats"],
                    "players_per_table" if "players_per_table" in m else "table_seats",
                    f"players_per_table ({ppt}) must be at most table_seats ({table_seats})")
    final: Any = 9
    if "final_table_size" in m:
        fnode = m["final_table_size"]
        fv = fnode.value
        if isinstance(fv, str) and re.sub(r"\s+", "", fv.lower()) == "mode+1":
            if ppt is _BAD or table_seats is _BAD:
                final = _BAD
            else:
                final = min(ppt + 1, MODE_PLUS_ONE_CAP, table_seats)
        elif isinstance(fv, int) and not isinstance(fv, bool):
            final = v.integer(fnode, "final_table_size", minimum=2)
            if final is not _BAD and table_seats is not _BAD and final > table_seats:
                final = v.bad(fnode, "final_table_size", f"must be at most table_seats "
                              f"({table_seats}), got {final}")
        else:
            final = v.bad(fnode, "final_table_size", "must be a number of players or 'mode+1' "
                          f"(002), got {_show(fv)}")
    elif table_seats is not _BAD:
        final = min(9, table_seats)  # the default: 000 4.3, never more than the seats

    # sections
    time_call, _, tc_node = v.section(m, "time_call", TimeCall, _TIME_CALL)
    if time_call is not _BAD and tc_node is not None:
        total = time_call.seconds + time_call.countdown
        if "red_seconds" not in tc_node.value:
            # the default (10) never marks more than the whole time call
            time_call = dataclasses.replace(time_call,
                                            red_seconds=min(time_call.red_seconds, total))
        elif time_call.red_seconds > total:
            time_call = v.bad(tc_node.value["red_seconds"], "time_call.red_seconds",
                              f"must be at most seconds + countdown ({total}), got "
                              f"{time_call.red_seconds}")
    balancing, _, _ = v.section(m, "balancing", Balancing, _BALANCING)
    h4h, _, _ = v.section(m, "hand_for_hand", HandForHand, _HAND_FOR_HAND)
    ghosts, _, _ = v.section(m, "ghosts", Ghosts, _GHOSTS)
    entries, _, e_node = v.section(m, "entries", Entries, _ENTRIES)
    if entries is not _BAD and e_node is not None:
        entries = _check_entries(v, entries, e_node, n_levels)
    points, _, _ = v.section(m, "points", Points, _POINTS)
    chip_race, _, _ = v.section(m, "chip_race", ChipRace, _CHIP_RACE)
    broker, _, _ = v.section(m, "broker", BrokerSettings, _BROKER)

    parts = (name, start_stack, structure, language, table_seats, ppt, final, heads_up,
             time_call, balancing, h4h, ghosts, entries, points, chip_race, broker)
    if bad or any(p is _BAD for p in parts) or v.problems:
        return None
    return TournamentSettings(
        name=name.strip(), structure=tuple(structure), start_stack=start_stack, preset=preset,
        language=language, table_seats=table_seats, players_per_table=ppt,
        final_table_size=final, heads_up_halves_level=heads_up, time_call=time_call,
        balancing=balancing, hand_for_hand=h4h, ghosts=ghosts, entries=entries, points=points,
        chip_race=chip_race, broker=broker,
    )


def _check_entries(v: _Validator, e: Entries, node: _Node, n_levels: int | None) -> Any:
    m = node.value
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        v.bad(m[key] if key in m else node, f"entries.{key}", message)
        ok = False

    if e.rebuys > 0 and e.rebuy_until_level < 1:
        bad("rebuy_until_level", "must be at least 1 when rebuys are allowed")
    if e.reentries > 0 and e.reentry_until_level < 1:
        bad("reentry_until_level", "must be at least 1 when re-entries are allowed")
    if e.auto_addon_multiplier > 0 and e.addon_after_level is None:
        bad("auto_addon_multiplier", "needs addon_after_level (when the add-on phase is)")
    if n_levels is not None:
        for key in ("rebuy_until_level", "reentry_until_level", "late_registration_levels",
                    "addon_after_level"):
            value = getattr(e, key)
            if key in m and value is not None and value > n_levels:
                bad(key, f"the structure has only {n_levels} levels, got {value}")
    return e if ok else _BAD


# --------------------------------------------------------------------------- public API


def _sort(problems: list[ConfigProblem], main_file: str) -> list[ConfigProblem]:
    order = {p.file: i for i, p in enumerate(problems)}
    return sorted(problems, key=lambda p: (p.file != main_file, order[p.file],
                                           p.line if p.line is not None else 0))


def _load(text: str, filename: str, base_dir: Path | None,
          own_path: Path | None) -> TournamentSettings:
    problems: list[ConfigProblem] = []
    doc = _parse(text, filename, problems)
    if doc is None:
        raise ConfigError(problems)
    chain = [(own_path.resolve(), filename)] if own_path is not None else []
    merged, preset_ok = _resolve(doc, base_dir, chain, problems)
    v = _Validator(filename, problems)
    try:
        settings = _build(merged, v, preset_ok)
    except RecursionError:  # pragma: no cover - only with absurd nesting
        problems.append(ConfigProblem(filename, None, "", "the document is nested too deeply"))
        settings = None
    if problems or settings is None:
        raise ConfigError(_sort(problems, filename))
    return settings


def load_tournament_text(text: str, filename: str = "<string>",
                         base_dir: Path | None = None) -> TournamentSettings:
    """Parse and validate tournament YAML ``text``; ``base_dir`` is searched for presets first.

    Raises :class:`ConfigError` listing every problem.
    """
    return _load(text, filename, Path(base_dir) if base_dir is not None else None, None)


def load_tournament(path: str | os.PathLike) -> TournamentSettings:
    """Read, merge with its presets and validate a tournament file.

    Raises :class:`ConfigError` (also for a missing or unreadable file).
    """
    p = Path(path)
    shown = str(path)
    problems: list[ConfigProblem] = []
    text = _read(p, shown, problems)
    if text is None:
        raise ConfigError(problems)
    return _load(text, shown, p.parent, p)


#: What a tournament file must give, itself or through its preset.
REQUIRED_KEYS = ("name", "start_stack", "structure")


@dataclass(frozen=True)
class PresetSummary:
    """A club preset that passed :func:`load_preset`."""

    name: str
    #: the preset it names (``preset:``), if any
    base: str | None
    #: playing levels of its structure (its own or its base's), None without one
    levels: int | None
    #: what a tournament file using it must still set (of :data:`REQUIRED_KEYS`)
    missing: tuple[str, ...]


def is_preset_file(path: str | os.PathLike) -> bool:
    """Whether ``floorman check`` reads ``path`` as a club preset rather than a tournament
    file: it lies in a folder named ``clubs`` (the shipped presets, a tournament folder's
    ``clubs/``) or in a folder of ``$FLOORMAN_PRESETS``. Elsewhere ``--preset`` says so."""
    p = Path(path)
    try:
        parent = p.resolve().parent
    except OSError:
        parent = p.parent
    if p.parent.name == "clubs" or parent.name == "clubs":
        return True
    for d in _env_preset_dirs():
        try:
            if d.resolve() == parent:
                return True
        except OSError:
            continue
    return parent == resources.folder("presets").resolve()


def load_preset(path: str | os.PathLike) -> PresetSummary:
    """Read and validate a club preset on its own: every key it gives (and the presets it
    names give) is checked as in a tournament file, but ``name``, ``start_stack`` and
    ``structure`` may be left to the tournament file.

    Raises :class:`ConfigError` listing every problem.
    """
    p = Path(path)
    shown = str(path)
    problems: list[ConfigProblem] = []
    text = _read(p, shown, problems)
    doc = _parse(text, shown, problems) if text is not None else None
    if doc is None:
        raise ConfigError(problems)
    merged, preset_ok = _resolve(doc, p.parent, [(p.resolve(), shown)], problems)
    v = _Validator(shown, problems)
    try:
        _build(merged, v, preset_ok, partial=True)
    except RecursionError:  # pragma: no cover - only with absurd nesting
        problems.append(ConfigProblem(shown, None, "", "the document is nested too deeply"))
    if problems:
        raise ConfigError(_sort(problems, shown))
    m = merged.value
    levels = None
    if "structure" in m:
        levels = sum(1 for it in m["structure"].value if it.is_map and "break" not in it.value)
    base = doc.value.get("preset")
    return PresetSummary(
        name=p.stem, base=base.value if base is not None else None, levels=levels,
        missing=tuple(k for k in REQUIRED_KEYS if k not in m))


def main_check(path: str, as_preset: bool | None = None) -> int:
    """``floorman check FILE``: print OK with a summary (0) or every problem (1).

    ``as_preset``: True reads the file as a club preset, False as a tournament file, None
    decides by where it lies (:func:`is_preset_file`).
    """
    if as_preset is None:
        as_preset = is_preset_file(path)
    try:
        if as_preset:
            ps = load_preset(path)
        else:
            s = load_tournament(path)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem)
        return 1
    if as_preset:
        parts = [f"preset {ps.name}"]
        if ps.base:
            parts[0] += f" (based on {ps.base})"
        if ps.levels is not None:
            parts.append(f"{ps.levels} levels")
        need = ", ".join(ps.missing) or "nothing more"
        print(f"{path}: OK — {', '.join(parts)}; a tournament file using it must set {need}")
        return 0
    n = sum(1 for lvl in s.structure if not lvl.is_break)
    print(f"{path}: OK — {s.name}, {n} levels, preset {s.preset or 'none'}")
    return 0


# The loader's parts other file formats build on (kiosk/config.py checks the kiosk file with
# them): public names, so that other packages import nothing private from here.
BAD = _BAD  #: a value that failed its check (already reported)
BROKER_CHECKS = _BROKER  #: the checks of a ``broker:`` section, by key
Node = _Node
Validator = _Validator
key_path = _join
parse_yaml = _parse
read_file = _read
show_value = _show

if __name__ == "__main__":  # python -m controller.config FILE...
    args = sys.argv[1:]
    if not args:
        print("usage: python -m controller.config TOURNAMENT.yaml...", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(max(main_check(a) for a in args))
