"""Undo: a compensating event that takes back one command's events (000 3.3: a decision
is corrected by a new entry in the record, never by an edit).

The state is rebuilt from the log without the undone group. A command is never
undone under a later decision that was taken with it: a balancing move, a broken
table or the final table decided while the undone bust (or entry) was counted, or
a later event that no longer fits without it (a rebuy of the busted player). Such
an undo is rejected with those later commands, by number and in words, newest
first, so the director can undo them first (``undo --event N``) and then this
one: the floor is never left with a move nobody needs, and the counts are as
they were. A table's undo button takes back that table's last press (a bust, a
hand done, a time call, a move from it) that is not undone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import history
from controller.engine.commands import Rejected
from controller.engine.events import Record

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament

#: what a table's buttons make (the first event of the press's group)
PRESSES = frozenset({"busted", "hand_done", "time_call", "moved", "chip_race"})
#: events the floor decides from the counts of players at the tables
DECISIONS = frozenset({"moved", "table_broken", "final_table"})
#: events of the desk that take a player off the list before the draw (a cancellation, an
#: unregister, a registration bumped to the waiting list): the draw is made without them
OFF_THE_LIST = frozenset({"unregistered", "bumped"})
#: events that seat the whole room or part of it anew: a replay without an undone group
#: must still find every player who is in at a seat after them
REDRAWS = frozenset({"seats_drawn", "round_ended", "final_table", "table_broken"})
#: events that say a hand was played at their table
PLAYED = frozenset({"hand_done", "busted"})


def _undone(t: Tournament) -> set[int]:
    return {e["target"] for e in t.log if e["type"] == "undo"}


def _withdrawn(t: Tournament) -> set[int]:
    """The moves (``moved`` events) earlier undos withdrew with their group."""
    return {s for e in t.log if e["type"] == "undo" for s in e.get("withdrawn") or ()}


def _system(e: Record) -> bool:
    return e["type"] in history.SYSTEM or (e["type"] == "time_call" and e.get("op") == "expire")


def last_press(t: Tournament, table: int) -> int | None:
    """The group of the last press at ``table`` that is not undone yet."""
    undone = _undone(t)
    for e in reversed(t.log):
        if (e["seq"] == e["group"] and e.get("table") == table and e["group"] not in undone
                and e["type"] in PRESSES and not _system(e)):
            return int(e["group"])
    return None


def target_of(t: Tournament, c: cmd.Undo) -> int:
    """The group ``c`` takes back: its ``target``, the table's last press, or the last
    command. Raises :class:`Rejected` when there is none."""
    if c.table is not None:
        if c.target is not None:
            raise Rejected("undo takes a target or a table, not both")
        target = last_press(t, c.table)
        if target is None:
            raise Rejected("nothing to undo at table {table}", table=c.table)
        return target
    undone = _undone(t)
    # a command's group (it has an event the time alone never makes; a level that began
    # before a hand done was recorded does not hide the hand done)
    groups = [g for g in dict.fromkeys(e["group"] for e in t.log)
              if g not in undone and history.is_command(history.group(t, g))]
    if c.target is None:
        if not groups:
            raise Rejected("there is nothing to undo")
        return int(groups[-1])
    if c.target not in groups:
        raise Rejected("event {target} cannot be undone (not the first event of a command, "
                       "already undone, or an undo; floorman history lists them)", target=c.target)
    return c.target


def undo(t: Tournament, c: cmd.Undo, now: float) -> None:
    target = target_of(t, c)
    refuse_before_the_draw(t, target)
    refuse_played_on(t, target)
    later, without, moves = dependents(t, target)
    by_itself = [g for g in later if not history.is_command(history.group(t, g))]
    if by_itself:  # what the engine did by itself is never undone on its own
        raise Rejected("cannot undo the {what} (event {target}): the floor has since acted on it "
                       "by itself ({done}), which cannot be taken back",
                       what=history.command(t, target), target=target,
                       done=_steps(t, by_itself))
    if later:
        first = " then ".join(f"undo --event {g}" for g in later)
        again = sorted({e["table"] for g in later for e in history.group(t, g)
                        if e["type"] == "hand_done"})
        said = {"what": history.command(t, target), "target": target,
                "steps": _steps(t, later), "first": first}
        if again:
            raise Rejected("cannot undo the {what} (event {target}): later commands depend on "
                           "it: {steps}. Undo those first, newest first ({first}), then this one "
                           "(the hand done of table {tables} goes with it: press it again there)",
                           tables=", ".join(map(str, again)), **said)
        raise Rejected("cannot undo the {what} (event {target}): later commands depend on it: "
                       "{steps}. Undo those first, newest first ({first}), then this one",
                       **said)
    what = history.command(t, target)  # as the floor sees it now (a bust's place)
    if without is not None:
        t.undo_ready = (target, len(t.log), without)
    withdrawn = sorted(moves.withdrawn)
    movers = [t.log[s - 1]["player"] for s in withdrawn]
    record = t.emit(ev.Undo, now, target=target, withdrawn=withdrawn or None,
                    players=movers or None, stays=sorted(moves.stays) or None)
    t.undone_as = (record["seq"], what)


# --------------------------------------------------------------- dependencies
def refuse_before_the_draw(t: Tournament, target: int) -> None:
    """Refuse, once the seats are drawn, the undo of a desk command from before the draw
    that took a player off the list: the draw seated the list as it stood, so the player
    would be back in the field without a seat (the floor model found places with a gap).
    The draw is undone first, or the player comes back as a late entry."""
    undone = _undone(t)
    draw = next((e["seq"] for e in t.log if e["type"] == "seats_drawn"
                 and e["group"] not in undone), None)
    if draw is None or target > draw:
        return
    if not any(e["type"] in OFF_THE_LIST for e in history.group(t, target)):
        return
    raise Rejected("cannot undo the {what} (event {target}): the seats were drawn after it "
                   "on the list without the player (event {draw}); undo the draw first, or "
                   "enter the player as a late entry", what=history.command(t, target),
                   target=target, draw=draw)


def refuse_played_on(t: Tournament, target: int) -> None:
    """Refuse the undo of a group that drew seats (the final table, a broken table's
    players spread) which the floor has played on since: without it the replay would draw
    them again, and every player who played a hand at the new seats would get another
    one. Named, newest first, are the later commands that played at those tables."""
    seating, played = played_on(t, target)
    if not played:
        return
    raise Rejected("cannot undo the {what} (event {target}): the seats it drew ({seating}) "
                   "have been played on since: {steps}. An undo does not reseat players who "
                   "played on: undo those first, newest first ({first}), then this one",
                   what=history.command(t, target), target=target, seating=seating,
                   steps=_steps(t, played),
                   first=" then ".join(f"undo --event {g}" for g in played))


def played_on(t: Tournament, target: int) -> tuple[history.Phrase | None, list[int]]:
    """The seats group ``target`` drew (the final table, or where a broken table's players
    went), in words, and the later groups not undone that played a hand at those tables
    (a hand done or a bust there), newest first."""
    tables: set[int] = set()
    drawn: list[Record] = []
    for e in history.group(t, target):
        if e["type"] == "final_table":
            tables.add(int(e["table"]))
            drawn.append(e)
        elif e["type"] == "table_broken":
            tables |= {int(m[1]) for m in e["moves"]}
            drawn.append(e)
    if not drawn:
        return None, []
    skip = _undone(t)
    played = {e["group"] for e in t.log[target:]
              if e["group"] > target and e["group"] not in skip and e["type"] in PLAYED
              and e.get("table") in tables}
    words = [p for e in drawn if (p := history.event(t, e)) is not None]
    said = history.Phrase(words[0].key, words[0].params, "; ".join(p.text for p in words))
    return said, sorted(played, reverse=True)


@dataclass
class Moves:
    """The balancing moves that stand on an undone group and what becomes of them: the
    ``moved`` events ``withdrawn`` with it (the mover is still on the way) and those that
    ``stays`` (carried out: the mover sat down, or the table dealt a hand with them)."""

    withdrawn: set[int] = field(default_factory=set)
    stays: set[int] = field(default_factory=set)


def dependents(t: Tournament, target: int) -> tuple[list[int], Tournament | None, Moves]:
    """The later groups that stand on group ``target``, newest first: each fails to
    replay without it, or is a seating decision (a broken table, the final table) that
    the counts with it called for and the counts without it do not. A balancing move
    that the counts without it do not call for (a move from one of the fullest tables to
    a table the plan still fills is still called for) is no such group: while its mover
    has not sat down it is withdrawn with the undo, once carried out it stays (issue
    26.8). When no group stands on it, the state without ``target`` (the replay that found
    none made it: the undo's fold takes it, :func:`on_undo`), and those moves."""
    skip = _undone(t)
    gone = _withdrawn(t)
    if not any(e["type"] in DECISIONS and e["group"] > target for e in t.log[target:]):
        plans_with: dict[int, tuple[list[Record], dict[str, Any]]] = {}  # none to be stale
    else:
        plans_with, failed, _ = _walk(t, skip, gone, target)
        assert failed is None, "the live log replays"  # the state was built from it
    found: list[int] = []
    moves = Moves()
    settled: set[int] = set()
    while True:
        plans, failed, without = _walk(t, skip | {target} | set(found),
                                       gone | moves.withdrawn, target)
        if failed is not None:
            seq, g = failed
            if t.log[seq - 1]["type"] == "moved" and _on_the_way(t, t.log[seq - 1]):
                moves.withdrawn.add(seq)  # its seat is the undone bust's: the mover stays
                settled.add(g)
            else:
                found.append(g)
            continue
        stale = [g for g, (decision, plan) in plans.items()
                 if g > target and g not in found and g not in settled and g in plans_with
                 and _fits(decision, plans_with[g][1]) and not _fits(decision, plan)]
        if not stale:
            break
        for g in stale:
            decision = plans[g][0]
            if any(e["type"] != "moved" for e in decision):
                found.append(g)  # a table broken, the final table: undone first
                continue
            settled.add(g)
            for m in decision:
                if m["seq"] in moves.withdrawn:
                    continue
                (moves.withdrawn if _on_the_way(t, m) else moves.stays).add(m["seq"])
    found += _in_hands_it_began(t, target, skip | set(found))
    if not found:
        found += _ends_without(t, without, target)
    if found:
        return sorted(set(found), reverse=True), None, Moves()
    return [], without, moves


def _in_hands_it_began(t: Tournament, target: int, skip: set[int]) -> list[int]:
    """The later busts in a hand that group ``target`` began (its hand done, or the missed
    one a bust caught up; hand-for-hand switched on, or its next hand released): undone,
    the table would be back in the hand before, and a bust after them would join that
    earlier hand and be ranked by stack with its busts instead of above them (000 9.5
    ranks by hand; found by the floor model, psc-mystery-bounty and pokerlounge-berlin)."""
    group = history.group(t, target)
    began = {e["seq"] for e in group if e["type"] == "hand_done"}
    bubble = {e["seq"] for e in group
              if e["type"] == "hfh_released" or (e["type"] == "hfh" and e.get("on"))}
    if not began and not bubble:
        return []

    def in_it(hand: Any) -> bool:
        if not isinstance(hand, list):
            return False
        if len(hand) == 3 and hand[0] == "table":
            return hand[2] in began
        return len(hand) == 2 and hand[0] == "hfh" and hand[1] in bubble

    return sorted({e["group"] for e in t.log[target:]
                   if e["type"] == "busted" and e["group"] != target and e["group"] not in skip
                   and in_it(e.get("hand"))}, reverse=True)


def _ends_without(t: Tournament, without: Tournament, target: int) -> list[int]:
    """The groups of the tournament's end and of heads-up (002: the levels halved) that
    stand on ``target``: the state without it has more players in than won (one, or the
    two of a qualifier's shared first place, 001 §2 III), or more than two in heads-up.
    An earlier bust undone after them left the tournament over, or the levels halved,
    with those players in. The play-the-clock and multi-round ends are decided by the
    counts and the tables, not by who is left."""
    from controller.engine.rules import rounds

    skip = _undone(t) | {target}

    def last(kind: str) -> list[int]:
        return next(([e["group"]] for e in reversed(t.log) if e["type"] == kind
                     and e["group"] > target and e["group"] not in skip), [])

    found: list[int] = []
    # the winner's own entry undone: the end names a player the state does not have
    gone = any(w not in without.players for w in (without.winner, *without.co_winners)
               if w is not None)
    if without.finished and (without.remaining > max(1, len(without.co_winners)) or gone) \
            and rounds.kind(without) not in (rounds.PLAY_THE_CLOCK, rounds.MULTI_ROUND):
        found += last("finished")
    if without.heads_up and without.remaining > 2:
        found += last("heads_up")
    return found


def _on_the_way(t: Tournament, moved: Record) -> bool:
    """The move of ``moved`` is not carried out: its mover has not sat down, and the
    table has not dealt a hand with them (it is the mover's pending move)."""
    m = t.pending.get(moved["player"])
    return m is not None and m.seq == moved["seq"]


def _walk(t: Tournament, skip: set[int], drop: set[int], target: int
          ) -> tuple[dict[int, tuple[list[Record], dict[str, Any]]], tuple[int, int] | None,
                     Tournament]:
    """Replay the log without the groups in ``skip`` (none of them before ``target`` but
    those undone already) and the events in ``drop`` (withdrawn moves, all after
    ``target``), from a state kept before ``target``; the plan the floor had just before
    each later group's first seating decision, the first event that does not fit and its
    group (or None), and the state it made (the whole log's, as
    :meth:`Tournament.refold` makes it, when every event fit)."""
    from controller.engine.rules import seating

    r = t.state_before(target)
    plans: dict[int, tuple[list[Record], dict[str, Any]]] = {}
    redraw: tuple[int, int] | None = None  # (seq, group) of a group that seated the room
    for e in t.log[len(r.log):]:
        g = e["group"]
        if redraw is not None and g != redraw[1]:
            if _seat_lost(r):
                return plans, redraw, r
            redraw = None
        if e["type"] != "undo" and g not in skip and e["seq"] not in drop:
            if e["type"] in DECISIONS and g not in plans and r.drawn:
                decision = [x for x in history.group(t, g) if x["type"] in DECISIONS]
                plans[g] = (decision, {**seating.plan(r), "counts": r.counts()})
            try:
                r.apply(e)
            except (ev.InvalidEvent, Rejected, KeyError, ValueError, AssertionError):
                return plans, (e["seq"], g), r
            if e["type"] in REDRAWS and redraw is None:
                redraw = (e["seq"], g)
        r.log.append(e)
    if redraw is not None and _seat_lost(r):
        return plans, redraw, r
    return plans, None, r


def _seat_lost(r: Tournament) -> bool:
    """A player still in has no seat after a group that seated the room: it was made
    without them (a redraw at a round's end while they were out or removed) and does not
    fit a replay that has them back in (the floor model: the undo of an absent player's
    command whose group removed another absent player, before a round's end, left that
    player in without a seat). A play day's players wait between table games (003)."""
    return (r.drawn and not r.finished and not r.settings.play_day.enabled
            and any(not p.out and p.table is None for p in r.players.values()))


def _fits(decision: list[Record], plan: dict[str, Any]) -> bool:
    """The seating decision is what ``plan`` (:func:`seating.plan`) called for."""
    kinds = {e["type"] for e in decision}
    if "final_table" in kinds:
        return bool(plan["final_table_due"])
    if "table_broken" in kinds:
        return bool(plan["break_table"] == next(e["table"] for e in decision
                                                if e["type"] == "table_broken"))
    # a move fits when its destination is one the plan fills and it comes from one of the
    # fullest tables: with two donors of the same size either one's player balances
    wanted = Counter(m["to_table"] for m in decision if m["type"] == "moved")
    planned = Counter(m["to_table"] for m in plan["balance"])
    counts = plan["counts"]
    fullest = max((counts[f["from_table"]] for f in plan["balance"]), default=0)
    # a table the director chose (001 §2 I) fits when it still had a player to spare
    return (plan["break_table"] is None and not wanted - planned
            and all(counts.get(m["from_table"], 0) >= fullest or (
                m.get("chosen") and counts.get(m["from_table"], 0)
                > counts.get(m["to_table"], 0) + 1)
                for m in decision if m["type"] == "moved"))


def on_undo(t: Tournament, e: ev.Undo) -> None:
    # an undo rebuilds the state from the log without the undone group: the one its check
    # made, else from a state kept before it; the kept states that hold it go
    ready, t.undo_ready = t.undo_ready, None
    if ready is not None and ready[:2] == (e.target, len(t.log)):
        rebuilt = ready[2]
        rebuilt._kept = [k for k in t._kept if k[0] < e.target]
    else:
        rebuilt = t.refold(len(t.log), skip={e.target}, drop=e.withdrawn or ())
    rebuilt.log = t.log  # the caller appends the undo to the shared log
    t.__dict__.update(rebuilt.__dict__)


COMMANDS = {cmd.Undo: undo}
FOLDS = {ev.Undo: on_undo}


def _steps(t: Tournament, groups: list[int]) -> history.Steps:
    return history.Steps((g, history.command(t, g)) for g in groups)
