"""The deal at the final table from the console (issue 30, 002 "ICM oder Chip Chop",
"10% … ausgespielt"), against a real Mosquitto and the real controller process, in
headless chromium: a money night down to its last table; the dialog says why there is
no deal before the stacks are counted, then shows ICM and chip chop side by side with
10 % played for, recomputes for the amount the director types, accepts; the deal is
undone from the console, another accepted, the night played out; the results pay each
player their deal (the winner also what was played for) and mark the deal. Screenshots
of the dialog on a phone and a laptop (FLOORMAN_CONSOLE_SHOTS=docs/console)."""

from __future__ import annotations

from controller.director import send
from controller.engine.rules import deals
from controller.wire import i18n as screen
from controller.wire import protocol
from tests.console.conftest import start_console
from tests.console.test_console_browser import LAPTOP, PHONE, Shots, reply_of, sign_in
from tests.support.controller import wait_up

NIGHT = """\
name: "Finaltisch mit Deal"
preset: venue-faq
start_stack: 20000
entries:
  late_registration_levels: 0   # nobody buys in after the start: the pool is final
money:
  currency: EUR
  buy_in: 100
  fee: 10
  rounding: 5
  places: 3
"""
NAMES = ["Anna Schmidt", "Ben Meyer", "Cem Yilmaz", "Dora Wagner", "Emil Becker",
         "Fritz Hoffmann", "Greta Schulz", "Hakan Demir", "Ida Koch", "Jonas Richter",
         "Klara Wolf", "Lukas Neumann"]
#: the six left and their counts (12 × 20,000 chips in play)
STACKS = {"Greta Schulz": 80_000, "Hakan Demir": 60_000, "Ida Koch": 40_000,
          "Jonas Richter": 30_000, "Klara Wolf": 20_000, "Lukas Neumann": 10_000}
#: 12 × 90 € (10 € fee each); 3 paid: 1/i, rounded down to 5 €, the rest to the winner
AMOUNTS = [59_500, 29_000, 19_500]


def act(page, selector: str) -> str:
    page.evaluate("document.getElementById('reply').hidden = true")
    page.click(selector)
    return reply_of(page)


def open_deal(page) -> None:
    page.click(".tabs button[data-tab='actions']")
    page.click("#deal-open")
    page.wait_for_selector("#deal-dialog[open] #deal-box h2")


def icm_cells(page) -> list[str]:
    return page.locator("#deal-form td.icm").all_inner_texts()


def test_a_deal_at_the_final_table_from_the_console(tmp_path, broker, prefix,
                                                    controller_factory, chromium):
    night = tmp_path / "deal-night.yaml"
    night.write_text(NIGHT, encoding="utf-8")
    controller_factory(night)
    b = broker.for_prefix(prefix)
    wait_up(b)
    rc = start_console(b, tmp_path)
    shots = Shots(tmp_path / "shots")
    phone = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True,
                                 has_touch=True, bypass_csp=True)
    laptop = chromium.new_context(viewport=LAPTOP, locale="de-DE", bypass_csp=True)
    try:
        assert send(b, "register", {"names": NAMES})["ok"]
        assert send(b, "draw", {})["ok"]
        assert send(b, "start", {})["ok"]
        for name in NAMES[:6]:
            assert send(b, "bust", {"player": name})["ok"]
        pool = send(b, "status")["result"]["summary"]["prize_pool"]
        assert pool["pool"] == sum(AMOUNTS) and pool["paid_places"] == 3

        page = sign_in(phone, rc.url)
        page.wait_for_selector("#players-left:text-is('6')")
        # ------------------------------------------------ not counted yet: the reason
        open_deal(page)
        page.wait_for_selector("#deal-box .deal-reason")
        assert "Erst die Stacks der verbliebenen Spieler zählen" in page.inner_text(
            "#deal-box .deal-reason")
        page.click("#deal-box button.cancel")
        page.wait_for_selector("#deal-dialog", state="hidden")

        # ------------------------------------------------ counted: the proposal
        counts = [{"player": n, "chips": c} for n, c in STACKS.items()]
        assert send(b, "chip_counts", {"counts": counts})["ok"]
        open_deal(page)
        page.wait_for_selector("#deal-form")
        stacks = list(STACKS.values())
        icm = deals.deal(stacks, AMOUNTS, "icm", 10)
        chop = deals.deal(stacks, AMOUNTS, "chip_chop", 10)
        assert icm.played_for == 10_800  # 10 % of the 1,080 € still open (002)
        names = [n.splitlines()[0] for n in page.locator("#deal-form td.who").all_inner_texts()]
        assert names == list(STACKS)  # the biggest stack first
        assert icm_cells(page) == [screen.money(c, "EUR", "de") for c in icm.shares]
        assert page.locator("#deal-form td.chop").all_inner_texts() == [
            screen.money(c, "EUR", "de") for c in chop.shares]
        assert page.input_value("#deal-played-for") == "108"
        shots(page, "deal-dialog-phone", full=False)

        # the director plays for less: 54 €, recomputed (Enter accepts nothing)
        page.fill("#deal-played-for", "54")
        page.press("#deal-played-for", "Enter")
        less = deals.deal(stacks, AMOUNTS, "icm", played_for=5_400)
        first = screen.money(less.shares[0], "EUR", "de")
        page.wait_for_function(
            f"(document.querySelector('#deal-form td.icm') || {{}}).textContent === '{first}'")
        assert icm_cells(page) == [screen.money(c, "EUR", "de") for c in less.shares]
        assert send(b, "history")["result"]["commands"][-1]["text"] == "6 stacks counted"
        said = act(page, "#deal-form button.primary")
        assert "Deal (ICM) von 6 Spielern, 54 EUR werden ausgespielt" in said
        page.wait_for_selector("#deal-dialog", state="hidden")
        refused = send(b, "deal_proposal")
        assert not refused["ok"] and "a deal stands already" in refused["reason"]

        # ------------------------------------------------ undone from the console
        page.click(".tabs button[data-tab='actions']")
        page.wait_for_selector("#undo .what:has-text('Deal (ICM)')")
        page.once("dialog", lambda d: d.accept())
        assert "zurückgenommen" in act(page, "#undo")
        proposed = send(b, "deal_proposal")  # no deal stands: a new one can be made
        assert proposed["ok"] and protocol.validate_ack(proposed)
        assert [r["chip_chop"] for r in proposed["result"]["players"]] == list(chop.shares)

        # ------------------------------------------------ the laptop: chip chop
        desk = sign_in(laptop, rc.url)
        open_deal(desk)
        desk.wait_for_selector("#deal-form")
        shots(desk, "deal-dialog-laptop", full=False)
        said = act(desk, "#deal-form button[formaction='/act/deal_chip_chop']")
        assert "Deal (Chip Chop) von 6 Spielern, 108 EUR werden ausgespielt" in said

        # ------------------------------------------------ played out: the results
        for name in ["Greta Schulz", "Lukas Neumann", "Ida Koch", "Klara Wolf", "Jonas Richter"]:
            assert send(b, "bust", {"player": name})["ok"]
        results = send(b, "results")["result"]
        assert results["finished"]
        rows = {r["name"]: r for r in results["rows"]}
        dealt = dict(zip(STACKS, chop.shares, strict=True))
        for name, cents in dealt.items():
            extra = chop.played_for if name == "Hakan Demir" else 0  # the winner's
            assert (rows[name]["deal"], rows[name]["payout"]) == (cents, cents + extra)
        assert sum(r["payout"] for r in rows.values()) == sum(AMOUNTS)
        page.goto(rc.url + "/results")
        page.wait_for_selector("td.payout .dealt")
        assert page.locator("td.payout .dealt").count() == 6
        winner = page.locator("tr", has=page.locator("td", has_text="Hakan Demir")).first
        assert screen.money(dealt["Hakan Demir"] + chop.played_for, "EUR", "de") in \
            winner.inner_text()
        desk.goto(rc.url + "/results")
        desk.wait_for_selector("td.payout .dealt")
        shots(desk, "deal-results-laptop")
        shots.publish()
    finally:
        phone.close()
        laptop.close()
        rc.stop()


# ------------------------------------------------------------ the dialog's content, no browser
def _signed_in(t, lang: str):
    """A console on the state of engine tournament ``t`` whose controller answers
    ``deal_proposal`` (as the service does) and records the commands it is sent."""
    from typing import Any, cast

    from starlette.testclient import TestClient

    from controller.broker.accounts import hash_password
    from controller.console.app import Console, make_app
    from controller.engine.commands import Rejected
    from controller.engine.rules import final_deal
    from controller.log.floor import refusal
    from tests.console.conftest import PASSWORD
    from tests.console.nights import hub_of

    sent: list[tuple[str, dict]] = []

    def answer(cmd: str, args: dict) -> dict:
        sent.append((cmd, args))
        if cmd != "deal_proposal":
            return {"ok": True, "events": [], "message": "ok"}
        try:
            return {"ok": True, "result": {"v": 1, **final_deal.proposal(t)}}
        except Rejected as exc:
            return refusal(exc)

    hub = hub_of(t, 100.0)
    hub.answer = answer
    client = TestClient(make_app(Console(cast(Any, hub), hash_password(PASSWORD, iterations=1000)),
                                 start_hub=False), base_url="http://127.0.0.1")
    assert client.post("/login", data={"password": PASSWORD}, follow_redirects=False,
                       headers={"Origin": "http://127.0.0.1"}).status_code == 303
    client.get(f"/lang/{lang}", follow_redirects=False)
    return client, sent


def test_the_dialog_in_english_recomputes_and_says_why_not():
    from controller.engine.settings import Money
    from tests.support.settings import new_tournament

    t = new_tournament(5, money=Money(buy_in=10_000, fee=1_000, rounding=100, places=3))
    t.execute({"cmd": "bust", "player": 5}, 20.0)
    client, sent = _signed_in(t, "en")
    page = client.get("/deal").text
    assert "Count the stacks of the players left first" in page and "deal-form" not in page
    t.execute({"cmd": "chip_counts", "counts": [{"player": p, "chips": c} for p, c in
                                                 [(1, 20_000), (2, 12_000), (3, 10_000),
                                                  (4, 8_000)]]}, 30.0)
    page = client.get("/deal").text
    amounts = [24_700, 12_200, 8_100]  # 450 €: 1/i rounded down to the euro, +2 € to the 1st
    icm = deals.deal([20_000, 12_000, 10_000, 8_000], amounts, "icm", 10)
    assert "Deal at the final table" in page and "Accept chip chop" in page
    assert 'value="45"' in page  # 10 % of 450 € played for, as typed in the currency
    assert screen.money(icm.shares[0], "EUR", "en") in page
    page = client.get("/deal?played_for=0").text
    nothing = deals.deal([20_000, 12_000, 10_000, 8_000], amounts, "icm")
    assert screen.money(nothing.shares[0], "EUR", "en") in page
    assert "must be an amount" in client.get("/deal?played_for=abc").text
    assert "more than the first place pays" in client.get("/deal?played_for=300").text
    # the buttons send the deal as typed: the part played for and an own split in cents
    form = {"played_for": "45,50", "amount_1": "150", "amount_2": "120.25", "amount_3": "80",
            "amount_4": "54.25"}
    headers = {"Origin": "http://127.0.0.1", "Accept": "application/json",
               "X-CSRF-Token": _csrf(client)}
    assert client.post("/act/deal_custom", data=form, headers=headers).json()["ok"]
    assert sent[-1] == ("deal", {"method": "custom", "played_for": 4_550, "amounts": [
        {"player": 1, "amount": 15_000}, {"player": 2, "amount": 12_025},
        {"player": 3, "amount": 8_000}, {"player": 4, "amount": 5_425}]})
    assert client.post("/act/deal_icm", data={"played_for": "45"},
                       headers=headers).json()["ok"]
    assert sent[-1] == ("deal", {"method": "icm", "played_for": 4_500})
    bad = client.post("/act/deal_chip_chop", data={"played_for": "4x"}, headers=headers).json()
    assert not bad["ok"] and "must be an amount" in bad["reason"]


def _csrf(client) -> str:
    import re

    return re.search(r'name="csrf" content="([^"]+)"', client.get("/").text).group(1)
