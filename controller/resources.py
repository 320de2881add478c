"""The files Floorman ships: club presets, sample tournaments, kiosk files, fonts, systemd
units and the Mosquitto drop-in.

They are package data, found with :mod:`importlib.resources`, so the same calls work
in a checkout (an editable install: the files are the repository's ``config/``,
``systemd/`` and ``kiosk/fonts/``) and in an installed wheel (the files are inside
the installed packages)::

    kind          package                        in the repository
    presets       controller.data.clubs          config/clubs/*.yaml
    tournaments   controller.data.tournaments    config/tournaments/*.yaml
    kiosk         controller.data.kiosk          config/kiosk/*.yaml
    systemd       controller.data.systemd        systemd/*.service, *.conf
    fonts         kiosk (folder fonts/)          kiosk/fonts/*.ttf, LICENSE

``pyproject.toml`` maps the ``controller.data.*`` packages onto those folders.

On the command line a shipped file can be named instead of given as a path
(:func:`resolve`): ``floorman check sample``, ``floorman kiosk table --table 3``.
``floorman files`` lists them all with their paths.
"""

from __future__ import annotations

import functools
import os
from importlib.resources import files as _files
from pathlib import Path

__all__ = [
    "KINDS",
    "SAMPLE",
    "find",
    "folder",
    "font",
    "listing",
    "names",
    "resolve",
    "sample_tournament",
    "shipped",
]

#: kind → (package, folder inside it, file suffixes)
_WHERE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "presets": ("controller.data.clubs", "", (".yaml", ".yml")),
    "tournaments": ("controller.data.tournaments", "", (".yaml", ".yml")),
    "kiosk": ("controller.data.kiosk", "", (".yaml", ".yml")),
    "systemd": ("controller.data.systemd", "", (".service", ".conf")),
    "fonts": ("kiosk", "fonts", (".ttf", "")),
}
#: the kinds of shipped files, in the order ``floorman files`` lists them
KINDS: tuple[str, ...] = tuple(_WHERE)
#: the name of the sample tournament (27 players, PSC Five Spades): the demo's evening
SAMPLE = "sample"


@functools.cache
def folder(kind: str) -> Path:
    """The folder that holds the shipped files of ``kind`` (one of :data:`KINDS`)."""
    try:
        package, sub, _ = _WHERE[kind]
    except KeyError:
        raise ValueError(f"no shipped files of kind {kind!r} (kinds: {', '.join(KINDS)})") \
            from None
    try:
        where = _files(package)
    except ModuleNotFoundError as exc:  # an editable install made before controller.data
        raise RuntimeError(f"cannot find Floorman's {kind} (no package {package}): the "
                           "installation is older than pyproject.toml; in a checkout run "
                           "scripts/setup (pip install -e .) again") from exc
    if sub:
        where = where / sub
    if not isinstance(where, Path):  # e.g. imported from a zip file
        raise RuntimeError(f"Floorman's shipped files are not plain files ({where!r}): "
                           "install Floorman with pip (a wheel or the source), not as a zip")
    return where


def shipped(kind: str) -> list[Path]:
    """The shipped files of ``kind``, sorted by name (no ``__init__.py``, no caches)."""
    suffixes = _WHERE[kind][2] if kind in _WHERE else ()
    out = []
    for f in folder(kind).iterdir():
        if f.name.startswith((".", "_")) or not f.is_file():
            continue
        if f.suffix in suffixes:
            out.append(f)
    return sorted(out, key=lambda f: (_name(kind, f), f.name))


def names(kind: str) -> list[str]:
    """The names of the shipped files of ``kind``: presets and tournaments without ``.yaml``."""
    return [_name(kind, f) for f in shipped(kind)]


def _name(kind: str, f: Path) -> str:
    return f.stem if kind in ("presets", "tournaments", "kiosk") else f.name


def find(kind: str, name: str) -> Path | None:
    """The shipped file of ``kind`` called ``name`` (``sample`` or ``sample.yaml``), or None."""
    for f in shipped(kind):
        if name in (f.name, _name(kind, f)):
            return f
    return None


def resolve(arg: str, kind: str) -> Path:
    """A command-line argument that names a file of ``kind``.

    An existing file, or anything with a folder in it, is that path. A bare name that is
    no file here (``sample``, ``sample.yaml``, ``table``) is the shipped file of that name.
    Otherwise the path as given, for the caller to report as not found.
    """
    p = Path(arg)
    if p.exists() or "/" in arg or (os.altsep or os.sep) in arg:
        return p
    found = find(kind, arg)
    return found if found is not None else p


def sample_tournament() -> Path:
    """The shipped sample tournament (``floorman demo`` plays it)."""
    found = find("tournaments", SAMPLE)
    if found is None:  # pragma: no cover - a broken installation
        raise FileNotFoundError(f"the sample tournament is not in {folder('tournaments')}")
    return found


def font(filename: str) -> Path:
    """A bundled font file (``DejaVuSans-Bold.ttf``)."""
    return folder("fonts") / filename


def listing(kinds: list[str] | None = None) -> list[tuple[str, str, Path]]:
    """``(kind, name, path)`` of every shipped file (of ``kinds``), as ``floorman files``
    prints them."""
    out = []
    for kind in kinds or KINDS:
        out += [(kind, _name(kind, f), f) for f in shipped(kind)]
    return out
