"""Drill 4, bad input: a fuzzer throws malformed, oversized, wrongly typed and
out-of-range payloads at every inbound topic of a running controller, and mutated
tournament files at ``floorman check`` and at the controller's start.

Every message is broken on purpose (a valid command would rightly change the state).
For each one:

- the controller process is still alive;
- a command whose ``id`` and ``reply_to`` can be read is answered with ``ok: false``
  and a reason (a table's on ``ack/table-N``); anything else (no envelope, an
  oversized payload, which is dropped unread, a clock-sync request, presence, a topic
  nobody serves) gets a log line that names the topic, and a broken clock-sync request
  never gets a response;

and at the end nothing changed: the status, the stored events (and their replay's
fingerprint) and every retained state topic are what they were before.

Tournament files: ``floorman check`` (``controller.config.main_check``) prints OK or
every problem, never raises; a file it rejects makes ``floorman controller`` exit
non-zero with the file's name in its message and no traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import threading
import time
import uuid
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import load_tournament, main_check
from controller.engine.tournament import Tournament
from controller.wire import protocol
from controller.wire.mqtt import Broker
from kiosk.view import tables_in_play
from tests.support import drill as dr
from tests.support.controller import director, floorman_cli, wait_up
from tests.support.eventlog import read_log
from tests.support.mqtt import raw_client
from tests.support.paths import ROOT
from tests.support.waiting import wait_for

CLIENT = "fuzzer"
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}\Z")
_CLIENT = re.compile(r"^[A-Za-z0-9_.-]{1,64}\Z")
_PRESET_LINE = re.compile(r"^\S+\.yaml(:\d+)?: ")

junk = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
    st.text(max_size=12), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.sampled_from(["", "1", "3", "next", "add", "start", "Player 001", "-1", "1e999"]))
bad_ids = st.one_of(st.just(""), st.text(alphabet="ab", min_size=65, max_size=70),
                    st.sampled_from(["a b", "é", "x/y", "#", "+", "a\nb", "ä" * 3]),
                    st.integers(), st.none(), st.booleans(), st.lists(st.integers(), max_size=2))
bad_clients = st.one_of(bad_ids, st.sampled_from(["a:b", "a b", "x/y"]))
bad_versions = st.sampled_from([0, 2, "1", None, [1], {"v": 1}, -1, 1.5])


def fits(value: Any, spec: Any) -> bool:
    try:
        protocol._check(value, spec, "x")
    except protocol.ProtocolError:
        return False
    return True


def new_id() -> str:
    return "fz-" + uuid.uuid4().hex[:16]


# ----------------------------------------------------------------- message strategies
# each returns (kind, topic suffix, payload bytes, what was broken)

ENVELOPE_DEFECTS = ("v", "no_v", "id", "no_id", "reply_to", "no_reply_to", "extra")
BYTE_DEFECTS = ("truncate", "garbage", "not_object", "nan", "huge_number", "oversize",
                "deep", "bad_utf8", "surrogate", "empty")


def envelope_defect(draw, msg: dict[str, Any], defect: str,
                    extra: tuple[str, ...] = ("table", "sudo", "x", "cmd", "args", "V")) -> None:
    if defect == "v":
        msg["v"] = draw(bad_versions)
    elif defect == "no_v":
        msg.pop("v", None)
    elif defect == "id":
        msg["id"] = draw(bad_ids)
    elif defect == "no_id":
        msg.pop("id", None)
    elif defect == "reply_to":
        msg["reply_to"] = draw(bad_clients)
    elif defect == "no_reply_to":
        msg.pop("reply_to", None)
    elif defect == "extra":
        msg[draw(st.sampled_from(extra))] = draw(junk)


def to_bytes(draw, msg: Any, defect: str | None) -> bytes:
    raw = json.dumps(msg, ensure_ascii=False).encode()
    if defect is None:
        return raw
    if defect == "truncate":  # (not to nothing: an empty presence message is valid)
        return raw[:draw(st.integers(1, max(1, len(raw) - 1)))]
    if defect == "garbage":
        return draw(st.binary(min_size=1, max_size=64))
    if defect == "not_object":
        return json.dumps(draw(st.one_of(st.lists(junk, max_size=3), junk))).encode()
    if defect == "nan":
        key = draw(st.sampled_from(sorted(msg) or ["v"]))
        msg = {**msg, key: "@@"}
        return json.dumps(msg).encode().replace(b'"@@"', draw(st.sampled_from(
            [b"NaN", b"Infinity", b"-Infinity"])))
    if defect == "huge_number":
        # (a clock-sync request's id may be any number: it is only echoed to the asker)
        key = draw(st.sampled_from(sorted(k for k in msg if "t0" not in msg or k != "id")
                                   or ["v"]))
        msg = {**msg, key: "@@"}
        return json.dumps(msg).encode().replace(b'"@@"', draw(st.sampled_from(
            [b"1e400", b"-1e400", b"9" * 500, b"1" + b"0" * 5000])))
    if defect == "oversize":
        return json.dumps({**msg, "pad": "x" * draw(st.sampled_from(
            [protocol.MAX_PAYLOAD, 100_000, 300_000]))}).encode()
    if defect == "deep":
        depth = draw(st.sampled_from([2_000, 50_000]))
        return raw[:-1] + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"
    if defect == "bad_utf8":
        i = draw(st.integers(0, len(raw)))
        return raw[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) \
            + raw[i:]
    if defect == "surrogate":  # "\ud800": valid JSON, but no text
        key = draw(st.sampled_from(sorted(msg) or ["v"]))
        return json.dumps({**msg, key: f"Fuzz {chr(draw(st.integers(0xD800, 0xDFFF)))} "
                                        f"{msg.get(key, '')}"}).encode()
    if defect == "empty":
        return b""
    raise AssertionError(defect)


@st.composite
def table_messages(draw, tables: list[int], sizes: dict[int, int]):
    table = draw(st.sampled_from(tables))
    action = draw(st.sampled_from(protocol.TABLE_ACTIONS))
    msg: dict[str, Any] = {"v": 1, "id": new_id(), "reply_to": CLIENT, "action": action}
    if action == "bust":
        msg["seat"] = draw(st.integers(1, sizes[table]))
    topic = str(table)
    defects = ["topic", "action", *ENVELOPE_DEFECTS, *BYTE_DEFECTS, "engine"]
    if action == "bust":
        defects += ["seat", "seat_engine", "stack"]
    defect = draw(st.sampled_from(defects))
    if defect == "topic":
        topic = draw(st.sampled_from(["0", "10000", "abc", "-1", "1.0", "٣", "²", "1 ", "500",
                                      "99"]))  # 500, 99: numbers of tables not in play
    elif defect == "action":
        msg["action"] = draw(junk.filter(lambda a: a not in protocol.TABLE_ACTIONS))
    elif defect == "seat":
        msg["seat"] = draw(junk.filter(lambda s: not fits(s, int) or not 1 <= s <= 99))
    elif defect == "seat_engine":  # a seat the table does not have
        msg["seat"] = draw(st.integers(sizes[table] + 1, 99))
    elif defect == "stack":
        msg["stack"] = draw(junk.filter(
            lambda s: s is not None and (not fits(s, int) or not 0 <= s <= 10**12)))
    elif defect == "engine":  # possible commands the state rejects (no time call running)
        msg = {k: v for k, v in msg.items() if k != "seat"}
        msg["action"] = draw(st.sampled_from(["time_cancel", "time_expire", "undo"]))
    elif defect in ENVELOPE_DEFECTS:
        envelope_defect(draw, msg, defect)
    return "table", f"cmd/table/{topic}", to_bytes(draw, msg, defect if defect in BYTE_DEFECTS
                                                   else None), defect


#: director commands the tournament in this drill rejects whatever their arguments
#: (drawn, clock running, freeze-out, 45 players)
REJECTED_AS_IS = {
    "draw": {}, "start": {}, "resume": {}, "addon": {}, "final_table": {},
    "hfh": {"on": False}, "move_apply": {}, "level": {"to": "prev"},
    "undo": {"target": 1}, "rebuy": {"player": "Player 001"},
    "reentry": {"player": "Player 001"}, "seated": {"player": "Player 001"},
    "break_table": {"table": 500}, "hands_left": {"count": 51},
    "time_call": {"table": 1, "op": "cancel"}, "bust": {"table": 1, "seat": 99},
    "register": {"names": ["Player 001"]}, "late": {"name": "Player 002"},
    "time": {"op": "add", "seconds": 86401}, "hand_done": {"table": 500},
    "pause": {"bogus": 1},
}
#: valid arguments for every engine command (to break one at a time)
VALID_ARGS = {
    "register": {"names": ["Fuzz Newcomer"], "member": True}, "late": {"name": "Fuzz Late"},
    "draw": {"seed": 5}, "level": {"to": "next"}, "time": {"op": "add", "seconds": 60.0},
    "bust": {"table": 1, "seat": 1, "stack": 1000}, "undo": {}, "hfh": {"on": True},
    "time_call": {"table": 1, "op": "start", "seat": 1}, "hand_done": {"table": 1},
    "hands_left": {"count": 3}, "break_table": {"table": 1}, "rebuy": {"player": 1},
    "reentry": {"player": 1}, "seated": {"player": 1}, "pause": {}, "start": {},
    "resume": {}, "addon": {}, "move_apply": {}, "final_table": {},
}


@st.composite
def director_messages(draw):
    cmd = draw(st.sampled_from(sorted(REJECTED_AS_IS)))
    msg: dict[str, Any] = {"v": 1, "id": new_id(), "reply_to": CLIENT, "cmd": cmd,
                           "args": dict(REJECTED_AS_IS[cmd])}
    defect = draw(st.sampled_from(["as_is", "cmd", "args_type", "args_reserved", "arg_type",
                                   "arg_unknown", "arg_missing", *ENVELOPE_DEFECTS,
                                   *BYTE_DEFECTS]))
    spec = protocol.DIRECTOR_ARGS.get(cmd, {})
    if defect == "cmd":
        msg["cmd"] = draw(junk.filter(lambda c: c not in protocol.DIRECTOR_COMMANDS))
    elif defect == "args_type":
        msg["args"] = draw(junk.filter(lambda a: not isinstance(a, dict)))
    elif defect == "args_reserved":
        msg["args"][draw(st.sampled_from(["cmd", "id"]))] = draw(junk)
    elif defect == "arg_type" and spec:
        # every other argument valid: the one of the wrong type must be enough
        key = draw(st.sampled_from(sorted(spec)))
        want, required = spec[key]
        # null for an optional argument means "not given", and 3.0 is the number 3
        msg["args"] = {**VALID_ARGS[cmd], key: draw(junk.filter(
            lambda v: not fits(v, want) and not (v is None and not required)
            and not (isinstance(v, float) and v.is_integer())))}
    elif defect == "arg_unknown":
        msg["args"] = {**VALID_ARGS[cmd], draw(st.sampled_from(["bogus", "Table", "force_it",
                                                               "when"])): draw(junk)}
    elif defect == "arg_missing" and any(req for _, req in spec.values()):
        msg["args"] = {k: v for k, v in VALID_ARGS[cmd].items() if not spec[k][1]}
    elif defect in ENVELOPE_DEFECTS:
        envelope_defect(draw, msg, defect, ("table", "sudo", "x", "action", "seat", "V"))
    else:
        defect = "as_is" if defect not in BYTE_DEFECTS else defect
    return "director", "cmd/director", to_bytes(draw, msg, defect if defect in BYTE_DEFECTS
                                                else None), f"{defect}:{cmd}"


@st.composite
def time_messages(draw):
    msg: dict[str, Any] = {"v": 1, "id": draw(st.one_of(st.integers(0, 99), st.text(
        max_size=5))), "t0": draw(st.floats(0, 1e9))}
    defect = draw(st.sampled_from(["v", "no_v", "id", "no_id", "t0", "no_t0",
                                   *[d for d in BYTE_DEFECTS if d != "empty"]]))
    if defect == "v":
        msg["v"] = draw(bad_versions)
    elif defect in ("no_v", "no_id", "no_t0"):
        msg.pop(defect[3:])
    elif defect == "id":
        msg["id"] = draw(junk.filter(lambda i: not isinstance(i, (str, int))
                                     or isinstance(i, bool)))
    elif defect == "t0":
        msg["t0"] = draw(junk.filter(lambda t: not fits(t, float) or abs(t) > 1e12))
    client = draw(st.sampled_from(["fz-time", "fz-time-2"]))
    return "time", f"time/request/{client}", to_bytes(
        draw, msg, defect if defect in BYTE_DEFECTS else None), defect


@st.composite
def presence_messages(draw):
    msg: dict[str, Any] = {"v": 1, "online": True, "role": "table", "table": 3}
    defect = draw(st.sampled_from(["v", "online", "role", "table",
                                   *[d for d in BYTE_DEFECTS if d != "empty"]]))
    if defect == "v":
        msg["v"] = draw(bad_versions)
    elif defect == "online":
        msg["online"] = draw(junk.filter(lambda o: not isinstance(o, bool)))
    elif defect == "role":
        msg["role"] = draw(junk.filter(lambda r: r not in ("table", "wall", "director",
                                                           "controller")))
    elif defect == "table":
        msg["table"] = draw(junk.filter(lambda t: t is not None and (
            not fits(t, int) or not 1 <= t <= 9999)))
    client = draw(st.sampled_from(["fz-kiosk", "fz-wall"]))
    return "presence", f"presence/{client}", to_bytes(
        draw, msg, defect if defect in BYTE_DEFECTS else None), defect


@st.composite
def unknown_topic_messages(draw):
    msg = {"v": 1, "id": new_id(), "reply_to": CLIENT, "action": "hand_done"}
    topic = draw(st.sampled_from(["cmd", "cmd/x", "cmd/table", "cmd/table/1/2",
                                  "cmd/director/x", "cmd/Director", "cmd/tables/1",
                                  "cmd/table//1"]))
    return "unknown", topic, to_bytes(draw, msg, None), "topic"


class LogTail:
    """The complete lines a process wrote to its log since the last call."""

    def __init__(self, path) -> None:
        self.path = path
        self.pos = 0

    def lines(self) -> list[str]:
        with open(self.path, "rb") as f:
            f.seek(self.pos)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.pos += end
        return data[:end].decode(errors="replace").splitlines()


def envelope_readable(payload: bytes) -> bool:
    """The rule of the contract: an id and a reply_to can be read from the payload."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return False
    return (isinstance(data, dict) and isinstance(data.get("id"), str)
            and isinstance(data.get("reply_to"), str) and bool(_ID.match(data["id"]))
            and bool(_CLIENT.match(data["reply_to"])))


def test_bad_input(broker, prefix, controllers, report, tmp_path):
    messages = dr.scale(300, 3000)
    config = dr.write_tournament(tmp_path / "bad-input.yaml", "Drill: bad input")
    settings_ = load_tournament(config)
    b = Broker.from_env(broker.address, prefix)
    ctrl = controllers(config)
    ctrl.start()
    wait_up(b)
    director(b, "register", {"names": dr.names(45)})
    director(b, "draw")
    director(b, "start")
    before = dr.retained(b)
    status_before = wait_up(b)
    log_before = read_log(ctrl.db)
    tables = tables_in_play(before)
    sizes = {n: before[f"table/{n}"]["size"] for n in tables}

    acks: dict[str, dict[str, Any]] = {}
    responses: list[str] = []
    cond = threading.Condition()

    def on_message(c, u, msg) -> None:
        with cond:
            if "/time/response/" in msg.topic:
                responses.append(msg.topic)
            else:
                data = json.loads(msg.payload)
                acks[data["id"]] = data
            cond.notify_all()

    fz = raw_client(broker.address, CLIENT)
    # every ack: a table's answers go to ack/table-N whatever reply_to says
    # (controller/service/inbound.py, answer_to)
    fz.on_connect = lambda c, u, f, rc, p=None: c.subscribe(
        [(f"{prefix}/ack/#", 1), (f"{prefix}/time/response/#", 0)])
    fz.on_message = on_message
    fz.loop_start()
    wait_for(fz.is_connected, 10, "the fuzzer connected")
    time.sleep(0.2)

    tried: Counter[str] = Counter()
    answered = Counter()
    logged = Counter()
    failures: list[str] = []

    tail = LogTail(ctrl.log)
    tail.lines()

    every = st.one_of(table_messages(tables, sizes), director_messages(), time_messages(),
                      presence_messages(), unknown_topic_messages())

    @settings(max_examples=messages, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(every)
    def fuzz(message) -> None:
        kind, suffix, payload, defect = message
        topic = f"{prefix}/{suffix}"
        tried[kind] += 1
        fz.publish(topic, payload, 1).wait_for_publish(10)
        # an oversized payload is dropped unread: nobody to answer (docs/security.md)
        cid = json.loads(payload)["id"] if kind in ("table", "director", "presence") \
            and len(payload) <= protocol.MAX_PAYLOAD and envelope_readable(payload) else None
        if cid is not None:
            with cond:
                ok = cond.wait_for(lambda: cid in acks, 10)
            ack = acks.get(cid)
            if not ok or ack is None or ack.get("ok") is not False or not ack.get("reason"):
                failures.append(f"{kind} {defect}: {payload[:200]!r} -> {ack}")
            else:
                answered[kind] += 1
        else:
            needles = (f" on {topic}: ", f"unknown topic {topic} ignored")
            deadline = time.monotonic() + 10
            while not any(n in line for line in tail.lines() for n in needles):
                if time.monotonic() > deadline:
                    failures.append(f"{kind} {defect}: {payload[:200]!r}: no word in the log")
                    break
                time.sleep(0.002)
            else:
                logged[kind] += 1
        tail.lines()  # the line of an answered one was written before its answer
        if not ctrl.alive:
            failures.append(f"the controller died at {kind} {defect}: {payload[:200]!r}")
            raise AssertionError(ctrl.output()[-3000:])

    try:
        fuzz()
        time.sleep(0.3)
        status_after = wait_up(b)
        after = dr.retained(b)
    finally:
        fz.disconnect()
        fz.loop_stop()
    log_after = read_log(ctrl.db)
    assert ctrl.alive
    changed = dr.state_diff({k: v for k, v in before.items() if k != "presence"}, after)
    same_events = log_after.events == log_before.events
    fp_before = dr.fingerprint_hash(Tournament.replay(log_before.events, settings_))
    fp_after = dr.fingerprint_hash(Tournament.replay(log_after.events, settings_))

    # ---- tournament files: floorman check in-process, the controller's start in a process
    yaml_tried, yaml_ok, yaml_rejected, start_tried = yaml_drill(tmp_path, broker, prefix,
                                                               failures)
    report.update(messages=sum(tried.values()), **{f"tried_{k}": v for k, v in tried.items()},
                  rejected_with_ack=sum(answered.values()), rejected_in_log=sum(logged.values()),
                  time_responses_to_garbage=len(responses), state_changes=len(changed)
                  + (not same_events) + (fp_before != fp_after),
                  yaml_files=yaml_tried, yaml_valid=yaml_ok, yaml_rejected=yaml_rejected,
                  controller_starts_refused=start_tried, failures=len(failures))
    report.emit()
    for f in failures[:20]:
        print("FAILURE:", f[:600])
    assert not failures, failures[:10]
    assert not responses, responses[:5]
    assert same_events and fp_before == fp_after
    assert not changed, [(k, before.get(k), after.get(k)) for k in changed]
    assert status_after["summary"] == status_before["summary"]
    assert {k: status_after["clock"][k] for k in dr.CLOCK_KEYS} == \
        {k: status_before["clock"][k] for k in dr.CLOCK_KEYS}
    assert "Traceback" not in ctrl.output(all_of_it=True)


# ----------------------------------------------------------------- tournament files

def _mutations() -> Any:
    sample = (ROOT / "config" / "tournaments" / "sample.yaml").read_text()
    preset = (ROOT / "config" / "clubs" / "psc-five-spades.yaml").read_text()
    base = st.sampled_from([sample, preset.replace("language: de", 'name: "Own"\nlanguage: de'),
                            sample + "structure:\n  - {minutes: 10, blinds: 25/50}\n"])
    chunk = st.one_of(st.text(max_size=6), st.sampled_from(
        [":", "- ", "\n", "  ", "[", "{", "&a ", "*a", "!!python/object:os.system ", "'", '"',
         "\t", "#", "%", "---\n", "\x00", "~", "null", "-1", "1e999", ".nan", "preset: ",
         "preset: ../../../etc/passwd\n", "preset: nowhere\n", "structure: []\n",
         "players_per_table: 0\n", "name: " + "x" * 300 + "\n"]))

    @st.composite
    def mutated(draw) -> bytes:
        text = draw(base)
        for _ in range(draw(st.integers(1, 4))):
            pos = draw(st.integers(0, len(text)))
            op = draw(st.sampled_from(["insert", "delete", "swap", "line"]))
            if op == "insert":
                text = text[:pos] + draw(chunk) + text[pos:]
            elif op == "delete":
                text = text[:pos] + text[pos + draw(st.integers(1, 30)):]
            elif op == "swap":
                other = draw(st.integers(0, len(text)))
                a, c = sorted((pos, other))
                text = text[:a] + text[c:] + text[a:c]
            else:
                lines = text.split("\n")
                i = draw(st.integers(0, len(lines) - 1))
                lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
                text = "\n".join(lines)
        data = text.encode()
        if draw(st.integers(0, 20)) == 0:
            data = data[:pos % (len(data) + 1)] + b"\xff\xfe" + data[pos % (len(data) + 1):]
        return data

    nasty = [
        b"",
        b"---\n",
        b"\xff\xfe\x00\x00",
        b"name: x\npreset: psc-five-spades\nstructure: " + b"[" * 5000 + b"]" * 5000 + b"\n",
        b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
        b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e]\n",
        b"name: x\npreset: psc-five-spades\nstructure:\n" + b"  - {minutes: 1, blinds: 1/2}\n"
        * 20_000,
        b"!!python/object/apply:os.system ['echo pwned']\n",
        b"name: [unclosed\n",
        b"- just\n- a list\n",
        b"name: x\npreset: /etc\n",
        b'name: "lone \\ud800 surrogate"\npreset: psc-five-spades\n',
    ]
    return mutated(), nasty


def _check_file(path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main_check(str(path))
    return rc, out.getvalue()


def yaml_drill(tmp_path, broker, prefix, failures: list[str]) -> tuple[int, int, int, int]:
    mutated, nasty = _mutations()
    work = tmp_path / "yaml"
    work.mkdir()
    counts = Counter()
    refused: list[Any] = []

    def one(data: bytes) -> None:
        path = work / f"t{counts['tried']}.yaml"
        counts["tried"] += 1
        path.write_bytes(data)
        try:
            rc, out = _check_file(path)
        except BaseException as exc:  # noqa: BLE001 - any escape is a failure
            failures.append(f"floorman check raised {type(exc).__name__}: {exc} on "
                            f"{data[:200]!r}")
            return
        if rc == 0:
            counts["ok"] += 1
            if "OK" not in out:
                failures.append(f"check said 0 without OK: {out!r}")
        elif rc == 1:
            counts["rejected"] += 1
            # each problem names its file (this one, or the preset the value came from)
            lines = [ln for ln in out.splitlines() if ln.strip()]
            if not lines or not all(ln.startswith(str(path)) or _PRESET_LINE.match(ln)
                                    for ln in lines):
                failures.append(f"check's rejection does not name the file: {out[:300]!r}")
            elif len(refused) < dr.scale(8, 40):
                refused.append(path)
        else:
            failures.append(f"check returned {rc}")

    @settings(max_examples=dr.scale(150, 1500), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(mutated)
    def fuzz(data: bytes) -> None:
        one(data)

    for data in nasty:
        one(data)
    for path in (work, tmp_path / "does-not-exist.yaml"):
        rc, out = _check_file(path)
        counts["tried"] += 1
        counts["rejected"] += rc == 1
        if rc != 1 or str(path) not in out:
            failures.append(f"check of {path}: {rc} {out!r}")
        refused.append(path)
    fuzz()

    # the controller refuses each rejected file: non-zero, the file named, no traceback
    for path in refused:
        db = tmp_path / f"{path.name}.sqlite"
        r = floorman_cli("controller", str(path), "--db", str(db),
                         "--broker", broker.address, "--prefix", prefix, timeout=60)
        out = r.stdout + r.stderr
        named = str(path) in out or any(_PRESET_LINE.match(ln) for ln in out.splitlines())
        if r.returncode == 0 or not named or "Traceback" in out or db.exists():
            failures.append(f"controller start with {path.name}: rc {r.returncode}, "
                            f"{out[-500:]!r}")
    # and the command line's check, as a director runs it
    for path in refused[:2]:
        r = floorman_cli("check", str(path), timeout=60)
        if r.returncode != 1 or "Traceback" in r.stdout + r.stderr:
            failures.append(f"floorman check {path.name}: rc {r.returncode}")
    return counts["tried"], counts["ok"], counts["rejected"], len(refused)
