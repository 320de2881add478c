"""What a frame shows, worked out once per draw, and the panels both screens share.

:func:`frame_of` turns a :class:`~kiosk.view.ScreenView` into a :class:`Frame`:
the values that change by themselves every second (``values``: the slots)
and a ``key`` of everything else. The renderer lays the screen out again only
when the key (or the retained state) changes; otherwise it redraws the slots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from controller.wire import i18n
from controller.wire.i18n import tr
from kiosk.screens import duties
from kiosk.screens.widgets import (
    BG,
    BLACK,
    BOLD,
    COND,
    DARKRED,
    DIM,
    FG,
    GOLD,
    GREEN,
    PANEL,
    RED,
    Canvas,
    Colour,
    inset,
    stack,
    template_of,
)
from kiosk.view import ClockNow, Feedback, ScreenView, clock_now

#: how long the answer to a press stays on the screen (seconds, by kind)
FEEDBACK_SECONDS: dict[str, float] = {"sent": 6.0, "accepted": 3.0, "rejected": 8.0,
                                      "info": 5.0}
#: marked in red at the end of a time call when the structure does not say
DEFAULT_RED_SECONDS = 10
#: a table's moves that do not fit show a page at a time, this long each (seconds)
TABLE_PAGE_SECONDS = 8.0


def table_page(now: float) -> int:
    """The page of a table's moves at controller time ``now`` (every table the same)."""
    return int(now // TABLE_PAGE_SECONDS)


@dataclass
class TimeCall:
    seat: int | None
    left: float  #: seconds until the hand is dead (may be ≤ 0)
    countdown: int
    red_seconds: int

    @property
    def phase(self) -> str:
        if self.left <= 0:
            return "over"
        if self.left <= max(self.countdown, self.red_seconds):
            return "red"
        return "normal"


@dataclass
class Frame:
    view: ScreenView
    lang: str
    cn: ClockNow | None
    mode: str
    values: dict[str, tuple[str, Colour]]
    timecall: TimeCall | None
    feedback: Feedback | None
    key: tuple

    @property
    def state(self) -> dict[str, dict[str, Any]]:
        return self.view.state

    @property
    def summary(self) -> dict[str, Any]:
        return self.view.state.get("summary") or {}

    @property
    def table(self) -> dict[str, Any] | None:
        if self.view.table is None:
            return None
        return self.view.state.get(f"table/{self.view.table}")


def visible_feedback(fb: Feedback | None, mono: float) -> Feedback | None:
    if fb is None:
        return None
    return fb if mono - fb.since < FEEDBACK_SECONDS.get(fb.kind, 5.0) else None


def time_call_of(view: ScreenView) -> TimeCall | None:
    if view.role != "table" or view.table is None:
        return None
    tab = view.state.get(f"table/{view.table}") or {}
    tc = tab.get("time_call")
    if not tc:
        return None
    struct = view.state.get("structure") or {}
    red = (struct.get("time_call") or {}).get("red_seconds", DEFAULT_RED_SECONDS)
    seconds = tc.get("seconds") or 0
    countdown = tc.get("countdown") or 0
    left = tc.get("started_at", view.now) + seconds + countdown - view.now
    return TimeCall(tc.get("seat"), left, countdown, red if red is not None else 0)


def frame_of(view: ScreenView, default_lang: str, mono: float, size: tuple[int, int]) -> Frame:
    lang = i18n.lang_of(view.language if view.language in i18n.LANGUAGES else default_lang)
    cn = clock_now(view)
    summary = view.state.get("summary") or {}
    fb = visible_feedback(view.feedback, mono) if view.role == "table" else None
    tc = time_call_of(view)
    values: dict[str, tuple[str, Colour]] = {}
    if cn is None:
        mode = "wait"
    elif summary.get("finished"):
        mode = "champion"
    elif tc is not None:
        mode = "timecall"
    elif cn.level.get("is_break"):
        mode = "break"
    else:
        mode = "clock"
    if cn is not None:
        colour = FG if cn.running else GOLD
        values["clock"] = (i18n.level_clock(cn.remaining), colour)
        if cn.break_in and not cn.level.get("is_break"):
            values["break"] = (i18n.clock(cn.break_in), FG)
    if tc is not None:
        red = tc.phase != "normal"
        values["tc"] = (str(i18n.shown_seconds(tc.left)), RED if red else FG)
    key = (
        size, view.role, view.table, lang, view.online, view.selected_seat,
        view.hold[0] if view.hold else None,
        (fb.kind, fb.text) if fb else None,
        view.wall_page, mode,
        None if cn is None else (cn.level.get("index"), cn.running, cn.started,
                                 cn.remaining is None),
        None if tc is None else (tc.phase, tc.seat),
        tuple(sorted((k, template_of(v[0])) for k, v in values.items())),
        announcement_of(view, lang), public_url_of(view) if view.role == "wall" else None,
        duties.key_of(view.state, view.now),  # a penalty's minutes counting down
        view.problem,  # why there is nothing to show yet (kiosk/problems.py)
    )
    return Frame(view, lang, cn, mode, values, tc, fb, key)


def announcement_of(view: ScreenView, lang: str = "en") -> str | None:
    """The director's banner (``state/announcement``) at the view's time, or ``None``: one
    whose ``until`` has passed is hidden here, with no message from the controller.
    Without one, the chip race announced before a colour-up break (002: 2-3 minutes
    before; ``state/clock`` ``chip_race_call``, the controller decides when)."""
    a = view.state.get("announcement") or {}
    text = a.get("text")
    until = a.get("until")
    if isinstance(text, str) and text and not (isinstance(until, (int, float))
                                               and view.now >= until):
        return text
    return chip_race_call_of(view, lang)


def chip_race_call_of(view: ScreenView, lang: str) -> str | None:
    """"Chip race at the break: the 25 chips leave for 100" while ``chip_race_call`` says
    so at the view's time (``from``/``until`` ``None``: now)."""
    call = (view.state.get("clock") or {}).get("chip_race_call")
    if not isinstance(call, dict):
        return None
    start, end = call.get("from"), call.get("until")
    if isinstance(start, (int, float)) and view.now < start:
        return None
    if isinstance(end, (int, float)) and view.now >= end:
        return None
    return tr("chip_race_call", lang, leaving=i18n.num(call.get("leaving", 0), lang),
              new=i18n.num(call.get("new", 0), lang))


def public_url_of(view: ScreenView) -> str | None:
    """The players' page the console publishes (``P/console/public``), for the QR code."""
    url = (view.state.get("console/public") or {}).get("url")
    return url if isinstance(url, str) and url.startswith(("http://", "https://")) else None


def announcement_height(c: Canvas, frame: Frame) -> int:
    """The band the banner takes under the header (0: no banner)."""
    if announcement_of(frame.view, frame.lang) is None:
        return 0
    return max(24, c.px(64))


def announcement_band(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """The banner: one line, black on gold, across the screen (shrinks, then is cut)."""
    text = announcement_of(frame.view, frame.lang)
    if text is None or rect.height <= 0:
        return
    c.fill(rect, GOLD)
    c.text(text, inset(rect, c.px(24), max(2, rect.height // 8)), face=BOLD, colour=BLACK,
           bg=GOLD, align="center")


def tick(seconds: float | None) -> float | None:
    """Seconds until a countdown showing whole seconds flips (``None``: it will not)."""
    if seconds is None:
        return None
    shown = i18n.shown_seconds(seconds)
    if shown <= 0:
        return None
    return max(0.0, seconds - (shown - 1)) + 0.002


# ---------------------------------------------------------------- panels
def round_text(rnd: dict[str, Any], lang: str) -> str:
    """The round of a mode (summary ``round``): "2 of 3"; past the preliminary rounds the
    multi-round final (000 4.14, 4.15, 4.19)."""
    if rnd["number"] <= rnd["of"]:
        return tr("round_of", lang, n=rnd["number"], of=rnd["of"])
    return tr("round_final", lang)


def header(c: Canvas, rect: pygame.Rect, title: str, middle: str,
           badges: list[tuple[str, Colour, Colour]], title_colour: Colour = GOLD) -> None:
    """Top bar: title left, a name in the middle, badges (text, fg, bg) right."""
    c.fill(rect, PANEL)
    pad = max(6, rect.height // 6)
    inner = inset(rect, pad * 2, pad)
    x_right = inner.right
    bh = inner.height
    for text, fg, bg in reversed(badges):
        size = c.fit_size(text, BOLD, inner.width // 3, int(bh * 0.8), "ink")
        w, ink = c.measure(text, BOLD, size)
        bw = ink.width + 2 * pad
        br = pygame.Rect(x_right - bw, inner.y, bw, bh)
        c.fill(br, bg, radius=pad)
        c.draw_at(text, br, BOLD, size, fg, bg, "center", "ink")
        x_right -= bw + pad
    avail = pygame.Rect(inner.x, inner.y, max(0, x_right - inner.x - pad), bh)
    tsize = c.fit_size(title, BOLD, avail.width // 2, int(bh * 0.72), "ink")
    tr_ = c.text(title, avail, colour=title_colour, bg=PANEL, box="ink", size=tsize)
    if middle and tr_ is not None:
        rest = pygame.Rect(tr_.right + pad * 3, inner.y, max(0, avail.right - tr_.right - pad * 3),
                           bh)
        c.text(middle, rest, face=COND, colour=DIM, bg=PANEL, max_size=int(bh * 0.55),
               align="right" if badges else "left")


def badge_list(frame: Frame) -> list[tuple[str, Colour, Colour]]:
    badges = []
    if not frame.view.online:
        badges.append((tr("offline", frame.lang).upper(), FG, DARKRED))
    return badges


def status_badge(c: Canvas, rect: pygame.Rect, text: str, fg: Colour, bg: Colour,
                 panel: Colour, align: str = "right") -> pygame.Rect:
    pad = max(4, rect.height // 6)
    size = c.fit_size(text, BOLD, rect.width, int(rect.height * 0.55), "ink")
    _, ink = c.measure(text, BOLD, size)
    w = ink.width + 3 * pad
    x = rect.right - w if align == "right" else rect.x
    br = pygame.Rect(x, rect.y + rect.height // 8, w, rect.height - rect.height // 4)
    c.fill(br, bg, radius=pad)
    c.draw_at(text, br, BOLD, size, fg, bg, "center", "ink")
    return br


def label_slot(c: Canvas, rect: pygame.Rect, label: str, name: str,
               value: tuple[str, Colour], bg: Colour = BG, label_colour: Colour = DIM,
               max_size: int | None = None) -> None:
    """``Break in 42:10``: a label and a time slot on one line."""
    text = f"{label} {value[0]}"
    size = c.fit_size(text, BOLD, rect.width, rect.height, "line", max_size)
    size = max(size, c.min_size)
    r = c.draw_at(label, rect, BOLD, size, label_colour, bg, "left", "line")
    gap = c.fonts.get(BOLD, size).size(" ")[0]
    srect = pygame.Rect(r.right + gap, rect.y, max(0, rect.right - r.right - gap), rect.height)
    c.slot(name, value, srect, bg=bg, align="left", size=size, valign="line")


def next_level_text(cn: ClockNow, lang: str) -> str:
    nxt = cn.next_level
    if nxt is None:
        return tr("last_level", lang)
    if nxt.get("is_break"):
        note = nxt.get("note") or ""
        key = "next_is_break_note" if note else "next_is_break"
        return tr(key, lang, min=i18n.minutes(nxt.get("seconds")), note=note)
    return f"{tr('next_level', lang)}: {i18n.level_line(nxt, lang)}"


def players_text(summary: dict[str, Any], lang: str) -> str:
    if not summary:
        return ""
    left = summary.get("players_left")
    entries = summary.get("entries")
    avg = summary.get("average_stack")
    parts = []
    if left is not None:
        parts.append(f"{tr('players', lang)} {i18n.num(left, lang)}"
                     + (f" / {i18n.num(entries, lang)}" if entries else ""))
    if avg:
        parts.append(f"{tr('average', lang)} {i18n.num(avg, lang)}")
    return " · ".join(parts)


def blinds_face(c: Canvas, text: str, width: int) -> str:
    """The face of the blinds: DejaVu Sans Bold, or its condensed cut where the bold ones
    at their least size by rule are wider than ``width`` ("50.000 / 100.000" on a
    7" table screen)."""
    size = c.need_size("blinds")
    if c.measure(text, BOLD, size)[1].width <= width:
        return BOLD
    return COND


def ante_size(c: Canvas, blinds_size: int) -> int:
    """The ante's size beside or under blinds of ``blinds_size``: two fifths of them."""
    return max(c.min_size, blinds_size * 4 // 10)


def ante_below(c: Canvas, width: int, level: dict[str, Any], lang: str) -> bool:
    """Whether the ante goes on a line of its own under the blinds: beside them, even the
    short wording ("BB ante 400") leaves the blinds less than their size by rule in
    ``width`` (sizes.py)."""
    ante = i18n.ante(level, lang, short=True)
    if not ante:
        return False
    text = i18n.blinds(level, lang)
    face = blinds_face(c, text, width)
    size = c.need_size("blinds", face)
    need = c.measure(text, face, size)[1].width + c.px(36) + \
        c.fonts.get(BOLD, ante_size(c, size)).size(ante)[0]
    return need > width


def ante_line_height(c: Canvas, width: int, level: dict[str, Any], lang: str) -> int:
    """The room a line of its own for the ante takes under the blinds (0: beside them)."""
    if not ante_below(c, width, level, lang):
        return 0
    return c.fonts.get(BOLD, ante_size(c, c.need_size("blinds"))).get_height()


def blinds_row(c: Canvas, rect: pygame.Rect, level: dict[str, Any], lang: str,
               bg: Colour) -> None:
    """``200 / 400`` as big as the row allows, the ante beside it on the same baseline.

    The ante is never cut: it gets shorter ("BB ante 400") and the blinds smaller first,
    but never below their size by rule (sizes.py): where that leaves no room beside them
    the ante goes on a line of its own under them (:func:`ante_below`; the row is made
    that much taller, :func:`ante_line_height`)."""
    text = i18n.blinds(level, lang)
    face = blinds_face(c, text, rect.width)
    least = c.need_size("blinds", face)
    best = max(least, c.fit_size(text, face, rect.width, rect.height, "ink"))
    antes = [a for a in (i18n.ante(level, lang), i18n.ante(level, lang, short=True)) if a]
    if not antes:
        with c.key("blinds"):
            c.text(text, rect, face=face, colour=FG, bg=bg, box="ink", size=best)
        return
    if ante_below(c, rect.width, level, lang):
        # the blinds over the ante, each line as wide as the row: the ante as long as
        # it fits, else the short wording
        line = c.fonts.get(BOLD, ante_size(c, least)).get_height()
        top = pygame.Rect(rect.x, rect.y, rect.width, max(1, rect.height - line))
        size = max(least, c.fit_size(text, face, rect.width, top.height, "ink"))
        asize = ante_size(c, min(size, least * 5 // 4))
        a = next((cand for cand in antes
                  if c.fonts.get(BOLD, asize).size(cand)[0] <= rect.width), antes[-1])
        with c.key("blinds"):
            c.text(text, top, face=face, colour=FG, bg=bg, box="ink", size=size)
        af = c.fonts.get(BOLD, asize)
        c.text(a, pygame.Rect(rect.x, rect.bottom - af.get_height(), rect.width,
                              af.get_height()),
               colour=GOLD, bg=bg, size=asize)
        return
    gap = c.px(36)
    size, a, asize = best, antes[-1], c.min_size
    for k, cand in enumerate(antes):
        floor = max(least, best * 8 // 10 if k < len(antes) - 1 else 6)
        size = max(least, c.fit_size(text, face, rect.width * 7 // 10, rect.height, "ink"))
        while True:
            asize = ante_size(c, size)
            need = c.measure(text, face, size)[1].width + gap + \
                c.fonts.get(BOLD, asize).size(cand)[0]
            if need <= rect.width or size <= floor:
                break
            size = max(floor, size - max(1, size // 25))
        if need <= rect.width:
            a = cand
            break
    with c.key("blinds"):
        r = c.text(text, rect, face=face, colour=FG, bg=bg, box="ink", size=size)
    if r is None:
        return
    font = c.fonts.get(face, size)
    ink = c.measure(text, face, size)[1]
    baseline = rect.centery - ink.height // 2 - ink.y + font.get_ascent()
    room = pygame.Rect(r.right + gap, rect.y, max(0, rect.right - r.right - gap), rect.height)
    if c.fonts.get(BOLD, asize).size(a)[0] > room.width:
        a = c.ellipsize(a, BOLD, asize, room.width)
    af = c.fonts.get(BOLD, asize)
    y = baseline - af.get_ascent()
    c.draw_at(a, pygame.Rect(room.x, y, room.width, af.get_height()), BOLD, asize, GOLD, bg)


def shown_level(frame: Frame) -> dict[str, Any]:
    """The level whose blinds the screen shows: the clock's, or at a table whose hand
    began in the level before, that one's until the hand is done (000 9.6)."""
    cn = frame.cn
    assert cn is not None
    hand = (frame.table or {}).get("hand_level")
    if hand is not None and hand.get("index") != cn.level.get("index"):
        return dict(hand)
    return cn.level


def ante_room(c: Canvas, width: int, frame: Frame) -> int:
    """How much taller the clock panel's blinds row ``width`` wide is for the ante's own
    line (0: the ante fits beside the blinds)."""
    line = ante_line_height(c, width, shown_level(frame), frame.lang)
    return line * 6 // 5  # the row is drawn inset by a twelfth at the top and the bottom


def blinds_height(c: Canvas, width: int, frame: Frame) -> int:
    """The least height of the clock panel's blinds row ``width`` wide: the blinds at
    their size by rule, the ante's own line under them where it needs one."""
    # the ink of "50 / 100" reaches below the capitals ("/"): a row a third taller
    return max(c.px(100), c.need("blinds") * 4 // 3 + 2) + ante_room(c, width, frame)


def clock_panel(c: Canvas, rect: pygame.Rect, frame: Frame, *, bg: Colour = BG,
                show_players: bool = True, min_clock: float = 285,
                compact: bool = False) -> None:
    """Level, blinds and ante, the remaining time (the biggest thing), next level, break,
    players. ``compact``: level, blinds and time only (messages need the room). The time
    and the blinds get at least their size by rule (sizes.py)."""
    cn = frame.cn
    assert cn is not None
    lang = frame.lang
    lv = cn.level
    # the table's hand in play keeps the level it began in (000 9.6): its blinds are the
    # ones in play, the clock's come with the next hand; the controller decides it
    hand = (frame.table or {}).get("hand_level")
    if hand is not None and hand.get("index") == lv.get("index"):
        hand = None  # this screen's clock has not reached the next level yet
    gap = c.px(6)
    specs = [(c.px(56), 0.7), (blinds_height(c, rect.width, frame), 1.4),
             (max(c.px(min_clock), c.need("time_left") + 4), 3.0)]
    if not compact:
        specs += [(c.px(44), 0.3), (c.px(44), 0.3)]
        if show_players:
            specs.append((c.px(44), 0.3))
    rows = stack(rect, specs, gap)
    r_level, r_blinds, r_clock = rows[:3]
    r_next = r_break = None
    if not compact:
        r_next, r_break = rows[3:5]
    # level row: "LEVEL 5" and the clock's state
    status = None
    if not cn.started:
        status = tr("not_started", lang)
    elif not cn.running:
        status = tr("paused", lang)
    elif hand is not None:
        status = tr("from_next_hand", lang, blinds=i18n.blinds(lv, lang))
    badge_w = 0
    if status:
        b = status_badge(c, r_level, status, BLACK, GOLD, bg)
        badge_w = b.width + c.px(16)
    lr = pygame.Rect(r_level.x, r_level.y, r_level.width - badge_w, r_level.height)
    lr = inset(lr, 0, r_level.height // 8)
    level_text = tr("level_n", lang, n=(hand or lv).get("number", "?"))
    if hand is not None:
        level_text = f"{level_text} · {tr('this_hand', lang)}"
        if c.fit_size(level_text, BOLD, lr.width, lr.height, "ink") < c.min_size:
            level_text = tr("this_hand", lang)  # a small screen: what matters is "this hand"
    c.text(level_text, lr, colour=GOLD, bg=bg, box="ink")
    blinds_row(c, inset(r_blinds, 0, r_blinds.height // 12), hand or lv, lang, bg)
    with c.key("time_left"):
        c.slot("clock", frame.values["clock"], r_clock, bg=bg)
    if r_next is None or r_break is None:
        return
    c.text(next_level_text(cn, lang), r_next, face=COND, colour=DIM, bg=bg)
    if "break" in frame.values:
        label_slot(c, r_break, tr("break_in", lang), "break", frame.values["break"], bg=bg)
    elif cn.remaining is None:
        c.text(tr("no_limit", lang), r_break, face=COND, colour=DIM, bg=bg)
    if show_players:
        c.text(players_text(frame.summary, lang), rows[5], face=COND, colour=DIM, bg=bg)


def break_panel(c: Canvas, rect: pygame.Rect, frame: Frame, *, bg: Colour = BG,
                show_players: bool = True, min_clock: float = 285,
                compact: bool = False) -> None:
    """The break: title, countdown, the colour-up note, the level after the break."""
    cn = frame.cn
    assert cn is not None
    lang = frame.lang
    note = cn.level.get("note") or ""
    gap = c.px(6)
    specs = [(c.px(90), 1.0), (max(c.px(min_clock), c.need("time_left") + 4), 3.0),
             (c.px(80 if note else 10), 0.8), (c.px(44), 0.3)]
    show_players = show_players and not compact
    if show_players:
        specs.append((c.px(44), 0.4))
    rows = stack(rect, specs, gap)
    title_r = rows[0]
    status = None if cn.running else tr("paused", lang)
    bw = 0
    if status:
        bw = status_badge(c, title_r, status, BLACK, GOLD, bg).width + c.px(16)
    c.text(tr("break_title", lang), inset(pygame.Rect(title_r.x, title_r.y, title_r.width - bw,
                                                      title_r.height), 0, title_r.height // 10),
           colour=GOLD, bg=bg, box="ink")
    with c.key("time_left"):
        c.slot("clock", frame.values["clock"], rows[1], bg=bg)
    if note:
        c.runs([(f"{tr('colour_up', lang)}:", COND, rows[2].height * 5 // 10, DIM),
                (note, BOLD, rows[2].height * 7 // 10, GOLD)], rows[2], bg=bg, gap=c.px(20))
    nxt = cn.next_level
    if nxt is not None and not nxt.get("is_break"):
        c.text(f"{tr('next_level', lang)}: {i18n.level_line(nxt, lang)}", rows[3], face=COND,
               colour=FG, bg=bg)
    if show_players:
        c.text(players_text(frame.summary, lang), rows[4], face=COND, colour=DIM, bg=bg)


def fit_lines(c: Canvas, text: str, face: str, width: int, height: int,
              max_lines: int = 2, max_size: int | None = None) -> tuple[int, list[str]]:
    """The largest size at which ``text`` fits ``width`` × ``height`` on at most
    ``max_lines`` lines (broken at spaces), and the lines. One line wins while it is at
    least two thirds of the size two lines would allow."""
    one = c.fit_size(text, face, width, height, "line", max_size)
    best = (one, [text])
    for n in range(2, max_lines + 1):
        size = min(max_size or 10_000, height // n * 100 // 117)
        while size > 6:
            lines = c.wrap(text, face, size, width)
            font = c.fonts.get(face, size)
            if len(lines) <= n and all(font.size(ln)[0] <= width for ln in lines) \
                    and font.get_height() * len(lines) <= height:
                break
            size -= max(1, size // 30)
        if size * 2 > best[0] * 3:
            best = (size, c.wrap(text, face, size, width))
    return best


def draw_lines(c: Canvas, rect: pygame.Rect, lines: list[str], face: str, size: int,
               colour: Colour, bg: Colour, align: str = "center") -> None:
    """Lines of one size, centred in ``rect`` as a block."""
    lh = c.fonts.get(face, size).get_height()
    y = rect.centery - lh * len(lines) // 2
    for line in lines:
        c.draw_at(line, pygame.Rect(rect.x, y, rect.width, lh), face, size, colour, bg, align,
                  "line")
        y += lh


def champion_panel(c: Canvas, rect: pygame.Rect, frame: Frame, bg: Colour = BG) -> None:
    lang = frame.lang
    s = frame.summary
    rows = stack(rect, [(c.px(40), 1.0), (c.px(110), 1.4), (c.px(160), 2.2), (c.px(50), 0.6),
                        (c.px(40), 1.0)], c.px(10))
    c.text(tr("champion", lang), inset(rows[1], rect.width // 10, 0), colour=GOLD, bg=bg,
           box="ink", align="center")
    # a long name goes on two lines rather than being cut
    name_r = inset(rows[2], c.px(20), 0)
    size, lines = fit_lines(c, s.get("champion") or "?", BOLD, name_r.width, name_r.height)
    draw_lines(c, name_r, lines, BOLD, size, FG, bg)
    c.text(s.get("name") or tr("finished", lang), inset(rows[3], c.px(40), 0), face=COND,
           colour=DIM, bg=bg, align="center")


def waiting_panel(c: Canvas, rect: pygame.Rect, text: str, bg: Colour = BG) -> None:
    mid = pygame.Rect(rect.x, rect.centery - c.px(50), rect.width, c.px(100))
    c.text(text, inset(mid, c.px(40), 0), colour=DIM, bg=bg, align="center")


def problem_panel(c: Canvas, rect: pygame.Rect, what: str, todo: str,
                  bg: Colour = BG) -> None:
    """Why the screen has nothing to show (kiosk/problems.py): what is wrong, and below it
    what to do, each shrunk to fit its line."""
    top = pygame.Rect(rect.x, rect.centery - c.px(90), rect.width, c.px(80))
    below = pygame.Rect(rect.x, rect.centery + c.px(10), rect.width, c.px(60))
    c.text(what, inset(top, c.px(40), 0), colour=FG, bg=bg, align="center")
    if todo:
        c.text(todo, inset(below, c.px(40), 0), face=COND, colour=DIM, bg=bg, align="center")


def banner(c: Canvas, rect: pygame.Rect, text: str, fg: Colour, bg: Colour,
           sub: str = "", align: str = "center") -> None:
    """A coloured band with a big word and an optional smaller line."""
    c.fill(rect, bg, radius=max(4, rect.height // 10))
    inner = inset(rect, max(6, rect.height // 6), max(3, rect.height // 12))
    if sub:
        big, small = stack(inner, [(0, 2.2), (0, 1.0)], max(2, rect.height // 20))
        c.text(text, big, colour=fg, bg=bg, box="ink", align=align)
        c.text(sub, small, face=COND, colour=fg, bg=bg, align=align)
    else:
        c.text(text, inset(inner, 0, inner.height // 10), colour=fg, bg=bg, box="ink",
               align=align)


def fit_sentence(c: Canvas, rect: pygame.Rect, key: str, lang: str, name: str, *,
                 colour: Colour = FG, bg: Colour = BG, face: str = COND,
                 max_size: int | None = None, **kw: Any) -> None:
    """A sentence with a name in it: shrink it to fit, and if it is still too long cut the
    name (never the table and seat numbers)."""
    full = tr(key, lang, name=name, **kw)
    size = c.fit_size(full, face, rect.width, rect.height, "line", max_size)
    if size >= c.min_size:
        c.draw_at(full, rect, face, size, colour, bg, "left", "line")
        return
    size = c.min_size
    font = c.fonts.get(face, size)
    without = font.size(tr(key, lang, name="", **kw))[0]
    short = c.ellipsize(name, face, size, max(font.size("M…")[0], rect.width - without))
    text = tr(key, lang, name=short, **kw)
    text = c.ellipsize(text, face, size, rect.width)
    c.draw_at(text, rect, face, size, colour, bg, "left", "line")


def footer(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """The dealer's last press: feedback line, or the hold-to-confirm bar."""
    c.fill(rect, PANEL)
    view, lang = frame.view, frame.lang
    inner = inset(rect, c.px(24), max(3, rect.height // 7))
    if view.hold is not None:
        action, progress = view.hold
        label = tr(f"hold_{action}", lang) if f"hold_{action}" in i18n.LABELS else \
            f"{tr('hold', lang)}: {action}"
        if action == "bust" and racing(frame):  # the chip race: hold Bust = all they have
            label = tr("hold_race_short", lang)
        seat = view.selected_seat
        if seat is not None and action == "bust":
            label += f" · {tr('seat', lang)} {seat}"
        lw = min(inner.width // 2, c.fonts.get(BOLD, inner.height).size(label)[0] + c.px(10))
        lr, br = pygame.Rect(inner.x, inner.y, lw, inner.height), None
        c.text(label, lr, colour=GOLD, bg=PANEL)
        br = pygame.Rect(lr.right + c.px(20), inner.y + inner.height // 6,
                         max(10, inner.right - lr.right - c.px(20)), inner.height * 2 // 3)
        c.bar("hold", br, progress, GOLD, PANEL)
        return
    fb = frame.feedback
    if fb is None:
        tab = frame.table
        if tab is not None and tab.get("in_play", True) and frame.mode not in ("wait",
                                                                                "champion"):
            hints(c, inner, lang, race=racing(frame))
        return
    colour = {"sent": DIM, "accepted": GREEN, "rejected": RED, "info": GOLD}.get(fb.kind, FG)
    mark = pygame.Rect(inner.x, inner.y, max(6, inner.height // 3), inner.height)
    c.fill(mark, colour)
    text = fb.text or tr(f"fb_{fb.kind}", lang)
    with c.key("dealer"):
        c.text(text, pygame.Rect(mark.right + c.px(16), inner.y,
                                 inner.right - mark.right - c.px(16), inner.height),
               face=COND, colour=colour, bg=PANEL, min_size=c.need_size("dealer", COND))


def racing(frame: Frame) -> bool:
    """The table's chip race waits for the dealer's entry (the buttons enter chips)."""
    race = (frame.table or {}).get("chip_race") if frame.view.role == "table" else None
    # the director's colour-up in a playing level is entered by the director: the hands
    # go on with the table's buttons (002 "jederzeit")
    return race is not None and race.get("result") is None and (
        frame.mode == "break" or not race.get("called"))


def hints(c: Canvas, rect: pygame.Rect, lang: str, race: bool = False) -> None:
    """The dealer's reminder of the buttons: ``◀ ▶ seat   BUST hold   TIME   HAND DONE
    UNDO hold``; the words go before the buttons' names do when the bar is narrow.
    ``race``: what they do while the chip race is entered (``TIME +1 chip`` …)."""
    size = max(c.need_size("dealer", COND), min(c.px(34), rect.height * 7 // 10))
    hold = tr("hint_hold", lang)
    full = [("◀ ▶", tr("hint_seat", lang)), (tr("hint_bust", lang), hold),
            (tr("hint_time", lang), ""), (tr("hint_hand_done", lang), ""),
            (tr("hint_undo", lang), hold)]
    if race:
        full = [("◀ ▶", tr("hint_seat", lang)),
                (tr("hint_time", lang), tr("hint_race_chip", lang)),
                (tr("hint_bust", lang), f"{hold}: {tr('hint_race_short', lang)}"),
                (tr("hint_hand_done", lang), tr("hint_race_send", lang)),
                (tr("hint_undo", lang), hold)]
    gap = c.px(40)
    for words in (True, False):
        parts: list[tuple[str, str, int, Colour]] = []
        for name, word in full:
            parts.append((name, BOLD, size, GOLD))
            if words and word:
                parts.append((word, COND, size, DIM))
        small = c.fonts.get(COND, size).size(" ")[0]
        width = sum(c.fonts.get(f, s).size(t)[0] for t, f, s, _ in parts)
        width += gap * (len(full) - 1) + small * (len(parts) - len(full))
        if width <= rect.width or not words:
            break
    x = rect.x + max(0, (rect.width - width) // 2)
    with c.key("dealer"):
        for i, (t, f, s, colour) in enumerate(parts):
            w = c.fonts.get(f, s).size(t)[0]
            r = pygame.Rect(x, rect.y, w, rect.height)
            c.draw_at(t, r, f, s, colour, PANEL, "left", "line")
            nxt = parts[i + 1][1] if i + 1 < len(parts) else BOLD
            x += w + (small if nxt == COND else gap)


def live_moves(state: dict[str, dict[str, Any]],
               moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves still worth telling: the latest one per player, and only while the player
    really sits at the destination (a player who busted or was moved again since is
    dropped). A destination table whose payload is missing is trusted."""
    latest: dict[Any, dict[str, Any]] = {}
    order: list[Any] = []
    for m in moves:
        k = m.get("player_id", id(m))
        if k not in latest:
            order.append(k)
        latest[k] = m
    out = []
    for k in order:
        m = latest[k]
        to = m.get("to") or {}
        dest = state.get(f"table/{to.get('table')}")
        if dest and dest.get("in_play", True) and dest.get("seats") is not None:
            here = next((s for s in dest["seats"] if s.get("seat") == to.get("seat")), None)
            if here is None or here.get("player_id") != m.get("player_id"):
                continue
        elif dest and not dest.get("in_play", True):
            continue
        out.append(m)
    return out


def pages(n: int, per_page: int) -> int:
    return max(1, math.ceil(n / max(1, per_page)))
