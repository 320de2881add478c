"""The ``night`` and ``demo`` verbs of the ``floorman`` command: a real night on this
computer, and the whole system on one computer as a demo.

``controller/cli.py`` builds the ``floorman`` command and registers these verbs with
:func:`register`; their options are defined here, next to the code it runs. Nothing here
imports pygame or the service before the verb runs (``floorman --help`` stays fast).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _demo(args: argparse.Namespace) -> int:
    import logging

    from controller import resources
    from controller.broker.local import missing_broker

    if args.screenshots and not args.headless:
        print("floorman demo: --screenshots needs --headless", file=sys.stderr)
        return 2
    from kiosk.app import parse_size

    try:
        size = parse_size(args.windowed) if args.windowed else (1920, 1080)
    except ValueError as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 2
    config = (resources.resolve(args.config, "tournaments") if args.config
              else resources.sample_tournament())
    if not config.is_file():
        print(f"floorman demo: {config}: file not found (the shipped tournaments: "
              f"{', '.join(resources.names('tournaments'))})", file=sys.stderr)
        return 2
    why = missing_broker()
    if why:
        print(f"floorman demo: {why}", file=sys.stderr)
        return 2

    from controller.night.demo import Demo, NoDisplay

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    demo = Demo(config, speed=args.speed, simulate=args.simulate or args.headless,
                headless=args.headless,
                screenshots=Path(args.screenshots) if args.screenshots else None,
                size=size, seed=args.seed)
    try:
        rc = demo.run(timeout=args.timeout)
    except NoDisplay as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 1
    except (TimeoutError, RuntimeError) as exc:  # the broker that did not start, say
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 1
    if args.screenshots:
        print(f"{len(demo.shots)} screenshots in {args.screenshots}: {', '.join(demo.moments)}")
    return rc


def _night(args: argparse.Namespace) -> int:
    import logging

    from controller import resources
    from controller.broker.local import missing_broker
    from controller.config import ConfigError

    config = resources.resolve(args.tournament, "tournaments")
    if not config.is_file():
        print(f"floorman night: {config}: file not found (the shipped tournaments: "
              f"{', '.join(resources.names('tournaments'))})", file=sys.stderr)
        return 2
    why = missing_broker()
    if why:
        print(f"floorman night: {why}", file=sys.stderr)
        return 2
    from controller.log.store import StoreError
    from controller.night.night import Night

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    night = Night(config, state=Path(args.state) if args.state else None, tables=args.tables,
                  port=args.port, console=args.console_port,
                  prefer="amqtt" if args.embedded else "mosquitto")
    try:
        return night.run()
    except (ConfigError, ValueError) as exc:
        print(f"floorman night: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"floorman night: {exc}", file=sys.stderr)
        return exc.exit_code
    except RuntimeError as exc:
        print(f"floorman night: {exc}", file=sys.stderr)
        return 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``night`` and ``demo`` to the ``floorman`` command's verbs."""
    n = sub.add_parser("night", help="a real night on this computer: broker, accounts, "
                       "controller, console; screens find it on the network")
    n.add_argument("tournament", nargs="?", default="sample", help="the tournament file, or "
                   "the name of a shipped one (default: sample)")
    n.add_argument("--tables", type=int, default=40, help="table accounts to make (40)")
    n.add_argument("--port", type=int, default=1883, help="the broker's port when it is free "
                   "(1883; else a free one, which the screens find all the same)")
    n.add_argument("--console-port", type=int, default=8080, help="the console's port when "
                   "it is free (8080)")
    n.add_argument("--state", help="the state folder (default: $XDG_STATE_HOME/floorman or "
                   "~/.local/state/floorman)")
    n.add_argument("--embedded", action="store_true", help="the embedded broker (amqtt) "
                   "even where Mosquitto is installed")
    n.set_defaults(func=_night)

    m = sub.add_parser("demo", help="the whole system on this computer: broker, controller, "
                       "wall and three table screens in one window")
    m.add_argument("--config", help="the tournament file, or the name of a shipped one "
                   "(default: sample, 27 players of PSC Five Spades)")
    m.add_argument("--speed", type=float, default=1.0, help="clock runs N times faster")
    m.add_argument("--simulate", action="store_true", help="play the dealers")
    m.add_argument("--headless", action="store_true", help="no window (implies --simulate); "
                   "exits when the tournament has a champion")
    m.add_argument("--screenshots", help="with --headless: write PNGs of every screen here")
    m.add_argument("--windowed", help="window size WxH (default 1920x1080)")
    m.add_argument("--seed", type=int, help="seed of the simulated dealers")
    m.add_argument("--timeout", type=float, help="give up after this many seconds")
    m.set_defaults(func=_demo)
