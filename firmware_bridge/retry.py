"""How long the link waits for an ACK before re-sending, learnt from the link itself (pure).

The estimator of RFC 6298 (TCP's retransmission timer): a smoothed round trip and its mean deviation,
timeout = smoothed + 4 x deviation, kept between a floor and a ceiling. Every attempt of the link has
its own seq, so each ACK names the attempt it answers and every sample is unambiguous (no Karn rule
needed). A pty or the emulator answers in a few ms, a USB adapter in up to ~35 ms: one fixed timeout
either wastes most of a noisy second waiting or re-sends a healthy link twice.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RetryTimer:
    """Smoothed round trip of one link.

    :param floor: s, the shortest timeout (a busy host delays our own threads by a few ms).
    :param ceiling: s, the longest timeout, and the timeout before any sample.
    """

    floor: float = 0.02
    ceiling: float = 0.1
    srtt: float | None = None
    rttvar: float = 0.0

    def sample(self, rtt: float) -> None:
        """One measured round trip (s): an attempt sent, its ACK (or answer) received."""
        if rtt < 0:
            return
        if self.srtt is None:
            self.srtt, self.rttvar = rtt, rtt / 2
            return
        self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
        self.srtt = 0.875 * self.srtt + 0.125 * rtt

    @property
    def timeout(self) -> float:
        """s to wait for an answer before re-sending."""
        if self.srtt is None:
            return self.ceiling
        return min(self.ceiling, max(self.floor, self.srtt + 4 * self.rttvar))
