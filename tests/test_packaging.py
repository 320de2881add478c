"""What the wheel is made of, checked against the checkout in a second (the wheel itself:
tests/test_wheel.py): every code folder is a listed package, every shipped folder is
mapped, and controller/resources.py finds the shipped files where they are."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from controller import resources

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_code_folder_is_a_listed_package():
    """``packages`` in pyproject.toml is a list (package-dir maps the data folders, which
    automatic discovery cannot do): a new subpackage must be added there by hand."""
    found = set()
    for top in ("controller", "kiosk"):
        for init in (ROOT / top).rglob("*.py"):
            rel = init.parent.relative_to(ROOT)
            if "__pycache__" not in rel.parts:
                found.add(".".join(rel.parts))
    listed = set(SETUPTOOLS["packages"])
    missing = found - listed
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"


def test_the_shipped_folders_are_mapped_packages():
    mapped = SETUPTOOLS["package-dir"]
    assert mapped == {
        "controller.data.clubs": "config/clubs",
        "controller.data.tournaments": "config/tournaments",
        "controller.data.kiosk": "config/kiosk",
        "controller.data.systemd": "systemd",
    }
    for package, folder in mapped.items():
        assert package in SETUPTOOLS["packages"]
        assert package in SETUPTOOLS["package-data"]
        # without it setuptools' editable finder cannot import the folder (setuptools#4943)
        assert (ROOT / folder / "__init__.py").is_file(), folder


@pytest.mark.parametrize("kind, folder, pattern", [
    ("presets", "config/clubs", "*.yaml"),
    ("tournaments", "config/tournaments", "*.yaml"),
    ("kiosk", "config/kiosk", "*.yaml"),
    ("systemd", "systemd", "*[!y]"),  # every unit and drop-in, not __init__.py
    ("fonts", "kiosk/fonts", "*"),
])
def test_resources_finds_every_shipped_file(kind, folder, pattern):
    """In this checkout (an editable install) the shipped files are the repository's own."""
    want = sorted(p.name for p in (ROOT / folder).glob(pattern)
                  if p.is_file() and not p.name.startswith("_"))
    assert want
    assert sorted(p.name for p in resources.shipped(kind)) == want
    assert resources.folder(kind).resolve() == (ROOT / folder).resolve()


def test_package_data_patterns_cover_every_shipped_file():
    """What the wheel takes (package-data globs) is what resources.shipped() lists."""
    data = SETUPTOOLS["package-data"]
    for kind, package in (("presets", "controller.data.clubs"),
                          ("tournaments", "controller.data.tournaments"),
                          ("kiosk", "controller.data.kiosk"),
                          ("systemd", "controller.data.systemd"), ("fonts", "kiosk.fonts")):
        for f in resources.shipped(kind):
            assert any(f.match(pattern) for pattern in data[package]), (kind, f.name)


def test_names_resolve_to_shipped_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample = resources.resolve("sample", "tournaments")
    assert sample == resources.sample_tournament() == ROOT / "config/tournaments/sample.yaml"
    assert resources.resolve("sample.yaml", "tournaments") == sample
    assert resources.resolve("table", "kiosk").name == "table.yaml"
    # a file of that name here wins; a path is always a path
    (tmp_path / "sample").write_text("name: mine\n")
    assert resources.resolve("sample", "tournaments") == Path("sample")
    assert resources.resolve("./nothing", "tournaments") == Path("nothing")
    assert resources.resolve("nothing", "tournaments") == Path("nothing")
    with pytest.raises(ValueError):
        resources.folder("sounds")
