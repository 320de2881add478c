"""Money in the club database (issue 30, 002): each night's payout, ticket and bounties
per player are stored (schema 3, a migration from 2 like the bans' from 1), shown in the
player's history and the season's standings (winnings), and in the export."""

from __future__ import annotations

import json
import sqlite3

from controller import cli
from controller.club.db import SCHEMA_VERSION, open_club
from controller.club.history import history, history_text
from controller.club.imports import import_log
from controller.club.standings import standings, standings_csv
from controller.config import load_tournament_text
from tests.club.nights import REPO, psc_settings, tournament

PLAYERS = ["Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck", "Emil Fox"]


def money_settings():
    text = (REPO / "config" / "tournaments" / "venue-faq-prize-pool.yaml").read_text()
    text = text.replace("  guarantee: 10000", "  guarantee: 0\n  bounty: 20") \
               .replace("  rounding: 5 ", "  rounding: 1 ")
    return load_tournament_text(text + "\nclub:\n  name: Spielbank\n", "money.yaml",
                                base_dir=REPO / "config" / "tournaments")


def test_a_nights_money_goes_into_the_club_and_its_history(tmp_path, capsys):
    settings = money_settings()
    log = tournament(tmp_path / "money.sqlite", settings, PLAYERS,
                     [("Emil Fox", "Anna Berg"), ("Dora Eck", "Anna Berg"),
                      ("Carl Dahl", "Bert Cox"), ("Bert Cox", "Anna Berg")], day="2026-11-20")
    club = tmp_path / "club.sqlite"
    db = open_club(club)
    import_log(db, str(log))
    # 5 × 100 €, 20 € of each onto the head: a pool of 400 €; 15 % of 5: 1 paid
    pool, currency = db.execute("SELECT prize_pool, currency FROM tournaments").fetchone()
    assert (pool, currency) == (40_000, "EUR")
    stored = dict(db.execute("SELECT p.name, r.payout FROM results r JOIN players p "
                             "ON p.id = r.player_id").fetchall())
    assert stored == {"Anna Berg": 40_000, "Bert Cox": 0, "Carl Dahl": 0, "Dora Eck": 0,
                      "Emil Fox": 0}
    bounties = dict(db.execute("SELECT p.name, r.bounties FROM results r JOIN players p "
                               "ON p.id = r.player_id").fetchall())
    # Anna busted three (60 €) and keeps her own head (20 €); Bert busted Carl
    assert bounties["Anna Berg"] == 8_000 and bounties["Bert Cox"] == 2_000
    player, nights = history(db, "anna berg")
    assert [(n.place, n.payout, n.bounties, n.currency) for n in nights] == [
        (1, 40_000, 8_000, "EUR")]
    text = history_text(player, nights)
    assert "place 1, payout 400 EUR, bounties 80 EUR" in text and "won: 480 EUR" in text
    table = standings(db)
    assert table.columns[-1] == "winnings"
    assert {s.name: s.extra["winnings"] for s in table.lines}["Anna Berg"] == 48_000
    assert standings_csv(table).splitlines()[0].endswith(",winnings")
    db.close()
    # the command line: history, and the export carries the columns
    assert cli.main(["club", "history", "Anna", "Berg", "--club", str(club)]) == 0
    assert "won: 480 EUR" in capsys.readouterr().out
    assert cli.main(["club", "history", "Bert Cox", "--csv", "--club", str(club)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "date,tournament,season,place,points,currency,payout,ticket,bounties"
    assert out[1].endswith(",EUR,0,,2000")
    assert cli.main(["club", "export", str(tmp_path / "out"), "--club", str(club)]) == 0
    exported = json.loads((tmp_path / "out" / "club.json").read_text())
    assert {r["payout"] for r in exported["results"]} == {40_000, 0}


def test_a_points_night_has_no_money_and_no_winnings_column(tmp_path):
    log = tournament(tmp_path / "psc.sqlite", psc_settings(), PLAYERS[:3],
                     [("Carl Dahl", None), ("Bert Cox", None)], day="2026-11-20")
    db = open_club(tmp_path / "club.sqlite")
    import_log(db, str(log))
    assert db.execute("SELECT payout, ticket, bounties FROM results").fetchall() == [
        (None, None, None)] * 3
    assert "winnings" not in standings(db).columns
    player, nights = history(db, "Anna Berg")
    assert "won:" not in history_text(player, nights) and "points" in history_text(player, nights)


def test_a_schema_2_club_is_brought_up_to_3_and_keeps_its_nights(tmp_path):
    log = tournament(tmp_path / "psc.sqlite", psc_settings(), PLAYERS[:3],
                     [("Carl Dahl", None), ("Bert Cox", None)], day="2026-11-20")
    path = tmp_path / "club.sqlite"
    db = open_club(path)
    import_log(db, str(log))
    db.close()
    # take it back to schema 2 as an older Floorman wrote it
    raw = sqlite3.connect(path)
    for table, column in (("results", "payout"), ("results", "ticket"),
                          ("results", "bounties"), ("tournaments", "currency"),
                          ("tournaments", "prize_pool")):
        raw.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    for later in ("trophies", "fees", "day_memberships", "adults"):  # schema 4's and 5's
        raw.execute(f"DROP TABLE {later}")
    raw.execute("PRAGMA user_version=2")
    raw.commit()
    raw.close()
    # read-only (not migrated): the history still reads, without money
    ro = open_club(path, readonly=True)
    assert [n.payout for n in history(ro, "Anna Berg")[1]] == [None]
    assert "winnings" not in standings(ro).columns
    ro.close()
    db = open_club(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
    assert db.execute("SELECT COUNT(*), COUNT(payout) FROM results").fetchone() == (3, 0)
    db.close()
