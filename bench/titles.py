"""The season's titles (issue 31, 000 5.2, 6, 7.2, 8) from a big club database: what
`floorman club titles` / `cup` and the console's titles page cost to work out — the
standings, the championship list, the cup's field, the trophies with their hattricks.
A PSC season of 10 public tournaments, every member in every one, rows written straight
into the club database (the import's own cost is bench/cli.py's), and 30 seasons of
recorded titles.

    python bench/titles.py [--players 100 400 1600]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.club import trophies  # noqa: E402
from controller.club.db import open_club, transaction  # noqa: E402
from controller.club.standings import standings  # noqa: E402
from controller.config import load_tournament_text  # noqa: E402
from tests.support.figures import print_table  # noqa: E402


def club_of(path: Path, players: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    settings = load_tournament_text("name: bench\npreset: psc-five-spades\n")
    rules = json.dumps(dataclasses.asdict(settings.club))
    db = open_club(path)
    with transaction(db):
        db.execute("INSERT INTO meta VALUES ('club', 'psc-five-spades')")
        db.execute("INSERT INTO meta VALUES ('language', 'de')")
        for p in range(players):
            db.execute("INSERT INTO players (id, name, member) VALUES (?, ?, ?)",
                       (p + 1, f"Spieler {p + 1:04d}", int(p % 5 != 0)))
        for n in range(10):
            tid = n + 1
            db.execute("INSERT INTO tournaments (id, opened_hash, last_hash, name, preset, date, "
                       "season, system, players, entries, club_rules, source) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (tid, f"h{tid}", f"h{tid}", f"Turnier {tid}/10", "psc-five-spades",
                        f"2026-{n + 1:02d}-13", "2026", "psc_ranking", players, players,
                        rules, "bench"))
            order = list(range(1, players + 1))
            rng.shuffle(order)
            for place, pid in enumerate(order, 1):
                pts = max(0, 18 - 3 * (place - 1))
                db.execute("INSERT INTO results (tournament_id, player_id, game, place, points, "
                           "knockouts, knockout_points, bounty_hits, prize, member, "
                           "attendance, tables_played, stack) "
                           "VALUES (?, ?, 0, ?, ?, ?, ?, 0, NULL, ?, 0, 0, NULL)",
                           (tid, pid, place, float(pts), place % 3, place % 3,
                            int(pid % 5 != 0)))
        for year in range(1996, 2026):
            for title in ("meister", "jahressieger", "cupsieger"):
                db.execute("INSERT INTO trophies VALUES (?, ?, ?, '2026-01-01')",
                           (str(year), title, 2 + (year // 3) % 7))
    db.close()


def timed(fn, db, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        fn(db)
        best = min(best, time.perf_counter() - began)
    return best * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, nargs="+", default=[100, 400, 1600])
    sizes = ap.parse_args().players
    rows = [["players", "results", "standings ms", "titles + cup ms", "trophies ms",
             "qualified", "seeded", "preliminary"]]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"club{n}.sqlite"
            club_of(path, n)
            db = open_club(path, readonly=True)
            t = trophies.season_titles(db)
            rows.append([str(n), str(10 * n), f"{timed(standings, db):.1f}",
                         f"{timed(trophies.season_titles, db):.1f}",
                         f"{timed(trophies.trophies, db):.1f}",
                         str(len(t.cup.qualified)), str(len(t.cup.seeded)),
                         str(len(t.cup.preliminary))])
            db.close()
    print("best of 5; 10 public tournaments, every player in each; 30 seasons of titles")
    print_table(rows, right=tuple(range(8)))


if __name__ == "__main__":
    main()
