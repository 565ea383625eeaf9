"""The players' buttons through gpiozero (issue 6 item 4): per player a clock / turn-done button, a shared
dispute button, and the cube buttons (double, take, drop).

Gestures, where each is natural:

- clock, double, drop: a **short** press, reported at once (a clock must not wait);
- clock in the home mode (``clock_long_press``): a short press is reported when the button is let go,
  and holding it ``long_press`` s is a **long** press, a hint request -- the press cannot be reported
  at once, since a turn ended by it could no longer be hinted (the clock is a home clock then);
- dispute: short = the opponent accepts the move as played, **long** (held ``long_press`` s) = he
  demands the legal move, **double** press = "the camera is wrong: use the players' correction";
  with no dispute open, **long** = "mix the dice" (allowed only before a game's opening roll, B15);
- take: short = take, **double** press = beaver (RULES.md B11).

Debounce is done here, in software, per button: an edge within ``bounce_time`` of the last accepted
edge of that button is ignored. (gpiozero's own ``bounce_time`` depends on the pin driver -- its mock
pins ignore it -- so doing it here behaves the same on every back end.) Every gesture becomes a
:class:`controller.game.events.ButtonPressed` handed to ``submit`` (the station's queue; called from
gpiozero's threads).

Wiring: each button between its BCM pin and ground, internal pull-up on (gpiozero ``Button``
default). Pins come from the station config (``[buttons]``, controller.station.config). Tests pass
``pin_factory=gpiozero.pins.mock.MockFactory()``; the pins are then driven with
``pin_factory.pin(n).drive_low()`` / ``drive_high()``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from controller.game.events import ButtonPressed, Event
from controller.rules.errors import TavlaError

# config name -> (button, player)
ROLES: dict[str, tuple[str, int | None]] = {
    "clock_light": ("clock", 0),
    "clock_dark": ("clock", 1),
    "dispute": ("dispute", None),
    "double": ("double", None),
    "take": ("take", None),
    "drop": ("drop", None),
}
_DOUBLE_PRESS = {"dispute", "take"}
_LONG_PRESS = {"dispute"}


class ButtonError(TavlaError, ValueError):
    """An unknown button name or a pin used twice (names it)."""


class ButtonPanel:
    """The station's buttons.

    :param pins: config name (:data:`ROLES`) -> BCM pin number.
    :param submit: called with each :class:`ButtonPressed` (any thread).
    :param pin_factory: gpiozero pin factory (None: gpiozero's default, i.e. the real pins).
    :param long_press: seconds held for a long press.
    :param double_window: seconds within which a second press makes a double press.
    :param bounce_time: debounce, seconds.
    :param clock: the station time source (s) stamped on the events.
    :param clock_long_press: the clock buttons tell a long press (a hint) from a short one (the
        home mode); else a clock press is reported at once.
    :raises ButtonError: on an unknown name or a pin used twice.
    """

    def __init__(
        self,
        pins: dict[str, int],
        submit: Callable[[Event], Any],
        pin_factory: Any = None,
        long_press: float = 1.0,
        double_window: float = 0.4,
        bounce_time: float | None = 0.02,
        clock: Callable[[], float] = time.monotonic,
        clock_long_press: bool = False,
    ) -> None:
        from gpiozero import Button

        unknown = set(pins) - set(ROLES)
        if unknown:
            raise ButtonError(f"unknown button(s) {', '.join(sorted(unknown))}; known: {', '.join(ROLES)}")
        if len(set(pins.values())) != len(pins):
            raise ButtonError(f"a pin is used by two buttons: {pins}")
        self.submit = submit
        self.clock = clock
        self.double_window = double_window
        self.buttons: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._pending: dict[str, threading.Timer] = {}
        self._held: set[str] = set()
        self._closed = False
        self.bounce_time = bounce_time or 0.0
        self._last_edge: dict[str, float] = {}
        self._down: set[str] = set()
        self._long_press = _LONG_PRESS | ({"clock"} if clock_long_press else set())
        for name, pin in pins.items():
            button, _ = ROLES[name]
            b = Button(pin, pull_up=True, hold_time=long_press, pin_factory=pin_factory)
            b.when_pressed = lambda _d=None, n=name: self._edge(n, True)
            b.when_released = lambda _d=None, n=name: self._edge(n, False)
            if button in self._long_press:
                b.when_held = lambda _d=None, n=name: self._long(n)
            self.buttons[name] = b

    def _emit(self, name: str, gesture: str) -> None:
        button, player = ROLES[name]
        if not self._closed:
            self.submit(ButtonPressed(t=self.clock(), button=button, player=player, gesture=gesture))

    def _edge(self, name: str, down: bool) -> None:
        now = time.monotonic()
        with self._lock:
            if (name in self._down) == down:
                return  # no change after a swallowed bounce
            last = self._last_edge.get(name)
            if last is not None and now - last < self.bounce_time:
                # a bounce; once the contact has settled, follow the pin's real level
                timer = threading.Timer(self.bounce_time, self._settle, args=(name,))
                timer.daemon = True
                timer.start()
                return
            self._last_edge[name] = now
            (self._down.add if down else self._down.discard)(name)
        (self._pressed if down else self._released)(name)

    def _settle(self, name: str) -> None:
        b = self.buttons.get(name)
        if b is None or self._closed:
            return
        try:
            pressed = bool(b.is_pressed)
        except Exception:  # closed meanwhile
            return
        if pressed != (name in self._down):
            self._edge(name, pressed)

    def _pressed(self, name: str) -> None:
        button, _ = ROLES[name]
        if button not in _DOUBLE_PRESS and button not in self._long_press:
            self._emit(name, "short")
            return
        with self._lock:
            timer = self._pending.pop(name, None)
        if timer is not None:  # second press within the window
            timer.cancel()
            self._emit(name, "double")
            with self._lock:
                self._held.add(name)  # swallow this press's release
            return

    def _long(self, name: str) -> None:
        with self._lock:
            self._held.add(name)
        self._emit(name, "long")

    def _released(self, name: str) -> None:
        button, _ = ROLES[name]
        if button not in _DOUBLE_PRESS and button not in self._long_press:
            return
        with self._lock:
            if name in self._held:
                self._held.discard(name)
                return
        if button not in _DOUBLE_PRESS:
            self._emit(name, "short")
            return
        timer = threading.Timer(self.double_window, self._single, args=(name,))
        timer.daemon = True
        with self._lock:
            self._pending[name] = timer
        timer.start()

    def _single(self, name: str) -> None:
        with self._lock:
            if self._pending.pop(name, None) is None:
                return
        self._emit(name, "short")

    def close(self) -> None:
        """Release the pins and drop pending presses (idempotent)."""
        self._closed = True
        with self._lock:
            timers = list(self._pending.values())
            self._pending.clear()
        for timer in timers:
            timer.cancel()
        for b in self.buttons.values():
            b.close()
        self.buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
