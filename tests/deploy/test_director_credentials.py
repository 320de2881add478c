"""The director's broker password lives in a file only its owner can read (issue 11.13:
the docs put it into exported variables in ~/.bashrc, where every program the director
starts could read it). The director's tools read ``$FLOORMAN_CREDENTIALS`` (or
``~/.config/floorman/director.env``) and refuse a file others may read."""

from __future__ import annotations

import shutil

import pytest

from controller.director import CredentialsError, read_credentials, with_credentials
from controller.wire.mqtt import Broker
from tests.support.broker import MOSQUITTO
from tests.support.controller import floorman_cli
from tests.support.secure import OPENSSL

SECRET = "FLOORMAN_USERNAME=director\nFLOORMAN_PASSWORD=s3cret\nFLOORMAN_PREFIX=club/fri\n"


def write(path, text: str, mode: int):
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o666])
def test_a_file_others_may_read_is_refused(tmp_path, mode):
    path = write(tmp_path / "director.env", SECRET, mode)
    with pytest.raises(CredentialsError, match=f"mode {mode:04o}.*chmod 600"):
        read_credentials(path)


def test_an_owners_file_gives_the_account(tmp_path, monkeypatch):
    for key in ("FLOORMAN_PASSWORD", "FLOORMAN_PREFIX", "FLOORMAN_BROKER", "FLOORMAN_TLS_CA"):
        monkeypatch.delenv(key, raising=False)
    path = write(tmp_path / "director.env", SECRET + "FLOORMAN_BROKER=floorman.local:8883\n"
                 "# a comment\nPATH=/evil\n", 0o600)
    assert read_credentials(path) == {"FLOORMAN_USERNAME": "director",
                                      "FLOORMAN_PASSWORD": "s3cret",
                                      "FLOORMAN_PREFIX": "club/fri",
                                      "FLOORMAN_BROKER": "floorman.local:8883"}
    b = with_credentials(Broker(), path)
    assert (b.username, b.password, b.prefix, b.host, b.port) == (
        "director", "s3cret", "club/fri", "floorman.local", 8883)
    # the command line still wins over the file for where to connect
    b = with_credentials(Broker(port=1999, prefix="x/y"), path, address_given=True,
                         prefix_given=True)
    assert (b.port, b.prefix, b.password) == (1999, "x/y", "s3cret")


def test_a_link_is_not_followed(tmp_path):
    real = write(tmp_path / "real.env", SECRET, 0o600)
    (tmp_path / "link.env").symlink_to(real)
    with pytest.raises(CredentialsError):
        read_credentials(tmp_path / "link.env")


@pytest.mark.skipif(MOSQUITTO is None or OPENSSL is None,
                    reason="mosquitto and openssl are needed")
def test_the_director_works_from_its_credentials_file_alone(secure_broker, tmp_path):
    b = secure_broker
    ctl = b.controller(tmp_path)
    try:
        creds = tmp_path / "home" / ".config" / "floorman" / "director.env"
        creds.parent.mkdir(parents=True)
        shutil.copy(b.out / "credentials" / "director.env", creds)
        creds.chmod(0o600)
        env = {k: v for k, v in b.env("director").items()
               if k not in ("FLOORMAN_USERNAME", "FLOORMAN_PASSWORD", "FLOORMAN_PREFIX")}
        env["HOME"] = str(tmp_path / "home")
        r = floorman_cli("status", env=env)  # the default place, ~/.config/floorman
        assert r.returncode == 0, r.stderr + ctl.output()
        creds.chmod(0o644)
        r = floorman_cli("status", env=env)
        assert r.returncode == 2 and "chmod 600" in r.stderr, r.stderr
        assert "FLOORMAN_PASSWORD" not in r.stderr and "s3cret" not in r.stderr
        moved = write(tmp_path / "elsewhere.env", creds.read_text(), 0o600)
        r = floorman_cli("status", env={**env, "FLOORMAN_CREDENTIALS": str(moved)})
        assert r.returncode == 0, r.stderr
    finally:
        ctl.stop()
