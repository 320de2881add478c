"""Named moments of a real tournament as ScreenViews, and screenshots of every one.

The states come from the real engine (:class:`controller.engine.tournament.Tournament`
with ``config/tournaments/sample.yaml``) turned into the retained payloads by
:mod:`controller.service.views`, exactly what a kiosk receives. Tests and the
screenshot command use the same moments::

    python -m controller.night.shots DIR          # a PNG of every moment at 1920×1080 and 800×480
    python -m controller.night.shots --approve    # approve them: docs/screens/ and docs/gallery.md

``MONO`` is the local monotonic time the moments' feedback is relative to:
draw them with ``Renderer(size, monotonic=lambda: MONO)``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import resources
from controller.config import load_tournament
from controller.engine.rules import busts
from controller.engine.settings import TimeCall
from controller.engine.tournament import Tournament
from controller.service import views
from kiosk.view import Feedback, FeedbackKind, Role, ScreenView

SAMPLE = resources.sample_tournament()
BB_ANTE = resources.folder("tournaments") / "venue-faq-main-event.yaml"
MONEY = resources.folder("tournaments") / "venue-faq-prize-pool.yaml"
SIZES = ((1920, 1080), (800, 480))
MONO = 1000.0
#: the worst name the screens must survive
LONG_NAME = "Maximilian-Alexander von Hohenzollern-Sigmaringen"

NAMES = [
    "Anna Schmidt", "Ben Weber", "Cem Yilmaz", "Dora Klein", "Emil Braun", "Frieda Wolf",
    "Gustav Lang", "Hanna Roth", "Ida Vogel", "Jonas Beck", "Karla Schulz", "Lars Neumann",
    "Mia Fischer", "Nils Hoffmann", "Olga Koch", "Paul Richter", "Quirin Huber", "Rosa Meyer",
    "Sven Wagner", "Tina Becker", "Uwe Schäfer", "Vera Krüger", "Willi Zimmer",
    "Xenia Hartmann", "Yusuf Kaya", "Zoë Lehmann", "Ali Demir",
]
START = 100.0  #: controller time the clock starts


class Game:
    """A tournament driven through the engine with a controller clock that moves forward."""

    def __init__(self, names: list[str] | None = None, seed: int = 7,
                 config: Path = SAMPLE, registration_closed: bool = False,
                 **overrides: Any) -> None:
        settings = load_tournament(config)
        if registration_closed:  # tables break only once entries are closed (issue 10.5)
            overrides["entries"] = dataclasses.replace(settings.entries,
                                                       late_registration_levels=0)
        if overrides:
            settings = dataclasses.replace(settings, **overrides)
        self.t = Tournament.new(settings, seed=seed, now=0.0)
        self.now = 1.0
        self.t.execute({"cmd": "register", "names": names or NAMES}, self.now)
        self.do("draw")

    def do(self, cmd: str, at: float | None = None, **args: Any) -> None:
        self.now = max(self.now + 1.0, at if at is not None else 0.0)
        self.t.execute({"cmd": cmd, **args}, self.now)

    def start(self) -> None:
        self.do("start", at=START)

    def bust_down(self, left: int, step: float = 20.0) -> None:
        """Bust players (from the fullest table, highest seat) until ``left`` remain."""
        while self.t.remaining > left:
            tab = max(self.t.tables.values(), key=lambda x: (x.count(), x.number))
            seat = max(s for s, pid in tab.occupant.items()
                       if not self.t.players[pid].ghost)
            # one hand at that table, as the pictures were made (the table says so); a player
            # who just moved there is out all the same
            self.do("bust", at=self.now + step, table=tab.number, seat=seat, confirm=True,
                    same_hand=busts.asks_same_hand(self.t, tab))

    def state(self, now: float) -> dict[str, dict[str, Any]]:
        t = self.t
        st: dict[str, dict[str, Any]] = {
            "structure": views.structure_view(t),
            "clock": views.clock_view(t, now),
            "summary": views.summary_view(t),
            "moves": views.moves_view(t),
            "results": views.results_view(t),
            "announcement": views.announcement_view(t),
        }
        for n in sorted(set(t.tables) | set(t.broken)):
            st[f"table/{n}"] = views.table_view(t, n)
        return st

    def view(self, now: float | None = None, role: Role = "table", table: int | None = 1,
             **kw: Any) -> ScreenView:
        now = self.now if now is None else now
        kw.setdefault("online", True)
        return ScreenView(role=role, table=table if role == "table" else None,
                          state=self.state(now), now=now, **kw)


# ------------------------------------------------------------------ moments
def before_start() -> ScreenView:
    g = Game()
    return g.view(now=60.0)


def running() -> ScreenView:
    g = Game()
    g.start()
    return g.view(now=START + 1.0, selected_seat=None)  # 17:59 left in level 1


def paused() -> ScreenView:
    g = Game()
    g.start()
    g.do("pause", at=START + 300.0)
    return g.view(now=START + 400.0)


def ante() -> ScreenView:
    """Level 6 (after the first break): 300 / 600, ante 50."""
    g = Game()
    g.start()
    now = START + 4 * 1080 + 600 + 1080 + 700.0
    g.do("tick", at=now)
    return g.view(now=now + 0.5)


def next_hand() -> ScreenView:
    """Level 2 began while table 1's hand was in play: this hand keeps level 1's blinds,
    the new ones come with the next hand (000 9.6)."""
    g = Game()
    g.start()
    g.do("hand_done", at=START + 1000.0, table=1)
    g.do("tick", at=START + 1080.0 + 5.0)
    return g.view(now=START + 1080.0 + 20.0)


def bb_ante() -> ScreenView:
    """002's main event: big-blind ante in every level (level 2: 50 / 100, BB ante 100)."""
    g = Game(config=BB_ANTE)
    g.start()
    now = START + 900 + 61.0
    g.do("tick", at=now)
    return g.view(now=now)


def break_colour_up() -> ScreenView:
    """The second break (10 min, "Chipraise 25") with 7:57 left: the chip race is due (000 3.17)."""
    g = Game()
    g.start()
    now = START + 8 * 1080 + 600 + 123.0
    g.do("tick", at=now)
    return g.view(now=now)


def _colour_up() -> Game:
    """The "Chipraise 25" break (000 4.12) with 7:57 left: the chip race is due (000 3.17)."""
    g = Game()
    g.start()
    g.do("tick", at=START + 8 * 1080 + 600 + 123.0)
    return g


def chip_race_entry() -> ScreenView:
    """The dealer enters the leftover 25s (seat 1: 3, seat 2: 2, seat 5: 1, all it has).

    Seat 2 is selected; the sum shows what the leftover chips make (000 3.17)."""
    g = _colour_up()
    seats = sorted(g.t.tables[1].occupant)
    return g.view(selected_seat=seats[1], race={seats[0]: 3, seats[1]: 2, seats[4]: 1},
                  race_short=frozenset({seats[4]}))


def _chip_race_run() -> Game:
    g = _colour_up()
    seats = sorted(g.t.tables[1].occupant)
    chips = [0] * seats[4]
    chips[seats[0] - 1], chips[seats[1] - 1], chips[seats[4] - 1] = 3, 2, 1
    g.do("chip_race", at=g.now + 60.0, table=1, chips=chips, short=[seats[4]])
    return g


def chip_race_result() -> ScreenView:
    """The chip race of table 1 is run: the cards, who won a 100, who keeps one."""
    g = _chip_race_run()
    return g.view(now=g.now + 5.0)


def wall_chip_race() -> ScreenView:
    """The wall in the colour-up break: table 1 ran its chip race, tables 2 and 3 not yet."""
    g = _chip_race_run()
    return g.view(now=g.now + 5.0, role="wall")


def action_clock() -> ScreenView:
    """The action clock (001 §1 VI, 002 shot clock) of 30 s for seat 4: 18 s left."""
    g = Game(time_call=TimeCall(seconds=60, countdown=10, red_seconds=10, action_seconds=30))
    g.start()
    g.do("time_call", at=START + 200.0, table=1, op="toggle", seat=4)
    return g.view(now=START + 212.0)


def _bubble() -> Game:
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(15)  # 14 places score: hand-for-hand starts with 15 left, table 3 broke at 18
    return g


def hfh_playing() -> ScreenView:
    """Hand-for-hand: table 2 is done, this table (1) still plays."""
    g = _bubble()
    g.do("hand_done", table=1)
    g.do("hand_done", table=2)  # released: hand 2
    g.do("hand_done", table=2)
    return g.view(table=1)


def hfh_waiting() -> ScreenView:
    """Hand-for-hand: this table (1) is done, table 2 still plays."""
    g = _bubble()
    g.do("hand_done", table=1)
    return g.view(table=1)


def hfh_deal() -> ScreenView:
    """Hand-for-hand: every table is done, the next hand is released: DEAL."""
    g = _bubble()
    g.do("hand_done", table=1)
    g.do("hand_done", table=2)
    return g.view(table=1)


def _time_call(after: float) -> ScreenView:
    g = Game()
    g.start()
    g.do("time_call", at=START + 200.0, table=1, seat=4)
    return g.view(now=START + 200.0 + after)


def time_call() -> ScreenView:
    return _time_call(25.0)  # 45 s left (60 + 10 countdown)


def time_call_red() -> ScreenView:
    return _time_call(63.0)  # 7 s left: the countdown, in red


def _balancing() -> Game:
    g = Game()
    g.start()
    for seat in (9, 8, 7):  # table 2 goes down to 6: tables 1 and 3 give a player each
        g.do("bust", at=g.now + 30.0, table=2, seat=seat, same_hand=seat < 9)
    g.do("hand_done", table=3)
    g.do("hand_done", table=1)
    return g


def time_call_no_seat() -> ScreenView:
    """A time call from the button box: the dealer picked no seat."""
    g = Game()
    g.start()
    g.do("time_call", at=START + 200.0, table=1)
    return g.view(now=START + 230.0)


def moves_out() -> ScreenView:
    g = _balancing()
    return g.view(table=3)


def moves_in() -> ScreenView:
    g = _balancing()
    return g.view(table=2, selected_seat=7)


def table_broken() -> ScreenView:
    """Table 3 broke (18 players left fit on two tables): where its players go."""
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(18)
    return g.view(table=3)


def table_closed() -> ScreenView:
    """Table 3 broke and its players have all sat down: the clock for the room."""
    g = Game(registration_closed=True)  # no table breaks while entries are open
    g.start()
    g.bust_down(18)
    for t in sorted(g.t.tables):
        g.do("hand_done", table=t)  # the destinations' next hand completes the moves
    return g.view(table=3)


def waiting_player() -> ScreenView:
    """A player who waits for the button, with a long name (never cut: the state first)."""
    v = running()
    seat = v.state["table/1"]["seats"][2]
    seat["waiting"] = True
    seat["name"] = "Jürgen Müller-Lüdenscheidt"
    return v


def breaks_notice() -> ScreenView:
    """The "this table breaks" notice (the payload's notices: ["breaks"])."""
    v = running()
    v.state["table/1"]["notices"] = ["breaks"]
    return v


def final_table() -> ScreenView:
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(9)
    for t in list(g.t.tables):
        g.do("hand_done", table=t)
    return g.view(table=min(g.t.tables))


def final_table_moves() -> ScreenView:
    """The final table just drawn: nine players go to their new seats."""
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(9)
    return g.view(table=min(g.t.tables))


def wall_final_table() -> ScreenView:
    """The final table just drawn, on the wall: its seats in seat order, the eight players
    still on the way to theirs marked (the moves to it are the seating itself)."""
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(9)
    return g.view(role="wall")


def offline() -> ScreenView:
    v = running()
    v.online = False
    v.now += 95.0  # the clock keeps counting from the retained anchor
    return v


def _fb(kind: FeedbackKind, text: str, seat: int | None = 4) -> ScreenView:
    v = running()
    v.selected_seat = seat
    v.feedback = Feedback(kind, text, since=MONO - 0.5)
    return v


def feedback_sent() -> ScreenView:
    return _fb("sent", "Bust seat 4 … sent")


def feedback_tap() -> ScreenView:
    """A short tap on bust: the screen says to hold it."""
    return _fb("info", "Hold to bust")


def feedback_accepted() -> ScreenView:
    return _fb("accepted", "Seat 4 Frieda Wolf is out: 27th place")


def feedback_rejected() -> ScreenView:
    return _fb("rejected", "rejected: seat 9 at table 1 is empty")


def hold() -> ScreenView:
    v = running()
    v.selected_seat = 4
    v.hold = ("bust", 0.6)
    return v


def hands_left() -> ScreenView:
    g = Game()
    g.start()
    g.do("hands_left", at=START + 900.0, count=3)
    return g.view()


#: the "Chipraise 25" break starts (eight 18-minute levels and the first break after START)
CHIPRAISE_AT = START + 8 * 1080 + 600


def chip_race_call(role: Role = "table") -> ScreenView:
    """Two minutes before the "Chipraise 25" break: the chip race is announced (002: 2-3
    minutes before the break), in the banner's place."""
    g = Game()
    g.start()
    now = CHIPRAISE_AT - 120.0
    g.do("tick", at=now)
    return g.view(now=now, role=role)


def wall_chip_race_call() -> ScreenView:
    return chip_race_call("wall")


def colour_up_called() -> ScreenView:
    """The director colours the 25s up in level 1 (002 "jederzeit"): the hands go on, the
    table is told where its leftover chips go."""
    g = Game()
    g.start()
    g.do("colour_up", at=START + 300.0, chip=25)
    return g.view(now=START + 310.0)


def day_end() -> ScreenView:
    """The end of the day (002): ten minutes before the end of the last level the director
    stopped the clock; a player drew a 4, table 1 has played one of the four hands. (A
    day of three levels; the sample's last, paused, is ``table_last_level``.)"""
    from controller.engine.settings import Level

    g = Game(structure=tuple(Level("level", 1200, sb, 2 * sb) for sb in (100, 200, 400)))
    g.start()
    g.do("level", at=START + 60.0, to=3)
    g.do("time", at=START + 70.0, op="set", seconds=600.0)
    g.do("end_of_day", at=START + 80.0, card=4)
    g.do("hand_done", at=START + 200.0, table=1)
    return g.view(now=START + 230.0)


def last_level() -> ScreenView:
    """The last level, paused: 50.000 / 100.000 and the ante, 10.000; where the ante does
    not fit beside the blinds at their size by rule (800×480), it has a line of its own."""
    g = Game()
    g.start()
    g.do("level", at=START + 60.0, to=g.t.level_number(len(g.t.settings.structure) - 1))
    g.do("pause", at=START + 120.0)
    return g.view(now=START + 200.0)


def finished() -> ScreenView:
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(1, step=60.0)
    return g.view(table=min(g.t.tables))


def _long_game() -> Game:
    short = [f"{LONG_NAME[:37]} {i:02d}" for i in range(20)]
    g = Game(names=short, players_per_table=10, table_seats=10)
    g.start()
    return g


def _long(v: ScreenView) -> ScreenView:
    """The engine allows 40 characters: put the 49-character worst case into the payloads."""
    for topic, payload in v.state.items():
        if topic.startswith("table/"):
            for s in payload.get("seats") or []:
                s["name"] = f"{LONG_NAME} {s['name'][-2:]}"
    return v


def long_names() -> ScreenView:
    g = _long_game()
    return _long(g.view(now=START + 1.0, selected_seat=10))


def waiting() -> ScreenView:
    return ScreenView(role="table", table=1, state={}, now=0.0, online=False)


# the wall
def wall_running() -> ScreenView:
    g = _balancing()
    return g.view(now=g.now + 10.0, role="wall")


def wall_break() -> ScreenView:
    """The "Chipraise 25" break on the wall: no table has run its chip race yet."""
    g = Game()
    g.start()
    now = START + 8 * 1080 + 600 + 123.0
    g.do("tick", at=now)
    return g.view(now=now, role="wall")


def wall_hfh() -> ScreenView:
    g = _bubble()
    g.do("hand_done", table=1)
    return g.view(role="wall")


def wall_finished() -> ScreenView:
    g = Game(registration_closed=True)
    g.start()
    g.bust_down(1, step=60.0)
    return g.view(role="wall")


def wall_before_start() -> ScreenView:
    """The seats are drawn, the clock not started: the seating list and the structure."""
    return Game().view(now=60.0, role="wall")


def wall_moves() -> ScreenView:
    """Table 3 broke: more moves than the panel holds ("+N more")."""
    g = Game(registration_closed=True)  # no table breaks while entries are open
    g.start()
    g.bust_down(18)
    return g.view(role="wall")


def wall_finished_long() -> ScreenView:
    """The end with long names (the engine's 40 characters and more): the champion's line
    and the results wrap, never cut."""
    v = wall_finished()
    v.state["summary"]["champion"] = LONG_NAME
    rows = v.state["results"]["rows"]
    rows[0]["name"] = LONG_NAME
    rows[3]["name"] = "Anna-Katharina Schmidt-Rottluff von Bergen"
    return v


def wall_long_names() -> ScreenView:
    g = _long_game()
    return _long(g.view(now=START + 1.0, role="wall"))


def _money_bubble() -> Game:
    """002 for money (issue 30): the venue's sample, 60 players at 100 € (6,000 €, the
    guarantee makes it 10,000 €), 15 % paid: 9 places; the ninth, the min-cash, is the
    next player out's."""
    names = NAMES + [f"{first} {last}" for first, last in zip(
        ["Adam", "Bea", "Carl", "Dana", "Erik", "Fina", "Gero", "Hilde", "Ivo", "Jule",
         "Kai", "Lina", "Max", "Nora", "Otto", "Pia", "Rolf", "Sara", "Timo", "Ute", "Veit",
         "Wanda", "Yann", "Zora", "Arne", "Bodo", "Cora", "Dirk", "Elke", "Finn", "Gina",
         "Hugo", "Inga"],
        ["Albers", "Brandt", "Conrad", "Dietz", "Engel", "Frank", "Graf", "Haas", "Jung",
         "Keller", "Lorenz", "Marx", "Nagel", "Ott", "Pohl", "Rau", "Sauer", "Thiel", "Ulrich",
         "Voigt", "Winter", "Busch", "Kraus", "Lenz", "Moser", "Peters", "Ritter", "Stein",
         "Vogt", "Walter", "Ziegler", "Arndt", "Berger"], strict=True)]
    g = Game(names=names, config=MONEY, registration_closed=True)
    g.start()
    g.bust_down(9, step=30.0)
    return g


def wall_money() -> ScreenView:
    """The pool, the paid places and the ladder, the next player out's place in gold."""
    g = _money_bubble()
    return g.view(role="wall")


def wall_money_finished() -> ScreenView:
    """The end of a tournament for money: every place with what it pays."""
    g = _money_bubble()
    g.bust_down(1, step=30.0)
    return g.view(role="wall")


BOUNTY = resources.folder("tournaments") / "venue-faq-bounty.yaml"
SATELLITE = resources.folder("tournaments") / "venue-faq-satellite.yaml"


def _hunt(g: Game, left: int, step: float = 30.0) -> None:
    """Bust down to ``left`` players, each bust by the player at the same table with the
    lowest seat (money bounties: the hunter wins the head; in a progressive knock-out half
    of it goes onto the hunter's own)."""
    while g.t.remaining > left:
        tab = max(g.t.tables.values(), key=lambda x: (x.count(), x.number))
        seats = sorted(s for s, pid in tab.occupant.items() if not g.t.players[pid].ghost)
        g.do("bust", at=g.now + step, table=tab.number, seat=seats[-1],
             by=tab.occupant[seats[0]], confirm=True,
             same_hand=busts.asks_same_hand(g.t, tab))


def _bounty_game() -> Game:
    """A progressive knock-out for money (venue-faq-bounty, 40 € a head): 27 in, twelve
    out, each by the lowest seat at the table: those hunters' heads have grown."""
    g = Game(config=BOUNTY, registration_closed=True)
    g.start()
    _hunt(g, 15)
    return g


def wall_bounty() -> ScreenView:
    """Money bounties on the wall: each player's head in the seating list, the chip
    leader's beside the count."""
    g = _bounty_game()
    g.do("chip_counts", counts=_counts(g.t, lead=2))
    return g.view(role="wall")


def table_bounty() -> ScreenView:
    """Money bounties at a table (a progressive knock-out): each seat's head in green
    beside the name, the hunters' grown ones larger."""
    g = _bounty_game()
    return g.view(table=min(g.t.tables))


def wall_bounty_finished() -> ScreenView:
    """The end of a knock-out for money: each place's payout and the bounties won, no
    points column (the preset plays none)."""
    g = _bounty_game()
    _hunt(g, 1)
    return g.view(role="wall")


def _final_four() -> Game:
    """The money bubble played down to four at the final table, every stack counted."""
    g = _money_bubble()
    g.bust_down(4, step=30.0)
    assert g.t.final_table is not None
    for _ in range(2):  # the hand in play when it was drawn, then one at it: all seated
        g.do("hand_done", table=g.t.final_table)
    # past level 6, the last with re-entries: the pool is final, a deal can be made
    levels = g.t.settings.structure
    last = max(i for i, lv in enumerate(levels) if g.t.level_number(i) == 6)
    g.do("tick", at=START + sum(lv.seconds or 0 for lv in levels[:last + 1]) + 95.0)
    g.do("chip_counts", counts=_counts(g.t, lead=1))
    return g


def wall_deal() -> ScreenView:
    """A deal at the final table (ICM, 10 % played for): the ladder says "Deal" for the
    places of the four left and what is still played for; the places paid out below."""
    g = _final_four()
    g.do("deal", method="icm")
    return g.view(role="wall")


def wall_deal_undone() -> ScreenView:
    """The deal undone: the ladder again, the next player out's place in gold."""
    g = _final_four()
    g.do("deal", method="icm")
    g.do("undo")
    return g.view(role="wall")


def wall_satellite_lot() -> ScreenView:
    """A satellite's end (35 × 10 €: three 100 € tickets and 50 € cash): two out in one
    hand shared place 3, which covers the last ticket and the cash: the lot decided,
    both marked "by lot"."""
    names = NAMES + [f"Gast {i}" for i in range(1, 9)]
    # late registration open: the satellite does not end by itself at three left
    entries = dataclasses.replace(load_tournament(SATELLITE).entries,
                                  late_registration_levels=12)
    g = Game(names=names, config=SATELLITE, entries=entries)
    g.start()
    g.bust_down(4, step=30.0)
    left = [p for p in g.t.players.values() if not p.out and not p.ghost]
    table = next(p.table for p in left if sum(q.table == p.table for q in left) >= 2)
    a, b = [p.id for p in left if p.table == table][:2]
    g.do("bust", player=a, stack=5_000, confirm=True)
    g.do("bust", player=b, stack=5_000, same_hand=True, confirm=True)
    # a hand later the second ticket's place: one winner left
    last = next(p.id for p in g.t.players.values() if not p.out and not p.ghost)
    g.do("bust", at=g.now + 120.0, player=last, confirm=True)
    return g.view(role="wall")


def wall_page2() -> ScreenView:
    v = wall_running()
    v.wall_page = 1
    return v


def table_announcement() -> ScreenView:
    """The director's banner on a table's screen (issue 12: "Add-on jetzt möglich")."""
    g = Game()
    g.start()
    g.do("announce", at=START + 30.0, text="Add-on jetzt möglich", minutes=15)
    return g.view(now=START + 31.0)


def wall_announcement() -> ScreenView:
    """The banner on the wall, and the QR code of the players' page the console publishes."""
    g = _balancing()
    g.do("announce", text="Add-on jetzt möglich")
    v = g.view(now=g.now + 10.0, role="wall")
    v.state["console/public"] = {"v": 1, "url": "http://192.168.1.10:8080/p"}
    return v


def _counts(t: Tournament, lead: int = 0) -> list[dict[str, int]]:
    """Every stack in play, a little different each, adding up to the chips in play; the
    ``lead``-th player (by id) holds the most."""
    ins = sorted(p.id for p in t.players.values() if not p.out and p.table is not None)
    chips = [10_000 + ((i * 3_700) % 9_000) - 4_500 for i in range(len(ins))]
    chips[lead] += 30_000
    chips[-1] += t.chips - sum(chips)
    return [{"player": pid, "chips": c} for pid, c in zip(ins, chips, strict=True)]


def _play_the_clock() -> Game:
    """Play the clock (000 4.15): round 1 is over after 90 minutes, the room redrawn."""
    g = Game(config=resources.folder("tournaments") / "psc-play-the-clock.yaml")
    g.start()
    g.bust_down(25, step=600.0)
    g.do("end_round", at=START + 90 * 60 + 30.0, counts=_counts(g.t, lead=4))
    return g


def _restart() -> Game:
    """Restart (000 4.14): after level 8 every stack counted, everybody back at level 1."""
    g = Game(config=resources.folder("tournaments") / "psc-restart.yaml")
    g.start()
    g.bust_down(23, step=600.0)
    g.do("end_round", at=START + (8 * 18 + 10) * 60 + 30.0, counts=_counts(g.t, lead=2))
    return g


def table_round_end() -> ScreenView:
    """Play the clock: round 1 is over; the table shows who leaves and who arrives."""
    g = _play_the_clock()
    return g.view(now=g.now + 5.0)


def wall_round_end() -> ScreenView:
    """Play the clock: round 2 of 3, the chip leader of the count, the new seats."""
    g = _play_the_clock()
    return g.view(now=g.now + 5.0, role="wall")


def table_restart() -> ScreenView:
    """Restart: level 1 again, paused; the table's new players on their way."""
    g = _restart()
    return g.view(now=g.now + 5.0)


def wall_restart() -> ScreenView:
    """Restart: the second preliminary round, everybody back, the new seats."""
    g = _restart()
    return g.view(now=g.now + 5.0, role="wall")
def _penalties() -> Game:
    """Two sit-out penalties at table 1 (000 3.8): one orbit, and ten minutes."""
    g = Game()
    g.start()
    tab = g.t.tables[1]
    g.do("penalty", at=START + 60.0, player=tab.occupant[3], orbits=1, reason="swearing")
    g.do("penalty", at=START + 70.0, player=tab.occupant[6], minutes=10)
    g.do("hand_done", at=START + 200.0, table=1)
    return g


def table_absent() -> ScreenView:
    """A player who left is played as a ghost (000 9.5): the dealer deals and folds."""
    g = Game()
    g.start()
    g.do("absent", at=START + 60.0, player=g.t.tables[1].occupant[4])
    return g.view(now=START + 90.0)


def table_penalty() -> ScreenView:
    """A penalised seat counts down its hands, another its minutes (000 3.8, 001 §5)."""
    g = _penalties()
    return g.view(now=START + 250.0)  # 8 hands and 7 minutes left


def wall_penalty() -> ScreenView:
    """The wall's seating list marks the players who sit out a penalty."""
    g = _penalties()
    return g.view(now=START + 250.0, role="wall")


def table_dealer_button() -> ScreenView:
    """No croupier (000 3.11), nobody out yet: the player on the button deals."""
    from controller.engine.settings import Dealing

    g = Game(dealing=Dealing(players_deal=True))
    g.start()
    g.do("hand_done", at=START + 120.0, table=1)
    return g.view(now=START + 130.0)


def table_dealer() -> ScreenView:
    """No croupier (000 3.11): the first player out at this table deals, standing."""
    from controller.engine.settings import Dealing

    g = Game(dealing=Dealing(players_deal=True))
    g.start()
    g.do("bust", at=START + 120.0, table=1, seat=5)
    return g.view(now=START + 130.0)
def _standings(rows: int) -> dict[str, Any]:
    """A club's season (state/standings, docs/club.md): public names, guests shortened
    (000 5.8), a shared 4th place."""
    pts = [47.0, 41.0, 38.5, 30.0, 30.0, 26.0, 21.0, 19.5, 15.0, 12.0, 9.0, 7.0, 5.0, 3.0, 1.0]
    lines = []
    for i in range(rows):
        name = NAMES[i] if i % 3 else NAMES[i].split()[0] + " " + NAMES[i].split()[1][0] + "."
        place = 4 if i == 4 else i + 1
        lines.append({"place": place, "name": name, "points": pts[i % len(pts)],
                      "tournaments": 10 - i % 4})
    return {"v": 1, "club": "psc-five-spades", "season": "2026", "first": "2026-01-01",
            "last": "2026-12-31", "tournaments": 10, "rows": lines,
            # 000 5.2: the championship's own list, its leaders (issue 31)
            "championship": [{"place": 1, "name": NAMES[1], "points": 23},
                             {"place": 2, "name": NAMES[0], "points": 17},
                             {"place": 3, "name": NAMES[4], "points": 12}]}


def wall_standings_before() -> ScreenView:
    """Between tournaments: the next one drawn, the club's season so far where the
    structure was (more lines than fit: "+N more")."""
    v = wall_before_start()
    v.state["standings"] = _standings(24)
    return v


def wall_standings_finished() -> ScreenView:
    """After the last hand: the champion, the night's results and the season with it."""
    v = wall_finished()
    v.state["standings"] = _standings(12)
    return v


MOMENTS: dict[str, Callable[[], ScreenView]] = {
    "table_waiting": waiting,
    "table_before_start": before_start,
    "table_running": running,
    "table_paused": paused,
    "table_ante": ante,
    "table_bb_ante": bb_ante,
    "table_next_hand": next_hand,
    "table_break": break_colour_up,
    "table_hfh_playing": hfh_playing,
    "table_hfh_waiting": hfh_waiting,
    "table_hfh_deal": hfh_deal,
    "table_time_call": time_call,
    "table_time_call_red": time_call_red,
    "table_time_call_no_seat": time_call_no_seat,
    "table_action_clock": action_clock,
    "table_chip_race_entry": chip_race_entry,
    "table_chip_race_result": chip_race_result,
    "table_moves_out": moves_out,
    "table_moves_in": moves_in,
    "table_broken": table_broken,
    "table_closed": table_closed,
    "table_waiting_player": waiting_player,
    "table_breaks_notice": breaks_notice,
    "table_final": final_table,
    "table_final_moves": final_table_moves,
    "table_offline": offline,
    "table_feedback_sent": feedback_sent,
    "table_feedback_accepted": feedback_accepted,
    "table_feedback_rejected": feedback_rejected,
    "table_feedback_tap": feedback_tap,
    "table_hold": hold,
    "table_hands_left": hands_left,
    "table_day_end": day_end,
    "table_last_level": last_level,
    "table_chip_race_call": chip_race_call,
    "table_colour_up_called": colour_up_called,
    "table_finished": finished,
    "table_long_names": long_names,
    "table_announcement": table_announcement,
    "table_penalty": table_penalty,
    "table_absent": table_absent,
    "table_dealer": table_dealer,
    "table_dealer_button": table_dealer_button,
    "wall_before_start": wall_before_start,
    "wall_running": wall_running,
    "wall_page2": wall_page2,
    "wall_break": wall_break,
    "wall_chip_race": wall_chip_race,
    "wall_chip_race_call": wall_chip_race_call,
    "wall_hfh": wall_hfh,
    "wall_moves": wall_moves,
    "wall_final_table": wall_final_table,
    "wall_finished": wall_finished,
    "wall_finished_long": wall_finished_long,
    "wall_long_names": wall_long_names,
    "wall_announcement": wall_announcement,
    "wall_money": wall_money,
    "wall_money_finished": wall_money_finished,
    "wall_bounty": wall_bounty,
    "table_bounty": table_bounty,
    "wall_bounty_finished": wall_bounty_finished,
    "wall_deal": wall_deal,
    "wall_deal_undone": wall_deal_undone,
    "wall_satellite_lot": wall_satellite_lot,
    "table_round_end": table_round_end,
    "wall_round_end": wall_round_end,
    "table_restart": table_restart,
    "wall_restart": wall_restart,
    "wall_penalty": wall_penalty,
    "wall_standings_before": wall_standings_before,
    "wall_standings_finished": wall_standings_finished,
}

#: every moment is shot in both languages
LANGUAGES = ("en", "de")
#: a feedback moment's text in each language (the kiosk's own words, kiosk.app.TEXTS)
FEEDBACK_TEXTS: dict[str, tuple[str, str]] = {
    "table_feedback_sent": ("Bust seat 4 … sent", "Ausgeschieden: Platz 4 … gesendet"),
    "table_feedback_accepted": ("Seat 4 Frieda Wolf is out: 27th place",
                                "Platz 4 Frieda Wolf ist ausgeschieden: Platz 27"),
    "table_feedback_rejected": ("rejected: seat 9 at table 1 is empty",
                                "abgelehnt: Platz 9 an Tisch 1 ist frei"),
    "table_feedback_tap": ("Hold to bust", "Zum Ausscheiden halten"),
}


def moment(name: str, language: str = "en") -> ScreenView:
    v = MOMENTS[name]()
    v.language = language
    texts = FEEDBACK_TEXTS.get(name)
    if texts is not None and v.feedback is not None:
        v.feedback.text = texts[1] if language == "de" else texts[0]
    return v


def shot_name(name: str, language: str, size: tuple[int, int]) -> str:
    """The file name of a moment's screenshot: ``table_running_de_800x480.png``."""
    return f"{name}_{language}_{size[0]}x{size[1]}.png"


# ------------------------------------------------------------------ golden images
#: the approved images: the gallery in the docs (docs/gallery.md)
GALLERY = Path(__file__).resolve().parents[2] / "docs" / "screens"
GALLERY_PAGE = GALLERY.parent / "gallery.md"
#: a channel differing by more than this (0..255), after both images are averaged over
#: 2×2 pixels, is a different pixel: antialiasing and a font renderer's gamma move edge
#: pixels by less; a changed glyph moves its strokes by far more
CHANNEL_TOLERANCE = 48
#: this many different pixels (at the compared size) pass: one changed character of the
#: smallest text differs in 20 or more
PIXEL_TOLERANCE = 12


def shoot(name: str, language: str, size: tuple[int, int]) -> Any:
    """The moment drawn at ``size`` (a pygame Surface; SDL must be initialised)."""
    import pygame

    from kiosk.render import Renderer

    surface = pygame.Surface(size)
    Renderer(size, monotonic=lambda: MONO).draw(surface, moment(name, language))
    return surface


def stored(surface: Any) -> Any:
    """The picture as approved: 1920×1080 is kept at half size (960×540), smaller ones
    whole. Smaller files, and the comparison is as strict (see :func:`difference`)."""
    import pygame

    w, h = surface.get_size()
    if w > 1000:
        return pygame.transform.smoothscale(surface, (w // 2, h // 2))
    return surface.copy()


def save_png(surface: Any, path: Path) -> None:
    """Save ``surface`` as a small PNG: each channel rounded to 16 levels (at most 8 off,
    far inside :data:`CHANNEL_TOLERANCE`), written with a palette (one byte a pixel;
    a screen has a few hundred colours at that precision). RGB when more than 256."""
    import struct
    import zlib

    import pygame

    w, h = surface.get_size()
    for bits in (4, 3):
        keep = (0xFF << (8 - bits)) & 0xFF
        raw = pygame.image.tobytes(surface, "RGB").translate(
            bytes((v & keep) | (1 << (7 - bits)) for v in range(256)))
        pixels = [raw[i:i + 3] for i in range(0, len(raw), 3)]
        colours = sorted(set(pixels))
        if len(colours) <= 256:
            break
    else:
        pygame.image.save(surface, str(path))
        return
    index = {c: bytes([i]) for i, c in enumerate(colours)}
    rows = b"".join(b"\0" + b"".join(index[p] for p in pixels[y * w:(y + 1) * w])
                    for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
                     + chunk(b"PLTE", b"".join(colours))
                     + chunk(b"IDAT", zlib.compress(rows, 9))
                     + chunk(b"IEND", b""))


def difference(a: Any, b: Any) -> int:
    """How many pixels of ``a`` and ``b`` (same size) differ noticeably: both averaged
    over 2×2 pixels, then any channel apart by more than :data:`CHANNEL_TOLERANCE`.
    A different size counts every pixel."""
    import pygame

    if a.get_size() != b.get_size():
        return a.get_width() * a.get_height()
    half = (max(1, a.get_width() // 2), max(1, a.get_height() // 2))
    a2 = pygame.transform.smoothscale(a.convert(24) if a.get_bitsize() != 24 else a, half)
    b2 = pygame.transform.smoothscale(b.convert(24) if b.get_bitsize() != 24 else b, half)
    d1 = a2.copy()
    d1.blit(b2, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b2.copy()
    d2.blit(a2, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b| per channel
    t = CHANNEL_TOLERANCE
    same = pygame.transform.threshold(None, d1, (0, 0, 0), (t, t, t), set_behavior=0)
    return half[0] * half[1] - int(same)


def jobs() -> list[tuple[str, str, tuple[int, int]]]:
    """Every screenshot: each moment in each language at each size."""
    return [(n, lang, size) for n in MOMENTS for lang in LANGUAGES for size in SIZES]


def gallery_page() -> str:
    """docs/gallery.md: every approved image, moment by moment."""
    out = ["# Gallery: every screen moment", "",
           "The approved images of `python -m controller.night.shots --approve`",
           "(`scripts/approve-screens`): each moment of `controller/night/shots.py` in English",
           "and German, at 1920×1080 (stored at half size) and 800×480.",
           "`tests/kiosk/test_golden.py` compares every new drawing with them.",
           "Generated; do not edit. Why the screens look as they do: [screens.md](screens.md).",
           ""]
    for name, fn in MOMENTS.items():
        doc = (fn.__doc__ or "").strip().split("\n")[0]
        out += [f"## {name}", ""] + ([doc, ""] if doc else [])
        out.append("| | 1920×1080 | 800×480 |")
        out.append("| --- | --- | --- |")
        for lang in LANGUAGES:
            cells = [f"![{name} {lang} {w}×{h}](screens/{shot_name(name, lang, (w, h))})"
                     for w, h in SIZES]
            out.append(f"| {lang} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def approve(only: str | None = None) -> list[Path]:
    """Write every moment (or those whose name contains ``only``) as its approved image,
    remove images of moments that are gone, and write docs/gallery.md."""

    GALLERY.mkdir(parents=True, exist_ok=True)
    written = []
    wanted = set()
    for name, lang, size in jobs():
        path = GALLERY / shot_name(name, lang, size)
        wanted.add(path.name)
        if only and only not in name:
            continue
        save_png(stored(shoot(name, lang, size)), path)
        written.append(path)
    if not only:
        for old in GALLERY.glob("*.png"):
            if old.name not in wanted:
                old.unlink()
    GALLERY_PAGE.write_text(gallery_page() + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m controller.night.shots",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path, nargs="?", help="where to write the PNGs")
    ap.add_argument("--only", help="only moments whose name contains this")
    ap.add_argument("--approve", action="store_true",
                    help="write the approved images (docs/screens/) and docs/gallery.md")
    args = ap.parse_args(argv)
    from kiosk.render import headless

    headless()
    import pygame

    if args.approve:
        written = approve(args.only)
        print(f"{len(written)} approved images in {GALLERY}")
        return 0
    if args.dir is None:
        ap.error("give a DIR for the screenshots, or --approve")
    args.dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, lang, size in jobs():
        if args.only and args.only not in name:
            continue
        pygame.image.save(shoot(name, lang, size), str(args.dir / shot_name(name, lang, size)))
        count += 1
    print(f"{count} screenshots in {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
