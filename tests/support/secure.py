"""The locked-down broker of the deployment tests: the real Mosquitto with the shipped
drop-in (``systemd/mosquitto-floorman.conf``) where only the paths and ports are changed:
accounts and ACL from ``floorman broker-config``, a test CA and server certificate made
with the openssl command line, a TLS listener and the plain loopback listener on free
ports. Started and stopped by :class:`controller.broker.local.MosquittoProcess`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from controller.broker.local import MosquittoProcess, free_port

from .broker import MOSQUITTO
from .mqtt import Probe
from .paths import ROOT

DROP_IN = ROOT / "systemd" / "mosquitto-floorman.conf"
OPENSSL = shutil.which("openssl")


def read_env(path: Path) -> dict[str, str]:
    """The ``KEY=value`` lines of an environment file."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Z_]+)=(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


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
        from controller.broker import accounts as brokerconfig

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
        self.process = MosquittoProcess(self.conf, (self.tls_port, self.plain_port), self.log,
                                        MOSQUITTO)

    def start(self) -> SecureBroker:
        try:
            self.process.start()
        except RuntimeError as exc:
            raise AssertionError(f"mosquitto did not start:\n{exc}") from None
        return self

    @property
    def proc(self) -> subprocess.Popen | None:
        return self.process.proc

    def stop(self) -> None:
        self.process.stop()
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
        """A :class:`controller.wire.mqtt.Broker` logged in as ``name``."""
        from controller.wire.mqtt import Broker

        acc = self.account(name)
        if tls:
            return Broker("localhost", self.tls_port, acc["FLOORMAN_USERNAME"],
                          acc["FLOORMAN_PASSWORD"], str(self.ca), self.prefix)
        return Broker("127.0.0.1", self.plain_port, acc["FLOORMAN_USERNAME"],
                      acc["FLOORMAN_PASSWORD"], None, self.prefix)

    def controller(self, tmp: Path, config: Path | None = None) -> Any:
        """``floorman controller`` logged in as ``controller`` on the plain loopback
        listener (as floorman-controller.service runs it), started."""
        from .controller import ControllerProcess
        from .paths import SAMPLE_TOURNAMENT

        return ControllerProcess(config or SAMPLE_TOURNAMENT, tmp / "controller.sqlite",
                                 tmp / "controller.log",
                                 env=self.env("controller", tls=False)).start()


def login(b: SecureBroker, name: str | None, *, tls: bool = True, password: str | None = None,
          client_id: str | None = None) -> Probe:
    """A raw client of account ``name`` (``None``: anonymous) on the TLS or plain listener;
    :meth:`~tests.support.mqtt.Probe.connected` says whether the broker took it."""
    username = None
    if name is not None:
        acc = b.account(name)
        username = acc["FLOORMAN_USERNAME"]
        password = password if password is not None else acc["FLOORMAN_PASSWORD"]
    if tls:
        return Probe(f"localhost:{b.tls_port}", username=username, password=password, ca=b.ca,
                     client_id=client_id, wait=False)
    return Probe(f"127.0.0.1:{b.plain_port}", username=username, password=password,
                 client_id=client_id, wait=False)
