"""Fixtures of every folder, a thin layer over tests/support: the real broker, a topic
prefix per test and the controller in its own process; settings for the engine tests.
Every test runs headless (SDL's dummy drivers)."""

from __future__ import annotations

import os
import uuid

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support.broker import MOSQUITTO, Mosquitto
from tests.support.controller import ControllerFactory
from tests.support.headless import headless
from tests.support.settings import make_settings

headless()

# Property tests find the same examples on every run, so CI cannot fail at random; a bug
# found by exploring (FLOORMAN_EXPLORE=1: fresh random examples, more of them) becomes a
# fixed example in its test.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
hypothesis_settings.register_profile("explore", max_examples=1000, print_blob=True)
hypothesis_settings.load_profile("explore" if os.environ.get("FLOORMAN_EXPLORE") else "ci")


@pytest.fixture
def settings_factory():
    return make_settings


@pytest.fixture
def broker(tmp_path):
    """A Mosquitto of this test on a free loopback port; ``stop()``/``start()`` is an
    outage (:class:`tests.support.broker.Mosquitto`)."""
    if MOSQUITTO is None:
        pytest.skip("mosquitto is not installed")
    b = Mosquitto(tmp_path / "mosquitto.log")
    yield b
    b.close()


@pytest.fixture
def prefix():
    """A unique topic prefix per test, so tests never see each other's retained messages."""
    return f"test/{uuid.uuid4().hex[:10]}"


@pytest.fixture
def controller_factory(tmp_path, broker, prefix):
    """``make(config=sample.yaml, db=tmp/log.sqlite, start=True)`` → a started
    :class:`~tests.support.controller.ControllerProcess` on this test's broker and prefix;
    every one is killed at the end."""
    factory = ControllerFactory(tmp_path, broker.address, prefix)
    yield factory
    factory.close()
