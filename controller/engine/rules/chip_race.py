"""The chip race at a colour-up break (000 3.17, 001 §1 X, 002, 003 37, 004 2).

At a break whose note names a chip ("Chipraise 25", "Colour-up 100"), that
chip leaves play. Each player first exchanges what divides evenly (colour-up);
the chips left over (fewer than make one new chip) are raced off:

- one card per leftover chip, dealt from the start seat (seat 1; 003 37: the
  player left of the dealer), each player getting all their cards before the
  next (000 3.17);
- the new chips are the table's leftover total rounded up to the next chip
  (000 3.17) or commercially, from half a chip (002: "ab 250 = 500er Chip");
- the highest cards win, the suit breaking a tie of ranks (spades, hearts,
  diamonds, clubs; 000 3.17), at most one new chip each (000, 001, 002, 004),
  or the highest card takes them all (003 37, ``one_chip_per_player: false``);
- nobody is eliminated by a chip race: a player whose leftover chips are all
  they have and who wins nothing keeps one chip of the smallest value still in
  play, the new chip (000 3.17, 001 §1 X, 004 2; 003 37: rounded up).

The dealer (or the director) gives the leftover chips per seat; the engine
deals the cards with ``t.rng()`` and stores them in the event, so a replay
shows the same cards and the same winners.

002 adds three things:

- the director may colour up at any time ("Die Turnierleitung kann jederzeit das
  Umtauschen von Jetons mit niedrigem Nennwert durchführen"): ``colour_up`` names the
  chip or chips that leave; the tables race for each like in a colour-up break, while
  the level it was called in lasts, the smaller chip first, one race per chip and
  table. A second call adds its chips to those still under way (before: it replaced
  them, and a table that had not raced the first chip lost that race);
- the chip race is announced 2-3 minutes before the break ("2-3 Minuten vor der Pause
  beginnt der Chipleader"): :func:`call_window` says when the screens show it;
- a player not at the table loses the small chips ("Du musst anwesend sein! Sonst
  verlierst du deine Chips"; "Der Spielgast muss beim Colour-Up persönlich anwesend
  sein"): the dealer enters the seat as ``absent`` with all its small chips, which are
  taken out of the chips in play, and it gets no card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from controller.engine import clock as clk
from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine.commands import Rejected

if TYPE_CHECKING:
    from controller.engine.settings import ChipRace as ChipRaceSettings
    from controller.engine.tournament import Tournament

#: ranks low to high (003: "Die 2 ist die kleinste, das Ass die höchste Karte")
RANKS = "23456789TJQKA"
#: suits high to low (000 3.17: "Pik, Herz, Karo, Treff")
SUITS = "♠♥♦♣"
DECK = tuple(r + s for r in RANKS for s in SUITS)


def strength(card: str) -> tuple[int, int]:
    """Order of a card: rank first, then the suit (spades highest, 000 3.17)."""
    return RANKS.index(card[0]), -SUITS.index(card[1])


def colour_up(note: str, chips: tuple[int, ...]) -> tuple[int, int] | None:
    """``(leaving, new)`` chip values of a break's colour-up note, or ``None``.

    The note names the leaving chip by its first number ("Chipraise 25",
    "Chip race: 50er", "Colour-up 1.000"); the new chip is the next higher value of
    the club's ``chips``. ``None`` when the note names no chip or no higher chip exists.
    """
    m = re.search(r"\d[\d.,']*", note)
    if m is None:
        return None
    leaving = int(re.sub(r"\D", "", m.group()))
    higher = [c for c in chips if c > leaving]
    if leaving < 1 or not higher:
        return None
    return leaving, higher[0]


#: 002: "2-3 Minuten vor der Pause": the screens announce the chip race this long before
#: a colour-up break
CALL_SECONDS = 180.0


@dataclass(frozen=True)
class Call:
    """The director's colour-up (``colour_up``): event ``seq``, in level ``level``."""

    seq: int
    level: int
    leaving: int
    new: int


@dataclass(frozen=True)
class Calls:
    """The director's colour-ups under way (``Tournament.colour_up``): ``calls`` of the
    level of the last, in the order called, and ``raced``: (table, call's seq) of every
    table's race for one of them."""

    calls: tuple[Call, ...]
    raced: frozenset[tuple[int, int]] = frozenset()


class Due(NamedTuple):
    """A colour-up under way: ``level`` (index), the ``leaving`` and the ``new`` chip, and the
    director's ``call`` (its event number; ``None``: a colour-up break's note)."""

    level: int
    leaving: int
    new: int
    call: int | None = None


def under_way(t: Tournament, now: float | None) -> list[Due]:
    """The director's colour-ups under way at ``now`` (``None``: where the last event left
    it), the smallest chip first: those called in the level on the clock (002)."""
    index = (t.clock if now is None else clk.at(t.clock, t.settings.structure, now)).level
    calls: Calls | None = t.colour_up
    if not t.clock.started or calls is None:
        return []
    return sorted((Due(index, c.leaving, c.new, c.seq) for c in calls.calls
                   if c.level == index), key=lambda d: d.leaving)


def has_raced(t: Tournament, table: int, colour: Due) -> bool:
    """``table`` had its chip race for ``colour``."""
    if colour.call is None:
        tab = t.tables.get(table)
        return tab is not None and raced(tab.chip_race, colour)
    calls: Calls | None = t.colour_up
    return calls is not None and (table, colour.call) in calls.raced


def due(t: Tournament, now: float | None, table: int | None = None) -> Due | None:
    """The colour-up under way at ``now`` (``None``: where the last event left it): the
    director's, while the level it was called in lasts (002), or the break's whose note
    names a chip (000 3.17). Of several chips the director called, the smallest; for a
    ``table``, the smallest it has not raced yet (all raced: the one it raced last)."""
    index = (t.clock if now is None else clk.at(t.clock, t.settings.structure, now)).level
    if not t.clock.started:
        return None
    calls = under_way(t, now)
    if calls:
        if table is None:
            return calls[0]
        left = [d for d in calls if not has_raced(t, table, d)]
        if left:
            return left[0]
        tab = t.tables.get(table)
        last = None if tab is None or tab.chip_race is None else tab.chip_race.call
        return next((d for d in calls if d.call == last), calls[-1])
    lvl = t.settings.structure[min(index, len(t.settings.structure) - 1)]
    if not lvl.is_break:
        return None
    pair = colour_up(lvl.note, t.settings.chip_race.chips)
    return None if pair is None else Due(index, *pair)


def raced(tab_race: ev.ChipRaced | None, colour: Due) -> bool:
    """A table's last chip race is the one of this colour-up."""
    return tab_race is not None and tab_race.level == colour.level \
        and tab_race.call == colour.call


class CallWindow(NamedTuple):
    """The chip race announced (002: 2-3 minutes before the break): ``leaving`` → ``new``,
    shown from ``start`` until ``end`` (controller time; ``None``: already, the clock
    stopped in the window, until it runs again)."""

    leaving: int
    new: int
    start: float | None
    end: float | None


def call_window(t: Tournament, now: float) -> CallWindow | None:
    """When the screens announce the coming chip race (002: 2-3 minutes before the break):
    the level on the clock at ``now`` is followed by a colour-up break and has at most
    :data:`CALL_SECONDS` left, or will have (``start`` in the future). ``None`` otherwise,
    before the start and after the end."""
    s = t.settings.structure
    if not t.clock.started or t.finished:
        return None
    c = clk.at(t.clock, s, now)
    nxt = c.level + 1
    if nxt >= len(s) or s[c.level].is_break or not s[nxt].is_break:
        return None
    pair = colour_up(s[nxt].note, t.settings.chip_race.chips)
    if pair is None:
        return None
    if c.running:
        if c.ends_at is None:
            return None
        return CallWindow(*pair, c.ends_at - CALL_SECONDS, c.ends_at)
    if c.remaining is None or c.remaining > CALL_SECONDS:
        return None
    return CallWindow(*pair, None, None)


def called(t: Tournament, now: float) -> bool:
    """The chip race is announced at ``now`` (:func:`call_window`)."""
    w = call_window(t, now)
    return w is not None and (w.start is None or w.start <= now) \
        and (w.end is None or now < w.end)


def new_chips(total: int, new: int, rounding: str) -> int:
    """How many new chips a table's leftover ``total`` (chips' value) makes: rounded up
    (000 3.17) or commercially, half a chip and more up (002)."""
    if rounding == "half_up":
        return total // new + (1 if 2 * (total % new) >= new else 0)
    return -(-total // new)


def deal_order(seats: list[int], size: int, start: str, button: int | None) -> list[int]:
    """``seats`` in dealing order: from seat 1 up, or clockwise from the player left of
    the dealer (003 37; without a button yet: from seat 1)."""
    if start != "left_of_dealer" or button is None:
        return sorted(seats)
    after = [((button - 1 + i) % size) + 1 for i in range(1, size + 1)]
    return [s for s in after if s in seats]


def decide(cards: list[list[str]], count: int, rules: ChipRaceSettings) -> tuple[
        list[int], list[int]]:
    """Winners of ``count`` new chips among players holding ``cards`` (index, won each).

    One chip per player: the best card of each player ranks the players, the first
    ``count`` win one each. Otherwise (003 37) the highest card takes them all.
    """
    if count <= 0:
        return [], []
    best = sorted(range(len(cards)), key=lambda i: max(map(strength, cards[i])), reverse=True)
    if not rules.one_chip_per_player:
        return [best[0]], [count]
    winners = best[:count]
    return winners, [1] * len(winners)


def colour_up_now(t: Tournament, c: cmd.ColourUp, now: float) -> None:
    """The director's colour-up (002 "jederzeit"): one chip or several, each raced at
    every table, the smaller first; added to those under way."""
    t.require_running()
    if not t.clock.started:
        raise Rejected("the tournament has not started: the chips are coloured up once play "
                       "has begun")
    if (c.chip is None) == (c.chips is None):
        raise Rejected("colour_up takes chip (one chip) or chips (several), not both and not "
                       "neither")
    wanted = [c.chip] if c.chip is not None else list(c.chips or ())
    chips = t.settings.chip_race.chips
    going = {d.leaving for d in under_way(t, now)}
    pairs: list[tuple[int, int]] = []
    for chip in sorted(wanted):
        if chip not in chips:
            raise Rejected("{chip} is not one of the club's chips ({chips})", chip=chip,
                           chips=", ".join(map(str, chips)))
        higher = [x for x in chips if x > chip]
        if not higher:
            raise Rejected("{chip} is the club's biggest chip: there is nothing to colour it "
                           "up to", chip=chip)
        if chip in going:
            raise Rejected("the {chip} chips are being coloured up already", chip=chip)
        if any(chip == p[0] for p in pairs):
            raise Rejected("{chip} is named twice", chip=chip)
        pairs.append((chip, higher[0]))
    level = clk.at(t.clock, t.settings.structure, now).level
    for leaving, new in pairs:  # the smaller first: the tables race them in this order
        t.emit(ev.ColourUpCalled, now, leaving=leaving, new=new, level=level, adds=True)


def on_colour_up(t: Tournament, e: ev.ColourUpCalled) -> None:
    call = Call(e.seq, e.level, e.leaving, e.new)
    before: Calls | None = t.colour_up
    if not e.adds or before is None:  # a log from before several chips: a call replaced
        t.colour_up = Calls((call,))
        return
    kept = tuple(c for c in before.calls if c.level == e.level)  # the others are over
    seqs = {c.seq for c in kept}
    t.colour_up = Calls(kept + (call,), frozenset(r for r in before.raced if r[1] in seqs))


def chip_race(t: Tournament, c: cmd.ChipRace, now: float) -> None:
    t.require_running()
    tab = t.table(c.table)
    colour = due(t, now, c.table)
    if colour is None:
        raise Rejected("no colour-up is due: a chip race runs in a break whose note names "
                       "the chip that leaves (\"Chipraise 25\") or after the director's "
                       "colour-up")
    if c.leaving is not None and c.leaving != colour.leaving:
        # several chips called (002): the race names its chip; the smaller goes first
        colour = next((d for d in under_way(t, now) if d.leaving == c.leaving), None) or colour
        if colour.leaving != c.leaving:
            raise Rejected("no colour-up of the {chip} chips is under way (the {leaving} "
                           "chips are)", chip=c.leaving, leaving=colour.leaving)
    level, leaving, new, call = colour
    if has_raced(t, c.table, colour):
        raise Rejected("table {table} already had its chip race in this colour-up (undo it "
                       "first to enter it again)", table=c.table)
    if len(c.chips) > tab.size:
        raise Rejected("table {table} has {seats} seats, got leftover chips for {count}",
                       table=c.table, seats=tab.size, count=len(c.chips))
    given = {seat: n for seat, n in enumerate(c.chips, start=1) if n > 0}
    absent = sorted(set(c.absent))
    for seat in absent:
        if seat not in tab.occupant:
            raise Rejected("seat {seat} at table {table} is empty: nobody there is absent",
                           seat=seat, table=c.table)
        if seat not in given:
            raise Rejected("seat {seat} is absent, but has no small chips of {leaving} to "
                           "lose", seat=seat, leaving=leaving)
        if seat in c.short:
            raise Rejected("seat {seat} is absent: an absent player's small chips are taken "
                           "out, not raced (002)", seat=seat)
    lost = [given[s] * leaving for s in absent]
    leftover = {seat: n for seat, n in given.items() if seat not in absent}
    per_chip = -(-new // leaving)  # leftover chips make less than one new chip
    for seat in given:
        if seat not in tab.occupant:
            raise Rejected("seat {seat} at table {table} is empty: no leftover chips there",
                           seat=seat, table=c.table)
    for seat, n in leftover.items():
        if n * leaving >= new:
            raise Rejected("seat {seat}: {chips} chips of {leaving} make at least one {new}; "
                           "colour those up first (at most {most} are left over)",
                           seat=seat, chips=n, leaving=leaving, new=new, most=per_chip - 1)
    for seat in c.short:
        if seat not in leftover:
            raise Rejected("seat {seat} is short, but has no leftover chips of {leaving}",
                           seat=seat, leaving=leaving)
    if not leftover and not absent:
        raise Rejected("no leftover chips of {leaving} at table {table}: nothing to race",
                       leaving=leaving, table=c.table)
    seats = deal_order(list(leftover), tab.size, t.settings.chip_race.start, tab.button)
    need = sum(leftover.values())
    if need > len(DECK):
        raise Rejected("{need} leftover chips need {need} cards; a deck has {count}",
                       need=need, count=len(DECK))
    seed, rng = t.rng()
    deck = rng.sample(DECK, len(DECK))
    cards: list[list[str]] = []
    for seat in seats:  # each player gets all their cards before the next (000 3.17)
        cards.append(deck[:leftover[seat]])
        deck = deck[leftover[seat]:]
    total = need * leaving
    count = new_chips(total, new, t.settings.chip_race.rounding)
    winners, won = decide(cards, count, t.settings.chip_race)
    winner_seats = [seats[i] for i in winners]
    saved = [s for s in seats if s in c.short and s not in winner_seats]
    change = (sum(won) + len(saved)) * new - total
    t.emit(ev.ChipRaced, now, table=c.table, level=level, leaving=leaving, new=new, seed=seed,
           seats=seats, leftover=[leftover[s] for s in seats], cards=cards,
           winners=winner_seats, won=won, saved=saved, change=change, call=call,
           absent=absent or None, lost=lost or None)


def on_chip_race(t: Tournament, e: ev.ChipRaced) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    tab.chip_race = e
    calls: Calls | None = t.colour_up
    if e.call is not None and calls is not None:  # one race per chip and table (002)
        t.colour_up = Calls(calls.calls, calls.raced | {(e.table, e.call)})
    # the new chips are the leftover total rounded (000 3.17: up; 002: commercially),
    # and a short player keeps one: what is in play changes by that much (the average);
    # an absent player's small chips leave play (002)
    t.chips += e.change - sum(e.lost or ())


COMMANDS = {cmd.ChipRace: chip_race, cmd.ColourUp: colour_up_now}
FOLDS = {ev.ChipRaced: on_chip_race, ev.ColourUpCalled: on_colour_up}
