"""Helpers of the deployment tests: the shipped units, the installer, a locked-down Mosquitto.

The broker here is the real one, started with the shipped drop-in
(``systemd/mosquitto-floorman.conf``) where only the paths and ports are changed:
accounts and ACL from ``floorman broker-config``, a test CA and server certificate
made with the openssl command line, a TLS listener and the plain loopback listener
on free ports.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from controller.local_broker import free_port, wait_port

ROOT = Path(__file__).resolve().parent.parent.parent
DROP_IN = ROOT / "systemd" / "mosquitto-floorman.conf"
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
OPENSSL = shutil.which("openssl")

needs_broker = pytest.mark.skipif(MOSQUITTO is None or OPENSSL is None,
                                  reason="mosquitto and openssl are needed")






def wait_for(cond: Any, timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def read_env(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Z_]+)=(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


# ------------------------------------------------------------------------------ TLS


def make_tls(folder: Path, names: tuple[str, ...] = ("localhost",),
             ips: tuple[str, ...] = ("127.0.0.1",)) -> dict[str, Path]:
    """A self-signed CA and a server certificate it signed (openssl command line)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, crt = (folder / n for n in ("ca.key", "ca.crt", "server.key",
                                                   "server.crt"))

    def openssl(*args: str, stdin: bytes | None = None) -> bytes:
        r = subprocess.run([OPENSSL or "openssl", *args], input=stdin, capture_output=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr.decode()
        return r.stdout

    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-out", str(ca_key))
    openssl("req", "-x509", "-new", "-key", str(ca_key), "-sha256", "-days", "30",
            "-subj", "/CN=Floorman test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", str(ca))
    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-out", str(key))
    csr = openssl("req", "-new", "-key", str(key), "-subj", "/CN=localhost")
    ext = folder / "server.ext"
    san = ",".join([f"DNS:{n}" for n in names] + [f"IP:{i}" for i in ips])
    ext.write_text(f"subjectAltName={san}\nbasicConstraints=critical,CA:FALSE\n"
                   "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-CA", str(ca), "-CAkey", str(ca_key), "-set_serial", "0x1001",
            "-days", "30", "-sha256", "-extfile", str(ext), "-out", str(crt), stdin=csr)
    return {"ca": ca, "cert": crt, "key": key}


# ------------------------------------------------------------------------- the broker


def shipped_config(paths: dict[str, Path], tls_port: int, plain_port: int) -> str:
    """The shipped drop-in with test paths and ports. Fails if a line the test relies on
    is gone, so the shipped file cannot drift from what is tested."""
    text = DROP_IN.read_text()
    subs = {
        r"^password_file /etc/mosquitto/floorman\.passwd$": f"password_file {paths['passwd']}",
        r"^acl_file /etc/mosquitto/floorman\.acl$": f"acl_file {paths['acl']}",
        r"^certfile /etc/mosquitto/certs/floorman\.crt$": f"certfile {paths['cert']}",
        r"^keyfile /etc/mosquitto/certs/floorman\.key$": f"keyfile {paths['key']}",
        r"^listener 8883$": f"listener {tls_port} 127.0.0.1",
        r"^listener 1883 127\.0\.0\.1$": f"listener {plain_port} 127.0.0.1",
    }
    for pattern, new in subs.items():
        text, n = re.subn(pattern, new, text, flags=re.M)
        assert n == 1, f"{DROP_IN.name}: no line matching {pattern}"
    return text


def install_like_the_installer(files: dict[str, Path]) -> tuple[dict[str, Path], Path]:
    """Copies of the broker's files laid out as scripts/install.sh installs them: a folder
    anyone may enter (like /etc/mosquitto), secrets root:mosquitto 0640. Mosquitto started
    as root reads them after it dropped to its own user, as under systemd. Returns the
    copies and the folder (the caller removes it)."""
    import grp

    folder = Path(tempfile.mkdtemp(prefix="floorman-mosquitto-"))
    folder.chmod(0o755)
    try:
        gid = grp.getgrnam("mosquitto").gr_gid if os.geteuid() == 0 else None
    except KeyError:
        gid = None
    out = {}
    for key, src in files.items():
        dest = folder / f"{key}{src.suffix}"
        shutil.copyfile(src, dest)
        secret = key in ("passwd", "acl", "key")
        dest.chmod(0o640 if secret else 0o644)
        if secret and gid is not None:
            os.chown(dest, 0, gid)
        out[key] = dest
    return out, folder


class SecureBroker:
    """Mosquitto with the shipped drop-in, an account per client, the ACL and TLS."""

    def __init__(self, tmp: Path, *, tables: int = 4, prefix: str | None = None,
                 hasher: str = "auto", config_text: str | None = None,
                 paths: dict[str, Path] | None = None) -> None:
        from controller import brokerconfig

        self.tmp = tmp
        self.prefix = prefix or f"test/{uuid.uuid4().hex[:10]}"
        self.out = tmp / "broker"
        if paths is None:
            brokerconfig.write(self.out, tables, walls=2, prefix=self.prefix, hash_with=hasher)
            tls = make_tls(tmp / "tls")
            paths = {"passwd": self.out / brokerconfig.PASSWD,
                     "acl": self.out / brokerconfig.ACL, **tls}
        self.ca = paths["ca"]
        self.paths, self.folder = install_like_the_installer(paths)
        self.tls_port = free_port()
        self.plain_port = free_port()
        self.log = tmp / "mosquitto.log"
        conf = config_text if config_text is not None else shipped_config(
            self.paths, self.tls_port, self.plain_port)
        # the test's own additions: every denial in the log (stderr), no persistence
        conf += "\nlog_dest stderr\nlog_type all\npersistence false\n"
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(conf)
        self.conf.chmod(0o644)
        self.proc: subprocess.Popen | None = None

    def start(self) -> SecureBroker:
        self.proc = subprocess.Popen([MOSQUITTO or "mosquitto", "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=open(self.log, "ab"))
        try:
            wait_port(self.tls_port)
            wait_port(self.plain_port)
        except TimeoutError:
            self.proc.kill()
            self.proc.wait(10)
            raise AssertionError(f"mosquitto did not start:\n{self.log_text()}") from None
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def account(self, name: str) -> dict[str, str]:
        return read_env(self.out / "credentials" / f"{name}.env")

    def env(self, name: str, *, tls: bool = True) -> dict[str, str]:
        """The environment a Floorman process of account ``name`` runs with."""
        acc = self.account(name)
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "FLOORMAN_USERNAME": acc["FLOORMAN_USERNAME"],
               "FLOORMAN_PASSWORD": acc["FLOORMAN_PASSWORD"],
               "FLOORMAN_PREFIX": acc["FLOORMAN_PREFIX"]}
        if tls:
            env |= {"FLOORMAN_BROKER": f"localhost:{self.tls_port}",
                    "FLOORMAN_TLS_CA": str(self.ca)}
        else:
            env |= {"FLOORMAN_BROKER": f"127.0.0.1:{self.plain_port}"}
            env.pop("FLOORMAN_TLS_CA", None)
        return env

    def broker(self, name: str, *, tls: bool = True) -> Any:
        """A :class:`controller.mqtt.Broker` logged in as ``name``."""
        from controller.mqtt import Broker

        acc = self.account(name)
        if tls:
            return Broker("localhost", self.tls_port, acc["FLOORMAN_USERNAME"],
                          acc["FLOORMAN_PASSWORD"], str(self.ca), self.prefix)
        return Broker("127.0.0.1", self.plain_port, acc["FLOORMAN_USERNAME"],
                      acc["FLOORMAN_PASSWORD"], None, self.prefix)


# ------------------------------------------------------------------------- raw clients


class Client:
    """A raw paho client logged in as anyone (or no one), for poking at the broker."""

    def __init__(self, host: str, port: int, *, username: str | None = None,
                 password: str | None = None, ca: Path | None = None,
                 client_id: str | None = None, tls_hostname_check: bool = True) -> None:
        self.client_id = client_id or f"probe-{uuid.uuid4().hex[:8]}"
        self.messages: list[tuple[str, bytes]] = []
        self.connack: Any = None
        self.granted: list[Any] = []
        self._lock = threading.Lock()
        self._connack = threading.Event()
        self._suback = threading.Event()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                        protocol=mqtt.MQTTv311)
        if username is not None:
            c.username_pw_set(username, password)
        if ca is not None:
            c.tls_set(ca_certs=str(ca))
            c.tls_insecure_set(not tls_hostname_check)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        c.on_message = self._on_message
        self.c = c
        self.error: Exception | None = None
        try:
            c.connect(host, port, keepalive=30)
        except (OSError, ssl.SSLError) as exc:
            self.error = exc
            return
        c.loop_start()

    def _on_connect(self, c: mqtt.Client, u: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connack = rc
        self._connack.set()

    def _on_subscribe(self, c: mqtt.Client, u: Any, mid: Any, rcs: Any, props: Any = None
                      ) -> None:
        self.granted = list(rcs)
        self._suback.set()

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.messages.append((msg.topic, msg.payload))

    def connected(self, timeout: float = 5.0) -> bool:
        """True if the broker accepted the login; False if it refused or hung up."""
        if self.error is not None:
            return False
        if not self._connack.wait(timeout):
            return False
        return not self.connack.is_failure

    def subscribe(self, *topics: str, qos: int = 1) -> list[Any]:
        self._suback.clear()
        self.c.subscribe([(t, qos) for t in topics])
        assert self._suback.wait(5), "no SUBACK"
        return self.granted

    def publish(self, topic: str, payload: bytes | str, *, retain: bool = False) -> None:
        """QoS 1: returns once the broker has the message (PUBACK), allowed or not."""
        info = self.c.publish(topic, payload, 1, retain)
        info.wait_for_publish(5)
        assert info.is_published(), f"no PUBACK for {topic}"

    def topics(self) -> list[str]:
        with self._lock:
            return [t for t, _ in self.messages]

    def close(self) -> None:
        if self.error is None:
            self.c.disconnect()
            self.c.loop_stop()


def login(b: SecureBroker, name: str | None, *, tls: bool = True, password: str | None = None,
          client_id: str | None = None) -> Client:
    """A raw client of account ``name`` (``None``: anonymous) on the TLS or plain listener."""
    username = None
    if name is not None:
        acc = b.account(name)
        username = acc["FLOORMAN_USERNAME"]
        password = password if password is not None else acc["FLOORMAN_PASSWORD"]
    if tls:
        return Client("localhost", b.tls_port, username=username, password=password, ca=b.ca,
                      client_id=client_id)
    return Client("127.0.0.1", b.plain_port, username=username, password=password,
                  client_id=client_id)


# ------------------------------------------------------------------------- controller


class Controller:
    """``floorman controller`` in its own process, logged in as ``controller`` on the
    plain loopback listener (as floorman-controller.service runs it)."""

    def __init__(self, b: SecureBroker, tmp: Path,
                 config: Path = ROOT / "config/tournaments/sample.yaml") -> None:
        self.log = tmp / "controller.log"
        self.db = tmp / "controller.sqlite"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller", "controller", str(config), "--db", str(self.db)],
            cwd=ROOT, env=b.env("controller", tls=False), stdout=open(self.log, "ab"),
            stderr=subprocess.STDOUT)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def floorman(env: dict[str, str], *args: str, timeout: float = 30.0
             ) -> subprocess.CompletedProcess:
    """The director's command line, with the environment of an account."""
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


# ------------------------------------------------------------------------- installer

INSTALL = ROOT / "scripts" / "install.sh"


def run(src: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    r = subprocess.run(["bash", str(src / "scripts" / "install.sh"), *args],
                       capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "PYTHON": os.environ.get("FLOORMAN_TEST_PYTHON",
                                                                 "python3")})
    assert r.returncode == 0, f"install.sh {' '.join(args)}:\n{r.stdout}\n{r.stderr}"
    return r


def install_twice(src: Path, root: Path, *args: str) -> tuple[str, str]:
    first = run(src, *args, "--root", str(root), "--pip-args", "--no-deps").stdout
    second = run(src, *args, "--root", str(root), "--pip-args", "--no-deps").stdout
    return first, second


