"""The wall's view of money (issue 30): no points column where the preset plays none, each
player's bounty on their head and the bounties won, the ladder while a deal at the final
table stands, and a satellite's place shared by lot. Drawn from real engine states
(controller.night.shots) at both screen sizes; what is asserted is what the room reads."""

from __future__ import annotations

import pygame
import pytest

from controller.night import shots
from kiosk.render import Renderer

BIG, SMALL = (1920, 1080), (800, 480)


def drawn(view, size=BIG) -> list[tuple[str, pygame.Rect]]:
    r = Renderer(size, monotonic=lambda: shots.MONO)
    r.draw(pygame.Surface(size), view)
    return [(t, pygame.Rect(rect)) for t, rect in r.items]


def texts(view, size=BIG) -> list[str]:
    return [t for t, _ in drawn(view, size)]


def beside(items: list[tuple[str, pygame.Rect]], left: str, right: str) -> bool:
    """``right`` is drawn on the line of ``left``, to its right."""
    return any(a == left and b == right and abs(ra.centery - rb.centery) <= 4
               and rb.x > ra.x for a, ra in items for b, rb in items)


@pytest.mark.parametrize("size", [BIG, SMALL], ids=["1920x1080", "800x480"])
def test_the_results_show_no_points_column_where_the_preset_plays_none(size):
    # a points club's end: the points column
    v = shots.moment("wall_finished")
    assert "18 pts" in texts(v, size)
    # the same rows, the preset playing no points (a money tournament's results say so)
    v.state["results"]["scored"] = False
    assert not [t for t in texts(v, size) if t.endswith(("pts", "pt"))]
    # a knock-out for money at its end: payouts and bounties, never a point
    got = texts(shots.moment("wall_bounty_finished"), size)
    assert "€766" in got and not [t for t in got if t.endswith(("pts", "pt"))]


def test_each_players_bounty_is_beside_their_name_in_the_seating():
    v = shots.moment("wall_bounty")
    heads = {(p["table"], s["seat"]): s["bounty"] for k, p in v.state.items()
             if k.startswith("table/") and p.get("in_play") for s in p["seats"]}
    names = {(p["table"], s["seat"]): s["name"] for k, p in v.state.items()
             if k.startswith("table/") and p.get("in_play") for s in p["seats"]}
    hunter = max(heads, key=lambda k: heads[k])
    assert heads[hunter] == 12_000  # 40 € and half of four heads: progressive, grown
    items = drawn(v)
    assert "Bounty" in [t for t, _ in items]
    assert beside(items, names[hunter], "€120")
    # the chip leader's head beside the count (what the room hunts)
    leader = v.state["summary"]["chip_leader"]
    assert leader["bounty"] == heads[next(k for k, n in names.items() if n == leader["name"])]
    assert beside(items, "Bounty", "€40")


def test_a_small_wall_keeps_the_names_whole_and_leaves_the_heads_out():
    got = texts(shots.moment("wall_bounty"), SMALL)
    assert "Anna Schmidt" in got and not [t for t in got if "…" in t]
    assert "€120" not in got  # no room for the heads' column beside whole names
    assert "Bounty" in got  # the chip leader's head still shows


def test_the_results_at_the_end_show_the_bounties_won_beside_the_payouts():
    v = shots.moment("wall_bounty_finished")
    rows = v.state["results"]["rows"]
    champion = rows[0]
    assert champion["bounties"] == 70_000 and champion["payout"] == 76_600
    items = drawn(v)
    assert beside(items, champion["name"], "€700") and beside(items, "€700", "€766")
    assert beside(items, "Bounties", "Prize")


@pytest.mark.parametrize("size", [BIG, SMALL], ids=["1920x1080", "800x480"])
def test_while_a_deal_stands_the_ladder_says_deal_for_the_players_left(size):
    v = shots.moment("wall_deal")
    pool = v.state["summary"]["prize_pool"]
    assert pool["deal"]["played_for"] == 73_800 and pool["next_place"] is None
    items = drawn(v, size)
    got = [t for t, _ in items]
    assert beside(items, "1.–4.", "Deal")
    assert beside(items, "Played for", "€738")
    # the places of the four left pay their deal, not the ladder's amounts
    assert not {"€3,560", "€1,765", "€1,175", "€880"} & set(got)
    assert "€390" in got  # the places paid out below them stay
    # each dealt player's own amount, at the end of the player's seat at the final table
    players = pool["deal"]["players"]
    assert len(players) == 4
    assert sum(d["amount"] for d in players) + pool["deal"]["played_for"] == \
        sum(cents for _, cents in pool["ladder"][:4])
    for d in players:
        euros, cents = divmod(d["amount"], 100)
        assert beside(items, d["name"], f"€{euros:,}.{cents:02d}"), d
    # undone: the ladder again (a small wall: the winner's and the places next paid out)
    back = texts(shots.moment("wall_deal_undone"), size)
    assert "Deal" not in back and "Played for" not in back and "€3,560" in back
    assert shots.moment("wall_deal_undone").state["summary"]["prize_pool"]["next_place"] == 4


def test_a_satellites_shared_place_by_lot_is_marked():
    v = shots.moment("wall_satellite_lot", "de")
    rows = [r for r in v.state["results"]["rows"] if r.get("lot")]
    assert len(rows) == 2 and {r["place"] for r in rows} == {3}
    items = drawn(v)
    ticket = next(r["name"] for r in rows if r.get("ticket"))
    cash = next(r["name"] for r in rows if not r.get("ticket"))
    assert beside(items, ticket, "Ticket (gelost)")
    assert beside(items, cash, "50 € (gelost)")
    # the other ticket winners drew no lot
    assert sum(t == "Ticket" for t, _ in items) == 2


@pytest.mark.parametrize("size", [BIG, SMALL], ids=["1920x1080", "800x480"])
def test_the_table_screen_shows_each_seats_head_beside_the_name(size):
    """Money bounties (issue 30): the seat view carries each player's head; the table
    screen shows it, green, right of the whole name, one column for the table."""
    v = shots.moment("table_bounty")
    seats = v.state[f"table/{v.table}"]["seats"]
    assert {s["bounty"] for s in seats} == {4_000, 12_000}
    items = drawn(v, size)
    for s in seats:
        head = f"€{s['bounty'] // 100}"
        assert beside(items, s["name"], head), (s["name"], head)
    lefts = {r.right for t, r in items if t.startswith("€") and t != "€110"}
    assert max(lefts) - min(lefts) <= 2, lefts  # one column, right-aligned
    assert not any(t.endswith("…") for t, _ in items)
