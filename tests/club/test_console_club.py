"""The club database in the console: the printable standings (000 5.8: non-members
shortened) and the club list the registration searches (names typed once)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from controller.club import players
from controller.club.db import open_club
from controller.club.imports import import_log
from controller.console import auth
from controller.console.app import Console, make_app
from controller.console.hub import Hub
from controller.wire.mqtt import Broker
from tests.club.nights import psc_settings, tournament

SIX = ["Anna Berg", "Bert Cox", "Carl Dahl", "Dora Eck", "Emil Frey", "Gina Hahn"]


class Client:
    """The console's app over ASGI, one request at a time, signed in with ``cookie``."""

    def __init__(self, app: Any, cookie: str) -> None:
        self.app = app
        self.cookies = {auth.COOKIE: cookie}

    def get(self, url: str, **kw: Any) -> httpx.Response:
        async def one() -> httpx.Response:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app),
                                         base_url="http://console", cookies=self.cookies) as c:
                return await c.get(url, **kw)
        # in a thread of its own: a browser test's Playwright, earlier in this process,
        # keeps an event loop running in this one, where asyncio.run refuses to start
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, one()).result()


@pytest.fixture
def client(tmp_path, monkeypatch):
    club = tmp_path / "club.sqlite"
    monkeypatch.setenv("FLOORMAN_CLUB", str(club))
    db = open_club(club)
    import_log(db, str(tournament(tmp_path / "t.sqlite", psc_settings(), SIX,
                                  [(p, None) for p in reversed(SIX[1:])], day="2026-01-09",
                                  guests=["Bert Cox"])))
    players.add(db, "Hans Müller", member=True)
    db.close()
    console = Console(Hub(Broker(prefix="floorman/test"), public_url="http://x/p"),
                      auth.hash_password("pw"), hosts=["console"])  # the name used below
    session = console.sessions.create()
    return Client(make_app(console, start_hub=False), session.token)


def test_the_printable_standings_shorten_guests(client):
    page = client.get("/print/standings")
    assert page.status_code == 200
    assert "Standings 2026" in page.text
    assert "Anna Berg" in page.text  # a member in full
    assert "Bert C." in page.text and "Bert Cox" not in page.text  # 000 5.8
    assert "no season &#39;1999&#39;" in client.get("/print/standings?season=1999").text


def test_the_registration_searches_the_club_list(client):
    found = client.get("/club/players", params={"q": "mue"}).json()["players"]
    assert found == [{"name": "Hans Müller", "member": True}]
    assert [p["name"] for p in client.get("/club/players", params={"q": "muller"})
            .json()["players"]] == ["Hans Müller"]
    assert client.get("/players").text.count('id="club-search"') == 1


def test_the_club_pages_need_a_signed_in_director(client):
    client.cookies.clear()
    assert client.get("/club/players", params={"q": "an"}).status_code == 401
    assert client.get("/print/standings").status_code == 303
