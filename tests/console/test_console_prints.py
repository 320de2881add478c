"""What the console prints and draws, in Debian's headless Chromium (issue 28.9): the
seating list with each table on a sheet of its own (the PDF's pages are counted), the
sheets dated, and the waiting player's and the champion's signs drawn where Chromium has
no emoji font (⏳ and 🏆 were boxes). The nights are the engine's (tests/console/nights.py),
served by the real console without a broker. Screenshots into the test's folder (and
FLOORMAN_CONSOLE_SHOTS=docs/console)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from controller.broker.accounts import hash_password
from controller.console.app import Console, serve
from tests.console.conftest import PASSWORD, free_port
from tests.console.nights import hub_of, nights
from tests.console.test_console_browser import LAPTOP, PHONE, Shots, sign_in
from tests.support.waiting import wait_for


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    return nights()


def serving(hub: Any) -> Iterator[str]:
    port = free_port()
    console = Console(hub, hash_password(PASSWORD, iterations=1000))
    server = serve(console, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="console", daemon=True)
    thread.start()
    wait_for(lambda: server.started, 20, "the console is up")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", data))


def test_the_seating_list_prints_each_table_on_its_own_sheet(chromium, played, tmp_path):
    t, now = played["moves_due"]
    hub = hub_of(t, now)
    tables = sorted({p["table"] for p in hub.players if p["status"] == "seated"})
    assert len(tables) == 3
    shots = Shots(tmp_path / "shots")
    for url in serving(hub):
        context = chromium.new_context(viewport=LAPTOP, locale="de-DE")
        page = sign_in(context, url)
        page.goto(url + "/lang/de?next=/print/seating")
        page.wait_for_selector(".tp")
        head = page.inner_text("header.head p")
        assert re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", head), head  # the day too
        pdf = page.pdf(format="A4")
        # the list of all (one sheet for 17 names), then a sheet for each table
        assert pdf_pages(pdf) == 1 + len(tables)
        page.emulate_media(media="print")
        shots(page, "print-seating-sheets")
        context.close()
    shots.publish()


def test_signs_are_drawn_not_boxes(chromium, played, tmp_path):
    """The hourglass of a player who waits for the button and the champion's cup are SVG
    in the page: no font needed."""
    shots = Shots(tmp_path / "shots")
    t, now = played["table_broken"]
    for url in serving(hub_of(t, now)):
        context = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                       has_touch=True)
        page = sign_in(context, url)
        page.goto(url + "/lang/de?next=/")
        waits = page.locator("button.seat.waiting .pos i.waits svg")
        assert waits.count() >= 1
        box = waits.first.bounding_box()
        assert box and box["width"] > 8 and box["height"] > 8
        assert "⏳" not in page.content()
        waits.first.scroll_into_view_if_needed()
        shots(page, "floor-waits-phone", full=False)
        context.close()
    t, now = played["finished"]
    for url in serving(hub_of(t, now)):
        context = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                       has_touch=True)
        page = context.new_page()
        page.goto(url + "/lang/de?next=/p")
        cup = page.locator("dt.cup svg")
        assert cup.count() == 1 and "🏆" not in page.content()
        assert "Sieger:" in page.inner_text("#clockbox")
        shots(page, "public-champion-phone", full=False)
        context.close()
    shots.publish()


def test_the_structure_from_a_phone(console, chromium, tmp_path):
    """Issue 28.5 against the real controller: the Struktur tab lists the levels with the
    one in play marked, inserts a break (the history says it in German) and refuses to
    change a level already begun, with the controller's reason as a German sentence."""
    from tests.console.test_console_browser import reply_of
    from tests.support.controller import start_tournament

    start_tournament(console.broker, 12)
    shots = Shots(tmp_path / "shots")
    context = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                   has_touch=True)
    page = sign_in(context, console.url)
    page.goto(console.url + "/lang/de?next=/")
    page.click(".tabs button[data-tab='structure']")
    now = page.locator("#structurelist li.now")
    now.wait_for()
    assert now.inner_text().startswith("Level 1:") and "jetzt" in now.inner_text()
    breaks = page.locator("#structurelist li.break").count()

    page.fill("#structure-insert-form input[name=after]", "2")
    page.select_option("#structure-insert-form select[name=kind]", "break")
    page.fill("#structure-insert-form input[name=minutes]", "10")
    page.click("#structure-insert-form button[type=submit]")
    assert "Struktur: eine Pause von 10 Min. eingefügt nach Level 2" in reply_of(page)
    wait_for(lambda: page.locator("#structurelist li.break").count() == breaks + 1, 10,
             "the new break in the list", every=0.1)
    third = page.locator("#structurelist li").nth(2)
    assert third.inner_text().startswith("Pause") and "10 Min." in third.inner_text()

    page.evaluate("document.getElementById('reply').hidden = true")
    page.fill("#structure-minutes-form input[name=from_level]", "1")
    page.fill("#structure-minutes-form input[name=minutes]", "25")
    page.click("#structure-minutes-form button[type=submit]")
    assert reply_of(page).startswith("Level 1 hat schon begonnen: nur die kommenden Level")
    page.evaluate("document.getElementById('reply').hidden = true")
    page.evaluate("window.scrollTo(0, 0)")
    shots(page, "structure-phone", full=False)

    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE")
    page = sign_in(laptop, console.url)
    page.click(".tabs button[data-tab='structure']")
    page.locator("#structurelist li.now").wait_for()
    shots(page, "structure-laptop", full=False)
    fan = laptop.new_page()
    fan.goto(console.url + "/p")
    fan.locator("#structurelist li.now").wait_for()
    # read-only (the page's one form is a player's registration request, issue 31)
    assert fan.locator("#structurelist :is(form, button, textarea)").count() == 0
    assert fan.locator("form").count() == 1 and fan.locator("#request-form").count() == 1
    context.close()
    laptop.close()
    shots.publish()


def test_the_console_chimes_at_a_level_change_and_can_be_muted(console, chromium):
    """Issue 28.10: the floor sounds (WebAudio) when the level changes and when a break
    begins; the switch in the clock panel mutes it, and the browser keeps it muted."""
    from tests.support.controller import director, start_tournament

    start_tournament(console.broker, 12)
    context = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                   has_touch=True)
    page = sign_in(context, console.url)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(console.url + "/lang/de?next=/")
    page.wait_for_selector("#clockbox .clock[data-level='0']")
    page.click(".tabs button[data-tab='clock']")  # a tap: the browser may sound now
    assert page.inner_text("#sound") == "Gong an"

    def chimes() -> str:
        return page.evaluate("document.body.dataset.chimes || '0'")

    director(console.broker, "level", {"to": "next"})
    page.wait_for_selector("body[data-chime='level'][data-chimes='1']")
    structure = console.console.hub.state["structure"]["levels"]
    first_break = next(lv["index"] for lv in structure if lv["is_break"])
    director(console.broker, "level", {"to": structure[first_break + 1]["number"]})
    page.wait_for_selector("#clockbox .clock[data-break='']")
    # level numbers skip breaks: going to the level after the first break, then one back
    director(console.broker, "level", {"to": "prev"})
    page.wait_for_selector("#clockbox .clock[data-break='1']")
    assert page.evaluate("document.body.dataset.chime") == "break"
    assert chimes() == "3"

    page.click("#sound")
    assert page.inner_text("#sound") == "Gong aus"
    director(console.broker, "level", {"to": "next"})
    page.wait_for_selector("#clockbox .clock[data-break='']")
    assert chimes() == "3"  # muted
    page.reload()
    page.click(".tabs button[data-tab='clock']")
    assert page.inner_text("#sound") == "Gong aus"  # kept in this browser
    assert errors == []  # the tones were made (WebAudio) without a fault
    context.close()

