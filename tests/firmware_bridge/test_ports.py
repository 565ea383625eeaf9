"""`--serial auto`: the first port whose USB VID:PID is a documented LED board (firmware_bridge.ports),
with ``serial.tools.list_ports.comports`` patched to the ports a machine might list."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from firmware_bridge import ports
from firmware_bridge.errors import DeviceNotFoundError


def _port(device: str, vid: int | None = None, pid: int | None = None, desc: str = "") -> SimpleNamespace:
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=None, description=desc)


@pytest.fixture
def listed(monkeypatch):
    found: list[SimpleNamespace] = []
    monkeypatch.setattr(ports.list_ports, "comports", lambda: list(found))
    return found


def test_auto_picks_the_pico_over_other_serial_ports(listed):
    listed += [
        _port("/dev/ttyS0", desc="n/a"),
        _port("/dev/ttyUSB0", 0x067B, 0x2303, "Prolific adapter"),  # not a documented board
        _port("/dev/ttyACM1", 0x2E8A, 0x000A, "Pico"),
    ]
    assert ports.resolve("auto") == "/dev/ttyACM1"
    assert ports.resolve("AUTO") == "/dev/ttyACM1"


@pytest.mark.parametrize(
    ("vid", "pid"), [(0x2341, 0x0043), (0x1A86, 0x7523), (0x0403, 0x6001), (0x10C4, 0xEA60)]
)
def test_auto_knows_the_arduino_and_the_usb_serial_adapters(listed, vid, pid):
    listed.append(_port("/dev/ttyUSB3", vid, pid))
    assert ports.resolve("auto") == "/dev/ttyUSB3"


def test_auto_takes_the_first_board_by_port_name(listed):
    listed += [_port("/dev/ttyACM2", 0x2E8A, 0x000A), _port("/dev/ttyACM0", 0x2341, 0x0043)]
    assert ports.resolve("auto") == "/dev/ttyACM0"


def test_auto_without_a_board_lists_what_it_found_in_one_line(listed):
    listed += [_port("/dev/ttyS0"), _port("/dev/ttyUSB0", 0x067B, 0x2303, "Prolific")]
    with pytest.raises(DeviceNotFoundError) as err:
        ports.resolve("auto")
    message = str(err.value)
    assert "\n" not in message
    assert "/dev/ttyS0" in message and "usb:067b:2303" in message and "tavla led ports" in message


def test_auto_with_no_ports_at_all(listed):
    with pytest.raises(DeviceNotFoundError, match="none"):
        ports.resolve("auto")


def test_other_specs_are_unchanged(listed):
    assert ports.resolve("ledsim://") == "ledsim://"
    assert ports.resolve("/dev/ttyACM0") == "/dev/ttyACM0"
