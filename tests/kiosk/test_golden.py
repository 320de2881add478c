"""Golden images: every screenshot moment, drawn now, against its approved image in
docs/screens/ (the gallery). A change in what is drawn fails until it is approved with
``scripts/approve-screens`` (``python -m controller.night.shots --approve``).

The moments have a fixed controller time and a fixed monotonic clock (controller.night.shots.MONO):
nothing here reads the wall clock. The fonts are the bundled DejaVu faces. The tolerance
(controller.night.shots.difference) absorbs antialiasing and gamma, not a changed character.
"""

from __future__ import annotations

import pygame
import pytest

from controller.night import shots


def approved(name: str, lang: str, size: tuple[int, int]) -> pygame.Surface:
    path = shots.GALLERY / shots.shot_name(name, lang, size)
    assert path.exists(), f"{path.name} is not approved yet: run scripts/approve-screens"
    return pygame.image.load(str(path)).convert(24)


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", shots.LANGUAGES)
@pytest.mark.parametrize("name", list(shots.MOMENTS))
def test_moment_matches_its_approved_image(name, lang, size, tmp_path):
    now = shots.stored(shots.shoot(name, lang, size))
    diff = shots.difference(now, approved(name, lang, size))
    if diff > shots.PIXEL_TOLERANCE:
        shots.save_png(now, tmp_path / shots.shot_name(name, lang, size))
    assert diff <= shots.PIXEL_TOLERANCE, (
        f"{name} ({lang}, {size[0]}×{size[1]}) differs from its approved image in {diff} "
        f"pixels; drawn now: {tmp_path}. If the change is meant: scripts/approve-screens")


def test_gallery_page_lists_every_approved_image():
    page = shots.GALLERY_PAGE.read_text(encoding="utf-8")
    assert page == shots.gallery_page() + "\n", "docs/gallery.md: run scripts/approve-screens"
    files = {p.name for p in shots.GALLERY.glob("*.png")}
    assert files == {shots.shot_name(n, lang, s) for n, lang, s in shots.jobs()}


def _gamma(surface: pygame.Surface, g: float) -> pygame.Surface:
    table = bytes(round(255 * (v / 255) ** g) for v in range(256))
    raw = pygame.image.tobytes(surface, "RGB").translate(table)
    return pygame.image.frombytes(raw, surface.get_size(), "RGB")


@pytest.mark.parametrize("size", shots.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_tolerance_absorbs_antialiasing_but_catches_one_changed_character(size):
    view = shots.moment("table_feedback_accepted")
    from kiosk.render import Renderer

    def draw(v):
        surface = pygame.Surface(size)
        Renderer(size, monotonic=lambda: shots.MONO).draw(surface, v)
        return shots.stored(surface)

    base = draw(view)
    # another font renderer's antialiasing: edge pixels lighter or darker (gamma 0.8-1.25)
    for g in (0.8, 1.25):
        assert shots.difference(base, _gamma(base, g)) <= shots.PIXEL_TOLERANCE
    # the stored file's 16 levels a channel
    assert shots.difference(base, _palette_round_trip(base)) <= shots.PIXEL_TOLERANCE
    # one character of the smallest text (the feedback line): 27th → 26th
    changed = shots.moment("table_feedback_accepted")
    assert changed.feedback is not None
    changed.feedback.text = changed.feedback.text.replace("27th", "26th")
    assert shots.difference(base, draw(changed)) > shots.PIXEL_TOLERANCE
    # one letter of a seat's name: Wolf → Wolff
    other = shots.moment("table_feedback_accepted")
    other.state["table/1"]["seats"][3]["name"] += "f"
    assert shots.difference(base, draw(other)) > shots.PIXEL_TOLERANCE


def _palette_round_trip(surface: pygame.Surface) -> pygame.Surface:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "x.png"
        shots.save_png(surface, path)
        return pygame.image.load(str(path)).convert(24)


def test_moments_do_not_read_the_wall_clock(monkeypatch):
    """The same picture whatever the time of day: time.time and time.monotonic are not
    asked (the moments carry their own ``now``; the renderer gets MONO)."""
    import time

    first = shots.stored(shots.shoot("table_running", "en", (800, 480)))

    def boom() -> float:
        raise AssertionError("the wall clock was read")
    monkeypatch.setattr(time, "time", boom)
    monkeypatch.setattr(time, "monotonic", boom)
    again = shots.stored(shots.shoot("table_running", "en", (800, 480)))
    assert shots.difference(first, again) == 0
