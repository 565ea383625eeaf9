"""The link's retry timer (RFC 6298 estimator) between its floor and ceiling."""

from __future__ import annotations

import pytest

from firmware_bridge.retry import RetryTimer


def test_before_any_sample_the_timer_waits_the_ceiling() -> None:
    assert RetryTimer(0.02, 0.1).timeout == 0.1


def test_a_fast_steady_link_is_retried_at_the_floor() -> None:
    timer = RetryTimer(0.02, 0.1)
    for _ in range(20):
        timer.sample(0.003)
    assert timer.srtt == pytest.approx(0.003)
    assert timer.timeout == 0.02


def test_a_slow_jittery_link_waits_longer_but_never_past_the_ceiling() -> None:
    timer = RetryTimer(0.02, 0.1)
    for rtt in (0.030, 0.036, 0.028, 0.034) * 5:
        timer.sample(rtt)
    assert 0.035 < timer.timeout < 0.1
    timer.sample(5.0)  # one huge outlier
    assert timer.timeout == 0.1


def test_a_negative_sample_is_ignored() -> None:
    timer = RetryTimer(0.02, 0.1)
    timer.sample(-1.0)
    assert timer.srtt is None
