"""Every verb's ``--help`` prints (argparse formats each help text with ``%``: a bare
"10 % played for" in one verb's help made ``floorman --help`` itself a traceback)."""

from __future__ import annotations

import argparse

from controller.cli import build_parser


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_every_verbs_help_formats():
    seen = []
    for path, parser in _parsers(build_parser()):
        text = parser.format_help()  # raises on a help text argparse cannot format
        assert text.startswith("usage: floorman"), path
        seen.append(" ".join(path))
    # the verbs of every room are there (the director's, the club's, the night's)
    assert {"", "status", "bust", "deal", "club", "club standings", "night"} <= set(seen), seen
