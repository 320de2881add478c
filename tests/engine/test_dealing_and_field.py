"""Who deals without a croupier (000 3.11) and the field sizes (001 §2 I-II, 002)."""

from __future__ import annotations

from controller.engine.rules.dealing import dealer
from controller.engine.settings import Dealing, FieldSize
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament, rejected, replay_equal

PLAYERS_DEAL = Dealing(players_deal=True)


def button_player(t: Tournament, table: int) -> int:
    tab = t.tables[table]
    assert tab.button is not None
    return tab.occupant[tab.button]


# ------------------------------------------------------------------- 000 3.11
def test_no_dealer_is_named_where_a_croupier_deals():
    t = new_tournament(9)
    assert dealer(t, t.tables[1]) is None


def test_the_deal_rotates_with_the_button_until_the_first_bust_000_3_11():
    """000 3.11: "Bis zum ersten Ausscheiden ... wechselt die Funktion des Dealers nach jeder
    gespielten Hand im Uhrzeigersinn"."""
    t = new_tournament(9, dealing=PLAYERS_DEAL)
    tab = t.tables[1]
    first = dealer(t, tab)
    assert first == (button_player(t, 1), tab.button)
    t.execute({"cmd": "hand_done", "table": 1}, 10.0)
    second = dealer(t, tab)
    assert second == (button_player(t, 1), tab.button)
    assert second != first
    assert second[1] == tab.clockwise(first[1])[0]  # type: ignore[index]  # next seat


def test_the_first_player_out_deals_until_the_next_is_out_000_3_11():
    """000 3.11: "Jener Spieler, der als Erstes ausscheidet soll die Dealer-Funktion solange
    übernehmen, bis der nächste Spieler seine gesamten Chips verloren hat"."""
    t = new_tournament(9, dealing=PLAYERS_DEAL)
    t.execute({"cmd": "bust", "player": 4}, 10.0)
    assert dealer(t, t.tables[1]) == (4, None)  # out, deals standing
    t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    assert dealer(t, t.tables[1]) == (4, None)  # the button moved, the dealer stays
    t.execute({"cmd": "bust", "player": 7}, 12.0)
    assert dealer(t, t.tables[1]) == (7, None)


def test_the_dealer_at_one_table_is_the_player_out_there():
    t = new_tournament(18, dealing=PLAYERS_DEAL)
    pid = t.tables[2].occupant[min(t.tables[2].occupant)]
    t.execute({"cmd": "bust", "player": pid}, 10.0)
    assert dealer(t, t.tables[2]) == (pid, None)
    assert dealer(t, t.tables[1]) == (button_player(t, 1), t.tables[1].button)


def test_a_disqualified_player_does_not_deal():
    t = new_tournament(9, dealing=PLAYERS_DEAL)
    t.execute({"cmd": "bust", "player": 4}, 10.0)
    t.execute({"cmd": "disqualify", "player": 5}, 11.0)
    assert dealer(t, t.tables[1]) == (4, None)


# --------------------------------------------------------------- 001 §2 I-II
def test_a_freeze_out_below_12_is_drawn_with_a_warning_001_2_i():
    """001 §2 I: "Freeze Out Turniere starten mit mindestens 12 und maximal 40 Spielern"."""
    t = new_tournament(10, start=False, field_size=FieldSize(min_players=12, max_players=40))
    warnings = [e for e in t.log if e["type"] == "field_warning"]
    assert t.drawn
    assert [(e["players"], e["min_players"], e["max_players"]) for e in warnings] == [
        (10, 12, 40)]
    draw_group = next(e["group"] for e in t.log if e["type"] == "seats_drawn")
    assert warnings[0]["group"] == draw_group  # in the draw's reply
    replay_equal(t)


def test_a_sit_and_go_above_11_is_warned_and_one_inside_is_not_001_2_ii():
    """001 §2 II: "Ein Sit & Go Tisch startet mit mindestens 8 und maximal 11 Spielern"."""
    sng = FieldSize(min_players=8, max_players=11)
    over = new_tournament(12, start=False, field_size=sng)
    assert [e["players"] for e in over.log if e["type"] == "field_warning"] == [12]
    inside = new_tournament(11, start=False, field_size=sng)
    assert not [e for e in inside.log if e["type"] == "field_warning"]


def test_a_table_starts_with_three_players_002():
    """002: "Das Spiel an einem Tisch wird erst ab drei Spielgästen begonnen"."""
    t = new_tournament(2, draw=False, start=False, field_size=FieldSize(min_per_table=3))
    rejected(t, {"cmd": "draw"}, 1.0, match="at least 3 players (002)")
    assert not t.drawn
    t.execute({"cmd": "register", "names": ["Player 3"]}, 1.0)
    t.execute({"cmd": "draw"}, 2.0)
    assert t.drawn


def test_no_table_of_the_draw_is_below_the_minimum_002():
    # 3 seats a table: 4 players would be 2 + 2
    t = new_tournament(4, draw=False, start=False, table_seats=3, players_per_table=3,
                       final_table_size=3, field_size=FieldSize(min_per_table=3))
    reason = rejected(t, {"cmd": "draw"}, 1.0)
    assert "a table of 2" in reason


def test_the_draws_answer_says_the_warning_001_2_i():
    from controller.engine import history

    t = new_tournament(10, draw=False, start=False,
                       field_size=FieldSize(min_players=12, max_players=40))
    events = t.execute({"cmd": "draw"}, 1.0)
    assert "warning: 10 players, this tournament is made for 12-40 (001 §2)" in \
        history.line(history.said(t, events))
