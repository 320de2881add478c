"""One table's account floods the controller; the other tables press meanwhile (issue 27.4).

The hostile-client drill's setting (tests/drills/test_drill_hostile_client.py,
tests/support/hostile.py): the shipped broker configuration with accounts, ACL and TLS,
the controller as the unit runs it, 36 players at 4 tables. Table 3's account floods as
fast as paho sends (no limit on the messages in flight), in a process of its own; tables
1, 2 and 4 press at once, each in its own thread one press at a time at 80 % of its rate,
for ``--seconds`` from the flood's start. A press's time runs from its publish to its
answer's arrival in the client's network thread. Each scenario runs on a fresh broker and
controller; ``--runs`` times, in turn.

scenarios: ``quiet`` (no flood), ``presses`` (5,000 state-changing presses on
``cmd/table/3``, QoS 1), ``time`` (20,000 clock-sync requests on ``time/request/table-3``,
QoS 0). ``--code DIR``: run the controller from another checkout (``git archive REV |
tar -x -C DIR``), to measure the code before a change on the same machine in turn.

    python bench/flood.py [--runs 3] [--seconds 4] [--scenarios quiet presses time]
                          [--code DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import drill as dr  # noqa: E402
from tests.support import processes  # noqa: E402
from tests.support.hostile import Flooder, Room, figures, login, pressing  # noqa: E402
from tests.support.waiting import wait_for  # noqa: E402

FLOODS = {"quiet": ("", 0), "presses": ("press", 5000), "time": ("time", 20000)}


def scenario(name: str, seconds: float) -> dict[str, object]:
    kind, count = FLOODS[name]
    tmp = Path(tempfile.mkdtemp(prefix="floorman-flood-"))
    room = Room(tmp, dr.write_tournament(tmp / "flood.yaml", "Bench: a flood"))
    others = {}
    try:
        wait_for(lambda: "connected to broker" in room.ctl.output(), 60, "the controller")
        room.open()
        others = {n: login(room.b, f"table-{n}") for n in (1, 2, 4)}
        for n, probe in others.items():
            assert probe.connected()
            probe.subscribe(room.top.ack(f"table-{n}"))
        hands = room.state()["table/3"]["hands"]
        flooder = Flooder(room, kind, count) if kind else None
        try:
            if flooder is not None:
                flooder.go()
            during = pressing(room, others, seconds)
            sent_s, answered = flooder.result() if flooder is not None else (0.0, 0)
        finally:
            if flooder is not None:
                flooder.kill()
        time.sleep(1.0)
        taken = room.state()["table/3"]["hands"] - hands
        return {"scenario": name, "flood": count, "sent_s": sent_s,
                "flooder_got": answered if kind == "time" else taken,
                "presses": len(during), **figures(during),
                "alive": room.ctl.alive}
    finally:
        for probe in others.values():
            probe.close()
        room.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--scenarios", nargs="+", choices=sorted(FLOODS),
                    default=["quiet", "presses", "time"])
    ap.add_argument("--code", type=Path, help="the checkout the controller runs from")
    args = ap.parse_args()
    if args.code is not None:
        processes.ROOT = args.code.resolve()  # the controller's working folder: its code
    rows = []
    for run in range(1, args.runs + 1):
        for name in args.scenarios:
            r = scenario(name, args.seconds)
            rows.append({"run": run, **r})
            print(f"run {run} {name}: {r}", file=sys.stderr, flush=True)
    print(f"\ncontroller code: {args.code or 'this checkout'}; the other tables pressing "
          f"{args.seconds:g} s from the flood's start\n")
    print("| run | flood | sent in | table 3 got | others' presses | p50 ms | p99 ms | max ms "
          "| controller alive |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        flood = "none" if not r["flood"] else f"{r['flood']:,} {r['scenario']}"
        print(f"| {r['run']} | {flood} | {r['sent_s']:.2f} s | {r['flooder_got']} | "
              f"{r['presses']} | {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} | "
              f"{'yes' if r['alive'] else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
