"""The director's hand on the seating through the console (issue 31.7), in a real headless
Chromium against a real Mosquitto and controller: a player's seat menu "Umsetzen" with
table, seat and a reason (002: "Die Turnierleitung kann die Sitzordnung ändern für
Spielgäste mit besonderen Bedürfnissen"), shown as a move on both tables' screens; a
taken seat refused with the reason; the balancing button's "von Tisch" choice (001 §2 I:
"Die Auswahl von welchem Tisch ein Spieler umgesetzt wird, wird von der Turnierleitung
bestimmt"), refused where that table has no player to spare; a seat kept free for a late
arrival (002: "können einige Plätze … freigehalten werden"). Screenshots go to the
test's folder (and, with FLOORMAN_CONSOLE_SHOTS=DIR, to DIR)."""

from __future__ import annotations

from controller.console import actions
from controller.director import send
from tests.console.conftest import TableClient
from tests.console.test_console_browser import LAPTOP, NAMES, Shots, act, sign_in
from tests.support.waiting import wait_for


def test_the_forms_become_the_commands():
    assert actions.command("reseat", {"player_id": "7", "table": "2", "seat": "",
                                      "reason": " Rollstuhl "}) == \
        ("reseat", {"player": 7, "table": 2, "reason": "Rollstuhl"})
    assert actions.command("reseat", {"player_id": "7", "table": "2", "seat": "4",
                                      "reason": "Zugluft"})[1]["seat"] == 4
    assert actions.command("move_apply", {"from_table": ""}) == ("move_apply", {})
    assert actions.command("move_apply", {"from_table": "3"}) == \
        ("move_apply", {"from_table": 3})
    for form, key in (({"player_id": "7", "table": "2", "reason": ""}, "missing"),
                      ({"player_id": "7", "table": "zwei", "reason": "x"}, "not_a_number")):
        try:
            actions.command("reseat", form)
        except actions.FormError as e:
            assert e.key == key
        else:
            raise AssertionError(f"{form} became a command")


def moves(table: TableClient, n: int, way: str) -> list[tuple[str, bool]]:
    view = table.get(f"state/table/{n}") or {}
    return [(m["player"], m["waiting_for_button"]) for m in view.get(way, [])]


def test_reseat_and_the_table_that_gives_the_player(console, chromium, tmp_path):
    b = console.broker
    assert send(b, "register", {"names": NAMES[:16]})["ok"]
    assert send(b, "draw")["ok"] and send(b, "start")["ok"]
    table = TableClient(b)  # what the table screens are told
    shots = Shots(tmp_path / "shots")
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        page = sign_in(laptop, console.url)
        page.wait_for_selector("section.table[data-table='2'] button.seat")
        seats = {p["name"]: p for p in send(b, "players")["result"]["players"]}
        at_2 = {p["seat"] for p in seats.values() if p.get("table") == 2}
        free = next(s for s in range(1, 10) if s not in at_2)
        mover = next(n for n, p in sorted(seats.items()) if p.get("table") == 1)
        taker = next(n for n, p in sorted(seats.items()) if p.get("table") == 2)

        # the seat's menu: Umsetzen, with table, seat and the reason
        page.click(f"button.seat[data-full='{mover}']")
        page.wait_for_selector("#bust-dialog[open] #bust-form:not([hidden])")
        page.click("#bust-form button.to-reseat")
        page.wait_for_selector("#reseat-step:not([hidden])")
        assert page.inner_text("#reseat-step .reseat-title") == f"{mover} umsetzen"
        # a taken seat: refused with the player's name, nothing changed, the form kept
        page.fill("#reseat-step input[name=table]", "2")
        page.fill("#reseat-step input[name=seat]", str(seats[taker]["seat"]))
        page.fill("#reseat-step input[name=reason]", "Rollstuhl: Platz am Gang")
        shots(page, "reseat-dialog")
        answer = act(page, "#reseat-step button.primary")
        assert taker in answer and "besetzt" in answer, answer
        assert page.is_visible("#reseat-step")
        page.fill("#reseat-step input[name=seat]", str(free))
        answer = act(page, "#reseat-step button.primary")
        assert "Umsetzen durch die Turnierleitung" in answer and "Rollstuhl" in answer, answer
        page.wait_for_selector("#bust-dialog", state="hidden")
        # both tables' screens show it as a move, the console's moves too
        wait_for(lambda: [n for n, _ in moves(table, 2, "moves_in")] == [mover], 20,
                 "table 2's screen shows the arrival")
        wait_for(lambda: [n for n, _ in moves(table, 1, "moves_out")] == [mover], 20,
                 "table 1's screen shows the player leaving")
        page.wait_for_function(
            f"document.getElementById('moves').textContent.includes({mover!r})")
        assert "Umsetzen durch die Turnierleitung" in page.inner_text("#moves")
        page.wait_for_selector(f"section.table[data-table='2'] button.seat[data-full='{mover}']")
        shots(page, "reseat-done")

        # tables of 7 and 9 now: the plan takes table 2's player; the director chooses
        tools = page.locator(".tabs button[data-tab='actions']")
        tools.click()
        page.wait_for_selector("#move-form select[name=from_table]")
        options = page.eval_on_selector_all("#move-form select[name=from_table] option",
                                            "els => els.map(e => e.textContent)")
        assert options == ["nach Plan", "von Tisch 1", "von Tisch 2"]
        page.select_option("#move-form select[name=from_table]", "1")
        # the box re-rendered by a live update between choosing and pressing keeps the
        # choice (a fresh clone's run: a bust elsewhere reset it to "nach Plan", and the
        # plan's move was made instead of the refusal below)
        chosen = "#move-form select[name=from_table]"
        for on, button in ((True, "off"), (False, "on")):
            assert send(b, "hfh", {"on": on})["ok"]
            page.wait_for_selector(f"form[action='/act/hfh'] input[name=on][value={button}]",
                                   state="attached")
            assert page.input_value(chosen) == "1", on
        answer = act(page, "#move-form button[type=submit]")
        # table 1 is the short one: refused with the reason, nothing moved
        assert answer == "Tisch 1 ist der mit zu wenigen Spielern: der Plan bringt ihm " \
            "einen Spieler", answer
        assert [m["to"]["table"] for m in send(b, "moves")["result"]["pending"]] == [2]
        page.select_option("#move-form select[name=from_table]", "2")
        shots(page, "move-from-table")
        answer = act(page, "#move-form button[type=submit]")
        wait_for(lambda: len(moves(table, 1, "moves_in")) == 1, 20,
                 "table 1's screen shows the player coming from table 2")
        pending = send(b, "moves")["result"]["pending"]
        assert sorted((m["from"]["table"], m["to"]["table"]) for m in pending) == \
            [(1, 2), (2, 1)], pending
        assert answer.startswith("Umsetzen") and "Tisch 2" in answer, answer

        # 002: a seat kept free for a late arrival, with the reason; both screens know it
        page.fill("#reserve-form input[name=seats]", "1")
        page.fill("#reserve-form input[name=reason]", "ein Nachzügler hat angerufen")
        answer = act(page, "#reserve-form button[type=submit]")
        assert answer.startswith("Plätze freigehalten: 1") and "angerufen" in answer, answer
        page.wait_for_selector("section.table .seat.empty.reserved")
        assert "reserviert" in page.inner_text("section.table .seat.empty.reserved")
        wait_for(lambda: sum(len((table.get(f"state/table/{n}") or {}).get("reserved", []))
                             for n in (1, 2)) == 1, 20, "a table screen shows the kept seat")
        # the history says it with the reason (the console asks for it after a command)
        page.wait_for_function(
            "document.getElementById('history').textContent.includes('Plätze freigehalten')",
            timeout=20000)
        assert "Umsetzen durch die Turnierleitung" in page.inner_text("#history")
        shots(page, "reserve-seat")
        # more than the tables have free: refused with the reason
        page.fill("#reserve-form input[name=seats]", "9")
        answer = act(page, "#reserve-form button[type=submit]")
        assert "können nicht freigehalten werden" in answer, answer
    finally:
        table.close()
        laptop.close()
        shots.publish()
