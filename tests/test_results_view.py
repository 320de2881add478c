"""The retained results while a festival runs (issue 15): the last players out only.

Scoring a field of 10,000 at every bust cost ~50 ms and sent 700 KB to every screen
once 5,000 were out; the topic carries the last :data:`views.LIVE_ROWS` out (places
only) while more are out, every place when the tournament is over, and the director's
``results`` query every place, scored, at any time."""

from __future__ import annotations

from controller.service import views
from controller.wire import protocol
from tests.support.settings import new_tournament


def bust_down(t, left: int, now: float = 10.0) -> float:
    """Bust at the fullest table (its highest seat) until ``left`` players are in."""
    while t.remaining > left:
        tab = max(t.tables.values(), key=lambda x: (x.count(), x.number))
        now += 1.0
        t.execute({"cmd": "bust", "table": tab.number, "seat": max(tab.occupant),
                   "confirm": True}, now)
        for n in sorted(t.tables) if not t.finished else ():  # moves are made at a hand done
            now += 0.1
            t.execute({"cmd": "hand_done", "table": n}, now)
    return now


def test_a_club_night_has_every_place_scored():
    t = new_tournament(40)
    bust_down(t, 10)
    res = views.results_view(t)
    protocol.validate_state("results", res)
    assert res["complete"] is True and len(res["rows"]) == 30
    assert [r["place"] for r in res["rows"]] == list(range(11, 41))
    assert all("points" in r for r in res["rows"])


def test_a_big_field_shows_the_last_out_while_it_runs_and_every_place_at_the_end():
    t = new_tournament(120)
    now = bust_down(t, 40)  # 80 out: more than LIVE_ROWS
    live = views.results_view(t)
    protocol.validate_state("results", live)
    whole = views.results_view(t, whole=True)
    protocol.validate_state("results", whole)
    assert live["complete"] is False and whole["complete"] is True
    assert len(whole["rows"]) == 80 and all("points" in r for r in whole["rows"])
    # the last 60 out: the best places so far, the same places and names as the whole
    assert len(live["rows"]) == views.LIVE_ROWS == 60
    assert live["rows"] == [{"place": r["place"], "name": r["name"]}
                            for r in whole["rows"][:60]]
    assert [r["place"] for r in live["rows"]] == list(range(41, 101))
    # a late entry moves every place out by one: the window follows
    t.execute({"cmd": "late", "name": "Spät", "force": True}, now + 1)
    assert views.results_view(t)["rows"][0]["place"] == 42
    bust_down(t, 1, now + 2)
    end = views.results_view(t)
    assert t.finished and end["finished"] and end["complete"]
    assert [r["place"] for r in end["rows"]] == list(range(1, 122))


def test_the_window_ranks_a_shared_hand_as_the_whole_does():
    """Two players out in one hand at one table share by their stacks (000 9.5): the
    window's places are the whole ranking's, group by group."""
    t = new_tournament(90)
    now = bust_down(t, 20)
    tab = max(t.tables.values(), key=lambda x: x.count())
    a, b = sorted(tab.occupant)[-2:]
    t.execute({"cmd": "bust", "table": tab.number, "seat": a, "stack": 500}, now + 1)
    t.execute({"cmd": "bust", "table": tab.number, "seat": b, "stack": 500,
               "same_hand": True, "confirm": True}, now + 2)
    whole = views.results_view(t, whole=True)["rows"]
    live = views.results_view(t)["rows"]
    assert live[0]["place"] == live[1]["place"] == 19  # shared
    assert live == [{"place": r["place"], "name": r["name"]} for r in whole[:60]]


def test_a_bust_s_answer_names_the_place_without_ranking_the_field():
    """``places_of`` gives what ``places`` gives, for the last out, for one out long ago,
    for one still in (nothing), and at the end (the winner's 1)."""
    t = new_tournament(90)
    now = bust_down(t, 30)
    every = t.places()
    last = max(every, key=lambda pid: -every[pid])
    first_out = max(every, key=lambda pid: every[pid])
    playing = next(p.id for p in t.players.values() if not p.out)
    assert t.places_of([last, first_out, playing]) == {last: 31, first_out: 90}
    bust_down(t, 1, now)
    assert t.places_of([t.winner, first_out]) == {t.winner: 1, first_out: 90}


def test_the_disqualified_are_listed_with_their_reason_until_it_is_undone():
    """000 3.8: out of the ranking, listed apart with the director's reason (kept in the
    state: the view does not search the log for it at every bust)."""
    t = new_tournament(20)
    t.execute({"cmd": "disqualify", "player": 3, "reason": "chips passed"}, 20.0)
    t.execute({"cmd": "disqualify", "player": 5}, 21.0)
    res = views.results_view(t)
    protocol.validate_state("results", res)
    assert [(d["player_id"], d["reason"]) for d in res["disqualified"]] == \
        [(3, "chips passed"), (5, "")]
    t.execute({"cmd": "undo"}, 22.0)
    assert [(d["player_id"], d["reason"]) for d in views.results_view(t)["disqualified"]] \
        == [(3, "chips passed")]
