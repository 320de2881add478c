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
        # the results with a payout column: the 17 out so far are outside the money
        results = c.get("/results").text
        assert "<th>Auszahlung</th>" in results and results.count('class="payout"') == 17
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
