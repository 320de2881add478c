"""The table screen: the clock for the players, the seats and the floor's words for the dealer.

Layout (any size; 1920×1080 and 800×480 are the targets)::

    +------------------------------------------------------------+
    | TABLE 3            tournament name            [OFFLINE]    |  header
    +-------------------------------------+----------------------+
    | LEVEL 5                   [PAUSED]  |  1  Anna         D   |
    | 200 / 400                           |  2  Ben         SB   |
    | Ante 25                             |  3  Cem         BB   |
    |            17:59                    |  …                   |  seats
    | Next level: 300 / 600 · ante 50     |                      |
    | Break in 42:10                      |                      |
    | Players 25 / 27 · Average 10,800    |                      |
    +-------------------------------------+----------------------+
    | hand-for-hand / notices / hands left / moves in and out    |  messages
    +------------------------------------------------------------+
    | feedback of the last press, or the hold-to-confirm bar     |  footer
    +------------------------------------------------------------+

A time call takes the body over; so does the champion. A table that is no
longer in play shows where its players go instead of its seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from controller.wire import i18n
from controller.wire.i18n import tr
from kiosk.problems import words as problem_words
from kiosk.screens import chip_race, common, duties
from kiosk.screens.common import Frame
from kiosk.screens.widgets import (
    BG,
    BLACK,
    BLUE,
    BOLD,
    COND,
    DARKGOLD,
    DARKRED,
    DIM,
    FG,
    GOLD,
    GREEN,
    LINE,
    PANEL,
    PANEL2,
    RED,
    SELECT,
    Canvas,
    Colour,
    inset,
    split_h,
    stack,
)

#: draws one thing into a rectangle (its return value is not used)
Line = Callable[[Canvas, pygame.Rect], object]


@dataclass
class Block:
    """A message under the clock: its height in pixels and what draws it. ``grow``: it
    takes whatever room is left (the moves, which page when they do not fit)."""

    height: int
    draw: Line
    grow: bool = False
    least: int = 0  #: a growing block's smallest useful height


def draw(c: Canvas, frame: Frame) -> None:
    surf = c.surface
    W, H = surf.get_size()
    view, lang = frame.view, frame.lang
    c.fill(surf.get_rect(), BG)
    tab = frame.table
    header_h = max(30, c.px(72))
    # the footer holds the dealer's hints: at least their size by rule (sizes.py)
    footer_h = max(26, c.px(58), c.fonts.get(COND, c.need_size("dealer", COND)).get_height()
                   + 8)
    margin = c.px(20)
    badges = common.badge_list(frame)
    closed = tab is not None and not tab.get("in_play", True)
    if tab and tab.get("final") and frame.mode != "champion":
        badges.insert(0, (tr("final_table", lang).upper(), BLACK, GOLD))
    if closed and frame.mode not in ("wait", "champion"):
        badges.insert(0, (tr("closed", lang).upper(), FG, DARKRED))
    rnd = frame.summary.get("round")
    if rnd and frame.mode != "champion":  # play the clock, restart, multi-round
        badges.append((f"{tr('round', lang)} {common.round_text(rnd, lang)}".upper(), BLACK,
                       GOLD))
    title = tr("table_n", lang, n=view.table if view.table is not None else "?")
    common.header(c, pygame.Rect(0, 0, W, header_h), title, frame.summary.get("name") or "",
                  badges)
    common.footer(c, pygame.Rect(0, H - footer_h, W, footer_h), frame)
    band = common.announcement_height(c, frame)  # the director's banner, if one is up
    common.announcement_band(c, pygame.Rect(0, header_h, W, band), frame)
    body = pygame.Rect(margin, header_h + band + margin, W - 2 * margin,
                       H - header_h - band - footer_h - margin * 3 // 2)
    if frame.mode == "wait":
        if frame.view.problem is not None and not frame.view.online:
            common.problem_panel(c, body, *problem_words(frame.view.problem, lang))
        else:
            common.waiting_panel(c, body, tr("waiting_controller", lang))
        return
    if frame.mode == "champion":
        champion(c, body, frame)
        return
    if frame.mode == "timecall":
        time_call(c, body, frame)
        return
    if tab is not None and closed:
        closed_table(c, body, frame, tab)
        return
    if frame.mode == "break" and chip_race.race_of(frame) is not None:
        chip_race.draw(c, body, frame, small_clock)  # the colour-up's chip race (000 3.17)
        return
    blocks = message_blocks(c, frame, tab, body.width)
    gap = c.px(8) + 2
    # the clock panel with all its rows, or only level, blinds and time when the messages
    # need the room: both keep the time left and the blinds at their size by rule
    seats_w = round(body.width * 0.33)
    clock_w = body.width - seats_w - c.px(24)
    core = c.need("time_left") + c.need("blinds")
    if frame.mode != "break":  # the ante under the blinds (a long level on a 7" screen)
        core += common.ante_room(c, clock_w, frame)
    full_min = max(c.px(700), round(core * 1.85))
    compact_min = max(c.px(470), round(core * 1.4))
    fixed = sum(b.height for b in blocks if not b.grow) + gap * len(blocks)
    grow = [b for b in blocks if b.grow]
    want = fixed + sum(b.height for b in grow)
    if body.height - want >= full_min:
        top_h, compact = body.height - want, False
    else:  # the moves get all the room the clock can give (they page if it is not enough)
        top_h, compact = max(compact_min, body.height - want), True
    msgs_h = max(0, body.height - top_h)
    top = pygame.Rect(body.x, body.y, body.width, top_h)
    left, right = split_h(top, clock_w, c.px(24))
    if frame.mode == "break":
        common.break_panel(c, left, frame, compact=compact)
    else:
        common.clock_panel(c, left, frame, compact=compact)
    if tab is None:
        common.waiting_panel(c, right, tr("waiting_draw", lang))
    else:
        incoming = {seat for m in common.live_moves(frame.state, tab.get("moves_in") or [])
                    if isinstance(seat := (m.get("to") or {}).get("seat"), int)}
        seats(c, right, tab, view.selected_seat, lang, incoming, now=view.now,
              currency=(frame.summary.get("prize_pool") or {}).get("currency", ""))
    if blocks and msgs_h > gap:
        msgs = pygame.Rect(body.x, top.bottom + gap, body.width, msgs_h - gap)
        lay_blocks(c, msgs, blocks, gap)


# ---------------------------------------------------------------- seats
def seats(c: Canvas, rect: pygame.Rect, tab: dict[str, Any], selected: int | None,
          lang: str, incoming: set[int] | None = None, now: float = 0.0,
          currency: str = "") -> None:
    """Every seat 1..size: number, name, button and blind markers, who waits or arrives,
    a penalty and who deals (:mod:`kiosk.screens.duties`).

    ``incoming``: seats a live move goes to (the payload's own flag when ``None``);
    ``now``: controller time (a penalty in minutes counts down to it); ``currency``: of
    the money bounties' heads (a seat's ``bounty``), shown where the row has room."""
    by_seat = {s["seat"]: s for s in tab.get("seats") or []}
    size = tab.get("size") or max(by_seat, default=9)
    n = max(size, max(by_seat, default=0))
    row_h = min(rect.height // max(1, n), c.px(100))
    gap = max(1, row_h // 14)
    button, sb, bb = tab.get("button"), tab.get("small_blind"), tab.get("big_blind")
    pad = max(3, row_h // 10)
    sel_w = max(2, row_h // 14)
    inner_h = row_h - gap - (pad // 2) * 2
    d = round(inner_h * 0.9)
    mgap = max(2, d // 8)
    num_w = round(inner_h * 1.25)
    # one size for every name (the list reads as a list); a name that is longer still
    # shrinks on its own down to the minimum, then is cut with "…"
    name_w = rect.width - 2 * pad - 2 * sel_w - num_w - 2 * pad - (d + mgap)
    name_size = round(inner_h * 0.62)
    small = c.fonts.get(COND, c.min_size)  # the smallest a name or a tag gets
    line_h = small.get_ascent() - small.get_descent()  # a line's ink: no leading
    names = [s.get("name") or "?" for s in by_seat.values()]
    heads = [i18n.money(s["bounty"], currency, lang) for s in by_seat.values()
             if s.get("bounty") is not None]
    if heads:  # money bounties: the names' one size leaves room for the heads' column
        hfont = c.fonts.get(BOLD, max(c.min_size, round(inner_h * 0.42)))
        name_w -= max(hfont.size(h)[0] for h in heads) + 2 * pad
    if names:
        common_size = min(c.fit_size(nm, COND, name_w, inner_h, "line", name_size)
                          for nm in names)
        name_size = max(common_size, round(name_size * 0.75), c.min_size)
    for i in range(n):
        seat = i + 1
        r = pygame.Rect(rect.x, rect.y + i * row_h, rect.width, row_h - gap)
        occ = by_seat.get(seat)
        is_sel = seat == selected
        bg = SELECT if is_sel else (PANEL if i % 2 == 0 else PANEL2)
        c.fill(r, bg)
        if is_sel:
            c.frame(r, GOLD, sel_w)
        inner = inset(r, pad + sel_w, pad // 2)
        # seat number
        nb = pygame.Rect(inner.x, inner.y, num_w, inner.height)
        c.text(str(seat), inset(nb, 0, inner.height // 6), colour=GOLD if is_sel else FG, bg=bg,
               box="ink", align="center")
        # markers: D, SB, BB (two on one seat heads-up, where the button posts the SB)
        marks = []
        if button == seat:
            marks.append(("D", (250, 250, 250)))
        if sb is not None and sb == seat:
            marks.append(("SB", BLUE))
        if bb == seat:
            marks.append(("BB", GOLD))
        mx = inner.right
        for text, col in reversed(marks):
            mr = pygame.Rect(mx - d, inner.centery - d // 2, d, d)
            c.ellipse(mr, col)
            c.text(text, inset(mr, d // 5, d // 3), colour=BLACK, bg=col, box="ink",
                   align="center", min_size=6)
            mx -= d + mgap
        name_right = mx - mgap if marks else inner.right
        name_r = pygame.Rect(nb.right + pad * 2, inner.y, max(0, name_right - nb.right - pad * 2),
                             inner.height)
        if occ is None:
            # a seat the director keeps for a late arrival (002) says so
            kept = seat in (tab.get("reserved") or ())
            c.text(tr("reserved" if kept else "empty", lang), name_r, face=COND,
                   colour=GOLD if kept else (LINE if not is_sel else DIM), bg=bg,
                   size=name_size)
            continue
        name = occ.get("name") or "?"
        tags: list[str] = []
        tag_colour = GOLD
        duty = duties.seat_tags(tab, seat, now, lang)  # a penalty first (000 3.8)
        if duty is not None and duty[1] == RED:
            tags, tag_colour = duty
        elif occ.get("waiting"):
            tags = [tr("waits", lang), tr("waits_short", lang)]
        elif (seat in incoming) if incoming is not None else occ.get("incoming"):
            tags, tag_colour = ["→ " + tr("incoming", lang), "→"], BLUE
        elif occ.get("absent"):  # 000 9.5: the seat is dealt in and folded
            tags, tag_colour = [tr("absent", lang), tr("absent_short", lang)], DIM
        elif duty is not None:
            tags, tag_colour = duty
        colour = DIM if occ.get("ghost") else FG
        if occ.get("bounty") is not None:
            # money bounties: the head on the player, green, in a column of its own left
            # of the markers, where the whole name and the state still fit beside it
            head = i18n.money(occ["bounty"], currency, lang)
            hsize = max(c.min_size, round(inner.height * 0.42))
            hw = c.fonts.get(BOLD, hsize).size(head)[0]
            state_w = c.fonts.get(COND, hsize).size(tags[-1])[0] + pad * 2 if tags else 0
            right = min(name_r.right, inner.right - d - 2 * mgap)  # one marker's room
            room = right - name_r.x
            if small.size(name)[0] + state_w + hw + pad * 2 <= room:
                c.draw_at(head, pygame.Rect(right - hw, name_r.y, hw, name_r.height), BOLD,
                          hsize, GREEN, bg, "right", "line")
                name_r.width = max(0, right - hw - pad * 2 - name_r.x)
        if tags:
            # the state is never cut: the longer wording while the whole name still fits
            # at the smallest size beside it, else the shorter; if even that leaves no
            # room for the whole name, two lines; rows too low for them: the name shrinks,
            # then it is cut
            tsize = max(c.min_size, round(inner.height * 0.42))
            tfont = c.fonts.get(COND, tsize)
            tag = tags[-1]
            for cand in tags:
                if tfont.size(cand)[0] + pad * 2 + small.size(name)[0] <= name_r.width:
                    tag = cand
                    break
            beside = tfont.size(tag)[0] + pad * 2 + small.size(name)[0] <= name_r.width
            if not beside and inner.height >= 2 * line_h:
                _name_and_tag_in_two_lines(c, name, tags, name_r, pad, line_h, colour,
                                           tag_colour, bg)
                continue
            tw = tfont.size(tag)[0]
            tag_r = pygame.Rect(name_r.right - tw, name_r.y, tw, name_r.height)
            c.draw_at(tag, tag_r, COND, tsize, tag_colour, bg, "right", "line")
            name_r.width = max(0, name_r.width - tw - pad * 2)
        if small.size(name)[0] > name_r.width and inner.height >= 2 * line_h \
                and _two_lines(c, name, name_r, name_r.width, line_h, colour, bg):
            continue  # two lines rather than cut
        fits = c.fonts.get(COND, name_size).size(name)[0] <= name_r.width
        c.text(name, name_r, face=COND, colour=colour, bg=bg,
               size=name_size if fits else None, max_size=name_size)


def _name_and_tag_in_two_lines(c: Canvas, name: str, tags: list[str], rect: pygame.Rect,
                               pad: int, line_h: int, colour: Colour, tag_colour: Colour,
                               bg: Colour) -> None:
    """A seat's name and its tag (longest wording first) on two lines of the smallest size:
    the whole name above the tag; a name too long for a line of its own on both lines with
    the tag beside the first; else the name above, cut, and the tag under it."""
    small = c.fonts.get(COND, c.min_size)
    top = rect.centery - line_h
    if small.size(name)[0] > rect.width:
        short = next((x for x in tags if small.size(x)[0] * 2 <= rect.width), tags[-1])
        room = rect.width - small.size(short)[0] - pad * 2
        if _two_lines(c, name, rect, room, line_h, colour, bg):
            c.draw_at(short, pygame.Rect(rect.x, top, rect.width, line_h), COND, c.min_size,
                      tag_colour, bg, "right", "line")
            return
    c.text(name, pygame.Rect(rect.x, top, rect.width, line_h), face=COND, colour=colour,
           bg=bg, size=c.min_size)
    under = next((x for x in tags if small.size(x)[0] <= rect.width), tags[-1])
    c.text(under, pygame.Rect(rect.x, top + line_h, rect.width, line_h), face=COND,
           colour=tag_colour, bg=bg, size=c.min_size)


def _two_lines(c: Canvas, name: str, rect: pygame.Rect, first: int, line_h: int,
               colour: Colour, bg: Colour) -> bool:
    """``name`` on two lines of the smallest size in ``rect``, the first ``first`` wide (the
    rest of the row is the tag's); a name that needs more lines keeps its first line whole
    and is cut on the second ("Maximiliane" / "Schwarzenberger-Lüd…"). False, drawing
    nothing, when not even its first word fits."""
    lines = c.wrap(name, COND, c.min_size, rect.width, first=first)
    font = c.fonts.get(COND, c.min_size)
    if len(lines) < 2 or font.size(lines[0])[0] > first:
        return False
    rest = name[len(lines[0]):].strip() if name.startswith(lines[0]) else " ".join(lines[1:])
    top = rect.centery - line_h
    c.text(lines[0], pygame.Rect(rect.x, top, first, line_h), face=COND, colour=colour, bg=bg,
           size=c.min_size)
    c.text(rest, pygame.Rect(rect.x, top + line_h, rect.width, line_h), face=COND,
           colour=colour, bg=bg, size=c.min_size)
    return True


def closed_table(c: Canvas, body: pygame.Rect, frame: Frame, tab: dict[str, Any]) -> None:
    """A table no longer in play. While its players are on their way: where each goes, big,
    the clock small. Once they all sit: the clock and the blinds for the players around it,
    and the room's numbers (players left, the last out)."""
    lang = frame.lang
    moves = common.live_moves(frame.state, tab.get("moves_out") or [])
    if moves:
        title = tr("table_breaks", lang) if tab.get("broken") else \
            tr("not_in_play", lang, n=tab.get("table", "?"))
        # the ink box of "aufgelöst" has accents and a descender: twice the caps
        band = max(c.px(100), c.need("hfh") * 2 + 12)
        rows = stack(body, [(band, 0), (c.px(56), 0), (0, 1), (c.px(80), 0)], c.px(12))
        with c.key("hfh"):
            common.banner(c, rows[0], title, FG, DARKRED)
        c.text(tr("please_move", lang), rows[1], colour=DIM)
        moves_block(c, rows[2], [move_out_texts(m, lang) for m in moves], frame)
        small_clock(c, rows[3], frame)
        return
    from kiosk.screens import wall  # the wall's panels: one look for the room

    left, right = split_h(body, round(body.width * 0.62), c.px(30))
    if frame.mode == "break":
        common.break_panel(c, left, frame, show_players=False)
    else:
        common.clock_panel(c, left, frame, show_players=False)
    wall.stats(c, right, frame)


def champion(c: Canvas, body: pygame.Rect, frame: Frame) -> None:
    """The end: the champion, and the results with points under it when they exist."""
    if not (frame.state.get("results") or {}).get("rows"):
        common.champion_panel(c, body, frame)
        return
    from kiosk.screens import wall

    top, bottom = stack(body, [(c.px(380), 1.0), (c.px(300), 1.0)], c.px(16))
    common.champion_panel(c, top, frame)
    wall.results(c, bottom, frame, final=True)


def small_clock(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """One line: ``LEVEL 5 · 200 / 400 · ante 25`` and the remaining time (slot)."""
    cn = frame.cn
    assert cn is not None
    lang = frame.lang
    left, right = split_h(rect, round(rect.width * 0.68), c.px(20))
    lv = cn.level
    text = (tr("break", lang) if lv.get("is_break") else
            f"{tr('level_n', lang, n=lv.get('number', '?'))} · {i18n.level_line(lv, lang)}")
    c.text(text, left, colour=DIM, box="line")
    c.slot("clock", frame.values["clock"], right, align="right",
           max_ink=round(right.height * 0.7))


# ---------------------------------------------------------------- moves
#: a move as the screen words it: (the whole sentence, the name, where to without the
#: name, colour). The sentence on one line when it fits at the size by rule, else the
#: name and where to, else the name over where to.
MoveText = tuple[str, str, str, Colour]


def move_out_texts(m: dict[str, Any], lang: str) -> MoveText:
    frm, to = m.get("from") or {}, m.get("to") or {}
    name = (m.get("player") or "?").upper()
    kw = {"seat": frm.get("seat", "?"), "table": to.get("table", "?"), "to": to.get("seat", "?")}
    return (tr("move_out", lang, name=name, **kw), name, tr("move_out_rest", lang, **kw), FG)


def move_in_texts(m: dict[str, Any], lang: str, here: int | None) -> MoveText:
    frm, to = m.get("from") or {}, m.get("to") or {}
    name = (m.get("player") or "?").upper()
    key = "move_here" if here is not None and frm.get("table") == here else "move_in"
    kw = {"table": frm.get("table", "?"), "frm": frm.get("seat", "?"), "seat": to.get("seat", "?")}
    return (tr(key, lang, name=name, **kw), name, tr(f"{key}_rest", lang, **kw), BLUE)


def move_lines(c: Canvas, moves: list[MoveText], width: int,
               face: str = COND) -> tuple[int, list[list[tuple[str, Colour]]]]:
    """The font size (by rule) and each move's lines at ``width``."""
    size = max(c.need_size("move", face), min(c.px(46), c.need_size("move", face) * 3 // 2))
    font = c.fonts.get(face, size)
    out = []
    for full, name, rest, colour in moves:
        short = f"{name} {rest}"
        if font.size(full)[0] <= width:
            out.append([(full, colour)])
        elif font.size(short)[0] <= width:
            out.append([(short, colour)])
        else:
            lines = c.wrap(name, face, size, width) + c.wrap(rest, face, size, width)
            out.append([(ln, colour) for ln in lines])
    return size, out


def moves_height(c: Canvas, moves: list[MoveText], width: int, count: int = 1) -> int:
    """Height of the first ``count`` moves (the room a moves block asks for)."""
    size, lines = move_lines(c, moves, width)
    lh = c.fonts.get(COND, size).get_height()
    return sum(len(m) for m in lines[:count]) * lh + lh // 3 * min(count, len(lines))


def page_mark_width(c: Canvas) -> int:
    """Room kept right of the moves for the page mark (``2/3``)."""
    return c.fonts.get(BOLD, c.need_size("dealer")).size(" 00/00")[0]


def moves_block(c: Canvas, rect: pygame.Rect, moves: list[MoveText], frame: Frame) -> None:
    """The moves at the size by rule; when they do not all fit, a page of them at a time
    (pages turn every :data:`~kiosk.screens.common.TABLE_PAGE_SECONDS`, ``2/3`` in the
    corner)."""
    if not moves or rect.height <= 0:
        return
    mark_w = page_mark_width(c)
    size, lines = move_lines(c, moves, rect.width - c.px(16) - mark_w)
    lh = c.fonts.get(COND, size).get_height()
    sep = lh // 3
    pages: list[list[list[tuple[str, Colour]]]] = [[]]
    used = 0
    for m in lines:
        h = len(m) * lh + sep
        if pages[-1] and used + h > rect.height + sep:
            pages.append([])
            used = 0
        pages[-1].append(m)
        used += h
    c.pages = max(c.pages, len(pages))
    page = common.table_page(frame.view.now) % len(pages)
    y = rect.y
    with c.key("move"):
        for m in pages[page]:
            for text, colour in m:
                if y + lh > rect.bottom + 2:
                    break
                r = pygame.Rect(rect.x + c.px(8), y, rect.width - c.px(16) - mark_w, lh)
                c.draw_at(text, r, COND, size, colour, BG, "left", "line")
                y += lh
            y += sep
    if len(pages) > 1:
        c.text(tr("page", frame.lang, p=page + 1, n=len(pages)),
               pygame.Rect(rect.right - mark_w, rect.y, mark_w, lh), colour=DIM,
               align="right", size=c.need_size("dealer"))


# ---------------------------------------------------------------- messages
def hfh_banner(c: Canvas, rect: pygame.Rect, head: str, detail: str, fg: Colour,
               bg: Colour) -> None:
    """Hand-for-hand: the state big (by rule: read from the seats), what it means for the
    dealer under it, never cut (wrapped)."""
    c.fill(rect, bg, radius=max(4, c.px(10)))
    inner = inset(rect, c.px(20), c.px(8))
    hsize, dsize, dlines = hfh_sizes(c, head, detail, inner.width)
    hh = c.fonts.get(BOLD, hsize).get_height()
    dh = c.fonts.get(COND, dsize).get_height()
    free = max(0, inner.height - hh - dh * len(dlines))
    y = inner.y + free // 3
    with c.key("hfh"):
        c.draw_at(head, pygame.Rect(inner.x, y, inner.width, hh), BOLD, hsize, fg, bg,
                  "center", "line")
    y += hh + free // 3
    with c.key("dealer"):
        for line in dlines:
            c.draw_at(line, pygame.Rect(inner.x, y, inner.width, dh), COND, dsize, fg, bg,
                      "center", "line")
            y += dh


def hfh_sizes(c: Canvas, head: str, detail: str, width: int) -> tuple[int, int, list[str]]:
    """Sizes of the hand-for-hand banner's two parts at ``width`` and the detail's lines."""
    hsize = max(c.need_size("hfh"), min(c.px(84), c.fit_size(head, BOLD, width, c.px(110))))
    dsize = max(c.need_size("dealer", COND), min(c.px(40), hsize * 6 // 10))
    return hsize, dsize, c.wrap(detail, COND, dsize, width)


def hfh_block(c: Canvas, width: int, head: str, detail: str, fg: Colour,
              bg: Colour) -> Block:
    hsize, dsize, dlines = hfh_sizes(c, head, detail, width - 2 * c.px(20))
    height = (c.fonts.get(BOLD, hsize).get_height()
              + c.fonts.get(COND, dsize).get_height() * len(dlines) + 2 * c.px(8) + c.px(10))
    return Block(height, partial(hfh_banner, head=head, detail=detail, fg=fg, bg=bg))


def notice_block(c: Canvas, text: str, fg: Colour, bg: Colour, width: int) -> Block:
    """A coloured band with one sentence at least the dealer's size by rule."""
    size = max(c.need_size("dealer"), min(c.px(56), c.fit_size(text, BOLD, width - c.px(40),
                                                                c.px(80))))
    height = c.fonts.get(BOLD, size).get_height() + c.px(20)

    def draw(c: Canvas, r: pygame.Rect) -> None:
        c.fill(r, bg, radius=max(4, c.px(10)))
        with c.key("dealer"):
            c.text(text, inset(r, c.px(20), 0), colour=fg, bg=bg, align="center", size=size)
    return Block(height, draw)


def hfh_blocks(c: Canvas, frame: Frame, tab: dict[str, Any], width: int) -> list[Block]:
    """Hand-for-hand at this table: the state, and what the dealer does about it."""
    lang = frame.lang
    hfh = tab.get("hand_for_hand") or {}
    if not hfh.get("on"):
        return []
    hand = hfh.get("hand") or 1
    head_line = tr("hfh_hand", lang, n=hand)
    done = [n for n in hfh.get("done") or [] if n != tab.get("table")]
    playing = hfh.get("playing") or []
    if hfh.get("this_table_done"):
        others = [n for n in playing if n != tab.get("table")]
        key = "waiting_for_one" if len(others) == 1 else "waiting_for"
        text = tr(key, lang, tables=i18n.number_list(others, lang))
        return [hfh_block(c, width, text[:1].upper() + text[1:],
                          f"{head_line}: {tr('this_done_wait', lang)}", BLACK, GOLD)]
    if not hfh.get("done") and hfh.get("hands_played"):
        return [hfh_block(c, width, tr("deal", lang),
                          f"{head_line}: {tr('all_done_deal', lang)}", BLACK, GREEN)]
    detail = tr("press_hand_done", lang)
    if done:
        key = "others_wait_one" if len(done) == 1 else "others_wait"
        detail += " · " + tr(key, lang, tables=i18n.number_list(done, lang))
    return [hfh_block(c, width, head_line, detail, GOLD, DARKGOLD)]


def message_blocks(c: Canvas, frame: Frame, tab: dict[str, Any] | None,
                   width: int) -> list[Block]:
    """What the floor tells this table, most important first."""
    lang = frame.lang
    if tab is None:
        return []
    blocks = hfh_blocks(c, frame, tab, width)
    notices = tab.get("notices") or []
    if "breaks" in notices:
        blocks.append(notice_block(c, tr("table_breaks", lang), FG, DARKRED, width))
    if "final_table_next" in notices:
        blocks.append(notice_block(c, tr("final_table_next", lang), GOLD, PANEL, width))
    standing = duties.standing_dealer(tab, lang)  # 000 3.11: the player out last deals
    if standing is not None:
        blocks.append(notice_block(c, standing, BLACK, GREEN, width))
    race = tab.get("chip_race") or {}
    if race.get("called") and race.get("result") is None and frame.mode != "break":
        # the director's colour-up in a playing level (002 "jederzeit"): the hands go on,
        # so the buttons stay the table's; the leftover chips go to the director
        blocks.append(notice_block(c, tr("colour_up_called", lang,
                                         leaving=i18n.num(race.get("leaving", 0), lang),
                                         new=i18n.num(race.get("new", 0), lang)),
                                   BLACK, GOLD, width))
    hl = tab.get("hands_left")
    if hl is not None:
        text = tr("no_hands_left", lang) if hl == 0 else (
            tr("last_hand", lang) if hl == 1 else tr("hands_left", lang, n=hl))
        blocks.append(notice_block(c, text, BLACK, GOLD, width))
    number = tab.get("table")
    outs = [m for m in common.live_moves(frame.state, tab.get("moves_out") or [])
            if (m.get("to") or {}).get("table") != number]
    ins = common.live_moves(frame.state, tab.get("moves_in") or [])
    moves = [move_out_texts(m, lang) for m in outs]
    moves += [move_in_texts(m, lang, number) for m in ins]
    if moves:
        w = width - c.px(16) - page_mark_width(c)
        blocks.append(Block(moves_height(c, moves, w, len(moves)),
                            partial(moves_block, moves=moves, frame=frame), grow=True,
                            least=moves_height(c, moves, w, 1)))
    return blocks


def lay_blocks(c: Canvas, rect: pygame.Rect, blocks: list[Block], gap: int) -> None:
    """Stack the message blocks: the fixed ones at their height, the moves in the rest."""
    fixed = sum(b.height for b in blocks if not b.grow) + gap * (len(blocks) - 1)
    rest = max(0, rect.height - fixed)
    y = rect.y
    for b in blocks:
        h = min(b.height, rest) if b.grow else b.height
        h = min(h, rect.bottom - y)
        if h <= 0:
            break
        b.draw(c, pygame.Rect(rect.x, y, rect.width, h))
        y += h + gap


# ---------------------------------------------------------------- time call
def time_call(c: Canvas, body: pygame.Rect, frame: Frame) -> None:
    """The "time" call takes the screen over: the seconds left, big enough for every seat,
    and above them, apart, who has to act (the seat and name, or "the player to act")."""
    tc = frame.timecall
    assert tc is not None and frame.cn is not None
    lang = frame.lang
    red = tc.phase != "normal"
    colour = RED if red else GOLD
    if red:
        c.frame(body, RED, c.px(10), radius=c.px(16))
    inner = inset(body, c.px(30), c.px(20))
    head_h = max(c.px(90), c.fonts.get(BOLD, c.need_size("dealer")).get_height())
    rows = stack(inner, [(head_h, 1.0), (c.px(460), 6.0), (c.px(70), 0.8)], c.px(36))
    if tc.phase == "over":
        head = tr("time_up", lang)
    elif red and tc.countdown and tc.left <= tc.countdown:
        head = tr("countdown", lang)
    elif ((frame.table or {}).get("time_call") or {}).get("action"):
        head = tr("action_clock", lang)  # the action clock (001 §1 VI, 002 shot clock)
    else:
        head = tr("time_call", lang)
    if tc.seat is not None:
        head += f" · {tr('seat', lang)} {tc.seat}"
        occ = next((s for s in (frame.table or {}).get("seats") or []
                    if s.get("seat") == tc.seat), None)
        if occ and occ.get("name"):
            head += f" · {occ['name']}"
    else:
        head += f" · {tr('to_act', lang)}"
    with c.key("dealer"):
        c.text(head, inset(rows[0], 0, rows[0].height // 10), colour=colour, box="ink",
               align="center", min_size=c.need_size("dealer"))
    with c.key("time_call"):
        c.slot("tc", frame.values["tc"], rows[1])
    small_clock(c, rows[2], frame)
