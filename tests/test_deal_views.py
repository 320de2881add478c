"""After a deal at the final table (issue 30) the screens no longer say what the next player
out takes by the ladder: each player left has their deal. Undone, they say it again."""

from __future__ import annotations

from controller.engine.settings import Money
from controller.service import views
from controller.wire.protocol import validate_state
from tests.support.settings import new_tournament


def test_no_next_payout_while_a_deal_stands():
    t = new_tournament(5, money=Money(buy_in=10_000, fee=1_000, rounding=100, places=3))
    t.execute({"cmd": "bust", "player": 5}, 20.0)
    t.execute({"cmd": "chip_counts", "counts": [{"player": p, "chips": c} for p, c in
                                                 [(1, 20_000), (2, 12_000), (3, 10_000),
                                                  (4, 8_000)]]}, 30.0)
    assert views.summary_view(t)["prize_pool"]["next_place"] == 4
    t.execute({"cmd": "deal", "method": "chip_chop"}, 40.0)
    pool = views.summary_view(t)["prize_pool"]
    assert pool["next_place"] is None and pool["pool"] == 45_000
    # the wall says "Deal" for the players left, and what is still played for
    assert pool["deal"]["played_for"] == t.deal.played_for and t.deal.played_for > 0
    # and each dealt player's own amount, the largest first (the wall, the players' page)
    assert pool["deal"]["players"] == [
        {"player_id": pid, "name": f"Player {pid}", "amount": cents}
        for pid, _, cents in sorted(t.deal.shares, key=lambda s: -s[2])]
    assert sum(d["amount"] for d in pool["deal"]["players"]) + t.deal.played_for == \
        t.deal.open
    validate_state("summary", views.summary_view(t))
    rows = views.results_view(t, whole=True)["rows"]
    assert all("deal" not in r for r in rows)  # nobody placed since the deal yet
    t.execute({"cmd": "bust", "player": 4}, 50.0)
    row = next(r for r in views.results_view(t, whole=True)["rows"] if r["player_id"] == 4)
    assert row["deal"] == row["payout"] > 0
    t.execute({"cmd": "undo"}, 60.0)  # the bust
    t.execute({"cmd": "undo"}, 61.0)  # the deal
    assert views.summary_view(t)["prize_pool"]["next_place"] == 4
    assert "deal" not in views.summary_view(t)["prize_pool"]
