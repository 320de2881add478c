"""The console's parts without a browser: sign-in backoff, sessions, CSRF, forms → commands,
the CSV export; and over HTTP against a real controller: what is refused, and that no
broker credential ever reaches a page."""

from __future__ import annotations

import re

import httpx
import pytest

from controller.console import actions, auth
from controller.console.app import results_csv
from tests.console.conftest import PASSWORD
from tests.support.controller import status


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_wrong_passwords_are_slowed_down_per_address():
    clock = Clock()
    b = auth.Backoff(now=clock)
    for _ in range(auth.Backoff.FREE):
        assert b.wait("10.0.0.5") == 0
        b.failed("10.0.0.5")
    assert b.wait("10.0.0.5") == 1.0  # the 4th try waits 1 s, then 2, 4 …
    b.failed("10.0.0.5")
    assert b.wait("10.0.0.5") == 2.0
    clock.t += 2.0
    assert b.wait("10.0.0.5") == 0
    assert b.wait("10.0.0.6") == 0  # another phone is not slowed down
    for _ in range(30):
        b.failed("10.0.0.5")
    assert b.wait("10.0.0.5") == auth.Backoff.LONGEST
    b.succeeded("10.0.0.5")
    assert b.wait("10.0.0.5") == 0


def test_sessions_end_when_idle_and_csrf_must_match():
    clock = Clock()
    s = auth.Sessions(now=clock)
    one = s.create()
    assert s.get(one.token) is one
    assert auth.csrf_ok(one, one.csrf)
    assert not auth.csrf_ok(one, "")
    assert not auth.csrf_ok(one, s.create().csrf)
    clock.t += auth.IDLE + 1
    assert s.get(one.token) is None


def test_the_password_is_stored_as_a_hash_only(tmp_path):
    path = tmp_path / "console.passwd"
    auth.write_password(path, "Pik-Dame")
    stored = path.read_text()
    assert "Pik-Dame" not in stored and stored.startswith("$7$")
    assert path.stat().st_mode & 0o777 == 0o600
    assert auth.password_ok("Pik-Dame", auth.read_password(path))
    assert not auth.password_ok("pik-dame", auth.read_password(path))
    with pytest.raises(auth.PasswordMissing, match="--set-password"):
        auth.read_password(tmp_path / "none")


@pytest.mark.parametrize("text, seconds", [
    ("90", 90), ("1:30", 90), ("-2:00", -120), ("1:02:00", 3720), ("0:05", 5)])
def test_times_as_a_director_types_them(text, seconds):
    assert actions.seconds(text) == seconds


@pytest.mark.parametrize("text", ["", "x", "1:75", "1::2", "1:2:3:4", "--1"])
def test_a_time_that_is_no_time_is_refused_before_sending(text):
    with pytest.raises(actions.FormError):
        actions.seconds(text)


def test_forms_become_the_clis_commands():
    assert actions.command("time", {"op": "remove", "value": "1:30"}) == \
        ("time", {"op": "add", "seconds": -90.0})
    assert actions.command("register", {"names": "Anna Schmidt\n\n Ben Meyer \n",
                                        "guest": "on"}) == \
        ("register", {"names": ["Anna Schmidt", "Ben Meyer"], "member": False})
    assert actions.command("bust", {"table": "2", "seat": "7", "stack": "", "by": "4"}) == \
        ("bust", {"table": 2, "seat": 7, "by": 4})
    assert actions.command("seated", {"player_id": "12"}) == ("seated", {"player": 12})
    assert actions.command("level", {"to": "next"}) == ("level", {"to": "next"})
    with pytest.raises(actions.FormError) as err:
        actions.command("break_table", {"table": "drei"})
    assert err.value.key == "not_a_number"
    with pytest.raises(actions.FormError):
        actions.command("shutdown", {})


def test_csv_for_a_german_spreadsheet():
    rows = [{"place": 2, "name": "Jörg Müller", "points": 12.5, "knockouts": 1,
             "knockout_points": 0, "bounty_hits": 0, "prize": None, "member": True},
            {"place": 3, "name": "Anna S.", "points": 9.0, "knockouts": 0,
             "knockout_points": 0, "bounty_hits": 0, "prize": None, "member": False}]
    text = results_csv(rows, sep=";", bom=True)
    assert text.startswith("\ufeffplace;name;points")
    lines = text[1:].split("\r\n")
    assert lines[1] == "2;Jörg Müller;12,5;1;0;0;;True"  # a decimal comma after ;
    assert lines[2].startswith("3;Anna S.;9;")
    plain = results_csv(rows, sep=",", bom=False)
    assert plain.split("\r\n")[1].startswith("2,Jörg Müller,12.5,")


def _signed_in(url: str) -> tuple[httpx.Client, str]:
    c = httpx.Client(base_url=url)
    r = c.post("/login", data={"password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 303
    csrf = re.search(r'name="csrf" content="([^"]+)"', c.get("/").text)
    assert csrf
    return c, csrf.group(1)


def test_state_changes_need_the_session_and_its_csrf_token(console):
    url = console.url
    anon = httpx.Client(base_url=url)
    assert anon.post("/act/start", headers={"Accept": "application/json"}).status_code == 401
    assert anon.get("/", follow_redirects=False).headers["location"] == "/login"
    assert anon.get("/events").status_code == 401
    c, csrf = _signed_in(url)
    json_ = {"Accept": "application/json"}
    # no token, a wrong token, another site's page: refused, nothing sent
    assert c.post("/act/register", data={"names": "Eve"}, headers=json_).status_code == 403
    assert c.post("/act/register", data={"names": "Eve", "csrf": "x"},
                  headers=json_).status_code == 403
    r = c.post("/act/register", data={"names": "Eve"},
               headers={**json_, "X-CSRF-Token": csrf, "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert status(console.broker)["summary"]["entries"] == 0
    r = c.post("/act/register", data={"names": "Eve Adams"},
               headers={**json_, "X-CSRF-Token": csrf, "Origin": url})
    assert r.json()["ok"] is True and "Eve Adams" in r.json()["message"]
    assert status(console.broker)["summary"]["entries"] == 1
    # the controller's reason comes back as it is, and nothing changed
    r = c.post("/act/rebuy", data={"player": "Nobody Here"},
               headers={**json_, "X-CSRF-Token": csrf})
    assert r.json()["ok"] is False and r.json()["reason"]
    assert status(console.broker)["summary"]["entries"] == 1


def test_no_page_carries_a_broker_credential_or_the_password(console, tmp_path):
    c, _ = _signed_in(console.url)
    secrets = [PASSWORD, "FLOORMAN_PASSWORD", console.console.password_hash]
    for path in ("/", "/players", "/results", "/login", "/static/console.js"):
        text = c.get(path).text
        assert not any(s in text for s in secrets), path
    r = c.get("/")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"


def test_the_fourth_wrong_password_in_a_row_waits(console):
    c = httpx.Client(base_url=console.url)
    codes = [c.post("/login", data={"password": "falsch"}).status_code for _ in range(5)]
    assert codes[:3] == [401, 401, 401]
    assert 429 in codes[3:]
    # even the right password waits out the backoff (it is not even checked)
    assert c.post("/login", data={"password": PASSWORD}, follow_redirects=False
                  ).status_code == 429
