"""The floor's duties on the screens: a penalised seat counts down (000 3.8), owed blinds
(000 4.11), who deals without a croupier (000 3.11); on the table and the wall."""

from __future__ import annotations

import pygame
import pytest

from controller.night import shots
from kiosk.render import Renderer
from kiosk.screens import duties

SIZES = shots.SIZES


def texts(view, size):
    r = Renderer(size, monotonic=lambda: shots.MONO)
    r.draw(pygame.Surface(size), view)
    return r, [t for t, _ in r.items]


def test_minutes_left_round_up_and_end():
    assert duties.minutes_left(400.0, 100.0) == 5
    assert duties.minutes_left(400.0, 341.0) == 1  # 59 s: still "1 min"
    assert duties.minutes_left(400.0, 400.0) == 0


def test_seat_tags_a_penalty_first_then_the_dealer():
    tab = {"penalties": [{"seat": 3, "player_id": 7, "hands_left": 1, "until": None,
                          "owes_blinds": False},
                         {"seat": 5, "player_id": 8, "hands_left": None, "until": 700.0,
                          "owes_blinds": False},
                         {"seat": 6, "player_id": 9, "hands_left": None, "until": None,
                          "owes_blinds": True}],
           "dealer": {"player_id": 2, "name": "Ben", "seat": 4}}
    assert duties.seat_tags(tab, 3, 100.0, "en") == (["penalty: 1 hand", "1 hand"],
                                                      duties.RED)
    assert duties.seat_tags(tab, 5, 100.0, "de") == (["Strafe: 10 Min.", "10 Min."],
                                                      duties.RED)
    assert duties.seat_tags(tab, 5, 700.0, "en") is None  # its time is up
    assert duties.seat_tags(tab, 6, 100.0, "en")[0][0] == "owes the blinds"  # type: ignore[index]
    assert duties.seat_tags(tab, 4, 100.0, "en") == (["deals"], duties.GREEN)
    assert duties.seat_tags(tab, 1, 100.0, "en") is None
    assert duties.standing_dealer(tab, "en") is None
    tab["dealer"] = {"player_id": 2, "name": "Ben", "seat": None}
    assert duties.standing_dealer(tab, "de") == "Dealer: Ben (ausgeschieden)"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_shows_the_penalised_seats_countdown(size):
    view = shots.moment("table_penalty")
    _, drawn = texts(view, size)
    assert {"penalty: 8 hands", "8 hands"} & set(drawn)
    assert {"penalty: 7 min", "7 min"} & set(drawn)
    # a long name beside the BB and the tag: whole, the tag under it where the row is narrow
    assert "Vera Krüger" in drawn


def test_a_minute_penalty_counts_down_and_goes_by_itself():
    view = shots.moment("table_penalty")
    r = Renderer(shots.SIZES[0], monotonic=lambda: shots.MONO)
    surface = pygame.Surface(shots.SIZES[0])
    r.draw(surface, view)
    view.now += 60.0  # one minute later: the screen lays out again with 6 min
    layouts = r.layouts
    assert r.draw(surface, view)
    assert r.layouts == layouts + 1
    assert {"penalty: 6 min", "6 min"} & {t for t, _ in r.items}
    view.now += 10 * 60.0  # over: no tag
    r.draw(surface, view)
    assert not [t for t, _ in r.items if "min" in t and "penalty" in t]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_wall_marks_a_penalised_player_in_red_and_never_cuts_the_name(size):
    view = shots.moment("wall_penalty")
    r, drawn = texts(view, size)
    assert "Ben Weber" in drawn  # whole
    surface = pygame.Surface(size)
    r.draw(surface, view)
    rect = next(rc for t, rc in r.items if t == "Ben Weber")
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(rect.x, rect.right)
               for y in range(rect.y, rect.bottom)}
    assert duties.RED in colours  # the name is red
    if size == (1920, 1080):
        assert "7 min" in drawn  # and what is left, where it fits


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_player_out_deals_standing(size):
    view = shots.moment("table_dealer")
    _, drawn = texts(view, size)
    dealer = view.state["table/1"]["dealer"]
    assert dealer["seat"] is None
    assert f"Dealer: {dealer['name']} (out)" in drawn
