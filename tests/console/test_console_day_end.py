"""The director's colour-up and the end of the day in the console (002; issue 31 items 8, 9):
the forms become the commands, and the whole path through a real controller and Chromium.

002 "Die Turnierleitung kann jederzeit das Umtauschen von Jetons mit niedrigem Nennwert
durchführen. Der Spielgast muss beim Colour-Up persönlich anwesend sein."
002 "In den letzten 7-15 Minuten des letzten Levels hält der Turnierleiter die Uhr an. Ein
Spielgast zieht eine Karte zwischen 3 und 5."
"""

from __future__ import annotations

import pytest

from controller.console import actions
from controller.console.actions import FormError
from controller.console.i18n import LABELS
from tests.console.conftest import PASSWORD
from tests.console.test_console_parts import _signed_in
from tests.support.controller import status
from tests.support.waiting import wait_for


def test_the_forms_become_the_commands():
    assert actions.command("colour_up", {"chip": "25"}) == ("colour_up", {"chip": 25})
    # several chips (issue 32): spaces or commas between, "1.000" a thousand
    assert actions.command("colour_up", {"chip": "25 100"}) == \
        ("colour_up", {"chips": [25, 100]})
    assert actions.command("colour_up", {"chip": "25, 1.000"}) == \
        ("colour_up", {"chips": [25, 1000]})
    assert actions.command("end_of_day", {"card": "4"}) == ("end_of_day", {"card": 4})
    assert actions.command("chip_race", {"table": "1", "chips": "1:2 4:6", "absent": "4"}) == \
        ("chip_race", {"table": 1, "chips": [2, 0, 0, 6], "short": [], "absent": [4]})


@pytest.mark.parametrize("action,form,key", [
    ("colour_up", {"chip": ""}, "not_a_number"),
    ("colour_up", {"chip": "25er"}, "not_a_number"),
    ("end_of_day", {}, "not_a_number"),
    ("chip_race", {"table": "1", "chips": "1:2", "absent": "vier"}, "not_a_number"),
])
def test_a_form_that_is_no_command_is_refused_before_sending(action, form, key):
    with pytest.raises(FormError) as info:
        actions.command(action, form)
    assert info.value.key == key and key in LABELS


def _to_the_last_level(c, h) -> None:
    """The director jumps to the day's last level (the structure's last)."""
    for _ in range(60):
        if c.post("/act/level", data={"to": "next"}, headers=h).json()["ok"] is False:
            return
    raise AssertionError("no last level")


def test_colour_up_and_the_end_of_the_day_through_the_console(console, chromium, tmp_path):
    c, csrf = _signed_in(console.url)
    h = {"Accept": "application/json", "X-CSRF-Token": csrf, "Origin": console.url}
    names = "\n".join(f"Player {i}" for i in range(1, 19))
    assert c.post("/act/register", data={"names": names}, headers=h).json()["ok"]
    assert c.post("/act/draw", data={}, headers=h).json()["ok"]
    assert c.post("/act/start", data={}, headers=h).json()["ok"]
    b = console.broker

    page = chromium.new_page(locale="de", viewport={"width": 1280, "height": 900})
    try:
        page.goto(console.url + "/login")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.goto(console.url + "/?lang=de")
        assert page.locator("#day-end-open").count() == 0  # not the last level

        # the colour-up, in a playing level (002 "jederzeit")
        page.click(".tabs button[data-tab='counts']")
        page.fill("#colour-up-form input[name=chip]", "25 100")  # two chips (issue 32)
        page.click("#colour-up-form button[type=submit]")
        wait_for(lambda: "Chip Race 25 → 100" in page.inner_text("#tables")
                 and "Chip Race 100 → 500" in page.inner_text("#tables"), 20,
                 "the tables' chip races after the colour-up")
        page.screenshot(path=str(tmp_path / "colour-up.png"), full_page=True)
        # an absent player's small chips leave play (002)
        before = status(b)["summary"]["chips_in_play"]
        r = c.post("/act/chip_race", data={"table": "1", "chips": "1:2 3:6", "absent": "3"},
                   headers=h).json()
        assert r["ok"], r
        after = status(b)["summary"]["chips_in_play"]
        assert "abwesend verliert 150" in r["message"]
        assert after <= before - 150 + 100  # 150 lost, the race's rounding at most +50
        # table 1 raced the 25s: its next race is the 100s', the other table's the 25s'
        wait_for(lambda: "Chip Race 25 → 100 ✓" in page.inner_text(
            "section.table[data-table='1']"), 20, "table 1's race for the 25s done")
        assert "✓" not in page.inner_text("section.table[data-table='2']")
        page.screenshot(path=str(tmp_path / "colour-up-raced.png"), full_page=True)

        # the day's last level, 20 minutes left: the button is there but not active
        _to_the_last_level(c, h)
        assert c.post("/act/time", data={"op": "set", "value": "20:00"},
                      headers=h).json()["ok"]
        page.click(".tabs button[data-tab='clock']")
        wait_for(lambda: page.locator("#day-end-open").count() == 1, 20, "the button")
        assert page.locator("#day-end-open").is_disabled()
        # ten minutes left: active; the dialog asks for the card a player drew
        assert c.post("/act/time", data={"op": "set", "value": "10:00"},
                      headers=h).json()["ok"]
        wait_for(lambda: page.locator("#day-end-open").is_enabled(), 20, "the button active")
        page.click("#day-end-open")
        page.check("#day-end-form input[name=card][value='4']")
        page.screenshot(path=str(tmp_path / "day-end-dialog.png"))
        page.click("#day-end-form button[type=submit]")
        wait_for(lambda: status(b)["summary"]["hands_left"] == 4, 20, "four hands left")
        s = status(b)
        assert s["clock"]["running"] is False and s["summary"]["day_over"] is False
        wait_for(lambda: page.locator("#hands-left").inner_text() == "4", 20, "shown")
        assert page.locator(".table-hands-left").all_inner_texts() == ["noch 4 Hände"] * 2
        assert c.post("/act/hand_done", data={"table": "1"}, headers=h).json()["ok"]
        wait_for(lambda: page.locator(".table-hands-left").all_inner_texts()
                 == ["noch 3 Hände", "noch 4 Hände"], 20, "table 1 counted down")
        assert page.locator("#day-end-open").count() == 0  # set: no second draw
        # every table plays its four hands: the day is over
        for table, hands in ((1, 3), (2, 4)):
            for _ in range(hands):
                assert c.post("/act/hand_done", data={"table": str(table)},
                              headers=h).json()["ok"]
        r = c.post("/act/hand_done", data={"table": "1"}, headers=h).json()
        assert r["ok"] is False and "letzte Hand des Tages" in r["reason"], r
        wait_for(lambda: page.locator("#hands-left").inner_text() == "Spieltag vorbei", 20,
                 "the day over")
        page.screenshot(path=str(tmp_path / "day-over.png"), full_page=True)
    finally:
        page.close()


def test_the_card_outside_the_window_is_refused_with_the_rule(console):
    c, csrf = _signed_in(console.url)
    h = {"Accept": "application/json", "X-CSRF-Token": csrf, "Origin": console.url}
    names = "\n".join(f"Player {i}" for i in range(1, 10))
    assert c.post("/act/register", data={"names": names}, headers=h).json()["ok"]
    assert c.post("/act/draw", data={}, headers=h).json()["ok"]
    assert c.post("/act/start", data={}, headers=h).json()["ok"]
    r = c.post("/act/end_of_day", data={"card": "4"}, headers=h).json()
    assert r["ok"] is False and "letzten 7-15 Minuten" in r["reason"], r
