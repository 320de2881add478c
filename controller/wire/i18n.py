"""Every word the screens and the console show, in German and English, and how numbers
are written and names sorted.

``tr(key, lang, **values)`` looks a label up (unknown languages fall back to
English, an unknown key shows itself so a missing label is visible, never a
crash). Numbers: German writes ``10.000``, English ``10,000``. Pure Python,
no pygame.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

LANGUAGES = ("de", "en")

#: key -> (English, German)
LABELS: dict[str, tuple[str, str]] = {
    # the clock
    "level": ("Level", "Level"),
    "level_n": ("LEVEL {n}", "LEVEL {n}"),
    "break": ("Break", "Pause"),
    "break_title": ("BREAK", "PAUSE"),
    "next_level": ("Next level", "Nächstes Level"),
    "next_is_break": ("Next: break, {min} min", "Danach: Pause, {min} Min."),
    "next_is_break_note": ("Next: break, {min} min · {note}", "Danach: Pause, {min} Min. · {note}"),
    "last_level": ("Last level", "Letztes Level"),
    "break_in": ("Break in", "Pause in"),
    "ante": ("Ante {a}", "Ante {a}"),
    "bb_ante": ("Big blind ante {a}", "Big-Blind-Ante {a}"),
    "ante_short": ("ante {a}", "Ante {a}"),
    "bb_ante_short": ("BB ante {a}", "BB-Ante {a}"),
    "no_ante": ("No ante", "Keine Ante"),
    "paused": ("PAUSED", "ANGEHALTEN"),
    # a new level applies from the next hand (000 9.6): the table's hand keeps its blinds
    "this_hand": ("THIS HAND", "DIESE HAND"),
    "from_next_hand": ("NEXT HAND {blinds}", "AB NÄCHSTER HAND {blinds}"),
    "not_started": ("NOT STARTED", "NICHT GESTARTET"),
    "no_limit": ("no time limit", "ohne Zeitlimit"),
    "colour_up": ("Colour-up", "Chips tauschen"),
    # the chip race of a colour-up break (000 3.17)
    "chip_race_title": ("CHIP RACE", "CHIP RACE"),
    "race_from_seat": ("Cards from seat {seat}", "Karten ab Platz {seat}"),
    "race_card_per_chip": ("one card per {chip}", "eine Karte je {chip}er"),
    "race_one_each": ("best cards win, one {chip} each",
                      "höchste Karten gewinnen, je ein {chip}er"),
    "race_takes_all": ("the highest card takes all", "die höchste Karte gewinnt alle"),
    "race_enter": ("Leftover chips: ◀ ▶ seat, TIME +1", "Rest-Chips: ◀ ▶ Platz, ZEIT +1"),
    "race_send": ("HAND DONE sends", "HAND FERTIG sendet"),
    "race_result": ("{n} new × {chip} · chips in play {change}",
                    "{n} neue × {chip} · Chips im Spiel {change}"),
    "race_short": ("all they have", "sonst nichts"),
    "race_keeps": ("keeps a {chip}", "behält einen {chip}er"),
    "race_done_at": ("done: table {tables}", "fertig: Tisch {tables}"),
    "race_open_at": ("open: table {tables}", "offen: Tisch {tables}"),
    "hint_race_chip": ("+1 chip", "+1 Chip"),
    "hint_race_short": ("all they have", "sonst nichts"),
    "hint_race_send": ("send", "senden"),
    "hold_race_short": ("Hold: all they have", "Halten: sonst nichts"),
    # players
    "players": ("Players", "Spieler"),
    "players_left": ("Players left", "Spieler übrig"),
    "entries": ("Entries", "Teilnehmer"),
    "average": ("Average", "Durchschnitt"),
    "places_paid": ("Points places", "Punkteplätze"),
    # money (issue 30): only a tournament with a money section shows these
    "prize_pool": ("Prize pool", "Preisgeld"),
    "places_paid_money": ("Places paid", "Bezahlte Plätze"),
    "payouts": ("Payouts", "Auszahlung"),
    "ticket": ("Ticket", "Ticket"),
    # money bounties (issue 30): a player's head (what busting them wins), and the
    # bounties a player won, a column of the results
    "bounty": ("Bounty", "Kopfgeld"),
    "bounties_won": ("Bounties", "Kopfgeld"),
    "prize": ("Prize", "Preis"),  # the results' column of what each place pays
    # a satellite's shared place of a ticket and the cash, decided by lot
    "by_lot": ("by lot", "gelost"),
    # a deal at the final table stands: the players left have their amounts
    "deal_places": ("Deal", "Deal"),
    "played_for": ("Played for", "Ausgespielt"),
    # chip counts and the rounds of a mode (000 4.14, 4.15, 4.19)
    "chip_leader": ("Chip leader", "Chipleader"),
    "round": ("Round", "Runde"),
    "round_of": ("{n} of {of}", "{n} von {of}"),
    "round_final": ("Final", "Finale"),
    "table": ("Table", "Tisch"),
    "table_n": ("TABLE {n}", "TISCH {n}"),
    "seat": ("Seat", "Platz"),
    "empty": ("free", "frei"),
    "reserved": ("reserved", "reserviert"),  # kept for a late arrival (002)
    "waits": ("waits for button", "wartet auf Button"),
    "waits_short": ("till button", "bis Button"),
    # a player who left and is played as a ghost (000 9.5): the dealer deals and folds
    "absent": ("away: deal & fold", "weg: austeilen & folden"),
    "absent_short": ("away", "weg"),
    "incoming": ("arriving", "kommt"),
    # penalties and who deals (000 3.8, 4.11, 3.11)
    "penalty_hands": ("penalty: {n} hands", "Strafe: {n} Hände"),
    "penalty_hand": ("penalty: 1 hand", "Strafe: 1 Hand"),
    "penalty_minutes": ("penalty: {n} min", "Strafe: {n} Min."),
    "penalty_hands_short": ("{n} hands", "{n} Hände"),
    "penalty_hand_short": ("1 hand", "1 Hand"),
    "penalty_minutes_short": ("{n} min", "{n} Min."),
    "owes_blinds": ("owes the blinds", "bringt Blinds nach"),
    "owes_blinds_short": ("owes", "Blinds"),
    "deals": ("deals", "gibt"),
    "dealer_standing": ("Dealer: {name} (out)", "Dealer: {name} (ausgeschieden)"),
    # moves: what a player understands
    "move_out": ("Seat {seat} {name} → Table {table}, Seat {to}",
                 "Platz {seat} {name} → Tisch {table}, Platz {to}"),
    "move_in": ("Table {table}, Seat {frm} {name} → Seat {seat}",
                "Tisch {table}, Platz {frm} {name} → Platz {seat}"),
    "move_here": ("Seat {frm} {name} → Seat {seat}", "Platz {frm} {name} → Platz {seat}"),
    "move_wall": ("{name} → Table {t2}, Seat {s2}", "{name} → Tisch {t2}, Platz {s2}"),
    # a move on two lines: the name over the rest
    "move_out_rest": ("→ Table {table}, Seat {to}", "→ Tisch {table}, Platz {to}"),
    "move_in_rest": ("→ Seat {seat}", "→ Platz {seat}"),
    "move_here_rest": ("Seat {frm} → Seat {seat}", "Platz {frm} → Platz {seat}"),
    "move_wall_rest": ("→ Table {t2}, Seat {s2}", "→ Tisch {t2}, Platz {s2}"),
    "more": ("+{n} more", "+{n} weitere"),
    "moves": ("Moves", "Umsetzungen"),
    "please_move": ("Please move:", "Bitte umsetzen:"),
    # notices
    "table_breaks": ("This table breaks", "Tisch wird aufgelöst"),
    "closed": ("Closed", "Geschlossen"),
    "final_table": ("Final table", "Finaltisch"),
    "final_table_next": ("Final table next", "Als Nächstes: Finaltisch"),
    # the wall's final table: a player still on the way to the seat shown
    "on_the_way": ("on the way", "unterwegs"),
    "offline": ("offline", "offline"),
    # the players' page (the QR code on the wall)
    "qr_caption": ("Where do I sit?", "Wo sitze ich?"),
    # hand-for-hand
    "hfh": ("Hand for hand", "Hand für Hand"),
    "hfh_hand": ("Hand for hand · hand {n}", "Hand für Hand · Hand {n}"),
    "hand_n": ("Hand {n}", "Hand {n}"),
    "deal": ("DEAL", "GEBEN"),
    "waiting_for": ("waiting for tables {tables}", "warten auf Tisch {tables}"),
    "waiting_for_one": ("waiting for table {tables}", "warten auf Tisch {tables}"),
    "this_done": ("This table is done", "Dieser Tisch ist fertig"),
    "still_playing": ("still playing: tables {tables}", "es spielen noch: Tisch {tables}"),
    "still_playing_one": ("still playing: table {tables}", "es spielt noch: Tisch {tables}"),
    "all_done": ("all tables done", "alle Tische fertig"),
    "this_done_wait": ("this table is done, do not deal yet",
                       "dieser Tisch ist fertig, noch nicht geben"),
    "all_done_deal": ("all tables are done, deal the next hand",
                      "alle Tische fertig, nächste Hand geben"),
    "press_hand_done": ("When the hand is over, press HAND DONE",
                        "Ist die Hand vorbei: HAND FERTIG drücken"),
    "others_wait_one": ("table {tables} waits for this table",
                        "Tisch {tables} wartet auf diesen Tisch"),
    "others_wait": ("tables {tables} wait for this table",
                    "Tische {tables} warten auf diesen Tisch"),
    "playing": ("playing", "spielt"),
    "done": ("done", "fertig"),
    # time call
    "time": ("Time", "Zeit"),
    "time_call": ("TIME", "ZEIT"),
    "action_clock": ("ACTION CLOCK", "AKTIONSZEIT"),
    "countdown": ("COUNTDOWN", "COUNTDOWN"),
    "time_up": ("TIME IS UP", "ZEIT ABGELAUFEN"),
    "to_act": ("player to act", "Spieler am Zug"),
    # places (issue 10): the table's state says "hand_done_due" / "hand_busts"
    "hand_done_due": ("Hand done?", "Hand fertig?"),
    "out_this_hand": ("Out this hand", "Raus in dieser Hand"),
    # end of the day
    "hands_left": ("Hands left: {n}", "Noch {n} Hände"),
    "last_hand": ("Last hand of the day", "Letzte Hand des Tages"),
    "no_hands_left": ("Day over: no more hands", "Tagesende: keine Hand mehr"),
    # the chip race announced before a colour-up break (002: 2-3 minutes before)
    "chip_race_call": ("Chip race at the break: the {leaving} chips leave for {new}",
                       "Chip Race in der Pause: die {leaving}er gehen, dafür {new}er"),
    # the director's colour-up in a playing level (002 "jederzeit")
    "colour_up_called": ("Colour-up {leaving} → {new}: report the leftover chips",
                         "Colour-up {leaving} → {new}: Rest-Chips melden"),
    # end
    "champion": ("CHAMPION", "SIEGER"),
    "finished": ("Tournament over", "Turnier beendet"),
    "results": ("Results", "Ergebnis"),
    "out": ("Out", "Ausgeschieden"),
    "standings": ("Standings {season}", "Rangliste {season}"),  # the club's (docs/club.md)
    "championship": ("Championship", "Meisterschaft"),  # 000 5.2: its own list (club.md)
    "points": ("{p} pts", "{p} Pkt."),
    "point": ("{p} pt", "{p} Pkt."),
    # the dealer's buttons
    "hold": ("Hold to confirm", "Halten zum Bestätigen"),
    "hold_bust": ("Hold: bust", "Halten: ausscheiden"),
    "hold_undo": ("Hold: undo", "Halten: rückgängig"),
    "fb_sent": ("sent …", "gesendet …"),
    # the dealer's hint bar: the buttons and what they do
    "hint_seat": ("seat", "Platz"),
    "hint_bust": ("BUST", "AUS"),
    "hint_hold": ("hold", "halten"),
    "hint_time": ("TIME", "ZEIT"),
    "hint_hand_done": ("HAND DONE", "HAND FERTIG"),
    "hint_undo": ("UNDO", "ZURÜCK"),
    "fb_accepted": ("accepted", "angenommen"),
    "fb_rejected": ("rejected", "abgelehnt"),
    # waiting
    "waiting_controller": ("Waiting for the tournament …", "Warte auf das Turnier …"),
    "waiting_draw": ("Seats not drawn yet", "Plätze noch nicht ausgelost"),
    "not_in_play": ("Table {n} is not in play", "Tisch {n} ist nicht in Betrieb"),
    "seating": ("Seating", "Sitzplan"),
    "structure": ("Structure", "Struktur"),
    "minutes": ("{m} min", "{m} Min."),
    "starts_soon": ("The tournament starts soon", "Das Turnier beginnt gleich"),
    "page": ("{p}/{n}", "{p}/{n}"),
    # what the wall says aloud (kiosk/speech.py, ``speech: true``)
    "say_table_breaks": ("Table {n} breaks.", "Tisch {n} wird aufgelöst."),
    "say_hfh": ("Hand for hand. Please wait for the other tables after each hand.",
                "Hand für Hand. Nach jeder Hand bitte auf die anderen Tische warten."),
    "say_move": ("{name}, please go to table {table}, seat {seat}.",
                 "{name}, bitte an Tisch {table}, Platz {seat}."),
}


def lang_of(language: str | None) -> str:
    return language if language in LANGUAGES else "en"


def tr(key: str, lang: str, **values: Any) -> str:
    """The label ``key`` in ``lang`` with ``values`` filled in."""
    pair = LABELS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang_of(lang) == "de" else pair[0]
    return text.format(**values) if values else text


def num(n: float | int | None, lang: str) -> str:
    """A chip amount or count: ``10,000`` (en) / ``10.000`` (de)."""
    if n is None:
        return "–"
    s = f"{round(n):,}"
    return s.replace(",", ".") if lang_of(lang) == "de" else s


#: how a currency shows (en before the amount, de after it); others as their code
CURRENCY_SIGNS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF"}


def money(cents: int | None, currency: str, lang: str) -> str:
    """An amount of money (issue 30): ``€3,045`` / ``3.045 €``, the cents only when there
    are some (``€45.50`` / ``45,50 €``)."""
    if cents is None:
        return "–"
    whole, part = divmod(abs(cents), 100)
    text = f"{whole:,}" + (f".{part:02d}" if part else "")
    sign = CURRENCY_SIGNS.get(currency, currency)
    minus = "-" if cents < 0 else ""
    if lang_of(lang) == "de":
        text = text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")
        return f"{minus}{text} {sign}"
    return f"{minus}{sign}{text}" if len(sign) == 1 else f"{minus}{sign} {text}"


def number_list(numbers: list[int], lang: str) -> str:
    """Table numbers for a sentence: ``2, 5`` (and ``2, 5 and 7`` is not needed on a screen)."""
    return ", ".join(str(n) for n in numbers)


def blinds(level: dict[str, Any], lang: str) -> str:
    """``200 / 400``."""
    return f"{num(level.get('small_blind', 0), lang)} / {num(level.get('big_blind', 0), lang)}"


def ante(level: dict[str, Any], lang: str, short: bool = False) -> str:
    """``Ante 25`` or ``Big blind ante 400``; empty when the level has no ante."""
    a = level.get("ante") or 0
    if not a:
        return ""
    bb = level.get("ante_type") == "big_blind"
    key = ("bb_ante" if bb else "ante") + ("_short" if short else "")
    return tr(key, lang, a=num(a, lang))


def level_line(level: dict[str, Any], lang: str) -> str:
    """``200 / 400 · Ante 25`` (for "next level" and small clocks)."""
    a = ante(level, lang, short=True)
    return blinds(level, lang) + (f" · {a}" if a else "")


def points(p: float | int, lang: str) -> str:
    """``18 pts`` / ``1 pt`` / ``0.5 pts``; German ``18 Pkt.``, ``0,5 Pkt.``."""
    text = f"{p:g}" if isinstance(p, float) else str(p)
    if lang_of(lang) == "de":
        text = text.replace(".", ",")
    return tr("point" if p == 1 else "points", lang, p=text)


def shown_seconds(seconds: float) -> int:
    """Whole seconds a countdown shows: it counts 18:00 … 0:01 and flips at the exact second."""
    return max(0, math.ceil(seconds - 1e-6))


def clock(seconds: float | None) -> str:
    """``17:59`` or ``1:29:59``; ``∞`` for a level without end."""
    if seconds is None:
        return "∞"
    s = shown_seconds(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def level_clock(seconds: float | None) -> str:
    """The big clock: ``17:59``, and an hour or more as minutes too, ``89:59`` (a
    play-the-clock round of 1.5 h, 000 4.15): as wide as any level's, so as large."""
    if seconds is None:
        return "∞"
    m, sec = divmod(shown_seconds(seconds), 60)
    return f"{m:02d}:{sec:02d}"


def minutes(seconds: float | None) -> str:
    return "?" if seconds is None else str(round(seconds / 60))


def sort_key(name: str) -> str:
    """Alphabetical the way people expect: Ä with A, case ignored."""
    norm = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in norm if not unicodedata.combining(ch)).casefold()
