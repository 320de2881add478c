"""Kept states (``Tournament.keep``, issue 15): an undo replays from a copy of the state
kept before it instead of from the first event. Only the speed may differ: the events,
their hashes, the refusals and the words are those of the replay from the first event.

The property runs two engines side by side on the same random floor (busts, hands,
late entries, moves, hand-for-hand, ticks, undos of the last command and of any
earlier one), one keeping states at random moments and one never; after every step
both logs are the same, event for event, and after an undo its state and its words
are those the replays from the first event make. Hypothesis runs derandomized (the
same examples on every run).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from controller.engine import history
from controller.engine.tournament import KEPT, Rejected, Tournament
from tests.engine.test_properties import ACTIONS, build, check, step

STEPS = [*ACTIONS, "undo_any", "undo_any", "undo_table"]


def _commands(t: Tournament) -> list[int]:
    undone = history.undone_groups(t)
    return [g for g in dict.fromkeys(e["group"] for e in t.log[1:])
            if g not in undone and history.is_command(history.group(t, g))]


def _step(t: Tournament, action: str, pick: int, now: float, late_no: list[int]) -> str:
    """One step; what it said (the undo's words, or the refusal)."""
    n = len(t.log)
    try:
        if action == "undo_any":
            groups = _commands(t)
            if not groups:
                return ""
            t.execute({"cmd": "undo", "target": groups[pick % len(groups)]}, now)
        elif action == "undo_table":
            if not t.tables:
                return ""
            t.execute({"cmd": "undo", "table": sorted(t.tables)[pick % len(t.tables)]}, now)
        else:
            step(t, action, pick, now, late_no)
    except Rejected as why:
        return f"refused: {why}"
    return history.line(history.said(t, t.log[n:]))


def _as_from_the_first_event(t: Tournament, n: int) -> None:
    """An undo's state and words are those the replays from the first event make (the
    undo hands its check's state to its fold and names its command before it folds)."""
    assert t.fingerprint() == Tournament.replay(t.log).fingerprint()
    for e in t.log[n:]:
        if e["type"] == "undo":
            before = Tournament.replay(t.log[:e["seq"] - 1])
            assert history.undone(t, e).params["what"] == \
                history.command(before, e["target"]).as_dict()


def _run_both(players: int, per: int, ghosts: bool, seed: int,
              steps: list[tuple[str, int, float, bool]]) -> tuple[Tournament, Tournament]:
    plain = build(players, per, ghosts, 1, None, seed)
    keeping = build(players, per, ghosts, 1, None, seed)
    now = 10.0
    late = ([0], [0])
    for action, pick, dt, keep in steps:
        now += dt
        if keep:
            keeping.keep()
        n = len(keeping.log)
        said = (_step(plain, action, pick, now, late[0]),
                _step(keeping, action, pick, now, late[1]))
        assert said[0] == said[1], (action, said)
        assert keeping.log == plain.log, action  # every event and its hash
        if any(e["type"] == "undo" for e in keeping.log[n:]):
            _as_from_the_first_event(keeping, n)
        assert keeping._chain == plain._chain
        assert len(keeping._kept) <= KEPT
    return plain, keeping


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=40),
    per=st.sampled_from([6, 9]),
    ghosts=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**20),
    steps=st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 10**6),
                             st.floats(min_value=0.0, max_value=400.0), st.booleans()),
                   max_size=40),
)
# a keep, then an undo of a command from before it (the kept state goes), then an undo
# of the last
@example(players=20, per=9, ghosts=False, seed=7,
         steps=[("bust", 0, 1.0, False), ("bust", 1, 1.0, False), ("bust", 2, 1.0, True),
                ("hand_done", 0, 1.0, True), ("undo_any", 3, 1.0, False),
                ("bust", 5, 1.0, False), ("undo", 0, 1.0, False)])
def test_an_undo_from_a_kept_state_is_the_undo_from_the_first_event(
        players, per, ghosts, seed, steps):
    plain, keeping = _run_both(players, per, ghosts, seed, steps)
    assert keeping.fingerprint() == plain.fingerprint()
    check(keeping)
    # and the log alone still makes it (000 3.3)
    assert Tournament.replay(keeping.log).fingerprint() == keeping.fingerprint()


def test_an_undo_under_the_kept_state_drops_it_and_one_after_it_keeps_it():
    t = build(20, 9, False, 1, None, 3)
    first = t.execute({"cmd": "bust", "player": 1}, 20.0)[0]["group"]
    t.keep()
    kept = t.kept_at
    assert kept == len(t.log)
    second = t.execute({"cmd": "bust", "player": 2}, 21.0)[0]["group"]
    t.execute({"cmd": "undo", "target": second}, 22.0)
    assert t.kept_at == kept  # the bust undone came after it: still good
    t.execute({"cmd": "undo", "target": first}, 23.0)
    assert t.kept_at == 0  # it held the bust now undone
    assert t.fingerprint() == Tournament.replay(t.log).fingerprint()
    assert not t.players[1].out and not t.players[2].out


def test_the_newest_states_are_kept_and_none_goes_into_a_snapshot():
    t = build(12, 6, False, 1, None, 5)
    for k in range(KEPT + 2):
        t.execute({"cmd": "hand_done", "table": 1}, 30.0 + k)
        t.keep()
    assert len(t._kept) == KEPT and t.kept_at == len(t.log)
    copy = pickle.loads(pickle.dumps(t))
    assert copy._kept == [] and copy.fingerprint() == t.fingerprint()
    assert b"_kept" not in pickle.dumps(t)


@pytest.mark.parametrize("kept", [False, True])
def test_a_rejected_command_after_its_events_leaves_the_state_and_the_kept_ones(kept):
    """Tournament.execute's roll-back (a rule that refuses after emitting) refolds from a
    kept state: nothing changed, the chain goes on from the right value."""
    t = build(12, 6, False, 1, None, 5)
    if kept:
        t.keep()
    before, chain_value, kept_at = t.fingerprint(), t._chain, t.kept_at
    n = len(t.log)
    refolded = t.refold(n)
    assert refolded.fingerprint() == before and refolded._chain == chain_value
    assert refolded.kept_at == kept_at and refolded.log == t.log
