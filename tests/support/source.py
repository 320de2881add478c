"""Python source read as a tree, for the tests that check the code itself."""

from __future__ import annotations

import ast


def parse(source: str, tries: int = 5) -> ast.Module:
    """``ast.parse(source)``, asked again after CPython 3.11's spurious ``SystemError: AST
    constructor recursion depth mismatch``: the AST builder's depth counter is shared by the
    interpreter's threads (cpython gh-106905, fixed in 3.12), and a test worker has other
    threads (a broker's loop, paho's) that may build a tree at the same moment. Once seen in
    a whole run of the suite (tests/kiosk/test_no_private_imports.py)."""
    for attempt in range(tries):
        try:
            return ast.parse(source)
        except SystemError:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")
