"""The MQTT protocol: topic names and the schemas of every payload.

One topic tree per tournament under a configurable prefix (default
``floorman/default``), MQTT 3.1.1 only, JSON payloads with ``"v": 1``.
``docs/protocol.md`` is the contract; a test loads every example in it and
validates it here.

Inbound payloads (commands, time requests, presence) are checked by
:func:`parse`, which raises :class:`ProtocolError` with a readable reason and
never anything else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from controller.engine import commands
from controller.engine.settings import TOPIC_PREFIX
from controller.wire.topics import CLIENT_CHARS, CLIENT_ID

# the names a client needs without the schemas live in .topics (one definition)
from controller.wire.topics import DEFAULT_PREFIX as DEFAULT_PREFIX
from controller.wire.topics import Topics as Topics
from controller.wire.topics import dumps as dumps

VERSION = 1
#: largest payload the controller reads; anything bigger is rejected unread
MAX_PAYLOAD = 16 * 1024
#: the largest payload a Floorman broker takes (bytes): Mosquitto's ``message_size_limit``
#: in the shipped configuration and the local broker's. The controller's own largest
#: payload, the results of a few thousand entries, stays well below it.
BROKER_MESSAGE_LIMIT = 2 * 1024 * 1024

#: a topic prefix: levels of letters, digits, _ . - joined by / (no wildcards, no newline);
#: one definition (the settings' ``broker.prefix``) the loader, broker-config and clients use
PREFIX = re.compile(TOPIC_PREFIX)


def valid_prefix(text: object) -> bool:
    """``text`` is a usable topic prefix (the whole text, nothing after it)."""
    return isinstance(text, str) and PREFIX.fullmatch(text) is not None

TABLE_ACTIONS = ("bust", "time", "time_cancel", "time_expire", "hand_done", "seated", "undo",
                 "chip_race")

#: read-only director queries (answered by the service, never the engine)
READ_ONLY = ("status", "results", "moves", "history", "players", "deal_proposal")
#: engine commands only the controller itself sends
CONTROLLER_ONLY = ("tick",)
#: director verbs the controller accepts: every engine command and the queries
DIRECTOR_COMMANDS = (
    *(name for name in commands.BY_NAME if name not in CONTROLLER_ONLY),
    *READ_ONLY,
)

# one text each for Python's re and pydantic's (Rust) regex: "$" ends the text there, but
# Python's "$" also matches before a final newline, hence "\Z" on the Python side
_ID_CHARS = r"[A-Za-z0-9_.:-]{1,64}"
_CLIENT_CHARS = CLIENT_CHARS
_ID = re.compile(rf"^{_ID_CHARS}\Z")
_CLIENT = CLIENT_ID  #: public: what a client id / reply_to may be (used by kiosk/link.py)
#: a table number's digits, as many as commands.MAX_TABLES has (ASCII only: "³".isdigit()
#: is true but int("³") fails)
TABLE_DIGITS = len(str(commands.MAX_TABLES))
_TABLE = re.compile(rf"^[0-9]{{1,{TABLE_DIGITS}}}\Z")
#: a JSON escape of a surrogate (\ud800-\udfff)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class ProtocolError(ValueError):
    """A payload that breaks the protocol; ``str()`` says what is wrong."""


# ---------------------------------------------------------------- validation
def _no_constant(name: str) -> float:
    # Python reads NaN and Infinity, JSON has neither; a NaN in "time add" skipped a level
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is out of range")
    return value


def _loads(payload: bytes | str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes is larger than {MAX_PAYLOAD}")
    try:
        data = json.loads(payload, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"payload is not JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("payload is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"payload must be a JSON object, got {type(data).__name__}")
    if isinstance(payload, bytes) and payload.isascii() \
            and not _SURROGATE_ESCAPE.search(payload):
        # plain ASCII (a press) makes a surrogate only by an escape: the look below costs
        # a second pass over every message
        return _versioned(data)
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        # "\ud800" is valid JSON, but not text: a name with it, once stored, could never be
        # published (tests/drills: it killed the controller at every start)
        raise ProtocolError("payload has text that is not Unicode (a lone surrogate)") from None
    except RecursionError:
        raise ProtocolError("payload is nested too deeply") from None
    return _versioned(data)


def _versioned(data: dict[str, Any]) -> dict[str, Any]:
    if data.get("v") != VERSION:
        raise ProtocolError(f"schema version must be {VERSION}, got {data.get('v')!r}")
    return data


# The inbound payloads, each one typed record (pydantic, strict: true is not 1, "3" is
# not 3). ``description`` says what a person must send; a problem is reported as
# "'field' must be <description>, got <value>", the first one in field order, so the
# envelope (id, reply_to) comes first: without it a rejection cannot be answered.
_ID_TEXT = "1-64 characters of letters, digits, _ . : -"
_CLIENT_TEXT = "a client id (1-64 letters, digits, _ . -)"


class _Inbound(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    v: Literal[1]


class _Envelope(_Inbound):
    id: Annotated[str, Field(pattern=f"^{_ID_CHARS}$", description=_ID_TEXT)]
    reply_to: Annotated[str, Field(pattern=f"^{_CLIENT_CHARS}$", description=_CLIENT_TEXT)]


class TablePress(_Envelope):
    """A dealer's press at a table's button box (``P/cmd/table/N``)."""

    action: Annotated[Literal["bust", "time", "time_cancel", "time_expire", "hand_done",
                              "seated", "undo", "chip_race"],
                      Field(description="one of " + ", ".join(TABLE_ACTIONS))]
    seat: Annotated[int | None, Field(ge=1, le=99, description="a whole number from 1 to 99")
                    ] = None
    stack: Annotated[int | None, Field(ge=0, le=10**12,
                                       description="a whole number from 0 to 1000000000000")
                     ] = None
    #: a bust: out in the same hand as the table's bust before (000 9.5)
    same_hand: Annotated[bool | None, Field(description="true or false")] = None
    #: a bust: the player on that seat is still on the way to it, and is out all the same
    confirm: Annotated[bool | None, Field(description="true or false")] = None
    #: a chip race (000 3.17): the leftover chips by seat (index 0: seat 1) …
    chips: Annotated[list[Annotated[int, Field(ge=0, le=99)]] | None,
                     Field(min_length=1, max_length=99,
                           description="a list of whole numbers from 0 to 99, by seat")] = None
    #: … and the seats whose leftover chips are all they have
    short: Annotated[list[Annotated[int, Field(ge=1, le=99)]] | None,
                     Field(max_length=99, description="a list of seat numbers")] = None


class DirectorCommand(_Envelope):
    """A director command (``P/cmd/director``); ``args`` are checked by the command's own
    definition (:mod:`controller.engine.commands`) when it runs."""

    cmd: Annotated[str, Field(description="a command name")]
    args: Annotated[dict[str, Any], Field(description="a JSON object")] = {}


class TimeRequest(_Inbound):
    """A clock-sync request (``P/time/request/CLIENT``)."""

    model_config = ConfigDict(extra="ignore")
    id: Annotated[str | int, Field(description="a string or a number")]
    t0: Annotated[float, Field(ge=-1e12, le=1e12, allow_inf_nan=False,
                               description="a number")]


class Presence(_Inbound):
    """A client's retained presence (``P/presence/CLIENT``)."""

    model_config = ConfigDict(extra="ignore")
    online: Annotated[bool, Field(description="true or false")]
    role: Annotated[Literal["table", "wall", "director", "controller"],
                    Field(description="table, wall, director or controller")]
    table: Annotated[int | None, Field(
        ge=1, le=commands.MAX_TABLES, description=f"a whole number from 1 to {commands.MAX_TABLES}")
    ] = None


#: a problem of an inbound payload: (the field, or "" for unknown fields; the reason)
Problem = tuple[str, str]


def _problems(model: type[BaseModel], data: dict[str, Any]
              ) -> tuple[BaseModel | None, list[Problem]]:
    """The model of ``data``, or the readable problems in field order (unknown fields last)."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        wrong: dict[str, str] = {}
        extra: list[str] = []
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else ""
            if err["type"] == "extra_forbidden":
                extra.append(field)
            elif field in model.model_fields and field not in wrong:
                what = model.model_fields[field].description or "valid"
                wrong[field] = f"'{field}' must be {what}, got {data.get(field)!r}"
        found = [(f, wrong[f]) for f in model.model_fields if f in wrong]
        if extra:
            found.append(("", f"unknown field(s) {', '.join(sorted(extra))}"))
        return None, found


def _raise_first(problems: list[Problem], fields: tuple[str, ...] | None = None) -> None:
    """Raise the first problem (of ``fields`` only, when given)."""
    for field, why in problems:
        if fields is None or field in fields:
            raise ProtocolError(why)


def parse_table_command(payload: bytes | str, table: str | None) -> dict[str, Any]:
    data = _loads(payload)
    press, problems = _problems(TablePress, data)
    _raise_first(problems, ("id", "reply_to"))  # without them nobody can be answered
    if table is None or not _TABLE.match(table) or not 1 <= int(table) <= commands.MAX_TABLES:
        raise ProtocolError("table in the topic must be a number from 1 to "
                            f"{commands.MAX_TABLES}, got {table!r}")
    _raise_first(problems)
    assert isinstance(press, TablePress)
    if press.action == "bust" and press.seat is None:
        raise ProtocolError("'seat' must be a whole number from 1 to 99, got None")
    for key in ("same_hand", "confirm"):
        if press.action != "bust" and getattr(press, key) is not None:
            raise ProtocolError(f"'{key}' belongs to a bust, not to {press.action!r}")
    if press.action == "chip_race" and press.chips is None:
        raise ProtocolError("'chips' must be a list of whole numbers from 0 to 99, by seat, "
                            "got None")
    for key in ("chips", "short"):
        if press.action != "chip_race" and getattr(press, key) is not None:
            raise ProtocolError(f"'{key}' belongs to a chip race, not to {press.action!r}")
    return data


def parse_director_command(payload: bytes | str) -> dict[str, Any]:
    data = _loads(payload)
    command, problems = _problems(DirectorCommand, data)
    _raise_first(problems, ("id", "reply_to"))
    cmd = data.get("cmd")
    if cmd not in DIRECTOR_COMMANDS:
        raise ProtocolError(f"unknown command {cmd!r}")
    _raise_first(problems)
    assert isinstance(command, DirectorCommand)
    if "cmd" in command.args or "id" in command.args:
        raise ProtocolError("'args' must not contain 'cmd' or 'id'")
    return data


def parse_time_request(payload: bytes | str) -> dict[str, Any]:
    data = _loads(payload)
    _raise_first(_problems(TimeRequest, data)[1])
    return data


def parse_presence(payload: bytes | str) -> dict[str, Any]:
    if not payload:
        return {"v": VERSION, "online": False, "role": "unknown"}  # a cleared retained message
    data = _loads(payload)
    _raise_first(_problems(Presence, data)[1])
    return data


#: validators of the payloads the controller receives, by topic kind
INBOUND: dict[str, Callable[..., dict[str, Any]]] = {
    "director": lambda p, _key=None: parse_director_command(p),
    "table": parse_table_command,
    "time": lambda p, _key=None: parse_time_request(p),
    "presence": lambda p, _key=None: parse_presence(p),
}


def parse(kind: str, payload: bytes | str, key: str | None = None) -> dict[str, Any]:
    """Validate an inbound payload of topic ``kind``; raises :class:`ProtocolError` only."""
    fn = INBOUND.get(kind)
    if fn is None:
        raise ProtocolError(f"no messages are accepted on this topic ({kind})")
    return fn(payload, key)


# ------------------------------------------------------------ outbound schemas
# The controller's own payloads (retained state, acks, time responses), checked by
# hand-written specs: a spec is a type (``int`` never accepts true/false, ``float``
# means any number), ``None`` (null), a tuple of alternatives, ``[spec]`` (a list
# of spec), a dict (an object with exactly these keys), :class:`_Map` (an object
# with any keys) or :class:`_Enum`. Unknown keys are errors, so a view that grows a
# field without the contract (docs/protocol.md) growing with it fails the tests.
# Clients should nevertheless ignore keys they do not know: new keys may be added
# in version 1; a key that changes meaning gets a new ``v``.


@dataclass(frozen=True)
class _Enum:
    values: tuple[Any, ...]


@dataclass(frozen=True)
class _Map:
    value: Any


@dataclass(frozen=True)
class _Optional:
    """A key an object may leave out (a payload stored before the key existed)."""

    value: Any


_TYPE_NAMES = {int: "a whole number", float: "a number", str: "text", bool: "true or false",
               None: "null"}


def _describe(spec: Any) -> str:
    if isinstance(spec, tuple):
        return " or ".join(_describe(s) for s in spec)
    if isinstance(spec, _Enum):
        return "one of " + ", ".join(json.dumps(v) for v in spec.values)
    if isinstance(spec, list):
        return "a list"
    if isinstance(spec, (dict, _Map)):
        return "an object"
    return _TYPE_NAMES.get(spec, str(spec))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def _check(value: Any, spec: Any, where: str) -> None:
    """Raise :class:`ProtocolError` unless ``value`` fits ``spec``; ``where`` names it."""
    if spec is object:  # any JSON value (a phrase's parameters)
        return
    if isinstance(spec, tuple):
        errors = []
        for alt in spec:
            try:
                _check(value, alt, where)
                return
            except ProtocolError as exc:
                errors.append(exc)
        # an object that matches no variant: the variant closest to it says why
        objects = [e for e, alt in zip(errors, spec, strict=True) if isinstance(alt, dict)]
        if isinstance(value, dict) and len(objects) == 1:
            raise objects[0]
        raise ProtocolError(f"{where} must be {_describe(spec)}, got {_show(value)}")
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise ProtocolError(f"{where} must be an object, got {_show(value)}")
        missing = [k for k, sub in spec.items()
                   if k not in value and not isinstance(sub, _Optional)]
        if missing:
            raise ProtocolError(f"{where} lacks {', '.join(repr(k) for k in missing)}")
        extra = sorted(k for k in value if k not in spec)
        if extra:
            raise ProtocolError(f"{where} has unknown key(s) {', '.join(map(repr, extra))}")
        for k, sub in spec.items():
            if k in value:
                _check(value[k], sub.value if isinstance(sub, _Optional) else sub,
                       f"{where}.{k}")
        return
    if isinstance(spec, _Map):
        if not isinstance(value, dict):
            raise ProtocolError(f"{where} must be an object, got {_show(value)}")
        for k, v in value.items():
            _check(v, spec.value, f"{where}[{k!r}]")
        return
    if isinstance(spec, list):
        if not isinstance(value, list):
            raise ProtocolError(f"{where} must be a list, got {_show(value)}")
        for i, v in enumerate(value):
            _check(v, spec[0], f"{where}[{i}]")
        return
    if isinstance(spec, _Enum):
        if any(v == value and type(v) is type(value) for v in spec.values):  # 1 is not true
            return
        raise ProtocolError(f"{where} must be {_describe(spec)}, got {_show(value)}")
    ok = {
        None: value is None,
        bool: isinstance(value, bool),
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, (int, float)) and not isinstance(value, bool)
        and value == value and abs(value) != float("inf"),
        str: isinstance(value, str),
    }.get(spec)
    if ok is None:
        raise TypeError(f"bad spec {spec!r}")  # a bug in this module, never bad input
    if not ok:
        raise ProtocolError(f"{where} must be {_describe(spec)}, got {_show(value)}")


_V = _Enum((VERSION,))
_INT_OR_NULL = (int, None)
_NUM_OR_NULL = (float, None)

_LEVEL = {"index": int, "number": int, "is_break": bool, "seconds": _INT_OR_NULL,
          "small_blind": int, "big_blind": int, "ante": int,
          "ante_type": _Enum(("standard", "big_blind")), "note": str}
_HFH = {"on": bool, "hand": _INT_OR_NULL, "done": [int], "playing": [int], "hands_played": int}
_MOVE = {"player": str, "player_id": int, "from": {"table": int, "seat": int},
         "to": {"table": int, "seat": int}, "reason": str, "waiting_for_button": bool,
         "done": bool}
_PLAN = {"break_table": _INT_OR_NULL, "final_table_due": bool,
         "balance": [{"from_table": int, "to_table": int}]}
_CLIENT_STATE = {"online": bool, "role": _Enum(("table", "wall", "director", "controller",
                                                 "unknown")), "table": _INT_OR_NULL}

STRUCTURE = {"v": _V, "name": str, "language": str, "levels": [_LEVEL],
             "time_call": {"seconds": int, "countdown": int, "red_seconds": int}}
CLOCK = {"v": _V, "level": int, "running": bool, "started": bool, "ends_at": _NUM_OR_NULL,
         "remaining": _NUM_OR_NULL, "halved": bool, "current": _LEVEL, "next": (_LEVEL, None),
         "break_at": _NUM_OR_NULL, "break_in": _NUM_OR_NULL,
         # the chip race announced before a colour-up break (002), shown from/until
         # (controller time; null: now); absent outside that time
         "chip_race_call": _Optional({"leaving": int, "new": int, "from": _NUM_OR_NULL,
                                      "until": _NUM_OR_NULL}),
         # when the end of the day may be drawn (002: last 7-15 minutes of the last level);
         # absent outside it
         "day_end": _Optional({"from": _NUM_OR_NULL, "until": _NUM_OR_NULL, "level": int})}
SUMMARY = {"v": _V, "name": str, "language": str, "drawn": bool, "finished": bool,
           "champion": (str, None), "players_left": int, "entries": int, "average_stack": int,
           "chips_in_play": int, "places_paid": int, "tables_in_play": int,
           "final_table": _INT_OR_NULL, "hand_for_hand": _HFH, "hands_left": _INT_OR_NULL,
           # every table played its last hand of the day (002); absent: no hands set
           "day_over": _Optional(bool),
           "chip_leader": ({"name": str, "chips": int, "bounty": _Optional(int)}, None),
           "round": ({"mode": str, "number": int, "of": int}, None),
           # until which level entries are open, the add-on (absent: an older controller)
           "entry_rules": _Optional({
               "late_until_level": _INT_OR_NULL, "rebuys": int,
               "rebuy_until_level": _INT_OR_NULL, "reentries": int,
               "reentry_until_level": _INT_OR_NULL, "addon_after_level": _INT_OR_NULL,
               "addon_done": bool, "keeps_tables_until": _INT_OR_NULL}),
           # the registration desk: seat limit, waiting, expected (issue 31; absent: an
           # older controller)
           "desk": _Optional({"seats": _INT_OR_NULL, "waiting": int, "expected": int}),
           # a tournament for money (issue 30), amounts in cents; absent: points only
           "prize_pool": _Optional(({
               "currency": str, "pool": int, "paid_places": int,
               "next_place": _INT_OR_NULL, "ladder": [[int]],
               # a deal at the final table stands: the part still played for, cents
               "deal": _Optional({"played_for": int,
                                  # each dealt player's amount (absent: an older controller)
                                  "players": _Optional([{"player_id": int, "name": str,
                                                         "amount": int}])}),
               # every paid place's amount, best first (at most 300 places; absent:
               # more, the ladder only); a satellite's number of tickets
               "payouts": _Optional([int]), "tickets": _Optional(int)}, None))}
MOVES = {"v": _V, "pending": [_MOVE], "recent": [_MOVE], "plan": _PLAN}
RESULTS = {"v": _V, "finished": bool, "rows": [(
    # scored (the points system knows this field size) ...
    {"place": int, "player_id": int, "name": str, "points": float, "knockouts": int,
     "knockout_points": int, "bounty_hits": int, "prize": (str, None), "member": bool,
     # a tournament for money: the payout in cents; a satellite's ticket's value (issue 30)
     "payout": _Optional(int), "ticket": _Optional(int),
     "deal": _Optional(int),  # a deal at the final table: the part of the payout
     # the money bounties the player won, cents (absent: no money bounties)
     "bounties": _Optional(int),
     # a satellite's shared place of a ticket and cash: decided by lot (absent: no lot)
     "lot": _Optional(bool)},
    # ... a play day's (003 6): the day's rows (game null), then each table game's ...
    {"place": int, "player_id": int, "name": str, "points": float, "knockouts": int,
     "knockout_points": int, "bounty_hits": int, "prize": (str, None), "member": bool,
     "game": _INT_OR_NULL, "attendance": int, "tables_played": int},
    # ... or places only
    {"place": int, "name": str},
)], "disqualified": [{"player_id": int, "name": str, "reason": str}],
    # false: the last players out only (views.LIVE_ROWS), places only; absent: all (older)
    "complete": _Optional(bool),
    # false: the preset plays for no points (a money tournament's): no points column;
    # absent: an older controller, points shown
    "scored": _Optional(bool)}
PRESENCE = {"v": _V, "clients": _Map(_CLIENT_STATE)}
#: a table's chip race in a colour-up break (000 3.17), its result once run
_CHIP_RACE = {"leaving": int, "new": int, "start_seat": _INT_OR_NULL,
              "start": _Enum(("seat_1", "left_of_dealer")), "rounding": _Enum(("up", "half_up")),
              "one_chip_per_player": bool, "most": int,
              # the new chips n leftover chips make, by n (absent: an older controller)
              "makes": _Optional([int]),
              "result": ({"seats": [{"seat": int, "name": str, "leftover": int, "cards": [str],
                                     "won": int, "saved": bool}],
                          "new_chips": int, "change": int,
                          # seats not at the table and the small chips each lost (002)
                          "absent": _Optional([{"seat": int, "name": str, "lost": int}])},
                         None),
              # the director's colour-up, not a break's (002 "jederzeit"); absent otherwise
              "called": _Optional(bool),
              # several chips called at once or added (002): each chip's race, in order
              "chips": _Optional([{"leaving": int, "new": int, "raced": bool}])}
TABLE = {"v": _V, "table": int, "in_play": _Enum((True,)), "final": bool, "size": int,
         "seats": [{"seat": int, "player_id": int, "name": str, "ghost": bool, "waiting": bool,
                    "incoming": bool, "absent": _Optional(bool), "sits_out": _Optional(bool),
                    # money bounties: the head in cents (absent: none played), and
                    # the heads the player won so far (absent: an older controller)
                    "bounty": _Optional(int), "bounty_won": _Optional(int)}],
         "button": _INT_OR_NULL, "small_blind": _INT_OR_NULL, "big_blind": _INT_OR_NULL,
         "next": {"button": _INT_OR_NULL, "small_blind": _INT_OR_NULL,
                  "big_blind": _INT_OR_NULL},
         "hands": int, "hands_left": _INT_OR_NULL, "moves_in": [_MOVE], "moves_out": [_MOVE],
         "waits_for": [_MOVE],
         "notices": [_Enum(("breaks", "final_table", "final_table_next"))],
         "hand_for_hand": {**_HFH, "this_table_done": bool},
         "time_call": ({"started_at": float, "seconds": int, "countdown": int,
                        "seat": _INT_OR_NULL, "action": bool}, None),
         "chip_race": (_CHIP_RACE, None),
         "hand_busts": [{"player_id": int, "name": str, "seat": _INT_OR_NULL,
                         # chips at the start of the hand, as reported (absent: older)
                         "stack": _Optional(_INT_OR_NULL)}],
         "asks_same_hand": bool, "hand_done_due": bool,
         "penalties": [{"seat": int, "player_id": int, "hands_left": _INT_OR_NULL,
                        "until": _NUM_OR_NULL, "owes_blinds": bool}],
         "dealer": ({"player_id": int, "name": str, "seat": _INT_OR_NULL}, None),
         # the level whose blinds the hand in play keeps, while the clock shows the next
         # (000 9.6: a new level applies from the next hand); absent otherwise
         "hand_level": _Optional(_LEVEL)}
#: a table that is not (or no longer) in play: broken, or merged into the final table
TABLE_GONE = {"v": _V, "table": int, "in_play": _Enum((False,)), "broken": bool,
              "final_table": _INT_OR_NULL, "moves_out": [_MOVE], "seats": [None]}  # always []

#: the banner on every screen (``announce``): no text, or a text from since until until
ANNOUNCEMENT = ({"v": _V, "text": str, "since": float, "until": _NUM_OR_NULL},
                {"v": _V, "text": None, "since": None, "until": None})

#: the club's season standings for the wall (docs/club.md): public names (000 5.8), the best
#: :data:`controller.club.intake.WALL_ROWS`; only where a club database is configured
STANDINGS = {"v": _V, "club": str, "season": str, "first": str, "last": str,
             "tournaments": int, "rows": [{"place": int, "name": str, "points": float,
                                           "tournaments": int}],
             # 000 5.2: the championship's leaders (knock-out points; members only, 6.2)
             "championship": _Optional([{"place": int, "name": str, "points": int}])}

#: the retained ``state/<name>`` payloads; ``table`` stands for ``table/<n>``
STATE: dict[str, Any] = {
    "structure": STRUCTURE, "clock": CLOCK, "summary": SUMMARY, "moves": MOVES,
    "results": RESULTS, "presence": PRESENCE, "table": (TABLE, TABLE_GONE),
    "announcement": ANNOUNCEMENT, "standings": STANDINGS,
}

#: the ``players`` query (director only: full names, never retained on a public topic)
PLAYERS = {"v": _V, "players": [{
    "player_id": int, "name": str, "member": bool,
    "status": _Enum(("registered", "seated", "out", "disqualified")),
    "table": (int, None), "seat": (int, None),
    "place": (int, None), "entries": int, "rebuys": int, "addon": bool,
    # the last count while it holds (absent: an older controller)
    "chips": _Optional(_INT_OR_NULL),
    # pre-registered, not checked in yet (000 2.2; absent: an older controller)
    "expected": _Optional(bool),
    # 001 §1 III: the earlier tournament the player plays in first (absent: older)
    "elsewhere": _Optional((str, None))}],
    # the registration desk (issue 31; absent: an older controller): the waiting list in
    # its order (002), the seat limit, the no-shows of the draw (000 2.7)
    "waiting": _Optional([{"player_id": int, "name": str, "member": bool, "position": int,
                           "expected": bool}]),
    "seats": _Optional(_INT_OR_NULL), "no_shows": _Optional([str])}
STATUS_RESULT = {"summary": SUMMARY, "tables": [int], "clock": CLOCK,
                 "presence": _Map(_CLIENT_STATE), "offline": [str], "server_time": float}
#: the answer of ``history``: the last commands, newest last (controller.engine.history)
_PHRASE = {"key": str, "params": _Map(object), "text": str}
HISTORY_RESULT = {"v": _V, "commands": [{"event": int, "at": float, "by_itself": bool,
                                          "undone_by": _INT_OR_NULL, "text": str,
                                          "phrases": [_PHRASE]}]}
#: the answer of ``deal_proposal`` (issue 30): ICM and chip chop for the players left, by
#: stack, in cents; ``amounts``: the places still open, best first
DEAL_PROPOSAL = {"v": _V, "currency": str, "open": int, "played_for": int,
                 "percent": _INT_OR_NULL, "amounts": [int],
                 "players": [{"player_id": int, "name": str, "seat": _INT_OR_NULL,
                              "stack": int, "icm": int, "chip_chop": int}]}
_ANSWER_ID = str
#: ``phrases``: what ``message`` says, one phrase each, for a screen in another language
ACK_OK_EVENTS = {"v": _V, "id": _ANSWER_ID, "ok": _Enum((True,)), "events": [int],
                 "message": str, "phrases": _Optional([_PHRASE])}
ACK_OK_RESULT = {"v": _V, "id": _ANSWER_ID, "ok": _Enum((True,)),
                 "result": (STATUS_RESULT, RESULTS, MOVES, HISTORY_RESULT, PLAYERS, DEAL_PROPOSAL),
                 "message": str}
#: a refusal: ``reason`` in English; ``why`` its template and values (controller.wire.wording),
#: absent only in answers stored before there was one
ACK_REJECTED = {"v": _V, "id": _ANSWER_ID, "ok": _Enum((False,)), "reason": str,
                "why": _Optional({"key": str, "params": _Map(object)})}
TIME_RESPONSE = {"v": _V, "id": (str, int), "t0": float, "t1": float, "t2": float}

def _spec(annotation: Any) -> Any:
    """A command field's type (:mod:`controller.engine.commands`) as a spec of :func:`_check`."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _spec(args[0])
    if origin in (Union, UnionType):
        specs = [_spec(a) for a in args if a is not type(None)]
        return specs[0] if len(specs) == 1 else tuple(specs)
    if origin is Literal:
        return _Enum(args)
    if origin is list:
        return [_spec(args[0])]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {k: _spec(f.annotation) for k, f in annotation.model_fields.items()}
    return annotation


#: the arguments of each director command: name → (spec, required), made from the
#: command's one definition in :mod:`controller.engine.commands`; queries take none
DIRECTOR_ARGS: dict[str, dict[str, tuple[Any, bool]]] = {
    **{name: {k: (_spec(a), req) for k, (a, req) in commands.arguments(name).items()}
       for name in DIRECTOR_COMMANDS if name not in READ_ONLY},
    **{name: {} for name in READ_ONLY},
}


def _as_dict(payload: dict[str, Any] | bytes | str) -> dict[str, Any]:
    if isinstance(payload, dict):
        return payload
    return _loads(payload)


def validate_state(name: str, payload: dict[str, Any] | bytes | str) -> dict[str, Any]:
    """Check a retained ``state/<name>`` payload (``name`` as in the topic: ``"clock"``,
    ``"table/3"`` …); returns it as a dict, raises :class:`ProtocolError`."""
    data = _as_dict(payload)
    base, _, number = name.partition("/")
    if base == "table":
        if not _TABLE.match(number):
            raise ProtocolError(f"state/{name}: a table topic ends in its number")
    elif number or base not in STATE:
        raise ProtocolError(f"state/{name} is not a state topic (known: "
                            f"{', '.join(k if k != 'table' else 'table/N' for k in STATE)})")
    spec = STATE[base]
    if base == "table":
        spec = TABLE if data.get("in_play") is not False else TABLE_GONE
    _check(data, spec, f"state/{name}")
    if base == "table" and data["table"] != int(number):
        raise ProtocolError(f"state/{name} carries table {data['table']}")
    return data


def validate_ack(payload: dict[str, Any] | bytes | str) -> dict[str, Any]:
    """Check an ``ack/<client>`` payload: accepted (``events`` or ``result``) or rejected."""
    data = _as_dict(payload)
    if data.get("ok") is False:
        spec: Any = ACK_REJECTED
    elif "result" in data:
        spec = ACK_OK_RESULT
    else:
        spec = ACK_OK_EVENTS
    _check(data, spec, "ack")
    return data


def validate_time_response(payload: dict[str, Any] | bytes | str) -> dict[str, Any]:
    """Check a ``time/response/<client>`` payload (``t1``/``t2`` never before each other)."""
    data = _as_dict(payload)
    _check(data, TIME_RESPONSE, "time response")
    if data["t2"] < data["t1"]:
        raise ProtocolError("time response: t2 (sent) is before t1 (received)")
    return data


def validate_director_args(cmd: str, args: dict[str, Any]) -> None:
    """Check a director command's ``args`` against its definition (names, types, limits).

    The same check the engine makes (:func:`controller.engine.commands.parse`); a
    third-party director client can run it before sending."""
    if cmd in READ_ONLY:
        if args:
            raise ProtocolError(f"{cmd}: unknown argument(s) {', '.join(sorted(args))}; "
                                f"{cmd} takes none")
        return
    if cmd not in DIRECTOR_COMMANDS:
        raise ProtocolError(f"unknown command {cmd!r}")
    try:
        commands.parse({**args, "cmd": cmd})
    except commands.BadCommand as exc:
        raise ProtocolError(str(exc)) from None


def _bytes(payload: dict[str, Any] | bytes | str) -> bytes | str:
    return dumps(payload) if isinstance(payload, dict) else payload


def validate_example(kind: str, payload: dict[str, Any] | bytes | str) -> dict[str, Any]:
    """Validate any payload of the protocol by its topic below the prefix.

    ``kind``: ``state/clock``, ``state/table/3``, ``cmd/director``, ``cmd/table/3``,
    ``ack/<client>``, ``time/request/<client>``, ``time/response/<client>``,
    ``presence/<client>``; or a kind of :meth:`Topics.classify` (``director``,
    ``table/3``, ``time``, ``presence``). Director commands also have their ``args``
    checked (:func:`validate_director_args`). Raises :class:`ProtocolError`."""
    parts = kind.split("/")
    head = parts[0]
    if head == "state" and len(parts) >= 2:
        return validate_state("/".join(parts[1:]), payload)
    if parts == ["cmd", "director"] or parts == ["director"]:
        data = parse_director_command(_bytes(payload))
        validate_director_args(data["cmd"], data.get("args", {}))
        return data
    if (parts[:2] == ["cmd", "table"] and len(parts) == 3) or (head == "table"
                                                               and len(parts) == 2):
        return parse_table_command(_bytes(payload), parts[-1])
    if head == "ack" and len(parts) <= 2:
        return validate_ack(payload)
    if parts[:2] == ["time", "request"] or parts == ["time"]:
        return parse_time_request(_bytes(payload))
    if parts[:2] == ["time", "response"]:
        return validate_time_response(payload)
    if head == "presence" and len(parts) <= 2:
        return parse_presence(_bytes(payload))
    raise ProtocolError(f"no payload kind {kind!r}")


#: every kind of payload the contract documents, as in :func:`validate_example`
#: (``<n>`` a table number, ``<client>`` a client id)
EXAMPLE_KINDS = (
    "state/structure", "state/clock", "state/summary", "state/moves", "state/results",
    "state/presence", "state/announcement", "state/standings", "state/table/<n>",
    "cmd/director", "cmd/table/<n>", "ack/<client>",
    "time/request/<client>", "time/response/<client>", "presence/<client>",
)


def example_family(kind: str) -> str:
    """The :data:`EXAMPLE_KINDS` entry of a kind (``state/table/3`` → ``state/table/<n>``)."""
    parts = kind.split("/")
    if parts[:2] in (["state", "table"], ["cmd", "table"]) and len(parts) == 3:
        return f"{parts[0]}/table/<n>"
    if parts[0] in ("ack", "presence") and len(parts) == 2:
        return f"{parts[0]}/<client>"
    if parts[0] == "time" and len(parts) == 3:
        return f"time/{parts[1]}/<client>"
    return kind
