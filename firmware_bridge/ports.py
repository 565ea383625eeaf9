"""Finding the LED device's serial port: by name, by pyserial URL, or by USB VID/PID/serial number
(``serial.tools.list_ports``), so a station survives the port's name changing after a replug.

Port specs understood by :func:`resolve`:

- a pyserial URL: ``ledsim://``, ``loop://``, ``socket://host:port``, ``rfc2217://...`` (as is);
- ``usb:VID:PID[:SERIAL]`` in hex, e.g. ``usb:2e8a:000a`` (a Raspberry Pi Pico) or
  ``usb:2341:0043:75833353035351F0E1A1``; ``*`` matches anything (``usb:*:*:SERIAL``: the serial
  number alone);
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

    :raises DeviceNotFoundError: when a ``usb:`` spec matches no port, or matches several.
    """
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
