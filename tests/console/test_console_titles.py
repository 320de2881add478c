"""The season's titles and the cup on the console, in Debian's headless Chromium (issue
31; 000 5.2, 6, 7.2, 8): from the results page to the printable titles (Meister,
Jahressieger, Cupsieger, the championship list, the trophies) and the cup's field (the
seeded finalists, the preliminary round). The club database is a PSC season of real
event logs (tests/club/test_season_titles.py); the console is the real one. Screenshots
into the test's folder (and FLOORMAN_CONSOLE_SHOTS=docs/console)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from controller.club import players, trophies
from controller.club.db import open_club
from tests.club.test_season_titles import MEMBERS, psc_season
from tests.console.nights import hub_of, nights
from tests.console.test_console_browser import LAPTOP, Shots, sign_in
from tests.console.test_console_prints import pdf_pages, serving


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    return nights()


def test_the_titles_and_the_cup_from_the_results_page(chromium, played, tmp_path,
                                                      monkeypatch):
    club = psc_season(tmp_path)
    monkeypatch.setenv("FLOORMAN_CLUB", club)
    # the trophies of the years before (entered by hand): M01 Meister twice, M12 the cup —
    # and M12 has left the club since (000 8.6: the trophy goes back)
    db = open_club(club)
    for season in ("2024", "2025"):
        trophies.record(db, season, "meister", [MEMBERS[0]], datetime.date(2026, 1, 2))
    trophies.record(db, "2025", "cupsieger", [MEMBERS[11]], datetime.date(2026, 1, 2))
    players.set_member(db, MEMBERS[11], False, None)
    db.close()
    t, now = played["finished"]
    shots = Shots(tmp_path / "shots")
    for url in serving(hub_of(t, now)):
        context = chromium.new_context(viewport=LAPTOP, locale="de-DE")
        page = sign_in(context, url)
        page.goto(url + "/lang/de?next=/results")
        page.click("#print-titles")
        page.wait_for_selector("#championship")
        assert page.inner_text("h1") == "Titel 2026"
        # 000 8.2: the most knock-outs; the season runs on (no cup final yet): leads
        meister = page.inner_text("#title-meister")
        assert "M01 Spieler" in meister and "führt" in meister, meister
        assert "noch niemand" in page.inner_text("#title-cupsieger")
        rows = page.locator("#championship tbody tr")
        assert rows.nth(0).inner_text().split("\t") == ["1", "M01 Spieler", "48"]
        assert rows.nth(1).inner_text().split("\t") == ["2", "M02 Spieler", "11"]
        assert "Gast" not in page.inner_text("#championship")  # 000 6.2: members only
        held = page.inner_text("#trophies")
        assert "Meister: M01 Spieler seit 2025" in held, held
        assert "Cupsieger: M12 Spieler seit 2025 — M12 Spieler ist kein Mitglied mehr: der " \
            "Pokal geht zurück (000 8.6)" in held, held
        assert pdf_pages(page.pdf(format="A4")) == 1
        page.emulate_media(media="print")
        shots(page, "print-titles")
        page.emulate_media(media="screen")
        page.goto(url + "/results")
        page.click("#print-cup")
        page.wait_for_selector("#cup-seeded")
        assert page.inner_text("h1") == "Cup 2026"
        assert "11 qualifiziert" in page.inner_text("header.head p")  # 000 7.2: M12 played 4
        seeded = page.locator("#cup-seeded tbody tr")
        assert seeded.count() == 3  # 11-15 qualified: top 3
        assert seeded.nth(0).inner_text().split("\t") == ["1", MEMBERS[0], "61", "5"]
        assert seeded.nth(1).inner_text().split("\t") == ["2", MEMBERS[1], "24,5", "5"]
        assert "Vorrunde: 7 Finalplätze für 8 Spieler" in page.inner_text("body")
        assert page.locator("#cup-preliminary tbody tr").count() == 8
        assert MEMBERS[11] not in page.inner_text("body")  # 4 tournaments, and no member
        page.emulate_media(media="print")
        shots(page, "print-cup")
        context.close()
    shots.publish()


def test_without_a_club_database_the_page_says_so(chromium, played, tmp_path, monkeypatch):
    monkeypatch.setenv("FLOORMAN_CLUB", str(tmp_path / "none.sqlite"))
    t, now = played["finished"]
    for url in serving(hub_of(t, now)):
        context = chromium.new_context(viewport=LAPTOP, locale="en-GB")
        page = sign_in(context, url)
        page.goto(url + "/lang/en?next=/print/titles")
        assert "no club database there" in page.inner_text("body")
        page.goto(url + "/print/cup")
        assert "no club database there" in page.inner_text("body")
        page.goto(url + "/lang/de?next=/print/cup")  # the console's language, German too
        assert "hier ist keine Vereinsdatenbank" in page.inner_text("body")
        context.close()
