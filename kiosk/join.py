"""``broker: auto``: a screen finds the night on the network and joins it.

:class:`Finder` runs in a thread of its own: it looks for the night by DNS-SD
(:func:`controller.wire.discovery.browse`), takes this screen's account from what it kept
of an earlier pairing with the same night, else asks the night's pairing door for it with
the join code (``--join CODE`` or ``$FLOORMAN_JOIN``) and keeps what it got (mode 0600, in
``$XDG_STATE_HOME/floorman/screens/`` or ``~/.local/state/floorman/screens/``). Meanwhile it
tells the screen what it is doing and what stands in the way (a :class:`Problem`):
looking, no night on the network, a join code needed or refused.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.wire.discovery import SERVICE, Night, PairingRefused, browse, pair
from controller.wire.mqtt import Broker
from kiosk.view import Problem, Role

log = logging.getLogger(__name__)

#: seconds one look at the network waits for an answer
LOOK = 4.0
#: seconds between looks and between tries at an unreachable door
AGAIN = 2.0


def state_folder() -> Path:
    env = os.environ
    if env.get("FLOORMAN_STATE"):
        return Path(env["FLOORMAN_STATE"])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "floorman"


def _write_secret(path: Path, text: str) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


class Finder:
    """Finds the night and this screen's account; ``notify("problem", Problem)`` while it
    looks, ``notify("found", Broker)`` once (both from its thread)."""

    def __init__(self, role: Role, table: int | None, code: str | None,
                 notify: Callable[[str, Any], None], *, folder: Path | None = None,
                 look: Callable[[float], list[Night]] = browse) -> None:
        self.role, self.table = role, table
        self.code = code or os.environ.get("FLOORMAN_JOIN") or None
        self.notify = notify
        self.folder = (folder or state_folder()) / "screens"
        self.look = look
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.me = f"table-{table}" if role == "table" else "wall"
        #: the night joined, and whether its account was one kept from an earlier start
        self.night: Night | None = None
        self.kept_account = False

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="finder", daemon=True)
        self._thread.start()

    def again(self) -> bool:
        """The broker refused the account kept from an earlier pairing (the night's
        accounts were made anew, or this screen's was removed): forget it and pair again.
        ``False`` (nothing done) when the refused account was paired just now: pairing again
        would only loop, the problem stays on the screen."""
        if self.night is None or not self.kept_account or self._stop.is_set():
            return False
        log.warning("the night %r refused the account kept from an earlier pairing; "
                    "pairing again", self.night.name)
        self.forget(self.night)
        self.night, self.kept_account = None, False
        self.start()
        return True

    def stop(self) -> None:
        self._stop.set()

    def screen_id(self) -> str:
        path = self.folder / "screen-id"
        try:
            value = path.read_text().strip()
        except OSError:
            value = ""
        if not value:
            value = secrets.token_hex(8)
            _write_secret(path, value + "\n")
        return value

    def kept(self, night: Night) -> dict[str, str] | None:
        try:
            data = json.loads((self.folder / night.id / f"{self.me}.json").read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def keep(self, night: Night, account: dict[str, str]) -> None:
        _write_secret(self.folder / night.id / f"{self.me}.json", json.dumps(account))

    def forget(self, night: Night) -> None:
        (self.folder / night.id / f"{self.me}.json").unlink(missing_ok=True)

    def _problem(self, kind: str, address: str = "", detail: str = "") -> None:
        self.notify("problem", Problem(kind, address, detail))

    def _run(self) -> None:
        self._problem("looking", f"DNS-SD {SERVICE.removesuffix('.local.')}")
        while not self._stop.is_set():
            try:
                nights = self.look(LOOK)
            except OSError as exc:
                nights = []
                log.warning("looking for the night: %s", exc)
            if not nights:
                self._problem("no_night", f"DNS-SD {SERVICE.removesuffix('.local.')}")
                self._stop.wait(AGAIN)
                continue
            broker = self._join(nights)
            if broker is not None:
                self.notify("found", broker)
                return
            if self._stop.wait(AGAIN):
                return

    def _join(self, nights: list[Night]) -> Broker | None:
        """This screen's broker of the first night it has an account of (kept, or paired
        now); ``None`` (and a problem said) when there is none yet."""
        ordered = sorted(nights, key=lambda n: self.kept(n) is None)
        night = ordered[0]
        where = f"{night.host}:{night.port}"
        if len(nights) > 1:
            log.info("nights on the network: %s; joining %r",
                     ", ".join(n.name for n in nights), night.name)
        account = self.kept(night)
        self.kept_account = account is not None
        if account is None:
            if not self.code:
                self._problem("need_code", where)
                return None
            try:
                account = pair(night, self.code, role=self.role, table=self.table,
                               screen=self.screen_id())
            except PairingRefused as exc:
                if exc.reason == "too_many":
                    self._problem("too_many", where)
                    self._stop.wait(max(exc.retry, 1.0))
                elif exc.reason in ("wrong_code", "no_account"):
                    self._problem(exc.reason, where)
                    self._stop.set()  # the same code will not do better: a new start will
                else:
                    self._problem("unreachable", f"{night.host}:{night.pair_port}", exc.reason)
                return None
            except OSError as exc:
                self._problem("unreachable", f"{night.host}:{night.pair_port}",
                              str(getattr(exc, "reason", None) or exc))
                return None
            self.keep(night, account)
            log.info("joined the night %r as %s", night.name, account["username"])
        self.night = night
        return Broker(host=night.host, port=night.port, username=account["username"],
                      password=account["password"], prefix=account["prefix"] or night.prefix)
