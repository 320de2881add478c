"""Every line ``floorman club …`` prints, in English and German (``say(key, lang, …)``),
and the language the club speaks: its tournaments' (``language:`` of the preset, kept
in the club database at each import; an older file asks the club's preset).

Numbers are written as on the screens (:func:`controller.wire.i18n.num`: 10.000 in
German). The ``--csv`` columns stay the documented English keys (docs/club.md): a
spreadsheet reads them by name.
"""

from __future__ import annotations

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
