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
    "table_last_level": {"time_left", "blinds"},
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


def _widest_levels() -> dict[str, dict]:
    """Of each shipped tournament, its level with the widest blinds and ante."""
    from controller import resources
    from controller.config import load_tournament
    from controller.wire import i18n

    out = {}
    for path in sorted(resources.folder("tournaments").glob("*.yaml")):
        levels = [lv for lv in load_tournament(path).structure if lv.kind == "level"]
        lv = max(levels, key=lambda lv: len(i18n.level_line(
            {"small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
             "ante_type": lv.ante_type}, "de")))
        out[path.stem] = {"small_blind": lv.small_blind, "big_blind": lv.big_blind,
                          "ante": lv.ante, "ante_type": lv.ante_type}
    return out


@pytest.mark.parametrize("name", ["table_running", "table_last_level", "table_moves_in",
                                  "table_hfh_playing", "table_closed", "wall_running"])
def test_the_longest_blinds_keep_their_size_on_a_small_screen(name):
    """Every shipped tournament's longest level ("50.000 / 100.000 · Ante 10.000") on a
    7" table screen and a small wall, with the clock panel whole, paused, or short of
    room (moves, hand-for-hand, a closed table): the blinds at their size by rule, the
    ante drawn whole (beside them or under them)."""
    from controller.wire import i18n

    size = (800, 480)
    for club, level in _widest_levels().items():
        for lang in shots.LANGUAGES:
            view = shots.moment(name, lang)
            shown = view.state["structure"]["levels"][view.state["clock"]["level"]]
            shown.update(level)
            r = Renderer(size, monotonic=lambda: shots.MONO)
            r.draw(pygame.Surface(size), view)
            blinds = [k for k in r.keys if k.kind == "blinds"]
            need = sizes.minimum("blinds", view.role, size)
            assert blinds and all(k.cap >= need for k in blinds), \
                (club, lang, [(k.text, k.cap) for k in blinds], need)
            assert blinds[0].text == i18n.blinds(level, lang)
            drawn = [t for t, _ in r.items]
            antes = {i18n.ante(level, lang), i18n.ante(level, lang, short=True)} - {""}
            assert not antes or antes & set(drawn), (club, lang, antes, drawn)
