"""A small tournament driven through the director's CLI and simulated table clients,
with a real Mosquitto and the controller in its own process."""

from __future__ import annotations

from kiosk.link import Link
from tests.support.controller import floorman, floorman_json
from tests.support.waiting import wait_for


def test_small_tournament_cli_and_tables(broker, prefix, controller_factory):
    controller_factory()
    b = broker.for_prefix(prefix)
    names = [f"P{i}" for i in range(1, 13)]
    r = floorman(b, "register", *names)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("registered 12 players: P1, P2")
    assert floorman(b, "draw").returncode == 0
    assert floorman(b, "start").returncode == 0

    status = floorman_json(b, "status")["result"]["summary"]
    assert status["players_left"] == 12 and status["tables"] == [1, 2]

    links = {n: Link(b, table=n) for n in (1, 2)}
    for link in links.values():
        link.start()
    try:
        for n, link in links.items():
            wait_for(lambda link=link, n=n: f"table/{n}" in link.state, what=f"table {n} state")
        # a late subscriber draws from retained messages alone
        seats = links[1].state["table/1"]["seats"]
        assert len(seats) == 6
        # a bust pressed at table 1 gets a place
        seat = seats[0]["seat"]
        cid = links[1].press("bust", seat=seat)
        ans = wait_for(lambda: links[1].answers.get(cid), what="bust answer")
        assert ans["ok"], ans
        assert "place 12" in ans["message"]
        # an empty seat is rejected with a reason a person can read
        cid = links[1].press("bust", seat=seat)
        ans = wait_for(lambda: links[1].answers.get(cid), what="rejection")
        assert not ans["ok"] and ans["reason"] == f"seat {seat} at table 1 is empty"
        # play on by bust and hand done until one player is left
        while True:
            s = floorman_json(b, "status")["result"]["summary"]
            if s["finished"]:
                break
            t = s["tables"][-1]
            link = links.get(t) or links[1]
            wait_for(lambda link=link, t=t: link.state.get(f"table/{t}", {}).get("seats"),
                     what="seats")
            seats = link.state[f"table/{t}"]["seats"]
            # the dealer busts a player who sits there; one still on the way (a move not
            # done yet) is confirmed (issue 10.2)
            here = [x["seat"] for x in seats if not x["incoming"]]
            r = floorman(b, "bust", str(t), str((here or [x["seat"] for x in seats])[0]),
                         *([] if here else ["--confirm"]))
            assert r.returncode == 0, r.stderr
            floorman(b, "hand-done", str(t))
        res = floorman(b, "results")
        assert res.returncode == 0
        lines = res.stdout.strip().splitlines()
        assert len(lines) == 12 and lines[0].strip().startswith("1.")
        wait_for(lambda: links[1].state.get("summary", {}).get("finished"), what="finished state")
    finally:
        for link in links.values():
            link.stop()
