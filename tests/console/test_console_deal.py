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
        assert send(b, "deal_proposal")["ok"]  # no deal stands: a new one can be made

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
