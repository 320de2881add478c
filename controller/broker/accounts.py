"""Accounts and access rules for a locked-down Mosquitto: ``floorman broker-config``.

``floorman broker-config --tables 12 --out DIR [--walls 2] [--prefix P]`` writes

- ``DIR/floorman.passwd``: Mosquitto's password file, one account per client
  (PBKDF2-SHA512 hashes in Mosquitto's ``$7$`` format, made by ``mosquitto_passwd``
  when it is installed, else by this module);
- ``DIR/floorman.acl``: what each account may publish and read (below);
- ``DIR/credentials/<client>.env``: ``FLOORMAN_USERNAME``, ``FLOORMAN_PASSWORD`` and
  ``FLOORMAN_PREFIX`` of each client, for ``scripts/install.sh`` (and for a systemd
  ``EnvironmentFile=`` or a shell's ``set -a; . FILE``).

The accounts: ``controller``, ``director`` (the command-line tools), ``console`` (the
director's console: the director's rights under its own name, so the console and a
command-line call never throw each other off the broker), ``table-1`` … ``table-N``,
``wall`` (and ``wall-2`` … with ``--walls``). Every client's MQTT id is its user name: the shipped
broker configuration binds them (``use_username_as_clientid``), so no account can take
another client's id, and the per-client topics of the ACL are spelt out per account.
The director's command-line clients get their answers through ``pattern read
P/ack/%c`` (``ack/director``).

Running it again changes nothing: existing passwords are kept (``--rotate`` makes
new ones), a hash that still matches its password is kept, and a file is written
only when its content changes. Each file is reported as ``created``, ``changed``,
``unchanged`` or ``removed`` (credentials of tables that no longer exist).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.engine.commands import MAX_TABLES
from controller.wire.protocol import DEFAULT_PREFIX, valid_prefix

PASSWD = "floorman.passwd"
ACL = "floorman.acl"
CREDENTIALS = "credentials"
#: PBKDF2 rounds of our own hashes (mosquitto_passwd 2.0 uses 101; more costs ~1 ms a login
#: on a Pi, paid once per connection)
ITERATIONS = 1000
_ENV_LINE = re.compile(r"^([A-Z_]+)=(.*)$")


@dataclass(frozen=True)
class Client:
    """One account: ``kind`` is controller, director, table or wall."""

    name: str
    kind: str
    table: int | None = None


def clients(tables: int, walls: int = 1) -> list[Client]:
    """Every account of a room with ``tables`` tables and ``walls`` wall screens."""
    if not 1 <= tables <= MAX_TABLES:
        raise ValueError(f"--tables must be 1 to {MAX_TABLES}, got {tables}")
    if not 0 <= walls <= 99:
        raise ValueError(f"--walls must be 0 to 99, got {walls}")
    out = [Client("controller", "controller"), Client("director", "director"),
           Client("console", "director")]
    out += [Client(f"table-{n}", "table", n) for n in range(1, tables + 1)]
    out += [Client("wall" if n == 1 else f"wall-{n}", "wall") for n in range(1, walls + 1)]
    return out


def check_prefix(prefix: str) -> str:
    if not valid_prefix(prefix):
        raise ValueError(f"the prefix must be topic levels of letters, digits, _ . - joined "
                         f"by / (no wildcards, no spaces), got {prefix!r}")
    return prefix


def acl_text(prefix: str, accounts: list[Client]) -> str:
    """Mosquitto's ACL file. Whatever a rule does not allow is denied; patterns (``%c``:
    the client id) apply to every account."""
    p = check_prefix(prefix)
    lines = [
        "# Floorman: who may publish and read what (written by floorman broker-config).",
        f"# Topic prefix {p}. Anything not allowed here is denied; there are no anonymous",
        "# clients (allow_anonymous false). docs/protocol.md has the topic tree.",
        "",
    ]
    for c in accounts:
        lines.append(f"user {c.name}")
        if c.kind == "controller":
            lines += [
                "# the only publisher of the retained state, acks and clock answers; it reads",
                "# the state the broker holds (to clear what a past tournament left) and",
                "# clears a retained message on a command topic (docs/security.md)",
                f"topic readwrite {p}/state/#",
                f"topic write {p}/ack/+",
                f"topic write {p}/time/response/+",
                f"topic write {p}/presence/controller",
                f"topic read {p}/cmd/#",
                f"topic write {p}/cmd/table/+",
                f"topic write {p}/cmd/director",
                f"topic read {p}/time/request/+",
                f"topic read {p}/presence/+",
            ]
        elif c.kind == "director":
            lines += [
                "# the director's accounts (the tools, the console) alone send director",
                f"# commands; the answers arrive on ack/{c.name} (the client id is the user",
                "# name): see the pattern below",
                f"topic write {p}/cmd/director",
                f"topic read {p}/state/#",
                "# the console shows when the controller is offline",
                f"topic read {p}/presence/controller",
            ]
            if c.name == "console":
                lines += ["# the console's players' page, for the QR code on the wall",
                          f"topic write {p}/console/public"]
        else:
            if c.kind == "table":
                lines.append(f"topic write {p}/cmd/table/{c.table}")
            lines += [
                f"topic write {p}/presence/{c.name}",
                f"topic write {p}/time/request/{c.name}",
                f"topic read {p}/state/#",
                f"topic read {p}/console/public",
                f"topic read {p}/ack/{c.name}",
                f"topic read {p}/time/response/{c.name}",
            ]
        lines.append("")
    lines += [
        "# every account may read the answers addressed to its own client id",
        f"pattern read {p}/ack/%c",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- hashes


def hash_password(password: str, *, iterations: int = ITERATIONS,
                  salt: bytes | None = None) -> str:
    """``$7$<iterations>$<salt>$<hash>``: PBKDF2-HMAC-SHA512 as Mosquitto 2 checks it
    (12 bytes of salt, 64 bytes of hash, both standard base64)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    dk = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(dk).decode()}"


def check_password(password: str, hashed: str) -> bool:
    """Whether ``hashed`` (``$7$`` PBKDF2 or Mosquitto 1.x's ``$6$`` SHA512) is ``password``."""
    parts = hashed.split("$")
    try:
        if len(parts) == 5 and parts[1] == "7":
            salt, want = base64.b64decode(parts[3]), base64.b64decode(parts[4])
            got = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, int(parts[2]),
                                      len(want))
        elif len(parts) == 4 and parts[1] == "6":
            salt, want = base64.b64decode(parts[2]), base64.b64decode(parts[3])
            got = hashlib.sha512(password.encode() + salt).digest()
        else:
            return False
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


def mosquitto_passwd() -> str | None:
    found = shutil.which("mosquitto_passwd")
    if found:
        return found
    return "/usr/bin/mosquitto_passwd" if Path("/usr/bin/mosquitto_passwd").exists() else None


def hash_with_mosquitto_passwd(exe: str, user: str, password: str) -> str:
    """The hash ``mosquitto_passwd`` makes. The password goes in on standard input (what
    ``-b`` would take on the command line, where every local user could read it)."""
    with tempfile.TemporaryDirectory(prefix="floorman-passwd-") as tmp:
        path = Path(tmp) / "passwd"
        r = subprocess.run([exe, "-c", str(path), user], input=f"{password}\n{password}\n",
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise RuntimeError(f"mosquitto_passwd failed: {(r.stderr or r.stdout).strip()}")
        for line in path.read_text().splitlines():
            name, sep, hashed = line.partition(":")
            if sep and name == user:
                return hashed
    raise RuntimeError("mosquitto_passwd wrote no hash")


def hasher(kind: str = "auto") -> Callable[[str, str], str]:
    """``(user, password) → hash``: ``mosquitto_passwd``, ``python`` or ``auto`` (the first
    when it is installed)."""
    if kind not in ("auto", "mosquitto_passwd", "python"):
        raise ValueError(f"unknown hasher {kind!r}")
    exe = mosquitto_passwd() if kind != "python" else None
    if kind == "mosquitto_passwd" and exe is None:
        raise ValueError("mosquitto_passwd is not installed")
    if exe is not None:
        return lambda user, password: hash_with_mosquitto_passwd(exe, user, password)
    return lambda user, password: hash_password(password)


# ---------------------------------------------------------------------------- files


def read_env(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a credentials file (comments and blank lines skipped)."""
    out: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return out
    for line in text.splitlines():
        m = _ENV_LINE.match(line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def env_text(client: Client, password: str, prefix: str) -> str:
    return (f"# Floorman broker account {client.name} (written by floorman broker-config).\n"
            "# Secret: readable by root and the floorman service user only.\n"
            f"FLOORMAN_USERNAME={client.name}\n"
            f"FLOORMAN_PASSWORD={password}\n"
            f"FLOORMAN_PREFIX={prefix}\n")


def new_password() -> str:
    """24 characters of ``A-Za-z0-9_-`` (144 random bits): safe unquoted in a shell and in
    a systemd ``EnvironmentFile=``."""
    return secrets.token_urlsafe(18)


def _write(path: Path, text: str, mode: int, report: list[tuple[str, Path]]) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == text:
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
            report.append(("changed", path))
        else:
            report.append(("unchanged", path))
        return
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, mode)  # whatever the umask
    os.replace(tmp, path)
    report.append(("created" if old is None else "changed", path))


def write(out: str | os.PathLike, tables: int, *, walls: int = 1,
          prefix: str = DEFAULT_PREFIX, rotate: bool = False,
          hash_with: str = "auto") -> list[tuple[str, Path]]:
    """Write the password file, the ACL and the credentials into ``out``; returns
    ``(status, path)`` per file (created, changed, unchanged, removed)."""
    check_prefix(prefix)
    accounts = clients(tables, walls)
    root = Path(out)
    creds = root / CREDENTIALS
    # the credentials are secrets: new folders are closed to others (an existing --out
    # folder keeps its mode; the files themselves are 0640)
    root.mkdir(mode=0o750, parents=True, exist_ok=True)
    creds.mkdir(mode=0o750, exist_ok=True)
    make = hasher(hash_with)

    old_hashes: dict[str, str] = {}
    if (root / PASSWD).exists():
        for line in (root / PASSWD).read_text(encoding="utf-8").splitlines():
            name, sep, hashed = line.partition(":")
            if sep:
                old_hashes[name] = hashed

    report: list[tuple[str, Path]] = []
    passwd_lines = []
    for c in accounts:
        path = creds / f"{c.name}.env"
        kept = None if rotate else read_env(path).get("FLOORMAN_PASSWORD") or None
        password = kept or new_password()
        stored = old_hashes.get(c.name)
        hashed = stored if stored is not None and check_password(password, stored) \
            else make(c.name, password)
        passwd_lines.append(f"{c.name}:{hashed}\n")
        _write(path, env_text(c, password, prefix), 0o640, report)
    names = {f"{c.name}.env" for c in accounts}
    for stale in sorted(creds.glob("*.env")):
        if stale.name not in names:
            stale.unlink()
            report.append(("removed", stale))
    _write(root / PASSWD, "".join(passwd_lines), 0o640, report)
    _write(root / ACL, acl_text(prefix, accounts), 0o644, report)
    return report
