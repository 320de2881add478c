"""The chip race of a colour-up break (000 3.17, 001 §1 X, 002, 003 37, 004 2).

On the table screen it takes the body over while the table is in a break whose
note names a chip (the table state's ``chip_race``)::

    +------------------------------------------------------------+
    | CHIP RACE  25 → 100                           BREAK 08:12  |  title, the break's time
    | Cards from seat 1 · one card per 25 · one 100 each at most |  how it goes (the preset)
    +-----------------------------+------------------------------+
    | 1  Anna      ●●● 3   A♠ 4♥ 9♦  +1 |  6  Felix    ● 1  …    |  the seats, two columns
    | 2  Ben       ●● 2    …            |  …                     |
    +-----------------------------+------------------------------+
    | 6 × 25 = 150 → 2 × 100 (rounded up)                        |  the table's sum
    +------------------------------------------------------------+

Before the race the dealer enters the leftover chips (◀ ▶ a seat, TIME one
more chip, hold BUST: these are all the player has, HAND DONE sends; see
``docs/screens.md``); the rows show the counts as entered. After it, each
row shows its cards and what it won, the winners in green. Who wins is the
engine's decision (``controller/engine/rules/chip_race.py``); the count of new
chips before the race is its arithmetic too, sent along as ``makes`` and shown as a
preview.

The wall shows one line per table in its break panel: which tables raced.
"""

from __future__ import annotations

from typing import Any

import pygame

from controller.wire import i18n
from controller.wire.i18n import tr
from kiosk.screens.common import Frame
from kiosk.screens.widgets import (
    BOLD,
    COND,
    DIM,
    FG,
    GOLD,
    GREEN,
    PANEL,
    PANEL2,
    RED,
    SELECT,
    Canvas,
    inset,
    split_h,
    stack,
)

#: card ranks as the players read them ("T" is a ten)
_RANK = {"T": "10"}
#: red suits are drawn red, as on the cards
_RED_SUITS = "♥♦"


def race_of(frame: Frame) -> dict[str, Any] | None:
    """The table's chip race (``None``: no colour-up break at this table)."""
    tab = frame.table
    race = (tab or {}).get("chip_race") if tab and tab.get("in_play", True) else None
    return race or None


def card_text(card: str) -> str:
    return _RANK.get(card[0], card[0]) + card[1:]


def draw(c: Canvas, body: pygame.Rect, frame: Frame, small_clock: Any) -> None:
    """The chip race on a table screen: guidance, the entry, then the result."""
    race = race_of(frame)
    assert race is not None
    lang = frame.lang
    result = race.get("result")
    title_h = max(c.px(96), c.need("dealer") * 2)
    info_h = max(c.px(52), round(c.need("dealer") * 3.2))
    sum_h = max(c.px(64), round(c.need("dealer") * 1.8))
    rows = stack(body, [(title_h, 0), (info_h, 0), (c.px(300), 1.0), (sum_h, 0)], c.px(12))
    title, clock = split_h(rows[0], round(rows[0].width * 0.6), c.px(20))
    leaving, new = i18n.num(race["leaving"], lang), i18n.num(race["new"], lang)
    c.text(f"{tr('chip_race_title', lang)}  {leaving} → {new}{of_chips(race)}",
           inset(title, 0, title.height // 8), colour=GOLD, box="ink")
    small_clock(c, inset(clock, 0, clock.height // 5), frame)
    with c.key("dealer"):
        text = guide(race, lang)
        size = max(c.need_size("dealer", COND), round(rows[1].height * 0.62))
        lines = c.wrap(text, COND, size, rows[1].width)
        if len(lines) > 1:  # two lines in the same room, never cut
            size = max(c.need_size("dealer", COND), round(rows[1].height * 0.42))
            lines = c.wrap(text, COND, size, rows[1].width)
        lh = rows[1].height // max(1, len(lines))
        for i, line in enumerate(lines):
            c.text(line, pygame.Rect(rows[1].x, rows[1].y + i * lh, rows[1].width, lh),
                   face=COND, colour=DIM, size=size)
    seat_rows(c, rows[2], frame, race)
    with c.key("dealer"):
        if result is None:
            c.text(preview(frame, race, lang), rows[3], face=BOLD, colour=FG,
                   min_size=c.need_size("dealer"))
        else:
            c.text(outcome(race, lang), rows[3], face=BOLD, colour=GREEN,
                   min_size=c.need_size("dealer"))


def of_chips(race: dict[str, Any]) -> str:
    """``  1/2``: which of several chips the director called this race is for (002; each
    is raced on its own, the smaller first); empty for one chip."""
    chips = race.get("chips") or []
    at = next((i for i, ch in enumerate(chips, 1) if ch.get("leaving") == race["leaving"]),
              None)
    return "" if len(chips) < 2 or at is None else f"  {at}/{len(chips)}"


def guide(race: dict[str, Any], lang: str) -> str:
    """How this club races: where the cards start, one card per chip, who wins what."""
    leaving, new = i18n.num(race["leaving"], lang), i18n.num(race["new"], lang)
    start = race.get("start_seat")
    parts = [tr("race_from_seat", lang, seat=start if start is not None else 1),
             tr("race_card_per_chip", lang, chip=leaving),
             tr("race_one_each", lang, chip=new) if race.get("one_chip_per_player")
             else tr("race_takes_all", lang)]
    return " · ".join(parts)


def entered(frame: Frame, race: dict[str, Any]) -> tuple[dict[int, int], set[int]]:
    """The leftover chips by seat: the result's, or what the dealer is entering."""
    result = race.get("result")
    if result is not None:
        return ({s["seat"]: s["leftover"] for s in result["seats"]},
                {s["seat"] for s in result["seats"] if s.get("saved")})
    return dict(frame.view.race), set(frame.view.race_short)


def preview(frame: Frame, race: dict[str, Any], lang: str) -> str:
    """``6 × 25 = 150 → 2 × 100``: what the leftover chips entered so far make."""
    chips, _ = entered(frame, race)
    n = sum(chips.values())
    if not n:
        return tr("race_enter", lang)
    total = n * race["leaving"]
    makes = race.get("makes") or []
    made = makes[n] if n < len(makes) else "?"
    return (f"{n} × {i18n.num(race['leaving'], lang)} = {i18n.num(total, lang)} → "
            f"{made} × {i18n.num(race['new'], lang)} · {tr('race_send', lang)}")


def outcome(race: dict[str, Any], lang: str) -> str:
    result = race["result"]
    return tr("race_result", lang, n=result["new_chips"], chip=i18n.num(race["new"], lang),
              change=("+" if result["change"] > 0 else "") + i18n.num(result["change"], lang))


def seat_rows(c: Canvas, rect: pygame.Rect, frame: Frame, race: dict[str, Any]) -> None:
    """Before the race every occupied seat with its leftover chips, in two columns when
    there are more than five; after it the seats of the race in dealing order, one
    column, with their cards and what they won."""
    tab = frame.table or {}
    lang = frame.lang
    result = race.get("result")
    by_result = {s["seat"]: s for s in (result or {}).get("seats", [])}
    chips, short = entered(frame, race)
    names = {s["seat"]: s.get("name") or "?" for s in tab.get("seats") or [] if s.get("name")}
    if result is None:
        seats = [{"seat": n, "name": nm} for n, nm in sorted(names.items())]
    else:
        seats = [{"seat": s["seat"], "name": s.get("name") or names.get(s["seat"], "?")}
                 for s in result["seats"]]
    cols = 2 if len(seats) > 5 and result is None else 1
    per_col = max(1, -(-len(seats) // cols))
    gap = c.px(20)
    col_w = (rect.width - gap * (cols - 1)) // cols
    row_h = min(rect.height // per_col, c.px(150))
    selected = frame.view.selected_seat if result is None else None
    # one size for every name (the list reads as a list)
    rh = row_h - max(2, row_h // 12)  # as the rows below and one_row lay them out
    inner_h = rh - 2 * max(2, rh // 8)
    rest_w = col_w - 2 * max(6, rh // 6) - round(inner_h * 1.1) - inner_h // 4
    name_w = round(rest_w * (0.5 if result is None else 0.3))
    name_size = min((c.fit_size(s["name"], COND, name_w, inner_h, "line",
                                round(inner_h * 0.62)) for s in seats),
                    default=c.min_size)
    name_size = max(name_size, c.min_size)
    for i, s in enumerate(seats):
        col, row = divmod(i, per_col)
        r = pygame.Rect(rect.x + col * (col_w + gap), rect.y + row * row_h, col_w,
                        row_h - max(2, row_h // 12))
        seat = s["seat"]
        res = by_result.get(seat)
        won = (res or {}).get("won", 0)
        is_sel = seat == selected
        bg = SELECT if is_sel else (PANEL if i % 2 == 0 else PANEL2)
        c.fill(r, bg)
        if is_sel:
            c.frame(r, GOLD, max(2, r.height // 16))
        if won or (res or {}).get("saved"):
            c.fill(pygame.Rect(r.x, r.y, max(4, r.height // 8), r.height),
                   GREEN if won else GOLD)
        inner = inset(r, max(6, r.height // 6), max(2, r.height // 8))
        one_row(c, inner, race, s, chips.get(seat, 0), seat in short, res, bg, lang,
                name_size)


def one_row(c: Canvas, r: pygame.Rect, race: dict[str, Any], s: dict[str, Any], n: int,
            short: bool, res: dict[str, Any] | None, bg: tuple[int, int, int], lang: str,
            name_size: int) -> None:
    """Seat, name, leftover chips; the cards (red suits red) and the verdict after."""
    seat = s["seat"]
    num_w = round(r.height * 1.1)
    c.text(str(seat), pygame.Rect(r.x, r.y, num_w, r.height), colour=GOLD, bg=bg, box="ink",
           align="center")
    rest = pygame.Rect(r.x + num_w + r.height // 4, r.y, r.width - num_w - r.height // 4,
                       r.height)
    name_r, right = split_h(rest, round(rest.width * (0.5 if res is None else 0.3)),
                            r.height // 4)
    c.text(s.get("name") or "?", name_r, face=COND, colour=FG, bg=bg, size=name_size)
    chips_r, tail = split_h(right, round(right.height * 1.3), r.height // 4)
    c.text(str(n), inset(chips_r, 0, r.height // 10), colour=FG if n else DIM, bg=bg,
           box="ink", align="center")
    if res is None:
        if short:
            c.text(tr("race_short", lang), tail, face=COND, colour=GOLD, bg=bg)
        return
    won = res.get("won", 0)
    verdict = (f"+{won} × {i18n.num(race['new'], lang)}" if won else
               tr("race_keeps", lang, chip=i18n.num(race["new"], lang)) if res.get("saved")
               else "")
    cards_r, verdict_r = split_h(tail, round(tail.width * 0.5), r.height // 4)
    parts = [(card_text(cd) + " ", BOLD, cards_r.height, RED if cd[-1] in _RED_SUITS else FG)
             for cd in res.get("cards", [])]
    c.runs(parts, cards_r, bg=bg)
    if verdict:
        c.text(verdict, verdict_r, colour=GREEN if won else GOLD, bg=bg, align="right",
               max_size=round(r.height * 0.7))


def wall_lines(state: dict[str, dict[str, Any]], lang: str) -> list[str]:
    """The wall's lines in a colour-up break: ``CHIP RACE 25 → 100``, ``done: table 1``,
    ``open: table 2, 3``; none outside one."""
    races = {int(k.split("/")[1]): v["chip_race"] for k, v in state.items()
             if k.startswith("table/") and v.get("in_play") and v.get("chip_race")}
    if not races:
        return []
    first = next(iter(races.values()))
    done = sorted(n for n, r in races.items() if r.get("result") is not None)
    open_ = sorted(n for n, r in races.items() if r.get("result") is None)
    lines = [f"{tr('chip_race_title', lang)} {i18n.num(first['leaving'], lang)} → "
             f"{i18n.num(first['new'], lang)}"]
    if done:
        lines.append(tr("race_done_at", lang, tables=i18n.number_list(done, lang)))
    if open_:
        lines.append(tr("race_open_at", lang, tables=i18n.number_list(open_, lang)))
    return lines
