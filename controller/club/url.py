"""``--mqtt`` URLs: ``mqtt://USER:PASS@HOST:PORT`` (``mqtts://`` for TLS)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from controller.rules.errors import TavlaError

_DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class ClubError(TavlaError, ValueError):
    """A broker URL, club or board name, or a director command that cannot be used (says why)."""


@dataclass(frozen=True)
class BrokerUrl:
    """Where the broker is and who we are on it (``user`` None: anonymous)."""

    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool

    def __str__(self) -> str:  # never the password: this goes into messages and logs
        who = f"{self.user}@" if self.user else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{who}{self.host}:{self.port}"


def parse_url(text: str, anonymous: bool = False) -> BrokerUrl:
    """The broker URL; one without a user is refused unless ``anonymous`` (``--mqtt-anonymous``): a
    club's broker gives each station its own user, and an anonymous one would let anybody publish.

    :raises ClubError: on another scheme, no host, a bad port, or no user without ``anonymous``.
    """
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ClubError(f"--mqtt {text!r}: {exc}; give mqtt://USER:PASS@HOST:PORT") from None
    if parts.scheme not in _DEFAULT_PORTS:
        raise ClubError(f"--mqtt {text!r}: give mqtt://USER:PASS@HOST:PORT (or mqtts:// for TLS)")
    if not parts.hostname:
        raise ClubError(f"--mqtt {text!r} names no host: give mqtt://USER:PASS@HOST:PORT")
    user = unquote(parts.username) if parts.username else None
    if user is None and not anonymous:
        raise ClubError(
            f"--mqtt {text!r} names no user: give mqtt://USER:PASS@HOST:PORT "
            "(each station has its own), or --mqtt-anonymous for a broker without users"
        )
    password = unquote(parts.password) if parts.password is not None else None
    tls = parts.scheme == "mqtts"
    return BrokerUrl(parts.hostname, port or _DEFAULT_PORTS[parts.scheme], user, password, tls)
