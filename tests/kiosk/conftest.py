"""pygame for the kiosk's drawing tests, headless (tests/conftest.py): no screen, no sound;
gpiozero's mock pins for the button box."""

from __future__ import annotations

import pygame
import pytest

from tests.support.kiosks import mock_pin_factory


@pytest.fixture(scope="session", autouse=True)
def _pygame():
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


@pytest.fixture
def mock_pins():
    """gpiozero's MockFactory for the test, the previous factory afterwards."""
    with mock_pin_factory() as factory:
        yield factory
