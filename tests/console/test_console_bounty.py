"""The players' page of a knock-out for money (issue 30): each seated player's head and
the bounties won, and while a deal at the final table stands each dealt player's own
amount. In a real headless chromium on a phone, against a real broker and controller."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, cast

from controller.director import send
from tests.console.conftest import PASSWORD, TableClient, start_console
from tests.support.controller import wait_up
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parent.parent.parent
BOUNTY = ROOT / "config/tournaments/venue-faq-bounty.yaml"


def test_the_players_page_shows_each_players_head_and_bounties_won(
        tmp_path, broker, prefix, controller_factory, chromium):
    """A progressive knock-out at 40 € a head: a hunter's row says its grown head (60 €)
    and what it won in cash (20 €); everybody else's 40 € and nothing won. The screenshot
    goes to the test's folder (FLOORMAN_CONSOLE_SHOTS: there too,
    docs/console/public-bounty-phone.png)."""
    controller_factory(BOUNTY)
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    screen = TableClient(b)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                   is_mobile=True)
    try:
        names = [f"Spieler {i:02d}" for i in range(1, 19)]
        assert send(b, "register", {"names": names})["ok"]
        assert send(b, "draw", {})["ok"]
        assert send(b, "start", {})["ok"]
        wait_for(lambda: screen.get("state/table/1"), 20, "table 1's view")
        seats = cast(dict[str, Any], screen.get("state/table/1"))["seats"]
        hunter, prey = seats[0]["name"], seats[-1]["name"]
        assert send(b, "bust", {"player": prey, "by": hunter, "confirm": True})["ok"]
        fan = context.new_page()
        fan.goto(rc.url + "/p")
        row = fan.locator(f"#pseating li[data-name='{hunter.lower()}']")
        row.locator(".head").wait_for(timeout=20_000)
        wait_for(lambda: "60 €" in row.inner_text(), 20, "the hunter's grown head")
        assert row.locator(".head").inner_text() == "Kopfgeld 60 €"
        assert row.locator(".won").inner_text() == "gewonnen 20 €"
        other = fan.locator(f"#pseating li[data-name='{seats[1]['name'].lower()}']")
        assert other.locator(".head").inner_text() == "Kopfgeld 40 €"
        assert other.locator(".won").inner_text() == "gewonnen 0 €"
        assert fan.locator(f"#pseating li[data-name='{prey.lower()}']").count() == 0
        # a player finds the row by name (the page's search) and reads it on a phone
        fan.fill("#search", hunter)
        box = fan.locator("#pseating")
        box.scroll_into_view_if_needed()
        shot = tmp_path / "public-bounty-phone.png"
        box.screenshot(path=str(shot))
        out = os.environ.get("FLOORMAN_CONSOLE_SHOTS")
        if out:
            shutil.copy(shot, Path(out) / shot.name)
    finally:
        context.close()
        screen.close()
        rc.stop()


def test_while_a_deal_stands_the_players_page_shows_each_players_amount():
    """The deal at the final table (the wall's moment): each dealt player's row says the
    player's own amount, in both languages (no broker: the console renders a still hub)."""
    from starlette.testclient import TestClient

    from controller.broker.accounts import hash_password
    from controller.console.app import Console, make_app
    from controller.night import shots
    from tests.console.nights import hub_of

    g = shots._final_four()
    g.do("deal", method="icm")
    players = shots.views.summary_view(g.t)["prize_pool"]["deal"]["players"]
    assert len(players) == 4
    for lang, fmt in (("de", "Deal {e:,}.{c:02d} €"), ("en", "Deal €{e:,}.{c:02d}")):
        client = TestClient(make_app(Console(cast(Any, hub_of(g.t, g.now + 1)),
                                             hash_password(PASSWORD, iterations=1000)),
                                     start_hub=False), base_url="http://127.0.0.1")
        client.cookies.set("floorman_lang", lang)
        page = client.get("/p").text
        for d in players:
            e, c = divmod(d["amount"], 100)
            text = fmt.format(e=e, c=c)
            if lang == "de":
                text = text.replace(",", "X").replace(".", ",").replace("X", ".")
            assert f'<span class="deal">{text}</span>' in page, (lang, text)
    # undone: no amounts
    g.do("undo")
    client = TestClient(make_app(Console(cast(Any, hub_of(g.t, g.now + 1)),
                                         hash_password(PASSWORD, iterations=1000)),
                                 start_hub=False), base_url="http://127.0.0.1")
    assert 'class="deal"' not in client.get("/p").text
