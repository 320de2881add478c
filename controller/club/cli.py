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
from typing import NoReturn

__all__ = ["default_path", "register"]

#: the club database's path when ``--club`` is not given (``$FLOORMAN_CLUB`` wins)
CLUB_ENV = "FLOORMAN_CLUB"
#: the help option's own help (argparse's is English whatever the club speaks)
HELP_HELP = "show this help and exit"
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


def _kind(p, lang: str) -> str:  # type: ignore[no-untyped-def]
    from controller.club.words import say

    if p.member and p.member_since:
        return say("member_since", lang, day=p.member_since)
    return say("member" if p.member else "guest", lang)


def _players(args: argparse.Namespace) -> int:
    from controller.club import players
    from controller.club.words import club_language, say

    db = _open(args, readonly=True)
    lang = club_language(db)
    found = players.search(db, " ".join(args.search)) if args.search else \
        players.all_players(db)
    for p in found:
        aka = f" ({say('also', lang, names=', '.join(p.aliases))})" if p.aliases else ""
        print(f"#{p.id} {p.name}: {_kind(p, lang)}{aka}")
    if not found:
        print(say("no_player_found" if args.search else "no_players_yet", lang))
    return 0


def _add(args: argparse.Namespace) -> int:
    from controller.club import players
    from controller.club.words import club_language, say

    db = _open(args)
    lang = club_language(db)
    name = " ".join(args.name)
    if args.alias_of:
        p = players.add_alias(db, name, " ".join(args.alias_of))
        print(say("alias_added", lang, alias=name, name=p.name))
        return 0
    p = players.add(db, name, member=args.member or args.since is not None,
                    member_since=args.since, force=args.force)
    print(say("added", lang, id=p.id, name=p.name,
              kind=say("member" if p.member else "guest", lang)))
    return 0


def _member(args: argparse.Namespace) -> int:
    from controller.club import members, players
    from controller.club.words import club_language, say

    db = _open(args)
    lang = club_language(db)
    name = " ".join(args.name)
    day = args.on or datetime.date.today()
    if args.fee is None and not args.adult or args.guest or args.since:
        p = players.set_member(db, name, not args.guest, args.since)
        print(f"{p.name}: {_kind(p, lang)}")
    if args.fee is not None:  # 000 1.3: the yearly fee, for the season it pays
        print(say("fee_paid", lang, name=members.pay_fee(db, name, args.fee, day),
                  season=args.fee.strip(), day=day))
    if args.adult:  # 000 1.1, 003 1: the desk asked; no ID is kept
        print(say("adult_confirmed", lang, name=members.confirm_adult(db, name, day), day=day))
    return 0


def _members(args: argparse.Namespace) -> int:
    """The club list: members with the seasons paid, the confirmed age, day memberships."""
    from controller.club import members
    from controller.club.words import club_language, say

    db = _open(args, readonly=True)
    lang = club_language(db)
    shown = members.members(db, everyone=args.all)
    for m in shown:
        paid = ", ".join(m.paid) or say("no_fee", lang)
        age = (say("adult_since", lang, day=m.adult_since) if m.adult_since
               else say("adult_not_asked", lang))
        days = say("day_memberships", lang, n=m.day_memberships) if m.day_memberships else ""
        print(say("member_line", lang, name=m.name, kind=say("member" if m.member else "guest",
                                                               lang), paid=paid, age=age,
                  days=days))
    if not shown:
        print(say("no_members", lang))
    return 0


def _merge(args: argparse.Namespace) -> int:
    from controller.club import players
    from controller.club.words import club_language, say

    db = _open(args)
    p = players.merge(db, " ".join(args.name), " ".join(args.into))
    lang = club_language(db)
    print(say("merged", lang, name=p.name, also=say("also", lang, names=", ".join(p.aliases))))
    return 0


def _import(args: argparse.Namespace) -> int:
    from controller.club.db import ClubError
    from controller.club.imports import import_log
    from controller.club.words import club_language, refusal, say

    db = _open(args)
    rc = 0
    for log in args.log:
        try:
            done = import_log(db, log, date=args.date)
        except ClubError as exc:
            print(f"floorman club import: {refusal(exc, club_language(db))}", file=sys.stderr)
            rc = 1
            continue
        lang = club_language(db)
        n = len(done.new_players)
        new = "" if not n else say("new_player", lang) if n == 1 else \
            say("new_players", lang, n=n)
        print(say(done.status, lang, path=done.path, name=done.tournament, day=done.date,
                  season=done.season, rows=done.rows, new=new))
        for name, like in done.looks_like:
            print(say("looks_like", lang, name=name,
                      like=", ".join(repr(x) if lang == "en" else f"„{x}“" for x in like)))
    return rc


def _standings(args: argparse.Namespace) -> int:
    from controller.club.standings import standings, standings_csv, standings_text
    from controller.club.words import club_language

    db = _open(args, readonly=True)
    table = standings(db, args.season, public=args.public)
    sys.stdout.write(standings_csv(table) if args.csv else
                     standings_text(table, club_language(db)))
    return 0


def _history(args: argparse.Namespace) -> int:
    from controller.club.history import history, history_csv, history_text

    db = _open(args, readonly=True)
    player, nights = history(db, " ".join(args.name))
    sys.stdout.write(history_csv(nights) if args.csv else history_text(player, nights))
    return 0


def _seasons(args: argparse.Namespace) -> int:
    from controller.club.standings import seasons
    from controller.club.words import club_language, say, tournaments

    db = _open(args, readonly=True)
    lang = club_language(db)
    for name, first, last, count in seasons(db):
        print(say("season_line", lang, season=name, tournaments=tournaments(count, lang),
                  first=first, last=last))
    return 0


def _backup(args: argparse.Namespace) -> int:
    from controller.club.export import backup
    from controller.club.words import say

    backup(args.club, args.file)
    print(say("backup_done", _file_language(args.file), club=args.club, file=args.file))
    return 0


def _restore(args: argparse.Namespace) -> int:
    from controller.club.export import restore
    from controller.club.words import say

    restore(args.file, args.club)
    print(say("restored", _file_language(args.club), club=args.club, file=args.file))
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
    from controller.club.words import club_language
    from controller.wire.i18n import num

    db = _open(args, readonly=True)
    lang = club_language(db)
    for name, stack in start_stacks(db, _tournament(args), args.names, args.season).items():
        print(f"{name}: {num(stack, lang)}")
    return 0


def _register(args: argparse.Namespace) -> int:
    """The players with their stacks from the standings, into the running controller."""
    from controller.club.db import ClubError
    from controller.club.stacks import register_commands
    from controller.club.words import club_language, say
    from controller.director import BrokerUnreachable, NoAnswer, send, with_credentials
    from controller.wire.i18n import num
    from controller.wire.mqtt import Broker

    settings = _tournament(args)
    db = _open(args, readonly=True)
    commands = register_commands(db, settings, args.names, member=not args.guest,
                                 season=args.season)
    lang = club_language(db)
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
            print(say("registered", lang, names=", ".join(command["names"]),
                      chips=num(command["stack"], lang)))
    except (ValueError, BrokerUnreachable, NoAnswer) as exc:
        raise ClubError(str(exc)) from None
    return 0


# ------------------------------------------------- the registration desk (issue 31)
def _bans(args: argparse.Namespace) -> int:
    """The no-shows' bans (000 2.7): those that hold on the day (``--all``: every one)."""
    from controller.club.bans import bans
    from controller.club.words import club_language, say

    db = _open(args, readonly=True)
    lang = club_language(db)
    day = args.on or datetime.date.today()
    shown = [b for b in bans(db) if args.all or b.holds_on(day)]
    for b in shown:
        state = (say("ban_lifted_on", lang, day=b.lifted[0], reason=b.lifted[1]) if b.lifted
                 else say("ban_holds" if b.holds_on(day) else "ban_over", lang))
        print(say("ban_line", lang, player=b.player, since=b.since, until=b.until,
                  months=b.months, count=b.count, state=state))
    if not shown:
        print(say("no_ban_on", lang, day=day) if not args.all else say("no_bans", lang))
    return 0


def _lift_ban(args: argparse.Namespace) -> int:
    from controller.club.bans import lift
    from controller.club.words import club_language, say

    db = _open(args)
    day = args.on or datetime.date.today()
    ban = lift(db, " ".join(args.name), args.reason, day)
    print(say("ban_lifted", club_language(db), player=ban.player, until=ban.until,
              reason=" ".join(args.reason.split())))
    return 0


# ------------------------------------------------- the season's titles (issue 31, 000 5-8)
def _names(names, lang: str) -> str:  # type: ignore[no-untyped-def]
    return (" und " if lang == "de" else " and ").join(names)


def _titles(args: argparse.Namespace) -> int:
    """The titles of a season as they stand, the championship list and the trophies;
    ``--record``: the season's winners into the trophies."""
    from controller.club import trophies
    from controller.club.db import ClubError
    from controller.club.titles import TITLES
    from controller.club.words import club_language, say, title_name, tournaments

    db = _open(args, readonly=not args.record)
    lang = club_language(db)
    day = args.on or datetime.date.today()
    if args.record:
        t = trophies.season_titles(db, args.season)
        if not t.applies:
            print(say("no_titles", lang))
            return 0
        if not (t.final_played or day.isoformat() > t.table.last or args.force):
            # 8.2: "nach Beendigung aller Turniere (inkl. Cupfinale)"
            raise ClubError(say("not_over", lang, season=t.table.season, last=t.table.last))
        season, done = trophies.record_season(db, args.season, day)
        for title, names in done.items():
            print(say("recorded", lang, season=season, title=title_name(title, lang),
                      names=_names(names, lang)))
        if not done:
            print(say("nothing_recorded", lang, season=season))
        return 0
    t = trophies.season_titles(db, args.season)
    if not t.applies:
        print(say("no_titles", lang))
        return 0
    over = t.final_played or day.isoformat() > t.table.last
    print(say("titles_head", lang, club=t.table.club, season=t.table.season,
              tournaments=tournaments(t.table.tournaments, lang)))
    for title in TITLES:
        names = t.winners[title]
        if not names:
            print(say("title_none", lang, title=say(title, lang)))
        else:
            print(say("title_won" if over or title == "cupsieger" else "title_leads", lang,
                      title=say(title, lang), names=_names(names, lang)))
    print()
    print(say("championship_head", lang))
    for x in t.championship[:args.top]:
        print(say("championship_line", lang, place=x.place, name=x.name, points=x.points))
    if not t.championship:
        print(say("championship_empty", lang))
    print()
    print(say("trophies_head", lang))
    held = trophies.trophies(db)
    for title, (season, names) in held.holders.items():
        print(say("holds_trophy", lang, title=title_name(title, lang),
                  names=_names(names, lang), season=season))
        for name in held.to_return.get(title, ()):
            print(say("must_return", lang, name=name, title=title_name(title, lang)))
    for k in held.kept:
        print(say("kept_all_three" if k.why == "all_three" else "kept_hattrick", lang,
                  player=k.player, season=k.season,
                  titles=", ".join(title_name(x, lang) for x in k.titles)))
    if not held.awards:
        print(say("no_trophies", lang))
    return 0


def _trophy(args: argparse.Namespace) -> int:
    """A title won, entered by hand (the years before Floorman, or a correction)."""
    from controller.club import trophies
    from controller.club.words import club_language, say, title_name

    db = _open(args)
    lang = club_language(db)
    names = [" ".join(n.split()) for n in " ".join(args.names).split(",") if n.strip()]
    got = trophies.record(db, args.season, args.title, names, args.on or datetime.date.today())
    print(say("recorded", lang, season=args.season, title=title_name(args.title, lang),
              names=_names(got, lang)))
    return 0


def _cup(args: argparse.Namespace) -> int:
    """The cup's field (000 7.2); ``--preliminary DIR``: the preliminary round's files."""
    from controller.club import trophies
    from controller.club.cup import write_preliminary
    from controller.club.words import club_language, number, say

    db = _open(args, readonly=True)
    lang = club_language(db)
    t = trophies.season_titles(db, args.season)
    rules = t.table.rules
    if rules.cup_min <= 0:
        print(say("cup_none", lang))
        return 0
    if args.preliminary:
        yaml_path, names_path = write_preliminary(t.cup, t.table.club, t.table.season, lang,
                                                  args.preliminary)
        print(say("cup_written", lang, file=yaml_path, names=names_path))
        return 0
    played = t.public_played

    def line(s) -> str:  # type: ignore[no-untyped-def]
        return say("cup_player", lang, rank=s.extra.get("title") or s.place, name=s.name,
                   points=number(s.points, lang), played=played.get(s.player_id, 0))

    print(say("cup_head", lang, club=t.table.club, season=t.table.season, min=rules.cup_min))
    print(say("cup_qualified", lang, n=len(t.cup.qualified)))
    print(say("cup_seeded", lang, n=len(t.cup.seeded)))
    for s in t.cup.seeded:
        print(line(s))
    if not t.cup.seeded:
        print(say("cup_nobody", lang))
    if t.cup.preliminary:
        print(say("cup_preliminary", lang, seats=t.cup.preliminary_seats,
                  n=len(t.cup.preliminary)))
        for s in t.cup.preliminary:
            print(line(s))
    else:
        print(say("cup_no_preliminary", lang))
    return 0


def _title_verbs(verb) -> None:  # type: ignore[no-untyped-def]
    # the titles' names written out: the parser imports no rule (tests/test_cli_imports.py)
    titles = ("meister", "jahressieger", "cupsieger")
    v = verb("titles", _titles, "the season's titles (000 8): Meister, Jahressieger, "
             "Cupsieger, the championship list and the trophies (8.5)")
    v.add_argument("--season", help="the season (default: the latest)")
    v.add_argument("--record", action="store_true", help="record the season's winners "
                   "(when it is over: 8.2 after the cup final)")
    v.add_argument("--force", action="store_true", help="record before the season is over")
    v.add_argument("--top", type=int, default=30, help="lines of the championship list")
    v.add_argument("--on", type=_date, help="the day (default: today)")
    v = verb("trophy", _trophy, "enter a title won by hand: trophy TITLE SEASON NAME[, NAME]")
    v.add_argument("title", choices=titles)
    v.add_argument("season")
    v.add_argument("names", nargs="+")
    v.add_argument("--on", type=_date, help="the day it is entered (default: today)")
    v = verb("cup", _cup, "the cup's field (000 7.2): who qualified, who is in the final, "
             "who plays the preliminary round")
    v.add_argument("--season", help="the season (default: the latest)")
    v.add_argument("--preliminary", metavar="DIR", help="write the preliminary round's "
                   "tournament file and players' list into DIR")


def _desk_verbs(verb) -> None:  # type: ignore[no-untyped-def]
    v = verb("bans", _bans, "the bans for no-shows (000 2.7: the second 3 months, each "
             "further one 12)")
    v.add_argument("--on", type=_date, help="the day (default: today)")
    v.add_argument("--all", action="store_true", help="every ban, lifted and over too")
    v = verb("lift-ban", _lift_ban, "the director lifts a no-show ban: lift-ban NAME "
             "--reason TEXT (recorded)")
    v.add_argument("name", nargs="+")
    v.add_argument("--reason", required=True, help="why the ban is lifted (recorded)")
    v.add_argument("--on", type=_date, help="the day (default: today)")


def _file_language(path: str) -> str:
    """The language of the club database at ``path`` (English when it cannot be read)."""
    from controller.club.db import ClubError, open_club
    from controller.club.words import club_language

    try:
        db = open_club(path, create=False, readonly=True)
    except ClubError:
        return "en"
    try:
        return club_language(db)
    finally:
        db.close()


def _club_path(given: list[str]) -> str:
    """The club database a verb's words name (``--club FILE`` wherever it stands), else
    :func:`default_path`."""
    path = default_path()
    for i, word in enumerate(given):
        if word == "--club" and i + 1 < len(given):
            path = given[i + 1]
        elif word.startswith("--club="):
            path = word.split("=", 1)[1]
    return path


class _ClubParser(argparse.ArgumentParser):
    """A club verb's parser: it keeps the words it was given, so that ``--help`` can find
    the ``--club`` file wherever it stands on the line."""

    given: list[str]

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        self.given = list(args or ())
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:  # said here, not by the top parser: in the club's language
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def error(self, message: str) -> NoReturn:
        """argparse's complaint (a missing or a wrong argument) in the club's language: a
        German club's director reads "Fehler: es fehlt: NAME" under a German usage line."""
        if _file_language(_club_path(getattr(self, "given", []))) != "de":
            super().error(message)
        from controller.club.words import argparse_error

        _german_help(self)  # the German placeholders in the usage line too
        usage = self.format_usage()
        self.exit(2, "Aufruf: " + usage.removeprefix("usage: ")
                  + f"{self.prog}: Fehler: {argparse_error(message)}\n")


class _Help(argparse.Action):
    """``-h``/``--help`` in the club's language: German where the club database (``--club``,
    else :func:`default_path`) is a German club's."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS,  # type: ignore[no-untyped-def]
                 default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        path = _club_path(getattr(parser, "given", []))
        text = parser.format_help()
        if _file_language(path) == "de":
            text = _german_help(parser)
        sys.stdout.write(text)
        parser.exit()


def _german_help(parser: argparse.ArgumentParser) -> str:
    """``parser``'s help with the German of every help text (controller/club/words.py
    ``HELP``) and placeholder; the options' names stay (they are what is typed)."""
    from controller.club.words import HELP, HELP_HEADINGS, METAVARS

    def german(action: argparse.Action) -> None:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = HELP.get(action.help, action.help)
        if action.nargs != 0 and not action.choices:
            shown = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            action.metavar = METAVARS.get(shown, shown)

    for action in parser._actions:
        german(action)
        if isinstance(action, argparse._SubParsersAction):
            for verb in action._choices_actions:
                verb.help = HELP.get(verb.help or "", verb.help)
    if parser.description:
        parser.description = HELP.get(parser.description, parser.description)
    for group in parser._action_groups:
        group.title = HELP_HEADINGS.get(group.title or "", group.title)
    text = parser.format_help()
    return HELP_HEADINGS["usage: "] + text.removeprefix("usage: ")


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
        from controller.club.words import refusal

        print(f"floorman club {args.club_verb}: {refusal(exc, _language(args))}",
              file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # a transaction that failed was rolled back
        from controller.club.words import refusal

        said = ClubError(f"{args.club}: the club database cannot be used ({exc}); nothing "
                         "changed", "sqlite_error", path=args.club, why=str(exc))
        print(f"floorman club {args.club_verb}: {refusal(said, _language(args))}",
              file=sys.stderr)
        return 1


def _language(args: argparse.Namespace) -> str:
    """The language of a refusal: the club database's; a restore into a club that has no
    file yet speaks the backup's."""
    if args.club_verb == "restore" and not os.path.exists(args.club):
        return _file_language(args.file)
    return _file_language(args.club)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``floorman club …`` to the ``floorman`` parser's verbs."""
    about = "the club's players, seasons, imports and standings (docs/club.md)"
    c = sub.add_parser("club", help=about, description=about, add_help=False)
    c.add_argument("-h", "--help", action=_Help, help=HELP_HELP)
    verbs = c.add_subparsers(dest="club_verb", required=True, metavar="VERB",
                             parser_class=_ClubParser)

    def verb(name: str, func, help: str) -> argparse.ArgumentParser:  # type: ignore[no-untyped-def]
        v = verbs.add_parser(name, help=help, description=help, add_help=False)
        v.add_argument("-h", "--help", action=_Help, help=HELP_HELP)
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
    v.add_argument("--into", nargs="+", required=True, help="the player kept")
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
    v = verb("history", _history, "a player's nights: place, points, and where they played "
             "for money the payout, ticket and bounties: history NAME")
    v.add_argument("name", nargs="+")
    v.add_argument("--csv", action="store_true", help="CSV, amounts in cents")
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
    v.add_argument("--timeout", type=float, default=10.0,
                   help="seconds to wait for the controller's answer")
    _desk_verbs(verb)
    _title_verbs(verb)
    v = verb("backup", _backup, "a consistent copy of the club database: backup FILE")
    v.add_argument("file")
    v = verb("restore", _restore, "replace the club database with a backup: restore FILE")
    v.add_argument("file")
    v = verb("export", _export, "everything as CSV files and one JSON file: export DIR")
    v.add_argument("dir")
