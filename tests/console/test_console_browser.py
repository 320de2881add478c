"""A night through the console in a real headless Chromium (Debian's, driven by Playwright),
against a real Mosquitto and the real controller process: sign in, register 20, draw,
start, time, a mistake that keeps what was typed, bust by clicking a seat, a second
director who sees it at once, undo, results and their export. Screenshots of every page at
phone (390×844) and laptop (1366×768) size go to the test's folder (and, with
FLOORMAN_CONSOLE_SHOTS=DIR, to DIR: docs/console/ holds the ones docs/console.md shows)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from tests.console.conftest import PASSWORD
from tests.support.controller import status

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
NAMES = [f"{first} {last}" for first, last in zip(
    ["Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Greta", "Hakan", "Ida", "Jonas",
     "Klara", "Lukas", "Mia", "Nils", "Olga", "Paul", "Quirin", "Rosa", "Sven", "Tanja"],
    ["Schmidt", "Meyer", "Yilmaz", "Wagner", "Becker", "Hoffmann", "Schulz", "Demir", "Koch",
     "Richter", "Wolf", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann",
     "Hartmann", "Lange", "Schmitt"], strict=True)]


class Shots:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.taken: list[Path] = []

    def __call__(self, page, name: str, *, full: bool = True) -> None:
        path = self.folder / f"{name}.png"
        if full:  # from the top: a scrolled page draws its sticky bar in the middle
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=full)
        self.taken.append(path)

    def publish(self) -> None:
        out = os.environ.get("FLOORMAN_CONSOLE_SHOTS")
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            for p in self.taken:
                shutil.copy(p, Path(out) / p.name)


def sign_in(context, url: str):
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/")
    return page


def reply_of(page) -> str:
    page.wait_for_selector("#reply:not([hidden])")
    return page.inner_text("#reply")


def act(page, selector: str) -> str:
    """Press a button and return the console's reply (the one after this press)."""
    page.evaluate("document.getElementById('reply').hidden = true")
    page.click(selector)
    return reply_of(page)


def test_a_night_through_the_console(console, chromium, tmp_path):
    url = console.url
    shots = Shots(tmp_path / "shots")
    # bypass_csp: the test's own wait_for_function snippets are evaluated strings
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", accept_downloads=True,
                                  bypass_csp=True)
    phone = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True, bypass_csp=True,
                                 has_touch=True)
    try:
        # ---------------------------------------------------------- sign in
        page = laptop.new_page()
        page.goto(url + "/")
        assert page.url == url + "/login"  # nothing without signing in
        shots(page, "login-laptop")
        page.fill("#password", "falsch")
        page.click("button[type=submit]")
        assert "Falsches Passwort" in page.inner_text(".error")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(url + "/")
        cookie = next(c for c in laptop.cookies() if c["name"] == "floorman_console")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        # the page knows no broker credential and no password
        assert PASSWORD not in page.content()

        # ------------------------------------------------------ register 20
        page.click("nav >> text=Spieler")
        page.fill("#reg-names", "\n".join(NAMES[:18]))
        assert "registered 18 players" in act(page, "#register-form button[type=submit]")
        assert page.input_value("#reg-names") == ""  # done: ready for the next ones
        page.fill("#reg-names", "\n".join(NAMES[18:]))
        page.check("#register-form input[name=guest]")
        assert "registered 2 players" in act(page, "#register-form button[type=submit]")
        page.wait_for_function("document.querySelectorAll('ul.players li').length === 20")
        # the search finds a registered name, and typing a known name says so
        page.fill("#search", "zimmer")
        assert page.locator("ul.players li:visible").count() == 1
        page.fill("#reg-names", "nils zimmermann")
        assert "Nils Zimmermann" in page.inner_text(".already")
        page.fill("#reg-names", "")
        page.fill("#search", "")
        shots(page, "players-laptop")

        # ------------------------------------------------------ draw, start
        page.click("nav >> text=Saal")
        assert "seats drawn" in act(page, "button:text-is('Plätze losen')")
        page.wait_for_selector("button.seat")
        assert "clock start" in act(page, "button:text-is('Start')")
        page.wait_for_selector(".clock.running")

        # ------------------------------------------------------ time, echoed
        page.fill("#time-form input[name=value]", "1:00")
        answer = act(page, "#time-form button")
        before, after = re.findall(r"(\d+:\d\d)", answer)
        to_s = [int(m) * 60 + int(s) for m, s in (x.split(":") for x in (before, after))]
        assert 55 <= to_s[1] - to_s[0] <= 61, answer

        # a mistake: the reason, nothing changed, the form keeps what was typed
        page.fill("#time-form input[name=value]", "1:75")
        assert "keine Zeit" in act(page, "#time-form button")
        assert page.input_value("#time-form input[name=value]") == "1:75"
        page.fill("#level-form input[name=to]", "40")
        assert "there is no level 40" in act(page, "#level-form button")
        assert page.input_value("#level-form input[name=to]") == "40"
        assert status(console.broker)["clock"]["level"] == 0
        shots(page, "floor-laptop")

        # ------------------------------------ a second director, on a phone
        other = sign_in(phone, url)
        other.wait_for_selector("button.seat")
        assert other.inner_text("#players-left") == "20"

        # ------------------------------------------------ bust by clicking
        seat = page.locator("button.seat").first
        name = seat.get_attribute("data-name")
        seat.click()
        page.wait_for_selector("#bust-dialog[open]")
        assert name in page.inner_text("#bust-dialog .bust-title")
        shots(page, "bust-dialog-laptop", full=False)
        # the seat shows the public name ("Tanja S.", 000 5.8), the answer the full one
        answer = act(page, "#bust-dialog button.danger")
        assert answer.startswith(name.split()[0]) and answer.endswith("out in place 20")
        # both directors see it at once (pushed, no reload)
        page.wait_for_function("document.getElementById('players-left').textContent === '19'")
        other.wait_for_function(
            "document.getElementById('players-left').textContent === '19'", timeout=3000)
        assert page.locator(f"button.seat[data-name='{name}']").count() == 0
        shots(other, "floor-phone")

        # ------------------------------------------------------------ undo
        page.once("dialog", lambda d: d.accept())
        assert "undone" in act(page, "#undo")
        other.wait_for_function(
            "document.getElementById('players-left').textContent === '20'", timeout=3000)
        assert status(console.broker)["summary"]["players_left"] == 20

        # ---------------------------------------- two out, results, export
        out = []
        for _ in range(2):
            seat = page.locator("button.seat").first
            out.append(seat.get_attribute("data-name"))
            seat.click()
            page.wait_for_selector("#bust-dialog[open]")
            assert "out in place" in act(page, "#bust-dialog button.danger")
            page.wait_for_selector("#bust-dialog", state="hidden")
            page.wait_for_function(
                f"!document.querySelector(\"button.seat[data-name='{out[-1]}']\")")
        page.click("nav >> text=Ergebnis")
        page.wait_for_selector("table.results")
        rows = page.locator("table.results tbody tr")
        assert rows.count() == 2
        assert out[0] in rows.nth(1).inner_text() and "20" in rows.nth(1).inner_text()
        shots(page, "results-laptop")
        with page.expect_download() as dl:
            page.click("#csv-de")
        raw = Path(dl.value.path()).read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the umlauts right
        text = raw.decode("utf-8-sig").splitlines()
        assert text[0].startswith("place;name;points")
        assert text[2].startswith(f"20;{out[0]};")
        with page.expect_download() as dl:
            page.click("#json")
        data = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
        assert [r["place"] for r in data["rows"]] == [19, 20]

        # ------------------------------------ every page at phone size, English
        other.goto(url + "/lang/en?next=/players")
        shots(other, "players-phone")
        other.goto(url + "/results")
        assert "So far" in other.inner_text("#resultlist")
        shots(other, "results-phone")
        other.goto(url + "/")
        other.wait_for_selector("button.seat")
        other.locator("button.seat").first.click()
        other.wait_for_selector("#bust-dialog[open]")
        assert re.fullmatch(r"Table \d+ · Seat \d+", other.inner_text("#bust-dialog .bust-where"))
        shots(other, "bust-dialog-phone", full=False)
        anon = chromium.new_context(viewport=PHONE, is_mobile=True, locale="de-DE")
        login = anon.new_page()
        login.goto(url + "/login")
        shots(login, "login-phone")
        anon.close()
        # nothing is wider than the phone (no sideways scrolling)
        for path in ("/", "/players", "/results"):
            other.goto(url + path)
            width = other.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (path, width)
    finally:
        shots.publish()
        laptop.close()
        phone.close()
