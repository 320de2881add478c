"""Tournament settings: the validated, typed form of a tournament YAML file.

The engine reads only these dataclasses; :mod:`controller.config` turns YAML
(with club-preset inheritance) into them and reports every mistake with file,
line and key path. All durations are in **seconds** unless a name says
otherwise; all chip amounts are whole chips.

The limits are part of the types (``Annotated`` with pydantic's ``Field`` and
``Strict``: ``true`` is not a number, ``"10"`` is not a number, ``7.0`` is not
a whole number), and the rules between two keys are validators on the later
key (``info.data`` holds the keys validated before it). The YAML loader and
:func:`from_data` validate with ``pydantic.TypeAdapter(TournamentSettings)``;
building a dataclass by hand checks nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    TypeAdapter,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

#: every settings class: an unknown key is an error, not ignored
_CONFIG = ConfigDict(extra="forbid")
#: Sanity limit for physical seats at one table (001 §2 II: a sit & go takes up to 11).
MAX_TABLE_SEATS = 12
#: entries of a structure (levels and breaks): a club's longest night has about 40, and
#: every screen and the director's list show them all
MAX_LEVELS = 200
#: the longest tournament name and level note (characters): what a screen's title shows
MAX_TITLE = 80
#: an MQTT topic prefix: levels of letters, digits, _ . - joined by / (no wildcards, no newline)
TOPIC_PREFIX = r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*"
#: the values of ``Points.system`` (:mod:`controller.engine.points` scores each)
PointsSystem = Literal["none", "psc_ranking", "landesliga", "multi_round", "ace_of_spades",
                       "qualifier"]


def problem(message: str, **ctx: Any) -> PydanticCustomError:
    """A broken rule between keys. ``at``: where below the checked value it is (a loc tuple
    appended to the value's); ``instead``: the loc to report it on when the checked key was
    not written (it has its default)."""
    return PydanticCustomError("setting", message, ctx)


def _rule(check: Callable[[Any, ValidationInfo], None]) -> AfterValidator:
    """A rule between keys: checked for a tournament file (the loader passes a context with
    ``levels``, the structure's playing levels), not when the log is replayed (the log is the
    record, written by the engine under the rules of its day)."""
    def run(value: Any, info: ValidationInfo) -> Any:
        if isinstance(info.context, dict):
            check(value, info)
        return value
    return AfterValidator(run)


def _within_structure(value: int | None, info: ValidationInfo) -> None:
    n = (info.context or {}).get("levels")
    if value is not None and n is not None and value > n:
        raise problem(f"the structure has only {n} levels, got {value}")


Int = Annotated[int, Strict()]
Count = Annotated[int, Strict(), Field(ge=0)]
Positive = Annotated[int, Strict(), Field(ge=1)]
Flag = Annotated[bool, Strict()]
Text = Annotated[str, Strict()]
Word = Annotated[str, Strict(), Field(min_length=1)]
#: a level number of ``entries`` (at most the structure's playing levels)
LevelNo = Annotated[int, Strict(), Field(ge=0), _rule(_within_structure)]


@dataclass(frozen=True)
class Level:
    """One step of the blind structure: a playing level or a break.

    ``seconds`` is ``None`` only for a final level without end (003 7).
    A break has ``small_blind == big_blind == ante == 0`` and may carry a
    colour-up ``note`` such as ``"Chipraise 25"`` (000 4.12).
    """

    __pydantic_config__ = _CONFIG
    kind: Literal["level", "break"]
    seconds: Positive | None
    small_blind: Annotated[Count, _rule(_small_blind)] = 0
    big_blind: Annotated[Count, _rule(_big_blind)] = 0
    ante: Count = 0
    #: "standard" (every player) or "big_blind" (BB pays the table's ante, 002)
    ante_type: Literal["standard", "big_blind"] = "standard"
    note: Annotated[Text, Field(max_length=MAX_TITLE)] = ""

    @property
    def is_break(self) -> bool:
        return self.kind == "break"


def _small_blind(value: int, info: ValidationInfo) -> None:
    if info.data.get("kind") == "level" and value < 1:
        raise problem(f"must be at least 1, got {value}")


def _big_blind(value: int, info: ValidationInfo) -> None:
    small = info.data.get("small_blind")
    if info.data.get("kind") == "level" and small is not None and value < small:
        raise problem(f"must be at least small_blind ({small}), got {value}")


def _structure(levels: tuple[Level, ...], info: ValidationInfo) -> None:
    """At least one playing level; only the last may be unlimited (003 7); no break last."""
    if not levels:
        raise problem("is empty: give at least one level")
    if len(levels) > MAX_LEVELS:
        raise problem(f"has {len(levels)} entries; at most {MAX_LEVELS} levels and breaks")
    if all(lvl.is_break for lvl in levels):
        raise problem("has no playing level, only breaks")
    last = len(levels) - 1
    for i, lvl in enumerate(levels[:-1]):
        if lvl.seconds is None:
            raise problem(f"only the last level can be unlimited (003 7); {last - i} more "
                          "entries follow it", at=(i, "seconds"))
    if levels[-1].is_break:
        raise problem("the structure ends with a break: the clock would stay in it for good; "
                      "end with a level", at=(last,))


@dataclass(frozen=True)
class TimeCall:
    """A "clock"/"time" call: ``seconds`` to act, then a ``countdown``.

    The call lasts ``seconds + countdown`` in all; the countdown is its last
    seconds (the screens say so). 000 9.5 / 004 5: 60 s, then 10 s counted down
    (70 in all). 002: "eine weitere Minute", its last 10 s counted down: 50 + 10;
    turbo "30 Sekunden ... mit 5 Sekunden Countdown": 25 + 5. 001 §1 VI: one 30 s
    extension, no countdown. 003 35: 30 s. ``red_seconds`` is how many final
    seconds the screens mark in red. ``once_per_hand``: a player gets the call
    once per hand ("einmalig", 001 §1 VI); the call then names its seat.
    ``action_seconds``: the action clock (shot clock) the dealer's "time" button
    (re)starts for each decision (001 §1 VI "xx Sekunden", 002 "Shot Clock");
    ``None`` (default): no action clock, the button starts the time call.
    """

    __pydantic_config__ = _CONFIG
    seconds: Positive = 60
    countdown: Count = 10
    red_seconds: Annotated[Count, _rule(_red_seconds)] = 10
    once_per_hand: Flag = False
    action_seconds: Annotated[int, Strict(), Field(ge=5, le=600)] | None = None


def _red_seconds(value: int, info: ValidationInfo) -> None:
    total = info.data.get("seconds", 0) + info.data.get("countdown", 0)
    if {"seconds", "countdown"} <= info.data.keys() and value > total:
        raise problem(f"must be at most seconds + countdown ({total}), got {value}")


@dataclass(frozen=True)
class Balancing:
    """Table balancing and breaking (000 4.6, 4.9, TDA 10B/11A).

    ``tolerance``: the largest allowed difference in players between two
    tables (default 1). ``break_order``: ``"highest"`` (highest table number
    breaks first, default), ``"lowest"``, or an explicit list of table numbers.
    ``halt_short_by``: a table this many players (or more) short of the table
    with the most players deals no new hand until the players moving to it are
    seated (TDA 11D: 3; ``0``: never halts, e.g. a 6-max event at the TD's
    discretion). ``extra_seats``: when every table has ``players_per_table``,
    late entries and rebuys fill each table up to this many more players (never
    beyond ``table_seats``) before a new table opens (000 4.3: 9 a table, at
    most 10; default 1). ``blinds_sit_out``: a player moved (a table broken, balancing,
    the director's reseat) who posted the small or the big blind in the last hand at the
    old table sits out at the new one until the button has passed the seat (003 12:
    "kann aussetzen, bis der Button vorbei ist"; default off: 000, 001, 002 deal them
    in at once unless between the button and the small blind).
    """

    __pydantic_config__ = _CONFIG
    tolerance: Positive = 1
    halt_short_by: Annotated[Count, Field(le=MAX_TABLE_SEATS)] = 3
    extra_seats: Annotated[Count, Field(le=MAX_TABLE_SEATS)] = 1
    break_order: Literal["highest", "lowest"] | Annotated[
        tuple[Positive, ...], Field(min_length=1), AfterValidator(_distinct)
    ] = "highest"
    blinds_sit_out: bool = False


def _distinct(tables: tuple[int, ...]) -> tuple[int, ...]:
    for i, n in enumerate(tables):
        if n in tables[:i]:
            raise problem(f"table {n} is listed twice", at=(i,))
    return tables


@dataclass(frozen=True)
class HandForHand:
    """Hand-for-hand policy (001 §2 I, 002, TDA RP-8).

    ``auto``: start by itself on the bubble of the points/prize places while
    more than one table plays. ``clock``: ``"runs"``, ``"stops"`` (002) or
    ``"deduct"`` (the clock loses at most ``deduct_seconds`` per hand, TDA RP-8).
    ``cross_table_busts``: players out in the same hand-for-hand hand at
    different tables ``"share"`` the place (002 b) or are ranked by ``"stack"``.
    """

    __pydantic_config__ = _CONFIG
    auto: Flag = True
    clock: Literal["runs", "stops", "deduct"] = "stops"
    deduct_seconds: Positive = 120
    cross_table_busts: Literal["share", "stack"] = "share"


@dataclass(frozen=True)
class Ghosts:
    """Ghost players in reserve seats (000 9.5, 9.6).

    A ghost is removed after ``remove_after_levels`` full levels or at the
    first break, whichever comes first, and never later than
    ``remove_after_minutes`` (at most 120: "max. 2 Stunden Spielzeit") of net
    playing time (the clock running in a playing level; pauses and breaks do
    not count). ``absent_minutes``: a player who left and is played as a ghost
    on the director's command is removed after this much net playing time
    from the moment they left ("2 Stunden Nettospielzeit"), and ranked then.
    """

    __pydantic_config__ = _CONFIG
    enabled: Flag = False
    remove_after_levels: Positive = 4
    remove_at_first_break: Flag = True
    remove_after_minutes: Annotated[int, Strict(), Field(ge=1, le=120)] = 120
    absent_minutes: Annotated[int, Strict(), Field(ge=1, le=600)] = 120


@dataclass(frozen=True)
class Entries:
    """Rebuy, add-on, re-entry and late registration.

    000 4.13: ``rebuys: 1`` (free), add-on phase after level 4, a player who
    did not rebuy gets ``auto_addon_multiplier`` (2) × the start stack.
    ``late_registration_levels``: registration stays open until this level
    ends (0 = closed at the start). ``reentries``: how many times a busted
    player may re-enter (001 §2 III qualifiers).
    """

    __pydantic_config__ = _CONFIG
    rebuys: Count = 0
    rebuy_until_level: Annotated[LevelNo, _rule(_rebuys_open)] = 4
    addon_after_level: Annotated[Positive, _rule(_within_structure)] | None = None
    auto_addon_multiplier: Annotated[Count, _rule(_needs_addon)] = 0
    reentries: Count = 0
    reentry_until_level: Annotated[LevelNo, Field(validate_default=True),
                                   _rule(_reentries_open)] = 0
    late_registration_levels: LevelNo = 0


def _rebuys_open(level: int, info: ValidationInfo) -> None:
    if info.data.get("rebuys", 0) > 0 and level < 1:
        raise problem("must be at least 1 when rebuys are allowed")


def _reentries_open(level: int, info: ValidationInfo) -> None:
    if info.data.get("reentries", 0) > 0 and level < 1:
        raise problem("must be at least 1 when re-entries are allowed")


def _needs_addon(multiplier: int, info: ValidationInfo) -> None:
    if multiplier > 0 and info.data.get("addon_after_level", 0) is None:
        raise problem("needs addon_after_level (when the add-on phase is)")


@dataclass(frozen=True)
class Points:
    """How places become points (see :mod:`controller.engine.points`).

    ``system``: ``"none"``, ``"psc_ranking"`` (000 5.4), ``"landesliga"``
    (000 4.18), ``"multi_round"`` (000 4.19), ``"ace_of_spades"`` (003 6),
    ``"qualifier"`` (001 §2 III). ``knockout``: championship knock-out points
    (000 6). ``bounty``: ``"none"``, ``"bounty"`` or ``"mystery"`` (000 4.17).
    ``places``: how many places count for the bubble, the paid places of a
    money venue (002): a count, or a share of the field written ``"15%"``
    (of the entries, re-entries included, rounded half up, at least 1);
    ``None`` = derived from the system and the number of players. Hand-for-hand
    starts on its bubble by itself and re-entry closes once the money is reached.
    """

    __pydantic_config__ = _CONFIG
    system: PointsSystem = "none"
    knockout: Flag = False
    knockout_drawn_names: Count = 3
    knockout_drawn_bonus: Count = 2
    bounty: Literal["none", "bounty", "mystery"] = "none"
    mystery_names: Positive = 5
    places: Annotated[Int | Text | None, AfterValidator(_places)] = None


def _places(value: int | str | None) -> int | str | None:
    """A count of places (≥ 0) or a share of the field, "15%" (0-100 %)."""
    if isinstance(value, int) and value < 0:
        raise problem(f"must be at least 0, got {value}")
    if isinstance(value, str) and (re.fullmatch(r"[0-9]+(\.[0-9]+)?%", value) is None
                                   or float(value[:-1]) > 100):
        raise problem(f'must be a number of places or a share of the field like "15%" '
                      f"(at most 100 %), got {value!r}")
    return value


@dataclass(frozen=True)
class PlayDay:
    """A play day of table games (003 6, 7, 11, 13).

    ``enabled``: the day is a series of table games instead of one tournament:
    each game plays to its own end, its best three score (003 6), the players
    of a finished game may sit down for another one, and everybody who played
    at least one table gets the attendance point. ``balancing``: the floor
    balances and dissolves the tables of one draw as in a tournament (003 13),
    so those tables are one game; ``false`` (003 9: no floorman on regular play
    days): every table is its own game and nobody is moved.
    """

    __pydantic_config__ = _CONFIG
    enabled: Flag = False
    balancing: Flag = False


@dataclass(frozen=True)
class ChipRace:
    """How leftover small chips are raced off at a colour-up (000 3.17, 003 37).

    ``start``: the first card goes to ``"seat_1"`` (000 3.17, 001 §1 X, 002,
    004 2) or to the player ``"left_of_dealer"`` (003 37). ``rounding``: the
    number of new chips is the leftover total rounded ``"up"`` to the next
    higher chip (000 3.17) or ``"half_up"`` (commercially, 002: from 250 a
    500 chip). ``one_chip_per_player``: nobody wins more than one new chip
    (000, 001, 002, 004); ``False`` for 003 37, where the highest card takes
    all the chips still to be exchanged. ``chips``: the club's chip values,
    ascending; a break's colour-up note names the chip that leaves ("Chipraise
    25"), the next higher value of ``chips`` is the new chip it races for.
    """

    __pydantic_config__ = _CONFIG
    start: Literal["seat_1", "left_of_dealer"] = "seat_1"
    rounding: Literal["up", "half_up"] = "up"
    one_chip_per_player: Flag = True
    chips: Annotated[tuple[Positive, ...], Field(min_length=2, max_length=20),
                     AfterValidator(_ascending)] = (
        1, 5, 25, 100, 500, 1000, 5000, 25000, 100000)


def _ascending(chips: tuple[int, ...]) -> tuple[int, ...]:
    for i in range(1, len(chips)):
        if chips[i] <= chips[i - 1]:
            raise problem(f"chip values must rise: {chips[i]} after {chips[i - 1]}", at=(i,))
    return chips


def _not_below_min(most: int | None, info: ValidationInfo) -> None:
    least = info.data.get("min_players")
    if most is not None and least is not None and most < least:
        raise problem(f"must be at least min_players ({least}), got {most}")


@dataclass(frozen=True)
class Dealing:
    """Who deals where the club plays without a croupier (000 3.11).

    ``players_deal``: the players deal themselves; the table screen names the
    dealer: the player on the button, moving clockwise every hand, until the
    first player at that table is out; from then on the player out last at
    that table deals, until the next one is out (000 3.11). ``False`` (the
    default): a croupier deals, the screen shows no dealer.

    ``first_button``: how the draw places the first button. ``"each_table"``
    (the default; TDA, 003 "die Person mit der höchsten Karte erhält den
    Dealerbutton"): every table draws its own among the players seated there.
    ``"table_1"`` (000 3.12): the high card is dealt on table 1's positions, and
    the winning position has the button "auch auf allen anderen Tischen" (a dead
    button where that seat is empty).
    """

    __pydantic_config__ = _CONFIG
    players_deal: Flag = False
    first_button: Literal["each_table", "table_1"] = "each_table"


@dataclass(frozen=True)
class FieldSize:
    """The field a tournament is made for (001 §2 I-II, 002).

    ``min_players`` / ``max_players``: the draw of a field outside them is
    carried out but warned about (001 §2 I freeze-out 12-40, §2 II sit & go
    8-11); ``None``: no limit. ``min_per_table``: a table starts with at least
    this many players (002: "Das Spiel an einem Tisch wird erst ab drei
    Spielgästen begonnen"); the draw of fewer is refused. Default 2.
    """

    __pydantic_config__ = _CONFIG
    min_players: Positive | None = None
    max_players: Annotated[Positive | None, _rule(_not_below_min)] = None
    min_per_table: Annotated[int, Strict(), Field(ge=2, le=MAX_TABLE_SEATS)] = 2


@dataclass(frozen=True)
class Mode:
    """A mode of PSC Five Spades (000 4.14-4.19); ``kind`` ``"tournament"`` is none.

    ``"play_the_clock"`` (000 4.4, 4.15, 9.1): ``rounds`` (3) rounds of
    ``round_minutes`` (90) of net playing time, the players reseated by lot
    between rounds with their stacks; at the end of the last round the chip
    counts decide the places. ``"restart"`` (000 4.14): play stops after level
    ``round_levels`` (8), the stacks are counted, everybody restarts at level 1
    with the start stack and new seats; after level ``round_levels`` again the
    stacks are counted and play goes on at the next level with each player's
    higher stack. ``"multi_round"`` (000 4.19, 3+1 / 2+1): ``rounds`` (3 or 2)
    preliminary rounds of at most ``round_minutes`` each, everybody with the
    start stack and drawn seats; each round's places score 18+2-18-15-…-1; then
    the best ``final_table_size`` on points meet at the final table and the
    others play at the next tables for the places after theirs.
    ``"landesliga_final"`` (000 4.18): each player's start stack
    is ``chips_per_point`` (1,000) per point of the sit & go round, at least
    ``min_stack`` (5,000) and at most ``max_stack`` (20,000).
    ``"cannonball"`` (000 4.16): the playing levels last ``first_minutes``
    (10), each ``step_minutes`` (2) longer than the one before, at most
    ``max_minutes`` (40); the tournament file's loader writes the durations.
    """

    __pydantic_config__ = _CONFIG
    kind: Literal["tournament", "play_the_clock", "restart", "multi_round", "landesliga_final",
                  "cannonball"] = "tournament"
    rounds: Annotated[int, Strict(), Field(ge=1, le=10)] = 3
    round_minutes: Annotated[int, Strict(), Field(ge=1, le=600)] = 90
    round_levels: Annotated[int, Strict(), Field(ge=1, le=MAX_LEVELS),
                            _rule(_restart_levels)] = 8
    chips_per_point: Positive = 1_000
    min_stack: Positive = 5_000
    max_stack: Annotated[Positive, _rule(_max_stack)] = 20_000
    first_minutes: Annotated[int, Strict(), Field(ge=1, le=600)] = 10
    step_minutes: Annotated[int, Strict(), Field(ge=0, le=60)] = 2
    max_minutes: Annotated[int, Strict(), Field(ge=1, le=600)] = 40


def _restart_levels(levels: int, info: ValidationInfo) -> None:
    # 000 4.14: play goes on at the level after the preliminary rounds: the structure has it
    n = (info.context or {}).get("levels")
    if info.data.get("kind") == "restart" and n is not None and levels >= n:
        raise problem(f"a restart tournament goes on at level {levels + 1} after the "
                      f"preliminary rounds (000 4.14); the structure has only {n} levels")


def _max_stack(value: int, info: ValidationInfo) -> None:
    low = info.data.get("min_stack")
    if low is not None and value < low:
        raise problem(f"must be at least min_stack ({low}), got {value}")


def _season_starts(starts: tuple[str, ...]) -> tuple[str, ...]:
    """Season start dates "MM-DD", at least one, each a real day of the year, in order."""
    for text in starts:
        try:
            if re.fullmatch(r"\d\d-\d\d", text) is None:
                raise ValueError
            datetime.date(2000, int(text[:2]), int(text[3:]))  # 2000: 02-29 is a day
        except ValueError:
            raise problem(f'must be dates "MM-DD" (e.g. "01-01"), got {text!r}') from None
    if not starts:
        raise problem("must name at least one season start")
    if list(starts) != sorted(set(starts)):
        raise problem(f"must be in calendar order without repeats, got {list(starts)}")
    return starts


@dataclass(frozen=True)
class Club:
    """The club's seasons and standings across tournaments (docs/club.md).

    The engine never reads this section; it is logged with the rules, so an imported
    log says which club and which standings it belongs to. ``name``: the club's id in
    its club database (``None``: the tournament counts for no club's standings).
    ``seasons``: the dates ("MM-DD") a season starts each year (000 5.6: 1 January;
    003 8: two club championships a year, so two seasons). ``standings``: ``points``
    (the sum of the nights' points, 000 5.4/5.5) or ``ace_of_spades`` (table points +
    attendance + bonus, 003 6). ``ties``: equal totals ``share`` the place, or
    ``count_back`` (more wins, then more second places, …, then share). ``cup_min``:
    tournaments a member must play in the season for the cup (000 7.2: 5 of 10; 0: no
    cup), ``cup_needs_points``: and score at least once. ``members_only_titles``: the
    title columns rank members only (000 8.1). ``public_short_names``: public lists
    shorten non-members' names (000 5.8). ``start_stacks``: the draw takes each
    player's stack from the standings: ``none``, ``club_championship`` ((season points
    + 5) × 1,000, 003 8) or ``landesliga`` (1,000 a point, 5,000-20,000, 000 4.18).
    ``cup_round``: the tournament is the cup's ``preliminary`` round or its ``final``
    (000 7.1-7.2, 8.4: the final's winner is the Cupsieger; neither counts as one of the
    public tournaments a member must play to qualify); ``none``: a public tournament.
    """

    __pydantic_config__ = _CONFIG
    name: Annotated[Word, StringConstraints(max_length=MAX_TITLE)] | None = None
    seasons: Annotated[tuple[str, ...], AfterValidator(_season_starts)] = ("01-01",)
    standings: Literal["points", "ace_of_spades"] = "points"
    ties: Literal["share", "count_back"] = "share"
    cup_min: Count = 0
    cup_needs_points: Flag = False
    members_only_titles: Flag = False
    public_short_names: Flag = True
    start_stacks: Literal["none", "club_championship", "landesliga"] = "none"
    cup_round: Literal["none", "preliminary", "final"] = "none"


# ------------------------------------------------- the registration desk (issue 31)
def _one_limit(tables: int | None, info: ValidationInfo) -> None:
    if tables is not None and info.data.get("seats") is not None:
        raise problem("give the seat limit as seats or as tables, not both")


def _moment(text: str | None) -> str | None:
    if text is None:
        return None
    if re.fullmatch(r"\d{1,2}:\d\d(:\d\d)?", text.strip()):
        raise problem(f'must be a date and time like "2026-11-27T19:30+01:00", got {text!r}: '
                      "a time alone; give the day and the offset from UTC too")
    try:
        when = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise problem(f'must be a date and time like "2026-11-27T19:30+01:00", got {text!r}') \
            from None
    if when.tzinfo is None:
        raise problem(f'needs its offset from UTC, like "2026-11-27T19:30+01:00", got {text!r}')
    return text


@dataclass(frozen=True)
class Desk:
    """The registration desk (000 2.2-2.7, 002; docs/operations.md "The desk").

    ``seats``: the seat limit (002: a sold-out night), or ``tables``: the room's
    tables, the limit is ``tables`` × ``players_per_table``; neither: no limit.
    Registrations beyond it go to the waiting list, first come first served (002,
    000 2.4). ``starts``: when the tournament is announced to start (ISO date and time
    with its UTC offset); ``cancel_hours``: a pre-registered player may cancel until
    this many hours before it (000 2.6: 6; 0: until the draw).
    ``members_guaranteed_days``: a member who registered at least this many days
    before ``starts`` has a seat for sure: when the seats are full, the last
    non-guaranteed registration goes to the head of the waiting list (000 2.3: one
    week; 0: no guarantee).
    ``members_only``: only members may register (000 2.5: the championship and the cup;
    003 1, 8: the club championship); a guest is refused with the reason.
    ``ask_age``: the desk asks a player without a confirmation on record whether they
    are 18 (000 1.1, 003 1); the service asks where a club database keeps the record.
    """

    __pydantic_config__ = _CONFIG
    seats: Annotated[Positive, Field(le=100_000)] | None = None
    tables: Annotated[Annotated[Positive, Field(le=10_000)] | None, _rule(_one_limit)] = None
    starts: Annotated[Text | None, AfterValidator(_moment)] = None
    cancel_hours: Annotated[Count, Field(le=24 * 14)] = 0
    members_guaranteed_days: Annotated[Count, Field(le=365)] = 0
    members_only: Flag = False
    ask_age: Flag = False


@dataclass(frozen=True)
class BrokerSettings:
    """Where the MQTT broker is (deployment, not rules; the engine never reads it).

    ``prefix``: the topic tree of this tournament (one per tournament, so a
    festival's tournaments share a broker). Credentials are better given in
    the environment (``FLOORMAN_USERNAME``/``FLOORMAN_PASSWORD``) than here.
    """

    __pydantic_config__ = _CONFIG
    host: Word = "localhost"
    port: Annotated[Int, Field(ge=1, le=65535)] = 1883
    prefix: Annotated[Word, AfterValidator(_prefix)] = "floorman/default"
    username: Word | None = None
    password: Text | None = None
    tls_ca: Word | None = None


def _prefix(text: str) -> str:
    if re.fullmatch(TOPIC_PREFIX, text) is None:
        raise problem("must be topic levels of letters, digits, _ . - joined by / (no "
                      f"wildcards), got {text!r}")
    return text


# ------------------------------------------------------------- money (002; issue 30)
#
# Every amount here is in whole **cents** (never a float): the tournament file writes
# the currency's units ("100" or "100.50"), the loader turns them into cents
# (controller/config.py ``_Shape.money``), and the log keeps the cents. Percent
# shares are kept in hundredths of a percent ("basis points": 30 % = 3000).

#: the payout curves Floorman ships, weighed by :mod:`controller.engine.rules.payouts`
PayoutCurve = Literal["standard", "flat", "top_heavy"]
#: the largest amount (cents): 100 million in the currency, far above any club's pool
MAX_CENTS = 10_000_000_000
#: every share of a payout table together: 100 % in hundredths of a percent
ALL_PERCENT = 10_000
#: the longest payout table or paid-places table (rows / places)
MAX_PAID_ROWS = 1_000
Cents = Annotated[int, Strict(), Field(ge=0, le=MAX_CENTS)]
BasisPoints = Annotated[int, Strict(), Field(ge=0, le=ALL_PERCENT)]


@dataclass(frozen=True)
class PaidPlaces:
    """One row of a club's printed table: from ``players`` entries on, ``paid`` places."""

    __pydantic_config__ = _CONFIG
    players: Positive
    paid: Count


@dataclass(frozen=True)
class PayoutTable:
    """The director's own curve for ``paid`` places: ``percent`` per place, best first, in
    hundredths of a percent, adding up to 100 % and never rising down the places."""

    __pydantic_config__ = _CONFIG
    paid: Annotated[int, Strict(), Field(ge=1, le=MAX_PAID_ROWS)]
    percent: Annotated[tuple[BasisPoints, ...], Field(min_length=1, max_length=MAX_PAID_ROWS),
                       _rule(_payout_percents)]


def _percent(bp: int) -> str:
    return f"{bp / 100:g} %"


def _payout_percents(shares: tuple[int, ...], info: ValidationInfo) -> None:
    paid = info.data.get("paid")
    if paid is not None and len(shares) != paid:
        raise problem(f"gives {len(shares)} shares for {paid} paid places")
    for i in range(1, len(shares)):
        if shares[i] > shares[i - 1]:
            raise problem(f"place {i + 1} would get more ({_percent(shares[i])}) than place "
                          f"{i} ({_percent(shares[i - 1])})", at=(i,))
    if sum(shares) != ALL_PERCENT:
        raise problem(f"the shares add up to {_percent(sum(shares))}, not 100 %")


def _paid_rows(rows: tuple[PaidPlaces, ...]) -> tuple[PaidPlaces, ...]:
    for i in range(1, len(rows)):
        if rows[i].players <= rows[i - 1].players:
            raise problem(f"the field sizes must rise: {rows[i].players} after "
                          f"{rows[i - 1].players}", at=(i, "players"))
        if rows[i].paid < rows[i - 1].paid:
            raise problem(f"a bigger field pays no fewer places: {rows[i].paid} after "
                          f"{rows[i - 1].paid}", at=(i, "paid"))
    return rows


def _money_places(value: Any) -> Any:
    if isinstance(value, int | str):
        return _places(value)
    return value


def _payout_tables(tables: tuple[PayoutTable, ...]) -> tuple[PayoutTable, ...]:
    for i in range(1, len(tables)):
        if tables[i].paid <= tables[i - 1].paid:
            raise problem(f"the tables must be for rising numbers of paid places: "
                          f"{tables[i].paid} after {tables[i - 1].paid}", at=(i, "paid"))
    return tables


_FEE_SHARE = re.compile(r"(\d{1,3})(?:\.(\d{1,2}))?%\Z")


def fee_share(text: str) -> int:
    """A fee written as a share of the price, ``"10%"`` or ``"12.5%"``, in hundredths
    of a percent (1000, 1250)."""
    found = _FEE_SHARE.match(text)
    if found is None:
        raise ValueError(f"not a share like '10%': {text!r}")
    return int(found.group(1)) * 100 + int((found.group(2) or "0").ljust(2, "0"))


def _fee_value(fee: int | str) -> int | str:
    if isinstance(fee, int):
        if not 0 <= fee <= MAX_CENTS:
            raise problem(f"must be an amount from 0 to {cents_text(MAX_CENTS)}, got "
                          f"{cents_text(fee)}")
        return fee
    if _FEE_SHARE.match(fee) is None:
        raise problem(f"must be an amount like 10 or a share of the price like \"10%\", "
                      f"got {fee!r}")
    if fee_share(fee) > ALL_PERCENT:
        raise problem(f"a fee of {fee} is more than the price")
    return fee


#: a fee: an amount in cents, or a share of each price written ``"10%"`` (:func:`fee_of`)
Fee = Annotated[Annotated[int, Strict()] | Annotated[str, Strict()], AfterValidator(_fee_value)]


def fee_of(fee: int | str, price: int) -> int:
    """What the house keeps of one payment of ``price`` cents: an amount as it is, a
    share of the price **rounded down to the cent** (the cent left goes to the pool)."""
    if isinstance(fee, str):
        return price * fee_share(fee) // ALL_PERCENT
    return fee


def _fee_words(fee: int | str) -> str:
    return fee if isinstance(fee, str) else cents_text(fee)


def _below_buy_in(fee: int | str, info: ValidationInfo) -> None:
    buy_in = info.data.get("buy_in")
    if buy_in is not None and isinstance(fee, int) and fee > buy_in:
        raise problem(f"the fee ({cents_text(fee)}) is more than the buy-in "
                      f"({cents_text(buy_in)}); the fee is the part of it the house keeps")


def _reentry_fee(price: int | None, info: ValidationInfo) -> None:
    fee = info.data.get("fee")
    if price is not None and isinstance(fee, int) and price < fee:
        raise problem(f"a re-entry pays the fee too: it must be at least the fee "
                      f"({cents_text(fee)}), got {cents_text(price)}")


def _below_rebuy(fee: int | str, info: ValidationInfo) -> None:
    price = info.data.get("rebuy")
    if fee and price is None:
        raise problem("a fee on rebuys needs their price (money.rebuy)")
    if price is not None and isinstance(fee, int) and fee > price:
        raise problem(f"the rebuy fee ({cents_text(fee)}) is more than the rebuy "
                      f"({cents_text(price)})")


def _bounty_fits(bounty: int, info: ValidationInfo) -> None:
    """Each price pays its fee and the bounty; the rest goes to the pool."""
    if not bounty:
        return
    fee = info.data.get("fee", 0)
    buy_in = info.data.get("buy_in")
    reentry = info.data.get("reentry")
    for what, price in (("buy-in", buy_in), ("re-entry", reentry)):
        if price is not None and fee is not None and fee_of(fee, price) + bounty > price:
            raise problem(f"the bounty ({cents_text(bounty)}) and the fee "
                          f"({_fee_words(fee)}) are more than the {what} "
                          f"({cents_text(price)})")
    rebuy, rebuy_fee = info.data.get("rebuy"), info.data.get("rebuy_fee", 0)
    if rebuy is not None and rebuy_fee is not None and fee_of(rebuy_fee, rebuy) + bounty > rebuy:
        raise problem(f"the bounty ({cents_text(bounty)}) and the rebuy fee "
                      f"({_fee_words(rebuy_fee)}) are more than the rebuy "
                      f"({cents_text(rebuy)}): a rebuy puts a bounty on the head too")


def _progressive_bounty(on: bool, info: ValidationInfo) -> None:
    if on and not info.data.get("bounty"):
        raise problem("a progressive knock-out needs a bounty (money.bounty)")


def _currency(code: str) -> str:
    if re.fullmatch(r"[A-Z]{3}", code) is None:
        raise problem(f"must be a currency code of three capital letters (EUR, CHF, USD), "
                      f"got {code!r}")
    return code


def cents_text(cents: int) -> str:
    """Cents as the file writes them: 10050 → "100.50", 10000 → "100"."""
    whole, part = divmod(abs(cents), 100)
    sign = "-" if cents < 0 else ""
    return f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}"


@dataclass(frozen=True)
class Money:
    """What the players pay and how the prize pool is paid out (002; docs/config.md).

    ``None`` in :class:`TournamentSettings` (the default): the tournament plays for
    points only and no money shows anywhere (000, 001, 003, 004).

    Amounts in cents. ``buy_in``: what a player pays to enter; ``fee``: the part of it
    the house keeps (the rest goes to the pool), an amount or a percent of the price
    (``"10%"``, :func:`fee_of`). ``reentry``: the price of a re-entry (``None``: the
    buy-in), the same ``fee`` kept of it. ``rebuy``: the price of a rebuy (needed when
    ``entries`` allows rebuys), ``rebuy_fee`` kept of it. ``addon``: the add-on is 000's
    automatic one (every player who did not rebuy is credited it, 4.13): nobody buys it,
    so it is free (``None`` or 0). ``bounty``: the part of each buy-in, re-entry and
    rebuy that goes onto the player's head instead of the pool (rules/bounties.py);
    ``progressive``: a progressive knock-out, half of a head to the hunter, half onto
    the hunter's own head. ``guarantee``: the pool is at least this. ``rounding``:
    payouts are rounded down to this unit, the remainder goes to the winner.
    ``places``: the paid places: a count, a share of the entries ``"15%"``, or a table
    of field sizes; ``None``: ``points.places`` (the bubble's places). ``payouts``: a
    shipped curve or the director's own tables of percent per place. ``satellite``: the
    target event's buy-in: the pool buys that many tickets for the top places, what is
    left is cash for the next place (002 "Top 10 gewinnen Ticket"), and the tournament
    ends when only the ticket winners are left ("Platz 10 = Platz 1").
    """

    __pydantic_config__ = _CONFIG
    buy_in: Annotated[Cents, Field(ge=1)]
    currency: Annotated[str, Strict(), AfterValidator(_currency)] = "EUR"
    fee: Annotated[Fee, _rule(_below_buy_in)] = 0
    reentry: Annotated[Cents | None, _rule(_reentry_fee)] = None
    rebuy: Cents | None = None
    rebuy_fee: Annotated[Fee, _rule(_below_rebuy)] = 0
    #: kept for the logs that have it, never charged: the add-on is the automatic one
    #: (the tournament file refuses a price above 0, controller/config.py)
    addon: Cents | None = None
    bounty: Annotated[Cents, _rule(_bounty_fits)] = 0
    progressive: Annotated[Flag, _rule(_progressive_bounty)] = False
    guarantee: Cents = 0
    rounding: Annotated[Cents, Field(ge=1)] = 100
    places: Annotated[Int | Text | Annotated[tuple[PaidPlaces, ...], Field(
        min_length=1, max_length=MAX_PAID_ROWS), AfterValidator(_paid_rows)] | None,
        AfterValidator(_money_places)] = None
    payouts: PayoutCurve | Annotated[tuple[PayoutTable, ...], Field(
        min_length=1, max_length=MAX_PAID_ROWS), AfterValidator(_payout_tables)] = "standard"
    satellite: Annotated[Cents | None, Field(ge=1), _rule(_tickets_only)] = None


def _tickets_only(ticket: int | None, info: ValidationInfo) -> None:
    if ticket is not None and info.data.get("places") is not None:
        raise problem("a satellite pays tickets: as many places as the pool buys tickets "
                      "(leave out money.places)", at=(), instead=("places",))


def _money_fits(money: Money | None, info: ValidationInfo) -> None:
    """The price the entries need: a rebuy's when rebuys are allowed."""
    entries = info.data.get("entries")
    if money is None or not isinstance(entries, Entries):
        return
    if entries.rebuys > 0 and money.rebuy is None:
        raise problem("give the price of a rebuy (money.rebuy): entries.rebuys allows "
                      f"{entries.rebuys}", at=("rebuy",))


@dataclass(frozen=True)
class TournamentSettings:
    """Everything the engine needs to run one tournament.

    ``table_seats``: physical seats per table, numbered 1..N clockwise.
    ``players_per_table``: how many play at a table (9; ``6`` for 6-max, 000 4.3).
    ``final_table_size``: players at the final table (000 4.3: 9, cup 10;
    002: "mode + 1", resolved to a number by the loader).
    ``hand_done_reminder_minutes``: a table whose clock has run this many minutes
    (in playing levels) without "hand done" is shown a reminder (default 5; 0: never).
    """

    __pydantic_config__ = _CONFIG
    name: Annotated[str, Strict(), StringConstraints(strip_whitespace=True, min_length=1,
                                                     max_length=MAX_TITLE)]
    structure: Annotated[tuple[Level, ...], _rule(_structure)]
    start_stack: Annotated[Positive, _rule(_start_stack)]
    preset: Text | None = None
    language: Literal["de", "en"] = "en"
    table_seats: Annotated[Int, Field(ge=2, le=MAX_TABLE_SEATS)] = 10
    players_per_table: Annotated[Int, Field(ge=2, validate_default=True), _rule(_seated)] = 9
    final_table_size: Annotated[Int, Field(ge=2), _rule(_at_most_seats)] = 9
    heads_up_halves_level: Flag = False
    hand_done_reminder_minutes: Annotated[int, Strict(), Field(ge=0, le=120)] = 5
    time_call: TimeCall = field(default_factory=TimeCall)
    balancing: Balancing = field(default_factory=Balancing)
    hand_for_hand: HandForHand = field(default_factory=HandForHand)
    ghosts: Ghosts = field(default_factory=Ghosts)
    entries: Entries = field(default_factory=Entries)
    points: Points = field(default_factory=Points)
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    chip_race: ChipRace = field(default_factory=ChipRace)
    play_day: PlayDay = field(default_factory=PlayDay)
    #: a PSC Five Spades mode (play the clock, restart, Landesliga final, cannonball)
    mode: Mode = field(default_factory=Mode)
    dealing: Dealing = field(default_factory=Dealing)
    field_size: FieldSize = field(default_factory=FieldSize)
    club: Club = field(default_factory=Club)
    #: the registration desk: seat limit, waiting list, pre-registration (issue 31)
    desk: Desk = field(default_factory=Desk)
    #: money (002): ``None`` plays for points only, no money shows (issue 30)
    money: Annotated[Money | None, _rule(_money_fits)] = None


def _start_stack(stack: int, info: ValidationInfo) -> None:
    levels = [lvl for lvl in info.data.get("structure", ()) if not lvl.is_break]
    if levels and stack < levels[0].big_blind:
        raise problem(f"must be at least the first big blind ({levels[0].big_blind}), got {stack}")


def _seated(players: int, info: ValidationInfo) -> None:
    seats = info.data.get("table_seats")
    if seats is not None and players > seats:
        raise problem(f"players_per_table ({players}) must be at most table_seats ({seats})",
                      instead=("table_seats",))


def _at_most_seats(players: int, info: ValidationInfo) -> None:
    seats = info.data.get("table_seats")
    if seats is not None and players > seats:
        raise problem(f"must be at most table_seats ({seats}), got {players}")


# ------------------------------------------------------------- in the event log
#: settings keys that are deployment, not rules: never written to the log
NOT_LOGGED = ("broker",)


def to_data(settings: TournamentSettings) -> dict[str, Any]:
    """The rules as plain JSON-able data, for the log's first event (no broker section)."""
    data = dataclasses.asdict(settings)
    for key in NOT_LOGGED:
        data.pop(key, None)
    shaped: dict[str, Any] = _json_shaped(data)
    return shaped


def _json_shaped(value: Any) -> Any:
    """Tuples as lists: the record in memory must equal the record read back from the log."""
    if isinstance(value, dict):
        return {k: _json_shaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_shaped(v) for v in value]
    return value


@functools.cache
def _settings_adapter() -> TypeAdapter[TournamentSettings]:
    """The validator of :class:`TournamentSettings`, built once: building it costs about
    20 ms, and every replay (an undo replays the log several times) reads the settings."""
    return TypeAdapter(TournamentSettings)


def from_data(data: dict[str, Any], broker: BrokerSettings | None = None) -> TournamentSettings:
    """Settings back from :func:`to_data` (``broker`` from the file, it is not logged).

    Raises ``ValueError`` naming the key when the data does not fit (a log
    from a newer Floorman, or a damaged one).
    """
    from pydantic import ValidationError

    try:
        s = _settings_adapter().validate_python(
            {k: v for k, v in data.items() if k not in NOT_LOGGED})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ValueError(f"settings in the log: {where}: {first['msg']}") from None
    return dataclasses.replace(s, broker=broker or BrokerSettings())


def differences(a: dict[str, Any], b: dict[str, Any], path: str = "") -> list[str]:
    """Key paths whose values differ between two :func:`to_data` dicts (``structure[3].seconds``).
    """
    out: list[str] = []
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                out.append(sub)
            else:
                out += differences(a[key], b[key], sub)
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            out.append(f"{path} ({len(b)} entries instead of {len(a)})")
        else:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                out += differences(x, y, f"{path}[{i}]")
    elif a != b:
        out.append(path)
    return out
