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
