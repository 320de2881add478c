"""``scripts/install.sh``: the dry run of every role, and real installs into throwaway
roots, twice (the second run must change nothing). The installed controller's broker
files are then started as a real Mosquitto and a table's installed account logs in
through TLS with the installed CA.

The installs run from a snapshot of the source (so an edit made meanwhile cannot make
the second run differ) with ``--pip-args --no-deps``: Floorman itself is pip-installed
into the root's virtual environment (pip fetches its build backend), its dependencies
are not (pygame would be compiled from source).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.support.broker import MOSQUITTO
from tests.support.install import INSTALL, install_twice, run
from tests.support.mqtt import Probe
from tests.support.paths import ROOT
from tests.support.secure import SecureBroker, read_env

#: the verbs of a line that reports a change (or, in a dry run, one that would be made)
CHANGE_VERBS = ("created", "changed", "removed", "copied", "installed", "enabled", "disabled",
                "started", "restarted", "run", "would")


def changes(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.split(" ", 1)[0] in CHANGE_VERBS]


# ---------------------------------------------------------------------------- the script


def test_the_script_is_valid_shell():
    for script in (INSTALL, ROOT / "scripts" / "kiosk-start"):
        r = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert os.access(script, os.X_OK), f"{script} is not executable"
    if shutil.which("shellcheck"):
        r = subprocess.run(["shellcheck", str(INSTALL), str(ROOT / "scripts" / "kiosk-start")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("args", [["kiosk", "--table", "3"], ["wall"], ["wall", "--name", "wall-2"],
                                  ["controller", "--tables", "12"]])
def test_dry_run_prints_every_action_and_does_nothing(src, tmp_path, args):
    root = tmp_path / "root"
    r = run(src, *args, "--dry-run", "--root", str(root))
    lines = r.stdout.splitlines()
    would = [x for x in lines if x.startswith("would ")]
    assert would and not [x for x in changes(r.stdout) if not x.startswith("would ")]
    assert lines[-1] == f"floorman install: dry run, {len(would)} changes not made"
    assert not root.exists(), "a dry run wrote files"
    text = "\n".join(would)
    assert "would copy" in text and "/opt/floorman" in text
    if args[0] == "controller":
        for part in ("broker-config --tables 12", "/etc/mosquitto/conf.d/floorman.conf",
                     "/etc/mosquitto/floorman.passwd", "/etc/mosquitto/floorman.acl",
                     "room's CA", "floorman-controller.service"):
            assert part in text, part
    else:
        instance = "3" if args[0] == "kiosk" else args[-1]
        assert f"would enable floorman-kiosk@{instance}.service" in text
        assert "floorman-kiosk@.service" in text


def test_dry_run_on_this_machine_changes_nothing(src):
    """Without --root, against the real system: reads only (works without root too)."""
    before = {p: p.exists() for p in (Path("/etc/floorman"), Path("/opt/floorman"),
                                      Path("/etc/systemd/system/floorman-kiosk@.service"))}
    r = run(src, "kiosk", "--table", "7", "--dry-run")
    assert "floorman-kiosk@7.service" in r.stdout
    assert {p: p.exists() for p in before} == before


def test_without_systemd_units_are_enabled_but_not_started(src):
    """In a chroot or a container systemd is not PID 1: systemctl can enable a unit
    there but not start or reload one, so the installer says it skips the start
    (scripts/try-pi-arm64.sh installs into such a chroot)."""
    r = run(src, "kiosk", "--table", "7", "--dry-run")
    if Path("/run/systemd/system").is_dir():
        assert "skipped starting" not in r.stdout
    else:
        assert ("skipped starting floorman-kiosk@7.service: systemd does not run here"
                in r.stdout), r.stdout
        assert "would restart" not in r.stdout and "would start" not in r.stdout


def test_bad_arguments_are_refused(src):
    for args in (["kiosk"], ["kiosk", "--table", "0"], ["kiosk", "--table", "10000"],
                 ["wall", "--name", "lobby"], ["controller", "--tables", "x"], ["dealer"],
                 ["kiosk", "--table", "3", "--frobnicate"]):
        r = subprocess.run(["bash", str(src / "scripts/install.sh"), *args, "--dry-run"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (args, r.stdout, r.stderr)


# ---------------------------------------------------------------------------- kiosk


def test_kiosk_install_twice_changes_nothing_the_second_time(kiosk_root):
    root, first, second = kiosk_root
    assert changes(first), first
    assert changes(second) == [], second
    assert second.splitlines()[-1] == "floorman install: nothing changed"
    assert "unchanged" in second


def test_kiosk_files(kiosk_root, accounts):
    root, first, _ = kiosk_root
    etc = root / "etc/floorman"
    creds = etc / "credentials/table-3.env"
    assert read_env(creds)["FLOORMAN_USERNAME"] == "table-3"
    assert stat.S_IMODE(creds.stat().st_mode) == 0o640
    assert stat.S_IMODE((etc / "credentials").stat().st_mode) == 0o750
    assert read_env(etc / "floorman.env") == {"FLOORMAN_BROKER": "floorman.local:8883",
                                              "FLOORMAN_TLS_CA": "/etc/floorman/ca.crt"}
    assert (etc / "ca.crt").read_bytes() == (accounts / "ca.crt").read_bytes()
    assert (etc / "table.yaml").read_text() == (ROOT / "config/kiosk/table.yaml").read_text()
    cmdline = (root / "boot/firmware/cmdline.txt").read_text()
    assert cmdline.count("consoleblank=0") == 1 and cmdline.count("\n") == 1
    unit = root / "etc/systemd/system/floorman-kiosk@.service"
    assert unit.read_text() == (ROOT / "systemd/floorman-kiosk@.service").read_text()
    link = root / "etc/systemd/system/multi-user.target.wants/floorman-kiosk@3.service"
    assert os.readlink(link) == "/etc/systemd/system/floorman-kiosk@.service"
    assert os.access(root / "opt/floorman/scripts/kiosk-start", os.X_OK)
    assert os.readlink(root / "usr/local/bin/floorman") == "/opt/floorman/.venv/bin/floorman"
    # the program runs from its virtual environment, with the presets and fonts beside it
    floorman = root / "opt/floorman/.venv/bin/floorman"
    r = subprocess.run([str(floorman), "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "broker-config" in r.stdout, r.stderr
    r = subprocess.run([str(root / "opt/floorman/.venv/bin/python"), "-c",
                        "import controller, kiosk; print(controller.__file__, kiosk.__file__)"],
                       capture_output=True, text=True, timeout=60, cwd="/")
    assert r.stdout.split() == [str(root / "opt/floorman/controller/__init__.py"),
                                str(root / "opt/floorman/kiosk/__init__.py")], r.stderr
    assert (root / "opt/floorman/config/clubs/psc-five-spades.yaml").exists()
    assert (root / "opt/floorman/kiosk/fonts/DejaVuSans-Bold.ttf").exists()
    # … and finds them as package data (controller/resources.py), from any folder
    r = subprocess.run([str(floorman), "files", "--paths", "presets", "kiosk", "fonts"],
                       capture_output=True, text=True, timeout=60, cwd="/")
    assert r.returncode == 0, r.stderr
    paths = r.stdout.split()
    assert str(root / "opt/floorman/config/clubs/psc-five-spades.yaml") in paths
    assert str(root / "opt/floorman/config/kiosk/table.yaml") in paths
    assert str(root / "opt/floorman/kiosk/fonts/DejaVuSans-Bold.ttf") in paths
    r = subprocess.run([str(floorman), "check", "sample"], capture_output=True, text=True,
                       timeout=60, cwd="/")
    assert r.returncode == 0 and ": OK — " in r.stdout, (r.stdout, r.stderr)


def test_a_wrong_account_is_refused(src, accounts, tmp_path):
    r = subprocess.run(["bash", str(src / "scripts/install.sh"), "kiosk", "--table", "3",
                        "--credentials", str(accounts / "broker/credentials/table-4.env"),
                        "--root", str(tmp_path / "root"), "--dry-run"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "not the account table-3" in r.stderr


def test_moving_a_pi_to_another_table(src, accounts, kiosk_root, tmp_path):
    """The same Pi set up for table 4 afterwards: only one screen is enabled."""
    root = tmp_path / "root"
    shutil.copytree(kiosk_root[0], root, symlinks=True)
    # (the copied virtual environment points into the old root; the stamp says it is
    # complete, so the installer keeps it: only the screen changes here)
    r = run(src, "kiosk", "--table", "4", "--root", str(root), "--pip-args", "--no-deps",
            "--credentials", str(accounts / "broker/credentials/table-4.env"))
    assert "disabled floorman-kiosk@3.service" in r.stdout
    assert "enabled floorman-kiosk@4.service" in r.stdout
    wants = sorted(p.name for p in (root / "etc/systemd/system/multi-user.target.wants").iterdir())
    assert wants == ["floorman-kiosk@4.service"]
    # the broker address stays what the first install set
    assert read_env(root / "etc/floorman/floorman.env")["FLOORMAN_BROKER"] == "floorman.local:8883"


def test_wall_install(src, accounts, tmp_path):
    root = tmp_path / "root"
    first, second = install_twice(
        src, root, "wall", "--name", "wall-2", "--broker", "10.0.0.2:8883",
        "--credentials", str(accounts / "broker/credentials/wall-2.env"))
    assert changes(second) == [], second
    link = root / "etc/systemd/system/multi-user.target.wants/floorman-kiosk@wall-2.service"
    assert link.is_symlink()
    assert (root / "etc/floorman/wall.yaml").exists()
    assert read_env(root / "etc/floorman/floorman.env") == {"FLOORMAN_BROKER": "10.0.0.2:8883"}


# ---------------------------------------------------------------------------- kiosk-start


def fake_floorman(folder: Path) -> Path:
    stub = folder / "floorman"
    stub.write_text('#!/bin/sh\necho "args: $*"\necho "user: $FLOORMAN_USERNAME"\n'
                    'echo "prefix: $FLOORMAN_PREFIX"\n')
    stub.chmod(0o755)
    return stub


@pytest.mark.parametrize("instance,args,user", [
    ("3", "kiosk {etc}/table.yaml --table 3", "table-3"),
    ("wall", "kiosk {etc}/wall.yaml --wall", "wall"),
    ("wall-2", "kiosk {etc}/wall.yaml --wall", "wall-2"),
])
def test_kiosk_start_maps_the_instance(tmp_path, accounts, instance, args, user):
    etc = tmp_path / "etc"
    (etc / "credentials").mkdir(parents=True)
    for name in ("table-3", "wall", "wall-2"):
        shutil.copy(accounts / f"broker/credentials/{name}.env", etc / "credentials")
    env = {"PATH": os.environ["PATH"], "FLOORMAN": str(fake_floorman(tmp_path)),
           "FLOORMAN_ETC": str(etc)}
    r = subprocess.run([str(ROOT / "scripts/kiosk-start"), instance], capture_output=True,
                       text=True, env=env, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"args: {args.format(etc=etc)}", f"user: {user}",
                                     "prefix: floorman/default"]


@pytest.mark.parametrize("instance", ["0", "10000", "lobby", "3; rm -rf /", "wall-", ""])
def test_kiosk_start_refuses_other_instances(tmp_path, instance):
    env = {"PATH": os.environ["PATH"], "FLOORMAN": str(fake_floorman(tmp_path)),
           "FLOORMAN_ETC": str(tmp_path)}
    r = subprocess.run([str(ROOT / "scripts/kiosk-start"), instance], capture_output=True,
                       text=True, env=env, timeout=30)
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)


# ---------------------------------------------------------------------------- controller


def test_controller_install_twice_changes_nothing_the_second_time(controller_root):
    root, first, second = controller_root
    assert changes(first), first
    assert changes(second) == [], second
    assert second.splitlines()[-1] == "floorman install: nothing changed"


def test_controller_files(controller_root):
    root, first, second = controller_root
    etc, mosq = root / "etc/floorman", root / "etc/mosquitto"
    env = read_env(etc / "controller.env")
    assert env["FLOORMAN_BROKER"] == "localhost:1883"
    assert env["FLOORMAN_USERNAME"] == "controller"
    assert env["FLOORMAN_PREFIX"] == "club/friday"
    assert stat.S_IMODE((etc / "controller.env").stat().st_mode) == 0o600
    assert stat.S_IMODE((etc / "tls/ca.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((etc / "tls").stat().st_mode) == 0o700
    names = sorted(p.name for p in (etc / "broker/credentials").iterdir())
    assert names == ["console.env", "controller.env", "director.env", "table-1.env",
                     "table-2.env", "table-3.env", "table-4.env", "wall-2.env", "wall.env"]
    assert (mosq / "conf.d/floorman.conf").read_text() == \
        (ROOT / "systemd/mosquitto-floorman.conf").read_text()
    assert (mosq / "floorman.passwd").read_text() == (etc / "broker/floorman.passwd").read_text()
    assert "club/friday/cmd/table/3" in (mosq / "floorman.acl").read_text()
    assert stat.S_IMODE((mosq / "certs/floorman.key").stat().st_mode) == 0o640
    assert (etc / "ca.crt").read_text() == (etc / "broker/ca.crt").read_text()
    san = subprocess.run(["openssl", "x509", "-in", str(mosq / "certs/floorman.crt"), "-noout",
                          "-ext", "subjectAltName"], capture_output=True, text=True).stdout
    assert "DNS:floorman.local" in san and "DNS:localhost" in san and "127.0.0.1" in san
    r = subprocess.run(["openssl", "verify", "-CAfile", str(etc / "ca.crt"),
                        str(mosq / "certs/floorman.crt")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (etc / "tournament.yaml").exists()
    link = root / "etc/systemd/system/multi-user.target.wants/floorman-controller.service"
    assert os.readlink(link) == "/etc/systemd/system/floorman-controller.service"
    # the console: its own account (the director's rights), and a sign-in password of its
    # own, shown once and kept only as its hash (issue 27: it was the director's broker
    # password, in plain text in director.env)
    console = read_env(etc / "console.env")
    director = read_env(etc / "broker/credentials/director.env")
    assert console["FLOORMAN_USERNAME"] == "console"
    assert console["FLOORMAN_PASSWORD"] == read_env(
        etc / "broker/credentials/console.env")["FLOORMAN_PASSWORD"]
    assert stat.S_IMODE((etc / "console.env").stat().st_mode) == 0o600
    from controller.console import auth

    hashed = auth.read_password(etc / "console.passwd")
    shown = [line.rsplit(" ", 1)[1] for line in first.splitlines()
             if line.startswith("the director's console: first sign-in password ")]
    assert len(shown) == 1 and len(shown[0]) >= auth.MIN_PASSWORD
    assert auth.password_ok(shown[0], hashed)
    assert not auth.password_ok(director["FLOORMAN_PASSWORD"], hashed)
    assert shown[0] not in second  # shown once: a second run keeps it and says nothing of it
    for path in root.rglob("*"):  # kept nowhere in plain text
        if path.is_file() and not path.is_symlink() and ".venv" not in path.parts:
            assert shown[0].encode() not in path.read_bytes(), path
    link = root / "etc/systemd/system/multi-user.target.wants/floorman-console.service"
    assert os.readlink(link) == "/etc/systemd/system/floorman-console.service"


def test_controller_reinstall_keeps_the_room(src, controller_root, tmp_path):
    """A second run without the options keeps tables, walls and prefix; --tables 5 adds
    one account and changes the broker's files, and nothing else."""
    root = tmp_path / "root"
    shutil.copytree(controller_root[0], root, symlinks=True)
    r = run(src, "controller", "--root", str(root), "--pip-args", "--no-deps",
            "--san", "floorman.local")
    assert changes(r.stdout) == [], r.stdout
    r = run(src, "controller", "--tables", "5", "--root", str(root), "--pip-args", "--no-deps",
            "--san", "floorman.local")
    changed = {line.split(" ")[1] for line in changes(r.stdout)}
    assert changed == {str(root / "etc/floorman/broker/credentials/table-5.env"),
                       str(root / "etc/floorman/broker/floorman.passwd"),
                       str(root / "etc/floorman/broker/floorman.acl"),
                       str(root / "etc/mosquitto/floorman.passwd"),
                       str(root / "etc/mosquitto/floorman.acl")}, r.stdout


@pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed")
def test_the_installed_broker_works(controller_root, tmp_path):
    """Mosquitto with the installed drop-in, accounts, ACL and certificate: the installed
    account of table 2 logs in over TLS trusting the installed CA; nobody else does."""
    root, _, _ = controller_root
    mosq, etc = root / "etc/mosquitto", root / "etc/floorman"
    paths = {"passwd": mosq / "floorman.passwd", "acl": mosq / "floorman.acl",
             "cert": mosq / "certs/floorman.crt", "key": mosq / "certs/floorman.key",
             "ca": etc / "ca.crt"}
    b = SecureBroker(tmp_path, prefix="club/friday", paths=paths).start()
    try:
        acc = read_env(etc / "broker/credentials/table-2.env")
        ok = Probe(f"localhost:{b.tls_port}", username="table-2",
                   password=acc["FLOORMAN_PASSWORD"], ca=etc / "ca.crt", client_id="table-2",
                   wait=False)
        assert ok.connected(), b.log_text()
        ok.publish("club/friday/presence/table-2", b'{"v":1,"online":true,"role":"table"}')
        ok.close()
        assert "Denied" not in b.log_text()
        anon = Probe(f"localhost:{b.tls_port}", ca=etc / "ca.crt", wait=False)
        assert not anon.connected()
        anon.close()
        ctl = read_env(etc / "controller.env")
        local = Probe(f"127.0.0.1:{b.plain_port}", username="controller",
                      password=ctl["FLOORMAN_PASSWORD"], wait=False)
        assert local.connected()
        local.close()
    finally:
        b.stop()
