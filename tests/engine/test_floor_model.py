"""The whole floor, played as floors play it: a stateful, model-based test (issue 26).

A hypothesis ``RuleBasedStateMachine`` opens a tournament of every shipped preset and
sample tournament and of the variants a club sets (tests/support/floor_model.py
``VARIANTS``: bounty, mystery bounty, rebuys, re-entries, 6-max, hand-for-hand at the
money, 10-seat tables…), draws and starts it, and then sends what a floor really sends, in
random order, with the time passed in and moving on: busts by seat and by name, with a
knocker (``by``), same-hand busts with and without stacks, forgotten and late "hand done",
undo of the last command, of any earlier one by its event number and from a table's
button box, rebuys and re-entries after a bust, late entries, time calls and their
expiry, chip counts and corrections, penalties and disqualification, structure and clock
changes, breaks, hand-for-hand on and off, a broken table, the final table, absent
players, announcements, a round's end, a play day's table games.

After every step (``invariant``):

- every view the controller publishes and every query it answers compute and serialise
  (``floor_model.publish``), the seating they show is the engine's, ``results()``
  computes;
- places and points are a permutation of the field with no gaps ("1, 1, 3" for a shared
  place); places follow the order of elimination between hands, the busts of one hand
  are ranked by stacks (the later report first without them), the busts of one
  hand-for-hand hand at different tables share the place (``floor_model.check_ranking``);
- the log replays into the live state (fingerprint); where every stack counted still
  holds, the chips in play are their sum;
- the money adds up (money nights, issue 30; ``floor_model.check_money``);
- a refused command changed nothing; an accepted undo gives exactly the state the log
  folds into without the undone command (and a command undone right away the state
  before it); a refused undo says why and changes nothing.

CI plays the same examples every run (derandomized, a fixed number, not shrunk: the night
is reported as played); ``FLOORMAN_EXPLORE=1`` explores fresh ones (100 nights a variant,
``FLOORMAN_EXAMPLES=N`` for N; random seeds, no deadline, shrunk) and prints how many steps
it played.
Every bug it found is a plain test at the end of this file.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from controller.engine import history
from controller.engine.points import landesliga_points
from controller.engine.rules import chip_counts, final_deal, hands, rounds
from controller.engine.rules.prize_pool import prize_pool
from controller.engine.tournament import Rejected, Tournament, undone_in
from controller.service import views
from tests.engine.test_properties import check as check_floor
from tests.support import floor_model as fm

EXPLORE = bool(os.environ.get("FLOORMAN_EXPLORE"))
#: steps played in this run (rules the machine ran), printed when exploring
STEPS = [0]
#: what the money rules made happen (issue 30), printed when exploring
MONEY = {"deals": 0, "deals undone": 0, "refused undos": 0, "shared bubbles": 0, "lots": 0,
         "bubbles ended at the first report": 0,
         "bubbles ended at the second report": 0,
         "hfh bubbles ended at the second report": 0}
#: the commands taken (and refused) in this run, by name, printed when exploring
PLAYED: Counter[str] = Counter()
REFUSED: Counter[str] = Counter()

#: events after which counted stacks no longer add up to the chips in play (chips moved
#: between players or left or came in): a bust's chips went to somebody
CHIPS_MOVE = frozenset({"busted", "registered", "late_entry", "rebuy", "reentry", "addon",
                        "ghosts_removed", "absent_removed", "chips_corrected", "chip_race",
                        "disqualified", "round_ended", "start_stacks", "table_game",
                        "table_game_over"})

DT = st.sampled_from([0.0, 0.0, 1.0, 5.0, 20.0, 45.0, 90.0, 240.0])
PICK = st.integers(min_value=0, max_value=10**6)
STACK = st.sampled_from([None, None, 1000, 5000, 5000, 20000])


def _kind(cmd: dict[str, Any]) -> str:
    """A command's name as the rounds' figures count it (a same-hand bust apart)."""
    name = str(cmd["cmd"])
    if name == "bust" and cmd.get("same_hand"):
        return "bust same_hand"
    if name == "hfh":
        return f"hfh {'on' if cmd.get('on') else 'off'}"
    if name == "move_apply" and "from_table" in cmd:
        return "move_apply from_table"
    return name


class Floor(RuleBasedStateMachine):
    """One night of one variant; ``variant`` is given by the test that runs it."""

    variant = "sample:sample"

    def __init__(self) -> None:
        super().__init__()
        self.t: Tournament | None = None
        self.now = 0.0
        self.notes: list[fm.BustNote] = []
        self.order = 0
        self.late_no = 0
        self.last_events: list[dict[str, Any]] = []
        #: the log's length when its replay was last compared with the live state
        self.replayed = 0

    # -------------------------------------------------------------------- helpers
    @property
    def tour(self) -> Tournament:
        assert self.t is not None
        return self.t

    def run(self, cmd: dict[str, Any], dt: float = 0.0) -> list[dict[str, Any]] | None:
        """Send ``cmd`` at the time ``dt`` later; ``None``: refused (and nothing changed)."""
        STEPS[0] += 1
        self.now += dt
        t = self.tour
        before = fm.digest(t)
        n = len(t.log)
        away = set(t.desk.elsewhere)
        try:
            events = t.execute(cmd, self.now)
        except Rejected as why:
            assert str(why).strip(), cmd
            assert len(t.log) == n and fm.unchanged(t, before), f"refused {cmd} changed it"
            self.last_events = []
            REFUSED[_kind(cmd)] += 1
            return None
        self.last_events = events
        PLAYED[_kind(cmd)] += 1
        if events:
            self._check_buttons(cmd, events)
        if away and cmd["cmd"] != "undo":
            self._check_elsewhere(cmd, events, away)
        return events

    @staticmethod
    def _check_elsewhere(cmd: dict[str, Any], events: list[dict[str, Any]],
                         away: set[int]) -> None:
        """001 §1 III: a player who plays an earlier tournament first is not busted here,
        nor moved by balancing or a reseat (a table that breaks takes them along)."""
        for e in events:
            if e.get("player") not in away:
                continue
            assert e["type"] != "busted", f"{cmd}: busted {e['player']}, who plays elsewhere"
            assert not (e["type"] == "moved" and (e.get("reason") == "balancing"
                                                  or cmd["cmd"] == "reseat")), (
                f"{cmd}: moved {e['player']}, who plays elsewhere first")

    def _check_buttons(self, cmd: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A drawn button sits on a seated player (issue 26.10): at every table where each
        table draws its own (000 3.12: PSC puts table 1's position at every table), and at
        the final table."""
        t = self.tour
        drawn = {e["type"] for e in events} & {"seats_drawn", "final_table"}
        if not drawn:
            return
        each = t.settings.dealing.first_button == "each_table"
        for tab in t.tables.values():
            if not tab.occupant or not (tab.final or each):
                continue
            assert tab.button in tab.occupant, (
                f"{cmd}: table {tab.number}'s button {tab.button} is on an empty seat "
                f"{sorted(tab.occupant)}")

    def tables(self) -> list[int]:
        return sorted(self.tour.tables)

    def table_of(self, pick: int) -> int:
        tables = self.tables()
        return tables[pick % len(tables)] if tables else 1 + pick % 3

    def seated(self, real: bool = True) -> list[int]:
        return sorted(p.id for p in self.tour.players.values()
                      if p.table is not None and not p.out and not (real and p.ghost))

    def out(self) -> list[int]:
        return sorted(p.id for p in self.tour.players.values()
                      if p.out and not p.ghost and not p.disqualified)

    def playing(self) -> bool:
        return self.t is not None and self.t.drawn and not self.t.finished

    def commands(self) -> list[int]:
        """Every command's group, undone or not (an undo of an undone one is refused)."""
        t = self.tour
        return [g for g in dict.fromkeys(e["group"] for e in t.log)
                if history.is_command(history.group(t, g))]

    # ---------------------------------------------------------------------- opening
    @initialize(players=st.integers(min_value=4, max_value=34), seed=PICK, guests=PICK,
                desk=st.integers(min_value=0, max_value=7))
    def open(self, players: int, seed: int, guests: int, desk: int) -> None:
        s = fm.settings_of(self.variant)
        if s.points.system == "qualifier":
            players = 6 + players % 5  # 001 §2 III: 6-10
        self.t = t = Tournament.new(s, seed, 0.0)
        names = [f"Player {i:02d}" for i in range(1, players + 1)]
        # a few guests (000 5.8: their names shortened); none where members only play
        # (000 2.5; psc-five-spades-cup: 4 players, 3 of them guests, left 1 to draw)
        cut = len(names) - (0 if s.desk.members_only else guests % 4)
        t.execute({"cmd": "register", "names": names[:cut]}, 0.0)
        if cut < len(names):
            t.execute({"cmd": "register", "names": names[cut:], "member": False}, 0.0)
        if s.mode.kind == "landesliga_final":
            ids = sorted(t.players)
            rows = [{"player": pid, "points": landesliga_points(i % 9 + 1)}
                    for i, pid in enumerate(ids)]
            t.execute({"cmd": "landesliga_points", "points": rows}, 0.0)
        elif s.points.system != "qualifier" and desk:
            self._desk(desk, len(names))
        t.execute({"cmd": "draw", "seed": seed}, 1.0)
        self._check_buttons({"cmd": "draw"}, t.log)
        t.execute({"cmd": "start"}, 2.0)
        self.now = 2.0

    def _desk(self, desk: int, players: int) -> None:
        """The desk before the draw (000 2.2, 2.6, 002): a seat limit with a waiting
        list, players who registered ahead (checked in, or not there at the draw: no
        shows), a cancellation that calls the next waiting, one taken off the list, a
        typo corrected. Each may be refused (then nothing changed, :meth:`run` checks)."""
        t = self.tour
        if desk & 1:  # the limit one below the field: the next registrations wait
            self.run({"cmd": "capacity", "seats": players + 1})
        self.run({"cmd": "preregister", "names": ["Early Bird", "Late Owl", "No Show"]})
        for name in ("Early Bird", "Late Owl"):
            self.run({"cmd": "check_in", "player": name})
        ids = sorted(p.id for p in t.players.values() if not p.ghost)
        if desk & 2 and len(ids) > 5:
            self.run({"cmd": "cancel", "player": ids[1], "force": bool(desk & 4)})
        if desk & 4 and len(ids) > 5:
            self.run({"cmd": "unregister", "player": ids[-1]})
        self.run({"cmd": "rename", "player": ids[0], "name": f"{t.players[ids[0]].name} Jr"})

    # --------------------------------------------------------------------- busts
    def _bust(self, pid: int, cmd: dict[str, Any], dt: float) -> None:
        t = self.tour
        p = t.players[pid]
        if p.table is None or p.table not in t.tables:
            self.run(cmd, dt)
            return
        tab = t.tables[p.table]
        same = bool(cmd.get("same_hand"))
        token: tuple[Any, ...] | None
        if same:
            # the table's bust before: of a player still out (a rebuy took one back)
            here = [n for n in self._live_notes() if n.table == tab.number
                    and t.players[n.player].out]
            token = here[-1].token if here else None
        elif t.hfh.on and tab.hfh_hand is not None:
            # when hand-for-hand starts every table is in a new hand (002 b, issue 26.1)
            token = ("hfh", tab.hfh_hand)
        elif tab.hfh_hand is not None:
            token = None  # the bubble hand, after hand-for-hand ended in it: not compared
        else:
            token = ("hand", self.order + 1)
        events = self.run(cmd, dt)
        if not events:
            return
        for e in events:
            if e["type"] == "busted" and e["player"] == pid:
                self.order += 1
                if not same and token is not None and token[0] == "hand":
                    token = ("hand", self.order)
                if p.ghost:
                    return
                self.notes.append(fm.BustNote(e["group"], pid, e["table"], token, e["stack"],
                                              self.order))

    def _live_notes(self) -> list[fm.BustNote]:
        undone, _ = undone_in(self.tour.log)
        return [n for n in self.notes if n.group not in undone]

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, stack=STACK, by=PICK, same=st.booleans(), confirm=st.booleans(),
          dt=DT)
    def bust_by_seat(self, pick: int, stack: int | None, by: int, same: bool, confirm: bool,
                     dt: float) -> None:
        t = self.tour
        n = self.table_of(pick)
        tab = t.tables.get(n)
        if tab is None or not tab.occupant:
            return
        seats = sorted(tab.occupant)
        seat = seats[(pick // 7) % len(seats)]
        cmd: dict[str, Any] = {"cmd": "bust", "table": n, "seat": seat}
        if stack is not None:
            cmd["stack"] = stack
        if same:
            cmd["same_hand"] = True
        if confirm:
            cmd["confirm"] = True
        others = [p for p in self.seated() if p != tab.occupant[seat]]
        if by % 3 == 0 and others:
            cmd["by"] = others[by % len(others)]
        self._bust(tab.occupant[seat], cmd, dt)

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, stack=STACK, by=PICK, same=st.booleans(), dt=DT)
    def bust_by_name(self, pick: int, stack: int | None, by: int, same: bool,
                     dt: float) -> None:
        seated = self.seated()
        if not seated:
            return
        pid = seated[pick % len(seated)]
        t = self.tour
        # the console sends the id; the command line the name
        ref: int | str = pid if pick % 2 else t.players[pid].name
        cmd: dict[str, Any] = {"cmd": "bust", "player": ref, "same_hand": same}
        if stack is not None:
            cmd["stack"] = stack
        others = [p for p in seated if p != pid]
        if by % 2 == 0 and others:
            knocker = others[by % len(others)]
            cmd["by"] = knocker if by % 4 else t.players[knocker].name
        self._bust(pid, cmd, dt)

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, stacks=st.sampled_from([(3000, 3000), (1000, 4000), (None, 2000),
                                             (None, None), (6000, 2000)]), dt=DT)
    def two_out_in_one_hand(self, pick: int, stacks: tuple[int | None, int | None],
                            dt: float) -> None:
        """Two players of one table out in one hand (000 9.5), with or without stacks."""
        t = self.tour
        tab = t.tables.get(self.table_of(pick))
        if tab is None:
            return
        pids = [pid for s, pid in sorted(tab.occupant.items()) if not t.players[pid].ghost]
        if len(pids) < 2:
            return
        first, second = pids[pick % len(pids)], pids[(pick + 1) % len(pids)]
        a: dict[str, Any] = {"cmd": "bust", "player": first, "stack": stacks[0]}
        self._bust(first, {k: v for k, v in a.items() if v is not None}, dt)
        if self.playing() and not t.players[second].out:
            b: dict[str, Any] = {"cmd": "bust", "player": second, "same_hand": True}
            if stacks[1] is not None:
                b["stack"] = stacks[1]
            self._bust(second, b, 0.0)

    # ---------------------------------------------------------------------- hands
    @precondition(lambda self: self.playing())
    @rule(pick=PICK, dt=DT)
    def hand_done(self, pick: int, dt: float) -> None:
        """A table's "hand done" (late or never: the other rules run in between)."""
        t = self.tour
        n = self.table_of(pick)
        tab = t.tables.get(n)
        if tab is not None and tab.holds and pick % 2:
            self.run({"cmd": "seated", "table": n}, dt)  # the button box: they sat down
            dt = 0.0
        self.run({"cmd": "hand_done", "table": n}, dt)

    @precondition(lambda self: self.playing())
    @rule(dt=DT)
    def every_table_hand_done(self, dt: float) -> None:
        """A round of hands: every table that may says "hand done" (hand-for-hand's)."""
        for n in self.tables():
            if not self.playing():
                return
            tab = self.tour.tables.get(n)
            if tab is None:
                continue
            if tab.holds:
                self.run({"cmd": "seated", "table": n}, dt)
                dt = 0.0
            self.run({"cmd": "hand_done", "table": n}, dt)
            dt = 0.0

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, dt=DT)
    def seated_or_moves(self, pick: int, dt: float) -> None:
        pending = sorted(self.tour.pending)
        if pick % 3 == 0:
            self.run({"cmd": "move_apply"}, dt)
        elif pending:
            self.run({"cmd": "seated", "player": pending[pick % len(pending)]}, dt)

    # ----------------------------------------------------------------------- undo
    @precondition(lambda self: self.t is not None and self.t.drawn)
    @rule(pick=PICK, how=st.sampled_from(["target", "target", "last", "table"]), dt=DT)
    def undo(self, pick: int, how: str, dt: float) -> None:
        """An undo of any earlier command by its event number, the last one, or a table's
        last press from its button box."""
        t = self.tour
        if how == "target":
            groups = self.commands()
            cmd: dict[str, Any] = {"cmd": "undo", "target": groups[-1 - pick % len(groups)]}
        elif how == "last":
            cmd = {"cmd": "undo"}
        else:
            cmd = {"cmd": "undo", "table": self.table_of(pick)}
        n = len(t.log)
        events = self.run(cmd, dt)
        if events:
            self._check_undo(n)

    def _check_undo(self, n: int) -> None:
        """The state is the fold of the log without what every undo took back."""
        t = self.tour
        assert any(e["type"] == "undo" for e in t.log[n:]), "an accepted undo logged no undo"
        undone, withdrawn = undone_in(t.log)
        kept = [e for e in t.log if e["type"] != "undo" and e["group"] not in undone
                and e["seq"] not in withdrawn]
        assert fm.same(Tournament.replay(kept, check=False), t), (
            "the undo's state is not the fold of the log without what it took back")

    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["bust", "bust_by", "hand_done", "late", "rebuy", "reentry",
                                "move_apply", "seated", "break_table", "final_table", "hfh",
                                "time_call", "time", "level", "structure", "penalty",
                                "chip_counts", "chip_correction", "absent", "disqualify",
                                "announce", "pause", "reseat", "move_from", "reserve"]),
          pick=PICK, dt=DT)
    def command_and_its_undo(self, kind: str, pick: int, dt: float) -> None:
        """A command taken back at once leaves the state as it was before it (000 3.3)."""
        self.run({"cmd": "tick"}, dt)  # what the time made, first
        if not self.playing():
            return
        t = self.tour
        before = copy.deepcopy(t.fingerprint())
        cmd = self._command(kind, pick)
        if cmd is None:
            return
        events = self.run(cmd)
        if not events or not self.t:
            return
        after = t.fingerprint()
        n = len(t.log)
        undo = self.run({"cmd": "undo", "target": events[0]["group"]})
        if undo is None:
            assert t.fingerprint() == after and len(t.log) == n, (
                f"a refused undo of {cmd} changed it")
            return
        assert t.fingerprint() == before, f"{cmd} and its undo changed the state"
        self._check_undo(n)

    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["reseat", "reseat", "reseat_seat", "move_from", "reserve"]),
          pick=PICK, dt=DT)
    def director_seating(self, kind: str, pick: int, dt: float) -> None:
        """The director's hand on the seating (issue 31.7): a player reseated (002) to a
        table's worst seat or to a named seat (perhaps taken: refused), a balancing move
        from the table the director chooses (001 §2 I), seats kept for late arrivals or
        given back (002); nobody ever sits in a kept seat."""
        cmd = self._command(kind, pick)
        if cmd is not None:
            self.run(cmd, dt)
        for tab in self.tour.tables.values():
            assert not set(tab.occupant) & tab.reserved, (
                f"table {tab.number}: a player in a seat kept for an arrival")

    def _command(self, kind: str, pick: int) -> dict[str, Any] | None:
        t = self.tour
        seated, out = self.seated(), self.out()
        table = self.table_of(pick)
        if kind in ("reseat", "reseat_seat"):
            if not seated:
                return None
            cmd: dict[str, Any] = {"cmd": "reseat", "player": seated[pick % len(seated)],
                                   "table": table, "reason": "Rollstuhl"}
            if kind == "reseat_seat":
                cmd["seat"] = 1 + (pick // 7) % t.tables[table].size
            return cmd
        if kind == "move_from":
            return {"cmd": "move_apply", "from_table": table}
        if kind == "reserve":
            return {"cmd": "reserve", "seats": [0, 1, 2, 3][pick % 4], "reason": "Nachzügler"}
        if kind == "bust":
            return {"cmd": "bust", "player": seated[pick % len(seated)]} if seated else None
        if kind == "bust_by":
            if len(seated) < 2:
                return None
            return {"cmd": "bust", "player": seated[pick % len(seated)],
                    "by": seated[(pick + 1) % len(seated)], "stack": 1000}
        if kind in ("rebuy", "reentry"):
            return {"cmd": kind, "player": out[pick % len(out)]} if out else None
        if kind == "late":
            self.late_no += 1
            return {"cmd": "late", "name": f"Late {self.late_no}", "force": pick % 2 == 0}
        if kind == "seated":
            pending = sorted(t.pending)
            return {"cmd": "seated", "player": pending[pick % len(pending)]} if pending else None
        if kind in ("hand_done", "break_table"):
            return {"cmd": kind, "table": table}
        if kind == "hfh":
            return {"cmd": "hfh", "on": not t.hfh.on}
        if kind == "time_call":
            return self._time_call(pick)
        if kind == "time":
            return {"cmd": "time", "op": ["add", "set"][pick % 2],
                    "seconds": [-120.0, 60.0, 300.0, -30.0][pick % 4]}
        if kind == "level":
            return {"cmd": "level", "to": ["next", "prev", 1 + pick % 5][pick % 3]}
        if kind == "structure":
            if pick % 2:
                return {"cmd": "structure", "op": "minutes", "from_level": 2 + pick % 8,
                        "minutes": [10.0, 15.0, 30.0][pick % 3]}
            return {"cmd": "structure", "op": "insert", "after": pick % 6,
                    "level": {"kind": "break", "minutes": 10.0, "note": "Pause"}
                    if pick % 3 else {"kind": "level", "minutes": 15.0, "small_blind": 100,
                                      "big_blind": 200}}
        if kind == "penalty":
            if not seated:
                return None
            p = seated[pick % len(seated)]
            return [{"cmd": "penalty", "player": p, "kind": "warning"},
                    {"cmd": "penalty", "player": p, "kind": "sit_out", "hands": 1 + pick % 3},
                    {"cmd": "penalty", "player": p, "kind": "sit_out", "orbits": 1},
                    {"cmd": "penalty", "player": p, "kind": "sit_out", "minutes": 5.0},
                    {"cmd": "penalty", "player": p, "kind": "owed_blinds"}][pick % 5]
        if kind == "chip_counts":
            return self._counts(pick, complete=pick % 3 != 0)
        if kind == "chip_correction":
            return {"cmd": "chip_correction", "change": [-500, -2000, 1000][pick % 3],
                    "reason": "chip found on the floor"}
        if kind == "absent":
            if not seated:
                return None
            p = t.players[seated[pick % len(seated)]]
            if p.absent_since is not None:
                return {"cmd": "absent", "player": p.id, "back": True}
            return {"cmd": "absent", "player": p.id, "stack": [None, 8000][pick % 2]}
        if kind == "disqualify":
            if not seated:
                return None
            return {"cmd": "disqualify", "player": seated[pick % len(seated)],
                    "reason": "collusion", "stack": [None, 3000][pick % 2]}
        if kind == "announce":
            return [{"cmd": "announce", "text": "Add-on jetzt möglich", "minutes": 5.0},
                    {"cmd": "announce", "clear": True}][pick % 2]
        if kind == "pause":
            return {"cmd": "pause" if t.clock.running else "resume"}
        return {"cmd": kind}

    def _time_call(self, pick: int) -> dict[str, Any]:
        t = self.tour
        table = self.table_of(pick)
        tab = t.tables.get(table)
        seat = None
        if tab is not None and tab.occupant:
            seats = sorted(tab.occupant)
            seat = seats[pick % len(seats)]
        op = ["start", "cancel", "expire", "toggle", "toggle"][pick % 5]
        cmd: dict[str, Any] = {"cmd": "time_call", "table": table, "op": op}
        if seat is not None and op in ("start", "toggle") and pick % 2:
            cmd["seat"] = seat
        return cmd

    def _counts(self, pick: int, complete: bool = True, off: int = 0) -> dict[str, Any] | None:
        """Every stack counted (the chips in play shared at random), or a part of them; by
        player or by table and seat."""
        t = self.tour
        players = chip_counts.in_play(t)
        if not players:
            return None
        rng = random.Random(pick)
        if not complete:
            players = rng.sample(players, max(1, len(players) // 2))
        total = t.chips if complete else rng.randrange(0, max(1, t.chips // 2))
        total = max(0, total + off)
        cuts = sorted(rng.randrange(total + 1) for _ in range(len(players) - 1))
        chips = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if 0 in chips:
            return None  # a seated player has a chip at least: no count says 0 (psc-cannonball)
        counts: list[dict[str, Any]] = []
        for p, c in zip(players, chips, strict=True):
            if rng.random() < 0.5:
                counts.append({"player": p.id, "chips": c})
            else:
                counts.append({"table": p.table, "seat": p.seat, "chips": c})
        return {"cmd": "chip_counts", "counts": counts}

    # ----------------------------------------------------------------- entries
    @precondition(lambda self: self.playing())
    @rule(pick=PICK, kind=st.sampled_from(["rebuy", "reentry", "rebuy", "reentry", "late",
                                           "late_forced", "register", "addon", "kept_late",
                                           "kept_reentry", "full_room"]), dt=DT)
    def entries(self, pick: int, kind: str, dt: float) -> None:
        """Rebuys and re-entries after a bust, late entries, the add-on; seats kept for
        late arrivals first (002), which an arrival takes."""
        if kind.startswith("kept_"):
            self._kept_for_arrivals(pick, kind[len("kept_"):], dt)
            return
        if kind == "full_room":
            self._full_room(pick, dt)
            return
        out = self.out()
        if kind in ("rebuy", "reentry"):
            if out:
                pid = out[pick % len(out)]
                ref: int | str = pid if pick % 2 else self.tour.players[pid].name
                self.run({"cmd": kind, "player": ref}, dt)
        elif kind in ("late", "late_forced"):
            self.late_no += 1
            self.run({"cmd": "late", "name": f"Late {self.late_no}",
                      "member": pick % 3 != 0, "force": kind == "late_forced"}, dt)
        elif kind == "register":
            self.late_no += 2
            self.run({"cmd": "register", "names": [f"Late {self.late_no - 1}",
                                                   f"Late {self.late_no}"]}, dt)
        else:
            self.run({"cmd": "addon"}, dt)

    def _full_room(self, pick: int, dt: float) -> None:
        """The room is full (002: a seat limit during the night): a late arrival goes on
        the waiting list; then a seat more (or the limit lifted) calls the next waiting,
        or the room stays full. Nobody is both waiting and in the field."""
        t = self.tour
        seated = sum(len(tab.occupant) for tab in t.tables.values())
        self.run({"cmd": "capacity", "seats": max(1, seated)}, dt)
        self.late_no += 1
        name = f"Late {self.late_no}"
        self.run({"cmd": "late", "name": name, "force": pick % 2 == 0})
        if pick % 3 == 0:
            self.run({"cmd": "capacity", "seats": max(1, seated) + 1})
        elif pick % 3 == 1:
            self.run({"cmd": "capacity"})  # lifted
        # (a busted player may wait for a seat to re-enter: only those still in count)
        waiting = {w.name.casefold() for w in t.desk.waiting}
        playing = {p.name.casefold() for p in t.players.values() if not p.out}
        assert not waiting & playing, f"waiting and in the field: {sorted(waiting & playing)}"

    def _kept_for_arrivals(self, pick: int, kind: str, dt: float) -> None:
        """The director keeps seats for expected arrivals (002), and one arrives: a late
        entry (or a re-entry) takes a kept seat (rules/reserve.py), unless a ghost's seat
        is the arrival's first (000 9.5)."""
        t = self.tour
        held = sum(len(tab.reserved) for tab in t.tables.values())
        self.run({"cmd": "reserve", "seats": held + 1 + pick % 2, "reason": "Nachzügler"}, dt)
        if not self.playing():
            return
        kept = {(n, s) for n, tab in t.tables.items() for s in tab.reserved}
        ghost = any(p.ghost and not p.out and p.table is not None
                    for p in t.players.values())
        if kind == "late":
            self.late_no += 1
            cmd: dict[str, Any] = {"cmd": "late", "name": f"Late {self.late_no}",
                                   "force": pick % 2 == 0}
        else:
            out = self.out()
            if not out:
                return
            cmd = {"cmd": "reentry", "player": out[pick % len(out)]}
        events = self.run(cmd)
        sat = next((e for e in events or () if e["type"] in ("late_entry", "reentry")), None)
        if sat is None or not kept or ghost or sat.get("table") is None:
            return
        assert (sat["table"], sat["seat"]) in kept, (
            f"{cmd} sat at table {sat['table']} seat {sat['seat']}, not in a seat kept for "
            f"arrivals {sorted(kept)}")

    # -------------------------------------------------------------------- the clock
    @precondition(lambda self: self.t is not None)
    @rule(seconds=st.sampled_from([30.0, 120.0, 300.0, 600.0, 1200.0, 2400.0]))
    def time_passes(self, seconds: float) -> None:
        """The controller's tick: what the passing time made (levels, breaks, ghosts
        leaving, time calls expiring, the add-on); after an undo of the draw (or the
        start) the director draws (starts) again."""
        t = self.tour
        if not t.drawn:
            self.run({"cmd": "draw"}, seconds)
        elif not t.clock.running and not t.finished and not t.clock.started:
            self.run({"cmd": "start"}, seconds)
        else:
            self.run({"cmd": "tick"}, seconds)

    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["pause", "level", "time", "structure", "structure",
                                "hands_left", "announce", "hfh", "break_table",
                                "final_table", "keep", "colour_up", "end_of_day"]),
          pick=PICK, dt=DT)
    def director(self, kind: str, pick: int, dt: float) -> None:
        """The director's clock, structure and floor commands."""
        if kind == "hands_left":
            self.run({"cmd": "hands_left", "count": pick % 4}, dt)
        elif kind == "end_of_day":
            self._end_of_day(pick, dt)
        elif kind == "colour_up":  # 002: any time; an absent player loses the small chips
            self._colour_up(pick, dt)
        elif kind == "keep":
            STEPS[0] += 1
            self.tour.keep()  # the controller's kept state, at a quiet moment
        else:
            cmd = self._command(kind, pick)
            if cmd is not None:
                self.run(cmd, dt)

    def _end_of_day(self, pick: int, dt: float) -> None:
        """002: in the last 7-15 minutes of the day's last level the clock stops and a
        player's drawn card (3-5) is the hands left at every table; mostly the director
        goes to the last level and waits for its last minutes, sometimes draws too early
        or a wrong card (refused)."""
        t = self.tour
        last = hands.last_level(t)
        if last is not None and pick % 3:
            self.run({"cmd": "level", "to": t.level_number(last)}, dt)
            dt = 0.0
            if not self.playing():
                return
            if not t.clock.running:
                self.run({"cmd": "resume"})
            window = hands.day_end_window(t, self.now)
            if window is not None and window[0] > self.now:
                self.now = window[0] + (window[1] - window[0]) * (pick % 7) / 6
        card = (3, 4, 5, 2, 6)[pick % 5] if pick % 4 == 0 else 3 + pick % 3
        open_ = hands.day_end_open(t, self.now + dt) and t.hands_left is None
        events = self.run({"cmd": "end_of_day", "card": card}, dt)
        if card not in hands.DAY_END_CARDS or not open_:
            assert events is None, f"the end of the day taken with {card} when it was not due"
            return
        assert events, f"the end of the day with a {card} refused in its window"
        assert not t.clock.running, "the clock runs after the end of the day was drawn"
        assert t.hands_left == card and all(
            tab.hands_left == card for tab in t.tables.values()), (
            f"{card} drawn, the tables have {[x.hands_left for x in t.tables.values()]} left")

    def _colour_up(self, pick: int, dt: float) -> None:
        """The director's colour-up (002: any time), sometimes a second chip called after
        the first; the chip races of some tables (each once a colour-up)."""
        t = self.tour
        chips = t.settings.chip_race.chips
        self.run({"cmd": "colour_up", "chip": chips[pick % 3]}, dt)
        if pick % 4 == 0 and self.playing():
            self.run({"cmd": "colour_up", "chip": chips[(pick + 1) % 3]})
        for i in range(1 + pick % 3):
            if not self.playing():
                return
            self._chip_race(pick + i)

    def _chip_race(self, pick: int) -> None:
        t = self.tour
        tab = t.tables.get(self.table_of(pick))
        if tab is None or not tab.occupant:
            return
        seats = sorted(tab.occupant)
        chips = [0] * seats[-1]
        chips[seats[0] - 1] = 1 + pick % 3
        absent = [seats[-1]] if len(seats) > 1 and pick % 2 else []
        if absent:
            chips[seats[-1] - 1] = 4 + pick % 5
        self.run({"cmd": "chip_race", "table": tab.number, "chips": chips, "absent": absent})

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, how=st.sampled_from(["earlier", "earlier", "later", "done", "bust",
                                          "reseat"]), dt=DT)
    def elsewhere(self, pick: int, how: str, dt: float) -> None:
        """001 §1 III: a player sits in another tournament of the floor too. One that
        started earlier is where they play: here their bust and their moves wait until
        it is over for them (``done``); one that started later is refused (they play here).
        Busts and moves of a marked player are tried too (``run`` checks none happens)."""
        t = self.tour
        marked = sorted(t.desk.elsewhere)
        if how == "done":
            if marked:
                events = self.run({"cmd": "elsewhere", "player": marked[pick % len(marked)],
                                   "tournament": "PSC Bounty", "done": True}, dt)
                assert events, "the end of a player's other tournament refused"
            return
        if how in ("bust", "reseat"):
            if marked:
                pid = marked[pick % len(marked)]
                cmd: dict[str, Any] = {"cmd": "bust", "player": pid}
                if how == "reseat":
                    cmd = {"cmd": "reseat", "player": pid, "table": self.table_of(pick),
                           "reason": "Rollstuhl"}
                assert self.run(cmd, dt) is None, f"{cmd} taken for a player elsewhere"
            return
        seated = self.seated()
        if not seated:
            return
        pid = seated[pick % len(seated)]
        # the controller's time is seconds since the epoch: this night started at 2 s
        started = ("1970-01-01T00:00:00+00:00" if how == "earlier"
                   else "1970-01-01T01:00:05+01:00" if pick % 2 else "2026-11-27T19:30+01:00")
        events = self.run({"cmd": "elsewhere", "player": pid, "tournament": "PSC Bounty",
                           "started": started}, dt)
        if how == "later":
            assert events is None, "a player marked for a tournament that started later"
        elif pid not in marked:
            assert events, f"{pid} refused for a tournament that started earlier"

    @precondition(lambda self: self.playing())
    @rule(pick=PICK)
    def rename(self, pick: int) -> None:
        """A typo corrected at any time: in or out, the player keeps id, seat, chips and
        entries (the place: the ranking invariant after every step)."""
        t = self.tour
        ids = sorted(p.id for p in t.players.values() if not p.ghost)
        pid = ids[pick % len(ids)]
        p = t.players[pid]
        kept = (p.table, p.seat, p.out, p.entries, p.chips)
        new = f"{p.name.split(' ~')[0]} ~{pick % 97}"
        # at the same moment: time passing may move chips and seats by itself (a level's
        # ghost blinds, a table broken when the registration closes)
        if self.run({"cmd": "rename", "player": pid, "name": new}) is None:
            return
        p = t.players[pid]
        assert p.name == new and (p.table, p.seat, p.out, p.entries, p.chips) == kept

    @precondition(lambda self: self.playing())
    @rule(pick=PICK, dt=DT)
    def time_call(self, pick: int, dt: float) -> None:
        """A "time" call (director or button box), cancelled, expired or left to run out."""
        self.run(self._time_call(pick), dt)

    # --------------------------------------------------------------------- chips
    @precondition(lambda self: self.playing())
    @rule(pick=PICK, how=st.sampled_from(["complete", "complete", "part", "short", "over",
                                          "correction"]), dt=DT)
    def chips(self, pick: int, how: str, dt: float) -> None:
        """Chip counts (all of them add up to the chips in play, a part to no more) and the
        director's corrections."""
        t = self.tour
        if how == "correction":
            self.run(self._command("chip_correction", pick) or {"cmd": "tick"}, dt)
            return
        off = {"short": -1000, "over": 700}.get(how, 0)
        cmd = self._counts(pick, complete=how != "part", off=off)
        if cmd is None:
            return
        events = self.run(cmd, dt)
        if how == "complete":
            assert events, f"a count of every stack, {t.chips} in all, was refused"
            counted = sum(c["chips"] for c in cmd["counts"])
            # the count is of its moment: chips the same command's reactions then took out
            # (an absent player removed after 2 h, 000 9.5) are no longer in play
            # (ace-of-spades-playday)
            moved = any(e["type"] in CHIPS_MOVE for e in events)
            assert moved or counted == t.chips, (
                f"the count's {counted} are not the chips in play {t.chips}")
        elif off and t.chips + off >= 0:
            assert events is None, "a count that is off was taken"

    # ----------------------------------------------------------------- penalties
    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["penalty", "penalty", "penalty", "absent", "absent",
                                "disqualify"]), pick=PICK, dt=DT)
    def discipline(self, kind: str, pick: int, dt: float) -> None:
        cmd = self._command(kind, pick)
        if cmd is not None:
            self.run(cmd, dt)

    # ---------------------------------------------------------- special modes
    @precondition(lambda self: self.playing()
                  and self.tour.settings.mode.kind in rounds.ROUND_MODES)
    @rule(pick=PICK, dt=DT)
    def end_round(self, pick: int, dt: float) -> None:
        """Play the clock, restart, multi-round: the round's end with every stack counted."""
        t = self.tour
        self.now += dt
        counts = self._counts(pick)
        if rounds.round_due(t, self.now) is not None:
            self.run({"cmd": "tick"}, 600.0)
        cmd = {"cmd": "end_round", "counts": counts["counts"] if counts else []}
        if self.run(cmd) is None and counts:
            self.run({"cmd": "end_round", "counts": []})
        if self.playing() and not t.clock.running:
            self.run({"cmd": "resume"})

    @precondition(lambda self: self.playing() and self.tour.settings.play_day.enabled)
    @rule(pick=PICK, dt=DT)
    def table_game(self, pick: int, dt: float) -> None:
        """A play day: the players who wait sit down for another table game (003 11)."""
        t = self.tour
        waiting = sorted(p.id for p in t.players.values()
                         if p.table is None and not p.ghost and not p.disqualified)
        if len(waiting) >= 2:
            k = 2 + pick % (min(len(waiting), t.settings.players_per_table) - 1)
            self.run({"cmd": "table_game", "players": waiting[:k]}, dt)

    @precondition(lambda self: self.playing()
                  and (self.tour.settings.points.knockout
                       or self.tour.settings.points.bounty == "mystery"))
    @rule(pick=PICK, dt=DT)
    def names(self, pick: int, dt: float) -> None:
        """Drawn names (000 6.3) and mystery lists (000 4.17)."""
        t = self.tour
        ids = sorted(p.id for p in t.players.values() if not p.ghost)
        if len(ids) < 4:
            return
        who = ids[pick % len(ids)]
        rng = random.Random(pick)
        others = [i for i in ids if i != who]
        if t.settings.points.bounty == "mystery" and pick % 2:
            k = min(len(others), t.settings.points.mystery_names)
            self.run({"cmd": "mystery_list", "player": who, "names": rng.sample(others, k)}, dt)
        else:
            k = min(len(others), t.settings.points.knockout_drawn_names)
            self.run({"cmd": "drawn_names", "player": who, "names": rng.sample(others, k)}, dt)

    # ------------------------------------------------------------- money (issue 30)
    def _money_night(self) -> bool:
        return self.playing() and self.tour.settings.money is not None

    def _close_entries(self, pick: int) -> None:
        """Mostly: the time passes until nobody can buy in (the pool final)."""
        t = self.tour
        for _ in range(6 if pick % 4 else 0):
            pool = prize_pool(t, self.now)
            if pool is None or pool.final or not self.playing():
                return
            if not t.clock.running:
                self.run({"cmd": "resume"})
            self.run({"cmd": "tick"}, 1800.0)

    def _bust_down_to(self, left: int, pick: int) -> None:
        """Busts, each with a hunter named (bounties), one a hand, until ``left`` are left;
        a round of "hand done" where hand-for-hand waits for it."""
        t = self.tour
        for i in range(60):
            seated = self.seated()
            if len(seated) <= left or not self.playing():
                return
            pid = seated[(pick + 7 * i) % len(seated)]
            others = [p for p in seated if p != pid]
            cmd: dict[str, Any] = {"cmd": "bust", "player": pid,
                                   "by": others[(pick + i) % len(others)]}
            if (pick + i) % 3 == 0:
                cmd["stack"] = 1000 * (1 + (pick + i) % 4)
            self._bust(pid, cmd, 0.0)
            if t.hfh.on or i % 4 == 3:
                self.every_table_hand_done(0.0)

    def _final_table(self) -> None:
        """The players left at one table: the final table drawn, its moves made."""
        t = self.tour
        if len(t.tables) > 1 and self.playing():
            self.run({"cmd": "final_table"})
        if t.pending and self.playing():
            self.run({"cmd": "move_apply"})
        for pid in sorted(t.pending):
            if self.playing():
                self.run({"cmd": "seated", "player": pid})

    @precondition(lambda self: self._money_night())
    @rule(pick=PICK, dt=DT)
    def to_the_final_table(self, pick: int, dt: float) -> None:
        """A money night moves on: busts with hunters named down to the final table."""
        t = self.tour
        self.run({"cmd": "tick"}, dt)
        self._bust_down_to(max(2, t.settings.final_table_size - pick % 3), pick)
        seated = self.seated()
        if pick % 5 == 0 and len(seated) > 2 and self.playing():
            # a disqualification near the money (000 3.8): out of the ranking
            self.run({"cmd": "disqualify", "player": seated[pick % len(seated)],
                      "reason": "collusion", "stack": [None, 0, 3000][pick % 3]})
        self._final_table()

    @precondition(lambda self: self._money_night())
    @rule(pick=PICK, how=st.sampled_from(["icm", "icm", "chip_chop", "percent",
                                          "played_for", "custom", "custom", "custom_off",
                                          "custom_missing", "custom_stranger",
                                          "computed_with_amounts"]))
    def deal(self, pick: int, how: str) -> None:
        """The final table counts the players left and the stacks and makes a deal: ICM,
        chip chop, the players' own split; wrong amounts are refused, changing nothing."""
        t = self.tour
        left = [p.id for p in t.players.values() if not p.out and not p.ghost]
        assert len(left) == t.remaining, f"{len(left)} players left, the engine {t.remaining}"
        if len(left) > 12:
            return
        self._close_entries(pick)
        if not self.playing():
            return
        if pick % 5:
            counts = self._counts(pick)
            if counts is not None:
                self.run(counts)
        before = fm.digest(t)
        try:
            proposed: dict[str, Any] | None = final_deal.proposal(t)
        except Rejected as why:
            assert str(why).strip()
            proposed = None
        assert fm.unchanged(t, before), "the deal's proposal changed the night"
        if proposed is None:
            # nothing to deal now: every deal refused
            events = self.run({"cmd": "deal", "method": ["icm", "chip_chop"][pick % 2]})
            assert events is None, "a deal taken that the proposal refused"
            return
        rows = proposed["players"]
        icm = {r["player_id"]: r["icm"] for r in rows}
        right = True
        cmd: dict[str, Any] = {"cmd": "deal", "method": "icm"}
        if how == "chip_chop":
            cmd["method"] = "chip_chop"
        elif how == "percent":
            cmd["percent"] = [0, 5, 10, 25, 100][pick % 5]
            right = None  # 100 % may be more than the first place pays
        elif how == "played_for":
            cmd["played_for"] = proposed["open"] * (pick % 7) // 10
            right = cmd["played_for"] <= proposed["amounts"][0]
        elif how.startswith("custom"):
            amounts = [{"player": pid, "amount": cents} for pid, cents in icm.items()]
            if how == "custom_off":  # a cent too many or too few
                amounts[pick % len(amounts)]["amount"] += 1 if pick % 2 else -1
                right = False
            elif how == "custom_missing":
                del amounts[pick % len(amounts)]
                right = False
            elif how == "custom_stranger":
                out = self.out()
                if not out:
                    return
                amounts.append({"player": out[pick % len(out)], "amount": 0})
                right = False
            if any(a["amount"] < 0 for a in amounts):
                return  # the command's own shape refuses it (not the deal's rule)
            cmd = {"cmd": "deal", "method": "custom", "amounts": amounts}
        else:
            if how == "computed_with_amounts":
                cmd["amounts"] = [{"player": pid, "amount": c} for pid, c in icm.items()]
                right = False
        events = self.run(cmd)
        if right is False:
            assert events is None, f"a wrong deal was taken: {cmd}"
            return
        if right is True:
            assert events, f"the deal proposed was refused: {cmd}"
        if not events:
            return
        MONEY["deals"] += 1
        assert t.deal is not None
        got = {pid: cents for pid, _, cents in t.deal.shares}
        assert set(got) == set(left), "the deal is not among the players left"
        if cmd["method"] == "icm" and "percent" not in cmd and "played_for" not in cmd:
            assert got == icm, f"the deal {got} is not the ICM proposed {icm}"
        if cmd["method"] == "chip_chop":
            assert got == {r["player_id"]: r["chip_chop"] for r in rows}
        if cmd["method"] == "custom":
            assert got == icm

    @precondition(lambda self: self.t is not None and self.tour.deal is not None)
    @rule(pick=PICK, dt=DT)
    def undo_around_the_deal(self, pick: int, dt: float) -> None:
        """The deal undone; or a bust before it: refused while the deal stands (its
        players would no longer be the players left)."""
        t = self.tour
        d = t.deal
        assert d is not None
        undone, withdrawn = undone_in(t.log)
        earlier = [e for e in t.log if e["type"] == "busted" and e["seq"] < d.seq
                   and e["group"] == e["seq"] and e["group"] not in undone
                   and e["seq"] not in withdrawn and not t.players[e["player"]].ghost
                   and t.players[e["player"]].out]
        if pick % 2 and earlier:
            e = earlier[-1 - pick % len(earlier)]
            events = self.run({"cmd": "undo", "target": e["group"]}, dt)
            assert events is None, f"a bust before the deal was undone under it: {e}"
            MONEY["refused undos"] += 1
            return
        n = len(t.log)
        events = self.run({"cmd": "undo", "target": d.group}, dt)
        if events:
            self._check_undo(n)
            assert t.deal is None, "the deal undone still stands"
            MONEY["deals undone"] += 1

    @precondition(lambda self: self._money_night()
                  and self.tour.settings.money.satellite is not None)  # type: ignore[union-attr]
    @rule(pick=PICK, how=st.sampled_from(["stacks", "stacks", "hfh", "none"]))
    def two_out_at_the_bubble(self, pick: int, how: str) -> None:
        """A satellite's bubble: two out in one hand with equal stacks (000 9.5) or in one
        hand-for-hand hand at two tables (002 b) share the place; a shared place that
        covers a ticket and the cash is drawn by lot."""
        t = self.tour
        self._close_entries(pick)
        pool = prize_pool(t, self.now)
        if pool is None or not pool.tickets or not self.playing():
            return
        self._bust_down_to(pool.tickets + 1 + pick % 2, pick)
        if not self.playing():
            return
        seated = self.seated()
        if len(seated) < 3:
            return
        by_table: dict[int, list[int]] = {}
        for pid in seated:
            by_table.setdefault(t.players[pid].table or 0, []).append(pid)
        across = how == "hfh" and len(by_table) > 1
        if across:
            if not t.hfh.on:
                self.run({"cmd": "hfh", "on": True})
            self.every_table_hand_done(0.0)
            a, b = (ids[pick % len(ids)] for ids in list(by_table.values())[:2])
            pair = [(a, {"cmd": "bust", "player": a}), (b, {"cmd": "bust", "player": b})]
        else:
            ids = max(by_table.values(), key=len)
            if len(ids) < 2:
                return
            a, b = ids[pick % len(ids)], ids[(pick + 1) % len(ids)]
            stack = {"stacks": 2000, "none": None}.get(how, 2000)
            first: dict[str, Any] = {"cmd": "bust", "player": a}
            second: dict[str, Any] = {"cmd": "bust", "player": b, "same_hand": True}
            if stack is not None:
                first["stack"] = second["stack"] = stack
            pair = [(a, first), (b, second)]
        hand: int | None = None
        ended: list[Any] | None = None
        for i, (pid, cmd) in enumerate(pair):
            if not self.playing():
                # the first of the hand left only ticket winners: the satellite ended; the
                # second out in that hand, said by its table or at another table in the
                # same hand-for-hand hand (002 b), is taken and shares the last ticket's
                # place (test_two_out_in_the_bubble_hand_…, test_money_fees.py
                # test_two_out_in_one_hand_for_hand_hand_at_a_satellites_bubble_…)
                money = t.settings.money
                same = (cmd.get("same_hand") or (across and hand is not None
                                                 and ended == ["hfh", hand])) \
                    and pid not in t.desk.elsewhere  # 001 §1 III: that bust waits
                if i == 1 and same and money is not None \
                        and money.satellite is not None and not money.bounty:
                    self._bust(pid, cmd, 0.0)
                    assert t.players[pid].out, f"the bubble hand's second bust of {pid} refused"
                    MONEY["bubbles ended at the second report"] += 1
                    if across:
                        MONEY["hfh bubbles ended at the second report"] += 1
                else:
                    MONEY["bubbles ended at the first report"] += 1
                break
            # the hand-for-hand hand at the second table (none when that table said "hand
            # done" and the next was not dealt: another table had played its last hand of
            # the day), and the hand of the first bust
            tab_b = t.tables.get(t.players[b].table or 0)
            hand = tab_b.hfh_hand if tab_b is not None and across \
                and tab_b.number not in t.hfh.done else None
            self._bust(pid, cmd, 0.0)
            ended = next((e["hand"] for e in self.last_events
                          if e["type"] == "busted" and e["player"] == pid), None)
        rows = self._results()
        if rows is None or not (t.players[a].out and t.players[b].out):
            return
        place = {r.player_id: r for r in rows}
        ra, rb = place.get(a), place.get(b)
        if ra is None or rb is None or ra.place != rb.place:
            return
        MONEY["shared bubbles"] += 1
        pool = prize_pool(t)
        assert pool is not None
        # a third may share it: out in the same hand-for-hand hand at another table before
        sharing = [r for r in rows if r.place == ra.place]
        if ra.place <= pool.tickets < ra.place + len(sharing) - 1:
            # the place covers the last tickets and the places after them: who wins a
            # ticket is drawn by lot
            assert all(r.lot for r in sharing), sharing
            won = sum(r.ticket is not None for r in sharing)
            assert won == pool.tickets - ra.place + 1, (
                f"{won} tickets drawn among {sharing}, the place covers "
                f"{pool.tickets - ra.place + 1}")
            MONEY["lots"] += 1

    # ---------------------------------------------------------------- invariants
    @invariant()
    def views_and_results_compute(self) -> None:
        if self.t is None:
            return
        t = self.tour
        rows = self._results()
        shown = fm.publish(t, self.now, self.last_events)
        fm.check_seating(t, shown)
        undone, _ = undone_in(t.log)
        fm.check_ranking(t, self.notes, undone, rows)

    @invariant()
    def nobody_sits_in_a_kept_seat(self) -> None:
        """Seats kept for late arrivals (002) are the arrivals': no move, break, reseat,
        final table nor balancing sits anyone there; an arrival that takes one frees it."""
        if self.t is None:
            return
        for tab in self.tour.tables.values():
            assert not set(tab.occupant) & tab.reserved, (
                f"table {tab.number}: a player in a seat kept for an arrival")

    @invariant()
    def everybody_in_has_a_seat(self) -> None:
        """Once the seats are drawn, every player still in sits somewhere (an absent one
        and one playing an earlier tournament keep theirs; a play day's players wait for
        the next table game between games, 003; the winner of a multi-round final's table
        waits for the other tables, 000 4.19)."""
        if self.t is None or not self.t.drawn or self.t.finished \
                or self.tour.settings.play_day.enabled:
            return
        waiting = set(self.tour.rounds.decided.values())
        lost = [p.name for p in self.tour.players.values()
                if not p.out and p.table is None and p.id not in waiting]
        assert not lost, f"in the tournament without a seat: {lost}"

    @invariant()
    def the_money_adds_up(self) -> None:
        """The pool, fees and bounties are the money taken in; the payouts (with a deal)
        add up to the pool at the end; no money for points only (floor_model.check_money)."""
        if self.t is None or not self.tour.drawn:
            return
        fm.check_money(self.tour, self._results(), views.summary_view(self.tour))

    def _results(self) -> list[Any] | None:
        try:
            return self.tour.results()
        except ValueError:
            return None  # a field the system does not score (the views show places only)

    @invariant()
    def the_end_and_heads_up_fit_the_players_in(self) -> None:
        """Over with the winners left (one, a qualifier's two), heads-up with two."""
        if self.t is None or self.tour.settings.mode.kind in rounds.ROUND_MODES:
            return
        t = self.tour
        if t.finished and not t.settings.play_day.enabled:
            assert t.remaining <= max(1, len(t.co_winners)), (
                f"over with {t.remaining} players in (co-winners {t.co_winners})")
        if t.heads_up and not self._entered_since("heads_up"):
            # an entry after heads-up leaves it on: test_heads_up_after_a_re_entry (xfail)
            assert t.remaining <= 2, f"heads-up with {t.remaining} players in"

    def _entered_since(self, kind: str) -> bool:
        """A live entry (late, re-entry, rebuy, registration) came after the last ``kind``."""
        t = self.tour
        undone, withdrawn = undone_in(t.log)
        live = [e for e in t.log if e["group"] not in undone and e["seq"] not in withdrawn]
        at = max((e["seq"] for e in live if e["type"] == kind), default=0)
        return any(e["type"] in ("registered", "late", "reentry", "rebuy") and e["seq"] > at
                   for e in live)

    def teardown(self) -> None:
        """The night's log as the store keeps it (JSON, read anew: no parsed event shared
        with the live log) replays into the live state: a restart gives the same night."""
        if self.t is None:
            return
        stored = json.loads(json.dumps(self.tour.log))
        assert fm.same(Tournament.replay(stored), self.tour), (
            "the log read back from the store does not replay into the live state")

    @invariant()
    def replay_is_the_live_state(self) -> None:
        if self.t is None:
            return
        t = self.tour
        plain = (t.settings.mode.kind in ("tournament", "cannonball", "landesliga_final")
                 and not t.settings.play_day.enabled and not t.disqualified
                 and not t.co_winners and t.drawn)
        if plain:
            check_floor(t, replay=False)  # seats, the folds' indices, the plan, ties
        if len(t.log) != self.replayed:  # (a refused command changed nothing: checked)
            assert fm.same(Tournament.replay(t.log), t), (
                "the replay of the log is not the live state (something not in the log)")
            self.replayed = len(t.log)

    @invariant()
    def counted_stacks_are_the_chips_in_play(self) -> None:
        """Where every stack in play was counted and no chips moved since (no bust, no buy,
        nothing left), the counts add up to the chips in play."""
        if self.t is None or not self.t.drawn:
            return
        t = self.tour
        players = chip_counts.in_play(t)
        known = [chip_counts.known_stack(t, p.id) for p in players]
        if not players or any(k is None for k in known):
            return
        since = max(p.counted_seq for p in players)
        if min(p.counted_seq for p in players) != since:
            return  # counted at different times: chips moved in between
        undone, withdrawn = undone_in(t.log)
        live = [e for e in t.log if e["group"] not in undone and e["seq"] not in withdrawn]
        moved = any(e["type"] in CHIPS_MOVE for e in live if e["seq"] > since)
        # an undo after the count of a command that moved chips before it (a correction, a
        # rebuy) moves them too: the count was of the chips as they were then
        moved_before = {e["group"] for e in t.log if e["type"] in CHIPS_MOVE}
        moved = moved or any(e["type"] == "undo" and e["seq"] > since
                             and (e["target"] in moved_before or e.get("withdrawn"))
                             for e in live)
        if not moved:
            counted = sum(k for k in known if k is not None)
            assert counted == t.chips, (
                f"the counted stacks {counted} are not the chips in play {t.chips}")


#: CI reports the failing night as it was played (shrinking a night takes minutes)
CI_PHASES = (Phase.explicit, Phase.reuse, Phase.generate)


def _run(variant: str, examples: int, steps: int) -> None:
    machine = type(f"Floor_{variant}", (Floor,), {"variant": variant})
    if EXPLORE:
        more = int(os.environ.get("FLOORMAN_EXAMPLES", 100))
        # FLOORMAN_STEPS: longer nights than CI's (more happens after the first hours)
        steps = int(os.environ.get("FLOORMAN_STEPS", steps))
        # FLOORMAN_SHRINK=0: the failing night as it was played, at once (shrinking one
        # can take minutes on a loaded machine)
        phases = CI_PHASES if os.environ.get("FLOORMAN_SHRINK") == "0" else tuple(Phase)
        how = settings(max_examples=more, stateful_step_count=steps, deadline=None,
                       derandomize=False, database=None, print_blob=True, phases=phases,
                       suppress_health_check=list(HealthCheck))
    else:
        how = settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                       derandomize=True, database=None, phases=CI_PHASES,
                       suppress_health_check=list(HealthCheck))
    run_state_machine_as_test(machine, settings=how)


#: examples and steps per variant in CI (the whole file in under 3 minutes, docs/engine.md)
EXAMPLES, STEP_COUNT = 3, 60


@pytest.mark.parametrize("variant", sorted(fm.VARIANTS))
def test_the_floor_as_it_is_played(variant: str) -> None:
    _run(variant, EXAMPLES, STEP_COUNT)


#: one longer night a variant in CI: what only comes after the first hours (a final table
#: filled by late entries, a multi-round final, a play day's later games): longer nights
#: when exploring found seven engine bugs there that 60-step nights never reached
LONG_NIGHT = 200


@pytest.mark.parametrize("variant", sorted(fm.VARIANTS))
def test_a_long_night(variant: str) -> None:
    if EXPLORE:
        pytest.skip("exploring: FLOORMAN_STEPS sets the nights' length")
    _run(variant, 1, LONG_NIGHT)


@pytest.fixture(scope="module", autouse=True)
def _steps_played():
    yield
    if EXPLORE:
        print(f"\nfloor model: {STEPS[0]} steps played", file=sys.__stderr__)
        print(f"floor model money: {MONEY}", file=sys.__stderr__)
        print(f"floor model taken: {dict(sorted(PLAYED.items()))}", file=sys.__stderr__)
        print(f"floor model refused: {dict(sorted(REFUSED.items()))}", file=sys.__stderr__)



# ------------------------------------------------------------------ what it found
# Each bug the machine found is a plain test where its rule is tested, in
# tests/engine/test_undo.py:
# - test_an_earlier_bust_is_not_undone_under_the_champion
# - test_an_earlier_bust_is_not_undone_under_a_shared_first_place_001_2_iii
# - test_an_earlier_bust_is_not_undone_under_heads_up_002
# - test_the_champions_late_entry_is_not_undone_under_the_end
# and tests/engine/test_club_rules.py::test_a_play_day_has_no_final_table_003_6,
# tests/engine/test_modes.py::test_a_restart_does_not_bring_a_disqualified_player_back_000_3_8
# and ::test_a_multi_round_does_not_bring_a_removed_absent_player_back_000_9_5,
# and ::test_the_multi_round_final_does_not_seat_a_player_disqualified_after_round_one,
# and ::test_the_multi_round_final_takes_no_entry_000_4_19,
# tests/engine/test_final_deal.py::test_the_waiting_list_calls_nobody_in_while_the_deal_stands,
# tests/engine/test_seats.py::
#   test_a_late_entry_at_a_full_final_table_opens_a_table_and_the_final_is_drawn_again_002,
# tests/engine/test_club_rules.py::
#   test_an_absent_winner_of_a_table_game_is_back_for_the_next_000_9_5_003_6,
# tests/engine/test_undo.py::test_hand_for_hand_is_not_undone_under_the_busts_of_its_hand_000_9_5,
# tests/engine/test_floor_night.py::
#   test_same_hand_after_hfh_began_again_joins_the_tables_last_bust_000_9_5
# and tests/engine/test_undo.py::
#   test_a_bust_that_caught_up_a_hand_done_stays_under_the_busts_of_that_hand_000_9_5
# (money-runs' "one hand without stacks: the later report first" and psc-mystery-bounty's
# "a later hand ranked below an earlier one" were this one);
# tests/engine/test_final_deal.py::test_no_bust_joins_a_hand_from_before_the_deal (the
# money nights, issue 30: more paid out than the pool);
# tests/engine/test_money_fees.py::
#   test_two_out_in_one_hand_for_hand_hand_at_a_satellites_bubble_share_it_by_lot (a
# second player out at another table in the hand-for-hand hand that ended a satellite was
# refused);
# tests/engine/test_club_rules.py::
#   test_a_table_game_after_an_earlier_one_was_undone_gets_a_new_number_003_6 (a play day:
# "table game 4 started twice" raised out of the command);
# nights the model got wrong: test_money_fees.py::
#   test_three_out_in_one_hand_for_hand_hand_at_a_satellites_bubble_draw_for_one_ticket,
# and a members-only night with guests registered no more than one member (open());
# and a second report expected at a table that had said "hand done" in the hand-for-hand
# hand (the next not dealt: the other table had played its last hand of the day), which
# test_money_fees.py::
#   test_after_a_satellites_hand_for_hand_bubble_a_table_done_with_the_hand_has_none_out
# keeps refused (satellite-6max);
# a night the model got wrong is played again below (test_an_undone_correction_…);
# what is the club's to decide stays here, marked xfail (002 halves the levels at heads-up
# and says nothing of an entry after it):


@pytest.mark.xfail(strict=True, reason="found by the floor model (issue 26): heads-up stays "
                   "on, the levels halved (002), when a re-entry or a late entry brings a third "
                   "player back; whether the entry is refused or heads-up ends is the club's "
                   "rule to decide, not a test's")
def test_heads_up_after_a_re_entry():
    from controller.engine.settings import Entries
    from tests.support.settings import new_tournament

    t = new_tournament(4, heads_up_halves_level=True,
                       entries=Entries(reentries=1, reentry_until_level=8))
    t.execute({"cmd": "bust", "player": 1}, 10.0)
    t.execute({"cmd": "hand_done", "table": 1}, 20.0)
    t.execute({"cmd": "bust", "player": 2}, 30.0)
    assert t.heads_up
    try:
        t.execute({"cmd": "reentry", "player": 1}, 40.0)
    except Rejected:
        return
    assert not t.heads_up or t.remaining <= 2


# found by the floor model (issue 30, satellite-lot): the satellite ended at the bust that
# left only ticket winners, and a second player out in that same hand was refused (they kept
# a ticket; the lot never happened once the pool was final)
def test_two_out_in_the_bubble_hand_of_a_satellite_share_the_last_ticket_by_lot():
    from controller.engine.settings import Money
    from tests.support.settings import new_tournament

    # 10 × 10 € for 30 € tickets: 3 tickets and 10 € cash; registration closed
    t = new_tournament(10, money=Money(buy_in=1_000, satellite=3_000))
    now = 50.0
    while t.remaining > 4:
        pid = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": pid, "confirm": True}, now)
        now += 1
    pool = prize_pool(t, now)
    assert pool is not None and pool.final and (pool.tickets, pool.payouts[-1]) == (3, 1_000)
    left = [p for p in t.players.values() if not p.out and not p.ghost]
    table = next(p.table for p in left if sum(q.table == p.table for q in left) >= 2)
    a, b = [p.id for p in left if p.table == table][:2]
    t.execute({"cmd": "bust", "player": a, "stack": 2_000, "confirm": True}, now)
    t.execute({"cmd": "bust", "player": b, "stack": 2_000, "same_hand": True,
               "confirm": True}, now + 1)
    rows = {r.player_id: r for r in t.results()}
    assert rows[a].place == rows[b].place == 3
    assert rows[a].lot and rows[b].lot
    assert sorted(r.ticket is not None for r in (rows[a], rows[b])) == [False, True]
    assert t.finished and sorted({t.winner, *t.co_winners}) == sorted(
        p.id for p in t.players.values() if not p.out and not p.ghost)
    # undone, the satellite ends as it did at the first bust, the three sharing first place
    second = [e for e in t.log if e["type"] == "busted" and e["player"] == b][0]
    t.execute({"cmd": "undo", "target": second["seq"]}, now + 2)
    assert not t.players[b].out and t.finished and b in [t.winner, *t.co_winners]
    # a bust in a new hand after the end is refused as before
    with pytest.raises(Rejected, match="over"):
        t.execute({"cmd": "bust", "player": b, "confirm": True}, now + 3)


@pytest.mark.xfail(strict=True, reason="found by the floor model (issue 30, satellite-lot): "
                   "disqualified players (000 3.8) leave the ranking, so a field of 4 with 3 "
                   "disqualified has 1 player placed for 2 paid places (a ticket and the cash): "
                   "the cash is paid to nobody, the payouts do not add up to the pool. Fewer "
                   "paid places, or the amounts to the places held, is the club's rule to "
                   "decide; no rulebook says")
def test_disqualified_players_leave_no_paid_place_unpaid():
    from controller.engine.settings import Money
    from tests.support.settings import new_tournament

    # 4 × 10 € for a 30 € ticket: place 1 the ticket, place 2 10 € cash
    t = new_tournament(4, money=Money(buy_in=1_000, satellite=3_000))
    for pid, now in ((2, 10.0), (3, 11.0), (4, 12.0)):
        t.execute({"cmd": "disqualify", "player": pid, "reason": "collusion", "stack": 0},
                  now)
    assert t.finished
    rows = t.results()
    pool = prize_pool(t)
    assert pool is not None
    assert sum((r.ticket or 0) + (r.payout or 0) for r in rows) == pool.pool


# ------------------------------------------------------- nights it found, played again
#: the invariants the machine checks after every step
INVARIANTS = ("views_and_results_compute", "the_end_and_heads_up_fit_the_players_in",
              "nobody_sits_in_a_kept_seat", "everybody_in_has_a_seat",
              "replay_is_the_live_state", "counted_stacks_are_the_chips_in_play",
              "the_money_adds_up")


def night(variant: str, players: int, seed: int = 1) -> Floor:
    """A night of ``variant`` opened, drawn and started as the machine opens it."""
    floor = type(f"Floor_{variant}", (Floor,), {"variant": variant})()
    floor.open(players=players, seed=seed, guests=0, desk=0)
    holds(floor)
    return floor


def holds(floor: Floor) -> None:
    """Every invariant of the machine, as after a step."""
    for name in INVARIANTS:
        getattr(floor, name)()


def played(variant: str, opening: dict[str, int],
           steps: tuple[tuple[str, dict[str, Any]], ...]) -> Floor:
    """A night the exploration found, played again as it printed it: ``open(**opening)``,
    then each rule by name with its arguments, every invariant after each step."""
    floor = type(f"Floor_{variant}", (Floor,), {"variant": variant})()
    floor.open(**opening)
    holds(floor)
    for name, kwargs in steps:
        getattr(floor, name)(**kwargs)
        holds(floor)
    return floor


def test_an_undone_correction_before_a_count_moves_the_chips():
    """Found exploring (money-runs): a complete count, then the undo of a chip correction
    made before it. The count was of the chips as they were; the undo took the found chip
    out of play again, so the counted stacks no longer add up (the engine keeps the count:
    a count is of its moment) and the model must not expect it."""
    floor = night("sample:sample", 9)
    t = floor.tour
    fixed = floor.run({"cmd": "chip_correction", "change": 1000,
                       "reason": "chip found on the floor"}, 5.0)
    assert fixed
    assert floor.run(floor._counts(7), 5.0), "a count of every stack was refused"
    holds(floor)
    assert floor.run({"cmd": "undo", "target": fixed[0]["group"]}, 5.0)
    assert t.chips == 9 * t.settings.start_stack
    holds(floor)


def test_a_no_show_after_the_draw_was_undone_leaves_the_chip_counts():
    """Found exploring (psc-five-spades-6max, the desk before the draw): a stack counted
    while the draw stood; the draw undone; at the start time the seats were drawn again
    and the player who registered ahead was found not there (a no-show): off the list,
    but still among the counted, and the chip leader looked for a player who was gone
    (KeyError in every summary). A player leaving the list leaves the counts too."""
    floor = played("preset:psc-five-spades-6max",
                   dict(guests=0, players=24, seed=313, desk=1), (
                       ("chips", dict(dt=1.0, how="part", pick=4528)),
                       ("entries", dict(dt=5.0, kind="reentry", pick=999999)),
                       ("hand_done", dict(dt=0.0, pick=1200)),
                       ("chips", dict(dt=240.0, how="short", pick=9566)),
                       ("undo", dict(dt=45.0, how="table", pick=1690)),
                       ("undo", dict(dt=45.0, how="target", pick=3596)),
                       ("undo", dict(dt=0.0, how="target", pick=6903)),
                       ("time_passes", dict(seconds=300.0))))
    t = floor.tour
    assert t.drawn and any(e["type"] == "no_shows" and e["players"] for e in t.log)
    assert t.counted <= set(t.players)


def test_an_undo_whose_group_removed_an_absent_player_before_a_round_s_end_is_refused():
    """Found exploring (psc-play-the-clock, the desk's Late Owl): an absent player's
    command whose group also removed another absent player after 2 hours (000 9.5); then
    the round's end seated the room without the removed one; the undo of that command
    brought the removed player back in, without a seat, and the engine removed them again
    at once — from no seat (InvalidEvent inside the undo). A group that seated the room
    without a player the replay has back in stands on the undone one: refused."""
    floor = played("sample:psc-play-the-clock", dict(seed=28249, players=23, desk=3, guests=5899), (
        ('time_passes', dict(seconds=1200.0)),
        ('time_call', dict(dt=5.0, pick=24501)),
        ('undo', dict(dt=1.0, how='target', pick=1217)),
        ('undo', dict(dt=45.0, how='last', pick=1000000)),
        ('end_round', dict(dt=240.0, pick=525)),
        ('discipline', dict(dt=1.0, kind='absent', pick=9407)),
        ('time_call', dict(dt=5.0, pick=5827)),
        ('every_table_hand_done', dict(dt=45.0)),
        ('end_round', dict(dt=0.0, pick=30861)),
        ('end_round', dict(dt=45.0, pick=178882)),
        ('time_call', dict(dt=0.0, pick=368618)),
        ('time_call', dict(dt=20.0, pick=3193)),
        ('discipline', dict(dt=0.0, kind='disqualify', pick=13465)),
        ('entries', dict(dt=20.0, kind='rebuy', pick=565714)),
        ('time_call', dict(dt=45.0, pick=1048)),
        ('time_passes', dict(seconds=2400.0)),
        ('time_call', dict(dt=90.0, pick=91003)),
        ('time_call', dict(dt=20.0, pick=240)),
        ('names', dict(dt=1.0, pick=301)),
        ('time_passes', dict(seconds=600.0)),
        ('names', dict(dt=240.0, pick=35596)),
        ('time_passes', dict(seconds=2400.0)),
        ('discipline', dict(dt=240.0, kind='absent', pick=9999)),
        ('time_call', dict(dt=0.0, pick=36077)),
        ('discipline', dict(dt=5.0, kind='absent', pick=43701)),
        ('time_call', dict(dt=0.0, pick=285)),
        ('discipline', dict(dt=0.0, kind='disqualify', pick=139)),
        ('time_passes', dict(seconds=120.0)),
        ('undo', dict(dt=90.0, how='target', pick=163768)),
        ('end_round', dict(dt=0.0, pick=145)),
        ('undo', dict(dt=240.0, how='target', pick=35596)),
        ('entries', dict(dt=0.0, kind='addon', pick=1883)),
        ('discipline', dict(dt=240.0, kind='absent', pick=18002)),
        ('end_round', dict(dt=20.0, pick=0)),
        ('entries', dict(dt=45.0, kind='rebuy', pick=20653)),
        ('names', dict(dt=45.0, pick=285)),
        ('undo', dict(dt=0.0, how='target', pick=307557)),
    ))
    last = floor.tour.log[-1]
    assert last["type"] != "absent_removed", last


def test_a_player_removed_as_absent_plays_no_further_table_game():
    """Found exploring longer nights (ace-of-spades-playday, 200 steps): a player removed
    after two hours absent (000 9.5) was named for the next table game and seated: a player
    out of a table game plays the next, but a removed (or disqualified) one's day is over.
    The table game is refused with the reason."""
    floor = played("sample:ace-of-spades-playday",
                   dict(players=28, desk=1, guests=930531, seed=706788), (
        ('hand_done', dict(dt=45.0, pick=10768)),
        ('table_game', dict(dt=1.0, pick=690)),
        ('entries', dict(dt=20.0, kind='reentry', pick=120)),
        ('entries', dict(dt=0.0, kind='reentry', pick=46982)),
        ('discipline', dict(dt=240.0, kind='disqualify', pick=19582)),
        ('entries', dict(dt=0.0, kind='late', pick=27)),
        ('hand_done', dict(dt=90.0, pick=3651)),
        ('time_passes', dict(seconds=30.0)),
        ('discipline', dict(dt=240.0, kind='disqualify', pick=1503)),
        ('time_call', dict(dt=45.0, pick=5455)),
        ('discipline', dict(dt=45.0, kind='absent', pick=295)),
        ('director_seating', dict(dt=0.0, kind='reserve', pick=2453)),
        ('director_seating', dict(dt=5.0, kind='reseat_seat', pick=592860)),
        ('bust_by_seat', dict(by=1878, confirm=True, dt=1.0, pick=307, same=False, stack=5000)),
        ('bust_by_seat', dict(by=244, confirm=False, dt=0.0, pick=413, same=False, stack=None)),
        ('time_call', dict(dt=20.0, pick=133954)),
        ('hand_done', dict(dt=45.0, pick=198394)),
        ('entries', dict(dt=0.0, kind='late', pick=33090)),
        ('time_call', dict(dt=90.0, pick=298)),
        ('time_passes', dict(seconds=600.0)),
        ('discipline', dict(dt=1.0, kind='absent', pick=901)),
        ('entries', dict(dt=20.0, kind='rebuy', pick=13693)),
        ('time_passes', dict(seconds=30.0)),
        ('hand_done', dict(dt=1.0, pick=42003)),
        ('hand_done', dict(dt=0.0, pick=999999)),
        ('table_game', dict(dt=1.0, pick=131073)),
        ('bust_by_seat', dict(by=2200, confirm=False, dt=20.0, pick=243599, same=False,
                              stack=20000)),
        ('bust_by_seat', dict(by=5854, confirm=False, dt=240.0, pick=1203, same=False, stack=5000)),
        ('time_call', dict(dt=0.0, pick=3424)),
        ('discipline', dict(dt=45.0, kind='penalty', pick=39987)),
        ('director_seating', dict(dt=5.0, kind='reseat', pick=2327)),
        ('director_seating', dict(dt=0.0, kind='reseat', pick=3165)),
        ('time_call', dict(dt=5.0, pick=119736)),
        ('discipline', dict(dt=5.0, kind='penalty', pick=484)),
        ('director_seating', dict(dt=5.0, kind='reseat', pick=1164)),
        ('bust_by_seat', dict(by=145, confirm=True, dt=1.0, pick=688, same=False, stack=None)),
        ('discipline', dict(dt=5.0, kind='disqualify', pick=13207)),
        ('table_game', dict(dt=90.0, pick=1711)),
        ('hand_done', dict(dt=0.0, pick=4830)),
        ('discipline', dict(dt=90.0, kind='penalty', pick=515)),
        ('time_passes', dict(seconds=120.0)),
        ('time_passes', dict(seconds=30.0)),
        ('entries', dict(dt=90.0, kind='rebuy', pick=22539)),
        ('director_seating', dict(dt=45.0, kind='reseat', pick=1075)),
        ('hand_done', dict(dt=20.0, pick=110207)),
        ('discipline', dict(dt=1.0, kind='disqualify', pick=181)),
        ('time_passes', dict(seconds=600.0)),
        ('director_seating', dict(dt=5.0, kind='reserve', pick=1000000)),
        ('director_seating', dict(dt=0.0, kind='reseat', pick=2316)),
        ('hand_done', dict(dt=1.0, pick=524288)),
        ('director_seating', dict(dt=20.0, kind='reseat', pick=4190)),
        ('discipline', dict(dt=90.0, kind='absent', pick=1044)),
        ('hand_done', dict(dt=1.0, pick=394898)),
        ('hand_done', dict(dt=20.0, pick=1042)),
        ('bust_by_seat', dict(by=313, confirm=True, dt=5.0, pick=46599, same=True, stack=5000)),
        ('bust_by_seat', dict(by=57037, confirm=True, dt=240.0, pick=20, same=False, stack=None)),
        ('time_passes', dict(seconds=1200.0)),
        ('time_passes', dict(seconds=1200.0)),
        ('discipline', dict(dt=45.0, kind='absent', pick=237)),
        ('hand_done', dict(dt=1.0, pick=232)),
        ('time_passes', dict(seconds=2400.0)),
        ('hand_done', dict(dt=240.0, pick=33001)),
        ('table_game', dict(dt=90.0, pick=427)),
    ))
    t = floor.tour
    removed = [p for p in t.players.values() if p.removed]
    assert removed and all(p.table is None for p in removed)
