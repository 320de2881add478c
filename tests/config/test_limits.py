"""Sizes have limits with clear errors (issue 11.10: a 50 MB tournament file cost 4 GB and
3 minutes before it was refused). The file is refused before it is parsed, reading no
more than the limit: memory is measured (tracemalloc), never the clock."""

from __future__ import annotations

import tracemalloc

import pytest

from controller.config import (
    MAX_FILE_BYTES,
    ConfigError,
    load_tournament,
    load_tournament_text,
    main_check,
)
from controller.engine.settings import MAX_LEVELS, MAX_TITLE

BASE = "name: {name}\nstart_stack: 10000\nstructure:\n{levels}"


def text(name: str = "Test", levels: int = 3) -> str:
    return BASE.format(name=name, levels="".join(
        f"  - {{minutes: 10, small_blind: {i}, big_blind: {2 * i}}}\n"
        for i in range(1, levels + 1)))


def test_a_50_mb_file_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "huge.yaml"
    with path.open("w") as f:
        f.write(text())
        f.write(("# padding\n" * 100_000) * 50)  # 50 MB of comments: valid YAML
    assert path.stat().st_size > 50_000_000
    tracemalloc.start()
    try:
        assert main_check(str(path)) == 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out = capsys.readouterr().out
    assert f"{path}: is larger than {MAX_FILE_BYTES} bytes" in out
    assert peak < 4 * MAX_FILE_BYTES, peak  # read up to the limit, never the whole file
    with pytest.raises(ConfigError, match="larger than"):
        load_tournament(path)  # the controller's start reads it the same way


def test_a_file_that_never_ends_is_refused(capsys):
    assert main_check("/dev/zero") == 1
    assert "is larger than" in capsys.readouterr().out


def test_a_file_just_under_the_limit_is_read(tmp_path):
    path = tmp_path / "padded.yaml"
    body = text()
    path.write_text(body + "#" * (MAX_FILE_BYTES - len(body) - 1) + "\n")
    assert path.stat().st_size == MAX_FILE_BYTES
    assert load_tournament(path).name == "Test"


def test_too_many_levels_and_too_long_a_name_are_named():
    with pytest.raises(ConfigError) as info:
        load_tournament_text(text(name="x" * (MAX_TITLE + 1), levels=MAX_LEVELS + 1), "t.yaml")
    problems = str(info.value)
    assert f"name: is {MAX_TITLE + 1} characters long; at most {MAX_TITLE}" in problems
    assert f"structure: has {MAX_LEVELS + 1} entries; at most {MAX_LEVELS}" in problems
    assert load_tournament_text(text(levels=MAX_LEVELS)).structure[-1].big_blind == \
        2 * MAX_LEVELS
