"""The clock: delay + reserve, USBGF/UK presets, pause with the silent time refunded (issue 6 item 6)."""

from __future__ import annotations

import pytest

from controller.game import clock as c
from controller.game.events import DeviceChanged, Tick

from .scripted import Script


def test_presets():
    us = c.preset("usbgf", match_length=7, score=(3, 0))
    assert us.reserve == (11 * 60.0, 14 * 60.0) and us.delay == 12.0
    uk = c.preset("uk", match_length=5)
    assert uk.reserve == (600.0, 600.0) and uk.delay == 12.0
    with pytest.raises(c.ClockError, match="blitz"):
        c.preset("blitz")


def test_delay_is_free_and_the_rest_comes_off_the_reserve():
    k = c.start(c.preset("simple", reserve=100.0, delay=12.0), 0, t=0.0)
    assert k.remaining(0, 10.0) == 100.0
    k = c.start(k, 1, t=30.0)  # light used 30 s: 18 beyond the delay
    assert k.reserve[0] == 82.0 and k.running == 1


def test_pause_refunds_the_silent_time():
    k = c.start(c.preset("simple", reserve=100.0, delay=0.0), 0, t=0.0)
    # the camera last answered at 10 s; the station noticed at 25 s; back at 60 s
    k = c.pause(k, t=25.0, since=10.0)
    assert k.remaining(0, 50.0) == 90.0
    k = c.resume(k, t=60.0)
    assert k.remaining(0, 65.0) == 85.0


def test_flag_falls_when_the_reserve_is_spent():
    k = c.start(c.preset("simple", reserve=5.0, delay=1.0), 1, t=0.0)
    assert c.check_flag(k, 5.0).flag is None
    assert c.check_flag(k, 6.5).flag == 1


def test_clock_follows_turns_and_flags_in_a_game():
    s = Script(match_length=3, clock="simple", clock_reserve=20.0, clock_delay=2.0)
    s.opening(3, 1)
    assert s.state.clock.running == 0
    s.move("8/5 6/5")
    s.pickup()
    assert s.state.clock.running == 1 and s.state.clock.reserve[0] == 20.0 - (s.t - 2.0 - 2.0)
    s.feed(DeviceChanged(t=s.t + 1, device="camera", online=False))
    s.feed(Tick(t=s.t + 100))  # offline: no time runs
    assert s.state.clock.paused and s.state.phase == "to_roll"
    s.feed(DeviceChanged(t=s.t + 101, device="camera", online=True))
    out = s.feed(Tick(t=s.t + 150))
    assert ("clock", "flag") in s.codes(out)
    assert s.state.phase == "match_over" and s.state.score == (3, 0)


def test_delay_left_counts_down_then_stays_at_zero():
    k = c.start(c.preset("usbgf", 5), 0, 100.0)
    assert k.delay_left(100.0) == 12.0 and k.delay_left(109.0) == 3.0 and k.delay_left(130.0) == 0.0
    assert c.pause(k, 104.0).delay_left(200.0) == 8.0  # paused: the delay waits too
    assert c.stop(k, 105.0).delay_left(300.0) == 12.0  # no one runs: a whole delay a move
