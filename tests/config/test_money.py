"""The money section (issue 30): amounts in the currency's units become whole cents,
every mistake is a FILE:LINE problem, points-only presets have no money."""

from __future__ import annotations

import textwrap

import pytest

from controller.config import ConfigError, load_tournament, load_tournament_text
from controller.engine import settings as st
from controller.resources import find

BASE = """\
name: Test
start_stack: 10000
structure:
  - {minutes: 18, small_blind: 50, big_blind: 100}
"""


def load(money: str) -> st.TournamentSettings:
    return load_tournament_text(BASE + textwrap.dedent(money), "t.yaml")


def problems(money: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load(money)
    return [str(p) for p in info.value.problems]


def test_amounts_are_written_in_units_and_kept_in_cents():
    m = load("""\
        money:
          currency: CHF
          buy_in: 100.50
          fee: "10,25"
          reentry: 80
          guarantee: 10000
          rounding: 5
        """).money
    assert m is not None
    assert (m.currency, m.buy_in, m.fee, m.reentry, m.guarantee, m.rounding) == (
        "CHF", 10050, 1025, 8000, 1_000_000, 500)
    assert all(isinstance(v, int) for v in (m.buy_in, m.fee, m.guarantee))


def test_without_a_money_section_there_is_no_money():
    assert load("").money is None


@pytest.mark.parametrize("name", ["sample", "pokerlounge-freezeout", "ace-of-spades-playday",
                                  "floor-sheet-evening", "venue-faq-main-event"])
def test_the_points_clubs_tournaments_have_no_money(name):
    path = find("tournaments", name)
    assert path is not None and load_tournament(path).money is None


def test_a_german_thousands_point_is_refused_not_read_as_ten():
    # YAML reads 10.000 as the number 10.0: the file's text tells them apart
    assert problems("money:\n  buy_in: 100\n  guarantee: 10.000\n") == [
        "t.yaml:7: money.guarantee: has more than two decimals: 10.000 (write thousands "
        "without a separator: 10000, cents after a point: 100.50)"]


@pytest.mark.parametrize("text, message", [
    ("buy_in: -5", "money.buy_in: must not be negative, got -5"),
    ("buy_in: lots", "money.buy_in: must be an amount like 100 or 100.50, got 'lots' (text)"),
    ("buy_in: true", "money.buy_in: must be an amount like 100 or 100.50, got true (a yes/no "
                     "value)"),
    ("buy_in: 0", "money.buy_in: must be more than 0"),
    ("buy_in: 12345678901234", "money.buy_in: must be an amount like 100 or 100.50, got "
                               "12345678901234"),
])
def test_bad_amounts(text, message):
    assert problems(f"money:\n  {text}\n") == [f"t.yaml:6: {message}"]


def test_every_mistake_at_its_line():
    found = problems("""\
        money:
          buy_in: 100
          fee: 200
          currency: eur
          places:
            - {players: 10, paid: 2}
            - {players: 5, paid: 3}
          payouts:
            - {paid: 2, percent: [40, 60]}
            - {paid: 3, percent: [50, 30, 25]}
          tip: 5
        """)
    assert found == [
        "t.yaml:7: money.fee: the fee (200) is more than the buy-in (100); the fee is the "
        "part of it the house keeps",
        "t.yaml:8: money.currency: must be a currency code of three capital letters (EUR, "
        "CHF, USD), got 'eur'",
        "t.yaml:11: money.places[1].players: the field sizes must rise: 5 after 10",
        "t.yaml:13: money.payouts[0].percent[1]: place 2 would get more (60 %) than place 1 "
        "(40 %)",
        "t.yaml:14: money.payouts[1].percent: the shares add up to 105 %, not 100 %",
        "t.yaml:15: money.tip: unknown key 'tip'; allowed here: buy_in, currency, fee, "
        "reentry, rebuy, rebuy_fee, addon, bounty, progressive, guarantee, rounding, places, "
        "payouts, satellite",
    ]


def test_a_short_list_is_one_payout_table_in_hundredths_of_a_percent():
    m = load("money:\n  buy_in: 20\n  payouts: [50, 30, 12.5, 7.5]\n").money
    assert m is not None and m.payouts == (st.PayoutTable(4, (5000, 3000, 1250, 750)),)
    assert problems("money:\n  buy_in: 20\n  payouts: [50, 30]\n") == [
        "t.yaml:7: money.payouts: the shares add up to 80 %, not 100 %"]


def test_a_rebuy_tournament_must_price_its_rebuys():
    text = BASE + "entries: {rebuys: 1, rebuy_until_level: 1}\nmoney:\n  buy_in: 20\n"
    with pytest.raises(ConfigError) as info:
        load_tournament_text(text, "t.yaml")
    assert [str(p) for p in info.value.problems] == [
        "t.yaml:6: money.rebuy: give the price of a rebuy (money.rebuy): entries.rebuys "
        "allows 1"]
    s = load_tournament_text(text + "  rebuy: 20\n", "t.yaml")
    assert s.money is not None and s.money.rebuy == 2000


def test_the_settings_with_money_survive_the_log():
    s = load("money:\n  buy_in: 100\n  places: [{players: 2, paid: 1}, {players: 10, paid: 3}]"
             "\n  payouts: [60, 40]\n")
    assert st.from_data(st.to_data(s)) == s


def test_the_shipped_venue_money_sample_loads():
    s = load_tournament(find("tournaments", "venue-faq-prize-pool"))
    assert s.money is not None and s.money.buy_in == 10000


def test_a_satellite_names_its_ticket_and_no_paid_places():
    m = load("money:\n  buy_in: 10\n  satellite: 100\n").money
    assert m is not None and m.satellite == 10_000
    assert problems("money:\n  buy_in: 10\n  places: 3\n  satellite: 100\n") == [
        "t.yaml:8: money.satellite: a satellite pays tickets: as many places as the pool buys "
        "tickets (leave out money.places)"]


def test_floorman_check_says_the_money(capsys):
    from controller.config import main_check

    path = find("tournaments", "venue-faq-prize-pool")
    assert path is not None and main_check(str(path)) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "preset venue-faq, buy-in 100 EUR, 10000 guaranteed")


# ------------------------------------------------- fees in percent, rebuy fees, bounties
def test_a_fee_is_an_amount_or_a_share_of_the_price():
    m = load("""\
        money:
          buy_in: 110
          fee: 10%
          rebuy: 55
          rebuy_fee: "12,5 %"
          bounty: 25
          progressive: true
        """).money
    assert m is not None
    assert (m.fee, m.rebuy_fee, m.bounty, m.progressive) == ("10%", "12.5%", 2500, True)
    assert st.fee_of(m.fee, m.buy_in) == 1100
    # 12.5 % of 55 € is 6.875 €: the house keeps 6.87 €, the cent goes to the pool
    assert st.fee_of(m.rebuy_fee, 5500) == 687


def test_fee_and_bounty_mistakes_at_their_lines():
    assert problems("""\
        money:
          buy_in: 100
          fee: 120%
          rebuy_fee: 5
          bounty: 30
          progressive: yes
        """) == [
        "t.yaml:7: money.fee: a fee of 120% is more than the price",
        "t.yaml:8: money.rebuy_fee: a fee on rebuys needs their price (money.rebuy)",
    ]
    assert problems("""\
        money:
          buy_in: 100
          fee: 10
          reentry: 30
          bounty: 25
        """) == ["t.yaml:9: money.bounty: the bounty (25) and the fee (10) are more than the "
                 "re-entry (30)"]
    assert problems("""\
        money:
          buy_in: 100
          fee: ten percent
          progressive: true
        """) == [
        "t.yaml:7: money.fee: must be an amount like 10, or a share of the price like 10%, "
        "got 'ten percent' (text)",
        "t.yaml:8: money.progressive: a progressive knock-out needs a bounty (money.bounty)",
    ]


def test_the_automatic_add_on_is_free_and_not_priced():
    # 000 4.13: the add-on is credited to every player who did not rebuy; nobody buys it
    text = """\
        entries:
          addon_after_level: 1
          auto_addon_multiplier: 2
        money:
          buy_in: 100
          addon: {price}
        """
    assert load(text.format(price=0)).money is not None
    m = load(text.replace("          addon: {price}\n", "")).money
    assert m is not None and m.addon is None
    assert problems(text.format(price=20)) == [
        "t.yaml:10: money.addon: the add-on is the automatic one (000 4.13: every player who "
        "did not rebuy is credited it, nobody buys it), so it is free: leave out money.addon "
        "or write 0"]
