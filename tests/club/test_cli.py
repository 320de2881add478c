"""``floorman simulate … --store LOG``, ``floorman club import LOG``, ``floorman club
standings --csv``: through the command line's entry point, as a director runs them."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict

from controller.cli import main
from controller.engine.tournament import Tournament
from controller.log.store import EventStore


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def night_points(log) -> dict[str, float]:
    with EventStore(log, readonly=True) as store:
        return {r.name: r.points for r in Tournament.replay(store.events()).results()}


def test_simulate_import_standings_csv(tmp_path, capsys):
    club = str(tmp_path / "data" / "club.sqlite")  # a fresh install: no folder yet
    logs = [tmp_path / "n1.sqlite", tmp_path / "n2.sqlite"]
    for seed, log in enumerate(logs, 1):
        rc, _, err = run(capsys, "simulate", "sample", "--players", "14", "--seed", str(seed),
                         "--store", str(log))
        assert rc == 0, err
    rc, out, err = run(capsys, "club", "import", *map(str, logs), "--club", club)
    assert rc == 0, err
    assert out.count(" übernommen (") == 2  # the PSC club speaks German (its preset)
    rc, out, err = run(capsys, "club", "standings", "--csv", "--club", club)
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[:4] == ["place", "name", "points", "tournaments"]
    # the standings' points are the sum of the nights' points (000 5.4, 5.5)
    expected: dict[str, float] = defaultdict(float)
    for log in logs:
        for name, pts in night_points(log).items():
            expected[name] += pts
    assert {r["name"]: float(r["points"]) for r in rows} == expected
    assert sum(expected.values()) > 0
    assert [int(r["place"]) for r in rows] == sorted(int(r["place"]) for r in rows)
    assert all(r["tournaments"] == "2" for r in rows)
    # again: nothing changes
    rc, out, _ = run(capsys, "club", "import", str(logs[0]), "--club", club)
    assert rc == 0 and "nichts geändert" in out
    rc, again, _ = run(capsys, "club", "standings", "--csv", "--club", club)
    assert again == run(capsys, "club", "standings", "--csv", "--club", club)[1]


def test_refusals_are_one_line_and_nonzero(tmp_path, capsys):
    club = str(tmp_path / "club.sqlite")
    log = tmp_path / "n.sqlite"
    run(capsys, "simulate", "sample", "--players", "8", "--store", str(log))
    run(capsys, "club", "import", str(log), "--club", club)
    for argv, words in [
        # the PSC club's refusals are German (issue 31)
        (("club", "standings", "--season", "1999"), "keine Saison „1999“"),
        (("club", "import", str(tmp_path / "missing.sqlite")), "diese Datei gibt es nicht"),
        (("club", "restore", str(log)), "ist keine Vereinsdatenbank"),
        (("club", "standings", "--club", str(log)), "not a club database"),
    ]:
        if "--club" not in argv:
            argv = (*argv, "--club", club)
        rc, out, err = run(capsys, *argv)
        assert rc != 0, argv
        assert words in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_players_add_backup_restore_export(tmp_path, capsys):
    club = str(tmp_path / "club.sqlite")
    assert run(capsys, "club", "add", "Hans", "Müller", "--member", "--since", "2019-03-01",
               "--club", club)[0] == 0
    rc, _, err = run(capsys, "club", "add", "Hans Muller", "--club", club)
    assert rc == 1 and "looks like 'Hans Müller'" in err
    assert run(capsys, "club", "add", "Hansi", "--alias-of", "Hans", "Müller",
               "--club", club)[0] == 0
    rc, out, _ = run(capsys, "club", "players", "hansi", "--club", club)
    assert out == "#1 Hans Müller: member since 2019-03-01 (also: hansi)\n"
    backup = str(tmp_path / "backup.sqlite")
    assert run(capsys, "club", "backup", backup, "--club", club)[0] == 0
    run(capsys, "club", "add", "Eva Neu", "--club", club)
    assert run(capsys, "club", "restore", backup, "--club", club)[0] == 0
    rc, out, _ = run(capsys, "club", "players", "--club", club)
    assert "Eva Neu" not in out and "Hans Müller" in out
    rc, out, _ = run(capsys, "club", "export", str(tmp_path / "out"), "--club", club)
    assert rc == 0
    names = {p.rsplit("/", 1)[1] for p in out.split()}
    assert names == {"meta.csv", "players.csv", "aliases.csv", "tournaments.csv", "trophies.csv",
                     "results.csv", "no_shows.csv", "bans_lifted.csv", "fees.csv",
                     "day_memberships.csv", "adults.csv", "club.json"}
    assert "Hans Müller" in (tmp_path / "out" / "players.csv").read_text(encoding="utf-8")


def test_members_and_seasons(tmp_path, capsys):
    club = str(tmp_path / "club.sqlite")
    log = tmp_path / "n.sqlite"
    run(capsys, "simulate", "sample", "--players", "8", "--store", str(log))
    run(capsys, "club", "import", str(log), "--date", "2026-03-13", "--club", club)
    rc, out, _ = run(capsys, "club", "seasons", "--club", club)
    assert (rc, out) == (0, "2026: 1 Turnier, 2026-01-01 – 2026-12-31\n")  # 000 5.6
    rc, out, _ = run(capsys, "club", "member", "Player", "0003", "--guest", "--club", club)
    assert (rc, out) == (0, "Player 0003: Gast\n")
    rc, out, _ = run(capsys, "club", "standings", "--public", "--csv", "--club", club)
    assert "Player 0." in out and "Player 0003" not in out  # 000 5.8
    rc, out, _ = run(capsys, "club", "member", "Player", "0003", "--since", "2026-04-01",
                     "--club", club)
    assert out == "Player 0003: Mitglied seit 2026-04-01\n"


def test_club_csvs_write_no_formula(tmp_path, capsys):
    """A player named like a formula is text in the standings' and the export's CSV (as in
    the night's results, docs/security.md); club.json keeps the name as it is."""
    club = str(tmp_path / "club.sqlite")
    log = tmp_path / "n.sqlite"
    run(capsys, "simulate", "sample", "--players", "8", "--store", str(log))
    run(capsys, "club", "import", str(log), "--date", "2026-03-13", "--club", club)
    evil = "=HYPERLINK(\"http://x\")"
    assert run(capsys, "club", "add", evil, "--club", club)[0] == 0
    rc, out, err = run(capsys, "club", "standings", "--csv", "--club", club)
    assert rc == 0, err
    assert all(not cell.startswith(("=", "+", "@")) for row in csv.reader(io.StringIO(out))
               for cell in row)
    rc, out, err = run(capsys, "club", "export", str(tmp_path / "out"), "--club", club)
    assert rc == 0, err
    players = list(csv.reader(io.StringIO((tmp_path / "out" / "players.csv")
                                          .read_text(encoding="utf-8"))))
    assert ["'" + evil] in [[c for c in row if evil in c] for row in players]
    everything = json.loads((tmp_path / "out" / "club.json").read_text(encoding="utf-8"))
    assert evil in {p["name"] for p in everything["players"]}
