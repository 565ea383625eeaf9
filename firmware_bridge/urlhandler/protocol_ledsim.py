"""pyserial URL handler ``ledsim://[NAME][?option=value&...]``: an emulated LED board in-process
(STYLE.md principle 10), so the station talks to it exactly as to a real port.

Options (all optional): ``latency`` (s per byte, each way), ``flip`` and ``drop`` (per-byte fault
probabilities), ``seed``, ``boot`` (s to HELLO), ``leds`` (strip length), ``reset_on_open`` (0/1,
default 1, as an Arduino whose DTR resets it), ``pace`` (0/1, default 1: bytes take 10/baud s).

``NAME`` picks a board kept across opens (``firmware_bridge.sim.board(NAME)`` reaches its knobs:
faults, reset, unplug, buttons); no name gives a fresh private board on every open.

>>> import firmware_bridge, serial
>>> port = serial.serial_for_url("ledsim://?latency=0.001", baudrate=115200, timeout=1)
>>> port.device.state is None
True
>>> port.close()
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING, Any

from serial import PortNotOpenError, SerialBase, SerialException

from firmware_bridge.sim import SimBoard, board

if TYPE_CHECKING:  # collections.abc.Buffer is 3.12+; pyserial's stubs type write() with this one
    from typing_extensions import Buffer

_FLOAT_OPTIONS = ("latency", "flip", "drop", "boot")
_INT_OPTIONS = ("seed", "leds", "reset_on_open", "pace")
#: option -> (lowest, highest, the allowed values in words); None: any value of its type
_RANGES: dict[str, tuple[float, float, str] | None] = {
    "latency": (0.0, 10.0, "seconds per byte from 0 to 10"),
    "flip": (0.0, 1.0, "a probability from 0 to 1"),
    "drop": (0.0, 1.0, "a probability from 0 to 1"),
    "boot": (0.0, 60.0, "seconds from 0 to 60"),
    "seed": None,
    "leds": (1, 65535, "a whole number of LEDs from 1 to 65535"),
    "reset_on_open": (0, 1, "0 or 1"),
    "pace": (0, 1, "0 or 1"),
}


class LedsimURLError(SerialException, ValueError):
    """A ``ledsim://`` URL with an unknown option or a value out of range (a ``ValueError`` as well,
    so the link knows retrying the same URL cannot help)."""


def _option(option: str, text: str) -> float | int:
    """The value of one URL option. :raises ValueError: naming the option and its allowed values."""
    limits = _RANGES[option]
    allowed = limits[2] if limits is not None else "a whole number"
    try:
        value: float | int = float(text) if option in _FLOAT_OPTIONS else int(text)
    except ValueError:
        raise ValueError(f"{option}={text!r}: give {allowed}") from None
    if limits is not None and not (limits[0] <= value <= limits[1]):  # NaN fails too
        raise ValueError(f"{option}={text}: give {allowed}")
    return value


class Serial(SerialBase):
    """A pyserial port onto a :class:`~firmware_bridge.sim.SimBoard`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.board: SimBoard | None = None
        self._generation = 0
        self._cancelled = False
        super().__init__(*args, **kwargs)

    @property
    def device(self) -> Any:
        """The emulated device behind this port (``EmulatedDevice``: its ``state``, ``render``)."""
        if self.board is None:
            raise PortNotOpenError()
        return self.board.device

    def open(self) -> None:
        """Open (attach to) the board. :raises SerialException: bad URL, unplugged or busy board."""
        if self.is_open:
            raise SerialException("Port is already open.")
        if self.port is None:
            raise SerialException("Port must be configured before it can be used.")
        name, knobs = self.from_url(self.port)
        pace = knobs.pop("pace", 1)
        knobs["baud"] = self.baudrate if pace else 0
        if "reset_on_open" in knobs:
            knobs["reset_on_open"] = bool(knobs["reset_on_open"])
        if name:
            b = board(name, **knobs)
            b.set_faults(**{k: knobs[k] for k in ("flip", "drop", "latency") if k in knobs})
        else:
            b = SimBoard("", **knobs)
        self._generation = b.attach()
        self.board = b
        self._cancelled = False
        self.is_open = True

    def close(self) -> None:
        """Close the port; the board stays (and keeps its LED state)."""
        if self.is_open and self.board is not None:
            self.board.detach()
        self.is_open = False

    def from_url(self, url: str) -> tuple[str, dict[str, Any]]:
        """Parse ``ledsim://NAME?k=v``.

        :raises LedsimURLError: (a ``SerialException`` and a ``ValueError``) on a bad scheme, an
            unknown option, or a value outside its range (``flip=2``), naming the allowed values.
        """
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "ledsim":
            raise LedsimURLError(f"expected ledsim://[NAME][?option=value]: got {url!r}")
        knobs: dict[str, Any] = {}
        for option, values in urllib.parse.parse_qs(parts.query, keep_blank_values=True).items():
            try:
                if option not in _RANGES:
                    raise ValueError(
                        f"unknown option {option!r} (known: {', '.join(_FLOAT_OPTIONS + _INT_OPTIONS)})"
                    )
                if len(values) > 1:
                    raise ValueError(f"{option} is given {len(values)} times; give it once")
                knobs[option] = _option(option, values[0])
            except ValueError as exc:
                raise LedsimURLError(f"ledsim URL {url!r}: {exc}") from exc
        return parts.netloc + parts.path.strip("/"), knobs

    def _reconfigure_port(self, force_update: bool = False) -> None:
        if self.board is not None and self.is_open:
            pace = self.board.to_device.baud != 0
            for wire in (self.board.to_device, self.board.to_host):
                wire.baud = self.baudrate if pace else 0

    def _board(self) -> SimBoard:
        if not self.is_open or self.board is None:
            raise PortNotOpenError()
        return self.board

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read. Raises like a vanished USB adapter when unplugged."""
        return self._board().host_in_waiting(self._generation)

    def read(self, size: int = 1) -> bytes:
        """Read up to ``size`` bytes within the port's timeout."""
        b = self._board()
        self._cancelled = False
        out = bytearray()
        while len(out) < size:
            chunk = b.host_read(size - len(out), self.timeout, self._generation, lambda: self._cancelled)
            if not chunk:
                break
            out += chunk
            if self.timeout == 0:
                break
        return bytes(out)

    def write(self, data: Buffer) -> int:
        """Send ``data`` to the device."""
        b = self._board()
        data = bytes(data)
        b.host_write(data, self._generation)
        return len(data)

    def cancel_read(self) -> None:
        """Wake a blocked :meth:`read` (pyserial's ReaderThread.stop uses it)."""
        self._cancelled = True
        if self.board is not None:
            self.board.kick()

    def reset_input_buffer(self) -> None:
        """Discard unread input."""
        self._board().host_reset_input()

    def reset_output_buffer(self) -> None:
        """Nothing is buffered on the way out (the wire queues it)."""
        self._board()

    @property
    def out_waiting(self) -> int:
        """Always 0: writes go to the wire at once."""
        return 0

    def _update_dtr_state(self) -> None:
        pass

    def _update_rts_state(self) -> None:
        pass

    def _update_break_state(self) -> None:
        pass
