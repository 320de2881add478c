"""The console's entries line says until when the field may grow, in the floor's words: in
the break after the last level with entries open they are still open (a break carries the
level before it, rules/entries.py), and the line names the break, not a level already over."""

from __future__ import annotations

from controller.console.i18n import LABELS
from controller.console.pages import entry_state

RULES = {"late_until_level": 4, "rebuys": 3, "rebuy_until_level": 4, "reentries": 0,
         "reentry_until_level": None, "addon_after_level": None, "addon_done": False,
         "keeps_tables_until": 4}


def _clock(number: int, is_break: bool) -> dict:
    return {"current": {"number": number, "is_break": is_break}}


def test_during_level_4_the_line_names_level_4():
    state = entry_state({"entry_rules": RULES, "tables_in_play": 2}, _clock(4, False))
    assert state["lines"] == [("entry_late", {"n": 4}), ("entry_rebuy", {"n": 4})]
    assert state["late"] and state["rebuy"]


def test_in_the_break_after_level_4_the_line_names_the_break():
    state = entry_state({"entry_rules": RULES, "tables_in_play": 2}, _clock(4, True))
    assert state["lines"] == [("entry_late_break", {}), ("entry_rebuy_break", {})]
    assert state["late"] and state["rebuy"]  # still open, as the engine decides
    english, german = LABELS["entry_rebuy_break"]
    assert "break" in english and "Pause" in german and "{n}" not in german


def test_a_break_after_an_earlier_level_keeps_naming_the_level():
    state = entry_state({"entry_rules": RULES, "tables_in_play": 2}, _clock(2, True))
    assert state["lines"] == [("entry_late", {"n": 4}), ("entry_rebuy", {"n": 4})]


def test_after_that_break_the_entries_are_closed():
    state = entry_state({"entry_rules": RULES, "tables_in_play": 2}, _clock(5, False))
    assert state["lines"] == [] and not state["late"] and not state["rebuy"]
