"""Every command the engine accepts, as one typed record each.

A command is what a person (the director, a dealer's button) asks for; the
engine decides whether it is possible and answers with events
(:mod:`controller.engine.events`). Each class below is the single definition
of one command: its fields are the arguments, their types and limits are the
argument checks, :func:`arguments` gives them to the MQTT protocol
(``controller.wire.protocol.DIRECTOR_ARGS``) and the command line (``floorman send``),
and :func:`table` makes the table of ``docs/engine.md``. Checks that depend on
the state (is seat 3 taken?) are the rules' business (:mod:`controller.engine.rules`).

Validation is pydantic in strict mode: ``"yes"`` is not true, ``"3"`` is not
a number, an unknown argument is an error. :func:`parse` turns any mistake
into one :class:`BadCommand` whose text names the command, the field and what
was expected, e.g. ``bust: unknown argument 'tabel' (did you mean 'table'?)``.
"""

from __future__ import annotations

import difflib
import string
import unicodedata
from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: version of the command records (the MQTT envelope's ``v`` is the protocol's own)
VERSION = 1

#: a player: the id the controller gave (1, 2, …) or the name (case-insensitive)
PlayerRef = Annotated[int | str, Field(description="player id or name")]
#: the highest table number: a festival's 1,000 tables and more (the topics, the broker's
#: accounts and the screens take every number up to it)
MAX_TABLES = 9999
TableNo = Annotated[int, Field(ge=1, le=MAX_TABLES, description="table number")]
SeatNo = Annotated[int, Field(ge=1, le=99, description="seat number")]
Chips = Annotated[int, Field(ge=0, le=10**12, description="chips")]
Name = Annotated[str, Field(min_length=1, max_length=200, description="a player's name")]
#: Unicode categories no screen or terminal shows: controls (a NUL, an ESC), format
#: characters (a BOM, zero-width joiners, direction overrides), surrogates, private use,
#: unassigned. A NUL killed the table screen and a lone BOM every wall (issue 11.5); an
#: ESC in a reason reached the director's terminal through ``floorman history`` (27.6).
UNSHOWABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: how much of a bad value a refusal quotes (a 10,000-character name was quoted whole,
#: twice); the rest is cut with "…"
QUOTE = 60


def quote(value: Any) -> str:
    """``repr(value)``, cut to :data:`QUOTE` characters with "…"."""
    text = repr(value)
    return text if len(text) <= QUOTE else text[:QUOTE - 1] + "…"


def _line(text: str) -> str:
    """A reason or a banner as one line: runs of white space (a line break, a tab) as one
    space, trimmed; a character no screen or terminal shows is refused."""
    line = " ".join(text.split())
    for ch in line:
        if unicodedata.category(ch) in UNSHOWABLE:
            raise ValueError(f"text without control or format characters (U+{ord(ch):04X})")
    return line


#: a reason or a banner's text (120 characters, one line, nothing a screen cannot show)
Line = Annotated[str, Field(max_length=120), AfterValidator(_line)]


class Rejected(Exception):
    """An impossible command; nothing was changed.

    ``Rejected("{player} is already out", player="Anna")``: ``str()`` is the reason in
    English, ``key`` the template and ``params`` its values, so a screen can say it in its
    own language (:mod:`controller.wire.wording`). A reason without values is its own key.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        # a value the template quotes (``{name!r}``) is what was typed: cut (QUOTE)
        quoted = {f for _, f, _, conv in string.Formatter().parse(key) if f and conv == "r"}
        self.params = {k: v[:QUOTE - 1] + "…" if k in quoted and isinstance(v, str)
                       and len(v) > QUOTE else v for k, v in params.items()}
        super().__init__(key.format(**self.params) if params else key)

    def as_dict(self) -> dict[str, Any]:
        """``{"key", "params"}`` as the answer carries it (values made JSON: text or numbers)."""
        return {"key": self.key, "params": {k: _plain(v) for k, v in self.params.items()}}


class Each(tuple[dict[str, Any], ...]):
    """Things a reason lists, each said with one template: ``Each("{player} (seat {seat})",
    [{"player": "Anna", "seat": 3}, …])`` reads ``Anna (seat 3), …`` in English."""

    def __new__(cls, template: str, items: Iterable[dict[str, Any]]) -> Each:
        made = super().__new__(cls, items)
        made.template = template
        return made

    template: str

    def __str__(self) -> str:
        return ", ".join(self.template.format(**item) for item in self)

    def as_dict(self) -> dict[str, Any]:
        return {"each": self.template, "items": [dict(i) for i in self]}


def _plain(value: Any) -> Any:
    if isinstance(value, (int, float, str)) or value is None:
        return value
    if hasattr(value, "as_dict"):  # a phrase of the history, or a list of them
        return value.as_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


class BadCommand(Rejected, ValueError):
    """A command that is not well formed; ``str()`` names the field and what was expected."""


class Command(BaseModel):
    """Base of every command. ``cmd`` is its name on the wire."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    #: what the command does, one line (the docs tables and the CLI help use it)
    summary: ClassVar[str] = ""
    #: a query or a correction the screens make (never a dealer's press)
    cmd: str


# ------------------------------------------------------------------ entries
class Register(Command):
    summary: ClassVar[str] = ("enter players; after the draw each becomes a late entry; "
                              "`stack`: their start stack from the club's standings (003 8, "
                              "000 4.18), before the draw")
    cmd: Literal["register"] = "register"
    names: list[Name] | Name
    member: bool = True
    force: bool = False
    stack: Annotated[int, Field(ge=1, le=10**12, description="chips")] | None = None
    #: 000 1.1, 003 1: true: the desk asked and each confirmed being 18 (recorded); false:
    #: not 18 (refused); left out: on record already, or not asked
    adult: bool | None = None
    #: those of ``names`` the club's record makes guests (fee not paid, 000 2.1): the desk
    #: fills it in; ``member`` is the rest's
    guests: list[Name] | None = None


class Late(Command):
    summary: ClassVar[str] = ("late registration into the shortest table (or a ghost's seat, "
                              "000 9.5); `force` past the deadline")
    cmd: Literal["late"] = "late"
    name: Name
    member: bool = True
    force: bool = False
    adult: bool | None = None


class Rename(Command):
    summary: ClassVar[str] = "correct a player's name (a typo); the player keeps the seat and id"
    cmd: Literal["rename"] = "rename"
    player: PlayerRef
    name: Name


class Unregister(Command):
    summary: ClassVar[str] = "take a registered player off the list again (before the draw)"
    cmd: Literal["unregister"] = "unregister"
    player: PlayerRef


class Rebuy(Command):
    summary: ClassVar[str] = "back in after a bust, within the preset's rebuys (000 4.13)"
    cmd: Literal["rebuy"] = "rebuy"
    player: PlayerRef


class Reentry(Command):
    summary: ClassVar[str] = "a new entry after a bust, within the preset's re-entries"
    cmd: Literal["reentry"] = "reentry"
    player: PlayerRef


class Addon(Command):
    summary: ClassVar[str] = "the add-on now (otherwise automatic at the add-on phase)"
    cmd: Literal["addon"] = "addon"


# ------------------------------------------------------------------ seating
class Draw(Command):
    summary: ClassVar[str] = ("random tables and seats, equal table sizes (000 9.6), ghosts in "
                              "reserve seats if enabled, a button drawn at each table among "
                              "its players (or table 1's position at every table, 000 3.12)")
    cmd: Literal["draw"] = "draw"
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None


class MoveApply(Command):
    summary: ClassVar[str] = ("carry out the balancing plan now; `from_table`: the table the "
                              "director chooses to give the plan's next player (001 §2 I)")
    cmd: Literal["move_apply"] = "move_apply"
    from_table: TableNo | None = None


class Seated(Command):
    summary: ClassVar[str] = ("a moved `player` has sat down, or everyone on the way to "
                              "`table` has (its button box); the move is done")
    cmd: Literal["seated"] = "seated"
    player: PlayerRef | None = None
    table: TableNo | None = None


class BreakTable(Command):
    summary: ClassVar[str] = "the director breaks a table now"
    cmd: Literal["break_table"] = "break_table"
    table: TableNo


class Reseat(Command):
    summary: ClassVar[str] = ("the director seats `player` at `table` and `seat` (without "
                              "`seat`: the one that posts the big blind soonest), for a "
                              "`reason` kept in the log (002: special needs, balancing by "
                              "hand; a seat change at the same table)")
    cmd: Literal["reseat"] = "reseat"
    player: PlayerRef
    table: TableNo
    seat: SeatNo | None = None
    reason: Line


class Reserve(Command):
    summary: ClassVar[str] = ("the director keeps `seats` seats free for expected late "
                              "arrivals (002: \"Ist ein Turnier nicht ausverkauft, können "
                              "einige Plätze … freigehalten werden\"), for a `reason` kept in "
                              "the log; before the draw the draw leaves them free, after it "
                              "the shortest tables keep free seats; fewer releases them (0: "
                              "all)")
    cmd: Literal["reserve"] = "reserve"
    seats: Annotated[int, Field(ge=0, le=999)]
    reason: Line


class FinalTable(Command):
    summary: ClassVar[str] = "the director forms the final table now"
    cmd: Literal["final_table"] = "final_table"


# -------------------------------------------------------------------- clock
class Start(Command):
    summary: ClassVar[str] = "start the clock (or resume it)"
    cmd: Literal["start"] = "start"


class Pause(Command):
    summary: ClassVar[str] = "pause the clock"
    cmd: Literal["pause"] = "pause"


class Resume(Command):
    summary: ClassVar[str] = "resume the clock"
    cmd: Literal["resume"] = "resume"


class Level(Command):
    summary: ClassVar[str] = ("jump to the next or previous level, or to a playing level by "
                              "its number, with the level's full time")
    cmd: Literal["level"] = "level"
    to: Literal["next", "prev"] | Annotated[int, Field(ge=1, le=1000)] = "next"


class Time(Command):
    summary: ClassVar[str] = "add (negative: remove) seconds to the level, or set the time left"
    cmd: Literal["time"] = "time"
    op: Literal["add", "set"] = "add"
    seconds: Annotated[float, Field(ge=-86400, le=86400, allow_inf_nan=False)]


class Tick(Command):
    summary: ClassVar[str] = ("record what the passing time made: level changes, ghosts leaving, "
                              "the automatic add-on, expired time calls")
    cmd: Literal["tick"] = "tick"


class NewLevel(BaseModel):
    """A level or break added to the structure (``minutes`` long)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    kind: Literal["level", "break"] = "level"
    minutes: Annotated[float, Field(gt=0, le=600, allow_inf_nan=False)]
    small_blind: Chips = 0
    big_blind: Chips = 0
    ante: Chips = 0
    ante_type: Literal["standard", "big_blind"] = "standard"
    note: Annotated[str, Field(max_length=80), AfterValidator(_line)] = ""


class Structure(Command):
    summary: ClassVar[str] = ("change the coming part of the structure: `insert` a level or a "
                              "break after playing level `after` (0 = before the first), or give "
                              "levels `from_level` on a new length of `minutes`")
    cmd: Literal["structure"] = "structure"
    op: Literal["insert", "minutes"]
    after: Annotated[int, Field(ge=0, le=1000)] | None = None
    level: NewLevel | None = None
    from_level: Annotated[int, Field(ge=1, le=1000)] | None = None
    minutes: Annotated[float, Field(gt=0, le=600, allow_inf_nan=False)] | None = None
    breaks: bool = False


# ------------------------------------------------------------------- hands
class HandDone(Command):
    summary: ClassVar[str] = ("the hand is over: balancing moves from this table if it is the "
                              "donor, then button and blinds advance")
    cmd: Literal["hand_done"] = "hand_done"
    table: TableNo


class HandsLeft(Command):
    summary: ClassVar[str] = "end of the day: N more hands at every table (002)"
    cmd: Literal["hands_left"] = "hands_left"
    count: Annotated[int, Field(ge=0, le=50)]


class EndOfDay(Command):
    summary: ClassVar[str] = ("the end of the day (002): in the last 7-15 minutes of the last "
                              "level the clock stops and a player's drawn `card` (3, 4 or 5) "
                              "is the hands left at every table")
    cmd: Literal["end_of_day"] = "end_of_day"
    card: Annotated[int, Field(ge=0, le=99)]


# ------------------------------------------------------------------- busts
class Bust(Command):
    summary: ClassVar[str] = ("an elimination by `table`+`seat` or `player`; `stack` ranks two "
                              "busts of one hand (000 9.5); `by` credits the knock-out; "
                              "`same_hand`: out in the same hand as the table's bust before "
                              "(otherwise a new hand: a missed hand done is caught up); "
                              "`confirm`: bust by seat a player still on the way to it")
    cmd: Literal["bust"] = "bust"
    table: TableNo | None = None
    seat: SeatNo | None = None
    player: PlayerRef | None = None
    stack: Chips | None = None
    by: PlayerRef | None = None
    same_hand: bool = False
    confirm: bool = False


# ----------------------------------------------------------- hand-for-hand
class HandForHand(Command):
    summary: ClassVar[str] = "hand-for-hand on or off by the director"
    cmd: Literal["hfh"] = "hfh"
    on: bool


# --------------------------------------------------------------- time calls
class TimeCall(Command):
    summary: ClassVar[str] = ("a \"time\" call at a table: start (on `seat`), cancel, or expire "
                              "(the engine expires it by itself when its time is up)")
    cmd: Literal["time_call"] = "time_call"
    table: TableNo
    op: Literal["start", "cancel", "expire", "toggle"] = "start"
    seat: SeatNo | None = None


# ------------------------------------------------- drawn names, mystery lists
class DrawnNames(Command):
    summary: ClassVar[str] = ("the names a member drew before the start (000 6.3: knocking one "
                              "out is worth 2 more points); again to correct, `[]` to clear")
    cmd: Literal["drawn_names"] = "drawn_names"
    player: PlayerRef
    names: Annotated[list[PlayerRef], Field(max_length=20)]


class MysteryList(Command):
    summary: ClassVar[str] = ("a player's mystery-bounty list (000 4.17: 5 names; knocking one "
                              "out wins a prize); again to correct, `[]` to clear")
    cmd: Literal["mystery_list"] = "mystery_list"
    player: PlayerRef
    names: Annotated[list[PlayerRef], Field(max_length=20)]


# --------------------------------------------------------------- chip race
class ChipRace(Command):
    summary: ClassVar[str] = ("the chip race of a colour-up break at `table` (000 3.17, 003 37): "
                              "`chips` = leftover small chips by seat (`[0, 2, 1]`: seat 2 "
                              "has 2, seat 3 has 1); `short`: seats whose leftover chips are "
                              "all they have (nobody is eliminated by a chip race)")
    cmd: Literal["chip_race"] = "chip_race"
    table: TableNo
    chips: Annotated[list[Annotated[int, Field(ge=0, le=99)]], Field(min_length=1,
                                                                      max_length=99)]
    short: Annotated[list[SeatNo], Field(max_length=99)] = []
    #: seats whose player is not at the table: `chips` there are all their small chips,
    #: taken out of play (002: "Du musst anwesend sein! Sonst verlierst du deine Chips")
    absent: Annotated[list[SeatNo], Field(max_length=99)] = []
    #: the chip raced, of several the director called (002); default: the smallest the
    #: table has not raced yet
    leaving: Annotated[int, Field(ge=1, le=10**9)] | None = None


class ColourUp(Command):
    summary: ClassVar[str] = ("the director's colour-up, at any time (002: \"jederzeit\"): the "
                              "chips of value `chip` (or of each value in `chips`) leave play; "
                              "the tables race off what is left over (`chip_race`, the "
                              "smaller chip first) while this level lasts; added to the "
                              "colour-ups under way")
    cmd: Literal["colour_up"] = "colour_up"
    chip: Annotated[int, Field(ge=1, le=10**9)] | None = None
    chips: Annotated[list[Annotated[int, Field(ge=1, le=10**9)]],
                     Field(min_length=1, max_length=20)] | None = None


class DealIn(Command):
    summary: ClassVar[str] = ("a player moved after posting a blind, who sits out until the "
                              "button has passed (003 12, `balancing.blinds_sit_out`), is "
                              "dealt in from the next hand (a seat between the button and "
                              "the small blind still waits, 000 4.10)")
    cmd: Literal["deal_in"] = "deal_in"
    player: PlayerRef


# ------------------------------------------------------------------ absent
class Absent(Command):
    summary: ClassVar[str] = ("a player who left is played as a ghost (000 9.5): removed and "
                              "ranked after 2 h of net playing time; `back` when they return; "
                              "`stack` ranks players removed together")
    cmd: Literal["absent"] = "absent"
    player: PlayerRef
    back: bool = False
    stack: Chips | None = None


# -------------------------------------------------------------- play day
class TableGame(Command):
    summary: ClassVar[str] = ("play day (003 6, 11): a new table game for `players` who are not "
                              "playing, tables and seats drawn at random")
    cmd: Literal["table_game"] = "table_game"
    players: Annotated[list[PlayerRef], Field(min_length=2, max_length=200)]
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None


# ---------------------------------------------------------------- penalties
class Penalty(Command):
    summary: ClassVar[str] = ("a penalty (000 3.6-3.8, 001 §5, 002, 003 25, 004 7): a `warning`; "
                              "a `sit_out` of `hands`, `orbits` or `minutes` (the seat stays "
                              "dealt in, the table screen counts down); `owed_blinds` after "
                              "dodging them on a move (000 4.11)")
    cmd: Literal["penalty"] = "penalty"
    player: PlayerRef
    kind: Literal["warning", "sit_out", "owed_blinds"] = "sit_out"
    hands: Annotated[int, Field(ge=1, le=500)] | None = None
    orbits: Annotated[int, Field(ge=1, le=50)] | None = None
    minutes: Annotated[float, Field(gt=0, le=600, allow_inf_nan=False)] | None = None
    reason: Line = ""


class Disqualify(Command):
    summary: ClassVar[str] = ("disqualify a player (000 3.8, 3.9, 001 §5, 003 25): out of the "
                              "ranking (no place, no points), the chips leave play (`stack`, "
                              "default the average stack)")
    cmd: Literal["disqualify"] = "disqualify"
    player: PlayerRef
    stack: Chips | None = None
    reason: Line = ""


# -------------------------------------------------------------------- undo
class Undo(Command):
    summary: ClassVar[str] = ("take back a command: `target` (its first event), or the last "
                              "press of `table`, or by default the last command")
    cmd: Literal["undo"] = "undo"
    target: Annotated[int, Field(ge=1)] | None = None
    table: TableNo | None = None


# ----------------------------------------------------------- announcements
class Announce(Command):
    summary: ClassVar[str] = ("a banner on every screen (\"Add-on jetzt möglich\"), for "
                              "`minutes` or until the next one; `clear` takes it down")
    cmd: Literal["announce"] = "announce"
    text: Line = ""
    minutes: Annotated[float, Field(gt=0, le=1440, allow_inf_nan=False)] | None = None
    clear: bool = False


# ------------------------------------------------------------- chip counts
class ChipCount(BaseModel):
    """One counted stack: a ``player``, or a ``table`` and ``seat``; ``chips`` at least 1."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    player: PlayerRef | None = None
    table: TableNo | None = None
    seat: SeatNo | None = None
    chips: Annotated[int, Field(ge=1, le=10**12, description="chips")]


class ChipCounts(Command):
    summary: ClassVar[str] = ("players' counted stacks (at a break, a round's end, or by the "
                              "director): each by `player` or `table`+`seat`; together they "
                              "cannot exceed the chips in play, and all of them must equal it")
    cmd: Literal["chip_counts"] = "chip_counts"
    counts: Annotated[list[ChipCount], Field(min_length=1, max_length=2000)]


class ChipCorrection(Command):
    summary: ClassVar[str] = ("correct the chips in play by `change` (negative: chips left the "
                              "game, a player took them home, a chip found on the floor), "
                              "with the `reason` for the record")
    cmd: Literal["chip_correction"] = "chip_correction"
    change: Annotated[int, Field(ge=-10**12, le=10**12, description="chips")]
    reason: Annotated[str, Field(min_length=1, max_length=120)]


# -------------------------------------------------------------------- modes
class EndRound(Command):
    summary: ClassVar[str] = ("play the clock (000 4.15) or restart (000 4.14): the round is "
                              "over (not before its time); `counts` are the stacks of every "
                              "player still in where the round's end counts them")
    cmd: Literal["end_round"] = "end_round"
    counts: Annotated[list[ChipCount], Field(max_length=2000)] = []
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None


class PointsOf(BaseModel):
    """A player's points from the Landesliga sit & go round (000 4.18)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    player: PlayerRef
    points: Annotated[int, Field(ge=0, le=1000)]


class LandesligaPoints(Command):
    summary: ClassVar[str] = ("Landesliga final (000 4.18): the players' points of the sit & "
                              "go round, before the draw; each starts with 1,000 chips a point "
                              "(5,000-20,000)")
    cmd: Literal["landesliga_points"] = "landesliga_points"
    points: Annotated[list[PointsOf], Field(min_length=1, max_length=2000)]



# --------------------------------------------------- the registration desk (issue 31)
class Capacity(Command):
    summary: ClassVar[str] = ("the seat limit (002): `seats`, or `tables` × players per table; "
                              "neither: no limit; a seat more calls the next on the waiting "
                              "list")
    cmd: Literal["capacity"] = "capacity"
    seats: Annotated[int, Field(ge=1, le=100_000)] | None = None
    tables: Annotated[int, Field(ge=1, le=MAX_TABLES)] | None = None


class Preregister(Command):
    summary: ClassVar[str] = ("enter players who registered ahead (000 2.2): on the list (or "
                              "the waiting list), to check in when they arrive")
    cmd: Literal["preregister"] = "preregister"
    names: list[Name] | Name
    member: bool = True
    adult: bool | None = None
    guests: list[Name] | None = None


class CheckIn(Command):
    summary: ClassVar[str] = "a pre-registered player has arrived at the desk (000 2.2)"
    cmd: Literal["check_in"] = "check_in"
    player: PlayerRef


class Cancel(Command):
    summary: ClassVar[str] = ("a registered or waiting player cancels, until the preset's "
                              "deadline before the start (000 2.6); `force` after it")
    cmd: Literal["cancel"] = "cancel"
    player: PlayerRef
    force: bool = False

# ------------------------------------------------- the deal at the final table (issue 30)
class DealAmount(BaseModel):
    """A player's part of a director's own deal (``method: custom``): cents."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    player: PlayerRef
    amount: Annotated[int, Field(ge=0, le=10**13, description="cents")]


class Deal(Command):
    summary: ClassVar[str] = ("a deal at the final table (002): the players left split the "
                              "money of the places still open by `method` (`icm`, "
                              "`chip_chop` from their counted stacks, or `custom` "
                              "`amounts`); `percent` of it (or `played_for` cents) stays to "
                              "be played for: the winner takes it")
    cmd: Literal["deal"] = "deal"
    method: Literal["icm", "chip_chop", "custom"] = "icm"
    percent: Annotated[int, Field(ge=0, le=100)] | None = None
    played_for: Annotated[int, Field(ge=0, le=10**13, description="cents")] | None = None
    amounts: Annotated[list[DealAmount], Field(max_length=12)] = []


ALL: tuple[type[Command], ...] = (
    Register, Late, Draw, Start, Pause, Resume, Level, Time, Structure, Tick, HandDone, Bust,
    MoveApply, Seated, Reseat, BreakTable, FinalTable, Rebuy, Reentry, Addon, HandForHand,
    TimeCall,
    HandsLeft, Undo, Rename, Unregister, DrawnNames, MysteryList, Absent, TableGame,
    Announce, ChipCounts, ChipCorrection, EndRound, LandesligaPoints, Penalty, Disqualify, ChipRace,
)


class Elsewhere(Command):
    summary: ClassVar[str] = ("001 §1 III: `player` is seated in `tournament`, another one on "
                              "this floor that started at `started` (ISO); if it started "
                              "earlier, busts and moves of the player wait here until it is "
                              "over for them (`done`)")
    cmd: Literal["elsewhere"] = "elsewhere"
    player: PlayerRef
    tournament: Annotated[str, Field(min_length=1, max_length=120)]
    started: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    done: bool = False


ALL += (Capacity, Preregister, CheckIn, Cancel)  # the registration desk (issue 31)
ALL += (Deal,)  # the deal at the final table (issue 30)
ALL += (ColourUp, EndOfDay)  # the director's colour-up and the end of the day (issue 31)
ALL += (Elsewhere,)  # one player, one table across a floor's tournaments (001 §1 III)
ALL += (Reserve,)  # reserve seats for late arrivals (issue 31.7)
ALL += (DealIn,)  # a moved blind dealt in at once (003 12)
#: command name → its class
BY_NAME: dict[str, type[Command]] = {c.model_fields["cmd"].default: c for c in ALL}

_ADAPTERS: dict[str, TypeAdapter[Command]] = {n: TypeAdapter(c) for n, c in BY_NAME.items()}

#: what a field's type means to a person, by pydantic error type
_EXPECTED = {
    "bool_type": "true or false",
    "int_type": "a whole number",
    "float_type": "a number",
    "string_type": "text",
    "list_type": "a list",
    "model_type": "an object",
    "dict_type": "an object",
    "model_attributes_type": "an object",
    "finite_number": "a finite number",
}


def parse(data: Any) -> Command:
    """``{"cmd": name, **args}`` → the typed command, or :class:`BadCommand`.

    A name may be spelt with ``-`` for ``_`` (``hand-done``). An ``id`` key
    (the command id of the MQTT envelope) is ignored.
    """
    if isinstance(data, Command):
        return data
    if not isinstance(data, dict) or not isinstance(data.get("cmd"), str):
        raise BadCommand("a command needs a 'cmd' name")
    name = data["cmd"].replace("-", "_")
    cls = BY_NAME.get(name)
    if cls is None:
        close = difflib.get_close_matches(name, BY_NAME, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BadCommand("unknown command {command!r}{hint}", command=data['cmd'], hint=hint)
    args = {k: v for k, v in data.items() if k not in ("cmd", "id")}
    try:
        return _ADAPTERS[name].validate_python({"cmd": name, **args})
    except ValidationError as exc:
        raise BadCommand(explain(name, cls, exc)) from None


def explain(name: str, cls: type[BaseModel], exc: ValidationError) -> str:
    """One line per problem: ``bad arguments for NAME: FIELD must be …, got …``."""
    takes = [f for f in cls.model_fields if f != "cmd"]
    lines: list[str] = []
    wrong: dict[str, tuple[list[str], Any]] = {}  # field → (what was expected, the value)
    for err in exc.errors():
        loc = [str(x) for x in err["loc"] if not _is_union_branch(x)]
        field = ".".join(loc) or "the arguments"
        kind = err["type"]
        if kind == "extra_forbidden":
            close = difflib.get_close_matches(loc[-1], takes, n=1) if loc else []
            hint = f"did you mean {close[0]!r}? " if close else ""
            lines.append(f"unknown argument {field!r} ({hint}{name} takes "
                         f"{', '.join(takes) or 'no arguments'})")
        elif kind == "missing":
            lines.append(f"{field} is missing")
        else:
            # a union (a number or a name, say) reports each branch: one line per field
            expected, _ = wrong.setdefault(field, ([], err.get("input")))
            if _expected(err) not in expected:
                expected.append(_expected(err))
    for field, (expected, value) in wrong.items():
        lines.append(f"{field} must be {' or '.join(expected)}, got {quote(value)}")
    return f"bad arguments for {name}: " + "; ".join(lines)


def _is_union_branch(part: Any) -> bool:
    # pydantic names a union member in the location ("int", "str", "list[str]",
    # "function-after[...]", "literal['next','prev']")
    return isinstance(part, str) and (part in ("int", "str", "float", "bool", "list")
                                      or "[" in part or "-" in part)


def _expected(err: Any) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind == "value_error" and ctx.get("error") is not None:  # a check of our own (_line)
        return str(ctx["error"])
    if kind == "literal_error":
        return "one of " + str(ctx.get("expected", "")).replace("'", "")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        words = {"greater_than_equal": "at least", "less_than_equal": "at most",
                 "greater_than": "more than", "less_than": "less than"}[kind]
        limit = next(iter(ctx.values()), "")
        return f"a number {words} {limit}"
    if kind in ("string_too_short", "too_short"):
        return "not empty"
    if kind in ("string_too_long", "too_long"):
        return f"at most {ctx.get('max_length')} long"
    return str(err.get("msg", "valid")).removeprefix("Input should be ")


def arguments(name: str) -> dict[str, tuple[Any, bool]]:
    """Argument name → (its type annotation, required?) of one command."""
    return {k: (f.annotation, f.is_required())
            for k, f in BY_NAME[name].model_fields.items() if k != "cmd"}


def table() -> str:
    """The Markdown table of commands for ``docs/engine.md`` (generated, tested)."""
    rows = ["| command | arguments | what it does |", "| --- | --- | --- |"]
    for cls in ALL:
        name = cls.model_fields["cmd"].default
        args = []
        for k, f in cls.model_fields.items():
            if k == "cmd":
                continue
            args.append(f"`{k}`" if f.is_required() else f"`{k}`?")
        rows.append(f"| `{name}` | {', '.join(args)} | {cls.summary} |")
    return "\n".join(rows)
