"""The hand: "hand done" at a table, and the last hands of the day (002).

At its hand boundary a donor table gives its balancing moves, then button
and blinds advance (:meth:`controller.engine.table.Table.advance`); a short
table then waits for its arrivals (TDA 11D, :mod:`controller.engine.rules.seating`)
until they are ``seated``; an ordinary move is done with the destination's next hand.

A "hand done" the table forgot is caught up by the next bust that is not in
the same hand (:mod:`controller.engine.rules.busts`; ``missed`` in the event):
it advances button and blinds but gives no balancing moves, because it comes
in the middle of the next hand, whose big blind is already posted. The table
screen is told when a table seems to have forgotten it (:func:`hand_done_due`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected
from controller.engine.rules import ghosts, penalties, seating

if TYPE_CHECKING:
    from controller.engine.table import Table
    from controller.engine.tournament import Tournament


def hand_done(t: Tournament, c: cmd.HandDone, now: float) -> None:
    t.require_running()
    tab = t.table(c.table)
    if t.hfh.on and c.table in t.hfh.done:
        waiting = sorted(set(t.tables) - t.hfh.done)
        raise Rejected("table {table} already finished this hand-for-hand hand; waiting for table "
                       "{waiting}", table=c.table, waiting=', '.join(map(str, waiting)))
    if tab.hands_left == 0:
        raise Rejected("table {table} has played its last hand of the day", table=c.table)
    seating.refuse_while_waiting(t, tab)
    # first what the passing time made (a level, the ghosts leaving): the table's next
    # hand starts under it
    t.react(now)
    if t.finished:
        return
    if t.tables.get(c.table) is not tab:
        # the ghosts left and this table broke (or the final table was drawn): its
        # hand is over with it, there is no next hand here to advance to; the final
        # table drawn on this table's number hears that its hand before the redraw is over
        new = t.tables.get(c.table)
        if new is not None and new.redrawn:
            t.emit(ev.HandDone, now, table=c.table)
        return
    seating.balancing_moves_from(t, now, tab)
    t.emit(ev.HandDone, now, table=c.table)


def hands_left(t: Tournament, c: cmd.HandsLeft, now: float) -> None:
    t.require_running()
    t.emit(ev.HandsLeft, now, count=c.count)


#: 002: "In den letzten 7-15 Minuten des letzten Levels hält der Turnierleiter die Uhr an"
DAY_END_WINDOW = (7 * 60.0, 15 * 60.0)
#: 002: "Ein Spielgast zieht eine Karte zwischen 3 und 5"
DAY_END_CARDS = (3, 4, 5)


def last_level(t: Tournament) -> int | None:
    """The day's last level: the structure's last playing level; ``None`` when it has no
    time (003 7 plays its last level without end: it has no last minutes)."""
    s = t.settings.structure
    playing = [i for i, lv in enumerate(s) if not lv.is_break]
    if not playing or s[playing[-1]].seconds is None:
        return None
    return playing[-1]


def day_end_window(t: Tournament, now: float) -> tuple[float, float] | None:
    """When the end of the day may be drawn (002): ``(from, until)`` controller time while
    the clock runs in the day's last level, ``(now, now)`` while it stands in the window
    (stopped with 7-15 minutes left), ``None`` otherwise: before the start, after the
    end, once the hands left are set, in another level, or stopped outside the window."""
    last = last_level(t)
    if last is None or not t.clock.started or t.finished or t.hands_left is not None:
        return None
    c = clk.at(t.clock, t.settings.structure, now)
    if c.level != last:
        return None
    low, high = DAY_END_WINDOW
    if c.running and c.ends_at is not None:
        # a last level shorter than 15 minutes: the window opens with it
        length = clk.duration(t.settings.structure, c.level, c.halved) or 0.0
        return max(c.ends_at - high, c.ends_at - length), c.ends_at - low
    if not c.running and c.remaining is not None and low <= c.remaining <= high:
        return now, now
    return None


def day_end_open(t: Tournament, now: float) -> bool:
    """The end of the day may be drawn at ``now`` (:func:`day_end_window`)."""
    w = day_end_window(t, now)
    return w is not None and w[0] <= now <= w[1]


def end_of_day(t: Tournament, c: cmd.EndOfDay, now: float) -> None:
    """The end of the day (002): the clock stops, the card a player drew is the hands
    left at every table; the day is over when every table has played them."""
    t.require_running()
    if c.card not in DAY_END_CARDS:
        raise Rejected("the card drawn for the end of the day is a 3, 4 or 5 (002), not {card}",
                       card=c.card)
    if t.hands_left is not None:
        raise Rejected("the hands left of the day are set already ({count}); undo that first",
                       count=t.hands_left)
    if not day_end_open(t, now):
        last = last_level(t)
        if last is None:
            raise Rejected("the structure has no last level with a time: the day has no end "
                           "to draw (002)")
        raise Rejected("the end of the day is drawn in the last 7-15 minutes of level "
                       "{level}, the day's last (002)", level=t.level_number(last))
    if t.clock.running:
        t.emit(ev.ClockChanged, now, op="pause")
    t.emit(ev.HandsLeft, now, count=c.card, card=c.card)


def day_over(t: Tournament) -> bool:
    """Every table has played its last hand of the day (002)."""
    return t.hands_left is not None and bool(t.tables) and all(
        x.hands_left == 0 for x in t.tables.values())


def most_left(t: Tournament) -> int | None:
    """The most hands any table still has to play in the day (``None``: no count)."""
    if t.hands_left is None:
        return None
    return max((x.hands_left for x in t.tables.values() if x.hands_left is not None),
               default=t.hands_left)


def carry(t: Tournament, most: int) -> None:
    """A table that came into play while the last hands of the day are played (the final
    table drawn, a table opened) plays as long as the longest of the tables before it:
    002 has the hands drawn "an allen Tischen gespielt", so nobody's day ends before the
    hands drawn are played, and the day ends when every table has played them."""
    if t.hands_left is None:
        return
    for tab in t.tables.values():
        if tab.hands_left is None:
            tab.hands_left = most


def on_hand_done(t: Tournament, e: ev.HandDone) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    if tab.redrawn:
        _before_the_redraw(t, tab, e)
        return
    penalties.hand_played(t, tab, e.group)  # a sit-out counts the hands dealt (000 3.8)
    ghosts.hand_posted(t, tab)  # a ghost or an absent player posted its blinds (000 9.5)
    tab.advance()
    tab.hand_id = e.seq
    if not t.hfh.on:
        tab.hfh_hand = None  # the hand-for-hand hand in play here is over
    tab.time_call = None
    t.time_call_tables.discard(tab.number)
    tab.time_called = []
    # a move the table waits for (TDA 11D: a short table, a new one) is done only when the
    # player sits down (seated); an ordinary move when the player sits down or, at the
    # latest, when this table played a hand with them (nobody must press "seated" at a
    # table that keeps dealing)
    for m in [m for m in t.pending.values() if m.to_table == tab.number and not m.hold]:
        m.done = True
        del t.pending[m.player]
    seating.hold_after_hand(t, tab)
    if t.hfh.on:
        t.hfh.done.add(tab.number)
    if t.hands_left is not None and all(x.hands_left == 0 for x in t.tables.values()) \
            and t.clock.running:
        t.clock = clk.pause(t.clock, t.settings.structure, e.at)


def _before_the_redraw(t: Tournament, tab: Table, e: ev.HandDone) -> None:
    """The hand played before the final table was drawn is over: the drawn button and
    blinds are the final table's first hand; its players are still on their way. The
    hand was dealt (a sit-out counts it, 000 3.8), at the old tables' positions."""
    penalties.hand_played(t, tab, e.group)
    tab.redrawn = False
    if tab.hands_left:  # the hand of the redraw was one of the day's last hands (002)
        tab.hands_left -= 1
    tab.hand_id = e.seq
    tab.time_call = None
    t.time_call_tables.discard(tab.number)
    tab.time_called = []


def hand_done_due(t: Tournament, number: int, now: float) -> bool:
    """True when table ``number`` seems to have forgotten "hand done".

    The clock has run ``hand_done_reminder_minutes`` (setting, default 5) in a
    playing level since the table's hand began, since the clock last started or
    since the break before this level ended. Never during hand-for-hand (the
    screens show which tables are still playing), before the start, on a paused
    clock or after the table's last hand of the day. ``now``: controller time (s).
    """
    minutes = t.settings.hand_done_reminder_minutes
    tab = t.tables.get(number)
    if not minutes or tab is None or not t.drawn or t.finished or t.hfh.on \
            or tab.hands_left == 0:
        return False
    s = t.settings.structure
    c = clk.at(t.clock, s, now)
    if not c.running or s[c.level].is_break:
        return False
    since = max(_hand_started_at(t, tab.hand_id), t.clock_since)
    if c.level > 0 and s[c.level - 1].is_break and c.ends_at is not None:
        length = clk.duration(s, c.level, c.halved)
        if length is not None:
            since = max(since, c.ends_at - length)
    return now - since >= minutes * 60


def hand_done_due_tables(t: Tournament, now: float) -> set[int]:
    """The tables :func:`hand_done_due` is true for, the clock looked at once (a
    festival's 1,000 tables are looked at every half second)."""
    minutes = t.settings.hand_done_reminder_minutes
    if not minutes or not t.drawn or t.finished or t.hfh.on:
        return set()
    s = t.settings.structure
    c = clk.at(t.clock, s, now)
    if not c.running or s[c.level].is_break:
        return set()
    since = t.clock_since
    if c.level > 0 and s[c.level - 1].is_break and c.ends_at is not None:
        length = clk.duration(s, c.level, c.halved)
        if length is not None:
            since = max(since, c.ends_at - length)
    limit = minutes * 60
    if now - since < limit:
        return set()  # no table's hand began before ``since`` counts
    return {n for n, tab in t.tables.items()
            if tab.hands_left != 0 and now - max(_hand_started_at(t, tab.hand_id), since) >= limit}


def hand_level(t: Tournament, number: int) -> int | None:
    """The level whose blinds table ``number``'s hand in play keeps, when it is not the
    level on the clock: a new level applies from the next hand, at each table (000 9.6,
    001 §1 IX, 002, 003 14, TDA R23). That is the level before, while the hand that
    began in it is not done ("hand done"); ``None`` when the hand in play began in the
    level on the clock, in a break, or before the level before, or so long before the
    change that the table's "hand done" reminder was due (a forgotten "hand done": the
    clock's blinds are the best guess), and after the director's jump over levels.

    The level's start is its ``level_started`` event: the tick that records it runs
    within a second of the change, and a hand done at the same moment begins a hand of
    the new level (its event comes first, at the same time)."""
    tab = t.tables.get(number)
    before = t.level_before
    if tab is None or before is None or not t.drawn or t.finished:
        return None
    s = t.settings.structure
    level, (old, old_since) = t.level_announced, before
    if not (0 <= old < len(s) and 0 <= level < len(s)) or s[level].is_break \
            or s[old].is_break or old == level:
        return None
    if old != level - 1:
        # a jump by the director, or levels no command saw begin (the engine learns of a
        # level at the next command; the service's tick comes every half second)
        return None
    began = _hand_started_at(t, tab.hand_id)
    if began >= t.level_started_at or began < old_since:
        return None
    minutes = t.settings.hand_done_reminder_minutes
    if minutes and t.level_started_at - max(began, t.clock_since) >= minutes * 60:
        return None  # the table was reminded of its "hand done" before the level changed
    return old


def _hand_started_at(t: Tournament, seq: int) -> float:
    """Controller time of the event ``seq`` that began a table's hand in play."""
    return float(t.log[seq - 1]["at"]) if 0 < seq <= len(t.log) else 0.0


def on_hands_left(t: Tournament, e: ev.HandsLeft) -> None:
    t.hands_left = e.count
    for tab in t.tables.values():
        tab.hands_left = e.count


COMMANDS = {cmd.HandDone: hand_done, cmd.HandsLeft: hands_left, cmd.EndOfDay: end_of_day}
FOLDS = {ev.HandDone: on_hand_done, ev.HandsLeft: on_hands_left}
