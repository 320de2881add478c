"""The registration desk on the command line (issue 31): `floorman register` beyond the seat
limit answers with the waiting list's position (002), `floorman players` lists the line,
and the desk's verbs send their commands."""

from __future__ import annotations

import pytest

from controller import cli
from controller.cli import _director_command, build_parser
from tests.support.controller import wait_up
from tests.support.paths import SAMPLE_TOURNAMENT


def _cmd(*argv: str) -> tuple[str, dict]:
    return _director_command(build_parser().parse_args(list(argv)))


def test_the_desk_verbs(tmp_path):
    assert _cmd("capacity", "--seats", "40") == ("capacity", {"seats": 40})
    assert _cmd("capacity", "--tables", "5") == ("capacity", {"tables": 5})
    assert _cmd("capacity", "--none") == ("capacity", {})
    assert _cmd("register", "Anna", "--force") == (
        "register", {"names": ["Anna"], "member": True, "force": True})
    assert _cmd("check-in", "Eva", "Huber") == ("check_in", {"player": "Eva Huber"})
    assert _cmd("cancel", "#7") == ("cancel", {"player": 7})
    assert _cmd("cancel", "Karl", "--force") == ("cancel", {"player": "Karl", "force": True})
    # 000 2.2: the list the director kept (mail, Facebook), one name a line
    names = tmp_path / "voranmeldungen.txt"
    names.write_text("# Freitag\nEva Huber\n\n  Karl Meier  \n", encoding="utf-8")
    assert _cmd("preregister", "--file", str(names), "Lea", "--guest") == (
        "preregister", {"names": ["Lea", "Eva Huber", "Karl Meier"], "member": False})
    with pytest.raises(ValueError, match="cannot read"):
        _cmd("preregister", "--file", str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="needs names"):
        _cmd("preregister")
    with pytest.raises(SystemExit):  # one of --seats, --tables, --none
        _cmd("capacity")


def test_register_answers_with_the_waiting_list_position_002(tmp_path, broker, prefix,
                                                               controller_factory, capsys):
    config = tmp_path / "room.yaml"
    config.write_text(SAMPLE_TOURNAMENT.read_text(encoding="utf-8") + "\ndesk:\n  seats: 2\n",
                      encoding="utf-8")
    controller_factory(config)
    wait_up(broker.for_prefix(prefix))
    where = ["--broker", broker.address, "--prefix", prefix]
    assert cli.main(["register", "Anna", "Ben", "Cem", "Dora", *where]) == 0
    out = capsys.readouterr().out
    assert out == ("registered 2 players: Anna, Ben; Cem on the waiting list (position 1); "
                   "Dora on the waiting list (position 2)\n")
    assert cli.main(["players", *where]) == 0
    out = capsys.readouterr().out
    assert "seat limit: 2\nwaiting list 1: Cem\nwaiting list 2: Dora\n" in out
    assert cli.main(["unregister", "Anna", *where]) == 0
    assert capsys.readouterr().out == ("Anna taken off the list; Cem called from the waiting "
                                       "list: a seat is free; registered Cem\n")


def test_a_reserved_seat_is_not_for_sale_at_the_desk_002(tmp_path, broker, prefix,
                                                         controller_factory, capsys):
    """`floorman reserve 1` on a 3-seat night: the third registration waits; the reserve
    given back calls it; a reserve beyond the limit is refused with the reason."""
    config = tmp_path / "room.yaml"
    config.write_text(SAMPLE_TOURNAMENT.read_text(encoding="utf-8")
                      + "\ndesk:\n  seats: 3\nghosts:\n  enabled: false\n",
                      encoding="utf-8")
    controller_factory(config)
    wait_up(broker.for_prefix(prefix))
    where = ["--broker", broker.address, "--prefix", prefix]
    assert cli.main(["reserve", "1", "--reason", "Anmeldung per Mail", *where]) == 0
    capsys.readouterr()
    assert cli.main(["register", "Anna", "Ben", "Cem", *where]) == 0
    assert capsys.readouterr().out == ("registered 2 players: Anna, Ben; Cem on the waiting "
                                       "list (position 1)\n")
    assert cli.main(["reserve", "2", "--reason", "zwei Nachzügler", *where]) != 0
    assert "2 of the 3 seats are taken: at most 1 can be reserved" in capsys.readouterr().err
    assert cli.main(["reserve", "0", "--reason", "kommt niemand", *where]) == 0
    capsys.readouterr()
    assert cli.main(["players", *where]) == 0
    out = capsys.readouterr().out
    assert "Cem" in out and "waiting list" not in out
