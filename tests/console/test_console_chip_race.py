"""The director's chip race form (000 3.17): seat:count pairs become the command's list."""

from __future__ import annotations

import pytest

from controller.console import actions
from controller.console.actions import FormError
from controller.console.i18n import LABELS


def test_the_chip_race_form_becomes_the_command():
    assert actions.command("chip_race", {"table": "2", "chips": "1:3, 2:2 5:1",
                                         "short": "5"}) == \
        ("chip_race", {"table": 2, "chips": [3, 2, 0, 0, 1], "short": [5]})
    assert actions.command("chip_race", {"table": "1", "chips": "3:1", "short": ""}) == \
        ("chip_race", {"table": 1, "chips": [0, 0, 1], "short": []})


@pytest.mark.parametrize("form,key", [
    ({"table": "1", "chips": ""}, "missing"),
    ({"table": "1", "chips": "3=2"}, "bad_chips"),
    ({"table": "1", "chips": "0:2"}, "bad_chips"),
    ({"table": "1", "chips": "1:-2"}, "bad_chips"),
    ({"table": "1", "chips": "1:2", "short": "x"}, "not_a_number"),
    ({"table": "eins", "chips": "1:2"}, "not_a_number"),
])
def test_a_chip_race_form_that_is_no_command_is_refused_before_sending(form, key):
    with pytest.raises(FormError) as info:
        actions.command("chip_race", form)
    assert info.value.key == key
    assert key in LABELS


def test_the_table_card_says_whether_its_chip_race_is_done():
    """The floor page's table card: "Chip race 25 → 100" while it is open, then done."""
    from jinja2 import Environment, PackageLoader

    from controller.console import pages
    from controller.console.i18n import tr

    env = Environment(loader=PackageLoader("controller.console", "templates"))
    race = {"leaving": 25, "new": 100, "start_seat": 1, "start": "seat_1", "rounding": "up",
            "one_chip_per_player": True, "most": 3, "result": None}
    table = {"v": 1, "table": 1, "in_play": True, "final": False, "size": 2,
             "seats": [{"seat": 1, "player_id": 1, "name": "Anna"}], "button": 1,
             "small_blind": None, "big_blind": None, "notices": [],
             "hand_for_hand": {"on": False}, "time_call": None, "chip_race": race}

    def card(race_state):
        tables, _ = pages.tables({"table/1": {**table, "chip_race": race_state}})
        return env.get_template("_tables.html").render(
            t=lambda key, **v: tr(key, "en", **v), tables=tables, broken=[])

    assert "Chip race 25 → 100" in card(race)
    assert "Chip race done" in card({**race, "result": {"seats": [], "new_chips": 0,
                                                        "change": 0}})
    assert "Chip race" not in card(None)
