"""The tournament: state folded from events, and commands that make events.

:meth:`Tournament.execute` parses a command (:mod:`~controller.engine.commands`),
hands it to the rule that owns it (:mod:`~controller.engine.rules`), which
checks it against the state and, only when it is possible, emits events
(:mod:`~controller.engine.events`); each is folded at once, so the next
decision sees the last. Then every rule's *reactions* look at the new state
(a bust that leaves one player finishes the tournament, a table that can be
broken breaks, a running time call whose time is up expires…), in the fixed
order of :data:`controller.engine.rules.RULES`, until none has anything to add.
A rejected command raises :class:`Rejected` before anything changed.

The first event records the tournament's resolved settings, so
:meth:`Tournament.replay` needs nothing but the log: a tournament file edited
during the night does not change a running tournament. Randomness comes from
a seed stored with its outcome in the event.

The caller (controller service, simulator) stores the returned events
durably *before* it tells anyone the command was accepted.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Collection, Iterable, Iterator
from dataclasses import asdict
from typing import Any

from controller.engine import chain
from controller.engine import clock as clk
from controller.engine import commands as cmds
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine.commands import Rejected
from controller.engine.events import InvalidEvent, Record
from controller.engine.results import Finish, ResultRow, score
from controller.engine.settings import TournamentSettings, from_data, to_data
from controller.engine.state import (
    Announcement,
    DeskState,
    HandForHandState,
    Move,
    Player,
    RoundsState,
)
from controller.engine.table import Table

__all__ = ["Event", "InvalidEvent", "Move", "Player", "Rejected", "Tournament"]

#: an event as stored in the log (a JSON-able dict); its typed form is in :mod:`events`
Event = Record

#: how many rounds of reactions one command may cause before it is an engine bug
_MAX_ROUNDS = 50
#: kept states (:meth:`Tournament.keep`) held at once: the newest and the one before, so
#: an undo of the last command finds one from before it even right after a keep
KEPT = 2
#: what belongs to this run only, not to the state: the kept states, and an undo's work
#: handed from its rule to its fold and its words (rules/undo.py)
_TRANSIENT = frozenset({"_kept", "undo_ready", "undone_as"})
#: what a kept state leaves out: the log is shared (append-only), and the transient
_NOT_KEPT = _TRANSIENT | {"log"}


def undone_in(events: Iterable[Record]) -> tuple[set[int], set[int]]:
    """What the undos among ``events`` took back: the groups, and the single events (the
    balancing moves an undo withdrew with its group, rules/undo.py)."""
    groups: set[int] = set()
    seqs: set[int] = set()
    for e in events:
        if e["type"] == "undo":
            groups.add(e["target"])
            seqs.update(e.get("withdrawn") or ())
    return groups, seqs


class Tournament:
    """One tournament's state. Build it with :meth:`new` or :meth:`replay`."""

    def __init__(self, settings: TournamentSettings, seed: int = 0) -> None:
        self.settings = settings
        self.seed = seed
        self.players: dict[int, Player] = {}
        self.by_name: dict[str, int] = {}
        self.tables: dict[int, Table] = {}
        #: players and ghosts in a seat (kept by the seating folds; the reactions read it
        #: after every command, so it must not cost a walk over every table)
        self.seated_count = 0
        #: how many tables in play seat k players, for every k ≥ 1 (kept by the seating
        #: folds; the tables not in it are empty): the balancing plan sees a balanced floor
        #: without a walk over every table (:meth:`size_range`)
        self.table_sizes: dict[int, int] = {}
        #: the seats the tables keep for arrivals, all tables together (kept by the folds,
        #: rules/reserve.py: balancing and the summary ask after every command)
        self.reserve_held = 0
        self.clock = clk.Clock()
        #: controller time the clock last began to run (a table's "hand done" reminder)
        self.clock_since = 0.0
        self.level_announced = 0
        #: controller time the announced level began, and the level before it (its index
        #: and when it began): a table's hand in play keeps the blinds it began with
        #: (rules/hands.py, hand_level)
        self.level_started_at = 0.0
        self.level_before: tuple[int, float] | None = None
        self.groups: list[list[plc.Bust]] = []
        self.group_of: dict[tuple[Any, ...], list[plc.Bust]] = {}
        self.bust_order = 0
        self.hfh = HandForHandState()
        self.moves: list[Move] = []
        #: the moves not done yet, by player (at most one each), in the order they were made
        self.pending: dict[int, Move] = {}
        self.drawn = False
        #: reserve seats the draw leaves free (rules/reserve.py; after it, the tables')
        self.reserve = 0
        self.finished = False
        self.winner: int | None = None
        #: players who share first place with the winner (001 §2 III qualifiers of 9-10)
        self.co_winners: list[int] = []
        self.remaining = 0  # real players still in (ghosts never count)
        self.entries = 0
        #: the highest player id ever given (undone registrations aside): ids are never
        #: reused by a later registration, even after an unregister
        self.last_player_id = 0
        self.chips = 0
        self.ghosts_removed = False
        #: money bounties nobody won (rules/bounties.py): they go to the winner
        self.bounty_unclaimed = 0
        self.addon_done = False
        self.heads_up = False
        self.hands_left: int | None = None
        #: the director's colour-ups under way (rules/chip_race.py ``Calls``; 002 "jederzeit")
        self.colour_up: Any = None
        self.broken: list[int] = []
        self.final_table: int | None = None
        #: names each member drew (000 6.3) and each player's mystery list (000 4.17)
        self.drawn_names: dict[int, tuple[int, ...]] = {}
        self.mystery_lists: dict[int, tuple[int, ...]] = {}
        #: net playing time in seconds up to ``played_at`` (see :meth:`played`)
        self.play_seconds = 0.0
        self.played_at: float | None = None
        #: a play day's table games (003 6), see :mod:`controller.engine.rules.play_day`
        self.games: dict[int, Any] = {}
        #: players who were absent since the start (rules/ghosts.py): the reaction that
        #: removes the absent looks at these, not at every player
        self.absent_players: set[int] = set()
        #: players whose stack was ever counted (rules/chip_counts.py ``record``): the wall's
        #: chip leader looks at these, not at every player of a festival
        self.counted: set[int] = set()
        #: the tables whose time call may run (rules/time_calls.py; a table broken since
        #: stays in it): the reaction that ends the calls looks at these, not at every table
        self.time_call_tables: set[int] = set()
        #: the disqualified players in the order of their disqualification (rules/penalties.py)
        self.disqualified: list[int] = []
        #: the banner on every screen (rules/announcements.py), None: none
        self.announcement: Announcement | None = None
        #: the rounds of play the clock and restart (rules/rounds.py)
        self.rounds = RoundsState()
        #: the registration desk: seat limit, waiting list, check-in (rules/desk.py)
        self.desk = DeskState()
        #: the deal at the final table, while it stands (rules/final_deal.py)
        self.deal: ev.DealMade | None = None
        self.log: list[Record] = []
        #: the hash chain's value after the last event (:mod:`~controller.engine.chain`)
        self._chain = chain.GENESIS
        self._group: int | None = None
        #: copies of the state (:meth:`keep`): (events folded into it, the pickled state)
        self._kept: list[tuple[int, bytes]] = []
        self._transient()

    def _transient(self) -> None:
        #: an undo's check made the state without the group it takes back: (the group,
        #: the log's length then, that state), for the undo's fold (rules/undo.py)
        self.undo_ready: tuple[int, int, Tournament] | None = None
        #: the last undo named as the floor saw its command before it: (the undo's seq,
        #: the words), for :func:`controller.engine.history.said`
        self.undone_as: tuple[int, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # a snapshot (controller/log/snapshot.py) is the state and its log: the kept copies
        # only make this run's undos faster
        return {k: v for k, v in self.__dict__.items() if k not in _TRANSIENT}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._kept = []
        self._transient()

    # ------------------------------------------------------------------ build
    @classmethod
    def new(cls, settings: TournamentSettings, seed: int, now: float = 0.0) -> Tournament:
        """A fresh tournament whose first event records the base seed and the settings."""
        t = cls(settings, seed)
        t.emit(ev.Opened, now, name=settings.name, seed=seed, settings=to_data(settings))
        return t

    @classmethod
    def replay(cls, events: Iterable[Record], settings: TournamentSettings | None = None,
               *, check: bool = True) -> Tournament:
        """Rebuild the state from a log alone; undone groups are skipped (their events stay).

        Raises :class:`InvalidEvent` (a :class:`~controller.engine.chain.BadEvent` naming
        the first bad event) for a log with a missing, reordered or edited event.
        ``check=False`` skips the hash chain: only for a log this engine holds in memory
        and extends with events it has not emitted yet (an undo's trial replay).

        The settings are the log's own (its ``opened`` event). ``settings``
        supplies the broker section, and the rules too for a version-1 log
        that did not record them.
        """
        events = list(events)
        # the chain first: a missing, reordered or edited event is named before anything
        # is read or folded (000 3.3)
        last = chain.check(events).last if check else chain.GENESIS
        opened = events[0] if events and events[0].get("type") == "opened" else None
        if opened is None:
            raise InvalidEvent("the log does not start with an 'opened' event")
        broker = settings.broker if settings is not None else None
        if opened.get("settings") is not None:
            try:
                base = from_data(opened["settings"], broker)
            except ValueError as exc:
                raise InvalidEvent(str(exc)) from None
        elif settings is not None:
            base = settings
        else:
            raise InvalidEvent("this log (version 1) does not record its settings: "
                               "give the tournament file")
        parsed = [ev.parse(e) for e in events]
        undone = {p.target for p in parsed if isinstance(p, ev.Undo)}
        withdrawn = {s for p in parsed if isinstance(p, ev.Undo) for s in p.withdrawn or ()}
        t = cls(base, opened.get("seed", 0))
        for e, p in zip(events, parsed, strict=True):
            if not isinstance(p, ev.Undo) and p.group not in undone and p.seq not in withdrawn:
                try:
                    t._fold(p)
                except InvalidEvent as exc:
                    raise chain.BadEvent(p.seq, f"({p.type}) {exc}") from None
                except Exception as exc:  # noqa: BLE001 - an edited event that folds wrong
                    raise chain.BadEvent(p.seq, f"({p.type}) does not fit the state "
                                         f"({type(exc).__name__}: {exc})") from None
            t.log.append(e)
        t._chain = last
        return t

    # ------------------------------------------------------------ kept states
    def keep(self) -> None:
        """Keep a copy of the state as it is now, for :meth:`state_before`: an undo
        replays from it instead of from the first event (1.1 s at 23,500 events, issue
        15). A pickle of the state without its log: ~30 ms and 2.3 MB at 10,000 players,
        well under 1 ms for a club, so the controller keeps one at a quiet moment
        (``service.QUIET``), not during a command. The :data:`KEPT` newest are kept.
        Called between commands."""
        state = {k: v for k, v in self.__dict__.items() if k not in _NOT_KEPT}
        self._kept = [*self._kept[1 - KEPT:], (len(self.log), pickle.dumps(state, protocol=5))]

    @property
    def kept_at(self) -> int:
        """Events the newest kept state covers (0: none kept)."""
        return self._kept[-1][0] if self._kept else 0

    def state_before(self, before: int) -> Tournament:
        """A fresh copy of the state after the log's first ``n`` events, ``n < before``:
        the newest kept state that old (:meth:`keep`), else the first event's. Its log is
        those ``n`` events; the caller folds on. Nothing in it changes this one.

        A kept state is the live state of its time, so it holds every group of its
        events that was not undone then; an undo of one of those drops it
        (:func:`~controller.engine.rules.undo.on_undo`)."""
        for n, body in reversed(self._kept):
            if n < before:
                copy = Tournament.__new__(Tournament)
                copy.__dict__.update(pickle.loads(body))  # noqa: S301 - our own bytes
                copy.log = self.log[:n]
                copy._kept = [k for k in self._kept if k[0] <= n]
                copy._transient()
                return copy
        return Tournament.replay(self.log[:1], self.settings)

    def refold(self, end: int, skip: Collection[int] = (),
               drop: Collection[int] = ()) -> Tournament:
        """The state of the log's first ``end`` events without the groups in ``skip``, the
        events in ``drop`` and what an undo among them took back: what :meth:`replay` of
        those events makes, from a kept state where there is one before every group in
        ``skip`` (the events in ``drop`` come after one of them). For a log this engine
        holds in memory (its chain is not checked again)."""
        events = self.log[:end]
        # a kept state of at most ``end`` events that holds none of ``skip``
        bound = min(min(skip, default=end + 1), end + 1)
        r = self.state_before(bound)
        undone, withdrawn = undone_in(events)
        undone |= set(skip)
        withdrawn |= set(drop)
        tail = events[len(r.log):]
        for e in tail:
            if e["type"] != "undo" and e["group"] not in undone and e["seq"] not in withdrawn:
                r._fold(ev.parse(e))
            r.log.append(e)
        if tail and "hash" in tail[-1]:
            r._chain = tail[-1]["hash"]
        else:  # a log from before the chain (version 1): its value all the same
            for e in tail:
                r._chain = chain.link(r._chain, e)
        r._kept = [k for k in self._kept if k[0] < bound]
        return r

    # ----------------------------------------------------------- make events
    def emit(self, kind: type[ev.Event], at: float, **data: Any) -> Record:
        """Make one event of ``kind``, fold it into the state and append it to the log."""
        seq = len(self.log) + 1
        if self._group is None:
            self._group = seq
        event = kind(seq=seq, group=self._group, at=at, **data)
        previous = self._chain  # before the fold: an undo's fold rebuilds the whole state
        self._fold(event)
        record = event.record()
        record["hash"] = self._chain = chain.link(previous, record)
        self.log.append(record)
        return record

    def rng(self) -> tuple[int, random.Random]:
        """A seed for the next random decision (stored in its event) and its generator."""
        seed = (self.seed * 1_000_003 + len(self.log) + 1) % (2**63)
        return seed, random.Random(seed)

    # ---------------------------------------------------------------- execute
    def execute(self, command: dict[str, Any] | cmds.Command, now: float) -> list[Record]:
        """Run one command (``{"cmd": name, ...args}`` or a typed command); returns its events.

        Raises :class:`Rejected` with a readable reason, changing nothing; any other
        exception (a bug) changes nothing either.
        """
        from controller.engine.rules import COMMANDS

        parsed = cmds.parse(command)
        handler = COMMANDS[type(parsed)]
        start = len(self.log)
        self._group = None
        try:
            handler(self, parsed, now)
            self.react(now)
        except Rejected:
            if len(self.log) > start:
                # a rule refused after the command had made events (a late entry that
                # finds no table number free): a rejected command changes nothing
                self.__dict__.update(self.refold(start).__dict__)
            raise
        except Exception:
            # a rule's bug, not a refusal: a fold may have stopped half-way (its event not
            # in the log yet), so back to the log as it was, whatever changed; the error
            # goes on to the caller (the controller answers "internal error")
            self.__dict__.update(self.refold(start).__dict__)
            raise
        finally:
            self._group = None
        return self.log[start:]

    def react(self, now: float) -> None:
        """Let every rule's reactions look at the state, until none has anything to add."""
        from controller.engine.rules import REACTIONS

        # one table breaks a round: when the late registration closes at a festival, a
        # third of 1,000 tables may break at once, each in its own round
        for _ in range(_MAX_ROUNDS + len(self.tables)):
            before = len(self.log)
            for reaction in REACTIONS:
                reaction(self, now)
            if len(self.log) == before:
                return
        raise RuntimeError("the rules' reactions do not come to rest")

    # ------------------------------------------------------------------ apply
    def apply(self, record: Record) -> None:
        """Fold one stored event into the state. Raises :class:`InvalidEvent` if it does not fit."""
        self._fold(ev.parse(record))

    def _fold(self, event: ev.Event) -> None:
        from controller.engine.rules import FOLDS, hands

        if self.played_at is not None:
            self.play_seconds += clk.played(self.clock, self.settings.structure,
                                            self.played_at, event.at)
        self.played_at = event.at
        self.clock = clk.at(self.clock, self.settings.structure, event.at)
        if isinstance(event, ev.Opened):
            self.seed = event.seed
            return
        was_running = self.clock.running
        most = hands.most_left(self)
        FOLDS[event.type](self, event)
        if most is not None:  # a table that came into play during the last hands (002)
            hands.carry(self, most)
        if self.clock.running and not was_running:
            self.clock_since = event.at

    # ---------------------------------------------------------------- lookups
    def player(self, ref: int | str) -> Player:
        """A player by id or by name (case-insensitive)."""
        p = None
        if isinstance(ref, int) and not isinstance(ref, bool):
            p = self.players.get(ref)
        elif isinstance(ref, str):
            pid = self.by_name.get(ref.strip().casefold())
            p = self.players.get(pid) if pid is not None else None
        if p is None:
            raise Rejected("no player called {ref!r}", ref=ref)
        return p

    def new_player_id(self) -> int:
        """The id for the next player (or ghost seat) registered."""
        return self.last_player_id + 1

    def table(self, number: int) -> Table:
        t = self.tables.get(number)
        if t is None:
            playing = ", ".join(str(n) for n in sorted(self.tables)) or "none"
            raise Rejected("table {number} is not in play (tables in play: {playing})",
                           number=number, playing=playing)
        return t

    def require_running(self) -> None:
        if not self.drawn:
            raise Rejected("the seats have not been drawn yet")
        if self.finished:
            raise Rejected("the tournament is over")

    def counts(self) -> dict[int, int]:
        """Players seated at each table in play (ghosts and incoming movers included)."""
        return {n: len(t.occupant) for n, t in self.tables.items()}  # = t.count(), no call

    def seated(self) -> int:
        """Players (and ghosts) in a seat at any table."""
        return self.seated_count

    def size_range(self) -> tuple[int, int]:
        """The fewest and the most players (and ghosts) seated at a table in play, ``(0, 0)``
        without one: :meth:`counts`' smallest and largest value, from ``table_sizes``."""
        sizes = self.table_sizes
        if not sizes:
            return 0, 0
        empty = len(self.tables) > sum(sizes.values())
        return (0 if empty else min(sizes)), max(sizes)

    def level_number(self, index: int | None = None) -> int:
        """1-based number of the playing level at ``index`` (a break keeps the previous number)."""
        index = self.clock.level if index is None else index
        return sum(1 for lv in self.settings.structure[: index + 1] if not lv.is_break)

    def level_at(self, now: float | None) -> int:
        """The playing level number at ``now`` (levels the clock has rolled over count)."""
        if now is None:
            return self.level_number()
        return self.level_number(clk.at(self.clock, self.settings.structure, now).level)

    def played(self, now: float) -> float:
        """Net playing time in seconds at ``now``: the clock running in a playing level
        (pauses and breaks do not count; 000 9.5 "Nettospielzeit")."""
        since = self.played_at if self.played_at is not None else now
        return self.play_seconds + clk.played(self.clock, self.settings.structure, since, now)

    def bubble_places(self) -> int:
        """How many places count (points or prizes) for the hand-for-hand bubble.

        The paid places of a money venue (002) count from the entries (re-entries
        buy into the prize pool too); points from the players.
        """
        from controller.engine.points import scoring_places

        if self.settings.play_day.enabled:
            return 0  # a play day's games have no common bubble (003 6)
        from controller.engine.rules import rounds

        if rounds.independent(self) or rounds.preliminary(self):
            # a multi-round final's tables each play for their own places (000 4.19); in a
            # preliminary round nobody is out of the tournament yet (000 4.14, 4.19)
            return 0
        if self.settings.money is not None:  # the paid places of the payouts (issue 30)
            from controller.engine.rules.payouts import paid_places

            if self.settings.money.satellite is not None:  # as many as the pool buys
                from controller.engine.rules.prize_pool import prize_pool

                pool = prize_pool(self)
                return 0 if pool is None else pool.paid_places
            return paid_places(self.settings.money, self.settings.points, self.entries)
        share = isinstance(self.settings.points.places, str)
        try:
            return scoring_places(self.settings.points,
                                  self.entries if share else self.real_players())
        except ValueError:
            return 0  # a field size the system does not score (e.g. a qualifier of 12)

    # ------------------------------------------------------------------- read
    def places(self) -> dict[int, int]:
        """Every finished player's place; the winner (or, before the end, nobody) is 1."""
        from controller.engine.rules import rounds

        final = rounds.final_places(self)  # a multi-round final: each table its own (000 4.19)
        if final is not None:
            return final
        res = plc.places(self.groups, self.remaining,
                         self.settings.hand_for_hand.cross_table_busts)
        if self.finished and self.winner is not None:
            res[self.winner] = 1
            for pid in self.co_winners:
                res[pid] = 1
        return res

    def _ranked(self) -> Iterator[tuple[int, int]] | None:
        """:meth:`places` best first, the last out first (:func:`places.best_first`), while
        one ranking of the busts gives them; ``None`` in a multi-round final or at the end."""
        from controller.engine.rules import rounds

        if self.finished or rounds.independent(self):
            return None
        return plc.best_first(self.groups, self.remaining,
                              self.settings.hand_for_hand.cross_table_busts)

    def places_of(self, players: Iterable[int]) -> dict[int, int]:
        """The places of ``players`` (those who have one), as :meth:`places` gives them: the
        last out are looked at first, so a bust's answer does not rank the whole field."""
        wanted = set(players)
        if not wanted:
            return {}
        ranked = self._ranked()
        if ranked is None:
            every = self.places()
            return {pid: every[pid] for pid in wanted if pid in every}
        found: dict[int, int] = {}
        for pid, place in ranked:
            if len(found) == len(wanted):
                break
            if pid in wanted:
                found[pid] = place
        return found

    def latest_out(self, n: int) -> list[tuple[int, int]] | None:
        """``(player, place)`` of the last ``n`` players out, the best place first, while
        the tournament runs, at a cost in ``n``, not in the field; ``None`` where the places
        are no single ranking of the busts (a play day, a multi-round final) or the
        tournament is over (:meth:`places` has them all)."""
        ranked = self._ranked()
        if ranked is None or self.settings.play_day.enabled:
            return None
        out: list[tuple[int, int]] = []
        for pid, place in ranked:
            if len(out) == n:
                break
            p = self.players.get(pid)
            if p is not None and not p.ghost:
                out.append((pid, place))
        return out

    def real_players(self) -> int:
        """Players who entered (ghosts are not players; a re-entry is the same player)."""
        return len(self.by_name)  # every registered player, never a ghost

    def finishes(self) -> list[Finish]:
        """Every placed player as a :class:`~controller.engine.results.Finish` for scoring."""
        places = self.places()
        # the placed players in the order they registered (ids are given in that order),
        # without a walk over every player: a festival's first busts would pay for 10,000
        placed = (self.players[pid] for pid in sorted(places) if pid in self.players)
        return [
            Finish(p.id, p.name, places[p.id], member=p.member,
                   eliminated_by=self._credited(p.knocked_by),
                   removed_as_ghost=p.removed and not p.ghost)
            for p in placed if not p.ghost
        ]

    def _credited(self, knocker: int | None) -> int | None:
        """Who gets a knock-out: nobody for a ghost (000 9.5) or a disqualified player,
        who is out of the ranking (000 3.8)."""
        if knocker is None:
            return None
        k = self.players.get(knocker)
        return None if k is None or k.ghost or k.disqualified else knocker

    def results(self) -> list[ResultRow]:
        """The scored results so far, by the preset's points system.

        The names the director entered score: a drawn name knocked out is worth
        ``knockout_drawn_bonus`` more (000 6.3), a name on one's mystery list a prize
        (000 4.17). A play day gives its day standings and each table game's result
        (:func:`controller.engine.rules.play_day.results`). Raises ``ValueError`` for a
        field the system does not score (a qualifier of 12).
        """
        if self.settings.play_day.enabled:
            from controller.engine.rules import play_day

            return play_day.results(self)
        finishes = self.finishes()
        # the players still in who knocked somebody out: all that scoring asks of them
        knockers = {f.eliminated_by for f in finishes if f.eliminated_by is not None}
        playing = sorted(pid for pid in knockers if pid in self.players
                         and not self.players[pid].out and not self.players[pid].ghost)
        rows = score(self.settings.points, finishes, entries=self.real_players(),
                     drawn_names=self.drawn_names, mystery_lists=self.mystery_lists,
                     playing=playing)
        if self.settings.money is not None:  # issue 30: every row its payout
            from controller.engine.rules.prize_pool import with_payouts

            rows = with_payouts(self, rows)
        return rows

    def pending_moves(self) -> list[Move]:
        return list(self.pending.values())

    def plan(self) -> dict[str, Any]:
        """What the floor will do next: the table to break, or the balancing moves."""
        from controller.engine.rules import seating

        return seating.plan(self)

    def last_press(self, table: int) -> int | None:
        """The group of the last press at ``table`` that is not undone (a table's undo)."""
        from controller.engine.rules import undo

        return undo.last_press(self, table)

    def fingerprint(self) -> dict[str, Any]:
        """The whole state as plain data, for comparing a replay with the live state."""
        return {
            "settings": to_data(self.settings),
            "players": [asdict(p) for p in sorted(self.players.values(), key=lambda p: p.id)],
            "tables": [
                {**{k: v for k, v in asdict(t).items()
                    if k not in ("occupant", "waiting", "sits_out", "reserved")},
                 "occupant": sorted(t.occupant.items()), "waiting": sorted(t.waiting),
                 "sits_out": sorted(t.sits_out), "reserved": sorted(t.reserved)}
                for t in sorted(self.tables.values(), key=lambda t: t.number)
            ],
            "clock": asdict(self.clock),
            "level_announced": self.level_announced,
            "level_times": [self.level_started_at, self.level_before],
            "groups": [[asdict(b) for b in g] for g in self.groups],
            "hfh": {**asdict(self.hfh), "done": sorted(self.hfh.done)},
            "moves": [asdict(m) for m in self.moves],
            "scalars": [self.drawn, self.finished, self.winner, self.co_winners,
                        self.remaining, self.entries,
                        self.chips, self.ghosts_removed, self.addon_done, self.heads_up,
                        self.bounty_unclaimed,
                        self.hands_left, list(self.broken), self.final_table, self.reserve,
                        self.last_player_id],
            "places": sorted(self.places().items()),
            "names": [sorted(self.drawn_names.items()), sorted(self.mystery_lists.items())],
            "games": [asdict(g) for _, g in sorted(self.games.items())],
            "announcement": None if self.announcement is None else asdict(self.announcement),
            "colour_up": None if self.colour_up is None else asdict(self.colour_up),
            "rounds": asdict(self.rounds),
            "desk": {**asdict(self.desk), "expected": sorted(self.desk.expected)},
            "deal": None if self.deal is None else self.deal.record(),
        }
