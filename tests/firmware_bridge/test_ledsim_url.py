"""`ledsim://` refuses unknown options and values out of range at once, naming the option and what
it allows; a link to such a URL reports it as an error (PortSpecError), never as a device that is
"not answering yet"."""

from __future__ import annotations

import time

import pytest
import serial

import firmware_bridge  # noqa: F401 - registers the ledsim:// handler
from firmware_bridge.errors import PortSpecError
from firmware_bridge.link import LedLink


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ledsim://?bogus=1", "unknown option 'bogus' (known: latency, flip"),
        ("ledsim://?flip=2", "flip=2: give a probability from 0 to 1"),
        ("ledsim://?drop=-0.1", "drop=-0.1: give a probability from 0 to 1"),
        ("ledsim://?flip=nan", "give a probability from 0 to 1"),
        ("ledsim://?leds=0", "leds=0: give a whole number of LEDs"),
        ("ledsim://?pace=2", "pace=2: give 0 or 1"),
        ("ledsim://?seed=x", "seed='x': give a whole number"),
        ("ledsim://?flip=0.1&flip=0.2", "flip is given 2 times"),
    ],
)
def test_a_bad_ledsim_url_is_refused_naming_the_option(url: str, says: str) -> None:
    for error in (ValueError, serial.SerialException):
        with pytest.raises(error, match=None) as info:
            serial.serial_for_url(url, baudrate=115200, timeout=1)
        assert says in str(info.value), str(info.value)


def test_good_ledsim_options_still_open() -> None:
    port = serial.serial_for_url("ledsim://?flip=0.01&drop=0&seed=3&leds=60&pace=0", baudrate=115200)
    port.close()


def test_a_link_to_a_bad_url_is_an_error_not_offline() -> None:
    start = time.monotonic()
    link = LedLink.open("ledsim://?bogus=1", require=False)
    try:
        assert isinstance(link.first_error, PortSpecError) and "bogus" in str(link.first_error)
        assert not link.online
    finally:
        link.close()
    assert time.monotonic() - start < 2.0
    with pytest.raises(PortSpecError, match="flip=2"):
        LedLink.open("ledsim://?flip=2")


def test_tavla_run_refuses_a_bad_ledsim_url_in_one_line(tmp_path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from controller.cli import app

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    args = ["run", "--serial", "ledsim://?bogus=1", "--journal", str(tmp_path / "j.jsonl")]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "unknown option 'bogus'" in r.output and "yet" not in r.output, r.output
