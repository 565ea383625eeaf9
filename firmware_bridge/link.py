"""The host end of the LED link (pyserial): :class:`LedLink`.

Two small threads (STYLE.md principle 11): pyserial's ``ReaderThread`` turns bytes into frames with
the pure :class:`~firmware_bridge.protocol.StreamDecoder`; one supervisor thread owns the port's
life: it connects, waits for HELLO, sends the layout until it is acknowledged, sends the newest LED
state until it is acknowledged (a newer frame replaces an unacknowledged one, never queues behind
it), sends heartbeats, notices an unplugged or silent device, reports it offline once, retries twice
a second and resends the full state on reconnect.

Usage (the controller's side)::

    from firmware_bridge.link import LedLink
    with LedLink.open("ledsim://", layout=None, on_event=queue.put, require=False) as link:
        link.show(frame, wait=False, done=print)  # returns at once; later done(FrameOutcome.APPLIED)
        link.show(frame)          # blocks until the device ACKs (or the timeout): True / False
        link.state                # the LedFrame the device acknowledged (None: unknown/dark)
        link.online               # False while unplugged; show() then returns False at once
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import serial
import serial.threaded

import firmware_bridge  # noqa: F401  (registers the ledsim:// URL handler)
from firmware_bridge.errors import (
    DeviceNotFoundError,
    HandshakeError,
    IncompatibleDeviceError,
    LinkClosedError,
    LinkError,
    PortSpecError,
)
from firmware_bridge.events import FrameOutcome, LinkEvent, LinkOffline, LinkOnline
from firmware_bridge.frames import LedFrame
from firmware_bridge.layout import DEFAULT_LAYOUT, Layout
from firmware_bridge.ports import resolve
from firmware_bridge.protocol import (
    PROTOCOL_VERSION,
    Ack,
    Capability,
    DeviceEvent,
    Frame,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    Nak,
    NakReason,
    SetLayout,
    SetPackedState,
    SetState,
    StateReport,
    StateRequest,
    StreamDecoder,
    encode,
    packed_length,
)
from firmware_bridge.retry import RetryTimer

EventCallback = Callable[[LinkEvent], Any]
SerialFactory = Callable[..., serial.SerialBase]
# show(..., done=): called once per frame with what became of it.
DoneCallback = Callable[[FrameOutcome], Any]
# show(wait=False) never waits for the link's lock (the caller is the game's loop): when a link
# thread holds it, the supervisor sees the new frame at its next look, at most IDLE_POLL s later.
IDLE_POLL = 0.05
_DENSE_STATE = 110  # payload bytes of a dense SET_STATE


class _Reader(serial.threaded.ReaderThread):
    """pyserial 3.5's ``ReaderThread`` catches only ``SerialException`` around ``read``; a vanished
    posix device can raise a bare ``OSError`` from ``in_waiting`` (the ioctl), which kills the thread
    without ``connection_lost``. We finish its job: report the loss with the error."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any escape means the port is unusable
            self.alive = False
            protocol = self.protocol
            self.protocol = None  # type: ignore[assignment]  # as pyserial's own stop() leaves it
            if protocol is not None:
                protocol.connection_lost(exc)


class _FrameProtocol(serial.threaded.Protocol):
    """Bytes -> frames (pure decoder) -> the link; one instance per connection."""

    def __init__(self, link: LedLink, conn: int) -> None:
        self.link, self.conn = link, conn
        self.decoder = StreamDecoder()

    def data_received(self, data: bytes) -> None:
        before = self.decoder.stats.dropped
        frames = self.decoder.feed(data)
        self.link.stats.rx_dropped += self.decoder.stats.dropped - before
        for frame in frames:
            self.link._on_frame(self.conn, frame)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.link._on_lost(self.conn, exc)


@dataclass
class LinkStats:
    """Counters since the link was opened."""

    frames_sent: int = 0
    states_sent: int = 0
    retries: int = 0
    naks: int = 0
    acks: int = 0
    reconnects: int = 0
    device_resets: int = 0
    heartbeat_resyncs: int = 0  # full state re-sent because a heartbeat named another state
    rx_dropped: int = 0  # frames our decoder dropped (COBS/CRC/length)
    layout_retries: int = 0
    frames_applied: int = 0  # show() frames the device acknowledged
    frames_replaced: int = 0  # show() frames a newer one replaced before the device acknowledged them


class LedLink:
    """The LED device on a serial port, kept in sync with the newest :class:`LedFrame`.

    :param port: a port name, a pyserial URL (``ledsim://``, ``loop://``, ...) or ``usb:VID:PID[:SERIAL]``
        (:func:`firmware_bridge.ports.resolve`; re-resolved on every reconnect).
    :param layout: the station's LED layout (default :data:`~firmware_bridge.layout.DEFAULT_LAYOUT`),
        sent to the device after every HELLO.
    :param on_event: called with :class:`LinkOnline`, :class:`LinkOffline` and the device's
        :class:`DeviceEvent` s, from the link's threads, never under its lock: keep it quick (put the
        event on a queue).
    :param baudrate: bits/s (115200).
    :param ack_timeout: s, the longest wait for an ACK before re-sending (the newest state, with a new
        seq); the wait itself follows the measured round trip (:class:`~firmware_bridge.retry.RetryTimer`,
        at least ``min_ack_timeout``).
    :param min_ack_timeout: s, the shortest wait for an ACK.
    :param retries: with no intact frame from the device for ``ack_timeout * (retries + 1)`` s while
        re-sending, it is declared silent and re-handshaken.
    :param hello_timeout: s to wait for HELLO after opening (boards that reset on open boot for ~1-2 s).
    :param heartbeat: s between heartbeats when nothing else is sent.
    :param liveness: s without any intact frame from the device before it counts as gone.
    :param max_rate: at most this many LED frames per second go out (newer states coalesce).
    :param reconnect_interval: s between reconnect attempts while offline (twice a second, so the
        device is back in sync within 1 s of a replug).

    Use :meth:`open` (connects and waits for the device) or call :meth:`start` yourself.
    """

    def __init__(
        self,
        port: str,
        *,
        layout: Layout | None = None,
        on_event: EventCallback | None = None,
        baudrate: int = 115200,
        ack_timeout: float = 0.1,
        min_ack_timeout: float = 0.02,
        retries: int = 6,
        hello_timeout: float = 3.0,
        heartbeat: float = 0.5,
        liveness: float = 2.0,
        max_rate: float = 50.0,
        reconnect_interval: float = 0.5,
        serial_factory: SerialFactory = serial.serial_for_url,
    ) -> None:
        self.port = port
        self.layout = layout or DEFAULT_LAYOUT
        self.on_event = on_event
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.timer = RetryTimer(min(min_ack_timeout, ack_timeout), ack_timeout)
        self.retries = retries
        self.hello_timeout = hello_timeout
        self.heartbeat = heartbeat
        self.liveness = liveness
        self.min_interval = 1.0 / max_rate if max_rate > 0 else 0.0
        self.reconnect_interval = reconnect_interval
        self.serial_factory = serial_factory
        self.stats = LinkStats()
        self.hello: Hello | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._started = False
        self._thread: threading.Thread | None = None
        self._reader: _Reader | None = None
        self._conn = 0  # connection counter: frames of an old connection are ignored
        self._lost: BaseException | None | bool = False
        self._seq = 0
        # (generation, frame) of the desired state, bumped by every show and replaced as one object:
        # show(wait=False) sets it without the link's lock, so readers see a consistent pair
        self._want: tuple[int, LedFrame | None] = (0, None)
        self._show_lock = threading.Lock()  # between show() callers only: the link never takes it
        # gen -> done callback of show(done=): set by show() before it publishes the gen, popped by
        # the link's threads (single dict operations, atomic under the GIL: no lock to wait on)
        self._pending: dict[int, DoneCallback] = {}
        self._settled: deque[tuple[DoneCallback, FrameOutcome]] = deque()
        self._acked_gen = 0
        self._failed_gen = 0
        self._acked: LedFrame | None = None
        self._online = False
        self._reported_offline = False
        self._ever_online = False
        self._first_error: LinkError | None = None
        self._need_sync = False
        self._last_rx = 0.0
        self._last_tx = 0.0
        self._last_state_tx = 0.0
        self._responses: deque[Frame] = deque(maxlen=64)
        self._device_events_seen: deque[int] = deque(maxlen=32)
        self._first_attempt = threading.Event()
        self._handshaking = False
        # seq -> (gen, frame, time sent) of the SET_STATEs in flight: every attempt until one is answered
        self._inflight: dict[int, tuple[int, LedFrame, float]] = {}
        self._sent_newest = 0  # the generation the newest attempt carried
        self._inflight_deadline = 0.0
        self._sent_gen: dict[int, int] = {}  # seq -> gen of the last SET_STATEs sent (64)
        self._idle = False  # the supervisor is idle: show() may send at once (one thread hand-off less)

    # ------------------------------------------------------------------ public API

    @classmethod
    def open(
        cls,
        port: str,
        layout: Layout | None = None,
        on_event: EventCallback | None = None,
        *,
        require: bool = True,
        **options: Any,
    ) -> LedLink:
        """Create the link, start it and wait for the device's HELLO.

        :param require: raise when the first connection fails (else return a link that keeps
            retrying every ``reconnect_interval`` s and reports :class:`LinkOffline` once; a
            :class:`PortSpecError`, a wrong port name, is not retried: check :attr:`first_error`).
        :raises DeviceNotFoundError: the port does not exist or no USB port matches.
        :raises HandshakeError: the port opened but no HELLO came within ``hello_timeout``, or the
            layout was not acknowledged (:class:`IncompatibleDeviceError`: the device speaks another
            protocol version or drives too few LEDs).
        """
        link = cls(port, layout=layout, on_event=on_event, **options)
        link.start()
        link._first_attempt.wait()
        if require and not link.online:
            error = link._first_error or HandshakeError(f"no LED device answered on {port}")
            link.close()
            raise error
        return link

    def start(self) -> None:
        """Start the supervisor thread (idempotent). :raises LinkClosedError: after close."""
        with self._cond:
            self._check_open()
            if self._started:
                return
            self._started = True
        self._thread = threading.Thread(target=self._run, name=f"LedLink({self.port})", daemon=True)
        self._thread.start()

    @property
    def online(self) -> bool:
        """True while the device is connected and has answered HELLO."""
        return self._online

    @property
    def first_error(self) -> LinkError | None:
        """Why the first connection failed (None once the device answered, or before trying)."""
        return None if self._ever_online else self._first_error

    @property
    def state(self) -> LedFrame | None:
        """The frame the device last acknowledged (None before any, or after the device reset)."""
        return self._acked

    @property
    def desired(self) -> LedFrame | None:
        """The newest frame given to :meth:`show`."""
        return self._want[1]

    @property
    def _gen(self) -> int:
        return self._want[0]

    @property
    def _desired(self) -> LedFrame | None:
        return self._want[1]

    def show(
        self,
        frame: LedFrame,
        *,
        wait: bool = True,
        timeout: float | None = None,
        done: DoneCallback | None = None,
    ) -> bool:
        """Make ``frame`` the LED state; it replaces any older frame the device has not acknowledged.

        :param wait: block until the device ACKs this frame (or a newer one). With ``wait=False`` the
            call waits neither on the device nor on the link's threads (not even for their lock):
            the supervisor sends the frame (the game's loop calls it this way).
        :param timeout: s to wait (default: enough for every retry).
        :param done: called once, from a link thread, with the frame's
            :class:`~firmware_bridge.events.FrameOutcome` (applied, replaced by a newer frame,
            refused, or dropped at close); keep it quick.
        :returns: True when the device acknowledged it (or a newer frame); False when offline (the
            frame is kept and sent on reconnect), refused, timed out, or (``wait=False``) not yet.
        :raises LinkClosedError: after :meth:`close`.
        """
        if not isinstance(frame, LedFrame):
            raise TypeError(f"show() takes an LedFrame, got {type(frame).__name__}")
        self._check_open()
        with self._show_lock:
            gen = self._want[0] + 1
            if done is not None:
                self._pending[gen] = done  # before the gen is visible, so no ACK can miss it
            self._want = (gen, frame)
        if not wait:
            if self._cond.acquire(blocking=False):
                try:
                    self._cond.notify_all()
                finally:
                    self._cond.release()
            return self._acked_gen >= gen
        with self._cond:
            if (
                self._idle
                and not self._inflight
                and time.monotonic() >= self._last_state_tx + self.min_interval
                and not self._connection_dead()
            ):
                self._idle = False  # send from here: one thread hand-off less on the round trip
                self._send_locked()
            self._cond.notify_all()
            if not self._online:
                return self._acked_gen >= gen
            limit = timeout if timeout is not None else self.ack_timeout * (self.retries + 2) + 0.5
            end = time.monotonic() + limit
            while self._acked_gen < gen and self._failed_gen < gen and not self._closed:
                left = end - time.monotonic()
                if left <= 0 or not self._online:
                    break
                self._cond.wait(left)
            return self._acked_gen >= gen

    def wait_synced(self, timeout: float) -> bool:
        """Block until the device acknowledged the newest frame (True) or ``timeout`` s passed."""
        end = time.monotonic() + timeout
        with self._cond:
            while (
                self._acked_gen < self._gen
                or not self._online
                or (self._desired is not None and self._acked is None)
            ):
                left = end - time.monotonic()
                if left <= 0 or self._closed:
                    return False
                self._cond.wait(left)
            return True

    def read_back(self, timeout: float = 3.0) -> StateReport:
        """Ask the device what it shows (STATE_REQ), asking again while no intact report comes.

        A report is the longest frame the device sends, so on a noisy line it is the one most often
        corrupted (and dropped by its CRC) or cut: one lost answer must not read as "the device
        shows something else" (at 1 % flipped bytes only ~30 % of reports arrive intact). The
        request is re-sent every retry timeout plus twice a report's time on the wire until an
        intact report arrives (any report, a late answer to an earlier attempt too: the device's
        state is the same) or ``timeout`` s have passed. Compare its ``frame`` with :attr:`state`,
        the frame the device last acknowledged.

        :raises HandshakeError: no intact report within ``timeout`` s (or offline).
        :raises LinkClosedError: after close.
        """
        with self._cond:
            self._check_open()
            for f in [f for f in self._responses if isinstance(f.message, StateReport)]:
                self._responses.remove(f)  # a late answer to an earlier request
        end = time.monotonic() + timeout
        wire = 2 * _REPORT_BYTES * 10 / self.baudrate if self.baudrate > 0 else 0.0
        per_try = self.timer.timeout + wire
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            frame = self._transact(StateRequest(), lambda f: isinstance(f.message, StateReport),
                                   min(left, per_try))
            if frame is not None and isinstance(frame.message, StateReport):
                return frame.message
            with self._cond:
                self._check_open()
                if self._connection_dead():
                    break
            self.stats.retries += 1
        raise HandshakeError(f"the LED device on {self.port} did not report its state")

    def close(self) -> None:
        """Stop the threads and close the port (idempotent; the device keeps showing its state)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._disconnect()
        with self._cond:
            self._online = False
            self._settle_locked(self._gen, FrameOutcome.DROPPED)
            self._cond.notify_all()
        self._run_settled()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    def __enter__(self) -> LedLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        status = "closed" if self._closed else ("online" if self._online else "offline")
        return f"<LedLink port={self.port!r} {status}>"

    # ------------------------------------------------------------------ reader-thread callbacks

    def _on_frame(self, conn: int, frame: Frame) -> None:
        emit: list[LinkEvent] = []
        with self._cond:
            if conn != self._conn:
                return
            self._last_rx = time.monotonic()
            msg = frame.message
            if isinstance(msg, DeviceEvent):
                self._write_locked(Ack(frame.seq))
                if frame.seq not in self._device_events_seen:  # a re-send whose ACK was lost
                    self._device_events_seen.append(frame.seq)
                    emit.append(msg)
            elif isinstance(msg, Ack | Nak) and self._take_answer(msg):
                pass
            elif isinstance(msg, Heartbeat) and self._shows_something_else(msg):
                # A reset whose boot HELLO was lost on a noisy line: the device's heartbeat names a
                # state other than the one it acknowledged to us. Resend the full state.
                self._acked = None
                self.stats.heartbeat_resyncs += 1
            elif isinstance(msg, Hello) and msg.reply_to is None and self._online and not self._handshaking:
                # The device rebooted under us (reset button, watchdog, brown-out): it shows nothing.
                self.hello = msg
                self._acked = None
                self._need_sync = True
                self._device_events_seen.clear()
                self.stats.device_resets += 1
                emit.append(LinkOnline(self.port, msg, reconnect=True))
                self._responses.append(frame)
            else:
                self._responses.append(frame)
            self._cond.notify_all()
        self._emit(emit)
        self._run_settled()

    def _settle_locked(self, gen: int, outcome: FrameOutcome) -> None:
        """Lock held: every show() frame up to ``gen`` is settled: ``gen`` itself with ``outcome``,
        the older ones as replaced (a dropped link drops them all). Callbacks run outside the lock."""
        for g in sorted(g for g in list(self._pending) if g <= gen):
            callback = self._pending.pop(g, None)
            if callback is None:
                continue
            mine = outcome if g == gen or outcome is FrameOutcome.DROPPED else FrameOutcome.REPLACED
            self._settled.append((callback, mine))
            if mine is FrameOutcome.APPLIED:
                self.stats.frames_applied += 1
            elif mine is FrameOutcome.REPLACED:
                self.stats.frames_replaced += 1

    def _run_settled(self) -> None:
        while True:
            try:
                callback, outcome = self._settled.popleft()
            except IndexError:
                return
            try:
                callback(outcome)
            except Exception:  # noqa: BLE001 - a faulty callback must not take the link down
                pass

    def _shows_something_else(self, hb: Heartbeat) -> bool:
        """Lock held: does a device heartbeat contradict the state we believe it shows?"""
        if not self._online or self._handshaking or self._inflight or self._acked is None:
            return False
        return self._sent_gen.get(hb.applied_seq) != self._acked_gen

    def _on_lost(self, conn: int, exc: BaseException | None) -> None:
        with self._cond:
            if conn == self._conn:
                self._lost = exc if exc is not None else True
                self._cond.notify_all()

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise LinkClosedError(f"the LED link on {self.port} is closed")

    def _emit(self, events: list[LinkEvent]) -> None:
        if self.on_event is None:
            return
        for event in events:
            try:
                self.on_event(event)
            except Exception:  # noqa: BLE001 - a faulty handler must not take the link down
                pass

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) % 65536
        return seq

    def _write_locked(self, msg: Message) -> int:
        """Send ``msg`` (lock held); returns its seq. A write error marks the connection lost."""
        seq = self._next_seq()
        reader = self._reader
        if reader is None:
            return seq
        try:
            reader.write(encode(msg, seq))
        except (serial.SerialException, OSError) as exc:
            self._lost = exc
            self._cond.notify_all()
        self._last_tx = time.monotonic()
        self.stats.frames_sent += 1
        return seq

    def _connection_dead(self) -> bool:
        reader = self._reader
        return self._lost is not False or reader is None or not reader.is_alive()

    def _transact(
        self, msg: Message, match: Callable[[Frame], bool], timeout: float, tries: int = 1
    ) -> Frame | None:
        """Send ``msg`` up to ``tries`` times, each waiting ``timeout`` s for a matching frame."""
        with self._cond:
            for _ in range(tries):
                if self._connection_dead() or self._closed:
                    return None
                seq = self._write_locked(msg)
                end = time.monotonic() + timeout
                while True:
                    for frame in list(self._responses):
                        if match(frame) or _answers(frame, seq):
                            self._responses.remove(frame)
                            return frame
                    left = end - time.monotonic()
                    if left <= 0 or self._connection_dead() or self._closed:
                        break
                    self._cond.wait(left)
                if tries > 1:
                    self.stats.retries += 1
        return None

    def _disconnect(self) -> None:
        with self._cond:
            reader, self._reader = self._reader, None
            self._conn += 1
        if reader is not None:
            try:
                reader.close()
            except Exception:  # noqa: BLE001 - the port may already be gone; closing must not fail
                try:
                    reader.serial.close()
                except Exception:  # noqa: BLE001
                    pass

    def _connect(self) -> Hello:
        """Open the port, start the reader, wait for HELLO, send the layout. :raises LinkError:"""
        target = resolve(self.port)
        try:
            port = self.serial_factory(target, baudrate=self.baudrate, timeout=None, write_timeout=1.0)
        except ValueError as exc:  # the name itself is wrong (a ledsim option, a URL scheme)
            raise PortSpecError(f"cannot open {self.port}: {exc}") from exc
        except (serial.SerialException, OSError) as exc:
            raise DeviceNotFoundError(f"cannot open {self.port}: {exc}") from exc
        with self._cond:
            self._conn += 1
            conn = self._conn
            self._lost = False
            self._responses.clear()
        # serial_for_url returns the URL handler's class; all of them are Serial-like for ReaderThread
        reader = _Reader(cast(serial.Serial, port), lambda: _FrameProtocol(self, conn))
        reader.daemon = True
        reader.start()
        with self._cond:
            self._reader = reader
            self._last_rx = time.monotonic()
        hello = self._handshake()
        if hello is None:
            raise HandshakeError(
                f"no HELLO from {self.port} within {self.hello_timeout} s: is the Tavla firmware flashed?"
            )
        self._check_hello(hello)
        self._send_layout()
        return hello

    def _handshake(self, interval: float = 0.25) -> Hello | None:
        """HELLO_REQ every ``interval`` s until a HELLO comes: 0.25 s after opening the port (a
        board that resets on open boots first, and its bootloader must not be flooded), the retry
        timeout when re-checking a device that was answering (a noisy line must not cost 0.25 s a
        lost frame)."""
        with self._cond:
            self._handshaking = True
            self._drop_stale_responses()
        try:
            return self._handshake_loop(interval)
        finally:
            with self._cond:
                self._handshaking = False

    def _drop_stale_responses(self) -> None:
        """Lock held: forget answers the handshake makes stale, but keep a STATE report: a
        :meth:`read_back` running meanwhile (from another thread) still waits for it."""
        keep = [f for f in self._responses if isinstance(f.message, StateReport)]
        self._responses.clear()
        self._responses.extend(keep)

    def _handshake_loop(self, interval: float) -> Hello | None:
        end = time.monotonic() + self.hello_timeout
        while time.monotonic() < end:
            sent = time.monotonic()
            frame = self._transact(
                HelloRequest(), lambda f: isinstance(f.message, Hello), min(interval, self.hello_timeout)
            )
            if frame is not None and isinstance(frame.message, Hello):
                if frame.message.reply_to is not None:
                    self.timer.sample(time.monotonic() - sent)  # a first round trip for the timer
                # The boot HELLO may precede our request's: drain any other for a clean start.
                with self._cond:
                    self._drop_stale_responses()
                    self._need_sync = False
                return frame.message
            with self._cond:
                if self._connection_dead() or self._closed:
                    return None
        return None

    def _check_hello(self, hello: Hello) -> None:
        if hello.protocol_version != PROTOCOL_VERSION:
            raise IncompatibleDeviceError(
                f"the device on {self.port} speaks protocol {hello.protocol_version}, we speak "
                f"{PROTOCOL_VERSION}: flash the firmware of this Tavla version"
            )
        if self.layout.led_count > hello.led_count:
            fix = (  # the emulator is sized by its URL, a board by its firmware
                f"give the emulator as many (ledsim://?leds={self.layout.led_count})"
                if str(self.port).startswith("ledsim://")
                else "the firmware's LED_COUNT"
            )
            raise IncompatibleDeviceError(
                f"the layout needs {self.layout.led_count} LEDs, the device on {self.port} drives "
                f"{hello.led_count}: fix [leds] in the station file or {fix}"
            )

    def _send_layout(self) -> None:
        """Send SET_LAYOUT until the device ACKs it (any attempt's ACK counts: each has its own seq);
        a noisy line only makes this take longer. Before the link has timed a round trip it re-sends
        every 2 x ``min_ack_timeout`` (a late ACK still counts, so a short wait costs only wire time).
        Gives up when the device sends nothing intact for ``max(liveness, hello_timeout)`` s (the
        supervisor then reconnects and tries again) or the port dies.

        :raises HandshakeError: the device went silent (:class:`IncompatibleDeviceError`: it refused
            the layout).
        """
        msg = SetLayout(self.layout.runs())
        sent: dict[int, float] = {}  # seq -> time sent
        silence = max(self.liveness, self.hello_timeout)
        with self._cond:
            self._last_rx = max(self._last_rx, time.monotonic())  # the HELLO just came
            while True:
                if self._connection_dead() or self._closed:
                    raise HandshakeError(f"the device on {self.port} went away while taking the layout")
                if time.monotonic() - self._last_rx > silence:
                    raise HandshakeError(f"the device on {self.port} did not acknowledge the LED layout")
                if sent:
                    self.stats.layout_retries += 1
                seq = self._write_locked(msg)
                sent[seq] = time.monotonic()
                wait = self.timer.timeout if self.timer.srtt is not None else 2 * self.timer.floor
                end = time.monotonic() + wait
                while True:
                    answer = next((f for f in self._responses if _answers_any(f, sent)), None)
                    if answer is not None:
                        self._responses.remove(answer)
                        assert isinstance(answer.message, Ack | Nak)
                        self.timer.sample(time.monotonic() - sent[answer.message.seq])
                        if isinstance(answer.message, Nak):
                            raise IncompatibleDeviceError(
                                f"the device on {self.port} refused the LED layout "
                                f"({answer.message.reason.name})"
                            )
                        return
                    left = end - time.monotonic()
                    if left <= 0 or self._connection_dead() or self._closed:
                        break
                    self._cond.wait(left)

    def _set_online(self, online: bool, reason: str = "", hello: Hello | None = None) -> None:
        emit: list[LinkEvent] = []
        with self._cond:
            if online:
                reconnect = self._ever_online
                self._online = True
                self._ever_online = True
                self._reported_offline = False
                self.hello = hello
                self._acked = None  # the device may have rebooted: nothing is known to be shown
                if reconnect:
                    self.stats.reconnects += 1
                assert hello is not None
                emit.append(LinkOnline(self.port, hello, reconnect))
            else:
                self._online = False
                if not self._reported_offline:
                    self._reported_offline = True
                    emit.append(LinkOffline(self.port, reason))
            self._cond.notify_all()
        self._emit(emit)

    def _state_message(self, frame: LedFrame) -> SetState | SetPackedState:
        """The shorter spelling of ``frame`` the device takes (fewer bytes for noise to hit)."""
        hello = self.hello
        if (
            hello is not None
            and hello.capabilities & Capability.PACKED_STATE
            and packed_length(frame) < _DENSE_STATE
        ):
            return SetPackedState(frame)
        return SetState(frame)

    def _send_locked(self) -> None:
        """Lock held: send the newest state (one more attempt in flight)."""
        gen, frame = self._want
        assert frame is not None
        seq = self._write_locked(self._state_message(frame))
        now = time.monotonic()
        self._last_state_tx = now
        self.stats.states_sent += 1
        self._inflight[seq] = (gen, frame, now)
        if len(self._inflight) > 64:  # attempts that old are lost: their ACKs would be too late
            del self._inflight[next(iter(self._inflight))]
        self._sent_gen[seq] = gen
        if len(self._sent_gen) > 64:
            del self._sent_gen[next(iter(self._sent_gen))]
        self._sent_newest = gen
        self._inflight_deadline = now + self.timer.timeout

    def _send_state(self) -> None:
        """Send the newest state until the device ACKs it (or a newer one, or refuses it).

        Every attempt carries the *newest* frame with a new seq, and all stay in flight: whichever
        ACK comes back proves what the device shows. An attempt unanswered for the retry timeout
        (:class:`~firmware_bridge.retry.RetryTimer`) is followed by another; a frame given meanwhile
        goes out at once, so an unacknowledged frame is replaced, never queued. At most ``max_rate``
        attempts a second. With no intact frame from the device for ``ack_timeout * (retries + 1)``
        s the device is re-handshaken. The reader thread takes the ACKs (:meth:`_take_answer`)."""
        silence = self.ack_timeout * (self.retries + 1)
        with self._cond:
            while True:
                if (
                    self._connection_dead()
                    or self._closed
                    or self._desired is None
                    or self._need_sync
                    or not self._behind()
                ):
                    self._inflight.clear()
                    return
                now = time.monotonic()
                due = not self._inflight or self._sent_newest < self._gen or now >= self._inflight_deadline
                if not due:
                    self._cond.wait(self._inflight_deadline - now)
                    continue
                wait = self._last_state_tx + self.min_interval - now
                if wait > 0:
                    self._cond.wait(wait)  # rate limit: newer shows coalesce meanwhile
                    continue
                if self._inflight and now - self._last_rx > silence:
                    self._inflight.clear()
                    self._need_sync = True  # no answer at all: check the device is still there
                    return
                if self._inflight and self._sent_newest == self._gen:
                    self.stats.retries += 1
                self._send_locked()

    def _take_answer(self, msg: Ack | Nak) -> bool:
        """Reader thread, lock held: an ACK/NAK of a SET_STATE in flight (any of its attempts: a
        late ACK of an earlier attempt still proves the device shows that frame)."""
        sent = self._inflight.get(msg.seq)
        if sent is None:
            return False
        gen, frame, t_sent = sent
        self.timer.sample(time.monotonic() - t_sent)
        if isinstance(msg, Ack):
            self.stats.acks += 1
            if gen > self._acked_gen:
                self._acked_gen, self._acked = gen, frame
                self._settle_locked(gen, FrameOutcome.APPLIED)
        else:
            self.stats.naks += 1
            if msg.reason is NakReason.STALE:
                self._need_sync = True  # the device's window is ahead of our counter: re-HELLO
            else:
                self._failed_gen = max(self._failed_gen, gen)
                self._settle_locked(gen, FrameOutcome.REFUSED)
        return True

    def _run(self) -> None:
        """Supervisor: connect, keep the device in sync, reconnect twice a second when it is gone."""
        while not self._closed:
            try:
                hello = self._connect()
            except LinkError as exc:
                self._disconnect()
                if self._first_error is None and not self._ever_online:
                    self._first_error = exc
                self._set_online(False, str(exc))
                self._first_attempt.set()
                if isinstance(exc, PortSpecError):
                    break  # the same name fails the same way: no reconnecting
                with self._cond:
                    self._cond.wait_for(lambda: self._closed, self.reconnect_interval)
                continue
            self._set_online(True, hello=hello)
            self._first_attempt.set()
            reason = self._serve()
            self._disconnect()
            if not self._closed:
                self._set_online(False, reason)
                with self._cond:
                    self._cond.wait_for(lambda: self._closed, self.reconnect_interval)
        self._first_attempt.set()

    def _behind(self) -> bool:
        """Lock held: the newest state is neither acknowledged nor refused."""
        return self._desired is not None and self._acked_gen < self._gen and self._failed_gen < self._gen

    def _serve(self) -> str:
        """Keep a connected device in sync; returns why the connection ended."""
        while True:
            with self._cond:
                if self._closed:
                    return "closed"
                if self._connection_dead():
                    lost = self._lost
                    return f"device disconnected ({lost})" if lost not in (True, False) else "port closed"
                need_sync = self._need_sync
                now = time.monotonic()
                if now - self._last_rx > self.liveness:
                    need_sync = True
            if need_sync:
                with self._cond:
                    self._need_sync = False
                hello = self._handshake(self.timer.timeout)
                if hello is None:
                    return f"the device stopped answering for {self.liveness} s"
                try:
                    self._check_hello(hello)
                    self._send_layout()
                except LinkError as exc:
                    return str(exc)
                with self._cond:
                    self.hello = hello
                    self._acked = None
                    self._acked_gen = min(self._acked_gen, self._gen - 1) if self._desired else 0
                continue
            with self._cond:
                behind = self._behind()
                if not behind and self._acked is None and self._desired is not None:
                    behind = True  # device rebooted: resend the full state
                    self._acked_gen = self._gen - 1
            if behind:
                self._send_state()
                continue
            with self._cond:
                now = time.monotonic()
                if now - self._last_tx >= self.heartbeat:
                    self._write_locked(Heartbeat(int(now * 1000) % 2**32, 0, 0))
                    continue
                if self._need_sync or self._closed or self._behind():
                    continue  # something arrived since we looked: no sleeping through it
                self._idle = True
                # IDLE_POLL: a show(wait=False) that found the lock busy is seen soon
                wake = min(self._last_tx + self.heartbeat, self._last_rx + self.liveness, now + IDLE_POLL)
                self._cond.wait(max(0.005, wake - now))
                self._idle = False
                # Heartbeat answers are only proof of life: drop them so the deque holds answers.
                for f in list(self._responses):
                    if isinstance(f.message, Heartbeat):
                        self._responses.remove(f)


#: About the longest STATE report on the wire (27 zones with effects), for :meth:`LedLink.read_back`'s
#: wait between requests: the answer must have time to arrive before the request is re-sent.
_REPORT_BYTES = 160


def _answers(frame: Frame, seq: int) -> bool:
    msg = frame.message
    return isinstance(msg, Ack | Nak) and msg.seq == seq


def _answers_any(frame: Frame, seqs: dict[int, float]) -> bool:
    msg = frame.message
    return isinstance(msg, Ack | Nak) and msg.seq in seqs
