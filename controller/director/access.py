"""Who may command the director's page: where it listens (``--web [HOST:]PORT``, as the station's
page) and the director's PIN (``--pin``, or ``pin`` in the director's file ``--config``).

The station page's rule (controller.station.web.server.check_exposure): the page listens on 127.0.0.1
unless told otherwise, and any other address needs a PIN, for anyone on the network could otherwise
pause every board or start a round. Every command needs the PIN (controller.pin_guard: wrong ones are
slowed per client); reading the club needs none.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from controller.club.url import ClubError
from controller.pin_guard import pin_problem

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
DEFAULT_PORT = 8080
WHO = "director"
KEYS = ("pin",)  # what the director's file holds


@dataclass(frozen=True)
class Access:
    """Where the page listens and the PIN its commands need (None: no command is taken)."""

    host: str
    port: int
    pin: str | None

    @property
    def where(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def parse_web(spec: str) -> tuple[str, int]:
    """``[HOST:]PORT`` -> (host, port), the host 127.0.0.1 when left out (``[::]:8090`` for IPv6).

    :raises ClubError: on a port that is not 1-65535.
    """
    host, _, port = spec.strip().rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ClubError(f"--web {spec}: give [HOST:]PORT, e.g. 8090 or 0.0.0.0:8090")
    return host, int(port)


def file_pin(path: Path) -> str | None:
    """The ``pin`` of the director's file (TOML), None when it has none.

    :raises ClubError: when the file is missing, not TOML, or holds another key or a PIN that is no text.
    """
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise ClubError(f"--config {path}: cannot read it ({why})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ClubError(f"--config {path}: not TOML ({exc})") from None
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise ClubError(f"--config {path}: unknown key {unknown[0]!r}; the director's file holds only pin")
    pin = raw.get("pin")
    if pin is not None and not isinstance(pin, str):
        raise ClubError(f'--config {path}: pin is text, e.g. pin = "471108"')
    return pin


def access(web: str, pin: str | None, config: Path | None = None) -> Access:
    """The page's address and PIN, checked before anything starts: ``pin`` (``--pin``) before the
    file's; a PIN must be 6+ characters; an address other than the machine's own needs one.

    :raises ClubError: (one line saying what to do) otherwise.
    """
    host, port = parse_web(web)
    source = "--pin"
    if pin is None and config is not None:
        pin, source = file_pin(config), f"pin in {config}"
    if pin is not None and pin_problem(pin, WHO):
        raise ClubError(f"{source} {pin_problem(pin, WHO)}")
    if host not in LOCAL_HOSTS and not pin:
        raise ClubError(
            f"--web on {host} is reachable from other machines: set a director PIN "
            "(--pin, or pin in the --config file) or serve on 127.0.0.1"
        )
    return Access(host, port, pin)
