"""Fuzzing both decoders (Python and the firmware's C core) with hypothesis: no crash, garbage never
acted on, and the C device answering every input exactly as the Python device does (differential).

Default run: a few thousand examples; ``-m slow``: 100,000 per decoder (the C one under ASan+UBSan).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.device import EmulatedDevice
from firmware_bridge.protocol import (
    Malformed,
    Nak,
    SetPackedState,
    SetState,
    StreamDecoder,
    Unknown,
    decode_one,
    encode_raw,
)
from tests.firmware_bridge.strategies import noisy_streams, segments, state_bytes

_COMMON = {"deadline": None, "derandomize": True, "suppress_health_check": list(HealthCheck)}
FAST = settings(max_examples=1500, **_COMMON)
SLOW = settings(max_examples=100_000, **_COMMON)
inputs = st.one_of(noisy_streams(), st.binary(max_size=600))


def check_python_decoder(stream: bytes) -> None:
    decoder = StreamDecoder()
    frames = []
    for i in range(0, len(stream), 13):  # any split of the reads
        frames += decoder.feed(stream[i : i + 13])
    pieces = segments(stream)
    for frame in frames:
        # acted on only if these exact bytes, CRC and all, stood between two delimiters
        msg = frame.message
        mtype = msg.type if isinstance(msg, Unknown | Malformed) else int(msg.TYPE)
        candidates = [p for p in pieces if _intact(p) and decode_one(p) == frame]
        assert candidates, f"decoded {frame} from no intact delimited frame of type {mtype}"
    assert decoder.stats.frames == len(frames)


def python_device(stream: bytes) -> EmulatedDevice:
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)  # its boot HELLO
    return dev


def check_c_against_python(stream: bytes, c_device) -> None:
    dev = python_device(stream)
    expected = dev.receive(stream, 0)
    got = c_device.run(stream)
    assert got.output == expected
    assert got.errors == dev.decoder.stats.dropped
    assert got.has_state == (dev.state is not None)
    if dev.state is not None:
        assert bytes(b for z in got.zones for b in z) == state_bytes(dev.state)
        assert got.brightness == dev.state.brightness
    assert got.has_applied == (dev.applied_seq is not None)
    if dev.applied_seq is not None:
        assert got.applied_seq == dev.applied_seq
    assert sorted(got.runs) == sorted(dev.runs)
    # no acted-on garbage: a state shown was sent whole, CRC-valid, between delimiters
    if dev.state is not None:
        sent = [decode_one(p).message for p in segments(stream) if _intact(p)]
        assert any(isinstance(m, SetState | SetPackedState) and m.frame == dev.state for m in sent)


def _intact(piece: bytes) -> bool:
    try:
        decode_one(piece)
    except ValueError:
        return False
    return True


@FAST
@given(stream=inputs)
def test_python_decoder_never_crashes_nor_acts_on_garbage(stream: bytes) -> None:
    check_python_decoder(stream)


@settings(FAST, max_examples=1000)
@given(stream=inputs)
def test_c_core_answers_as_the_python_device(stream: bytes, c_device) -> None:
    check_c_against_python(stream, c_device)


@settings(FAST, max_examples=300)
@given(stream=inputs)
def test_c_core_under_address_sanitizer(stream: bytes, c_device_asan) -> None:
    check_c_against_python(stream, c_device_asan)


def test_pure_garbage_is_never_acted_on(c_device) -> None:
    import random

    rng = random.Random(5)
    for _ in range(200):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        assert not c_device.run(junk).has_state
        dev = python_device(junk)
        answers = StreamDecoder().feed(dev.receive(junk, 0))
        assert dev.state is None and all(isinstance(f.message, Nak) for f in answers)


def test_an_oversized_frame_is_dropped_and_the_next_one_read(c_device) -> None:
    big = bytes([0x11]) * 600 + b"\x00" + encode_raw(0x06, 1, b"")
    dev = python_device(big)
    out = dev.receive(big, 0)
    assert dev.decoder.stats.oversize == 1
    assert c_device.run(big).output == out != b""


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 100,000 examples outlast the suite's 600 s default
@SLOW
@given(stream=inputs)
def test_slow_python_decoder_100k(stream: bytes) -> None:
    check_python_decoder(stream)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 100,000 examples outlast the suite's 600 s default
@SLOW
@given(stream=inputs)
def test_slow_c_core_100k_under_sanitizers(stream: bytes, c_device_asan) -> None:
    check_c_against_python(stream, c_device_asan)
