"""Every word of the console, in English and German (``tr(key, lang, **values)``).

Numbers and clock times are written as on the screens (:mod:`controller.wire.i18n`). The
controller's reasons and replies are said in the page's language by
:mod:`controller.wire.wording`.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("de", "en")

#: key → (English, German)
LABELS: dict[str, tuple[str, str]] = {
    "console": ("Floorman console", "Floorman-Konsole"),
    "sign_in": ("Sign in", "Anmelden"),
    "sign_out": ("Sign out", "Abmelden"),
    "password": ("Director's password", "Passwort der Turnierleitung"),
    "wrong_password": ("Wrong password.", "Falsches Passwort."),
    "wait_seconds": ("Too many wrong passwords: try again in {n} s.",
                     "Zu viele falsche Passwörter: in {n} s wieder versuchen."),
    "signed_out": ("Signed out.", "Abgemeldet."),
    "key_used": ("This sign-in code was used already or has expired: sign in with the "
                 "password.",
                 "Dieser Anmelde-Code ist schon benutzt oder abgelaufen: mit dem Passwort "
                 "anmelden."),
    "floor": ("Floor", "Saal"),
    "players": ("Players", "Spieler"),
    "results": ("Results", "Ergebnis"),
    # status
    "link_down": ("No connection to the broker: reconnecting…",
                  "Keine Verbindung zum Broker: verbinde neu …"),
    "controller_offline": ("The controller is offline: commands wait until it is back.",
                           "Der Controller ist offline: Befehle warten, bis er zurück ist."),
    "screens_offline": ("Screens offline: {who}", "Bildschirme offline: {who}"),
    "screen_wall": ("wall {id}", "Wand {id}"),
    "screen_director": ("director's screen {id}", "Leitungs-Bildschirm {id}"),
    "screen_other": ("screen {id}", "Bildschirm {id}"),
    "stream_lost": ("Live updates interrupted: reconnecting…",
                    "Live-Anzeige unterbrochen: verbinde neu …"),
    "no_state": ("Waiting for the controller's state…", "Warte auf den Stand vom Controller …"),
    # clock
    "level_n": ("Level {n}", "Level {n}"),
    "break": ("Break", "Pause"),
    "running": ("running", "läuft"),
    "paused": ("paused", "angehalten"),
    "not_started": ("not started", "nicht gestartet"),
    "next": ("Next", "Danach"),
    "last_level": ("last level", "letztes Level"),
    "next_break": ("Next break", "Nächste Pause"),
    "no_break": ("no break ahead", "keine Pause mehr"),
    "blinds": ("Blinds", "Blinds"),
    "ante": ("Ante", "Ante"),
    "time_left": ("Time left", "Restzeit"),
    # numbers
    "players_left": ("Players left", "Spieler übrig"),
    "entries": ("Entries", "Teilnehmer"),
    "average": ("Average stack", "Durchschnitt"),
    "chips": ("Chips in play", "Chips im Spiel"),
    "places_paid": ("Points places", "Punkteplätze"),
    # money (issue 30): only a tournament with a money section shows these
    "prize_pool": ("Prize pool", "Preisgeld"),
    "places_paid_money": ("Places paid", "Bezahlte Plätze"),
    "next_payout": ("Next out gets", "Der Nächste raus erhält"),
    "payout_ladder": ("Payouts", "Auszahlungen"),
    "next_out_here": ("next out", "Nächster raus"),
    "bubble_line": ("bubble: {n} more out before the money",
                    "Bubble: noch {n} raus bis ins Geld"),
    "ladder_abridged": ("{n} places paid: the top three and the places next to be paid out",
                        "{n} bezahlte Plätze: die ersten drei und die nächsten Auszahlungen"),
    "payout": ("Payout", "Auszahlung"),
    "ticket": ("Ticket", "Ticket"),
    "bounties": ("Bounties", "Kopfgeld"),
    # the players' page: a seated player's head and the heads won; a deal's own amount
    "public_head": ("Bounty {amount}", "Kopfgeld {amount}"),
    "public_bounties_won": ("won {amount}", "gewonnen {amount}"),
    "public_deal": ("Deal {amount}", "Deal {amount}"),
    "by_lot": ("by lot", "gelost"),
    "rebuys": ("Rebuys", "Rebuys"),
    "addons": ("Add-ons", "Add-ons"),
    "hfh": ("Hand-for-hand", "Hand für Hand"),
    "hfh_state": ("hand {hand}: done {done}, playing {playing}",
                  "Hand {hand}: fertig {done}, spielt {playing}"),
    "hands_left": ("Hands left", "Hände übrig"),
    "champion": ("Champion: {name}", "Sieger: {name}"),
    "tournament_over": ("The tournament is over", "Das Turnier ist zu Ende"),
    # tables
    "table_n": ("Table {n}", "Tisch {n}"),
    "seat_n": ("Seat {n}", "Platz {n}"),
    "empty": ("free", "frei"),
    # a seat the draw filled with a ghost (000 9.5: dealt in and folded; not a player)
    "ghost_seat": ("ghost", "Geist"),  # short: it fits a seat on a laptop
    "button": ("Button", "Button"),
    "waiting": ("waits for the button", "wartet auf den Button"),
    "arriving": ("arriving", "kommt"),
    "final": ("final table", "Finaltisch"),
    "breaks_next": ("breaks next", "wird als nächster aufgelöst"),
    "final_next": ("final table next", "als Nächstes Finaltisch"),
    "hfh_done": ("hand done, waits", "Hand fertig, wartet"),
    "hfh_playing": ("playing the hand", "spielt die Hand"),
    "time_call": ("Time call", "Zeit gefordert"),
    "screen_offline": ("screen offline", "Bildschirm offline"),
    "broken": ("Table {n} broke", "Tisch {n} aufgelöst"),
    "no_tables": ("No seats drawn yet.", "Noch keine Plätze gelost."),
    "click_seat": ("Tap a seat to bust its player.",
                   "Auf einen Platz tippen, wenn der Spieler ausscheidet."),
    # moves
    "moves": ("Moves", "Umsetzungen"),
    "no_moves": ("No moves pending.", "Keine Umsetzung offen."),
    "move_line": ("{name}: table {t1} seat {s1} → table {t2} seat {s2}",
                  "{name}: Tisch {t1} Platz {s1} → Tisch {t2} Platz {s2}"),
    "seated": ("Seated", "Sitzt"),
    "waits_button": ("waits for the button", "wartet auf den Button"),
    # actions
    "clock": ("Clock", "Uhr"),
    "start": ("Start", "Start"),
    "pause": ("Pause", "Anhalten"),
    "resume": ("Resume", "Weiter"),
    "level_prev": ("◀ Level", "◀ Level"),
    "level_next": ("Level ▶", "Level ▶"),
    "level_set": ("Go to level", "Zu Level"),
    "go": ("Go", "Los"),
    "time_add": ("add", "dazu"),
    "time_remove": ("remove", "weg"),
    "time_set": ("set to", "setzen auf"),
    "time_hint": ("M:SS", "M:SS"),
    "apply": ("Apply", "Ausführen"),
    "floor_actions": ("Floor", "Saal"),
    "draw": ("Draw seats", "Plätze losen"),
    "draw_first": ("Draw the seats first", "Erst die Plätze losen"),
    "hfh_on": ("Hand-for-hand on", "Hand für Hand an"),
    "hfh_off": ("Hand-for-hand off", "Hand für Hand aus"),
    "move_apply": ("Balance now", "Jetzt ausgleichen"),
    # the director's hand on the seating (issue 31.7: 002, 001 §2 I)
    "move_from": ("the table that gives the player", "Tisch, der den Spieler abgibt"),
    "move_from_plan": ("as planned", "nach Plan"),
    "move_from_table": ("from table {n}", "von Tisch {n}"),
    "reseat": ("Reseat", "Umsetzen"),
    "deal_in": ("Deal in now", "Sofort einsteigen"),
    "deal_in_hint": ("Moved after posting a blind: sits out until the button has passed "
                     "(003 12), or plays from the next hand.",
                     "Nach einem Blind umgesetzt: setzt aus, bis der Button vorbei ist "
                     "(003 12), oder spielt ab der nächsten Hand mit."),
    "reserve_seats": ("Keep seats free", "Plätze freihalten"),
    "reserve_hint": ("For late arrivals (002): the draw leaves them free, late entries take "
                     "them first, balancing counts them as taken; fewer or 0 gives them back.",
                     "Für Nachzügler (002): die Auslosung lässt sie frei, Nachmeldungen "
                     "nehmen sie zuerst, der Ausgleich zählt sie als besetzt; weniger oder 0 "
                     "gibt sie frei."),
    "reserved": ("reserved", "reserviert"),
    "reseat_title": ("Reseat {name}", "{name} umsetzen"),
    "reseat_table": ("Table", "Tisch"),
    "reseat_seat": ("Seat", "Platz"),
    "reseat_example": ("wheelchair: seat by the aisle", "Rollstuhl: Platz am Gang"),
    "reseat_hint": ("No seat: the one that posts the big blind soonest. The reason goes "
                    "into the log; both tables show the move.",
                    "Ohne Platz: der, der am frühesten den Big Blind bringt. Der Grund "
                    "steht im Protokoll; beide Tische zeigen den Wechsel."),
    "final_table": ("Final table", "Finaltisch"),
    "break_table": ("Break table", "Tisch auflösen"),
    "hands_left_set": ("Hands left", "Noch Hände"),
    "chip_race": ("Chip race", "Chip Race"),
    "chip_race_table": ("table", "Tisch"),
    "chip_race_chips": ("leftover chips, seat:count", "Rest-Chips, Platz:Anzahl"),
    "chip_race_short": ("all they have (seats)", "sonst nichts (Plätze)"),
    "chip_counts": ("Chip counts", "Chipstände"),
    "chip_counts_hint": ("one a line: a name or table/seat, then the chips",
                         "je Zeile: Name oder Tisch/Platz, dann die Chips"),
    "chip_counts_record": ("Record the counts", "Zählung eintragen"),
    "end_round": ("End the round", "Runde beenden"),
    "end_round_confirm": ("End this round now (with the counts typed above)?",
                          "Diese Runde jetzt beenden (mit der Zählung oben)?"),
    "chip_race_done": ("Chip race done", "Chip Race erledigt"),
    "chip_race_due": ("Chip race {leaving} → {new}", "Chip Race {leaving} → {new}"),
    "addon": ("Add-on", "Add-on"),
    "undo": ("Undo the last command", "Letzten Befehl zurücknehmen"),
    "undo_confirm": ("Undo the last command?", "Den letzten Befehl zurücknehmen?"),
    # the chime (issue 28.10)
    "sound_on": ("Chime on", "Gong an"),
    "sound_off": ("Chime off", "Gong aus"),
    # the floor's tabs and what follows the state (issue 28)
    "tabs": ("Sections", "Bereiche"),
    "tab_tables": ("Tables", "Tische"),
    "tab_counts": ("Counts", "Zählung"),
    "tab_announce": ("Announce", "Durchsage"),
    "tab_history": ("History", "Verlauf"),
    "tab_list": ("List", "Liste"),
    "tab_fix": ("Correct", "Korrigieren"),
    "undo_heading": ("Undo", "Zurücknehmen"),
    "nothing_to_undo": ("Nothing to undo.", "Nichts zurückzunehmen."),
    "finished_only_undo": ("The tournament has its champion: only an undo changes it now.",
                           "Das Turnier hat seinen Sieger: nur noch Zurücknehmen ändert es."),
    "find_player": ("Find a player (name)", "Spieler suchen (Name)"),
    "bust_by_name": ("Out…", "Raus …"),
    "find_none": ("No seated player is called “{name}” (or more than one is).",
                  "Kein Spieler am Tisch heißt „{name}“ (oder mehrere)."),
    "hand_busts": ("Out this hand: {names}", "In dieser Hand raus: {names}"),
    "hand_done": ("HAND DONE", "HAND FERTIG"),
    "time_call_start": ("TIME", "ZEIT"),
    "time_call_stop": ("Stop the time call", "Zeit beenden"),
    "waits_hand_done": ("hand-for-hand: waiting for this table's HAND DONE",
                        "Hand für Hand: wartet auf HAND FERTIG dieses Tisches"),
    "waits_other_tables": ("hand-for-hand: done, waiting for the other tables",
                           "Hand für Hand: fertig, wartet auf die anderen Tische"),
    "hand_done_due": ("no HAND DONE for a while", "lange kein HAND FERTIG"),
    # the entries indicator (the summary's entry_rules at the clock's level)
    "entry_late": ("Late registration until the end of level {n}",
                   "Nachmeldung bis Ende Level {n}"),
    "entry_rebuy": ("Rebuys until the end of level {n}", "Rebuys bis Ende Level {n}"),
    # in the break after that level (its entries stay open through the break)
    "entry_late_break": ("Late registration until the end of this break",
                         "Nachmeldung bis Ende dieser Pause"),
    "entry_rebuy_break": ("Rebuys until the end of this break", "Rebuys bis Ende dieser Pause"),
    "entry_reentry_break": ("Re-entries until the end of this break",
                            "Re-Entry bis Ende dieser Pause"),
    "entry_reentry": ("Re-entries until the end of level {n}", "Re-Entry bis Ende Level {n}"),
    "entry_addon": ("Add-on at the break after level {n}", "Add-on in der Pause nach Level {n}"),
    "entry_addon_done": ("Add-on given", "Add-on ausgegeben"),
    "keeps_tables": ("No table breaks while entries are open (until the end of level {n}).",
                     "Kein Tisch wird aufgelöst, solange Einstiege offen sind (bis Ende "
                     "Level {n})."),
    # the structure (issue 28.5)
    "structure": ("Structure", "Struktur"),
    "structure_now": ("now", "jetzt"),
    "structure_minutes_n": ("{n} min", "{n} Min."),
    "structure_no_end": ("no end", "ohne Ende"),
    "structure_insert": ("Insert after level", "Einfügen nach Level"),
    "structure_insert_hint": ("0: before the first level; only coming levels change",
                              "0: vor dem ersten Level; nur kommende Level ändern sich"),
    "kind_level": ("a level", "ein Level"),
    "kind_break": ("a break", "eine Pause"),
    "small_blind": ("Small blind", "Small Blind"),
    "big_blind": ("Big blind", "Big Blind"),
    "structure_from": ("Levels from", "Level ab"),
    "structure_length": ("last (minutes)", "dauern (Minuten)"),
    "structure_minutes": ("Minutes", "Minuten"),
    "structure_breaks_too": ("breaks too", "Pausen auch"),
    "field_after": ("the level to insert after", "das Level, nach dem eingefügt wird"),
    "field_from_level": ("the first level", "das erste Level"),
    "field_small_blind": ("the small blind", "den Small Blind"),
    "field_big_blind": ("the big blind", "den Big Blind"),
    "field_ante": ("the ante", "die Ante"),
    "field_kind": ("level or break", "Level oder Pause"),
    # the players' list
    "sort_by": ("Sort by", "Sortieren nach"),
    "sort_name": ("by name", "nach Name"),
    "sort_where": ("by table", "nach Tisch"),
    "sort_chips": ("by chips", "nach Chips"),
    "sort_place": ("by place", "nach Platz"),
    "counted": ("chips at the last count", "Chips bei der letzten Zählung"),
    # the players' page
    "public_stale": ("No live connection: what you see may be old.",
                     "Keine Live-Verbindung: die Anzeige kann veraltet sein."),
    "where_do_i_sit": ("Where do I sit?", "Wo sitze ich?"),
    "search_name": ("Your name", "Dein Name"),
    "players_page": ("Players' page (no sign-in)", "Seite für die Spieler (ohne Anmeldung)"),
    # printing
    "print": ("Print", "Drucken"),
    "back": ("Back", "Zurück"),
    "seating_list": ("Seating list", "Sitzplatzliste"),
    "seat_cards": ("Seat cards", "Platzkarten"),
    "results_so_far": ("Results so far", "Ergebnis bisher"),
    "table": ("Table", "Tisch"),
    "seat": ("Seat", "Platz"),
    "printable": ("Print", "Drucken"),
    # history
    "history": ("What happened", "Was geschah"),
    "no_history": ("Nothing yet.", "Noch nichts."),
    "undone_by": ("undone by #{n}", "zurückgenommen mit #{n}"),
    "by_itself": ("by itself (the clock)", "von selbst (die Uhr)"),
    "undo_short": ("Undo", "Zurück"),
    "undo_this": ("Undo “{what}”?", "„{what}“ zurücknehmen?"),
    # announcements
    "announcement": ("Announcement on every screen", "Durchsage auf allen Bildschirmen"),
    "announce_text": ("Text", "Text"),
    "announce_example": ("Add-on now", "Add-on jetzt möglich"),
    "minutes": ("Minutes (empty: until cleared)", "Minuten (leer: bis gelöscht)"),
    "announce": ("Show", "Anzeigen"),
    "announce_clear": ("Take down", "Entfernen"),
    "until": ("until {at}", "bis {at}"),
    # rename, unregister
    "rename": ("Correct a name", "Namen korrigieren"),
    "new_name": ("Correct name", "Richtiger Name"),
    "unregister": ("Take off the list", "Von der Liste nehmen"),
    "unregister_hint": ("Before the draw only; after it, bust the player.",
                        "Nur vor der Auslosung; danach den Spieler ausscheiden lassen."),
    # penalties (000 3.6-3.8, 4.11)
    "penalty": ("Penalty", "Strafe"),
    "penalty_length": ("Sit out", "Aussetzen"),
    "unit_orbits": ("orbits", "Orbits"),
    "unit_hands": ("hands", "Hände"),
    "unit_minutes": ("minutes", "Minuten"),
    "reason": ("Reason", "Grund"),
    "sit_out": ("Sit out", "Zeitstrafe"),
    "warning": ("Warning", "Verwarnung"),
    "owed_blinds": ("Owes the blinds", "Blinds nachbringen"),
    "disqualify": ("Disqualify", "Disqualifizieren"),
    "penalty_hint": ("The seat stays dealt in; the table shows the countdown. Disqualified: "
                     "no place, no points, the chips leave play.",
                     "Der Platz bekommt weiter Karten; der Tisch zeigt den Countdown. "
                     "Disqualifiziert: kein Platz, keine Punkte, die Chips werden eingezogen."),
    "status_disqualified": ("disqualified", "disqualifiziert"),
    # bust dialog
    "bust": ("Bust", "Ausgeschieden"),
    "bust_title": ("{name} is out?", "{name} ist ausgeschieden?"),
    "stack": ("Chips at the start of the hand (decides the place when two go out in one hand)",
              "Chips zu Beginn der Hand (entscheidet den Platz, wenn zwei in einer Hand "
              "rausgehen)"),
    "same_hand_as": ("Same hand as {names}", "Gleiche Hand wie {names}"),
    "earlier_stack": ("{name}: {chips} chips at the start of the hand",
                      "{name}: {chips} Chips zu Beginn der Hand"),
    "earlier_no_stack": ("{name}: no chips given (then the later one reported finishes "
                         "higher)",
                         "{name}: keine Chips angegeben (dann kommt der später Gemeldete "
                         "weiter vorn ins Ziel)"),
    "same_hand_hint": ("Both out in one hand: the bigger stack at its start takes the better "
                       "place (000 9.5).",
                       "Beide in einer Hand raus: wer zu Beginn der Hand mehr Chips hatte, "
                       "bekommt den besseren Platz (000 9.5)."),
    "rebuy_for": ("Rebuy for {name}?", "Rebuy für {name}?"),
    "no_rebuy": ("No rebuy", "Kein Rebuy"),
    "by": ("Knocked out by", "Rausgeworfen von"),
    "cancel": ("Cancel", "Abbrechen"),
    "confirm": ("Confirm", "Bestätigen"),
    # players page
    "register": ("Register", "Anmelden"),
    "names_hint": ("One name a line", "Ein Name pro Zeile"),
    "guest": ("Guest (not a club member)", "Gast (kein Mitglied)"),
    "late": ("Late entry", "Nachmeldung"),
    "name": ("Name", "Name"),
    "player": ("Player", "Spieler"),
    "rebuy": ("Rebuy", "Rebuy"),
    "reentry": ("Re-entry", "Re-Entry"),
    "search": ("Search", "Suchen"),
    "already": ("Already registered: {names}", "Schon angemeldet: {names}"),
    "registered": ("registered", "angemeldet"),
    "status_seated": ("table {t}, seat {s}", "Tisch {t}, Platz {s}"),
    "status_out": ("out, place {p}", "raus, Platz {p}"),
    "nobody": ("Nobody is registered yet.", "Noch niemand angemeldet."),
    "member": ("member", "Mitglied"),
    "guest_short": ("guest", "Gast"),
    "count": ("{n} players", "{n} Spieler"),
    # results
    "place": ("Place", "Platz"),
    "points": ("Points", "Punkte"),
    "knockouts": ("Knockouts", "Knockouts"),
    "no_results": ("Nobody is out yet.", "Noch niemand ausgeschieden."),
    "export": ("Export", "Export"),
    "csv_de": ("CSV for German spreadsheets (; and BOM)",
               "CSV für deutsche Tabellenprogramme (; und BOM)"),
    "csv_plain": ("CSV (comma)", "CSV (Komma)"),
    "json": ("JSON", "JSON"),
    "finished": ("Final result", "Endergebnis"),
    "live": ("So far", "Bisher"),
    "latest_out": ("The last {n} out, best place first. Every place, with points: the exports "
                   "and the printout.",
                   "Die letzten {n} Ausgeschiedenen, bester Platz zuerst. Alle Plätze mit "
                   "Punkten: die Exporte und der Ausdruck."),
    "no_answer_command": ("The controller did not answer within {s} s: nothing was changed, "
                          "unless the floor shows it in a moment.",
                          "Der Controller hat nicht innerhalb von {s} s geantwortet: nichts "
                          "wurde geändert, außer der Saal zeigt es gleich."),
    "form_too_large": ("The form is too large.", "Das Formular ist zu groß."),
    "no_answer": ("The controller did not answer; try again.",
                  "Der Controller hat nicht geantwortet; bitte noch einmal versuchen."),
    # replies
    "sending": ("Sending…", "Sende …"),
    "time_echo": ("Time left {before} → {after}", "Restzeit {before} → {after}"),
    "missing": ("Please fill in {field}.", "Bitte {field} ausfüllen."),
    "not_a_number": ("{field} must be a whole number, not “{value}”.",
                     "{field} muss eine ganze Zahl sein, nicht „{value}“."),
    "bad_time": ("“{value}” is no time: write seconds or M:SS, e.g. 2:30.",
                 "„{value}“ ist keine Zeit: Sekunden oder M:SS, z. B. 2:30."),
    "bad_chips": ("“{value}” is not seat:count (e.g. 3:2).",
                  "„{value}“ ist nicht Platz:Anzahl (z. B. 3:2)."),
    "bad_count": ("“{value}”: write a name or table/seat, then the chips (Ann 23500, 3/4 "
                  "8100).",
                  "„{value}“: Name oder Tisch/Platz, dann die Chips (Ann 23500, 3/4 8100)."),
    "bad_choice": ("{field}: “{value}” is not a choice.", "{field}: „{value}“ gibt es nicht."),
    "unknown_action": ("There is no action “{value}”.", "Die Aktion „{value}“ gibt es nicht."),
    "session_expired": ("Your session has ended: please sign in again.",
                        "Die Sitzung ist abgelaufen: bitte neu anmelden."),
    "csrf": ("This request did not come from the console (CSRF check).",
             "Diese Anfrage kam nicht von der Konsole (CSRF-Prüfung)."),
    "field_names": ("names", "Namen"),
    "field_name": ("the name", "den Namen"),
    "field_player": ("the player", "den Spieler"),
    "field_value": ("the time", "die Zeit"),
    "field_table": ("Table", "Tisch"),
    "field_seat": ("Seat", "Platz"),
    "field_stack": ("Chips", "Chips"),
    "field_count": ("Hands", "Hände"),
    "field_to": ("Level", "Level"),
    "field_target": ("Event", "Ereignis"),
    "field_op": ("Operation", "Vorgang"),
    "field_new_name": ("the correct name", "den richtigen Namen"),
    "field_text": ("the text", "den Text"),
    "field_minutes": ("Minutes", "Minuten"),
    "field_counts": ("the counts", "die Zählung"),
    # the club database (docs/club.md)
    "standings": ("Standings", "Rangliste"),
    "tournaments": ("Tournaments", "Turniere"),
    "tournaments_n": ("{n} tournaments", "{n} Turniere"),
    "tournaments_one": ("1 tournament", "1 Turnier"),
    "club_search": ("From the club list", "Aus der Clubliste"),
    "club_search_hint": ("Type part of a name, pick it: it is added to the list above",
                         "Namensteil tippen, auswählen: er kommt in die Liste oben"),
}

# ------------------------------------------------- the registration desk (issue 31)
LABELS.update({
    "waiting_list": ("Waiting list", "Warteliste"),
    "waiting_none": ("Nobody is waiting.", "Niemand wartet."),
    "waiting_position": ("{n}.", "{n}."),
    "seats_taken": ("Seats: {taken} of {seats} taken", "Plätze: {taken} von {seats} vergeben"),
    "seats_free": ("{n} free", "{n} frei"),
    "no_limit": ("no seat limit", "keine Platzgrenze"),
    "expected": ("expected", "erwartet"),
    "expected_hint": ("pre-registered, not checked in yet",
                      "vorangemeldet, noch nicht eingecheckt"),
    "check_in": ("Check in", "Einchecken"),
    "no_shows": ("No-shows (not arrived by the draw)",
                 "Nicht erschienen (bis zur Auslosung)"),
    "preregister": ("Pre-registration", "Voranmeldung"),
    "preregister_hint": ("Registered ahead (mail, Facebook, in person; 000 2.2): one name "
                         "a line; they are checked in when they arrive",
                         "Vorab angemeldet (Mail, Facebook, persönlich; 000 2.2): ein Name "
                         "pro Zeile; beim Eintreffen einchecken"),
    "preregister_button": ("Pre-register", "Voranmelden"),
    "capacity": ("Seat limit", "Platzgrenze"),
    "capacity_hint": ("Seats in the room; empty: no limit. Beyond it registrations go on "
                      "the waiting list.",
                      "Plätze im Saal; leer: keine Grenze. Darüber hinaus kommen Anmeldungen "
                      "auf die Warteliste."),
    "capacity_button": ("Set the limit", "Grenze setzen"),
    "cancel_heading": ("Cancellation", "Absage"),
    "cancel_hint": ("Off the list or the waiting list (000 2.6); after the deadline only "
                    "with the box ticked.",
                    "Von der Liste oder der Warteliste (000 2.6); nach der Frist nur mit "
                    "Häkchen."),
    "cancel_force": ("after the deadline all the same", "trotz abgelaufener Frist"),
    "cancel_button": ("Cancel the registration", "Absage eintragen"),
    "field_seats": ("Seats", "Plätze"),
})
LABELS.update({  # members and guests, the bans in the console (issue 31)
    "adult": ("Asked: 18 or older (000 1.1)", "Gefragt: 18 oder älter (000 1.1)"),
    "tab_bans": ("Bans", "Sperren"),
    "bans": ("Bans for no-shows (000 2.7)", "Sperren wegen Nichterscheinens (000 2.7)"),
    "bans_none": ("No ban holds today.", "Heute gilt keine Sperre."),
    "ban_line": ("banned until {until} (since {since}, {months} months, no-show {count})",
                 "gesperrt bis {until} (seit {since}, {months} Monate, {count}. Nichterscheinen)"),
    "lift_ban": ("Lift the ban", "Sperre aufheben"),
    "lift_ban_hint": ("The director's decision, kept with the day and the reason in the club "
                      "database.",
                      "Entscheidung der Turnierleitung, mit Tag und Grund in der "
                      "Vereinsdatenbank festgehalten."),
    "ban_lifted": ("{player}: the ban until {until} is lifted",
                   "{player}: die Sperre bis {until} ist aufgehoben"),
    "no_ban": ("{player} has no ban today", "{player} hat heute keine Sperre"),
    "no_club": ("No club database on this computer", "Keine Vereinsdatenbank auf diesem Rechner"),
    "late_closed": ("Late registration closed after level {n}: a late arrival only with "
                    "“after the cutoff” ticked",
                    "Nachmeldung nach Level {n} geschlossen: Nachzügler nur noch mit Häkchen "
                    "„trotz Nachmeldeschluss“"),
    # 001 §1 III: one table a player across the floor's tournaments
    "elsewhere": ("Playing in another tournament", "Spielt in einem anderen Turnier"),
    "elsewhere_tournament": ("The other tournament", "Das andere Turnier"),
    "elsewhere_started": ("It started at", "Begonnen um"),
    "elsewhere_done": ("out there: plays here now", "dort fertig: spielt jetzt hier"),
    "elsewhere_hint": ("001 §1 III: a player plays at the table that started earlier; here "
                       "no bust and no move until it is over there.",
                       "001 §1 III: gespielt wird am früher gestarteten Tisch; hier kein "
                       "Ausscheiden und kein Umsetzen, bis es dort vorbei ist."),
    "elsewhere_button": ("Note it", "Vermerken"),
    "elsewhere_badge": ("first at {tournament}", "zuerst bei {tournament}"),
    "bad_time_of_day": ("“{value}” is no time of day: write HH:MM, e.g. 19:00.",
                        "„{value}“ ist keine Uhrzeit: HH:MM schreiben, z. B. 19:00."),
    # the players' own registration requests (players' page → the director)
    "request_title": ("Register for this tournament", "Für dieses Turnier anmelden"),
    "request_contact": ("Phone or e-mail", "Telefon oder E-Mail"),
    "request_hint": ("No account: the organisers confirm your registration. "
                     "Your contact is only for questions about it and is not stored.",
                     "Kein Konto nötig: die Turnierleitung bestätigt die Anmeldung. Der "
                     "Kontakt dient nur für Rückfragen dazu und wird nicht gespeichert."),
    "request_button": ("Send the request", "Anfrage senden"),
    "request_taken": ("Thank you: your request waits for the organisers.",
                      "Danke: die Anfrage wartet auf die Turnierleitung."),
    "request_no_name": ("Please give your name.", "Bitte den Namen angeben."),
    "request_bad_name": ("A name of at most 40 letters, please.",
                         "Bitte einen Namen mit höchstens 40 Zeichen."),
    "request_no_contact": ("Please give a phone number or an e-mail address.",
                           "Bitte Telefonnummer oder E-Mail-Adresse angeben."),
    "request_bad_contact": ("A contact of at most 120 letters, please.",
                            "Bitte einen Kontakt mit höchstens 120 Zeichen."),
    "request_too_many": ("Too many requests from this device: please try again in 10 "
                         "minutes.",
                         "Zu viele Anfragen von diesem Gerät: bitte in 10 Minuten noch "
                         "einmal."),
    "request_twice": ("A request with this name is already waiting.",
                      "Eine Anfrage mit diesem Namen wartet schon."),
    "request_full": ("Too many requests are waiting: please ask at the desk.",
                     "Zu viele Anfragen warten: bitte an der Anmeldung fragen."),
    "requests": ("Requests from the players' page", "Anfragen von der Spielerseite"),
    "requests_none": ("No request waits.", "Keine Anfrage wartet."),
    "request_confirm": ("Confirm", "Bestätigen"),
    "request_drop": ("Drop", "Verwerfen"),
    "request_dropped": ("The request of {name} dropped", "Anfrage von {name} verworfen"),
    "request_gone": ("This request was answered already.",
                     "Diese Anfrage ist schon beantwortet."),
    "late_force": ("after the cutoff all the same",
                   "trotz Nachmeldeschluss (Entscheidung der Turnierleitung)"),
})

# ------------------------------------------------- the season's titles (issue 31, 000 5-8)
LABELS.update({
    "titles": ("Titles", "Titel"),
    "titles_of": ("Titles {season}", "Titel {season}"),
    "titles_none": ("This club awards no season titles (Meister, Jahressieger, Cupsieger: "
                    "000 8).", "Dieser Verein vergibt keine Saisontitel (Meister, "
                    "Jahressieger, Cupsieger: 000 8)."),
    "title_meister": ("Meister", "Meister"),
    "title_jahressieger": ("Jahressieger", "Jahressieger"),
    "title_cupsieger": ("Cupsieger", "Cupsieger"),
    "title_meister_how": ("most championship points (000 8.2)",
                          "meiste Meisterschaftspunkte (000 8.2)"),
    "title_jahressieger_how": ("first of the yearly ranking (000 8.3)",
                               "Erster der Gesamtjahresrangliste (000 8.3)"),
    "title_cupsieger_how": ("winner of the cup final (000 8.4)",
                            "Sieger des Cupfinales (000 8.4)"),
    "title_leads": ("leads: the season is not over", "führt: die Saison läuft noch"),
    "title_nobody": ("nobody yet", "noch niemand"),
    "championship": ("Championship list", "Meisterschafts-Rangliste"),
    "championship_hint": ("000 5.2, 6: one point a knocked-out opponent, 2 more for a drawn "
                          "name; members only", "000 5.2, 6: ein Punkt je eliminiertem "
                          "Gegner, 2 mehr für einen gezogenen Namen; nur Vereinsmitglieder"),
    "trophies": ("Trophies", "Pokale"),
    "trophy_holder": ("{title}: {names} since {season}", "{title}: {names} seit {season}"),
    "trophy_kept": ("kept: {player} — {titles}, three times in a row ({season}, 000 8.5)",
                    "behalten: {player} — {titles}, dreimal in Folge ({season}, 000 8.5)"),
    "trophy_kept_all": ("kept: {player} — all three trophies in one season ({season}, "
                        "000 8.5)", "behalten: {player} — alle drei Pokale in einer Saison "
                        "({season}, 000 8.5)"),
    "trophy_return": ("— {name} is no member any more: the trophy goes back (000 8.6)",
                      "— {name} ist kein Mitglied mehr: der Pokal geht zurück (000 8.6)"),
    "trophies_none": ("No trophy recorded yet (floorman club titles --record).",
                      "Noch kein Pokal eingetragen (floorman club titles --record)."),
    "cup": ("Cup", "Cup"),
    "cup_of": ("Cup {season}", "Cup {season}"),
    "cup_rule": ("000 7.2: members with at least {n} public tournaments and a points finish",
                 "000 7.2: Vereinsmitglieder mit mindestens {n} öffentlichen Turnieren und "
                 "einem Punkterang"),
    "cup_qualified": ("{n} qualified", "{n} qualifiziert"),
    "cup_seeded": ("In the final by the yearly ranking", "Fix im Finale (Gesamtjahresrangliste)"),
    "cup_preliminary": ("Preliminary round: {seats} final seats for {n} players",
                        "Vorrunde: {seats} Finalplätze für {n} Spieler"),
    "cup_no_preliminary": ("No preliminary round: the final has room for everybody.",
                           "Keine Vorrunde: im Finale ist Platz für alle."),
    "cup_none": ("This club plays no cup.", "Dieser Verein spielt keinen Cup."),
    "cup_nobody": ("Nobody has qualified yet.", "Noch niemand qualifiziert."),
    "rank": ("Rank", "Rang"),
})


# ------------------------------------------------- the deal at the final table (issue 30)
LABELS.update({
    "deal_button": ("Deal…", "Deal…"),
    "deal_title": ("Deal at the final table", "Deal am Finaltisch"),
    "deal_open": ("{amount} still open in the places of the {n} players left.",
                  "{amount} offen in den Plätzen der {n} verbliebenen Spieler."),
    "deal_played_for": ("Played for (the winner takes it)", "Ausgespielt (bekommt der Sieger)"),
    "deal_recompute": ("Recompute", "Neu rechnen"),
    "deal_stack": ("Chips", "Chips"),
    "chip_chop": ("Chip chop", "Chip Chop"),
    "deal_own": ("Own split", "Eigene"),
    "deal_hint": ("From the last count of every player left. The own split must add up to "
                  "the money open less the part played for. The places still decide who "
                  "takes the part played for; undo takes the deal back.",
                  "Aus der letzten Zählung aller verbliebenen Spieler. Die eigene Aufteilung "
                  "muss die offene Summe abzüglich des ausgespielten Teils ergeben. Wer den "
                  "ausgespielten Teil bekommt, entscheiden weiter die Plätze; Rückgängig "
                  "nimmt den Deal zurück."),
    "deal_accept_icm": ("Accept ICM", "ICM annehmen"),
    "deal_accept_chip_chop": ("Accept chip chop", "Chip Chop annehmen"),
    "deal_accept_custom": ("Accept own split", "Eigene annehmen"),
    "deal_close": ("Close", "Schließen"),
    "deal_made": ("Deal", "Deal"),
    "not_an_amount": ("{field} must be an amount such as 450 or 450.50, not “{value}”.",
                      "{field} muss ein Betrag wie 450 oder 450,50 sein, nicht „{value}“."),
    "field_played_for": ("the part played for", "den ausgespielten Teil"),
    "field_amount": ("the own split", "die eigene Aufteilung"),
})


# --------------------------- the director's colour-up and the end of the day (issue 31, 002)
LABELS.update({
    "colour_up": ("Colour-up now", "Colour-up jetzt"),
    "colour_up_chip": ("chips that leave", "Chips, die gehen"),
    "colour_up_hint": ("Any time (002): the tables race the leftover chips while this level "
                       "lasts, each chip on its own, the smaller first. Several: \"25 100\"; "
                       "a later call adds its chips.",
                       "Jederzeit (002): die Tische spielen die Rest-Chips aus, solange dieses "
                       "Level läuft, jeden Chip für sich, den kleineren zuerst. Mehrere: "
                       "„25 100“; ein späterer Aufruf kommt dazu."),
    "colour_up_button": ("Colour up", "Tauschen"),
    "chip_race_absent": ("not at the table (seats)", "abwesend (Plätze)"),
    "chip_race_absent_hint": ("An absent player loses the small chips (002): enter all of "
                              "them for that seat.",
                              "Wer fehlt, verliert die kleinen Chips (002): für den Platz "
                              "alle eintragen."),
    "day_end": ("End of the day", "Tagesende"),
    "day_end_open": ("End of the day…", "Tagesende…"),
    "day_end_when": ("from {start} to {end} (the last 15 to 7 minutes of level {level})",
                     "von {start} bis {end} (die letzten 15 bis 7 Minuten von Level {level})"),
    "day_end_now": ("now: the clock stands in the last 7-15 minutes",
                    "jetzt: die Uhr steht in den letzten 7-15 Minuten"),
    "day_end_hint": ("A player draws a card, 3 to 5 (002): that many hands are still played "
                     "at every table. The clock stops.",
                     "Ein Spielgast zieht eine Karte zwischen 3 und 5 (002): so viele Hände "
                     "werden noch an allen Tischen gespielt. Die Uhr hält an."),
    "day_end_card": ("Card drawn", "Gezogene Karte"),
    "day_end_confirm": ("Stop the clock and play the hands", "Uhr anhalten, Hände spielen"),
    "day_end_cancel": ("Not now", "Nicht jetzt"),
    "day_over": ("Day over", "Spieltag vorbei"),
    "table_hands_left": ("{n} hands left", "noch {n} Hände"),
    "table_hands_left_none": ("day over", "Tag vorbei"),
    "field_card": ("the card", "die Karte"),
    "field_chip": ("the chip", "den Chip"),
    "field_absent": ("the absent seats", "die abwesenden Plätze"),
})


def lang_of(text: str | None) -> str:
    return text if text in LANGUAGES else "en"


def tr(key: str, lang: str, **values: Any) -> str:
    """The label ``key`` in ``lang`` with ``values`` filled in (an unknown key shows itself)."""
    pair = LABELS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "de" else pair[0]
    return text.format(**values) if values else text


def field_name(field: str, lang: str) -> str:
    return tr(f"field_{field}", lang) if f"field_{field}" in LABELS else field
