"""The controller's reasons and replies in German (issue 10.17): every reason the engine can
give has its German, and real refusals and replies come out in German on a German screen."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from controller.engine import history
from controller.engine.commands import Each, Rejected
from controller.log.floor import Floor
from controller.wire import wording
from tests.support.settings import make_settings, new_tournament
from tests.support.source import parse

SOURCE = Path(__file__).resolve().parents[1] / "controller"


def _templates() -> dict[str, str]:
    """Every reason raised in the controller's source with a fixed template → where."""
    found: dict[str, str] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None)
                    in ("Rejected", "BadCommand") and node.args):
                continue
            arg = node.args[0]
            branches = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            for b in branches:
                if isinstance(b, ast.Constant) and isinstance(b.value, str):
                    found.setdefault(b.value, f"{path.relative_to(SOURCE.parent)}:{node.lineno}")
                else:  # an f-string would hide its values from a translation
                    assert not isinstance(b, ast.JoinedStr), \
                        f"{path}:{node.lineno}: Rejected(f'…') — use Rejected('…{{x}}…', x=…)"
    return found


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_reason_in_the_source_has_its_german():
    templates = _templates()
    assert len(templates) > 90  # the scan sees the engine's reasons
    missing = {t: where for t, where in templates.items() if t not in wording.REASONS_DE}
    assert not missing, "no German for:\n" + "\n".join(f"{w}: {t}" for t, w in missing.items())


def test_no_german_for_a_reason_that_no_longer_exists():
    stale = set(wording.REASONS_DE) - set(_templates())
    assert not stale


@pytest.mark.parametrize("english", sorted(wording.REASONS_DE))
def test_german_says_the_same_values(english):
    german = wording.REASONS_DE[english]
    assert _fields(german) == _fields(english)
    assert german != english


def test_every_phrase_the_history_says_has_its_german():
    tree = parse((SOURCE / "engine" / "history.py").read_text(encoding="utf-8"))
    keys = {n.args[0].value for n in ast.walk(tree)
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Phrase"
            and n.args and isinstance(n.args[0], ast.Constant)}
    keys |= {"clock_start", "clock_pause", "clock_resume", "clock_level",  # f"clock_{op}"
             "late_entry", "reentry", "rebuy"}  # Phrase(typ, …)
    assert keys - set(wording.PHRASES_DE) == set()


def _floor(tmp_path, players: int = 6) -> Floor:
    floor = Floor.open(make_settings(), tmp_path / "t.sqlite", seed=1, now=0.0)
    assert floor.execute({"cmd": "register",
                          "names": [f"Spieler {i}" for i in range(1, players + 1)]}, 0.0)["ok"]
    assert floor.execute({"cmd": "draw"}, 1.0)["ok"]
    assert floor.execute({"cmd": "start"}, 2.0)["ok"]
    return floor


def test_a_refusal_carries_its_template_and_reads_german(tmp_path):
    floor = _floor(tmp_path)
    assert floor.execute({"cmd": "bust", "player": "Spieler 3"}, 10.0)["ok"]
    answer = floor.execute({"cmd": "bust", "player": "Spieler 3"}, 11.0)
    assert answer["ok"] is False
    assert answer["reason"] == "Spieler 3 is already out"
    assert answer["why"] == {"key": "{player} is already out", "params": {"player": "Spieler 3"}}
    assert wording.reason(answer, "de") == "Spieler 3 ist schon ausgeschieden"
    assert wording.reason(answer, "en") == "Spieler 3 is already out"
    floor.close()


def test_a_name_keeps_its_quotes_and_a_number_its_format(tmp_path):
    floor = _floor(tmp_path)
    answer = floor.execute({"cmd": "bust", "player": "Nobody"}, 10.0)
    assert wording.reason(answer, "de") == "kein Spieler namens 'Nobody'"
    answer = floor.execute({"cmd": "register", "names": ["Bad\x07Name"]}, 10.0)
    assert "U+0007" in wording.reason(answer, "de")
    assert wording.reason(answer, "de").startswith("der Name 'Bad")
    floor.close()


def test_an_undo_refusal_names_the_commands_in_german():
    """As tests/engine/test_undo.py (000 4.9): two busts at table 1, table 2's hand done moves
    a player into the first busted seat and the player sits down; the first bust's undo is
    refused and names the hand done and its move."""
    t = new_tournament(12, players_per_table=6, table_seats=6, final_table_size=6)
    first = [t.execute({"cmd": "bust", "table": 1, "seat": s}, 10.0 + s) for s in (1, 2)][0]
    hd = t.execute({"cmd": "hand_done", "table": 2}, 20.0)
    t.execute({"cmd": "seated", "player": next(e["player"] for e in hd
                                               if e["type"] == "moved")}, 21.0)
    with pytest.raises(Rejected) as info:
        t.execute({"cmd": "undo", "target": first[0]["seq"]}, 30.0)
    answer = {"ok": False, "reason": str(info.value), "why": info.value.as_dict()}
    german = wording.reason(answer, "de")
    assert german.startswith("„Ausscheiden von ")
    assert ", Tisch 1 Platz 1, Rang 12“ (Ereignis " in german
    assert "kann nicht zurückgenommen werden: spätere Befehle hängen davon ab: #" in german
    assert "Hand fertig an Tisch 2 (mit: Umsetzen " in german
    assert "(Hand fertig an Tisch 2 wird mit zurückgenommen: dort noch einmal drücken)" in german
    assert not re.search(r"\b(bust|hand done|move|table)\b", german)  # nothing left English


def test_a_waiting_table_lists_its_arrivals_in_german():
    # TDA 11D: a short table waits for the player it gets; seating.refuse_while_waiting
    exc = Rejected("table {table} waits for {who}: no new hand until seated (TDA 11D); press "
                   "seated when they sit down", table=2,
                   who=Each(
                       "{player} (from table {from_table} seat {from_seat} to seat {to_seat})",
                       [{"player": "Anna", "from_table": 1, "from_seat": 4, "to_seat": 7}]))
    assert str(exc).startswith("table 2 waits for Anna (from table 1 seat 4 to seat 7)")
    answer = {"reason": str(exc), "why": exc.as_dict()}
    assert wording.reason(answer, "de").startswith(
        "Tisch 2 wartet auf Anna (von Tisch 1 Platz 4 auf Platz 7): keine neue Hand")


def test_what_a_command_did_reads_german():
    t = new_tournament(12, players_per_table=9)
    before = len(t.log)
    t.execute({"cmd": "bust", "player": "Player 5"}, 50.0)
    said = history.said(t, t.log[before:], 50.0)
    answer = {"ok": True, "message": history.line(said), "phrases": [p.as_dict() for p in said]}
    assert re.fullmatch(r"Player 5 raus auf Platz 12(; .*)?", wording.message(answer, "de"))
    assert wording.message(answer, "en") == answer["message"]
    before = len(t.log)
    t.execute({"cmd": "pause"}, 60.0)
    said = history.said(t, t.log[before:], 60.0)
    german = wording.message({"message": "x", "phrases": [p.as_dict() for p in said]}, "de")
    assert german.startswith("Uhr angehalten; Level 1 25/50: noch ")
    assert german.endswith("(angehalten)")


def test_an_unknown_reason_or_phrase_stays_english():
    answer = {"reason": "a reason from a newer controller",
              "why": {"key": "a reason from a newer controller", "params": {}}}
    assert wording.reason(answer, "de") == "a reason from a newer controller"
    assert wording.reason({"reason": "old answer without why"}, "de") == "old answer without why"
    odd = {"key": "busted", "params": {"nothing": 1}, "text": "Anna out"}
    assert wording.phrase(odd, "de") == "Anna out"  # values missing: the English, no crash


def test_a_count_that_does_not_add_up_is_said_with_german_thousands():
    # chip counts (000 4.15: the counts are the chips in play)
    exc = Rejected("the counts add up to {total:,} chips, more than the {chips:,} in play by "
                   "{off:,}: count again, or correct the chips in play with the reason "
                   "(chip_correction)", total=123500, chips=120000, off=3500)
    assert str(exc).startswith("the counts add up to 123,500 chips")
    german = wording.reason({"reason": str(exc), "why": exc.as_dict()}, "de")
    assert german == ("die Zählung ergibt 123.500 Chips, 3.500 mehr als die 120.000 im Spiel: "
                      "neu zählen, oder die Chips im Spiel mit dem Grund korrigieren "
                      "(chip_correction)")


def test_a_mode_is_named_in_german():
    exc = Rejected("{command} belongs to {what} (mode.kind: {kind}); this tournament is {mode}",
                   command="landesliga_points", what="a Landesliga final",
                   kind="landesliga_final", mode="play the clock")
    german = wording.reason({"reason": str(exc), "why": exc.as_dict()}, "de")
    assert german == ("landesliga_points gehört zu einem Landesliga-Finale (mode.kind: "
                      "landesliga_final); dieses Turnier ist Play the Clock")


def test_every_reason_for_hand_for_hand_reads_german():
    """The reasons rules/hand_for_hand.py writes into its events read back, each with its
    German: rewording one there without the reader fails here, not on a German screen."""
    from controller.engine.rules import hand_for_hand as hfh

    source = (SOURCE / "engine" / "rules" / "hand_for_hand.py").read_text(encoding="utf-8")
    # every reason the rule emits is one of its named ones
    assert set(re.findall(r"reason=([^\s,()]+)", source)) <= {
        "DIRECTOR", "BURST", "ONE_TABLE", "bubble_reason"}
    german = {}
    for reason in (hfh.DIRECTOR, hfh.BURST, hfh.ONE_TABLE, hfh.bubble_reason(19, 18)):
        which, _ = hfh.read_reason(reason)
        assert which in wording.HFH_REASONS_DE, reason
        german[reason] = wording.phrase({"key": "hfh", "params": {"on": True, "reason": reason},
                                         "text": "x"}, "de")
    assert german[hfh.bubble_reason(19, 18)] == \
        "Hand-für-Hand an (Bubble: 19 übrig, 18 Plätze zählen)"
    assert german[hfh.BURST] == "Hand-für-Hand an (Bubble geplatzt)"
    assert hfh.read_reason("a reason of a newer Floorman") == ("other", {})
    assert wording.phrase({"key": "hfh", "params": {"on": False, "reason": "later words"},
                           "text": "x"}, "de") == "Hand-für-Hand aus (later words)"
