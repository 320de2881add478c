"""The garbage collector and a festival's state (issue 15).

A festival's state — 10,000 players, a log of 20,000 events and more — is millions of
objects that live all night. Python's full collection walks every one of them
(100-150 ms here at 1,000 tables), whenever the allocations call for it: often inside
a press, whose answer then waits. So once the state is built, it is frozen
(:func:`gc.freeze`): the collections walk only what came after. At the start and at
each snapshot (the log's growth) everything is collected once first and frozen again
(:func:`settle`), so garbage with cycles in it is not kept for ever. An undo replays the
log, each replay a whole new state: the collector waits until it is over
(:func:`paused`); the old state has no cycles (reference counting frees it as it goes,
tests/test_heap.py checks), so the new one is only frozen (:func:`freeze`), without the
full collection (75 ms at 1,000 tables).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def settle() -> None:
    """Collect everything once and freeze what is left."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def freeze() -> None:
    """Freeze what came since the last freeze, without a collection."""
    gc.freeze()


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside (an undo's replays); :func:`freeze` after it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
