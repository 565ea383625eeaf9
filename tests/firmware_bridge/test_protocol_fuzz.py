"""The protocol's decoders and the layout's zone names raise only their documented errors (issue 18
item 6): ``decode_one`` a ProtocolError, ``StreamDecoder.feed`` nothing at all, ``parse_zone`` a
LayoutError. 2,000 examples each by default; 100,000 under ``-m slow``. (test_decoder_fuzz.py checks
what the decoders act on; this file only that nothing undocumented escapes them.)"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from firmware_bridge.errors import LayoutError, ProtocolError
from firmware_bridge.frames import ZONE_COUNT
from firmware_bridge.layout import parse_zone, zone_name
from firmware_bridge.protocol import MsgType, StreamDecoder, decode_one, encode_raw
from tests.firmware_bridge.strategies import noisy_streams
from tests.fuzzing import FAST, SLOW, run_harness

# a CRC-valid frame of any type and any payload: the type-specific parsers see every length
framed = st.builds(
    encode_raw,
    st.one_of(st.sampled_from([int(t) for t in MsgType]), st.integers(0, 255)),
    st.integers(0, 0xFFFF),
    st.binary(max_size=250),
)
wires = st.one_of(framed, noisy_streams(), st.binary(max_size=300))
zones = st.one_of(
    st.integers(-5, 40),
    st.sampled_from(["bar", "off_top", "off_bottom", "²", "٣", "１", "𝟙2", "9" * 5000, "007", "", "True"]),
    st.text(max_size=6),
)


def check_decode_one(wire: bytes) -> None:
    try:
        decode_one(wire)
    except ProtocolError:
        return


def check_stream(wire: bytes) -> None:
    decoder = StreamDecoder()
    for i in range(0, len(wire), 7):
        decoder.feed(wire[i : i + 7])


def check_zone(name: str | int) -> None:
    try:
        zone = parse_zone(name)
    except LayoutError:
        return
    assert 0 <= zone < ZONE_COUNT and parse_zone(zone_name(zone)) == zone


HARNESSES = {
    "decode_one": (st.one_of(framed, st.binary(max_size=300)), check_decode_one),
    "stream_decoder": (wires, check_stream),
    "parse_zone": (zones, check_zone),
}


def _run(name: str, runner: settings) -> None:
    run_harness(name, *HARNESSES[name], runner)


@pytest.mark.parametrize("name", HARNESSES)
def test_a_decoder_raises_only_its_documented_error(name: str) -> None:
    _run(name, FAST)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("name", HARNESSES)
def test_a_decoder_raises_only_its_documented_error_100000(name: str) -> None:
    _run(name, SLOW)


@pytest.mark.parametrize("name", ["²", "٣", "１", "9" * 5000, True])
def test_a_zone_name_takes_ascii_digits_only(name: str | bool) -> None:
    with pytest.raises(LayoutError):
        parse_zone(name)  # type: ignore[arg-type]
