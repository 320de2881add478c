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
from typing import Any

VERSION = 1
#: largest payload the controller reads; anything bigger is rejected unread
MAX_PAYLOAD = 16 * 1024

DEFAULT_PREFIX = "floorman/default"

TABLE_ACTIONS = ("bust", "time", "time_cancel", "time_expire", "hand_done", "undo")

#: director verbs the controller accepts (engine commands and read-only queries)
DIRECTOR_COMMANDS = (
    "register", "late", "draw", "start", "pause", "resume", "level", "time", "bust", "undo",
    "rebuy", "reentry", "addon", "hfh", "move_apply", "seated", "break_table", "final_table",
    "time_call", "hand_done", "hands_left",
    # read-only
    "status", "results", "moves",
)
READ_ONLY = ("status", "results", "moves")

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_CLIENT = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class ProtocolError(ValueError):
    """A payload that breaks the protocol; ``str()`` says what is wrong."""


@dataclass(frozen=True)
class Topics:
    """Every topic of one tournament, under ``prefix``."""

    prefix: str = DEFAULT_PREFIX

    # state, retained, published by the controller only
    def state(self, name: str) -> str:
        return f"{self.prefix}/state/{name}"

    def table_state(self, table: int) -> str:
        return f"{self.prefix}/state/table/{table}"

    # commands, not retained
    @property
    def director(self) -> str:
        return f"{self.prefix}/cmd/director"

    def table_cmd(self, table: int | str) -> str:
        return f"{self.prefix}/cmd/table/{table}"

    def ack(self, client: str) -> str:
        return f"{self.prefix}/ack/{client}"

    # clock sync
    def time_request(self, client: str) -> str:
        return f"{self.prefix}/time/request/{client}"

    def time_response(self, client: str) -> str:
        return f"{self.prefix}/time/response/{client}"

    # presence, retained, with a last will
    def presence(self, client: str) -> str:
        return f"{self.prefix}/presence/{client}"

    def classify(self, topic: str) -> tuple[str, str | None]:
        """``(kind, key)`` of an inbound topic: ``("director", None)``, ``("table", "3")``,
        ``("time", client)``, ``("presence", client)`` or ``("unknown", None)``."""
        if not topic.startswith(self.prefix + "/"):
            return "unknown", None
        rest = topic[len(self.prefix) + 1:].split("/")
        if rest == ["cmd", "director"]:
            return "director", None
        if len(rest) == 3 and rest[:2] == ["cmd", "table"]:
            return "table", rest[2]
        if len(rest) == 3 and rest[:2] == ["time", "request"]:
            return "time", rest[2]
        if len(rest) == 2 and rest[0] == "presence":
            return "presence", rest[1]
        return "unknown", None


# ---------------------------------------------------------------- validation
def _loads(payload: bytes | str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes is larger than {MAX_PAYLOAD}")
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"payload is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"payload must be a JSON object, got {type(data).__name__}")
    if data.get("v") != VERSION:
        raise ProtocolError(f"schema version must be {VERSION}, got {data.get('v')!r}")
    return data


def _int(data: dict[str, Any], key: str, lo: int, hi: int, required: bool = True) -> None:
    v = data.get(key)
    if v is None and not required:
        return
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ProtocolError(f"'{key}' must be a whole number from {lo} to {hi}, got {v!r}")


def _num(data: dict[str, Any], key: str) -> None:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or abs(v) > 1e12:
        raise ProtocolError(f"'{key}' must be a number, got {v!r}")


def _command_envelope(data: dict[str, Any]) -> None:
    cid = data.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise ProtocolError("'id' must be 1-64 characters of letters, digits, _ . : -")
    reply = data.get("reply_to")
    if not isinstance(reply, str) or not _CLIENT.match(reply):
        raise ProtocolError("'reply_to' must be a client id (1-64 letters, digits, _ . -)")


def parse_table_command(payload: bytes | str, table: str | None) -> dict[str, Any]:
    data = _loads(payload)
    _command_envelope(data)
    if table is None or not table.isdigit() or not 1 <= int(table) <= 999:
        raise ProtocolError(f"table in the topic must be a number from 1 to 999, got {table!r}")
    action = data.get("action")
    if action not in TABLE_ACTIONS:
        raise ProtocolError(f"'action' must be one of {', '.join(TABLE_ACTIONS)}, got {action!r}")
    if action == "bust":
        _int(data, "seat", 1, 99)
        _int(data, "stack", 0, 10**12, required=False)
    extra = set(data) - {"v", "id", "reply_to", "action", "seat", "stack"}
    if extra:
        raise ProtocolError(f"unknown field(s) {', '.join(sorted(extra))}")
    return data


def parse_director_command(payload: bytes | str) -> dict[str, Any]:
    data = _loads(payload)
    _command_envelope(data)
    cmd = data.get("cmd")
    if cmd not in DIRECTOR_COMMANDS:
        raise ProtocolError(f"unknown command {cmd!r}")
    args = data.get("args", {})
    if not isinstance(args, dict):
        raise ProtocolError("'args' must be a JSON object")
    extra = set(data) - {"v", "id", "reply_to", "cmd", "args"}
    if extra:
        raise ProtocolError(f"unknown field(s) {', '.join(sorted(extra))}")
    return data


def parse_time_request(payload: bytes | str) -> dict[str, Any]:
    data = _loads(payload)
    if not isinstance(data.get("id"), (str, int)) or isinstance(data.get("id"), bool):
        raise ProtocolError("'id' must be a string or a number")
    _num(data, "t0")
    return data


def parse_presence(payload: bytes | str) -> dict[str, Any]:
    if not payload:
        return {"v": VERSION, "online": False, "role": "unknown"}  # a cleared retained message
    data = _loads(payload)
    if not isinstance(data.get("online"), bool):
        raise ProtocolError("'online' must be true or false")
    if data.get("role") not in ("table", "wall", "director", "controller"):
        raise ProtocolError("'role' must be table, wall, director or controller")
    _int(data, "table", 1, 999, required=False)
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


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
