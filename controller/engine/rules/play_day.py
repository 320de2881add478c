"""A play day of table games (003 6, 7, 11, 13), as the Ace of Spades club plays it.

"Für die drei besten Spieler an einem Tisch werden ... Punkte vergeben" (003 6):
a regular play day is not one tournament but a series of table games. Each
game plays to its own end: its last player wins it, its best three score
2 / 1 / 0.5. The players of a finished game (busted or winner) and late
arrivals may sit down for another game (``table_game``: tables and seats drawn
at random, 003 11), so a player may play several tables in a day. Everybody
who played at least one table gets the attendance point once ("für die
Anwesenheit in Verbindung mit mindestens einem gespielten Tisch"), and the
season bonus counts the tables played (see
:func:`controller.engine.results.ace_of_spades_season`).

Whether the floor balances and dissolves tables (003 13) is the preset's
``play_day.balancing``: ``false`` (003 9: no floorman on regular play days)
makes every table of the draw its own game and nobody is moved; ``true``
balances the tables of the draw as in a tournament, so they are one game
whose last table decides its best three (a new game then waits until that
one is over, so no player is moved between two games).

State: :attr:`Tournament.games`, game number → :class:`Game`. A game's busts
are the tournament's own place groups, filtered to its players and to the
busts made while it ran (``first_order`` .. ``last_order``), so a player who
plays two tables has one place in each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from controller.engine import commands as cmd
from controller.engine import events as ev
from controller.engine import places as plc
from controller.engine import points as rules
from controller.engine.commands import Rejected
from controller.engine.results import Finish, ResultRow, score
from controller.engine.rules import reserve, seating
from controller.engine.table import Table

if TYPE_CHECKING:
    from controller.engine.tournament import Tournament


@dataclass
class Game:
    """One table game. ``first_order``/``last_order``: the tournament's bust counter when
    it started and ended (its busts lie between); ``winner`` once it is over."""

    number: int
    tables: list[int]
    players: list[int]
    first_order: int
    last_order: int | None = None
    winner: int | None = None
    started_at: float = 0.0

    @property
    def over(self) -> bool:
        return self.winner is not None


def enabled(t: Tournament) -> bool:
    return t.settings.play_day.enabled


def independent(t: Tournament) -> bool:
    """Every table is its own game and nobody is moved (``balancing: false``)."""
    return enabled(t) and not t.settings.play_day.balancing


def running(t: Tournament) -> list[Game]:
    return [g for g in t.games.values() if not g.over]


def still_in(t: Tournament, g: Game) -> list[int]:
    """The players still in a running game: seated at one of its tables (a player out of
    it may already sit in another game, so "not out" does not tell)."""
    return [pid for pid in g.players if t.players[pid].table in g.tables]


# ------------------------------------------------------------------ commands
def table_game(t: Tournament, c: cmd.TableGame, now: float) -> None:
    if not enabled(t):
        raise Rejected("table games belong to a play day (play_day.enabled in the preset)")
    t.require_running()
    if t.settings.play_day.balancing and running(t):
        raise Rejected("game {game} is still played and balanced as one game (003 13): a new game "
                       "starts when it is over", game=running(t)[0].number)
    ids: list[int] = []
    for ref in c.players:
        p = t.player(ref)
        if p.ghost:
            raise Rejected("{player} is a ghost seat, not a player", player=p.name)
        # the day is over for them: a player out of a table game plays the next, these not
        if p.disqualified:
            raise Rejected("{player} is disqualified (000 3.8): no further table game",
                           player=p.name)
        if p.removed:
            raise Rejected("{player} was removed as absent (000 9.5): no further table game",
                           player=p.name)
        if p.id in ids:
            raise Rejected("{player} is named twice", player=p.name)
        if p.table is not None:
            raise Rejected("{player} is playing at table {table}", player=p.name, table=p.table)
        ids.append(p.id)
    per = t.settings.players_per_table
    if len(ids) > per:
        raise Rejected("{count} players do not fit one table of {per}", count=len(ids), per=per)
    number = 1
    while number in t.tables:
        number += 1
    if c.seed is None:
        seed, rng = t.rng()
    else:
        seed, rng = c.seed, random.Random(c.seed)
    order = list(ids)
    rng.shuffle(order)  # 003 11: tables and seats by a drawn card
    seats = sorted(rng.sample(range(1, per + 1), len(order)))
    button = rng.choice(seats)
    t.emit(ev.TableGameStarted, now, game=next_game(t), tables=[number],
           seats=[[pid, number, s] for pid, s in zip(order, seats, strict=True)],
           seed=seed, button=button)


def next_game(t: Tournament) -> int:
    """The next table game's number: after the highest one so far (an undone game leaves a
    gap; counting the games would give a later game's number again)."""
    return max(t.games, default=0) + 1


def may_seat_late(t: Tournament) -> bool:
    """A late arrival on a play day waits for the next table game (it is not squeezed into a
    game under way)."""
    return not enabled(t)


# ----------------------------------------------------------------- reactions
def start_games(t: Tournament, now: float) -> None:
    """The draw's tables become games: each its own, or one game when balanced (003 13)."""
    if not enabled(t) or not t.drawn:
        return
    taken = {n for g in running(t) for n in g.tables}
    fresh = sorted(n for n in t.tables if n not in taken)
    if not fresh:
        return
    groups = [[n] for n in fresh] if independent(t) else [fresh]
    for tables in groups:
        number = next_game(t)
        seats = [[pid, n, s] for n in tables for s, pid in sorted(t.tables[n].occupant.items())
                 if not t.players[pid].ghost]
        t.emit(ev.TableGameStarted, now, game=number, tables=tables, seats=seats)


def end_games(t: Tournament, now: float) -> None:
    """A game whose players are all out but one is over: that one won it (003 6)."""
    if not enabled(t):
        return
    for g in running(t):
        left = still_in(t, g)
        if len(left) == 1:
            t.emit(ev.TableGameOver, now, game=g.number, winner=left[0])


# --------------------------------------------------------------------- folds
def on_game_started(t: Tournament, e: ev.TableGameStarted) -> None:
    if e.game in t.games:
        raise ev.InvalidEvent(f"table game {e.game} started twice")
    players = [int(row[0]) for row in e.seats]
    if e.button is not None:  # a new table: seat its players (003 11)
        per = t.settings.players_per_table
        for n in e.tables:
            if n in t.tables:
                raise ev.InvalidEvent(f"table {n} is in play")
            t.tables[n] = Table(n, per, hand_id=e.seq)
        for pid, n, s in e.seats:
            p = t.players[pid]
            if p.out:  # back for another table: a new game, a new stack (003 7)
                p.out = False
                p.knocked_by = None
                t.remaining += 1
            p.chips = t.settings.start_stack
            t.chips += t.settings.start_stack
            seating.sit(t, pid, n, s)
        for n in e.tables:
            t.tables[n].first_hand(e.button)
    t.games[e.game] = Game(e.game, list(e.tables), players, first_order=t.bust_order,
                           started_at=e.at)


def on_game_over(t: Tournament, e: ev.TableGameOver) -> None:
    g = t.games.get(e.game)
    if g is None or g.over:
        raise ev.InvalidEvent(f"table game {e.game} is not under way")
    g.winner = e.winner
    g.last_order = t.bust_order
    w = t.players[e.winner]
    if w.table is not None:
        seating.stand(t, w.id)
        seating.close_moves(t, w.id)
    # away while winning (000 9.5: dealt in as a ghost): the game is over and its seat gone,
    # so is the absence; a player named for the next table game is there
    w.absent_since = w.absent_stack = w.away_stack = None
    w.posted = 0
    t.chips -= w.chips
    for n in list(t.tables):
        tab = t.tables[n]
        for pid in list(tab.occupant.values()):
            if t.players[pid].ghost:  # a reserve seat leaves with its table
                seating.stand(t, pid)
                t.players[pid].out = True
        if not tab.occupant:
            reserve.table_gone(t, t.tables.pop(n))
            t.hfh.done.discard(n)


# ------------------------------------------------------------------- results
def _ours(t: Tournament, g: Game, b: plc.Bust) -> bool:
    """A bust is the game's when its player plays it, at one of its tables, while it ran
    (games at other tables run at the same time; a table number is reused only after its
    game is over)."""
    last = g.last_order if g.last_order is not None else t.bust_order
    return (b.player in g.players and (b.table is None or b.table in g.tables)
            and g.first_order < b.order <= last)


def game_places(t: Tournament, g: Game) -> dict[int, int]:
    """Places within one game: its winner 1, then its busts, latest first."""
    groups = []
    for group in t.groups:
        mine = [b for b in group if _ours(t, g, b)]
        if mine:
            groups.append(mine)
    left = 1 if g.over else len(still_in(t, g))
    res = plc.places(groups, left, t.settings.hand_for_hand.cross_table_busts)
    if g.winner is not None:
        res[g.winner] = 1
    return res


def game_finishes(t: Tournament, g: Game) -> list[Finish]:
    """The game's places as finishes. A knock-out is credited while the player's last bust
    is this game's (a player who sat down again keeps their place here, not the credit)."""
    places = game_places(t, g)
    out = []
    for pid, place in places.items():
        p = t.players[pid]
        latest = max((b for grp in t.groups for b in grp if b.player == pid),
                     key=lambda b: b.order, default=None)
        by = p.knocked_by if (p.out and latest is not None and _ours(t, g, latest)
                              and p.knocked_by in places) else None
        out.append(Finish(pid, p.name, place, member=p.member, eliminated_by=by))
    return out


def results(t: Tournament) -> list[ResultRow]:
    """The day's standings, then each table game's result (003 6).

    Day rows (``game`` ``None``): ``points`` = table points + the attendance point,
    ``attendance`` 1 for everybody who played at least one table, ``tables_played``;
    ranked by those points (equal points share the place). Game rows: the place at that
    table and its 2 / 1 / 0.5 points.
    """
    tables: list[ResultRow] = []
    for g in sorted(t.games.values(), key=lambda x: x.number):
        scored = score(t.settings.points, game_finishes(t, g), entries=len(g.players))
        tables += [_with(r, game=g.number) for r in scored]
    totals: dict[int, float] = {}
    played: dict[int, int] = {}
    for g in t.games.values():
        for pid in g.players:
            played[pid] = played.get(pid, 0) + 1
    for r in tables:
        totals[r.player_id] = totals.get(r.player_id, 0.0) + r.points
    attendance = rules.ACE_OF_SPADES_ATTENDANCE_POINT
    day = sorted(played, key=lambda pid: (-(totals.get(pid, 0.0) + attendance),
                                          t.players[pid].name, pid))
    rows: list[ResultRow] = []
    place = 0
    for i, pid in enumerate(day):
        total = rules.round_points(Fraction(repr(totals.get(pid, 0.0))) + attendance)
        if not rows or total != rows[-1].points:
            place = i + 1
        p = t.players[pid]
        rows.append(ResultRow(place=place, player_id=pid, name=p.name, points=total,
                              knockouts=sum(r.knockouts for r in tables if r.player_id == pid),
                              knockout_points=0, bounty_hits=0, prize=None, member=p.member,
                              attendance=attendance, tables_played=played[pid]))
    return rows + tables


def _with(row: ResultRow, game: int) -> ResultRow:
    return replace(row, game=game)


COMMANDS = {cmd.TableGame: table_game}
FOLDS = {ev.TableGameStarted: on_game_started, ev.TableGameOver: on_game_over}
REACTIONS = (start_games, end_games)
