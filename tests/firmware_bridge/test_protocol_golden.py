"""The worked byte examples of hardware_docs/protocol.md, checked byte for byte: the Python encoder,
the decoder, and the firmware's C core (which must answer each host frame as the Python device)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge.device import EmulatedDevice
from firmware_bridge.frames import GREEN, RED, Effect, LedFrame
from firmware_bridge.protocol import (
    Ack,
    Capability,
    DeviceEvent,
    EventKind,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    Nak,
    NakReason,
    SetLayout,
    SetPackedState,
    SetState,
    StreamDecoder,
    crc16,
    decode_one,
    encode,
    encode_raw,
)

DOC = Path(__file__).resolve().parents[2] / "hardware_docs" / "protocol.md"

# The message each named example in the document encodes.
MESSAGES: dict[str, Message] = {
    "hello_req": HelloRequest(),
    "hello_boot": Hello(1, (1, 0, 0), 28, 27, Capability(0x3F), 60, None),
    "hello_reply": Hello(1, (1, 0, 0), 28, 27, Capability(0x3F), 60, 0x0102),
    "heartbeat": Heartbeat(123456, 7, 0),
    "ack": Ack(0x0102),
    "nak_unknown": Nak(0x0203, NakReason.UNKNOWN_TYPE),
    "event_button": DeviceEvent(EventKind.BUTTON, 2, 1),
    "set_layout": SetLayout(((0, 1, 2), (24, 7, 1), (24, 20, 1))),
    "set_state": SetState(LedFrame.lit({0: RED, 5: GREEN}, effect=Effect.BLINK, brightness=128)),
    "set_state_packed": SetPackedState(LedFrame.lit({0: RED, 5: GREEN}, effect=Effect.BLINK, brightness=128)),
}


def golden_examples() -> dict[str, tuple[int, bytes, bytes]]:
    """name -> (seq, raw, wire) from the ```golden blocks of protocol.md."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for header, body in re.findall(r"^```golden ([^\n]*)\n(.*?)```", text, re.S | re.M):
        fields = dict(kv.split("=") for kv in header.split())
        parts = re.split(r"^(raw|wire):", body, flags=re.M)
        hexes = {parts[i]: bytes.fromhex(" ".join(parts[i + 1].split())) for i in range(1, len(parts), 2)}
        out[fields["name"]] = (int(fields["seq"]), hexes["raw"], hexes["wire"])
    return out


GOLDEN = golden_examples()


def test_the_document_has_every_example() -> None:
    assert set(GOLDEN) == set(MESSAGES)


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_encoder_matches_the_document(name: str) -> None:
    seq, raw, wire = GOLDEN[name]
    assert encode(MESSAGES[name], seq) == wire
    assert wire.count(0) == 1 and wire.endswith(b"\x00")
    assert crc16(raw[:-2]) == int.from_bytes(raw[-2:], "big")


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_decoder_reads_the_document(name: str) -> None:
    seq, _, wire = GOLDEN[name]
    frame = decode_one(wire)
    assert (frame.seq, frame.message) == (seq, MESSAGES[name])


def test_decoder_resyncs_on_garbage_and_split_reads() -> None:
    _, _, a = GOLDEN["ack"]
    _, _, s = GOLDEN["set_state"]
    stream = b"\x13\x37garbage" + a + b"\xff" * 10 + b"\x00" + s[:50]
    decoder = StreamDecoder()
    frames = []
    for i in range(0, len(stream), 7):
        frames += decoder.feed(stream[i : i + 7])
    frames += decoder.feed(s[50:])
    # the garbage before the ACK glues onto it: the first frame fails; the second (after 0x00) too
    assert [f.message for f in frames] == [MESSAGES["set_state"]]
    assert decoder.stats.dropped == 2


def test_the_unknown_type_example_is_naked_by_both_devices(c_device) -> None:
    unknown = encode_raw(0x7F, 6, b"")
    assert unknown == bytes.fromhex("02 7f 04 06 58 63 00")
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    assert decode_one(dev.receive(unknown, 0)).message == Nak(6, NakReason.UNKNOWN_TYPE)
    assert c_device.run(unknown).output == encode(Nak(6, NakReason.UNKNOWN_TYPE), 1)  # 0 was HELLO


@pytest.mark.parametrize("name", ["hello_req", "set_layout", "set_state", "set_state_packed"])
def test_c_core_answers_the_host_examples_as_the_python_device(name: str, c_device) -> None:
    seq, _, wire = GOLDEN[name]
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    expected = dev.receive(wire, 0)
    result = c_device.run(wire)
    assert result.output == expected
    if name.startswith("set_state"):
        assert result.output == encode(Ack(0x1234), 1)  # device seq 0 was its boot HELLO
        assert result.brightness == 128 and result.zones[0] == (255, 0, 0, 1)
        assert result.zones[5] == (0, 200, 0, 1) and result.applied_seq == 0x1234


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"", NakReason.BAD_LENGTH),
        (bytes.fromhex("80 ff 00 00 00 00 00 00"), NakReason.BAD_LENGTH),  # 7 bytes of a group
        (bytes.fromhex("80 ff 00 00 03 00 00 00 01"), NakReason.BAD_VALUE),  # effect 3
        (bytes.fromhex("80 ff 00 00 00 08 00 00 00"), NakReason.BAD_VALUE),  # zone bit 27
        (bytes.fromhex("80 ff 00 00 00 00 00 00 03 00 ff 00 00 00 00 00 02"), NakReason.BAD_VALUE),
    ],
    ids=["empty", "short-group", "effect", "zone-27", "zone-in-two-groups"],
)
def test_both_devices_refuse_a_bad_packed_state_alike(payload: bytes, reason: NakReason, c_device) -> None:
    wire = encode_raw(0x12, 9, payload)
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    expected = encode(Nak(9, reason), 1)  # device seq 0 was its boot HELLO
    assert dev.receive(wire, 0) == expected and dev.state is None
    result = c_device.run(wire)
    assert result.output == expected and not result.has_state


def test_a_packed_state_round_trips_every_zone_and_is_shorter_for_a_station_frame() -> None:
    from firmware_bridge.frames import ZoneLight
    from firmware_bridge.protocol import packed_length

    zones = list(LedFrame.lit({1, 7, 24}, GREEN).zones)
    zones[25] = ZoneLight(RED, Effect.PULSE)
    frame = LedFrame(tuple(zones), 90)
    assert decode_one(encode(SetPackedState(frame), 77)).message == SetPackedState(frame)
    assert packed_length(frame) == 1 + 8 * 2 < 110
    assert len(encode(SetPackedState(frame), 77)) < len(encode(SetState(frame), 77)) / 4
