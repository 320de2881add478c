"""The ``floorman`` command.

``floorman check FILE`` validates a tournament file; ``floorman simulate FILE
--players N --seed S`` plays a whole tournament through the real engine;
``floorman kiosk FILE --table N | --wall`` runs a table or wall screen.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _check(args: argparse.Namespace) -> int:
    from controller.config import main_check

    return main_check(args.file)


def _broker_config(args: argparse.Namespace) -> int:
    from controller.brokerconfig import write

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
    from controller.config import ConfigError, load_tournament
    from controller.engine.results import results_csv
    from controller.simulate import simulate

    try:
        settings = load_tournament(args.file)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.players < 2:
        print("floorman simulate: --players must be at least 2", file=sys.stderr)
        return 2
    sim = simulate(settings, args.players, args.seed, store=args.store or ":memory:")
    if args.json:
        json.dump(sim.as_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    s = sim.summary()
    print(f"{s['name']}: {s['players']} players, {s['entries']} entries — "
          f"champion {s['champion']}")
    width = max(len(k) for k in s)
    for key in ("hands", "moves", "balancing_moves", "tables_broken", "final_table",
                "hand_for_hand_hands", "rebuys", "reentries", "time_calls", "levels_reached",
                "events"):
        print(f"  {key.replace('_', ' '):<{width}}  {s[key]}")
    print()
    rows = sim.results[: args.top] if args.top else sim.results
    print(results_csv(rows).rstrip("\n"))
    return 0


def _controller(args: argparse.Namespace) -> int:
    import logging

    from controller.config import ConfigError, load_tournament
    from controller.mqtt import Broker
    from controller.service import serve
    from controller.store import StoreError

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_tournament(args.file)
        broker = Broker.from_env(args.broker, args.prefix, settings.broker)
    except (ConfigError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    db = args.db or str(Path(args.file).with_suffix(".sqlite"))
    try:
        return serve(settings, db, broker)
    except StoreError as exc:
        print(f"floorman controller: {exc}", file=sys.stderr)
        return 1


def _demo(args: argparse.Namespace) -> int:
    import logging

    from kiosk.app import parse_size
    from kiosk.demo import Demo, NoDisplay

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.screenshots and not args.headless:
        print("floorman demo: --screenshots needs --headless", file=sys.stderr)
        return 2
    try:
        size = parse_size(args.windowed) if args.windowed else (1920, 1080)
    except ValueError as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 2
    demo = Demo(Path(args.config), speed=args.speed, simulate=args.simulate or args.headless,
                headless=args.headless,
                screenshots=Path(args.screenshots) if args.screenshots else None,
                size=size, seed=args.seed)
    try:
        rc = demo.run(timeout=args.timeout)
    except NoDisplay as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 1
    except TimeoutError as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 1
    if args.screenshots:
        print(f"{len(demo.shots)} screenshots in {args.screenshots}: {', '.join(demo.moments)}")
    return rc


def _kiosk(args: argparse.Namespace) -> int:
    from kiosk.app import main as kiosk_main

    return kiosk_main(args.config, table=args.table, wall=args.wall, windowed=args.windowed,
                      broker=args.broker, prefix=args.prefix)


def _seconds(text: str) -> float:
    """"90", "1:30" or "-2:00" → seconds."""
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if ":" in text:
        m, _, s = text.partition(":")
        return sign * (int(m) * 60 + float(s))
    return sign * float(text)


def _director_command(args: argparse.Namespace) -> tuple[str, dict]:
    """Turn the parsed director verb into a protocol command and its arguments."""
    v = args.verb
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
        return "register", {"names": args.names, "member": not args.guest}
    if v == "late":
        return "late", {"name": " ".join(args.name), "member": not args.guest}
    if v == "bust":
        if len(args.who) == 2 and all(x.isdigit() for x in args.who):
            a: dict = {"table": int(args.who[0]), "seat": int(args.who[1])}
        else:
            a = {"player": " ".join(args.who)}
        if args.stack is not None:
            a["stack"] = args.stack
        if args.by:
            a["by"] = args.by
        return "bust", a
    if v in ("rebuy", "reentry", "seated"):
        return v, {"player": " ".join(args.name)}
    if v == "hfh":
        return "hfh", {"on": args.state == "on"}
    if v == "move":
        return "move_apply", {}
    if v == "break-table":
        return "break_table", {"table": args.table}
    if v == "time-call":
        return "time_call", {"table": args.table, "op": args.op}
    if v == "hand-done":
        return "hand_done", {"table": args.table}
    if v == "hands-left":
        return "hands_left", {"count": args.count}
    if v == "undo":
        return "undo", {} if args.event is None else {"target": args.event}
    return v.replace("-", "_"), {}


def _director(args: argparse.Namespace) -> int:
    from controller.config import ConfigError
    from controller.director import BrokerUnreachable, NoAnswer, send
    from controller.mqtt import Broker

    try:
        config = None
        if args.config:
            from controller.config import load_tournament

            config = load_tournament(args.config).broker
        broker = Broker.from_env(args.broker, args.prefix, config)
        cmd, cargs = _director_command(args)
        answer = send(broker, cmd, cargs, timeout=args.timeout)
    except (ValueError, BrokerUnreachable, NoAnswer, ConfigError) as exc:
        print(f"floorman {args.verb}: {exc}", file=sys.stderr)
        return 2
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
    else:
        print(answer.get("message", "ok"))
    return 0


def _print_results(result: dict, csv: bool) -> None:
    rows = result["rows"]
    if csv:
        import csv as _csv
        import io

        buf = io.StringIO()
        if rows:
            w = _csv.DictWriter(buf, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        sys.stdout.write(buf.getvalue())
        return
    for r in rows:
        pts = f"  {r['points']} pts" if r.get("points") else ""
        print(f"{r['place']:>4}. {r['name']}{pts}")
    if not rows:
        print("nobody has finished yet")


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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="floorman", description="Floorman tournament-floor system")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB")

    k = sub.add_parser("controller", help="run the controller service for a tournament file")
    k.add_argument("file")
    k.add_argument("--db", help="event log (default: the tournament file with .sqlite)")
    k.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or localhost:1883)")
    k.add_argument("--prefix", help="topic prefix (default: floorman/default)")
    k.set_defaults(func=_controller)

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
    d = director("late", "late registration: late NAME")
    d.add_argument("name", nargs="+")
    d.add_argument("--guest", action="store_true")
    d = director("bust", "bust TABLE SEAT, or bust NAME")
    d.add_argument("who", nargs="+")
    d.add_argument("--stack", type=int, help="chips at the start of the hand (000 9.5)")
    d.add_argument("--by", help="who knocked the player out")
    d = director("undo", "undo the last command (or --event N)")
    d.add_argument("--event", type=int)
    for v in ("rebuy", "reentry", "seated"):
        d = director(v, f"{v} NAME")
        d.add_argument("name", nargs="+")
    d = director("hfh", "hand-for-hand on|off")
    d.add_argument("state", choices=["on", "off"])
    director("moves", "the pending moves and the balancing plan")
    d = director("move", "move apply: carry out the balancing plan now")
    d.add_argument("apply", choices=["apply"])
    d = director("break-table", "break-table N")
    d.add_argument("table", type=int)
    d = director("time-call", "time-call TABLE [start|cancel]")
    d.add_argument("table", type=int)
    d.add_argument("op", nargs="?", default="start", choices=["start", "cancel", "expire"])
    d = director("hand-done", "hand-done TABLE (for tables without a button box)")
    d.add_argument("table", type=int)
    d = director("hands-left", "hands-left N: end of the day (002)")
    d.add_argument("count", type=int)
    d = director("results", "the results so far")
    d.add_argument("--csv", action="store_true")

    m = sub.add_parser("demo", help="the whole system on this computer: broker, controller, "
                       "wall and three table screens in one window")
    m.add_argument("--config", default=str(Path(__file__).resolve().parent.parent
                                           / "config/tournaments/sample.yaml"))
    m.add_argument("--speed", type=float, default=1.0, help="clock runs N times faster")
    m.add_argument("--simulate", action="store_true", help="play the dealers")
    m.add_argument("--headless", action="store_true", help="no window (implies --simulate); "
                   "exits when the tournament has a champion")
    m.add_argument("--screenshots", help="with --headless: write PNGs of every screen here")
    m.add_argument("--windowed", help="window size WxH (default 1920x1080)")
    m.add_argument("--seed", type=int, help="seed of the simulated dealers")
    m.add_argument("--timeout", type=float, help="give up after this many seconds")
    m.set_defaults(func=_demo)

    q = sub.add_parser("kiosk", help="run a table or wall screen (config/kiosk/*.yaml)")
    q.add_argument("config", help="kiosk file, e.g. config/kiosk/table.yaml")
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, metavar="N", help="the table screen of table N")
    where.add_argument("--wall", action="store_true", help="a wall screen")
    q.add_argument("--windowed", metavar="WxH", help="a window of this size, not fullscreen")
    q.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or the kiosk file)")
    q.add_argument("--prefix", help="topic prefix (default: $FLOORMAN_PREFIX or the kiosk file)")
    q.set_defaults(func=_kiosk)

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

    c = sub.add_parser("check", help="validate a tournament YAML file")
    c.add_argument("file")
    c.set_defaults(func=_check)

    s = sub.add_parser("simulate", help="dry-run a whole tournament without network")
    s.add_argument("file")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true", help="one JSON object: summary, results, "
                   "moves, events")
    s.add_argument("--store", help="keep the event log in this SQLite file")
    s.add_argument("--top", type=int, default=0, help="print only the first N results")
    s.set_defaults(func=_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        # Ctrl-C before the command took SIGINT over (controller, kiosk and demo stop
        # cleanly on it once running): nothing was started yet, so no traceback
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
