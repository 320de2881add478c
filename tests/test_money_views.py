"""What the screens get of the money (issue 30): the summary's prize pool and ladder, the
results' payouts, both in the protocol; a points club's payloads carry no money key."""

from __future__ import annotations

from controller.config import load_tournament
from controller.engine.rules import payouts
from controller.engine.tournament import Tournament
from controller.resources import find, sample_tournament
from controller.service import views
from controller.wire.protocol import validate_state


def _money_night(players: int = 60) -> Tournament:
    path = find("tournaments", "venue-faq-prize-pool")
    assert path is not None
    t = Tournament.new(load_tournament(path), 1, 0.0)
    t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(players)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    return t


def test_the_summary_has_the_pool_and_the_ladder():
    t = _money_night()
    now = 10.0
    while t.remaining > 12:
        first = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": first, "confirm": True}, now)
        now += 1
    s = validate_state("summary", views.summary_view(t))
    pool = s["prize_pool"]
    # 60 × 100 € = 6,000 €, the guarantee makes it 10,000 €; 15 % of 60 = 9 paid
    assert (pool["currency"], pool["pool"], pool["paid_places"]) == ("EUR", 1_000_000, 9)
    assert s["places_paid"] == 9 and pool["next_place"] == 12
    assert [place for place, _ in pool["ladder"]] == list(range(1, 10))
    assert sum(cents for _, cents in pool["ladder"]) == 1_000_000
    results = validate_state("results", views.results_view(t, whole=True))
    assert all(r["payout"] == 0 for r in results["rows"])  # nobody in the money yet


def test_a_points_club_gets_no_money_key():
    t = Tournament.new(load_tournament(sample_tournament()), 1, 0.0)
    t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(20)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    t.execute({"cmd": "bust", "player": 1}, 3.0)
    assert "prize_pool" not in views.summary_view(t)
    rows = views.results_view(t, whole=True)["rows"]
    assert rows and all("payout" not in r for r in rows)


def test_a_big_fields_ladder_shows_the_top_and_the_next_places():
    amounts = list(range(300_000, 0, -1_000))  # 300 paid places
    steps = payouts.ladder(amounts, remaining=250)
    assert [p for p, _ in steps] == [1, 2, 3, 242, 243, 244, 245, 246, 247, 248, 249, 250]
    # outside the money yet: the last paid places, the min-cash last
    assert [p for p, _ in payouts.ladder(amounts, remaining=900)][-1] == 300
    # at the final table the top twelve
    assert [p for p, _ in payouts.ladder(amounts, remaining=5)] == list(range(1, 13))
