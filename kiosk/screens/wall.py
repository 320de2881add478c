"""The wall screen: the clock for the room, the seating, the moves and hand-for-hand.

Layout::

    +--------------------------------------------------------------+
    | tournament name                     [HAND FOR HAND][OFFLINE] |
    +-----------------------------------+--------------------------+
    | LEVEL 5                           | Players left   25 / 27   |
    | 200 / 400   Ante 25               | Average        10,800    |
    |          17:59                    | Points places  14        |
    | Next level … · Break in 42:10     | Out: 26. Anna S. …       |
    +-----------------------------------+--------------------------+
    | Seating 1/2  (alphabetical, paged)| Moves / hand for hand    |
    +-----------------------------------+--------------------------+
"""

from __future__ import annotations

import functools
from typing import Any

import pygame

from controller.wire import i18n
from controller.wire.i18n import tr
from kiosk.problems import words as problem_words
from kiosk.screens import chip_race, common, duties, standings
from kiosk.screens.common import Frame
from kiosk.screens.widgets import (
    BG,
    BLACK,
    BLUE,
    BOLD,
    COND,
    DARKGOLD,
    DIM,
    FG,
    GOLD,
    GREEN,
    LINE,
    PANEL,
    PANEL2,
    RED,
    Canvas,
    inset,
    split_h,
    stack,
)


def seating(state: dict[str, dict[str, Any]]) -> list[tuple[str, int, int]]:
    """Every player (no ghosts) as (name, table, seat), alphabetically."""
    rows = []
    for topic, payload in state.items():
        if not topic.startswith("table/") or not payload or not payload.get("in_play", True):
            continue
        for s in payload.get("seats") or []:
            if s.get("ghost"):
                continue
            rows.append((s.get("name") or "?", payload.get("table", 0), s.get("seat", 0)))
    rows.sort(key=lambda r: (i18n.sort_key(r[0]), r[1], r[2]))
    return rows


def bounty_heads(state: dict[str, dict[str, Any]]) -> dict[tuple[int, int], int]:
    """Money bounties (issue 30): the head on each seated player, cents, by (table, seat);
    empty where the tournament plays none."""
    out = {}
    for topic, payload in state.items():
        if not topic.startswith("table/") or not payload or not payload.get("in_play", True):
            continue
        for s in payload.get("seats") or []:
            if s.get("bounty") is not None and not s.get("ghost"):
                out[(payload.get("table", 0), s.get("seat", 0))] = int(s["bounty"])
    return out


def draw(c: Canvas, frame: Frame) -> int:
    """Draw the wall; returns the number of seating pages."""
    surf = c.surface
    W, H = surf.get_size()
    lang = frame.lang
    c.fill(surf.get_rect(), BG)
    s = frame.summary
    header_h = max(30, c.px(72))
    margin = c.px(20)
    badges = common.badge_list(frame)
    hfh = s.get("hand_for_hand") or {}
    if hfh.get("on"):
        badges.insert(0, (tr("hfh", lang).upper(), BLACK, GOLD))
    elif s.get("final_table") is not None and not s.get("finished"):
        badges.insert(0, (tr("final_table", lang).upper(), BLACK, GOLD))
    common.header(c, pygame.Rect(0, 0, W, header_h), s.get("name") or "Floorman", "", badges)
    band = common.announcement_height(c, frame)  # the director's banner, if one is up
    common.announcement_band(c, pygame.Rect(0, header_h, W, band), frame)
    body = pygame.Rect(margin, header_h + band + margin // 2, W - 2 * margin,
                       H - header_h - band - margin - margin // 2)
    if frame.mode == "wait":
        if frame.view.problem is not None and not frame.view.online:
            common.problem_panel(c, body, *problem_words(frame.view.problem, lang))
        else:
            common.waiting_panel(c, body, tr("waiting_controller", lang))
        return 1
    if frame.mode == "champion":
        top, bottom = stack(body, [(c.px(420), 1.0), (c.px(300), 1.0)], c.px(16))
        if standings.shown(frame):  # the club's season with this night in it, beside
            top, season = split_h(top, round(top.width * 0.62), c.px(30))  # the champion
            standings.draw(c, season, frame)
        common.champion_panel(c, top, frame)
        results(c, bottom, frame, final=True)
        return 1
    top, bottom = stack(body, [(c.px(560), 1.4), (c.px(300), 1.0)], c.px(16))
    left, right = split_h(top, round(top.width * 0.62), c.px(30))
    if frame.mode == "break":
        common.break_panel(c, left, frame, show_players=False, min_clock=300)
    else:
        common.clock_panel(c, left, frame, show_players=False, min_clock=300)
    b_left, b_right = split_h(bottom, round(bottom.width * 0.62), c.px(30))
    url = common.public_url_of(frame.view)
    final = final_table_of(frame)
    if final is not None:
        # the final table drawn: its seats, who sits where, across the bottom (the moves
        # to it are the seating itself; the players left are a handful, no list to page)
        if url is not None:
            qr_w = min(bottom.height - c.px(40), b_left.width // 3)
            bottom, qr_rect = split_h(bottom, bottom.width - qr_w - c.px(16), c.px(16))
            qr_code(c, qr_rect, url, tr("qr_caption", lang))
        final_seats(c, bottom, frame, final)
        stats(c, right, frame)
        return 1
    if url is not None:
        # the players' page: a QR code at the seating list's end (the list pages anyway;
        # the moves beside it keep their room)
        qr_w = min(b_left.height - c.px(40), b_left.width // 3)
        b_left, qr_rect = split_h(b_left, b_left.width - qr_w - c.px(16), c.px(16))
        qr_code(c, qr_rect, url, tr("qr_caption", lang))
    n_pages = seating_list(c, b_left, frame)
    if frame.cn is not None and not frame.cn.started:
        # before the start: what the evening holds (or, between tournaments, the club's
        # season so far), and who is in
        if standings.shown(frame):
            standings.draw(c, right, frame)
        else:
            structure(c, right, frame)
        stats(c, b_right, frame)
    else:
        stats(c, right, frame)
        side(c, b_right, frame)
    return n_pages


@functools.lru_cache(maxsize=4)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``url`` (segno, error correction M), dark modules true, no border."""
    import segno

    code = segno.make(url, error="m", micro=False)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def qr_code(c: Canvas, rect: pygame.Rect, url: str, caption: str) -> None:
    """The QR code of the players' page, whole modules on white with a quiet zone of two
    (the panel around it is dark: the white square is the quiet zone's outer edge), and
    a caption under it."""
    c.fill(rect, PANEL, radius=c.px(12))
    cap_h = max(14, c.px(40))
    room = inset(pygame.Rect(rect.x, rect.y, rect.width, rect.height - cap_h), c.px(8), c.px(8))
    modules = qr_modules(url)
    n = len(modules) + 4
    unit = max(1, min(room.width, room.height) // n)
    side = unit * n
    x0, y0 = room.x + (room.width - side) // 2, room.y + (room.height - side) // 2
    c.fill(pygame.Rect(x0, y0, side, side), (255, 255, 255))
    for r, row in enumerate(modules):
        for col, dark in enumerate(row):
            if dark:
                c.fill((x0 + (col + 2) * unit, y0 + (r + 2) * unit, unit, unit), BLACK)
    c.text(caption, pygame.Rect(rect.x + c.px(6), rect.bottom - cap_h, rect.width - c.px(12),
                                cap_h - c.px(6)), face=COND, colour=FG, bg=PANEL,
           align="center")


def structure(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """The blind structure from the current level on: level, blinds and ante, minutes;
    the breaks with their note. What does not fit is counted ("+12 more")."""
    lang = frame.lang
    levels = (frame.state.get("structure") or {}).get("levels") or []
    cn = frame.cn
    start = int(cn.level.get("index", 0)) if cn is not None else 0
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(20), c.px(12))
    title_h = max(c.min_size + 8, min(c.px(54), inner.height // 4))
    c.text(tr("structure", lang), pygame.Rect(inner.x, inner.y, inner.width, title_h),
           colour=GOLD, bg=PANEL, max_size=round(title_h * 0.75))
    area = pygame.Rect(inner.x, inner.y + title_h + c.px(4), inner.width,
                       inner.height - title_h - c.px(4))
    lh = max(c.min_size + 8, c.px(46))
    size = max(c.min_size, round(lh * 0.62))
    rows = levels[start:]
    fit = max(1, area.height // lh)
    shown = rows if len(rows) <= fit else rows[: fit - 1]
    num_w = c.fonts.get(BOLD, size).size("00")[0] + c.px(12)
    min_w = max(c.fonts.get(COND, size).size(tr("minutes", lang, m=i18n.minutes(
        lv.get("seconds"))))[0] for lv in shown) if shown else 0
    for i, lv in enumerate(shown):
        r = pygame.Rect(area.x, area.y + i * lh, area.width, lh)
        mins = tr("minutes", lang, m=i18n.minutes(lv.get("seconds")))
        c.text(mins, pygame.Rect(r.right - min_w, r.y, min_w, lh), face=COND, colour=DIM,
               bg=PANEL, align="right", size=size)
        mid = pygame.Rect(r.x + num_w, r.y, r.width - num_w - min_w - c.px(8), lh)
        if lv.get("is_break"):
            note = lv.get("note") or ""
            c.text(tr("break", lang) + (f" · {note}" if note else ""), mid, face=COND,
                   colour=GOLD, bg=PANEL, max_size=size)
            continue
        c.text(str(lv.get("number", "")), pygame.Rect(r.x, r.y, num_w - c.px(12), lh),
               colour=DIM, bg=PANEL, align="right", size=size)
        c.text(i18n.level_line(lv, lang), mid, colour=FG, bg=PANEL, max_size=size)
    if len(shown) < len(rows):
        c.text(tr("more", lang, n=len(rows) - len(shown)),
               pygame.Rect(area.x + num_w, area.y + len(shown) * lh, area.width - num_w, lh),
               colour=DIM, bg=PANEL, size=size)


def stats(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """Players left, entries, average stack, the places that count, the last results."""
    lang = frame.lang
    s = frame.summary
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(24), c.px(16))
    rows: list[tuple[str, str]] = []
    leader_row = -1
    if s:
        rows.append((tr("players_left", lang), f"{i18n.num(s.get('players_left'), lang)}"))
        rows.append((tr("entries", lang), i18n.num(s.get("entries"), lang)))
        if s.get("average_stack"):
            rows.append((tr("average", lang), i18n.num(s.get("average_stack"), lang)))
        money = s.get("prize_pool")
        if money:  # a tournament for money (issue 30): the pool as it grows
            rows.append((tr("prize_pool", lang),
                         i18n.money(money.get("pool"), money.get("currency", ""), lang)))
        if s.get("places_paid"):
            label = "places_paid_money" if money else "places_paid"
            rows.append((tr(label, lang), i18n.num(s.get("places_paid"), lang)))
        deal = (money or {}).get("deal")
        if deal and deal.get("played_for"):  # a deal stands: what the winner still takes
            rows.append((tr("played_for", lang),
                         i18n.money(deal["played_for"], (money or {}).get("currency", ""),
                                    lang)))
        lead = s.get("chip_leader")
        if lead:  # the last counts (chip_counts, a round's end): the count, the name below
            rows.append((tr("chip_leader", lang), i18n.num(lead["chips"], lang)))
            leader_row = len(rows)
            rows.append(("", lead["name"]))
            if lead.get("bounty") is not None:  # money bounties: what busting them wins
                rows.append((tr("bounty", lang), i18n.money(
                    lead["bounty"], (s.get("prize_pool") or {}).get("currency", ""), lang)))
        rnd = s.get("round")
        if rnd:
            rows.append((tr("round", lang), common.round_text(rnd, lang)))
    res = (frame.state.get("results") or {}).get("rows") or []
    pool = s.get("prize_pool") if s else None
    steps = (pool or {}).get("ladder") or []
    lower = bool(steps or res)  # money: the ladder in place of the last players out
    specs = [(c.px(70), 1.0)] * len(rows) + ([(c.px(190), 2.2)] if lower else [])
    parts = stack(inner, specs, c.px(6)) if specs else []
    if rows:
        rh = min(p.height for p in parts[: len(rows)])
        lw = round(inner.width * 0.6)
        table = [row for i, row in enumerate(rows) if i != leader_row]
        # one size for all labels and one for all values: the block reads as a table
        lsize = min(c.fit_size(label, COND, lw - c.px(10), rh, "line", round(rh * 0.6))
                    for label, _ in table)
        vsize = min(c.fit_size(value, BOLD, inner.width - lw, rh, "line", round(rh * 0.85))
                    for _, value in table)
        for i, (r, (label, value)) in enumerate(zip(parts, rows, strict=False)):
            if i == leader_row:  # the leader's name has the whole width, never cut short
                c.text(value, r, colour=FG, bg=PANEL, align="right",
                       max_size=max(vsize, c.min_size))
                continue
            c.text(label, pygame.Rect(r.x, r.y, lw, r.height), face=COND, colour=DIM, bg=PANEL,
                   size=max(lsize, c.min_size))
            c.text(value, pygame.Rect(r.x + lw, r.y, r.width - lw, r.height), colour=FG,
                   bg=PANEL, align="right", size=max(vsize, c.min_size))
    if steps:
        ladder(c, parts[-1], frame, pool or {})
    elif res:
        results(c, parts[-1], frame, final=False, bg=PANEL)


def ladder(c: Canvas, rect: pygame.Rect, frame: Frame, pool: dict[str, Any]) -> None:
    """What each paid place pays (issue 30): the top places and those next to be paid out,
    the place the next player out takes in gold, in columns side by side. Where they do
    not all fit (a small screen), the winner's and the places next to be paid out. While
    a deal at the final table stands, one line "Deal" for the places of the players
    left (each has their deal amount), the places paid out below it."""
    lang = frame.lang
    cur = pool.get("currency", "")
    nxt = pool.get("next_place")
    # (place, amount, colour) a line
    items: list[tuple[str, str, tuple[int, int, int]]] = [
        (f"{place}.", i18n.money(cents, cur, lang), GOLD if place == nxt else FG)
        for place, cents in pool.get("ladder") or []]
    deal = pool.get("deal")
    if deal is not None:
        # a deal at the final table stands: the players left have their deal amounts, the
        # places they play for pay nothing more; only the part played for is open
        left = int(frame.summary.get("players_left") or 0)
        below = [it for (place, _), it in zip(pool.get("ladder") or [], items, strict=True)
                 if place > left]
        # (what is still played for is a line of the table above)
        items = [(f"1.–{left}." if left > 1 else "1.", tr("deal_places", lang), GOLD), *below]
    title_h = max(c.min_size + 8, min(c.px(56), rect.height // 4))
    c.text(tr("payouts", lang), pygame.Rect(rect.x, rect.y, rect.width, title_h),
           colour=GOLD, bg=PANEL, max_size=round(title_h * 0.75))
    area = pygame.Rect(rect.x, rect.y + title_h, rect.width, rect.height - title_h)
    lh = max(c.min_size + 8, min(c.px(46), area.height // 3))
    size = max(c.min_size, round(lh * 0.62))
    font = c.fonts.get(BOLD, size)
    nw = max(font.size(p)[0] for p, _, _ in items) + c.px(6)
    aw = max(font.size(a)[0] for _, a, _ in items)
    gap = c.px(40)
    need = nw + c.px(12) + aw  # one place and its amount, never cut
    per_col = max(1, area.height // lh)
    cols = max(1, min(3, (area.width + gap) // (need + gap), -(-len(items) // per_col)))
    fit = per_col * cols
    # too many: the winner's, and the places next to be paid out up to the next player
    # out's (at a final table the places below are paid out already)
    at = [i for i, (p, _, _) in enumerate(items) if p == f"{nxt}."]
    end = max(fit, at[0] + 1) if at else len(items)
    shown = items if len(items) <= fit else items[:1] + items[end - fit + 1:end]
    col_w = (area.width - gap * (cols - 1)) // cols
    for i, (place, amount, colour) in enumerate(shown):
        col, k = divmod(i, per_col)
        r = pygame.Rect(area.x + col * (col_w + gap), area.y + k * lh, col_w, lh)
        c.text(place, pygame.Rect(r.x, r.y, nw, lh), colour=DIM, bg=PANEL,
               align="right", size=size)
        c.text(amount, pygame.Rect(r.right - aw, r.y, aw, lh), colour=colour, bg=PANEL,
               align="right", size=size)


def results(c: Canvas, rect: pygame.Rect, frame: Frame, *, final: bool,
            bg: tuple[int, int, int] = BG) -> None:
    """The places (during play: the last players out; at the end: every place with its
    points). A name too long for its column goes on two lines, never cut; the places
    that do not fit are counted ("+6 more")."""
    lang = frame.lang
    res = (frame.state.get("results") or {}).get("rows") or []
    if not res:
        return
    title_h = max(c.min_size + 8, min(c.px(56), rect.height // 4))
    title = pygame.Rect(rect.x, rect.y, rect.width, title_h)
    title_right = title.right  # the column heads, if any, are in the title's line
    area = pygame.Rect(rect.x, title.bottom, rect.width, rect.height - title_h)
    lh = max(c.min_size + 8, min(c.px(52), area.height // 3))
    per_col = max(1, area.height // lh)
    cols = 1 if not final or len(res) <= per_col else min(3, -(-len(res) // per_col))
    col_w = (area.width - c.px(30) * (cols - 1)) // cols
    size = max(c.min_size, round(lh * 0.62))
    font = c.fonts.get(COND, size)
    nw = c.fonts.get(BOLD, size).size("00.")[0] + c.px(6)

    cur = (frame.summary.get("prize_pool") or {}).get("currency", "")
    # a preset without points (a tournament for money): no points column (issue 30)
    scored = (frame.state.get("results") or {}).get("scored", True)

    def right_of(row: dict[str, Any]) -> str:
        lot = f" ({tr('by_lot', lang)})" if row.get("lot") else ""  # a satellite's lot
        if row.get("ticket"):  # a satellite's ticket winner (issue 30)
            return tr("ticket", lang) + lot
        if row.get("payout"):  # a tournament for money: what the place pays
            return i18n.money(row["payout"], cur, lang) + lot
        if row.get("prize"):
            return str(row["prize"])
        pts = row.get("points")
        return i18n.points(pts, lang) if final and scored and pts else lot.strip(" ()")

    def bounty_of(row: dict[str, Any]) -> str:
        """The money bounties won (at the end: every head a player took)."""
        return i18n.money(row["bounties"], cur, lang) if final and row.get("bounties") else ""

    bold = c.fonts.get(BOLD, size)
    hs = max(c.min_size, round(title_h * 0.45))
    cond_h = c.fonts.get(COND, hs)
    gap = c.px(28)

    def widths(rows: list[dict[str, Any]]) -> tuple[int, int]:
        """The amount's and the bounties' columns of a column of rows (0: none there)."""
        rw = max((bold.size(right_of(r))[0] for r in rows), default=0)
        bw = max((bold.size(bounty_of(r))[0] for r in rows), default=0)
        return rw, bw

    def wrapped(name: str, name_w: int) -> tuple[int, list[str]]:
        """A name on one line, or two, smaller if need be (never below the smallest
        size), never cut."""
        if font.size(name)[0] <= name_w:
            return size, [name]
        lines = c.wrap(name, COND, size, name_w)
        nsize = size
        while nsize > c.min_size and (len(lines) > 2 or any(
                c.fonts.get(COND, nsize).size(ln)[0] > name_w for ln in lines)):
            nsize -= 1
            lines = c.wrap(name, COND, nsize, name_w)
        return nsize, lines

    # each column's money columns as wide as its own rows need (the paid places and the
    # bounties are at the top: the places below keep their names whole): the widths of
    # the rows that could go there, one line each, hold for those that do
    layout: list[list[tuple[dict[str, Any], int, list[str]]]] = []
    col_widths: list[tuple[int, int, int]] = []  # (amount, bounties, name) a column
    i = 0
    for col in range(cols):
        if i >= len(res):
            break
        rw, bw = widths(res[i:i + per_col])
        name_w = col_w - nw - c.px(12) - (rw + c.px(12) if rw else 0) - (bw + gap if bw else 0)
        room = per_col - (1 if final and col == cols - 1 else 0)  # the "+N more" line
        placed: list[tuple[dict[str, Any], int, list[str]]] = []
        k = 0
        while i < len(res):
            nsize, lines = wrapped(res[i].get("name") or "?", name_w)
            last = i == len(res) - 1
            if k + len(lines) > (per_col if last or col < cols - 1 else room):
                break
            placed.append((res[i], nsize, lines))
            k += len(lines)
            i += 1
        layout.append(placed)
        col_widths.append((rw, bw, name_w))
    shown = i
    for col, (placed, (rw, bw, name_w)) in enumerate(zip(layout, col_widths, strict=True)):
        x = area.x + col * (col_w + c.px(30))
        if bw:  # the column heads over the amounts, in the title's line (a head wider
            # than its amounts reaches left, over the names' part of the line)
            pay_w = cond_h.size(tr("prize", lang))[0] if rw else 0
            won_w = cond_h.size(tr("bounties_won", lang))[0]
            won_right = x + col_w - rw - gap
            head_y = title.bottom - hs * 3 // 2
            if rw:  # (a column below the paid places has no amounts to head)
                won_right = min(won_right, x + col_w - pay_w - c.px(12))
                c.text(tr("prize", lang), pygame.Rect(x + col_w - pay_w, head_y, pay_w,
                                                      hs * 3 // 2),
                       face=COND, colour=DIM, bg=bg, align="right", size=hs)
            c.text(tr("bounties_won", lang), pygame.Rect(won_right - won_w, head_y, won_w,
                                                         hs * 3 // 2),
                   face=COND, colour=DIM, bg=bg, align="right", size=hs)
            if col == 0:
                title_right = min(title_right, won_right - won_w - c.px(12))
        k = 0
        for row, nsize, lines in placed:
            need = len(lines)
            r = pygame.Rect(x, area.y + k * lh, col_w, lh * need)
            amount = right_of(row)
            if amount:
                c.text(amount, pygame.Rect(r.right - rw, r.y, rw, lh), colour=GOLD, bg=bg,
                       align="right", size=size)
            won = bounty_of(row)
            if won:
                c.text(won, pygame.Rect(r.right - rw - gap - bw, r.y, bw, lh), colour=FG,
                       bg=bg, align="right", size=size)
            c.text(f"{row.get('place', '?')}.", pygame.Rect(r.x, r.y, nw, lh), colour=DIM,
                   bg=bg, align="right", size=size)
            nx = r.x + nw + c.px(12)
            if need == 1:
                c.text(lines[0], pygame.Rect(nx, r.y, name_w, lh), face=COND, colour=FG,
                       bg=bg, max_size=size)
            else:
                for j, line in enumerate(lines):
                    c.text(line, pygame.Rect(nx, r.y + j * lh, name_w, lh), face=COND,
                           colour=FG, bg=bg, size=nsize)
            k += need
    c.text(tr("results" if final else "out", lang),
           pygame.Rect(title.x, title.y, title_right - title.x, title.height), colour=GOLD,
           bg=bg, max_size=round(title_h * 0.75))
    if shown < len(res) and final:
        more = tr("more", lang, n=len(res) - shown)
        x = area.x + (cols - 1) * (col_w + c.px(30))
        c.text(more, pygame.Rect(x + nw + c.px(12), area.y + (per_col - 1) * lh,
                                 col_w - nw - c.px(12), lh), colour=DIM, bg=bg, size=size)


def seating_list(c: Canvas, rect: pygame.Rect, frame: Frame) -> int:
    """All players alphabetically with table and seat, one page of it (``view.wall_page``)."""
    lang = frame.lang
    rows = seating(frame.state)
    bounty = bounty_heads(frame.state)
    cur = (frame.summary.get("prize_pool") or {}).get("currency", "")
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(20), c.px(12))
    title_h = max(c.min_size + 8, c.px(54))
    title = pygame.Rect(inner.x, inner.y, inner.width, title_h)
    area = pygame.Rect(inner.x, title.bottom + c.px(6), inner.width,
                       inner.height - title_h - c.px(6))
    lh = max(c.min_size + 8, c.px(46))
    per_col = max(1, area.height // lh)
    cols = 3 if rect.width >= c.px(1000) else 2
    if inner.width < 600:
        cols = 2
    if inner.width < 2 * c.px(480):  # beside the QR code on a small wall: one long column
        cols = 1
    hs = max(c.min_size, round(title_h * 0.4))
    heads = [tr("table", lang), tr("seat", lang)]
    num_w = max(c.fonts.get(BOLD, max(c.min_size, round(lh * 0.6))).size("00")[0],
                *(c.fonts.get(COND, hs).size(h)[0] for h in heads)) + c.px(8)
    size = round((lh - 2 * max(1, lh // 10)) * 0.8)
    # a head's column (money bounties): as wide as the largest head, or its title; only
    # where every name still fits beside it (a column less if need be), never cutting one
    bw, bsize = 0, c.min_size
    if bounty:
        bsize = max(c.min_size, round(size * 0.8))
        bw = max(max(c.fonts.get(BOLD, bsize).size(i18n.money(v, cur, lang))[0]
                     for v in bounty.values()),
                 c.fonts.get(COND, hs).size(tr("bounty", lang))[0]) + c.px(12)
        smallest = c.fonts.get(COND, max(round(size * 0.75), c.min_size))
        # most names (a name longer than most shrinks alone, then is cut, as ever)
        widths = sorted(smallest.size(n)[0] for n, _, _ in rows) or [0]
        widest = widths[(len(widths) * 9) // 10 - (1 if len(widths) % 10 == 0 else 0)]

        def room_for(n: int) -> bool:
            col = (area.width - c.px(24) * (n - 1)) // n
            return widest <= col - 2 * c.px(8) - 2 * num_w - bw - c.px(8)

        if not room_for(cols):
            if cols == 3 and room_for(2):
                cols = 2
            else:
                bw = 0
    per_page = per_col * cols
    n_pages = common.pages(len(rows), per_page)
    page = frame.view.wall_page % n_pages
    label = tr("seating", lang)
    if n_pages > 1:
        label += "  " + tr("page", lang, p=page + 1, n=n_pages)
    col_w = (area.width - c.px(24) * (cols - 1)) // cols
    # title, and the column heads over every column's numbers (and heads)
    c.text(label, pygame.Rect(title.x, title.y,
                              col_w - 2 * num_w - bw - c.px(16), title.height),
           colour=GOLD, bg=PANEL, max_size=round(title_h * 0.75))
    for col in range(cols):
        right = area.x + col * (col_w + c.px(24)) + col_w - c.px(8)
        for i, h in enumerate(heads):
            x = right - (2 - i) * num_w
            c.text(h, pygame.Rect(x, title.bottom - hs * 3 // 2, num_w, hs * 3 // 2), face=COND,
                   colour=DIM, bg=PANEL, align="right", size=hs)
        if bw:
            c.text(tr("bounty", lang), pygame.Rect(right - 2 * num_w - bw,
                                                   title.bottom - hs * 3 // 2, bw - c.px(8),
                                                   hs * 3 // 2),
                   face=COND, colour=DIM, bg=PANEL, align="right", size=hs)
    if not rows:
        c.text(tr("waiting_draw", lang), inset(area, 0, area.height // 3), face=COND,
               colour=DIM, bg=PANEL)
        return n_pages
    shown = rows[page * per_page:(page + 1) * per_page]
    inner_h = lh - 2 * max(1, lh // 10)
    name_w = col_w - 2 * c.px(8) - 2 * num_w - bw - c.px(8)
    # one size for the page; a name longer than most shrinks alone, then is cut
    common_size = min(c.fit_size(n, COND, name_w, inner_h, "line", size) for n, _, _ in shown)
    name_size = max(common_size, round(size * 0.75), c.min_size)
    for i, (name, table, seat) in enumerate(shown):
        col, k = divmod(i, per_col)
        r = pygame.Rect(area.x + col * (col_w + c.px(24)), area.y + k * lh, col_w, lh)
        bg = PANEL2 if k % 2 == 0 else PANEL
        c.fill(r, bg)
        r = inset(r, c.px(8), max(1, lh // 10))
        nr = pygame.Rect(r.x, r.y, r.width - 2 * num_w - bw - c.px(8), r.height)
        if bw and (table, seat) in bounty:
            c.text(i18n.money(bounty[(table, seat)], cur, lang),
                   pygame.Rect(r.right - 2 * num_w - bw, r.y, bw - c.px(8), r.height),
                   colour=GREEN, bg=bg, align="right", max_size=bsize)
        mark = duties.wall_mark(frame.state, table, seat, frame.view.now, lang)
        if mark is not None:  # a sit-out penalty (000 3.8): the name in red, and what is
            # left after it where the whole name still fits beside it (a name is never cut
            # for it: on a narrow wall the red name alone says it)
            small = c.fonts.get(COND, c.min_size)
            mw = small.size(mark)[0]
            if small.size(name)[0] + mw + c.px(12) <= nr.width:
                c.text(mark, pygame.Rect(nr.right - mw, nr.y, mw, nr.height), face=COND,
                       colour=RED, bg=bg, align="right", max_size=c.min_size)
                nr.width = max(0, nr.width - mw - c.px(12))
        fits = c.fonts.get(COND, name_size).size(name)[0] <= nr.width
        c.text(name, nr, face=COND, colour=RED if mark else FG, bg=bg,
               size=name_size if fits else None, max_size=name_size)
        c.text(str(table), pygame.Rect(r.right - 2 * num_w, r.y, num_w, r.height), colour=GOLD,
               bg=bg, align="right", max_size=size)
        c.text(str(seat), pygame.Rect(r.right - num_w, r.y, num_w, r.height), colour=FG, bg=bg,
               align="right", max_size=size)
    return n_pages


def side(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """Hand-for-hand at every table, and the latest moves."""
    s = frame.summary
    hfh = s.get("hand_for_hand") or {}
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(20), c.px(12))
    race = chip_race.wall_lines(frame.state, frame.lang) if frame.mode == "break" else []
    if race:  # a colour-up break: which tables ran their chip race (000 3.17)
        size = c.need_size("hfh")
        h = c.fonts.get(BOLD, size).get_height() + c.px(4)
        with c.key("hfh"):
            for i, words in enumerate(race):
                # the title may shrink to fit a small wall; the tables stay at their size
                c.text(words, pygame.Rect(inner.x, inner.y + i * h, inner.width, h),
                       colour=GOLD if i == 0 else FG, bg=PANEL,
                       max_size=size if i == 0 else None, size=None if i == 0 else size)
        used = len(race) * h + c.px(12)
        inner = pygame.Rect(inner.x, inner.y + used, inner.width, inner.height - used)
    if not hfh.get("on"):
        moves_list(c, inner, frame)
        return
    # hand-for-hand first, at its size by rule; the moves in what is left, if anything
    tables = hfh_tables(hfh)
    line = c.fonts.get(BOLD, c.need_size("hfh")).get_height()
    rows = -(-len(tables) // (2 if len(tables) > 3 else 1))
    need = max(c.px(200), line + c.px(6) + rows * (line + c.px(4) + 6))
    gap = c.px(12)
    hfh_status(c, pygame.Rect(inner.x, inner.y, inner.width, min(need, inner.height)), frame,
               hfh)
    rest = pygame.Rect(inner.x, inner.y + need + gap, inner.width,
                       inner.height - need - gap)
    if rest.height >= 2 * c.fonts.get(COND, c.need_size("move", COND)).get_height():
        moves_list(c, rest, frame)


def final_table_of(frame: Frame) -> dict[str, Any] | None:
    """The final table's payload once it is drawn and the clock runs on it (``None``
    before, at the end, during hand-for-hand, and in a break whose chip race the wall
    follows table by table)."""
    s = frame.summary
    final = s.get("final_table")
    if final is None or s.get("finished") or (s.get("hand_for_hand") or {}).get("on"):
        return None
    if frame.cn is None or not frame.cn.started:
        return None
    if frame.mode == "break" and chip_race.wall_lines(frame.state, frame.lang):
        return None
    tab = frame.state.get(f"table/{final}")
    return tab if tab and tab.get("in_play", True) else None


def final_seats(c: Canvas, rect: pygame.Rect, frame: Frame, tab: dict[str, Any]) -> None:
    """The final table's seats, who sits where, in seat order (the moves to it are the
    seating itself: a list of them said less, "+7 more"); a player still on the way to
    the seat in blue with an arrow, and a line under the seats saying so. The heads of
    money bounties in green beside the names; as many columns as the rows need."""
    lang = frame.lang
    cur = (frame.summary.get("prize_pool") or {}).get("currency", "")
    on_way = {(m.get("to") or {}).get("seat") for m in common.live_moves(
        frame.state, tab.get("moves_in") or [])}
    rows = sorted((s for s in tab.get("seats") or [] if not s.get("ghost")),
                  key=lambda s: s.get("seat", 0))
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(20), c.px(12))
    title_h = max(c.min_size + 8, c.px(54))
    title = f"{tr('final_table', lang)} · {tr('table', lang)} {tab.get('table', '?')}"
    if ((frame.summary.get("prize_pool") or {}).get("deal") or {}).get("players"):
        title += f" · {tr('deal_places', lang)}"  # the amounts at the rows' ends
    c.text(title, pygame.Rect(inner.x, inner.y, inner.width, title_h), colour=GOLD,
           bg=PANEL, max_size=round(title_h * 0.75))
    coming = [s for s in rows if s.get("seat") in on_way]
    note_h = max(c.min_size + 6, c.px(40)) if coming else 0
    area = pygame.Rect(inner.x, inner.y + title_h + c.px(6), inner.width,
                       inner.height - title_h - c.px(6) - note_h)
    if not rows:
        c.text("–", pygame.Rect(area.x, area.y, area.width, min(area.height, c.px(50))),
               colour=LINE, bg=PANEL)
        return
    least = max(c.min_size + 8, c.px(46))
    cols = next((n for n in (1, 2, 3) if -(-len(rows) // n) * least <= area.height), 3)
    if cols == 1 and area.width >= 2 * c.px(480):  # a wide panel: two columns, bigger rows
        cols = 2
    per_col = -(-len(rows) // cols)
    lh = max(c.min_size + 6, min(c.px(72), area.height // per_col))
    gap = c.px(24)
    col_w = (area.width - gap * (cols - 1)) // cols
    size = max(c.min_size, round(lh * 0.62))
    num_w = c.fonts.get(BOLD, size).size("10")[0] + c.px(12)
    heads = {s.get("seat"): int(s["bounty"]) for s in rows if s.get("bounty") is not None}
    hsize = max(c.min_size, size * 4 // 5)
    bw = max((c.fonts.get(BOLD, hsize).size(i18n.money(v, cur, lang))[0]
              for v in heads.values()), default=0)
    bw = bw + c.px(16) if bw else 0
    # a deal stands: each dealt player's own amount, gold, at the row's end
    deal = ((frame.summary.get("prize_pool") or {}).get("deal") or {}).get("players") or []
    dealt = {d.get("player_id"): int(d.get("amount") or 0) for d in deal}
    dw = max((c.fonts.get(BOLD, size).size(i18n.money(v, cur, lang))[0]
              for pid, v in dealt.items() if any(s.get("player_id") == pid for s in rows)),
             default=0)
    dw = dw + c.px(16) if dw else 0
    pad = c.px(8)
    name_w = col_w - num_w - 2 * pad - bw - dw
    names = [("→ " if s.get("seat") in on_way else "") + (s.get("name") or "?") for s in rows]
    # one size for every name (the list reads as a list); a longer one shrinks alone
    common_size = min(c.fit_size(n, COND, name_w, lh, "line", size) for n in names)
    name_size = max(common_size, round(size * 0.75), c.min_size)
    for i, (s, name) in enumerate(zip(rows, names, strict=True)):
        col, k = divmod(i, per_col)
        r = pygame.Rect(area.x + col * (col_w + gap), area.y + k * lh, col_w, lh)
        bg = PANEL2 if k % 2 == 0 else PANEL
        c.fill(r, bg)
        r = inset(r, 0, max(1, lh // 10))
        c.text(str(s.get("seat", "?")), pygame.Rect(r.x, r.y, num_w - pad, r.height),
               colour=GOLD, bg=bg, align="right", max_size=size)
        fits = c.fonts.get(COND, name_size).size(name)[0] <= name_w
        c.text(name, pygame.Rect(r.x + num_w + pad, r.y, name_w, r.height), face=COND,
               colour=BLUE if s.get("seat") in on_way else FG, bg=bg,
               size=name_size if fits else None, max_size=name_size)
        if bw and s.get("seat") in heads:
            c.text(i18n.money(heads[s["seat"]], cur, lang),
                   pygame.Rect(r.right - dw - bw, r.y, bw - pad, r.height), colour=GREEN,
                   bg=bg, align="right", max_size=hsize)
        if dw and s.get("player_id") in dealt:
            c.text(i18n.money(dealt[s["player_id"]], cur, lang),
                   pygame.Rect(r.right - dw, r.y, dw - pad, r.height), colour=GOLD, bg=bg,
                   align="right", max_size=size)
    if coming:
        c.text(f"→ {tr('on_the_way', lang)}: {len(coming)}",
               pygame.Rect(inner.x, inner.bottom - note_h, inner.width, note_h), face=COND,
               colour=BLUE, bg=PANEL, max_size=round(note_h * 0.7))


def hfh_tables(hfh: dict[str, Any]) -> list[int]:
    """The tables in hand-for-hand: those done and those still playing (every table in
    play; the summary has only their count)."""
    return sorted(set(hfh.get("done") or []) | set(hfh.get("playing") or []))


def hfh_status(c: Canvas, rect: pygame.Rect, frame: Frame, hfh: dict[str, Any]) -> None:
    lang = frame.lang
    tables = hfh_tables(hfh)
    done = set(hfh.get("done") or [])
    size = c.need_size("hfh")  # the state at each table is read from across the room
    title_h = max(min(c.px(54), rect.height // 3), c.fonts.get(BOLD, size).get_height())
    with c.key("hfh"):
        c.text(tr("hand_n", lang, n=hfh.get("hand") or 1),  # the header says hand for hand
               pygame.Rect(rect.x, rect.y, rect.width, title_h), colour=GOLD, bg=PANEL,
               max_size=max(size, round(title_h * 0.75)), min_size=size)
    area = pygame.Rect(rect.x, rect.y + title_h + c.px(6), rect.width,
                       rect.height - title_h - c.px(6))
    if not tables:
        return
    per_row = 2 if len(tables) > 3 else 1
    nrows = -(-len(tables) // per_row)
    ch = max(min(c.px(56), area.height // max(1, nrows)),
             c.fonts.get(BOLD, size).get_height() + c.px(4) + 6)
    cw = (area.width - c.px(12) * (per_row - 1)) // per_row
    for i, t in enumerate(tables):
        row, col = divmod(i, per_row)
        r = pygame.Rect(area.x + col * (cw + c.px(12)), area.y + row * ch, cw, ch - c.px(4))
        is_done = t in done
        bg = (14, 70, 30) if is_done else DARKGOLD
        c.fill(r, bg, radius=max(3, r.height // 6))
        word = tr("done", lang) if is_done else tr("playing", lang)
        with c.key("hfh"):
            c.runs([(f"{tr('table', lang)} {t}", BOLD, size, FG),
                    (("✓ " if is_done else "… ") + word, COND, size, GREEN if is_done else GOLD)],
                   inset(r, c.px(10), 2), bg=bg, gap=c.px(14))


def moves_list(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """The moves still to make, at the size by rule; those that do not fit are counted
    ("+4 more"). A move whose player sat down or went out is gone (it is no longer
    pending, or :func:`~kiosk.screens.common.live_moves` drops it)."""
    lang = frame.lang
    mv = frame.state.get("moves") or {}
    items = common.live_moves(frame.state, mv.get("pending") or [])
    title_h = max(c.min_size + 8, min(c.px(54), rect.height // 3))
    c.text(tr("moves", lang), pygame.Rect(rect.x, rect.y, rect.width, title_h), colour=GOLD,
           bg=PANEL, max_size=round(title_h * 0.75))
    area = pygame.Rect(rect.x, rect.y + title_h + c.px(4), rect.width,
                       rect.height - title_h - c.px(4))
    if not items:
        c.text("–", pygame.Rect(area.x, area.y, area.width, min(area.height, c.px(50))),
               colour=LINE, bg=PANEL)
        return
    size = c.need_size("move", COND)
    font = c.fonts.get(COND, size)
    lh = font.get_height()
    blocks: list[list[str]] = []
    for m in items:
        to = m.get("to") or {}
        name = m.get("player") or "?"
        kw = {"t2": to.get("table", "?"), "s2": to.get("seat", "?")}
        full = tr("move_wall", lang, name=name, **kw)
        if font.size(full)[0] <= area.width:
            blocks.append([full])
        else:  # the name over where to; a name too long for a line wraps
            blocks.append(c.wrap(name, COND, size, area.width)
                          + [tr("move_wall_rest", lang, **kw)])
    sep = lh // 4
    more_h = lh
    y, shown = area.y, 0
    for i, b in enumerate(blocks):
        h = len(b) * lh
        rest = len(blocks) - i - 1
        if y + h + (more_h if rest else 0) > area.bottom:
            break
        with c.key("move"):
            for line in b:
                c.draw_at(line, pygame.Rect(area.x, y, area.width, lh), COND, size, BLUE,
                          PANEL, "left", "line")
                y += lh
        y += sep
        shown += 1
    if shown < len(blocks):
        c.text(tr("more", lang, n=len(blocks) - shown),
               pygame.Rect(area.x, y, area.width, min(more_h, area.bottom - y)), colour=DIM,
               bg=PANEL, size=size)
