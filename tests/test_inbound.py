"""controller/service/inbound.py: who sent a message and how fast it may go (issue 11.2, 11.11).
The drill (tests/drills/test_drill_hostile_client.py) repeats the attacks against the
real broker; these are the rules on their own, with a clock passed in."""

from __future__ import annotations

from collections import deque

import pytest

from controller.service.inbound import (
    Gate,
    Presses,
    TokenBucket,
    answer_to,
    filters,
    limits_from_env,
    presence_of,
    scoped_id,
    sender,
)
from controller.wire.protocol import ProtocolError


def test_the_sender_is_the_topic():
    assert sender("table", "3") == "table-3"
    assert sender("table", "03") == "table-?"  # not a table number the ACL names
    assert sender("table", "1000") == "table-1000"  # a festival's (issue 15)
    assert sender("table", "10000") == "table-?"  # above commands.MAX_TABLES
    assert sender("director", None) == "director"
    assert scoped_id("table-3", "abc") != scoped_id("table-4", "abc")
    assert scoped_id("director", "abc") != scoped_id("table-3", "abc")
    # "/" is in no id and no client name: one sender's keys never meet another's
    assert scoped_id("table-3", "abc") == "table-3/abc"


@pytest.mark.parametrize(("kind", "key", "reply_to", "to"), [
    ("table", "3", "table-4", "table-3"),  # issue 11.2: never another table's ack topic
    ("table", "3", "table-3", "table-3"),
    ("table", "3", "mal", "table-3"),
    ("table", "abc", "mal", "mal"),  # no table in the topic: only without an ACL
    ("director", None, "director", "director"),
    ("director", None, "director-0a1b", "director-0a1b"),
])
def test_answers_go_to_the_sender(kind, key, reply_to, to):
    assert answer_to(kind, key, reply_to) == to


@pytest.mark.parametrize(("key", "claim", "entry"), [
    ("table-3", {"role": "table", "table": 3}, {"role": "table", "table": 3}),
    ("table-3", {"role": "table"}, {"role": "table", "table": 3}),
    ("table-1000", {"role": "table", "table": 1000}, {"role": "table", "table": 1000}),
    ("wall", {"role": "wall", "table": None}, {"role": "wall", "table": None}),
    ("wall-2", {"role": "wall"}, {"role": "wall", "table": None}),
    ("psc-table-3", {"role": "table", "table": 3}, {"role": "table", "table": 3}),
    ("desk", {"role": "wall", "table": 4}, {"role": "wall", "table": None}),
    ("table-3", {"role": "unknown"}, {"role": "unknown", "table": None}),  # cleared
])
def test_presence_keeps_to_its_topic(key, claim, entry):
    assert presence_of(key, {"online": True, **claim}) == {
        "online": claim["role"] != "unknown", **entry}


@pytest.mark.parametrize(("key", "claim"), [
    ("table-3", {"role": "controller"}),  # issue 11.2
    ("wall", {"role": "controller"}),
    ("anyone", {"role": "controller"}),
    ("table-3", {"role": "table", "table": 4}),
    ("table-3", {"role": "wall"}),
    ("table-3", {"role": "director"}),
    ("wall", {"role": "table", "table": 1}),
])
def test_presence_that_claims_another_identity_is_rejected(key, claim):
    with pytest.raises(ProtocolError, match=f"presence/{key}"):
        presence_of(key, {"online": True, **claim})


def test_a_token_bucket_gives_a_burst_then_its_rate():
    b = TokenBucket(rate=5.0, burst=10)
    assert sum(b.take(0.0) for _ in range(50)) == 10
    assert b.wait(0.0) == pytest.approx(0.2)
    assert sum(b.take(1.0) for _ in range(50)) == 5  # one second: five more
    assert sum(b.take(100.0) for _ in range(50)) == 10  # never more than the burst


def test_presses_serve_the_tables_in_turn_and_hold_a_flood_to_its_rate():
    p = Presses(rate=5.0, burst=10, depth=20)
    for i in range(5000):
        p.offer("table-3", ("t3", i))
    assert p.waiting() == 20 and p.dropped == 4980
    assert p.drops() == {"table-3": 4980} and p.drops() == {}
    p.offer("table-1", ("t1", 0))
    taken = [p.take(0.0) for _ in range(12)]
    # table 1's press is not behind table 3's queue: it goes after at most one of them
    assert taken.index(("t1", 0)) <= 1
    assert [x for x in taken if x is not None and x[0] == "t3"] == [("t3", i) for i in range(10)]
    assert p.take(0.0) is None and p.wait(0.0) == pytest.approx(0.2)
    # a second later: five more of table 3, in order
    got = [p.take(1.0) for _ in range(6)]
    assert got[:5] == [("t3", i) for i in range(10, 15)] and got[5] is None
    assert p.wait(1.0) is not None
    while p.take(1000.0) is not None:
        pass
    assert p.waiting() == 0 and p.wait(1000.0) is None


def test_a_press_looks_only_at_the_tables_with_a_press_waiting():
    """Issue 32: the main loop asks for the next press at every turn; with a festival's
    1,000 tables that have each pressed once, a press looks at its own table's queue, not
    at 1,000 empty ones (0.15 ms a turn of the loop before)."""
    looked = [0]

    class Counted(deque):  # type: ignore[type-arg]
        def __len__(self) -> int:
            looked[0] += 1
            return super().__len__()

    p = Presses(rate=1000.0, burst=1000)
    for n in range(1, 1001):
        assert p.offer(f"table-{n}", n) and p.take(0.0) == n
    for lane in p._lanes.values():
        lane.queue = Counted(lane.queue)
    looked[0] = 0
    assert p.offer("table-500", "bust")
    assert p.wait(0.0) == 0.0 and p.take(0.0) == "bust"
    assert p.wait(0.0) is None and p.take(0.0) is None and p.waiting() == 0
    assert looked[0] <= 5, f"{looked[0]} queues looked at for one press"
    # and the tables still go in turn: the one served longest ago first
    for n in (7, 3, 500):
        p.offer(f"table-{n}", n)
    assert [p.take(0.0) for _ in range(4)] == [3, 7, 500, None]


@pytest.mark.parametrize(("value", "limits"), [
    ("", (5.0, 10)), ("20", (20.0, 40)), ("1000/1000", (1000.0, 1000)), ("0.5/1", (0.5, 1))])
def test_the_limits_can_be_raised_for_a_machine(value, limits):
    assert limits_from_env(value) == limits


@pytest.mark.parametrize("value", ["fast", "0", "5/0", "-1/3", "5/x"])
def test_bad_limits_are_refused(value):
    with pytest.raises(ValueError, match="FLOORMAN_PRESS_RATE"):
        limits_from_env(value)


# ---------------------------------------------------------------- budgets, shut-outs (27.4)


def test_every_kind_has_a_budget_per_client_and_a_flood_is_shut_out():
    gate = Gate({"time": (2.0, 3)}, shut_out=10.0, shut_out_max=25.0)
    assert [gate.admit("time", "table-3", 0.0) for _ in range(5)] == [True] * 3 + [False] * 2
    assert gate.admit("time", "table-1", 0.0)  # its own budget, untouched
    assert gate.admit("presence", "table-3", 0.0)  # a kind without a budget here
    assert gate.flooding() == [("time", "table-3")]
    assert gate.flooding() == []  # reported once
    assert gate.shut("time", "table-3", 1.0) == 10.0
    assert gate.is_shut("time", "table-3") and not gate.admit("time", "table-3", 100.0)
    assert gate.shut_out_of() == {"time": {"table-3"}}
    assert gate.drops() == {("time", "table-3"): 3} and gate.drops() == {}
    assert gate.reopen(10.9) == [] and gate.reopen(11.0) == [("time", "table-3")]
    assert gate.admit("time", "table-3", 11.0)  # a full budget again
    # again: twice as long, up to the longest
    assert gate.shut("time", "table-3", 20.0) == 20.0
    assert gate.shut("time", "table-3", 50.0) == 25.0
    # a press queue that overflowed (Presses) reports the table
    gate.overdrawn("table", "table-4")
    assert gate.flooding() == [("table", "table-4")]


def test_a_client_shut_out_is_not_subscribed_to():
    p = "P"
    normal = filters(p, {}, frozenset({1, 2, 3}), frozenset({"wall", "table-1"}))
    assert normal == {"P/cmd/#": 1, "P/time/request/+": 0,
                      "P/presence/+": 1, "P/presence/controller": 0}
    shut = filters(p, {"table": {"table-3"}, "time": {"table-3"}, "presence": {"wall"},
                       "director": {"director"}},
                   frozenset({1, 2, 3}), frozenset({"wall", "table-1", "controller"}))
    assert shut == {"P/cmd/table/1": 1, "P/cmd/table/2": 1,
                    "P/time/request/table-1": 0, "P/time/request/table-2": 0,
                    "P/time/request/wall": 0,
                    "P/presence/table-1": 1, "P/presence/table-2": 1, "P/presence/table-3": 1,
                    "P/presence/controller": 0}
    # one kind of command shut out: the other by its own wildcard
    assert set(filters(p, {"director": {"director"}}, frozenset({1}), frozenset())) == {
        "P/cmd/table/+", "P/time/request/+", "P/presence/+", "P/presence/controller"}
    assert "P/cmd/director" in filters(p, {"table": {"table-1"}}, frozenset({1}), frozenset())
