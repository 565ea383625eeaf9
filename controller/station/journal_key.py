"""The station key: the secret under which the journal's entries are chained (HMAC-SHA256).

It lives outside the journal, by default in ``$XDG_CONFIG_HOME/tavla/station.key``
(``~/.config/tavla/station.key``), and is created at the station's first run: 32 random bytes
(:mod:`secrets`) written as 64 hex digits in a file of mode 0600 in a folder of mode 0700, so that
only the station's user reads it. Whoever holds the key can write entries the journal accepts; whoever
lacks it cannot, so keep a copy for the referee or the director (``tavla verify --key``) and nowhere
near the journal.

A key is named in each journal line by its *id*, the first 16 hex digits of an HMAC of a fixed text
under the key: enough to tell two stations' keys apart, nothing about the key itself.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from controller.rules.errors import TavlaError

KEY_BYTES = 32


class KeyFileError(TavlaError, ValueError):
    """A key file that cannot be used (names the file and what to do)."""


@dataclass(frozen=True)
class StationKey:
    """A station key read from ``path``; ``secret`` is never shown in its repr."""

    secret: bytes = field(repr=False)
    path: Path

    @property
    def id(self) -> str:
        """The key's public name: 16 hex digits, the same for every copy of the key."""
        return hmac.new(self.secret, b"tavla journal key id", hashlib.sha256).hexdigest()[:16]

    def mac(self, message: bytes) -> str:
        """HMAC-SHA256 of ``message`` under this key, in hex."""
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()


def default_key_path() -> Path:
    """``$XDG_CONFIG_HOME/tavla/station.key`` (``~/.config/tavla/station.key``)."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "tavla" / "station.key"


def load_key(path: str | Path) -> StationKey:
    """Read a key file (64 hex digits).

    :raises KeyFileError: when it is missing, a folder, unreadable or not a key.
    """
    p = Path(path)
    try:
        text = p.read_bytes()
    except FileNotFoundError as exc:
        raise KeyFileError(f"key file {p} does not exist") from exc
    except IsADirectoryError as exc:
        raise KeyFileError(f"key file {p} is a folder: give the key file in it") from exc
    except OSError as exc:
        raise KeyFileError(f"key file {p} cannot be read ({exc.strerror or exc})") from exc
    try:
        secret = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        secret = b""
    if len(secret) != KEY_BYTES:
        raise KeyFileError(f"{p} is not a Tavla station key (a station key holds {2 * KEY_BYTES} hex digits)")
    return StationKey(secret, p)


def private(path: Path) -> bool:
    """True when no other user may read the file (always True where modes mean nothing)."""
    if sys.platform == "win32":
        return True
    return not stat.S_IMODE(path.stat().st_mode) & 0o077


def station_key(path: str | Path | None = None) -> StationKey:
    """The station's key at ``path`` (default :func:`default_key_path`), created when absent.

    Creation is atomic: the key is written to a private temporary file that is then hard-linked to its
    name, so two stations starting at once end up with the same key, never a half-written one.

    :raises KeyFileError: when the file exists but is not a key, or other users may read it.
    """
    p = Path(path) if path is not None else default_key_path()
    if not p.exists():
        _create(p)
    key = load_key(p)
    if not private(p):
        mode = stat.S_IMODE(p.stat().st_mode)
        raise KeyFileError(f"key file {p} may be read by other users (mode {mode:o}): chmod 600 {p}")
    return key


def _create(path: Path) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES).hex().encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another station created it first: use that one
        finally:
            tmp.unlink()
    except OSError as exc:
        raise KeyFileError(f"cannot create the station key {path} ({exc.strerror or exc})") from exc
