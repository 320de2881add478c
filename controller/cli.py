"""The ``floorman`` command (the console script ``floorman = controller.cli:main``).

Every verb is registered in :func:`build_parser`:

- the controller's: ``controller FILE`` (the service), the director's verbs (``register``,
  ``draw``, ``start``, ``bust``, ``status``, …: commands to a running controller),
  ``broker-config`` (accounts and ACL of a locked-down Mosquitto);
- the tools: ``check FILE…`` (tournament files and presets), ``verify LOG`` (the event
  log's hash chain), ``club …`` (the club database, ``controller/club/cli.py``),
  ``simulate FILE``
  (a whole night through the real engine), ``files`` (the shipped files);
- the screens' (defined in ``kiosk/cli.py``): ``kiosk FILE --table N | --wall`` and
  ``demo``.

Where a verb takes a tournament or kiosk file, a shipped one can be named instead of a
path (``floorman simulate sample``): :func:`controller.resources.resolve`.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def _check(args: argparse.Namespace) -> int:
    from controller import resources
    from controller.config import main_check

    jobs: list[tuple[str, bool | None]] = []
    if args.all:
        jobs += [(str(p), True) for p in resources.shipped("presets")]
        jobs += [(str(p), False) for p in resources.shipped("tournaments")]
    rc = 0
    for name in args.file:
        path = resources.resolve(name, "tournaments")
        if path == Path(name) and not path.exists():
            path = resources.resolve(name, "presets")
        if not path.exists() and "/" not in name:
            print(f"{name}: file not found (nor a shipped tournament or preset: floorman files)")
            rc = 1
            continue
        jobs.append((str(path), args.as_preset))
    if rc and not jobs:
        return rc
    if not jobs:
        print("floorman check: give a FILE (or --all)", file=sys.stderr)
        return 2
    return max([rc] + [main_check(path, as_preset=kind) for path, kind in jobs])


def _files(args: argparse.Namespace) -> int:
    from controller import resources

    bad = [k for k in args.kind if k not in resources.KINDS]
    if bad:
        print(f"floorman files: no kind {', '.join(bad)} (kinds: {', '.join(resources.KINDS)})",
              file=sys.stderr)
        return 2
    rows = resources.listing(args.kind or None)
    if args.paths:
        for _, _, path in rows:
            print(path)
        return 0
    kw = max(len(k) for k, _, _ in rows)
    nw = max(len(n) for _, n, _ in rows)
    for kind, name, path in rows:
        print(f"{kind:<{kw}}  {name:<{nw}}  {path}")
    return 0


def _broker_config(args: argparse.Namespace) -> int:
    from controller.broker.accounts import write

    try:
        report = write(args.out, args.tables, walls=args.walls, prefix=args.prefix,
                       rotate=args.rotate, hash_with=args.hasher)
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"floorman broker-config: {exc}", file=sys.stderr)
        return 2
    for status, path in report:
        print(f"{status} {path}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from controller import resources
    from controller.config import ConfigError, load_tournament
    from controller.engine.results import results_csv
    from controller.simulate import simulate

    try:
        settings = load_tournament(resources.resolve(args.file, "tournaments"))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.players < 2:
        print("floorman simulate: --players must be at least 2", file=sys.stderr)
        return 2
    if not 0.0 <= args.forgetful <= 1.0:
        print("floorman simulate: --forgetful must be a share from 0 to 1", file=sys.stderr)
        return 2
    from controller.log.store import StoreError

    try:
        sim = simulate(settings, args.players, args.seed, store=args.store or ":memory:",
                       forgetful=args.forgetful)
    except StoreError as exc:
        print(f"floorman simulate: {exc}", file=sys.stderr)
        return exc.exit_code
    except ValueError as exc:  # a field the rules refuse (a qualifier of 27, 001 §2 III)
        print(f"floorman simulate: {exc}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(sim.as_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    s = sim.summary()
    print(f"{s['name']}: {s['players']} players, {s['entries']} entries — "
          f"champion {s['champion']}")
    width = max(len(k) for k in s)
    keys: tuple[str, ...] = (
        "hands", "moves", "balancing_moves", "tables_broken", "final_table",
        "hand_for_hand_hands", "rebuys", "reentries", "time_calls", "levels_reached", "events")
    if args.forgetful:
        keys += ("hands_done_forgotten", "hands_done_caught_up")
    if "mystery_lists" in s:  # 000 4.17: the lists the night drew, the hits on them
        keys += ("mystery_lists", "mystery_hits")
    for key in keys:
        print(f"  {key.replace('_', ' '):<{width}}  {s[key]}")
    if "prize_pool" in s:
        _print_prize_pool(s["prize_pool"])
    print()
    rows = sim.results[: args.top] if args.top else sim.results
    print(results_csv(rows).rstrip("\n"))
    return 0


def _print_prize_pool(pool: dict[str, Any]) -> None:
    """The pool and each paid place's amount (issue 30), for ``floorman simulate``."""
    from controller.engine.settings import cents_text

    cur = pool["currency"]
    line = (f"prize pool {cents_text(pool['pool'])} {cur}: {pool['entries']} entries "
            f"({pool['reentries']} re-entries), {pool['rebuys']} rebuys, {pool['addons']} "
            f"add-ons; paid in {cents_text(pool['paid_in'])}, fees {cents_text(pool['fees'])}")
    if pool.get("bounties"):  # money bounties: onto the heads, not into the pool
        line += f", bounties {cents_text(pool['bounties'])}"
    if pool["overlay"]:
        line += f", overlay {cents_text(pool['overlay'])} (the guarantee)"
    print()
    print(line)
    tickets = pool.get("tickets", 0)
    if "ticket" in pool:  # a satellite (002): tickets, the rest in cash
        print(f"satellite: {tickets} tickets of {cents_text(pool['ticket'])} {cur}")
    print(f"paid places {pool['paid_places']}:")
    for place, cents in enumerate(pool["payouts"], start=1):
        kind = "  ticket" if place <= tickets else ""
        print(f"  {place:>4}.  {cents_text(cents):>12} {cur}{kind}")


def _controller(args: argparse.Namespace) -> int:
    import logging

    from controller import resources
    from controller.config import ConfigError, load_tournament
    from controller.log.store import StoreError
    from controller.service.core import serve
    from controller.service.inbound import limits_from_env
    from controller.wire.mqtt import Broker

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    path = resources.resolve(args.file, "tournaments")
    try:
        settings = load_tournament(path)
        broker = Broker.from_env(args.broker, args.prefix, settings.broker)
        limits_from_env()  # a bad FLOORMAN_PRESS_RATE: one line, no traceback
    except (ConfigError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    # beside the tournament file; a shipped one named on the command line: in this folder
    beside = Path(args.file) if path == Path(args.file) else Path(path.name)
    db = args.db or str(beside.with_suffix(".sqlite"))
    try:
        return serve(settings, db, broker, new=args.new)
    except StoreError as exc:
        # one line naming the file and what is wrong; the exit code says which kind
        # (docs/operations.md): 3 held by another controller, 4 not a Floorman log,
        # 5 damaged, 6 cannot be written
        print(f"floorman controller: {exc}", file=sys.stderr)
        return exc.exit_code


def _verify(args: argparse.Namespace) -> int:
    from controller.engine.chain import check
    from controller.engine.events import InvalidEvent
    from controller.engine.tournament import Tournament
    from controller.log.store import EXIT_DAMAGED, EXIT_NO_CHAIN, EventStore, StoreError

    path = args.log
    try:
        with EventStore(path, readonly=True) as store:
            store.check_pages()
            events = store.events()
            answers = store.check_answers()
    except StoreError as exc:
        print(f"floorman verify: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        checked = check(events)
        if events and events[0].get("settings") is not None:
            Tournament.replay(events)  # every event must also fit the state before it
    except InvalidEvent as exc:
        print(f"{path}: BAD: {exc}")
        return EXIT_DAMAGED
    if answers is not None:  # what a resent command would be answered (issue 32)
        print(f"{path}: BAD: {answers}")
        return EXIT_DAMAGED
    if checked.chained_from is None:
        print(f"{path}: {checked.count} events, readable, but no hash chain (written by a "
              "Floorman before the chain): an edited or removed event cannot be found")
        return EXIT_NO_CHAIN
    since = "" if checked.chained_from == 1 else (
        f" (events 1-{checked.chained_from - 1} were written before the chain; "
        f"the chain from event {checked.chained_from} covers them)")
    print(f"{path}: OK, {checked.count} events, last hash {checked.last}{since}")
    return 0


def _console(args: argparse.Namespace) -> int:
    import getpass
    import logging

    from controller.console import auth

    path = Path(args.password_file)
    if args.set_password:
        if sys.stdin.isatty():
            first = getpass.getpass("the director's console password: ")
            if getpass.getpass("again: ") != first:
                print("floorman console: the two passwords differ; nothing changed",
                      file=sys.stderr)
                return 1
        else:  # from a pipe or a script: the first line
            first = sys.stdin.readline().rstrip("\n")
        try:
            auth.write_password(path, first)
        except (ValueError, OSError) as exc:
            print(f"floorman console: {exc}", file=sys.stderr)
            return 1
        print(f"the console's password is set ({path})")
        return 0

    from controller.config import ConfigError, load_tournament
    from controller.console.app import Console, serve
    from controller.console.hub import Hub
    from controller.wire.mqtt import Broker

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_tournament(args.config).broker if args.config else None
        broker = Broker.from_env(args.broker, args.prefix, config)
        hashed = auth.read_password(path)
        host, _, port = args.listen.rpartition(":")
        if not port.isdigit():
            raise ValueError(f"--listen must be HOST:PORT, got {args.listen!r}")
    except (ConfigError, ValueError, auth.PasswordMissing) as exc:
        print(f"floorman console: {exc}", file=sys.stderr)
        return 1
    from controller.console.app import public_url
    from controller.console.guard import Limits

    players = args.public_url or public_url(host, int(port))
    limits = Limits(trusted=frozenset(_words(args.trusted_proxy)))
    names = _words(args.host_name)
    names.append(urlsplit(players).hostname or "")
    server = serve(Console(Hub(broker, public_url=players), hashed, limits=limits,
                           hosts=names, requests_file=args.requests or None),
                   host or "0.0.0.0", int(port))
    print(f"console on http://{host or '0.0.0.0'}:{port}/ (broker {broker}, prefix "
          f"{broker.prefix}); the players' page: {players}", flush=True)
    server.run()
    return 0


def _words(values: list[str] | None) -> list[str]:
    """Repeated options and comma-separated lists as one list: ``["a,b", "c"]`` → a, b, c."""
    return [w.strip() for v in values or [] for w in v.split(",") if w.strip()]


def _seconds(text: str) -> float:
    """"90", "1:30", "1:05:00" or "-2:00" → seconds; a clock reading that is no time
    ("99:99", "1:5") is a ``ValueError`` that says so."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    parts = body.split(":")
    try:
        if len(parts) == 1:
            value = float(body)
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError
            return sign * value
        if len(parts) > 3 or not all(p.isdigit() for p in parts):
            raise ValueError
        *head, ss = parts
        if len(ss) != 2 or int(ss) > 59 or (len(head) == 2 and (len(head[1]) != 2
                                                              or int(head[1]) > 59)):
            raise ValueError
    except ValueError:
        raise ValueError(f"{text!r} is not a time: give seconds (90), M:SS (1:30) or "
                         "H:MM:SS (1:05:00), with seconds and minutes 00-59") from None
    total = 0
    for p in parts:
        total = total * 60 + int(p)
    return float(sign * total)


def _director_command(args: argparse.Namespace) -> tuple[str, dict]:
    """Turn the parsed director verb into a protocol command and its arguments."""
    v = args.verb
    if v in DESK_VERBS:
        return _desk_command(args)
    if v == "level":
        if args.what == "set":
            if args.number is None:
                raise ValueError("level set needs a level number")
            return "level", {"to": args.number}
        return "level", {"to": args.what}
    if v == "time":
        seconds = _seconds(args.value)
        if args.op == "remove":
            return "time", {"op": "add", "seconds": -abs(seconds)}
        return "time", {"op": args.op, "seconds": seconds}
    if v == "register":
        a_ = {"names": args.names, "member": not args.guest} | _adult(args)
        return "register", a_ | {"force": True} if args.force else a_
    if v == "late":
        return "late", {"name": " ".join(args.name), "member": not args.guest} | _adult(args) \
            | ({"force": True} if args.force else {})
    if v == "bust":
        if len(args.who) == 2 and all(x.isdigit() for x in args.who):
            a: dict = {"table": int(args.who[0]), "seat": int(args.who[1])}
        else:
            a = {"player": " ".join(args.who)}
        if args.stack is not None:
            a["stack"] = args.stack
        if args.by:
            a["by"] = args.by
        if args.same_hand:
            a["same_hand"] = True
        if args.confirm:
            a["confirm"] = True
        return "bust", a
    if v == "rename":
        return "rename", {"player": _player(args.name), "name": " ".join(args.to)}
    if v == "unregister":
        return "unregister", {"player": _player(args.name)}
    if v == "announce":
        if args.clear:
            if args.text or args.minutes is not None:
                raise ValueError("announce --clear takes no text and no --minutes")
            return "announce", {"clear": True}
        a = {"text": " ".join(args.text)}
        if args.minutes is not None:
            a["minutes"] = args.minutes
        return "announce", a
    if v == "penalty":
        return "penalty", _penalty_args(args)
    if v == "deal":
        return "deal", _deal_args(args)
    if v == "disqualify":
        a = {"player": _player(args.name)}
        if args.stack is not None:
            a["stack"] = args.stack
        if args.reason:
            a["reason"] = args.reason
        return "disqualify", a
    if v in ("rebuy", "reentry", "seated"):
        return v, {"player": " ".join(args.name)}
    if v == "reseat":
        a = {"player": _player(args.name), "table": args.table, "reason": args.reason}
        if args.seat is not None:
            a["seat"] = args.seat
        return "reseat", a
    if v == "deal-in":
        return "deal_in", {"player": _player(args.name)}
    if v == "reserve":
        return "reserve", {"seats": args.seats, "reason": args.reason}
    if v == "hfh":
        return "hfh", {"on": args.state == "on"}
    if v == "move":
        return "move_apply", ({} if args.from_table is None else {"from_table": args.from_table})
    if v == "break-table":
        return "break_table", {"table": args.table}
    if v == "time-call":
        return "time_call", {"table": args.table, "op": args.op}
    if v == "hand-done":
        return "hand_done", {"table": args.table}
    if v == "hands-left":
        return "hands_left", {"count": args.count}
    if v == "colour-up":
        return "colour_up", ({"chip": args.chips[0]} if len(args.chips) == 1
                             else {"chips": args.chips})
    if v == "undo":
        if args.table is not None:
            return "undo", {"table": args.table}
        return "undo", {} if args.event is None else {"target": args.event}
    if v == "structure":
        return "structure", _structure_args(args)
    if v == "absent":
        a = {"player": _player(args.name), "back": args.back}
        if args.stack is not None:
            a["stack"] = args.stack
        return "absent", a
    if v == "table-game":
        return "table_game", {"players": [_player([n]) for n in args.players]}
    if v in ("drawn-names", "mystery-list"):
        if args.clear == bool(args.names):
            raise ValueError(f"{v} needs --names NAME… or --clear (one of them)")
        return v.replace("-", "_"), {"player": _player(args.name),
                                     "names": [_player([n]) for n in args.names or []]}
    if v == "send":
        return args.command.replace("-", "_"), dict(_key_value(kv) for kv in args.args)
    return v.replace("-", "_"), {}


# ------------------------------------------------- the registration desk (issue 31)
DESK_VERBS = ("capacity", "preregister", "check-in", "cancel", "elsewhere")


def _adult(args: argparse.Namespace) -> dict[str, bool]:
    """000 1.1, 003 1: ``--adult``: the desk asked, each confirmed being 18 (recorded)."""
    return {"adult": True} if getattr(args, "adult", False) else {}


ADULT_HELP = "asked at the desk: 18 or older (000 1.1, 003 1; the date is recorded)"


def _desk_parsers(director: Any) -> None:
    """The desk's verbs: the seat limit, pre-registration, check-in, cancellation."""
    d = director("capacity", "the seat limit (002): capacity --seats N | --tables N | --none; "
                 "registrations beyond it go to the waiting list")
    how = d.add_mutually_exclusive_group(required=True)
    how.add_argument("--seats", type=int, help="this many seats")
    how.add_argument("--tables", type=int, help="the room's tables × players per table")
    how.add_argument("--none", action="store_true", help="no seat limit")
    d = director("preregister", "players who registered ahead (000 2.2): preregister NAME… "
                 "or --file FILE (one name a line); they are checked in when they arrive")
    d.add_argument("names", nargs="*")
    d.add_argument("--file", help="a text file, one name a line (# starts a comment)")
    d.add_argument("--guest", action="store_true", help="not club members")
    d.add_argument("--adult", action="store_true", help=ADULT_HELP)
    d = director("check-in", "a pre-registered player arrived: check-in NAME (or #ID)")
    d.add_argument("name", nargs="+")
    d = director("cancel", "a player cancels (000 2.6): cancel NAME [--force after the "
                 "deadline]")
    d.add_argument("name", nargs="+")
    d.add_argument("--force", action="store_true",
                   help="take the cancellation after the preset's deadline")
    d = director("elsewhere", "001 §1 III: NAME plays at another tournament on this floor "
                 "that started earlier: elsewhere NAME --in TOURNAMENT --started ISO; "
                 "--done when it is over for the player")
    d.add_argument("name", nargs="+")
    d.add_argument("--in", dest="where", required=True, help="the other tournament's name")
    d.add_argument("--started", help="when it started (ISO with offset, "
                   "2026-11-27T19:00+01:00)")
    d.add_argument("--done", action="store_true", help="it is over for the player")


def _desk_command(args: argparse.Namespace) -> tuple[str, dict]:
    v = args.verb
    if v == "capacity":
        if args.none:
            return "capacity", {}
        return "capacity", {"seats": args.seats} if args.seats is not None \
            else {"tables": args.tables}
    if v == "preregister":
        names = list(args.names)
        if args.file:
            names += _names_file(args.file)
        if not names:
            raise ValueError("preregister needs names, or --file FILE with one name a line")
        return "preregister", {"names": names, "member": not args.guest} | _adult(args)
    if v == "check-in":
        return "check_in", {"player": _player(args.name)}
    if v == "elsewhere":
        e: dict = {"player": _player(args.name), "tournament": args.where}
        if args.started:
            e["started"] = args.started
        return "elsewhere", e | ({"done": True} if args.done else {})
    a: dict = {"player": _player(args.name)}
    if args.force:
        a["force"] = True
    return "cancel", a


def _names_file(path: str) -> list[str]:
    """The names of a pre-registration list: one a line; blank lines and ``#`` comments
    are left out."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    return [n.strip() for n in lines if n.strip() and not n.strip().startswith("#")]


def _money_cents(text: str) -> int:
    """``250``, ``250.50`` or ``250,50`` (the currency's units) → cents."""
    body = text.strip().replace(",", ".")
    whole, _, part = body.partition(".")
    if not whole.isdigit() or not (part == "" or (part.isdigit() and len(part) <= 2)):
        raise ValueError(f"{text!r} is not an amount: give it as 250 or 250.50")
    return int(whole) * 100 + int(part.ljust(2, "0") or 0)


def _deal_args(args: argparse.Namespace) -> dict:
    """``deal icm|chip-chop [--percent N | --played-for AMOUNT]``, ``deal custom --share
    NAME=AMOUNT …`` (issue 30): amounts in the currency's units, sent in cents."""
    a: dict = {"method": args.method.replace("-", "_")}
    if args.percent is not None:
        a["percent"] = args.percent
    if args.played_for is not None:
        a["played_for"] = _money_cents(args.played_for)
    if args.share:
        amounts = []
        for item in args.share:
            who, sep, amount = item.rpartition("=")
            if not sep or not who.strip():
                raise ValueError(f"--share {item!r}: give NAME=AMOUNT (or #ID=AMOUNT)")
            amounts.append({"player": _player([who.strip()]), "amount": _money_cents(amount)})
        a["amounts"] = amounts
    return a


def _penalty_args(args: argparse.Namespace) -> dict:
    """``penalty NAME --hands N | --orbits N | --minutes M | --warning | --owed-blinds``."""
    a: dict = {"player": _player(args.name)}
    if args.warning or args.owed_blinds:
        if args.warning and args.owed_blinds:
            raise ValueError("penalty takes --warning or --owed-blinds, not both")
        a["kind"] = "warning" if args.warning else "owed_blinds"
    for key in ("hands", "orbits", "minutes"):
        if getattr(args, key) is not None:
            a[key] = getattr(args, key)
    if args.reason:
        a["reason"] = args.reason
    return a


def _player(words: list[str]) -> int | str:
    """A player on the command line: a name of one or more words, or an id (``#12``)."""
    text = " ".join(words)
    return int(text[1:]) if text[:1] == "#" and text[1:].isdigit() else text


def _structure_args(args: argparse.Namespace) -> dict:
    if args.op == "minutes":
        if args.from_level is None:
            raise ValueError("structure minutes needs --from LEVEL")
        return {"op": "minutes", "from_level": args.from_level, "minutes": args.minutes,
                "breaks": args.breaks}
    if args.after is None:
        raise ValueError("structure insert needs --after LEVEL (0: before the first)")
    level: dict = {"minutes": args.minutes, "kind": "break" if args.is_break else "level"}
    if args.note:
        level["note"] = args.note
    if args.blinds:
        sb, _, bb = args.blinds.partition("/")
        if not (sb.isdigit() and bb.isdigit()):
            raise ValueError(f"--blinds must be SMALL/BIG, e.g. 600/1200, got {args.blinds!r}")
        level |= {"small_blind": int(sb), "big_blind": int(bb)}
    if args.ante:
        level["ante"] = args.ante
    return {"op": "insert", "after": args.after, "level": level}


def _signature(name: str) -> str:
    from controller.engine.commands import arguments

    return " ".join(k + ("" if req else "?") for k, (_, req) in arguments(name).items())


def _key_value(text: str) -> tuple[str, object]:
    """``key=value`` of ``floorman send``: the value as JSON if it is JSON, else text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"arguments are key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def _director(args: argparse.Namespace) -> int:
    # only what a verb needs: the tournament file's loader (yaml, pydantic, the points
    # systems) only with --config; the protocol's schemas never (issue 32.3,
    # tests/test_cli_imports.py)
    from controller.director import BrokerUnreachable, NoAnswer, send, with_credentials
    from controller.wire.mqtt import Broker

    try:
        config = None
        if args.config:
            from controller.config import ConfigError, load_tournament

            try:
                config = load_tournament(args.config).broker
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
        broker = Broker.from_env(args.broker, args.prefix, config)
        # the account from a credentials file only its owner can read
        # ($FLOORMAN_CREDENTIALS or ~/.config/floorman/director.env), not from ~/.bashrc
        broker = with_credentials(broker, address_given=bool(args.broker),
                                  prefix_given=bool(args.prefix))
        cmd, cargs = _director_command(args)
        answer = send(broker, cmd, cargs, timeout=args.timeout)
    except (ValueError, BrokerUnreachable, NoAnswer) as exc:
        print(f"floorman {args.verb}: {exc}", file=sys.stderr)
        return 2
    # what the log holds reaches the terminal as text: an ESC or a NUL in a name or a
    # reason an older Floorman accepted is shown escaped, never obeyed (issue 27.6)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Terminal(out), _Terminal(err)
    try:
        return _answered(args, cmd, answer)
    finally:
        sys.stdout, sys.stderr = out, err


class _Terminal(io.TextIOBase):
    """A text stream that writes to ``to`` with every character a terminal would obey
    (controls, format characters: ``\x1b``, ``\x00``, ``\u202e``) escaped; a line
    feed, a tab and a CSV's ``\r\n`` stay."""

    def __init__(self, to: Any) -> None:
        self.to = to

    def write(self, text: str) -> int:
        self.to.write(terminal_text(text))
        return len(text)

    def flush(self) -> None:
        self.to.flush()


def terminal_text(text: str) -> str:
    if all(line.isprintable() for line in text.replace("\t", "").replace("\r\n", "\n")
           .split("\n")):
        return text  # nothing to escape: the engine's commands are not imported for it
    import unicodedata

    from controller.engine.commands import UNSHOWABLE

    out = []
    for i, ch in enumerate(text):
        if ch in "\n\t" or (ch == "\r" and text[i + 1:i + 2] == "\n"):
            out.append(ch)
        elif unicodedata.category(ch) in UNSHOWABLE:
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def _answered(args: argparse.Namespace, cmd: str, answer: dict) -> int:
    if not answer.get("ok"):
        print(f"rejected: {answer.get('reason')}", file=sys.stderr if not args.json else sys.stdout)
        if args.json:
            json.dump(answer, sys.stdout, ensure_ascii=False)
            print()
        return 1
    if args.json:
        json.dump(answer, sys.stdout, ensure_ascii=False)
        print()
    elif cmd == "results":
        _print_results(answer["result"], getattr(args, "csv", False))
    elif cmd == "moves":
        _print_moves(answer["result"])
    elif cmd == "players":
        _print_players(answer["result"])
    else:
        print(answer.get("message", "ok"))
    return 0


def _print_results(result: dict, csv: bool) -> None:
    rows = result["rows"]
    if csv:
        import csv as _csv
        import io

        from controller.engine.results import spreadsheet_cell

        buf = io.StringIO()
        if rows:  # a name that would start a formula is written as text (issue 27.6)
            w = _csv.DictWriter(buf, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows({k: spreadsheet_cell(v) for k, v in r.items()} for r in rows)
        sys.stdout.write(buf.getvalue())
        return
    last: object = None
    for r in rows:
        if "game" in r and r["game"] != last:  # a play day (003 6): the day, then each table
            last = r["game"]
            print("the day" if last is None else f"table game {last}")
        pts = f"  {r['points']} pts" if r.get("points") else ""
        day = (f"  (attendance {r['attendance']}, tables {r['tables_played']})"
               if r.get("tables_played") else "")
        print(f"{r['place']:>4}. {r['name']}{pts}{day}")
    if not rows:
        print("nobody has finished yet")
    for d in result.get("disqualified", []):  # out of the ranking (000 3.8)
        why = f" ({d['reason']})" if d.get("reason") else ""
        print(f"  DQ  {d['name']}{why}")


def _print_players(result: dict) -> None:
    for p in result["players"]:
        where = {"seated": f"table {p['table']} seat {p['seat']}",
                 "out": f"out in place {p['place']}",
                 "disqualified": "disqualified"}.get(p["status"], "registered")
        guest = "" if p["member"] else " (guest)"
        expected = " (pre-registered, not checked in)" if p.get("expected") else ""
        print(f"{p['name']}{guest}: {where}{expected}")
    if not result["players"]:
        print("nobody is registered yet")
    # the registration desk (issue 31): the waiting list in its order, the no-shows
    if result.get("seats") is not None:
        print(f"seat limit: {result['seats']}")
    for w in result.get("waiting", []):
        guest = "" if w["member"] else " (guest)"
        expected = " (pre-registered, not checked in)" if w["expected"] else ""
        print(f"waiting list {w['position']}: {w['name']}{guest}{expected}")
    if result.get("no_shows"):
        print("no-shows: " + ", ".join(result["no_shows"]))


def _print_moves(result: dict) -> None:
    for m in result["pending"]:
        print(f"{m['player']}: table {m['from']['table']} seat {m['from']['seat']} → "
              f"table {m['to']['table']} seat {m['to']['seat']} ({m['reason']})")
    plan = result["plan"]
    if plan["break_table"] is not None:
        print(f"next: table {plan['break_table']} breaks")
    for mv in plan["balance"]:
        print(f"planned: one player from table {mv['from_table']} to table {mv['to_table']}")
    if not result["pending"] and not plan["balance"] and plan["break_table"] is None:
        print("no moves pending; tables balanced")


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose epilog may be written only when the help is shown
    (``epilog_later``): ``floorman send``'s list of the engine's commands."""

    epilog_later: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.epilog_later is not None:
            self.epilog, self.epilog_later = self.epilog_later(), None
        return super().format_help()


class _EngineCommands:
    """The names ``floorman send`` takes, read from the engine when argparse first asks:
    the engine's command models build pydantic schemas (some 0.3 s), which no other
    verb needs (issue 32.3)."""

    def _names(self) -> list[str]:
        from controller.engine.commands import BY_NAME

        return [*BY_NAME, *(c.replace("_", "-") for c in BY_NAME)]

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def _send_epilog() -> str:
    from controller.engine.commands import BY_NAME

    return "commands (? = optional):\n" + "\n".join(
        f"  {name} {_signature(name)}\n      {cls.summary}" for name, cls in BY_NAME.items())


class _Verbs(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The ``floorman`` command's verbs. With :attr:`only` set (the verb the command line
    names), the other verbs are listed — in ``floorman --help`` and in a wrong verb's
    error — but their parsers are not built: some 60 parsers with 400 options cost every
    command about 0.1 s of CPU, as much as the broker's whole round trip (issue 32.3)."""

    only: str | None = None

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if self.only is None or name == self.only:
            return super().add_parser(name, **kwargs)
        if "help" in kwargs:
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs["help"]))
        self._name_parser_map[name] = unbuilt = _Unbuilt()
        return unbuilt


class _Unbuilt(argparse.ArgumentParser):
    """A verb's parser that is not built: whatever is added to it is taken and forgotten
    (its options, its own verbs); it never parses."""

    def __init__(self) -> None:  # argparse's own (its help option, gettext) is the cost
        pass

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("__"):
            return object.__getattribute__(self, name)
        return lambda *args, **kwargs: self  # add_argument, set_defaults, add_parser …


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``floorman`` command; ``only``: build the parser of this verb only (the others
    are listed by name and help)."""
    p = _Parser(prog="floorman", description="Floorman tournament-floor system")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB", action=_Verbs)
    assert isinstance(sub, _Verbs)
    sub.only = only

    k = sub.add_parser("controller", help="run the controller service for a tournament file")
    k.add_argument("file", help="the tournament file (or a shipped one's name: sample)")
    k.add_argument("--db", help="event log (default: the tournament file with .sqlite)")
    k.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or localhost:1883)")
    k.add_argument("--prefix", help="topic prefix (default: floorman/default)")
    k.add_argument("--new", action="store_true", help="start a new tournament also when "
                   "the log is an empty file (a log with events is never overwritten)")
    k.set_defaults(func=_controller)

    k = sub.add_parser("console", help="the director's console in the browser "
                       "(docs/console.md)")
    k.add_argument("--listen", default=os.environ.get("FLOORMAN_CONSOLE_LISTEN", "0.0.0.0:8080"),
                   help="HOST:PORT to serve on (default: $FLOORMAN_CONSOLE_LISTEN or "
                   "0.0.0.0:8080, the club's network)")
    k.add_argument("--password-file", default=os.environ.get(
        "FLOORMAN_CONSOLE_PASSWORD_FILE", "/etc/floorman/console.passwd"),
        help="the hash of the director's sign-in password (default: "
        "$FLOORMAN_CONSOLE_PASSWORD_FILE or /etc/floorman/console.passwd)")
    k.add_argument("--public-url", default=os.environ.get("FLOORMAN_CONSOLE_PUBLIC_URL"),
                   help="the players' page as phones reach it, for the QR code on the wall "
                   "(default: $FLOORMAN_CONSOLE_PUBLIC_URL, or http://THIS-MACHINE:PORT/p)")
    k.add_argument("--set-password", action="store_true", help="ask for the password (or "
                   "read its first line from standard input), store its hash and exit")
    k.add_argument("--host-name", action="append", default=[
        os.environ.get("FLOORMAN_CONSOLE_HOSTS", "")], help="a name browsers may call the "
        "console by besides its addresses, localhost and this machine's name (a proxy's, "
        "the club network's DNS name); repeat or separate with commas (also "
        "$FLOORMAN_CONSOLE_HOSTS). Other names are refused (DNS rebinding)")
    k.add_argument("--trusted-proxy", action="append", default=[
        os.environ.get("FLOORMAN_CONSOLE_TRUSTED_PROXY", "")], help="the address of a "
        "proxy in front of the console whose X-Forwarded-For is believed (repeat or "
        "separate with commas; also $FLOORMAN_CONSOLE_TRUSTED_PROXY); by default "
        "X-Forwarded-For is never read")
    k.add_argument("--config", help="read broker address and prefix from this tournament "
                   "file (or set $FLOORMAN_CONFIG)", default=os.environ.get("FLOORMAN_CONFIG"))
    k.add_argument("--requests", metavar="FILE", default=os.environ.get(
        "FLOORMAN_CONSOLE_REQUESTS"), help="keep the players' registration requests in this "
        "file, in the tournament's data folder, so a restart loses none (default: "
        "$FLOORMAN_CONSOLE_REQUESTS; without it: in memory only)")
    k.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or localhost:1883)")
    k.add_argument("--prefix", help="topic prefix (default: floorman/default)")
    k.set_defaults(func=_console)
    ver = sub.add_parser("verify", help="check an event log: every event there, in order, "
                       "unchanged (exit 0: OK, 5: the first bad event is named, "
                       "7: no hash chain)")
    ver.add_argument("log", help="the event log (TOURNAMENT.sqlite)")
    ver.set_defaults(func=_verify)

    def director(name: str, help: str) -> argparse.ArgumentParser:
        d = sub.add_parser(name, help=help)
        d.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or localhost:1883)")
        d.add_argument("--prefix", help="topic prefix (default: floorman/default)")
        d.add_argument("--config", help="read broker address and prefix from this tournament "
                       "file (or set $FLOORMAN_CONFIG)", default=os.environ.get("FLOORMAN_CONFIG"))
        d.add_argument("--json", action="store_true", help="print the answer as JSON")
        d.add_argument("--timeout", type=float, default=10.0)
        d.set_defaults(func=_director)
        return d

    director("status", "one line: level, time, players, tables")
    for v in ("start", "pause", "resume", "draw", "addon", "final-table"):
        director(v, f"{v.replace('-', ' ')}")
    d = director("level", "level next|prev|set N")
    d.add_argument("what", choices=["next", "prev", "set"])
    d.add_argument("number", nargs="?", type=int)
    d = director("time", "time add|remove|set SECONDS or M:SS")
    d.add_argument("op", choices=["add", "remove", "set"])
    d.add_argument("value")
    d = director("register", "register NAME… (quote names with spaces)")
    d.add_argument("names", nargs="+")
    d.add_argument("--guest", action="store_true", help="not a club member")
    d.add_argument("--adult", action="store_true", help=ADULT_HELP)
    d.add_argument("--force", action="store_true", help="a seat beyond the seat limit "
                   "(else the waiting list), or after the late registration closed")
    _desk_parsers(director)
    d = director("rename", "correct a name: rename NAME --to NEW NAME (NAME or #ID)")
    d.add_argument("name", nargs="+")
    d.add_argument("--to", nargs="+", required=True, help="the corrected name")
    d = director("unregister", "take a player off the list before the draw: unregister NAME")
    d.add_argument("name", nargs="+")
    d = director("announce", "a banner on every screen: announce TEXT [--minutes M], "
                 "or announce --clear")
    d.add_argument("text", nargs="*")
    d.add_argument("--minutes", type=float, help="take it down by itself after M minutes")
    d.add_argument("--clear", action="store_true", help="take the banner down")
    d = director("late", "late registration: late NAME")
    d.add_argument("name", nargs="+")
    d.add_argument("--guest", action="store_true")
    d.add_argument("--adult", action="store_true", help=ADULT_HELP)
    d.add_argument("--force", action="store_true", help="after the late registration closed "
                   "(the director decides)")
    d = director("bust", "bust TABLE SEAT, or bust NAME")
    d.add_argument("who", nargs="+")
    d.add_argument("--stack", type=int, help="chips at the start of the hand (000 9.5)")
    d.add_argument("--by", help="who knocked the player out")
    d.add_argument("--same-hand", action="store_true",
                   help="out in the same hand as the table's bust before (000 9.5); "
                   "otherwise a new hand")
    d.add_argument("--confirm", action="store_true",
                   help="the player on that seat is still on the way to it, and is out")
    d = director("undo", "undo the last command (or --event N, or --table N: its last press)")
    d.add_argument("--event", type=int)
    d.add_argument("--table", type=int, help="the last press of this table (its undo button)")
    d = director("structure", "change the coming levels: structure insert --after N "
                 "(--break | --blinds SB/BB [--ante A]) --minutes M, or structure minutes "
                 "--from N --minutes M")
    d.add_argument("op", choices=["insert", "minutes"])
    d.add_argument("--after", type=int, help="insert after this playing level (0: first)")
    d.add_argument("--break", dest="is_break", action="store_true", help="insert a break")
    d.add_argument("--blinds", help="SMALL/BIG of an inserted level, e.g. 600/1200")
    d.add_argument("--ante", type=int)
    d.add_argument("--note", help="a break's colour-up note, e.g. 'Chipraise 25'")
    d.add_argument("--from", dest="from_level", type=int, help="first level to change")
    d.add_argument("--minutes", type=float, required=True)
    d.add_argument("--breaks", action="store_true", help="breaks get the new length too")
    d = director("send", "any engine command by name with key=value arguments (values are "
                 "JSON or text); floorman send --help lists the commands")
    d.add_argument("command", choices=_EngineCommands(), metavar="COMMAND")
    d.add_argument("args", nargs="*", metavar="KEY=VALUE")
    d.formatter_class = argparse.RawDescriptionHelpFormatter
    if isinstance(d, _Parser):  # not when another verb was typed (_Unbuilt)
        d.epilog_later = _send_epilog
    for v in ("rebuy", "reentry", "seated"):
        d = director(v, f"{v} NAME")
        d.add_argument("name", nargs="+")
    d = director("reseat", "the director seats a player elsewhere (002: special needs, "
                 "balancing by hand): reseat NAME --table N [--seat S] --reason TEXT")
    d.add_argument("name", nargs="+", help="the player (NAME or #ID)")
    d.add_argument("--table", type=int, required=True, help="the table the player goes to")
    d.add_argument("--seat", type=int, help="the seat (default: the one that posts the big "
                   "blind soonest)")
    d.add_argument("--reason", required=True, help="why, kept in the log")
    d = director("deal-in", "a player moved after posting a blind, who sits out until the "
                 "button has passed (003 12), is dealt in from the next hand: deal-in NAME")
    d.add_argument("name", nargs="+", help="the player (NAME or #ID)")
    d = director("reserve", "keep seats free for late arrivals (002): reserve N --reason "
                 "TEXT; before the draw the draw leaves them free; 0 gives them back")
    d.add_argument("seats", type=int, help="how many seats are kept free")
    d.add_argument("--reason", required=True, help="why, kept in the log")
    d = director("absent", "a player who left is played as a ghost (000 9.5): absent NAME "
                 "[--stack CHIPS]; absent NAME --back when they return")
    d.add_argument("name", nargs="+")
    d.add_argument("--back", action="store_true", help="the player is back at the table")
    d.add_argument("--stack", type=int, help="chips left, ranks players removed together")
    d = director("table-game", "play day (003 6, 11): a new table game for these players "
                 "(quote names with spaces)")
    d.add_argument("players", nargs="+")
    for v, rule in (("drawn-names", "the names a member drew (000 6.3)"),
                    ("mystery-list", "a player's mystery-bounty list (000 4.17)")):
        d = director(v, f"{rule}: {v} NAME --names NAME… (quoted), or {v} NAME --clear")
        d.add_argument("name", nargs="+")
        d.add_argument("--names", nargs="+", help="the names on the list, each quoted")
        d.add_argument("--clear", action="store_true", help="empty the list")
    d = director("penalty", "a penalty (000 3.6-3.8, 4.11): penalty NAME --hands N | "
                 "--orbits N | --minutes M (a sit-out), --warning, or --owed-blinds")
    d.add_argument("name", nargs="+", help="the player (NAME or #ID)")
    d.add_argument("--hands", type=int, help="sit out N hands (the seat stays dealt in)")
    d.add_argument("--orbits", type=int, help="sit out N orbits (000 3.8: the button once round)")
    d.add_argument("--minutes", type=float, help="sit out M minutes")
    d.add_argument("--warning", action="store_true", help="a warning only")
    d.add_argument("--owed-blinds", action="store_true",
                   help="dodged the blinds on a move: owes them (000 4.11)")
    d.add_argument("--reason", help="why, as said at the table")
    director("deal-proposal", "the deal at the final table now: ICM and chip chop for the "
             "players left from their counts, 10 %% played for (changes nothing)")
    d = director("deal", "accept a deal at the final table (002): deal icm|chip-chop "
                 "[--percent N | --played-for AMOUNT], or deal custom --share NAME=AMOUNT …")
    d.add_argument("method", choices=["icm", "chip-chop", "custom"])
    d.add_argument("--percent", type=int, help="percent of the money open still played for "
                   "(default 10, 002)")
    d.add_argument("--played-for", help="the amount still played for instead (e.g. 150)")
    d.add_argument("--share", action="append", metavar="NAME=AMOUNT",
                   help="custom: a player's part (each player left once)")
    d = director("disqualify", "disqualify NAME [--stack N] [--reason TEXT]: out of the "
                 "ranking, the chips leave play (000 3.8)")
    d.add_argument("name", nargs="+", help="the player (NAME or #ID)")
    d.add_argument("--stack", type=int, help="the chips that leave play (default: the average)")
    d.add_argument("--reason", help="why")
    d = director("hfh", "hand-for-hand on|off")
    d.add_argument("state", choices=["on", "off"])
    director("moves", "the pending moves and the balancing plan")
    director("history", "the last commands with their numbers (for undo --event N) and "
             "what they did")
    director("players", "every registered player: seated where, or out in which place")
    d = director("move", "move apply [--from TABLE]: carry out the balancing plan now")
    d.add_argument("apply", choices=["apply"])
    d.add_argument("--from", dest="from_table", type=int, metavar="TABLE",
                   help="the table that gives the next player, the director's choice "
                   "(001 §2 I); the plan's destination")
    d = director("break-table", "break-table N")
    d.add_argument("table", type=int)
    d = director("time-call", "time-call TABLE [start|cancel]")
    d.add_argument("table", type=int)
    d.add_argument("op", nargs="?", default="start", choices=["start", "cancel", "expire"])
    d = director("hand-done", "hand-done TABLE (for tables without a button box)")
    d.add_argument("table", type=int)
    d = director("hands-left", "hands-left N: end of the day (002)")
    d.add_argument("count", type=int)
    d = director("colour-up", "the director's colour-up at any time (002): colour-up CHIP "
                 "[CHIP…]; the tables race each chip, the smaller first, while this level "
                 "lasts; a later colour-up adds its chips")
    d.add_argument("chips", nargs="+", type=int, metavar="CHIP",
                   help="a chip that leaves play (25, 100, …)")
    d = director("results", "the results so far")
    d.add_argument("--csv", action="store_true")

    # the whole system on one computer, defined in its room: controller/night/cli.py
    from controller.night.cli import register as register_night

    register_night(sub)

    # the screens' verb, defined next to the screens: kiosk/cli.py
    from kiosk.cli import register as register_screens

    register_screens(sub)

    # the club database's verbs (docs/club.md), defined next to it: controller/club/cli.py
    from controller.club.cli import register as register_club

    register_club(sub)

    b = sub.add_parser("broker-config", help="Mosquitto password file, ACL and one "
                       "credentials file per client for a locked-down broker")
    b.add_argument("--tables", type=int, required=True, help="accounts table-1 … table-N")
    b.add_argument("--walls", type=int, default=1, help="wall screens: wall, wall-2 … "
                   "(default 1)")
    b.add_argument("--out", required=True, help="folder for floorman.passwd, floorman.acl "
                   "and credentials/")
    b.add_argument("--prefix", default=os.environ.get("FLOORMAN_PREFIX") or "floorman/default",
                   help="topic prefix (default: $FLOORMAN_PREFIX or floorman/default)")
    b.add_argument("--rotate", action="store_true", help="new passwords for every account")
    b.add_argument("--hasher", choices=["auto", "mosquitto_passwd", "python"], default="auto",
                   help="who hashes the passwords (auto: mosquitto_passwd when installed)")
    b.set_defaults(func=_broker_config)

    c = sub.add_parser("check", help="validate tournament files and club presets",
                       description="Validate each FILE: a tournament file, or a club preset "
                       "when it lies in a folder named clubs or in a $FLOORMAN_PRESETS folder "
                       "(or with --preset). A name without a folder that is no file here is "
                       "a shipped tournament or preset (floorman check sample).")
    c.add_argument("file", nargs="*", help="tournament file or preset (or a shipped one's name)")
    c.add_argument("--all", action="store_true", help="every shipped preset and tournament")
    kind = c.add_mutually_exclusive_group()
    kind.add_argument("--preset", dest="as_preset", action="store_const", const=True,
                      help="read every FILE as a club preset (name, start_stack and "
                      "structure may be left to the tournament file)")
    kind.add_argument("--tournament", dest="as_preset", action="store_const", const=False,
                      help="read every FILE as a tournament file")
    c.set_defaults(func=_check)

    f = sub.add_parser("files", help="the files Floorman ships (presets, tournaments, kiosk "
                       "files, systemd units, fonts) and where they are installed")
    f.add_argument("kind", nargs="*", metavar="KIND",
                   help="only these: presets, tournaments, kiosk, systemd, fonts")
    f.add_argument("--paths", action="store_true", help="only the paths, one a line")
    f.set_defaults(func=_files)

    s = sub.add_parser("simulate", help="dry-run a whole tournament without network")
    s.add_argument("file", help="the tournament file (or a shipped one's name: sample)")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true", help="one JSON object: summary, results, "
                   "moves, events")
    s.add_argument("--store", help="keep the event log in this SQLite file")
    s.add_argument("--forgetful", type=float, default=0.0, metavar="SHARE",
                   help="dealers forget \"hand done\" after this share of hands (0.3: 30 %%)")
    s.add_argument("--top", type=int, default=0, help="print only the first N results")
    s.set_defaults(func=_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # the typed verb's parser only (``floorman --help`` and the like: every verb's)
    verb = words[0] if words and not words[0].startswith("-") else None
    args = build_parser(verb).parse_args(words)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        # Ctrl-C before the command took SIGINT over (controller, kiosk and demo stop
        # cleanly on it once running): nothing was started yet, so no traceback
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
