"""The ``demo`` verb of the ``floorman`` command: the whole system on one computer.

``controller/cli.py`` builds the ``floorman`` command and registers this verb with
:func:`register`; its options are defined here, next to the code it runs. Nothing here
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
    except TimeoutError as exc:
        print(f"floorman demo: {exc}", file=sys.stderr)
        return 1
    if args.screenshots:
        print(f"{len(demo.shots)} screenshots in {args.screenshots}: {', '.join(demo.moments)}")
    return rc


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``demo`` to the ``floorman`` command's verbs."""
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
