"""The director's chip counts and a round's end in the console (000 4.14, 4.15, 4.19): the
typed lines become the commands' counts, and the whole path through a real controller."""

from __future__ import annotations

from typing import Any

import pytest

from controller.console import actions
from controller.console.actions import FormError
from controller.console.i18n import LABELS
from tests.console.conftest import PASSWORD, start_console
from tests.console.test_console_parts import _signed_in
from tests.support.controller import status, wait_up
from tests.support.paths import ROOT
from tests.support.waiting import wait_for


def test_the_counts_become_the_commands_list():
    form = {"counts": "Ann Berger 23500\n3/4 8.100; T2/S9 12,000\n  Jo 1  "}
    counts = [{"player": "Ann Berger", "chips": 23500}, {"table": 3, "seat": 4, "chips": 8100},
              {"table": 2, "seat": 9, "chips": 12000}, {"player": "Jo", "chips": 1}]
    assert actions.command("chip_counts", form) == ("chip_counts", {"counts": counts})
    assert actions.command("end_round", form) == ("end_round", {"counts": counts})
    # a round's end without counts: the engine says whether this round needs them
    assert actions.command("end_round", {"counts": " \n"}) == ("end_round", {"counts": []})


@pytest.mark.parametrize("counts,key", [
    ("", "missing"),
    ("Ann", "bad_count"),
    ("23500", "bad_count"),
    ("Ann 23k", "bad_count"),
    ("Ann -5", "bad_count"),
])
def test_counts_that_are_no_command_are_refused_before_sending(counts, key):
    with pytest.raises(FormError) as info:
        actions.command("chip_counts", {"counts": counts})
    assert info.value.key == key
    assert key in LABELS


def test_counts_and_a_round_s_end_through_the_console(tmp_path, broker, prefix,
                                                      controller_factory, chromium):
    controller_factory(ROOT / "config" / "tournaments" / "psc-play-the-clock.yaml")
    b = broker.for_prefix(prefix)
    wait_up(b)
    console = start_console(b, tmp_path)
    try:
        c, csrf = _signed_in(console.url)
        h = {"Accept": "application/json", "X-CSRF-Token": csrf, "Origin": console.url}
        names = "\n".join(f"Player {i}" for i in range(1, 10))
        assert c.post("/act/register", data={"names": names}, headers=h).json()["ok"]
        assert c.post("/act/draw", data={}, headers=h).json()["ok"]
        assert c.post("/act/start", data={}, headers=h).json()["ok"]
        assert 'formaction="/act/end_round"' in c.get("/").text  # a round mode: the button

        r = c.post("/act/chip_counts", data={"counts": "Player 3 4.200"}, headers=h).json()
        assert r["ok"] and r["message"] == "1 Stacks gezählt", r
        assert status(b)["summary"]["chip_leader"] == {"name": "Player 3", "chips": 4200}
        # counts the engine refuses come back with its reason, and change nothing
        r = c.post("/act/chip_counts", data={"counts": "Nobody 100"}, headers=h).json()
        assert r["ok"] is False and "Nobody" in r["reason"]
        # the round's end before its 90 minutes: the engine's reason, in German
        r = c.post("/act/end_round", data={"counts": ""}, headers=h).json()
        assert r["ok"] is False and "Runde 1 endet nach 90 Minuten Spielzeit" in r["reason"], r
        assert status(b)["summary"]["round"]["number"] == 1
        r = c.post("/act/chip_counts", data={"counts": "Player 3 lots"}, headers=h)
        assert r.status_code == 400 and "Player 3 lots" in r.json()["reason"]

        # in the browser the round's end asks first; "cancel" sends nothing
        page = chromium.new_page(locale="de")
        page.goto(console.url + "/login")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.goto(console.url + "/?lang=de")
        asked: list[str] = []

        def dismiss(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", dismiss)
        page.click(".tabs button[data-tab='counts']")  # the counts: one tab away
        page.fill("#counts-form textarea", "Player 3 5000")
        page.click("#counts-form button[formaction='/act/end_round']")
        wait_for(lambda: asked, 10, "the round's end to ask")
        assert asked == ["Diese Runde jetzt beenden (mit der Zählung oben)?"]
        page.click("#counts-form button:not([formaction])")  # no question: recorded
        wait_for(lambda: (status(b)["summary"]["chip_leader"] or {}).get("chips") == 5000, 10,
                 "the count from the browser")
        assert asked == ["Diese Runde jetzt beenden (mit der Zählung oben)?"]
        page.close()
    finally:
        console.stop()


def test_a_tournament_without_rounds_has_no_round_end_button(console):
    c, _ = _signed_in(console.url)
    page = c.get("/").text
    assert 'action="/act/chip_counts"' in page
    assert "/act/end_round" not in page
