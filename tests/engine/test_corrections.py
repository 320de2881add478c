"""Corrections a tired director makes: undo a registration batch and register again, a
typo in a name (rename), a name registered by mistake (unregister before the draw).

000 3.3: the record is what the floor decided; a correction is one more event in it,
never an edit, and the replay of the log gives the corrected state.
"""

from __future__ import annotations

import pytest

from controller.engine.tournament import Rejected, Tournament
from controller.log.floor import Floor
from tests.support.settings import make_settings, new_tournament


def _names(t: Tournament) -> dict[int, str]:
    return {p.id: p.name for p in t.players.values() if not p.ghost}


def test_undo_of_an_earlier_batch_then_register_again_000_3_3():
    """issue 10.7: the batch undone was not the last; its names come back with new ids."""
    t = new_tournament(draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Karl Meier", "Anna Roth", "Jonas Weber"]}, 0.0)
    second = t.execute({"cmd": "register", "names": ["Sarah Krause", "Tim Wolf"]}, 0.0)
    t.execute({"cmd": "undo", "target": 2}, 0.0)
    assert _names(t) == {4: "Sarah Krause", 5: "Tim Wolf"}
    again = t.execute({"cmd": "register", "names": ["Karl Meier", "Anna Roth", "Jonas Weber"]},
                      0.0)
    assert [e["player"] for e in again] == [6, 7, 8]  # never an id that is in use
    assert second[0]["player"] == 4
    t.execute({"cmd": "register", "names": ["Greta Sommer"]}, 0.0)
    assert len(t.players) == 6 and t.entries == 6 and t.remaining == 6
    t.execute({"cmd": "draw"}, 1.0)
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_ghost_seats_never_take_a_registered_players_id_000_9_5():
    """An unregister leaves a gap in the ids; the ghosts of the draw get fresh ids."""
    from controller.engine.settings import Ghosts

    t = new_tournament(draw=False, start=False, ghosts=Ghosts(enabled=True))
    t.execute({"cmd": "register", "names": [f"P{i}" for i in range(1, 13)]}, 0.0)
    t.execute({"cmd": "unregister", "player": "P3"}, 0.0)
    t.execute({"cmd": "draw"}, 1.0)
    real = {p.id: p.name for p in t.players.values() if not p.ghost}
    assert len(real) == 11 and 3 not in t.players
    assert all(t.players[pid].name == f"P{pid}" for pid in real)
    ghosts = [p for p in t.players.values() if p.ghost]
    assert [g.id for g in ghosts] == [13]  # 6 + 5 players: one ghost seat (000 9.6)
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_the_service_log_takes_the_batch_undo_and_the_new_registrations(tmp_path):
    """issue 10.7 through the durable floor: no 'internal error (InvalidEvent)' and every
    later register works (each is stored, and the log replays)."""
    path = tmp_path / "night.sqlite"
    f = Floor.open(make_settings(), path, seed=1)
    assert f.execute({"cmd": "register", "names": ["A", "B", "C"]}, 1.0)["ok"]
    assert f.execute({"cmd": "register", "names": ["D", "E"]}, 2.0)["ok"]
    assert f.execute({"cmd": "undo", "target": 2}, 3.0)["ok"]
    for names in (["A", "B", "C"], ["F"], ["G"]):
        answer = f.execute({"cmd": "register", "names": names}, 4.0)
        assert answer["ok"], answer
    live = f.tournament.fingerprint()
    f.close()
    again = Floor.open(make_settings(), path)
    assert again.tournament.fingerprint() == live
    assert sorted(p.name for p in again.tournament.players.values()) == list("ABCDEFG")
    again.close()


def test_rename_corrects_a_typo_everywhere_000_3_3():
    t = new_tournament(3)
    pid = t.player("Player 2").id
    seat = (t.players[pid].table, t.players[pid].seat)
    t.execute({"cmd": "rename", "player": "player 2", "name": "  Karl   Meier "}, 10.0)
    p = t.players[pid]
    assert p.name == "Karl Meier" and (p.table, p.seat) == seat
    assert t.player("karl meier") is p
    with pytest.raises(Rejected, match="no player called 'Player 2'"):
        t.player("Player 2")
    # a case correction of one's own name is a rename too
    t.execute({"cmd": "rename", "player": pid, "name": "Karl MEIER"}, 11.0)
    assert p.name == "Karl MEIER"
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


@pytest.mark.parametrize(("args", "reason"), [
    ({"player": "Player 1", "name": "player 3"}, "Player 3 is already registered"),
    ({"player": "Player 1", "name": "Player 1"}, "already called so"),
    ({"player": "Nobody", "name": "X"}, "no player called 'Nobody'"),
    ({"player": "Player 1", "name": "   "}, "must be text"),
])
def test_a_rename_that_would_confuse_two_players_is_refused(args, reason):
    t = new_tournament(3)
    before = t.fingerprint()
    with pytest.raises(Rejected, match=reason):
        t.execute({"cmd": "rename", **args}, 10.0)
    assert t.fingerprint() == before


def test_rename_shows_in_the_moves_of_the_screens():
    t = new_tournament(12, players_per_table=6, table_seats=6, final_table_size=6)
    t.execute({"cmd": "bust", "table": 1, "seat": sorted(t.tables[1].occupant)[0]}, 10.0)
    t.execute({"cmd": "bust", "table": 1, "seat": sorted(t.tables[1].occupant)[0]}, 11.0)
    t.execute({"cmd": "hand_done", "table": 2}, 12.0)
    (move,) = t.pending_moves()
    t.execute({"cmd": "rename", "player": move.player, "name": "Björn Weiß"}, 13.0)
    assert t.pending_moves()[0].name == "Björn Weiß"


def test_unregister_before_the_draw_takes_the_player_off_every_count():
    t = new_tournament(draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Karl Meier", "Anna Roth", "Jonas Weber"]}, 0.0)
    t.execute({"cmd": "unregister", "player": "anna roth"}, 1.0)
    assert _names(t) == {1: "Karl Meier", 3: "Jonas Weber"}
    assert (t.entries, t.remaining, t.chips, t.real_players()) == (2, 2, 20_000, 2)
    # the name is free again; the new entry gets a new id
    (e,) = t.execute({"cmd": "register", "names": ["Anna Roth"]}, 2.0)
    assert e["player"] == 4
    t.execute({"cmd": "draw"}, 3.0)
    assert Tournament.replay(t.log).fingerprint() == t.fingerprint()


def test_unregister_after_the_draw_is_refused_with_the_way_out():
    t = new_tournament(4)
    before = t.fingerprint()
    with pytest.raises(Rejected, match=r"seats are drawn: Player 1 .*table 1 seat \d+.*undo "
                                       r"the draw first, or bust the player"):
        t.execute({"cmd": "unregister", "player": "Player 1"}, 10.0)
    assert t.fingerprint() == before


def test_unregister_and_rename_can_be_undone():
    t = new_tournament(draw=False, start=False)
    t.execute({"cmd": "register", "names": ["Karl Meier", "Anna Roth"]}, 0.0)
    before = t.fingerprint()
    t.execute({"cmd": "unregister", "player": 2}, 1.0)
    t.execute({"cmd": "undo"}, 1.0)
    assert t.fingerprint() == before
    t.execute({"cmd": "rename", "player": 1, "name": "Karl Maier"}, 2.0)
    t.execute({"cmd": "undo"}, 2.0)
    assert t.fingerprint() == before
