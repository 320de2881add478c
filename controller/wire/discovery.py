"""How a screen finds the night and joins it (``floorman night``, ``broker: auto``).

- **Finding**: the night announces itself by DNS-SD over multicast DNS (the ``zeroconf``
  library; Avahi on a Pi answers the same), as a service of type :data:`SERVICE` whose
  port is the broker's and whose TXT record says the topic prefix, the pairing port and
  the night's id. :func:`announce` on the night's side, :func:`browse` on the screen's.
- **Joining**: the screen asks the night's pairing door (HTTP on the announced port,
  :func:`pair`) for its own broker account (``table-3``, ``wall``) with the night's join
  code, which the night printed for the director. A wrong code gets nothing; the door
  lets a few wrong codes through, then one a second (docs/security.md, "Pairing").

Both sides speak only this module, so the words on the wire are in one place.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

#: the DNS-SD service type of a Floorman night
SERVICE = "_floorman._tcp.local."
#: the pairing door's path
PAIR_PATH = "/pair"
#: the join code: this many digits, shown as two groups of four
CODE_DIGITS = 8


def normal_code(code: str) -> str:
    """The digits of a join code as typed (spaces and dashes are left out)."""
    return "".join(ch for ch in code if ch.isdigit())


def show_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_DIGITS else code


@dataclass(frozen=True)
class Night:
    """A night found on the network."""

    name: str
    addresses: tuple[str, ...]
    port: int
    pair_port: int
    prefix: str
    id: str
    tournament: str = ""

    @property
    def host(self) -> str:
        return self.addresses[0]


def _txt(props: dict[Any, Any], key: str) -> str:
    value = props.get(key.encode(), props.get(key))
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


class Announcement:
    """The night on the network until :meth:`close`."""

    def __init__(self, *, name: str, port: int, pair_port: int, prefix: str, night_id: str,
                 tournament: str, addresses: list[str] | None = None) -> None:
        from zeroconf import IPVersion, ServiceInfo, Zeroconf

        self.addresses = addresses or local_addresses()
        host = socket.gethostname().split(".")[0] or "floorman"
        label = f"{name} on {host}"[:63]
        self.info = ServiceInfo(
            SERVICE, f"{label}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in self.addresses], port=port,
            properties={"v": "1", "prefix": prefix, "pair": str(pair_port), "id": night_id,
                        "name": tournament[:80]},
            server=f"{host}.local.")
        self.zc = Zeroconf(ip_version=IPVersion.V4Only)
        # a second night of the same name on this network is renamed ("… (2)")
        self.zc.register_service(self.info, allow_name_change=True)

    def close(self) -> None:
        """Say goodbye on the network and stop answering (about a quarter of a second)."""
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


def local_addresses() -> list[str]:
    """This computer's IPv4 addresses a screen can reach (loopback when it has no other)."""
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254.")):
                found.append(ip.ip)
    return found or ["127.0.0.1"]


def browse(timeout: float = 5.0, *, settle: float = 0.3) -> list[Night]:
    """The nights announced on the local network, waiting up to ``timeout`` s for the first
    (and ``settle`` s more for others). Empty when none answered."""
    from zeroconf import IPVersion, ServiceBrowser, ServiceListener, Zeroconf

    names: list[str] = []

    class Listener(ServiceListener):
        def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            names.append(name)

        def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

        def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

    zc = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        browser = ServiceBrowser(zc, SERVICE, Listener())
        deadline = time.monotonic() + timeout
        while not names and time.monotonic() < deadline:
            time.sleep(0.05)
        if names:
            time.sleep(settle)
        browser.cancel()
        out = []
        for name in dict.fromkeys(names):
            info = zc.get_service_info(SERVICE, name, timeout=2000)
            if info is None or not info.port:
                continue
            props = info.properties or {}
            pair_port = _txt(props, "pair")
            out.append(Night(name=name.removesuffix("." + SERVICE),
                             addresses=tuple(info.parsed_addresses(IPVersion.V4Only)),
                             port=int(info.port),
                             pair_port=int(pair_port) if pair_port.isdigit() else 0,
                             prefix=_txt(props, "prefix"), id=_txt(props, "id"),
                             tournament=_txt(props, "name")))
        return [n for n in out if n.addresses and n.pair_port]
    finally:
        zc.close()


class PairingRefused(Exception):
    """The night's door said no: ``reason`` is ``wrong_code``, ``too_many``, ``no_account``
    or ``bad_request``; ``retry`` the seconds to wait (too_many)."""

    def __init__(self, reason: str, retry: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry


def pair(night: Night, code: str, *, role: str, table: int | None, screen: str,
         timeout: float = 5.0) -> dict[str, str]:
    """This screen's account from the night's door: ``{"username", "password", "prefix"}``.
    Raises :class:`PairingRefused`, or ``OSError`` when the door cannot be reached."""
    body = json.dumps({"v": 1, "code": normal_code(code), "role": role, "table": table,
                       "screen": screen}).encode()
    req = urllib.request.Request(f"http://{night.host}:{night.pair_port}{PAIR_PATH}",
                                 data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:  # noqa: S310 - http only
            data = json.loads(answer.read(16384))
    except urllib.error.HTTPError as exc:
        try:
            data = json.loads(exc.read(16384))
        except ValueError:
            data = {}
        raise PairingRefused(str(data.get("reason") or f"http_{exc.code}"),
                             float(data.get("retry") or 0)) from None
    except ValueError:
        raise PairingRefused("bad_request") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str)
                                             for k in ("username", "password", "prefix")):
        raise PairingRefused("bad_request")
    return {k: data[k] for k in ("username", "password", "prefix")}
