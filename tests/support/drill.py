"""The drills' tools (tests/drills, docs/reliability.md): sizes, figures, tournament
files, dealers pressing through kiosk links, the reference state a log must publish, and
the audit of every answer against the log.

Sizes: CI sizes by default (the whole suite in a few minutes); ``FLOORMAN_SOAK=1`` runs
the full sizes (:func:`scale`). Every drill prints its figures (run pytest with ``-s``),
writes them to ``figures.json`` in its tmp dir, and appends them as one JSON line to
``$FLOORMAN_DRILL_REPORT`` when that is set.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.engine.settings import TournamentSettings
from controller.engine.tournament import Tournament
from controller.service import views
from controller.wire.mqtt import Broker
from kiosk.link import Link
from kiosk.view import tables_in_play

from .controller import ControllerProcess, director, wait_up
from .eventlog import Log
from .mqtt import retained_state
from .waiting import wait_for

#: full sizes (the issue's numbers) instead of the CI sizes
SOAK = os.environ.get("FLOORMAN_SOAK", "").strip() not in ("", "0")
#: the retained state a snapshot must have before it is complete
BASE_STATE = ("structure", "clock", "summary", "moves", "results")
#: the clock anchor's fields that do not depend on the moment it is computed
CLOCK_KEYS = ("level", "running", "started", "ends_at", "remaining", "halved")


def scale(ci: Any, soak: Any) -> Any:
    """The CI size, or with ``FLOORMAN_SOAK=1`` the soak size."""
    return soak if SOAK else ci


# --------------------------------------------------------------------------- figures


class Report:
    """One drill's figures: printed, written to ``figures.json``, appended to
    ``$FLOORMAN_DRILL_REPORT``."""

    def __init__(self, drill: str, tmp: Path) -> None:
        self.drill = drill
        self.tmp = tmp
        self.figures: dict[str, Any] = {}
        self.started = time.monotonic()

    def __setitem__(self, key: str, value: Any) -> None:
        self.figures[key] = value

    def update(self, **figures: Any) -> None:
        self.figures.update(figures)

    def emit(self) -> dict[str, Any]:
        out = {"drill": self.drill, "soak": SOAK,
               "seconds": round(time.monotonic() - self.started, 1), **self.figures}
        print(f"\n[drill {self.drill}] " + ", ".join(f"{k}={v}" for k, v in out.items()
                                                  if k != "drill"), flush=True)
        (self.tmp / "figures.json").write_text(json.dumps(out, indent=2) + "\n")
        path = os.environ.get("FLOORMAN_DRILL_REPORT")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(out) + "\n")
        return out


# --------------------------------------------------------------------------- tournaments


def write_tournament(path: Path, name: str, *, places: int | None = None,
                     structure: list[str] | None = None, extra: str = "") -> Path:
    """A drill's tournament file: the PSC Five Spades preset, English screens."""
    text = f'name: "{name}"\npreset: psc-five-spades\nlanguage: en\n'
    if places is not None:
        text += f"points: {{system: none, places: {places}}}\n"
    if structure:
        text += "structure:\n" + "".join(f"  - {lv}\n" for lv in structure)
    path.write_text(text + extra)
    return path


def short_levels(seconds: int, count: int, break_every: int = 6) -> list[str]:
    """``count`` levels of ``seconds`` s with a 3-s break after every ``break_every``
    (the clock runs through many level changes during a drill)."""
    out: list[str] = []
    for i in range(count):
        out.append(f"{{seconds: {seconds}, small_blind: {50 * (i + 1)}, "
                   f"big_blind: {100 * (i + 1)}}}")
        if break_every and i % break_every == break_every - 1 and i < count - 1:
            out.append("{break: 0.05}")
    return out


def names(n: int) -> list[str]:
    return [f"Player {i:03d}" for i in range(1, n + 1)]


# --------------------------------------------------------------------------- the log


def undone_groups(events: list[dict[str, Any]]) -> set[int]:
    return {e["target"] for e in events if e["type"] == "undo"}


def fingerprint_hash(t: Tournament) -> str:
    data = json.dumps(t.fingerprint(), sort_keys=True, default=str).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def expected_state(settings: TournamentSettings, events: list[dict[str, Any]],
                   now: float | None = None) -> tuple[dict[str, Any], Tournament]:
    """What the controller must publish for this log: the retained state of a reference
    replay (the clock without the fields that depend on the moment)."""
    t = Tournament.replay(events, settings)
    now = time.time() if now is None else now
    out: dict[str, Any] = {"structure": views.structure_view(t),
                           "summary": views.summary_view(t), "moves": views.moves_view(t),
                           "results": views.results_view(t),
                           "announcement": views.announcement_view(t)}
    clock = views.clock_view(t, now)
    out["clock"] = {k: clock[k] for k in CLOCK_KEYS}
    plan, pending = t.plan(), t.pending_moves()
    for n in sorted(set(t.tables) | set(t.broken)):
        out[f"table/{n}"] = views.table_view(t, n, plan=plan, pending=pending, now=now)
    return json.loads(json.dumps(out)), t


def state_diff(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """The retained topics whose payload is not the expected one (and unexpected ones)."""
    bad = []
    for key, want in expected.items():
        have = got.get(key)
        if key == "clock" and isinstance(have, dict) and isinstance(want, dict):
            have = {k: have.get(k) for k in CLOCK_KEYS}
            want = {k: want.get(k) for k in CLOCK_KEYS}
        if have != want:
            bad.append(key)
    bad += [k for k in got if k not in expected and k != "presence"]
    return bad


def open_tournament(ctrl: ControllerProcess, b: Broker, players: int) -> list[int]:
    """Start the controller; once it answers: ``players`` players registered ("Player
    001" …), the seats drawn, the clock started. The tables in play (retained state)."""
    ctrl.start()
    wait_up(b)
    director(b, "register", {"names": names(players)})
    director(b, "draw")
    director(b, "start")
    return tables_in_play(retained(b))


def retained(b: Broker) -> dict[str, Any]:
    """What a brand-new screen sees (:func:`~tests.support.mqtt.retained_state`), once
    nothing came for 0.3 s; the presence topic is not required."""
    return retained_state(b, need=BASE_STATE, quiet=0.3, timeout=15, all_retained=False)


# --------------------------------------------------------------------------- dealers


class Dealer:
    """One table's dealer: a kiosk :class:`~kiosk.link.Link` (outbox resent until
    answered, in order, across outages) that presses and records every answer."""

    def __init__(self, broker: Broker, table: int, *, name: str | None = None) -> None:
        self.table = table
        self.cond = threading.Condition()
        self.acks: dict[str, dict[str, Any]] = {}
        #: every press in press order: (id, action, fields, pressed while offline)
        self.pressed: list[tuple[str, str, dict[str, Any], bool]] = []
        self.broker = broker
        self.name = name
        self.link = self._link()

    def _link(self) -> Link:
        return Link(self.broker, table=self.table, name=self.name, notify=self._notify,
                    sync_every=2.0)

    def _notify(self, kind: str, data: Any) -> None:
        if kind == "answer":
            with self.cond:
                self.acks[data["id"]] = data
                self.cond.notify_all()

    def start(self) -> Dealer:
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.stop()

    def crash(self) -> None:
        """The kiosk's process dies: no goodbye, its connection simply drops (the broker
        sends its last will), its outbox is gone."""
        kill_link(self.link)

    def restart(self) -> None:
        self.link = self._link()
        self.link.start()

    def ready(self, timeout: float = 20.0) -> None:
        wait_for(lambda: self.link.connected.is_set() and self.link.sync.synced
                 and f"table/{self.table}" in self.link.state, timeout,
                 f"table {self.table}'s link")

    def view(self) -> dict[str, Any] | None:
        return self.link.state.get(f"table/{self.table}")

    def press(self, action: str, **fields: Any) -> str:
        offline = not self.link.connected.is_set()
        cid = self.link.press(action, **fields)
        self.pressed.append((cid, action, fields, offline))
        return cid

    def answer(self, cid: str, timeout: float | None = None,
               stop: threading.Event | None = None) -> dict[str, Any] | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.cond:
            while cid not in self.acks:
                if stop is not None and stop.is_set():
                    return None
                left = 0.2 if deadline is None else min(0.2, deadline - time.monotonic())
                if left <= 0:
                    return None
                self.cond.wait(left)
            return self.acks[cid]

    def pending(self) -> int:
        return self.link.pending()


def kill_link(link: Link) -> None:
    """End a link as a SIGKILL would: no offline message, no DISCONNECT."""
    link._stop.set()
    sock = link.mqtt.socket()
    link.mqtt.loop_stop()
    if sock is not None:
        try:
            sock.close()
        except OSError:
            pass
    link.connected.clear()


def hand_presses(rng: random.Random, seats: list[int], players_left: int
                 ) -> list[tuple[str, dict[str, Any]]]:
    """One hand at a table, as the simulator plays it (controller/simulate.py): now and
    then a time call (called and cancelled), a bust (sometimes two, with their stacks),
    then "hand done"."""
    out: list[tuple[str, dict[str, Any]]] = []
    if rng.random() < 0.03:
        out += [("time", {}), ("time", {})]
    if seats and rng.random() < (0.12 if players_left > 2 else 0.3):
        two = len(seats) > 3 and rng.random() < 0.1
        for seat in rng.sample(seats, 2 if two else 1):
            out.append(("bust", {"seat": seat, "stack": rng.choice([1000, 2000, 5000])}
                        if two else {"seat": seat}))
    out.append(("hand_done", {}))
    return out


def dealer_turn(rng: random.Random, view: dict[str, Any] | None, players_left: int
                ) -> list[tuple[str, dict[str, Any]]] | None:
    """What the dealer of a table presses next, as its screen (``view``) shows it:
    nothing (``None``) while the table is broken or has finished this hand-for-hand hand;
    "seated" while it waits for players on the way (TDA 11D: they sit down, the dealer
    presses it, as at a real table — without it a short table waits for ever, its busts
    refused too while every seat's player is on the way: a fresh clone's power-cut drill
    stalled so at the bubble); else one hand (:func:`hand_presses`)."""
    if not view or not view.get("in_play") or view["hand_for_hand"]["this_table_done"]:
        return None
    if view.get("waits_for"):
        return [("seated", {})]
    return hand_presses(rng, [s["seat"] for s in view["seats"]], players_left)


class DealerCrew:
    """A dealer thread per table, each pressing hands as the table's screen shows it
    ("seated" when it waits for players on the way) and waiting for every answer before
    the next press. ``go`` cleared: they finish the hand
    they are in and wait (``idle``)."""

    def __init__(self, broker: Broker, tables: list[int], seed: int, *,
                 think: tuple[float, float] = (0.0, 0.02), undo_rate: float = 0.03) -> None:
        self.dealers = {n: Dealer(broker, n) for n in tables}
        self.go = threading.Event()
        self.stop_ = threading.Event()
        self.idle = {n: threading.Event() for n in tables}
        self.think = think
        self.undo_rate = undo_rate
        self.seed = seed
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self._run, args=(n,), daemon=True,
                                         name=f"dealer-{n}") for n in tables]

    def start(self) -> DealerCrew:
        for d in self.dealers.values():
            d.start()
        for d in self.dealers.values():
            d.ready()
        for t in self.threads:
            t.start()
        return self

    def pause(self, timeout: float = 60.0) -> None:
        """Stop pressing; returns once every press so far is answered."""
        self.go.clear()
        wait_for(lambda: all(e.is_set() or not t.is_alive()
                             for e, t in zip(self.idle.values(), self.threads, strict=True)),
                 timeout, "the dealers to finish their hands")
        wait_for(lambda: all(d.pending() == 0 for d in self.dealers.values()), timeout,
                 "every press answered")

    def resume(self) -> None:
        self.go.set()

    def summary(self) -> dict[str, Any]:
        d = next(iter(self.dealers.values()))
        return d.link.state.get("summary") or {}

    def finished(self) -> bool:
        return bool(self.summary().get("finished"))

    def players_left(self) -> int:
        return int(self.summary().get("players_left", 1 << 30))

    def describe(self) -> str:
        """Each table as its dealer sees it and the dealer's last presses with their
        answers: what a stuck night is waiting for."""
        lines = [f"summary: {json.dumps(self.summary(), sort_keys=True)[:600]}"]
        for (n, d), thread in zip(self.dealers.items(), self.threads, strict=True):
            view = d.view() or {}
            hfh = view.get("hand_for_hand")
            last = [(action, fields, (d.acks.get(cid) or {}).get("ok"),
                     (d.acks.get(cid) or {}).get("reason"))
                    for cid, action, fields, _ in d.pressed[-3:]]
            lines.append(f"table {n}: in_play={view.get('in_play')} broken={view.get('broken')}"
                         f" seats={len(view.get('seats', []))} hand_for_hand={hfh}"
                         f" waits_for={view.get('waits_for')} pending={d.pending()}"
                         f" connected={d.link.connected.is_set()} thread_alive={thread.is_alive()}"
                         f" last={last}")
        return "\n".join(lines + [f"errors: {self.errors}"])

    def close(self) -> None:
        self.stop_.set()
        self.go.set()
        for t in self.threads:
            t.join(10)
        for d in self.dealers.values():
            d.stop()

    def _run(self, n: int) -> None:
        d = self.dealers[n]
        rng = random.Random(self.seed * 1000 + n)
        try:
            while not self.stop_.is_set():
                if not self.go.is_set():
                    self.idle[n].set()
                    self.go.wait()
                    self.idle[n].clear()
                    continue
                summary = d.link.state.get("summary") or {}
                if summary.get("finished"):
                    self.idle[n].set()
                    return
                presses = dealer_turn(rng, d.view(), summary.get("players_left", 99))
                if presses is None:
                    time.sleep(0.02)  # broken (for now), or waiting for the other tables
                    continue
                for action, fields in presses:
                    ans = d.answer(d.press(action, **fields), stop=self.stop_)
                    if ans is None:
                        return
                    if action == "bust" and ans["ok"] and rng.random() < self.undo_rate:
                        # the wrong seat: take it back, then the right one (the same here)
                        if d.answer(d.press("undo"), stop=self.stop_) is None:
                            return
                        if d.answer(d.press(action, **fields), stop=self.stop_) is None:
                            return
                time.sleep(rng.uniform(*self.think))
        except Exception as exc:  # noqa: BLE001 - reported by the drill
            self.errors.append(f"dealer {n}: {type(exc).__name__}: {exc}")
            self.idle[n].set()


# --------------------------------------------------------------------------- the checks


@dataclass
class Audit:
    """Every answer the clients got, checked against the log."""

    acked: int = 0
    lost: list[str] = field(default_factory=list)  #: acked, but not (so) in the log
    doubled: list[str] = field(default_factory=list)  #: applied more than once

    def figures(self) -> dict[str, Any]:
        return {"acked": self.acked, "lost": len(self.lost), "doubled": len(self.doubled)}


def audit(log: Log, presses: Iterable[tuple[str, str, dict[str, Any] | None]],
          acks: dict[str, dict[str, Any]]) -> Audit:
    """``presses``: (id, action, fields) of every command the clients sent; ``acks``:
    the answers they got by id. Lost: an answer whose id is not stored, or stored with
    another answer. Doubled: an event claimed by two answers, a player out twice, more
    "hand done" events than acknowledged "hand done" presses."""
    a = Audit()
    # the controller stores an answer under its sender's scope ("table-3/<id>",
    # "director/<id>": controller/service/inbound.py, scoped_id); the clients' ids are unique
    # UUIDs, so the id alone names the answer here
    log = log._replace(answers={k.rpartition("/")[2]: v for k, v in log.answers.items()})
    kinds: dict[str, str] = {}
    for cid, action, _ in presses:
        kinds[cid] = action
    for cid, ack in acks.items():
        a.acked += 1
        stored = log.answers.get(cid)
        if stored is None:
            a.lost.append(f"{cid}: acknowledged ({ack.get('ok')}), not in the log")
        elif (stored.get("ok"), stored.get("events"), stored.get("reason")) != \
                (ack.get("ok"), ack.get("events"), ack.get("reason")):
            a.lost.append(f"{cid}: acknowledged {ack}, stored {stored}")
    by_seq = {e["seq"]: e for e in log.events}
    owner: dict[int, str] = {}
    for cid, ans in log.answers.items():
        for s in ans.get("events") or []:
            if s in owner:
                a.doubled.append(f"event {s} claimed by {owner[s]} and {cid}")
            owner[s] = cid
            if s not in by_seq:
                a.lost.append(f"{cid}: its event {s} is not in the log")
    undone = undone_groups(log.events)
    out: dict[int, int] = {}
    for e in log.events:
        if e["type"] == "busted" and e["group"] not in undone:
            out[e["player"]] = out.get(e["player"], 0) + 1
    a.doubled += [f"player {p} out {k} times" for p, k in out.items() if k > 1]
    hand_done_events = sum(1 for e in log.events if e["type"] == "hand_done")
    acked_hand_done = sum(
        sum(1 for s in ack.get("events") or [] if by_seq.get(s, {}).get("type") == "hand_done")
        for cid, ack in acks.items() if kinds.get(cid) == "hand_done" and ack.get("ok"))
    others = sum(
        sum(1 for s in ans.get("events") or [] if by_seq.get(s, {}).get("type") == "hand_done")
        for cid, ans in log.answers.items() if kinds.get(cid) != "hand_done")
    if hand_done_events != acked_hand_done + others:
        a.doubled.append(f"{hand_done_events} hand_done events, {acked_hand_done} acknowledged "
                         f"hand_done presses (+{others} by other commands)")
    return a
