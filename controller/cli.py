"""The ``floorman`` command.

``floorman check FILE`` validates a tournament file; ``floorman simulate FILE
--players N --seed S`` plays a whole tournament through the real engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _check(args: argparse.Namespace) -> int:
    from controller.config import main_check

    return main_check(args.file)


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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="floorman", description="Floorman tournament-floor system")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB")

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
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
