"""The deal at the final table (issue 30, 002 "ICM oder Chip Chop", "10% … ausgespielt"):
proposed from the counted stacks without changing anything, accepted as a ``deal``
event, replayed from the log, undone like any command; the places still decide who
takes the part played for, and the results pay the deal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import events as ev
from controller.engine.rules import final_deal
from controller.engine.rules.prize_pool import prize_pool
from controller.engine.settings import Entries, Money
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament, rejected, replay_equal

MONEY = Money(buy_in=10_000, fee=1_000, rounding=100, places=3)


def _counted(t: Tournament, stacks: dict[int, int], now: float = 50.0) -> None:
    t.execute({"cmd": "chip_counts",
               "counts": [{"player": pid, "chips": c} for pid, c in stacks.items()]}, now)


def _out(t: Tournament, pid: int, now: float) -> None:
    t.execute({"cmd": "bust", "player": pid}, now)


def _four(**overrides) -> Tournament:
    """Four players left of five at one table, counted: 20,000 / 12,000 / 10,000 / 8,000."""
    t = new_tournament(5, money=MONEY, **overrides)
    _out(t, 5, 20.0)
    _counted(t, {1: 20_000, 2: 12_000, 3: 10_000, 4: 8_000})
    return t


def test_the_proposal_changes_nothing_and_the_deal_is_what_it_proposed():
    t = _four()
    pool = prize_pool(t)
    assert pool is not None and pool.pool == 45_000
    before = len(t.log)
    proposed = final_deal.proposal(t)
    assert len(t.log) == before
    assert proposed["open"] == pool.pool and proposed["percent"] == 10
    assert proposed["played_for"] == 4_500  # 002: 10 % of the money still open
    rows = proposed["players"]
    assert [r["player_id"] for r in rows] == [1, 2, 3, 4]  # biggest stack first
    for method in ("icm", "chip_chop"):
        assert sum(r[method] for r in rows) + 4_500 == 45_000
        assert [r[method] for r in rows] == sorted((r[method] for r in rows), reverse=True)
    t.execute({"cmd": "deal", "method": "icm", "percent": 10}, 60.0)
    d = t.deal
    assert d is not None and d.method == "icm" and d.played_for == 4_500
    assert {pid: cents for pid, _, cents in d.shares} == {r["player_id"]: r["icm"] for r in rows}
    replay_equal(t)


def test_after_the_deal_the_winner_takes_what_was_played_for():
    t = _four()
    t.execute({"cmd": "deal", "method": "chip_chop", "percent": 10}, 60.0)
    dealt = {pid: cents for pid, _, cents in t.deal.shares}
    _out(t, 1, 70.0)  # the chip leader goes out fourth: their deal, nothing more
    _out(t, 4, 71.0)
    _out(t, 3, 72.0)
    assert t.finished and t.winner == 2
    rows = {r.player_id: r for r in t.results()}
    assert rows[1].payout == dealt[1] and rows[1].deal == dealt[1]
    assert rows[2].payout == dealt[2] + 4_500 and rows[2].deal == dealt[2]
    assert rows[5].payout == 0 and rows[5].deal is None
    assert sum(r.payout or 0 for r in rows.values()) == 45_000
    replay_equal(t)


def test_a_custom_split_adds_up_to_the_money_open_less_the_part_played_for():
    t = _four()
    amounts = [{"player": 1, "amount": 15_000}, {"player": 2, "amount": 10_000},
               {"player": "Player 3", "amount": 9_000}, {"player": 4, "amount": 7_000}]
    rejected(t, {"cmd": "deal", "method": "custom", "percent": 10, "amounts": amounts},
             match="adds up to 410 EUR, but 405 EUR are dealt")
    rejected(t, {"cmd": "deal", "method": "custom", "amounts": amounts[:3]},
             match="Player 4 missing")
    rejected(t, {"cmd": "deal", "method": "custom",
                 "amounts": [*amounts[:3], {"player": 3, "amount": 7_000}]},
             match="named twice")
    rejected(t, {"cmd": "deal", "method": "custom", "amounts": [
        *amounts[:3], {"player": 5, "amount": 7_000}]}, match="not among the players left")
    rejected(t, {"cmd": "deal", "method": "icm", "amounts": amounts}, match="custom deal")
    t.execute({"cmd": "deal", "method": "custom", "played_for": 4_000, "amounts": amounts}, 60.0)
    assert t.deal is not None and t.deal.played_for == 4_000
    replay_equal(t)


@pytest.mark.parametrize("command, match", [
    ({"percent": 10, "played_for": 100}, "not both"),
    ({"played_for": 40_000}, "more than the first place pays"),
])
def test_a_part_played_for_that_cannot_be_is_refused(command, match):
    rejected(_four(), {"cmd": "deal", **command}, match=match)


def test_no_deal_without_money_or_counts_or_while_the_pool_grows():
    points = new_tournament(4)
    rejected(points, {"cmd": "deal"}, match="plays for points")
    uncounted = new_tournament(4, money=MONEY)
    rejected(uncounted, {"cmd": "deal"}, match="count the stacks of the players left first")
    # a count before a bust no longer adds up to the chips in play of the players left
    stale = new_tournament(5, money=MONEY)
    _counted(stale, {1: 20_000, 2: 12_000, 3: 10_000, 4: 4_000, 5: 4_000})
    _out(stale, 5, 60.0)
    rejected(stale, {"cmd": "deal"}, match="short")
    growing = new_tournament(5, money=MONEY, entries=Entries(late_registration_levels=2))
    _counted(growing, {1: 20_000, 2: 12_000, 3: 10_000, 4: 4_000, 5: 4_000})
    rejected(growing, {"cmd": "deal"}, match="prize pool is not final")
    two_tables = new_tournament(12, money=MONEY, players_per_table=6, final_table_size=6)
    rejected(two_tables, {"cmd": "deal"}, match="at 2 tables")
    satellite = new_tournament(5, money=Money(buy_in=10_000, satellite=20_000))
    rejected(satellite, {"cmd": "deal"}, match="tickets")
    with pytest.raises(final_deal.Rejected, match="plays for points"):
        final_deal.proposal(points)


def test_one_deal_at_a_time_and_its_undo_brings_back_the_places_payouts():
    t = _four()
    t.execute({"cmd": "deal"}, 60.0)  # ICM, 002's 10 % played for
    seq = t.deal.seq
    rejected(t, {"cmd": "deal"}, match=f"a deal stands already (event {seq})")
    _out(t, 4, 70.0)
    dealt = {pid: cents for pid, _, cents in t.deal.shares}
    assert {r.player_id: r.payout for r in t.results()}[4] == dealt[4]
    t.execute({"cmd": "undo", "target": seq}, 80.0)  # the bust after it stays
    assert t.deal is None and t.players[4].out
    row = {r.player_id: r for r in t.results()}[4]
    assert row.payout == 0 and row.deal is None  # 4th of 3 paid places
    replay_equal(t)
    t.execute({"cmd": "undo"}, 81.0)  # the bust: four left again, a new deal possible
    final_deal.proposal(t)


def test_a_bust_before_the_deal_is_not_undone_while_the_deal_stands():
    t = _four()
    bust = next(e["seq"] for e in t.log if e["type"] == "busted")
    t.execute({"cmd": "deal", "method": "chip_chop", "percent": 0}, 60.0)
    deal = t.deal.seq
    reason = rejected(t, {"cmd": "undo", "target": bust}, match="later commands depend on it")
    assert f"undo --event {deal}" in reason


def test_a_deal_event_that_does_not_fit_the_players_left_is_refused_on_replay():
    t = _four()
    t.execute({"cmd": "deal", "method": "icm"}, 60.0)
    log = [dict(e) for e in t.log]
    deal = next(e for e in log if e["type"] == "deal")
    deal["shares"] = deal["shares"][:3]
    with pytest.raises(ev.InvalidEvent):
        Tournament.replay(log, check=False)


@settings(deadline=None, max_examples=40)  # a loaded machine: no time limit per example
@given(data=st.data(), left=st.integers(2, 6), percent=st.integers(0, 30),
       method=st.sampled_from(["icm", "chip_chop"]))
def test_whatever_the_stacks_and_the_order_out_the_results_pay_exactly_the_pool(
        data, left, percent, method):
    t = new_tournament(8, money=MONEY)
    for pid in range(left + 1, 9):
        _out(t, pid, 20.0)
    chips = t.chips
    cuts = sorted(data.draw(st.lists(st.integers(1, chips - 1), min_size=left - 1,
                                     max_size=left - 1, unique=True), label="cuts"))
    stacks = [b - a for a, b in zip([0, *cuts], [*cuts, chips], strict=True)]
    _counted(t, dict(zip(range(1, left + 1), stacks, strict=True)))
    t.execute({"cmd": "deal", "method": method, "percent": percent}, 60.0)
    d = t.deal
    assert sum(c for _, _, c in d.shares) + d.played_for == d.open
    order = data.draw(st.permutations(range(1, left + 1)), label="order out")
    for i, pid in enumerate(order[:-1]):
        _out(t, pid, 70.0 + i)
    assert t.finished and t.winner == order[-1]
    pool = prize_pool(t)
    assert pool is not None
    assert sum(r.payout or 0 for r in t.results()) == pool.pool
    replay_equal(t)


def test_no_bust_joins_a_hand_from_before_the_deal():
    """Found by the floor model (issue 30, sample:venue-faq-bounty): a dealt player reported
    out ``same_hand`` with a bust from before the deal was ranked into that earlier hand,
    below a player out after it: the places before the deal changed under it, and the
    results paid more than the pool. A player out in a hand before the deal was not a
    player left when it was made: refused while the deal stands (like undoing a bust
    before it), nothing changed; out in a hand of its own it counts."""
    t = _four()  # player 5 out before the deal, the four left counted
    t.execute({"cmd": "deal", "method": "icm", "percent": 10}, 60.0)
    rejected(t, {"cmd": "bust", "player": 4, "stack": 30_000, "same_hand": True},
             match="deal", now=70.0)
    _out(t, 4, 70.0)
    rows = {r.player_id: r for r in t.results()}
    assert (rows[4].place, rows[5].place) == (4, 5)
    assert sum(r.payout or 0 for r in rows.values()) <= 45_000
    replay_equal(t)


def test_a_dealt_player_is_not_disqualified_while_the_deal_stands():
    """Found by the floor model (issue 30, money-pko-deal and money-rebuy-fees): a player
    disqualified after the deal left the ranking (000 3.8) and their deal with it: the
    results paid less than the pool, the cents nowhere. No rulebook says where a dealt
    player's money goes, so the disqualification is refused while the deal stands, nothing
    changed: undo the deal, disqualify, and deal again among the players left."""
    t = _four()
    t.execute({"cmd": "deal", "method": "icm", "percent": 10}, 60.0)
    rejected(t, {"cmd": "disqualify", "player": 2, "reason": "collusion"}, match="deal",
             now=70.0)
    t.execute({"cmd": "undo", "target": t.deal.group}, 71.0)
    t.execute({"cmd": "disqualify", "player": 2, "reason": "collusion", "stack": 12_000},
              72.0)
    for pid in (4, 3):
        _out(t, pid, 80.0 + pid)
    assert t.finished
    assert sum(r.payout or 0 for r in t.results()) == 45_000
    replay_equal(t)


def test_nobody_buys_in_while_the_deal_stands():
    """Found by the floor model (issue 30, money-pko-deal, the bounty and prize-pool
    samples): the director's forced late entry after the deal brought a player in who was
    not in it, and grew the pool the deal had split. Every entry is refused while the deal
    stands (undo it first): a forced late entry, a registration, and a re-entry the
    director's level back reopened."""
    t = _four(entries=Entries(reentries=1, reentry_until_level=1))
    t.execute({"cmd": "level", "to": 2}, 55.0)  # re-entries closed: the pool is final
    t.execute({"cmd": "deal", "method": "icm"}, 60.0)
    rejected(t, {"cmd": "late", "name": "Late 1", "force": True}, match="deal", now=70.0)
    rejected(t, {"cmd": "register", "names": ["Late 2"], "force": True}, match="deal",
             now=70.0)
    t.execute({"cmd": "level", "to": 1}, 71.0)  # the director goes back a level
    rejected(t, {"cmd": "reentry", "player": 5}, match="deal", now=72.0)
    t.execute({"cmd": "undo", "target": t.deal.group}, 73.0)
    t.execute({"cmd": "reentry", "player": 5}, 74.0)
    replay_equal(t)


def test_the_waiting_list_calls_nobody_in_while_the_deal_stands():
    """Found by the floor model (venue-faq-bounty, 250-step nights): a full room's waiting
    list (002), a deal at the final table, then the director set the level back into late
    registration and a bust freed a seat: the waiting list called its first player in — a
    late entry the deal had not split the pool with (the command refuses it; the waiting
    list's call did not ask). Nobody is called in while the deal stands."""
    t = _four(entries=Entries(late_registration_levels=1))
    t.execute({"cmd": "capacity", "seats": 4}, 52.0)
    t.execute({"cmd": "late", "name": "Waiting"}, 53.0)
    assert [w.name for w in t.desk.waiting] == ["Waiting"]
    t.execute({"cmd": "level", "to": 2}, 55.0)  # late registration closed: the pool is final
    t.execute({"cmd": "deal", "method": "icm"}, 60.0)
    t.execute({"cmd": "level", "to": 1}, 61.0)  # the director goes back a level
    _out(t, 4, 62.0)  # a seat is free
    assert [w.name for w in t.desk.waiting] == ["Waiting"], "called in under the deal"
    assert "Waiting" not in t.by_name
    replay_equal(t)
