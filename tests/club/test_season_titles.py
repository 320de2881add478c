"""A PSC season's titles from real event logs through the club database and the command
line (000 5.2, 6, 7.2, 8.1-8.5), in German: the PSC club speaks German."""

from __future__ import annotations

import re

import pytest

from controller import cli
from controller.club import trophies
from controller.club.db import SCHEMA_VERSION, open_club
from controller.club.imports import import_log
from controller.config import load_tournament
from tests.club.nights import REPO, psc_settings, tournament

# 12 members and a guest (000 2.5, 8.1: the titles and the cup are the members')
MEMBERS = [f"M{i:02d} Spieler" for i in range(1, 13)]
GUEST = "Gast Gustav"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = cli.main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def club(tmp_path):
    return psc_season(tmp_path)


def psc_season(tmp_path) -> str:
    """Five public nights of 2026 (13 players each), then the cup final.

    Nights 1-4: everybody plays, M01 wins knocking out all 12, the others' places turn
    (000 5.4 column 13: places 2-7 score), so every member scores once; night 5: M12
    sits out, M02 wins knocking out everybody. So M12 played 4 public tournaments: not
    qualified (000 7.2: 5 of 10). M01 leads the yearly ranking and the championship
    (4 × 12 = 48 knock-outs, M02: 11)."""
    s = psc_settings()
    everyone = [*MEMBERS, GUEST]
    logs = []
    for n in range(4):
        # the guest out first, then the others in turns: each night 6 others score
        k = (6 * n) % 11
        order = [GUEST, *MEMBERS[1:][k:], *MEMBERS[1:][:k]]
        logs.append(tournament(tmp_path / f"n{n}.sqlite", s, everyone,
                               [(p, MEMBERS[0]) for p in order], day=f"2026-0{n + 2}-13",
                               guests=[GUEST]))
    fifth = [p for p in everyone if p != MEMBERS[11]]
    order = [p for p in reversed(fifth) if p != MEMBERS[1]]
    logs.append(tournament(tmp_path / "n5.sqlite", s, fifth, [(p, MEMBERS[1]) for p in order],
                           day="2026-06-12", guests=[GUEST]))
    path = tmp_path / "club.sqlite"
    db = open_club(path)
    for log in logs:
        import_log(db, str(log))
    db.close()
    return str(path)


def cup_final(tmp_path, club_path: str, winner: str, field: list[str]) -> None:
    final = load_tournament(REPO / "config" / "tournaments" / "psc-cup-final.yaml")
    others = [p for p in field if p != winner]
    log = tournament(tmp_path / "final.sqlite", final, field, [(p, winner) for p in others],
                     day="2026-12-11")
    db = open_club(club_path)
    import_log(db, str(log))
    db.close()


def test_the_titles_as_the_season_stands(club, capsys):
    rc, out, err = run(capsys, "club", "titles", "--club", club, "--on", "2026-07-01")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "psc-five-spades — die Titel der Saison 2026 (5 Turniere)"
    # 8.2: M01 has 48 knock-outs, M02 11 (+ 000 6.1: nobody drew names); the season runs
    assert lines[1] == "Meister (Meisterschaft, 000 8.2): M01 Spieler (führt: die Saison " \
        "läuft noch)"
    # 8.3: 4 wins of 13 players (13 points each, 000 5.4)
    assert lines[2].startswith("Jahressieger (Gesamtjahresrangliste, 000 8.3): M01 Spieler")
    assert lines[3] == "Cupsieger (Cupfinale, 000 8.4): noch niemand"
    listed = lines[lines.index(next(x for x in lines if x.startswith("Meisterschafts-"))) + 1:]
    assert listed[0] == "  1. M01 Spieler  48 Punkte"
    assert listed[1] == "  2. M02 Spieler  11 Punkte"
    assert GUEST not in out  # 6.2: members only
    assert "keine eingetragen" in out


def test_the_wall_gets_the_championship_s_leaders(club):
    """000 5.2: the championship is a list of its own: its leaders go to the wall with
    the standings (state/standings)."""
    from controller.club.intake import standings_view
    from controller.wire.protocol import validate_state

    view = standings_view(club)
    assert view is not None
    assert view["championship"] == [{"place": 1, "name": "M01 Spieler", "points": 48},
                                    {"place": 2, "name": "M02 Spieler", "points": 11}]
    validate_state("standings", view)


def test_the_cup_field_7_2(club, capsys, tmp_path):
    db = open_club(club, readonly=True)
    t = trophies.season_titles(db)
    db.close()
    # 11 members played 5 public tournaments and scored (M12: 4; the guest: no member)
    assert len(t.cup.qualified) == 11
    assert len(t.cup.seeded) == 3 and t.cup.seeded[0].name == MEMBERS[0]  # 11-15: top 3
    assert len(t.cup.preliminary) == 8 and t.cup.preliminary_seats == 7
    rc, out, err = run(capsys, "club", "cup", "--club", club)
    assert rc == 0, err
    assert "Qualifiziert: 11" in out
    assert "Fix im Finale nach der Gesamtjahresrangliste (3):" in out
    assert "Vorrunde um 7 Finalplätze (8 Spieler):" in out
    assert MEMBERS[11] not in out
    rc, out, err = run(capsys, "club", "cup", "--club", club, "--preliminary",
                       str(tmp_path / "cup"))
    assert rc == 0, err
    names = (tmp_path / "cup" / "cup-preliminary-2026.txt").read_text(encoding="utf-8")
    assert [n for n in names.splitlines() if not n.startswith("#")] == \
        [s.name for s in t.cup.preliminary]
    # the file Floorman starts: it loads, no ghosts, no ranking points, a cup round
    settings = load_tournament(tmp_path / "cup" / "cup-preliminary-2026.yaml")
    assert settings.club.cup_round == "preliminary" and settings.points.system == "none"
    assert settings.points.knockout  # 6.1: the championship counts in every tournament
    assert not settings.ghosts.enabled and settings.players_per_table == 10  # 7.3
    assert "floorman preregister --file" in out


def test_the_cup_final_makes_the_cupsieger_and_the_record_keeps_the_titles(club, capsys,
                                                                              tmp_path):
    # 8.2: after all the tournaments, the cup final too: not before
    rc, out, err = run(capsys, "club", "titles", "--record", "--club", club, "--on",
                       "2026-07-01")
    assert rc == 1 and "die Saison 2026 ist nicht zu Ende" in err
    cup_final(tmp_path, club, MEMBERS[2], MEMBERS[:10])
    rc, out, err = run(capsys, "club", "titles", "--club", club, "--on", "2026-12-12")
    assert rc == 0, err
    assert "Cupsieger (Cupfinale, 000 8.4): M03 Spieler" in out
    assert "führt" not in out  # 5.6: the cup final ends the season
    # the final is no public tournament (7.2): the played counts stay 5
    db = open_club(club, readonly=True)
    assert max(trophies.public_played(db, "2026").values()) == 5
    db.close()
    rc, out, err = run(capsys, "club", "titles", "--record", "--club", club, "--on",
                       "2026-12-12")
    assert rc == 0, err
    assert "2026: Meister: M01 Spieler eingetragen" in out
    assert "2026: Cupsieger: M03 Spieler eingetragen" in out
    # two seasons before Floorman, entered by hand: M01 Meister three times in a row
    for season in ("2024", "2025"):
        rc, _, err = run(capsys, "club", "trophy", "meister", season, "M01", "Spieler",
                         "--club", club)
        assert rc == 0, err
    rc, out, err = run(capsys, "club", "titles", "--club", club, "--on", "2026-12-12")
    assert "behalten: M01 Spieler — Meister, dreimal in Folge (2026, 000 8.5)" in out
    assert "Jahressieger: M01 Spieler seit 2026" in out
    assert "  Meister:" not in out  # kept: the next trophy has no holder yet
    # 8.6: the Cupsieger leaves the club: the trophy goes back
    rc, _, err = run(capsys, "club", "member", "M03", "Spieler", "--guest", "--club", club)
    assert rc == 0, err
    rc, out, err = run(capsys, "club", "titles", "--club", club, "--on", "2026-12-12")
    assert "M03 Spieler ist kein Mitglied mehr: der Pokal (Cupsieger) geht zurück (000 8.6)" \
        in out


def test_a_guest_wins_no_title_by_hand_either(club, capsys):
    rc, _, err = run(capsys, "club", "trophy", "meister", "2025", GUEST, "--club", club)
    assert rc == 1 and "ist kein Vereinsmitglied" in err and "000 8.1" in err
    rc, _, err = run(capsys, "club", "trophy", "meister", "2025", "Nobody", "--club", club)
    assert rc == 1 and "kein Spieler „Nobody“" in err
    db = open_club(club, readonly=True)
    assert db.execute("SELECT COUNT(*) FROM trophies").fetchone()[0] == 0
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


#: English words a German club's command line must not say (the words shared by both
#: languages — Name, Cup, Bonus, Stack, Tickets — are not in it)
ENGLISH = re.compile(r"\b(tournaments?|season|points?|place|members?|guests?|wins?|title|"
                     r"players?|nobody|qualified|preliminary|final|seeded|results|imported|"
                     r"banned|until|holds|over|lifted|yes|no|none|added|since|trophy|"
                     r"trophies|kept|written|chips|note|new)\b", re.IGNORECASE)


def test_a_german_club_s_command_line_says_no_english_word(club, capsys, tmp_path):
    """Issue 31: `club standings` printed "1 tournaments" for the PSC club."""
    said = []
    for argv in (["standings"], ["standings", "--public"], ["seasons"], ["players"],
                 ["players", "M01"], ["players", "zzz"], ["titles", "--on", "2026-07-01"],
                 ["cup"], ["bans"], ["bans", "--all"], ["member", GUEST, "--guest"],
                 ["add", "Neu", "Person"], ["add", "Neu", "Person", "Zwei", "--member"],
                 ["titles", "--record", "--force", "--on", "2026-07-01"],
                 ["titles", "--on", "2026-07-01"],
                 ["backup", str(tmp_path / "copy.sqlite")]):
        rc, out, err = run(capsys, "club", *argv, "--club", club)
        assert rc == 0, (argv, err)
        said.append(out)
    # the everyday refusals too (stderr)
    for argv in (["standings", "--season", "1999"], ["trophy", "meister", "2025", "Niemand"],
                 ["trophy", "meister", "2025", GUEST], ["member", "Niemand"],
                 ["lift-ban", MEMBERS[0], "--reason", "x"], ["add", "M01 Spieler"],
                 ["titles", "--record", "--on", "2026-07-01"]):
        rc, out, err = run(capsys, "club", *argv, "--club", club)
        assert rc == 1 and err.count("\n") == 1, (argv, err)
        said.append(err.split(": ", 1)[1])
    text = "".join(said)
    # names and file paths are not words of the CLI
    text = text.replace(str(tmp_path), "").replace("psc-five-spades", "")
    for name in (*MEMBERS, GUEST, "Neu Person", "Neu Person Zwei"):
        text = text.replace(name, "")
    found = sorted({m.group(0) for m in ENGLISH.finditer(text)})
    assert found == [], found
    assert "1 Turnier" not in text and "5 Turniere" in text


def _club_verbs() -> list[str]:
    import argparse

    parser = cli.build_parser("club")
    top = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    club = top.choices["club"]
    verbs = next(a for a in club._actions if isinstance(a, argparse._SubParsersAction))
    return list(verbs.choices)


def test_a_german_club_s_help_and_file_refusals_say_no_english_word(club, capsys, tmp_path,
                                                                     monkeypatch):
    """Every `floorman club VERB --help` and the refusals of import, backup and restore
    speak German for a German club (they were the last English of its command line)."""
    verbs = _club_verbs()
    said = []
    for argv in (["--help"], *([v, "--help", "--club", club] for v in verbs),
                 ["standings", f"--club={club}", "-h"]):
        with monkeypatch.context() as m:
            # the list of verbs has no --club: the club of $FLOORMAN_CLUB
            m.setenv("FLOORMAN_CLUB", club)
            with pytest.raises(SystemExit) as done:
                cli.main(["club", *argv])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("Aufruf: floorman club"), (argv, out)
        said.append(out)
    # the refusals of the verbs that take files
    (tmp_path / "folder").mkdir()
    not_a_club = tmp_path / "notes.txt"
    not_a_club.write_text("no database\n")
    for argv in (["import", str(tmp_path / "missing.sqlite")],
                 ["backup", str(tmp_path / "folder")],
                 ["restore", str(tmp_path / "missing.sqlite")],
                 ["restore", str(not_a_club)],
                 ["export", str(not_a_club)]):
        rc, out, err = run(capsys, "club", *argv, "--club", club)
        assert rc == 1 and err.count("\n") == 1, (argv, err)
        said.append(err.split(": ", 1)[1])
    text = "".join(said).replace(str(tmp_path), "")
    # what is typed is not a word of the CLI: the verbs, the options, the CSV's keys
    text = re.sub(r"--?[\w-]+|\{[\w,-]+\}|floorman club [\w-]+|\$FLOORMAN_\w+", "", text)
    text = text.replace("place, name, points, tournaments", "")
    for verb in sorted(verbs, key=len, reverse=True):
        text = re.sub(rf"\b{verb}\b", "", text)
    found = sorted({m.group(0) for m in ENGLISH.finditer(text)})
    assert found == [], found
    assert "Vereinsdatenbank" in text and "nichts zurückgespielt" in text


def test_argparse_s_own_complaints_speak_the_club_s_language(club, capsys, tmp_path):
    """A missing or wrong argument: argparse's own words were English for a German club
    (the last English of its command line); an English club keeps them."""
    said = []
    for argv, german in ((["add", "--club", club], "es fehlt: NAME"),
                         (["standings", "--club", club, "--season"],
                          "--season braucht einen Wert"),
                         (["titles", "--club", club, "--top", "drei"],
                          "drei' ist kein gültiger Wert"),
                         (["merge", "M01 Spieler", "--club", club], "es fehlt: --into"),
                         (["standings", "--club", club, "--saison", "2026"],
                          "unbekannt: --saison 2026")):
        with pytest.raises(SystemExit) as done:
            cli.main(["club", *argv])
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("Aufruf: floorman club"), (argv, err)
        assert f"floorman club {argv[0]}: Fehler: " in err and german in err, (argv, err)
        said.append(err.split("Fehler: ", 1)[1])
    text = re.sub(r"--?[\w-]+", "", "".join(said))  # the options are what is typed
    found = sorted({m.group(0) for m in ENGLISH.finditer(text)})
    assert found == [] and "required" not in text and "argument" not in text
    english = str(tmp_path / "english.sqlite")
    open_club(english).close()  # a new club without a language: English
    with pytest.raises(SystemExit):
        cli.main(["club", "add", "--club", english])
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and "error: the following arguments are required" in err


def test_a_schema_3_file_gets_the_trophies_table_and_keeps_its_standings(club, tmp_path):
    """The titles' migration (schema 4) brings an older file up when it is opened: its
    tournaments stay, the trophies table is new and empty."""
    import sqlite3

    from controller.club.standings import standings, standings_csv

    db = open_club(club)
    before = standings_csv(standings(db))
    db.close()
    raw = sqlite3.connect(club)
    for later in ("trophies", "fees", "day_memberships", "adults"):  # schema 4's and 5's
        raw.execute(f"DROP TABLE {later}")
    raw.execute("PRAGMA user_version=3")  # the money's columns (schema 3) stay
    raw.commit()
    raw.close()
    db = open_club(club)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT COUNT(*) FROM trophies").fetchone()[0] == 0
    assert standings_csv(standings(db)) == before
    db.close()


def test_a_club_of_another_rulebook_has_no_such_titles(tmp_path, capsys):
    """The three titles are PSC Five Spades' (000 8); Ace of Spades (003) keeps its own
    standings — in German too, the club championship's stacks as chips (20.000)."""
    from tests.club.nights import play_day
    from tests.club.test_ace_of_spades_season import A, B, C, D, day_games

    settings = load_tournament(REPO / "config" / "tournaments" / "ace-of-spades-playday.yaml")
    club = str(tmp_path / "club.sqlite")
    db = open_club(club)
    import_log(db, str(play_day(tmp_path / "d.sqlite", settings, [A, B, C, D], day_games(),
                                day="2026-01-10")))
    db.close()
    rc, out, _ = run(capsys, "club", "titles", "--club", club)
    assert rc == 0 and out.startswith("dieser Verein vergibt keine Saisontitel")
    rc, out, _ = run(capsys, "club", "cup", "--club", club)
    assert rc == 0 and out.startswith("dieser Verein spielt keinen Cup")
    rc, out, _ = run(capsys, "club", "standings", "--club", club)
    assert "Saison 2026-1" in out and "20.000" in out and "1,56" in out


def test_a_file_from_before_the_language_was_kept_asks_the_club_s_preset(club, capsys):
    """A club database imported before the language was kept: the club's preset says it
    (psc-five-spades: language de)."""
    import sqlite3

    raw = sqlite3.connect(club)
    raw.execute("DELETE FROM meta WHERE key = 'language'")
    raw.commit()
    raw.close()
    rc, out, _ = run(capsys, "club", "seasons", "--club", club)
    assert (rc, out) == (0, "2026: 5 Turniere, 2026-01-01 – 2026-12-31\n")


def test_every_club_help_text_has_its_german():
    """A new option's help without its German would be English in a German club's
    `--help` (controller/club/words.py HELP)."""
    import argparse

    from controller.club.words import HELP

    parser = cli.build_parser("club")
    top = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    stack = [top.choices["club"]]
    while stack:
        p = stack.pop()
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                stack.extend(a.choices.values())
                missing += [v.help for v in a._choices_actions if v.help not in HELP]
            elif a.help and a.help not in HELP:
                missing.append(a.help)
    assert missing == []
