"""The wall speaks (issue 28.10): what it says when (pure, from successive views), in the
screen's language, and that it says it through espeak-ng, one line after the other, or
stays silent without it. espeak-ng itself is an optional Debian package: a stand-in
script on the PATH records what it was asked to say."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from kiosk.config import load_kiosk_text
from kiosk.speech import Sayings, Speaker
from kiosk.view import ScreenView


def wall(lang: str = "de", **state) -> ScreenView:
    base = {"summary": {"hand_for_hand": {"on": False}}, "moves": {"pending": []},
            "table/1": {"table": 1, "in_play": True}, "table/3": {"table": 3, "in_play": True}}
    return ScreenView(role="wall", state={**base, **state}, now=100.0, language=lang)


MOVE = {"player_id": 7, "player": "Anna Schmidt", "from": {"table": 3, "seat": 2},
        "to": {"table": 1, "seat": 5}, "reason": "table 3 breaks"}


def test_what_the_wall_says_and_when():
    say = Sayings()
    assert say(wall(announcement={"text": "Add-on jetzt möglich", "until": None})) == []
    # the first view is the baseline: nothing already up is read out
    assert say(wall(announcement={"text": "Add-on jetzt möglich", "until": None})) == []
    assert say(wall(announcement={"text": "Pause in 5 Minuten", "until": 400.0})) == \
        ["Pause in 5 Minuten"]
    broke = wall(**{"table/3": {"table": 3, "in_play": False}},
                 moves={"pending": [MOVE]})
    assert say(broke) == ["Tisch 3 wird aufgelöst.",
                          "Anna Schmidt, bitte an Tisch 1, Platz 5."]
    assert say(broke) == []  # said once
    hfh = wall(**{"table/3": {"table": 3, "in_play": False}},
               summary={"hand_for_hand": {"on": True}}, moves={"pending": [MOVE]})
    assert say(hfh) == ["Hand für Hand. Nach jeder Hand bitte auf die anderen Tische warten."]
    english = Sayings()
    english(wall("en"))
    assert english(wall("en", moves={"pending": [MOVE]})) == \
        ["Anna Schmidt, please go to table 1, seat 5."]


def test_espeak_ng_says_one_line_after_the_other(tmp_path, monkeypatch):
    said = tmp_path / "said"
    fake = tmp_path / "espeak-ng"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {said}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    speaker = Speaker(True)
    assert speaker.enabled
    speaker.say("Tisch 3 wird aufgelöst.", "de")
    speaker.say("-Zoë, bitte an Tisch 1, Platz 2.", "de")  # a dash: said, not an option
    deadline = time.monotonic() + 30
    while (speaker.queue or speaker.speaking.poll() is None) and time.monotonic() < deadline:
        speaker.pump()
        time.sleep(0.02)
    assert said.read_text().splitlines() == [
        "-v de -s 150 -- Tisch 3 wird aufgelöst.",
        "-v de -s 150 -- -Zoë, bitte an Tisch 1, Platz 2."]


def test_no_espeak_ng_no_voice_and_no_fault(caplog):
    started = []
    speaker = Speaker(True, which=lambda name: None, start=lambda *a, **k: started.append(a))
    speaker.say("Tisch 3 wird aufgelöst.", "de")
    speaker.pump()
    assert not speaker.enabled and started == []
    assert "espeak-ng is not installed" in caplog.text
    off = Speaker(False, which=lambda name: "/usr/bin/espeak-ng",
                  start=lambda *a, **k: started.append(a))
    off.say("x", "de")
    assert started == []  # off by default


def test_speech_is_off_unless_the_kiosk_file_says_so():
    assert load_kiosk_text("{}", "k.yaml").speech is False
    assert load_kiosk_text("speech: true\n", "k.yaml").speech is True
    shipped = Path(__file__).resolve().parents[2] / "config" / "kiosk" / "wall.yaml"
    assert "speech: false" in shipped.read_text(encoding="utf-8")
