"""003 12 through the console: a player moved after posting a blind sits out until the
button has passed ("kann aussetzen"), and the seat's menu deals the player in at once
("Sofort einsteigen") when they want to play; shown on such a seat only. Real headless
Chromium, a real Mosquitto and controller with the Ace of Spades preset
(``balancing.blinds_sit_out``). Screenshots go to the test's folder."""

from __future__ import annotations

from controller.console import actions
from controller.director import send
from tests.console.conftest import TableClient, start_console
from tests.console.test_console_browser import LAPTOP, NAMES, Shots, act, sign_in
from tests.support.controller import wait_up
from tests.support.paths import ROOT
from tests.support.waiting import wait_for

ACE = ROOT / "config" / "tournaments" / "ace-of-spades-championship.yaml"


def test_the_form_becomes_the_command():
    assert actions.command("deal_in", {"player_id": "7"}) == ("deal_in", {"player": 7})


def seat_of(table: TableClient, n: int, name: str) -> dict:
    view = table.get(f"state/table/{n}") or {}
    return next((s for s in view.get("seats", []) if s["name"] == name), {})


def test_a_moved_blind_is_dealt_in_from_the_seat_menu(broker, prefix, controller_factory,
                                                      chromium, tmp_path):
    controller_factory(ACE)
    b = broker.for_prefix(prefix)
    wait_up(b)
    console = start_console(b, tmp_path)
    assert send(b, "register", {"names": NAMES[:16]})["ok"]
    assert send(b, "draw")["ok"] and send(b, "start")["ok"]
    table = TableClient(b)
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        # table 1's big blind reseated to table 2: sits out there (003 12)
        wait_for(lambda: (table.get("state/table/1") or {}).get("big_blind"), 20,
                 "table 1 has its blinds")
        view1 = table.get("state/table/1")
        mover = next(s["name"] for s in view1["seats"] if s["seat"] == view1["big_blind"])
        view2 = table.get("state/table/2")
        taken = {s["seat"] for s in view2["seats"]}
        for free in (s for s in range(1, view2["size"] + 1) if s not in taken):
            answer = send(b, "reseat", {"player": mover, "table": 2, "seat": free,
                                        "reason": "Rollstuhl"})
            assert answer["ok"], answer
            wait_for(lambda: seat_of(table, 2, mover), 20, "table 2 shows the arrival")
            if seat_of(table, 2, mover).get("sits_out"):
                break
        row = seat_of(table, 2, mover)
        assert row["waiting"] is True and row["sits_out"] is True, row

        page = sign_in(laptop, console.url)
        other = next(s["name"] for s in view2["seats"])
        # a seat that does not sit out has no such button
        page.click(f"section.table[data-table='2'] button.seat[data-full='{other}']")
        page.wait_for_selector("#bust-dialog[open] #bust-form:not([hidden])")
        assert not page.is_visible("#deal-in-form")
        page.click("#bust-form button.cancel")
        # the one sitting out has it
        seat = f"section.table[data-table='2'] button.seat[data-full='{mover}']"
        page.wait_for_selector(seat + "[data-sits-out]")
        page.click(seat)
        page.wait_for_selector("#bust-dialog[open] #deal-in-form:not([hidden])")
        assert "bis der Button vorbei ist" in page.inner_text("#deal-in-form")
        shots(page, "deal-in-dialog")
        answer = act(page, "#deal-in-form button[type=submit]")
        assert answer.startswith(f"{mover} steigt sofort ein an Tisch 2"), answer
        # the sitting out is gone; a seat between the button and the small blind still
        # waits for the button as every arrival's (000 4.10), and the answer says so (the
        # draw decides where the button is: a fresh clone's run met that seat)
        waits = "wartet noch auf den Button" in answer
        wait_for(lambda: "sits_out" not in seat_of(table, 2, mover), 20,
                 "table 2's screen deals the player in")
        assert seat_of(table, 2, mover).get("waiting") is waits, (answer, seat_of(table, 2, mover))
        page.wait_for_selector(seat + ":not([data-sits-out])"
                               + (".waiting" if waits else ":not(.waiting)"))
        shots(page, "deal-in-done")
        # a second time: refused with the reason
        again = send(b, "deal_in", {"player": mover})
        assert not again["ok"] and "does not sit out" in again["reason"], again
    finally:
        table.close()
        laptop.close()
        shots.publish()
        console.stop()
