"""Effects are rendered by the device (so link jitter never shows): the C core's integer rendering
(64-step cosine table, no FPU) follows the Python model's within a few levels, LED by LED."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest

from firmware_bridge.device import EmulatedDevice
from firmware_bridge.frames import AMBER, BLUE, GREEN, RED, WHITE, ZONE_COUNT, Effect, LedFrame, ZoneLight
from firmware_bridge.layout import DEFAULT_LAYOUT, Layout
from firmware_bridge.protocol import SetLayout, SetState, encode

LAYOUT = Layout.serpentine(leds_per_point=2, bar_leds=2, off_leds=1)
FRAME = LedFrame(
    tuple(
        ZoneLight((RED, GREEN, BLUE, AMBER)[z % 4], Effect(z % 3)) if z % 5 else ZoneLight()
        for z in range(ZONE_COUNT)
    ),
    brightness=200,
)
TIMES_MS = [0, 90, 250, 499, 500, 777, 1000, 1250, 1500, 1999, 2600]
TOLERANCE = {Effect.STEADY: 1, Effect.BLINK: 1, Effect.PULSE: 12}  # the table's 31 ms steps


def python_render(stream: bytes, t_ms: int) -> list[tuple[int, int, int]]:
    dev = EmulatedDevice(boot_time=0, led_count=LAYOUT.led_count)
    dev.reset(0)
    dev.poll(0)
    dev.receive(stream, 0)
    return dev.render(t_ms / 1000)


@pytest.fixture(scope="module")
def c_render(host_binary: Path):
    proc = subprocess.Popen(
        [str(host_binary), "--render", "--leds", str(LAYOUT.led_count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def render(stream: bytes, t_ms: int) -> list[tuple[int, int, int]]:
        proc.stdin.write(struct.pack("<I", len(stream)) + stream + struct.pack("<I", t_ms))
        raw = bytearray()
        while len(raw) < 3 * LAYOUT.led_count:
            raw += proc.stdout.read(3 * LAYOUT.led_count - len(raw))
        return [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]  # type: ignore[misc]

    yield render
    proc.stdin.close()
    assert proc.wait(5) == 0


@pytest.mark.parametrize("t_ms", TIMES_MS)
def test_c_rendering_follows_the_python_model(c_render, t_ms: int) -> None:
    stream = encode(SetLayout(LAYOUT.runs()), 1) + encode(SetState(FRAME), 2)
    want, got = python_render(stream, t_ms), c_render(stream, t_ms)
    zone_of = LAYOUT.zone_of()
    for led, (w, g) in enumerate(zip(want, got, strict=True)):
        zone = zone_of.get(led)
        tol = TOLERANCE[FRAME.zones[zone].effect] if zone is not None else 0
        assert all(abs(a - b) <= tol for a, b in zip(w, g, strict=True)), (led, zone, t_ms, w, g)


def test_blink_is_on_then_off_and_pulse_never_goes_dark() -> None:
    stream = encode(SetState(LedFrame.lit({0}, WHITE, Effect.BLINK, 255)), 1)
    on, off = python_render(stream, 100), python_render(stream, 600)
    led = DEFAULT_LAYOUT.zones[0][0]  # no SET_LAYOUT sent: the device's default
    assert on[led] == WHITE and off[led] == (0, 0, 0)
    pulse = encode(SetState(LedFrame.lit({0}, WHITE, Effect.PULSE, 255)), 1)
    levels = [python_render(pulse, t)[led][0] for t in range(0, 2000, 50)]
    assert min(levels) >= 50 and max(levels) == 255
