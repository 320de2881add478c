"""The test files that take longest start first (issue 32.4): a pytest plugin that
``scripts/test`` loads (``-p tests.support.longest_first``).

pytest-xdist's ``--dist loadfile`` gives each worker a whole file at a time, by default the
files with the most tests first: the drills, the wheel, the demo and the installs — a few
tests each, minutes each — were handed out last and were the run's tail while the other
workers stood idle. With xdist's ``--no-loadscope-reorder`` it keeps the collection order,
and this plugin orders the collection by the seconds each file took in a recorded run
(:data:`DURATIONS`, longest first; files not in it after them, in their own order; the tests
of a file keep theirs). The order is the same on every worker and every run: it is read
from the repository, not measured anew.

``--record-file-durations FILE`` writes the seconds of this run's files (set-up, call
and tear-down of their tests; on the xdist controller, which hears every report) in the
format of :data:`DURATIONS`, to replace it after a full run.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

#: "seconds path" a line, from a full run (``scripts/test --record-file-durations FILE``)
DURATIONS = Path(__file__).resolve().parent.parent / "durations.txt"


def recorded(path: Path = DURATIONS) -> dict[str, float]:
    """File (its path in the repository, as pytest names it) → seconds; {} without it."""
    out: dict[str, float] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        seconds, _, name = line.partition(" ")
        try:
            out[name.strip()] = float(seconds)
        except ValueError:
            continue  # a line that is not "seconds path": not an order
    return out


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-file-durations", metavar="FILE", default=None,
                     help="write the seconds each test file took to FILE (tests/durations.txt)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seconds = recorded()
    if not seconds:
        return
    # a stable sort: the files in their recorded order, the tests of a file in theirs
    items.sort(key=lambda item: -seconds.get(_file(item.nodeid), 0.0))


class _Recorder:
    def __init__(self, target: Path) -> None:
        self.target = target
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[_file(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(session.config, "workerinput"):
            return  # an xdist worker: the controller writes the whole run's
        rows = sorted(self.seconds.items(), key=lambda kv: (-kv[1], kv[0]))
        self.target.write_text(
            "# seconds a test file took (set-up, call, tear-down), longest first: the order\n"
            "# scripts/test starts them in (tests/support/longest_first.py)\n"
            + "".join(f"{s:.0f} {name}\n" for name, s in rows), encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    target = config.getoption("record_file_durations", None)
    if target:
        config.pluginmanager.register(_Recorder(Path(target)), "longest-first-recorder")
