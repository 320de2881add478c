"""``kiosk`` uses only public names of ``controller``: no ``from controller.x import _y``
and no ``module._y`` on a controller module (issue "one shape for the core")."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.source import parse

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"


def private_uses(source: str) -> list[str]:
    """Every private name of ``controller`` that ``source`` imports or reads, as text."""
    tree = parse(source)
    modules: set[str] = set()  # local names bound to a controller module
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "controller":
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                else:  # may be a module (from controller import protocol)
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "controller":
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: import {alias.name}")
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda f: int(f.split(':')[0].split()[1]))


def test_the_checker_finds_private_names():
    src = ("from controller.config import _Node, LANGUAGES\nfrom controller import protocol\n"
           "import controller.wire.mqtt\nprotocol._CLIENT.match('x')\n"
           "controller.wire.mqtt._no_delay\n"
           "protocol.CLIENT_ID.match('x')\n")
    assert private_uses(src) == ["line 1: from controller.config import _Node",
                                 "line 4: protocol._CLIENT",
                                 "line 5: controller.wire.mqtt._no_delay"]


def test_kiosk_imports_no_private_names_of_controller():
    files = sorted(KIOSK.rglob("*.py"))
    assert files
    found = {str(f.relative_to(KIOSK.parent)): private_uses(f.read_text(encoding="utf-8"))
             for f in files}
    assert {f: uses for f, uses in found.items() if uses} == {}
