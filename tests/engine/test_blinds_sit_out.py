"""A moved player who posted a blind at the old table sits out until the button passes.

003 12 (Tischauflösung): "Wenn der Spieler am vorherigen Tisch den großen oder kleinen
Blind gesetzt hat, kann er aussetzen, bis der Button vorbei ist." The engine knows who
posted: the blinds follow the button, which the tables' "hand done" presses move. The
move marks the player as waiting at the new table; the seat is dealt in once the button
has gone past it. A club preset turns it on (``balancing.blinds_sit_out``: Ace of Spades);
000 4.10 deals a moved player in at once unless between the button and the small blind.
"""

from __future__ import annotations

import pytest

from controller.engine.commands import Rejected
from controller.engine.rules import seating
from controller.engine.settings import Balancing
from controller.engine.table import Table
from controller.engine.tournament import Tournament
from controller.service import views
from tests.support.settings import new_tournament, replay_equal


def club_003(players: int) -> Tournament:
    return new_tournament(players, balancing=Balancing(blinds_sit_out=True))


def free_seat(t: Tournament, table: int) -> int:
    return next(s for s in range(1, t.tables[table].size + 1)
                if s not in t.tables[table].occupant)


def hands_until_dealt(t: Tournament, table: int, seat: int, at: float) -> int:
    """'hand done' at ``table`` until ``seat`` is dealt in; the hands it sat out."""
    tab = t.tables[table]
    for hand in range(1, 2 * tab.size):
        button = tab.button
        t.execute({"cmd": "hand_done", "table": table}, at + hand)
        if tab.dealt(seat):
            # the button went past the seat: it skipped it (not dealt in), so it lies
            # between the button before and the one now
            assert seat in tab.passed(button, tab.button)
            return hand
        assert seat in tab.waiting and seat in tab.sits_out
    raise AssertionError("never dealt in")


def test_the_big_blind_reseated_sits_out_until_the_button_passes_003_12():
    t = club_003(16)
    old = t.tables[1]
    pid = old.occupant[old.bb]  # posted the big blind in the hand in play
    seat = free_seat(t, 2)
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": seat,
                     "reason": "Rollstuhl"}, 5.0)
    assert (e["waiting"], e["sits_out"]) == (True, True)
    new = t.tables[2]
    assert seat in new.waiting and not new.dealt(seat)
    # both tables' screens: a move out of table 1, a move into table 2, the seat waits
    assert [m["waiting_for_button"] for m in views.table_view(t, 2)["moves_in"]] == [True]
    assert [m["player_id"] for m in views.table_view(t, 1)["moves_out"]] == [pid]
    [row] = [s for s in views.table_view(t, 2)["seats"] if s["seat"] == seat]
    assert row["waiting"] is True
    replay_equal(t)
    sat_out = hands_until_dealt(t, 2, seat, 10.0)
    assert sat_out >= 1 and not new.sits_out
    replay_equal(t)


def test_a_broken_tables_blinds_sit_out_its_other_players_are_dealt_in_003_12():
    t = club_003(19)  # tables of 7, 6 and 6: a bust at table 1 and table 3 breaks
    seat = next(s for s in sorted(t.tables[1].occupant)
                if s not in (t.tables[1].sb, t.tables[1].bb))
    broken = next(e for e in t.execute({"cmd": "bust", "table": 1, "seat": seat}, 5.0)
                  if e["type"] == "table_broken")
    tab3_blinds = set(broken["sits_out"])
    assert len(tab3_blinds) == 2  # the small and the big blind of its last hand
    for pid, table, seat, waiting in broken["moves"]:
        tab = t.tables[table]
        assert (seat in tab.sits_out) == (pid in tab3_blinds)
        if pid in tab3_blinds:
            assert waiting and not tab.dealt(seat)
    replay_equal(t)
    for pid in tab3_blinds:
        p = t.players[pid]
        assert p.table is not None and p.seat is not None
        hands_until_dealt(t, p.table, p.seat, 100.0)
    replay_equal(t)


def test_without_the_club_rule_a_blind_is_dealt_in_at_once_000_4_10():
    t = new_tournament(16)
    pid = t.tables[1].occupant[t.tables[1].bb]
    seat = next(s for s in range(1, 10) if s not in t.tables[2].occupant
                and not t.tables[2].arrival_waits(s))
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": seat,
                     "reason": "Wunsch"}, 5.0)
    assert e["waiting"] is False and "sits_out" not in e


def test_a_seat_change_at_the_same_table_keeps_the_blinds_000_4_11():
    t = club_003(16)
    tab = t.tables[1]
    pid = tab.occupant[tab.bb]
    seat = next(s for s in range(1, 10) if s not in tab.occupant and not tab.arrival_waits(s))
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": 1, "seat": seat,
                     "reason": "Zugluft"}, 5.0)
    assert "sits_out" not in e and tab.dealt(seat)


def test_the_seat_is_dealt_in_the_hand_after_the_button_skipped_it():
    tab = Table(1, 9, occupant={1: 11, 3: 13, 5: 15})
    tab.first_hand(1)
    assert (tab.button, tab.sb, tab.bb) == (1, 3, 5)
    tab.occupant[7] = 17
    tab.waiting.add(7)
    tab.sits_out.add(7)
    tab.advance()  # button 3: not past seat 7 yet, the big blind skips it
    assert (tab.button, tab.bb) == (3, 1) and not tab.dealt(7)
    tab.advance()  # button 5
    assert tab.button == 5 and not tab.dealt(7)
    tab.advance()  # the button goes from 5 to 1, past seat 7: dealt in
    assert tab.button == 1 and tab.dealt(7) and not tab.sits_out


def test_nobody_sits_out_where_fewer_than_two_others_are_dealt_in():
    t = club_003(16)
    frm = t.tables[1]
    two = Table(5, 9, occupant={1: 901, 4: 904})
    two.first_hand(1)
    assert seating.sits_out(t, frm, frm.bb, t.tables[2])  # 8 dealt in there
    assert seating.sits_out(t, frm, frm.bb, two)  # two others dealt in
    one = Table(6, 9, occupant={1: 901})
    one.first_hand(1)
    assert not seating.sits_out(t, frm, frm.bb, one)
    # a table left with one player dealt in deals the one sitting out at once
    tab = Table(1, 9, occupant={1: 11, 3: 13, 5: 15})
    tab.first_hand(1)
    tab.occupant[7] = 17
    tab.waiting.add(7)
    tab.sits_out.add(7)
    del tab.occupant[3]
    del tab.occupant[5]
    tab.advance()
    assert tab.dealt(7) and tab.dealt_count() == 2


# -- the player's choice (003 12 "kann"): dealt in at once with ``deal_in``


def sitting_out(t: Tournament, table: int = 2) -> tuple[int, int]:
    """The big blind of table 1 reseated to a seat at ``table`` that no arrival waits at
    (000 4.10): it sits out only because of 003 12. (player, seat)."""
    old = t.tables[1]
    pid = old.occupant[old.bb]
    new = t.tables[table]
    seat = next(s for s in range(1, new.size + 1)
                if s not in new.occupant and not new.arrival_waits(s))
    [e] = t.execute({"cmd": "reseat", "player": pid, "table": table, "seat": seat,
                     "reason": "Rollstuhl"}, 5.0)
    assert e["sits_out"] is True and seat in new.sits_out and seat in new.waiting
    return pid, seat


def test_a_moved_blind_who_wants_to_play_is_dealt_in_at_once_003_12():
    """Before: no command; the player sat out until the button had passed."""
    t = club_003(16)
    pid, seat = sitting_out(t)
    tab = t.tables[2]
    [row] = [s for s in views.table_view(t, 2)["seats"] if s["seat"] == seat]
    assert row["waiting"] is True and row["sits_out"] is True
    [e] = t.execute({"cmd": "deal_in", "player": t.players[pid].name}, 6.0)
    assert e["type"] == "dealt_in" and (e["player"], e["table"], e["seat"]) == (pid, 2, seat)
    assert "waits" not in e and seat not in tab.sits_out and tab.dealt(seat)
    # the screens' "waits for the button" is gone: the seat and the move
    [row] = [s for s in views.table_view(t, 2)["seats"] if s["seat"] == seat]
    assert row["waiting"] is False and "sits_out" not in row
    assert [m["waiting_for_button"] for m in views.table_view(t, 2)["moves_in"]] == [False]
    replay_equal(t)
    t.execute({"cmd": "hand_done", "table": 2}, 7.0)
    assert tab.dealt(seat)


def test_deal_in_is_undone_and_the_player_sits_out_again():
    t = club_003(16)
    pid, seat = sitting_out(t)
    tab = t.tables[2]
    t.execute({"cmd": "deal_in", "player": pid}, 6.0)
    t.execute({"cmd": "undo"}, 7.0)
    tab = t.tables[2]
    assert seat in tab.sits_out and seat in tab.waiting and not tab.dealt(seat)
    assert [m["waiting_for_button"] for m in views.table_view(t, 2)["moves_in"]] == [True]
    replay_equal(t)


def test_deal_in_is_refused_for_a_player_who_does_not_sit_out():
    t = club_003(16)
    tab = t.tables[1]
    pid = tab.occupant[min(tab.occupant)]
    before = len(t.log)
    with pytest.raises(Rejected, match=r"does not sit out at table 1 seat \d+: only a player "
                       r"moved after posting a blind sits out until the button has passed"):
        t.execute({"cmd": "deal_in", "player": pid}, 6.0)
    pid2, seat = sitting_out(t)
    t.execute({"cmd": "deal_in", "player": pid2}, 6.0)
    with pytest.raises(Rejected, match="does not sit out"):  # a second time
        t.execute({"cmd": "deal_in", "player": pid2}, 6.5)
    assert len(t.log) == before + 2  # the reseat and the one deal_in



def test_deal_in_between_the_button_and_the_small_blind_still_waits_and_says_so_000_4_10():
    """Only the sitting out is taken back: the seat waits for the button as every
    arrival's there, and the answer says so (a fresh clone's console test met that seat
    and read "dealt in" while the table screen still showed "waits for the button")."""
    from controller.engine import history
    from controller.wire import wording

    t = club_003(16)
    new = t.tables[2]
    for hand in range(2 * new.size):  # until a free seat lies between button and small blind
        waiting = [s for s in range(1, new.size + 1)
                   if s not in new.occupant and new.arrival_waits(s)]
        if waiting:
            break
        t.execute({"cmd": "hand_done", "table": 2}, 1.0 + hand)
    old = t.tables[1]
    pid = old.occupant[old.bb]
    t.execute({"cmd": "reseat", "player": pid, "table": 2, "seat": waiting[0],
               "reason": "Rollstuhl"}, 50.0)
    [e] = t.execute({"cmd": "deal_in", "player": pid}, 51.0)
    assert e["waits"] is True
    assert waiting[0] not in new.sits_out and waiting[0] in new.waiting
    [row] = [s for s in views.table_view(t, 2)["seats"] if s["seat"] == waiting[0]]
    assert row["waiting"] is True and "sits_out" not in row
    said = history.event(t, t.log[-1])
    assert said is not None
    assert said.text.endswith("still waits for the button as every arrival's between the "
                              "button and the small blind (000 4.10)")
    assert wording.phrase(said.as_dict(), "de").endswith(
        "der Platz wartet noch auf den Button wie jeder Neuankömmling zwischen Button und "
        "Small Blind (000 4.10)")
    replay_equal(t)
