"""LedLink against the in-process emulator (ledsim://): open, show, ACK, state, close."""

from __future__ import annotations

import pytest

from firmware_bridge import sim
from firmware_bridge.errors import DeviceNotFoundError, LinkClosedError
from firmware_bridge.events import LinkOnline
from firmware_bridge.frames import RED, Effect, LedFrame
from firmware_bridge.link import LedLink


def test_show_is_acknowledged_and_the_device_holds_the_state() -> None:
    events: list[object] = []
    with LedLink.open("ledsim://basic1?latency=0.001", on_event=events.append) as link:
        assert link.online
        assert isinstance(events[0], LinkOnline)
        frame = LedFrame.lit({0, 5, 24}, RED, Effect.BLINK, brightness=200)
        assert link.show(frame)
        assert link.state == frame
        assert sim.board("basic1").device.state == frame
        assert link.read_back().frame == frame
    assert link.closed and not link.online


def test_close_is_idempotent_and_use_after_close_is_a_clear_error() -> None:
    link = LedLink.open("ledsim://")
    link.close()
    link.close()
    with pytest.raises(LinkClosedError, match="closed"):
        link.show(LedFrame.dark())


def test_a_missing_port_is_reported_not_raised_deep_inside() -> None:
    with pytest.raises(DeviceNotFoundError, match="/dev/tavla-no-such-port"):
        LedLink.open("/dev/tavla-no-such-port")
