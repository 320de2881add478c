"""Drawing primitives shared by the table and wall screens.

- :class:`Fonts`: the bundled DejaVu faces by size (pygame fonts are cached).
- :class:`TextCache`: an LRU of rendered text surfaces keyed by text, face,
  size and colours; each entry keeps the text's ink box (from the glyph
  metrics) so only the ink is blitted and recorded.
- :class:`Canvas`: one full layout: fills, text that shrinks and then
  ellipsizes to fit its box, and *slots*: time strings whose characters sit in
  fixed cells so that a new second redraws only the cells that changed.

Every text drawn is recorded in :attr:`Canvas.items` as ``(text, ink rect)``; the
texts drawn inside ``with canvas.key("blinds"):`` are also recorded in
:attr:`Canvas.keys` with their cap height, so a test can hold the things read from
a distance to their minimum sizes (:mod:`kiosk.screens.sizes`).
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import pygame

from controller import resources

FONT_DIR = resources.folder("fonts")
BOLD = "bold"  #: DejaVu Sans Bold: numbers, titles
COND = "cond"  #: DejaVu Sans Condensed Bold: names, sentences
FACES = {BOLD: "DejaVuSans-Bold.ttf", COND: "DejaVuSansCondensed-Bold.ttf"}

Colour = tuple[int, int, int]

# high contrast, light on dark
BG: Colour = (8, 10, 14)
PANEL: Colour = (22, 26, 34)
PANEL2: Colour = (30, 35, 45)
LINE: Colour = (60, 68, 84)
FG: Colour = (246, 246, 240)
DIM: Colour = (178, 186, 198)
GOLD: Colour = (255, 200, 40)
RED: Colour = (255, 72, 60)
GREEN: Colour = (70, 215, 100)
BLUE: Colour = (110, 180, 255)
BLACK: Colour = (0, 0, 0)
SELECT: Colour = (70, 62, 14)
DARKRED: Colour = (96, 16, 16)
DARKGREEN: Colour = (14, 70, 30)
DARKGOLD: Colour = (88, 66, 0)

ELLIPSIS = "…"


def printable(text: str) -> str:
    """``text`` as a font can draw it: without controls, format characters (a BOM, zero
    width joiners) and lone surrogates, other white space as a plain space. Whatever a
    broker delivers, a screen shows what it can instead of crashing (issue 11.5: a NUL
    raised "A null character was found in the text", a lone BOM "Text has zero width")."""
    if text.isprintable():  # the usual case, at C speed
        return text
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs"):
            if ch.isspace():
                out.append(" ")
        else:
            out.append(" " if cat[0] == "Z" else ch)
    return "".join(out)


class SafeFont(pygame.font.Font):
    """A pygame font that draws and measures any text (:func:`printable`); text that
    still has no width (only combining marks, say) is drawn as a space."""

    #: sizes kept a font (a layout asks the same names' widths again and again)
    KEPT = 4096
    _sizes: dict[str | bytes, tuple[int, int]]

    def size(self, text: str | bytes) -> tuple[int, int]:  # type: ignore[override]
        try:
            kept = self._sizes
        except AttributeError:
            kept = self._sizes = {}  # pygame's Font has no __init__ to extend safely
        got = kept.get(text)
        if got is None:
            got = super().size(printable(text) if isinstance(text, str) else text)
            if len(kept) >= self.KEPT:
                kept.clear()
            kept[text] = got
        return got

    def metrics(self, text: str | bytes) -> list:  # type: ignore[override]
        return super().metrics(printable(text) if isinstance(text, str) else text)

    def render(self, text: str | bytes | None, antialias: bool, color: object,  # type: ignore[override]
               background: object = None) -> pygame.Surface:
        clean = printable(text) if isinstance(text, str) else text
        try:
            return super().render(clean or " ", antialias, color, background)  # type: ignore[arg-type]
        except (pygame.error, ValueError):  # "Text has zero width"
            return super().render(" ", antialias, color, background)  # type: ignore[arg-type]


class Fonts:
    """pygame fonts of the bundled faces, cached by (face, size), and what a layout
    measures with them — a text's advance width, its ink box — kept between layouts: a
    table screen's layout measured the same names and numbers some 160 times, more than
    half its time (issue 32.1)."""

    #: measurements kept before the oldest are forgotten (all of them: a new night)
    MEASURES = 50_000

    def __init__(self, limit: int = 96) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: OrderedDict[tuple[str, int], pygame.font.Font] = OrderedDict()
        self._limit = limit
        self._widths: dict[tuple[str, int, str], int] = {}
        self._inks: dict[tuple[str, int, str], pygame.Rect] = {}
        self.opened = 0  #: fonts opened (a face at a size: its glyphs load at first use)
        self.measured = 0  #: texts measured at a size (not kept from before)

    def width(self, face: str, size: int, text: str) -> int:
        """The advance width of ``text`` (``font.size(text)[0]``)."""
        key = (face, size, text)
        w = self._widths.get(key)
        if w is None:
            self.measured += 1
            w = self.get(face, size).size(text)[0]
            if len(self._widths) >= self.MEASURES:
                self._widths.clear()
            self._widths[key] = w
        return w

    def ink(self, face: str, size: int, text: str) -> pygame.Rect:
        """The ink box of ``text`` (:func:`ink_box`), a copy of the one kept."""
        key = (face, size, text)
        r = self._inks.get(key)
        if r is None:
            self.measured += 1
            r = ink_box(self.get(face, size), text)
            if len(self._inks) >= self.MEASURES:
                self._inks.clear()
            self._inks[key] = r
        return pygame.Rect(r)

    def get(self, face: str, size: int) -> pygame.font.Font:
        size = max(6, int(size))
        key = (face, size)
        f = self._fonts.get(key)
        if f is None:
            f = SafeFont(str(FONT_DIR / FACES[face]), size)
            self.opened += 1
            self._fonts[key] = f
            if len(self._fonts) > self._limit:
                self._fonts.popitem(last=False)
        else:
            self._fonts.move_to_end(key)
        return f


def ink_box(font: pygame.font.Font, text: str) -> pygame.Rect:
    """The rectangle the glyphs of ``text`` cover, relative to the rendered surface."""
    metrics = font.metrics(text) or []
    asc = font.get_ascent()
    x = 0
    left, right, top, bottom = None, 0, None, 0
    for m in metrics:
        if m is None:
            m = (0, 0, 0, 0, 0)
        minx, maxx, miny, maxy, adv = m
        if maxx > minx or maxy > miny:
            lx, rx = x + minx, x + maxx
            left = lx if left is None else min(left, lx)
            right = max(right, rx)
            ty, by = asc - maxy, asc - miny
            top = ty if top is None else min(top, ty)
            bottom = max(bottom, by)
        x += adv
    if left is None or top is None:
        return pygame.Rect(0, 0, 0, 0)
    return pygame.Rect(left, top, max(1, right - left), max(1, bottom - top))


class TextCache:
    """LRU of rendered text: (text, face, size, fg, bg) → (surface, ink box).

    Text is rendered on its background colour (an opaque surface: the fastest
    blit on a Pi) and only its ink box is blitted.
    """

    def __init__(self, fonts: Fonts, limit: int = 600) -> None:
        self.fonts = fonts
        self.limit = limit
        self._cache: OrderedDict[tuple, tuple[pygame.Surface, pygame.Rect]] = OrderedDict()
        self.hits = 0
        self.misses = 0
        #: the largest text surface kept (bytes; None: every one): a warm-up
        #: (kiosk/warmup.py) keeps the small texts, not the made-up clock's big digits
        self.keep: int | None = None

    def get(self, text: str, face: str, size: int, fg: Colour,
            bg: Colour) -> tuple[pygame.Surface, pygame.Rect]:
        key = (text, face, size, fg, bg)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            self.hits += 1
            return hit
        self.misses += 1
        font = self.fonts.get(face, size)
        surf = font.render(text, True, fg, bg).convert() if pygame.display.get_surface() \
            else font.render(text, True, fg, bg)
        ink = self.fonts.ink(face, size, text).clip(surf.get_rect())
        if self.keep is not None and surf.get_width() * surf.get_height() * \
                surf.get_bytesize() > self.keep:
            return surf, ink
        self._cache[key] = (surf, ink)
        while len(self._cache) > max(1, self.limit):
            self._cache.popitem(last=False)
        return surf, ink

    def __len__(self) -> int:
        return len(self._cache)


@dataclass
class Slot:
    """A time string drawn in fixed character cells (tabular digits).

    ``cells[i]`` is the screen rect of character ``i`` (its advance width ×
    the ink height of the digits); a new value redraws only changed cells.
    """

    name: str
    face: str
    size: int
    template: str
    cells: list[pygame.Rect]
    origin: tuple[int, int]  #: where the text surface's top-left would be
    bg: Colour
    item: int  #: index of this slot's entry in Canvas.items
    chars: list[tuple[str, Colour]] = field(default_factory=list)

    @property
    def rect(self) -> pygame.Rect:
        return self.cells[0].unionall(self.cells[1:]) if self.cells else pygame.Rect(0, 0, 0, 0)


@dataclass
class Bar:
    """A progress bar (hold-to-confirm) redrawn on its own."""

    name: str
    rect: pygame.Rect
    colour: Colour
    bg: Colour
    value: float = -1.0


def template_of(text: str) -> str:
    """The shape of a time string: every digit becomes ``0``."""
    return "".join("0" if c.isdigit() else c for c in text)


@dataclass(frozen=True)
class KeyItem:
    """A text that must be read from a distance: what it is (``kind``), where, and the
    height of its capitals in pixels (``cap``: the ink of "H" at the size it was drawn)."""

    kind: str
    text: str
    rect: pygame.Rect
    cap: int


class Canvas:
    """One full layout on ``surface``: draws and records every text."""

    def __init__(self, surface: pygame.Surface, fonts: Fonts, cache: TextCache,
                 unit: float, min_size: int, role: str = "table") -> None:
        self.surface = surface
        #: what this layout paints, in order: (key, rect, kind, a, b); see :meth:`paint`
        self.ops: list[tuple] = []
        self.role = role  #: "table" or "wall": who reads it from how far (sizes.py)
        #: pages of the part of the layout that pages (the wall's seating, a table's moves)
        self.pages = 1
        self.fonts = fonts
        self.cache = cache
        self.u = unit  #: pixels per "1080p pixel"
        self.min_size = min_size
        self.items: list[tuple[str, pygame.Rect]] = []
        self.slots: dict[str, Slot] = {}
        self.bars: dict[str, Bar] = {}
        #: the key items of this layout (see :meth:`key`)
        self.keys: list[KeyItem] = []
        self._kind: str | None = None

    @contextmanager
    def key(self, kind: str) -> Iterator[None]:
        """Record every text drawn inside the block as a key item of ``kind``."""
        before, self._kind = self._kind, kind
        try:
            yield
        finally:
            self._kind = before

    def _record_key(self, text: str, rect: pygame.Rect, face: str, size: int) -> None:
        if self._kind is not None:
            cap = self.fonts.ink(face, size, "H").height
            self.keys.append(KeyItem(self._kind, text, rect.copy(), cap))

    # -- sizes -------------------------------------------------------------
    def px(self, v: float) -> int:
        return max(1, round(v * self.u))

    def need(self, kind: str) -> int:
        """The smallest cap height in pixels of a key item of ``kind`` on this screen."""
        from kiosk.screens import sizes

        return sizes.minimum(kind, self.role, self.surface.get_size())

    def need_size(self, kind: str, face: str = BOLD) -> int:
        """The smallest font size of a key item of ``kind`` (its caps reach :meth:`need`)."""
        cap = self.need(kind)
        size = max(6, round(cap / 0.72))
        while self.fonts.ink(face, size, "H").height < cap:
            size += 1
        return size

    def wrap(self, text: str, face: str, size: int, width: int,
             first: int | None = None) -> list[str]:
        """``text`` broken into lines at spaces and after hyphens so that each is at most
        ``width`` wide, the first line ``first`` wide when given (room beside something);
        a single word wider than that stays whole on its line."""
        words: list[str] = []
        for word in text.split(" "):
            parts = word.split("-")
            words += [p + "-" for p in parts[:-1]] + [parts[-1]]
        lines: list[str] = []
        line = ""
        for word in words:
            glue = "" if line.endswith("-") or not line else " "
            cand = line + glue + word
            room = first if first is not None and not lines else width
            if line and self.fonts.width(face, size, cand) > room:
                lines.append(line)
                line = word
            else:
                line = cand
        if line:
            lines.append(line)
        return lines

    # -- painting ------------------------------------------------------------
    # A layout records what it paints (:attr:`ops`) and :meth:`paint` paints it: the
    # whole list on a new screen, else only where it differs from the layout before
    # (:meth:`changes`) — a press's answer repaints its line and the seat's row, not
    # 1920×1080 pixels (issue 32.1). Every op paints inside its rect only, so the ops
    # that meet a rect, in their order, paint exactly the pixels a whole layout paints.
    def _op(self, key: tuple | None, rect: pygame.Rect, kind: str, a: object = None,
            b: object = None) -> None:
        """``key``: what makes two ops paint the same (``None``: a slot or a bar, which
        change between layouts: their key is taken when it is compared, :func:`_key`)."""
        self.ops.append((key, rect, kind, a, b))

    def paint(self, rects: Sequence[pygame.Rect] | None = None) -> None:
        """Paint the ops: all of them (``rects`` None), or those that meet each of
        ``rects``, clipped to it."""
        surface = self.surface
        if rects is None:
            for op in self.ops:
                _paint(surface, op)
            return
        clip = surface.get_clip()
        try:
            for r in rects:
                surface.set_clip(r)
                for op in self.ops:
                    if r.colliderect(op[1]):
                        _paint(surface, op)
        finally:
            surface.set_clip(clip)

    def changes(self, before: Canvas) -> list[pygame.Rect] | None:
        """Where this layout paints differently from ``before`` (painted on the same
        surface): the rects of the ops only one of them has; ``None`` when the ops both
        have are not in the same order (paint everything)."""
        old = [_key(op) for op in before.ops]  # a slot as it shows now, after its ticks
        new = [_key(op) for op in self.ops]
        both = set(old) & set(new)
        if [k for k in old if k in both] != [k for k in new if k in both]:
            return None
        dirty = [op[1] for op, k in zip(before.ops, old, strict=True) if k not in both]
        dirty += [op[1] for op, k in zip(self.ops, new, strict=True) if k not in both]
        return merged(dirty, self.surface.get_rect())

    # -- shapes ------------------------------------------------------------
    def fill(self, rect: pygame.Rect | tuple[int, int, int, int], colour: Colour,
             radius: int = 0) -> None:
        r = pygame.Rect(rect)
        self._op(("fill", tuple(r), colour, radius), r, "fill", colour, radius)

    def frame(self, rect: pygame.Rect, colour: Colour, width: int, radius: int = 0) -> None:
        r = pygame.Rect(rect)
        self._op(("frame", tuple(r), colour, width, radius), r, "frame", colour,
                 (width, radius))

    def ellipse(self, rect: pygame.Rect, colour: Colour) -> None:
        r = pygame.Rect(rect)
        self._op(("ellipse", tuple(r), colour), r, "ellipse", colour)

    # -- text --------------------------------------------------------------
    def measure(self, text: str, face: str, size: int) -> tuple[int, pygame.Rect]:
        """(advance width, ink box) of ``text``."""
        return self.fonts.width(face, size, text), self.fonts.ink(face, size, text)

    def fit_size(self, text: str, face: str, width: int, height: int, box: str = "line",
                 max_size: int | None = None) -> int:
        """The largest size at which ``text`` fits ``width`` × ``height``.

        ``box="line"``: the font's line height fits; ``"ink"``: the text's own ink fits.
        """
        ref = 100
        adv, ink = self.measure(text, face, ref)
        h_ref = ink.height if box == "ink" else self.fonts.get(face, ref).get_height()
        w_ref = max(adv, ink.right) if box == "line" else max(1, ink.width)
        size = int(ref * height / max(1, h_ref))
        if w_ref:
            size = min(size, int(ref * width / w_ref))
        if max_size is not None:
            size = min(size, max_size)
        size = max(6, size)
        # the hinted metrics are not exactly linear: step down until it really fits
        for _ in range(40):
            a, k = self.measure(text, face, size)
            f = self.fonts.get(face, size)
            h = k.height if box == "ink" else f.get_height()
            w = max(a, k.right) if box == "line" else k.width
            if (w <= width and h <= height) or size <= 6:
                break
            size -= 1 if size < 40 else max(1, size // 30)
        return size

    def ellipsize(self, text: str, face: str, size: int, width: int) -> str:
        """``text`` cut with … so that it is at most ``width`` wide."""
        width_of = self.fonts.width
        if width_of(face, size, text) <= width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if width_of(face, size, text[:mid].rstrip() + ELLIPSIS) <= width:
                lo = mid
            else:
                hi = mid - 1
        return (text[:lo].rstrip() + ELLIPSIS) if lo else ELLIPSIS

    def text(self, text: str, rect: pygame.Rect, *, face: str = BOLD, colour: Colour = FG,
             bg: Colour = BG, align: str = "left", box: str = "line",
             max_size: int | None = None, min_size: int | None = None,
             size: int | None = None) -> pygame.Rect | None:
        """Draw ``text`` as large as fits ``rect`` (at most ``max_size``).

        Below ``min_size`` the text is cut with an ellipsis instead of shrinking
        further. ``box="ink"`` fills the rect with the text's ink (big numbers
        and titles); ``"line"`` keeps the font's line box (lists, sentences).
        Returns the ink rect drawn (also recorded in :attr:`items`).
        """
        if not text or rect.width <= 0 or rect.height <= 0:
            return None
        lo = self.min_size if min_size is None else min_size
        if size is None:
            size = self.fit_size(text, face, rect.width, rect.height, box, max_size)
        if size < lo:
            size = lo
        adv, ink = self.measure(text, face, size)
        if (ink.width if box == "ink" else max(adv, ink.right)) > rect.width:
            text = self.ellipsize(text, face, size, rect.width)
        return self.draw_at(text, rect, face, size, colour, bg, align, box)

    def draw_at(self, text: str, rect: pygame.Rect, face: str, size: int, colour: Colour,
                bg: Colour, align: str = "left", box: str = "line") -> pygame.Rect:
        surf, ink = self.cache.get(text, face, size, colour, bg)
        font = self.fonts.get(face, size)
        adv = self.fonts.width(face, size, text)
        if box == "ink":
            w = ink.width
            x0 = {"left": rect.x, "center": rect.centerx - w // 2,
                  "right": rect.right - w}[align] - ink.x
            y0 = rect.centery - ink.height // 2 - ink.y
        else:
            x0 = {"left": rect.x, "center": rect.centerx - adv // 2,
                  "right": rect.right - adv}[align]
            y0 = rect.centery - font.get_height() // 2
        dest = ink.move(x0, y0)
        self._op(("text", tuple(dest), text, face, size, colour, bg), dest, "blit", surf, ink)
        self.items.append((text, dest))
        self._record_key(text, dest, face, size)
        return dest

    def runs(self, parts: Sequence[tuple[str, str, int, Colour]], rect: pygame.Rect,
             bg: Colour = BG, align: str = "left", gap: int = 0) -> list[pygame.Rect]:
        """Texts of different sizes side by side on one baseline, shrunk together to fit.

        ``parts``: (text, face, size, colour). Below the minimum size the
        longest part is cut with an ellipsis.
        """
        parts = [p for p in parts if p[0]]
        if not parts:
            return []

        def measure(scale: float) -> tuple[list, list[int], int, int]:
            sized = [(t, f, max(self.min_size, int(s * scale)), c) for t, f, s, c in parts]
            widths = [self.fonts.width(f, s, t) for t, f, s, _ in sized]
            total = sum(widths) + gap * (len(sized) - 1)
            height = max(self.fonts.get(f, s).get_height() for _, f, s, _ in sized)
            return sized, widths, total, height

        scale = 1.0
        sized, widths, total, height = measure(scale)
        for _ in range(60):
            if total <= rect.width and height <= rect.height:
                break
            if all(s <= self.min_size for _, _, s, _ in sized):
                break
            scale *= 0.95
            sized, widths, total, height = measure(scale)
        if total > rect.width:
            i = max(range(len(sized)), key=lambda k: widths[k])
            t, f, s, c = sized[i]
            sized[i] = (self.ellipsize(t, f, s, max(1, widths[i] - (total - rect.width))),
                        f, s, c)
            widths[i] = self.fonts.width(f, s, sized[i][0])
            total = sum(widths) + gap * (len(sized) - 1)
        asc = max(self.fonts.get(f, s).get_ascent() for _, f, s, _ in sized)
        top = rect.centery - height // 2
        x = {"left": rect.x, "center": rect.centerx - total // 2,
             "right": rect.right - total}[align]
        out = []
        for (t, f, s, c), w in zip(sized, widths, strict=True):
            font = self.fonts.get(f, s)
            y = top + asc - font.get_ascent()
            r = pygame.Rect(x, y, w, font.get_height())
            out.append(self.draw_at(t, r, f, s, c, bg, "left", "line"))
            x += w + gap
        return out

    # -- slots -------------------------------------------------------------
    def slot(self, name: str, value: tuple[str, Colour], rect: pygame.Rect, *,
             face: str = BOLD, bg: Colour = BG, align: str = "center",
             max_ink: int | None = None, size: int | None = None,
             valign: str = "ink") -> Slot:
        """A time string in fixed cells, as large as fits ``rect`` (digit ink ≤ ``max_ink``)."""
        text, colour = value
        template = template_of(text)
        probe = "0123456789:" + template
        fonts = self.fonts
        if size is None:
            ref = 100
            ink = fonts.ink(face, ref, probe)
            adv = fonts.width(face, ref, template)
            h = min(rect.height, max_ink or rect.height)
            size = int(ref * min(h / max(1, ink.height), rect.width / max(1, adv)))
            for _ in range(40):
                ink = fonts.ink(face, size, probe)
                if (fonts.width(face, size, template) <= rect.width and ink.height <= h) \
                        or size <= 6:
                    break
                size -= max(1, size // 40)
        font = fonts.get(face, size)
        ink = fonts.ink(face, size, probe)
        adv = fonts.width(face, size, template)
        x0 = {"left": rect.x, "center": rect.centerx - adv // 2,
              "right": rect.right - adv}[align]
        if valign == "line":
            y0 = rect.centery - font.get_height() // 2
        else:
            y0 = rect.centery - ink.height // 2 - ink.y
        cells = []
        for i in range(len(template)):
            a = fonts.width(face, size, template[:i])
            b = fonts.width(face, size, template[: i + 1])
            cells.append(pygame.Rect(x0 + a, y0 + ink.y, b - a, ink.height))
        s = Slot(name, face, size, template, cells, (x0, y0), bg, len(self.items))
        self.items.append((text, s.rect))
        self._record_key(text, s.rect, face, size)
        self.slots[name] = s
        s.chars = [(ch, colour) for ch in text][: len(cells)]
        self._op(None, s.rect, "slot", s, self.cache)
        return s

    def update_slot(self, s: Slot, value: tuple[str, Colour]) -> pygame.Rect | None:
        """Redraw the changed cells of ``s``; returns their union (``None``: nothing changed)."""
        text, colour = value
        dirty: list[pygame.Rect] = []
        new = [(c, colour) for c in text]
        for i, cell in enumerate(s.cells):
            ch = new[i] if i < len(new) else (" ", colour)
            if i < len(s.chars) and s.chars[i] == ch:
                continue
            self.surface.fill(s.bg, cell)
            if ch[0].strip():
                surf, _ = self.cache.get(ch[0], s.face, s.size, ch[1], s.bg)
                area = pygame.Rect(0, cell.y - s.origin[1], cell.width, cell.height)
                self.surface.blit(surf, cell.topleft, area=area)
            dirty.append(cell)
        s.chars = new[: len(s.cells)]
        self.items[s.item] = (text, s.rect)
        return dirty[0].unionall(dirty[1:]) if dirty else None

    # -- bars --------------------------------------------------------------
    def bar(self, name: str, rect: pygame.Rect, value: float, colour: Colour,
            bg: Colour) -> Bar:
        b = Bar(name, rect, colour, bg, max(0.0, min(1.0, value)))
        self.bars[name] = b
        self._op(None, b.rect, "bar", b)
        return b

    def update_bar(self, b: Bar, value: float) -> pygame.Rect | None:
        value = max(0.0, min(1.0, value))
        if abs(value - b.value) < 1e-4:
            return None
        b.value = value
        _paint_bar(self.surface, b)
        return b.rect.copy()


def _key(op: tuple) -> tuple:
    """What makes two ops paint the same pixels; a slot's and a bar's as they are now."""
    key, rect, kind, a, _ = op
    if key is not None:
        return key
    if kind == "slot":
        return ("slot", tuple(rect), a.face, a.size, a.bg, a.origin,
                tuple(tuple(c) for c in a.cells), tuple(a.chars))
    return ("bar", tuple(rect), a.colour, a.bg, a.value)


def _paint(surface: pygame.Surface, op: tuple) -> None:
    """Paint one op of :attr:`Canvas.ops`."""
    _, rect, kind, a, b = op
    if kind == "blit":
        surface.blit(a, rect.topleft, area=b)
    elif kind == "fill":
        if b:
            pygame.draw.rect(surface, a, rect, border_radius=b)
        else:
            surface.fill(a, rect)
    elif kind == "frame":
        pygame.draw.rect(surface, a, rect, b[0], border_radius=b[1])
    elif kind == "ellipse":
        pygame.draw.ellipse(surface, a, rect)
    elif kind == "slot":
        _paint_slot(surface, a, b)
    elif kind == "bar":
        _paint_bar(surface, a)


def _paint_slot(surface: pygame.Surface, s: Slot, cache: TextCache) -> None:
    surface.fill(s.bg, s.rect)
    for cell, (ch, colour) in zip(s.cells, s.chars, strict=False):
        if ch.strip():
            surf, _ = cache.get(ch, s.face, s.size, colour, s.bg)
            area = pygame.Rect(0, cell.y - s.origin[1], cell.width, cell.height)
            surface.blit(surf, cell.topleft, area=area)


def _paint_bar(surface: pygame.Surface, b: Bar) -> None:
    surface.fill(b.bg, b.rect)
    w = round(b.rect.width * b.value)
    if w:
        surface.fill(b.colour, pygame.Rect(b.rect.x, b.rect.y, w, b.rect.height))
    pygame.draw.rect(surface, b.colour, b.rect, max(1, b.rect.height // 8))


#: more dirty rects than this are painted as their union (each rect walks every op)
MAX_DIRTY = 12


def merged(rects: Sequence[pygame.Rect], within: pygame.Rect) -> list[pygame.Rect]:
    """``rects`` clipped to ``within``, the overlapping ones joined, empty ones dropped; their
    union when more than :data:`MAX_DIRTY` remain."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = r.clip(within)
        if not r.width or not r.height:
            continue
        joined = True
        while joined:
            joined = False
            for i, o in enumerate(out):
                if o.colliderect(r):
                    r = r.union(out.pop(i))
                    joined = True
                    break
        out.append(r)
    if len(out) > MAX_DIRTY:
        return [out[0].unionall(out[1:])]
    return out


# -- rectangles -------------------------------------------------------------
def inset(rect: pygame.Rect, dx: int, dy: int | None = None) -> pygame.Rect:
    dy = dx if dy is None else dy
    return pygame.Rect(rect.x + dx, rect.y + dy, max(0, rect.width - 2 * dx),
                       max(0, rect.height - 2 * dy))


def stack(rect: pygame.Rect, specs: Sequence[tuple[float, float]], gap: int = 0,
          vertical: bool = True) -> list[pygame.Rect]:
    """Split ``rect`` into rows (or columns): each spec is (minimum px, weight of the rest).

    When the minimums do not fit they are scaled down together.
    """
    total = rect.height if vertical else rect.width
    avail = total - gap * max(0, len(specs) - 1)
    mins = [m for m, _ in specs]
    need = sum(mins)
    if need > avail and need > 0:
        mins = [m * avail / need for m in mins]
        extra = 0.0
    else:
        extra = avail - need
    weights = sum(w for _, w in specs) or 1.0
    sizes = [m + extra * w / weights for m, (_, w) in zip(mins, specs, strict=True)]
    out = []
    pos = float(rect.y if vertical else rect.x)
    for s in sizes:
        a, b = round(pos), round(pos + s)
        if vertical:
            out.append(pygame.Rect(rect.x, a, rect.width, b - a))
        else:
            out.append(pygame.Rect(a, rect.y, b - a, rect.height))
        pos += s + gap
    return out


def split_h(rect: pygame.Rect, at: int, gap: int = 0) -> tuple[pygame.Rect, pygame.Rect]:
    """Left part of width ``at``, right part the rest after ``gap``."""
    left = pygame.Rect(rect.x, rect.y, at, rect.height)
    right = pygame.Rect(rect.x + at + gap, rect.y, max(0, rect.width - at - gap), rect.height)
    return left, right


Draw = Callable[[Canvas, pygame.Rect], None]
