"""The tests' broker: a real Mosquitto on a free loopback port, started by the product's
own :mod:`controller.broker.local`, that a test can stop and start again."""

from __future__ import annotations

from pathlib import Path

from controller.broker.local import LocalBroker, MosquittoProcess, mosquitto_path
from controller.wire.mqtt import Broker

#: the Mosquitto program, or None where it is not installed (broker tests are skipped)
MOSQUITTO = mosquitto_path()
#: on top of LocalBroker's configuration (loopback, anonymous, no persistence, errors
#: logged, set_tcp_nodelay): warnings in the log too
TEST_CONFIG = "log_type warning\n"


class Mosquitto:
    """A Mosquitto of a test or benchmark: :class:`~controller.broker.local.LocalBroker`
    with ``config`` added to its configuration and its output in ``log``.

    :meth:`stop` and :meth:`start` are an outage: without persistence every session and
    every retained message is lost, as when the broker's box loses power; it comes back on
    the same port. :meth:`close` ends it for good."""

    def __init__(self, log: Path | None = None, config: str = "") -> None:
        if MOSQUITTO is None:
            raise RuntimeError("mosquitto is not installed")
        self._local = LocalBroker(prefer="mosquitto", config=TEST_CONFIG + config,
                                  log_file=log)
        assert self._local.mosquitto is not None
        self.process: MosquittoProcess = self._local.mosquitto
        self.port = self._local.port
        self.log = log

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def for_prefix(self, prefix: str) -> Broker:
        """How a Floorman part (controller, kiosk link, director) finds this broker."""
        return Broker(host="127.0.0.1", port=self.port, prefix=prefix)

    @property
    def running(self) -> bool:
        return self.process.running

    def stop(self) -> None:
        self.process.stop()

    def start(self) -> None:
        self.process.start()

    def close(self) -> None:
        self._local.stop()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log and self.log.exists() else ""
