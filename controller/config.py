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
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import TypeAdapter, ValidationError

from controller import resources
from controller.engine.points import SYSTEMS
from controller.engine.settings import TournamentSettings

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
#: ``final_table_size: mode+1`` (002) is capped at this many players.
MODE_PLUS_ONE_CAP = 9
T = TypeVar("T")

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
        # one problem, one line: a value or key with a line break in it is shown escaped
        key, message = _one_line(self.key), _one_line(self.message)
        if key:
            return f"{where}: {key}: {message}"
        return f"{where}: {message}"


def _one_line(text: str) -> str:
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


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
    #: a scalar as written (money reads "10.000" apart from "10.0", issue 30)
    text: str | None = None

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
        return _Node(self.scalar(node, path), self.file, line, text=str(node.value))

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


#: the largest tournament file or preset read (bytes): the longest shipped one is about
#: 5 KB; a bigger file is refused before it is parsed (a 50 MB file cost 4 GB and minutes)
MAX_FILE_BYTES = 1024 * 1024


def _read(path: Path, shown: str, problems: list[ConfigProblem]) -> str | None:
    try:
        with path.open("rb") as f:
            # read one byte more than allowed, never the whole of a huge file (or of
            # something endless such as /dev/zero)
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            problems.append(ConfigProblem(shown, None, "", f"is larger than {MAX_FILE_BYTES} "
                                          "bytes (1 MiB); a tournament file is a few KB"))
            return None
        return data.decode("utf-8")
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


#: a value that could not be read (already reported): no further problem is reported on it
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
        return f"'{_one_line(short)}' (text)"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
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


def _chips(text: str) -> int | None:
    """'1.000' / '1,000' / '1_000' / '1000' → 1000."""
    t = text.strip()
    if not _NUMBER.match(t):
        return None
    return int(re.sub(r"[.,_' ]", "", t))


# --------------------------------------------------------------------------- checking
#
# Two steps. ``_Shape`` turns the located YAML into plain data of the settings' shape: the
# file's conveniences (a level's minutes, ``blinds: 50/100``, ``level_minutes``, a break's
# ``break: 10``, ``final_table_size: mode+1``) become the settings' fields, and every value
# remembers the node (file, line) and key path it was written as. Then pydantic validates
# the data against the settings' dataclasses (types, limits and the rules between keys are
# theirs, :mod:`controller.engine.settings`), and each of its errors becomes a problem on the
# node its ``loc`` came from.

#: keys of a tournament file that are no settings field: defaults for the structure's entries
_FILE_KEYS = ("ante_type", "level_minutes")
_LEVEL_KEYS = ("minutes", "seconds", "blinds", "small_blind", "big_blind", "ante", "ante_type",
               "note")
_BREAK_KEYS = ("break", "note")
_BLIND_KEYS = ("blinds", "small_blind", "big_blind", "ante", "ante_type")
#: what a key must be, where the type's own word ("a whole number", "a list") says too little
_EXPECTED = {
    "final_table_size": "a number of players or 'mode+1' (002)",
    "structure": "a list of levels and breaks",
    "structure[]": "a level like {minutes: 18, blinds: 50/100} or a break like {break: 10}",
    "balancing.break_order": "highest, lowest or a list of table numbers",
}
_TYPES = {"int_type": "a whole number", "bool_type": "true or false", "string_type": "text",
          "float_type": "a number", "tuple_type": "a list", "list_type": "a list",
          "dict_type": "a mapping", "finite_number": "a finite number"}
_LIMITS = {"greater_than_equal": "at least", "less_than_equal": "at most",
           "greater_than": "more than", "less_than": "less than"}

Loc = tuple[Any, ...]


class _Shape:
    """Located YAML → plain data for pydantic, and ``where``: loc → (node, key path)."""

    def __init__(self, problems: list[ConfigProblem]) -> None:
        self.problems = problems
        self.where: dict[Loc, tuple[_Node, str]] = {}

    def bad(self, node: _Node, path: str, message: str, on_key: bool = False) -> Any:
        line = node.key_line if on_key and node.key_line is not None else node.at
        self.problems.append(ConfigProblem(node.file, line, path, message))
        return _BAD

    def plain(self, node: _Node, loc: Loc, path: str) -> Any:
        self.where[loc] = (node, path)
        if node.is_map:
            return {k: self.plain(c, (*loc, k), _join(path, k)) for k, c in node.value.items()}
        if node.is_list:
            return [self.plain(c, (*loc, i), f"{path}[{i}]") for i, c in enumerate(node.value)]
        return node.value

    def tournament(self, doc: _Node) -> dict[str, Any]:
        m: dict[str, _Node] = doc.value
        data = self.plain(doc, (), "")
        for key in _FILE_KEYS:
            data.pop(key, None)
        if not isinstance(data.get("preset"), str | None):
            data["preset"] = _BAD  # reported with the presets
        level_secs = None
        if "level_minutes" in m:
            level_secs = self.minutes(m["level_minutes"], "level_minutes", unlimited_ok=False)
        if "structure" in m and m["structure"].is_list:
            data["structure"] = [self.entry(item, i, level_secs, m.get("ante_type"))
                                 for i, item in enumerate(m["structure"].value)]
        final = data.get("final_table_size")
        if isinstance(final, str) and re.sub(r"\s+", "", final.lower()) == "mode+1":
            del data["final_table_size"]  # resolved once the table sizes are known
        if "money" in m and m["money"].is_map:
            data["money"] = _money(self, m["money"], data["money"])
        _as_written(m, data)
        return data

    def minutes(self, node: _Node, path: str, unlimited_ok: bool) -> Any:
        """A duration in minutes → seconds; ``None`` for unlimited."""
        v = node.value
        if v is _BAD:
            return _BAD
        if isinstance(v, str) and v.strip().lower() == "unlimited":
            return None if unlimited_ok else self.bad(node, path, "a break needs a length in "
                                                      "minutes, not 'unlimited'")
        if isinstance(v, bool) or not isinstance(v, int | float):
            alt = " or 'unlimited'" if unlimited_ok else ""
            return self.bad(node, path, f"must be a number of minutes{alt}, got {_show(v)}")
        secs = v * 60
        if not math.isfinite(secs) or abs(secs - round(secs)) > 1e-9:
            return self.bad(node, path, f"must come to whole seconds, got {v!r} minutes")
        if secs <= 0:
            return self.bad(node, path, f"must be more than 0 minutes, got {v!r}")
        return int(round(secs))

    def unknown(self, m: dict[str, _Node], path: str, allowed: tuple[str, ...]) -> bool:
        """Report the keys not in ``allowed``; whether there were any."""
        for key, child in m.items():
            if key not in allowed:
                hint = _did_you_mean(key, allowed) or f"; allowed here: {', '.join(allowed)}"
                self.bad(child, _join(path, key), f"unknown key '{key}'{hint}", on_key=True)
        return any(key not in allowed for key in m)

    def entry(self, item: _Node, i: int, level_secs: Any, ante_type: _Node | None) -> Any:
        """One entry of ``structure`` → the fields of a :class:`Level`."""
        loc, path = ("structure", i), f"structure[{i}]"
        self.where[loc] = (item, path)
        if not item.is_map:
            return item.value
        m: dict[str, _Node] = item.value
        out: dict[str, Any] = {}

        def take(key: str, as_key: str | None = None) -> None:  # a key written as it is
            out[as_key or key] = self.plain(m[key], (*loc, as_key or key), _join(path, key))

        if "break" in m:
            for key, child in m.items():
                if key in _BLIND_KEYS:
                    self.bad(child, _join(path, key), "a break has no blinds or ante; remove "
                             f"'{key}' or make this a level", on_key=True)
                elif key in ("minutes", "seconds"):
                    self.bad(child, _join(path, key), "a break gives its length as "
                             "'break: <minutes>'", on_key=True)
            self.unknown({k: c for k, c in m.items() if k not in _LEVEL_KEYS}, path, _BREAK_KEYS)
            take("break", "seconds")
            out.update(kind="break", seconds=self.minutes(m["break"], _join(path, "break"),
                                                          unlimited_ok=False))
            if "note" in m:
                take("note")
            return out
        if self.unknown(m, path, _LEVEL_KEYS + ("break",)) and any(
                _did_you_mean(k, ("break",)) for k in m if k not in _LEVEL_KEYS):
            return _BAD  # a misspelt break ("brake: 10"): the unknown key says it all
        out["kind"] = "level"
        if "minutes" in m and "seconds" in m:
            out["seconds"] = self.bad(m["seconds"], _join(path, "seconds"), "give either "
                                      "minutes or seconds, not both", on_key=True)
        elif "minutes" in m:
            take("minutes", "seconds")
            out["seconds"] = self.minutes(m["minutes"], _join(path, "minutes"), unlimited_ok=True)
        elif "seconds" in m:
            take("seconds")
            if isinstance(out["seconds"], str) and out["seconds"].strip().lower() == "unlimited":
                out["seconds"] = None
        elif level_secs is not None:
            out["seconds"] = level_secs
        else:
            out["seconds"] = self.bad(item, path, "missing 'minutes' (or 'seconds'), and no "
                                      "level_minutes default is set")
        if "blinds" in m:
            self.blinds(m, loc, path, out)
        else:
            for key in ("small_blind", "big_blind"):
                if key not in m:
                    self.bad(item, _join(path, key), "missing (or give blinds: SB/BB)")
        for key in ("small_blind", "big_blind", "ante", "ante_type", "note"):
            if key in m and key not in out:
                take(key)
        if "ante_type" not in out and ante_type is not None:  # the top level's default
            out["ante_type"] = ante_type.value
            self.where[(*loc, "ante_type")] = (ante_type, "ante_type")
        return out

    def blinds(self, m: dict[str, _Node], loc: Loc, path: str, out: dict[str, Any]) -> None:
        """``blinds: SB/BB`` or ``SB/BB/ante`` (thousands may be grouped: ``1.000/2.000``)."""
        node, bpath = m["blinds"], _join(path, "blinds")
        if "small_blind" in m or "big_blind" in m:
            out["small_blind"] = out["big_blind"] = self.bad(
                node, bpath, "give either blinds: SB/BB or small_blind/big_blind, not both",
                on_key=True)
            return
        parts = node.value.split("/") if isinstance(node.value, str) else []
        nums = [_chips(p) for p in parts]
        if len(parts) not in (2, 3) or any(n is None for n in nums):
            out["small_blind"] = out["big_blind"] = self.bad(
                node, bpath, "must look like SB/BB or SB/BB/ante, e.g. 50/100 or 1000/2000/200, "
                f"got {_show(node.value)}")
            return
        for key, n in zip(("small_blind", "big_blind", "ante"), nums, strict=False):
            out[key] = n
            self.where[(*loc, key)] = (node, bpath)
        if len(nums) == 3 and "ante" in m:
            out["ante"] = self.bad(m["ante"], _join(path, "ante"), "the ante is already given "
                                   "in blinds (SB/BB/ante)", on_key=True)


# --------------------------------------------------------------------------- times of day

#: the keys that hold a moment or a time of day, read as written: YAML 1.1 (PyYAML)
#: reads an unquoted ``19:30`` as a number in base 60 (1170) and an unquoted
#: ``2026-11-27T19:30:00+01:00`` as a timestamp, neither what was meant
TIME_KEYS: tuple[tuple[str, str], ...] = (("desk", "starts"),)


def _as_written(m: dict[str, _Node], data: dict[str, Any]) -> None:
    """Each of :data:`TIME_KEYS` that YAML read as a number or a timestamp → its text as
    the file writes it (the scalar's own characters, not worked back from the number)."""
    for section, key in TIME_KEYS:
        parent = m.get(section)
        node = parent.value.get(key) if parent is not None and parent.is_map else None
        target = data.get(section)
        if node is None or node.text is None or not isinstance(target, dict):
            continue
        if isinstance(node.value, int | float | datetime.date) \
                and not isinstance(node.value, bool):
            target[key] = node.text


# --------------------------------------------------------------------------- money (issue 30)
#
# The file writes money in the currency's units, ``buy_in: 100`` or ``100.50`` (or
# "100,50"), at most two decimals and without thousands separators; the settings keep
# whole cents. Percent shares likewise: ``[50, 30, 20]`` or ``12.5`` → hundredths of a
# percent. ``payouts: [50, 30, 20]`` is one table for that many places.

#: the money keys that are amounts (the settings keep them in cents)
MONEY_AMOUNTS = ("buy_in", "fee", "reentry", "rebuy", "rebuy_fee", "addon", "bounty",
                 "guarantee", "rounding", "satellite")
#: the money keys that may be a share of the price instead, ``fee: 10%``
MONEY_SHARES = ("fee", "rebuy_fee")
_AMOUNT = re.compile(r"(\d{1,8})(?:[.,](\d{1,2}))?\Z")


def _hundredths(shape: _Shape, node: _Node, path: str, what: str,
                like: str = "like 100 or 100.50") -> Any:
    """A number with at most two decimals → hundredths (100.50 → 10050), or a problem.

    A YAML float is read from its text: ``10.000`` is refused (a German "ten thousand"
    would otherwise be 10), not taken as 10."""
    v = node.value
    if v is _BAD:
        return _BAD
    text: str | None = None
    if isinstance(v, bool) or v is None:
        text = None
    elif isinstance(v, int):
        text = str(v)
    elif isinstance(v, float):
        text = (node.text or repr(v)).strip().replace("_", "")
    elif isinstance(v, str):
        text = v.strip()
    found = _AMOUNT.match(text) if text is not None else None
    if text is not None and text.startswith("-"):
        return shape.bad(node, path, f"must not be negative, got {text}")
    if found is None:
        if text is not None and re.fullmatch(r"\d+[.,]\d{3,}", text):
            return shape.bad(node, path, f"has more than two decimals: {text} (write "
                             f"thousands without a separator: 10000, cents after a point: "
                             f"100.50)")
        return shape.bad(node, path, f"must be {what} {like}, got {_show(v)}")
    return int(found.group(1)) * 100 + int((found.group(2) or "0").ljust(2, "0"))


def _money(shape: _Shape, node: _Node, data: dict[str, Any]) -> dict[str, Any]:
    """The money section's amounts → cents, its percent → hundredths of a percent."""
    m: dict[str, _Node] = node.value
    for key in MONEY_AMOUNTS:
        if key in MONEY_SHARES and key in m and isinstance(m[key].value, str) \
                and m[key].value.strip().endswith("%"):
            data[key] = m[key].value.strip().replace(" ", "").replace(",", ".")
        elif key in m and m[key].value is not None:
            data[key] = _hundredths(shape, m[key], _join("money", key), "an amount",
                                    *(("like 10, or a share of the price like 10%",)
                                      if key in MONEY_SHARES else ()))
            if key in ("buy_in", "rounding", "satellite") and data[key] == 0:
                data[key] = shape.bad(m[key], _join("money", key), "must be more than 0")
            if key == "addon" and isinstance(data[key], int) and data[key] > 0:
                # the settings keep the key (a log may have it) but never charge it
                data[key] = shape.bad(
                    m[key], _join("money", key), "the add-on is the automatic one (000 4.13: "
                    "every player who did not rebuy is credited it, nobody buys it), so it "
                    "is free: leave out money.addon or write 0")
    payouts = m.get("payouts")
    if payouts is None or not payouts.is_list:
        return data
    path = "money.payouts"
    rows = payouts.value
    if rows and not any(r.is_map for r in rows):  # [50, 30, 20]: one table
        data["payouts"] = [{"paid": len(rows), "percent": _shares(shape, rows, path)}]
        shape.where[("money", "payouts", 0)] = (payouts, path)
        shape.where[("money", "payouts", 0, "paid")] = (payouts, path)
        shape.where[("money", "payouts", 0, "percent")] = (payouts, path)
        for i, r in enumerate(rows):
            shape.where[("money", "payouts", 0, "percent", i)] = (r, f"{path}[{i}]")
        return data
    for i, row in enumerate(rows):
        if row.is_map and "percent" in row.value and row.value["percent"].is_list:
            data["payouts"][i]["percent"] = _shares(shape, row.value["percent"].value,
                                                    f"{path}[{i}].percent")
    return data


def _shares(shape: _Shape, rows: list[_Node], path: str) -> list[Any]:
    return [_hundredths(shape, r, f"{path}[{i}]", "a percent") for i, r in enumerate(rows)]


def _is_branch(loc: Loc, i: int, where: dict[Loc, Any]) -> bool:
    # pydantic names a union member in the loc ("literal['highest','lowest']", "tuple[...]")
    part = loc[i]
    tagged = "[" in part and part != "[key]" if isinstance(part, str) else False
    plain = part in ("int", "str") and i > 0  # Int | Text | a table (money.places)
    return (tagged or plain) and loc[:i + 1] not in where


def _mismatch(err: Any) -> bool:
    """The input is not of this type at all (another branch of a union may fit it)."""
    kind = err["type"]
    return kind.endswith("_type") or (kind == "literal_error" and not isinstance(err["input"],
                                                                                 str))


def _errors(exc: ValidationError, where: dict[Loc, Any]) -> list[tuple[Loc, Any]]:
    """pydantic's errors with union branches resolved: of a union's errors those of a branch
    the input fitted, or the first when it fitted none."""
    out: list[tuple[Loc, Any]] = []
    unions: dict[Loc, list[tuple[Loc, Any, bool]]] = {}
    for err in exc.errors():
        loc = tuple(err["loc"])
        tag = next((i for i in range(len(loc)) if _is_branch(loc, i, where)), None)
        if tag is None:
            out.append((loc, err))
        else:
            unions.setdefault(loc[:tag], []).append(
                (loc[:tag] + loc[tag + 1:], err, len(loc) == tag + 1 and _mismatch(err)))
    for errs in unions.values():
        fitted = [(loc, err) for loc, err, mismatch in errs if not mismatch]
        out += fitted or [errs[0][:2]]
    return out


def _keys(cls: Any, loc: Loc) -> list[str]:
    """The fields of the dataclass at ``loc`` below ``cls`` (none if it is no dataclass)."""
    for part in loc:
        cls = typing.get_type_hints(cls).get(part) if isinstance(part, str) else None
        cls = _dataclass_in(cls)
        if not dataclasses.is_dataclass(cls):
            return []
    return [f.name for f in dataclasses.fields(cls)]


def _dataclass_in(hint: Any) -> Any:
    """The dataclass in an optional or annotated hint (``Money | None``), else the hint."""
    if dataclasses.is_dataclass(hint):
        return hint
    for arg in typing.get_args(hint):
        found = _dataclass_in(arg)
        if dataclasses.is_dataclass(found):
            return found
    return hint


def _path(loc: Loc) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _message(cls: Any, loc: Loc, path: str, err: Any, extra_keys: tuple[str, ...]) -> str:
    kind, got, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    if kind == "setting":
        return str(err["msg"])
    if kind in ("unexpected_keyword_argument", "extra_forbidden") or (
            loc and loc[-1] == "[key]"):
        key = got if loc[-1] == "[key]" else loc[-1]
        allowed = (_keys(cls, loc[:-1]) + list(extra_keys if len(loc) == 1 else ())
                   if kind != "literal_error" else re.findall(r"'([^']*)'", ctx["expected"]))
        hint = _did_you_mean(key, allowed) or f"; allowed here: {', '.join(allowed)}"
        return f"unknown key '{key}'{hint}"
    expected = _EXPECTED.get(re.sub(r"\[\d+\]", "[]", path)) if _mismatch(err) else None
    if kind == "literal_error" and not expected:
        allowed = re.findall(r"'([^']*)'", ctx["expected"])
        if isinstance(got, str):
            what = str(loc[-1]).replace("_", " ") if loc and isinstance(loc[-1], str) else "value"
            return (f"unknown {what} '{got}'{_did_you_mean(got, allowed)}; allowed: "
                    + ", ".join(allowed))
        return f"must be one of {', '.join(allowed)}, got {_show(got)}"
    if kind in _LIMITS:
        limit = next(iter(ctx.values()))
        return f"must be {_LIMITS[kind]} {limit:g}, got {got!r}"
    if kind in ("string_too_short", "too_short"):
        return "must not be empty"
    if kind in ("string_too_long", "too_long"):
        limit = ctx.get("max_length")
        length = len(got) if isinstance(got, (str, list, tuple, dict)) else "more"
        return f"is {length} characters long; at most {limit}"
    if kind == "dataclass_type":
        expected = expected or f"a mapping with keys {', '.join(_keys(cls, loc))}"
    expected = expected or _TYPES.get(kind) or str(err["msg"]).removeprefix("Input should be ")
    return f"must be {expected}, got {_show(got)}"


def validate(cls: type[T], data: Any, shape: _Shape, main_file: str, *, context: Any = None,
             missing: str | None = "", extra_keys: tuple[str, ...] = ()) -> T | None:
    """``data`` (made by ``shape``) as ``cls``, or None after adding a problem for each of
    pydantic's errors on the node it came from. ``missing``: who must set a missing key
    (None: a missing key is no problem, e.g. a preset on its own)."""
    try:
        return TypeAdapter(cls).validate_python(data, context=context)
    except ValidationError as exc:
        for loc, err in _errors(exc, shape.where):
            if err.get("input") is _BAD or (err["type"] == "too_short" and err["input"]):
                continue  # reported when read; "too short" after its items failed
            if err["type"] == "missing":
                if missing is not None:
                    key = _path(loc)
                    shape.problems.append(ConfigProblem(main_file, None, key,
                                                        f"missing: {missing} must set {key}"))
                continue
            ctx = err.get("ctx") or {}
            at = (*(p for p in loc if p != "[key]"), *ctx.get("at", ()))
            if at not in shape.where and ctx.get("instead") in shape.where:
                at = ctx["instead"]
            node, path = shape.where.get(at, (None, _path(at)))
            up = at
            while node is None and up:  # a key not written: the line of the nearest one that is
                up = up[:-1]
                node = shape.where.get(up, (None, ""))[0]
            line = None if node is None else (
                node.key_line or node.line if err["type"] == "unexpected_keyword_argument"
                else node.at)
            message = _message(cls, loc, path, err, extra_keys)
            if path.endswith("blinds") and loc[-1] != "blinds":  # one of SB/BB/ante
                message = f"the {str(loc[-1]).replace('_', ' ')} {message}"
            found = ConfigProblem(node.file if node else main_file, line, path, message)
            if found not in shape.problems:  # one default for many levels: said once
                shape.problems.append(found)
        return None


def _check(doc: _Node, main_file: str, problems: list[ConfigProblem], preset_ok: bool,
           partial: bool = False) -> TournamentSettings | None:
    """The settings of a merged document, or None after reporting its problems. ``partial``
    (a preset on its own): keys a tournament file must give are not reported as missing."""
    shape = _Shape(problems)
    data = shape.tournament(doc)
    structure = data.get("structure")
    levels = (sum(1 for e in structure if isinstance(e, dict) and e.get("kind") == "level")
              if isinstance(structure, list) else None)
    who = "the tournament file or its preset" if "preset" in doc.value else "the tournament file"
    s = validate(TournamentSettings, data, shape, main_file, context={"levels": levels},
                 missing=who if preset_ok and not partial else None, extra_keys=_FILE_KEYS)
    if s is None or problems:
        return None
    # defaults that depend on other keys
    final = s.final_table_size if "final_table_size" in data else min(9, s.table_seats)
    if "final_table_size" in doc.value and "final_table_size" not in data:  # mode+1 (002)
        final = min(s.players_per_table + 1, MODE_PLUS_ONE_CAP, s.table_seats)
    tc = s.time_call
    if "red_seconds" not in data.get("time_call", {}):  # the default never exceeds the call
        tc = dataclasses.replace(tc, red_seconds=min(tc.red_seconds, tc.seconds + tc.countdown))
    structure = s.structure
    if s.mode.kind == "cannonball":  # 000 4.16: the durations grow, written into the levels
        from controller.engine.cannonball import structure as cannonball

        structure = cannonball(s.structure, s.mode)
    return dataclasses.replace(s, final_table_size=final, time_call=tc, structure=structure)



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
    try:
        settings = _check(merged, filename, problems, preset_ok)
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
    try:
        _check(merged, shown, problems, preset_ok, partial=True)
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
    print(f"{path}: OK — {s.name}, {n} levels, preset {s.preset or 'none'}{_money_line(s)}")
    return 0


def _money_line(s: TournamentSettings) -> str:
    """What ``floorman check`` says of the money (issue 30); nothing for points only."""
    from controller.engine.settings import cents_text

    m = s.money
    if m is None:
        return ""
    line = f", buy-in {cents_text(m.buy_in)} {m.currency}"
    if m.fee:
        line += f" (fee {m.fee if isinstance(m.fee, str) else cents_text(m.fee)})"
    if m.bounty:
        line += f", bounty {cents_text(m.bounty)}{' progressive' if m.progressive else ''}"
    if m.guarantee:
        line += f", {cents_text(m.guarantee)} guaranteed"
    if m.satellite is not None:
        line += f", satellite for {cents_text(m.satellite)} tickets"
    return line


# The loader's parts other file formats build on (kiosk/config.py checks the kiosk file with
# them): public names, so that other packages import nothing private from here.
BAD = _BAD  #: a value that could not be read (already reported)
Node = _Node
Shape = _Shape
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
