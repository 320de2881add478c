"""An undo near the final table and near a balancing move (issue 26, points 3 and 8).

000 3.3: a correction is an explicit entry in the record, and an undo must never reseat
players silently who have played on at their new seats. A seating decision a command made
(the final table, a broken table) that the floor has played on since keeps the undo from
going through: it is refused with what was played there, newest first. A balancing move
the undone bust called for goes with the undo while the mover has not sat down yet; once
the move is carried out it stays, and the undo says so.
"""

from __future__ import annotations

from controller.engine import history
from controller.engine.tournament import Tournament
from tests.support.settings import new_tournament, rejected, replay_equal

SIX = {"players_per_table": 6, "table_seats": 6, "final_table_size": 6}


def _bust(t: Tournament, table: int, now: float) -> list[dict]:
    seat = sorted(s for s, p in t.tables[table].occupant.items() if not t.players[p].ghost)[0]
    return t.execute({"cmd": "bust", "table": table, "seat": seat}, now)


def _seats(t: Tournament) -> dict[int, tuple[int | None, int | None]]:
    return {p.id: (p.table, p.seat) for p in t.players.values() if not p.out}


# ------------------------------------------------------------------ 26.3
def test_the_bust_that_drew_the_final_table_is_refused_once_it_was_played_on_000_3_3():
    """10 on two tables: the bust of one draws the final table at table 1; a hand there,
    another bust, another hand. Undoing the first bust would draw a new final table and
    give every player a new seat: it is refused, naming the hands and the bust played at
    the final table since, and nothing moves."""
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    assert [e["type"] for e in first] == ["busted", "final_table"]
    hd1 = t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    second = _bust(t, 1, 12.0)
    hd2 = t.execute({"cmd": "hand_done", "table": 1}, 13.0)
    seats = _seats(t)
    reason = rejected(t, {"cmd": "undo", "target": first[0]["seq"]}, 14.0)
    busted = t.players[first[0]["player"]].name
    assert reason.startswith(f"cannot undo the bust of {busted}, table 2 seat "
                             f"{first[0]['seat']}, place 10 (event {first[0]['seq']}): "
                             "the seats it drew (final table at table 1) have been played on "
                             "since: ")
    for g in (hd2, second, hd1):
        assert f"#{g[0]['seq']} " in reason
    assert (f"undo --event {hd2[0]['seq']} then undo --event {second[0]['seq']} then "
            f"undo --event {hd1[0]['seq']}") in reason
    assert _seats(t) == seats and t.final_table == 1
    assert t.broken == [2]
    replay_equal(t)


def test_done_as_the_refusal_says_the_final_table_goes_with_the_bust_000_3_3():
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    hd1 = t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    t.execute({"cmd": "undo", "target": hd1[0]["seq"]}, 12.0)
    assert t.counts() == {1: 9}
    t.execute({"cmd": "undo", "target": first[0]["seq"]}, 13.0)
    assert t.counts() == {1: 5, 2: 5} and t.final_table is None
    replay_equal(t)


def test_the_final_table_drawn_by_a_bust_goes_with_its_undo_while_nobody_played_000_3_3():
    t = new_tournament(10)
    seats = _seats(t)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "undo", "target": first[0]["seq"]}, 11.0)
    assert _seats(t) == seats and t.final_table is None


def test_a_bust_that_broke_a_table_is_refused_once_a_hand_was_played_there_000_3_3():
    """18 at 6/6/6: the sixth bust leaves 12, table 3 breaks onto tables 1 and 2. Once a
    hand is over at a table that took its players, the bust's undo would send them back
    to the broken table: refused, naming that hand."""
    t = new_tournament(18, **SIX)
    for i in range(5):
        _bust(t, 1 + i % 2, 10.0 + i)
    last = _bust(t, 3, 20.0)
    broke = next(e for e in last if e["type"] == "table_broken")
    to = sorted({m[1] for m in broke["moves"]})
    hd = t.execute({"cmd": "hand_done", "table": to[0]}, 21.0)
    seats = _seats(t)
    reason = rejected(t, {"cmd": "undo", "target": last[0]["seq"]}, 22.0)
    assert f"(table 3 breaks) have been played on since: #{hd[0]['seq']} hand done" in reason
    assert _seats(t) == seats
    # a hand done at a table that took nobody from table 3 stands on nothing
    other = [n for n in t.tables if n not in to]
    assert not other or t.execute({"cmd": "hand_done", "table": other[0]}, 23.0)


def test_the_refusal_says_it_in_german():
    from controller import wording
    from controller.engine.commands import Rejected

    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    try:
        t.execute({"cmd": "undo", "target": first[0]["seq"]}, 12.0)
    except Rejected as why:
        german = wording.reason({"reason": str(why), "why": why.as_dict()}, "de")
    assert german.startswith("„Ausscheiden von ")
    assert "Finaltisch an Tisch 1" in german and "Hand fertig an Tisch 1" in german


def test_the_history_of_the_refused_undo_is_unchanged():
    t = new_tournament(10)
    first = _bust(t, 2, 10.0)
    t.execute({"cmd": "hand_done", "table": 1}, 11.0)
    rows = history.recent(t, 5)
    rejected(t, {"cmd": "undo", "target": first[0]["seq"]}, 12.0)
    assert history.recent(t, 5) == rows
