"""The console and the players' page of a tournament for money (issue 30): the prize pool
and the places paid; the players' page also what the next player out gets."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from controller.console.app import results_csv
from controller.director import send
from tests.console.conftest import PASSWORD, start_console
from tests.support.controller import wait_up
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parent.parent.parent
MONEY = ROOT / "config/tournaments/venue-faq-prize-pool.yaml"


def test_the_pool_on_the_console_and_the_players_page(tmp_path, broker, prefix,
                                                     controller_factory):
    controller_factory(MONEY)
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    try:
        names = [f"Spieler {i:02d}" for i in range(1, 21)]
        assert send(b, "register", {"names": names})["ok"]
        assert send(b, "draw", {})["ok"]
        assert send(b, "start", {})["ok"]
        assert send(b, "bust", {"player": "Spieler 01"})["ok"]
        anon = httpx.Client(base_url=rc.url)
        # 20 × 100 € = 2,000 €, the guarantee makes 10,000 €; 15 % of 20: 3 paid
        wait_for(lambda: "10.000 €" in anon.get("/p").text, 10, "the pool on the players' page")
        page = anon.get("/p").text
        assert "Preisgeld" in page and "Bezahlte Plätze" in page
        assert "Der Nächste raus erhält" not in page  # 19 left, 3 paid: nobody in the money
        # the whole ladder, and the bubble below it: 16 more out before the money
        assert 'id="public-ladder"' in page and page.count('class="pl"') == 4
        assert "Bubble: noch 16 raus bis ins Geld" in page
        for name in names[1:17]:
            assert send(b, "bust", {"player": name})["ok"]
        wait_for(lambda: "Der Nächste raus erhält" in anon.get("/p").text, 10,
                 "the next payout on the players' page")
        assert re.search(r"3\. · 1\.815 €", anon.get("/p").text)  # 10,000 € at 1/i: 18 %
        c = httpx.Client(base_url=rc.url)
        assert c.post("/login", data={"password": PASSWORD},
                      follow_redirects=False).status_code == 303
        floor = c.get("/").text
        assert 'id="prize-pool">10.000 €' in floor and "Bezahlte Plätze" in floor
        # the results with a payout column: the 17 out so far are outside the money; 002
        # plays for no points: no all-zero points column
        results = c.get("/results").text
        assert "<th>Auszahlung</th>" in results and results.count('class="payout"') == 17
        assert "<th>Punkte</th>" not in results and "<th>Knockouts</th>" not in results
        csv = c.get("/results.csv").text
        assert csv.splitlines()[0].endswith(";Mitglied;Auszahlung")  # the console's German
    finally:
        rc.stop()


def test_the_csv_export_has_the_payouts_and_tickets_in_cents():
    rows = [{"place": 1, "name": "Anna", "points": 0.0, "member": True, "payout": 0,
             "ticket": 10_000},
            {"place": 3, "name": "Ben", "points": 0.0, "member": True, "payout": 7_000}]
    text = results_csv(rows, sep=";", bom=False)
    assert text.splitlines() == ["place;name;points;member;payout;ticket",
                                 "1;Anna;0;yes;0;10000", "3;Ben;0;yes;7000;"]
    german = results_csv(rows, sep=";", bom=False, lang="de")
    assert german.splitlines()[0] == "Platz;Name;Punkte;Mitglied;Auszahlung;Ticket"


def test_the_players_page_shows_the_whole_ladder_on_a_phone(tmp_path, broker, prefix,
                                                           controller_factory, chromium):
    """Every paid place with its amount, the place the next player out takes marked and
    the places paid out grey; before the money the bubble below the last paid place
    (issue 30). The screenshot goes to the test's folder (FLOORMAN_CONSOLE_SHOTS: there
    too, docs/console/public-ladder-phone.png)."""
    import os
    import shutil

    controller_factory(MONEY)
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                   is_mobile=True)
    try:
        names = [f"Spieler {i:02d}" for i in range(1, 101)]
        assert send(b, "register", {"names": names})["ok"]
        assert send(b, "draw", {})["ok"]
        assert send(b, "start", {})["ok"]
        fan = context.new_page()
        fan.goto(rc.url + "/p")
        # 100 × 90 € = 9,000 €, the guarantee 10,000 €; 15 % of 100 paid
        fan.wait_for_selector("#public-ladder li[data-place='15']")
        assert fan.locator("#public-ladder li[data-place]").count() == 15
        assert "Bubble: noch 85 raus bis ins Geld" in fan.inner_text("#bubble")
        fan.locator("#pladder").screenshot(path=str(tmp_path / "public-ladder-bubble-phone.png"))
        for name in names[:86]:
            assert send(b, "bust", {"player": name})["ok"]
        # 14 left: the next out takes place 14, the 15th is paid out
        fan.wait_for_selector("#public-ladder li.next[data-place='14']", timeout=20_000)
        assert fan.locator("#bubble").count() == 0
        assert fan.locator("#public-ladder li.done").count() == 1
        first = fan.inner_text("#public-ladder li[data-place='1']")
        assert first.startswith("1.") and "€" in first
        assert "NÄCHSTER RAUS" in fan.inner_text("#public-ladder li.next").upper()
        ladder = fan.locator("#pladder")
        ladder.scroll_into_view_if_needed()
        shot = tmp_path / "public-ladder-phone.png"
        ladder.screenshot(path=str(shot))
        out = os.environ.get("FLOORMAN_CONSOLE_SHOTS")
        if out:
            for name in (shot.name, "public-ladder-bubble-phone.png"):
                shutil.copy(tmp_path / name, Path(out) / name)
    finally:
        context.close()
        rc.stop()


def test_the_ladder_and_the_lot_in_both_languages():
    """The players' page's ladder and a satellite's lot, rendered from the engine's state
    in German and in English (no broker: the console renders a still hub)."""
    from typing import Any, cast

    from starlette.testclient import TestClient

    from controller.broker.accounts import hash_password
    from controller.console.app import Console, make_app
    from controller.engine.settings import Entries, Money
    from tests.console.nights import hub_of
    from tests.support.settings import new_tournament

    for lang, words in (("de", ["Auszahlungen", "Bubble: noch 30 raus bis ins Geld",
                                "Nächster raus", "gelost"]),
                        ("en", ["Payouts", "bubble: 30 more out before the money",
                                "next out", "by lot"])):
        t = new_tournament(35, seed=3, money=Money(buy_in=1_000, satellite=10_000),
                           entries=Entries(late_registration_levels=12), language=lang)
        t.execute({"cmd": "bust", "player": 1, "confirm": True}, 10.0)
        before = TestClient(make_app(Console(cast(Any, hub_of(t, 11.0)),
                                             hash_password(PASSWORD, iterations=1000)),
                                     start_hub=False), base_url="http://127.0.0.1")
        page = before.get("/p").text
        assert words[0] in page and words[1] in page, lang
        assert page.count("Ticket (") == 3  # 35 × 10 €: three tickets, then 50 € cash
        now = 20.0
        while t.remaining > 4:
            pid = next(p.id for p in t.players.values() if not p.out and not p.ghost)
            now += 1
            t.execute({"cmd": "bust", "player": pid, "confirm": True}, now)
        left = [p for p in t.players.values() if not p.out and not p.ghost]
        table = next(p.table for p in left if sum(q.table == p.table for q in left) >= 2)
        a, b = [p.id for p in left if p.table == table][:2]
        t.execute({"cmd": "bust", "player": a, "stack": 5_000, "confirm": True}, now + 1)
        t.execute({"cmd": "bust", "player": b, "stack": 5_000, "same_hand": True,
                   "confirm": True}, now + 2)
        hub = hub_of(t, now + 3)
        client = TestClient(make_app(Console(cast(Any, hub), hash_password(
            PASSWORD, iterations=1000)), start_hub=False), base_url="http://127.0.0.1")
        page = client.get("/p").text
        assert words[2] in page, lang
        assert page.count(f"({words[3]})") == 2, lang  # the two who drew lots
