"""The LED frame value type the controller hands to the link (firmware_bridge/frames.py)."""

from __future__ import annotations

import pytest

from firmware_bridge.frames import BAR_ZONE, GREEN, OFF, ZONE_COUNT, Effect, LedFrame, ZoneLight


def test_lit_frame_lights_exactly_the_given_zones() -> None:
    frame = LedFrame.lit({0, 5, BAR_ZONE})
    assert frame.lit_zones() == {0, 5, BAR_ZONE}
    assert frame.zones[5] == ZoneLight(GREEN, Effect.STEADY)
    assert frame.zones[1].colour == OFF


def test_dark_frame_has_every_zone_off() -> None:
    assert LedFrame.dark().lit_zones() == frozenset()
    assert len(LedFrame.dark().zones) == ZONE_COUNT


@pytest.mark.parametrize(
    "build",
    [
        lambda: LedFrame(tuple(ZoneLight() for _ in range(ZONE_COUNT - 1))),
        lambda: LedFrame.lit({ZONE_COUNT}),
        lambda: LedFrame.lit({0: (256, 0, 0)}),
        lambda: LedFrame.dark(brightness=300),
    ],
)
def test_bad_frames_are_refused_with_a_value_error(build) -> None:
    with pytest.raises(ValueError):
        build()
