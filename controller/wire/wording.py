"""What the controller says, in the language of the screen that shows it.

The controller answers in English, the protocol's language, and sends along what
a translation needs: a refusal's template and values (``why``, from
:class:`controller.engine.commands.Rejected`) and each thing a command did as a
phrase (``phrases``: key and values, from :mod:`controller.engine.history`).
The table screens and the console call :func:`reason`, :func:`message` and
:func:`phrase` with their language. A template or key this module does not know
stays English: a new reason is never lost, only untranslated (a test lists every
reason in the source and asks for its German). Pure Python, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from controller.engine.rules import hand_for_hand
from controller.engine.rules.clock import mmss

#: the controller's reasons: English template (as raised) → German template
REASONS_DE: dict[str, str] = {
    # a command's form (commands.parse)
    "a command needs a 'cmd' name": "ein Befehl braucht einen Namen ('cmd')",
    "unknown command {command!r}{hint}": "unbekannter Befehl {command!r}{hint}",
    # the floor itself
    "not applied: {reason}": "nicht ausgeführt: {reason}",
    "internal error ({kind}); nothing was changed":
        "interner Fehler ({kind}); nichts wurde geändert",
    "the answer has {size} bytes, more than the broker carries ({limit}); "
    "nothing was changed by asking":
        "die Antwort hat {size} Bytes, mehr als der Broker weitergibt ({limit}); "
        "die Frage hat nichts geändert",
    "no player called {ref!r}": "kein Spieler namens {ref!r}",
    "table {number} is not in play (tables in play: {playing})":
        "Tisch {number} spielt nicht (es spielen: {playing})",
    "the seats have not been drawn yet": "die Plätze sind noch nicht ausgelost",
    "the tournament is over": "das Turnier ist beendet",
    # announcements
    "announce: say what to announce (or clear the banner)":
        "Ansage: Text angeben (oder die Ansage entfernen)",
    "announce: clear takes no text and no minutes":
        "Ansage entfernen: ohne Text und ohne Minuten",
    "there is no announcement to clear": "es gibt keine Ansage zum Entfernen",
    # busts
    "seat {seat} at table {table} is {player}'s, who is on the way from table {from_table} "
    "seat {from_seat} and has not sat down yet: confirm the bust if that player is out":
        "Platz {seat} an Tisch {table} gehört {player}, der von Tisch {from_table} Platz "
        "{from_seat} unterwegs ist und noch nicht sitzt: das Ausscheiden bestätigen, wenn "
        "dieser Spieler raus ist",
    "only one player is left": "nur noch ein Spieler ist übrig",
    "nobody at table {table} is out in this hand yet: {player}'s bust cannot be in the same "
    "hand": "an Tisch {table} ist in dieser Hand noch niemand ausgeschieden: {player} kann "
            "nicht in derselben Hand ausscheiden",
    "table {table} has played its last hand of the day: {player} can only be out in the "
    "same hand as {players} (same_hand)":
        "Tisch {table} hat seine letzte Hand des Tages gespielt: {player} kann nur in "
        "derselben Hand wie {players} ausscheiden (same_hand)",
    "{player} is already out": "{player} ist schon ausgeschieden",
    "{player} has no seat": "{player} hat keinen Platz",
    "table {table} has {count} players, table {to} {to_count}: a player from it would not "
    "balance the tables":
        "Tisch {table} hat {count} Spieler, Tisch {to} {to_count}: ein Spieler von dort "
        "gleicht die Tische nicht aus",
    "reserve seats need a reason (it is kept in the log)":
        "Freigehaltene Plätze brauchen einen Grund (er steht im Protokoll)",
    "{count} seats are reserved already": "{count} Plätze sind schon freigehalten",
    "the ghosts keep the draw's reserve seats (000 9.5); reserve seats after the draw":
        "Die Geisterplätze halten die Plätze der Auslosung frei (000 9.5); Plätze nach "
        "der Auslosung freihalten",
    "the final table keeps no reserve seats": "Der Finaltisch hält keine Plätze frei",
    "{players} of the {limit} seats are taken: at most {free} can be reserved (002: seats "
    "are kept free when the tournament is not sold out)":
        "{players} der {limit} Plätze sind vergeben: höchstens {free} können freigehalten "
        "werden (002: Plätze werden freigehalten, wenn das Turnier nicht ausverkauft ist)",
    "{players} players have a seat and {reserve} seats are reserved: the limit cannot be "
    "{seats} (reserve fewer seats first)":
        "{players} Spieler haben einen Platz und {reserve} Plätze sind freigehalten: die "
        "Grenze kann nicht {seats} sein (zuerst weniger Plätze freihalten)",
    "the tables have {free} free seats: {count} more cannot be reserved":
        "Die Tische haben {free} freie Plätze: {count} weitere können nicht freigehalten "
        "werden",
    "seat {seat} at table {table} is reserved for a late arrival (reserve fewer seats to "
    "give it back)":
        "Platz {seat} an Tisch {table} ist für einen Nachzügler freigehalten (weniger "
        "Plätze freihalten, um ihn freizugeben)",
    "{players} players and {reserve} reserve seats: table {table} would seat fewer than "
    "two players; reserve fewer seats":
        "{players} Spieler und {reserve} freigehaltene Plätze: an Tisch {table} säßen "
        "weniger als zwei Spieler; weniger Plätze freihalten",
    "table {table} is the one short of players: the plan brings a player to it":
        "Tisch {table} ist der mit zu wenigen Spielern: der Plan bringt ihm einen Spieler",
    "{player} has no seat: nobody to deal in": "{player} hat keinen Platz: niemand zum Einsteigen",
    "{player} does not sit out at table {table} seat {seat}: only a player moved after "
    "posting a blind sits out until the button has passed (003 12)":
        "{player} setzt an Tisch {table} Platz {seat} nicht aus: nur wer nach einem Blind "
        "umgesetzt wurde, setzt aus, bis der Button vorbei ist (003 12)",
    "colour_up takes chip (one chip) or chips (several), not both and not neither":
        "colour_up nimmt chip (ein Chip) oder chips (mehrere), nicht beides und nicht keins",
    "{chip} is named twice": "{chip} ist zweimal genannt",
    "no colour-up of the {chip} chips is under way (the {leaving} chips are)":
        "für die {chip}er läuft kein Colour-up (für die {leaving}er schon)",
    "a reseat needs a reason (it is kept in the log)":
        "Umsetzen braucht einen Grund (er steht im Protokoll)",
    "{player} is a ghost: nobody to reseat": "{player} ist ein Geisterplatz: niemand zum Umsetzen",
    "table {table} has no free seat": "Tisch {table} hat keinen freien Platz",
    "{player} already sits at table {table} seat {seat}":
        "{player} sitzt schon an Tisch {table} Platz {seat}",
    "table {table} has seats 1 to {size}": "Tisch {table} hat die Plätze 1 bis {size}",
    "seat {seat} at table {table} is taken by {player}":
        "Platz {seat} an Tisch {table} ist besetzt von {player}",
    "bust needs a table and a seat, or a player":
        "Ausscheiden braucht Tisch und Platz oder einen Spieler",
    "table {table} has seats 1-{seats}, not {seat}":
        "Tisch {table} hat die Plätze 1-{seats}, nicht {seat}",
    "seat {seat} at table {table} is empty": "Platz {seat} an Tisch {table} ist frei",
    "{killer} cannot have knocked out {player}":
        "{killer} kann {player} nicht rausgeworfen haben",
    # the clock and the structure
    "the clock is already running": "die Uhr läuft schon",
    "the clock is not running": "die Uhr läuft nicht",
    "already at the last level": "schon im letzten Level",
    "already at the first level": "schon im ersten Level",
    "the time left cannot be negative": "die Restzeit kann nicht negativ sein",
    "this level has no end": "dieses Level hat kein Ende",
    "time set {time} would end the break; to end the level: level next":
        "Zeit auf {time} würde die Pause beenden; sie beendet „nächstes Level“ (Level ▶)",
    "the break has only {time} left: removing {removed} would end it; to end the level: "
    "level next": "die Pause hat nur noch {time}: {removed} abziehen würde sie beenden; sie "
                  "beendet „nächstes Level“ (Level ▶)",
    "time set {time} would end level {level}; to end the level: level next":
        "Zeit auf {time} würde Level {level} beenden; es beendet „nächstes Level“ (Level ▶)",
    "level {level} has only {time} left: removing {removed} would end it; to end the level: "
    "level next": "Level {level} hat nur noch {time}: {removed} abziehen würde es beenden; es "
                  "beendet „nächstes Level“ (Level ▶)",
    "structure insert needs 'after' (a level number, 0 = first) and 'level'":
        "Struktur einfügen braucht 'after' (eine Levelnummer, 0 = zuerst) und 'level'",
    "there is no level {after} (levels 1-{count})": "es gibt kein Level {after} (Level 1-{count})",
    "level {level} is already being played: only the coming levels can change":
        "Level {level} wird schon gespielt: nur die kommenden Level können sich ändern",
    "a level needs blinds with 0 < small blind <= big blind":
        "ein Level braucht Blinds mit 0 < Small Blind <= Big Blind",
    "a break has no blinds or ante": "eine Pause hat keine Blinds und keine Ante",
    "structure minutes needs 'from_level' and 'minutes'":
        "Struktur-Minuten braucht 'from_level' und 'minutes'",
    "there is no level {from_level} (levels 1-{count})":
        "es gibt kein Level {from_level} (Level 1-{count})",
    "level {from_level} has already begun: only the coming levels can change (the time left "
    "of this one: time set)": "Level {from_level} hat schon begonnen: nur die kommenden Level "
                             "können sich ändern (seine Restzeit: „Zeit setzen auf“)",
    "there is no level {to} (levels 1-{count})": "es gibt kein Level {to} (Level 1-{count})",
    # entries
    "give at least one name": "mindestens einen Namen angeben",
    "{player} is a ghost seat, not a player": "{player} ist ein Geisterplatz, kein Spieler",
    "{player} is already called so": "{player} heißt schon so",
    "the seats are drawn: {player} has a place in the field (table {table} seat {seat}); "
    "unregister is only possible before the draw (undo the draw first, or bust the player)":
        "die Plätze sind ausgelost: {player} hat einen Platz im Feld (Tisch {table} Platz "
        "{seat}); abmelden geht nur vor der Auslosung (erst die Auslosung zurücknehmen, oder "
        "den Spieler ausscheiden lassen)",
    "the seats are drawn: {player} has a place in the field; unregister is only possible "
    "before the draw (undo the draw first, or bust the player)":
        "die Plätze sind ausgelost: {player} hat einen Platz im Feld; abmelden geht nur vor "
        "der Auslosung (erst die Auslosung zurücknehmen, oder den Spieler ausscheiden lassen)",
    "a player's name must be text, got {name!r}": "ein Spielername muss Text sein, nicht {name!r}",
    "late registration closed after level {late_registration_levels}":
        "die Nachmeldung endete nach Level {late_registration_levels}",
    "{player} has no rebuy left ({rebuys} allowed)":
        "{player} hat keinen Rebuy mehr ({rebuys} erlaubt)",
    "rebuys closed after level {rebuy_until_level}":
        "Rebuys endeten nach Level {rebuy_until_level}",
    "rebuys closed: the add-on phase has begun (000 4.13)":
        "keine Rebuys mehr: die Add-on-Phase hat begonnen (000 4.13)",
    "{player} has no re-entry left ({reentries} allowed)":
        "{player} hat keinen Re-Entry mehr ({reentries} erlaubt)",
    "re-entry closed after level {reentry_until_level}":
        "Re-Entry endete nach Level {reentry_until_level}",
    "re-entry closed: the money is reached ({left} left, {paid} places paid)":
        "kein Re-Entry mehr: die Geldränge sind erreicht ({left} übrig, {paid} Plätze bezahlt)",
    "{player} is still in the tournament": "{player} ist noch im Turnier",
    "the add-on was already given": "das Add-on wurde schon ausgegeben",
    "this tournament has no add-on": "dieses Turnier hat kein Add-on",
    "the add-on phase is after level {lv} (the break after it, or level {next_level}); this "
    "is level {level} (000 4.13)": "die Add-on-Phase ist nach Level {lv} (die Pause danach "
                                   "oder Level {next_level}); jetzt ist Level {level} (000 4.13)",
    "name {start!r}… is longer than {limit} characters":
        "der Name {start!r}… ist länger als {limit} Zeichen",
    "{player} is already registered": "{player} ist schon angemeldet",
    "a start stack of its own is given at registration, before the draw (003 8, 000 4.18)":
        "ein eigener Startstack wird bei der Anmeldung vor der Auslosung angegeben (003 8, "
        "000 4.18)",
    "name {name!r} has a character that cannot be shown (U+{code:04X}); type the name again":
        "der Name {name!r} hat ein Zeichen, das nicht angezeigt werden kann (U+{code:04X}); "
        "den Namen neu eingeben",
    "name {name!r} has a character that shows as blank (U+{code:04X}); type the name again":
        "der Name {name!r} hat ein Zeichen, das leer erscheint (U+{code:04X}); den Namen neu "
        "eingeben",
    "name {name!r} has no letter, digit or sign that shows; type the name again":
        "der Name {name!r} hat keinen sichtbaren Buchstaben, keine Ziffer und kein Zeichen; "
        "den Namen neu eingeben",
    # ghosts: absent players
    "{player} is a ghost seat already": "{player} ist schon ein Geisterplatz",
    "{player} is not playing": "{player} spielt nicht",
    "{player} is already played as a ghost": "{player} wird schon als Geist gespielt",
    "{player} is not absent": "{player} ist nicht abwesend",
    "a stack is given when the player leaves, not when they are back":
        "ein Stack wird angegeben, wenn der Spieler geht, nicht wenn er zurück ist",
    # hand-for-hand and hands
    "hand-for-hand is already on": "Hand-für-Hand läuft schon",
    "hand-for-hand is not on": "Hand-für-Hand läuft nicht",
    "hand-for-hand needs more than one table": "Hand-für-Hand braucht mehr als einen Tisch",
    "table {table} already finished this hand-for-hand hand; waiting for table {waiting}":
        "Tisch {table} hat diese Hand-für-Hand-Hand schon beendet; es fehlt Tisch {waiting}",
    "table {table} has played its last hand of the day":
        "Tisch {table} hat seine letzte Hand des Tages gespielt",
    # drawn names and mystery bounty
    "{count} names, at most {limit} ({rule})": "{count} Namen, höchstens {limit} ({rule})",
    "this tournament has no championship knock-out points (000 6)":
        "dieses Turnier hat keine Knock-out-Punkte der Meisterschaft (000 6)",
    "{player} is not a member: only members draw names (000 6.3)":
        "{player} ist kein Mitglied: nur Mitglieder ziehen Namen (000 6.3)",
    "this tournament is not a mystery bounty (000 4.17)":
        "dieses Turnier ist kein Mystery Bounty (000 4.17)",
    "{player} cannot draw their own name ({rule})":
        "{player} kann nicht den eigenen Namen ziehen ({rule})",
    "{player} is not a member: members draw members' names ({rule})":
        "{player} ist kein Mitglied: Mitglieder ziehen Namen von Mitgliedern ({rule})",
    "{player} is on the list twice": "{player} steht doppelt auf der Liste",
    # play day
    "table games belong to a play day (play_day.enabled in the preset)":
        "Tischspiele gehören zu einem Spieltag (play_day.enabled in der Vorlage)",
    "game {game} is still played and balanced as one game (003 13): a new game starts when "
    "it is over": "Spiel {game} läuft noch und wird als ein Spiel ausgeglichen (003 13): ein "
                  "neues Spiel beginnt, wenn es vorbei ist",
    "{count} players do not fit one table of {per}":
        "{count} Spieler passen nicht an einen Tisch mit {per}",
    "{player} is named twice": "{player} ist doppelt genannt",
    "{player} is playing at table {table}": "{player} spielt an Tisch {table}",
    "a qualifier sit & go starts with {least}-{most} players (001 §2 III), not {players}":
        "ein Qualifikations-Sit-&-Go beginnt mit {least}-{most} Spielern (001 §2 III), nicht "
        "mit {players}",
    # seating
    "table {table} waits for {who}: no new hand until seated (TDA 11D); press seated when "
    "they sit down": "Tisch {table} wartet auf {who}: keine neue Hand, bis alle sitzen "
                     "(TDA 11D); Platz genommen drücken, wenn sie sitzen",
    "the seats are already drawn": "die Plätze sind schon ausgelost",
    "at least two players must be registered before the draw":
        "vor der Auslosung müssen mindestens zwei Spieler angemeldet sein",
    "{players} players need {tables} tables; table numbers go up to {most}":
        "{players} Spieler brauchen {tables} Tische; die Tischnummern gehen bis {most}",
    "every table number up to {most} is in play: no table can open":
        "jede Tischnummer bis {most} ist in Gebrauch: kein Tisch kann eröffnet werden",
    "these tables each play for themselves and are not balanced (play_day.balancing, 003 13; "
    "a multi-round final, 000 4.19)":
        "diese Tische spielen jeder für sich und werden nicht ausgeglichen (play_day.balancing, "
        "003 13; ein Mehrrunden-Finale, 000 4.19)",
    "the tables are balanced: no move is needed":
        "die Tische sind ausgeglichen: kein Umsetzen nötig",
    "seated takes a player, or a table whose arrivals have all sat down":
        "Platz genommen braucht einen Spieler oder einen Tisch, an dem alle Ankommenden sitzen",
    "nobody is on the way to table {table}": "niemand ist zu Tisch {table} unterwegs",
    "the last table in play cannot break": "der letzte Tisch kann nicht aufgelöst werden",
    "the other tables have {free} free seats for {players} players of table {table}":
        "die anderen Tische haben {free} freie Plätze für {players} Spieler von Tisch {table}",
    "the final table is already formed": "der Finaltisch steht schon",
    "no table is in play: nobody to seat at a final table":
        "kein Tisch ist im Spiel: niemand für einen Finaltisch",
    "the tables play for themselves (a play day's table games, a multi-round final): there "
    "is no final table":
        "die Tische spielen jeder für sich (die Tischspiele eines Spieltags, ein Mehrrunden-"
        "Finale): es gibt keinen Finaltisch",
    "{players} players do not fit at one table of {seats} seats":
        "{players} Spieler passen nicht an einen Tisch mit {seats} Plätzen",
    "{player} has no move pending": "{player} muss nicht umgesetzt werden",
    # time calls
    "a time call at table {table} must name the seat: each player has one per hand "
    "(001 §1 VI)": "eine Zeitansage an Tisch {table} braucht den Platz: jeder Spieler hat "
                   "eine pro Hand (001 §1 VI)",
    "{player} (seat {seat}) already had the time call in this hand: once per hand (001 §1 VI)":
        "{player} (Platz {seat}) hatte in dieser Hand schon die Zeitansage: einmal pro Hand "
        "(001 §1 VI)",
    "a time call is already running at table {table}":
        "an Tisch {table} läuft schon eine Zeitansage",
    "seat must be a seat of table {table} (1-{seats}), got {seat!r}":
        "der Platz muss ein Platz von Tisch {table} sein (1-{seats}), nicht {seat!r}",
    "no time call is running at table {table}": "an Tisch {table} läuft keine Zeitansage",
    # undo
    "event {target} cannot be undone (not the first event of a command, already undone, or "
    "an undo; floorman history lists them)":
        "Ereignis {target} kann nicht zurückgenommen werden (nicht das erste Ereignis eines "
        "Befehls, schon zurückgenommen, oder selbst eine Rücknahme; der Verlauf listet sie)",
    "cannot undo the {what} (event {target}): the floor has since acted on it by itself "
    "({done}), which cannot be taken back":
        "„{what}“ (Ereignis {target}) kann nicht zurückgenommen werden: das Turnier hat "
        "seitdem von selbst darauf reagiert ({done}), und das lässt sich nicht zurücknehmen",
    "cannot undo the {what} (event {target}): later commands depend on it: {steps}. Undo "
    "those first, newest first ({first}), then this one":
        "„{what}“ (Ereignis {target}) kann nicht zurückgenommen werden: spätere Befehle hängen "
        "davon ab: {steps}. Erst diese zurücknehmen, die neuesten zuerst ({first}), dann diesen",
    "cannot undo the {what} (event {target}): later commands depend on it: {steps}. Undo "
    "those first, newest first ({first}), then this one (the hand done of table {tables} "
    "goes with it: press it again there)":
        "„{what}“ (Ereignis {target}) kann nicht zurückgenommen werden: spätere Befehle hängen "
        "davon ab: {steps}. Erst diese zurücknehmen, die neuesten zuerst ({first}), dann "
        "diesen (Hand fertig an Tisch {tables} wird mit zurückgenommen: dort noch einmal "
        "drücken)",
    "cannot undo the {what} (event {target}): the seats it drew ({seating}) have been played "
    "on since: {steps}. An undo does not reseat players who played on: undo those first, "
    "newest first ({first}), then this one":
        "„{what}“ (Ereignis {target}) kann nicht zurückgenommen werden: an den Plätzen, die es "
        "gelost hat ({seating}), wurde seitdem gespielt: {steps}. Eine Rücknahme setzt niemanden "
        "um, der dort weitergespielt hat: erst diese zurücknehmen, die neuesten zuerst "
        "({first}), dann diesen",
    "cannot undo the {what} (event {target}): the seats were drawn after it on the list "
    "without the player (event {draw}); undo the draw first, or enter the player as a late "
    "entry":
        "„{what}“ (Ereignis {target}) kann nicht zurückgenommen werden: danach wurden die "
        "Plätze ohne den Spieler gelost (Ereignis {draw}); erst die Auslosung zurücknehmen, "
        "oder den Spieler nachmelden",
    "the multi-round final is seated by the points of the preliminary rounds (000 4.19): no "
    "late entry, rebuy or re-entry":
        "das Finale des Multi-Round-Modus ist nach den Punkten der Vorrunden gesetzt "
        "(000 4.19): kein Nachmelden, kein Rebuy, kein Re-Entry",
    "{player} is disqualified (000 3.8): no further table game":
        "{player} ist disqualifiziert (000 3.8): kein weiteres Tischspiel",
    "{player} was removed as absent (000 9.5): no further table game":
        "{player} wurde als abwesend aus dem Turnier genommen (000 9.5): kein weiteres "
        "Tischspiel",
    # chip counts (chip_counts.py)
    "the counts add up to {total:,} chips, but {chips:,} are in play (entries, rebuys and "
    "add-ons, less what left the game): {off:,} short: count again, or correct the chips in "
    "play with the reason they left (chip_correction)":
        "die Zählung ergibt {total:,} Chips, im Spiel sind aber {chips:,} (Buy-ins, Rebuys und "
        "Add-ons, abzüglich was das Spiel verlassen hat): {off:,} zu wenig: neu zählen, oder "
        "die Chips im Spiel mit dem Grund korrigieren, aus dem sie gingen (chip_correction)",
    "the counts add up to {total:,} chips, but {chips:,} are in play (entries, rebuys and "
    "add-ons, less what left the game): {off:,} over: count again, or correct the chips in "
    "play with the reason (chip_correction)":
        "die Zählung ergibt {total:,} Chips, im Spiel sind aber {chips:,} (Buy-ins, Rebuys und "
        "Add-ons, abzüglich was das Spiel verlassen hat): {off:,} zu viel: neu zählen, oder "
        "die Chips im Spiel mit dem Grund korrigieren (chip_correction)",
    "the counts add up to {total:,} chips, more than the {chips:,} in play by {off:,}: count "
    "again, or correct the chips in play with the reason (chip_correction)":
        "die Zählung ergibt {total:,} Chips, {off:,} mehr als die {chips:,} im Spiel: neu "
        "zählen, oder die Chips im Spiel mit dem Grund korrigieren (chip_correction)",
    "a correction of 0 chips changes nothing": "eine Korrektur um 0 Chips ändert nichts",
    "a correction of the chips in play needs its reason":
        "eine Korrektur der Chips im Spiel braucht ihren Grund",
    "{chips:,} chips are in play: a correction of {change:,} leaves none":
        "{chips:,} Chips sind im Spiel: eine Korrektur um {change:,} lässt keine übrig",
    "{player} is out: no chips to count": "{player} ist ausgeschieden: keine Chips zu zählen",
    "{player} is counted twice": "{player} ist doppelt gezählt",
    "a count names a player, or a table and a seat, not both":
        "eine Zählung nennt einen Spieler oder Tisch und Platz, nicht beides",
    "a count needs a player, or a table and a seat":
        "eine Zählung braucht einen Spieler oder Tisch und Platz",
    "seat {seat} at table {table} is empty: nobody there to count":
        "Platz {seat} an Tisch {table} ist frei: dort ist niemand zu zählen",
    # the deal at the final table (final_deal.py, issue 30)
    "this tournament plays for points: there is no money to deal":
        "dieses Turnier spielt um Punkte: es gibt kein Geld aufzuteilen",
    "a satellite pays tickets: they are not dealt":
        "ein Satellite zahlt Tickets: sie werden nicht aufgeteilt",
    "a deal stands already (event {event}): undo it first to make another":
        "ein Deal steht schon (Ereignis {event}): erst ihn zurücknehmen, dann einen neuen",
    "players can still buy in (late registration, re-entries, rebuys or the add-on): the "
    "prize pool is not final, no deal yet":
        "es kann sich noch eingekauft werden (Nachmeldung, Re-Entry, Rebuy oder Add-on): der "
        "Preispool steht noch nicht fest, noch kein Deal",
    "a ghost seat is still in play: no deal before the ghosts are gone":
        "ein Geisterplatz ist noch im Spiel: kein Deal, bevor die Geister weg sind",
    "a deal needs two players left at least": "ein Deal braucht mindestens zwei Spieler",
    "{count} players are left: a deal is made at the final table":
        "{count} Spieler sind noch dabei: ein Deal wird am Finaltisch gemacht",
    "the players left sit at {count} tables: a deal is made at the final table":
        "die verbliebenen Spieler sitzen an {count} Tischen: ein Deal wird am Finaltisch "
        "gemacht",
    "count the stacks of the players left first (chip_counts): {players} not counted since "
    "their last buy-in":
        "erst die Stacks der verbliebenen Spieler zählen (chip_counts): {players} seit dem "
        "letzten Einkauf nicht gezählt",
    "no paid place is left among the players left: nothing to deal":
        "unter den verbliebenen Spielern ist kein bezahlter Platz mehr: nichts aufzuteilen",
    "give the part played for in percent or in cents, not both":
        "den ausgespielten Teil in Prozent oder in Cent angeben, nicht beides",
    "{amount} {currency} played for is more than the first place pays ({first} {currency}): "
    "it is taken off it":
        "{amount} {currency} ausgespielt ist mehr, als der erste Platz zahlt ({first} "
        "{currency}): es wird von ihm abgezogen",
    "amounts are for a custom deal (method custom); {method} computes them":
        "Beträge gibt es nur für eine eigene Aufteilung; {method} rechnet sie selbst",
    "no deal: {reason}": "kein Deal: {reason}",
    "{player} is not among the players left": "{player} ist nicht unter den verbliebenen Spielern",
    "{player} is named twice in the deal": "{player} ist im Deal doppelt genannt",
    "a deal gives every player left their part: {players} missing":
        "ein Deal gibt jedem verbliebenen Spieler seinen Teil: {players} fehlt",
    "the deal adds up to {total} {currency}, but {dealt} {currency} are dealt (the {open} of "
    "the places open less {played} played for)":
        "der Deal ergibt {total} {currency}, aufgeteilt werden aber {dealt} {currency} (die "
        "{open} der offenen Plätze abzüglich {played} ausgespielt)",
    # what a standing deal refuses (final_deal.py, found by the floor model)
    "a deal stands (event {event}), made after {players} went out: {player} cannot be out "
    "in that hand; out in a hand of its own, or undo the deal first":
        "ein Deal steht (Ereignis {event}), gemacht nachdem {players} ausgeschieden ist: "
        "{player} kann nicht in dieser Hand ausgeschieden sein; in einer eigenen Hand, oder "
        "erst den Deal zurücknehmen",
    "{player} is in the deal (event {event}): undo the deal first, then disqualify, and "
    "deal again among the players left":
        "{player} ist im Deal (Ereignis {event}): erst den Deal zurücknehmen, dann "
        "disqualifizieren und unter den verbliebenen Spielern neu dealen",
    "a deal stands (event {event}): the pool it split is final, nobody buys in; undo the "
    "deal first":
        "ein Deal steht (Ereignis {event}): der aufgeteilte Preispool steht fest, niemand "
        "kauft sich mehr ein; erst den Deal zurücknehmen",
    # modes (landesliga.py, rounds.py)
    "{command} belongs to {what} (mode.kind: {kind}); this tournament is {mode}":
        "{command} gehört zu {what} (mode.kind: {kind}); dieses Turnier ist {mode}",
    "the start stacks are set before the draw of the final (000 4.18)":
        "die Startstacks werden vor der Auslosung des Finales gesetzt (000 4.18)",
    "{player} has points twice": "{player} hat doppelt Punkte",
    "round {round} stops after level {last} (000 4.14); the clock is in level {level}":
        "Runde {round} endet nach Level {last} (000 4.14); die Uhr steht in Level {level}",
    "end_round belongs to play the clock, restart or multi-round (mode.kind: play_the_clock, "
    "restart or multi_round); this tournament is {mode}":
        "end_round gehört zu Play the Clock, Restart oder Mehrrunden (mode.kind: "
        "play_the_clock, restart oder multi_round); dieses Turnier ist {mode}",
    "both preliminary rounds are over (000 4.14): the tournament plays on to its end":
        "beide Vorrunden sind vorbei (000 4.14): das Turnier wird zu Ende gespielt",
    "the {rounds} preliminary rounds are over (000 4.19): every table of the final plays to "
    "its last player": "die {rounds} Vorrunden sind vorbei (000 4.19): jeder Finaltisch "
                       "spielt bis zum letzten Spieler",
    "round {round} ends after {minutes} minutes of play ({rule}); {left} are still to play":
        "Runde {round} endet nach {minutes} Minuten Spielzeit ({rule}); noch {left} zu spielen",
    # penalties and disqualification (penalties.py), field sizes (field_size.py)
    "{player} is disqualified (000 3.8): no rebuy, no re-entry":
        "{player} ist disqualifiziert (000 3.8): kein Rebuy, kein Re-Entry",
    "a table starts with at least {least} players (002); {players} players would make a table "
    "of {smallest}": "ein Tisch beginnt mit mindestens {least} Spielern (002); {players} "
                     "Spieler ergäben einen Tisch mit {smallest}",
    "{player} is a ghost seat, not a player: no {what}":
        "{player} ist ein Geisterplatz, kein Spieler: keine {what}",
    "{player} is disqualified already": "{player} ist schon disqualifiziert",
    "{player} is out (not playing): no {what}":
        "{player} ist ausgeschieden (spielt nicht): keine {what}",
    "a sit-out needs one length: hands, orbits or minutes (got {given})":
        "eine Aussetzstrafe braucht genau eine Länge: Hände, Runden oder Minuten ({given})",
    "{player} sits out for minutes: give the added penalty in minutes too":
        "{player} setzt Minuten aus: die zusätzliche Strafe auch in Minuten geben",
    "{player} is the last player in": "{player} ist der letzte Spieler im Turnier",
    "a stack of {chips} is more than the {in_play} chips in play":
        "ein Stack von {chips} ist mehr als die {in_play} Chips im Spiel",
    "a {what} has no length (got {given})": "eine {what} hat keine Länge ({given})",
    "{player} sits out {sit_out_hands} more hands: give the added penalty in hands too":
        "{player} setzt noch {sit_out_hands} Hände aus: die zusätzliche Strafe auch in Händen "
        "geben",
    "{player} owes the blinds already": "{player} schuldet die Blinds schon",
    "{player} has not moved tables: there are no blinds to owe (000 4.11)":
        "{player} hat nicht den Tisch gewechselt: es gibt keine Blinds zu schulden (000 4.11)",
    # the chip race (chip_race.py, 000 3.17)
    'no colour-up is due: a chip race runs in a break whose note names the chip that leaves '
    '("Chipraise 25") or after the director\'s colour-up':
        "kein Chip-Tausch fällig: ein Chip Race läuft in einer Pause, deren Notiz den Chip "
        "nennt, der geht („Chipraise 25“), oder nach dem Colour-up der Turnierleitung",
    "table {table} already had its chip race in this colour-up (undo it first to enter it "
    "again)":
        "Tisch {table} hatte bei diesem Chip-Tausch schon sein Chip Race (erst zurücknehmen, "
        "um es neu einzugeben)",
    # the director's colour-up and the absent player (chip_race.py, 002)
    "{chip} is not one of the club's chips ({chips})":
        "{chip} ist keiner der Chips des Clubs ({chips})",
    "{chip} is the club's biggest chip: there is nothing to colour it up to":
        "{chip} ist der größte Chip des Clubs: es gibt keinen, in den er getauscht wird",
    "the tournament has not started: the chips are coloured up once play has begun":
        "das Turnier hat nicht begonnen: Chips werden erst im Spiel getauscht",
    "the {chip} chips are being coloured up already":
        "die {chip}er werden schon getauscht",
    "seat {seat} at table {table} is empty: nobody there is absent":
        "Platz {seat} an Tisch {table} ist frei: dort fehlt niemand",
    "seat {seat} is absent, but has no small chips of {leaving} to lose":
        "Platz {seat} ist abwesend, hat aber keine kleinen Chips zu {leaving}, die er verliert",
    "seat {seat} is absent: an absent player's small chips are taken out, not raced (002)":
        "Platz {seat} ist abwesend: die kleinen Chips eines Abwesenden werden aus dem Spiel "
        "genommen, nicht ausgespielt (002)",
    # the end of the day (hands.py, 002)
    "the card drawn for the end of the day is a 3, 4 or 5 (002), not {card}":
        "die zum Tagesende gezogene Karte ist eine 3, 4 oder 5 (002), nicht {card}",
    "the hands left of the day are set already ({count}); undo that first":
        "die restlichen Hände des Tages stehen schon fest ({count}); erst zurücknehmen",
    "the structure has no last level with a time: the day has no end to draw (002)":
        "die Struktur hat kein letztes Level mit Zeit: es gibt kein Tagesende zu ziehen (002)",
    "the end of the day is drawn in the last 7-15 minutes of level {level}, the day's last "
    "(002)":
        "das Tagesende wird in den letzten 7-15 Minuten von Level {level} gezogen, dem letzten "
        "des Tages (002)",
    "table {table} has {seats} seats, got leftover chips for {count}":
        "Tisch {table} hat {seats} Plätze, Rest-Chips kamen für {count}",
    "no leftover chips of {leaving} at table {table}: nothing to race":
        "keine Rest-Chips zu {leaving} an Tisch {table}: kein Chip Race nötig",
    "{need} leftover chips need {need} cards; a deck has {count}":
        "{need} Rest-Chips brauchen {need} Karten; ein Deck hat {count}",
    "seat {seat} at table {table} is empty: no leftover chips there":
        "Platz {seat} an Tisch {table} ist frei: dort gibt es keine Rest-Chips",
    "seat {seat}: {chips} chips of {leaving} make at least one {new}; colour those up first "
    "(at most {most} are left over)":
        "Platz {seat}: {chips} Chips zu {leaving} ergeben mindestens einen zu {new}; die erst "
        "tauschen (höchstens {most} bleiben übrig)",
    "seat {seat} is short, but has no leftover chips of {leaving}":
        "Platz {seat} ist knapp, hat aber keine Rest-Chips zu {leaving}",
    "undo takes a target or a table, not both":
        "Rücknahme nimmt ein Ziel oder einen Tisch, nicht beides",
    "nothing to undo at table {table}": "an Tisch {table} gibt es nichts zurückzunehmen",
    "there is nothing to undo": "es gibt nichts zurückzunehmen",
}

#: words a reason passes as a value (a mode's name): English → German
WORDS_DE: dict[str, str] = {
    "a Landesliga final": "einem Landesliga-Finale",  # "gehört zu …"
    "tournament": "ein normales Turnier",
    "play the clock": "Play the Clock",
    "restart": "Restart",
    "multi round": "Mehrrunden",
    "landesliga final": "Landesliga-Finale",
    "cannonball": "Cannonball",
    "penalty": "Strafe",  # "keine …"
    "disqualification": "Disqualifikation",
    "warning": "Verwarnung",  # "eine … hat keine Länge"
    "owed blinds": "Blind-Schuld",
    "none": "keine",
}

#: lists inside a reason (controller.engine.commands.Each): English template → German
EACH_DE: dict[str, str] = {
    "{player} (from table {from_table} seat {from_seat} to seat {to_seat})":
        "{player} (von Tisch {from_table} Platz {from_seat} auf Platz {to_seat})",
}

#: refusals whose text is their key (the store's, controller.log.store)
PLAIN_DE: dict[str, str] = {
    "not stored: the disk is full": "nicht gespeichert: die Festplatte ist voll",
}


def _names(players: Any) -> str:
    return ", ".join(str(p) for p in players) if isinstance(players, list) else str(players)


def _busted(p: Mapping[str, Any]) -> str:
    if p.get("place"):
        return f"{p['player']} raus auf Platz {p['place']}"
    seat = f" Platz {p['seat']}" if p.get("seat") else ""
    return f"{p['player']} raus (Tisch {p['table']}{seat})"


def _clock_now(p: Mapping[str, Any]) -> str:
    if p.get("is_break"):
        what = "Pause"
    else:
        what = f"Level {p['level']} {p['small_blind']}/{p['big_blind']}" + (
            f"/{p['ante']}" if p.get("ante") else "")
    left = p.get("left")
    when = "ohne Ende" if left is None else f"noch {mmss(left)}"
    state = {"running": "läuft", "paused": "angehalten"}.get(p.get("state", ""), "nicht gestartet")
    return f"{what}: {when} ({state})"


def _time_added(p: Mapping[str, Any]) -> str:
    v = float(p.get("seconds") or 0)
    return f"{mmss(v)} " + ("dazu" if v >= 0 else "abgezogen")


def _announced(p: Mapping[str, Any]) -> str:
    seconds = p.get("seconds")
    return f"angesagt: „{p['text']}“" + ("" if seconds is None else f" für {mmss(seconds)}")


def _why(p: Mapping[str, Any]) -> str:
    """A penalty's reason as the director typed it, in brackets."""
    return f" ({p['reason']})" if p.get("reason") else ""


def _field_warning(p: Mapping[str, Any]) -> str:
    lo, hi = p.get("min"), p.get("max")
    span = f"{lo or 1}-{hi}" if hi is not None else f"mindestens {lo}"
    return f"Achtung: {p['players']} Spieler, dieses Turnier ist für {span} gemacht (001 §2)"


def _sit_out(p: Mapping[str, Any]) -> str:
    if p.get("minutes") is not None:
        length = f"{mmss(float(p['minutes']) * 60)} Min."
    elif p.get("orbits"):
        length = f"{p['orbits']} Runde{'n' if p['orbits'] != 1 else ''} ({p['hands']} Hände)"
    else:
        length = f"{p['hands']} Hände"
    return f"{p['player']} setzt {length} aus" + _why(p)


def _chip_race(p: Mapping[str, Any]) -> str:
    wins = [f"Platz {s} +{n}" for s, n in zip(p["winners"], p["won"], strict=True)]
    wins += [f"Platz {s} behält einen" for s in p["saved"]]
    return (f"Tisch {p['table']}: Chip Race {p['leaving']} → {p['new']}: "
            + (", ".join(wins) or "kein neuer Chip")
            + "".join(f", Platz {s} abwesend verliert {_num(n)}" for s, n in p.get("absent", ())))


def _hand_done(p: Mapping[str, Any]) -> str:
    if "with" in p:  # a hand done as a command, with what it made the floor do
        also = "; ".join(phrase(w, "de") for w in p["with"])
        return f"Hand fertig an Tisch {p['table']}" + (f" (mit: {also})" if also else "")
    return f"Tisch {p['table']}: Hand fertig" + (" (die vergessene, nachgeholt)"
                                                  if p.get("missed") else "")


def _leave(p: Mapping[str, Any]) -> str:
    chips = p.get("chips")  # what left play with them (none in a log written before)
    return "" if chips is None else f" ({chips:,} Chips verlassen das Spiel)".replace(",", ".")


def _num(n: Any) -> str:
    """A chip amount the German way: ``20.000``."""
    return f"{n:,}".replace(",", ".") if isinstance(n, int) else str(n)


def _ghosts_removed(p: Mapping[str, Any]) -> str:
    # the time for it came with no ghost seat left (the rule marks it done all the same)
    n = p["count"]
    if not n:
        return "keine Geisterplätze zu entfernen"
    return ("1 Geisterplatz" if n == 1 else f"{n} Geisterplätze") + " entfernt" + _leave(p)


def _structure_change(text: str) -> str:
    """What a structure change did, as rules/clock.py words it, in German (a wording it
    does not know stays English)."""
    where = r"(?:after level (\d+)|before level 1)"
    m = re.fullmatch(r"a (?:break|level (\d+)/(\d+)(?: ante (\d+))?) of ([\d.]+) min "
                     r"inserted " + where, text)
    if m:
        sb, bb, ante, minutes, after = m.groups()
        what = "eine Pause" if sb is None else f"ein Level {sb}/{bb}" + (
            f" Ante {ante}" if ante else "")
        at = f"nach Level {after}" if after else "vor Level 1"
        return f"{what} von {minutes.replace('.', ',')} Min. eingefügt {at}"
    m = re.fullmatch(r"levels from (\d+) on last ([\d.]+) min( \(breaks too\))?", text)
    if m:
        first, minutes, breaks = m.groups()
        return (f"Level ab {first} dauern {minutes.replace('.', ',')} Min."
                + (" (Pausen auch)" if breaks else ""))
    return text


def _undone(p: Mapping[str, Any]) -> str:
    text = f"{phrase(p.get('what') or {}, 'de')} zurückgenommen (Ereignis {p['event']})"
    for key, word in (("withdrawn", "zurückgezogen"), ("stays", "bleibt (schon ausgeführt)")):
        if p.get(key):  # the balancing moves that went with it, or stay (rules/undo.py)
            text += f"; {word}: " + "; ".join(phrase(m, "de") for m in p[key])
    return text


#: why hand-for-hand began or ended (rules/hand_for_hand.py ``read_reason``)
HFH_REASONS_DE = {"director": "Turnierleitung", "burst": "Bubble geplatzt",
                  "one_table": "nur noch ein Tisch",
                  "bubble": "Bubble: {left} übrig, {places} Plätze zählen"}


def _hfh_reason(reason: str) -> str:
    which, values = hand_for_hand.read_reason(reason)
    return HFH_REASONS_DE[which].format(**values) if which in HFH_REASONS_DE else reason


#: what a command did: phrase key → its German (a phrase's values in, text out)
PHRASES_DE: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "busted": _busted,
    "bust": lambda p: "Ausscheiden von " + "; ".join(
        f"{b['player']}, Tisch {b['table']}" + (f" Platz {b['seat']}" if b.get("seat") else "")
        + (f", Rang {b['place']}" if b.get("place") else "") for b in p.get("busts", [p])),
    "registered": lambda p: f"{p['player']} angemeldet",
    "registered_many": lambda p: f"{p['count']} angemeldet: {_names(p['players'])}",
    "registration": lambda p: f"Anmeldung von {_names(p['players'])}",
    "renamed": lambda p: f"{p['old']} heißt jetzt {p['name']}",
    "unregistered": lambda p: f"{p['player']} von der Liste genommen",
    "late_entry": lambda p: f"Nachmeldung von {p['player']} an Tisch {p['table']} Platz "
                            f"{p['seat']}",
    "late_entries": lambda p: f"Nachmeldung von {_names(p['players'])}",
    "reentry": lambda p: f"Re-Entry von {p['player']} an Tisch {p['table']} Platz {p['seat']}",
    "rebuy": lambda p: f"Rebuy von {p['player']} an Tisch {p['table']} Platz {p['seat']}",
    "moved": lambda p: f"Umsetzen {p['player']}: Tisch {p['from_table']} Platz "
                       f"{p['from_seat']} → Tisch {p['to_table']} Platz {p['to_seat']}",
    "reseated": lambda p: f"Umsetzen durch die Turnierleitung {p['player']}: Tisch "
                          f"{p['from_table']} Platz {p['from_seat']} → Tisch {p['to_table']} "
                          f"Platz {p['to_seat']} ({p['reason']})",
    "seats_reserved": lambda p: f"Plätze freigehalten: {p['count']}" + (
        (" ({} freigegeben)" if p.get("released") else " (frei: {})").format(
            ", ".join(f"Tisch {n} Platz {s}" for n, s in p["seats"]))
        if p.get("seats") else "") + f" ({p['reason']})",
    "seated": lambda p: f"{p['player']} sitzt",
    "dealt_in": lambda p: f"{p['player']} steigt sofort ein an Tisch {p['table']} Platz "
                          f"{p['seat']}" + ("; der Platz wartet noch auf den Button wie jeder "
                                            "Neuankömmling zwischen Button und Small Blind "
                                            "(000 4.10)" if p.get("waits") else ""),
    "table_opened": lambda p: f"Tisch {p['table']} öffnet mit {p['players']} Spielern",
    "table_broken": lambda p: f"Tisch {p['table']} wird aufgelöst",
    "final_table": lambda p: f"Finaltisch an Tisch {p['table']}",
    "seats_drawn": lambda p: "Plätze ausgelost: "
    + ("1 Tisch" if p["tables"] == 1 else f"{p['tables']} Tische"),
    "hand_done": _hand_done,
    "hands_left": lambda p: f"noch {p['count']} Hände pro Tisch",
    "day_end_card": lambda p: f"Tagesende: eine {p['count']} gezogen, noch {p['count']} Hände "
                              "pro Tisch",
    "colour_up": lambda p: f"Colour-up: die {_num(p['leaving'])}er gehen, für "
                           f"{_num(p['new'])}er",
    "time_call": lambda p: f"Tisch {p['table']}: Zeitansage "
    + {"start": "läuft", "cancel": "abgebrochen", "expire": "abgelaufen"}.get(p["op"], p["op"]),
    "hfh": lambda p: "Hand-für-Hand " + ("an" if p["on"] else "aus")
    + f" ({_hfh_reason(str(p['reason']))})",
    "hfh_released": lambda p: f"Hand-für-Hand, Hand {p['hand']}: austeilen",
    "qualified": lambda p: f"qualifiziert: {_names(p['players'])}",
    "finished": lambda p: f"Sieger: {p['player']}",
    "table_game": lambda p: f"Tischspiel {p['game']} an Tisch {_names(p['tables'])}",
    "table_game_over": lambda p: f"Tischspiel {p['game']} gewinnt {p['player']}",
    "absent": lambda p: f"{p['player']} wird als Geist gespielt" if p["on"]
    else f"{p['player']} ist zurück",
    "absent_removed": lambda p: f"nach 2 h Abwesenheit entfernt: {_names(p['players'])}"
    + _leave(p),
    "addon": lambda p: f"Add-on: je {_num(p['chips'])} Chips für {p['players']} Spieler",
    "ghosts_removed": _ghosts_removed,
    "chips_corrected": lambda p: "Chips im Spiel korrigiert um "
    + f"{p['change']:+,}".replace(",", ".") + f" ({p['reason']})",
    "heads_up": lambda p: "Heads-up",
    "action_clock": lambda p: f"Tisch {p['table']}: Aktionszeit {p['seconds']} s",
    "chip_race": _chip_race,
    "field_warning": _field_warning,
    "disqualified": lambda p: f"{p['player']} disqualifiziert, {_num(p['chips'])} Chips "
                              f"verlassen das Spiel" + _why(p),
    "penalty_warning": lambda p: f"Verwarnung für {p['player']}" + _why(p),
    "penalty_owed_blinds": lambda p: f"{p['player']} schuldet die Blinds (000 4.11)" + _why(p),
    "penalty_sit_out": _sit_out,
    "chips_counted": lambda p: f"{p['count']} Stacks gezählt",
    "deal": lambda p: "Deal ("
    + {"icm": "ICM", "chip_chop": "Chip Chop"}.get(p["method"], "eigene Aufteilung")
    + f") von {p['players']} Spielern, {p['played_for']} {p['currency']} werden ausgespielt",
    "round_ended": lambda p: f"Runde {p['round']} vorbei: " + {
        "chips": "die Chips entscheiden", "points": "die Finaltische nach Punkten",
        "lot": "neue Plätze per Los"}.get(p.get("how", ""), "neu gesetzt"),
    "start_stacks": lambda p: f"Startstacks aus Punkten für {p['count']} Spieler",
    "table_decided": lambda p: f"Tisch {p['table']} entschieden: {p['player']}",
    # the change itself is said in English (clock.py builds it from the new level)
    "structure_changed": lambda p: f"Struktur: {_structure_change(str(p['change']))}",
    "time_added": _time_added,
    "time_set": lambda p: f"Zeit auf {mmss(p.get('seconds') or 0)} gesetzt",
    "clock_start": lambda p: "Uhr gestartet",
    "clock_pause": lambda p: "Uhr angehalten",
    "clock_resume": lambda p: "Uhr läuft weiter",
    "clock_level": lambda p: "Level gewechselt",
    "clock_now": _clock_now,
    "announcement_cleared": lambda p: "Ansage entfernt",
    "announced": _announced,
    "undo": lambda p: f"Ereignis {p['event']} zurückgenommen",
    "undone": _undone,
    "event": lambda p: f"Ereignis {p['event']}",
}

# ------------------------------------------------- the registration desk (issue 31)
PHRASES_DE.update({
    "waitlisted": lambda p: f"{p['player']} auf der Warteliste"
    + (f" (Platz {p['position']})" if p.get("position") else ""),
    "waiting_called": lambda p: f"{p['player']} von der Warteliste nachgerückt: ein Platz ist "
                                "frei",
    "waiting_left": lambda p: f"{p['player']} von der Warteliste genommen",
    "capacity_set": lambda p: "keine Platzgrenze" if p.get("seats") is None
    else f"Platzgrenze {p['seats']}",
    "checked_in": lambda p: f"{p['player']} eingecheckt",
    "bumped": lambda p: f"{p['player']} an die Spitze der Warteliste: ein eine Woche vorher "
                        "angemeldetes Mitglied hat den Platz sicher (000 2.3)",
    "expected": lambda p: f"{p['player']} vorangemeldet, erwartet",
    "expected_many": lambda p: f"{p['count']} vorangemeldet, erwartet: {_names(p['players'])}",
    "no_shows": lambda p: f"nicht erschienen (No-Show): {_names(p['players'])}",
    # members and guests, one table a player (issue 31)
    "age_confirmed": lambda p: f"{p['player']}: 18 Jahre oder älter, bestätigt",
    "age_confirmed_many": lambda p: f"18 Jahre oder älter, bestätigt: {_names(p['players'])}",
    "elsewhere": lambda p: f"{p['player']} spielt zuerst bei {p['tournament']} (früher "
                           "gestartet, 001 §1 III)",
    "elsewhere_done": lambda p: f"{p['player']} ist bei {p['tournament']} fertig: spielt jetzt "
                                "hier",
})
REASONS_DE.update({
    "{player} is already on the waiting list (position {position})":
        "{player} steht schon auf der Warteliste (Platz {position})",
    "give the seat limit as seats or as tables, not both":
        "die Platzgrenze als Plätze oder als Tische angeben, nicht beides",
    "the seat limit is already {seats}": "die Platzgrenze ist schon {seats}",
    "there is no seat limit to lift": "es gibt keine Platzgrenze aufzuheben",
    "{players} players already have a seat: the limit cannot be {seats} (take players off "
    "the list first)":
        "{players} Spieler haben schon einen Platz: die Grenze kann nicht {seats} sein "
        "(zuerst Spieler von der Liste nehmen)",
    "the seats are drawn: register arrivals as late entries":
        "die Plätze sind ausgelost: Ankommende als Nachmeldung anmelden",
    "{player} is already checked in (waiting list, position {position})":
        "{player} ist schon eingecheckt (Warteliste, Platz {position})",
    "{player} is already checked in": "{player} ist schon eingecheckt",
    "{player} is banned from tournaments until {until} for not coming without calling off "
    "(000 2.7)":
        "{player} ist bis {until} für Turniere gesperrt, weil ohne Abmeldung nicht erschienen "
        "(000 2.7)",
    "cancellations close {hours} h before the start (000 2.6): confirm to take it all the "
    "same":
        "Absagen sind nur bis {hours} Stunden vor Turnierbeginn möglich (000 2.6): bestätigen, um "
        "sie trotzdem anzunehmen",
})
REASONS_DE.update({  # members and guests, one table a player (issue 31)
    "{player} is not 18: tournaments are for players of 18 and older (000 1.1, 003 1)":
        "{player} ist nicht 18: Turniere sind für Spieler ab 18 Jahren (000 1.1, 003 1)",
    "{player} is a guest: {tournament} is for members only (000 2.5, 003 8)":
        "{player} ist Gast: {tournament} ist nur für Vereinsmitglieder (000 2.5, 003 8)",
    "ask {player}: 18 or older? No confirmation on record (000 1.1, 003 1): register again "
    "with 18+ confirmed":
        "{player} fragen: 18 oder älter? Keine Bestätigung gespeichert (000 1.1, 003 1): mit "
        "„18+ bestätigt“ noch einmal anmelden",
    "{player} plays here only (no other tournament is marked)":
        "{player} spielt nur hier (kein anderes Turnier vermerkt)",
    "{player} already plays at {tournament} (001 §1 III)":
        "{player} spielt schon bei {tournament} (001 §1 III)",
    "say when {tournament} started (started: ISO date and time)":
        "angeben, wann {tournament} begonnen hat (Datum und Uhrzeit)",
    "{started!r} is no date and time (ISO, e.g. 2026-11-27T19:30+01:00)":
        "{started!r} ist kein Datum mit Uhrzeit (z. B. 2026-11-27 19:30+01:00)",
    "{started!r} needs its UTC offset (e.g. +01:00)":
        "{started!r} braucht die Zeitzone (z. B. +01:00)",
    "{tournament} started after this tournament: {player} plays here, and waits there "
    "(001 §1 III)":
        "{tournament} hat nach diesem Turnier begonnen: {player} spielt hier und wartet dort "
        "(001 §1 III)",
    "{player} plays at {tournament}, which started earlier: a bust or a move here waits "
    "until that is over for the player (001 §1 III)":
        "{player} spielt bei {tournament}, das früher begonnen hat: Ausscheiden oder Umsetzen "
        "hier erst, wenn es dort für den Spieler vorbei ist (001 §1 III)",
})
#: why a move is due (the engine's ``Move.reason``, rules/seating.py and rules/rounds.py):
#: a pattern of the English → its German
MOVE_REASONS_DE: tuple[tuple[str, str], ...] = (
    (r"balancing", "Ausgleich"),
    (r"reseat", "Umsetzen durch die Turnierleitung"),
    (r"table (\d+) breaks", r"Tisch \1 wird aufgelöst"),
    (r"table (\d+) breaks \(director\)", r"Tisch \1 wird aufgelöst (Turnierleitung)"),
    (r"table (\d+) opens", r"Tisch \1 öffnet"),
    (r"final table", "Finaltisch"),
    (r"final table \(director\)", "Finaltisch (Turnierleitung)"),
    (r"round (\d+) over: the final tables by points",
     r"Runde \1 vorbei: die Finaltische nach Punkten"),
    (r"round (\d+) over: new seats by lot", r"Runde \1 vorbei: neue Plätze per Los"),
)


def move_reason(text: str, lang: str) -> str:
    """Why a move is due, in ``lang`` (one the module does not know stays as it is)."""
    if lang != "de":
        return text
    for pattern, german in MOVE_REASONS_DE:
        if re.fullmatch(pattern, text):
            return re.sub(pattern, german, text)
    return text


#: a reply lists at most this many phrases (as controller.engine.history.line)
MAX_PHRASES = 6


def phrase(p: Mapping[str, Any], lang: str) -> str:
    """One thing a command did (``{"key", "params", "text"}``) in ``lang``; English, or a
    phrase this module cannot say, is its ``text``."""
    text = str(p.get("text", ""))
    say = PHRASES_DE.get(str(p.get("key"))) if lang == "de" else None
    if say is None:
        return text
    try:
        return say(p.get("params") or {})
    except (KeyError, TypeError, ValueError):  # a phrase from another version: its English
        return text


def message(answer: Mapping[str, Any], lang: str) -> str:
    """What an accepted command did, as one line in ``lang`` (its ``message`` in English)."""
    phrases = answer.get("phrases")
    if lang != "de" or not isinstance(phrases, list) or not phrases:
        return str(answer.get("message") or "ok")
    texts = [phrase(p, lang) for p in phrases if isinstance(p, Mapping)]
    if len(texts) > MAX_PHRASES:
        texts = texts[:MAX_PHRASES - 1] + [f"… und {len(texts) - MAX_PHRASES + 1} weitere"]
    return "; ".join(texts) or "ok"


def capital(text: str, phrases: Any = None) -> str:
    """A line as a sentence: the first letter a capital ("angesagt: …" → "Angesagt: …"),
    unless the line begins with a name a phrase carries (a player called "de Vries")."""
    if not text or not text[0].islower():
        return text
    for p in phrases if isinstance(phrases, list) else ():
        values = (p.get("params") or {}).values() if isinstance(p, Mapping) else ()
        if any(isinstance(v, str) and v and text.startswith(v) for v in values):
            return text
    return text[0].upper() + text[1:]


def reason(answer: Mapping[str, Any], lang: str) -> str:
    """Why a command was refused, in ``lang``: the answer's ``why`` in German where this
    module knows its template, else the English ``reason``."""
    english = str(answer.get("reason") or "?")
    why = answer.get("why")
    if lang != "de" or not isinstance(why, Mapping):
        return english
    key, params = str(why.get("key", "")), why.get("params") or {}
    if not params and key in PLAIN_DE:
        return PLAIN_DE[key]
    template = REASONS_DE.get(key)
    if template is None or not isinstance(params, Mapping):
        return english
    try:
        return template.format(**{k: _value(v) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return english


def _value(v: Any) -> Any:
    """A reason's value in German: a phrase, a list of steps or an :class:`Each` list is
    said again; names and numbers stay."""
    if isinstance(v, Mapping) and "key" in v:
        return phrase(v, "de")
    if isinstance(v, Mapping) and "each" in v:
        template = EACH_DE.get(str(v["each"]), str(v["each"]))
        return ", ".join(template.format(**item) for item in v.get("items", []))
    if isinstance(v, list) and all(isinstance(i, Mapping) and "event" in i for i in v):
        return "; ".join(f"#{i['event']} {phrase(i, 'de')}" for i in v)
    if isinstance(v, str):
        return WORDS_DE.get(v, v)
    if isinstance(v, int) and not isinstance(v, bool):
        return _Number(v)
    return v


class _Number(int):
    """A whole number written the German way where the template groups it: ``{n:,}`` →
    ``23.500``."""

    def __format__(self, spec: str) -> str:
        text = format(int(self), spec)
        return text.replace(",", ".") if "," in spec else text
