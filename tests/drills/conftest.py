"""Resilience drills: the whole system under power cuts, broker loss, kiosk loss, bad input
and a long night (docs/reliability.md). Real parts only: the broker, controller and
prefix fixtures of tests/conftest.py; the drills' tools are in tests/support/drill.py."""

from __future__ import annotations

import pytest

from tests.support.drill import Report


@pytest.fixture
def controllers(controller_factory):
    """``make(config, db=None, log=None)`` → a :class:`ControllerProcess` on this test's
    broker and prefix, not started yet; all are killed at the end."""
    def make(config, db=None, log=None):
        return controller_factory(config, db, start=False, log=log)
    return make


@pytest.fixture
def report(request, tmp_path):
    """This drill's figures (:class:`tests.support.drill.Report`)."""
    return Report(request.node.name.removeprefix("test_"), tmp_path)
