"""What the fuzz harnesses of outside input share (issue 18): 2,000 examples in the default run,
100,000 under ``make slow``, and a runner that counts the examples it took."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))


def run_harness(
    name: str, strategy: st.SearchStrategy[Any], check: Callable[[Any], None], runner: settings
) -> None:
    """Feed ``strategy``'s examples to ``check`` under ``runner``; print how many it took (an
    undocumented exception raised by ``check`` fails the calling test)."""
    seen = [0]

    def counted(value: Any) -> None:
        seen[0] += 1
        check(value)

    runner(given(strategy)(counted))()
    print(f"{name}: {seen[0]} examples, 0 undocumented exceptions")
