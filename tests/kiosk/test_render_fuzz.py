"""The screens never crash on any text (issue 11.5: a NUL in a name killed the table
screen with "A null character was found in the text", a lone BOM every wall with "Text has
zero width", at every restart, because the state is retained).

Hypothesis puts random Unicode (controls, format characters, lone surrogates from a JSON
``\\ud800``, combining marks, emoji, right-to-left text, empty strings, very long text)
into every name, the tournament's name, level notes and the dealer's feedback line of
real moments (controller/night/shots.py), and draws the table and wall screens at both sizes. The
controller refuses such names (controller/engine/rules/entries.py), but a screen must
survive whatever a broker delivers: an old log, a third-party publisher, a bug.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import cache
from typing import Any

import pygame
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from controller.night import shots
from kiosk.render import Renderer
from kiosk.view import Feedback, ScreenView

MOMENTS = ("table_running", "table_time_call", "table_moves_in", "table_broken",
           "table_final_moves", "table_feedback_rejected", "table_finished", "wall_running",
           "wall_hfh", "wall_finished", "wall_long_names")
#: keys of the retained payloads whose text comes from people (names, notes, reasons)
TEXT_KEYS = {"name", "player", "champion", "note", "prize"}

weird = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=60),
    st.sampled_from(["", "\x00", "\ufeff", "\u200b", "\u202e", "\ud800", "A\x00B",
                     "\u0301" * 30, "\U0001F600" * 5, "\t\n\r", "x" * 5000, " ",
                     "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\U000f0000"]),
)


@cache
def moment(name: str) -> ScreenView:
    return shots.moment(name)


def replace_texts(value: Any, texts: list[str], i: list[int]) -> Any:
    """``value`` with every people's text (:data:`TEXT_KEYS`) replaced, in turn, by
    ``texts``."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in TEXT_KEYS and isinstance(v, str):
                out[k] = texts[i[0] % len(texts)]
                i[0] += 1
            else:
                out[k] = replace_texts(v, texts, i)
        return out
    if isinstance(value, list):
        return [replace_texts(v, texts, i) for v in value]
    return value


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
# the review's two: a NUL killed the table screen, a lone BOM every wall
@example(which="table_running", texts=["Ann\x00Bob"], message="\x00", small=True)
@example(which="wall_running", texts=["\ufeff"], message="", small=False)
@example(which="table_feedback_rejected", texts=["\ud800"], message="\ufeff", small=False)
@given(which=st.sampled_from(MOMENTS), texts=st.lists(weird, min_size=1, max_size=8),
       message=weird, small=st.booleans())
def test_every_screen_draws_any_text(which, texts, message, small):
    view = moment(which)
    state = replace_texts(copy.deepcopy(view.state), texts, [0])
    feedback = Feedback("rejected", message, shots.MONO) if view.role == "table" else None
    view = dataclasses.replace(view, state=state, feedback=feedback)
    size = (800, 480) if small else (1920, 1080)
    surface = pygame.Surface(size)
    r = Renderer(size, monotonic=lambda: shots.MONO)
    assert r.draw(surface, view)  # laid out: the whole screen, and no exception
    r.draw(surface, dataclasses.replace(view, now=view.now + 1.0))  # a second later
    for _, rect in r.items:
        assert surface.get_rect().contains(rect) or rect.width == 0, rect
