"""Issue 15: a festival's room shrinks at once when the late registration closes.

While entries are open the tables stay (issue 10.5); when the registration closes,
every table the others can seat breaks, one a round of reactions. With 100 tables a
third or more break at once: the engine's loop of reactions must come to rest, not
stop after a fixed 50 rounds (000 4.6, TDA 10B: a table breaks as soon as the others
can seat its players)."""

from __future__ import annotations

from controller.engine.settings import Entries
from tests.support.settings import new_tournament, replay_equal


def test_66_of_100_tables_break_in_one_command_when_the_registration_closes_000_4_6():
    t = new_tournament(900, entries=Entries(late_registration_levels=1))
    assert len(t.tables) == 100
    # down to three players a table (3 x 100 seated: the tables stay while entries are open)
    for tab in list(t.tables.values()):
        for seat in sorted(tab.occupant)[3:]:
            t.execute({"cmd": "bust", "table": tab.number, "seat": seat}, 10.0)
    assert len(t.tables) == 100 and t.remaining == 300
    # the first level ends (600 s after the start at 2 s): the registration closes
    events = t.execute({"cmd": "tick"}, 700.0)
    broken = [e for e in events if e["type"] == "table_broken"]
    assert len(broken) == 66 > 50  # more breaks than the old fixed limit of rounds
    assert len(t.tables) == 300 // 9 + 1 == 34  # 300 players on 9-seat tables
    assert sum(x.count() for x in t.tables.values()) == 300
    replay_equal(t)


def test_table_numbers_go_to_the_protocols_highest_and_no_further(monkeypatch):
    """A draw or a late entry that would need a table number no topic, account or screen
    takes is rejected and changes nothing (9999 in play: :data:`commands.MAX_TABLES`;
    lowered here so a few players reach it)."""
    from controller.engine import commands
    from tests.support.settings import rejected

    monkeypatch.setattr(commands, "MAX_TABLES", 2)
    t = new_tournament(19, draw=False, start=False)  # 9 a table: 3 tables
    assert "19 players need 3 tables; table numbers go up to 2" in rejected(
        t, {"cmd": "draw"}, 1.0)
    t = new_tournament(18, entries=Entries(late_registration_levels=3))
    assert t.counts() == {1: 9, 2: 9}
    assert "every table number up to 2 is in play" in rejected(
        t, {"cmd": "late", "name": "Neu"}, 50.0)
    monkeypatch.setattr(commands, "MAX_TABLES", 3)
    t.execute({"cmd": "late", "name": "Neu"}, 50.0)
    assert sorted(t.tables) == [1, 2, 3]
