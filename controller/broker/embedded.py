"""The embedded broker's (amqtt's) door: Floorman's accounts and ACL, as Mosquitto reads
them (``floorman.passwd``, ``floorman.acl`` of :mod:`controller.broker.accounts`).

Only imported where amqtt runs (``floorman night`` on a computer without Mosquitto). Two
plugins, named in amqtt's ``plugins`` configuration by their dotted path:

- :class:`Accounts`: a client logs in with a user name and password of the password file
  (the ``$7$`` PBKDF2 hashes Mosquitto checks), and its client id must be its user name
  (Mosquitto's ``use_username_as_clientid`` renames it; amqtt cannot, so it refuses it:
  no account takes another client's id either way);
- :class:`Rules`: what the ACL allows (``topic read|write|readwrite``, ``pattern`` with
  ``%c`` and ``%u``); anything else is denied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin

from controller.broker.accounts import check_password


def read_passwd(path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        name, sep, hashed = line.partition(":")
        if sep:
            out[name] = hashed
    return out


def read_acl(path: str) -> tuple[dict[str, list[tuple[str, str]]], list[tuple[str, str]]]:
    """``({user: [(access, topic)]}, [(access, pattern)])`` of a Mosquitto ACL file."""
    users: dict[str, list[tuple[str, str]]] = {}
    patterns: list[tuple[str, str]] = []
    current: list[tuple[str, str]] | None = None
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "user" and len(words) == 2:
            current = users.setdefault(words[1], [])
        elif words[0] in ("topic", "pattern") and len(words) in (2, 3):
            access, topic = (words[1], words[2]) if len(words) == 3 else ("readwrite", words[1])
            (patterns if words[0] == "pattern" else current if current is not None
             else []).append((access, topic))
    return users, patterns


def matches(topic: str, rule: str) -> bool:
    """Whether ``topic`` (a name, or a subscription's filter) falls under ``rule``."""
    t, r = topic.split("/"), rule.split("/")
    for i, level in enumerate(r):
        if level == "#":
            return True
        if i >= len(t):
            return False
        if level != "+" and level != t[i]:
            return False
        if level == "+" and t[i] == "#":
            return False
    return len(t) == len(r)


def allowed(users: dict[str, list[tuple[str, str]]], patterns: list[tuple[str, str]],
            user: str | None, client_id: str | None, topic: str, write: bool) -> bool:
    if not user:
        return False
    need = "write" if write else "read"
    rules = list(users.get(user, []))
    rules += [(a, p.replace("%c", client_id or "").replace("%u", user)) for a, p in patterns]
    return any(need in access and matches(topic, rule) for access, rule in rules)


class Accounts(BaseAuthPlugin):
    """Log in with an account of the password file, under its own name as the client id."""

    @dataclass
    class Config:
        passwd: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self.hashes = read_passwd(self.context.config.passwd)

    async def authenticate(self, *, session: Any) -> bool | None:
        user, password = session.username, session.password
        hashed = self.hashes.get(user or "")
        if hashed is None or password is None or session.client_id != user:
            return False
        pw = password.decode() if isinstance(password, bytes) else str(password)
        return check_password(pw, hashed)


class Rules(BaseTopicPlugin):
    """Publish and receive what the ACL allows; nothing else."""

    @dataclass
    class Config:
        acl: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self.users, self.patterns = read_acl(self.context.config.acl)

    async def topic_filtering(self, *, session: Any = None, topic: str | None = None,
                              action: Any = None) -> bool | None:
        if session is None or not topic:
            return False
        write = action == Action.PUBLISH
        return allowed(self.users, self.patterns, session.username, session.client_id, topic,
                       write)
