"""Tournaments for the club tests, played through the real engine into real event logs.

Places are chosen, not random, so the expected points can be read off the rulebooks'
tables by hand (000 5.4, 003 6).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path

from controller.config import load_tournament, load_tournament_text
from controller.engine.settings import TournamentSettings
from controller.log.floor import Floor

REPO = Path(__file__).resolve().parents[2]


def epoch(day: str) -> float:
    """20:00 UTC on ``day`` (YYYY-MM-DD): when the evening's log is opened."""
    d = datetime.date.fromisoformat(day)
    return datetime.datetime(d.year, d.month, d.day, 20, tzinfo=datetime.UTC).timestamp()


def psc_settings(extra: str = "") -> TournamentSettings:
    """The sample evening (preset psc-five-spades), with ``extra`` YAML keys."""
    if not extra:
        return load_tournament(REPO / "config" / "tournaments" / "sample.yaml")
    text = (REPO / "config" / "tournaments" / "sample.yaml").read_text(encoding="utf-8")
    return load_tournament_text(text + "\n" + extra, "sample.yaml",
                                base_dir=REPO / "config" / "tournaments")


def tournament(path: Path, settings: TournamentSettings, players: Sequence[str],
               busts: Sequence[tuple[str, str | None]], *, day: str,
               guests: Sequence[str] = (), drawn: dict[str, list[str]] | None = None,
               finish: bool = True) -> Path:
    """Register ``players`` (``guests`` as non-members), draw, start, then bust each
    ``(name, by)`` in turn, one hand each; the last one left wins. ``drawn``: the names
    members drew (000 6.3). ``finish=False``: stop one bust short of the end."""
    now = epoch(day)
    floor = Floor.open(settings, path, seed=7, now=now, new=True)
    try:
        def run(cmd: dict) -> None:
            answer = floor.execute(cmd, now)
            assert answer["ok"], (cmd, answer)

        members = [p for p in players if p not in guests]
        run({"cmd": "register", "names": members})
        if any(p in guests for p in players):
            run({"cmd": "register", "names": [p for p in players if p in guests],
                 "member": False})
        for who, names in (drawn or {}).items():
            run({"cmd": "drawn_names", "player": who, "names": names})
        run({"cmd": "draw", "seed": 3})
        run({"cmd": "start"})
        for name, by in busts[: len(busts) - (0 if finish else 1)]:
            cmd: dict = {"cmd": "bust", "player": name, "confirm": True}
            if by:
                cmd["by"] = by
            run(cmd)
        assert floor.tournament.finished == finish
    finally:
        floor.close()
    return path


def play_day(path: Path, settings: TournamentSettings, players: Sequence[str],
             games: Sequence[Sequence[str]], *, day: str) -> Path:
    """An Ace of Spades play day (003 6): every game is its players, winner first, the
    rest in their order of finish (the last named busts first). The first game is the
    draw's table; each next one a ``table_game``."""
    now = epoch(day)
    floor = Floor.open(settings, path, seed=7, now=now, new=True)
    try:
        def run(cmd: dict) -> None:
            answer = floor.execute(cmd, now)
            assert answer["ok"], (cmd, answer)

        assert set(games[0]) == set(players), "the draw seats everybody: the first game"
        run({"cmd": "register", "names": list(players)})
        run({"cmd": "draw", "seed": 3})
        run({"cmd": "start"})
        for n, game in enumerate(games):
            if n > 0:
                run({"cmd": "table_game", "players": list(game), "seed": n})
            for name in reversed(game[1:]):
                run({"cmd": "bust", "player": name, "confirm": True})
    finally:
        floor.close()
    return path
