"""Issue 18 item 5, the link's side: show(wait=False) never waits on the device, the newest frame
wins (an unacknowledged frame is replaced, never queued), every frame's outcome is told once, the
layout is re-sent until a noisy line lets it through, and the packed state goes only to a device
that takes it. No timing thresholds beyond generous sanity bounds: speed is ``python -m bench link``."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass

from firmware_bridge import sim
from firmware_bridge.device import EmulatedDevice
from firmware_bridge.events import FrameOutcome
from firmware_bridge.frames import AMBER, GREEN, LedFrame
from firmware_bridge.link import LedLink
from firmware_bridge.protocol import Capability, Hello, SetLayout, SetPackedState, SetState

_names = itertools.count()
SANITY = 0.5  # s: far above the 5 ms goal, far below any wait on the device in these tests


def fresh(**knobs: object) -> tuple[str, sim.SimBoard]:
    name = f"newest{next(_names)}"
    return f"ledsim://{name}", sim.board(name, **knobs)


def wait_for(cond, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False


@dataclass
class Outcomes:
    """done= callbacks, recorded per frame (and how often each was called)."""

    told: dict[int, list[FrameOutcome]]
    lock: threading.Lock

    @classmethod
    def new(cls) -> Outcomes:
        return cls({}, threading.Lock())

    def done(self, i: int):
        def record(outcome: FrameOutcome) -> None:
            with self.lock:
                self.told.setdefault(i, []).append(outcome)

        return record


def frame(i: int) -> LedFrame:
    return LedFrame.lit({i % 24, 24}, GREEN if i % 2 else AMBER, brightness=1 + i % 250)


def test_show_without_wait_returns_at_once_while_the_device_is_stalled() -> None:
    port, board = fresh()
    outcomes = Outcomes.new()
    with LedLink.open(port) as link:
        board.stall(2.0)  # the device reads nothing for 2 s: an ACK cannot come before that
        start = time.monotonic()
        assert link.show(frame(1), wait=False, done=outcomes.done(1)) is False
        assert time.monotonic() - start < SANITY
        assert 1 not in outcomes.told
        assert wait_for(lambda: outcomes.told.get(1) == [FrameOutcome.APPLIED])
        assert board.device.state == frame(1) == link.state


def test_the_newest_frame_wins_and_older_ones_are_replaced_not_queued() -> None:
    port, board = fresh()
    outcomes = Outcomes.new()
    with LedLink.open(port) as link:
        board.stall(1.0)
        before = len(board.device.history)
        for i in range(30):
            link.show(frame(i), wait=False, done=outcomes.done(i))
        assert wait_for(lambda: link.state == frame(29))
        assert board.device.state == frame(29)
        applied = [f for _, f in list(board.device.history)[before:]]
        assert len(set(applied)) < 10  # 30 frames given during the stall: never all sent in turn
        assert applied[-1] == frame(29)
        assert wait_for(lambda: len(outcomes.told) == 30)
        assert all(len(told) == 1 for told in outcomes.told.values())  # told once each
        assert outcomes.told[29] == [FrameOutcome.APPLIED]
        replaced = [i for i, told in outcomes.told.items() if told == [FrameOutcome.REPLACED]]
        assert len(replaced) >= 20
        assert link.stats.frames_replaced == len(replaced)


def test_frames_not_acknowledged_when_the_link_closes_are_told_dropped() -> None:
    port, board = fresh()
    outcomes = Outcomes.new()
    link = LedLink.open(port)
    board.stall(5.0)
    link.show(frame(1), wait=False, done=outcomes.done(1))
    link.close()
    assert outcomes.told == {1: [FrameOutcome.DROPPED]}


def test_the_layout_is_resent_until_a_noisy_line_lets_it_through() -> None:
    """2 % flipped plus 2 % lost bytes: the 117-byte layout frame arrives intact ~1 time in 100."""
    port, board = fresh(flip=0.02, drop=0.02, seed=4)
    with LedLink.open(port, hello_timeout=10.0) as link:
        assert link.online
        assert link.stats.layout_retries >= 1
        assert any(isinstance(m, SetLayout) for m in board.device.log)
        assert board.device.runs == link.layout.runs()
        assert link.show(frame(3), timeout=5.0)
        assert board.device.state == frame(3)


def test_heavy_noise_still_ends_on_the_newest_frame() -> None:
    port, board = fresh(seed=7)
    with LedLink.open(port) as link:
        board.set_faults(flip=0.02, drop=0.02)
        for i in range(40):
            link.show(frame(i), wait=False)
            time.sleep(0.01)
        assert wait_for(lambda: link.state == frame(39), 5.0)
        assert board.device.state == frame(39)
        seqs = [seq for seq, _ in board.device.history]
        assert seqs == sorted(seqs)  # no late attempt overwrote a newer frame


class _OldFirmware(EmulatedDevice):
    """A device from before SET_STATE_PACKED: it does not announce capability 0x20."""

    def hello(self, reply_to: int | None = None) -> Hello:
        h = super().hello(reply_to)
        return Hello(
            h.protocol_version, h.firmware_version, h.led_count, h.zone_count,
            h.capabilities & ~Capability.PACKED_STATE, h.max_runs, h.reply_to,
        )


def test_the_packed_state_goes_only_to_a_device_that_takes_it() -> None:
    new = (*fresh(), SetPackedState)
    old = (*fresh(device=_OldFirmware()), SetState)
    for port, board, kind in (new, old):
        with LedLink.open(port) as link:
            assert link.show(frame(5))
            assert board.device.state == frame(5)
            states = [m for m in board.device.log if isinstance(m, SetState | SetPackedState)]
            assert states and all(isinstance(m, kind) for m in states)
