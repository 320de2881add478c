"""A command that fails inside the engine changes nothing, refused or not.

A refusal (:class:`Rejected`) leaves the state as it was; so does a rule's bug (any other
exception), even when it happens in the middle of folding an event into the state: the
bare engine used to keep the half-changed state (only the controller's durable floor
rolled back), so a program using the engine directly went on from a state no log makes.
"""

from __future__ import annotations

import pytest

from controller.engine import events as ev
from controller.engine.rules import FOLDS
from tests.support.settings import new_tournament, replay_equal


def test_a_fold_that_fails_half_way_leaves_the_state_as_the_log_makes_it(monkeypatch):
    t = new_tournament(18)
    table = t.tables[1]
    seat = min(table.occupant)
    player = table.occupant[seat]
    log = list(t.log)
    fold = FOLDS[ev.Busted.model_fields["type"].default]

    def half(t_, e):
        fold(t_, e)  # the player is out, the seat empty …
        raise KeyError("a bug after the fold had changed the state")

    monkeypatch.setitem(FOLDS, ev.Busted.model_fields["type"].default, half)
    with pytest.raises(KeyError):
        t.execute({"cmd": "bust", "table": 1, "seat": seat}, 10.0)
    monkeypatch.undo()
    assert t.log == log
    assert not t.players[player].out
    assert t.tables[1].occupant.get(seat) == player
    replay_equal(t)
    # and it plays on: the same bust now goes through
    [e] = [e for e in t.execute({"cmd": "bust", "table": 1, "seat": seat}, 11.0)
           if e["type"] == "busted"]
    assert e["player"] == player
