"""The director's command line turns what is typed at the floor into protocol commands; a
clock reading that is no time ("99:99") is refused before anything is sent (issue 10.9)."""

from __future__ import annotations

import pytest

from controller.cli import _director_command, _seconds, build_parser


@pytest.mark.parametrize(("text", "seconds"), [
    ("90", 90.0), ("1:30", 90.0), ("-2:00", -120.0), ("0:05", 5.0), ("1:05:00", 3900.0),
    ("12.5", 12.5),
])
def test_clock_readings(text, seconds):
    assert _seconds(text) == seconds


@pytest.mark.parametrize("text", ["99:99", "1:5", "1:60", "1:60:00", "a:00", "1:00:00:00",
                                  "", "nan", "inf", "1::00"])
def test_a_reading_that_is_no_time_is_refused(text):
    with pytest.raises(ValueError, match="is not a time"):
        _seconds(text)


def _cmd(*argv: str) -> tuple[str, dict]:
    return _director_command(build_parser().parse_args(list(argv)))


def test_time_remove_and_set():
    assert _cmd("time", "remove", "5:00") == ("time", {"op": "add", "seconds": -300.0})
    assert _cmd("time", "set", "12:30") == ("time", {"op": "set", "seconds": 750.0})
    with pytest.raises(ValueError, match="'99:99' is not a time"):
        _cmd("time", "set", "99:99")


def test_rename_unregister_and_history_verbs():
    assert _cmd("rename", "Karl", "Maier", "--to", "Karl", "Meier") == (
        "rename", {"player": "Karl Maier", "name": "Karl Meier"})
    assert _cmd("rename", "#12", "--to", "Björn Weiß") == (
        "rename", {"player": 12, "name": "Björn Weiß"})
    assert _cmd("unregister", "Tim", "Wolf") == ("unregister", {"player": "Tim Wolf"})
    assert _cmd("history") == ("history", {})


def test_announce_verb():
    """issue 12: a banner on every screen from the command line."""
    assert _cmd("announce", "Add-on", "jetzt", "möglich") == (
        "announce", {"text": "Add-on jetzt möglich"})
    assert _cmd("announce", "Pause", "--minutes", "15") == (
        "announce", {"text": "Pause", "minutes": 15.0})
    assert _cmd("announce", "--clear") == ("announce", {"clear": True})
    with pytest.raises(ValueError, match="takes no text"):
        _cmd("announce", "--clear", "Pause")


def test_absent_table_game_and_the_lists_have_verbs():
    # 000 9.5, 003 6/11, 000 6.3, 000 4.17: not only through `floorman send`
    assert _cmd("absent", "Karl", "Meier") == ("absent", {"player": "Karl Meier", "back": False})
    assert _cmd("absent", "#7", "--stack", "1200") == (
        "absent", {"player": 7, "back": False, "stack": 1200})
    assert _cmd("absent", "Karl", "Meier", "--back") == (
        "absent", {"player": "Karl Meier", "back": True})
    assert _cmd("table-game", "Anna Schmidt", "Ben Meier", "#3") == (
        "table_game", {"players": ["Anna Schmidt", "Ben Meier", 3]})
    assert _cmd("drawn-names", "Anna", "Schmidt", "--names", "Ben Meier", "Cem Yilmaz") == (
        "drawn_names", {"player": "Anna Schmidt", "names": ["Ben Meier", "Cem Yilmaz"]})
    assert _cmd("mystery-list", "#4", "--clear") == ("mystery_list", {"player": 4, "names": []})
    with pytest.raises(ValueError, match="--names NAME… or --clear"):
        _cmd("mystery-list", "Anna")
    with pytest.raises(ValueError, match="--names NAME… or --clear"):
        _cmd("drawn-names", "Anna", "--clear", "--names", "Ben")
def test_penalty_and_disqualify_verbs():
    """000 3.6-3.8, 4.11: the floor's penalties from the command line."""
    assert _cmd("penalty", "Tom", "Werner", "--orbits", "1", "--reason", "swearing") == (
        "penalty", {"player": "Tom Werner", "orbits": 1, "reason": "swearing"})
    assert _cmd("penalty", "#7", "--minutes", "10") == (
        "penalty", {"player": 7, "minutes": 10.0})
    assert _cmd("penalty", "Tom", "--warning") == (
        "penalty", {"player": "Tom", "kind": "warning"})
    assert _cmd("penalty", "Tom", "--owed-blinds") == (
        "penalty", {"player": "Tom", "kind": "owed_blinds"})
    with pytest.raises(ValueError, match="not both"):
        _cmd("penalty", "Tom", "--warning", "--owed-blinds")
    assert _cmd("disqualify", "Jan", "Schwarz", "--stack", "12500", "--reason", "chips") == (
        "disqualify", {"player": "Jan Schwarz", "stack": 12500, "reason": "chips"})
    assert _cmd("disqualify", "#3") == ("disqualify", {"player": 3})


def test_the_results_list_the_disqualified(capsys):
    from controller.cli import _print_results

    _print_results({"v": 1, "finished": False, "rows": [{"place": 9, "name": "Anna"}],
                    "disqualified": [{"player_id": 3, "name": "Jan", "reason": "chips"}]},
                   csv=False)
    assert capsys.readouterr().out.splitlines() == ["   9. Anna", "  DQ  Jan (chips)"]


def test_the_deal_verbs_issue_30():
    """The deal at the final table: the proposal changes nothing; amounts are typed in the
    currency's units and sent in cents."""
    assert _cmd("deal-proposal") == ("deal_proposal", {})
    assert _cmd("deal", "icm") == ("deal", {"method": "icm"})
    assert _cmd("deal", "chip-chop", "--percent", "0") == (
        "deal", {"method": "chip_chop", "percent": 0})
    assert _cmd("deal", "icm", "--played-for", "150,50") == (
        "deal", {"method": "icm", "played_for": 15_050})
    assert _cmd("deal", "custom", "--share", "Ben Meier=250", "--share", "#4=199.5") == (
        "deal", {"method": "custom", "amounts": [{"player": "Ben Meier", "amount": 25_000},
                                                 {"player": 4, "amount": 19_950}]})
    with pytest.raises(ValueError, match="is not an amount"):
        _cmd("deal", "icm", "--played-for", "1.234")
    with pytest.raises(ValueError, match="NAME=AMOUNT"):
        _cmd("deal", "custom", "--share", "250")


def test_deal_in_has_a_verb_003_12():
    assert _cmd("deal-in", "Tom", "Werner") == ("deal_in", {"player": "Tom Werner"})
    assert _cmd("deal-in", "#7") == ("deal_in", {"player": 7})


def test_colour_up_takes_several_chips_issue_32():
    assert _cmd("colour-up", "25") == ("colour_up", {"chip": 25})
    assert _cmd("colour-up", "25", "100") == ("colour_up", {"chips": [25, 100]})
