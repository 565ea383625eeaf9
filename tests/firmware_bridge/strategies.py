"""Hypothesis strategies for the LED protocol: host frames (valid, malformed, unknown), garbage,
and a faulty cable (bit flips, lost bytes, truncation)."""

from __future__ import annotations

import struct

from hypothesis import strategies as st

from firmware_bridge.frames import ZONE_COUNT, Effect, LedFrame, ZoneLight
from firmware_bridge.protocol import (
    Ack,
    Heartbeat,
    HelloRequest,
    SetLayout,
    SetPackedState,
    SetState,
    StateRequest,
    encode,
    encode_raw,
)

seqs = st.integers(0, 0xFFFF)


def _frame_from(raw: bytes) -> LedFrame:
    zones = tuple(
        ZoneLight((raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]), Effect(raw[4 * i + 3] % 3))
        for i in range(ZONE_COUNT)
    )
    return LedFrame(zones, raw[-1])


# Drawn as one block of bytes: hypothesis makes those far faster than 27 nested objects.
led_frames = st.binary(min_size=4 * ZONE_COUNT + 1, max_size=4 * ZONE_COUNT + 1).map(_frame_from)
# Frames of a few colours (what a station lights), the packed form's usual input.
few_colour_frames = st.builds(
    lambda zones, colours, brightness: LedFrame(
        tuple(colours[z % len(colours)] if z in zones else ZoneLight() for z in range(ZONE_COUNT)),
        brightness,
    ),
    st.sets(st.integers(0, ZONE_COUNT - 1)),
    st.lists(st.builds(ZoneLight, st.tuples(*[st.integers(0, 255)] * 3), st.sampled_from(Effect)),
             min_size=1, max_size=4),
    st.integers(0, 255),
)
runs = st.lists(
    st.tuples(st.integers(0, ZONE_COUNT - 1), st.integers(0, 40), st.integers(0, 10)), max_size=8
).map(tuple)
host_messages = st.one_of(
    st.just(HelloRequest()),
    st.just(StateRequest()),
    st.builds(Heartbeat, st.integers(0, 2**32 - 1), seqs, seqs),
    st.builds(Ack, seqs),
    st.builds(SetState, led_frames),
    st.builds(SetPackedState, st.one_of(few_colour_frames, led_frames)),
    st.builds(SetLayout, runs),
)


@st.composite
def valid_frames(draw: st.DrawFn) -> bytes:
    """A well-formed host frame."""
    return encode(draw(host_messages), draw(seqs))


@st.composite
def odd_frames(draw: st.DrawFn) -> bytes:
    """CRC-valid frames the device must refuse: any type (known or not) with any payload."""
    mtype = draw(st.one_of(st.integers(0, 255), st.sampled_from([0x01, 0x03, 0x04, 0x06, 0x10, 0x11, 0x12])))
    payload = draw(st.binary(max_size=120))
    if mtype == 0x10 and draw(st.booleans()):  # right length, bad zone count or effect
        payload = bytes([draw(st.integers(0, 255)), draw(st.integers(0, 30))]) + draw(
            st.binary(min_size=4 * ZONE_COUNT, max_size=4 * ZONE_COUNT)
        )
    if mtype == 0x12 and draw(st.booleans()):  # right length, bad effect, zone bit or overlap
        groups = draw(st.integers(0, 5))
        payload = draw(st.binary(min_size=1 + 8 * groups, max_size=1 + 8 * groups))
    return encode_raw(mtype, draw(seqs), payload)


pieces = st.one_of(valid_frames(), odd_frames(), st.binary(max_size=40))


@st.composite
def noisy_streams(draw: st.DrawFn) -> bytes:
    """Frames and garbage, then a faulty cable: bit flips, lost bytes, a cut."""
    data = bytearray(b"".join(draw(st.lists(pieces, max_size=6))))
    for _ in range(draw(st.integers(0, 4))):
        if data:
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
    for _ in range(draw(st.integers(0, 2))):
        if data:
            del data[draw(st.integers(0, len(data) - 1))]
    if data and draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


def segments(stream: bytes) -> set[bytes]:
    """Every delimited piece of ``stream`` with its 0x00 (what a receiver may decode)."""
    parts = stream.split(b"\x00")
    return {p + b"\x00" for p in parts[:-1]}


def state_bytes(frame: LedFrame) -> bytes:
    """The zones of a frame as r, g, b, effect bytes (to compare with the C core's dump)."""
    return b"".join(struct.pack("BBBB", *z.colour, int(z.effect)) for z in frame.zones)
