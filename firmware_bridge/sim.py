"""A simulated LED board on a simulated cable: an :class:`~firmware_bridge.device.EmulatedDevice`
behind two :class:`~firmware_bridge.wire.Wire` s, with the knobs a test or a demo turns (faults,
reset, unplug, buttons). Thread-safe; driven by the port that reads and writes it (the ``ledsim://``
pyserial handler, or the pty loop of ``python -m firmware_bridge.emulator``).

Boards are kept by name so a test can reach the board behind a URL (``board("b1")`` for
``ledsim://b1``) and so a board survives its port being closed and reopened, as a real one does.
"""

from __future__ import annotations

import errno
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from serial import SerialException

from firmware_bridge.device import EmulatedDevice
from firmware_bridge.protocol import EventKind, FaultCode
from firmware_bridge.wire import Wire

Clock = Callable[[], float]


class Unplugged(SerialException):
    """The simulated USB device is gone (what pyserial raises for a vanished adapter)."""


class SimBoard:
    """An emulated board and its cable.

    :param baud: pacing of both directions, bits/s (0 = instant).
    :param latency: s added to each byte, each direction.
    :param flip: per-byte bit-flip probability, each direction.
    :param drop: per-byte loss probability, each direction.
    :param seed: seed of the fault generator (None: random).
    :param boot: s from reset to the device's HELLO.
    :param reset_on_open: opening the port resets the board (DTR wired to reset, as on Arduinos).
    :param device: the device behind the cable (default a fresh :class:`EmulatedDevice`).
    """

    def __init__(
        self,
        name: str = "",
        *,
        baud: int = 115200,
        latency: float = 0.0,
        flip: float = 0.0,
        drop: float = 0.0,
        seed: int | None = None,
        boot: float = 0.05,
        leds: int | None = None,
        reset_on_open: bool = True,
        clock: Clock = time.monotonic,
        device: Any = None,
    ) -> None:
        self.name = name
        self.clock = clock
        rng = random.Random(seed)
        self.to_device = Wire(baud, latency, flip, drop, random.Random(rng.random()))
        self.to_host = Wire(baud, latency, flip, drop, random.Random(rng.random()))
        kw: dict[str, Any] = {"boot_time": boot}
        if leds is not None:
            kw["led_count"] = leds
        # Any object with EmulatedDevice's receive/poll/next_deadline/reset/event (e.g. the compiled
        # firmware behind pipes, firmware_bridge.emulator.ProcessDevice).
        self.device = device if device is not None else EmulatedDevice(**kw)
        self.reset_on_open = reset_on_open
        self.plugged = True
        self.raw_oserror = False
        self.generation = 0  # bumped on unplug: a port opened before it stays dead
        self.attached = False
        self.stalled_until = 0.0
        self.cond = threading.Condition()
        self._rx = bytearray()
        self.device.reset(self.clock())

    # ------------------------------------------------------------------ knobs (tests, demo, pty CLI)

    def set_faults(
        self, *, flip: float | None = None, drop: float | None = None, latency: float | None = None
    ) -> None:
        """Change the cable's fault rates (both directions) from now on."""
        with self.cond:
            for wire in (self.to_device, self.to_host):
                if flip is not None:
                    wire.flip = flip
                if drop is not None:
                    wire.drop = drop
                if latency is not None:
                    wire.latency = latency

    def reset(self) -> None:
        """Press the board's reset button: it loses its state and sends HELLO after booting."""
        with self.cond:
            self.device.reset(self.clock())
            self.cond.notify_all()

    def stall(self, seconds: float) -> None:
        """The device stops reading and sending for ``seconds`` s (firmware stuck in a long job, a
        paused emulator process): what the host sends meanwhile waits in the cable and arrives all
        at once afterwards, as it would from a pty's or a USB adapter's buffer."""
        with self.cond:
            self.stalled_until = self.clock() + seconds
            self.cond.notify_all()

    def unplug(self, *, raw_oserror: bool = False) -> None:
        """Pull the USB cable. ``raw_oserror``: fail ``in_waiting`` with a bare ``OSError(EIO)``, as
        pyserial 3.5's posix port does (its ``ReaderThread`` then dies without ``connection_lost``)."""
        with self.cond:
            self.plugged = False
            self.raw_oserror = raw_oserror
            self.generation += 1
            self.to_device.clear()
            self.to_host.clear()
            self._rx.clear()
            self.cond.notify_all()

    def replug(self) -> None:
        """Plug the cable back in: the board powers up again (state lost, HELLO after boot)."""
        with self.cond:
            self.plugged = True
            self.device.reset(self.clock())
            self.cond.notify_all()

    def press(self, button: int, pressed: bool = True) -> None:
        """A button on the device changes state (an EVENT goes to the host)."""
        with self.cond:
            self.device.event(EventKind.BUTTON, button, int(pressed), self.clock())
            self.cond.notify_all()

    def fault(self, code: FaultCode, value: int = 0) -> None:
        """The device reports a fault (brown-out, strip power, ...)."""
        with self.cond:
            self.device.event(EventKind.FAULT, int(code), value, self.clock())
            self.cond.notify_all()

    # ------------------------------------------------------------------ the port side

    def _check(self, generation: int) -> None:
        if not self.plugged or generation != self.generation:
            if self.raw_oserror:
                raise OSError(errno.EIO, "Input/output error")
            raise Unplugged(f"ledsim://{self.name}: device disconnected (unplugged)")

    def attach(self) -> int:
        """A port opens the board; returns the generation the port belongs to.

        :raises SerialException: when unplugged or already open.
        """
        with self.cond:
            if not self.plugged:
                raise Unplugged(f"could not open port ledsim://{self.name}: no such device (unplugged)")
            if self.attached:
                raise SerialException(f"could not open port ledsim://{self.name}: port is busy")
            self.attached = True
            self._rx.clear()
            if self.reset_on_open:
                self.device.reset(self.clock())
            return self.generation

    def detach(self) -> None:
        """The port closed."""
        with self.cond:
            self.attached = False
            self.cond.notify_all()

    def pump(self) -> float | None:
        """Advance the simulation to now (lock held); returns the next time something happens."""
        now = self.clock()
        if not self.plugged:
            return None
        if now < self.stalled_until:
            return self.stalled_until
        data = self.to_device.receive(now)
        reply = self.device.receive(data, now) if data else b""
        reply += self.device.poll(now)
        if reply:
            self.to_host.send(reply, now)
        self._rx += self.to_host.receive(now)
        times = [t for t in (self.to_device.next_wakeup(), self.to_host.next_wakeup()) if t is not None]
        deadline = self.device.next_deadline()
        if deadline is not None:
            times.append(deadline)
        return min(times) if times else None

    def host_write(self, data: bytes, generation: int) -> None:
        """The host writes ``data`` to the port."""
        with self.cond:
            self._check(generation)
            self.pump()
            self.to_device.send(data, self.clock())
            self.cond.notify_all()

    def host_in_waiting(self, generation: int) -> int:
        """Bytes ready for the host to read."""
        with self.cond:
            self._check(generation)
            self.pump()
            return len(self._rx)

    def host_read(
        self, size: int, timeout: float | None, generation: int, cancelled: Callable[[], bool]
    ) -> bytes:
        """Read up to ``size`` bytes, waiting at most ``timeout`` s (None: until some arrive)."""
        end = None if timeout is None else self.clock() + timeout
        with self.cond:
            while True:
                self._check(generation)
                nxt = self.pump()
                if self._rx or cancelled():
                    out = bytes(self._rx[:size])
                    del self._rx[:size]
                    return out
                now = self.clock()
                if end is not None and now >= end:
                    return b""
                waits = [t - now for t in (nxt, end) if t is not None]
                self.cond.wait(max(0.0005, min(waits)) if waits else 0.5)

    def drive(self) -> tuple[bytes, float | None]:
        """For drivers such as the pty loop: the bytes that reached the host's end by now, and the
        time the simulation next needs a call."""
        with self.cond:
            nxt = self.pump()
            out = bytes(self._rx)
            self._rx.clear()
            return out, nxt

    def host_reset_input(self) -> None:
        """Discard what the host has not read yet."""
        with self.cond:
            self.pump()
            self._rx.clear()

    def kick(self) -> None:
        """Wake a blocked reader (cancel_read)."""
        with self.cond:
            self.cond.notify_all()


_BOARDS: dict[str, SimBoard] = {}
_BOARDS_LOCK = threading.Lock()


def board(name: str, **knobs: Any) -> SimBoard:
    """The simulated board called ``name`` (created with ``knobs`` the first time)."""
    with _BOARDS_LOCK:
        if name not in _BOARDS:
            _BOARDS[name] = SimBoard(name, **knobs)
        return _BOARDS[name]


def forget(name: str) -> None:
    """Remove the board ``name`` from the registry (tests use fresh names instead)."""
    with _BOARDS_LOCK:
        _BOARDS.pop(name, None)
