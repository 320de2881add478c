"""Issue 27.6, the smaller findings of the second review that are the log's, the command
line's and the engine's: control characters in reasons and banners, what reaches the
director's terminal, CSV cells a spreadsheet would run as formulas."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from controller import cli
from controller.engine.commands import BadCommand, parse
from controller.engine.results import results_csv, spreadsheet_cell
from tests.support.settings import new_tournament

CONTROL = ["\x1b[2J\x1b[31mgotcha", "a\x00b", "\u202eevil", "bell\x07", "\x9bc1"]


@pytest.mark.parametrize("text", CONTROL)
@pytest.mark.parametrize("cmd", [
    {"cmd": "penalty", "player": "P1", "kind": "warning", "reason": None},
    {"cmd": "disqualify", "player": "P1", "reason": None},
    {"cmd": "announce", "text": None},
])
def test_a_reason_or_banner_with_a_control_character_is_refused(cmd, text):
    field = "text" if cmd["cmd"] == "announce" else "reason"
    with pytest.raises(BadCommand) as info:
        parse({**cmd, field: text})
    said = str(info.value)
    assert f"{field} must be text without control or format characters (U+" in said, said


def test_a_reason_is_one_line():
    c = parse({"cmd": "disqualify", "player": "P1", "reason": " chips\npassed\tunder  the table "})
    assert c.reason == "chips passed under the table"  # type: ignore[attr-defined]
    t = new_tournament(9)
    t.execute({"cmd": "disqualify", "player": t.players[1].name, "reason": "ok ß ✓"}, 10.0)
    assert t.players[1].disqualified_for == "ok ß ✓"


def _director_output(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                     argv: list[str], answer: dict[str, Any]) -> tuple[str, str, int]:
    import controller.director as director

    monkeypatch.setattr(director, "with_credentials", lambda b, **kw: b)
    monkeypatch.setattr(director, "send", lambda *a, **kw: answer)
    rc = cli.main(argv)
    out, err = capsys.readouterr()
    return out, err, rc


def test_history_shows_an_escape_and_a_nul_escaped(monkeypatch, capsys):
    """An older log may hold a reason with ESC and NUL; the terminal must not obey them."""
    out, _, rc = _director_output(monkeypatch, capsys, ["history"], {
        "ok": True, "message": "#12 20:01 penalty Tom (\x1b[2J\x00\u202e)\n#13 20:02 start"})
    assert rc == 0
    assert "\x1b" not in out and "\x00" not in out and "\u202e" not in out
    assert out == "#12 20:01 penalty Tom (\\x1b[2J\\x00\\u202e)\n#13 20:02 start\n"
    _, err, rc = _director_output(monkeypatch, capsys, ["undo"],
                                  {"ok": False, "reason": "no \x1b]0;title\x07 undo"})
    assert rc == 1 and "\x1b" not in err and "\x07" not in err


FORMULAS = ["=HYPERLINK(\"http://evil\",\"win\")", "+1+2", "-2+3", "@SUM(A1:A9)",
            "\t=1", "\r=1", "\uff1d1+1"]


@pytest.mark.parametrize("name", FORMULAS)
def test_a_name_that_starts_a_formula_is_written_as_text(name):
    assert spreadsheet_cell(name) == "'" + name
    for number in ("-0,5", "-3", "+1.5", 12, -2.5, None, "Anna", ""):
        assert spreadsheet_cell(number) == number


def test_floorman_results_csv_writes_no_formula(monkeypatch, capsys):
    rows = [{"place": 1, "name": "=cmd|' /C calc'!A0", "points": -2.5},
            {"place": 2, "name": "@SUM(1+1)", "points": 3}]
    out, _, rc = _director_output(monkeypatch, capsys, ["results", "--csv"],
                                  {"ok": True, "result": {"rows": rows}})
    assert rc == 0
    got = list(csv.DictReader(io.StringIO(out)))
    assert [r["name"] for r in got] == ["'=cmd|' /C calc'!A0", "'@SUM(1+1)"]
    assert [r["points"] for r in got] == ["-2.5", "3"]


def test_the_engines_csv_writes_no_formula():
    """``results_csv`` of the engine (``floorman simulate`` prints it)."""
    from controller.engine.results import Finish, score
    from tests.engine.test_results import PSC as SETTINGS_POINTS
    from tests.engine.test_results import field

    fs = field(3, {})
    fs[0] = Finish(1, "=1+1", 1, member=True)
    text = results_csv(score(SETTINGS_POINTS, fs, entries=3))
    assert ",'=1+1," in text and ",=1+1," not in text
