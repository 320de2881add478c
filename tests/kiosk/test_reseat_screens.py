"""Both tables' screens show the director's reseat as a move (issue 31.7, 002), and the
new table shows a player who posted a blind at the old one waiting for the button
(003 12) until a "hand done" moves the button past the seat. Drawn by the real renderer
(pygame, SDL_VIDEODRIVER=dummy) from engine states; the PNGs go to the test's folder."""

from __future__ import annotations

import dataclasses

import pygame

from controller.night.shots import NAMES, Game
from kiosk.render import Renderer

SIZE = (1920, 1080)


def drawn(g: Game, table: int, path) -> str:
    r = Renderer(SIZE, monotonic=lambda: 0.0)
    surface = pygame.Surface(SIZE)
    r.draw(surface, g.view(table=table))
    pygame.image.save(surface, str(path))
    return " | ".join(text for text, _ in r.items)


def test_a_reseat_shows_on_both_tables_and_the_blind_waits_for_the_button(tmp_path):
    g = Game(names=NAMES[:16])  # two tables of 8
    g.t.settings = dataclasses.replace(
        g.t.settings, balancing=dataclasses.replace(g.t.settings.balancing,
                                                    blinds_sit_out=True))
    g.start()
    old = g.t.tables[1]
    pid = old.occupant[old.bb]  # posted the big blind at table 1
    name = g.t.players[pid].name
    new = g.t.tables[2]
    seat = next(s for s in range(1, new.size + 1) if s not in new.occupant)
    g.do("reseat", player=pid, table=2, seat=seat, reason="Rollstuhl")
    out = drawn(g, 1, tmp_path / "reseat_table_1.png")
    into = drawn(g, 2, tmp_path / "reseat_table_2.png")
    assert name.upper() in out and f"→ Table 2, Seat {seat}" in out, out
    assert name.upper() in into and f"→ Seat {seat}" in into, into
    g.do("seated", player=pid)
    seated = drawn(g, 2, tmp_path / "reseat_table_2_seated.png")
    assert "waits for button" in seated, seated
    for _ in range(new.size):
        if new.dealt(seat):
            break
        g.do("hand_done", table=2)
    assert new.dealt(seat)
    dealt = drawn(g, 2, tmp_path / "reseat_table_2_dealt.png")
    assert "waits for button" not in dealt, dealt


def test_a_seat_kept_for_a_late_arrival_says_reserved_002(tmp_path):
    g = Game(names=NAMES[:15])
    g.start()
    g.do("reserve", seats=1, reason="Nachzügler")
    [n] = [n for n, tab in g.t.tables.items() if tab.reserved]
    shown = drawn(g, n, tmp_path / "reserved_table.png")
    assert "reserved" in shown, shown
    g.t.settings = dataclasses.replace(g.t.settings, language="de")
    v = g.view(table=n)
    v.language = "de"
    r = Renderer(SIZE, monotonic=lambda: 0.0)
    surface = pygame.Surface(SIZE)
    r.draw(surface, v)
    pygame.image.save(surface, str(tmp_path / "reserved_table_de.png"))
    assert "reserviert" in [text for text, _ in r.items]
