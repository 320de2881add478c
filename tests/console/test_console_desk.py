"""The registration desk through the console in a real headless Chromium against a real
Mosquitto and controller (issue 31): a seat limit of 4 (002), registrations beyond it "auf
die Warteliste" with their positions, a cancellation that calls the first in line, more
seats from the console; pre-registration (000 2.2), check-in with one tap, and the
no-shows of the draw (000 2.7). Screenshots go to the test's folder (and, with
FLOORMAN_CONSOLE_SHOTS=DIR, to DIR)."""

from __future__ import annotations

from tests.console.test_console_browser import LAPTOP, Shots, act, sign_in
from tests.support.paths import SAMPLE_TOURNAMENT

ROOM = "\ndesk:\n  seats: 4\n"


def waiting(page) -> list[str]:
    return page.eval_on_selector_all("#waiting-list li .who", "els => els.map(e => e.textContent)")


def test_the_desk_runs_a_waiting_list_002(tmp_path, broker, prefix, controller_factory,
                                          chromium):
    from controller.console.app import Console  # noqa: F401  (the fixture's room)
    from tests.console.conftest import start_console
    from tests.support.controller import wait_up

    config = tmp_path / "room.yaml"
    config.write_text(SAMPLE_TOURNAMENT.read_text(encoding="utf-8") + ROOM, encoding="utf-8")
    controller_factory(config)
    b = broker.for_prefix(prefix)
    wait_up(b)
    console = start_console(b, tmp_path)
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(laptop, console.url)
        page.click("nav >> text=Spieler")
        # 002: six for four seats: two wait, in the order they came
        page.fill("#reg-names", "Anna\nBen\nCem\nDora\nEmil\nFritz")
        answer = act(page, "#register-form button[type=submit]")
        assert "4 angemeldet: Anna, Ben, Cem, Dora" in answer
        assert "Emil auf der Warteliste (Platz 1)" in answer
        assert "Fritz auf der Warteliste (Platz 2)" in answer
        page.wait_for_function("document.querySelectorAll('#waiting-list li').length === 2")
        assert waiting(page) == ["Emil", "Fritz"]
        assert page.inner_text("#seat-limit") == "Plätze: 4 von 4 vergeben"
        assert page.inner_text("#waiting-list li[data-name='fritz'] .pos") == "2."
        shots(page, "desk-waiting-list")
        # the players' page (no sign-in) shows the line with positions, public names (000 5.8)
        public = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                      is_mobile=True, bypass_csp=True)
        phone = public.new_page()
        phone.goto(console.url + "/p")
        phone.wait_for_selector("#public-waiting li")
        assert phone.eval_on_selector_all(
            "#public-waiting li", "els => els.map(e => e.textContent.trim())") == [
                "1. Emil", "2. Fritz"]
        shots(phone, "desk-public-waiting")
        public.close()
        # a cancellation frees a seat: the first in line is called (002, first come first served)
        page.click(".tabs button[data-tab='fix']")
        page.fill("#cancel-form input[name=player]", "Ben")
        answer = act(page, "#cancel-form button")
        assert answer == ("Ben von der Liste genommen; Emil von der Warteliste nachgerückt: "
                          "ein Platz ist frei; Emil angemeldet")
        page.wait_for_function("document.querySelectorAll('#waiting-list li').length === 1")
        assert waiting(page) == ["Fritz"]
        page.wait_for_selector("ul.players li[data-name='emil']")
        # a name on the waiting list is not registered twice
        page.click(".tabs button[data-tab='register']")
        page.fill("#reg-names", "fritz")
        answer = act(page, "#register-form button[type=submit]")
        assert answer == "Fritz steht schon auf der Warteliste (Platz 1)"
        # more seats: the next in line comes in, the list is empty
        page.fill("#capacity-form input[name=seats]", "6")
        answer = act(page, "#capacity-form button")
        assert answer.startswith("Platzgrenze 6; Fritz von der Warteliste nachgerückt")
        page.wait_for_selector("#desk >> text=Niemand wartet.")
        assert page.inner_text("#seat-limit") == "Plätze: 5 von 6 vergeben"
        shots(page, "desk-after-more-seats")
    finally:
        laptop.close()
        shots.publish()
        console.stop()


def test_pre_registration_check_in_and_the_no_shows_000_2_2_2_7(
        tmp_path, broker, prefix, controller_factory, chromium):
    """000 2.2: the list the director kept is entered ahead; at the desk one tap checks a
    player in; 000 2.6: a cancellation; 000 2.7: who is still expected at the draw did not
    come, and the players' page says so."""
    from tests.console.conftest import start_console
    from tests.support.controller import wait_up

    controller_factory()
    b = broker.for_prefix(prefix)
    wait_up(b)
    console = start_console(b, tmp_path)
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(laptop, console.url)
        page.click("nav >> text=Spieler")
        page.fill("#pre-names", "Eva Huber\nKarl Meier\nLea Fischer")
        answer = act(page, "#preregister-form button[type=submit]")
        assert answer == ("3 angemeldet: Eva Huber, Karl Meier, Lea Fischer; 3 vorangemeldet, "
                          "erwartet: Eva Huber, Karl Meier, Lea Fischer")
        page.fill("#reg-names", "Anna\nBen")
        assert "2 angemeldet" in act(page, "#register-form button[type=submit]")
        page.wait_for_function("document.querySelectorAll('ul.players li').length === 5")
        assert page.locator("ul.players li .badge.expected").count() == 3
        shots(page, "desk-expected")
        # one tap at the desk
        answer = act(page, "ul.players li[data-name='eva huber'] form.checkin button")
        assert answer == "Eva Huber eingecheckt"
        page.wait_for_function(
            "document.querySelectorAll('ul.players li .badge.expected').length === 2")
        assert page.locator("ul.players li[data-name='eva huber'] .badge.expected").count() == 0
        # Karl calls off in time (000 2.6)
        page.click(".tabs button[data-tab='fix']")
        page.fill("#cancel-form input[name=player]", "Karl Meier")
        assert act(page, "#cancel-form button") == "Karl Meier von der Liste genommen"
        # the draw: Lea did not come (000 2.7)
        page.click("nav >> text=Saal")
        page.click(".tabs button[data-tab='actions']")
        answer = act(page, "button:text-is('Plätze losen')")
        assert answer.startswith(
            "Nicht erschienen (No-Show): Lea Fischer; Plätze ausgelost: 1 Tisch")
        page.click("nav >> text=Spieler")
        page.wait_for_selector("#no-shows")
        assert page.inner_text("#no-shows") == "Lea Fischer"
        assert page.locator("ul.players li").count() == 3
        shots(page, "desk-no-shows")
    finally:
        laptop.close()
        shots.publish()
        console.stop()
