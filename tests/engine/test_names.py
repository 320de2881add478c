"""Names the screens cannot show are refused at registration (issue 11.5: a NUL killed
the table screen, a lone BOM every wall, at every restart, because the state is
retained). Where the rulebooks are silent on names, the floor's rule is: what a screen
shows is what was registered."""

from __future__ import annotations

import copy

import pytest

from controller.engine.rules.entries import MAX_NAME, showable
from controller.engine.tournament import Rejected
from tests.support.settings import new_tournament

UNSHOWABLE = [
    "Ann\x00Bob",  # NUL: pygame's "A null character was found in the text"
    "\ufeff",  # a lone BOM: "Text has zero width" on every wall
    "Ann\ufeff",  # a BOM in a name
    "\u200b\u200d",  # zero-width space and joiner: nothing to show
    "Zoë\u202eevil",  # a right-to-left override
    "Ann\x1bBob",  # ESC
    "Ann\x7f",  # DEL
    "Ann\x9b",  # a C1 control
    "Ann\U000f0000",  # private use
    "Ann\u0378",  # unassigned
    " \u00a0 \u3000 ",  # white space only: empty once trimmed
    "x" * (MAX_NAME + 1),
]


@pytest.mark.parametrize("name", UNSHOWABLE)
def test_a_name_no_screen_can_show_is_refused_with_a_reason(name):
    for cmd in ({"cmd": "register", "names": ["Fine", name]}, {"cmd": "late", "name": name}):
        t = new_tournament(4, draw=cmd["cmd"] == "late", start=cmd["cmd"] == "late")
        before, log = copy.deepcopy(t.fingerprint()), len(t.log)
        with pytest.raises(Rejected) as info:
            t.execute(cmd, 100.0)
        reason = str(info.value)
        assert "cannot be shown" in reason or "must be text" in reason \
            or f"longer than {MAX_NAME}" in reason, reason
        assert t.fingerprint() == before and len(t.log) == log  # "Fine" was not registered


@pytest.mark.parametrize(("typed", "stored"), [
    ("  Zoë   Müller ", "Zoë Müller"),
    ("Zoe\u0308", "Zoë"),  # decomposed: stored composed (NFC), one name, not two
    ("Ann\tB.\nLee", "Ann B. Lee"),  # a tab or line break is white space
    ("Øyvind Ødegård", "Øyvind Ødegård"),
    ("王小明", "王小明"),
    ("\U0001F0A1 Ace", "\U0001F0A1 Ace"),  # a playing card: shown (or as a box), never a crash
])
def test_names_are_stored_as_shown(typed, stored):
    assert showable(typed) == stored
    t = new_tournament(0, draw=False, start=False)
    t.execute({"cmd": "register", "names": [typed]}, 0.0)
    assert t.players[1].name == stored


def test_a_decomposed_duplicate_is_a_duplicate():
    t = new_tournament(0, draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Zoë"]}, 0.0)
    with pytest.raises(Rejected, match="already registered"):
        t.execute({"cmd": "register", "names": ["Zoe\u0308"]}, 0.0)


# issue 27.6: names that show as blank
BLANK = [
    "\u3164",  # HANGUL FILLER: a letter (Lo) that draws nothing
    "\u115f\u1160",  # the Hangul choseong and jungseong fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u2800",  # BRAILLE PATTERN BLANK: a symbol (So) that draws nothing
    "Anna\u3164",  # looks like "Anna"
    "\u0301\u0302",  # only combining marks
    " \u0308 ",  # a lone combining diaeresis between spaces
]


@pytest.mark.parametrize("name", BLANK)
def test_a_name_that_shows_as_blank_is_refused(name):
    t = new_tournament(0, draw=False, start=False)
    with pytest.raises(Rejected) as info:
        t.execute({"cmd": "register", "names": [name]}, 0.0)
    reason = str(info.value)
    assert "shows as blank" in reason or "no letter, digit or sign that shows" in reason, reason
    assert not t.players


def test_a_refusal_quotes_a_long_name_cut():
    """A 10,000-character name was quoted whole, twice (the union's two branches)."""
    from controller.engine.commands import QUOTE

    t = new_tournament(0, draw=False, start=False)
    for cmd in ({"cmd": "register", "names": ["x" * 10_000]},
                {"cmd": "register", "names": ["Ann\x00" + "y" * 10_000]},
                {"cmd": "register", "names": ["Ann\x00" + "y" * 150]},
                {"cmd": "rename", "player": "z" * 10_000, "name": "Zoë"},
                {"cmd": "bust", "table": 1, "seat": "q" * 10_000}):
        with pytest.raises(Rejected) as info:
            t.execute(cmd, 0.0)
        reason = str(info.value)
        assert len(reason) < 300 and "…" in reason, reason
        assert not any(ch * QUOTE in reason for ch in "xyzq"), reason  # cut at QUOTE
