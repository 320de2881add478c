"""Announcements (issue 12): a banner the director puts on every screen ("Add-on jetzt
möglich"). An event in the log like any decision of the floor (000 3.3: the record is
what was decided), so it survives a controller restart, replays, and can be undone."""

from __future__ import annotations

import pytest

from controller.engine import history
from controller.engine.rules.announcements import showing
from controller.engine.tournament import Rejected, Tournament
from controller.log.floor import Floor
from controller.service import views
from tests.support.settings import make_settings, new_tournament


def test_announce_puts_a_banner_up_for_minutes_and_clear_takes_it_down():
    t = new_tournament(12)
    events = t.execute({"cmd": "announce", "text": "  Add-on jetzt\n möglich ",
                        "minutes": 10}, 1000.0)
    e = events[0]
    assert e["type"] == "announced" and e["text"] == "Add-on jetzt möglich"
    assert e["until"] == 1600.0
    assert views.announcement_view(t) == {"v": 1, "text": "Add-on jetzt möglich",
                                          "since": 1000.0, "until": 1600.0}
    assert showing(t, 1599.0) is not None and showing(t, 1600.0) is None
    # a new one replaces it; without minutes it stays until the next one
    t.execute({"cmd": "announce", "text": "Pause 15 Minuten"}, 1100.0)
    assert views.announcement_view(t)["until"] is None
    t.execute({"cmd": "announce", "clear": True}, 1200.0)
    assert views.announcement_view(t) == {"v": 1, "text": None, "since": None, "until": None}


@pytest.mark.parametrize(("args", "reason"), [
    ({}, "say what to announce"),
    ({"text": "   "}, "say what to announce"),
    ({"clear": True}, "no announcement to clear"),
    ({"clear": True, "text": "x"}, "clear takes no text"),
    ({"text": "x" * 121}, "at most 120 long"),
    ({"text": "x", "minutes": 0}, "more than 0"),
])
def test_a_bad_announcement_is_refused_and_changes_nothing(args, reason):
    t = new_tournament(12)
    before = len(t.log)
    with pytest.raises(Rejected, match=reason):
        t.execute({"cmd": "announce", **args}, 10.0)
    assert len(t.log) == before and t.announcement is None


def test_a_banner_whose_time_ran_out_cannot_be_cleared():
    t = new_tournament(12)
    t.execute({"cmd": "announce", "text": "Add-on", "minutes": 1}, 0.0)
    with pytest.raises(Rejected, match="no announcement to clear"):
        t.execute({"cmd": "announce", "clear": True}, 61.0)


def test_the_banner_survives_a_restart_and_an_undo_takes_it_back(tmp_path):
    """000 3.3: replaying the durable log gives the banner back; an undo is a new entry."""
    path = tmp_path / "night.sqlite"
    f = Floor.open(make_settings(), path, seed=1)
    assert f.execute({"cmd": "register", "names": ["A", "B", "C"]}, 1.0)["ok"]
    answer = f.execute({"cmd": "announce", "text": "Add-on jetzt möglich"}, 2.0)
    assert answer["ok"]
    f.close()
    again = Floor.open(make_settings(), path, seed=1)
    assert views.announcement_view(again.tournament)["text"] == "Add-on jetzt möglich"
    t = again.tournament
    rows = history.recent(t)
    assert rows[-1]["text"] == "announced “Add-on jetzt möglich”"
    assert again.execute({"cmd": "undo", "target": answer["events"][0]}, 3.0)["ok"]
    assert again.tournament.announcement is None
    assert Tournament.replay(again.tournament.log).fingerprint() == \
        again.tournament.fingerprint()
    again.close()
