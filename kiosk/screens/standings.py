"""The club's season standings on the wall (``state/standings``, docs/club.md): between
tournaments (before the start, in place of the structure) and after the last hand
(beside the results). Names as public lists show them (000 5.8: non-members
shortened); what does not fit is counted ("+12 more")."""

from __future__ import annotations

import pygame

from controller.wire import i18n
from controller.wire.i18n import tr
from kiosk.screens.common import Frame
from kiosk.screens.widgets import BOLD, COND, DIM, FG, GOLD, PANEL, Canvas, inset

__all__ = ["draw", "shown"]


def shown(frame: Frame) -> bool:
    """Whether the wall has standings to show (a controller with a club database)."""
    return bool((frame.state.get("standings") or {}).get("rows"))


def draw(c: Canvas, rect: pygame.Rect, frame: Frame) -> None:
    """The standings panel: "Standings 2026", then place, name, points a line."""
    lang = frame.lang
    st = frame.state.get("standings") or {}
    rows = st.get("rows") or []
    c.fill(rect, PANEL, radius=c.px(12))
    inner = inset(rect, c.px(20), c.px(12))
    title_h = max(c.min_size + 8, min(c.px(54), inner.height // 4))
    c.text(tr("standings", lang, season=st.get("season", "")),
           pygame.Rect(inner.x, inner.y, inner.width, title_h), colour=GOLD, bg=PANEL,
           max_size=round(title_h * 0.75))
    area = pygame.Rect(inner.x, inner.y + title_h + c.px(4), inner.width,
                       inner.height - title_h - c.px(4))
    lh = max(c.min_size + 8, min(c.px(46), area.height // 3))
    leaders = st.get("championship") or []
    if leaders and area.height >= 3 * lh:
        # 000 5.2: the championship is a list of its own: its leaders on the last line
        area.height -= lh
        _championship(c, pygame.Rect(area.x, area.bottom, area.width, lh), leaders, lang,
                      max(c.min_size, round(lh * 0.55)))
    size = max(c.min_size, round(lh * 0.62))
    fit = max(1, area.height // lh)
    lines = rows if len(rows) <= fit else rows[: fit - 1]
    num_w = c.fonts.get(BOLD, size).size("00.")[0] + c.px(6)
    pts_w = max((c.fonts.get(BOLD, size).size(i18n.points(r.get("points", 0), lang))[0]
                 for r in lines), default=0)
    for i, r in enumerate(lines):
        line = pygame.Rect(area.x, area.y + i * lh, area.width, lh)
        c.text(f"{r.get('place', '?')}.", pygame.Rect(line.x, line.y, num_w, lh), colour=DIM,
               bg=PANEL, align="right", size=size)
        c.text(i18n.points(r.get("points", 0), lang),
               pygame.Rect(line.right - pts_w, line.y, pts_w, lh), colour=GOLD, bg=PANEL,
               align="right", size=size)
        name_x = line.x + num_w + c.px(12)
        c.text(r.get("name") or "?", pygame.Rect(name_x, line.y, line.right - pts_w - c.px(12)
                                                 - name_x, lh),
               face=COND, colour=FG, bg=PANEL, max_size=size)
    if len(lines) < len(rows):
        c.text(tr("more", lang, n=len(rows) - len(lines)),
               pygame.Rect(area.x + num_w + c.px(12), area.y + len(lines) * lh,
                           area.width - num_w, lh), colour=DIM, bg=PANEL, size=size)


def _championship(c: Canvas, line: pygame.Rect, leaders: list[dict], lang: str,
                  size: int) -> None:
    """"Championship: 1. Anna Berg 48 · 2. Bert Cox 11 · …" (000 5.2, 6: knock-out points)."""
    parts = [f"{r.get('place', '?')}. {r.get('name') or '?'} "
             f"{i18n.num(r.get('points', 0), lang)}" for r in leaders]
    font = c.fonts.get(COND, size)
    # as many leaders as fit whole (the first one always, shrunk if need be)
    k = len(parts)
    while k > 1 and font.size(f"{tr('championship', lang)}: " + " · ".join(parts[:k]))[0] \
            > line.width:
        k -= 1
    c.text(f"{tr('championship', lang)}: " + " · ".join(parts[:k]), line, face=COND,
           colour=GOLD, bg=PANEL, max_size=size)
