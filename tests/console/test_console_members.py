"""Members, guests and bans at the desk through the console, in a real headless Chromium
against a real Mosquitto and controller with a club database (issue 31): the desk asks
a player whose 18 is not on record (000 1.1, 003 1), a members-only event refuses a guest
(000 2.5, 003 8; a member without the season's fee is one, 000 1.3, 2.1), a banned
player is refused with the end (000 2.7), and the director sees the bans and lifts one
on the players' page (recorded in the club database)."""

from __future__ import annotations

import datetime

from controller.club import members
from controller.club.bans import bans
from controller.club.db import open_club
from controller.club.imports import import_log
from tests.club.test_no_show_bans import NICO, night
from tests.console.test_console_browser import LAPTOP, Shots, act, sign_in
from tests.support.paths import SAMPLE_TOURNAMENT

CUP = "\ndesk:\n  members_only: true\n"


def club(tmp_path, today: datetime.date):
    """Nico did not come twice in the last two months (a 3-month ban holds today); Anna
    paid this season and confirmed 18, Bert paid last season only."""
    path = tmp_path / "club.sqlite"
    db = open_club(path)
    for i, back in enumerate((60, 30)):
        day = (today - datetime.timedelta(days=back)).isoformat()
        import_log(db, str(night(tmp_path / f"night{i}.sqlite", day, [NICO])))
    season = str(today.year)
    members.pay_fee(db, "Anna Berg", season, today)
    members.confirm_adult(db, "Anna Berg", today)
    members.pay_fee(db, "Bert Cox", str(today.year - 1), today.replace(year=today.year - 1))
    members.confirm_adult(db, "Bert Cox", today)
    db.close()
    return path


def test_the_desk_checks_members_age_and_bans_and_lifts_a_ban_000_2_5_1_1_2_7(
        tmp_path, broker, prefix, controller_factory, chromium, monkeypatch):
    from tests.console.conftest import start_console
    from tests.support.controller import wait_up

    today = datetime.date.today()
    path = club(tmp_path, today)
    monkeypatch.setenv("FLOORMAN_CLUB", str(path))  # the controller's and the console's
    config = tmp_path / "cup.yaml"
    config.write_text(SAMPLE_TOURNAMENT.read_text(encoding="utf-8") + CUP, encoding="utf-8")
    controller_factory(config)
    b = broker.for_prefix(prefix)
    wait_up(b)
    console = start_console(b, tmp_path)
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(laptop, console.url)
        page.click("nav >> text=Spieler")
        # 000 1.1, 003 1: a new player without a confirmation on record is asked first
        page.fill("#reg-names", "Anna Berg\nNora Neu")
        answer = act(page, "#register-form button[type=submit]")
        assert answer.startswith("Nora Neu fragen: 18 oder älter? Keine Bestätigung "
                                 "gespeichert (000 1.1, 003 1)")
        page.fill("#reg-names", "Anna Berg\nNora Neu")
        page.check("#register-form input[name=adult]")
        assert act(page, "#register-form button[type=submit]") == (
            "2 angemeldet: Anna Berg, Nora Neu; 18 Jahre oder älter, bestätigt: Anna Berg, "
            "Nora Neu")
        # 000 2.5: Bert paid last season only: a guest, and the cup is for members
        page.fill("#reg-names", "Bert Cox")
        answer = act(page, "#register-form button[type=submit]")
        assert answer.startswith("Bert Cox ist Gast: ")
        assert answer.endswith("ist nur für Vereinsmitglieder (000 2.5, 003 8)")
        # 000 2.7: Nico's ban, with its end
        until = next(x for x in bans(open_club(path, readonly=True)) if x.holds_on(today)).until
        page.fill("#reg-names", NICO)
        page.check("#register-form input[name=adult]")
        answer = act(page, "#register-form button[type=submit]")
        assert answer == (f"{NICO} ist bis {until.isoformat()} für Turniere gesperrt, weil "
                          "ohne Abmeldung nicht erschienen (000 2.7)")
        shots(page, "desk-members-only")
        # the bans on the players' page; the director lifts Nico's
        page.click(".tabs button[data-tab='bans']")
        assert " ".join(page.inner_text("#ban-list li[data-name='nico nie']").split()).startswith(
            f"{NICO} gesperrt bis {until.isoformat()}")
        shots(page, "desk-bans")
        page.fill("#lift-ban-form input[name=player]", "Nobody")
        page.fill("#lift-ban-form input[name=reason]", "x")
        assert act(page, "#lift-ban-form button") == "Nobody hat heute keine Sperre"
        page.fill("#lift-ban-form input[name=player]", NICO)
        page.fill("#lift-ban-form input[name=reason]", "")
        assert act(page, "#lift-ban-form button") == "Bitte Grund ausfüllen."
        page.fill("#lift-ban-form input[name=reason]", "Vorstand: krank, Absage kam nicht an")
        assert act(page, "#lift-ban-form button") == (
            f"{NICO}: die Sperre bis {until.isoformat()} ist aufgehoben")
        page.wait_for_selector("#ban-none", state="attached", timeout=15000)  # drawn again
        page.click(".tabs button[data-tab='bans']")
        assert page.inner_text("#ban-none") == "Heute gilt keine Sperre."
        db = open_club(path, readonly=True)
        assert [x.lifted for x in bans(db) if x.until == until] == [
            (today.isoformat(), "Vorstand: krank, Absage kam nicht an")]
        db.close()
        # no ban any more: the next rule speaks (Nico paid no fee: a guest at the cup)
        page.click(".tabs button[data-tab='register']")
        page.fill("#reg-names", NICO)
        page.check("#register-form input[name=adult]")
        assert act(page, "#register-form button[type=submit]").startswith(f"{NICO} ist Gast")
    finally:
        laptop.close()
        shots.publish()
        console.stop()


ROOM = "\ndesk:\n  seats: 4\nentries:\n  late_registration_levels: 1\n  reentries: 1\n" \
       "  reentry_until_level: 4\n"


def test_the_desk_says_the_cutoff_and_a_re_entry_waits_on_a_sold_out_night_002(
        tmp_path, broker, prefix, controller_factory, chromium):
    """002: a sold-out night: a busted player's re-entry goes on the waiting list (not a
    seat beyond the limit); the desk says until which level late registration is open and
    that it closed (000 2.4, the preset's late_registration_levels)."""
    from tests.console.conftest import start_console
    from tests.support.controller import director, wait_up

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
        page.fill("#reg-names", "Anna\nBen\nCem\nDora")
        assert "4 angemeldet" in act(page, "#register-form button[type=submit]")
        page.wait_for_selector("#late-cutoff")
        assert page.inner_text("#late-cutoff") == "Nachmeldung bis Ende Level 1"
        for cmd in ("draw", "start"):
            assert director(b, cmd)["ok"]
        assert director(b, "bust", {"player": "Ben", "confirm": True})["ok"]
        page.fill("#late-form input[name=name]", "Emil")
        assert act(page, "#late-form button").startswith("Emil")  # Ben's seat was free
        # sold out again: Ben's re-entry waits in line, it takes no fifth seat
        page.click(".tabs button[data-tab='entry']")
        page.fill("#rebuy-form input[name=player]", "Ben")
        answer = act(page, "#rebuy-form button[formaction='/act/reentry']")
        assert answer == "Ben auf der Warteliste (Platz 1)"
        page.wait_for_function("document.querySelectorAll('#waiting-list li').length === 1")
        assert page.inner_text("#seat-limit") == "Plätze: 4 von 4 vergeben"
        shots(page, "desk-reentry-waits")
        # the next bust calls him: a re-entry, at once
        assert director(b, "bust", {"player": "Cem", "confirm": True})["ok"]
        page.wait_for_selector("#desk >> text=Niemand wartet.")
        # level 2: late registration closed, and the desk says so
        assert director(b, "level", {"to": 2})["ok"]
        page.wait_for_function("(document.getElementById('late-cutoff') || {}).textContent"
                               " === 'Nachmeldung nach Level 1 geschlossen: Nachzügler nur "
                               "noch mit Häkchen „trotz Nachmeldeschluss“'")
        page.click(".tabs button[data-tab='register']")
        page.fill("#late-form input[name=name]", "Fritz")
        assert act(page, "#late-form button") == "Die Nachmeldung endete nach Level 1"
        shots(page, "desk-late-closed")
    finally:
        laptop.close()
        shots.publish()
        console.stop()


def test_a_players_own_request_from_the_players_page_the_director_confirms_000_2_2(
        tmp_path, console, chromium):
    """000 2.2: registration by mail, Facebook or in person; here from the players' page:
    a name and a contact, no account, a few an address; the director confirms one (a
    pre-registration) or drops it on the Spieler page."""
    from controller.console.requests import PER_CLIENT

    shots = Shots(tmp_path / "shots")
    public = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                  is_mobile=True, bypass_csp=True)
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        phone = public.new_page()
        phone.goto(console.url + "/p")

        def ask(name: str, contact: str) -> str:
            phone.fill("#request-form input[name=name]", name)
            phone.fill("#request-form input[name=contact]", contact)
            with phone.expect_navigation():
                phone.click("#request-form button")
            phone.wait_for_selector("#request-said")
            return phone.inner_text("#request-said")

        assert ask("Lea Fischer", "lea@example.org") == (
            "Danke: die Anfrage wartet auf die Turnierleitung.")
        shots(phone, "desk-request-phone")
        assert ask("lea fischer", "0664 123") == "Eine Anfrage mit diesem Namen wartet schon."
        for i in range(1, PER_CLIENT):
            assert ask(f"Gast {i}", "0664 123").startswith("Danke")
        assert ask("Noch Einer", "0664 123") == (
            "Zu viele Anfragen von diesem Gerät: bitte in 10 Minuten noch einmal.")
        # the director: the requests on the Spieler page
        page = sign_in(laptop, console.url)
        page.click("nav >> text=Spieler")
        names = page.eval_on_selector_all("#request-list li .who",
                                          "els => els.map(e => e.textContent)")
        assert names == ["Lea Fischer", "Gast 1", "Gast 2"]
        assert page.inner_text("#request-list li[data-name='lea fischer'] .contact") == \
            "lea@example.org"
        shots(page, "desk-requests")
        answer = act(page, "#request-list li[data-name='lea fischer'] button:text-is('Bestätigen')")
        assert answer == "Lea Fischer angemeldet; Lea Fischer vorangemeldet, erwartet"
        page.wait_for_selector("ul.players li[data-name='lea fischer'] .badge.expected")
        page.wait_for_function("document.querySelectorAll('#request-list li').length === 2")
        answer = act(page, "#request-list li[data-name='gast 1'] button:text-is('Verwerfen')")
        assert answer == "Anfrage von Gast 1 verworfen"
        page.wait_for_function("document.querySelectorAll('#request-list li').length === 1")
        assert page.locator("ul.players li[data-name='gast 1']").count() == 0
    finally:
        laptop.close()
        public.close()
        shots.publish()


def test_a_player_seated_in_an_earlier_tournament_is_noted_on_the_console_001_1_3(
        tmp_path, console, chromium):
    """001 §1 III: the director notes that a player sits in another tournament of the
    floor that started earlier; a bust here is refused with the reason until it is over
    there."""
    from controller.director import send

    b = console.broker
    assert send(b, "register", {"names": ["Anna Schmidt", "Ben Meyer", "Cem Yilmaz"]})["ok"]
    assert send(b, "draw", {})["ok"]
    assert send(b, "start", {})["ok"]
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(laptop, console.url)
        page.click("nav >> text=Spieler")
        page.click(".tabs button[data-tab='fix']")
        form = "#elsewhere-form"
        page.fill(f"{form} input[name=player]", "Anna Schmidt")
        page.fill(f"{form} input[name=tournament]", "PSC Bounty")
        page.fill(f"{form} input[name=started]", "7 Uhr")
        assert act(page, f"{form} button") == (
            "„7 Uhr“ ist keine Uhrzeit: HH:MM schreiben, z. B. 19:00.")
        page.fill(f"{form} input[name=started]", "00:00")  # today at midnight: earlier
        assert act(page, f"{form} button") == (
            "Anna Schmidt spielt zuerst bei PSC Bounty (früher gestartet, 001 §1 III)")
        page.wait_for_selector("ul.players li[data-name='anna schmidt'] .badge.elsewhere")
        assert page.inner_text("ul.players li[data-name='anna schmidt'] .badge.elsewhere") == \
            "zuerst bei PSC Bounty"
        shots(page, "desk-elsewhere")
        answer = send(b, "bust", {"player": "Anna Schmidt", "confirm": True})
        assert not answer["ok"] and "PSC Bounty" in answer["reason"]
        page.fill(f"{form} input[name=player]", "Anna Schmidt")
        page.fill(f"{form} input[name=tournament]", "PSC Bounty")
        page.check(f"{form} input[name=done]")
        assert act(page, f"{form} button") == (
            "Anna Schmidt ist bei PSC Bounty fertig: spielt jetzt hier")
        assert send(b, "bust", {"player": "Anna Schmidt", "confirm": True})["ok"]
    finally:
        laptop.close()
        shots.publish()
