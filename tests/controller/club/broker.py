"""A real Mosquitto for the club's tests and bench: a generated config, password file and ACL on
127.0.0.1 at a free port; :func:`start_broker` returns None where mosquitto is not installed."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.club.acl import acl_text

CLUB = "club"
DIRECTOR = ("director", "director-pw")
MISSING = "mosquitto is not installed (Debian: apt-get install mosquitto); the club's broker tests skip"


def station_user(board: str) -> tuple[str, str]:
    return f"station-{board}", f"pw-{board}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _find(name: str) -> str | None:
    return shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.exists()), None
    )


@dataclass
class Broker:
    folder: Path
    binary: str
    port: int = field(default_factory=_free_port)
    process: subprocess.Popen[bytes] | None = None

    def url(self, user: tuple[str, str] | None = None) -> str:
        who = f"{user[0]}:{user[1]}@" if user else ""
        return f"mqtt://{who}127.0.0.1:{self.port}"

    def station_url(self, board: str) -> str:
        return self.url(station_user(board))

    def director_url(self) -> str:
        return self.url(DIRECTOR)

    def start(self) -> None:
        log = open(self.folder / "mosquitto.log", "ab")
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.folder / "mosquitto.conf")], stdout=log, stderr=log
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    why = (self.folder / "mosquitto.log").read_text()
                    raise RuntimeError(f"mosquitto exited: {why}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(5)
            self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()


def start_broker(folder: Path, boards: int = 32) -> Broker | None:
    """A running broker for club :data:`CLUB` with a user per board 1..``boards`` and the director."""
    binary, passwd = _find("mosquitto"), _find("mosquitto_passwd")
    if binary is None or passwd is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    users = {str(b): station_user(str(b)) for b in range(1, boards + 1)}
    pw = folder / "passwd"
    pw.write_text("".join(f"{u}:{p}\n" for u, p in [DIRECTOR, *users.values()]))
    pw.chmod(0o600)
    subprocess.run([passwd, "-U", str(pw)], check=True, capture_output=True)  # hashes the file in place
    acl = folder / "acl"
    acl.write_text(acl_text(CLUB, {b: u for b, (u, _) in users.items()}, DIRECTOR[0]))
    broker = Broker(folder, binary)
    (folder / "mosquitto.conf").write_text(
        f"listener {broker.port} 127.0.0.1\n"
        "allow_anonymous false\n"
        f"password_file {pw}\n"
        f"acl_file {acl}\n"
        # as root (CI) mosquitto drops to user "mosquitto", who cannot read these files: stay ourselves
        f"user {getpass.getuser()}\n"
        "persistence true\n"
        f"persistence_location {folder}/\n"
        "autosave_interval 1\n"
        "max_queued_messages 100000\n"
        f"log_dest file {folder}/broker-own.log\n"
    )
    broker.start()
    return broker
