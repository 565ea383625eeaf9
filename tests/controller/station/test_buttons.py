"""Buttons through gpiozero MockFactory pins (a fresh factory per test, as gpiozero's own tests do)."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from controller.station.buttons import ButtonError, ButtonPanel

PINS = {"clock_light": 17, "clock_dark": 27, "dispute": 22, "double": 23, "take": 24, "drop": 25}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def panel(factory):
    q: queue.Queue = queue.Queue()
    p = ButtonPanel(PINS, q.put, pin_factory=factory, long_press=0.15, double_window=0.12, bounce_time=None)
    yield p, q, factory
    p.close()


def _press(factory, pin, hold=0.01):
    factory.pin(pin).drive_low()
    time.sleep(hold)
    factory.pin(pin).drive_high()


def _next(q, timeout=2.0):
    return q.get(timeout=timeout)


def test_clock_buttons_report_the_player_at_once(panel):
    p, q, f = panel
    f.pin(27).drive_low()
    ev = _next(q, 0.5)
    f.pin(27).drive_high()
    assert (ev.button, ev.player, ev.gesture) == ("clock", 1, "short")


def test_dispute_short_long_and_double_press(panel):
    p, q, f = panel
    _press(f, 22)
    assert _next(q).gesture == "short"
    _press(f, 22, hold=0.3)
    assert _next(q).gesture == "long"
    _press(f, 22)
    time.sleep(0.02)
    _press(f, 22)
    assert _next(q).gesture == "double"
    time.sleep(0.2)
    assert q.empty()  # the double press gave one event, not three


def test_take_double_press_is_a_beaver(panel):
    p, q, f = panel
    _press(f, 24)
    time.sleep(0.02)
    _press(f, 24)
    ev = _next(q)
    assert (ev.button, ev.gesture) == ("take", "double")


def test_debounce_swallows_contact_bounce(factory):
    q: queue.Queue = queue.Queue()
    with ButtonPanel({"drop": 25}, q.put, pin_factory=factory, bounce_time=0.05):
        pin = factory.pin(25)
        for _ in range(4):  # a bouncing contact: four edges within a few ms
            pin.drive_low()
            pin.drive_high()
        time.sleep(0.1)
        assert q.qsize() == 1


def panel_is_down(factory):
    return factory.pin(25).state == 0


def test_press_after_bounce_settles_counts(factory):
    q: queue.Queue = queue.Queue()
    with ButtonPanel({"drop": 25}, q.put, pin_factory=factory, bounce_time=0.03):
        pin = factory.pin(25)
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()
        pin.drive_high()
        time.sleep(0.1)
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()
        time.sleep(0.05)
        assert q.qsize() == 2


def test_bad_config_is_named(factory):
    with pytest.raises(ButtonError, match="horn"):
        ButtonPanel({"horn": 5}, print, pin_factory=factory)
    with pytest.raises(ButtonError, match="two buttons"):
        ButtonPanel({"take": 5, "drop": 5}, print, pin_factory=factory)


def test_the_pi_guide_and_the_example_station_file_give_the_same_pins():
    """`tavla config example` put double on 23 and take on 24 while hardware_docs/raspberry-pi.md had
    a second dispute button on 23 and a "cube" button on 24, neither a role the panel knows. The
    guide's table now lists each [buttons] key with the example's pin."""
    import re
    import tomllib
    from pathlib import Path

    from controller.station.buttons import ROLES
    from controller.station.config import EXAMPLE

    guide = (Path(__file__).parents[3] / "hardware_docs" / "raspberry-pi.md").read_text()
    table = {key: int(pin) for key, pin in re.findall(r"\| `(\w+)` \| (\d+) \(\d+\) \|", guide)}
    section = EXAMPLE.split("[buttons]", 1)[1].split("\n[", 1)[0]
    example = tomllib.loads("\n".join(line.lstrip("# ") for line in section.splitlines()[1:]))
    assert table == example and set(table) == set(ROLES), (table, example)
    ButtonPanel(table, lambda ev: None, pin_factory=MockFactory()).close()  # a panel takes them as they are
