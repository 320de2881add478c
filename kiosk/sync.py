"""Clock sync without NTP: estimate the controller's clock from request/response round trips.

Club rooms often have no internet and a Pi has no real-time clock, so a
kiosk's wall clock may be hours off. We never read it: the kiosk counts on its
monotonic clock and keeps an offset to the controller's clock, estimated
NTP-style. Each round trip gives ``offset = ((t1 - t0) + (t2 - t3)) / 2`` with
an error of at most half its round-trip delay; the sample with the smallest
delay among the last few wins.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Sample:
    offset: float  #: controller time minus local time (s)
    delay: float  #: round trip minus the controller's own processing time (s)


class ClockSync:
    """Controller time from the local monotonic clock plus the best measured offset.

    ``local``: the clock to count on (default ``time.monotonic``, seconds).
    ``keep``: how many recent samples to choose from (default 8).
    """

    def __init__(self, local: Callable[[], float] = time.monotonic, keep: int = 8) -> None:
        self.local = local
        self.samples: deque[Sample] = deque(maxlen=keep)
        self._ids = itertools.count(1)
        self._sent: dict[int, float] = {}

    def request(self) -> dict[str, Any]:
        """The payload of a new time request (``{"v": 1, "id": n, "t0": local time}``)."""
        n = next(self._ids)
        t0 = self.local()
        self._sent[n] = t0
        if len(self._sent) > 64:
            self._sent.pop(next(iter(self._sent)))
        return {"v": 1, "id": n, "t0": t0}

    def response(self, data: dict[str, Any]) -> Sample | None:
        """Take a time response; returns the sample, or ``None`` if it is not ours or malformed."""
        t3 = self.local()
        try:
            t0 = self._sent[data["id"]]
            t1, t2 = float(data["t1"]), float(data["t2"])
            echoed = float(data.get("t0", t0))
        except (KeyError, TypeError, ValueError, OverflowError):
            return None
        # NaN would make a sample with delay 0 that wins as the best one forever; and a
        # broken response must not use up the request, whose real answer may still come
        if not (math.isfinite(t1) and math.isfinite(t2)) or not abs(echoed - t0) <= 1e-6:
            return None
        del self._sent[data["id"]]
        s = Sample(offset=((t1 - t0) + (t2 - t3)) / 2, delay=max(0.0, (t3 - t0) - (t2 - t1)))
        self.samples.append(s)
        return s

    @property
    def synced(self) -> bool:
        return bool(self.samples)

    @property
    def best(self) -> Sample | None:
        # a copy first: the link's network thread appends while the screen's loop reads,
        # and min() with a key runs Python between its steps ("deque mutated during
        # iteration" took down a demo on a loaded machine); tuple() copies in one C step
        samples = tuple(self.samples)
        return min(samples, key=lambda s: s.delay) if samples else None

    def now(self) -> float:
        """The controller's time now, as well as we know it (local time before the first sync)."""
        b = self.best
        return self.local() + (b.offset if b else 0.0)
