"""Device events (buttons, faults) are re-sent until the host ACKs them, at most 5 times, by the
Python device model and by the compiled C core alike; a late SET_STATE never overwrites a newer one."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from firmware_bridge.device import EVENT_TRIES, EmulatedDevice
from firmware_bridge.frames import LedFrame
from firmware_bridge.protocol import (
    Ack,
    DeviceEvent,
    EventKind,
    FaultCode,
    HelloRequest,
    Nak,
    NakReason,
    SetState,
    StreamDecoder,
    encode,
)


def events_in(data: bytes) -> list[tuple[int, DeviceEvent]]:
    return [(f.seq, f.message) for f in StreamDecoder().feed(data) if isinstance(f.message, DeviceEvent)]


def test_python_device_resends_an_event_until_acked() -> None:
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    dev.event(EventKind.BUTTON, 1, 1, 0.0)
    first = events_in(dev.poll(0.0))
    again = events_in(dev.poll(0.25))
    assert first == again == [(first[0][0], DeviceEvent(EventKind.BUTTON, 1, 1))]
    dev.receive(encode(Ack(first[0][0]), 40), 0.3)
    assert events_in(dev.poll(1.0)) == []


def test_python_device_gives_up_after_five_tries() -> None:
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    dev.event(EventKind.FAULT, FaultCode.BROWNOUT, 0, 0.0)
    sent = sum(len(events_in(dev.poll(t / 10))) for t in range(0, 30))
    assert sent == EVENT_TRIES


def test_a_stale_set_state_is_refused_by_both_devices(c_device) -> None:
    newer, older = LedFrame.lit({1}), LedFrame.lit({2})
    stream = encode(SetState(newer), 500) + encode(SetState(older), 499) + encode(SetState(newer), 500)
    dev = EmulatedDevice(boot_time=0)
    dev.reset(0)
    dev.poll(0)
    answers = [f.message for f in StreamDecoder().feed(dev.receive(stream, 0))]
    assert answers == [Ack(500), Nak(499, NakReason.STALE), Ack(500)]
    assert dev.state == newer
    result = c_device.run(stream)
    assert [f.message for f in StreamDecoder().feed(result.output)] == answers
    assert result.applied_seq == 500 and result.zones[1] != (0, 0, 0, 0)


def test_c_core_reports_host_timeout_and_resends_until_acked(host_binary: Path) -> None:
    proc = subprocess.Popen([str(host_binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    fd = proc.stdout.fileno()

    def read_for(seconds: float) -> bytes:
        out = bytearray()
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if select.select([fd], [], [], left)[0]:
                out += os.read(fd, 4096)
        return bytes(out)

    try:
        proc.stdin.write(encode(HelloRequest(), 1))
        got = events_in(read_for(3.45))  # host timeout 3 s, then a re-send every 200 ms
        timeout_event = DeviceEvent(EventKind.FAULT, FaultCode.HOST_TIMEOUT, 0)
        assert len(got) >= 2 and {e for _, e in got} == {timeout_event}
        assert len({seq for seq, _ in got}) == 1  # re-sends keep the seq: the host drops duplicates
        proc.stdin.write(encode(Ack(got[0][0]), 2))
        assert events_in(read_for(0.5)) == []
    finally:
        proc.stdin.close()
        proc.wait(5)
