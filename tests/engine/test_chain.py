"""The log is a hash chain (000 3.3: the record of the night is kept and cannot be
changed unnoticed; issue 10 point 18). Replay refuses a log with a missing, reordered or
edited event and names the first bad one; logs of an older Floorman (v1/v2, no hashes)
still replay, and a log continued by this Floorman is chained from its first new event.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import chain, events
from controller.engine.chain import BadEvent
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament


def played(busts: int = 4) -> Tournament:
    """18 players, ``busts`` busts at table 1 with a hand done after each, an undo."""
    t = new_tournament(18, 3)
    for i in range(busts):
        seat = min(t.tables[1].occupant)
        t.execute({"cmd": "bust", "table": 1, "seat": seat, "confirm": True}, 10.0 + i)
        t.execute({"cmd": "hand_done", "table": 1}, 10.5 + i)
    t.execute({"cmd": "undo"}, 20.0)
    return t


def refused_at(log: list[dict]) -> int:
    with pytest.raises(BadEvent) as info:
        Tournament.replay(log)
    return info.value.seq


def as_version_2(log: list[dict]) -> list[dict]:
    """The same log as Floorman 0.2 wrote it: no hashes."""
    return [{**{k: v for k, v in e.items() if k != "hash"}, "v": 2} for e in log]


def test_every_event_carries_its_link_and_the_log_replays():
    t = played()
    assert all(e["v"] == events.VERSION >= chain.CHAINED_FROM_VERSION for e in t.log)
    assert all(len(e["hash"]) == 64 for e in t.log)
    checked = chain.check(t.log)
    assert (checked.count, checked.last, checked.chained_from) == (len(t.log), t.log[-1]["hash"],
                                                                    1)
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_an_event_deleted_from_the_middle_is_refused_naming_it():
    t = played()
    log = copy.deepcopy(t.log)
    del log[24]
    with pytest.raises(BadEvent, match="event 25: is missing"):
        Tournament.replay(log)


def test_the_first_or_last_event_deleted():
    log = copy.deepcopy(played().log)
    assert refused_at(log[1:]) == 1
    # the last one gone is a log that ends earlier: only the last hash tells (floorman verify)
    assert chain.check(log[:-1]).last == log[-2]["hash"] != log[-1]["hash"]


def test_an_edited_field_is_refused_naming_the_event():
    t = played()
    log = copy.deepcopy(t.log)
    bust = next(e for e in log if e["type"] == "busted")
    bust["seat"] += 1  # the bust of another player: replay alone would not notice
    with pytest.raises(BadEvent, match=f"event {bust['seq']}: does not match its hash"):
        Tournament.replay(log)


def test_an_edit_with_a_recomputed_hash_is_found_at_the_next_event():
    log = copy.deepcopy(played().log)
    log[20]["at"] += 60.0
    log[20]["hash"] = chain.link(log[19]["hash"], log[20])
    assert refused_at(log) == 22


def test_two_events_swapped_are_refused_naming_the_first():
    log = copy.deepcopy(played().log)
    log[20], log[21] = log[21], log[20]
    with pytest.raises(BadEvent, match="event 21: is out of order"):
        Tournament.replay(log)


def test_a_stripped_hash_is_refused():
    log = copy.deepcopy(played().log)
    del log[10]["hash"]
    assert refused_at(log) == 11
    log = copy.deepcopy(played().log)
    log[-1] = {k: v for k, v in log[-1].items() if k != "hash"} | {"v": 2}
    with pytest.raises(BadEvent, match="chain was stripped"):
        Tournament.replay(log)


def test_an_edited_event_type_is_refused_before_it_is_folded():
    log = copy.deepcopy(played().log)
    done = next(e for e in log if e["type"] == "hand_done")
    done["type"] = "busted"
    assert refused_at(log) == done["seq"]


def test_a_version_2_log_still_replays_and_continues_chained():
    t = played()
    old = as_version_2(t.log)
    assert chain.check(old).chained_from is None
    again = Tournament.replay(old)
    assert again.fingerprint() == t.fingerprint()
    again.execute({"cmd": "hand_done", "table": 2}, 30.0)
    new = again.log[len(old)]
    assert new["v"] == events.VERSION and new["seq"] == len(old) + 1
    assert chain.check(again.log).chained_from == new["seq"]
    assert Tournament.replay(again.log).fingerprint() == again.fingerprint()
    # the first chained event covers the unchained events before it
    edited = copy.deepcopy(again.log)
    edited[5]["name"] = "Somebody Else"
    assert refused_at(edited) == new["seq"]


def test_an_edited_version_2_event_names_the_event_that_does_not_fit():
    """Without a chain an edit is found only when it does not fit (issue 11 point 8:
    today KeyError: 'target' for an event edited into an undo)."""
    log = as_version_2(played().log)
    drawn = next(e for e in log if e["type"] == "seats_drawn")
    drawn["type"] = "undo"
    with pytest.raises(events.InvalidEvent, match=rf"event {drawn['seq']} \(undo\): target"):
        Tournament.replay(log)


def test_an_undone_command_stays_in_the_chain():
    t = played()
    assert t.log[-1]["type"] == "undo"
    log = copy.deepcopy(t.log)
    target = next(e for e in log if e["seq"] == t.log[-1]["target"])
    target["table"] = 2  # undone, never folded: still refused
    assert refused_at(log) == target["seq"]


ATTACKS = st.sampled_from(["delete", "edit", "swap"])


@settings(max_examples=60, derandomize=True, deadline=None)
@given(attack=ATTACKS, where=st.integers(min_value=0, max_value=10_000))
def test_any_single_deletion_edit_or_swap_is_named(attack, where):
    """Property (000 3.3): whatever one event is removed, edited or swapped with the
    next, replay is refused at exactly that event."""
    log = copy.deepcopy(LOG)
    i = where % (len(log) - 1)
    if attack == "delete":
        del log[i]
    elif attack == "edit":
        log[i]["at"] = log[i]["at"] + 0.25
    else:
        log[i], log[i + 1] = log[i + 1], log[i]
    assert refused_at(log) == i + 1


LOG = played().log
