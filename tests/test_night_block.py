"""The block ``floorman night`` prints: on the embedded broker (amqtt) it says up to how
many table screens that serves and what to install for more (issue 29, measured in
docs/performance.md); on Mosquitto it says nothing of the kind."""

from __future__ import annotations

from pathlib import Path

from controller import resources
from controller.broker.room import EMBEDDED_TABLES
from controller.console.auth import SignInKey
from controller.night.night import Night


def block(tmp_path: Path, kind: str) -> str:
    night = Night(resources.sample_tournament(), state=tmp_path / "state", announce=False)
    night.console_url, night.console_password, night.code = "http://10.0.0.2:8080/", "pw", \
        "12345678"
    night.db = tmp_path / "state" / "nights" / "sample.sqlite"
    night.sign_in = SignInKey()
    return night.block("Sample", False, kind, 1883)


def test_on_the_embedded_broker_the_block_says_how_many_tables_it_serves(tmp_path):
    text = block(tmp_path, "amqtt")
    line = next(line for line in text.splitlines() if "embedded broker" in line)
    assert f"up to {EMBEDDED_TABLES} table screens" in line
    assert "sudo apt-get install mosquitto" in line
    assert "broker: amqtt on port 1883" in text


def test_on_mosquitto_the_block_has_no_such_line(tmp_path):
    text = block(tmp_path, "mosquitto")
    assert "broker: mosquitto on port 1883" in text
    assert "embedded broker" not in text and "apt-get" not in text
