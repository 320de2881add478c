"""The console's one connection to the broker, shared by every browser.

The :class:`~controller.director.Director` keeps the retained state; paho's thread tells
the hub of each change, and the hub wakes the browsers' event streams on the asyncio
loop. The hub also keeps answers of read-only queries, asked again when the state
changes: ``players`` (the full names, for the search and the pickers), ``history`` (the
last commands in words, each with the number ``undo`` takes) and the controller's time
(``status``'s ``server_time``, for counting the clock down in the browser).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from controller.director import Director, NoAnswer
from controller.wire import protocol
from controller.wire.mqtt import Broker

log = logging.getLogger("floorman.console")

#: seconds a director command may wait for the controller's answer
ANSWER_TIMEOUT = 8.0
#: how often the controller's time is asked again (s)
TIME_SYNC = 300.0
#: seconds a refresh of ``players`` and ``history`` waits after a change, at least: a
#: command's state topics arrive together
REFRESH_AFTER = 0.05
#: the share of the controller's time the refreshes take at most: each waits the last one's
#: round trip divided by this (a club's few ms: REFRESH_AFTER; a festival's 10,000
#: players, ~30 ms a refresh: 0.6 s), so a bust a second at 1,000 tables does not make
#: the controller build 1.4 MB of players for the console at every bust
REFRESH_SHARE = 0.05
#: and waits no longer than this (s), whatever the last one took (an unanswered one: 16 s)
REFRESH_LONGEST = 5.0


def refresh_wait(cost: float) -> float:
    """Seconds a refresh waits after a change when the last one's round trip took ``cost``
    seconds (:data:`REFRESH_SHARE`)."""
    return min(REFRESH_LONGEST, max(REFRESH_AFTER, cost / REFRESH_SHARE))


class Hub:
    """The state as the controller published it, and the director commands of every browser."""

    def __init__(self, broker: Broker, *, name: str | None = None,
                 wall: Callable[[], float] = time.time, public_url: str | None = None) -> None:
        self.director = Director(broker, name=name, watch=True, on_change=self._from_paho)
        #: the players' page's address, retained on ``P/console/public`` for the wall's QR
        self.public_url = public_url
        self.public_topic = f"{broker.prefix}/console/public"
        self.wall = wall
        self.version = 0
        self.players: list[dict[str, Any]] = []
        #: the registration desk from the ``players`` answer (issue 31): ``waiting`` (in its
        #: order), ``seats`` (the limit), ``no_shows``
        self.desk: dict[str, Any] = {}
        #: the ``history`` answer's commands, newest last
        self.history: list[dict[str, Any]] = []
        self.offset = 0.0  #: controller time minus this machine's time
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._players_due = False
        #: the last refresh's round trip (s): the next waits for it (:data:`REFRESH_SHARE`)
        self._refresh_cost = 0.0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._synced_at = -TIME_SYNC

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self.director.start()

    async def stop(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if self.public_url and self.link_up:
            # the QR code on the wall must not point to a console that is gone
            await asyncio.to_thread(self.director.publish_retained, self.public_topic, b"",
                                    wait=1.0)
        await asyncio.to_thread(self.director.close)

    def _publish_url(self) -> None:
        if self.public_url:
            self.director.publish_retained(
                self.public_topic, protocol.dumps({"v": 1, "url": self.public_url}))

    # ----------------------------------------------------------------- the state
    @property
    def state(self) -> dict[str, dict[str, Any]]:
        return dict(self.director.state)

    @property
    def link_up(self) -> bool:
        return self.director.connected

    @property
    def controller_online(self) -> bool | None:
        return self.director.controller_online

    def now(self) -> float:
        """The controller's time, as well as this machine knows it."""
        return self.wall() + self.offset

    def _from_paho(self, name: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._bump, name)

    def _bump(self, name: str) -> None:
        self._changed_now()
        if name == "link" and self.link_up or name == "presence/controller":
            self._spawn(self._sync_time(force=True))
        if name == "link" and self.link_up:
            self._publish_url()  # on every connect: a broker restart may have lost it
        if name not in ("presence", "link") or (name == "link" and self.link_up):
            # who is where and what happened may have changed (a clock command is in the
            # history too): ask again, once for a burst of changes
            self._schedule_refresh()

    def _schedule_refresh(self) -> None:
        if not self._players_due:
            self._players_due = True
            self._spawn(self._refresh_players())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self, version: int, timeout: float) -> int:
        """The version once it is newer than ``version`` (or after ``timeout`` seconds)."""
        if self.version == version and self._changed is not None:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                pass
        return self.version

    # ------------------------------------------------------------------ commands
    async def send(self, cmd: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """The controller's answer; ``{"ok": false, "reason": …}`` when there is none."""
        try:
            answer = await asyncio.to_thread(self.director.send, cmd, args or {},
                                             timeout=ANSWER_TIMEOUT)
            if answer.get("ok") and cmd not in protocol.READ_ONLY:
                # the history has a new line even when no public state changed (a rename
                # before the draw is on no public topic): ask again
                self._schedule_refresh()
            return answer
        except NoAnswer:
            return {"ok": False, "no_answer": True,
                    "reason": f"the controller did not answer within {ANSWER_TIMEOUT:.0f} s; "
                              "nothing was changed unless it shows on the floor soon"}

    async def _refresh_players(self) -> None:
        await asyncio.sleep(refresh_wait(self._refresh_cost))
        self._players_due = False
        if not self.link_up:
            return
        began = time.monotonic()
        answer = await self.send("players")
        told = await self.send("history")
        self._refresh_cost = time.monotonic() - began
        if answer.get("ok") or told.get("ok"):
            if answer.get("ok"):
                self.players = answer["result"]["players"]
                self.desk = desk_of(answer["result"])
            if told.get("ok"):
                self.history = told["result"]["commands"]
            self._changed_now()
        await self._sync_time()

    async def players_now(self) -> list[dict[str, Any]] | None:
        """Every player as the controller has them this moment (not as of the last
        refresh, which may be :func:`refresh_wait` old): for a printout; ``None`` when the
        controller does not answer."""
        answer = await self.send("players")
        if not answer.get("ok"):
            return None
        self.players = answer["result"]["players"]
        self.desk = desk_of(answer["result"])
        self._changed_now()
        return self.players

    def _changed_now(self) -> None:
        self.version += 1
        assert self._changed is not None
        self._changed.set()
        self._changed = asyncio.Event()

    async def _sync_time(self, force: bool = False) -> None:
        if not self.link_up or (not force and time.monotonic() - self._synced_at < TIME_SYNC):
            return
        sent = self.wall()
        answer = await self.send("status")
        back = self.wall()
        if answer.get("ok"):
            # the middle of the round trip: off by at most half of it (ms on a club network)
            self.offset = answer["result"]["server_time"] - (sent + back) / 2
            self._synced_at = time.monotonic()


def desk_of(result: dict[str, Any]) -> dict[str, Any]:
    """The registration desk's part of a ``players`` answer (an older controller: none)."""
    return {"waiting": result.get("waiting") or [], "seats": result.get("seats"),
            "no_shows": result.get("no_shows") or []}
