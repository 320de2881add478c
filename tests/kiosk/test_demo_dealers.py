"""The demo's simulated dealers (controller/night/demo.py): no hands, so no busts, while the clock
shows a break (issue 16 point 7)."""

from __future__ import annotations

from typing import Any

from controller.night import demo, shots


class FakeLink:
    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.presses: list[tuple[str, dict[str, Any]]] = []

    def pending(self) -> bool:
        return False

    def press(self, action: str, **fields: Any) -> str:
        self.presses.append((action, fields))
        return "c"


class FakePanel:
    def __init__(self, view, table: int | None) -> None:
        self.view = view
        self.table = table
        self.link = FakeLink(view.state)


def dealers(view) -> list[FakePanel]:
    d = demo.Demo.__new__(demo.Demo)
    d.rng = __import__("random").Random(1)
    d.panels = [FakePanel(view, None)] + [FakePanel(view, n) for n in (1, 2, 3)]
    for _ in range(40):
        d._deal()
    return d.panels


def test_no_presses_during_a_break():
    view = shots.moment("wall_break")
    assert demo.on_break(view)
    assert all(p.link.presses == [] for p in dealers(view))


def test_presses_while_a_level_runs():
    view = shots.moment("wall_running")
    assert not demo.on_break(view)
    presses = [a for p in dealers(view) for a, _ in p.link.presses]
    assert "hand_done" in presses and "bust" in presses


def test_the_break_is_the_clocks_own_roll_over():
    """The anchor still says level 4; the view's now is past its end: a break."""
    view = shots.moment("wall_running")
    levels = view.state["structure"]["levels"]
    first_break = next(i for i, lv in enumerate(levels) if lv["is_break"])
    ends = view.state["clock"]["ends_at"]
    later = sum(lv["seconds"] for lv in levels[1:first_break]) + ends + 30.0
    view.now = later
    assert demo.on_break(view)
