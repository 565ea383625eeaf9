"""Finding the LED device's serial port: by name, by pyserial URL, or by USB VID/PID/serial number
(``serial.tools.list_ports``), so a station survives the port's name changing after a replug.

Port specs understood by :func:`resolve`:

- a pyserial URL: ``ledsim://``, ``loop://``, ``socket://host:port``, ``rfc2217://...`` (as is);
- ``usb:VID:PID[:SERIAL]`` in hex, e.g. ``usb:2e8a:000a`` (a Raspberry Pi Pico) or
  ``usb:2341:0043:75833353035351F0E1A1``; ``*`` matches anything (``usb:*:*:SERIAL``: the serial
  number alone);
- ``auto``: the first port (in name order) whose USB VID:PID is one of :data:`BOARD_IDS`, the boards
  and USB-serial adapters the firmware runs on or behind (hardware_docs/flashing.md, parts.md);
- anything else is a port name (``/dev/ttyACM0``, ``/dev/serial/by-id/...``, ``COM3``).
"""

from __future__ import annotations

from dataclasses import dataclass

from serial.tools import list_ports

from firmware_bridge.errors import DeviceNotFoundError

# USB vendors of boards and adapters the firmware runs on or behind (for `tavla led ports`).
KNOWN_VENDORS = {
    0x2E8A: "Raspberry Pi (RP2040)",
    0x2341: "Arduino",
    0x1A86: "WCH CH340 adapter",
    0x10C4: "Silicon Labs CP210x adapter",
    0x0403: "FTDI adapter",
    0x239A: "Adafruit",
}

# USB VID:PID of the boards and adapters `--serial auto` picks (hardware_docs/parts.md, flashing.md):
# the documented ones only, so `auto` never grabs an unrelated serial gadget of a known vendor.
BOARD_IDS: dict[tuple[int, int], str] = {
    (0x2E8A, 0x000A): "Raspberry Pi Pico (RP2040)",
    (0x2E8A, 0x0005): "Raspberry Pi Pico (RP2040, MicroPython)",
    (0x2E8A, 0xF00A): "Raspberry Pi Pico W",
    (0x2341, 0x0043): "Arduino Uno",
    (0x2341, 0x0001): "Arduino Uno (old)",
    (0x2341, 0x0058): "Arduino Nano Every",
    (0x2341, 0x8036): "Arduino Leonardo",
    (0x1A86, 0x7523): "CH340 adapter (Arduino Nano clones)",
    (0x1A86, 0x55D4): "CH9102 adapter",
    (0x0403, 0x6001): "FTDI FT232R adapter",
    (0x0403, 0x6015): "FTDI FT231X adapter",
    (0x10C4, 0xEA60): "Silicon Labs CP210x adapter",
}


@dataclass(frozen=True)
class PortInfo:
    """One serial port the OS lists."""

    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None
    description: str

    @property
    def likely_led_board(self) -> bool:
        """True for a USB vendor the firmware's boards use."""
        return self.vid in KNOWN_VENDORS

    @property
    def known_board(self) -> str | None:
        """The board's name when its VID:PID is one ``--serial auto`` picks (:data:`BOARD_IDS`)."""
        if self.vid is None or self.pid is None:
            return None
        return BOARD_IDS.get((self.vid, self.pid))

    @property
    def usb_spec(self) -> str | None:
        """The ``usb:VID:PID[:SERIAL]`` spec that finds this port again after a replug."""
        if self.vid is None or self.pid is None:
            return None
        spec = f"usb:{self.vid:04x}:{self.pid:04x}"
        return f"{spec}:{self.serial_number}" if self.serial_number else spec


def candidates() -> list[PortInfo]:
    """Every serial port the OS lists, likely LED boards first."""
    ports = [
        PortInfo(p.device, p.vid, p.pid, p.serial_number, p.description or "")
        for p in list_ports.comports()
    ]
    return sorted(ports, key=lambda p: (not p.likely_led_board, p.device))


def parse_usb_spec(spec: str) -> tuple[int | None, int | None, str | None]:
    """``usb:VID:PID[:SERIAL]`` -> (vid, pid, serial). :raises DeviceNotFoundError: if malformed."""
    parts = [None if p in ("", "*") else p for p in spec.split(":", 3)[1:]]
    try:
        vid = int(parts[0], 16) if parts and parts[0] else None
        pid = int(parts[1], 16) if len(parts) > 1 and parts[1] else None
    except ValueError as exc:
        raise DeviceNotFoundError(
            f"bad USB spec {spec!r}: write usb:VID:PID[:SERIAL] with VID and PID in hex"
        ) from exc
    serial_number = parts[2] if len(parts) > 2 and parts[2] else None
    if vid is None and pid is None and serial_number is None:
        raise DeviceNotFoundError(f"bad USB spec {spec!r}: write usb:VID:PID[:SERIAL]")
    return vid, pid, serial_number


def resolve(spec: str) -> str:
    """The port name or URL to open for ``spec`` (see the module docstring).

    :raises DeviceNotFoundError: when a ``usb:`` spec matches no port, or matches several; when
        ``auto`` finds no known board (the message lists the ports present).
    """
    if spec.strip().lower() == "auto":
        return find_board().device
    if "://" in spec or not spec.lower().startswith("usb:"):
        return spec
    vid, pid, serial_number = parse_usb_spec(spec)
    found = [
        p
        for p in candidates()
        if (vid is None or p.vid == vid)
        and (pid is None or p.pid == pid)
        and (serial_number is None or p.serial_number == serial_number)
    ]
    if len(found) == 1:
        return found[0].device
    listed = ", ".join(f"{p.device} ({p.usb_spec})" for p in candidates() if p.usb_spec) or "none"
    if not found:
        raise DeviceNotFoundError(f"no serial port matches {spec}; USB ports present: {listed}")
    raise DeviceNotFoundError(
        f"{len(found)} ports match {spec}: add the serial number (usb:VID:PID:SERIAL); present: {listed}"
    )


def find_board() -> PortInfo:
    """The first port (by name) whose USB VID:PID is a documented LED board or adapter (``auto``).

    :raises DeviceNotFoundError: when none is plugged in (one line listing the ports present).
    """
    ports = candidates()
    boards = sorted((p for p in ports if p.known_board), key=lambda p: p.device)
    if boards:
        return boards[0]
    present = ", ".join(f"{p.device} ({p.usb_spec or p.description or 'no USB IDs'})" for p in ports)
    raise DeviceNotFoundError(
        f"--serial auto found no LED board (ports present: {present or 'none'}); "
        "plug the board in, or list the ports with `tavla led ports` and give one to --serial"
    )
