"""The room's broker for ``floorman night``: on every interface, with accounts and an ACL.

:class:`RoomBroker` keeps the accounts of :mod:`controller.broker.accounts` in a folder of
its own (the night's state folder: ``floorman.passwd``, ``floorman.acl``,
``credentials/*.env``), made on first use and kept after (the passwords stay, so a screen
that joined keeps its account across restarts), and runs Mosquitto with them (the shipped
configuration's rules: no anonymous client, the client id is the user name) or, where
Mosquitto is not installed, the embedded amqtt with the same files
(:mod:`controller.broker.embedded`).

It listens on ``port`` (1883) of every interface, or on a free port when that one is
taken (a system Mosquitto): the screens find the port by DNS-SD, not by convention.
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

from controller.broker import accounts
from controller.broker.local import (
    NO_BROKER,
    RunningBroker,
    amqtt_installed,
    mosquitto_path,
)
from controller.wire.mqtt import Broker
from controller.wire.protocol import BROKER_MESSAGE_LIMIT

log = logging.getLogger("floorman.broker")

#: the MQTT port a room's broker takes when it is free
MQTT_PORT = 1883
#: the table screens the embedded broker (amqtt) serves, measured (bench/room_broker.py,
#: docs/performance.md); above, ``floorman night`` advises Mosquitto
EMBEDDED_TABLES = 40


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def pick_port(wanted: int = MQTT_PORT) -> int:
    if wanted and port_free(wanted):
        return wanted
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def mosquitto_conf(port: int, folder: Path) -> str:
    # started by root, Mosquitto becomes the user "mosquitto", who cannot read the state
    # folder (0700): it stays who started it
    user = "user root\n" if os.geteuid() == 0 else ""
    return (
        "# floorman night: the room's broker (written at each start)\n" + user +
        "per_listener_settings false\n"
        "allow_anonymous false\n"
        f"password_file {folder / accounts.PASSWD}\n"
        f"acl_file {folder / accounts.ACL}\n"
        "persistence false\n"
        "log_type error\n"
        "log_type warning\n"
        f"message_size_limit {BROKER_MESSAGE_LIMIT}\n"
        "max_queued_messages 5000\n"
        "max_queued_bytes 33554432\n"
        "set_tcp_nodelay true\n"
        f"listener {port}\n"
        "use_username_as_clientid true\n")


class RoomBroker(RunningBroker):
    """The accounts in ``folder`` and a broker serving them on ``port`` of every interface.
    ``kind``: "mosquitto" or "amqtt" (``prefer="amqtt"`` takes the embedded one)."""

    def __init__(self, folder: Path, *, tables: int, walls: int, prefix: str,
                 port: int = MQTT_PORT, prefer: str = "mosquitto") -> None:
        self.folder = folder
        self.prefix = prefix
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        # python's hashes: one call for every account (mosquitto_passwd would be a process
        # per account); Mosquitto checks them the same
        self.report = accounts.write(folder, tables, walls=walls, prefix=prefix,
                                     hash_with="python")
        self.port = pick_port(port)
        super().__init__("floorman-night-broker-")
        exe = mosquitto_path()
        if exe and prefer == "mosquitto":
            self._run_mosquitto(exe, mosquitto_conf(self.port, folder), folder / "mosquitto.log")
        else:
            if not amqtt_installed():
                self._tmp.cleanup()
                raise RuntimeError(NO_BROKER)
            self._start_amqtt()
        log.info("%s broker on port %d (accounts in %s)", self.kind, self.port, folder)

    def created(self) -> bool:
        """Whether the accounts were made by this start (the first of this state folder)."""
        return any(status == "created" and path.name == accounts.PASSWD
                   for status, path in self.report)

    def _start_amqtt(self) -> None:
        from controller.broker.embedded import RoomAmqtt

        # its every state change at INFO would bury the night's own lines
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)

        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"0.0.0.0:{self.port}"}},
            "sys_interval": 0,
            "plugins": {
                "controller.broker.embedded.Accounts": {
                    "passwd": str(self.folder / accounts.PASSWD)},
                "controller.broker.embedded.Rules": {"acl": str(self.folder / accounts.ACL)},
            },
        }
        acl = str(self.folder / accounts.ACL)
        self._run_amqtt(lambda loop: RoomAmqtt(config, acl=acl, loop=loop))

    def credentials(self, account: str) -> dict[str, str]:
        return accounts.read_env(self.folder / accounts.CREDENTIALS / f"{account}.env")

    def client(self, account: str, host: str = "127.0.0.1") -> Broker:
        """The address and login of ``account`` on this broker (from this computer)."""
        env = self.credentials(account)
        if not env.get("FLOORMAN_PASSWORD"):
            raise KeyError(f"no account {account!r} in {self.folder}")
        return Broker(host=host, port=self.port, username=account,
                      password=env["FLOORMAN_PASSWORD"], prefix=self.prefix)
