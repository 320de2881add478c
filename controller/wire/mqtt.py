"""Broker address and a paho-mqtt client set up the way every Floorman part uses it.

MQTT 3.1.1, QoS 1, automatic reconnect with backoff (1 s doubling to 30 s).
The address comes from the command line, the environment
(``FLOORMAN_BROKER=host:port``, ``FLOORMAN_USERNAME``, ``FLOORMAN_PASSWORD``,
``FLOORMAN_PREFIX``, ``FLOORMAN_TLS_CA``) or the defaults
(``localhost:1883``, prefix ``floorman/default``).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import paho.mqtt.client as mqtt

from controller.wire.topics import DEFAULT_PREFIX

if TYPE_CHECKING:  # the settings import pydantic: not for a director's command (issue 32.3)
    from controller.engine.settings import BrokerSettings


@dataclass(frozen=True)
class Broker:
    """Where the broker is and who we are to it."""

    host: str = "localhost"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls_ca: str | None = None
    prefix: str = DEFAULT_PREFIX

    @classmethod
    def from_env(cls, address: str | None = None, prefix: str | None = None,
                 config: BrokerSettings | None = None) -> Broker:
        """The broker from ``address`` ("host:port"), else the environment, else the
        tournament file's ``broker:`` section, else the defaults."""
        b = cls() if config is None else cls(config.host, config.port, config.username,
                                             config.password, config.tls_ca, config.prefix)
        address = address or os.environ.get("FLOORMAN_BROKER")
        if address:
            host, _, port = address.rpartition(":") if ":" in address else (address, "", "")
            if not port.isdigit():
                raise ValueError(f"broker address must be host:port, got {address!r}")
            b = replace(b, host=host or "localhost", port=int(port))
        return replace(
            b,
            username=os.environ.get("FLOORMAN_USERNAME") or b.username,
            password=os.environ.get("FLOORMAN_PASSWORD") or b.password,
            tls_ca=os.environ.get("FLOORMAN_TLS_CA") or b.tls_ca,
            prefix=prefix or os.environ.get("FLOORMAN_PREFIX") or b.prefix,
        )

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def client(broker: Broker, client_id: str, *, clean_session: bool = True) -> mqtt.Client:
    """A configured (not yet connected) paho client."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    clean_session=clean_session, protocol=mqtt.MQTTv311)
    if broker.username:
        c.username_pw_set(broker.username, broker.password)
    if broker.tls_ca:
        c.tls_set(ca_certs=broker.tls_ca)
    c.reconnect_delay_set(min_delay=1, max_delay=30)
    # many retained state topics arrive at once on connect; do not throttle them
    c.max_inflight_messages_set(200)
    c.max_queued_messages_set(0)
    # small packets at once: with Nagle's algorithm an ack waits for the TCP ACK of the
    # previous packet (40 ms delayed ACK), which turned a 2 ms round trip into 90 ms
    c.on_socket_open = _no_delay
    return c


def _no_delay(c: mqtt.Client, userdata: object, sock: object) -> None:
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # type: ignore[attr-defined]
    except (AttributeError, OSError):  # not a TCP socket (websockets, unix): nothing to do
        pass
