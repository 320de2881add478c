"""Minimum sizes by rule (docs/screens.md, kiosk/screens/sizes.py): the time left, the
blinds, a move instruction, the hand-for-hand state and a time call's seconds are read
from a distance (the wall from 5 m, a table screen from 1.5 m; the dealer's words from
0.7 m). Every screenshot moment's key items are measured against them."""

from __future__ import annotations

import pygame
import pytest

from controller.night import shots
from kiosk.render import Renderer
from kiosk.screens import sizes


def test_the_numbers_in_the_docs():
    """docs/screens.md states these (cap height in pixels)."""
    big, small = (1920, 1080), (800, 480)
    assert [sizes.minimum(k, "table", big) for k in ("time_left", "blinds", "dealer")] == \
        [110, 39, 19]
    assert [sizes.minimum(k, "table", small) for k in ("time_left", "blinds", "dealer")] == \
        [110, 39, 19]
    assert [sizes.minimum(k, "wall", big) for k in ("time_left", "blinds")] == [104, 37]
    assert [sizes.minimum(k, "wall", small) for k in ("time_left", "blinds")] == [46, 17]
    page = (shots.GALLERY.parent / "screens.md").read_text(encoding="utf-8")
    for n in ("110", "39", "19", "104", "37", "46", "17"):
        assert f"| {n} " in page or f" {n} |" in page, n


#: the key items each moment must show (so a test cannot pass by drawing none)
MUST = {
    "table_running": {"time_left", "blinds", "dealer"},
    # the colour-up break: the chip race takes the table screen over as a time call does
    # (the break's time stays on it, small; the wall shows it big): what the dealer is
    # told is at its size by rule
    "table_break": {"dealer"},
    "table_chip_race_entry": {"dealer"},
    "table_chip_race_result": {"dealer"},
    "table_action_clock": {"time_call", "dealer"},
    "wall_chip_race": {"time_left", "hfh"},
    "table_hfh_playing": {"time_left", "blinds", "hfh", "dealer"},
    "table_hfh_waiting": {"hfh", "dealer"},
    "table_hfh_deal": {"hfh", "dealer"},
    "table_time_call": {"time_call", "dealer"},
    "table_time_call_no_seat": {"time_call", "dealer"},
    "table_moves_out": {"move", "time_left", "blinds"},
    "table_moves_in": {"move", "time_left", "blinds"},
    "table_broken": {"move", "hfh"},
    "table_final_moves": {"move", "time_left", "blinds"},
    "table_closed": {"time_left", "blinds"},
    "table_feedback_tap": {"dealer"},
    "wall_running": {"time_left", "blinds", "move"},
    "wall_moves": {"move"},
    "wall_hfh": {"hfh", "time_left"},
    "wall_break": {"time_left"},
}


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", shots.LANGUAGES)
@pytest.mark.parametrize("name", list(shots.MOMENTS))
def test_key_items_are_at_least_their_minimum(name, lang, size):
    view = shots.moment(name, lang)
    r = Renderer(size, monotonic=lambda: shots.MONO)
    r.draw(pygame.Surface(size), view)
    kinds = {k.kind for k in r.keys}
    assert MUST.get(name, set()) <= kinds, f"{name}: {MUST[name] - kinds} not drawn"
    small = [(k.kind, k.text, k.cap, sizes.minimum(k.kind, view.role, size)) for k in r.keys
             if k.cap < sizes.minimum(k.kind, view.role, size)]
    assert not small, f"{name} ({lang}) too small (kind, text, cap px, minimum): {small}"


def test_the_measure_is_the_caps():
    """The recorded height is the capitals' ink at the size drawn (DejaVu: 0.73 em)."""
    view = shots.moment("table_running")
    r = Renderer((1920, 1080), monotonic=lambda: shots.MONO)
    r.draw(pygame.Surface((1920, 1080)), view)
    clock = next(k for k in r.keys if k.kind == "time_left")
    assert clock.text == "17:59"
    # digits are about as tall as capitals (their round tops overshoot a little)
    assert abs(clock.cap - clock.rect.height) <= 0.05 * clock.cap
