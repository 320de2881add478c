"""The screens' verb of the ``floorman`` command: ``floorman kiosk`` (a table or wall
screen).

``controller/cli.py`` builds the ``floorman`` command and registers this verb with
:func:`register`; its options are defined here, next to the code they run. Nothing
here imports pygame before a verb runs (``floorman --help`` stays fast).
"""

from __future__ import annotations

import argparse


def _kiosk(args: argparse.Namespace) -> int:
    from controller import resources
    from kiosk.app import main as kiosk_main

    config = resources.resolve(args.config or ("wall" if args.wall else "table"), "kiosk")
    return kiosk_main(str(config), table=args.table, wall=args.wall, windowed=args.windowed,
                      broker=args.broker, prefix=args.prefix, join=args.join)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``kiosk`` to the ``floorman`` command's verbs."""
    q = sub.add_parser("kiosk", help="run a table or wall screen (a kiosk file, or a shipped "
                       "one: table, wall, desktop)")
    q.add_argument("config", nargs="?", help="kiosk file, e.g. /etc/floorman/table.yaml, or "
                   "the name of a shipped one: table, wall, desktop (floorman files kiosk; "
                   "default: table, or wall with --wall)")
    where = q.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, metavar="N", help="the table screen of table N")
    where.add_argument("--wall", action="store_true", help="a wall screen")
    q.add_argument("--windowed", metavar="WxH", help="a window of this size, not fullscreen")
    q.add_argument("--broker", help="host:port (default: $FLOORMAN_BROKER or the kiosk file)")
    q.add_argument("--prefix", help="topic prefix (default: $FLOORMAN_PREFIX or the kiosk file)")
    q.add_argument("--join", metavar="CODE", help="the join code floorman night printed "
                   "(default: $FLOORMAN_JOIN); with broker: auto, the screen gets its own "
                   "account with it")
    q.set_defaults(func=_kiosk)
