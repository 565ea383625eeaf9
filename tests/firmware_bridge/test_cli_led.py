"""``tavla led test`` and ``tavla led ports`` (controller/cli/led.py), and port resolution."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from controller.cli import app
from firmware_bridge import ports
from firmware_bridge.errors import DeviceNotFoundError

runner = CliRunner()


def test_led_test_on_the_emulator_lights_every_zone_and_reads_back() -> None:
    result = runner.invoke(app, ["led", "test", "--serial", "ledsim://?latency=0.001", "--step", "0"])
    assert result.exit_code == 0, result.output
    assert "firmware" in result.output and "1.0.0" in result.output
    assert "27/27 zones acknowledged" in result.output
    assert "read back identical" in result.output


def test_led_test_with_a_missing_port_is_one_line_exit_2() -> None:
    result = runner.invoke(app, ["led", "test", "--serial", "/dev/tavla-missing"])
    assert result.exit_code == 2
    assert "tavla led ports" in result.output
    assert "Traceback" not in result.output


def test_led_test_with_a_bad_layout_file_is_exit_2(tmp_path) -> None:
    bad = tmp_path / "station.toml"
    bad.write_text("[leds]\ncount = 3\n")
    result = runner.invoke(app, ["led", "test", "--config", str(bad)])
    assert result.exit_code == 2 and "station.toml" in result.output


FAKE = [
    SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, serial_number=None, description="n/a"),
    SimpleNamespace(
        device="/dev/ttyACM0", vid=0x2E8A, pid=0x000A, serial_number="E66038B7", description="Pico"
    ),
    SimpleNamespace(
        device="/dev/ttyACM1", vid=0x2E8A, pid=0x000A, serial_number="E66038C9", description="Pico"
    ),
]


@pytest.fixture
def fake_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ports.list_ports, "comports", lambda: FAKE)


def test_ports_lists_boards_first(fake_ports: None) -> None:
    result = runner.invoke(app, ["led", "ports"])
    assert result.exit_code == 0
    assert result.output.index("ttyACM0") < result.output.index("ttyS0")
    assert "usb:2e8a:000a:E66038B7" in result.output


def test_usb_specs_resolve_by_vid_pid_and_serial(fake_ports: None) -> None:
    assert ports.resolve("usb:2e8a:000a:E66038C9") == "/dev/ttyACM1"
    assert ports.resolve("usb:*:*:E66038B7") == "/dev/ttyACM0"
    assert ports.resolve("ledsim://x") == "ledsim://x"
    assert ports.resolve("/dev/ttyUSB3") == "/dev/ttyUSB3"
    with pytest.raises(DeviceNotFoundError, match="2 ports match"):
        ports.resolve("usb:2e8a:000a")
    with pytest.raises(DeviceNotFoundError, match="no serial port matches usb:2341"):
        ports.resolve("usb:2341:0043")
    with pytest.raises(DeviceNotFoundError, match="bad USB spec"):
        ports.resolve("usb:zz:1")
