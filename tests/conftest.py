"""Shared fixtures: settings builders for the pure engine tests."""

from __future__ import annotations

import pytest
from factories import make_settings


@pytest.fixture
def settings_factory():
    return make_settings
