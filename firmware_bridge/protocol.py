"""The LED link's wire protocol, pure (no I/O, no threads): messages, their encoding, a streaming
decoder. Specified with worked byte examples in ``hardware_docs/protocol.md``; the firmware's C core
(``firmware_bridge/firmware/core``) implements the same bytes.

A frame on the wire is ``COBS(type | seq | payload | crc) 0x00``:

- ``type``: 1 byte, :class:`MsgType`; ``seq``: 2 bytes big-endian, the sender's own counter (mod 2**16);
- ``payload``: 0-:data:`MAX_PAYLOAD` bytes, fixed layout per type;
- ``crc``: 2 bytes big-endian, CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of ``type|seq|payload``,
  computed with :func:`binascii.crc_hqx` (a well-kept library beats our own, brief "How work gets done").
- COBS (the ``cobs`` package) removes every 0x00 from the frame so 0x00 marks its end: a receiver
  that starts mid-frame or meets garbage resynchronises at the next 0x00.

The sequence number is what ACK and NAK refer to. Frames that fail COBS, CRC or the type's exact length
are never acted on: the decoder counts them and drops them (the sender's ACK timeout re-sends); a
CRC-valid frame of an unknown type comes out as :class:`Unknown` so the device can NAK it.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag

from cobs import cobs

from firmware_bridge.errors import ProtocolError
from firmware_bridge.frames import ZONE_COUNT, Effect, LedFrame, ZoneLight

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 240
HEADER = 3  # type + seq
CRC_LEN = 2
MAX_RAW = HEADER + MAX_PAYLOAD + CRC_LEN
# COBS adds one byte per 254 and one at the start; this bounds what a receiver buffers before resyncing.
MAX_ENCODED = MAX_RAW + MAX_RAW // 254 + 2
MAX_RUNS = MAX_PAYLOAD // 4  # SET_LAYOUT entries (zone, start, count) of 4 bytes each
CRC_INIT = 0xFFFF
SEQ_MOD = 1 << 16


class MsgType(IntEnum):
    """Frame types. Host -> device: HELLO_REQ, SET_STATE, SET_LAYOUT, STATE_REQ. Device -> host:
    HELLO, STATE, EVENT. Both ways: HEARTBEAT, ACK, NAK."""

    HELLO_REQ = 0x01
    HELLO = 0x02
    HEARTBEAT = 0x03
    ACK = 0x04
    NAK = 0x05
    STATE_REQ = 0x06
    STATE = 0x07
    SET_STATE = 0x10
    SET_LAYOUT = 0x11
    SET_STATE_PACKED = 0x12
    EVENT = 0x20


class Capability(IntFlag):
    """What a device says it can do in its HELLO."""

    EFFECTS = 0x01  # renders blink / pulse itself
    BRIGHTNESS = 0x02
    BUTTONS = 0x04  # has its own buttons and sends EVENT frames for them
    LAYOUT = 0x08  # accepts SET_LAYOUT (zone -> LED runs)
    STATE_READBACK = 0x10  # answers STATE_REQ
    PACKED_STATE = 0x20  # accepts SET_STATE_PACKED


class NakReason(IntEnum):
    """Why a CRC-valid frame was refused."""

    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    BAD_VALUE = 3
    STALE = 4  # a SET_STATE older than the one shown (sequence arithmetic, RFC 1982)
    LAYOUT = 5  # the layout does not fit the strip or has too many runs


class EventKind(IntEnum):
    """Device events (EVENT frames)."""

    BUTTON = 1  # code = button number, value = 1 pressed / 0 released
    FAULT = 2  # code = :class:`FaultCode`, value = detail


class FaultCode(IntEnum):
    """Faults a device reports."""

    BROWNOUT = 1
    RX_OVERFLOW = 2
    HOST_TIMEOUT = 3  # no frame from the host for the device's timeout; it keeps showing its state
    WATCHDOG_RESET = 4
    STRIP_POWER = 5


# ---------------------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class HelloRequest:
    """Host asks the device to identify itself; also restarts the device's stale-frame window."""

    TYPE = MsgType.HELLO_REQ


@dataclass(frozen=True)
class Hello:
    """Device identity, sent on boot and on request.

    :param led_count: LEDs on the strip the firmware drives.
    :param max_runs: how many (zone, start, count) runs its layout table holds.
    :param reply_to: seq of the HELLO_REQ answered, None for the HELLO sent after boot (so the host
        tells a reset device from an answer).
    """

    protocol_version: int = PROTOCOL_VERSION
    firmware_version: tuple[int, int, int] = (0, 0, 0)
    led_count: int = ZONE_COUNT
    zone_count: int = ZONE_COUNT
    capabilities: Capability = Capability(0)
    max_runs: int = MAX_RUNS
    reply_to: int | None = None

    TYPE = MsgType.HELLO


@dataclass(frozen=True)
class Heartbeat:
    """Liveness, both ways. The device answers each host heartbeat with its own.

    :param uptime_ms: sender's uptime in ms (mod 2**32).
    :param applied_seq: device: seq of the SET_STATE it shows (host: 0).
    :param rx_errors: frames dropped for COBS/CRC/length errors since boot (mod 2**16).
    """

    uptime_ms: int = 0
    applied_seq: int = 0
    rx_errors: int = 0

    TYPE = MsgType.HEARTBEAT


@dataclass(frozen=True)
class Ack:
    """The frame with sequence number ``seq`` was received intact and acted on."""

    seq: int

    TYPE = MsgType.ACK


@dataclass(frozen=True)
class Nak:
    """The frame with sequence number ``seq`` was received intact and refused for ``reason``."""

    seq: int
    reason: NakReason

    TYPE = MsgType.NAK


@dataclass(frozen=True)
class StateRequest:
    """Host asks for the state the device shows (read-back, for diagnostics and tests)."""

    TYPE = MsgType.STATE_REQ


@dataclass(frozen=True)
class SetState:
    """The full LED state: colour and effect of every zone, and the brightness."""

    frame: LedFrame

    TYPE = MsgType.SET_STATE


@dataclass(frozen=True)
class SetPackedState:
    """The same full LED state as :class:`SetState`, packed by colour: the zones sharing a colour and
    effect travel as one bitmask, so a frame of a few colours is a fraction of the dense 110 bytes
    (fewer bytes for a noisy cable to hit). Only for devices with :attr:`Capability.PACKED_STATE`."""

    frame: LedFrame

    TYPE = MsgType.SET_STATE_PACKED


@dataclass(frozen=True)
class StateReport:
    """Device's answer to :class:`StateRequest`: the frame it shows and the seq it came with
    (``frame`` is None before any SET_STATE since boot)."""

    applied_seq: int
    frame: LedFrame | None

    TYPE = MsgType.STATE


@dataclass(frozen=True)
class SetLayout:
    """Zone -> LED runs: each run is ``(zone, start, count)``, LEDs ``start .. start+count-1``."""

    runs: tuple[tuple[int, int, int], ...]

    TYPE = MsgType.SET_LAYOUT


@dataclass(frozen=True)
class DeviceEvent:
    """A button or fault on the device (host ACKs it; the device re-sends until acked)."""

    kind: EventKind
    code: int
    value: int = 0

    TYPE = MsgType.EVENT


@dataclass(frozen=True)
class Unknown:
    """A CRC-valid frame of a type this side does not know: never acted on, NAKed by the device."""

    type: int
    payload: bytes


@dataclass(frozen=True)
class Malformed:
    """A CRC-valid frame of a known type whose payload is the wrong length or holds a bad value."""

    type: int
    payload: bytes
    reason: NakReason


Message = (
    HelloRequest
    | Hello
    | Heartbeat
    | Ack
    | Nak
    | StateRequest
    | SetState
    | SetPackedState
    | StateReport
    | SetLayout
    | DeviceEvent
)


@dataclass(frozen=True)
class Frame:
    """One decoded frame: the sender's sequence number and the message (or why it is unusable)."""

    seq: int
    message: Message | Unknown | Malformed


# ---------------------------------------------------------------------------------------- payloads

_STATE_LEN = 2 + 4 * ZONE_COUNT


def _state_payload(frame: LedFrame) -> bytes:
    out = bytearray((frame.brightness, ZONE_COUNT))
    for z in frame.zones:
        out += bytes((*z.colour, int(z.effect)))
    return bytes(out)


def _parse_state(payload: bytes) -> LedFrame:
    if payload[1] != ZONE_COUNT:
        raise _Bad(NakReason.BAD_VALUE)
    zones = []
    for i in range(ZONE_COUNT):
        r, g, b, e = payload[2 + 4 * i : 6 + 4 * i]
        if e not in Effect._value2member_map_:
            raise _Bad(NakReason.BAD_VALUE)
        zones.append(ZoneLight((r, g, b), Effect(e)))
    return LedFrame(tuple(zones), payload[0])


_OFF_ZONE = ZoneLight()
_GROUP_LEN = 8  # r, g, b, effect, zone bitmask u32
_ALL_ZONES = (1 << ZONE_COUNT) - 1


def _packed_payload(frame: LedFrame) -> bytes:
    groups: dict[ZoneLight, int] = {}  # insertion order: by first zone, so the bytes are deterministic
    for i, z in enumerate(frame.zones):
        if z != _OFF_ZONE:
            groups[z] = groups.get(z, 0) | (1 << i)
    out = bytearray((frame.brightness,))
    for z, mask in groups.items():
        out += struct.pack(">BBBBI", *z.colour, int(z.effect), mask)
    return bytes(out)


def packed_length(frame: LedFrame) -> int:
    """Payload bytes of ``frame`` as SET_STATE_PACKED (the dense SET_STATE takes 110)."""
    return 1 + _GROUP_LEN * len({z for z in frame.zones if z != _OFF_ZONE})


def _parse_packed(payload: bytes) -> LedFrame:
    if len(payload) < 1 or (len(payload) - 1) % _GROUP_LEN:
        raise _Bad(NakReason.BAD_LENGTH)
    zones = [_OFF_ZONE] * ZONE_COUNT
    seen = 0
    for i in range(1, len(payload), _GROUP_LEN):
        r, g, b, e, mask = struct.unpack_from(">BBBBI", payload, i)
        if e not in Effect._value2member_map_ or mask & ~_ALL_ZONES or mask & seen:
            raise _Bad(NakReason.BAD_VALUE)
        seen |= mask
        light = ZoneLight((r, g, b), Effect(e))
        for z in range(ZONE_COUNT):
            if mask >> z & 1:
                zones[z] = light
    return LedFrame(tuple(zones), payload[0])


class _Bad(Exception):
    def __init__(self, reason: NakReason) -> None:
        self.reason = reason


def _payload(msg: Message) -> bytes:
    if isinstance(msg, HelloRequest | StateRequest):
        return b""
    if isinstance(msg, Hello):
        return struct.pack(
            ">BBBBHBBBBH",
            msg.protocol_version,
            *msg.firmware_version,
            msg.led_count,
            msg.zone_count,
            int(msg.capabilities),
            msg.max_runs,
            0 if msg.reply_to is None else 1,
            msg.reply_to or 0,
        )
    if isinstance(msg, Heartbeat):
        return struct.pack(">IHH", msg.uptime_ms, msg.applied_seq, msg.rx_errors)
    if isinstance(msg, Ack):
        return struct.pack(">H", msg.seq)
    if isinstance(msg, Nak):
        return struct.pack(">HB", msg.seq, int(msg.reason))
    if isinstance(msg, SetState):
        return _state_payload(msg.frame)
    if isinstance(msg, SetPackedState):
        return _packed_payload(msg.frame)
    if isinstance(msg, StateReport):
        if msg.frame is None:
            return struct.pack(">HB", msg.applied_seq, 0)
        return struct.pack(">HB", msg.applied_seq, 1) + _state_payload(msg.frame)
    if isinstance(msg, SetLayout):
        if len(msg.runs) > MAX_RUNS:
            raise ProtocolError(f"a layout holds at most {MAX_RUNS} runs, got {len(msg.runs)}")
        return b"".join(struct.pack(">BHB", *run) for run in msg.runs)
    if isinstance(msg, DeviceEvent):
        return struct.pack(">BBB", int(msg.kind), msg.code, msg.value)
    raise ProtocolError(f"cannot encode {msg!r}: not a protocol message")


_FIXED_LEN = {
    MsgType.HELLO_REQ: 0,
    MsgType.HELLO: 12,
    MsgType.HEARTBEAT: 8,
    MsgType.ACK: 2,
    MsgType.NAK: 3,
    MsgType.STATE_REQ: 0,
    MsgType.SET_STATE: _STATE_LEN,
    MsgType.EVENT: 3,
}


def _parse(mtype: int, payload: bytes) -> Message | Unknown | Malformed:
    if mtype not in MsgType._value2member_map_:
        return Unknown(mtype, payload)
    t = MsgType(mtype)
    want = _FIXED_LEN.get(t)
    try:
        if want is not None and len(payload) != want:
            raise _Bad(NakReason.BAD_LENGTH)
        if t is MsgType.HELLO_REQ:
            return HelloRequest()
        if t is MsgType.STATE_REQ:
            return StateRequest()
        if t is MsgType.HELLO:
            pv, ma, mi, pa, leds, zones, caps, runs, is_reply, reply = struct.unpack(">BBBBHBBBBH", payload)
            if is_reply > 1:
                raise _Bad(NakReason.BAD_VALUE)
            return Hello(
                pv, (ma, mi, pa), leds, zones, Capability(caps & 0x3F), runs, reply if is_reply else None
            )
        if t is MsgType.HEARTBEAT:
            return Heartbeat(*struct.unpack(">IHH", payload))
        if t is MsgType.ACK:
            return Ack(struct.unpack(">H", payload)[0])
        if t is MsgType.NAK:
            seq, reason = struct.unpack(">HB", payload)
            if reason not in NakReason._value2member_map_:
                raise _Bad(NakReason.BAD_VALUE)
            return Nak(seq, NakReason(reason))
        if t is MsgType.SET_STATE:
            return SetState(_parse_state(payload))
        if t is MsgType.SET_STATE_PACKED:
            return SetPackedState(_parse_packed(payload))
        if t is MsgType.STATE:
            if len(payload) < 3:
                raise _Bad(NakReason.BAD_LENGTH)
            seq, has = struct.unpack(">HB", payload[:3])
            if has == 0 and len(payload) == 3:
                return StateReport(seq, None)
            if has != 1 or len(payload) != 3 + _STATE_LEN:
                raise _Bad(NakReason.BAD_LENGTH)
            return StateReport(seq, _parse_state(payload[3:]))
        if t is MsgType.SET_LAYOUT:
            if len(payload) % 4 or len(payload) // 4 > MAX_RUNS:
                raise _Bad(NakReason.BAD_LENGTH)
            runs = tuple(struct.unpack_from(">BHB", payload, i) for i in range(0, len(payload), 4))
            if any(z >= ZONE_COUNT for z, _, _ in runs):
                raise _Bad(NakReason.BAD_VALUE)
            return SetLayout(runs)
        # MsgType.EVENT
        kind, code, value = struct.unpack(">BBB", payload)
        if kind not in EventKind._value2member_map_:
            raise _Bad(NakReason.BAD_VALUE)
        return DeviceEvent(EventKind(kind), code, value)
    except _Bad as bad:
        return Malformed(mtype, payload, bad.reason)


# ---------------------------------------------------------------------------------------- encoding


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    return binascii.crc_hqx(data, CRC_INIT)


def raw_frame(mtype: int, seq: int, payload: bytes) -> bytes:
    """The un-stuffed frame ``type | seq | payload | crc`` (for tests and tools that forge frames).

    :raises ProtocolError: when ``mtype``/``seq`` are out of range or the payload is too long.
    """
    if not 0 <= mtype <= 0xFF or not 0 <= seq < SEQ_MOD:
        raise ProtocolError(f"type {mtype} / seq {seq} out of range (0-255 / 0-65535)")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = struct.pack(">BH", mtype, seq) + payload
    return body + struct.pack(">H", crc16(body))


def encode_raw(mtype: int, seq: int, payload: bytes) -> bytes:
    """A complete wire frame (COBS + trailing 0x00) for any type and payload, known or not."""
    return bytes(cobs.encode(raw_frame(mtype, seq, payload))) + b"\x00"


def encode(message: Message, seq: int) -> bytes:
    """Encode ``message`` with sequence number ``seq`` into one wire frame ending in 0x00.

    :param seq: 0-65535, the sender's counter.
    :raises ProtocolError: on a value that does not fit its field.
    """
    try:
        payload = _payload(message)
    except struct.error as exc:
        raise ProtocolError(f"cannot encode {message!r}: {exc}") from exc
    return encode_raw(int(message.TYPE), seq, payload)


def seq_newer(a: int, b: int) -> bool:
    """True when sequence number ``a`` is newer than ``b`` (serial-number arithmetic, RFC 1982)."""
    return 0 < (a - b) % SEQ_MOD < SEQ_MOD // 2


# ---------------------------------------------------------------------------------------- decoding


@dataclass
class DecoderStats:
    """Counts of what a :class:`StreamDecoder` dropped (never acted on)."""

    frames: int = 0
    cobs_errors: int = 0
    crc_errors: int = 0
    short: int = 0
    oversize: int = 0

    @property
    def dropped(self) -> int:
        """Frames dropped for COBS, CRC, length or size errors."""
        return self.cobs_errors + self.crc_errors + self.short + self.oversize


@dataclass
class StreamDecoder:
    """Turns a byte stream into :class:`Frame` objects; resynchronises on every 0x00.

    Feed it whatever the port delivered (any split); it keeps the partial frame between calls and
    buffers at most :data:`MAX_ENCODED` bytes: a longer run without a delimiter is garbage, dropped
    up to the next 0x00. Never raises on input bytes.
    """

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)
    _skipping: bool = False

    def feed(self, data: bytes) -> list[Frame]:
        """Decode ``data``; return the complete, intact frames it finished, in order."""
        out: list[Frame] = []
        start = 0
        while start <= len(data):
            end = data.find(0, start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._skipping:
                self._buf += chunk
                if len(self._buf) > MAX_ENCODED:
                    self._buf.clear()
                    self._skipping = True
                    self.stats.oversize += 1
            if end < 0:
                break
            if not self._skipping and self._buf:
                frame = self._finish(bytes(self._buf))
                if frame is not None:
                    out.append(frame)
            self._buf.clear()
            self._skipping = False
            start = end + 1
        return out

    def _finish(self, encoded: bytes) -> Frame | None:
        try:
            raw = cobs.decode(encoded)
        except cobs.DecodeError:
            self.stats.cobs_errors += 1
            return None
        if len(raw) < HEADER + CRC_LEN:
            self.stats.short += 1
            return None
        if len(raw) > MAX_RAW:
            self.stats.oversize += 1
            return None
        body, crc = raw[:-CRC_LEN], raw[-CRC_LEN:]
        if crc16(body) != int.from_bytes(crc, "big"):
            self.stats.crc_errors += 1
            return None
        self.stats.frames += 1
        seq = int.from_bytes(body[1:3], "big")
        return Frame(seq, _parse(body[0], body[HEADER:]))


def decode_one(wire: bytes) -> Frame:
    """Decode exactly one wire frame (with its trailing 0x00).

    :raises ProtocolError: when ``wire`` is not exactly one intact frame.
    """
    decoder = StreamDecoder()
    frames = decoder.feed(wire)
    if len(frames) != 1 or not wire.endswith(b"\x00") or wire.count(0) != 1:
        raise ProtocolError(f"not exactly one intact frame: {wire.hex(' ')}")
    return frames[0]
