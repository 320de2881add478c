"""Every event of the log, as one typed record each.

An event is a fact the engine decided (``busted``, ``moved``, ``clock``…).
The log stores each as a JSON object: the envelope ``seq`` (1, 2, 3 …),
``group`` (the ``seq`` of the first event of the command that made it),
``type``, ``at`` (controller time, seconds), ``v`` (the schema version of the
record) and the fields of its class below. Random decisions store their
``seed`` and their outcome, so replaying the log never draws again.

Versions: ``v`` 1 is the log of Floorman 0.1 (no ``v`` key; ``opened`` without
``settings``), ``v`` 2 records the tournament's resolved settings in
``opened``, ``v`` 3 adds ``hash``, the event's link in the log's hash chain
(:mod:`~controller.engine.chain`; not a field of the typed event). A newer
version than :data:`VERSION` is refused, never guessed.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

#: the schema version this engine writes
VERSION = 3

#: a JSON-able record as stored in the log
Record = dict[str, Any]


class InvalidEvent(Exception):
    """An event that does not fit the state (a corrupt log, or an undo that would break history)."""


class Event(BaseModel):
    """Base of every event: the envelope."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    #: fields left out of the record when they are ``None`` (optional extras)
    omit_none: ClassVar[tuple[str, ...]] = ()
    seq: int
    group: int
    type: str
    at: float
    v: int = VERSION

    def record(self) -> Record:
        """The JSON-able form stored in the log."""
        data = self.model_dump()
        for key in self.omit_none:
            if data[key] is None:
                del data[key]
        return data


class Opened(Event):
    """The first event: the tournament's name, base seed and resolved settings.

    ``settings`` is the whole rule set (structure, seats, entries, points…)
    as plain data (:func:`controller.engine.settings.to_data`); the broker
    section is deployment, not rules, and is never logged. ``None`` only in
    a version-1 log.
    """

    type: Literal["opened"] = "opened"
    name: str
    seed: int
    settings: dict[str, Any] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("settings",)


class Registered(Event):
    """``stack``: the player's own start stack (from the club's standings, 003 8 / 000
    4.18); left out: the settings' ``start_stack``."""

    type: Literal["registered"] = "registered"
    player: int
    name: str
    member: bool
    stack: int | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("stack",)


class Renamed(Event):
    """A player's name corrected: ``name`` is the new one."""

    type: Literal["renamed"] = "renamed"
    player: int
    name: str


class Unregistered(Event):
    """A registered player taken off the list before the draw."""

    type: Literal["unregistered"] = "unregistered"
    player: int


class SeatsDrawn(Event):
    """``seats``: ``[player or null, table, seat, ghost name?]`` for every seat drawn.
    ``button``: table 1's first button; ``buttons``: ``[table, seat]``, each table's own
    (drawn among its players); left out: ``button`` at every table (000 3.12)."""

    type: Literal["seats_drawn"] = "seats_drawn"
    seed: int
    seats: list[list[int | str | None]]
    button: int
    buttons: list[list[int]] | None = None
    #: the reserve seats the draw left free, ``[table, seat]`` (002, rules/reserve.py)
    reserved: list[list[int]] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("buttons", "reserved")


class ClockChanged(Event):
    type: Literal["clock"] = "clock"
    op: Literal["start", "pause", "resume", "level", "add", "set"]
    value: float | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("value",)


class LevelStarted(Event):
    type: Literal["level_started"] = "level_started"
    level: int
    number: int
    is_break: bool


class StructureChanged(Event):
    """The director changed the coming levels: ``levels`` is the whole new structure."""

    type: Literal["structure_changed"] = "structure_changed"
    levels: list[dict[str, Any]]
    change: str


class HandDone(Event):
    """``missed``: the table forgot to press "hand done"; a bust in its next hand caught it up."""

    type: Literal["hand_done"] = "hand_done"
    table: int
    missed: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("missed",)


class Moved(Event):
    type: Literal["moved"] = "moved"
    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    waiting: bool
    #: the destination waits for this player before its next hand (TDA 11D)
    hold: bool | None = None
    #: the director chose the table that gives the player (001 §2 I), not the plan
    chosen: bool | None = None
    #: the player posted a blind at the old table and sits out until the button has
    #: passed the new seat (003 12; ``waiting`` is true too)
    sits_out: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("hold", "chosen", "sits_out")


class Reseated(Event):
    """The director's reseat (:mod:`controller.engine.rules.reseat`): not a balancing
    decision, so not a ``moved``."""

    type: Literal["reseated"] = "reseated"
    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    waiting: bool
    reason: str
    #: as :class:`Moved` (003 12)
    sits_out: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("sits_out",)


class DealtIn(Event):
    """A player sitting out after a move (003 12) is dealt in from the next hand;
    ``waits``: the seat still waits for the button as any arrival's (000 4.10)."""

    type: Literal["dealt_in"] = "dealt_in"
    player: int
    table: int
    seat: int
    waits: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("waits",)


class SeatsReserved(Event):
    """The director's reserve seats (rules/reserve.py): ``count`` the reserve now; after
    the draw the seats kept free (``add``) and given back (``release``), ``[table, seat]``
    each."""

    type: Literal["seats_reserved"] = "seats_reserved"
    count: int
    add: list[list[int]] = []
    release: list[list[int]] = []
    reason: str


class TableBroken(Event):
    """``moves``: ``[player, table, seat, waiting]`` for every player of the broken table;
    ``sits_out``: those of them who posted a blind there and sit out at the new table until
    the button has passed them (003 12; they are ``waiting`` too)."""

    type: Literal["table_broken"] = "table_broken"
    table: int
    seed: int
    moves: list[list[int | bool]]
    reason: str
    sits_out: list[int] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("sits_out",)


class TableOpened(Event):
    """A new table for an entry (its event, just before, seats the entry there): players
    drawn from the fullest tables, each ``[player, from_table, from_seat, to_seat]``, and
    the drawn ``button``; the table deals when they are seated."""

    type: Literal["table_opened"] = "table_opened"
    table: int
    moves: list[list[int]]
    button: int
    reason: str


class FinalTableFormed(Event):
    type: Literal["final_table"] = "final_table"
    table: int
    size: int
    seed: int
    seats: list[list[int]]
    button: int
    reason: str


class Busted(Event):
    """``hand`` is the key of the hand the bust belongs to (busts of one hand share a group)."""

    type: Literal["busted"] = "busted"
    player: int
    table: int
    seat: int | None
    stack: int | None = None
    hand: list[str | int]
    by: int | None = None


class _Entered(Event):
    player: int
    table: int
    seat: int
    waiting: bool = False
    seed: int | None = None
    replaces_ghost: int | None = None
    new_table: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("seed", "replaces_ghost", "new_table")


class LateEntry(_Entered):
    type: Literal["late_entry"] = "late_entry"


class Reentry(_Entered):
    type: Literal["reentry"] = "reentry"


class Rebuy(_Entered):
    type: Literal["rebuy"] = "rebuy"


class Addon(Event):
    type: Literal["addon"] = "addon"
    players: list[int]
    chips: int


class GhostsRemoved(Event):
    """Ghost seats removed; ``chips``: what each takes out of play (its stack less the blinds
    it posted; a log written before has none: the start stack left)."""

    omit_none: ClassVar[tuple[str, ...]] = ("chips",)
    type: Literal["ghosts_removed"] = "ghosts_removed"
    players: list[int]
    chips: list[int] | None = None


class HandForHand(Event):
    type: Literal["hfh"] = "hfh"
    on: bool
    reason: str


class HandForHandReleased(Event):
    type: Literal["hfh_released"] = "hfh_released"
    hand: int


class HeadsUp(Event):
    type: Literal["heads_up"] = "heads_up"


class TimeCall(Event):
    type: Literal["time_call"] = "time_call"
    table: int
    op: Literal["start", "cancel", "expire"]
    seconds: int | None = None
    countdown: int | None = None
    seat: int | None = None
    #: the action clock (001 §1 VI, 002 shot clock), not a clock call; absent: a call
    action: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("seconds", "countdown", "action")


class HandsLeft(Event):
    """``count`` more hands at every table; ``card``: the card a player drew at the end of
    the day (002), the director's own number without one."""

    omit_none: ClassVar[tuple[str, ...]] = ("card",)
    type: Literal["hands_left"] = "hands_left"
    count: int
    card: int | None = None


class Seated(Event):
    type: Literal["seated"] = "seated"
    player: int
    #: the table whose button box said so (``None``: the director)
    table: int | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("table",)


class Finished(Event):
    """``shared``: the players who share first place when the last hand is not played
    (001 §2 III: a qualifier of 9-10 ends with two qualified); left out otherwise."""

    type: Literal["finished"] = "finished"
    winner: int
    shared: list[int] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("shared",)


class NamesListed(Event):
    """``what``: ``drawn`` (000 6.3) or ``mystery`` (000 4.17); ``names`` replaces the list."""

    type: Literal["names_listed"] = "names_listed"
    what: Literal["drawn", "mystery"]
    player: int
    names: list[int]


class Absent(Event):
    """A player who left plays on as a ghost (``on``) or is back (000 9.5); ``stack``: chips
    when leaving, to rank players removed together."""

    type: Literal["absent"] = "absent"
    player: int
    on: bool
    stack: int | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("stack",)


class AbsentRemoved(Event):
    """Absent players removed after their net playing time (000 9.5), ranked in this order
    of ``players`` (the group's ranking, see places.rank, uses their ``stacks``)."""

    type: Literal["absent_removed"] = "absent_removed"
    players: list[int]
    stacks: list[int | None]
    #: what each takes out of play (``None``, a log written before: the buy-ins left)
    chips: list[int] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("chips",)


class TableGameStarted(Event):
    """A play day's table game (003 6): ``game`` number, its ``tables`` and ``seats``
    (``[player, table, seat]``); a new table's seats are drawn with ``seed``."""

    type: Literal["table_game"] = "table_game"
    game: int
    tables: list[int]
    seats: list[list[int]]
    seed: int | None = None
    button: int | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("seed", "button")


class TableGameOver(Event):
    """A table game's last player is its winner (003 6); the table is free."""

    type: Literal["table_game_over"] = "table_game_over"
    game: int
    winner: int


class ChipRaced(Event):
    """A table's chip race (000 3.17, 003 37): chips of value ``leaving`` go, chips of value
    ``new`` come. ``seats`` (in dealing order from the start seat), ``leftover`` (their
    leftover chips) and ``cards`` (one card per chip, e.g. ``"A♠"``) line up; the deck was
    shuffled with ``seed``. ``winners`` won ``won`` new chips each (same order); ``saved``:
    seats that lost the race with nothing else left and keep one new chip anyway.
    ``change``: chips in play after minus before (the rounding's gain or loss).
    ``call``: the director's colour-up (its event number) the race belongs to (``None``: the
    break's); ``absent``/``lost``: seats not at the table and the small chips (their value)
    each lost (002)."""

    omit_none: ClassVar[tuple[str, ...]] = ("call", "absent", "lost")
    type: Literal["chip_race"] = "chip_race"
    table: int
    level: int
    leaving: int
    new: int
    seed: int
    seats: list[int]
    leftover: list[int]
    cards: list[list[str]]
    winners: list[int]
    won: list[int]
    saved: list[int]
    change: int
    call: int | None = None
    absent: list[int] | None = None
    lost: list[int] | None = None


class ColourUpCalled(Event):
    """The director's colour-up (002 "jederzeit"): chips of value ``leaving`` leave play for
    ``new``; the tables race while level ``level`` lasts."""

    type: Literal["colour_up"] = "colour_up"
    leaving: int
    new: int
    level: int
    #: added to the colour-ups under way (several chips, issue 32); absent in a log from
    #: before: the call replaced the one before
    adds: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("adds",)


class Undo(Event):
    """Takes back command group ``target``. ``withdrawn``: the balancing moves (their
    ``moved`` events) that group called for and nobody carried out yet, taken back with
    it; ``players``: their movers; ``stays``: the moves it called for that were carried
    out (the mover sat down, the table dealt on) and stay (rules/undo.py)."""

    omit_none: ClassVar[tuple[str, ...]] = ("withdrawn", "players", "stays")
    type: Literal["undo"] = "undo"
    target: int
    withdrawn: list[int] | None = None
    players: list[int] | None = None
    stays: list[int] | None = None


class Announced(Event):
    """A banner for every screen: ``text`` from ``at`` until ``until`` (controller time, s;
    ``None``: until the next one); an empty ``text`` takes the banner down."""

    type: Literal["announced"] = "announced"
    text: str
    until: float | None = None


class ChipsCounted(Event):
    """Counted stacks, ``[player, chips]`` each (chip counts); ``reason``: who counted or
    when (``director``, ``round 1``…)."""

    type: Literal["chips_counted"] = "chips_counted"
    stacks: list[list[int]]
    reason: str


class ChipsCorrected(Event):
    """The director corrected the chips in play by ``change`` (negative: chips left the
    game, a player took them home or a chip was found on the floor), for ``reason``."""

    type: Literal["chips_corrected"] = "chips_corrected"
    change: int
    reason: str


class RoundEnded(Event):
    """A round of play the clock (000 4.15) or restart (000 4.14) is over. ``seats``:
    ``[player, table, seat]`` of the new draw (``seed``, ``button``); empty at the end.
    ``stacks``: ``[player, chips]`` each player starts the next part with (restart);
    ``standings``: ``[player, chips]`` by the final count, the most first (play the clock).
    Multi-round (000 4.19): ``points`` ``[player, place, points]`` of the round; ``tables``
    ``[table, best place]`` of the final round's tables (table 1: the best on points)."""

    type: Literal["round_ended"] = "round_ended"
    round: int
    seed: int
    seats: list[list[int]]
    button: int
    stacks: list[list[int]] | None = None
    standings: list[list[int]] | None = None
    points: list[list[int]] | None = None
    tables: list[list[int]] | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("stacks", "standings", "points", "tables")


class TableDecided(Event):
    """A multi-round final table (000 4.19) has one player left: ``winner`` takes its best
    place; the table is free."""

    type: Literal["table_decided"] = "table_decided"
    table: int
    winner: int


class StartStacks(Event):
    """Each player's own start stack, ``[player, points, chips]`` (000 4.18 Landesliga)."""

    type: Literal["start_stacks"] = "start_stacks"
    stacks: list[list[int]]
class Penalty(Event):
    """A penalty (000 3.6-3.8, 4.11; 001 §5; 002; 003 25; 004 7): ``what`` ``warning``,
    ``sit_out`` (for ``hands`` hands at the player's table, ``orbits`` given as that many
    hands, or until ``until``, controller time in s) or ``owed_blinds`` (000 4.11)."""

    type: Literal["penalty"] = "penalty"
    player: int
    what: Literal["warning", "sit_out", "owed_blinds"]
    hands: int | None = None
    orbits: int | None = None
    until: float | None = None
    reason: str = ""
    omit_none: ClassVar[tuple[str, ...]] = ("hands", "orbits", "until")


class Disqualified(Event):
    """A player disqualified (000 3.8): out of the ranking; ``chips`` leave play."""

    type: Literal["disqualified"] = "disqualified"
    player: int
    chips: int
    reason: str = ""


class FieldWarning(Event):
    """The draw's field is outside the tournament's ``min_players``-``max_players``
    (001 §2 I-II): the draw stands, the director is told."""

    type: Literal["field_warning"] = "field_warning"
    players: int
    min_players: int | None = None
    max_players: int | None = None



# ------------------------------------------------- the registration desk (issue 31)
class Waitlisted(Event):
    """No seat left (002, 000 2.4): the player goes on the waiting list, last in line.
    ``player`` is the id the player keeps when called; ``expected``: pre-registered, not
    arrived yet (000 2.2)."""

    type: Literal["waitlisted"] = "waitlisted"
    player: int
    name: str
    member: bool
    stack: int | None = None
    expected: bool = False
    #: a busted player's re-entry on a sold-out night (002): the player keeps the id and
    #: re-enters when called
    reentry: bool | None = None
    omit_none: ClassVar[tuple[str, ...]] = ("stack", "reentry")


class WaitingCalled(Event):
    """A seat came free (a registration cancelled, more seats): the first in line is
    called off the waiting list; a ``registered`` event for the player follows."""

    type: Literal["waiting_called"] = "waiting_called"
    player: int


class WaitingLeft(Event):
    """A player taken off the waiting list (left, or cancelled)."""

    type: Literal["waiting_left"] = "waiting_left"
    player: int


class CapacitySet(Event):
    """The director set the seat limit (``None``: no limit) (002)."""

    type: Literal["capacity_set"] = "capacity_set"
    seats: int | None = None


class Expected(Event):
    """A pre-registered player (000 2.2): on the list, not arrived yet (check-in)."""

    type: Literal["expected"] = "expected"
    player: int


class CheckedIn(Event):
    """A pre-registered player arrived at the desk (000 2.2)."""

    type: Literal["checked_in"] = "checked_in"
    player: int


class NoShows(Event):
    """At the draw, the pre-registered players who did not arrive (000 2.7): taken off the
    list (``players``) and off the waiting list (``waiting``), each recorded as a no-show."""

    type: Literal["no_shows"] = "no_shows"
    players: list[int]
    waiting: list[int] = []
    names: list[str]


class Bumped(Event):
    """000 2.3: a member who registered a week ahead took the seat of ``player``, the last
    registration without that guarantee, who goes to the head of the waiting list."""

    type: Literal["bumped"] = "bumped"
    player: int


class DealMade(Event):
    """A deal at the final table (issue 30, 002): ``shares`` ``[player, stack, cents]`` for
    every player left (the counted stack it was made from, what the player takes now);
    ``played_for``: cents still played for (the winner takes them); ``open``: the money of
    the places still to be paid that the deal split (cents); ``method``: icm, chip_chop or
    custom."""

    type: Literal["deal"] = "deal"
    method: Literal["icm", "chip_chop", "custom"]
    shares: list[tuple[int, int, int]]
    played_for: int
    open: int


class AgeConfirmed(Event):
    """000 1.1, 003 1: the desk asked and ``player`` confirmed being 18 or older (no ID is
    kept); the club database keeps the date with the player (docs/club.md)."""

    type: Literal["age_confirmed"] = "age_confirmed"
    player: int
    name: str


class Elsewhere(Event):
    """001 §1 III: ``player`` is seated in ``tournament``, a tournament on this floor that
    started earlier: busts and moves of the player wait here; ``done``: it is over for
    them."""

    type: Literal["elsewhere"] = "elsewhere"
    player: int
    tournament: str
    done: bool = False


DESK: tuple[type[Event], ...] = (Waitlisted, WaitingCalled, WaitingLeft, CapacitySet, Expected,
                                 CheckedIn, NoShows, Bumped, AgeConfirmed, Elsewhere)

ALL: tuple[type[Event], ...] = (
    Opened, Registered, SeatsDrawn, ClockChanged, LevelStarted, StructureChanged, HandDone,
    Moved, Reseated, TableBroken, TableOpened, FinalTableFormed, Busted, LateEntry, Reentry,
    Rebuy, Addon,
    GhostsRemoved, HandForHand, HandForHandReleased, HeadsUp, TimeCall, HandsLeft, Seated,
    Finished, Undo, Renamed, Unregistered, NamesListed, Absent, AbsentRemoved,
    TableGameStarted, TableGameOver, Announced, ChipsCounted, ChipsCorrected, RoundEnded,
    StartStacks,
    TableDecided, Penalty, Disqualified, FieldWarning, ChipRaced, ColourUpCalled,
)
ALL += DESK  # the registration desk (issue 31)
ALL += (DealMade,)  # the deal at the final table (issue 30)
ALL += (SeatsReserved,)  # reserve seats (issue 31.7)
ALL += (DealtIn,)  # a moved blind dealt in at once (003 12)
#: event type → its class
BY_TYPE: dict[str, type[Event]] = {c.model_fields["type"].default: c for c in ALL}
_ADAPTERS: dict[str, TypeAdapter[Event]] = {t: TypeAdapter(c) for t, c in BY_TYPE.items()}


#: records parsed before, by ``id``, with the record itself (kept alive, so its id is not
#: given to another while it is here): an undo replays the live log several times, and
#: validating every event again was a quarter of its time at a festival
_PARSED: dict[int, tuple[Record, Event]] = {}
#: records kept at most; then the cache starts again (a long test session's old logs)
_PARSED_MAX = 300_000


def parse(record: Record) -> Event:
    """A stored record → its typed event; :class:`InvalidEvent` says what does not fit.

    The same record object (a dict of the live log) is parsed once; a record read anew from
    the store, or a copy, is parsed again."""
    hit = _PARSED.get(id(record))
    if hit is not None and hit[0] is record and hit[1].seq == record.get("seq") \
            and hit[1].type == record.get("type"):
        return hit[1]
    event = _parse(record)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[id(record)] = (record, event)
    return event


def _parse(record: Record) -> Event:
    if not isinstance(record, dict):
        raise InvalidEvent(f"an event must be an object, got {record!r:.60}")
    typ = record.get("type")
    adapter = _ADAPTERS.get(typ) if isinstance(typ, str) else None
    if adapter is None:
        raise InvalidEvent(f"event {record.get('seq')}: unknown event type {typ!r}")
    v = record.get("v", 1)
    if not isinstance(v, int) or v > VERSION:
        raise InvalidEvent(f"event {record.get('seq')} has schema version {v!r}; this "
                           f"Floorman reads versions up to {VERSION} (update Floorman)")
    data = {k: x for k, x in record.items() if k != "hash"}  # the chain's, checked by replay
    data.setdefault("v", 1)
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InvalidEvent(f"event {record.get('seq')} ({typ}): {where}: {first['msg']}"
                           ) from None


def table() -> str:
    """The Markdown table of event types for ``docs/engine.md`` (generated, tested)."""
    envelope = set(Event.model_fields)
    rows = ["| type | data |", "| --- | --- |"]
    for cls in ALL:
        fields = [f"`{k}`" + ("?" if not f.is_required() else "")
                  for k, f in cls.model_fields.items() if k not in envelope]
        rows.append(f"| `{cls.model_fields['type'].default}` | {', '.join(fields)} |")
    return "\n".join(rows)
