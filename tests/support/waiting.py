"""Waiting for something to become true: the one poll loop of the tests and benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from controller.broker.local import free_port, wait_port

__all__ = ["WaitTimeout", "free_port", "wait_for", "wait_port"]

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """What :func:`wait_for` waited for did not happen in time (a failed test)."""


def wait_for(cond: Callable[[], T], timeout: float = 10.0, what: str = "condition", *,
             every: float = 0.01, step: Callable[[], Any] | None = None,
             explain: Callable[[], str] | None = None) -> T:
    """Look at ``cond()`` until it is true and return what it returned.

    Between looks: sleep ``every`` seconds, or, with ``step``, call it first (one round of
    a kiosk's loop: it must run for the condition to change). ``cond`` is looked at once
    more when the time is up, so a slow machine fails only when the thing really did not
    happen. On a timeout the error names ``what`` and adds ``explain()`` (the state of the
    parts, a process's log) so that a failure can be read without running it again."""
    deadline = time.monotonic() + timeout
    while True:
        if step is not None:
            step()
        value = cond()
        if value:
            return value
        if time.monotonic() >= deadline:
            message = f"timed out after {timeout:g} s waiting for {what}"
            if explain is not None:
                try:
                    message += "\n" + explain()
                except Exception as exc:  # noqa: BLE001 - the timeout is the error
                    message += f"\n(explain failed: {exc!r})"
            raise WaitTimeout(message)
        if step is None:
            time.sleep(every)
