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
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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


def due(t: Tournament, now: float | None) -> tuple[int, int, int] | None:
    """``(level index, leaving, new)`` when the clock stands in a colour-up break at ``now``
    (``None``: where the last event left it)."""
    index = (t.clock if now is None else clk.at(t.clock, t.settings.structure, now)).level
    lvl = t.settings.structure[min(index, len(t.settings.structure) - 1)]
    if not t.clock.started or not lvl.is_break:
        return None
    pair = colour_up(lvl.note, t.settings.chip_race.chips)
    return None if pair is None else (index, *pair)


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


def chip_race(t: Tournament, c: cmd.ChipRace, now: float) -> None:
    t.require_running()
    tab = t.table(c.table)
    colour = due(t, now)
    if colour is None:
        raise Rejected("no colour-up is due: a chip race runs in a break whose note names "
                       "the chip that leaves (\"Chipraise 25\")")
    level, leaving, new = colour
    if tab.chip_race is not None and tab.chip_race.level == level:
        raise Rejected("table {table} already had its chip race in this break (undo it first to "
                       "enter it again)", table=c.table)
    if len(c.chips) > tab.size:
        raise Rejected("table {table} has {seats} seats, got leftover chips for {count}",
                       table=c.table, seats=tab.size, count=len(c.chips))
    leftover = {seat: n for seat, n in enumerate(c.chips, start=1) if n > 0}
    per_chip = -(-new // leaving)  # leftover chips make less than one new chip
    for seat, n in leftover.items():
        if seat not in tab.occupant:
            raise Rejected("seat {seat} at table {table} is empty: no leftover chips there",
                           seat=seat, table=c.table)
        if n * leaving >= new:
            raise Rejected("seat {seat}: {chips} chips of {leaving} make at least one {new}; "
                           "colour those up first (at most {most} are left over)",
                           seat=seat, chips=n, leaving=leaving, new=new, most=per_chip - 1)
    for seat in c.short:
        if seat not in leftover:
            raise Rejected("seat {seat} is short, but has no leftover chips of {leaving}",
                           seat=seat, leaving=leaving)
    if not leftover:
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
           winners=winner_seats, won=won, saved=saved, change=change)


def on_chip_race(t: Tournament, e: ev.ChipRaced) -> None:
    tab = t.tables.get(e.table)
    if tab is None:
        raise ev.InvalidEvent(f"table {e.table} is not in play")
    tab.chip_race = e
    # the new chips are the leftover total rounded (000 3.17: up; 002: commercially),
    # and a short player keeps one: what is in play changes by that much (the average)
    t.chips += e.change


COMMANDS = {cmd.ChipRace: chip_race}
FOLDS = {ev.ChipRaced: on_chip_race}
