"""A short rebuy night driven from the console alone on a phone (390×844), against a real
Mosquitto and the real controller process (issue 28): register, draw, start, busts by seat
and by name, two out in one hand with their stacks (000 9.5: the bigger stack finishes
higher), a rebuy from the bust dialog, an undo that names what it takes back, a table's
HAND DONE and time call from the console, down to the champion, after whom only undo is
offered; the places checked against the rules. And: the first table's seats are on the
first screen after sign-in, with no scroll. Screenshots of the floor and the players' page
at phone and laptop size, German and English (FLOORMAN_CONSOLE_SHOTS=docs/console)."""

from __future__ import annotations

import pytest

from controller.director import send
from tests.console.conftest import start_console
from tests.console.test_console_browser import LAPTOP, PHONE, Shots, reply_of, sign_in
from tests.support.controller import status, wait_up
from tests.support.paths import ROOT
from tests.support.waiting import wait_for

REBUY_NIGHT = ROOT / "config" / "tournaments" / "psc-rebuy-evening.yaml"
LONG = "Rüdiger Lauterbach-Schönefeld"
NAMES = [LONG, "Anna Schmidt", "Ben Meyer", "Cem Yilmaz", "Dora Wagner", "Emil Becker",
         "Fritz Hoffmann", "Greta Schulz", "Hakan Demir", "Ida Koch", "Jonas Richter",
         "Klara Wolf"]


@pytest.fixture
def rebuy_console(tmp_path, broker, prefix, controller_factory):
    controller_factory(REBUY_NIGHT)
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    yield rc
    rc.stop()


def tab(page, name: str) -> None:
    page.click(f".tabs button[data-tab='{name}']")


def act(page, selector: str) -> str:
    page.evaluate("document.getElementById('reply').hidden = true")
    page.click(selector)
    return reply_of(page)


def players(broker) -> dict[str, dict]:
    return {p["name"]: p for p in send(broker, "players")["result"]["players"]}


def seat_of(page, name: str):
    return page.locator(f"button.seat[data-full='{name}']")


def open_bust(page, name: str):
    seat_of(page, name).click()
    page.wait_for_selector("#bust-dialog[open] #bust-form:not([hidden])")


def bust_now(page, *, stack: int | None = None, same_hand: bool = False) -> str:
    if same_hand:
        page.check("#bust-form input[name=same_hand]")
    if stack is not None:
        page.fill("#bust-form input[name=stack]", str(stack))
    return act(page, "#bust-form button.danger")


def no_rebuy(page) -> None:
    """The rebuy step of the dialog: not this time."""
    page.wait_for_selector("#rebuy-step:not([hidden])")
    page.click("#rebuy-step button.cancel")
    page.wait_for_selector("#bust-dialog", state="hidden")


def first_screen_shows_the_first_table(page) -> None:
    page.wait_for_selector("section.table button.seat")
    assert page.evaluate("window.scrollY") == 0
    bottom = page.evaluate("""() => {
        const first = document.querySelector('section.table');
        const seats = [...first.querySelectorAll('.seats li')];
        return Math.max(...seats.map((s) => s.getBoundingClientRect().bottom));
    }""")
    # the tab bar covers the foot of the screen: the seats must end above it
    tabs_top = page.evaluate("document.querySelector('.tabs').getBoundingClientRect().top")
    assert bottom <= min(PHONE["height"], tabs_top), (bottom, tabs_top)


def test_a_rebuy_night_from_the_phone(rebuy_console, chromium, tmp_path):
    console = rebuy_console
    url, broker = console.url, console.broker
    shots = Shots(tmp_path / "shots")
    phone = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                 has_touch=True, bypass_csp=True)
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(phone, url)
        # ------------------------------------------------ register: the list first
        page.click("nav >> text=Spieler")
        assert page.locator("#playerlist").is_visible()
        assert not page.locator("#register-form").is_visible()  # one tap away
        tab(page, "register")
        page.fill("#reg-names", "\n".join(NAMES))
        assert "12 angemeldet" in act(page, "#register-form button[type=submit]")
        tab(page, "list")
        page.wait_for_function("document.querySelectorAll('ul.players li').length === 12")
        # nothing cut: the long name is there whole, on the phone's width
        assert LONG in page.inner_text("ul.players")

        # ------------------------------------------------ draw and start
        page.click("nav >> text=Saal")
        tab(page, "actions")
        assert "Plätze ausgelost" in act(page, "#floorbuttons button:text-is('Plätze losen')")
        tab(page, "clock")
        page.wait_for_selector("#clockbuttons button:text-is('Start'):not([disabled])")
        assert "Uhr gestartet" in act(page, "#clockbuttons button:text-is('Start')")
        # the entries as they stand: rebuys to the end of level 4, tables kept meanwhile
        page.wait_for_selector("#entries:has-text('Rebuys bis Ende Level 4')")
        assert "Kein Tisch wird aufgelöst" in page.inner_text("#entries")

        # ------------------------------------------------ the first screen
        page.goto(url + "/")
        first_screen_shows_the_first_table(page)
        seat = seat_of(page, LONG)
        assert seat.inner_text().find(LONG) >= 0  # whole, wrapped

        out: list[list[str]] = []  # the groups in the order they went out
        # the long name stays on till the end: it must show whole on every picture
        seated = lambda: [n for n, p in players(broker).items()  # noqa: E731
                          if p["status"] == "seated" and n != LONG] + [LONG]

        # ------------------------------------------------ a bust by seat; no rebuy
        first = seated()[0]
        open_bust(page, first)
        assert first in page.inner_text("#bust-dialog .bust-title")
        answer = bust_now(page)
        assert answer.endswith("raus auf Platz 12"), answer
        # the rebuy period: the dialog's next step offers the rebuy
        assert "Rebuys bis Ende Level 4" in page.inner_text("#rebuy-step")
        no_rebuy(page)
        out.append([first])

        # ------------------------------------------------ a bust, then the rebuy
        again = seated()[0]
        open_bust(page, again)
        assert "raus auf Platz 11" in bust_now(page)
        page.wait_for_selector("#rebuy-step:not([hidden])")
        assert again in page.inner_text("#rebuy-step .rebuy-title")
        answer = act(page, "#rebuy-step button.primary")
        assert "Rebuy" in answer, answer
        page.wait_for_selector("#bust-dialog", state="hidden")
        p = players(broker)[again]
        assert p["status"] == "seated" and p["rebuys"] == 1
        page.wait_for_selector(f"button.seat[data-full='{again}']")

        # ------------------------------------------------ find and bust by name
        by_name = next(n for n in seated() if n != again)
        page.fill("#find", by_name.lower())
        page.wait_for_selector("button.seat.match")
        page.click("#find-form button")
        page.wait_for_selector("#bust-dialog[open]")
        assert by_name in page.inner_text("#bust-dialog .bust-title")
        assert "raus auf Platz 11" in bust_now(page)
        no_rebuy(page)
        out.append([by_name])

        # -------------------------- the undo names what it takes back, the confirm quotes it
        tab(page, "actions")
        undo = page.locator("#undo")
        # this bust's line: the history is asked again after a change, a moment later (an
        # earlier bust at place 11, taken back by the rebuy, may still be the newest line)
        undo.filter(has_text=f"{by_name} raus auf Platz 11").wait_for()
        named = undo.inner_text()
        assert named.startswith("Letzten Befehl zurücknehmen: #") and by_name.split()[0] in named
        asked: list[str] = []

        def accept(d):
            asked.append(d.message)
            d.accept()
        page.once("dialog", accept)
        answer = act(page, "#undo")
        assert asked and "raus auf Platz 11" in asked[0] and asked[0].startswith("„"), asked
        # (a second bust at a table is a new hand unless said otherwise: the undo takes back
        # the missed HAND DONE caught up with it too, and says so)
        assert by_name in answer and "zurückgenommen" in answer, answer
        out.pop()
        assert players(broker)[by_name]["status"] == "seated"
        tab(page, "tables")

        # ------------------------------ two out in one hand: places by stacks (000 9.5)
        at = players(broker)[seated()[0]]["table"]
        pair = [n for n in seated() if players(broker)[n]["table"] == at][:2]
        small, big = pair
        open_bust(page, small)
        assert page.locator("#bust-form .same").is_hidden()  # nobody out this hand yet
        assert "raus auf Platz" in bust_now(page, stack=3000)
        no_rebuy(page)
        page.wait_for_selector(f"section.table[data-table='{at}'] .handbusts")
        open_bust(page, big)
        same = page.locator("#bust-form .same")
        assert same.is_visible()
        text = same.inner_text()
        assert "Gleiche Hand wie" in text and "3.000 Chips" in text, text
        shots(page, "bust-same-hand-phone", full=False)
        assert "raus auf Platz" in bust_now(page, stack=5000, same_hand=True)
        no_rebuy(page)
        out.append([small, big])
        ps = players(broker)
        assert ps[big]["place"] < ps[small]["place"], (ps[big], ps[small])

        # ------------------------------ the table's HAND DONE and time call from here
        table = page.locator(f"section.table[data-table='{at}']")
        hands = next(t for t in status_tables(broker) if t["table"] == at)["hands"]
        answer = act(page, f"section.table[data-table='{at}'] button.hand-done")
        assert "Tisch" in answer, answer
        page.wait_for_function(
            f"!document.querySelector(\"section.table[data-table='{at}'] .handbusts\")")
        assert next(t for t in status_tables(broker) if t["table"] == at)["hands"] == hands + 1
        act(page, f"section.table[data-table='{at}'] button.time-call")
        table.locator(".badge.hot:has-text('Zeit gefordert')").wait_for()
        assert table.locator("button.time-call").inner_text() == "Zeit beenden"
        act(page, f"section.table[data-table='{at}'] button.time-call")
        table.locator(".badge.hot").wait_for(state="detached")

        # ------------------------------ counted stacks, per player, sortable
        tab(page, "counts")
        counted = seated()[:2]
        page.fill("#counts-form textarea", f"{counted[0]} 12000\n{counted[1]} 23.500")
        answer = act(page, "#counts-form button[type=submit]")
        assert page.locator("#reply.ok").count() == 1, answer
        wait_for(lambda: players(broker)[counted[1]]["chips"] == 23500, 5, "the count")
        tab(page, "tables")
        page.evaluate("document.getElementById('reply').hidden = true")
        shots(page, "floor-phone-de", full=False)
        page.click("nav >> text=Spieler")
        page.select_option("#sort", "chips")
        page.wait_for_selector(f"ul.players li:first-child:has-text('{counted[1]}')")
        assert "23.500" in page.inner_text("ul.players li:first-child")
        assert counted[0] in page.inner_text("ul.players li:nth-child(2)")
        shots(page, "players-phone-de", full=False)
        page.click("nav >> text=Saal")
        page.wait_for_selector("section.table")

        # ------------------------------ the laptop: forms, tables, moves and history
        desk = sign_in(laptop, url)
        desk.wait_for_selector("button.seat")
        desk.wait_for_selector("ol.history li")
        shots(desk, "floor-laptop-de", full=False)
        desk.click("nav >> text=Spieler")
        desk.wait_for_selector("ul.players li")
        desk.select_option("#sort", "chips")
        shots(desk, "players-laptop-de", full=False)
        for view, size in ((desk, "laptop"), (page, "phone")):
            view.goto(url + "/lang/en?next=/")
            view.wait_for_selector("section.table")
            shots(view, f"floor-{size}-en", full=False)
            view.goto(url + "/players")
            view.select_option("#sort", "chips")
            shots(view, f"players-{size}-en", full=False)
            view.goto(url + "/lang/de?next=/")
            view.wait_for_selector("section.table")

        # ------------------------------ the rest, by name, down to the champion
        while len(left := seated()) > 1:  # the long name last
            name = left[-2] if len(left) > 1 else left[-1]
            page.fill("#find", name)
            page.click("#find-form button")
            page.wait_for_selector("#bust-dialog[open]")
            assert "raus auf Platz" in bust_now(page)
            if page.locator("#rebuy-step:not([hidden])").count():
                no_rebuy(page)
            else:
                page.wait_for_selector("#bust-dialog", state="hidden")
            out.append([name])
            page.wait_for_function(
                f"!document.querySelector(\"button.seat[data-full='{name}']\")")
            every_hand_done(page, broker, shots)
        champion = seated()[0]
        page.wait_for_selector("#champion")

        # ------------------------------ the places, by the rules
        ps = players(broker)
        place = len(NAMES)
        for group in out:
            places = sorted(ps[n]["place"] for n in group)
            assert places == list(range(place - len(group) + 1, place + 1)), (group, places)
            place -= len(group)
        assert place == 1 and status(broker)["summary"]["champion"] == champion

        # ------------------------------ after the champion: only undo
        tab(page, "clock")
        assert page.locator("#clockbuttons button").count() == 0
        assert not page.locator("#time-form").is_visible()
        tab(page, "actions")
        assert page.locator("#floorbuttons button").count() == 0
        assert page.locator("#undo").is_visible()
        tab(page, "tables")
        assert page.locator("button.seat:not([disabled])").count() == 0
        assert page.locator("button.hand-done").count() == 0

        for path in ("/", "/players"):
            page.goto(url + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        shots.publish()
        phone.close()
        laptop.close()


def every_hand_done(page, broker, shots) -> None:
    """Every table says HAND DONE from the console after a bust, so each bust is a hand of
    its own: busts of one hand-for-hand hand at different tables share a place (002 b; on
    the bubble hand-for-hand comes on by itself), and that hand lasts at a table until its
    HAND DONE, also after the bust that burst the bubble."""
    if status(broker)["summary"]["finished"]:
        return
    # a table waits for the players moved to it (TDA 11D): seated first, from the due moves
    # above the tables
    while send(broker, "moves")["result"]["pending"]:
        page.locator("#moves li button").first.wait_for()
        assert act(page, "#moves li button").endswith(" sitzt")
        wait_for(lambda: page.locator("#moves li button").count()
                 == len(send(broker, "moves")["result"]["pending"]), 5, "the moves")
    hfh = status(broker)["summary"]["hand_for_hand"]
    for n in status(broker)["tables"]:
        table = page.locator(f"section.table[data-table='{n}']")
        if hfh["on"] and n in hfh["playing"]:
            table.locator(".tablestate:has-text('wartet auf HAND FERTIG')").wait_for()
            if "floor-hfh-phone" not in {p.stem for p in shots.taken}:
                page.evaluate("document.getElementById('reply').hidden = true")
                # in one step in the page: the floor re-renders on every view, so a locator
                # found here may be detached before Playwright scrolls to it
                page.evaluate(f"""document.querySelector(
                    "section.table[data-table='{n}'] .tableacts").scrollIntoView()""")
                shots(page, "floor-hfh-phone", full=False)
        elif hfh["on"]:
            continue  # done with this hand-for-hand hand: its button waits
        answer = act(page, f"section.table[data-table='{n}'] button.hand-done")
        assert f"Tisch {n}: Hand fertig" in answer, answer
    if hfh["on"]:
        wait_for(lambda: status(broker)["summary"]["hand_for_hand"]["hand"] != hfh["hand"]
                 or not status(broker)["summary"]["hand_for_hand"]["on"], 5, "the next hand")


def status_tables(broker) -> list[dict]:
    """Every table's retained view, as a screen reads it (``hands`` played there)."""
    from tests.console.conftest import TableClient

    client = TableClient(broker)
    try:
        n = len(status(broker)["tables"])
        wait_for(lambda: sum(1 for k, v in client.state.items() if k.startswith("state/table/")
                             and v and v.get("in_play")) >= n, 5, "the table views")
        return [v for k, v in client.state.items() if k.startswith("state/table/")
                and v and v.get("in_play")]
    finally:
        client.close()


def test_the_first_table_is_on_the_first_screen(console, chromium):
    """390×844, right after sign-in, twenty players drawn: the first table's every seat
    shows without a scroll (issue 28.1)."""
    url, broker = console.url, console.broker
    assert send(broker, "register", {"names": [f"Spieler {n:02d}" for n in range(1, 19)]
                                     + [LONG, "Anna Schmidt"]})["ok"]
    assert send(broker, "draw")["ok"]
    assert send(broker, "start")["ok"]
    phone = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                 has_touch=True, bypass_csp=True)
    try:
        page = sign_in(phone, url)
        first_screen_shows_the_first_table(page)
        # the forms are one tap away, not on the first screen
        assert not page.locator("#time-form").is_visible()
        tab(page, "clock")
        assert page.locator("#time-form").is_visible()
        assert not page.locator("section.table").first.is_visible()
    finally:
        phone.close()
