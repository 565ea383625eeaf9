"""`LedLink.read_back` on a mildly noisy line (the `tavla led test` of a fresh user): every frame is
acknowledged, so the read-back must ask again until an intact report comes and then show the very
state the device last acknowledged, not "read back DIFFERENT"."""

from __future__ import annotations

import pytest

from firmware_bridge.frames import AMBER, BLUE, GREEN, RED, ZONE_COUNT, Effect, LedFrame, ZoneLight
from firmware_bridge.link import LedLink

PATTERN = LedFrame(
    tuple(
        ZoneLight(GREEN)
        if z < 24
        else ZoneLight(AMBER, Effect.BLINK)
        if z == 24
        else ZoneLight(BLUE, Effect.PULSE)
        for z in range(ZONE_COUNT)
    ),
    brightness=128,
)


# seeds whose first report (or first ten) was corrupted or lost before the read-back retried
@pytest.mark.parametrize("faults", ["flip=0.01&seed=6", "flip=0.01&seed=1", "drop=0.02&seed=3"])
def test_read_back_retries_until_an_intact_report(faults: str) -> None:
    with LedLink.open(f"ledsim://?{faults}") as link:
        for zone in range(ZONE_COUNT):
            assert link.show(LedFrame.lit({zone}, RED, brightness=160))
        assert link.show(PATTERN)
        # the simulated line runs at its baud rate in real time: on a loaded machine (four test
        # workers on two cores) the retries of the default 3 s can run out before a report gets
        # through; the test is about retrying, not about how long a busy machine takes
        report = link.read_back(timeout=15.0)
        assert report.frame == PATTERN
        # under that load the link may also have re-handshaken (its liveness ran out) and be
        # re-sending the state, so `state` is None for a moment: once synced it is the pattern again
        assert link.wait_synced(15.0)
        assert link.state == PATTERN
