"""Fees on rebuys and in percent, money bounties (and the progressive knock-out), the
free automatic add-on, ghosts outside the money (issue 30, 002): the pool takes the
fees and the bounties out to the cent, and every cent paid in is accounted for."""

from __future__ import annotations

import random

import pytest

from controller.engine.rules import bounties
from controller.engine.rules.prize_pool import prize_pool
from controller.engine.settings import Entries, Ghosts, Money, Points, fee_of
from controller.engine.tournament import Rejected, Tournament
from tests.support.settings import new_tournament, replay_equal


def _bust(t: Tournament, now: float, pid: int, by: int | None = None) -> None:
    p = t.players[pid]
    command = {"cmd": "bust", "table": p.table, "seat": p.seat, "confirm": True}
    if by is not None:
        command["by"] = by
    t.execute(command, now)


def _row(t: Tournament, pid: int):
    return next(r for r in t.results() if r.player_id == pid)


def test_a_percent_fee_is_rounded_down_to_the_cent_on_every_price():
    money = Money(buy_in=3_333, fee="10%", reentry=2_005, rebuy=1_999, rebuy_fee="12.5%")
    t = new_tournament(10, money=money, points=Points(places=2),
                       entries=Entries(rebuys=2, rebuy_until_level=4, reentries=1,
                                       reentry_until_level=4))
    _bust(t, 10.0, 1)
    _bust(t, 11.0, 2)
    t.execute({"cmd": "reentry", "player": 1}, 20.0)
    t.execute({"cmd": "rebuy", "player": 2}, 21.0)
    pool = prize_pool(t, 30.0)
    assert pool is not None
    # 10 % of 33.33 € = 3.333 €: the house keeps 3.33 €; of a 20.05 € re-entry 2.00 €
    # (2.005 €); 12.5 % of a 19.99 € rebuy 2.49 € (2.49875 €)
    assert pool.fees == 10 * 333 + 200 + 249
    assert pool.paid_in == 10 * 3_333 + 2_005 + 1_999
    assert pool.pool == pool.paid_in - pool.fees
    replay_equal(t)


def test_the_automatic_add_on_costs_nothing():
    # 000 4.13: every player who did not rebuy is credited the add-on; nobody buys it
    money = Money(buy_in=2_000, rebuy=2_000)
    t = new_tournament(9, money=money, points=Points(places=2),
                       entries=Entries(rebuys=1, rebuy_until_level=4, addon_after_level=4,
                                       auto_addon_multiplier=2))
    _bust(t, 10.0, 1)
    t.execute({"cmd": "rebuy", "player": 1}, 20.0)
    before = prize_pool(t, 30.0)
    # level 4 ends at 4 × 600 s (+2 s start): the break is the add-on phase
    t.execute({"cmd": "addon"}, 2_500.0)
    after = prize_pool(t, 2_500.0)
    assert before is not None and after is not None
    assert after.addons == 8 and before.addons == 0
    assert after.paid_in == before.paid_in == 9 * 2_000 + 2_000
    assert after.pool == before.pool


def test_the_hunter_wins_the_head_and_the_winner_their_own():
    money = Money(buy_in=10_000, fee=1_000, bounty=2_500)
    t = new_tournament(3, money=money, points=Points(places=1))
    pool = prize_pool(t, 5.0)
    assert pool is not None
    assert (pool.bounties, pool.fees, pool.pool) == (7_500, 3_000, 19_500)
    _bust(t, 10.0, 1, by=2)
    _bust(t, 11.0, 3, by=2)
    assert t.finished and t.winner == 2
    assert [(r.player_id, r.payout, r.bounties) for r in t.results()] == [
        (2, 19_500, 7_500), (3, 0, 0), (1, 0, 0)]
    replay_equal(t)


def test_a_progressive_knockout_pays_half_and_puts_half_on_the_hunters_head():
    money = Money(buy_in=10_000, bounty=5_001, progressive=True)
    t = new_tournament(4, money=money, points=Points(places=1))
    _bust(t, 10.0, 1, by=2)  # 50.01 €: 25.01 € to 2's pocket, 25.00 € onto 2's head
    assert (t.players[2].bounty_won, t.players[2].bounty) == (2_501, 7_501)
    _bust(t, 11.0, 2, by=3)  # 2's head 75.01 €: 37.51 € to 3, 37.50 € on 3's head
    assert (t.players[3].bounty_won, t.players[3].bounty) == (3_751, 8_751)
    _bust(t, 12.0, 4, by=3)  # 50.01 €: 25.01 € and 25.00 €
    assert t.finished and t.winner == 3
    # the winner takes their own head at the end: 37.51 + 25.01 + 87.51 + 25.00
    assert _row(t, 3).bounties == 3_751 + 2_501 + 8_751 + 2_500
    assert _row(t, 2).bounties == 2_501
    assert sum(r.bounties or 0 for r in t.results()) == 4 * 5_001
    replay_equal(t)


def test_a_head_nobody_wins_goes_to_the_winner():
    money = Money(buy_in=10_000, bounty=2_000)
    t = new_tournament(3, money=money, points=Points(places=1))
    _bust(t, 10.0, 1)  # no hunter named
    assert t.bounty_unclaimed == 2_000
    _bust(t, 11.0, 2, by=3)
    assert _row(t, 3).bounties == 6_000 and t.bounty_unclaimed == 0


def test_a_reentry_puts_a_fresh_bounty_on_the_head():
    money = Money(buy_in=10_000, bounty=2_000)
    t = new_tournament(4, money=money, points=Points(places=1),
                       entries=Entries(reentries=1, reentry_until_level=4))
    _bust(t, 10.0, 1, by=2)
    t.execute({"cmd": "reentry", "player": 1}, 20.0)
    assert t.players[1].bounty == 2_000
    _bust(t, 21.0, 1, by=3)
    assert (t.players[2].bounty_won, t.players[3].bounty_won) == (2_000, 2_000)
    pool = prize_pool(t, 30.0)
    assert pool is not None and pool.bounties == 5 * 2_000 == bounties.accounted(t)


def test_no_bounty_column_without_money_bounties():
    t = new_tournament(2, money=Money(buy_in=1_000), points=Points(places=1))
    _bust(t, 10.0, 1, by=2)
    assert all(r.bounties is None for r in t.results())


# ------------------------------------------------------------------------ ghosts
def test_a_ghost_in_the_money_takes_no_paid_place():
    # 000 9.5: "Der Ghostplayer wird nicht in der Rangliste gewertet": a ghost seat still
    # in when the money is reached is no player; it busts without a place, and every
    # paid place goes to a player with a result row
    t = new_tournament(7, money=Money(buy_in=10_000), points=Points(places=3),
                       ghosts=Ghosts(enabled=True), players_per_table=5, table_seats=5)
    ghost = next(p.id for p in t.players.values() if p.ghost)
    for i, pid in enumerate((1, 2, 3, 4)):
        _bust(t, 10.0 + i, pid, by=5)
    assert t.remaining == 3 and not t.players[ghost].out  # in the money, the ghost too
    _bust(t, 20.0, ghost, by=5)
    _bust(t, 21.0, 6, by=5)
    _bust(t, 22.0, 7, by=5)
    pool = prize_pool(t)
    assert pool is not None and t.finished
    rows = t.results()
    assert ghost not in {r.player_id for r in rows}
    assert [(r.place, r.player_id) for r in rows[:3]] == [(1, 5), (2, 7), (3, 6)]
    assert sum(r.payout or 0 for r in rows) == pool.pool == sum(pool.payouts)


# -------------------------------------------------------- property: every cent counted
@pytest.mark.parametrize("seed", range(40))
def test_pool_fees_and_bounties_are_the_money_taken(seed):
    """Random entry streams (entries, busts with and without a hunter, re-entries,
    rebuys, the add-on) and random prices: at every step the pool collected, the fees
    and the bounties add up to what the players paid, and every bounty cent is on a
    head, won or held; at the end every bounty is won."""
    rng = random.Random(seed)
    buy_in = rng.randrange(500, 50_000)
    fee: int | str = rng.choice([rng.randrange(0, buy_in // 4), f"{rng.randrange(0, 26)}%",
                                 f"{rng.randrange(0, 20)}.{rng.randrange(0, 100):02d}%"])
    bounty = rng.choice([0, rng.randrange(1, buy_in // 2)])
    reentry = rng.choice([None, buy_in, rng.randrange(buy_in // 2 + 1, buy_in * 2)])
    rebuy = rng.randrange(buy_in // 2 + 1, buy_in * 2)
    rebuy_fee = rng.choice([0, rng.randrange(0, rebuy // 4), f"{rng.randrange(0, 30)}%"])
    money = Money(buy_in=buy_in, fee=fee, reentry=reentry, rebuy=rebuy, rebuy_fee=rebuy_fee,
                  bounty=bounty, progressive=bool(bounty) and rng.random() < 0.5)
    t = new_tournament(rng.randrange(2, 30), seed=seed, money=money,
                       points=Points(places=rng.randrange(1, 6)),
                       entries=Entries(rebuys=2, rebuy_until_level=3, reentries=2,
                                       reentry_until_level=3, addon_after_level=3,
                                       auto_addon_multiplier=1))
    now = 10.0
    while not t.finished:
        now += rng.uniform(1, 60)
        left = [p.id for p in t.players.values() if not p.out and not p.ghost]
        out = [p.id for p in t.players.values() if p.out and not p.disqualified and not p.ghost]
        move = rng.random()
        try:
            if move < 0.15 and out:
                pid = rng.choice(out)
                kind = "rebuy" if rng.random() < 0.5 else "reentry"
                t.execute({"cmd": kind, "player": pid}, now)
            elif move < 0.2 and now < 1_800:
                t.execute({"cmd": "late", "name": f"Late {now:.0f}"}, now)
            else:
                pid = rng.choice(left)
                hunters = [x for x in left if x != pid]
                by = rng.choice(hunters) if hunters and rng.random() < 0.85 else None
                _bust(t, now, pid, by)
        except Exception as e:  # a closed rebuy, re-entry or registration: play on
            if type(e).__name__ != "Rejected":
                raise
        pool = prize_pool(t, now)
        assert pool is not None
        firsts, reentries, rebuys = t.real_players(), pool.reentries, pool.rebuys
        assert pool.paid_in == (firsts * buy_in + reentries * (reentry or buy_in)
                                + rebuys * rebuy)
        assert pool.fees == (firsts * fee_of(fee, buy_in)
                             + reentries * fee_of(fee, reentry or buy_in)
                             + rebuys * fee_of(rebuy_fee, rebuy))
        assert pool.pool - pool.overlay + pool.fees + pool.bounties == pool.paid_in
        assert bounties.accounted(t) == pool.bounties
        assert sum(pool.payouts) == pool.pool
    rows = t.results()
    pool = prize_pool(t)
    assert pool is not None
    assert sum(r.payout or 0 for r in rows) == pool.pool
    if bounty:
        assert sum(r.bounties or 0 for r in rows) == pool.bounties
    replay_equal(t)


# ------------------------------------------- a satellite's shared ticket-and-cash place
def _satellite_down_to_four(seed: int) -> Tournament:
    # 35 × 10 € for 100 € tickets: 3 tickets and 50 € cash (places 1-3, place 4); late
    # registration still open, so the satellite does not end at 3 left by itself
    money = Money(buy_in=1_000, satellite=10_000)
    t = new_tournament(35, seed=seed, money=money,
                       entries=Entries(late_registration_levels=12))
    now = 10.0
    while t.remaining > 4:
        pid = next(p.id for p in t.players.values() if not p.out and not p.ghost)
        now += 1
        t.execute({"cmd": "bust", "player": pid, "confirm": True}, now)
    return t


def _two_out_in_one_hand(t: Tournament) -> tuple[int, int]:
    """Two of the last four, at one table, out in one hand with equal stacks (000 9.5):
    they share place 3, which covers the last ticket (3) and the cash (4)."""
    left = [p for p in t.players.values() if not p.out and not p.ghost]
    table = next(p.table for p in left if sum(q.table == p.table for q in left) >= 2)
    a, b = [p.id for p in left if p.table == table][:2]
    t.execute({"cmd": "bust", "player": a, "stack": 5_000, "confirm": True}, 900.0)
    t.execute({"cmd": "bust", "player": b, "stack": 5_000, "same_hand": True,
               "confirm": True}, 901.0)
    return a, b


def test_a_shared_place_of_a_ticket_and_cash_is_split_by_lot_from_the_logs_seed():
    outcomes = set()
    for seed in range(12):
        t = _satellite_down_to_four(seed)
        a, b = _two_out_in_one_hand(t)
        pool = prize_pool(t, 901.0)
        assert pool is not None and (pool.tickets, pool.payouts[-1]) == (3, 5_000)
        rows = {r.player_id: r for r in t.results()}
        assert rows[a].place == rows[b].place == 3
        got = {pid: (rows[pid].ticket, rows[pid].payout, rows[pid].lot) for pid in (a, b)}
        # one wins the ticket, the other the 50 € cash, both marked as drawn by lot
        assert sorted(got.values(), key=str) == sorted(
            [(10_000, 0, True), (None, 5_000, True)], key=str)
        winner = next(pid for pid in (a, b) if rows[pid].ticket)
        outcomes.add(winner == min(a, b))
        # the same log draws the same lot: nothing but the log decides
        again = Tournament.replay(t.log)
        assert next(r.player_id for r in again.results() if r.ticket and r.place == 3) == winner
    assert outcomes == {True, False}  # a lot, not the order of registration


def test_the_lot_shows_in_the_exports():
    from controller.engine.results import results_csv, results_json

    t = _satellite_down_to_four(3)
    a, b = _two_out_in_one_hand(t)
    rows = results_json(t.results())
    assert {r["player_id"] for r in rows if r.get("lot")} == {a, b}
    header, *lines = results_csv(t.results()).splitlines()
    assert header.endswith(",payout,ticket,lot")
    assert sum(line.endswith(",true") for line in lines) == 2


# found by the floor model (satellite-lot): in hand-for-hand at a satellite's bubble the
# bust that left only ticket winners ended the satellite, and a player out in that same
# hand-for-hand hand at another table was refused (its table had no bust before to say
# "same hand" to)
def _satellite_hand_for_hand_at_four(left: int = 4) -> Tournament:
    """10 × 10 € for 30 € tickets (3 tickets, 10 € cash), registration closed; four (or
    ``left``) left at two tables, the director's hand-for-hand on."""
    t = new_tournament(10, money=Money(buy_in=1_000, satellite=3_000), players_per_table=3,
                       table_seats=3, final_table_size=2)
    now = 50.0
    while t.remaining > left:
        pid = min(p.id for p in t.players.values() if not p.out and p.table)
        t.execute({"cmd": "bust", "player": pid, "confirm": True}, now)
        now += 1
        for n in sorted(t.tables):
            t.execute({"cmd": "hand_done", "table": n}, now)
        for pid in sorted(t.pending):
            t.execute({"cmd": "seated", "player": pid}, now)
    pool = prize_pool(t, now)
    assert pool is not None and pool.final and (pool.tickets, pool.payouts[-1]) == (3, 1_000)
    assert len(t.tables) == 2 and all(len(tab.occupant) >= 2 for tab in t.tables.values())
    if not t.hfh.on:  # at five left it is on by itself (the bubble of four paid places)
        t.execute({"cmd": "hfh", "on": True}, 100.0)
    return t


def test_two_out_in_one_hand_for_hand_hand_at_a_satellites_bubble_share_it_by_lot():
    # 002 b: players out in the same hand-for-hand hand at different tables share the
    # place; 000 9.5: the last ticket and the cash of that place go by lot
    t = _satellite_hand_for_hand_at_four()
    one, two = (sorted(tab.occupant.values()) for _, tab in sorted(t.tables.items()))
    t.execute({"cmd": "bust", "player": one[0]}, 110.0)
    assert t.finished  # only the three ticket winners left
    t.execute({"cmd": "bust", "player": two[0]}, 111.0)  # the other table, same hand
    rows = {r.player_id: r for r in t.results()}
    a, b = rows[one[0]], rows[two[0]]
    assert a.place == b.place == 3 and a.lot and b.lot
    assert sorted(r.ticket is not None for r in (a, b)) == [False, True]
    assert sorted(r.payout or 0 for r in (a, b)) == [0, 1_000]
    assert t.finished and sorted({t.winner, *t.co_winners}) == sorted([one[1], two[1]])
    replay_equal(t)
    # undone, the satellite ends as it did at the first bust
    second = next(e for e in t.log if e["type"] == "busted" and e["player"] == two[0])
    t.execute({"cmd": "undo", "target": second["seq"]}, 112.0)
    assert not t.players[two[0]].out and two[0] in [t.winner, *t.co_winners]
    replay_equal(t)


def test_after_a_satellites_hand_for_hand_bubble_a_table_done_with_the_hand_has_none_out():
    # the other table said "hand done" before the bust that ended the satellite: a bust
    # there would be of its next hand, which the satellite's end no longer deals
    t = _satellite_hand_for_hand_at_four()
    one, two = (sorted(tab.occupant.values()) for _, tab in sorted(t.tables.items()))
    table_two = t.players[two[0]].table
    t.execute({"cmd": "hand_done", "table": table_two}, 105.0)
    t.execute({"cmd": "bust", "player": one[0]}, 110.0)
    assert t.finished
    with pytest.raises(Rejected, match="over"):
        t.execute({"cmd": "bust", "player": two[0]}, 111.0)


def test_three_out_in_one_hand_for_hand_hand_at_a_satellites_bubble_draw_for_one_ticket():
    """A night the floor model got wrong (satellite-lot): one out at a table in the
    hand-for-hand hand (the bubble burst, the hand played on), then two at the other
    table in that hand, the second after the satellite ended: the three share place 3
    (002 b), which covers one ticket, the cash and place 5: one of the three wins the
    ticket by lot, the two others share the cash (the model expected one of the two)."""
    t = _satellite_hand_for_hand_at_four(left=5)
    one, two = sorted((sorted(tab.occupant.values()) for tab in t.tables.values()), key=len)
    t.execute({"cmd": "bust", "player": two[0], "stack": 20_000}, 110.0)
    assert not t.finished and not t.hfh.on  # the bubble burst; the hand plays on
    t.execute({"cmd": "bust", "player": one[0], "stack": 2_000}, 111.0)
    assert t.finished
    t.execute({"cmd": "bust", "player": one[1], "stack": 2_000, "same_hand": True}, 112.0)
    rows = {r.player_id: r for r in t.results()}
    three = [rows[p] for p in (two[0], one[0], one[1])]
    assert [r.place for r in three] == [3, 3, 3] and all(r.lot for r in three)
    assert sum(r.ticket is not None for r in three) == 1
    assert sorted(r.payout or 0 for r in three) == [0, 500, 500]
    replay_equal(t)
