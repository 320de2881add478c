"""The tournament: state folded from events, and commands that make events.

Every change is an event (a JSON-able dict with ``seq``, ``group``, ``type``,
``at`` and its data). :meth:`Tournament.apply` folds one event into the state;
:meth:`Tournament.execute` checks a command against the state, and only when
it is possible emits its events (applying each at once, so the next decision
sees the last). A rejected command raises :class:`Rejected` before anything
changed. Randomness comes from a seed stored in the event together with its
outcome, so :meth:`Tournament.replay` rebuilds the identical state.

The caller (controller service, simulator) stores the returned events
durably *before* it tells anyone the command was accepted.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.engine import clock as clk
from controller.engine import places as plc
from controller.engine import seating
from controller.engine.results import Finish
from controller.engine.settings import TournamentSettings
from controller.engine.table import Table, TimeCallState

Event = dict[str, Any]

#: events that the system makes by itself; "undo" without a target skips them
_SYSTEM = {"opened", "level_started", "ghosts_removed", "addon"}


class Rejected(Exception):
    """An impossible command. ``str()`` is a reason a person can read."""


def _flags(**flags: Any) -> None:
    """Yes/no arguments must be true or false: "no" or {} must not mean yes (or no)."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise Rejected(f"{name} must be true or false, got {value!r}")


class InvalidEvent(Exception):
    """An event that does not fit the state (a corrupt log, or an undo that would break history)."""


@dataclass
class Player:
    id: int
    name: str
    member: bool = True
    ghost: bool = False
    table: int | None = None
    seat: int | None = None
    out: bool = False
    entries: int = 1
    rebuys: int = 0
    addon: bool = False
    chips: int = 0
    knocked_by: int | None = None
    removed: bool = False


@dataclass
class Move:
    """An instruction for the screens: ``player`` goes from table/seat to table/seat, and why."""

    seq: int
    player: int
    name: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    waiting: bool = False
    done: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.name,
            "player_id": self.player,
            "from": {"table": self.from_table, "seat": self.from_seat},
            "to": {"table": self.to_table, "seat": self.to_seat},
            "reason": self.reason,
            "waiting_for_button": self.waiting,
            "done": self.done,
        }


@dataclass
class HandForHandState:
    on: bool = False
    hand: int = 0
    done: set[int] = field(default_factory=set)
    hands_played: int = 0
    paused_clock: bool = False
    hand_started_at: float = 0.0


class Tournament:
    """One tournament's state. Build it with :meth:`new` or :meth:`replay`."""

    def __init__(self, settings: TournamentSettings, seed: int = 0) -> None:
        self.settings = settings
        self.seed = seed
        self.players: dict[int, Player] = {}
        self._by_name: dict[str, int] = {}
        self.tables: dict[int, Table] = {}
        self.clock = clk.Clock()
        self.level_announced = 0
        self.groups: list[list[plc.Bust]] = []
        self._group_of: dict[tuple, list[plc.Bust]] = {}
        self._bust_order = 0
        self.hfh = HandForHandState()
        self.moves: list[Move] = []
        self.drawn = False
        self.finished = False
        self.winner: int | None = None
        self.remaining = 0  # real players still in (ghosts never count)
        self.entries = 0
        self.chips = 0
        self.ghosts_removed = False
        self.addon_done = False
        self.heads_up = False
        self.hands_left: int | None = None
        self.broken: list[int] = []
        self.final_table: int | None = None
        self.log: list[Event] = []
        self._group: int | None = None

    # ------------------------------------------------------------------ build
    @classmethod
    def new(cls, settings: TournamentSettings, seed: int, now: float = 0.0) -> Tournament:
        """A fresh tournament whose first event records the base seed."""
        t = cls(settings, seed)
        t._emit("opened", now, name=settings.name, seed=seed)
        return t

    @classmethod
    def replay(cls, settings: TournamentSettings, events: Iterable[Event]) -> Tournament:
        """Rebuild the state from a log; undone groups are skipped (their events stay)."""
        events = list(events)
        undone = {e["target"] for e in events if e["type"] == "undo"}
        seed = next((e["seed"] for e in events if e["type"] == "opened"), 0)
        t = cls(settings, seed)
        for e in events:
            if e["type"] != "undo" and e["group"] not in undone:
                t.apply(e)
            t.log.append(e)
        return t

    # ---------------------------------------------------------------- helpers
    def _emit(self, type_: str, at: float, **data: Any) -> Event:
        seq = len(self.log) + 1
        if self._group is None:
            self._group = seq
        e: Event = {"seq": seq, "group": self._group, "type": type_, "at": at, **data}
        self.apply(e)
        self.log.append(e)
        return e

    def _rng(self) -> tuple[int, random.Random]:
        seed = (self.seed * 1_000_003 + len(self.log) + 1) % (2**63)
        return seed, random.Random(seed)

    def player(self, ref: int | str) -> Player:
        """A player by id or by name (case-insensitive)."""
        if isinstance(ref, bool):
            raise Rejected(f"unknown player {ref!r}")
        if isinstance(ref, int):
            p = self.players.get(ref)
        elif isinstance(ref, str):
            pid = self._by_name.get(ref.strip().casefold())
            p = self.players.get(pid) if pid is not None else None
        else:
            p = None
        if p is None:
            raise Rejected(f"no player called {ref!r}")
        return p

    def table(self, number: Any) -> Table:
        if isinstance(number, bool) or not isinstance(number, int):
            raise Rejected(f"table must be a number, got {number!r}")
        t = self.tables.get(number)
        if t is None:
            playing = ", ".join(str(n) for n in sorted(self.tables)) or "none"
            raise Rejected(f"table {number} is not in play (tables in play: {playing})")
        return t

    def counts(self) -> dict[int, int]:
        """Players seated at each table in play (ghosts and incoming movers included)."""
        return {n: t.count() for n, t in self.tables.items()}

    def seated(self) -> int:
        return sum(t.count() for t in self.tables.values())

    def level_number(self, index: int | None = None) -> int:
        """1-based number of the playing level at ``index`` (a break keeps the previous number)."""
        index = self.clock.level if index is None else index
        return sum(1 for lv in self.settings.structure[: index + 1] if not lv.is_break)

    def bubble_places(self) -> int:
        """How many places count (points or prizes) for the hand-for-hand bubble."""
        from controller.engine.points import scoring_places

        try:
            return scoring_places(self.settings.points, self.real_players())
        except ValueError:
            return 0  # a field size the system does not score (e.g. a qualifier of 12)

    def _require_running(self) -> None:
        if not self.drawn:
            raise Rejected("the seats have not been drawn yet")
        if self.finished:
            raise Rejected("the tournament is over")

    # ---------------------------------------------------------------- execute
    def execute(self, command: dict[str, Any], now: float) -> list[Event]:
        """Run one command (``{"cmd": name, ...args}``); returns the events it made.

        Raises :class:`Rejected` with a readable reason, changing nothing.
        """
        if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
            raise Rejected("a command needs a 'cmd' name")
        name = command["cmd"].replace("-", "_")
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is None:
            raise Rejected(f"unknown command {command['cmd']!r}")
        args = {k: v for k, v in command.items() if k not in ("cmd", "id")}
        start = len(self.log)
        self._group = None
        try:
            handler(now, **args)
        except TypeError as exc:
            if len(self.log) != start:
                raise
            raise Rejected(f"bad arguments for {command['cmd']}: {exc}") from None
        finally:
            self._group = None
        return self.log[start:]

    # -- registration and draw
    def _cmd_register(self, now: float, names: Sequence[str] | str, member: bool = True,
                      force: bool = False) -> None:
        _flags(member=member, force=force)
        if isinstance(names, str):
            names = [names]
        clean = self._check_names(names)
        if self.drawn:
            for n in clean:
                self._late(now, n, member, force)
            return
        for n in clean:
            self._emit("registered", now, player=len(self.players) + 1, name=n, member=bool(member))

    def _cmd_late(self, now: float, name: str, member: bool = True, force: bool = False) -> None:
        _flags(member=member, force=force)
        (n,) = self._check_names([name])
        if not self.drawn:
            self._emit("registered", now, player=len(self.players) + 1, name=n, member=bool(member))
            return
        self._late(now, n, member, force)

    def _check_names(self, names: Sequence[str]) -> list[str]:
        if not isinstance(names, (list, tuple)) or not names:
            raise Rejected("give at least one name")
        clean: list[str] = []
        seen: set[str] = set()
        for n in names:
            if not isinstance(n, str) or not n.strip():
                raise Rejected(f"a player's name must be text, got {n!r}")
            n = " ".join(n.split())
            if len(n) > 40:
                raise Rejected(f"name {n[:40]!r}… is longer than 40 characters")
            key = n.casefold()
            if key in self._by_name or key in seen:
                raise Rejected(f"{n} is already registered")
            seen.add(key)
            clean.append(n)
        return clean

    def _late_open(self, now: float | None = None) -> bool:
        levels = self.settings.entries.late_registration_levels
        if not self.clock.started:
            return True
        return self._level_at(now) <= levels

    def _level_at(self, now: float | None) -> int:
        """The playing level number at ``now`` (levels the clock has rolled over count)."""
        if now is None:
            return self.level_number()
        return self.level_number(clk.at(self.clock, self.settings.structure, now).level)

    def _late(self, now: float, name: str, member: bool, force: bool) -> None:
        self._require_running()
        if not force and not self._late_open(now):
            raise Rejected(f"late registration closed after level "
                           f"{self.settings.entries.late_registration_levels}")
        pid = len(self.players) + 1
        self._emit("registered", now, player=pid, name=name, member=bool(member))
        self._seat_entry(now, pid, "late_entry")
        self._hfh_auto(now)

    def _seat_entry(self, now: float, pid: int, kind: str) -> None:
        """Seat a late entry or re-entry: a ghost's seat early on, else the shortest table."""
        seed, rng = self._rng()
        ghost = next((p for p in self.players.values()
                      if p.ghost and not p.out and p.table is not None), None)
        if ghost is not None and self.level_number() <= self.settings.ghosts.remove_after_levels:
            # 000 9.5: a late arrival may take a ghost's seat (and its stack)
            self._emit(kind, now, player=pid, table=ghost.table, seat=ghost.seat,
                       replaces_ghost=ghost.id, seed=seed, waiting=False)
            return
        per = self.settings.players_per_table
        open_tables = {n: t for n, t in self.tables.items() if t.count() < per and not t.final}
        if self.final_table is not None:
            ft = self.tables[self.final_table]
            open_tables = {ft.number: ft} if ft.count() < ft.size else {}
        if not open_tables:
            number = 1
            while number in self.tables:
                number += 1
            self._emit(kind, now, player=pid, table=number, seat=1, new_table=True, seed=seed,
                       waiting=False)
            return
        low = min(t.count() for t in open_tables.values())
        tnum = rng.choice(sorted(n for n, t in open_tables.items() if t.count() == low))
        tab = open_tables[tnum]
        seat = rng.choice(tab.free_seats())
        self._emit(kind, now, player=pid, table=tnum, seat=seat, seed=seed,
                   waiting=tab.arrival_waits(seat))

    def _cmd_draw(self, now: float, seed: int | None = None) -> None:
        if self.drawn:
            raise Rejected("the seats are already drawn")
        real = [p.id for p in self.players.values()]
        if len(real) < 2:
            raise Rejected("at least two players must be registered before the draw")
        if seed is None:
            seed, rng = self._rng()
        else:
            rng = random.Random(seed)
        slots, button = seating.draw(real, self.settings.players_per_table, rng,
                                     ghosts=self.settings.ghosts.enabled)
        seats = []
        ghost_no = 0
        for pid, t, s in slots:
            if pid is None:
                ghost_no += 1
                seats.append([None, t, s, f"Ghost {ghost_no}"])
            else:
                seats.append([pid, t, s])
        self._emit("seats_drawn", now, seed=seed, seats=seats, button=button)

    # -- the clock
    def _cmd_start(self, now: float) -> None:
        self._require_running()
        if self.clock.running:
            raise Rejected("the clock is already running")
        self._emit("clock", now, op="start" if not self.clock.started else "resume")

    def _cmd_pause(self, now: float) -> None:
        if not self.clock.running:
            raise Rejected("the clock is not running")
        self._emit("clock", now, op="pause")

    def _cmd_resume(self, now: float) -> None:
        if self.clock.running:
            raise Rejected("the clock is already running")
        if not self.drawn:
            raise Rejected("the seats have not been drawn yet")
        self._emit("clock", now, op="resume")

    def _cmd_level(self, now: float, to: str | int = "next") -> None:
        c = clk.at(self.clock, self.settings.structure, now)
        last = len(self.settings.structure) - 1
        if to == "next":
            target = c.level + 1
        elif to == "prev":
            target = c.level - 1
        elif isinstance(to, int) and not isinstance(to, bool):
            # the director counts playing levels from 1; breaks are not numbered
            idx = [i for i, lv in enumerate(self.settings.structure) if not lv.is_break]
            if not 1 <= to <= len(idx):
                raise Rejected(f"there is no level {to} (levels 1-{len(idx)})")
            target = idx[to - 1]
        else:
            raise Rejected(f"level must be next, prev or a number, got {to!r}")
        if not 0 <= target <= last:
            raise Rejected("already at the " + ("last" if target > last else "first") + " level")
        self._emit("clock", now, op="level", value=target)
        self._tick(now)

    def _cmd_time(self, now: float, op: str = "add", seconds: float = 0) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise Rejected(f"seconds must be a number, got {seconds!r}")
        if op not in ("add", "set"):
            raise Rejected(f"time takes add or set, got {op!r}")
        if op == "set" and seconds < 0:
            raise Rejected("the time left cannot be negative")
        if not abs(seconds) <= 24 * 3600:
            raise Rejected(f"{seconds} seconds is more than a day; give at most 86400")
        if clk.left(self.clock, self.settings.structure, now) is None:
            raise Rejected("this level has no end")
        self._emit("clock", now, op=op, value=float(seconds))

    def _cmd_tick(self, now: float) -> None:
        self._tick(now)

    def _tick(self, now: float) -> None:
        """Record level changes that the passing time made, and their consequences."""
        c = clk.at(self.clock, self.settings.structure, now)
        if c.level != self.level_announced:
            self._emit("level_started", now, level=c.level, number=self.level_number(c.level),
                       is_break=self.settings.structure[c.level].is_break)
        g = self.settings.ghosts
        if g.enabled and not self.ghosts_removed and self.clock.started:
            ghosts = [p.id for p in self.players.values() if p.ghost and not p.out]
            played = self.level_number(c.level) - (0 if self.settings.structure[c.level].is_break
                                                   else 1)
            at_break = self.settings.structure[c.level].is_break and g.remove_at_first_break
            if played >= g.remove_after_levels or at_break:
                self._emit("ghosts_removed", now, players=ghosts)
                self._settle(now)
        e = self.settings.entries
        if (e.addon_after_level is not None and e.auto_addon_multiplier and not self.addon_done
                and self.level_number(c.level) >= e.addon_after_level
                and (self.settings.structure[c.level].is_break
                     or self.level_number(c.level) > e.addon_after_level)):
            self._addon(now)

    # -- the hand
    def _cmd_hand_done(self, now: float, table: int) -> None:
        self._require_running()
        tab = self.table(table)
        if self.hfh.on and table in self.hfh.done:
            waiting = sorted(set(self.tables) - self.hfh.done)
            raise Rejected(f"table {table} already finished this hand-for-hand hand; "
                           f"waiting for table {', '.join(map(str, waiting))}")
        if tab.hands_left == 0:
            raise Rejected(f"table {table} has played its last hand of the day")
        self._tick(now)
        if self.finished or self.tables.get(table) is not tab:
            # the tick removed the ghosts and this table broke (or the final table was
            # drawn): its hand is over with it, there is no next hand here to advance to
            return
        if self.final_table is None and self._break_due() is None:
            plan = [m for m in seating.balance_plan(self.counts(),
                                                   self.settings.balancing.tolerance)
                    if m[0] == table]
            for _, to in plan:
                self._balance_move(now, tab, self.tables[to])
        self._emit("hand_done", now, table=table)
        if self.hfh.on and self.hfh.done >= set(self.tables):
            self._emit("hfh_released", now, hand=self.hfh.hand + 1)

    def _balance_move(self, now: float, frm: Table, to: Table) -> None:
        seat = frm.next_big_blind()
        if seat is None or seat not in frm.occupant:
            return
        dest = to.worst_seat()
        if dest is None:
            return
        self._emit("moved", now, player=frm.occupant[seat], from_table=frm.number,
                   from_seat=seat, to_table=to.number, to_seat=dest, reason="balancing",
                   waiting=to.arrival_waits(dest))

    def _cmd_move_apply(self, now: float) -> None:
        """Carry out the balancing plan now, each donor's next big blind first."""
        self._require_running()
        plan = seating.balance_plan(self.counts(), self.settings.balancing.tolerance)
        if not plan:
            raise Rejected("the tables are balanced: no move is needed")
        for frm, to in plan:
            self._balance_move(now, self.tables[frm], self.tables[to])

    def _cmd_seated(self, now: float, player: int | str) -> None:
        p = self.player(player)
        if not any(m.player == p.id and not m.done for m in self.moves):
            raise Rejected(f"{p.name} has no move pending")
        self._emit("seated", now, player=p.id)

    # -- eliminations
    def _cmd_bust(self, now: float, table: int | None = None, seat: int | None = None,
                  player: int | str | None = None, stack: int | None = None,
                  by: int | str | None = None) -> None:
        self._require_running()
        if player is not None:
            p = self.player(player)
            if p.out:
                raise Rejected(f"{p.name} is already out")
            if p.table is None:
                raise Rejected(f"{p.name} has no seat")
        else:
            if seat is None or table is None:
                raise Rejected("bust needs a table and a seat, or a player")
            tab = self.table(table)
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise Rejected(f"seat must be a number, got {seat!r}")
            if not 1 <= seat <= tab.size:
                raise Rejected(f"table {table} has seats 1-{tab.size}, not {seat}")
            if seat not in tab.occupant:
                raise Rejected(f"seat {seat} at table {table} is empty")
            p = self.players[tab.occupant[seat]]
        if stack is not None and (isinstance(stack, bool) or not isinstance(stack, int)
                                  or stack < 0):
            raise Rejected(f"stack must be a whole number of chips, got {stack!r}")
        knocker = None
        if by is not None:
            k = self.player(by)
            if k.id == p.id or k.out:
                raise Rejected(f"{k.name} cannot have knocked out {p.name}")
            knocker = k.id
        assert p.table is not None
        tab = self.tables[p.table]
        if self.remaining <= 1 and not p.ghost:
            raise Rejected("only one player is left")
        # one group per hand: the table's own hand, or during hand-for-hand the hand every
        # table plays (002 b) -- also the bubble hand after hand-for-hand ended in it. A
        # table whose hand already had a bust before hand-for-hand began keeps its own
        # group, so the busts of that hand are still ranked by stack (000 9.5).
        key = ["table", tab.number, tab.hand_id]
        if tab.hfh_hand is not None and tuple(key) not in self._group_of:
            key = ["hfh", tab.hfh_hand]
        self._emit("busted", now, player=p.id, table=tab.number, seat=p.seat, stack=stack,
                   hand=key, by=knocker)
        self._settle(now)

    def _settle(self, now: float) -> None:
        """Consequences of a change in the number of players."""
        if self.remaining == 1 and not self.finished:
            winner = next(p.id for p in self.players.values()
                          if not p.out and not p.ghost)
            self._emit("finished", now, winner=winner)
            return
        if self.finished:
            return
        st = self.settings
        if (st.heads_up_halves_level and self.remaining == 2 and not self.heads_up):
            self._emit("heads_up", now)
        if self._final_table_due():
            self._form_final_table(now, "final table")
        else:
            t = self._break_due()
            if t is not None:
                self._break_table(now, t)
        self._hfh_auto(now)

    def _final_table_due(self) -> bool:
        """The players fit the final table (000 4.3, 002 "mode + 1", TDA RP-9).

        Also when they already sit at one table that is not the final table yet
        (a final table smaller than a playing table), but never in a tournament
        that started on one table.
        """
        return (self.final_table is None and self.seated() <= self.settings.final_table_size
                and (len(self.tables) > 1 or bool(self.broken)))

    def _break_due(self) -> int | None:
        if self.final_table is not None:
            return None
        return seating.table_to_break(self.counts(), self.settings.players_per_table,
                                      self.settings.balancing)

    def _break_table(self, now: float, number: int, reason: str | None = None) -> None:
        tab = self.tables[number]
        others = {n: t for n, t in self.tables.items() if n != number}
        per = self.settings.players_per_table
        free = {n: [s for s in t.free_seats() if s <= per] for n, t in others.items()}
        seed, rng = self._rng()
        movers = [tab.occupant[s] for s in sorted(tab.occupant)]
        placed = seating.spread(movers, free, {n: t.count() for n, t in others.items()}, rng)
        # arrivals between button and small blind wait (000 4.10)
        moves = [[pid, t, s, others[t].arrival_waits(s)] for pid, t, s in placed]
        self._emit("table_broken", now, table=number, seed=seed, moves=moves,
                   reason=reason or f"table {number} breaks")

    def _form_final_table(self, now: float, reason: str) -> None:
        seed, rng = self._rng()
        number = min(self.tables)
        ids = [pid for t in sorted(self.tables)
               for _, pid in sorted(self.tables[t].occupant.items())]
        size = max(self.settings.final_table_size, len(ids))
        order = list(ids)
        rng.shuffle(order)
        seats = sorted(rng.sample(range(1, size + 1), len(order)))
        button = rng.choice(seats)
        self._emit("final_table", now, table=number, size=size, seed=seed,
                   seats=[[pid, s] for pid, s in zip(order, seats, strict=True)],
                   button=button, reason=reason)

    def _cmd_break_table(self, now: float, table: int) -> None:
        self._require_running()
        self.table(table)
        if len(self.tables) < 2:
            raise Rejected("the last table in play cannot break")
        free = sum(len([s for s in t.free_seats() if s <= self.settings.players_per_table])
                   for n, t in self.tables.items() if n != table)
        if free < self.tables[table].count():
            raise Rejected(f"the other tables have {free} free seats for "
                           f"{self.tables[table].count()} players of table {table}")
        self._break_table(now, table, f"table {table} breaks (director)")
        self._hfh_auto(now)

    def _cmd_final_table(self, now: float) -> None:
        self._require_running()
        if self.final_table is not None:
            raise Rejected("the final table is already formed")
        if self.seated() > self.settings.table_seats:
            raise Rejected(f"{self.seated()} players do not fit at one table of "
                           f"{self.settings.table_seats} seats")
        self._form_final_table(now, "final table (director)")
        self._hfh_auto(now)

    # -- entries after the start
    def _cmd_rebuy(self, now: float, player: int | str) -> None:
        self._require_running()
        p = self.player(player)
        e = self.settings.entries
        if p.ghost:
            raise Rejected(f"{p.name} is a ghost seat, not a player")
        if not p.out:
            raise Rejected(f"{p.name} is still in the tournament")
        if p.rebuys >= e.rebuys:
            raise Rejected(f"{p.name} has no rebuy left ({e.rebuys} allowed)")
        if self._level_at(now) > e.rebuy_until_level:
            raise Rejected(f"rebuys closed after level {e.rebuy_until_level}")
        self._reenter(now, p, "rebuy")

    def _cmd_reentry(self, now: float, player: int | str) -> None:
        self._require_running()
        p = self.player(player)
        e = self.settings.entries
        if p.ghost:
            raise Rejected(f"{p.name} is a ghost seat, not a player")
        if not p.out:
            raise Rejected(f"{p.name} is still in the tournament")
        if p.entries - 1 >= e.reentries:
            raise Rejected(f"{p.name} has no re-entry left ({e.reentries} allowed)")
        if self.clock.started and self._level_at(now) > e.reentry_until_level:
            raise Rejected(f"re-entry closed after level {e.reentry_until_level}")
        self._reenter(now, p, "reentry")

    def _reenter(self, now: float, p: Player, kind: str) -> None:
        # the rebuy keeps the old seat where it is still free (000 4.13: a continuation)
        last = next((e for e in reversed(self.log) if e["type"] == "busted"
                     and e["player"] == p.id), None)
        if kind == "rebuy" and last is not None:
            t = self.tables.get(last["table"])
            if t is not None and last["seat"] not in t.occupant:
                self._emit(kind, now, player=p.id, table=t.number, seat=last["seat"],
                           waiting=t.arrival_waits(last["seat"]))
            else:
                self._seat_entry(now, p.id, kind)
        else:
            self._seat_entry(now, p.id, kind)
        self._hfh_auto(now)

    def _cmd_addon(self, now: float) -> None:
        self._require_running()
        if self.addon_done:
            raise Rejected("the add-on was already given")
        if not self.settings.entries.auto_addon_multiplier:
            raise Rejected("this tournament has no add-on")
        self._addon(now)

    def _addon(self, now: float) -> None:
        # 000 4.13: who did not need the rebuy gets double the start stack automatically
        e = self.settings.entries
        chips = e.auto_addon_multiplier * self.settings.start_stack
        ids = [p.id for p in self.players.values()
               if not p.out and not p.ghost and p.rebuys == 0]
        self._emit("addon", now, players=ids, chips=chips)

    # -- hand-for-hand
    def _cmd_hfh(self, now: float, on: bool) -> None:
        _flags(on=on)
        self._require_running()
        if on and self.hfh.on:
            raise Rejected("hand-for-hand is already on")
        if not on and not self.hfh.on:
            raise Rejected("hand-for-hand is not on")
        if on and len(self.tables) < 2:
            raise Rejected("hand-for-hand needs more than one table")
        self._emit("hfh", now, on=bool(on), reason="director")

    def _hfh_auto(self, now: float) -> None:
        places = self.bubble_places()
        if self.hfh.on and self.hfh.done and self.hfh.done >= set(self.tables) \
                and len(self.tables) > 1:
            # a table broke while the others waited: release the next hand everywhere
            self._emit("hfh_released", now, hand=self.hfh.hand + 1)
        if self.hfh.on and (len(self.tables) < 2 or (places and self.remaining <= places)):
            self._emit("hfh", now, on=False, reason="bubble burst" if len(self.tables) > 1
                       else "one table left")
        elif (not self.hfh.on and self.settings.hand_for_hand.auto and places
              and len(self.tables) > 1 and self.remaining == places + 1):
            self._emit("hfh", now, on=True, reason=f"bubble: {self.remaining} left, "
                       f"{places} places count")

    # -- time call and end of day
    def _cmd_time_call(self, now: float, table: int, op: str = "start",
                       seat: int | None = None) -> None:
        self._require_running()
        tab = self.table(table)
        if op == "start":
            if tab.time_call is not None:
                raise Rejected(f"a time call is already running at table {table}")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                     or not 1 <= seat <= tab.size):
                raise Rejected(f"seat must be a seat of table {table} (1-{tab.size}), "
                               f"got {seat!r}")
            tc = self.settings.time_call
            self._emit("time_call", now, table=table, op="start", seconds=tc.seconds,
                       countdown=tc.countdown, seat=seat)
        elif op in ("cancel", "expire"):
            if tab.time_call is None:
                raise Rejected(f"no time call is running at table {table}")
            self._emit("time_call", now, table=table, op=op)
        else:
            raise Rejected(f"time call takes start, cancel or expire, got {op!r}")

    def _cmd_hands_left(self, now: float, count: int) -> None:
        self._require_running()
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 50:
            raise Rejected(f"hands left must be a number from 0 to 50, got {count!r}")
        self._emit("hands_left", now, count=count)

    # -- undo
    def _cmd_undo(self, now: float, target: int | None = None) -> None:
        undone = {e["target"] for e in self.log if e["type"] == "undo"}
        groups = [e["group"] for e in self.log
                  if e["seq"] == e["group"] and e["type"] not in _SYSTEM | {"undo"}
                  and e["group"] not in undone]
        if target is None:
            if not groups:
                raise Rejected("there is nothing to undo")
            target = groups[-1]
        elif target not in groups:
            raise Rejected(f"event {target} cannot be undone (not a command, already undone, "
                           f"or an undo)")
        probe = [e for e in self.log] + [{"seq": len(self.log) + 1, "group": len(self.log) + 1,
                                            "type": "undo", "at": now, "target": target}]
        try:
            Tournament.replay(self.settings, probe)
        except (InvalidEvent, Rejected, KeyError, ValueError) as exc:
            raise Rejected(f"cannot undo event {target}: later events depend on it ({exc})"
                           ) from None
        self._emit("undo", now, target=target)

    # ------------------------------------------------------------------ apply
    def apply(self, e: Event) -> None:
        """Fold one event into the state. Raises :class:`InvalidEvent` if it does not fit."""
        fn = getattr(self, f"_on_{e['type']}", None)
        if fn is None:
            raise InvalidEvent(f"unknown event type {e['type']!r}")
        at = e["at"]
        self.clock = clk.at(self.clock, self.settings.structure, at)
        fn(e)

    def _on_opened(self, e: Event) -> None:
        self.seed = e["seed"]

    def _on_registered(self, e: Event) -> None:
        pid = e["player"]
        if pid in self.players or e["name"].casefold() in self._by_name:
            raise InvalidEvent(f"player {pid} {e['name']!r} registered twice")
        self.players[pid] = Player(pid, e["name"], member=e["member"])
        self._by_name[e["name"].casefold()] = pid
        self.entries += 1
        self.remaining += 1
        self.chips += self.settings.start_stack
        self.players[pid].chips = self.settings.start_stack

    def _sit(self, pid: int, table: int, seat: int, waiting: bool = False) -> None:
        t = self.tables.get(table)
        if t is None:
            raise InvalidEvent(f"table {table} is not in play")
        if seat in t.occupant:
            raise InvalidEvent(f"seat {seat} at table {table} is taken")
        if not 1 <= seat <= t.size:
            raise InvalidEvent(f"table {table} has no seat {seat}")
        p = self.players[pid]
        if p.table is not None:
            raise InvalidEvent(f"{p.name} already sits at table {p.table}")
        t.occupant[seat] = pid
        if waiting:
            t.waiting.add(seat)
        p.table, p.seat = table, seat

    def _stand(self, pid: int) -> tuple[int, int]:
        p = self.players[pid]
        if p.table is None or p.seat is None:
            raise InvalidEvent(f"{p.name} has no seat")
        t = self.tables[p.table]
        if t.occupant.get(p.seat) != pid:
            raise InvalidEvent(f"{p.name} is not at table {p.table} seat {p.seat}")
        del t.occupant[p.seat]
        t.waiting.discard(p.seat)
        where = (p.table, p.seat)
        p.table = p.seat = None
        return where

    def _on_seats_drawn(self, e: Event) -> None:
        if self.drawn:
            raise InvalidEvent("seats drawn twice")
        per = self.settings.players_per_table
        for row in e["seats"]:
            pid, t, s = row[0], row[1], row[2]
            if t not in self.tables:
                self.tables[t] = Table(t, per, hand_id=e["seq"])
            if pid is None:
                pid = len(self.players) + 1
                self.players[pid] = Player(pid, row[3], member=False, ghost=True,
                                           chips=self.settings.start_stack)
                self.chips += self.settings.start_stack
            self._sit(pid, t, s)
        for t in self.tables.values():
            t.first_hand(e["button"])
        self.drawn = True

    def _on_clock(self, e: Event) -> None:
        s, now, op = self.settings.structure, e["at"], e["op"]
        if op == "start":
            self.clock = clk.start(self.clock, s, now)
        elif op == "pause":
            self.clock = clk.pause(self.clock, s, now)
        elif op == "resume":
            self.clock = clk.resume(self.clock, s, now)
        elif op == "level":
            self.clock = clk.set_level(self.clock, s, e["value"], now)
        elif op == "add":
            self.clock = clk.add(self.clock, s, e["value"], now)
        elif op == "set":
            self.clock = clk.set_left(self.clock, s, e["value"], now)
        else:
            raise InvalidEvent(f"unknown clock op {op!r}")

    def _on_level_started(self, e: Event) -> None:
        self.level_announced = e["level"]

    def _on_ghosts_removed(self, e: Event) -> None:
        self.ghosts_removed = True
        for pid in e["players"]:
            p = self.players[pid]
            if p.out:
                continue
            self._stand(pid)
            p.out = p.removed = True
            self.chips -= p.chips  # 000 9.5: a removed ghost's chips leave the tournament

    def _on_addon(self, e: Event) -> None:
        self.addon_done = True
        for pid in e["players"]:
            p = self.players[pid]
            p.addon = True
            p.chips += e["chips"]
            self.chips += e["chips"]

    def _on_hand_done(self, e: Event) -> None:
        t = self.tables.get(e["table"])
        if t is None:
            raise InvalidEvent(f"table {e['table']} is not in play")
        t.advance()
        t.hand_id = e["seq"]
        if not self.hfh.on:
            t.hfh_hand = None  # the hand-for-hand hand in play here is over
        t.time_call = None
        for m in self.moves:
            if not m.done and m.to_table == t.number:
                m.done = True
        if self.hfh.on:
            self.hfh.done.add(t.number)
        if self.hands_left is not None and all(x.hands_left == 0 for x in self.tables.values()):
            self.clock = clk.pause(self.clock, self.settings.structure, e["at"]) \
                if self.clock.running else self.clock

    def _on_moved(self, e: Event) -> None:
        pid = e["player"]
        frm = self._stand(pid)
        if frm != (e["from_table"], e["from_seat"]):
            raise InvalidEvent(f"player {pid} was not at table {e['from_table']} "
                               f"seat {e['from_seat']}")
        self._sit(pid, e["to_table"], e["to_seat"], e["waiting"])
        self._close_moves(pid)
        self.moves.append(Move(e["seq"], pid, self.players[pid].name, frm[0], frm[1],
                               e["to_table"], e["to_seat"], e["reason"], e["waiting"]))

    def _on_seated(self, e: Event) -> None:
        for m in self.moves:
            if m.player == e["player"] and not m.done:
                m.done = True

    def _on_table_broken(self, e: Event) -> None:
        number = e["table"]
        if number not in self.tables:
            raise InvalidEvent(f"table {number} is not in play")
        for pid, t, s, waiting in e["moves"]:
            frm = self._stand(pid)
            self._sit(pid, t, s, waiting)
            self._close_moves(pid)
            self.moves.append(Move(e["seq"], pid, self.players[pid].name, frm[0], frm[1], t, s,
                                   e["reason"], waiting))
        if self.tables[number].occupant:
            raise InvalidEvent(f"table {number} broke with players still seated")
        del self.tables[number]
        self.broken.append(number)
        if self.hfh.on:
            self.hfh.done.discard(number)

    def _on_final_table(self, e: Event) -> None:
        origin = {pid: self._stand(pid) for pid, _ in e["seats"]}
        if any(t.occupant for t in self.tables.values()):
            raise InvalidEvent("players left out of the final table")
        for n in list(self.tables):
            if n != e["table"]:
                self.broken.append(n)
        self.tables = {e["table"]: Table(e["table"], e["size"], final=True, hand_id=e["seq"])}
        ft = self.tables[e["table"]]
        for pid, s in e["seats"]:
            self._sit(pid, e["table"], s)
            if origin[pid] != (e["table"], s):
                self._close_moves(pid)
                self.moves.append(Move(e["seq"], pid, self.players[pid].name, *origin[pid],
                                       e["table"], s, e["reason"]))
        ft.first_hand(e["button"])
        self.final_table = e["table"]

    def _close_moves(self, pid: int) -> None:
        """A newer move (or a bust) ends any move of ``pid`` still pending."""
        for m in self.moves:
            if m.player == pid and not m.done:
                m.done = True

    def _on_busted(self, e: Event) -> None:
        p = self.players[e["player"]]
        if p.out:
            raise InvalidEvent(f"{p.name} is already out")
        self._stand(p.id)
        self._close_moves(p.id)
        p.out = True
        p.knocked_by = e.get("by")
        if p.ghost:
            return
        self.remaining -= 1
        key = tuple(e["hand"])
        group = self._group_of.get(key)
        if group is None:
            group = []
            self._group_of[key] = group
            self.groups.append(group)
        self._bust_order += 1
        group.append(plc.Bust(p.id, e["table"], e.get("stack"), self._bust_order))

    def _unbust(self, pid: int) -> None:
        for g in self.groups:
            for b in g:
                if b.player == pid:
                    g.remove(b)
                    break
        self.groups = [g for g in self.groups if g]
        self._group_of = {k: g for k, g in self._group_of.items() if g}

    def _on_late_entry(self, e: Event) -> None:
        self._enter(e)

    def _on_reentry(self, e: Event) -> None:
        p = self.players[e["player"]]
        if not p.out:
            raise InvalidEvent(f"{p.name} is not out")
        p.entries += 1
        self.entries += 1
        self._back_in(p, e)

    def _on_rebuy(self, e: Event) -> None:
        p = self.players[e["player"]]
        if not p.out:
            raise InvalidEvent(f"{p.name} is not out")
        p.rebuys += 1
        self._back_in(p, e)

    def _back_in(self, p: Player, e: Event) -> None:
        p.out = False
        p.knocked_by = None
        p.chips += self.settings.start_stack
        self.chips += self.settings.start_stack
        self.remaining += 1
        self._unbust(p.id)
        self._enter(e)

    def _enter(self, e: Event) -> None:
        pid, t, s = e["player"], e["table"], e["seat"]
        if e.get("new_table"):
            self.tables[t] = Table(t, self.settings.players_per_table, hand_id=e["seq"])
        ghost = e.get("replaces_ghost")
        if ghost is not None:
            g = self.players[ghost]
            self._stand(ghost)
            g.out = g.removed = True
            # the arrival takes over the ghost's seat and stack (000 9.5)
            self.chips -= self.settings.start_stack
        self._sit(pid, t, s, e.get("waiting", False))
        tab = self.tables[t]
        if tab.bb is None and tab.dealt_count() >= 2:
            tab.first_hand(tab.button or s)

    def _on_heads_up(self, e: Event) -> None:
        self.heads_up = True
        self.clock = clk.halve(self.clock, self.settings.structure, e["at"])

    def _on_finished(self, e: Event) -> None:
        self.finished = True
        self.winner = e["winner"]
        if self.clock.running:
            self.clock = clk.pause(self.clock, self.settings.structure, e["at"])

    def _on_hfh(self, e: Event) -> None:
        policy = self.settings.hand_for_hand.clock
        if e["on"]:
            self.hfh = HandForHandState(on=True, hand=1, hand_started_at=e["at"])
            for t in self.tables.values():
                t.hfh_hand = e["seq"]
            if policy in ("stops", "deduct") and self.clock.running:
                self.clock = clk.pause(self.clock, self.settings.structure, e["at"])
                self.hfh.paused_clock = True
        else:
            was_paused = self.hfh.paused_clock
            for n in self.hfh.done:
                if n in self.tables:
                    # this table finished the last hand-for-hand hand: its next hand is normal
                    self.tables[n].hfh_hand = None
            self.hfh.on = False
            self.hfh.done = set()
            if was_paused and not self.clock.running and not self.finished:
                self.clock = clk.resume(self.clock, self.settings.structure, e["at"])
            self.hfh.paused_clock = False

    def _on_hfh_released(self, e: Event) -> None:
        h = self.hfh
        s = self.settings.hand_for_hand
        if s.clock == "deduct" and h.paused_clock:
            # TDA RP-8: the clock loses the hand's time, at most deduct_seconds per hand
            spent = min(e["at"] - h.hand_started_at, s.deduct_seconds)
            self.clock = clk.add(self.clock, self.settings.structure, -spent, e["at"])
        h.hand = e["hand"]
        h.done = set()
        h.hands_played += 1
        h.hand_started_at = e["at"]
        for t in self.tables.values():
            t.hfh_hand = e["seq"]

    def _on_time_call(self, e: Event) -> None:
        t = self.tables.get(e["table"])
        if t is None:
            raise InvalidEvent(f"table {e['table']} is not in play")
        if e["op"] == "start":
            t.time_call = TimeCallState(e["at"], e["seconds"], e["countdown"], e.get("seat"))
        else:
            t.time_call = None

    def _on_hands_left(self, e: Event) -> None:
        self.hands_left = e["count"]
        for t in self.tables.values():
            t.hands_left = e["count"]

    def _on_undo(self, e: Event) -> None:
        # an undo rebuilds the state from the log without the undone group
        rebuilt = Tournament.replay(self.settings, self.log + [e])
        rebuilt.log = self.log  # the caller appends e to the shared log
        self.__dict__.update(rebuilt.__dict__)

    # ------------------------------------------------------------------- read
    def places(self) -> dict[int, int]:
        """Every finished player's place; the winner (or, before the end, nobody) is 1."""
        res = plc.places(self.groups, self.remaining,
                         self.settings.hand_for_hand.cross_table_busts)
        if self.finished and self.winner is not None:
            res[self.winner] = 1
        return res

    def real_players(self) -> int:
        """Players who entered (ghosts are not players; a re-entry is the same player)."""
        return sum(1 for p in self.players.values() if not p.ghost)

    def finishes(self) -> list[Finish]:
        """Every placed player as a :class:`~controller.engine.results.Finish` for scoring."""
        places = self.places()
        return [
            Finish(p.id, p.name, places[p.id], member=p.member,
                   eliminated_by=None if p.knocked_by is None
                   or self.players[p.knocked_by].ghost else p.knocked_by,
                   removed_as_ghost=p.removed and not p.ghost)
            for p in self.players.values() if p.id in places and not p.ghost
        ]

    def pending_moves(self) -> list[Move]:
        return [m for m in self.moves if not m.done]

    def plan(self) -> dict[str, Any]:
        """What the floor will do next: the table to break, or the balancing moves."""
        brk = self._break_due()
        return {
            "break_table": brk,
            "final_table_due": self._final_table_due(),
            "balance": [] if brk is not None else [
                {"from_table": f, "to_table": t}
                for f, t in seating.balance_plan(self.counts(), self.settings.balancing.tolerance)
            ],
        }

    def fingerprint(self) -> dict[str, Any]:
        """The whole state as plain data, for comparing a replay with the live state."""
        return {
            "players": [asdict(p) for p in sorted(self.players.values(), key=lambda p: p.id)],
            "tables": [
                {**{k: v for k, v in asdict(t).items() if k not in ("occupant", "waiting")},
                 "occupant": sorted(t.occupant.items()), "waiting": sorted(t.waiting)}
                for t in sorted(self.tables.values(), key=lambda t: t.number)
            ],
            "clock": asdict(self.clock),
            "level_announced": self.level_announced,
            "groups": [[asdict(b) for b in g] for g in self.groups],
            "hfh": {**asdict(self.hfh), "done": sorted(self.hfh.done)},
            "moves": [asdict(m) for m in self.moves],
            "scalars": [self.drawn, self.finished, self.winner, self.remaining, self.entries,
                        self.chips, self.ghosts_removed, self.addon_done, self.heads_up,
                        self.hands_left, list(self.broken), self.final_table],
            "places": sorted(self.places().items()),
        }
