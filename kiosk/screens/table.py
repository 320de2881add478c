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

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pygame

from kiosk import i18n
from kiosk.i18n import tr
from kiosk.screens import common
from kiosk.screens.common import Frame
from kiosk.screens.widgets import (
    BG,
    BLACK,
    BLUE,
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
Block = tuple[float, Line]


def draw(c: Canvas, frame: Frame) -> None:
    surf = c.surface
    W, H = surf.get_size()
    view, lang = frame.view, frame.lang
    surf.fill(BG)
    tab = frame.table
    header_h = max(30, c.px(72))
    footer_h = max(26, c.px(58))
    margin = c.px(20)
    badges = common.badge_list(frame)
    if tab and tab.get("final") and frame.mode != "champion":
        badges.insert(0, (tr("final_table", lang).upper(), BLACK, GOLD))
    title = tr("table_n", lang, n=view.table if view.table is not None else "?")
    common.header(c, pygame.Rect(0, 0, W, header_h), title, frame.summary.get("name") or "",
                  badges)
    common.footer(c, pygame.Rect(0, H - footer_h, W, footer_h), frame)
    body = pygame.Rect(margin, header_h + margin, W - 2 * margin,
                       H - header_h - footer_h - margin * 3 // 2)
    if frame.mode == "wait":
        common.waiting_panel(c, body, tr("waiting_controller", lang))
        return
    if frame.mode == "champion":
        common.champion_panel(c, body, frame)
        return
    if frame.mode == "timecall":
        time_call(c, body, frame)
        return
    if tab is not None and not tab.get("in_play", True):
        moves_takeover(c, body, frame, tab)
        return
    blocks = message_blocks(c, frame, tab)
    lu = max(26, c.px(54))
    gap = c.px(8)
    needed = sum(units for units, _ in blocks) * lu + gap * len(blocks)
    min_top = c.px(700)
    msgs_h = min(needed, max(0, body.height - min_top))
    top = pygame.Rect(body.x, body.y, body.width, body.height - msgs_h)
    seats_w = round(body.width * 0.33)
    left, right = split_h(top, top.width - seats_w - c.px(24), c.px(24))
    if frame.mode == "break":
        common.break_panel(c, left, frame)
    else:
        common.clock_panel(c, left, frame)
    if tab is None:
        common.waiting_panel(c, right, tr("waiting_draw", lang))
    else:
        incoming = {seat for m in common.live_moves(frame.state, tab.get("moves_in") or [])
                    if isinstance(seat := (m.get("to") or {}).get("seat"), int)}
        seats(c, right, tab, view.selected_seat, lang, incoming)
    if blocks and msgs_h > 0:
        msgs = pygame.Rect(body.x, top.bottom + gap, body.width, msgs_h - gap)
        lay_blocks(c, msgs, blocks, lu, gap)


# ---------------------------------------------------------------- seats
def seats(c: Canvas, rect: pygame.Rect, tab: dict[str, Any], selected: int | None,
          lang: str, incoming: set[int] | None = None) -> None:
    """Every seat 1..size: number, name, button and blind markers, who waits or arrives.

    ``incoming``: seats a live move goes to (the payload's own flag when ``None``)."""
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
    names = [s.get("name") or "?" for s in by_seat.values()]
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
            pygame.draw.ellipse(c.surface, col, mr)
            c.text(text, inset(mr, d // 5, d // 3), colour=BLACK, bg=col, box="ink",
                   align="center", min_size=6)
            mx -= d + mgap
        name_right = mx - mgap if marks else inner.right
        name_r = pygame.Rect(nb.right + pad * 2, inner.y, max(0, name_right - nb.right - pad * 2),
                             inner.height)
        if occ is None:
            c.text(tr("empty", lang), name_r, face=COND, colour=LINE if not is_sel else DIM,
                   bg=bg, size=name_size)
            continue
        tag = None
        if occ.get("waiting"):
            tag = (tr("waits", lang), GOLD)
        elif (seat in incoming) if incoming is not None else occ.get("incoming"):
            tag = ("→ " + tr("incoming", lang), BLUE)
        if tag:
            tsize = max(c.min_size, round(inner.height * 0.42))
            need = (c.fonts.get(COND, tsize).size(tag[0])[0] + pad * 2
                    + c.fonts.get(COND, name_size).size(occ.get("name") or "?")[0])
            if tag[0].startswith("→") and need > name_r.width:
                tag = ("→", tag[1])  # a narrow row (7" screen): the arrow, and the name readable
            tw = min(c.fonts.get(COND, tsize).size(tag[0])[0], name_r.width // 2)
            tag_r = pygame.Rect(name_r.right - tw, name_r.y, tw, name_r.height)
            c.text(tag[0], tag_r, face=COND, colour=tag[1], bg=bg, max_size=tsize,
                   align="right")
            name_r.width = max(0, name_r.width - tw - pad * 2)
        colour = DIM if occ.get("ghost") else FG
        name = occ.get("name") or "?"
        fits = c.fonts.get(COND, name_size).size(name)[0] <= name_r.width
        c.text(name, name_r, face=COND, colour=colour, bg=bg,
               size=name_size if fits else None, max_size=name_size)


def moves_takeover(c: Canvas, body: pygame.Rect, frame: Frame, tab: dict[str, Any]) -> None:
    """A table no longer in play: where each of its players goes, big; the clock small."""
    lang = frame.lang
    moves = common.live_moves(frame.state, tab.get("moves_out") or [])
    title = tr("table_breaks", lang) if tab.get("broken") else \
        tr("not_in_play", lang, n=tab.get("table", "?"))
    rows = stack(body, [(c.px(100), 0), (c.px(56), 0), (0, 1), (c.px(80), 0)], c.px(12))
    common.banner(c, rows[0], title, FG, DARKRED)
    if moves:
        c.text(tr("please_move", lang), rows[1], colour=DIM)
        lines: list[Line] = [partial(move_out_line, m=m, lang=lang, bg=BG) for m in moves]
        line_list(c, rows[2], lines, max_line=c.px(96))
    small_clock(c, rows[3], frame)


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


# ---------------------------------------------------------------- messages
def move_out_line(c: Canvas, r: pygame.Rect, m: dict[str, Any], lang: str, bg: Colour) -> None:
    frm, to = m.get("from") or {}, m.get("to") or {}
    common.fit_sentence(c, r, "move_out", lang, (m.get("player") or "?").upper(),
                        colour=FG, bg=bg, max_size=round(r.height * 0.8),
                        seat=frm.get("seat", "?"), table=to.get("table", "?"),
                        to=to.get("seat", "?"))


def move_in_line(c: Canvas, r: pygame.Rect, m: dict[str, Any], lang: str, bg: Colour,
                 here: int | None = None) -> None:
    frm, to = m.get("from") or {}, m.get("to") or {}
    text_key = "move_here" if here is not None and frm.get("table") == here else "move_in"
    common.fit_sentence(c, r, text_key, lang, (m.get("player") or "?").upper(),
                        colour=BLUE, bg=bg, max_size=round(r.height * 0.8),
                        table=frm.get("table", "?"), frm=frm.get("seat", "?"),
                        seat=to.get("seat", "?"))


def message_blocks(c: Canvas, frame: Frame, tab: dict[str, Any] | None) -> list[Block]:
    """What the floor tells this table, most important first: (height in lines, draw)."""
    lang = frame.lang
    blocks: list[Block] = []
    if tab is None:
        return blocks
    hfh = tab.get("hand_for_hand") or {}
    if hfh.get("on"):
        hand = hfh.get("hand") or 1
        head = tr("hfh_hand", lang, n=hand)
        done = hfh.get("done") or []
        playing = hfh.get("playing") or []
        if hfh.get("this_table_done"):
            others = [n for n in playing if n != tab.get("table")]
            key = "waiting_for_one" if len(others) == 1 else "waiting_for"
            text = tr(key, lang, tables=i18n.number_list(others, lang))
            blocks.append((2.2, partial(common.banner, text=text[:1].upper() + text[1:],
                                        fg=BLACK, bg=GOLD,
                                        sub=f"{head} · {tr('this_done', lang)}")))
        elif not done and hfh.get("hands_played"):
            blocks.append((3.0, lambda c, r: common.banner(
                c, r, tr("deal", lang), BLACK, GREEN, f"{head} · {tr('all_done', lang)}")))
        else:
            line = head
            if done and playing:
                key = "still_playing_one" if len(playing) == 1 else "still_playing"
                line += " · " + tr(key, lang, tables=i18n.number_list(playing, lang))
            blocks.append((1.2, partial(common.banner, text=line, fg=GOLD, bg=DARKGOLD,
                                        align="left")))
    notices = tab.get("notices") or []
    if "breaks" in notices:
        blocks.append((1.4, lambda c, r: common.banner(c, r, tr("table_breaks", lang), FG,
                                                       DARKRED)))
    if "final_table_next" in notices:
        blocks.append((1.0, lambda c, r: c.text(tr("final_table_next", lang),
                                                inset(r, c.px(12), 0), colour=GOLD)))
    hl = tab.get("hands_left")
    if hl is not None:
        text = tr("no_hands_left", lang) if hl == 0 else (
            tr("last_hand", lang) if hl == 1 else tr("hands_left", lang, n=hl))
        blocks.append((1.4, partial(common.banner, text=text, fg=BLACK, bg=GOLD)))
    number = tab.get("table")
    outs = [m for m in common.live_moves(frame.state, tab.get("moves_out") or [])
            if (m.get("to") or {}).get("table") != number]
    ins = common.live_moves(frame.state, tab.get("moves_in") or [])
    if outs or ins:
        lines = [partial(move_out_line, m=m, lang=lang, bg=BG) for m in outs]
        lines += [partial(move_in_line, m=m, lang=lang, bg=BG, here=number) for m in ins]
        blocks.append((float(len(lines)), partial(line_list, lines=lines)))
    return blocks


def line_list(c: Canvas, rect: pygame.Rect, lines: Sequence[Line],
              max_line: int | None = None) -> None:
    """Lines of text one under the other; two columns when they do not fit in one."""
    if not lines:
        return
    max_line = max_line or c.px(58)
    min_line = max(16, c.min_size + 6)
    cols = 1
    if rect.height // len(lines) < min_line:
        cols = 2
    per_col = -(-len(lines) // cols)
    lh = min(max_line, rect.height // per_col)
    if lh < min_line:
        per_col = max(1, rect.height // min_line)
        lh = rect.height // per_col
    col_w = (rect.width - c.px(24) * (cols - 1)) // cols
    shown = lines[: per_col * cols]
    for i, fn in enumerate(shown):
        col, row = divmod(i, per_col)
        r = pygame.Rect(rect.x + col * (col_w + c.px(24)), rect.y + row * lh, col_w, lh)
        fn(c, inset(r, c.px(8), max(1, lh // 12)))


def lay_blocks(c: Canvas, rect: pygame.Rect, blocks: list[Block], lu: int, gap: int) -> None:
    """Stack the message blocks; when they do not all fit they shrink together."""
    total = sum(u for u, _ in blocks)
    scale = min(1.0, (rect.height - gap * (len(blocks) - 1)) / max(1.0, total * lu))
    y = rect.y
    for units, fn in blocks:
        h = max(1, int(units * lu * scale))
        fn(c, pygame.Rect(rect.x, y, rect.width, h))
        y += h + gap


# ---------------------------------------------------------------- time call
def time_call(c: Canvas, body: pygame.Rect, frame: Frame) -> None:
    """The "time" call takes the screen over: the seconds left, big enough for every seat."""
    tc = frame.timecall
    assert tc is not None and frame.cn is not None
    lang = frame.lang
    red = tc.phase != "normal"
    colour = RED if red else GOLD
    if red:
        c.frame(body, RED, c.px(10), radius=c.px(16))
    inner = inset(body, c.px(30), c.px(20))
    rows = stack(inner, [(c.px(90), 1.0), (c.px(500), 6.0), (c.px(70), 0.8)], c.px(10))
    if tc.phase == "over":
        head = tr("time_up", lang)
    elif red and tc.countdown and tc.left <= tc.countdown:
        head = tr("countdown", lang)
    else:
        head = tr("time_call", lang)
    if tc.seat is not None:
        head += f" · {tr('seat', lang)} {tc.seat}"
        occ = next((s for s in (frame.table or {}).get("seats") or []
                    if s.get("seat") == tc.seat), None)
        if occ and occ.get("name"):
            head += f" · {occ['name']}"
    c.text(head, inset(rows[0], 0, rows[0].height // 10), colour=colour, box="ink",
           align="center")
    c.slot("tc", frame.values["tc"], rows[1])
    small_clock(c, rows[2], frame)
