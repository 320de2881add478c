"""Why a screen cannot find or reach the night, in words (English and German), and how
the screen finds out (:func:`diagnose`).

The words say what the screen tries (the address), what went wrong and what to do; the
screen shows them in its waiting panel from the first frame and writes them to its log
once each time the reason changes (:mod:`kiosk.app`).
"""

from __future__ import annotations

import socket
import ssl

from controller.wire.mqtt import Broker
from kiosk.view import Problem

#: kind -> ((English what, English what to do), (German what, German what to do))
WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "looking": (
        ("Looking for the night on the network ({address}) …",
         "Start it on the director's computer: floorman night"),
        ("Suche den Abend im Netzwerk ({address}) …",
         "Auf dem Rechner der Turnierleitung starten: floorman night")),
    "no_night": (
        ("No Floorman night found on this network ({address})",
         "Start floorman night on the director's computer, on the same network as this "
         "screen; or give --broker HOST:PORT"),
        ("Kein Floorman-Abend in diesem Netzwerk gefunden ({address})",
         "floorman night auf dem Rechner der Turnierleitung starten, im selben Netzwerk wie "
         "dieser Bildschirm; oder --broker HOST:PORT angeben")),
    "need_code": (
        ("Found the night at {address}: this screen needs its join code",
         "Start the screen with --join CODE: the code floorman night printed"),
        ("Abend unter {address} gefunden: dieser Bildschirm braucht den Beitrittscode",
         "Bildschirm mit --join CODE starten: den Code, den floorman night anzeigt")),
    "wrong_code": (
        ("The night at {address} refused the join code",
         "Start the screen again with the join code floorman night printed (--join CODE)"),
        ("Der Abend unter {address} hat den Beitrittscode abgelehnt",
         "Bildschirm mit dem Code neu starten, den floorman night anzeigt (--join CODE)")),
    "too_many": (
        ("The night at {address} takes no more join codes for a moment",
         "Too many wrong codes were tried; the screen tries again by itself"),
        ("Der Abend unter {address} nimmt gerade keine Beitrittscodes an",
         "Zu viele falsche Codes; der Bildschirm versucht es gleich selbst wieder")),
    "no_account": (
        ("The night at {address} has no account for this screen",
         "Check the table number; for more tables start the night with --tables N"),
        ("Der Abend unter {address} hat kein Konto für diesen Bildschirm",
         "Tischnummer prüfen; für mehr Tische den Abend mit --tables N starten")),
    "no_name": (
        ("The broker's name {address} does not resolve",
         "Check the name in the kiosk file (broker: host) or use broker: auto"),
        ("Der Name des Brokers {address} ist unbekannt",
         "Namen in der Kiosk-Datei prüfen (broker: host) oder broker: auto verwenden")),
    "refused": (
        ("Nothing answers at {address}: the connection was refused",
         "Is the broker (floorman night) running on that computer, on that port?"),
        ("Unter {address} antwortet nichts: Verbindung abgelehnt",
         "Läuft der Broker (floorman night) auf diesem Rechner, an diesem Port?")),
    "unreachable": (
        ("{address} cannot be reached",
         "Check the network cable or Wi-Fi, and that the director's computer is on"),
        ("{address} ist nicht erreichbar",
         "Netzwerkkabel oder WLAN prüfen, und ob der Rechner der Turnierleitung läuft")),
    "account": (
        ("The broker at {address} refused this screen's account",
         "Pair the screen again (--join CODE), or copy its credentials anew"),
        ("Der Broker unter {address} hat das Konto dieses Bildschirms abgelehnt",
         "Bildschirm neu koppeln (--join CODE) oder seine Zugangsdaten neu kopieren")),
    "tls": (
        ("TLS with {address} failed",
         "Check the CA file (FLOORMAN_TLS_CA), the broker's certificate and its name"),
        ("TLS mit {address} fehlgeschlagen",
         "CA-Datei (FLOORMAN_TLS_CA), Zertifikat des Brokers und seinen Namen prüfen")),
}


def words(problem: Problem, lang: str) -> tuple[str, str]:
    """(what is wrong, what to do) in ``lang``; the system's detail in brackets."""
    en, de = WORDS.get(problem.kind, ((problem.kind, ""), (problem.kind, "")))
    what, todo = de if lang == "de" else en
    what = what.format(address=problem.address or "?")
    if problem.detail:
        what += f" ({problem.detail})"
    return what, todo


def line(problem: Problem, lang: str) -> str:
    """One line for the log."""
    what, todo = words(problem, lang)
    if not todo:
        return what
    return f"{what}{'' if what.endswith(('…', '.')) else '.'} {todo}"


def diagnose(broker: Broker, timeout: float = 2.0) -> Problem:
    """Why a connection to ``broker`` fails: the name, the port, TLS (in that order)."""
    address = f"{broker.host}:{broker.port}"
    try:
        infos = socket.getaddrinfo(broker.host, broker.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return Problem("no_name", address, str(getattr(exc, "strerror", None) or exc))
    family, kind, proto, _, sockaddr = infos[0]
    try:
        sock = socket.socket(family, kind, proto)
        sock.settimeout(timeout)
        sock.connect(sockaddr)
    except ConnectionRefusedError:
        return Problem("refused", address)
    except OSError as exc:
        return Problem("unreachable", address, str(exc.strerror or exc))
    try:
        if broker.tls_ca:
            try:
                ctx = ssl.create_default_context(cafile=broker.tls_ca)
            except (OSError, ssl.SSLError) as exc:
                return Problem("tls", address, f"{broker.tls_ca}: {exc}")
            try:
                with ctx.wrap_socket(sock, server_hostname=broker.host):
                    pass
            except (ssl.SSLError, ssl.CertificateError) as exc:
                return Problem("tls", address, str(getattr(exc, "reason", None) or exc))
            except OSError as exc:
                return Problem("tls", address, str(exc.strerror or exc))
    finally:
        sock.close()
    return Problem("unreachable", address, "the connection failed")
