"""Money bounties on the screens (issue 30): each seat carries the head on that player
(what busting them wins; a progressive head grows), the chip leader's too; a tournament
without money bounties sends neither key."""

from __future__ import annotations

from controller.config import load_tournament
from controller.engine.tournament import Tournament
from controller.resources import find, sample_tournament
from controller.service import views
from controller.wire.protocol import validate_state


def _night(name: str | None) -> Tournament:
    path = find("tournaments", name) if name else sample_tournament()
    assert path is not None
    t = Tournament.new(load_tournament(path), 1, 0.0)
    t.execute({"cmd": "register", "names": [f"Player {i}" for i in range(18)]}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    t.execute({"cmd": "start"}, 2.0)
    return t


def _seats(t: Tournament) -> dict[int, dict]:
    return {s["player_id"]: s for n in t.tables for s in
            validate_state(f"table/{n}", views.table_view(t, n))["seats"]}


def test_each_seat_carries_the_head_and_a_progressive_head_grows():
    t = _night("venue-faq-bounty")  # 40 € a head, progressive
    seats = _seats(t)
    assert {s["bounty"] for s in seats.values()} == {4_000}
    hunter = seats[1]
    tab = t.players[1].table
    prey = next(pid for pid, p in t.players.items() if p.table == tab and pid != 1)
    t.execute({"cmd": "bust", "player": prey, "by": 1, "confirm": True}, 10.0)
    assert _seats(t)[1]["bounty"] == 6_000  # half of the head onto the hunter's own
    assert _seats(t)[1]["bounty_won"] == 2_000  # the other half won in cash
    assert {s["bounty_won"] for pid, s in _seats(t).items() if pid != 1} == {0}
    assert hunter["name"] == _seats(t)[1]["name"]
    # the hunter has the busted stack too
    counts = [{"player": p.id, "chips": 40_000 if p.id == 1 else 20_000}
              for p in t.players.values() if not p.out]
    counts[-1]["chips"] += t.chips - sum(c["chips"] for c in counts)
    t.execute({"cmd": "chip_counts", "counts": counts}, 20.0)
    lead = validate_state("summary", views.summary_view(t))["chip_leader"]
    assert lead["name"] == t.players[1].name and lead["bounty"] == 6_000


def test_no_bounty_keys_without_money_bounties():
    for name in (None, "venue-faq-prize-pool"):  # points only; money without bounties
        t = _night(name)
        assert not [s for s in _seats(t).values() if "bounty" in s or "bounty_won" in s]
        counts = [{"player": p.id, "chips": 1_000} for p in t.players.values() if not p.out]
        counts[0]["chips"] = t.chips - 1_000 * (len(counts) - 1)
        t.execute({"cmd": "chip_counts", "counts": counts}, 20.0)
        assert "bounty" not in views.summary_view(t)["chip_leader"]
