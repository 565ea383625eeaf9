"""A page's PIN and its guard: wrong PINs and floods of actions are slowed per client address. The
station's page guards the referee's actions with it (controller.station.web.server), the director's
page its commands (controller.director.web): ``who`` names whose PIN it is in the messages.

Own code rather than a library: a token bucket and a doubling lock-out are a few lines, and the web
framework (aiohttp) has no rate limiter of its own.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field

WRONG_PINS_FREE = 3  # wrong PINs allowed before the lock-out starts
LOCKOUT_FIRST_S = 2.0
LOCKOUT_MAX_S = 300.0
ACTIONS_PER_S = 5.0
ACTION_BURST = 10
MAX_CLIENTS = 1024  # addresses remembered; the oldest are forgotten past that
# at least six characters: with three free tries and a doubling lock-out a guesser from one address
# gets a few hundred tries a day, so 10**6 digit PINs hold for years, 10**4 only for weeks
MIN_PIN = 6
MAX_PIN = 64


@dataclass
class _Client:
    wrong: int = 0
    locked_until: float = 0.0
    tokens: float = ACTION_BURST
    refilled: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class Verdict:
    """``ok``; else ``status`` (401 wrong PIN, 403 no PIN set, 429 slowed) and ``why`` in one line,
    ``retry_after`` seconds."""

    ok: bool
    status: int = 200
    why: str = ""
    retry_after: float = 0.0


def pin_problem(pin: str, who: str = "referee") -> str:
    """Why ``pin`` cannot be the ``who``'s PIN, in a few words ('' when it can): 6 to 64 printable
    characters (digits, letters or both), no spaces."""
    if len(pin) < MIN_PIN:
        return f"is {len(pin)} characters; a {who} PIN needs {MIN_PIN} or more (digits, letters or both)"
    if len(pin) > MAX_PIN:
        return f"is longer than {MAX_PIN} characters"
    if not pin.isprintable() or any(c.isspace() for c in pin):
        return "holds a space or a control character; use digits and letters"
    return ""


class Guard:
    """Checks the PIN (constant time) and the rate of each client's actions. ``who`` and ``where``
    (how to set the PIN) word the answer when none is set."""

    def __init__(
        self,
        pin: str | None,
        now: Callable[[], float] = time.monotonic,
        who: str = "referee",
        where: str = "--pin or `pin` in the station file",
    ) -> None:
        self.pin = pin
        self.now = now
        self.who = who
        self.where = where
        self._clients: dict[str, _Client] = {}

    def check(self, client: str, pin: object) -> Verdict:
        t = self.now()
        c = self._client(client, t)
        if c.locked_until > t:
            wait = c.locked_until - t
            return Verdict(False, 429, f"too many wrong PINs: try again in {wait:.0f} s", wait)
        slowed = self._take(c, t)
        if slowed is not None:
            return slowed
        if not self.pin:
            return Verdict(False, 403, f"no {self.who} PIN is set: give {self.where}")
        # surrogatepass: JSON may carry a lone surrogate ("\ud800"), which plain UTF-8 refuses to encode
        given = pin.encode("utf-8", "surrogatepass") if isinstance(pin, str) else None
        if given is None or not hmac.compare_digest(given, self.pin.encode("utf-8", "surrogatepass")):
            c.wrong += 1
            if c.wrong > WRONG_PINS_FREE:
                lock = min(LOCKOUT_MAX_S, LOCKOUT_FIRST_S * 2 ** (c.wrong - WRONG_PINS_FREE - 1))
                c.locked_until = t + lock
                return Verdict(False, 429, f"wrong PIN; locked for {lock:.0f} s", lock)
            return Verdict(False, 401, "wrong PIN")
        c.wrong = 0
        return Verdict(True)

    def rate(self, client: str) -> Verdict:
        """A request that needs no PIN (the players' hint request): only the rate is checked."""
        t = self.now()
        return self._take(self._client(client, t), t) or Verdict(True)

    @staticmethod
    def _take(c: _Client, t: float) -> Verdict | None:
        """One token from the client's bucket; a 429 verdict when it is empty."""
        c.tokens = min(ACTION_BURST, c.tokens + (t - c.refilled) * ACTIONS_PER_S)
        c.refilled = t
        if c.tokens < 1.0:
            return Verdict(False, 429, "too many actions: at most 5 a second", 1.0 / ACTIONS_PER_S)
        c.tokens -= 1.0
        return None

    def _client(self, client: str, t: float) -> _Client:
        c = self._clients.get(client)
        if c is None:
            if len(self._clients) >= MAX_CLIENTS:
                self._clients.pop(next(iter(self._clients)))
            c = self._clients[client] = _Client(refilled=t)
        return c
