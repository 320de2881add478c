"""Issue 26.7: a new level applies from the next hand, at each table (000 9.6, 001 §1 IX,
002, 003 14, TDA R23). Until its hand in play is done ("hand done"), a table keeps the
blinds of the level its hand began in; the table's view says so (``hand_level``)."""

from __future__ import annotations

from controller.engine.rules import hands
from controller.service import views
from tests.support.settings import new_tournament, replay_equal

# make_settings: 600 s levels from the start at 2 s; a break after the fourth level
END_0, END_1 = 602.0, 1202.0


def _tick(t, now: float) -> None:
    t.execute({"cmd": "tick"}, now)


def test_a_table_whose_hand_began_in_the_old_level_keeps_its_blinds_000_9_6() -> None:
    t = new_tournament(18)
    assert sorted(t.tables) == [1, 2]
    t.execute({"cmd": "hand_done", "table": 1}, 500.0)  # table 1 deals a hand at level 1
    t.execute({"cmd": "hand_done", "table": 2}, 450.0)  # and table 2
    _tick(t, END_0 + 0.5)
    assert t.level_announced == 1
    assert hands.hand_level(t, 1) == 0 and hands.hand_level(t, 2) == 0
    view = views.table_view(t, 1, now=END_0 + 1)
    assert view["hand_level"]["index"] == 0 and view["hand_level"]["big_blind"] == 50
    # table 1's hand ends: its next hand is dealt at the new level; table 2 still plays
    t.execute({"cmd": "hand_done", "table": 1}, END_0 + 40)
    assert hands.hand_level(t, 1) is None and hands.hand_level(t, 2) == 0
    assert "hand_level" not in views.table_view(t, 1, now=END_0 + 41)
    assert views.table_view(t, 2, now=END_0 + 41)["hand_level"]["number"] == 1
    replay_equal(t)
    # the undo of table 1's hand done gives the hand in play back its old blinds
    t.execute({"cmd": "undo", "table": 1}, END_0 + 50)
    assert hands.hand_level(t, 1) == 0
    replay_equal(t)


def test_a_hand_done_in_the_same_moment_as_the_change_begins_a_hand_of_the_new_level() -> None:
    """No tick between the level's end and the hand done: the hand done's event comes
    first, the level's right after it, at the same time; the new hand is the new level's."""
    t = new_tournament(18)
    t.execute({"cmd": "hand_done", "table": 2}, 450.0)
    t.execute({"cmd": "hand_done", "table": 1}, END_0 + 3)
    assert t.level_announced == 1
    assert hands.hand_level(t, 1) is None
    assert hands.hand_level(t, 2) == 0


def test_a_forgotten_hand_done_shows_the_clocks_blinds() -> None:
    """A hand that began before the level before, or so long before the change that the
    table's "hand done" reminder was due (5 minutes): a "hand done" was forgotten, and the
    blinds on the clock are the best guess."""
    t = new_tournament(18)
    t.execute({"cmd": "hand_done", "table": 1}, 280.0)  # 5 min 22 s before the change
    _tick(t, END_0 + 1)
    assert t.level_announced == 1
    assert hands.hand_level(t, 1) is None and hands.hand_level(t, 2) is None
    _tick(t, END_1 + 1)
    assert t.level_announced == 2
    assert hands.hand_level(t, 1) is None and hands.hand_level(t, 2) is None


def test_after_a_break_every_table_deals_at_the_new_level() -> None:
    t = new_tournament(18)
    for end in (602.0, 1202.0, 1802.0, 2402.0):  # levels 1-4, then the break
        _tick(t, end + 1)
        t.execute({"cmd": "hand_done", "table": 1}, end + 2)
        t.execute({"cmd": "hand_done", "table": 2}, end + 2)
    assert t.settings.structure[t.level_announced].is_break
    assert hands.hand_level(t, 1) is None
    _tick(t, 3002.0 + 1)  # the break ends: level 5
    assert not t.settings.structure[t.level_announced].is_break
    assert hands.hand_level(t, 1) is None and hands.hand_level(t, 2) is None


def test_the_directors_level_next_keeps_the_hand_at_its_level_a_jump_does_not() -> None:
    t = new_tournament(18)
    t.execute({"cmd": "hand_done", "table": 1}, 300.0)
    t.execute({"cmd": "level", "to": "next"}, 310.0)
    assert t.level_announced == 1
    assert hands.hand_level(t, 1) == 0
    replay_equal(t)
    t.execute({"cmd": "level", "to": 4}, 320.0)  # a jump: the clock's blinds
    assert t.level_announced == 3
    assert hands.hand_level(t, 1) is None
