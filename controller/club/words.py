"""Every line ``floorman club …`` prints, in English and German (``say(key, lang, …)``),
and the language the club speaks: its tournaments' (``language:`` of the preset, kept
in the club database at each import; an older file asks the club's preset).

Numbers are written as on the screens (:func:`controller.wire.i18n.num`: 10.000 in
German). The ``--csv`` columns stay the documented English keys (docs/club.md): a
spreadsheet reads them by name.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from controller.wire.i18n import lang_of

__all__ = ["COLUMNS", "LABELS", "club_language", "column", "number", "say", "title_name",
           "tournaments"]

#: key → (English, German)
LABELS: dict[str, tuple[str, str]] = {
    # players
    "member_since": ("member since {day}", "Mitglied seit {day}"),
    "member": ("member", "Mitglied"),
    "guest": ("guest", "Gast"),
    # members and guests (000 1.1, 1.3, 1.7)
    "fee_paid": ("{name}: fee for {season} paid on {day}",
                 "{name}: Jahresbeitrag {season} bezahlt am {day}"),
    "adult_confirmed": ("{name}: 18 or older, confirmed on {day}",
                        "{name}: volljährig (18+), bestätigt am {day}"),
    "no_fee": ("no fee recorded", "kein Beitrag eingetragen"),
    "adult_since": ("18+ confirmed {day}", "18+ bestätigt am {day}"),
    "adult_not_asked": ("18+ not asked yet", "18+ noch nicht gefragt"),
    "day_memberships": (", {n} day memberships", ", {n} Tagesmitgliedschaften"),
    "member_line": ("{name}: {kind}; fee: {paid}; {age}{days}",
                    "{name}: {kind}; Beitrag: {paid}; {age}{days}"),
    "no_members": ("no members yet (floorman club member NAME --fee SEASON)",
                   "noch keine Mitglieder (floorman club member NAME --fee SAISON)"),
    "also": ("also: {names}", "auch: {names}"),
    "no_player_found": ("no player found", "kein Spieler gefunden"),
    "no_players_yet": ("no players yet", "noch keine Spieler"),
    "alias_added": ("{alias!r} is now another name of {name}",
                    "„{alias}“ ist jetzt ein anderer Name von {name}"),
    "added": ("added #{id} {name} ({kind})", "#{id} {name} aufgenommen ({kind})"),
    "merged": ("merged into {name} ({also})", "zusammengeführt in {name} ({also})"),
    # imports
    "imported": ("{path}: imported {name} ({day}, season {season}): {rows} results{new}",
                 "{path}: {name} übernommen ({day}, Saison {season}): {rows} Ergebnisse{new}"),
    "updated": ("{path}: updated {name} ({day}, season {season}): {rows} results{new}",
                "{path}: {name} erneuert ({day}, Saison {season}): {rows} Ergebnisse{new}"),
    "unchanged": ("{path}: {name} ({day}) was imported before; nothing changed",
                  "{path}: {name} ({day}) war schon übernommen; nichts geändert"),
    "new_players": (", {n} new players", ", {n} neue Spieler"),
    "new_player": (", 1 new player", ", 1 neuer Spieler"),
    "looks_like": ("  note: {name!r} is new and looks like {like}: if it is the same "
                   "player, merge them (floorman club merge)",
                   "  Hinweis: „{name}“ ist neu und ähnelt {like}: ist es derselbe Spieler, "
                   "zusammenführen (floorman club merge)"),
    # standings, seasons
    "season_head": ("{club} — season {season} ({first} – {last}), {tournaments}",
                    "{club} — Saison {season} ({first} – {last}), {tournaments}"),
    "tournaments_n": ("{n} tournaments", "{n} Turniere"),
    "tournaments_1": ("1 tournament", "1 Turnier"),
    "season_line": ("{season}: {tournaments}, {first} – {last}",
                    "{season}: {tournaments}, {first} – {last}"),
    "yes": ("yes", "ja"),
    "no": ("no", "nein"),
    # files
    "backup_done": ("backup of {club} written to {file}",
                    "Sicherung von {club} nach {file} geschrieben"),
    "restored": ("{club} restored from {file}", "{club} aus {file} wiederhergestellt"),
    "registered": ("registered {names} with {chips} chips",
                   "{names} mit {chips} Chips angemeldet"),
    # bans (000 2.7)
    "ban_line": ("{player}: banned {since} until {until} ({months} months, no-show {count}): "
                 "{state}",
                 "{player}: gesperrt {since} bis {until} ({months} Monate, Nichterscheinen "
                 "{count}): {state}"),
    "ban_lifted_on": ("lifted on {day} ({reason})", "aufgehoben am {day} ({reason})"),
    "ban_holds": ("holds", "gilt"),
    "ban_over": ("over", "abgelaufen"),
    "no_ban_on": ("no ban holds on {day}", "am {day} gilt keine Sperre"),
    "no_bans": ("no bans", "keine Sperren"),
    "ban_lifted": ("{player}: the ban until {until} is lifted ({reason})",
                   "{player}: die Sperre bis {until} ist aufgehoben ({reason})"),
    # titles (000 5.2, 6, 8)
    "titles_head": ("{club} — the titles of season {season} ({tournaments})",
                    "{club} — die Titel der Saison {season} ({tournaments})"),
    "meister": ("Meister (championship, 000 8.2)", "Meister (Meisterschaft, 000 8.2)"),
    "jahressieger": ("Jahressieger (yearly ranking, 000 8.3)",
                     "Jahressieger (Gesamtjahresrangliste, 000 8.3)"),
    "cupsieger": ("Cupsieger (cup final, 000 8.4)", "Cupsieger (Cupfinale, 000 8.4)"),
    "title_leads": ("{title}: {names} (leads: the season is not over)",
                    "{title}: {names} (führt: die Saison läuft noch)"),
    "title_won": ("{title}: {names}", "{title}: {names}"),
    "title_none": ("{title}: nobody yet", "{title}: noch niemand"),
    "championship_head": ("Championship list (000 5.2, 6: a point a knock-out, 2 more "
                          "for a drawn name; members only)",
                          "Meisterschafts-Rangliste (000 5.2, 6: ein Punkt je Eliminierung, "
                          "2 mehr für einen gezogenen Namen; nur Vereinsmitglieder)"),
    "championship_line": ("{place:>3}. {name}  {points} points",
                          "{place:>3}. {name}  {points} Punkte"),
    "championship_empty": ("  no member yet", "  noch kein Vereinsmitglied"),
    "trophies_head": ("Trophies (000 8.2-8.5)", "Pokale (000 8.2-8.5)"),
    "holds_trophy": ("  {title}: {names} since {season}",
                     "  {title}: {names} seit {season}"),
    "kept_hattrick": ("  kept: {player} — {titles}, three times in a row ({season}, 000 8.5)",
                      "  behalten: {player} — {titles}, dreimal in Folge ({season}, 000 8.5)"),
    "kept_all_three": ("  kept: {player} — all three trophies in one season ({season}, "
                       "000 8.5)",
                       "  behalten: {player} — alle drei Pokale in einer Saison ({season}, "
                       "000 8.5)"),
    "no_trophies": ("  none recorded (floorman club titles --record)",
                    "  keine eingetragen (floorman club titles --record)"),
    "must_return": ("  {name} is no member any more: the {title} trophy goes back (000 8.6)",
                    "  {name} ist kein Mitglied mehr: der Pokal ({title}) geht zurück "
                    "(000 8.6)"),
    "recorded": ("{season}: {title}: {names} recorded", "{season}: {title}: {names} eingetragen"),
    "not_over": ("the season {season} is not over (no cup final, its last day {last} to "
                 "come; 000 8.2): nothing recorded (--force records the leaders)",
                 "die Saison {season} ist nicht zu Ende (kein Cupfinale, ihr letzter Tag "
                 "{last} kommt noch; 000 8.2): nichts eingetragen (--force trägt die "
                 "Führenden ein)"),
    "no_titles": ("this club awards no season titles (Meister, Jahressieger, Cupsieger are "
                  "PSC Five Spades', 000 8; club.members_only_titles)",
                  "dieser Verein vergibt keine Saisontitel (Meister, Jahressieger, Cupsieger "
                  "sind die des PSC Five Spades, 000 8; club.members_only_titles)"),
    "nothing_recorded": ("{season}: no title has a winner yet; nothing recorded",
                         "{season}: noch kein Titel hat einen Sieger; nichts eingetragen"),
    # cup (000 7.2)
    "cup_head": ("{club} — the cup of season {season} (000 7.2: members with at least {min} "
                 "public tournaments and a points finish)",
                 "{club} — der Cup der Saison {season} (000 7.2: Vereinsmitglieder mit "
                 "mindestens {min} öffentlichen Turnieren und einem Punkterang)"),
    "cup_none": ("this club plays no cup (club.cup_min: 0)",
                 "dieser Verein spielt keinen Cup (club.cup_min: 0)"),
    "cup_qualified": ("Qualified: {n}", "Qualifiziert: {n}"),
    "cup_seeded": ("In the final by the yearly ranking ({n}):",
                   "Fix im Finale nach der Gesamtjahresrangliste ({n}):"),
    "cup_preliminary": ("Preliminary round for {seats} final seats ({n} players):",
                        "Vorrunde um {seats} Finalplätze ({n} Spieler):"),
    "cup_no_preliminary": ("No preliminary round: the final has room for everybody.",
                           "Keine Vorrunde: im Finale ist Platz für alle."),
    "cup_player": ("  {rank:>3}. {name} ({points} points, {played} tournaments)",
                   "  {rank:>3}. {name} ({points} Punkte, {played} Turniere)"),
    "cup_nobody": ("  nobody", "  niemand"),
    "cup_written": ("preliminary round written: {file} and its players {names}; start it "
                    "with:\n  floorman night {file}\n  floorman preregister --file {names}",
                    "Vorrunde geschrieben: {file} und ihre Spieler {names}; starten mit:\n"
                    "  floorman night {file}\n  floorman preregister --file {names}"),
}

#: the refusals (:class:`controller.club.db.ClubError` with a ``key``) → (English, German);
#: the English is the error's own text, so only the German is written here
REFUSALS: dict[str, str] = {
    "no_club": "{path}: hier ist keine Vereinsdatenbank (zuerst ein Turnier übernehmen: "
               "floorman club import LOG)",
    "no_tournament": "noch kein Turnier übernommen: keine Rangliste (floorman club import "
                     "LOG)",
    "no_season": "keine Saison „{season}“ in der Vereinsdatenbank (Saisons: {known})",
    "no_title": "kein Titel „{title}“ (Titel: {titles})",
    "not_a_season": "keine Saison: „{season}“",
    "no_player": "kein Spieler „{name}“ in der Vereinsliste (floorman club add)",
    "title_no_member": "{name} ist kein Vereinsmitglied: die Titel sind den Mitgliedern "
                       "vorbehalten (000 8.1)",
    "no_preliminary": "keine Vorrunde: alle Qualifizierten sind fix im Finale (000 7.2)",
    "cannot_write": "{folder}: die Vorrunde kann nicht geschrieben werden ({why})",
    "already_listed": "„{name}“ steht schon als „{as_}“ in der Vereinsliste",
    "looks_like_known": "„{name}“ ähnelt {like}: derselbe Spieler? (--alias-of NAME macht "
                        "ihn zu einem anderen Namen, --force nimmt einen neuen Spieler auf)",
    "ban_reason": "bitte den Grund für die Aufhebung angeben (--reason)",
    "no_ban": "„{name}“ ist am {day} nicht gesperrt",
    # import (controller/club/imports.py): the log's own fault is named in parentheses
    "no_log": "{path}: diese Datei gibt es nicht; nichts übernommen",
    "log_unreadable": "{path}: kein lesbares Turnierprotokoll ({why}); nichts übernommen",
    "log_empty": "{path}: das Protokoll enthält kein Turnier; nichts übernommen",
    "log_no_rules": "{path}: das Protokoll nennt seine Regeln nicht (von einem alten "
                    "Floorman geschrieben); nichts übernommen",
    "log_damaged": "{path}: das Protokoll ist beschädigt ({why}); nichts übernommen",
    "not_over_yet": "{path}: {name} ist noch nicht zu Ende (kein Sieger); nichts übernommen",
    "no_club_of_its_own": "{path}: {name} gehört zu keinem Verein (sein Preset hat keinen "
                          "club: name); nichts übernommen",
    "cannot_score": "{path}: {name} lässt sich nicht werten ({why}); nichts übernommen",
    "import_unwritten": "{path}: die Vereinsdatenbank lässt sich nicht schreiben ({why}); "
                        "nichts übernommen",
    "other_club": "{path}: {name} ist ein Turnier von {own}, dies ist die Vereinsdatenbank "
                  "von {held}; nichts übernommen",
    "other_copy": "{path}: eine andere Fassung von {name} (mit anderen Ereignissen) wurde "
                  "schon übernommen; nichts übernommen",
    "twice": "„{name}“ steht zweimal im Turnier",
    # backup, restore, export (controller/club/export.py)
    "copy_unwritten": "{target}: lässt sich nicht schreiben ({why}); nichts geändert",
    "backup_folder": "{target}: ist ein Ordner; bitte den Dateinamen der Sicherung angeben",
    "no_backup": "{source}: diese Datei gibt es nicht; nichts zurückgespielt",
    "backup_damaged": "{source}: die Sicherung ist beschädigt ({why}); nichts zurückgespielt",
    "export_file": "{folder}: ist eine Datei; bitte einen Ordner angeben",
    "export_unwritten": "{folder}: lässt sich nicht schreiben ({why})",
    # the file itself (controller/club/db.py)
    "club_folder": "{path}: ist ein Ordner, keine Vereinsdatenbank",
    "cannot_open": "{path}: die Vereinsdatenbank lässt sich nicht öffnen ({why})",
    "club_damaged": "{path}: die Vereinsdatenbank ist beschädigt oder unlesbar ({why})",
    "not_sqlite": "{path}: ist keine SQLite-Datenbank, keine Vereinsdatenbank",
    "newer_schema": "{path}: Vereinsdatenbank mit Schema {version}; dieser Floorman liest "
                    "bis {known} (Floorman aktualisieren)",
    "not_club": "{path}: ist keine Vereinsdatenbank",
    "sqlite_error": "{path}: die Vereinsdatenbank ist nicht nutzbar ({why}); nichts geändert",
}


def refusal(exc: Exception, lang: str) -> str:
    """A refusal in the club's language: the German of a keyed
    :class:`~controller.club.db.ClubError`, else its own (English) text."""
    key = getattr(exc, "key", None)
    if lang_of(lang) == "de" and key in REFUSALS:
        return REFUSALS[key].format(**getattr(exc, "values", {}))
    return str(exc)


#: the standings' column heads (the CSV keeps the keys)
COLUMNS: dict[str, tuple[str, str]] = {
    "place": ("place", "Platz"),
    "name": ("name", "Name"),
    "points": ("points", "Punkte"),
    "tournaments": ("tournaments", "Turniere"),
    "member": ("member", "Mitglied"),
    "wins": ("wins", "Siege"),
    "knockout_points": ("knockout points", "Meisterschaftspunkte"),
    "cup": ("cup", "Cup"),
    "title": ("title", "Titelrang"),
    "tickets": ("tickets", "Tickets"),
    "tickets_used": ("tickets used", "Tickets genutzt"),
    "re_entries": ("re-entries", "Re-Entries"),
    "tables": ("tables", "Tische"),
    "table_points": ("table points", "Tischpunkte"),
    "attendance": ("attendance", "Anwesenheit"),
    "average": ("average", "Schnitt"),
    "bonus": ("bonus", "Bonus"),
    "stack": ("stack", "Stack"),
}

#: what each title is called in a sentence
TITLE_NAMES: dict[str, tuple[str, str]] = {
    "meister": ("Meister", "Meister"),
    "jahressieger": ("Jahressieger", "Jahressieger"),
    "cupsieger": ("Cupsieger", "Cupsieger"),
}


def say(key: str, lang: str, **values: Any) -> str:
    """The line ``key`` in ``lang`` with ``values`` filled in."""
    pair = LABELS[key]
    return (pair[1] if lang_of(lang) == "de" else pair[0]).format(**values)


def column(key: str, lang: str) -> str:
    pair = COLUMNS.get(key)
    if pair is None:
        return key.replace("_", " ")
    return pair[1] if lang_of(lang) == "de" else pair[0]


def title_name(key: str, lang: str) -> str:
    pair = TITLE_NAMES[key]
    return pair[1] if lang_of(lang) == "de" else pair[0]


def tournaments(n: int, lang: str) -> str:
    """"1 tournament", "3 tournaments" ("1 Turnier", "3 Turniere")."""
    return say("tournaments_1", lang) if n == 1 else say("tournaments_n", lang, n=n)


def number(value: float, lang: str) -> str:
    """Points as the standings write them: ``24.5`` (en) / ``24,5`` (de), no ``.0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang_of(lang) == "de" else text


def club_language(db: sqlite3.Connection) -> str:
    """The language of the club's tournaments: kept at each import; a file from before
    that asks the club's preset (its ``club.name`` is the preset's name); else English."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'language'").fetchone()
        if row:
            return lang_of(row[0])
        row = db.execute("SELECT value FROM meta WHERE key = 'club'").fetchone()
    except sqlite3.Error:
        return "en"
    if not row:
        return "en"
    from controller.config import ConfigError, load_tournament_text

    try:
        return lang_of(load_tournament_text(f"name: club\npreset: {row[0]}\n").language)
    except (ConfigError, OSError, ValueError):
        return "en"


#: ``floorman club … --help`` in German: each help text by its English (the CLI's own,
#: controller/club/cli.py; tests/club/test_season_titles.py checks that every one is here)
HELP: dict[str, str] = {
    "the club's players, seasons, imports and standings (docs/club.md)":
        "Spieler, Saisons, Übernahmen und Ranglisten des Vereins (docs/club.md)",
    "show this help and exit": "diese Hilfe zeigen und beenden",
    "the club's players (or those matching SEARCH)":
        "die Spieler des Vereins (oder die zur SUCHE passenden)",
    "add a player: add NAME [--member [--since DATE]], or an alias: add NAME --alias-of "
    "PLAYER": "einen Spieler aufnehmen: add NAME [--member [--since DATUM]], oder einen "
              "anderen Namen: add NAME --alias-of SPIELER",
    "make a player a member (member NAME [--since DATE]) or a guest (member NAME --guest); "
    "--fee SEASON records the yearly fee, --adult the confirmed age":
        "einen Spieler zum Mitglied machen (member NAME [--since DATUM]) oder zum Gast "
        "(member NAME --guest); --fee SAISON trägt den Jahresbeitrag ein, --adult die "
        "bestätigte Volljährigkeit",
    "the club list: members, the seasons they paid, the confirmed age, day memberships "
    "(000 1.3-1.7)": "die Vereinsliste: Mitglieder, bezahlte Jahresbeiträge, bestätigte "
                     "Volljährigkeit, Tagesmitgliedschaften (000 1.3-1.7)",
    "one person entered twice: merge NAME --into PLAYER":
        "eine Person doppelt erfasst: merge NAME --into SPIELER",
    "take finished tournaments' event logs into the club database (a log taken before "
    "changes nothing)": "die Protokolle beendeter Turniere in die Vereinsdatenbank "
                        "übernehmen (ein schon übernommenes ändert nichts)",
    "the season's standings by the club's rules": "die Rangliste der Saison nach den "
                                                  "Regeln des Vereins",
    "the seasons with tournaments": "die Saisons mit Turnieren",
    "a player's nights: place, points, and where they played for money the payout, ticket "
    "and bounties: history NAME": "die Abende eines Spielers: Platz, Punkte und, wo um "
                                  "Geld gespielt wurde, Auszahlung, Ticket und Kopfgelder: "
                                  "history NAME",
    "start stacks from the standings for a tournament whose mode says so (003 8, 000 "
    "4.18): stacks TOURNAMENT NAME…": "Startstacks aus der Rangliste für ein Turnier, "
                                       "dessen Modus es vorsieht (003 8, 000 4.18): "
                                       "stacks TURNIER NAME…",
    "register players into the running controller with their stacks from the standings: "
    "register TOURNAMENT NAME…": "Spieler mit ihren Stacks aus der Rangliste im laufenden "
                                  "Controller anmelden: register TURNIER NAME…",
    "the bans for no-shows (000 2.7: the second 3 months, each further one 12)":
        "die Sperren wegen Nichterscheinens (000 2.7: die zweite 3 Monate, jede weitere "
        "12)",
    "the director lifts a no-show ban: lift-ban NAME --reason TEXT (recorded)":
        "die Turnierleitung hebt eine Sperre auf: lift-ban NAME --reason TEXT (wird "
        "festgehalten)",
    "the season's titles (000 8): Meister, Jahressieger, Cupsieger, the championship list "
    "and the trophies (8.5)": "die Saisontitel (000 8): Meister, Jahressieger, Cupsieger, "
                              "die Meisterschaftsliste und die Pokale (8.5)",
    "enter a title won by hand: trophy TITLE SEASON NAME[, NAME]":
        "einen gewonnenen Titel von Hand eintragen: trophy TITEL SAISON NAME[, NAME]",
    "the cup's field (000 7.2): who qualified, who is in the final, who plays the "
    "preliminary round": "das Feld des Cups (000 7.2): wer sich qualifiziert hat, wer im "
                         "Finale steht, wer die Vorrunde spielt",
    "a consistent copy of the club database: backup FILE":
        "eine stimmige Kopie der Vereinsdatenbank: backup DATEI",
    "replace the club database with a backup: restore FILE":
        "die Vereinsdatenbank durch eine Sicherung ersetzen: restore DATEI",
    "everything as CSV files and one JSON file: export DIR":
        "alles als CSV-Dateien und eine JSON-Datei: export ORDNER",
    "the club database (default: $FLOORMAN_CLUB or club.sqlite in Floorman's data folder)":
        "die Vereinsdatenbank (sonst $FLOORMAN_CLUB oder club.sqlite im Datenordner von "
        "Floorman)",
    "a club member (default: a guest)": "ein Vereinsmitglied (sonst ein Gast)",
    "member since (YYYY-MM-DD)": "Mitglied seit (JJJJ-MM-TT)",
    "NAME is another spelling of this player": "NAME ist eine andere Schreibweise dieses "
                                               "Spielers",
    "add it even though it looks like another player's name":
        "aufnehmen, obwohl er dem Namen eines anderen Spielers ähnelt",
    "not (any more) a member": "(nicht mehr) Mitglied",
    "paid the yearly fee for SEASON (000 1.3)": "hat den Jahresbeitrag für SAISON bezahlt "
                                                "(000 1.3)",
    "confirmed being 18 or older (000 1.1, 003 1; no ID is kept)":
        "hat bestätigt, 18 oder älter zu sein (000 1.1, 003 1; kein Ausweis wird "
        "gespeichert)",
    "the day of the fee or the confirmation (default: today)":
        "der Tag des Beitrags oder der Bestätigung (sonst heute)",
    "the guests too": "auch die Gäste",
    "the tournament's day (default: the day its log was opened)":
        "der Tag des Turniers (sonst der Tag, an dem sein Protokoll begann)",
    "the season (default: the latest; floorman club seasons)":
        "die Saison (sonst die letzte; floorman club seasons)",
    "CSV: place, name, points, tournaments and the club's columns":
        "CSV: place, name, points, tournaments und die Spalten des Vereins (englische "
        "Spaltennamen)",
    "as on a public list: non-members shortened (000 5.8)":
        "wie auf einem öffentlichen Aushang: Nichtmitglieder gekürzt (000 5.8)",
    "CSV, amounts in cents": "CSV, Beträge in Cent",
    "the tournament file (or a shipped one's name)":
        "die Turnierdatei (oder der Name einer mitgelieferten)",
    "the standings' season (default: the latest)": "die Saison der Rangliste (sonst die "
                                                   "letzte)",
    "the tournament file the controller runs": "die Turnierdatei des laufenden Controllers",
    "not club members": "keine Vereinsmitglieder",
    "host:port (default: the tournament file's, $FLOORMAN_BROKER or localhost:1883)":
        "Host:Port (sonst der der Turnierdatei, $FLOORMAN_BROKER oder localhost:1883)",
    "topic prefix (default: the tournament file's)": "Themen-Präfix (sonst das der "
                                                     "Turnierdatei)",
    "the day (default: today)": "der Tag (sonst heute)",
    "every ban, lifted and over too": "jede Sperre, auch aufgehobene und abgelaufene",
    "the season (default: the latest)": "die Saison (sonst die letzte)",
    "record the season's winners (when it is over: 8.2 after the cup final)":
        "die Sieger der Saison eintragen (wenn sie vorbei ist: 8.2 nach dem Cupfinale)",
    "record before the season is over": "eintragen, bevor die Saison vorbei ist",
    "lines of the championship list": "Zeilen der Meisterschaftsliste",
    "the day it is entered (default: today)": "der Tag des Eintrags (sonst heute)",
    "write the preliminary round's tournament file and players' list into DIR":
        "Turnierdatei und Spielerliste der Vorrunde in ORDNER schreiben",
    "seconds to wait for the controller's answer": "Sekunden, die auf die Antwort des "
                                                   "Controllers gewartet wird",
    "why the ban is lifted (recorded)": "warum die Sperre aufgehoben wird (wird "
                                        "festgehalten)",
    "the player kept": "der Spieler, der bleibt",
}

#: the placeholders of ``--help`` (argparse's metavars: a positional's or an option's
#: value) in German
METAVARS: dict[str, str] = {
    "NAME": "NAME", "NAMES": "NAMEN", "SEARCH": "SUCHE", "FILE": "DATEI", "DIR": "ORDNER",
    "LOG": "LOG", "TOURNAMENT": "TURNIER", "SEASON": "SAISON", "PLAYER": "SPIELER",
    "INTO": "SPIELER", "REASON": "GRUND", "TIMEOUT": "SEKUNDEN", "ON": "TAG",
    "DATE": "DATUM", "SINCE": "DATUM", "TOP": "ZEILEN", "BROKER": "BROKER",
    "PREFIX": "PRÄFIX", "VERB": "VERB", "TITLE": "TITEL",
}

#: argparse's own words in a ``--help``
HELP_HEADINGS: dict[str, str] = {"usage: ": "Aufruf: ", "positional arguments": "Argumente",
                                 "options": "Optionen"}


#: argparse's own complaints (Python 3.11's wording) → German; the option names and
#: values in them stay (they are what is typed)
ARGPARSE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), german) for pattern, german in (
        (r"the following arguments are required: (.*)", r"es fehlt: \1"),
        (r"one of the arguments (.*) is required", r"eines davon fehlt: \1"),
        (r"argument (.*?): expected one argument", r"\1 braucht einen Wert"),
        (r"argument (.*?): expected at least one argument", r"\1 braucht mindestens einen Wert"),
        (r"argument (.*?): expected at most one argument", r"\1 nimmt höchstens einen Wert"),
        (r"argument (.*?): expected (\d+) arguments?", r"\1 braucht \2 Werte"),
        (r"argument (.*?): invalid choice: (.*?) \(choose from (.*)\)",
         r"\1: \2 geht nicht (möglich: \3)"),
        (r"argument (.*?): invalid \w+ value: (.*)", r"\1: \2 ist kein gültiger Wert"),
        (r"argument (.*?): not allowed with argument (.*)", r"\1 nicht zusammen mit \2"),
        (r"argument (.*?): ignored explicit argument (.*)", r"\1 nimmt keinen Wert: \2"),
        (r"unrecognized arguments: (.*)", r"unbekannt: \1"),
        (r"ambiguous option: (.*?) could match (.*)", r"\1 ist mehrdeutig: \2"),
    ))


def argparse_error(message: str) -> str:
    """argparse's ``message`` in German (unchanged when its wording is not known)."""
    for pattern, german in ARGPARSE_ERRORS:
        if pattern.fullmatch(message):
            said = pattern.sub(german, message)
            if said.startswith("es fehlt: "):  # a positional is named by its dest: its placeholder
                names = said.removeprefix("es fehlt: ").split(", ")
                said = "es fehlt: " + ", ".join(
                    n if n.startswith("-") else METAVARS.get(n.upper(), n.upper()) for n in names)
            return said
    return message
