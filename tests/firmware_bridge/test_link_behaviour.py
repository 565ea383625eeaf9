"""LedLink's behaviour against the emulator: coalescing and rate limit, events, device reset,
offline reported once, pyserial 3.5's ReaderThread dying on a raw OSError, layout refusal."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
import serial
import serial.threaded

from firmware_bridge import sim
from firmware_bridge.errors import HandshakeError
from firmware_bridge.events import LinkOffline, LinkOnline
from firmware_bridge.frames import BLUE, LedFrame
from firmware_bridge.layout import Layout
from firmware_bridge.link import LedLink, _Reader
from firmware_bridge.protocol import DeviceEvent, EventKind, FaultCode, SetState

_names = itertools.count()


def fresh(**knobs: object) -> tuple[str, sim.SimBoard]:
    name = f"beh{next(_names)}"
    return f"ledsim://{name}", sim.board(name, **knobs)


def wait_for(cond, timeout: float = 3.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False


def test_newest_state_wins_and_the_rate_is_limited() -> None:
    port, board = fresh(latency=0.001)
    with LedLink.open(port, max_rate=20) as link:
        frames = [LedFrame.lit({i % 24}, brightness=i + 1) for i in range(60)]
        for f in frames:
            link.show(f, wait=False)
        assert link.wait_synced(2.0)
        assert board.device.state == frames[-1] == link.state
        sent = [m for m in board.device.log if isinstance(m, SetState)]
        assert len(sent) < 10  # 60 shows coalesced into a few frames
        # never more than max_rate frames per second
        assert link.stats.states_sent <= 1 + 20 * 2


def test_show_blocks_until_acked_and_reports_the_device_state() -> None:
    port, board = fresh(latency=0.002)
    with LedLink.open(port) as link:
        frame = LedFrame.lit({3, 4, 24}, BLUE)
        assert link.show(frame) is True
        assert board.device.state == frame


def test_device_events_reach_the_callback_once_even_when_resent() -> None:
    port, board = fresh()
    events: list[object] = []
    with LedLink.open(port, on_event=events.append):
        board.press(2)
        board.fault(FaultCode.STRIP_POWER, 3)
        assert wait_for(lambda: sum(isinstance(e, DeviceEvent) for e in events) >= 2)
        time.sleep(0.5)  # the device would re-send within 200 ms if the ACK had not arrived
        device_events = [e for e in events if isinstance(e, DeviceEvent)]
        assert device_events == [
            DeviceEvent(EventKind.BUTTON, 2, 1),
            DeviceEvent(EventKind.FAULT, int(FaultCode.STRIP_POWER), 3),
        ]


def test_a_device_reset_is_noticed_and_the_full_state_resent() -> None:
    port, board = fresh()
    events: list[object] = []
    with LedLink.open(port, on_event=events.append) as link:
        frame = LedFrame.lit({7})
        assert link.show(frame)
        board.reset()
        assert wait_for(lambda: board.device.boots == 2 and board.device.state == frame)
        assert wait_for(lambda: link.state == frame)
        assert link.stats.device_resets == 1
        assert [type(e) for e in events] == [LinkOnline, LinkOnline]
        assert events[1].reconnect  # type: ignore[attr-defined]


def test_unplug_is_reported_once_and_replug_restores_the_state() -> None:
    port, board = fresh()
    events: list[object] = []
    with LedLink.open(port, on_event=events.append) as link:
        assert link.show(LedFrame.lit({1}))
        board.unplug()
        assert wait_for(lambda: not link.online)
        newer = LedFrame.lit({2})
        assert link.show(newer) is False  # offline: kept, sent on reconnect
        time.sleep(1.2)  # several reconnect attempts fail meanwhile
        assert sum(isinstance(e, LinkOffline) for e in events) == 1
        board.replug()
        assert wait_for(lambda: board.device.state == newer, 1.0)
        assert link.online and link.stats.reconnects == 1


def test_raw_oserror_kills_pyserials_reader_thread_without_connection_lost() -> None:
    """The pyserial 3.5 behaviour we work around (if a later pyserial fixes it, this still holds)."""
    port, board = fresh()
    lost: list[object] = []

    class Recorder(serial.threaded.Protocol):
        def connection_lost(self, exc: BaseException | None) -> None:
            lost.append(exc)

    def run(reader_class: type[serial.threaded.ReaderThread]) -> list[object]:
        lost.clear()
        ser = serial.serial_for_url(port, baudrate=115200)
        reader = reader_class(ser, Recorder)
        reader.start()
        reader.connect()
        hook = threading.excepthook
        threading.excepthook = lambda args: None  # the plain thread dies with a traceback otherwise
        try:
            board.unplug(raw_oserror=True)
            reader.join(3)
        finally:
            threading.excepthook = hook
            board.replug()
            ser.close()
        assert not reader.is_alive()
        return list(lost)

    plain = run(serial.threaded.ReaderThread)
    ours = run(_Reader)
    assert len(ours) == 1 and isinstance(ours[0], OSError)
    if serial.VERSION == "3.5":
        assert plain == []  # died silently: no connection_lost


def test_link_recovers_from_the_raw_oserror_unplug() -> None:
    port, board = fresh()
    events: list[object] = []
    with LedLink.open(port, on_event=events.append) as link:
        frame = LedFrame.lit({9})
        assert link.show(frame)
        board.unplug(raw_oserror=True)
        assert wait_for(lambda: not link.online)
        offline = [e for e in events if isinstance(e, LinkOffline)]
        assert len(offline) == 1 and "Input/output error" in offline[0].reason
        board.replug()
        assert wait_for(lambda: link.online and board.device.state == frame, 1.5)


def test_a_layout_longer_than_the_strip_is_a_clear_handshake_error() -> None:
    port, _ = fresh(leds=28)
    with pytest.raises(HandshakeError, match="layout needs 56 LEDs"):
        LedLink.open(port, layout=Layout.serpentine(leds_per_point=2, off_leds=2, bar_leds=2))


def test_a_larger_layout_is_sent_and_rendered_by_the_device() -> None:
    port, board = fresh(leds=80)
    layout = Layout.serpentine(leds_per_point=3)
    with LedLink.open(port, layout=layout) as link:
        assert board.device.runs == layout.runs()
        assert link.show(LedFrame.lit({0}, (200, 0, 0), brightness=255))
        leds = board.device.render(time.monotonic())
        assert [i for i, c in enumerate(leds) if c != (0, 0, 0)] == list(layout.zones[0])


def test_open_without_require_keeps_trying_until_the_device_appears() -> None:
    port, board = fresh()
    board.unplug()
    events: list[object] = []
    link = LedLink.open(port, on_event=events.append, require=False)
    try:
        assert not link.online
        assert link.show(LedFrame.lit({4})) is False
        board.replug()
        assert wait_for(lambda: link.online and board.device.state == LedFrame.lit({4}), 2.0)
        assert [type(e) for e in events] == [LinkOffline, LinkOnline]
    finally:
        link.close()


def test_a_reset_whose_hello_was_lost_is_caught_by_the_heartbeat() -> None:
    port, board = fresh()
    with LedLink.open(port, heartbeat=0.1) as link:
        frame = LedFrame.lit({11})
        assert link.show(frame)
        with board.cond:  # a brown-out reset whose boot HELLO the noise ate: the device just forgot
            board.device.state = None
            board.device.applied_seq = None
        assert wait_for(lambda: board.device.state == frame, 1.0)
        assert link.stats.heartbeat_resyncs == 1
