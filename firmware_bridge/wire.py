"""One direction of a serial cable, simulated (pure; time passed in): baud-rate pacing, latency, and
the faults a noisy cable or a busy USB adapter produces.

Fault knobs (probabilities per byte, so "1 % bit flips" means 1 byte in 100 arrives with one bit
flipped; a per-bit rate of 1 % would corrupt nearly every 100-byte frame, which no cable does):

- ``flip``: the byte arrives with one random bit inverted;
- ``drop``: the byte never arrives (a lost byte in a FIFO overrun);
- ``latency``: s added to every byte (USB adapters buffer for up to 16 ms).

Pacing: a byte takes ``10 / baud`` s (start bit, 8 data bits, stop bit); bytes queue behind each
other, so the arrival time of a frame is honest at the set baud rate.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field


@dataclass
class Wire:
    """A paced, faulty one-way wire.

    :param baud: bits per second; 0 means no pacing (instant).
    :param latency: s added to every byte.
    :param flip: per-byte probability of one flipped bit.
    :param drop: per-byte probability of losing the byte.
    """

    baud: int = 115200
    latency: float = 0.0
    flip: float = 0.0
    drop: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    flipped: int = 0
    dropped: int = 0
    _queue: deque[tuple[float, int]] = field(default_factory=deque)
    _busy_until: float = 0.0

    def send(self, data: bytes, now: float) -> None:
        """Put ``data`` on the wire at time ``now`` (s)."""
        byte_time = 10 / self.baud if self.baud else 0.0
        t = max(now, self._busy_until)
        for b in data:
            t += byte_time
            if self.drop and self.rng.random() < self.drop:
                self.dropped += 1
                continue
            if self.flip and self.rng.random() < self.flip:
                b ^= 1 << self.rng.randrange(8)
                self.flipped += 1
            self._queue.append((t + self.latency, b))
        self._busy_until = t

    def receive(self, now: float) -> bytes:
        """The bytes that have arrived by time ``now``."""
        out = bytearray()
        q = self._queue
        while q and q[0][0] <= now:
            out.append(q.popleft()[1])
        return bytes(out)

    def next_arrival(self) -> float | None:
        """Time of the next byte's arrival, or None when the wire is empty."""
        return self._queue[0][0] if self._queue else None

    def next_wakeup(self) -> float | None:
        """When a receiver needs waking: the arrival of the next 0x00 (a frame is complete; nobody
        can act on less), or of the last byte queued when none is a delimiter. Bytes still arrive
        at their paced times; this only spares the driver a wake-up per byte."""
        for t, b in self._queue:
            if b == 0:
                return t
        return self._queue[-1][0] if self._queue else None

    def clear(self) -> None:
        """Drop everything in flight (the cable was pulled)."""
        self._queue.clear()
        self._busy_until = 0.0
