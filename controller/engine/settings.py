"""Tournament settings: the validated, typed form of a tournament YAML file.

The engine reads only these dataclasses; :mod:`controller.config` turns YAML
(with club-preset inheritance) into them and reports every mistake with file,
line and key path. All durations are in **seconds** unless a name says
otherwise; all chip amounts are whole chips.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Level:
    """One step of the blind structure: a playing level or a break.

    ``seconds`` is ``None`` only for a final level without end (003 7).
    A break has ``small_blind == big_blind == ante == 0`` and may carry a
    colour-up ``note`` such as ``"Chipraise 25"`` (000 4.12).
    """

    kind: Literal["level", "break"]
    seconds: int | None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    #: "standard" (every player) or "big_blind" (BB pays the table's ante, 002)
    ante_type: Literal["standard", "big_blind"] = "standard"
    note: str = ""

    @property
    def is_break(self) -> bool:
        return self.kind == "break"


@dataclass(frozen=True)
class TimeCall:
    """A "clock"/"time" call: ``seconds`` to act, then a ``countdown``.

    000 9.5 / 004 5: 60 s + 10 s. 001 §1 VI: one 30 s extension, no countdown.
    002 turbo: 30 s + 5 s. 003 35: 30 s. ``red_seconds`` is how many final
    seconds the screens mark in red.
    """

    seconds: int = 60
    countdown: int = 10
    red_seconds: int = 10


@dataclass(frozen=True)
class Balancing:
    """Table balancing and breaking (000 4.6, 4.9, TDA 10B/11A).

    ``tolerance``: the largest allowed difference in players between two
    tables (default 1). ``break_order``: ``"highest"`` (highest table number
    breaks first, default), ``"lowest"``, or an explicit list of table numbers.
    """

    tolerance: int = 1
    break_order: Literal["highest", "lowest"] | tuple[int, ...] = "highest"


@dataclass(frozen=True)
class HandForHand:
    """Hand-for-hand policy (001 §2 I, 002, TDA RP-8).

    ``auto``: start by itself on the bubble of the points/prize places while
    more than one table plays. ``clock``: ``"runs"``, ``"stops"`` (002) or
    ``"deduct"`` (the clock loses at most ``deduct_seconds`` per hand, TDA RP-8).
    ``cross_table_busts``: players out in the same hand-for-hand hand at
    different tables ``"share"`` the place (002 b) or are ranked by ``"stack"``.
    """

    auto: bool = True
    clock: Literal["runs", "stops", "deduct"] = "stops"
    deduct_seconds: int = 120
    cross_table_busts: Literal["share", "stack"] = "share"


@dataclass(frozen=True)
class Ghosts:
    """Ghost players in reserve seats (000 9.5, 9.6).

    A ghost is removed after ``remove_after_levels`` full levels or at the
    first break, whichever comes first (and never later than 2 h of play).
    """

    enabled: bool = False
    remove_after_levels: int = 4
    remove_at_first_break: bool = True


@dataclass(frozen=True)
class Entries:
    """Rebuy, add-on, re-entry and late registration.

    000 4.13: ``rebuys: 1`` (free), add-on phase after level 4, a player who
    did not rebuy gets ``auto_addon_multiplier`` (2) × the start stack.
    ``late_registration_levels``: registration stays open until this level
    ends (0 = closed at the start). ``reentries``: how many times a busted
    player may re-enter (001 §2 III qualifiers).
    """

    rebuys: int = 0
    rebuy_until_level: int = 4
    addon_after_level: int | None = None
    auto_addon_multiplier: int = 0
    reentries: int = 0
    reentry_until_level: int = 0
    late_registration_levels: int = 0


@dataclass(frozen=True)
class Points:
    """How places become points (see :mod:`controller.engine.points`).

    ``system``: ``"none"``, ``"psc_ranking"`` (000 5.4), ``"landesliga"``
    (000 4.18), ``"multi_round"`` (000 4.19), ``"ace_of_spades"`` (003 6),
    ``"qualifier"`` (001 §2 III). ``knockout``: championship knock-out points
    (000 6). ``bounty``: ``"none"``, ``"bounty"`` or ``"mystery"`` (000 4.17).
    ``places``: how many places count for the bubble (``None`` = derived from
    the system and the number of entries).
    """

    system: str = "none"
    knockout: bool = False
    knockout_drawn_names: int = 3
    knockout_drawn_bonus: int = 2
    bounty: Literal["none", "bounty", "mystery"] = "none"
    mystery_names: int = 5
    places: int | None = None


@dataclass(frozen=True)
class ChipRace:
    """How leftover small chips are raced off at a colour-up (000 3.17, 003 37).

    ``start``: the first card goes to ``"seat_1"`` (000 3.17, 001 §1 X, 002,
    004 2) or to the player ``"left_of_dealer"`` (003 37). ``rounding``: the
    number of new chips is the leftover total rounded ``"up"`` to the next
    higher chip (000 3.17) or ``"half_up"`` (commercially, 002: from 250 a
    500 chip). ``one_chip_per_player``: nobody wins more than one new chip
    (000, 001, 002, 004); ``False`` for 003 37, where the highest card takes
    all the chips still to be exchanged.
    """

    start: Literal["seat_1", "left_of_dealer"] = "seat_1"
    rounding: Literal["up", "half_up"] = "up"
    one_chip_per_player: bool = True


@dataclass(frozen=True)
class BrokerSettings:
    """Where the MQTT broker is (deployment, not rules; the engine never reads it).

    ``prefix``: the topic tree of this tournament (one per tournament, so a
    festival's tournaments share a broker). Credentials are better given in
    the environment (``FLOORMAN_USERNAME``/``FLOORMAN_PASSWORD``) than here.
    """

    host: str = "localhost"
    port: int = 1883
    prefix: str = "floorman/default"
    username: str | None = None
    password: str | None = None
    tls_ca: str | None = None


@dataclass(frozen=True)
class TournamentSettings:
    """Everything the engine needs to run one tournament.

    ``table_seats``: physical seats per table, numbered 1..N clockwise.
    ``players_per_table``: how many play at a table (9; ``6`` for 6-max, 000 4.3).
    ``final_table_size``: players at the final table (000 4.3: 9, cup 10;
    002: "mode + 1", resolved to a number by the loader).
    """

    name: str
    structure: tuple[Level, ...]
    start_stack: int
    preset: str | None = None
    language: Literal["de", "en"] = "en"
    table_seats: int = 10
    players_per_table: int = 9
    final_table_size: int = 9
    heads_up_halves_level: bool = False
    time_call: TimeCall = field(default_factory=TimeCall)
    balancing: Balancing = field(default_factory=Balancing)
    hand_for_hand: HandForHand = field(default_factory=HandForHand)
    ghosts: Ghosts = field(default_factory=Ghosts)
    entries: Entries = field(default_factory=Entries)
    points: Points = field(default_factory=Points)
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    chip_race: ChipRace = field(default_factory=ChipRace)


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


def from_data(data: dict[str, Any], broker: BrokerSettings | None = None) -> TournamentSettings:
    """Settings back from :func:`to_data` (``broker`` from the file, it is not logged).

    Raises ``ValueError`` naming the key when the data does not fit (a log
    from a newer Floorman, or a damaged one).
    """
    from pydantic import TypeAdapter, ValidationError

    try:
        s = TypeAdapter(TournamentSettings).validate_python(
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
