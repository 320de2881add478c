"""Named moments of a real tournament as ScreenViews, and screenshots of every one.

The states come from the real engine (:class:`controller.engine.tournament.Tournament`
with ``config/tournaments/sample.yaml``) turned into the retained payloads by
:mod:`controller.views`, exactly what a kiosk receives. Tests and the
screenshot command use the same moments::

    python -m kiosk.shots DIR          # a PNG of every moment at 1920×1080 and 800×480

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

from controller import resources, views
from controller.config import load_tournament
from controller.engine.tournament import Tournament
from kiosk.view import Feedback, FeedbackKind, Role, ScreenView

SAMPLE = resources.sample_tournament()
BB_ANTE = resources.folder("tournaments") / "venue-faq-main-event.yaml"
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
            self.do("bust", at=self.now + step, table=tab.number, seat=seat)

    def state(self, now: float) -> dict[str, dict[str, Any]]:
        t = self.t
        st: dict[str, dict[str, Any]] = {
            "structure": views.structure_view(t),
            "clock": views.clock_view(t, now),
            "summary": views.summary_view(t),
            "moves": views.moves_view(t),
            "results": views.results_view(t),
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


def bb_ante() -> ScreenView:
    """002's main event: big-blind ante in every level (level 2: 50 / 100, BB ante 100)."""
    g = Game(config=BB_ANTE)
    g.start()
    now = START + 900 + 61.0
    g.do("tick", at=now)
    return g.view(now=now)


def break_colour_up() -> ScreenView:
    """The second break (10 min, "Chipraise 25") with 7:57 left."""
    g = Game()
    g.start()
    now = START + 8 * 1080 + 600 + 123.0
    g.do("tick", at=now)
    return g.view(now=now)


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
        g.do("bust", at=g.now + 30.0, table=2, seat=seat)
    g.do("hand_done", table=3)
    g.do("hand_done", table=1)
    return g


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


def wall_long_names() -> ScreenView:
    g = _long_game()
    return _long(g.view(now=START + 1.0, role="wall"))


def wall_page2() -> ScreenView:
    v = wall_running()
    v.wall_page = 1
    return v


MOMENTS: dict[str, Callable[[], ScreenView]] = {
    "table_waiting": waiting,
    "table_before_start": before_start,
    "table_running": running,
    "table_paused": paused,
    "table_ante": ante,
    "table_bb_ante": bb_ante,
    "table_break": break_colour_up,
    "table_hfh_playing": hfh_playing,
    "table_hfh_waiting": hfh_waiting,
    "table_hfh_deal": hfh_deal,
    "table_time_call": time_call,
    "table_time_call_red": time_call_red,
    "table_moves_out": moves_out,
    "table_moves_in": moves_in,
    "table_broken": table_broken,
    "table_breaks_notice": breaks_notice,
    "table_final": final_table,
    "table_final_moves": final_table_moves,
    "table_offline": offline,
    "table_feedback_sent": feedback_sent,
    "table_feedback_accepted": feedback_accepted,
    "table_feedback_rejected": feedback_rejected,
    "table_hold": hold,
    "table_hands_left": hands_left,
    "table_finished": finished,
    "table_long_names": long_names,
    "wall_running": wall_running,
    "wall_page2": wall_page2,
    "wall_break": wall_break,
    "wall_hfh": wall_hfh,
    "wall_finished": wall_finished,
    "wall_long_names": wall_long_names,
}

#: moments also shot in German
GERMAN = ("table_running", "table_break", "table_hfh_deal", "table_hfh_waiting",
          "table_time_call_red", "table_moves_in", "table_broken", "table_long_names",
          "wall_running", "wall_hfh", "wall_finished")


def moment(name: str, language: str = "en") -> ScreenView:
    v = MOMENTS[name]()
    v.language = language
    return v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kiosk.shots", description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path, help="where to write the PNGs")
    ap.add_argument("--only", help="only moments whose name contains this")
    args = ap.parse_args(argv)
    from kiosk.render import Renderer, headless

    headless()
    import pygame

    args.dir.mkdir(parents=True, exist_ok=True)
    jobs = [(n, "en") for n in MOMENTS] + [(n, "de") for n in GERMAN]
    count = 0
    for w, h in SIZES:
        for name, lang in jobs:
            if args.only and args.only not in name:
                continue
            view = moment(name, lang)
            surface = pygame.Surface((w, h))
            Renderer((w, h), monotonic=lambda: MONO).draw(surface, view)
            suffix = "" if lang == "en" else f"_{lang}"
            path = args.dir / f"{name}{suffix}_{w}x{h}.png"
            pygame.image.save(surface, str(path))
            count += 1
    print(f"{count} screenshots in {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
