"""The topic names and a payload's bytes: what a client needs to send a command and read
its answer, without the schemas.

:mod:`.protocol` checks payloads with pydantic and the engine's command models (about
0.3 s to import); a director verb on the command line (``floorman status``) only names
topics and writes JSON, so it imports this module and not that one (issue 32.3).
:mod:`.protocol` re-exports every name here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

DEFAULT_PREFIX = "floorman/default"

#: what a client id or a ``reply_to`` may be: the text for pydantic's (Rust) regex, where
#: "$" ends the text, and the compiled one for Python's re, where "\Z" does
CLIENT_CHARS = r"[A-Za-z0-9_.-]{1,64}"
CLIENT_ID = re.compile(rf"^{CLIENT_CHARS}\Z")


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


def dumps(data: dict[str, Any]) -> bytes:
    """A payload's bytes: compact JSON in UTF-8."""
    try:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:  # a lone surrogate (a name from an old log, a YAML escape)
        return json.dumps(data, separators=(",", ":")).encode()
