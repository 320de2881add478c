"""controller.wire.protocol: inbound parsing (every malformed kind rejected with a readable
ProtocolError, never anything else), the outbound schemas, and Topics."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import commands
from controller.wire import protocol
from controller.wire.protocol import ProtocolError, Topics, dumps, parse

ENVELOPE = {"v": 1, "id": "c-1", "reply_to": "table-3"}


def raw(data: Any) -> bytes:
    return json.dumps(data).encode()


def rejected(kind: str, payload: bytes | str, key: str | None = None) -> str:
    """The reason a payload is rejected; fails if it is accepted or raises anything else."""
    with pytest.raises(ProtocolError) as info:
        parse(kind, payload, key)
    reason = str(info.value)
    assert reason and "\n" not in reason and len(reason) < 300
    return reason


# ------------------------------------------------------------------ any payload
@pytest.mark.parametrize("kind,key", [("director", None), ("table", "3"), ("time", "t"),
                                      ("presence", "t")])
@pytest.mark.parametrize("payload,words", [
    (b"not json", "not JSON"),
    (b"\xff\xfe{}", "not JSON"),
    (b"[1, 2]", "JSON object, got list"),
    (b'"text"', "JSON object, got str"),
    (b"{}", "schema version must be 1, got None"),
    (b'{"v": 2}', "schema version must be 1, got 2"),
    (b'{"v": "1"}', "schema version"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b'{"v": 1, "x": "' + b"a" * protocol.MAX_PAYLOAD + b'"}', "larger than 16384"),
])
def test_any_malformed_payload_is_rejected_with_a_reason(kind, key, payload, words):
    assert words in rejected(kind, payload, key)


def test_unknown_kind_is_rejected():
    assert "no messages are accepted" in rejected("state", raw({"v": 1}))


# ---------------------------------------------------------------- director command
def director(**fields: Any) -> bytes:
    return raw({**ENVELOPE, "reply_to": "director-1", "cmd": "status", **fields})


@pytest.mark.parametrize("cmd", protocol.DIRECTOR_COMMANDS)
def test_every_director_command_is_accepted(cmd):
    data = parse("director", director(cmd=cmd, args={}))
    assert data["cmd"] == cmd


def test_director_args_may_be_left_out():
    assert "args" not in parse("director", director())


@pytest.mark.parametrize("fields,words", [
    ({"id": None}, "'id' must be"),
    ({"id": ""}, "'id' must be"),
    ({"id": 7}, "'id' must be"),
    ({"id": "a" * 65}, "'id' must be"),
    ({"id": "has space"}, "'id' must be"),
    ({"id": "line\n"}, "'id' must be"),
    ({"reply_to": None}, "'reply_to' must be"),
    ({"reply_to": "a/b"}, "'reply_to' must be"),
    ({"reply_to": "+"}, "'reply_to' must be"),
    ({"reply_to": "x\n"}, "'reply_to' must be"),
    ({"cmd": "tick"}, "unknown command 'tick'"),
    ({"cmd": None}, "unknown command None"),
    ({"args": [1]}, "'args' must be a JSON object"),
    ({"args": {"cmd": "tick"}}, "must not contain 'cmd'"),
    ({"args": {"id": "x"}}, "must not contain 'cmd' or 'id'"),
    ({"extra": 1}, "unknown field(s) extra"),
])
def test_malformed_director_commands_are_rejected(fields, words):
    assert words in rejected("director", director(**fields))


def test_the_envelope_is_checked_before_the_command():
    # a rejection can only be answered when id and reply_to are readable
    assert "'id'" in rejected("director", raw({"v": 1, "cmd": "nope"}))


# ------------------------------------------------------------------- table command
def table(**fields: Any) -> bytes:
    return raw({**ENVELOPE, **fields})


@pytest.mark.parametrize("action,fields", [
    ("bust", {"seat": 4}), ("bust", {"seat": 4, "stack": 2500}),
    ("bust", {"seat": 4, "stack": None}),
    ("bust", {"seat": 4, "same_hand": True}), ("bust", {"seat": 4, "confirm": True}),
    ("bust", {"seat": 4, "stack": 900, "same_hand": False, "confirm": False}),
    ("time", {}), ("time", {"seat": 3}), ("time_cancel", {}), ("time_expire", {}),
    ("hand_done", {}), ("seated", {}), ("undo", {}),
])
def test_every_table_action_is_accepted(action, fields):
    data = parse("table", table(action=action, **fields), "3")
    assert data["action"] == action


@pytest.mark.parametrize("key", ["1", "999", "1000", "9999"])
def test_a_festival_s_table_numbers_are_accepted(key):
    """1,000 tables and more (issue 15): up to :data:`commands.MAX_TABLES`."""
    assert parse("table", table(action="hand_done"), key)["action"] == "hand_done"


@pytest.mark.parametrize("key", [None, "", "x", "0", "10000", "-1", "1.5", "³", "٣", "3\n", " 3"])
def test_a_bad_table_in_the_topic_is_rejected(key):
    assert "table in the topic" in rejected("table", table(action="undo"), key)


@pytest.mark.parametrize("fields,words", [
    ({"action": "fold"}, "'action' must be one of bust, time"),
    ({}, "'action' must be one of"),
    ({"action": "bust"}, "'seat' must be a whole number from 1 to 99, got None"),
    ({"action": "bust", "seat": 0}, "'seat' must be a whole number from 1 to 99, got 0"),
    ({"action": "bust", "seat": 100}, "got 100"),
    ({"action": "bust", "seat": True}, "got True"),
    ({"action": "bust", "seat": "4"}, "got '4'"),
    ({"action": "bust", "seat": 4.0}, "got 4.0"),
    ({"action": "bust", "seat": 4, "stack": -1}, "'stack' must be a whole number"),
    ({"action": "bust", "seat": 4, "stack": False}, "'stack'"),
    ({"action": "undo", "seat": 4, "why": 1}, "unknown field(s) why"),
    ({"action": "bust", "seat": 4, "same_hand": "yes"}, "'same_hand' must be true or false"),
    ({"action": "bust", "seat": 4, "confirm": 1}, "'confirm' must be true or false"),
    ({"action": "hand_done", "same_hand": True}, "'same_hand' belongs to a bust"),
    ({"action": "time", "confirm": True}, "'confirm' belongs to a bust"),
    ({"action": "undo", "id": "a b"}, "'id' must be"),
])
def test_malformed_table_commands_are_rejected(fields, words):
    assert words in rejected("table", table(**fields), "3")


# -------------------------------------------------------------------- time request
@pytest.mark.parametrize("data", [{"v": 1, "id": 1, "t0": 5123.25}, {"v": 1, "id": "a", "t0": 0}])
def test_time_requests_are_accepted(data):
    assert parse("time", raw(data))["t0"] == data["t0"]


@pytest.mark.parametrize("data,words", [
    ({"v": 1, "t0": 1.0}, "'id' must be a string or a number"),
    ({"v": 1, "id": True, "t0": 1.0}, "'id' must be"),
    ({"v": 1, "id": [1], "t0": 1.0}, "'id' must be"),
    ({"v": 1, "id": 1}, "'t0' must be a number, got None"),
    ({"v": 1, "id": 1, "t0": "1"}, "'t0' must be a number"),
    ({"v": 1, "id": 1, "t0": True}, "'t0' must be a number"),
    ({"v": 1, "id": 1, "t0": 1e13}, "'t0' must be a number"),
])
def test_malformed_time_requests_are_rejected(data, words):
    assert words in rejected("time", raw(data))


@pytest.mark.parametrize("kind,key", [("director", None), ("table", "3"), ("time", "t"),
                                      ("presence", "t")])
@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e400"])
def test_numbers_json_does_not_have_are_rejected(kind, key, number):
    # Python's json reads them; a NaN in "time add" once skipped a level
    assert "not JSON" in rejected(kind, b'{"v": 1, "x": ' + number + b"}", key)


def test_a_nan_time_add_never_reaches_the_engine():
    payload = (b'{"v": 1, "id": "c", "reply_to": "d", "cmd": "time",'
               b' "args": {"op": "add", "seconds": NaN}}')
    assert "NaN is not a number JSON allows" in rejected("director", payload)


# ------------------------------------------------------------------------ presence
@pytest.mark.parametrize("data", [
    {"v": 1, "online": True, "role": "table", "table": 3},
    {"v": 1, "online": False, "role": "wall", "table": None},
    {"v": 1, "online": True, "role": "wall"},
    {"v": 1, "online": True, "role": "director"},
    {"v": 1, "online": False, "role": "controller"},
])
def test_presence_is_accepted(data):
    assert parse("presence", raw(data))["online"] is data["online"]


def test_an_empty_presence_is_a_cleared_retained_message():
    assert parse("presence", b"") == {"v": 1, "online": False, "role": "unknown"}


@pytest.mark.parametrize("data,words", [
    ({"v": 1, "role": "table"}, "'online' must be true or false"),
    ({"v": 1, "online": 1, "role": "table"}, "'online' must be true or false"),
    ({"v": 1, "online": True}, "'role' must be table, wall, director or controller"),
    ({"v": 1, "online": True, "role": "kiosk"}, "'role' must be"),
    ({"v": 1, "online": True, "role": "table", "table": 0}, "'table' must be a whole number"),
    ({"v": 1, "online": True, "role": "table", "table": "3"}, "'table' must be"),
])
def test_malformed_presence_is_rejected(data, words):
    assert words in rejected("presence", raw(data))


# ------------------------------------------------ nothing but ProtocolError, ever
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
_fields = st.sampled_from(["v", "id", "reply_to", "cmd", "args", "action", "seat", "stack",
                           "t0", "online", "role", "table"])


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["director", "table", "time", "presence"]),
       key=st.none() | st.text(max_size=5),
       data=st.dictionaries(_fields, _json, max_size=8))
def test_any_object_is_accepted_or_rejected_with_a_protocol_error(kind, key, data):
    try:
        parse(kind, json.dumps(data), key)
    except ProtocolError as exc:
        assert str(exc)


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["director", "table", "time", "presence"]),
       payload=st.binary(max_size=64))
def test_any_bytes_are_accepted_or_rejected_with_a_protocol_error(kind, payload):
    try:
        parse(kind, payload, "3")
    except ProtocolError:
        pass


# -------------------------------------------------------------------- Topics
@pytest.mark.parametrize("topic,expected", [
    ("floorman/psc/cmd/director", ("director", None)),
    ("floorman/psc/cmd/table/3", ("table", "3")),
    ("floorman/psc/cmd/table/x", ("table", "x")),  # classified; parse_table_command rejects it
    ("floorman/psc/time/request/table-1", ("time", "table-1")),
    ("floorman/psc/presence/wall-1", ("presence", "wall-1")),
    ("floorman/psc/presence/controller", ("presence", "controller")),
    ("floorman/psc/state/clock", ("unknown", None)),
    ("floorman/psc/ack/table-1", ("unknown", None)),
    ("floorman/psc/time/response/table-1", ("unknown", None)),
    ("floorman/psc/cmd/table/3/extra", ("unknown", None)),
    ("floorman/psc/cmd/director/x", ("unknown", None)),
    ("floorman/psc/presence/a/b", ("unknown", None)),
    ("floorman/psc/cmd", ("unknown", None)),
    ("floorman/other/cmd/director", ("unknown", None)),
    ("floorman/pscX/cmd/director", ("unknown", None)),
    ("floorman/psc", ("unknown", None)),
    ("cmd/director", ("unknown", None)),
])
def test_classify(topic, expected):
    assert Topics("floorman/psc").classify(topic) == expected


def test_topics_are_built_under_the_prefix():
    t = Topics("club/evening")
    assert t.state("clock") == "club/evening/state/clock"
    assert t.table_state(3) == "club/evening/state/table/3"
    assert t.director == "club/evening/cmd/director"
    assert t.table_cmd(3) == "club/evening/cmd/table/3"
    assert t.ack("table-3") == "club/evening/ack/table-3"
    assert t.time_request("k") == "club/evening/time/request/k"
    assert t.time_response("k") == "club/evening/time/response/k"
    assert t.presence("k") == "club/evening/presence/k"
    assert Topics().prefix == protocol.DEFAULT_PREFIX
    for topic in (t.director, t.table_cmd(3), t.time_request("k"), t.presence("k")):
        assert t.classify(topic)[0] != "unknown"


# ---------------------------------------------------------- outbound schemas
LEVEL = {"index": 0, "number": 1, "is_break": False, "seconds": 1080, "small_blind": 50,
         "big_blind": 100, "ante": 0, "ante_type": "standard", "note": ""}
CLOCK = {"v": 1, "level": 0, "running": True, "started": True, "ends_at": 1760037840.0,
         "remaining": None, "halved": False, "current": LEVEL, "next": None,
         "break_at": None, "break_in": None}


def state_error(name: str, payload: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as info:
        protocol.validate_state(name, payload)
    return str(info.value)


def test_a_valid_clock_passes():
    assert protocol.validate_state("clock", CLOCK) is CLOCK
    assert protocol.validate_state("clock", dumps(CLOCK)) == CLOCK


@pytest.mark.parametrize("change,words", [
    ({"v": 2}, "state/clock.v must be one of 1, got 2"),
    ({"level": True}, "state/clock.level must be a whole number, got true"),
    ({"level": 1.5}, "state/clock.level must be a whole number"),
    ({"ends_at": "soon"}, "state/clock.ends_at must be a number or null"),
    ({"ends_at": float("nan")}, "state/clock.ends_at must be a number or null"),
    ({"ends_at": float("inf")}, "state/clock.ends_at"),
    ({"running": 1}, "state/clock.running must be true or false, got 1"),
    ({"extra": 1}, "state/clock has unknown key(s) 'extra'"),
    ({"current": {**LEVEL, "ante_type": "button"}}, "state/clock.current.ante_type must be one of"),
    ({"next": {**LEVEL, "seconds": "x"}}, "state/clock.next.seconds"),
])
def test_a_broken_clock_is_rejected_with_the_path(change, words):
    assert words in state_error("clock", {**CLOCK, **change})


def test_a_missing_key_is_named():
    data = dict(CLOCK)
    del data["halved"]
    assert state_error("clock", data) == "state/clock lacks 'halved'"


def test_state_names():
    assert "not a state topic" in state_error("clocks", CLOCK)
    assert "not a state topic" in state_error("clock/1", CLOCK)
    assert "ends in its number" in state_error("table/x", CLOCK)
    gone = {"v": 1, "table": 3, "in_play": False, "broken": True, "final_table": None,
            "moves_out": [], "seats": []}
    assert protocol.validate_state("table/3", gone)
    assert state_error("table/4", gone) == "state/table/4 carries table 3"
    assert "state/table/3.seats[0] must be null" in state_error("table/3", {**gone, "seats": [1]})


def test_results_rows_have_one_of_two_shapes():
    row = {"place": 1, "player_id": 7, "name": "Felix Schulz", "points": 18.0, "knockouts": 0,
           "knockout_points": 0, "bounty_hits": 0, "prize": None, "member": True}
    ok = {"v": 1, "finished": True, "rows": [row, {"place": 2, "name": "Anna S."}],
          "disqualified": [{"player_id": 9, "name": "Tom W.", "reason": "collusion"}]}
    assert protocol.validate_state("results", ok)
    broken = {"v": 1, "finished": True, "rows": [{**row, "points": "18"}], "disqualified": []}
    assert "rows[0]" in state_error("results", broken)


def test_presence_state_is_a_map_of_clients():
    ok = {"v": 1, "clients": {"table-1": {"online": True, "role": "table", "table": 1},
                              "x": {"online": False, "role": "unknown", "table": None}}}
    assert protocol.validate_state("presence", ok)
    bad = {"v": 1, "clients": {"table-1": {"online": "yes", "role": "table", "table": 1}}}
    assert "state/presence.clients['table-1'].online" in state_error("presence", bad)


@pytest.mark.parametrize("ack", [
    {"v": 1, "id": "a", "ok": True, "events": [3, 4], "message": "clock start"},
    {"v": 1, "id": "a", "ok": True, "events": [], "message": "ok"},
    {"v": 1, "id": "a", "ok": False, "reason": "seat 1 at table 2 is empty"},
    {"v": 1, "id": "a", "ok": True, "message": "results",
     "result": {"v": 1, "finished": False, "rows": [], "disqualified": []}},
])
def test_valid_acks(ack):
    assert protocol.validate_ack(ack) is ack


@pytest.mark.parametrize("ack,words", [
    ({"v": 1, "id": "a", "ok": True, "events": [3]}, "ack lacks 'message'"),
    ({"v": 1, "id": "a", "ok": False}, "ack lacks 'reason'"),
    ({"v": 1, "id": "a", "ok": False, "reason": "x", "events": []}, "unknown key(s) 'events'"),
    ({"v": 1, "id": 5, "ok": True, "events": [], "message": "m"}, "ack.id must be text"),
    ({"v": 1, "id": "a", "ok": "yes", "events": [], "message": "m"}, "ack.ok"),
    ({"v": 1, "id": "a", "ok": True, "events": ["3"], "message": "m"}, "ack.events[0]"),
    ({"v": 1, "id": "a", "ok": True, "result": {"rows": []}, "message": "m"}, "ack.result"),
])
def test_broken_acks(ack, words):
    with pytest.raises(ProtocolError) as info:
        protocol.validate_ack(ack)
    assert words in str(info.value)


def test_time_response():
    ok = {"v": 1, "id": 1, "t0": 5123.25, "t1": 1760039846.5017, "t2": 1760039846.5019}
    assert protocol.validate_time_response(ok) is ok
    with pytest.raises(ProtocolError, match="t2 .* before t1"):
        protocol.validate_time_response({**ok, "t2": 1760039846.0})
    with pytest.raises(ProtocolError, match="lacks 't1'"):
        protocol.validate_time_response({"v": 1, "id": 1, "t0": 1.0, "t2": 2.0})


# ------------------------------------------------------------- director args
def test_director_args_cover_every_command():
    assert set(protocol.DIRECTOR_ARGS) == set(protocol.DIRECTOR_COMMANDS)


@pytest.mark.parametrize("cmd", [c for c in protocol.DIRECTOR_COMMANDS
                                 if c not in protocol.READ_ONLY])
def test_director_args_match_the_engine(cmd):
    """The documented arguments are exactly the engine command's fields, and a rule runs it."""
    from controller.engine.rules import COMMANDS

    cls = commands.BY_NAME[cmd]
    assert cls in COMMANDS
    fields = {k: f for k, f in cls.model_fields.items() if k != "cmd"}
    documented = protocol.DIRECTOR_ARGS[cmd]
    assert set(documented) == set(fields)
    for name, (_, required) in documented.items():
        # names of bust are each optional: table+seat or player
        assert required == fields[name].is_required(), name


@pytest.mark.parametrize("cmd,args,words", [
    ("level", {"to": "last"},
     "level: to must be one of next or prev or a whole number, got 'last'"),
    ("time", {"op": "add", "seconds": "60"}, "seconds must be a number, got '60'"),
    ("bust", {"table": 1, "seet": 2},
     "unknown argument 'seet' (did you mean 'seat'? bust takes table, seat"),
    ("hfh", {}, "bad arguments for hfh: on is missing"),
    ("register", {"names": [1]}, "names.0 must be text, got 1"),
    ("status", {"x": 1}, "status takes none"),
    ("nope", {}, "unknown command 'nope'"),
])
def test_bad_director_args_are_named(cmd, args, words):
    with pytest.raises(ProtocolError) as info:
        protocol.validate_director_args(cmd, args)
    assert words in str(info.value)


def test_director_args_accept_the_cli_forms():
    for cmd, args in [("register", {"names": ["A B"], "member": False}),
                      ("register", {"names": "A B"}), ("level", {"to": 7}),
                      ("level", {"to": "next"}), ("time", {"op": "add", "seconds": -90.0}),
                      ("bust", {"player": "Lea Fischer", "by": 3}), ("undo", {}),
                      ("time_call", {"table": 2, "op": "cancel"})]:
        protocol.validate_director_args(cmd, args)


# --------------------------------------------------------- validate_example
@pytest.mark.parametrize("kind,payload", [
    ("cmd/director", {**ENVELOPE, "cmd": "level", "args": {"to": "next"}}),
    ("director", {**ENVELOPE, "cmd": "status"}),
    ("cmd/table/3", {**ENVELOPE, "action": "bust", "seat": 2}),
    ("table/3", {**ENVELOPE, "action": "undo"}),
    ("time/request/table-3", {"v": 1, "id": 1, "t0": 1.5}),
    ("time", {"v": 1, "id": 1, "t0": 1.5}),
    ("time/response/table-3", {"v": 1, "id": 1, "t0": 1.5, "t1": 2.0, "t2": 2.0}),
    ("presence/table-3", {"v": 1, "online": True, "role": "table", "table": 3}),
    ("presence", {"v": 1, "online": True, "role": "table", "table": 3}),
    ("ack/table-3", {"v": 1, "id": "a", "ok": False, "reason": "no"}),
    ("state/clock", CLOCK),
])
def test_validate_example_dispatches_by_kind(kind, payload):
    assert protocol.validate_example(kind, payload)
    assert protocol.validate_example(kind, dumps(payload))


@pytest.mark.parametrize("kind,payload,words", [
    ("cmd/director", {**ENVELOPE, "cmd": "level", "args": {"to": "last"}}, "to must be one of"),
    ("cmd/table/x", {**ENVELOPE, "action": "undo"}, "table in the topic"),
    ("state/table/3", CLOCK, "state/table/3"),
    ("results", {"v": 1}, "no payload kind 'results'"),
    ("cmd/other", {}, "no payload kind"),
])
def test_validate_example_rejects(kind, payload, words):
    with pytest.raises(ProtocolError) as info:
        protocol.validate_example(kind, payload)
    assert words in str(info.value)


@pytest.mark.parametrize("kind,family", [
    ("state/clock", "state/clock"), ("state/table/12", "state/table/<n>"),
    ("cmd/director", "cmd/director"), ("cmd/table/3", "cmd/table/<n>"),
    ("ack/table-3", "ack/<client>"), ("time/request/x", "time/request/<client>"),
    ("time/response/x", "time/response/<client>"), ("presence/wall-1", "presence/<client>"),
])
def test_example_family(kind, family):
    assert protocol.example_family(kind) == family
    assert family in protocol.EXAMPLE_KINDS


# ------------------------------------------------------------ one definition each
@pytest.mark.parametrize("prefix", ["floor/a\n", "floor/#", "floor//a", "/floor", "a b", ""])
def test_a_bad_prefix_is_refused_by_the_file_check_and_by_broker_config(prefix, tmp_path):
    from controller.broker.accounts import write
    from controller.config import ConfigError, load_tournament_text

    assert not protocol.valid_prefix(prefix)
    text = ("name: X\nstart_stack: 1000\nstructure:\n  - {minutes: 10, blinds: 25/50}\n"
            f"broker:\n  prefix: {json.dumps(prefix)}\n")
    with pytest.raises(ConfigError, match="broker.prefix"):
        load_tournament_text(text)
    with pytest.raises(ValueError):
        write(tmp_path / "broker", 2, prefix=prefix)


def test_the_points_systems_are_listed_once():
    from controller.config import POINTS_SYSTEMS
    from controller.engine.points import SYSTEMS

    assert POINTS_SYSTEMS is SYSTEMS
