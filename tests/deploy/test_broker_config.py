"""``floorman broker-config``: accounts, password hashes, the ACL, idempotency."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.broker import accounts as brokerconfig
from controller.broker.accounts import check_password, hash_password
from tests.support.paths import ROOT
from tests.support.secure import read_env


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller", "broker-config", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_accounts_of_a_room():
    names = [c.name for c in brokerconfig.clients(3, walls=2)]
    assert names == ["controller", "director", "console", "table-1", "table-2", "table-3",
                     "wall", "wall-2"]
    with pytest.raises(ValueError):
        brokerconfig.clients(0)
    # a festival's 1,000 tables and more (issue 15): each table its own account
    assert brokerconfig.clients(1000)[-2] == brokerconfig.Client("table-1000", "table", 1000)
    with pytest.raises(ValueError):
        brokerconfig.clients(10000)


def test_acl_gives_each_account_only_its_own_topics():
    acl = brokerconfig.acl_text("club/fri", brokerconfig.clients(4))
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in acl.split("\n\n")
              if b.startswith("user ")}
    rules = {user[5:]: sorted(line for line in lines if not line.startswith("#"))
             for user, lines in blocks.items()}
    assert rules["table-3"] == sorted([
        "topic write club/fri/cmd/table/3",
        "topic write club/fri/presence/table-3",
        "topic write club/fri/time/request/table-3",
        "topic read club/fri/state/#",
        "topic read club/fri/console/public",
        "topic read club/fri/ack/table-3",
        "topic read club/fri/time/response/table-3",
    ])
    assert rules["wall"] == sorted([
        "topic write club/fri/presence/wall",
        "topic write club/fri/time/request/wall",
        "topic read club/fri/state/#",
        "topic read club/fri/console/public",
        "topic read club/fri/ack/wall",
        "topic read club/fri/time/response/wall",
    ])
    # the director's tools (the CLI, the console) read the state and whether the controller
    # is there (the console's "controller offline"); the console publishes its players'
    # page for the QR code on the wall (issue 12), which every screen may read
    assert rules["director"] == sorted(["topic write club/fri/cmd/director",
                                        "topic read club/fri/state/#",
                                        "topic read club/fri/presence/controller"])
    # the controller also reads the retained state (to clear a past tournament's) and
    # writes the command topics (to clear a retained press or director's command: issue
    # 27.6, the director's stayed on the broker for ever)
    assert rules["controller"] == sorted([
        "topic readwrite club/fri/state/#",
        "topic write club/fri/ack/+",
        "topic write club/fri/time/response/+",
        "topic write club/fri/presence/controller",
        "topic read club/fri/cmd/#",
        "topic write club/fri/cmd/table/+",
        "topic write club/fri/cmd/director",
        "topic read club/fri/time/request/+",
        "topic read club/fri/presence/+",
    ])
    assert {u for u, lines in rules.items()
            if "topic write club/fri/console/public" in lines} == {"console"}
    # only the controller writes state, acks and clock answers
    writers = {user for user, lines in rules.items()
               for line in lines if line.startswith("topic write club/fri/state")
               or line.startswith("topic write club/fri/ack")
               or line.startswith("topic write club/fri/time/response")}
    assert writers == {"controller"}
    # only the director's accounts (its tools, its console) write director commands, and
    # the console has the director's rights under its own name (no shared client id); the
    # controller writes there only to clear a retained command (it handles none it sends)
    assert {u for u, lines in rules.items()
            if "topic write club/fri/cmd/director" in lines} == {"director", "console",
                                                                 "controller"}
    assert rules["console"] == sorted([*rules["director"],
                                       "topic write club/fri/console/public"])
    # no account may write with a wildcard except the controller
    assert not any("+" in line or "#" in line for u, lines in rules.items() if u != "controller"
                   for line in lines if line.startswith("topic write"))
    # the director's random client ids read their answers through one pattern, and it
    # is the only pattern (patterns apply to every account)
    patterns = [line for line in acl.splitlines() if line.startswith("pattern")]
    assert patterns == ["pattern read club/fri/ack/%c"]


@pytest.mark.parametrize("prefix", ["a/#", "a/+/b", "", "a b", "a//b", "/a", "a/"])
def test_bad_prefixes_are_refused(prefix):
    with pytest.raises(ValueError):
        brokerconfig.acl_text(prefix, brokerconfig.clients(1))


def test_own_hashes_are_mosquittos_format():
    h = hash_password("s3cret", salt=b"0123456789ab", iterations=101)
    assert h.startswith("$7$101$")
    assert check_password("s3cret", h)
    assert not check_password("s3cret!", h)
    assert not check_password("s3cret", "$7$garbage")
    assert not check_password("s3cret", "plain")


@pytest.mark.skipif(brokerconfig.mosquitto_passwd() is None, reason="no mosquitto_passwd")
def test_mosquitto_passwd_hashes_check_with_ours():
    h = brokerconfig.hash_with_mosquitto_passwd(brokerconfig.mosquitto_passwd(), "table-3",
                                                "pass word")
    assert h.startswith("$7$")
    assert check_password("pass word", h)
    assert not check_password("pass-word", h)


@pytest.mark.parametrize("hasher", ["python", "auto"])
def test_write_is_idempotent_and_keeps_passwords(tmp_path, hasher):
    out = tmp_path / "broker"
    first = brokerconfig.write(out, 3, prefix="club/fri", hash_with=hasher)
    assert {s for s, _ in first} == {"created"}
    accounts = {p.stem: read_env(p) for p in (out / "credentials").glob("*.env")}
    assert set(accounts) == {"controller", "director", "console", "table-1", "table-2",
                             "table-3", "wall"}
    assert accounts["table-2"]["FLOORMAN_USERNAME"] == "table-2"
    assert accounts["table-2"]["FLOORMAN_PREFIX"] == "club/fri"
    assert len({a["FLOORMAN_PASSWORD"] for a in accounts.values()}) == 7  # all different
    passwd = dict(line.split(":", 1) for line in (out / "floorman.passwd").read_text().split())
    for name, acc in accounts.items():
        assert check_password(acc["FLOORMAN_PASSWORD"], passwd[name])

    files = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    second = brokerconfig.write(out, 3, prefix="club/fri", hash_with=hasher)
    assert {s for s, _ in second} == {"unchanged"}
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == files

    # secrets are closed to others; the ACL is not secret
    assert stat.S_IMODE((out / "floorman.passwd").stat().st_mode) == 0o640
    assert stat.S_IMODE((out / "credentials" / "table-1.env").stat().st_mode) == 0o640
    assert stat.S_IMODE((out / "credentials").stat().st_mode) == 0o750


def test_fewer_tables_remove_accounts_and_rotate_makes_new_passwords(tmp_path):
    out = tmp_path / "broker"
    brokerconfig.write(out, 3, hash_with="python")
    old = read_env(out / "credentials" / "table-1.env")["FLOORMAN_PASSWORD"]
    report = dict((p.name, s) for s, p in brokerconfig.write(out, 2, hash_with="python"))
    assert report["table-3.env"] == "removed"
    assert report["floorman.passwd"] == "changed"
    assert not (out / "credentials" / "table-3.env").exists()
    assert "table-3:" not in (out / "floorman.passwd").read_text()
    assert "table-3" not in (out / "floorman.acl").read_text()

    report = dict((p.name, s) for s, p in brokerconfig.write(out, 2, hash_with="python",
                                                              rotate=True))
    assert report["table-1.env"] == "changed"
    new = read_env(out / "credentials" / "table-1.env")["FLOORMAN_PASSWORD"]
    assert new != old
    line = next(x for x in (out / "floorman.passwd").read_text().splitlines()
                if x.startswith("table-1:"))
    assert check_password(new, line.split(":", 1)[1])
    assert not check_password(old, line.split(":", 1)[1])


def test_the_command_line(tmp_path):
    out = tmp_path / "b"
    r = run_cli("--tables", "2", "--walls", "0", "--out", str(out), "--prefix", "x/y")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"created {out}/credentials/{n}.env" for n in
                                     ("controller", "director", "console", "table-1",
                                      "table-2")] + [
        f"created {out}/floorman.passwd", f"created {out}/floorman.acl"]
    r = run_cli("--tables", "2", "--walls", "0", "--out", str(out), "--prefix", "x/y")
    assert r.returncode == 0 and all(x.startswith("unchanged ") for x in r.stdout.splitlines())
    r = run_cli("--tables", "2", "--out", str(out), "--prefix", "x/#")
    assert r.returncode == 2 and "prefix" in r.stderr
    assert Path(out / "floorman.acl").read_text().count("x/y/") > 0


def test_the_shipped_broker_binds_ids_and_limits_sizes():
    """Issue 11.1 and 11.10: ``use_username_as_clientid`` is a setting of each listener
    in Mosquitto 2.0 (before the first listener it binds nobody: the review's attack
    worked with it there), and the payload limit is the one the code knows."""
    from controller.wire.protocol import BROKER_MESSAGE_LIMIT

    lines = [ln.strip() for ln in (ROOT / "systemd" / "mosquitto-floorman.conf")
             .read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    listeners = [i for i, ln in enumerate(lines) if ln.startswith("listener ")]
    assert len(listeners) == 2
    for start, end in zip(listeners, [*listeners[1:], len(lines)], strict=True):
        assert "use_username_as_clientid true" in lines[start:end], lines[start]
    assert f"message_size_limit {BROKER_MESSAGE_LIMIT}" in lines
    assert "max_queued_messages 5000" in lines
