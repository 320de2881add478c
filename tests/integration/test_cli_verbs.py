"""Every director verb of the command line against a running controller: one readable line,
exit 0 when accepted; a rejection prints the reason and exits 1 with nothing changed."""

from __future__ import annotations

import csv
import io
import json
import re

from tests.support.controller import floorman, floorman_cli, floorman_json
from tests.support.waiting import free_port


def test_every_director_verb(broker, prefix, controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)

    def ok(*args: str) -> str:
        r = floorman(b, *args)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
        out = r.stdout.strip()
        assert out, args
        return out

    def rejected(*args: str) -> str:
        before = floorman_json(b, "status")["result"]["summary"]
        r = floorman(b, *args)
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert r.stderr.startswith("rejected: "), r.stderr
        assert floorman_json(b, "status")["result"]["summary"] == before
        return r.stderr

    names = [f"Player {i}" for i in range(1, 21)]
    assert ok("register", *names).startswith("registered 20 players")
    assert ok("register", "--guest", "Gast Eins") == "registered Gast Eins"
    assert "seats drawn" in ok("draw")
    assert ok("start") == "clock start"
    assert "level 1" in ok("status")
    assert ok("pause") == "clock pause"
    assert "paused" in ok("status")
    assert ok("resume") == "clock resume"
    assert ok("level", "next") == "clock level"
    assert "level 2" in ok("status")
    assert ok("level", "prev") == "clock level"
    assert ok("level", "set", "3") == "clock level"
    assert ok("time", "set", "5:00") == "clock set"
    # the time set is 5:00; a loaded machine may take seconds to start the status command
    left = re.search(r"(\d+):(\d\d) left", ok("status"))
    assert left and 280 <= int(left[1]) * 60 + int(left[2]) <= 300, left
    assert ok("time", "remove", "1:00") == "clock add"
    assert ok("late", "Spaete", "Spielerin") == "registered Spaete Spielerin; late entry"
    assert "time call start" in ok("time-call", "1")
    assert "time call cancel" in ok("time-call", "1", "cancel")
    assert "hand done" in ok("hand-done", "1")
    st = json.loads(floorman(b, "status", "--json").stdout)
    assert st["ok"] and st["result"]["summary"]["players_left"] == 22
    assert "out in place" in ok("bust", "Player 1", "--stack", "1500")
    assert "undone event" in ok("undo")
    assert "out in place" in ok("bust", "Player 1")
    assert ok("moves")
    assert ok("hfh", "on").startswith("hand-for-hand on")
    assert ok("hfh", "off").startswith("hand-for-hand off")
    assert ok("hands-left", "3") == "hands left"
    res = ok("results")
    assert "Player 1" in res
    rows = list(csv.DictReader(io.StringIO(floorman(b, "results", "--csv").stdout)))
    assert rows and rows[0]["name"] == "Player 1"
    assert floorman_json(b, "results")["result"]["rows"][0]["name"] == "Player 1"

    # impossible commands: a reason, exit 1, nothing changed
    assert "is already out" in rejected("bust", "Player 1")
    assert "is not in play" in rejected("bust", "9", "1")
    assert "no player called" in rejected("rebuy", "Nobody")
    assert "no rebuy left" in rejected("rebuy", "Player 1")
    assert "has no add-on" in rejected("addon")
    assert "already registered" in rejected("register", "Player 2")
    assert "there is no level 99" in rejected("level", "set", "99")
    # 21 players on three tables of 9: after one move apply (if the bust left 8/7/6) the
    # tables are balanced; too many for one table, no room to break one
    r = floorman(b, "move", "apply")
    assert (r.returncode == 0 and r.stdout.startswith("move ")) or \
        "the tables are balanced" in r.stderr
    assert "the tables are balanced" in rejected("move", "apply")
    assert "do not fit at one table" in rejected("final-table")
    assert "free seats for" in rejected("break-table", "2")


def test_unreachable_broker_is_a_clear_error(tmp_path):
    r = floorman_cli("status", "--broker", f"127.0.0.1:{free_port()}", "--prefix", "nowhere")
    assert r.returncode == 2
    assert "cannot reach the broker at 127.0.0.1:" in r.stderr
