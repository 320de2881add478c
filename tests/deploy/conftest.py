"""Fixtures of the deployment tests, over tests/support (secure.py: the locked-down
broker; install.py: the installer)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.broker import MOSQUITTO
from tests.support.install import install_twice
from tests.support.paths import ROOT
from tests.support.secure import OPENSSL, SecureBroker


@pytest.fixture
def secure_broker(tmp_path: Path) -> Iterator[SecureBroker]:
    if MOSQUITTO is None or OPENSSL is None:
        pytest.skip("mosquitto and openssl are needed")
    b = SecureBroker(tmp_path).start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def src(tmp_path_factory) -> Path:
    """A snapshot of what the installer copies (and the installer itself)."""
    dest = tmp_path_factory.mktemp("src")
    for name in ("controller", "kiosk", "config", "docs", "scripts", "systemd"):
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.sqlite*"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="session")
def accounts(tmp_path_factory) -> Path:
    """What the controller hands out: accounts (broker-config) and a CA certificate."""
    from controller.broker import accounts as brokerconfig

    out = tmp_path_factory.mktemp("handout")
    brokerconfig.write(out / "broker", 4, walls=2, hash_with="python")
    (out / "ca.crt").write_text("-----BEGIN CERTIFICATE-----\ntest\n-----END CERTIFICATE-----\n")
    return out


@pytest.fixture(scope="session")
def kiosk_root(src, accounts, tmp_path_factory):
    root = tmp_path_factory.mktemp("kiosk-root")
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait\n")
    first, second = install_twice(
        src, root, "kiosk", "--table", "3", "--broker", "floorman.local",
        "--credentials", str(accounts / "broker/credentials/table-3.env"),
        "--ca", str(accounts / "ca.crt"))
    return root, first, second


@pytest.fixture(scope="session")
def controller_root(src, tmp_path_factory):
    if OPENSSL is None:
        pytest.skip("openssl is needed")
    root = tmp_path_factory.mktemp("controller-root")
    first, second = install_twice(src, root, "controller", "--tables", "4", "--walls", "2",
                                  "--prefix", "club/friday", "--san", "floorman.local")
    return root, first, second
