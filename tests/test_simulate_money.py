"""`floorman simulate` of a tournament for money (issue 30): the pool and the payouts are
printed, every JSON result row has its payout in cents; a points club's has none."""

from __future__ import annotations

import json

import pytest

from controller.cli import main
from controller.engine.points import paid_places

MONEY = "venue-faq-prize-pool"


@pytest.mark.parametrize("players", [27, 200])
def test_every_result_row_has_its_payout_and_they_add_up_to_the_pool(players, capsys):
    assert main(["simulate", MONEY, "--players", str(players), "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    pool = out["summary"]["prize_pool"]
    rows = out["results"]
    assert all(isinstance(r["payout"], int) for r in rows)
    assert sum(r["payout"] for r in rows) == pool["pool"]
    assert pool["pool"] == max(pool["entries"] * 10_000, 1_000_000)  # 100 €, 10,000 € g'teed
    assert pool["paid_places"] == paid_places("15%", pool["entries"])  # the preset's 15 %
    assert pool["final"]
    # never more for a worse place; the places outside the money get nothing
    by_place = sorted(rows, key=lambda r: r["place"])
    assert all(a["payout"] >= b["payout"] for a, b in zip(by_place, by_place[1:], strict=False))
    assert all(r["payout"] == 0 for r in rows if r["place"] > pool["paid_places"])
    champion = next(r for r in rows if r["place"] == 1)
    assert champion["payout"] == pool["payouts"][0]


def test_the_text_prints_the_pool_and_each_place(capsys):
    assert main(["simulate", MONEY, "--players", "60", "--seed", "5", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "prize pool 10000 EUR: " in out and "overlay" in out
    assert "paid places " in out and "     1.  " in out
    header = next(line for line in out.splitlines() if line.startswith("place,"))
    assert header.endswith(",member,payout")


def test_a_points_club_shows_no_money(capsys):
    assert main(["simulate", "sample", "--players", "27", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "prize_pool" not in out["summary"]
    assert all("payout" not in r for r in out["results"])
    assert main(["simulate", "sample", "--players", "27", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    assert "prize pool" not in text and "payout" not in text
