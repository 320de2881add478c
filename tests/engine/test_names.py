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
