"""The kiosk renderer: every screen state at 1920×1080 and 800×480, drawn from real engine states.

Each moment (``controller.night.shots.MOMENTS``) is drawn, saved as a PNG in the test's
tmp_path, and checked through ``Renderer.items``: the expected words are
there, no two texts overlap, every text is on the screen, and at 1920×1080 the
remaining time is at least a quarter of the screen tall.
"""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from controller.night import shots
from controller.wire import i18n
from kiosk.render import MAX_WAIT, WALL_PAGE_SECONDS, Renderer, wall_page
from kiosk.screens.widgets import RED
from kiosk.view import clock_now

BIG, SMALL = (1920, 1080), (800, 480)
SIZES = [BIG, SMALL]

#: words each moment must show (English); None: the clock's own value
EXPECT: dict[str, list[str]] = {
    "table_waiting": ["Waiting for the tournament …", "OFFLINE"],
    "table_before_start": ["TABLE 1", "NOT STARTED", "LEVEL 1", "50 / 100", "18:00"],
    "table_running": ["TABLE 1", "LEVEL 1", "50 / 100", "17:59", "Next level: 75 / 150",
                      "Break in", "1:11:59", "Players 27 / 27 · Average 10,000", "D", "SB",
                      "BB", "Mia Fischer"],
    "table_paused": ["PAUSED", "13:00"],
    "table_ante": ["LEVEL 6", "300 / 600", "Ante 50", "Next level: 400 / 800 · ante 75"],
    "table_bb_ante": ["LEVEL 2", "50 / 100", "ante 100"],
    # level 2 began while the hand was in play: its blinds stay, the next come (000 9.6)
    "table_next_hand": ["LEVEL 1 · THIS HAND", "50 / 100", "NEXT HAND 75 / 150"],
    # the "Chipraise 25" break: the chip race is due (000 3.17), the break's time beside it
    "table_break": ["CHIP RACE  25 → 100", "Break", "07:57",
                    "Cards from seat 1 · one card per 25 · best cards win, one 100 each",
                    "Mia Fischer", "Leftover chips: ◀ ▶ seat, TIME +1"],
    "table_chip_race_entry": ["CHIP RACE  25 → 100", "3", "2", "1", "all they have",
                              "6 × 25 = 150 → 2 × 100 · HAND DONE sends"],
    "table_chip_race_result": ["CHIP RACE  25 → 100", "+1 × 100", "keeps a 100",
                               "3 new × 100 · chips in play +150"],
    "table_action_clock": ["ACTION CLOCK · Seat 4 · Frieda Wolf", "18"],
    "table_hfh_playing": ["Hand for hand · hand 2",
                          "When the hand is over, press HAND DONE · table 2 waits for this table"],
    "table_hfh_waiting": ["Waiting for table 2", "PAUSED",
                          "Hand for hand · hand 1: this table is done, do not deal yet"],
    "table_hfh_deal": ["DEAL", "Hand for hand · hand 2: all tables are done, deal the next hand"],
    "table_time_call": ["TIME · Seat 4 · Frieda Wolf", "45"],
    "table_time_call_red": ["COUNTDOWN · Seat 4 · Frieda Wolf", "7"],
    "table_time_call_no_seat": ["TIME · player to act", "40"],
    "table_moves_out": ["LARS NEUMANN", "→ Table 2, Seat 7"],
    "table_moves_in": ["LARS NEUMANN", "→ Seat 7", "→ arriving"],
    "table_broken": ["TABLE 3", "This table breaks", "Please move:", "→ Table 2, Seat"],
    "table_closed": ["TABLE 3", "CLOSED", "14:58", "50 / 100", "Players left", "18"],
    "table_waiting_player": [],  # below: the wording depends on the room beside the name
    "table_breaks_notice": ["This table breaks", "17:59"],
    "table_final": ["FINAL TABLE"],
    "table_final_moves": ["FINAL TABLE", "→ arriving"],
    "table_offline": ["OFFLINE", "16:24"],
    "table_feedback_sent": ["Bust seat 4 … sent"],
    "table_feedback_accepted": ["Seat 4 Frieda Wolf is out: 27th place"],
    "table_feedback_rejected": ["rejected: seat 9 at table 1 is empty"],
    "table_feedback_tap": ["Hold to bust"],
    "table_hold": ["Hold: bust · Seat 4"],
    "table_hands_left": ["Hands left: 3"],
    # the end of the day (002): the clock stopped in the last level, the card's hands
    "table_day_end": ["Hands left: 3", "PAUSED", "LEVEL 3", "400 / 800"],
    "table_last_level": ["LEVEL 23", "PAUSED", "50,000 / 100,000", "Ante 10,000",
                         "Last level"],
    # the chip race announced 2-3 minutes before the colour-up break (002)
    "table_chip_race_call": ["Chip race at the break: the 25 chips leave for 100", "02:00"],
    "wall_chip_race_call": ["Chip race at the break: the 25 chips leave for 100", "02:00"],
    # the director's colour-up in a playing level (002 "jederzeit")
    "table_colour_up_called": ["Colour-up 25 → 100: report the leftover chips",
                               "LEVEL 1", "TIME"],
    "table_finished": ["CHAMPION", "Results", "18 pts"],
    "table_long_names": ["10"],
    # issue 12: the director's banner on every screen, the QR code of the players' page
    "table_announcement": ["Add-on jetzt möglich", "TABLE 1", "LEVEL 1", "50 / 100"],
    "wall_announcement": ["Add-on jetzt möglich", "Where do I sit?", "Players left", "Moves",
                          "Seating"],
    # penalties (000 3.8) and who deals (000 3.11), on the table and the wall
    "table_penalty": ["TABLE 1", "8 hands", "7 min"],
    "table_absent": ["TABLE 1", "Frieda Wolf", "away"],  # 000 9.5: dealt in and folded
    "table_dealer": ["Dealer: Nils Hoffmann (out)"],
    "table_dealer_button": ["deals", "D"],
    "wall_penalty": ["Seating", "Ben Weber"],
    # issue 30: the pool, the paid places and the ladder, the winner and the min-cash
    "wall_money": ["Prize pool", "€10,000", "Places paid", "Payouts", "€3,560", "€390"],
    # the end: each place with what it pays; the bubble's two share the 9th place's 390 €
    "wall_money_finished": ["CHAMPION", "€3,560", "€1,765", "€195"],
    # money bounties (a progressive knock-out): the chip leader's head; at the end the
    # bounties each won beside the payouts, no points column
    "wall_bounty": ["Chip leader", "Zoë Lehmann", "Bounty", "€40", "Payouts"],
    "wall_bounty_finished": ["CHAMPION", "Bounties", "Prize", "€700", "€766"],
    # money bounties at a table: each seat's head beside the name, a grown one larger
    "table_bounty": ["TABLE 1", "Mia Fischer", "€120", "Vera Krüger", "€40"],
    # a deal at the final table: "Deal" for the four left's places, what is played for
    "wall_deal": ["FINAL TABLE", "Payouts", "1.–4.", "Deal", "Played for", "€738", "€390"],
    "wall_deal_undone": ["FINAL TABLE", "Payouts", "€3,560", "€880"],
    # a satellite's shared place of the last ticket and the cash: drawn by lot
    "wall_satellite_lot": ["CHAMPION", "Ticket", "Ticket (by lot)", "€50 (by lot)"],
    "wall_running": ["LEVEL 1", "50 / 100", "Players left", "24", "Entries",
                     "27", "Average", "11,250", "Points places", "14", "Moves",
                     "Vera Krüger → Table 2, Seat 8", "Anna Schmidt", "Table", "Seat"],
    "wall_before_start": ["NOT STARTED", "Structure", "1", "50 / 100", "18 min", "Entries",
                          "27"],
    "wall_page2": [],
    "wall_moves": ["Moves", "+5 more"],
    # the final table drawn: its seats, who sits where, the players on the way marked
    "wall_final_table": ["FINAL TABLE", "Final table · Table 1", "→ Tina Becker",
                         "Vera Krüger", "→ Frieda Wolf", "→ on the way: 8"],
    "wall_finished_long": ["CHAMPION", "Maximilian-Alexander von Hohenzollern-Sigmaringen",
                           "18 pts"],
    "wall_break": ["BREAK", "Chipraise 25", "CHIP RACE 25 → 100", "open: table 1, 2, 3"],
    "wall_chip_race": ["BREAK", "CHIP RACE 25 → 100", "done: table 1", "open: table 2, 3"],
    "wall_hfh": ["HAND FOR HAND", "Hand 1", "Table 1", "✓ done", "Table 2",
                 "… playing"],
    "wall_finished": ["CHAMPION", "Results", "1.", "18 pts"],
    "wall_long_names": [],
    # play the clock (000 4.15) and restart (000 4.14): the round, the count's leader, the
    # new seats
    "table_round_end": ["TABLE 1", "ROUND 2 OF 3", "LEVEL 2", "100 / 200", "89:25",
                        "→ arriving"],
    "wall_round_end": ["Round", "2 of 3", "Chip leader", "41,300", "Emil Braun", "Moves"],
    "table_restart": ["TABLE 1", "ROUND 2 OF 2", "PAUSED", "LEVEL 1", "18:00", "→ arriving"],
    "wall_restart": ["Round", "2 of 2", "PAUSED", "Players left", "27", "Moves"],
    # issue 13: the club's season (state/standings); guests shortened (000 5.8)
    "wall_standings_before": ["NOT STARTED", "Standings 2026", "Anna S.", "47 pts",
                              "38.5 pts", "Entries", "Seating"],
    "wall_standings_finished": ["CHAMPION", "Results", "18 pts", "Standings 2026",
                                "Anna S.", "47 pts",
                                # issue 31, 000 5.2: the championship's leader
                                "Championship: 1. Ben Weber 23"],
}

EXPECT_DE: dict[str, list[str]] = {
    "table_running": ["TISCH 1", "LEVEL 1", "17:59", "Nächstes Level: 75 / 150", "Pause in",
                      "Spieler 27 / 27 · Durchschnitt 10.000"],
    "table_break": ["Pause", "07:57", "Rest-Chips: ◀ ▶ Platz, ZEIT +1"],
    "table_chip_race_result": ["behält einen 100er", "3 neue × 100 · Chips im Spiel +150"],
    "table_action_clock": ["AKTIONSZEIT · Platz 4 · Frieda Wolf"],
    "wall_chip_race": ["PAUSE", "fertig: Tisch 1", "offen: Tisch 2, 3"],
    "table_hfh_deal": ["GEBEN"],
    "table_absent": ["Frieda Wolf", "weg"],
    "table_hfh_waiting": ["Warten auf Tisch 2", "ANGEHALTEN"],
    "table_time_call_red": ["COUNTDOWN · Platz 4 · Frieda Wolf"],
    "table_moves_in": ["LARS NEUMANN", "→ Platz 7", "→ kommt"],
    "table_broken": ["TISCH 3", "Tisch wird aufgelöst", "Bitte umsetzen:", "→ Tisch 2, Platz"],
    "table_long_names": ["TISCH 1"],
    "wall_running": ["Spieler übrig", "Teilnehmer", "Durchschnitt", "11.250",
                     "Punkteplätze", "Umsetzungen", "Vera Krüger → Tisch 2, Platz 8", "Tisch",
                     "Platz"],
    "wall_hfh": ["HAND FÜR HAND", "Hand 1", "✓ fertig", "… spielt"],
    "wall_finished": ["SIEGER", "Ergebnis", "18 Pkt."],
    "table_round_end": ["TISCH 1", "RUNDE 2 VON 3", "→ kommt"],
    "wall_round_end": ["Runde", "2 von 3", "Chipleader", "41.300", "Emil Braun"],
    "wall_standings_finished": ["SIEGER", "Rangliste 2026", "47 Pkt.", "38,5 Pkt.",
                                "Meisterschaft: 1. Ben Weber 23"],
    "wall_bounty": ["Chipleader", "Kopfgeld", "40 €", "Auszahlung"],
    "wall_bounty_finished": ["SIEGER", "Kopfgeld", "Preis", "700 €", "766 €"],
    "wall_deal": ["FINALTISCH", "1.–4.", "Deal", "Ausgespielt", "738 €"],
    "wall_final_table": ["Finaltisch · Tisch 1", "→ Tina Becker", "→ unterwegs: 8"],
    "wall_satellite_lot": ["SIEGER", "Ticket (gelost)", "50 € (gelost)"],
}

#: moments whose main picture is the level clock
CLOCK_MOMENTS = [n for n in shots.MOMENTS
                 if n not in ("table_waiting", "table_time_call", "table_time_call_red",
                              "table_time_call_no_seat", "table_action_clock",
                              # the colour-up break's chip race takes the table over
                              "table_break", "table_chip_race_entry",
                              "table_chip_race_result", "table_broken", "table_finished",
                              "wall_finished", "wall_finished_long", "wall_money_finished",
                              "wall_standings_finished", "wall_bounty_finished",
                              "wall_satellite_lot")]


def render(view, size=BIG, mono=shots.MONO):
    r = Renderer(size, monotonic=lambda: mono)
    surface = pygame.Surface(size)
    dirty = r.draw(surface, view)
    return r, surface, dirty


def texts(r: Renderer) -> list[str]:
    return [t for t, _ in r.items]


def laid_out(r: Renderer, surface: pygame.Surface, view, mono=shots.MONO
             ) -> list[pygame.Rect]:
    """Draw ``view``, which must lay the screen out again; the screen then shows exactly
    what a new renderer draws of it, though only what changed was repainted (issue 32.1).
    The rects repainted."""
    layouts = r.layouts
    dirty = r.draw(surface, view)
    assert r.layouts == layouts + 1, "no new layout"
    assert dirty, "a new layout that repaints nothing"
    _, fresh, _ = render(view, surface.get_size(), mono)
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(fresh, "RGB")
    return dirty


def joined(drawn: list[str]) -> str:
    """The texts as one string: a sentence or name wrapped over lines reads whole."""
    return " ".join(drawn).replace("- ", "-")


def check_layout(r: Renderer, size: tuple[int, int]) -> None:
    screen = pygame.Rect((0, 0), size)
    assert r.items, "nothing drawn"
    for text, rect in r.items:
        assert screen.contains(rect), f"{text!r} at {rect} runs off the {size} screen"
    for i, (t1, r1) in enumerate(r.items):
        for t2, r2 in r.items[i + 1:]:
            assert not r1.colliderect(r2), f"{t1!r} {r1} overlaps {t2!r} {r2}"


def clock_item(r: Renderer, view) -> tuple[str, pygame.Rect]:
    shown = i18n.level_clock(clock_now(view).remaining)
    hits = [(t, rc) for t, rc in r.items if t == shown]
    assert hits, f"remaining time {shown!r} not drawn"
    return max(hits, key=lambda h: h[1].height)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(shots.MOMENTS))
def test_every_moment(name, size, tmp_path):
    view = shots.moment(name, "en")
    r, surface, dirty = render(view, size)
    pygame.image.save(surface, str(tmp_path / f"{name}_{size[0]}x{size[1]}.png"))
    assert dirty == [surface.get_rect()]
    check_layout(r, size)
    drawn = texts(r)
    for word in EXPECT[name]:
        if word == "→ arriving" and size == SMALL:
            word = "→"  # a narrow row keeps the arrow and the name readable
        # a sentence may be wrapped over lines: look in the joined text too
        assert any(word in t for t in drawn) if word.startswith("ante") else (
            word in drawn or word in joined(drawn)), f"{word!r} missing in {name}: {drawn}"
    if name == "table_waiting_player":
        # big: the whole name, the longer wording under it; small: the short one beside
        # the name's first line, the name on two lines (never cut: "Jürgen Müll…")
        assert ("till button" if size == SMALL else "waits for button") in drawn, drawn
        if size != SMALL:
            assert "Jürgen Müller-Lüdenscheidt" in drawn
        else:
            assert {"Jürgen", "Müller-Lüdenscheidt"} <= set(drawn), drawn
        assert not any("…" in t for t in drawn), drawn
    if name == "table_moves_in":
        # the arriving players' names are whole, not cut ("Player…")
        assert {"Lars Neumann", "Vera Krüger"} <= set(drawn)
    if name.startswith("wall") and name not in ("wall_finished", "wall_finished_long",
                                                 "wall_standings_finished",
                                                 "wall_money_finished", "wall_bounty_finished",
                                                 "wall_satellite_lot"):
        page = view.wall_page + 1
        if view.state["summary"].get("final_table") is not None:  # its seats instead
            assert any(t.startswith("Final table · Table ") for t in drawn), drawn
        else:
            assert any(t.startswith(f"Seating  {page}/") or t == "Seating" for t in drawn)
    if name in CLOCK_MOMENTS:
        _, rect = clock_item(r, view)
        if size == BIG:
            assert rect.height >= 270, f"clock only {rect.height} px tall"
        # the remaining time is the biggest text on the screen
        assert rect.height == max(rc.height for _, rc in r.items)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(EXPECT_DE))
def test_german(name, size, tmp_path):
    view = shots.moment(name, "de")
    r, surface, _ = render(view, size)
    pygame.image.save(surface, str(tmp_path / f"{name}_de_{size[0]}x{size[1]}.png"))
    check_layout(r, size)
    drawn = texts(r)
    for word in EXPECT_DE[name]:
        assert word in drawn or word in joined(drawn), f"{word!r} missing in {name} (de): {drawn}"
    english = {"Next level", "Break in", "Players", "Average", "Table", "Seat", "DEAL",
               "Hand for hand", "This table breaks", "Please move:", "Seating"}
    assert not [t for t in drawn for e in english if t.startswith(e)], drawn


def test_language_falls_back_to_the_renderers():
    view = shots.moment("table_running")
    view.language = "fr"
    r = Renderer(BIG, language="de", monotonic=lambda: shots.MONO)
    r.draw(pygame.Surface(BIG), view)
    assert "TISCH 1" in texts(r)


# ------------------------------------------------------------------ long names
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["table_long_names", "wall_long_names"])
def test_ten_long_names_fit_without_overlapping(name, size):
    """A 49-character name: on two lines in its row when they fit, else cut with "…" (the
    name is the last thing to give way); never over another text."""
    view = shots.moment(name)
    tab = view.state["table/1"]
    assert len(tab["seats"]) == 10
    assert all(s["name"].startswith(shots.LONG_NAME) for s in tab["seats"])
    r, _, _ = render(view, size)
    check_layout(r, size)
    names = [t for t in texts(r) if t.startswith("Maximilian")]
    assert len(names) >= 10
    assert all(t.endswith(("…", "-", " ")) or t.split()[-1].isdigit() or
               t in shots.LONG_NAME for t in names), names


def test_seat_markers_and_selection():
    view = shots.moment("table_hold")
    tab = view.state["table/1"]
    r, surface, _ = render(view)
    marks = {t: rc for t, rc in r.items if t in ("D", "SB", "BB")}
    assert set(marks) == {"D", "SB", "BB"}
    name = {s["seat"]: s["name"] for s in tab["seats"]}
    rows = {t: rc for t, rc in r.items if t in name.values()}
    # the marker sits on its seat's row
    assert abs(marks["D"].centery - rows[name[tab["button"]]].centery) < 12
    assert abs(marks["BB"].centery - rows[name[tab["big_blind"]]].centery) < 12
    # the selected seat's row is highlighted (its background differs from the others)
    sel = rows[name[4]]
    other = rows[name[6]]
    assert surface.get_at((sel.right + 8, sel.centery)) != surface.get_at(
        (other.right + 8, other.centery))


def test_dead_small_blind_shows_no_sb_marker():
    view = shots.moment("table_running")
    view.state["table/1"]["small_blind"] = None
    r, _, _ = render(view)
    drawn = texts(r)
    assert "SB" not in drawn and "BB" in drawn and "D" in drawn


@pytest.mark.parametrize(("patch", "word"), [
    ({"notices": ["final_table_next"]}, "Final table next"),
    ({"hands_left": 1}, "Last hand of the day"),
    ({"hands_left": 0}, "Day over: no more hands"),
])
def test_notices(patch, word):
    view = shots.moment("table_running")
    view.state["table/1"].update(patch)
    for size in SIZES:
        r, _, _ = render(view, size)
        check_layout(r, size)
        assert word in texts(r)


def test_the_chip_race_call_shows_from_three_minutes_before_the_break_002():
    """002 "2-3 Minuten vor der Pause": the banner comes at the time the controller's
    ``chip_race_call`` gives (the screen looks at its own time), goes with the break, and
    gives way to the director's own banner."""
    call = "Chip race at the break: the 25 chips leave for 100"
    for name in ("table_chip_race_call", "wall_chip_race_call"):
        view = shots.moment(name)
        start = view.state["clock"]["chip_race_call"]["from"]
        assert call in texts(render(view)[0])
        assert call not in texts(render(dataclasses.replace(view, now=start - 1.0))[0])
        view.state["announcement"] = {"text": "Add-on jetzt möglich", "until": None}
        drawn = texts(render(view)[0])
        assert "Add-on jetzt möglich" in drawn and call not in drawn
    view = shots.moment("table_chip_race_call", "de")
    assert "Chip Race in der Pause: die 25er gehen, dafür 100er" in texts(render(view)[0])


def test_waiting_player_is_marked():
    view = shots.moment("table_running")
    view.state["table/1"]["seats"][2]["waiting"] = True
    r, _, _ = render(view)
    assert "waits for button" in texts(r)


# ------------------------------------------------------------------ dirty rects
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["table_running", "table_break", "wall_running"])
def test_same_view_twice_draws_nothing_and_a_second_only_the_clock(name, size):
    view = shots.moment(name)
    r, surface, dirty = render(view, size)
    assert dirty == [surface.get_rect()]
    assert r.draw(surface, view) == []
    layouts = r.layouts
    before = clock_item(r, view)
    later = dataclasses.replace(view, now=view.now + 1.0)
    dirty = r.draw(surface, later)
    assert r.layouts == layouts, "a new second must not lay the screen out again"
    assert dirty, "the clock changed"
    area = sum(d.width * d.height for d in dirty)
    assert area < 0.1 * size[0] * size[1], f"dirty {dirty} is not small"
    after = clock_item(r, later)
    assert after[0] != before[0]
    assert all(d.colliderect(before[1]) or d.width * d.height < 0.02 * size[0] * size[1]
               for d in dirty)
    # what was redrawn is exactly what a full layout of the new view shows
    fresh, fresh_surface, _ = render(later, size)
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(fresh_surface, "RGB")
    assert r.draw(surface, later) == []


def test_only_the_changed_digit_is_redrawn():
    view = shots.moment("table_running")  # 17:59.0 left
    r, surface, _ = render(view)
    _, clock = clock_item(r, view)
    dirty = r.draw(surface, dataclasses.replace(view, now=view.now + 1.0))  # 17:58
    on_clock = [d for d in dirty if d.colliderect(clock)]
    assert len(on_clock) == 1 and len(dirty) == 2  # and the break countdown's last digit
    assert on_clock[0].width < clock.width / 3
    assert on_clock[0].height <= clock.height


def test_state_change_lays_out_again():
    view = shots.moment("table_running")
    r, surface, _ = render(view)
    changed = dataclasses.replace(view, state={**view.state})
    changed.state["table/1"] = {**view.state["table/1"], "button": 1}
    laid_out(r, surface, changed)
    for change in ({"online": False}, {"selected_seat": 3}, {"language": "de"},
                   {"hold": ("bust", 0.1)}):
        v = dataclasses.replace(changed, **change)
        laid_out(r, surface, v)
        assert r.draw(surface, v) == []


def test_a_press_answer_repaints_its_line_and_the_seat_not_the_screen():
    """issue 32.1: the frame of a press's answer on a Pi is one frame away only when it
    does not repaint 1920×1080 pixels; the pixels are those of a whole layout."""
    view = shots.moment("table_running")
    r, surface, _ = render(view)
    seats = [s["seat"] for s in view.state["table/1"]["seats"]]
    chosen = dataclasses.replace(view, selected_seat=seats[3])
    dirty = laid_out(r, surface, chosen)
    assert sum(d.width * d.height for d in dirty) < 0.1 * BIG[0] * BIG[1], dirty
    answered = dataclasses.replace(shots.moment("table_feedback_accepted"),
                                   selected_seat=seats[3])
    dirty = laid_out(r, surface, answered)
    line = next(rc for t, rc in r.items if t == answered.feedback.text)
    assert any(d.contains(line) for d in dirty)
    assert sum(d.width * d.height for d in dirty) < 0.35 * BIG[0] * BIG[1], dirty


def test_hold_progress_redraws_only_the_bar():
    view = shots.moment("table_hold")
    r, surface, _ = render(view)
    dirty = r.draw(surface, dataclasses.replace(view, hold=("bust", 0.9)))
    assert len(dirty) == 1
    assert dirty[0].height < 60 and dirty[0].bottom > 1000


def test_level_rollover_lays_out_the_next_level():
    view = shots.moment("table_running")
    r, surface, _ = render(view)
    at_end = dataclasses.replace(view, now=view.now + 1079.0 + 0.5)  # level 2 has begun
    laid_out(r, surface, at_end)
    assert "LEVEL 2" in texts(r) and "75 / 150" in texts(r) and "18:00" in texts(r)
    assert r.draw(surface, dataclasses.replace(at_end, now=at_end.now + 1.0)) != [
        surface.get_rect()]
    assert "17:59" in texts(r)


def test_offline_clock_keeps_counting():
    view = shots.moment("table_offline")
    r, surface, _ = render(view)
    assert "OFFLINE" in texts(r)
    dirty = r.draw(surface, dataclasses.replace(view, now=view.now + 1.0))
    assert dirty and "16:23" in texts(r)


def test_feedback_expires():
    view = shots.moment("table_feedback_accepted")
    mono = [shots.MONO]
    r = Renderer(BIG, monotonic=lambda: mono[0])
    surface = pygame.Surface(BIG)
    r.draw(surface, view)
    assert view.feedback.text in texts(r)
    wait = r.next_change(view)
    assert 0 < wait <= 3.0
    mono[0] += 3.0
    laid_out(r, surface, view, mono[0])
    assert view.feedback.text not in texts(r)


def test_feedback_kinds_have_their_colour():
    for name, colour in (("table_feedback_rejected", RED),):
        view = shots.moment(name)
        r, surface, _ = render(view)
        rect = next(rc for t, rc in r.items if t == view.feedback.text)
        pixels = {tuple(surface.get_at((x, rect.centery)))[:3]
                  for x in range(rect.x, rect.right)}
        assert colour in pixels


# ------------------------------------------------------------------ time call
def _red_share(surface: pygame.Surface, rect: pygame.Rect) -> float:
    red = total = 0
    for x in range(rect.x, rect.right, 3):
        for y in range(rect.y, rect.bottom, 3):
            r, g, b, _ = surface.get_at((x, y))
            total += 1
            red += r > 200 and g < 120 and b < 120
    return red / max(1, total)


def test_time_call_takes_over_and_turns_red():
    normal = shots.moment("table_time_call")
    r, surface, _ = render(normal)
    tc = max(((t, rc) for t, rc in r.items if t == "45"), key=lambda h: h[1].height)
    assert tc[1].height >= 0.4 * BIG[1]  # readable from every seat
    assert _red_share(surface, tc[1]) == 0
    # 45 → 11: still white; 10: the countdown, in red, and only the digits are redrawn
    v = dataclasses.replace(normal, now=normal.now + 34.0)
    assert r.draw(surface, v) != [surface.get_rect()]
    assert "11" in texts(r)
    v = dataclasses.replace(normal, now=normal.now + 35.0)
    laid_out(r, surface, v)  # the heading says COUNTDOWN now
    assert any(t.startswith("COUNTDOWN") for t in texts(r))
    ten = max(((t, rc) for t, rc in r.items if t == "10"), key=lambda h: h[1].height)
    assert _red_share(surface, ten[1]) > 0.1


def test_time_call_red_seconds_without_countdown():
    """003 35: 30 s ultimatum, no countdown, the last 10 s red."""
    view = shots.moment("table_time_call")
    tc = view.state["table/1"]["time_call"]
    tc.update(seconds=30, countdown=0)
    view.state["structure"]["time_call"] = {"seconds": 30, "countdown": 0, "red_seconds": 10}
    at = dataclasses.replace(view, now=tc["started_at"] + 15.0)  # 15 left: white
    r, surface, _ = render(at)
    assert texts(r)[0] and "15" in texts(r)
    assert any(t.startswith("TIME") for t in texts(r))
    at = dataclasses.replace(view, now=tc["started_at"] + 21.0)  # 9 left: red, still "TIME"
    r, surface, _ = render(at)
    nine = max(((t, rc) for t, rc in r.items if t == "9"), key=lambda h: h[1].height)
    assert _red_share(surface, nine[1]) > 0.1
    assert any(t.startswith("TIME ·") for t in texts(r))
    over = dataclasses.replace(view, now=tc["started_at"] + 31.0)
    r, _, _ = render(over)
    assert any(t.startswith("TIME IS UP") for t in texts(r)) and "0" in texts(r)


# ------------------------------------------------------------------ next_change
def test_next_change_running_clock():
    view = shots.moment("table_running")
    r = Renderer(BIG, monotonic=lambda: shots.MONO)
    assert r.next_change(view) == pytest.approx(1.0, abs=0.01)
    v = dataclasses.replace(view, now=view.now + 0.25)
    assert r.next_change(v) == pytest.approx(0.75, abs=0.01)
    # waking up at that moment shows the next second
    woke = dataclasses.replace(v, now=v.now + r.next_change(v))
    assert i18n.clock(clock_now(woke).remaining) == "17:58"


def test_next_change_paused_and_waiting_sleep_long():
    r = Renderer(BIG, monotonic=lambda: shots.MONO)
    assert r.next_change(shots.moment("table_paused")) == MAX_WAIT
    assert r.next_change(shots.moment("table_waiting")) == MAX_WAIT
    assert r.next_change(shots.moment("table_before_start")) == MAX_WAIT


def test_next_change_time_call_ticks_while_the_clock_is_paused():
    view = shots.moment("table_time_call")
    view.state["clock"] = {**view.state["clock"], "running": False, "ends_at": None,
                           "remaining": 500.0}
    r = Renderer(BIG, monotonic=lambda: shots.MONO)
    v = dataclasses.replace(view, now=view.now + 0.4)
    assert r.next_change(v) == pytest.approx(0.6, abs=0.01)


def test_next_change_feedback_expiry():
    view = shots.moment("table_feedback_rejected")
    view.state["clock"] = {**view.state["clock"], "running": False, "ends_at": None,
                           "remaining": 500.0}
    r = Renderer(BIG, monotonic=lambda: shots.MONO)
    assert r.next_change(view) == pytest.approx(7.5, abs=0.01)


def test_wall_pages_turn():
    view = shots.moment("wall_running")
    r, surface, _ = render(view)
    assert r.pages == 2
    view.state["clock"] = {**view.state["clock"], "running": False, "ends_at": None,
                           "remaining": 500.0}
    v = dataclasses.replace(view, now=WALL_PAGE_SECONDS * 10 + 4.0)
    assert r.next_change(v) == pytest.approx(WALL_PAGE_SECONDS - 4.0, abs=0.01)
    assert wall_page(v.now) == 10 and wall_page(v.now + 8.01) == 11
    first = set(texts(r))
    r.draw(surface, dataclasses.replace(v, wall_page=1))
    second = set(texts(r))
    assert "Seating  2/2" in second and "Seating  1/2" in first
    names = {s["name"] for k, p in view.state.items() if k.startswith("table/")
             for s in p.get("seats") or []}
    # every player is on one page or the other
    assert names <= first | second


# ------------------------------------------------------------------ cache and speed
def test_text_cache_is_bounded_and_reused():
    view = shots.moment("wall_running")
    r, surface, _ = render(view)
    misses = r.cache.misses
    r.draw(pygame.Surface(BIG), view)  # a new surface: full layout, all from the cache
    assert r.cache.misses == misses
    assert len(r.cache) <= r.cache.limit
    r.cache.limit = 5
    r.draw(surface, dataclasses.replace(view, language="de"))
    assert len(r.cache) <= 5


def test_missing_or_odd_state_does_not_crash():
    for view in (shots.moment("table_waiting"),
                 dataclasses.replace(shots.moment("table_running"), table=7),
                 dataclasses.replace(shots.moment("table_running"), table=None),
                 dataclasses.replace(shots.moment("wall_running"), state={})):
        for size in SIZES:
            r, _, _ = render(view, size)
            check_layout(r, size)


# ------------------------------------------------------------------ moves at the size by rule
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["table_broken", "table_final_moves", "table_moves_in"])
def test_moves_that_do_not_fit_page_through_every_player(name, size):
    """Every moved player is shown, a page at a time; the page turns by itself."""
    from kiosk.screens.common import TABLE_PAGE_SECONDS, live_moves

    view = shots.moment(name)
    tab = view.state[f"table/{view.table}"]
    moves = live_moves(view.state, tab.get("moves_in") or [])
    moves += [m for m in live_moves(view.state, tab.get("moves_out") or [])
              if name == "table_broken" or m["to"]["table"] != view.table]
    players = {m["player"].upper() for m in moves}
    assert len(players) >= 2
    r = Renderer(size, monotonic=lambda: shots.MONO)
    surface = pygame.Surface(size)
    seen: set[str] = set()
    for k in range(12):
        v = dataclasses.replace(view, now=view.now + k * TABLE_PAGE_SECONDS)
        r.draw(surface, v)
        check_layout(r, size)
        seen |= {p for p in players if p in joined(texts(r))}
        if r.pages > 1:
            assert 0 < r.next_change(dataclasses.replace(v, state={**v.state})) <= MAX_WAIT
    assert seen == players


def test_a_broken_table_becomes_a_clock_once_its_players_sit():
    """Point 3: 'Tisch wird aufgelöst' over an empty screen for the rest of the night."""
    moving = shots.moment("table_broken")
    r, _, _ = render(moving)
    assert "This table breaks" in texts(r) and "Please move:" in texts(r)
    closed = shots.moment("table_closed")
    assert not closed.state["table/3"]["in_play"] and not closed.state["table/3"]["moves_out"]
    r, _, _ = render(closed)
    drawn = texts(r)
    assert "This table breaks" not in drawn
    assert {"CLOSED", "LEVEL 1", "50 / 100", "Players left"} <= set(drawn)
    assert any(k.kind == "time_left" for k in r.keys)
    # no hint bar: the buttons of a closed table have nothing to do
    assert "HAND DONE" not in drawn


def test_time_call_without_a_seat_names_who_acts_with_room_to_the_digits():
    """Point 6: 'ZEIT 63' without seat or player; the label nearly touched the digits."""
    for size in SIZES:
        r, _, _ = render(shots.moment("table_time_call_no_seat"), size)
        head = next(rc for t, rc in r.items if t == "TIME · player to act")
        digits = next(k.rect for k in r.keys if k.kind == "time_call")
        assert digits.top - head.bottom >= 0.04 * size[1]


def test_waiting_state_is_never_cut():
    """Point 1: 'Jürgen M… wartet auf…' at 800×480."""
    for lang, words in (("en", ("waits for button", "till button")),
                        ("de", ("wartet auf Button", "bis Button"))):
        for size in SIZES:
            r, _, _ = render(shots.moment("table_waiting_player", lang), size)
            drawn = texts(r)
            assert any(w in drawn for w in words), drawn
            assert not any(t.startswith(("wartet", "waits", "bis B", "till")) and
                           t.endswith("…") for t in drawn)


def test_wall_moves_drop_the_seated_and_count_the_rest():
    """Point 4: four moves and no '+4 more'; moves of players who sat down stayed."""
    view = shots.moment("wall_moves")
    pending = view.state["moves"]["pending"]
    assert len(pending) == 6
    r, _, _ = render(view, SMALL)
    drawn = texts(r)
    lines = joined([k.text for k in r.keys if k.kind == "move"])
    shown = [m for m in pending if m["player"] in lines]
    assert shown
    assert f"+{len(pending) - len(shown)} more" in drawn
    # once the destinations played a hand the moves are done: none shown, no count
    done = shots.moment("wall_running")
    done.state["moves"] = {**done.state["moves"], "pending": []}
    r, _, _ = render(done)
    assert not any(t.startswith("+") for t in texts(r))
    assert not any("→ Table" in t for t in texts(r))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_wall_shows_the_final_tables_seats_not_the_moves_to_it(size):
    """The final table drawn: who sits where, in seat order, every name whole; the players
    still on the way marked as such (not a list of moves, "Tina Becker → Table 1, Seat 1
    +7 more"); once they sit, the seats alone."""
    view = shots.moment("wall_final_table")
    tab = view.state[f"table/{view.state['summary']['final_table']}"]
    moving = {m["player"] for m in view.state["moves"]["pending"]}
    assert len(moving) == 8
    r, _, _ = render(view, size)
    drawn = texts(r)
    for s in tab["seats"]:
        name = s["name"]
        assert (f"→ {name}" if name in moving else name) in drawn, (name, drawn)
    rows = [t for t in drawn if t.lstrip("→ ") in {s["name"] for s in tab["seats"]}]
    assert rows == [("→ " if s["name"] in moving else "") + s["name"] for s in tab["seats"]]
    assert "→ on the way: 8" in drawn
    assert not any(t.startswith("+") or "Seat 1" in t or t.endswith("…") for t in drawn)
    assert "Moves" not in drawn and "Seating" not in drawn
    g = shots.Game(registration_closed=True)
    g.start()
    g.bust_down(9)
    for _ in range(2):  # the hand in play when it was drawn, then the first at it
        g.do("hand_done", table=view.state["summary"]["final_table"])
    assert not g.state(g.now)["moves"]["pending"]
    r, _, _ = render(g.view(role="wall"), size)
    drawn = texts(r)
    assert all(s["name"] in drawn for s in tab["seats"]), drawn
    assert not any(t.startswith("→") for t in drawn), drawn


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", shots.LANGUAGES)
def test_only_names_are_ever_cut(lang, size):
    """Point 1: a state, a sentence, a level, a result is never cut with "…": only a
    player's name in a seat row or the seating list, when it fits neither at the
    smallest size nor on two lines (then its second line, or its only one, is cut)."""
    for name in shots.MOMENTS:
        view = shots.moment(name, lang)
        r, _, _ = render(view, size)
        names = {s.get("name") or "" for k, p in view.state.items() if k.startswith("table/")
                 for s in p.get("seats") or []}
        for text, _ in r.items:
            if text.endswith("…") and not text.endswith(" …"):
                # the name's start, or the rest of it after its first line
                piece = text[:-1].rstrip()
                assert any(n.startswith(piece) or f" {piece}" in n or f"-{piece}" in n
                           for n in names), (name, text)


def _white_square(surface: pygame.Surface) -> pygame.Rect:
    """The bounds of the pure white pixels (only the QR code's background is pure white)."""
    w, h = surface.get_size()
    raw = pygame.image.tobytes(surface, "RGB")
    xs, ys = [], []
    for y in range(h):
        row = raw[y * w * 3:(y + 1) * w * 3]
        first = next((i for i in range(0, len(row), 3) if row[i:i + 3] == b"\xff\xff\xff"),
                     None)
        if first is not None:
            last = max(i for i in range(first, len(row), 3) if row[i:i + 3] == b"\xff\xff\xff")
            xs += [first // 3, last // 3]
            ys.append(y)
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_wall_draws_the_players_page_as_a_qr_code_that_reads_back(size):
    """issue 12: the QR code on the wall is the players' page the console published, module
    for module (whole pixels per module, a quiet zone of two), so a phone reads it."""
    import segno

    view = shots.moment("wall_announcement")
    surface = pygame.Surface(size)
    Renderer(size, monotonic=lambda: shots.MONO).draw(surface, view)
    box = _white_square(surface)
    matrix = segno.make(view.state["console/public"]["url"], error="m").matrix
    n = len(matrix) + 4
    assert box.width == box.height and box.width % n == 0
    unit = box.width // n
    assert unit >= 2  # at least 2 px a module even on the small wall
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            px = surface.get_at((box.x + (c + 2) * unit + unit // 2,
                                 box.y + (r + 2) * unit + unit // 2))
            assert (px[:3] == (0, 0, 0)) == bool(dark), (r, c)
    # without a console there is no QR code (and nothing pure white on the wall)
    del view.state["console/public"]
    Renderer(size, monotonic=lambda: shots.MONO).draw(surface, view)
    raw = pygame.image.tobytes(surface, "RGB")
    assert not any(raw[i:i + 3] == b"\xff\xff\xff" for i in range(0, len(raw), 3 * 97))


def test_a_banner_whose_time_ran_out_is_not_drawn():
    """The screens hide an announcement after its ``until`` by themselves (protocol.md)."""
    from kiosk.screens import common

    view = shots.moment("table_announcement")
    until = view.state["announcement"]["until"]
    assert common.announcement_of(view) == "Add-on jetzt möglich"
    view.now = until
    assert common.announcement_of(view) is None


def test_the_big_clock_counts_an_hour_and_more_in_minutes():
    """000 4.15: a play-the-clock round is one level of 1.5 h; its clock reads 89:59 as
    wide as any level's 17:59, never 1:29:59 (smaller in the same width)."""
    assert i18n.level_clock(90 * 60 - 1) == "89:59"
    assert i18n.level_clock(17 * 60 + 59) == "17:59"
    assert i18n.level_clock(None) == "∞"
    assert i18n.clock(90 * 60 - 1) == "1:29:59"  # a break's "in 1:29:59" keeps its hours


@pytest.mark.parametrize("lang", shots.LANGUAGES)
def test_a_very_long_name_beside_a_penalty_keeps_more_than_its_first_letters(lang):
    """800×480, the big blind's marker and a penalty beside a name of 40 letters: the
    penalty whole under the name, the name cut only at the row's end ("Maximiliane Schw…",
    not "Maximili…" beside "8 Hände")."""
    view = shots.moment("table_penalty", lang)
    seats = view.state["table/1"]["seats"]
    seat = next(s for s in seats if s["name"].startswith("Vera"))
    seat["name"] = "Maximiliane Schwarzenberger-Lüdenscheidt"
    r, _, _ = render(view, SMALL)
    drawn = texts(r)
    assert any(t.startswith("Maximiliane S") and t.endswith("…") for t in drawn), drawn
    penalty = {"de": "Strafe: 8 Hände", "en": "penalty: 8 hands"}[lang]
    assert penalty in drawn, drawn


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_moment_after_another_shows_what_a_new_screen_shows(size):
    """A layout repaints only where it differs from the one before (issue 32.1): from
    every moment to the next (a table screen to a wall on one surface too), the screen
    shows exactly what a new renderer draws."""
    names = list(shots.MOMENTS)
    r = Renderer(size, monotonic=lambda: shots.MONO)
    surface = pygame.Surface(size)
    r.draw(surface, shots.moment(names[0]))
    for name in names[1:]:
        view = shots.moment(name)
        r.draw(surface, view)
        _, fresh, _ = render(view, size)
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(fresh, "RGB"), name


def test_the_chip_race_entry_works_per_chip_when_the_director_called_several():
    """Issue 32: the director colours up the 25s and the 100s in the break; table 1's screen
    enters the 25s' race first (1/2), then the 100s' (2/2), each entry on its own (the
    buttons' entry keys on the chip: kiosk/buttons.py)."""
    g = shots._colour_up()
    g.do("colour_up", at=g.now + 10.0, chips=[25, 100])
    first = g.view(now=g.now + 20.0)
    race = first.state["table/1"]["chip_race"]
    assert (race["leaving"], race["new"], race["result"]) == (25, 100, None)
    assert [(c["leaving"], c["raced"]) for c in race["chips"]] == [(25, False), (100, False)]
    r, _, _ = render(first)
    assert "CHIP RACE  25 → 100  1/2" in texts(r)
    seats = sorted(g.t.tables[1].occupant)
    g.do("chip_race", at=g.now + 30.0, table=1, chips=[3 if s == seats[0] else 0
                                                       for s in range(1, seats[0] + 1)])
    second = g.view(now=g.now + 40.0)
    race = second.state["table/1"]["chip_race"]
    assert (race["leaving"], race["new"], race["result"]) == (100, 500, None)
    assert [(c["leaving"], c["raced"]) for c in race["chips"]] == [(25, True), (100, False)]
    r, _, _ = render(second)
    assert "CHIP RACE  100 → 500  2/2" in texts(r)
    assert any("× 100" in t or "100" in t for t in texts(r))
