"""The wall speaks (issue 28.10): an announcement, a table that breaks, a move and
hand-for-hand, in the screen's language, so that a player far from a screen hears
"Tisch 3 wird aufgelöst".

:class:`Sayings` decides *what* (pure: it compares successive :class:`ScreenView` s);
:class:`Speaker` says it with Debian's offline text-to-speech, ``espeak-ng`` (an optional
package: ``apt-get install espeak-ng``), one line after the other, in a process of its own
so that the screen never waits for a voice. Off unless the kiosk file says ``speech:
true``; without ``espeak-ng`` it logs once and stays silent, never raises.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.wire.i18n import tr
from kiosk.view import ScreenView

log = logging.getLogger(__name__)

__all__ = ["Sayings", "Speaker"]

#: lines waiting to be said at most (a whole table's moves; older ones are dropped)
QUEUE = 12
#: words a minute: a little slower than espeak-ng's 175, for a room
SPEED = 150


@dataclass(frozen=True)
class _Heard:
    announcement: str | None = None
    broken: frozenset[int] = frozenset()
    moves: frozenset[tuple[Any, ...]] = frozenset()
    hfh: bool = False
    names: dict[tuple[Any, ...], str] = field(default_factory=dict, compare=False)


def _heard(view: ScreenView) -> _Heard:
    s = view.state
    a = s.get("announcement") or {}
    text = a.get("text") if a.get("until") is None or view.now < a["until"] else None
    broken = frozenset(int(v["table"]) for k, v in s.items()
                       if k.startswith("table/") and v and v.get("in_play") is False
                       and v.get("table") is not None)
    names: dict[tuple[Any, ...], str] = {}
    for m in (s.get("moves") or {}).get("pending", []):
        try:
            key = (m.get("player_id"), int(m["to"]["table"]), int(m["to"]["seat"]))
        except (KeyError, TypeError, ValueError):
            continue
        names[key] = str(m.get("player") or "")
    hfh = bool(((s.get("summary") or {}).get("hand_for_hand") or {}).get("on"))
    return _Heard(text or None, broken, frozenset(names), hfh, names)


class Sayings:
    """What a new view gives the room to hear, compared with the one before. The first
    view only sets the baseline: a wall that starts does not read out the evening."""

    def __init__(self) -> None:
        self.heard: _Heard | None = None

    def __call__(self, view: ScreenView) -> list[str]:
        now = _heard(view)
        before, self.heard = self.heard, now
        if before is None:
            return []
        lang = view.language
        out = []
        if now.announcement and now.announcement != before.announcement:
            out.append(now.announcement)
        out += [tr("say_table_breaks", lang, n=n) for n in sorted(now.broken - before.broken)]
        if now.hfh and not before.hfh:
            out.append(tr("say_hfh", lang))
        for key in sorted(now.moves - before.moves, key=lambda k: (k[1], k[2])):
            out.append(tr("say_move", lang, name=now.names[key], table=key[1], seat=key[2]))
        return out


class Speaker:
    """Says lines through ``espeak-ng`` in ``language`` (``de``/``en``), one at a time:
    :meth:`say` queues, :meth:`pump` starts the next when the last one has finished
    (called with every frame)."""

    def __init__(self, enabled: bool, *, which: Callable[[str], str | None] = shutil.which,
                 start: Callable[..., Any] = subprocess.Popen) -> None:
        self.program = which("espeak-ng") if enabled else None
        if enabled and self.program is None:
            log.warning("speech: true, but espeak-ng is not installed (apt-get install "
                        "espeak-ng): the wall stays silent")
        self.start = start
        self.queue: deque[tuple[str, str]] = deque(maxlen=QUEUE)
        self.speaking: Any = None

    @property
    def enabled(self) -> bool:
        return self.program is not None

    def say(self, text: str, language: str) -> None:
        if self.program is not None and text.strip():
            self.queue.append((text, language))
            self.pump()

    def pump(self) -> None:
        if self.program is None or not self.queue:
            return
        if self.speaking is not None and self.speaking.poll() is None:
            return  # still speaking: the next line waits
        text, language = self.queue.popleft()
        try:
            # "--" ends the options: a line that begins with "-" is said, not read as one
            self.speaking = self.start(
                [self.program, "-v", "de" if language == "de" else "en", "-s", str(SPEED),
                 "--", text],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
        except OSError as exc:
            log.warning("speech: espeak-ng could not be started (%s): the wall stays silent",
                        exc)
            self.program = None

    def close(self) -> None:
        self.queue.clear()
        if self.speaking is not None and self.speaking.poll() is None:
            self.speaking.terminate()
