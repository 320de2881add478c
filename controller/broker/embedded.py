"""The embedded broker (amqtt) of ``floorman night``: Floorman's accounts and ACL, as
Mosquitto reads them (``floorman.passwd``, ``floorman.acl`` of
:mod:`controller.broker.accounts`), and :class:`RoomAmqtt`, amqtt's broker with four of
its faults mended (below).

Only imported where amqtt runs (``floorman night`` on a computer without Mosquitto). Two
plugins, named in amqtt's ``plugins`` configuration by their dotted path:

- :class:`Accounts`: a client logs in with a user name and password of the password file
  (the ``$7$`` PBKDF2 hashes Mosquitto checks), and its client id must be its user name
  (Mosquitto's ``use_username_as_clientid`` renames it; amqtt cannot, so it refuses it:
  no account takes another client's id either way);
- :class:`Rules`: what the ACL allows (``topic read|write|readwrite``, ``pattern`` with
  ``%c`` and ``%u``); anything else is denied.

:class:`RoomAmqtt` mends what made amqtt 0.12 (the newest; its main branch the same) lose
a room of ten screens (docs/performance.md, "``floorman night``"):

- it walks its table of subscriptions with an ``await`` inside the walk, so a screen
  subscribing meanwhile ended the walk with ``RuntimeError: dictionary changed size
  during iteration``: a message then reached only part of its subscribers (a director's
  command lost until its resend, a screen left with an old view), and a screen that
  connected then was left connected without its subscriptions until it reconnected.
  Here the walks go over a copy;
- every client that connects was sent every retained message that matches anyone's
  subscription (all the tables' views, every screen's presence) before it subscribed to
  anything, past the ACL, and twice where two filters match: a connect cost the whole
  room. Here a client gets the retained messages of its own subscriptions only;
- the ACL was asked through the plugin manager, a task and a gather for every message
  and every subscriber; here it is one lookup (a dict per account and topic), the
  :class:`Rules` plugin staying configured all the same, so that the ACL holds should a
  later amqtt no longer call the mended method;
- a second login with a client id in use (``floorman status`` twice at once, a screen
  started twice) deleted the first connection's subscriptions but left it connected:
  deaf, for ever. Here the first connection is closed, as Mosquitto does; it reconnects.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin

from controller.broker.accounts import check_password

log = logging.getLogger("floorman.broker")


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


class Acl:
    """:func:`allowed` of an ACL file, remembered per account, client id, topic and way (the
    broker asks it for every message and every subscriber)."""

    #: answers kept at most (a client publishing to ever new topics cannot grow it for ever)
    KEEP = 20_000

    def __init__(self, path: str) -> None:
        self.users, self.patterns = read_acl(path)
        self._known: dict[tuple[str | None, str | None, str, bool], bool] = {}

    def allows(self, user: str | None, client_id: str | None, topic: str, write: bool) -> bool:
        key = (user, client_id, topic, write)
        known = self._known.get(key)
        if known is None:
            if len(self._known) >= self.KEEP:
                self._known.clear()
            known = self._known[key] = allowed(self.users, self.patterns, user, client_id,
                                               topic, write)
        return known


class _Copies(dict):  # type: ignore[type-arg]
    """amqtt's table of subscriptions, walked over a copy: amqtt awaits inside its walks, and
    a subscription added meanwhile ended them with RuntimeError."""

    def __iter__(self) -> Any:
        return iter(list(super().keys()))

    def items(self) -> Any:
        return list(super().items())


#: amqtt's methods :class:`RoomAmqtt` replaces (amqtt 0.11 to 0.12 have them)
MENDED = ("_topic_filtering", "_publish_retained_messages_for_subscription", "_delete_session")


class RoomAmqtt(Broker):  # type: ignore[misc]
    """amqtt's broker with the ACL of ``acl`` and the mends of the module docstring."""

    _subscriptions: dict[str, list[tuple[Any, int]]]

    def __init__(self, config: dict[str, Any], *, acl: str, loop: Any) -> None:
        super().__init__(config, loop=loop)
        unknown = [name for name in MENDED if not hasattr(Broker, name)]
        if unknown or not isinstance(getattr(self, "_subscriptions", None), dict):
            # a later amqtt: the ACL holds (the Rules plugin), the mends may not
            log.warning("this amqtt has no %s: the embedded broker may lose messages in a "
                        "room of many screens; install Mosquitto",
                        ", ".join(unknown) or "_subscriptions")
        self._subscriptions = _Copies(self._subscriptions)
        self.acl = Acl(acl)

    async def _topic_filtering(self, session: Any, topic: str, action: Any) -> bool:
        if session is None or not topic:
            return False
        return self.acl.allows(session.username, session.client_id, topic,
                               action == Action.PUBLISH)

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                          session: Any) -> None:
        # amqtt calls this on every connect for every filter of every client
        subscribers = self._subscriptions.get(subscription[0]) or []
        if any(s.client_id == session.client_id for s, _ in subscribers):
            await super()._publish_retained_messages_for_subscription(subscription, session)

    async def _delete_session(self, client_id: str) -> None:
        old = self._sessions.get(client_id)
        if old is not None and old[0].transitions.is_connected():
            # the account is online in its new connection: no "offline" will of the old one
            old[0].will_flag = False
            await old[1].stop()
        await super()._delete_session(client_id)
