"""Every word a director or a player reads in the console, in German and in English (issue
28.8): every page at every moment of a night (tests/console/nights.py) rendered in both
languages, every label of both tables (controller/console/i18n.py, controller/wire/i18n.py)
and every reason and reply of the controller (controller/wire/wording.py). A German page
with a word that only the English says fails, and the other way round; so does a label
without its German, or a German that is the English where the word is not the same in both.
No broker, no browser: the engine plays the night, the console renders it."""

from __future__ import annotations

import re
import string
from html.parser import HTMLParser
from typing import Any, cast

import pytest
from starlette.testclient import TestClient

from controller.broker.accounts import hash_password
from controller.console import i18n as console_i18n
from controller.console.app import Console, make_app
from controller.wire import i18n as screen_i18n
from controller.wire import wording
from tests.console.conftest import PASSWORD
from tests.console.nights import NAMES as PEOPLE
from tests.console.nights import TYPED, hub_of, nights

PAGES = ["/", "/players", "/results", "/p", "/print/seating", "/print/cards",
         "/print/results"]

#: words the same in both languages (a label may be its English in German for these)
BOTH = {
    "level", "pause", "start", "ante", "blinds", "blind", "button", "rebuy", "rebuys",
    "add-on", "add-ons", "re-entry", "chip", "chips", "race", "text", "name", "export",
    "json", "csv", "knockouts", "m", "ss", "bb", "sb", "dealer", "countdown", "offline",
    "online", "floorman", "min", "bubble", "heads-up", "final", "ok", "mystery",
    "bounty", "play", "the", "clock", "restart", "cannonball", "landesliga", "tda",
    "orbits", "stack", "stacks", "broker", "controller", "s", "pt", "pts", "hand", "d", "h",
    # poker's own words in German too, a rule's number, a club's word in quotes
    "small", "big", "bytes", "so", "u", "go", "deck", "iii", "vi", "chipraise", "ticket",
    # the deal at the final table (issue 30): poker's words in German too
    "deal", "icm", "satellite", "tickets",
    # the PSC's titles keep their German names in English (000 8)
    "cup", "meister", "jahressieger", "cupsieger",
    "no-show",  # the floor's word in German too (000 2.7: "nicht erschienen (No-Show)")
}

_WORD = re.compile(r"[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'\-]*")
#: a value, a key or a command of the protocol inside a text ('after', play_day.enabled,
#: chip_correction): its own word, not the language's
_CODE = re.compile(r"'[^']*'|\{[^}]*\}|\b[\w.]*[_.][\w.]+\b|\b\d+\b")


def words(text: str) -> set[str]:
    return {w.casefold().strip("-'") for w in _WORD.findall(_CODE.sub(" ", text))}


def _texts(lang: str) -> list[str]:
    """The label tables in ``lang``, and in English the controller's reasons too. (The
    German of the reasons and replies is what is checked: it makes no vocabulary, or an
    English word left in a German reason would pass as German.)"""
    i = 1 if lang == "de" else 0
    out = [pair[i] for pair in console_i18n.LABELS.values()]
    out += [pair[i] for pair in screen_i18n.LABELS.values()]
    if lang == "en":
        out += list(wording.REASONS_DE) + list(wording.WORDS_DE)
        out += list(wording.EACH_DE) + list(wording.PLAIN_DE)
    return out


def _vocabulary(lang: str) -> set[str]:
    return set().union(*(words(t) for t in _texts(lang)))


#: words only one language says: a German page must have none of ENGLISH, and the other way
ENGLISH = _vocabulary("en") - _vocabulary("de") - BOTH
GERMAN = _vocabulary("de") - _vocabulary("en") - BOTH

#: the words people's names in the nights are made of, and the tournament's name
NAMES = {"five", "spades", "psc", "re-buy", "add-on"}


class _Visible(HTMLParser):
    """The text a reader sees or hears: text nodes (no script, no style), and the attributes
    a browser shows (a placeholder, a title, a confirm, a template the script fills in)."""

    SHOWN = {"placeholder", "title", "aria-label", "alt", "data-confirm", "data-template",
             "data-rebuy-why", "data-empty"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for key, value in attrs:
            if value and (key in self.SHOWN or key == "value" and tag == "button"):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible(html: str) -> list[str]:
    p = _Visible()
    p.feed(html)
    return p.parts


def foreign(texts: list[str], lang: str) -> dict[str, set[str]]:
    """Each text with the other language's words in it (people's names aside)."""
    other = ENGLISH if lang == "de" else GERMAN
    out = {}
    for text in texts:
        bare = _bare(text)
        bad = (words(bare) - NAMES) & other
        if bad:
            out[text] = bad
    return out


# --------------------------------------------------------------- the label tables
TABLES = {"console": console_i18n.LABELS, "screens": screen_i18n.LABELS}


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_label_has_its_german(table):
    """A German that is its English is a missing translation, unless every word of it is
    the same in both (Level, Blinds, Rebuy …)."""
    untranslated = {key: en for key, (en, de) in TABLES[table].items()
                    if (not de.strip() or de == en) and not words(en) <= BOTH}
    assert not untranslated, f"no German in {table}: {untranslated}"
    mismatched = {key for key, (en, de) in TABLES[table].items() if _fields(en) != _fields(de)}
    assert not mismatched, f"German and English fill in different values: {mismatched}"


@pytest.mark.parametrize("table", sorted(TABLES))
def test_no_label_speaks_the_other_language(table):
    # the vocabularies are made of these very tables: a word both say is in neither
    for key, (en, de) in TABLES[table].items():
        assert not foreign([de], "de"), f"{table} {key}: German {de!r}"
        assert not foreign([en], "en"), f"{table} {key}: English {en!r}"


def test_every_label_a_template_asks_for_exists():
    from importlib.resources import files

    folder = files("controller.console") / "templates"
    asked: set[str] = set()
    for entry in folder.iterdir():
        if entry.name.endswith(".html"):
            asked |= set(re.findall(r"\bt\('([a-z_]+)'", entry.read_text(encoding="utf-8")))
    missing = asked - set(console_i18n.LABELS)
    assert not missing, f"templates ask for labels nobody wrote: {missing}"


def test_every_reason_reads_german_throughout():
    """The controller's reasons as a German director reads them: no English word left (a
    command's name like ``level next`` is no advice in a browser), a sentence's capital."""
    bad = {de: w for de in wording.REASONS_DE.values() if (w := foreign([de], "de").get(de))}
    assert not bad, bad


# ------------------------------------------------------------------- the pages
@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    return nights()


def _client(hub: Any) -> TestClient:
    console = Console(cast(Any, hub), hash_password(PASSWORD, iterations=1000))
    client = TestClient(make_app(console, start_hub=False), base_url="http://127.0.0.1")
    answer = client.post("/login", data={"password": PASSWORD}, follow_redirects=False,
                         headers={"Origin": "http://127.0.0.1"})
    assert answer.status_code == 303
    client.console = console  # type: ignore[attr-defined]
    return client


def rendered(hub: Any, lang: str) -> dict[str, str]:
    """Every page and every live part of every page, by name, in ``lang``."""
    client = _client(hub)
    client.get(f"/lang/{lang}", follow_redirects=False)
    out = {}
    for path in PAGES:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.text[:200])
        out[path] = answer.text
    console = client.console  # type: ignore[attr-defined]
    for page in ("floor", "players", "results", "public"):
        for element, html in console.live(page, lang).items():
            out[f"{page}#{element}"] = html
    return out


def _bare(text: str) -> str:
    for name in [*TYPED, *PEOPLE]:
        text = text.replace(name, " ")
    return text


def said(played: dict[str, Any], lang: str) -> set[str]:
    """The words the floor says in ``lang`` beyond the tables: what every command did (the
    history's phrases) and why each move is due, at every moment of the nights."""
    texts = []
    for t, now in played.values():
        hub = hub_of(t, now)
        for row in hub.history:
            texts.append(wording.message({"message": row["text"], "phrases": row["phrases"]},
                                         lang))
        for m in hub.state["moves"]["pending"]:
            texts.append(wording.move_reason(m["reason"], lang))
    return set().union(*(words(_bare(x)) for x in texts))


def test_every_page_at_every_moment_speaks_one_language(played):
    """Each page in German and in English: a word that only the other language says (its
    tables, what its floor says: "director" in ``(table 3 breaks (director))``) fails."""
    de = _vocabulary("de")
    en = _vocabulary("en") | said(played, "en")
    only = {"de": en - de - BOTH - NAMES, "en": de - en - BOTH - NAMES}
    found = {}
    for moment, (t, now) in played.items():
        for lang in ("de", "en"):
            for name, html in rendered(hub_of(t, now), lang).items():
                for text in visible(html):
                    bad = (words(_bare(text)) - NAMES) & only[lang]
                    if bad:
                        found.setdefault(f"{moment} {lang} {name}", {})[text] = sorted(bad)
    assert not found, "\n".join(f"{where}: {texts}" for where, texts in found.items())


# ------------------------------------------------------- the controller's words
#: values for every phrase of what a command did (controller/engine/history.py)
SAMPLE = {"player": "Anna Schmidt", "players": ["Anna Schmidt", "Ben Meyer"], "count": 2,
          "table": 3, "seat": 4, "place": 5, "old": "Ana Schmidt", "name": "Anna Schmidt",
          "from_table": 1, "from_seat": 2, "to_table": 3, "to_seat": 4, "tables": 2,
          "missed": True, "op": "start", "on": True, "reason": "director", "hand": 3,
          "game": 1, "chips": 20000, "change": -500, "seconds": 30, "leaving": 25, "new": 100,
          "winners": [1, 4], "won": [1, 1], "saved": [6], "min": 6, "max": 10, "hands": 9,
          "orbits": 1, "minutes": None, "round": 1, "how": "chips", "event": 12,
          "text": "Pause", "until": None, "level": 3, "is_break": False, "small_blind": 100,
          "big_blind": 200, "ante": 25, "left": 600.0, "state": "running",
          "busts": [{"player": "Anna Schmidt", "table": 3, "seat": 4, "place": 5}],
          "what": {"key": "busted", "params": {"player": "Anna Schmidt", "place": 5,
                                               "table": 3}, "text": "x"}}
#: where a phrase takes a value of another kind
SAMPLE_OF = {"table_opened": {"players": 5}, "addon": {"players": 14},
             "field_warning": {"players": 5}, "chips_corrected": {"reason": "Zählfehler"},
             "deal": {"players": 6, "method": "icm", "currency": "EUR", "played_for": "108"},
             "structure_changed": {"change": "a level 100/200 ante 25 of 20 min inserted "
                                             "after level 2"},
             # one table a player (001 §1 III): the other tournament's name
             "elsewhere": {"tournament": "Bounty"}, "elsewhere_done": {"tournament": "Bounty"}}


@pytest.mark.parametrize("key", sorted(wording.PHRASES_DE))
def test_every_phrase_reads_german_throughout(key):
    german = wording.phrase({"key": key, "params": {**SAMPLE, **SAMPLE_OF.get(key, {})},
                             "text": "the English"}, "de")
    assert german != "the English"  # said, not fallen back
    assert not foreign([german], "de"), german
@pytest.mark.parametrize("english, german", [
    ("balancing", "Ausgleich"), ("table 3 breaks", "Tisch 3 wird aufgelöst"),
    ("table 3 breaks (director)", "Tisch 3 wird aufgelöst (Turnierleitung)"),
    ("table 12 opens", "Tisch 12 öffnet"), ("final table", "Finaltisch"),
    ("final table (director)", "Finaltisch (Turnierleitung)"),
    ("round 2 over: new seats by lot", "Runde 2 vorbei: neue Plätze per Los"),
    ("round 1 over: the final tables by points", "Runde 1 vorbei: die Finaltische nach Punkten"),
    ("a reason of a newer controller", "a reason of a newer controller")])
def test_why_a_move_is_due_in_german(english, german):
    assert wording.move_reason(english, "de") == german
    assert wording.move_reason(english, "en") == english


def test_a_reason_and_a_line_are_sentences():
    from controller.console.app import sentence

    assert sentence("die Uhr läuft schon", {"why": {"key": "the clock is already running"}}) \
        == "Die Uhr läuft schon"
    assert sentence("de Vries ist schon ausgeschieden",
                    {"why": {"key": "{player} is already out"}}) == \
        "de Vries ist schon ausgeschieden"
    assert wording.capital("angesagt: „Pause“", [{"key": "announced", "params": {}}]) == \
        "Angesagt: „Pause“"
    assert wording.capital("de Vries sitzt", [{"key": "seated",
                                               "params": {"player": "de Vries"}}]) == \
        "de Vries sitzt"


def test_nothing_removed_is_no_line_and_one_ghost_is_one():
    from controller.console import pages

    none = {"key": "ghosts_removed", "params": {"count": 0, "chips": 0},
            "text": "0 ghost seats removed"}
    level = {"key": "clock_level", "params": {}, "text": "level changed"}
    rows = pages.history_rows([{"event": 5, "at": 0.0, "by_itself": True, "undone_by": None,
                                "text": "0 ghost seats removed", "phrases": [none]},
                               {"event": 7, "at": 1.0, "by_itself": False, "undone_by": None,
                                "text": "level changed; 0 ghost seats removed",
                                "phrases": [level, none]}], "de")
    assert [r["text"] for r in rows] == ["Level gewechselt"]
    one = {**none, "params": {"count": 1, "chips": 10000}}
    assert wording.phrase(one, "de") == \
        "1 Geisterplatz entfernt (10.000 Chips verlassen das Spiel)"
    assert wording.phrase({"key": "addon", "params": {"chips": 20000, "players": 14},
                           "text": "x"}, "de") == "Add-on: je 20.000 Chips für 14 Spieler"
