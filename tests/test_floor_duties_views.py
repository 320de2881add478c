"""What the screens and the director are told of penalties, disqualifications and the
dealer (000 3.8, 3.11, 4.11): the retained payloads fit the protocol."""

from __future__ import annotations

from controller.engine.settings import Dealing
from controller.service import views
from controller.wire import protocol
from tests.support.settings import new_tournament


def test_the_table_payload_carries_the_penalties_and_fits_the_protocol():
    t = new_tournament(9)
    t.execute({"cmd": "penalty", "player": 3, "hands": 2}, 10.0)
    t.execute({"cmd": "penalty", "player": 4, "minutes": 5}, 10.0)
    tab = views.table_view(t, 1, now=20.0)
    protocol.validate_state("table/1", tab)
    seat3, seat4 = t.players[3].seat, t.players[4].seat
    assert {p["seat"]: (p["hands_left"], p["until"]) for p in tab["penalties"]} == {
        seat3: (2, None), seat4: (None, 310.0)}
    assert tab["dealer"] is None  # a croupier deals
    assert views.table_view(t, 1, now=310.0)["penalties"] == [
        {"seat": seat3, "player_id": 3, "hands_left": 2, "until": None, "owes_blinds": False}]


def test_the_dealer_in_the_table_payload_000_3_11():
    t = new_tournament(9, dealing=Dealing(players_deal=True))
    tab = views.table_view(t, 1, now=5.0)
    protocol.validate_state("table/1", tab)
    assert tab["dealer"]["seat"] == t.tables[1].button
    t.execute({"cmd": "bust", "player": 6}, 10.0)
    tab = views.table_view(t, 1, now=11.0)
    protocol.validate_state("table/1", tab)
    assert tab["dealer"] == {"player_id": 6, "name": "Player 6", "seat": None}


def test_results_and_players_list_the_disqualified_000_3_8():
    t = new_tournament(9)
    t.execute({"cmd": "disqualify", "player": 2, "reason": "chips passed"}, 10.0)
    t.execute({"cmd": "bust", "player": 5}, 20.0)
    res = views.results_view(t)
    protocol.validate_state("results", res)
    assert res["disqualified"] == [{"player_id": 2, "name": "Player 2",
                                    "reason": "chips passed"}]
    assert [r["name"] for r in res["rows"]] == ["Player 5"]
    assert res["rows"][0]["place"] == 8
    players = {p["player_id"]: p for p in views.players_view(t)["players"]}
    assert players[2]["status"] == "disqualified" and players[2]["place"] is None
