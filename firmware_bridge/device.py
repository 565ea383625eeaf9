"""The LED device's behaviour, pure (time is passed in, bytes in -> bytes out): what the firmware
does, in Python, for the emulator. The C core in ``firmware_bridge/firmware/core`` does the same; the
tests drive both with the same host link.

Behaviour (hardware_docs/protocol.md "Device behaviour"):

- boots silent for ``boot_time`` s, then sends HELLO; answers HELLO_REQ with HELLO and forgets the
  seq of the state it shows (a new host session may start its counter anywhere);
- SET_STATE and SET_STATE_PACKED alike: applied and ACKed when its seq is newer than the shown one
  (RFC 1982), re-ACKed when equal (a retry whose ACK was lost), NAKed ``STALE`` when older: a late
  frame never overwrites a newer;
- SET_LAYOUT: ACKed when every run fits the strip, else NAKed ``LAYOUT``;
- HEARTBEAT: answered with its own; STATE_REQ: answered with STATE;
- unknown types are NAKed ``UNKNOWN_TYPE``, malformed payloads NAKed with their reason, never acted on;
- events (buttons, faults) are re-sent every ``event_retry`` s until the host ACKs them (5 tries);
- no frame from the host for ``host_timeout`` s: a HOST_TIMEOUT fault event, the state is kept.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from firmware_bridge.frames import ZONE_COUNT, Effect, LedFrame
from firmware_bridge.layout import DEFAULT_LAYOUT
from firmware_bridge.protocol import (
    MAX_RUNS,
    PROTOCOL_VERSION,
    Ack,
    Capability,
    DeviceEvent,
    EventKind,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HelloRequest,
    Malformed,
    Message,
    MsgType,
    Nak,
    NakReason,
    SetLayout,
    SetPackedState,
    SetState,
    StateReport,
    StateRequest,
    StreamDecoder,
    Unknown,
    encode,
    seq_newer,
)

FIRMWARE_VERSION = (1, 0, 0)
# Frame types the device acts on; anything else (device-to-host types included) is NAKed UNKNOWN_TYPE.
_SERVED = frozenset(
    int(t)
    for t in (
        MsgType.HELLO_REQ,
        MsgType.HEARTBEAT,
        MsgType.ACK,
        MsgType.STATE_REQ,
        MsgType.SET_STATE,
        MsgType.SET_LAYOUT,
        MsgType.SET_STATE_PACKED,
    )
)
BLINK_PERIOD = 1.0  # s, half on, half off
PULSE_PERIOD = 2.0  # s, brightness follows a raised cosine from 20 % to 100 %
EVENT_TRIES = 5


def effect_level(effect: Effect, t: float) -> float:
    """Brightness factor 0-1 of ``effect`` at device time ``t`` (s); the C core's ``effect_level``."""
    if effect is Effect.BLINK:
        return 1.0 if (t % BLINK_PERIOD) < BLINK_PERIOD / 2 else 0.0
    if effect is Effect.PULSE:
        phase = (t % PULSE_PERIOD) / PULSE_PERIOD
        return 0.2 + 0.8 * (0.5 - 0.5 * math.cos(2 * math.pi * phase))
    return 1.0


@dataclass
class _PendingEvent:
    seq: int
    wire: bytes
    due: float
    tries: int = 0


@dataclass
class EmulatedDevice:
    """One emulated LED controller.

    :param led_count: LEDs on its strip.
    :param boot_time: s from power-on/reset to its HELLO.
    :param host_timeout: s without a host frame before it reports HOST_TIMEOUT.

    ``history`` keeps the (seq, frame) of every state applied (the last 10,000), ``log`` the last
    1,000 messages received: tests check from them that no stale frame overwrote a newer one.
    """

    led_count: int = DEFAULT_LAYOUT.led_count
    boot_time: float = 0.05
    host_timeout: float = 3.0
    event_retry: float = 0.2
    firmware_version: tuple[int, int, int] = FIRMWARE_VERSION
    state: LedFrame | None = None
    applied_seq: int | None = None
    runs: tuple[tuple[int, int, int], ...] = DEFAULT_LAYOUT.runs()
    boots: int = 0
    decoder: StreamDecoder = field(default_factory=StreamDecoder)
    _seq: int = 0
    _boot_at: float | None = 0.0
    _booted_at: float = 0.0
    _last_host: float | None = None
    _timeout_reported: bool = False
    _events: list[_PendingEvent] = field(default_factory=list)
    log: deque[Message | Unknown | Malformed] = field(default_factory=lambda: deque(maxlen=1000))
    history: deque[tuple[int, LedFrame]] = field(default_factory=lambda: deque(maxlen=10000))

    def hello(self, reply_to: int | None = None) -> Hello:
        """The HELLO this device sends (after boot, or answering the HELLO_REQ ``reply_to``)."""
        caps = (
            Capability.EFFECTS
            | Capability.BRIGHTNESS
            | Capability.BUTTONS
            | Capability.LAYOUT
            | Capability.STATE_READBACK
            | Capability.PACKED_STATE
        )
        return Hello(
            PROTOCOL_VERSION, self.firmware_version, self.led_count, ZONE_COUNT, caps, MAX_RUNS, reply_to
        )

    def reset(self, now: float) -> None:
        """Power cycle: RAM (state, layout, counters, partial frames) is lost; HELLO after boot."""
        self.state = None
        self.applied_seq = None
        self.runs = DEFAULT_LAYOUT.runs() if DEFAULT_LAYOUT.led_count <= self.led_count else ()
        self.decoder = StreamDecoder()
        self._seq = 0
        self._events.clear()
        self._boot_at = now + self.boot_time
        self._last_host = None
        self._timeout_reported = False

    @property
    def booting(self) -> bool:
        """True until the HELLO after a reset has been sent."""
        return self._boot_at is not None

    def _send(self, msg: Message) -> bytes:
        seq = self._seq
        self._seq = (self._seq + 1) % 65536
        return encode(msg, seq)

    def receive(self, data: bytes, now: float) -> bytes:
        """Bytes from the host arrive at device time ``now`` (s); returns the bytes it answers."""
        if self._boot_at is not None:
            return b""  # still in the bootloader: a real board loses what arrives then
        out = bytearray()
        for frame in self._frames(data):
            self._last_host = now
            self._timeout_reported = False
            msg = frame.message
            self.log.append(msg)
            mtype = msg.type if isinstance(msg, Unknown | Malformed) else int(msg.TYPE)
            if mtype not in _SERVED:
                out += self._send(Nak(frame.seq, NakReason.UNKNOWN_TYPE))
            elif isinstance(msg, Malformed):
                out += self._send(Nak(frame.seq, msg.reason))
            elif isinstance(msg, HelloRequest):
                self.applied_seq = None
                out += self._send(self.hello(frame.seq))
            elif isinstance(msg, Heartbeat):
                out += self._send(Heartbeat(int(now * 1000) % 2**32, self.applied_seq or 0, self.rx_errors))
            elif isinstance(msg, StateRequest):
                out += self._send(StateReport(self.applied_seq or 0, self.state))
            elif isinstance(msg, SetState | SetPackedState):
                if self.applied_seq is None or seq_newer(frame.seq, self.applied_seq):
                    self.state, self.applied_seq = msg.frame, frame.seq
                    self.history.append((frame.seq, msg.frame))
                    out += self._send(Ack(frame.seq))
                elif frame.seq == self.applied_seq:
                    out += self._send(Ack(frame.seq))
                else:
                    out += self._send(Nak(frame.seq, NakReason.STALE))
            elif isinstance(msg, SetLayout):
                if all(start + count <= self.led_count for _, start, count in msg.runs):
                    self.runs = msg.runs
                    out += self._send(Ack(frame.seq))
                else:
                    out += self._send(Nak(frame.seq, NakReason.LAYOUT))
            elif isinstance(msg, Ack):
                self._events = [e for e in self._events if e.seq != msg.seq]
        return bytes(out)

    def _frames(self, data: bytes) -> Iterator[Frame]:
        # Delimiter by delimiter, so rx_errors counts exactly what precedes each answer (as the C core).
        start = 0
        while start < len(data):
            end = data.find(0, start)
            stop = len(data) if end < 0 else end + 1
            yield from self.decoder.feed(data[start:stop])
            start = stop

    @property
    def rx_errors(self) -> int:
        """Frames dropped for COBS/CRC/length errors since boot (mod 2**16)."""
        return self.decoder.stats.dropped % 65536

    def event(self, kind: EventKind, code: int, value: int, now: float) -> None:
        """Queue a device event (a button press, a fault); it goes out on the next :meth:`poll`."""
        seq = self._seq
        self._seq = (self._seq + 1) % 65536
        self._events.append(_PendingEvent(seq, encode(DeviceEvent(kind, code, value), seq), now))

    def poll(self, now: float) -> bytes:
        """What the device sends on its own by device time ``now``: HELLO after boot, events."""
        out = bytearray()
        if self._boot_at is not None:
            if now < self._boot_at:
                return b""
            self._boot_at = None
            self._booted_at = now
            self.boots += 1
            out += self._send(self.hello())
        if (
            self._last_host is not None
            and not self._timeout_reported
            and now - self._last_host > self.host_timeout
        ):
            self._timeout_reported = True
            self.event(EventKind.FAULT, FaultCode.HOST_TIMEOUT, 0, now)
        for ev in list(self._events):
            if ev.due <= now:
                out += ev.wire
                ev.tries += 1
                ev.due = now + self.event_retry
                if ev.tries >= EVENT_TRIES:
                    self._events.remove(ev)
        return bytes(out)

    def next_deadline(self) -> float | None:
        """Device time at which :meth:`poll` has something to do (None: only on input)."""
        times = [e.due for e in self._events]
        if self._boot_at is not None:
            times.append(self._boot_at)
        if self._last_host is not None and not self._timeout_reported:
            times.append(self._last_host + self.host_timeout + 1e-3)
        return min(times) if times else None

    def render(self, now: float) -> list[tuple[int, int, int]]:
        """The colour of every LED at device time ``now`` (effects and brightness applied)."""
        leds = [(0, 0, 0)] * self.led_count
        if self.state is None:
            return leds
        scale = self.state.brightness / 255
        for zone, start, count in self.runs:
            light = self.state.zones[zone]
            k = scale * effect_level(light.effect, now - self._booted_at)
            colour = tuple(int(c * k + 0.5) for c in light.colour)
            for i in range(start, min(start + count, self.led_count)):
                leds[i] = colour  # type: ignore[assignment]
        return leds
