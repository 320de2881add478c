"""Property (hypothesis, derandomized): any command followed by its undo leaves the state
as it was (``Tournament.fingerprint``), or the undo is refused with a reason and changes
nothing (000 3.3: a correction is explicit and complete, issue 10 "Done when").

A random floor history (the actions of ``test_properties``) leads to a random state; then
one command of every kind the director or a table can send, with arguments taken from
that state, and its undo at the same moment (the time's own events are recorded first
by a tick, so the undo has nothing of the clock's to take back).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from controller.engine.tournament import Rejected, Tournament
from tests.engine.test_properties import ACTIONS, build, check, step

COMMANDS = ["bust", "bust_by", "hand_done", "late", "register", "reentry",
            "move_apply", "seated", "break_table", "final_table", "hfh", "time_call",
            "hands_left", "time", "level", "pause", "rename", "structure", "addon"]


def command(t: Tournament, kind: str, pick: int) -> dict | None:
    """A command of ``kind`` with arguments from the state (``None``: none possible)."""
    tables = sorted(t.tables)
    table = tables[pick % len(tables)] if tables else 1
    players = sorted(p.id for p in t.players.values() if not p.ghost)
    seated = sorted(p.id for p in t.players.values() if p.table is not None)
    out = sorted(p.id for p in t.players.values() if p.out and not p.ghost)
    if kind == "bust":
        return {"cmd": "bust", "player": seated[pick % len(seated)]} if seated else None
    if kind == "bust_by":
        if len(seated) < 2:
            return None
        a, b = seated[pick % len(seated)], seated[(pick + 1) % len(seated)]
        return {"cmd": "bust", "player": a, "by": b, "stack": 1000}
    if kind == "hand_done":
        return {"cmd": "hand_done", "table": table}
    if kind == "late":
        return {"cmd": "late", "name": f"Late X{pick}", "force": pick % 2 == 0}
    if kind == "register":
        return {"cmd": "register", "names": [f"New {pick}", f"New {pick + 1}"]}
    if kind in ("rebuy", "reentry"):
        return {"cmd": kind, "player": out[pick % len(out)]} if out else None
    if kind == "seated":
        pending = sorted(t.pending)
        return {"cmd": "seated", "player": pending[pick % len(pending)]} if pending else None
    if kind == "break_table":
        return {"cmd": "break_table", "table": table}
    if kind == "hfh":
        return {"cmd": "hfh", "on": not t.hfh.on}
    if kind == "time_call":
        return {"cmd": "time_call", "table": table, "op": ["start", "cancel"][pick % 2]}
    if kind == "hands_left":
        return {"cmd": "hands_left", "count": pick % 4}
    if kind == "time":
        return {"cmd": "time", "op": ["add", "set"][pick % 2],
                "seconds": [-120, 60, 300, -30][pick % 4]}
    if kind == "level":
        return {"cmd": "level", "to": ["next", "prev", 1 + pick % 5][pick % 3]}
    if kind == "rename":
        return ({"cmd": "rename", "player": players[pick % len(players)],
                 "name": f"Renamed {pick}"} if players else None)
    if kind == "structure":
        return {"cmd": "structure", "op": "minutes", "from_level": 2 + pick % 8,
                "minutes": 15}
    return {"cmd": kind}


@pytest.mark.parametrize("kind", COMMANDS)
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=30),
    per=st.sampled_from([6, 9]),
    ghosts=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**20),
    history=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6),
                               st.floats(min_value=0.0, max_value=400.0)), max_size=20),
    pick=st.integers(0, 10**6),
)
def test_any_command_and_its_undo_leave_the_state_as_before_000_3_3(
        kind, players, per, ghosts, seed, history, pick):
    t = build(players, per, ghosts, 1, None, seed)
    now = 10.0
    late_no = [0]
    for action, p, dt in history:
        now += dt
        step(t, action, p, now, late_no)
    now += 30.0
    t.execute({"cmd": "tick"}, now)  # the time's own events, before the command
    before = copy.deepcopy(t.fingerprint())
    c = command(t, kind, pick)
    if c is None:
        event("no such command possible")
        return
    try:
        events = t.execute(c, now)
    except Rejected as why:
        event("command rejected")
        assert str(why) and t.fingerprint() == before
        return
    if not events:
        return
    after = copy.deepcopy(t.fingerprint())
    n = len(t.log)
    try:
        t.execute({"cmd": "undo", "target": events[0]["group"]}, now)
    except Rejected as why:
        # refused: a reason a person can read, and nothing changed
        assert str(why).strip() and "Error" not in str(why)
        assert t.fingerprint() == after and len(t.log) == n
        event(f"undo refused: {kind}")
        return
    event(f"undone: {kind}")
    assert t.fingerprint() == before
    check(t)
