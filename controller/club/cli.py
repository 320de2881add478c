"""``floorman club …``: the club database from the command line (docs/club.md).

Every verb takes ``--club FILE``; the default is :func:`default_path` (``$FLOORMAN_CLUB``,
else ``club.sqlite`` in Floorman's data folder). A refusal is one line on stderr and a
non-zero exit status; nothing was changed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

__all__ = ["default_path", "register"]

#: the club database's path when ``--club`` is not given (``$FLOORMAN_CLUB`` wins)
CLUB_ENV = "FLOORMAN_CLUB"
#: the data folder of an installed controller (its event logs, docs/raspberry-pi.md)
SYSTEM_DATA = Path("/var/lib/floorman")


def default_path() -> str:
    """``$FLOORMAN_CLUB``; else ``club.sqlite`` in the data folder: ``/var/lib/floorman``
    when this user may write there (an installed controller, beside its logs), else
    ``$XDG_DATA_HOME/floorman`` (``~/.local/share/floorman``)."""
    env = os.environ.get(CLUB_ENV)
    if env:
        return env
    if SYSTEM_DATA.is_dir() and os.access(SYSTEM_DATA, os.W_OK):
        return str(SYSTEM_DATA / "club.sqlite")
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "floorman" / "club.sqlite")


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD: {text!r}") from None


def _players(args: argparse.Namespace) -> int:
    from controller.club import players

    db = _open(args, readonly=True)
    found = players.search(db, " ".join(args.search)) if args.search else \
        players.all_players(db)
    for p in found:
        kind = f"member since {p.member_since}" if p.member and p.member_since else (
            "member" if p.member else "guest")
        aka = f" (also: {', '.join(p.aliases)})" if p.aliases else ""
        print(f"#{p.id} {p.name}: {kind}{aka}")
    if not found:
        print("no player found" if args.search else "no players yet")
    return 0


def _add(args: argparse.Namespace) -> int:
    from controller.club import players

    db = _open(args)
    name = " ".join(args.name)
    if args.alias_of:
        p = players.add_alias(db, name, " ".join(args.alias_of))
        print(f"{name!r} is now another name of {p.name}")
        return 0
    p = players.add(db, name, member=args.member or args.since is not None,
                    member_since=args.since, force=args.force)
    print(f"added #{p.id} {p.name} ({'member' if p.member else 'guest'})")
    return 0


def _member(args: argparse.Namespace) -> int:
    from controller.club import members, players

    db = _open(args)
    name = " ".join(args.name)
    day = args.on or datetime.date.today()
    if args.fee is None and not args.adult or args.guest or args.since:
        p = players.set_member(db, name, not args.guest, args.since)
        print(f"{p.name}: " + (f"member since {p.member_since}" if p.member_since else
                              "member" if p.member else "guest"))
    if args.fee is not None:  # 000 1.3: the yearly fee, for the season it pays
        print(f"{members.pay_fee(db, name, args.fee, day)}: fee for {args.fee.strip()} "
              f"paid on {day}")
    if args.adult:  # 000 1.1, 003 1: the desk asked; no ID is kept
        print(f"{members.confirm_adult(db, name, day)}: 18 or older, confirmed on {day}")
    return 0


def _members(args: argparse.Namespace) -> int:
    """The club list: members with the seasons paid, the confirmed age, day memberships."""
    from controller.club import members

    db = _open(args, readonly=True)
    shown = members.members(db, everyone=args.all)
    for m in shown:
        paid = ", ".join(m.paid) or "no fee recorded"
        age = f"18+ confirmed {m.adult_since}" if m.adult_since else "18+ not asked yet"
        days = f", {m.day_memberships} day memberships" if m.day_memberships else ""
        print(f"{m.name}: {'member' if m.member else 'guest'}; fee: {paid}; {age}{days}")
    if not shown:
        print("no members yet (floorman club member NAME --fee SEASON)")
    return 0


def _merge(args: argparse.Namespace) -> int:
    from controller.club import players

    db = _open(args)
    p = players.merge(db, " ".join(args.name), " ".join(args.into))
    print(f"merged into {p.name} (also: {', '.join(p.aliases)})")
    return 0


def _import(args: argparse.Namespace) -> int:
    from controller.club.db import ClubError
    from controller.club.imports import import_log

    db = _open(args)
    rc = 0
    for log in args.log:
        try:
            done = import_log(db, log, date=args.date)
        except ClubError as exc:
            print(f"floorman club import: {exc}", file=sys.stderr)
            rc = 1
            continue
        print(done.line())
        for warning in done.warnings:
            print(f"  note: {warning}")
    return rc


def _standings(args: argparse.Namespace) -> int:
    from controller.club.standings import standings, standings_csv, standings_text

    db = _open(args, readonly=True)
    table = standings(db, args.season, public=args.public)
    sys.stdout.write(standings_csv(table) if args.csv else standings_text(table))
    return 0


def _seasons(args: argparse.Namespace) -> int:
    from controller.club.standings import seasons

    db = _open(args, readonly=True)
    for name, first, last, count in seasons(db):
        print(f"{name}: {count} tournaments, {first} – {last}")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from controller.club.export import backup

    backup(args.club, args.file)
    print(f"backup of {args.club} written to {args.file}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from controller.club.export import restore

    restore(args.file, args.club)
    print(f"{args.club} restored from {args.file}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from controller.club.export import export

    for path in export(args.club, args.dir):
        print(path)
    return 0


def _tournament(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from controller import resources
    from controller.club.db import ClubError
    from controller.config import ConfigError, load_tournament

    try:
        return load_tournament(resources.resolve(args.tournament, "tournaments"))
    except (ConfigError, OSError) as exc:
        raise ClubError(str(exc).replace("\n", "; ")) from None


def _stacks(args: argparse.Namespace) -> int:
    from controller.club.stacks import start_stacks

    db = _open(args, readonly=True)
    for name, stack in start_stacks(db, _tournament(args), args.names, args.season).items():
        print(f"{name}: {stack:,}")
    return 0


def _register(args: argparse.Namespace) -> int:
    """The players with their stacks from the standings, into the running controller."""
    from controller.club.db import ClubError
    from controller.club.stacks import register_commands
    from controller.director import BrokerUnreachable, NoAnswer, send, with_credentials
    from controller.wire.mqtt import Broker

    settings = _tournament(args)
    db = _open(args, readonly=True)
    commands = register_commands(db, settings, args.names, member=not args.guest,
                                 season=args.season)
    try:
        broker = with_credentials(Broker.from_env(args.broker, args.prefix, settings.broker),
                                  address_given=bool(args.broker),
                                  prefix_given=bool(args.prefix))
        for command in commands:
            cargs = {k: v for k, v in command.items() if k != "cmd"}
            answer = send(broker, "register", cargs, timeout=args.timeout)
            if not answer.get("ok"):
                raise ClubError(f"the controller refused {', '.join(command['names'])}: "
                                f"{answer.get('reason')}")
            print(f"registered {', '.join(command['names'])} with {command['stack']:,} chips")
    except (ValueError, BrokerUnreachable, NoAnswer) as exc:
        raise ClubError(str(exc)) from None
    return 0


# ------------------------------------------------- the registration desk (issue 31)
def _bans(args: argparse.Namespace) -> int:
    """The no-shows' bans (000 2.7): those that hold on the day (``--all``: every one)."""
    from controller.club.bans import bans

    db = _open(args, readonly=True)
    day = args.on or datetime.date.today()
    shown = [b for b in bans(db) if args.all or b.holds_on(day)]
    for b in shown:
        state = (f"lifted on {b.lifted[0]} ({b.lifted[1]})" if b.lifted
                 else "holds" if b.holds_on(day) else "over")
        print(f"{b.player}: banned {b.since} until {b.until} ({b.months} months, "
              f"no-show {b.count}): {state}")
    if not shown:
        print(f"no ban holds on {day}" if not args.all else "no bans")
    return 0


def _lift_ban(args: argparse.Namespace) -> int:
    from controller.club.bans import lift

    db = _open(args)
    day = args.on or datetime.date.today()
    ban = lift(db, " ".join(args.name), args.reason, day)
    print(f"{ban.player}: the ban until {ban.until} is lifted ({' '.join(args.reason.split())})")
    return 0


def _desk_verbs(verb) -> None:  # type: ignore[no-untyped-def]
    v = verb("bans", _bans, "the bans for no-shows (000 2.7: the second 3 months, each "
             "further one 12)")
    v.add_argument("--on", type=_date, help="the day (default: today)")
    v.add_argument("--all", action="store_true", help="every ban, lifted and over too")
    v = verb("lift-ban", _lift_ban, "the director lifts a no-show ban: lift-ban NAME "
             "--reason TEXT (recorded)")
    v.add_argument("name", nargs="+")
    v.add_argument("--reason", required=True)
    v.add_argument("--on", type=_date, help="the day (default: today)")


def _open(args: argparse.Namespace, readonly: bool = False):  # type: ignore[no-untyped-def]
    from controller.club.db import open_club

    return open_club(args.club, create=not readonly, readonly=readonly)


def _run(args: argparse.Namespace) -> int:
    """One verb; a :class:`ClubError` is one line and exit status 1."""
    import sqlite3

    from controller.club.db import ClubError

    try:
        return int(args.club_func(args))
    except ClubError as exc:
        print(f"floorman club {args.club_verb}: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # a transaction that failed was rolled back
        print(f"floorman club {args.club_verb}: {args.club}: the club database cannot be "
              f"used ({exc}); nothing changed", file=sys.stderr)
        return 1


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``floorman club …`` to the ``floorman`` parser's verbs."""
    c = sub.add_parser("club", help="the club's players, seasons, imports and standings "
                       "(docs/club.md)")
    verbs = c.add_subparsers(dest="club_verb", required=True, metavar="VERB")

    def verb(name: str, func, help: str) -> argparse.ArgumentParser:  # type: ignore[no-untyped-def]
        v = verbs.add_parser(name, help=help)
        v.add_argument("--club", default=default_path(), metavar="FILE",
                       help="the club database (default: $FLOORMAN_CLUB or club.sqlite in "
                       "Floorman's data folder)")
        v.set_defaults(func=_run, club_func=func)
        return v

    v = verb("players", _players, "the club's players (or those matching SEARCH)")
    v.add_argument("search", nargs="*")
    v = verb("add", _add, "add a player: add NAME [--member [--since DATE]], or an alias: "
             "add NAME --alias-of PLAYER")
    v.add_argument("name", nargs="+")
    v.add_argument("--member", action="store_true", help="a club member (default: a guest)")
    v.add_argument("--since", help="member since (YYYY-MM-DD)")
    v.add_argument("--alias-of", nargs="+", metavar="PLAYER",
                   help="NAME is another spelling of this player")
    v.add_argument("--force", action="store_true",
                   help="add it even though it looks like another player's name")
    v = verb("member", _member, "make a player a member (member NAME [--since DATE]) or a "
             "guest (member NAME --guest); --fee SEASON records the yearly fee, --adult "
             "the confirmed age")
    v.add_argument("name", nargs="+")
    v.add_argument("--since", help="member since (YYYY-MM-DD)")
    v.add_argument("--guest", action="store_true", help="not (any more) a member")
    v.add_argument("--fee", metavar="SEASON", help="paid the yearly fee for SEASON (000 1.3)")
    v.add_argument("--adult", action="store_true",
                   help="confirmed being 18 or older (000 1.1, 003 1; no ID is kept)")
    v.add_argument("--on", type=_date, help="the day of the fee or the confirmation "
                   "(default: today)")
    v = verb("members", _members, "the club list: members, the seasons they paid, the "
             "confirmed age, day memberships (000 1.3-1.7)")
    v.add_argument("--all", action="store_true", help="the guests too")
    v = verb("merge", _merge, "one person entered twice: merge NAME --into PLAYER")
    v.add_argument("name", nargs="+")
    v.add_argument("--into", nargs="+", required=True)
    v = verb("import", _import, "take finished tournaments' event logs into the club "
             "database (a log taken before changes nothing)")
    v.add_argument("log", nargs="+")
    v.add_argument("--date", type=_date, help="the tournament's day (default: the day its "
                   "log was opened)")
    v = verb("standings", _standings, "the season's standings by the club's rules")
    v.add_argument("--season", help="the season (default: the latest; floorman club seasons)")
    v.add_argument("--csv", action="store_true", help="CSV: place, name, points, tournaments "
                   "and the club's columns")
    v.add_argument("--public", action="store_true", help="as on a public list: non-members "
                   "shortened (000 5.8)")
    verb("seasons", _seasons, "the seasons with tournaments")
    v = verb("stacks", _stacks, "start stacks from the standings for a tournament whose mode "
             "says so (003 8, 000 4.18): stacks TOURNAMENT NAME…")
    v.add_argument("tournament", help="the tournament file (or a shipped one's name)")
    v.add_argument("names", nargs="+")
    v.add_argument("--season", help="the standings' season (default: the latest)")
    v = verb("register", _register, "register players into the running controller with "
             "their stacks from the standings: register TOURNAMENT NAME…")
    v.add_argument("tournament", help="the tournament file the controller runs")
    v.add_argument("names", nargs="+")
    v.add_argument("--season", help="the standings' season (default: the latest)")
    v.add_argument("--guest", action="store_true", help="not club members")
    v.add_argument("--broker", help="host:port (default: the tournament file's, "
                   "$FLOORMAN_BROKER or localhost:1883)")
    v.add_argument("--prefix", help="topic prefix (default: the tournament file's)")
    v.add_argument("--timeout", type=float, default=10.0)
    _desk_verbs(verb)
    v = verb("backup", _backup, "a consistent copy of the club database: backup FILE")
    v.add_argument("file")
    v = verb("restore", _restore, "replace the club database with a backup: restore FILE")
    v.add_argument("file")
    v = verb("export", _export, "everything as CSV files and one JSON file: export DIR")
    v.add_argument("dir")
