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
