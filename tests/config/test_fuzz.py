"""Mutated tournament files give settings or ConfigError — never any other exception."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import ConfigError, ConfigProblem, load_tournament_text
from controller.engine.settings import TournamentSettings

CLUBS = Path(__file__).resolve().parents[2] / "config" / "clubs"

# one complete document with every section, built from two shipped presets
_DOC = yaml.safe_load((CLUBS / "psc-five-spades.yaml").read_text(encoding="utf-8"))
_DOC.update({"name": "Fuzz", "heads_up_halves_level": True, "ante_type": "standard",
             "level_minutes": 12})
_DOC["structure"] = _DOC["structure"][:6] + [{"blinds": "1.000/2.000/100"},
                                             {"minutes": "unlimited", "blinds": "2000/4000"}]
_DOC["entries"].update({"rebuys": 1, "addon_after_level": 4, "auto_addon_multiplier": 2})
_DOC["balancing"]["break_order"] = [2, 1]
_DOC["hand_for_hand"]["deduct_seconds"] = 60
_DOC["points"].update({"bounty": "mystery", "mystery_names": 5, "places": None})
_TEXT = yaml.safe_dump(_DOC, sort_keys=False, allow_unicode=True)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 30), st.integers(min_value=-10**6, max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["unlimited", "mode+1", "50/100", "1.000/2.000/200", "0/0", "highest",
                     "big_blind", "psc_ranking", "de", "stops", "share", "seat_1", "-1",
                     "100/50", "yes", "", "mode + 1", "1/2/3/4"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=8,
)
keys = st.one_of(st.text(max_size=12), st.sampled_from(
    ["name", "minutes", "seconds", "break", "blinds", "small_blind", "big_blind", "ante",
     "ante_type", "note", "tolerance", "seconds", "preset", "final_table_size", "structure",
     "table_seats", "players_per_table", "level_minutes", "system", "enabled"]))


def _containers(node, out):
    """Every dict and list inside ``node`` (including itself)."""
    if isinstance(node, dict | list):
        out.append(node)
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            _containers(child, out)
    return out


@st.composite
def mutated(draw):
    doc = copy.deepcopy(_DOC)
    for _ in range(draw(st.integers(1, 4))):
        targets = _containers(doc, [])
        target = draw(st.sampled_from(targets))
        if isinstance(target, dict):
            if not target:
                target[draw(keys)] = draw(values)
                continue
            key = draw(st.sampled_from(sorted(target, key=str)))
            op = draw(st.sampled_from(["delete", "rename", "replace", "add"]))
            if op == "delete":
                del target[key]
            elif op == "rename":
                target[draw(keys)] = target.pop(key)
            elif op == "replace":
                target[key] = draw(values)
            else:
                target[draw(keys)] = draw(values)
        else:
            op = draw(st.sampled_from(["delete", "replace", "add", "clear"]))
            if op == "clear" or not target:
                target.clear()
                if op != "clear":
                    target.append(draw(values))
                continue
            i = draw(st.integers(0, len(target) - 1))
            if op == "delete":
                del target[i]
            elif op == "replace":
                target[i] = draw(values)
            else:
                target.insert(i, draw(values))
    return doc


def _check(text: str) -> None:
    try:
        result = load_tournament_text(text, "fuzz.yaml")
    except ConfigError as exc:
        assert exc.problems, "a ConfigError must say what is wrong"
        for p in exc.problems:
            assert isinstance(p, ConfigProblem)
            assert p.line is None or p.line >= 1
            assert str(p).startswith("fuzz.yaml") or p.file != "fuzz.yaml"
    else:
        assert isinstance(result, TournamentSettings)


def test_the_unmutated_document_loads():
    s = load_tournament_text(_TEXT, "fuzz.yaml")
    assert s.structure[-1].seconds is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_documents_never_crash(doc):
    _check(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_text_never_crashes(data):
    text = _TEXT
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "swap"]))
        if op == "insert":
            chunk = data.draw(st.one_of(st.text(max_size=5), st.sampled_from(
                [":", "- ", "\n", "  ", "[", "{", "&a ", "*a", "!!", "'", '"', "\t", "#", "%"])))
            text = text[:pos] + chunk + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + data.draw(st.integers(1, 20)):]
        else:
            other = data.draw(st.integers(0, len(text)))
            a, b = sorted((pos, other))
            text = text[:a] + text[b:] + text[a:b]
    _check(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text):
    _check(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.sampled_from(sorted(p.stem for p in CLUBS.glob("*.yaml"))))
def test_mutated_overrides_of_every_preset_never_crash(doc, name):
    # the mutated document overrides a real preset key by key
    doc["preset"] = name
    _check(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
