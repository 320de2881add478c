"""The players' own registration requests survive a console restart (issue 31, 000 2.2):
the console keeps them in its own small file in the tournament's data folder, written
whole and renamed over the old one, read back at start — not in the event log (a request
is no tournament event). The limits hold across the restart: 3 an address in 10
minutes, 200 waiting. Over HTTP, with the console app really stopped and started again
on the same file, against a real Mosquitto and controller."""

from __future__ import annotations

import json
import re
import sqlite3
import stat

import httpx

from controller.console import requests as player_requests
from tests.console.conftest import PASSWORD, start_console
from tests.support.controller import status, wait_up


def ask(url: str, name: str, contact: str) -> str:
    r = httpx.post(url + "/p/request", data={"name": name, "contact": contact},
                   follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"]


def signed_in(url: str) -> tuple[httpx.Client, str]:
    c = httpx.Client(base_url=url)
    assert c.post("/login", data={"password": PASSWORD},
                  follow_redirects=False).status_code == 303
    found = re.search(r'name="csrf" content="([^"]+)"', c.get("/").text)
    assert found
    return c, found.group(1)


def waiting(url: str) -> list[tuple[str, str]]:
    """The requests on the Spieler page, as the director sees them."""
    c, _ = signed_in(url)
    page = c.get("/players").text
    return re.findall(r'<span class="who">([^<]*)</span> <span class="contact">([^<]*)</span>',
                      page)


def test_requests_survive_a_console_restart_and_their_limits_hold(
        tmp_path, broker, prefix, controller_factory):
    log = tmp_path / "tournament.sqlite"
    controller_factory(db=log)
    b = broker.for_prefix(prefix)
    wait_up(b)
    store = tmp_path / "data" / "tournament.requests.json"
    first = start_console(b, tmp_path, requests_file=store)
    try:
        assert ask(first.url, "Lea Fischer", "lea@example.org").endswith("request_taken#request")
        assert ask(first.url, "Max Roth", "0664 123").endswith("request_taken#request")
    finally:
        first.stop()
    # the file: the console's own, this user's only, nothing half written left beside it
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert sorted(p.name for p in store.parent.iterdir()) == [store.name]
    kept = json.loads(store.read_text(encoding="utf-8"))
    assert [a["name"] for a in kept["pending"]] == ["Lea Fischer", "Max Roth"]

    second = start_console(b, tmp_path, requests_file=store)
    try:
        assert waiting(second.url) == [("Lea Fischer", "lea@example.org"),
                                       ("Max Roth", "0664 123")]
        # 3 an address in 10 minutes: the two before the restart count
        assert ask(second.url, "Nora Neu", "nora@example.org").endswith("request_taken#request")
        assert ask(second.url, "Olaf Ohne", "0664 9").endswith("request_too_many#request")
        # the director confirms one (a pre-registration in the log) and drops one
        c, csrf = signed_in(second.url)
        head = {"Accept": "application/json", "X-CSRF-Token": csrf}
        ids = {a.name: a.id for a in second.console.requests.pending.values()}
        r = c.post("/requests/confirm", data={"id": str(ids["Lea Fischer"])}, headers=head)
        assert r.json()["ok"] is True, r.text
        r = c.post("/requests/drop", data={"id": str(ids["Max Roth"])}, headers=head)
        assert r.json()["ok"] is True, r.text
    finally:
        second.stop()

    third = start_console(b, tmp_path, requests_file=store)
    try:
        assert waiting(third.url) == [("Nora Neu", "nora@example.org")]
        # a new request does not take an old one's number (a confirm names it by number)
        assert third.console.requests._next > max(ids.values())
    finally:
        third.stop()
    assert status(b)["summary"]["entries"] == 1  # Lea, confirmed
    # the event log has the confirmed registration's name, never a contact or a request
    with sqlite3.connect(log) as con:
        tables = [t for t, in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = " ".join(str(r) for t in tables
                        for r in con.execute(f"SELECT * FROM {t}"))  # noqa: S608 (its own)
    assert "Lea Fischer" in rows
    assert "lea@example.org" not in rows and "Nora Neu" not in rows


def test_a_damaged_store_is_put_aside_and_the_console_starts(tmp_path, caplog):
    store = tmp_path / "tournament.requests.json"
    store.write_text('{"v": 1, "pending": [{"id": 1, "na', encoding="utf-8")
    kept = player_requests.Requests(store)
    assert list(kept.pending) == []
    assert (tmp_path / "tournament.requests.json.damaged").exists()
    assert "damaged" in caplog.text
    kept.add("Lea Fischer", "lea@example.org", "10.0.0.7", 100.0)
    again = player_requests.Requests(store)
    assert [a.name for a in again.pending.values()] == ["Lea Fischer"]


def test_a_store_that_cannot_be_written_keeps_the_requests_in_memory(tmp_path, caplog):
    """A folder that is a file (root writes anywhere else): said in the log, the request
    is taken and waits in memory."""
    (tmp_path / "not-a-folder").write_text("x", encoding="utf-8")
    kept = player_requests.Requests(tmp_path / "not-a-folder" / "requests.json")
    ask = kept.add("Lea Fischer", "lea@example.org", "10.0.0.7", 100.0)
    assert kept.pending[ask.id].name == "Lea Fischer"
    assert "cannot be written" in caplog.text


def test_the_limits_stay_with_the_store(tmp_path):
    """200 waiting at most, and a file with more (written by hand) is read to 200."""
    store = tmp_path / "requests.json"
    kept = player_requests.Requests(store)
    for i in range(player_requests.MOST):
        kept.add(f"Spieler {i}", "x", f"10.0.{i // 200}.{i % 200}", float(i))
    again = player_requests.Requests(store)
    assert len(again.pending) == player_requests.MOST
    try:
        again.add("Einer Zuviel", "x", "10.9.9.9", 1000.0)
    except player_requests.RequestError as exc:
        assert exc.key == "request_full"
    else:
        raise AssertionError("a full list took one more")
