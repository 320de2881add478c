"""The systemd units: what they say, and ``systemd-analyze verify`` on them as the
installer put them into a throwaway root (their ExecStart paths point into that root
for the check; everything else is verified as shipped)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.paths import ROOT

ANALYZE = shutil.which("systemd-analyze")
KIOSK = ROOT / "systemd" / "floorman-kiosk@.service"
CONTROLLER = ROOT / "systemd" / "floorman-controller.service"
CONSOLE = ROOT / "systemd" / "floorman-console.service"


def unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file as {section: {key: [values]}} (keys may repeat)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out[section] = {}
            continue
        key, _, value = line.partition("=")
        assert section is not None
        out[section].setdefault(key, []).append(value)
    return out


def test_kiosk_unit_runs_the_screen_on_tty1_as_floorman():
    u = unit(KIOSK)
    s = u["Service"]
    assert s["User"] == ["floorman"] and s["Group"] == ["floorman"]
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Environment"]
    assert s["TTYPath"] == ["/dev/tty1"] and s["StandardInput"] == ["tty"]
    # with a tty as input the output would go there too: the journal takes it
    assert s["StandardOutput"] == ["journal"] and s["StandardError"] == ["journal"]
    assert u["Unit"]["Conflicts"] == ["getty@tty1.service"]
    assert s["Restart"] == ["on-failure"]
    assert s["ExecStart"] == ["/opt/floorman/scripts/kiosk-start %i"]
    assert any("setterm" in x and "--blank 0" in x for x in s["ExecStartPre"])
    assert all(x.startswith("-") for x in s["ExecStartPre"])  # never keeps the screen off
    assert u["Install"]["WantedBy"] == ["multi-user.target"]
    # lgpio (gpiozero on Bookworm) needs a writable working directory for its pipes
    assert s["RuntimeDirectory"] == ["floorman-kiosk-%i"]
    assert s["WorkingDirectory"] == ["%t/floorman-kiosk-%i"]
    # what the unit starts is shipped and installed
    assert (ROOT / "scripts" / "kiosk-start").exists()


def test_controller_unit_reads_the_installed_files():
    s = unit(CONTROLLER)["Service"]
    assert s["User"] == ["floorman"]
    assert s["EnvironmentFile"] == ["-/etc/floorman/controller.env"]
    assert s["ExecStart"][0].startswith("/opt/floorman/.venv/bin/floorman controller "
                                        "/etc/floorman/tournament.yaml")


def test_a_failure_that_cannot_heal_is_not_restarted():
    """A bad file or a damaged log fails the same way every two seconds: the unit stops and
    says why; so does another controller on the prefix (a retry would throw it off the
    broker each time); a held log, a full disk or a screen not there yet are retried."""
    from controller.log.store import EXIT_DAMAGED, EXIT_LOCKED, EXIT_NOT_A_LOG, EXIT_UNWRITABLE
    from controller.service.core import EXIT_RIVAL
    from kiosk.app import EXIT_NO_SCREEN

    controller = set(unit(CONTROLLER)["Service"]["RestartPreventExitStatus"][0].split())
    assert controller == {"1", str(EXIT_NOT_A_LOG), str(EXIT_DAMAGED), str(EXIT_RIVAL)}
    assert not {str(EXIT_LOCKED), str(EXIT_UNWRITABLE)} & controller
    kiosk = set(unit(KIOSK)["Service"]["RestartPreventExitStatus"][0].split())
    assert kiosk == {"1", "2"} and str(EXIT_NO_SCREEN) not in kiosk


def test_console_unit_serves_with_the_directors_account():
    s = unit(CONSOLE)["Service"]
    assert s["User"] == ["floorman"]
    assert s["EnvironmentFile"] == ["-/etc/floorman/console.env"]
    assert s["ExecStart"] == ["/opt/floorman/.venv/bin/floorman console --listen 0.0.0.0:8080 "
                              "--password-file /etc/floorman/console.passwd "
                              "--requests /var/lib/floorman-console/requests.json"]
    # the players' registration requests outlive a restart, in a folder systemd makes
    # writable for the console alone (ProtectSystem=strict leaves the rest read-only)
    assert s["StateDirectory"] == ["floorman-console"]
    assert s["StateDirectoryMode"] == ["0700"]
    assert s["Restart"] == ["on-failure"]


def test_units_parse_as_ini():
    for path in (KIOSK, CONTROLLER, CONSOLE):
        cp = configparser.ConfigParser(strict=False, interpolation=None)
        cp.read_string(path.read_text())
        assert {"Unit", "Service", "Install"} <= set(cp.sections())


def verify(units: list[Path], tmp: Path, root: Path) -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` on copies whose /opt/floorman paths point into ``root``."""
    copies = []
    for u in units:
        dest = tmp / u.name
        dest.write_text(u.read_text().replace("/opt/floorman", str(root / "opt/floorman")))
        copies.append(str(dest))
    return subprocess.run([ANALYZE, "verify", *copies], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_installed_kiosk_units_verify(kiosk_root, tmp_path):
    root = kiosk_root[0]
    template = root / "etc/systemd/system/floorman-kiosk@.service"
    instances = []
    for instance in ("3", "wall", "wall-2"):
        dest = tmp_path / "src" / f"floorman-kiosk@{instance}.service"
        dest.parent.mkdir(exist_ok=True)
        shutil.copy(template, dest)
        instances.append(dest)
    r = verify(instances, tmp_path, root)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "floorman" not in r.stderr, r.stderr  # no warning about our units at all


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_installed_controller_unit_verifies(controller_root, tmp_path):
    root = controller_root[0]
    r = verify([root / "etc/systemd/system/floorman-controller.service",
                root / "etc/systemd/system/floorman-console.service"], tmp_path, root)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "floorman" not in r.stderr, r.stderr


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_verify_catches_a_missing_program(tmp_path):
    """The check itself works: a unit whose ExecStart does not exist fails it."""
    dest = tmp_path / "floorman-kiosk@3.service"
    shutil.copy(KIOSK, dest)
    r = subprocess.run([ANALYZE, "verify", str(dest)], capture_output=True, text=True,
                       timeout=120)
    if Path("/opt/floorman/scripts/kiosk-start").exists():
        pytest.skip("Floorman is installed on this machine")
    assert r.returncode != 0 and "kiosk-start" in r.stderr


# ------------------------------------------------------------------ exposure (issue 11.12)

#: the highest ``systemd-analyze security`` exposure each unit may have (docs/security.md)
EXPOSURE = {"floorman-controller.service": 4.5, "floorman-kiosk@3.service": 6.0,
            "floorman-console.service": 4.5}
SOURCES = {"floorman-controller.service": CONTROLLER, "floorman-kiosk@3.service": KIOSK,
           "floorman-console.service": CONSOLE}


def exposure(source: Path, name: str, tmp: Path) -> tuple[float, str]:
    """``systemd-analyze security --offline=yes`` of ``source`` copied as ``name`` (a
    template is rated as one of its instances): (score, output)."""
    dest = tmp / name
    dest.write_text(source.read_text())
    r = subprocess.run([ANALYZE or "systemd-analyze", "security", "--offline=yes",
                        "--no-pager", dest.name], capture_output=True, text=True, timeout=120,
                       cwd=tmp)
    if "--offline" in r.stderr and r.returncode != 0:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")
    for line in r.stdout.splitlines():
        if "Overall exposure level" in line:
            return float(line.split(":")[1].split()[0]), r.stdout
    raise AssertionError(r.stdout + r.stderr)


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("name", sorted(EXPOSURE))
def test_units_are_hardened(name, tmp_path):
    """Issue 11.12: both units were rated 8.5 EXPOSED. The controller needs its state
    folder and the network; a kiosk also its screen, keyboard, GPIO and sound devices.
    Issue 27.6: the console, the one unit listening on the club's network, was 8.5 too;
    it needs the network and its password file."""
    source = SOURCES[name]
    score, report = exposure(source, name, tmp_path)
    print(f"{name}: {score}")
    assert score <= EXPOSURE[name], report
    s = unit(source)["Service"]
    assert s["UMask"] == ["0077"]  # the event log and its backups: not world-readable
    assert s["CapabilityBoundingSet"] == [""] and s["NoNewPrivileges"] == ["yes"]
    assert s["ProtectSystem"] == ["strict"]
    assert any(v.startswith("@system-service") for v in s["SystemCallFilter"])


def test_the_kiosk_may_use_only_a_screens_devices():
    s = unit(KIOSK)["Service"]
    assert s["DevicePolicy"] == ["closed"]
    assert {v.split()[0] for v in s["DeviceAllow"]} == {
        "char-drm", "char-input", "char-gpiochip", "char-alsa", "/dev/tty1", "/dev/tty0"}
    # what it writes: its runtime folder (lgpio's pipes) and Mesa's cache, nothing else
    assert s["RuntimeDirectory"] == ["floorman-kiosk-%i"]
    assert s["CacheDirectory"] == ["floorman-kiosk"]


def test_the_controller_may_use_no_device_and_only_the_network():
    s = unit(CONTROLLER)["Service"]
    assert s["PrivateDevices"] == ["yes"] and s["DevicePolicy"] == ["closed"]
    assert s["RestrictAddressFamilies"] == ["AF_INET AF_INET6 AF_UNIX"]
    assert s["StateDirectory"] == ["floorman"] and s["StateDirectoryMode"] == ["0700"]


def test_the_console_may_use_only_the_network_and_many_connections():
    """Issue 27.2: under the default 1,024 open files one phone's 1,100 half requests
    locked the director out; the console keeps its connections below the limit, and the
    unit raises it."""
    from controller.console import guard

    s = unit(CONSOLE)["Service"]
    assert s["LimitNOFILE"] == [str(guard.NOFILE)]
    assert s["PrivateDevices"] == ["yes"] and s["DevicePolicy"] == ["closed"]
    assert s["RestrictAddressFamilies"] == ["AF_INET AF_INET6 AF_UNIX"]
    # it writes only the registration requests, in its own state folder
    assert s["StateDirectory"] == ["floorman-console"] and "ReadWritePaths" not in s
