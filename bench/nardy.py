"""Long nardy legal-play generation speed: the real generator against the naive reference.

No public nardy engine is correct enough to be a peer (issue 7), so the peer is the deliberately
naive reference generator of the tests (``tests/controller/rules/nardy_reference.py``: every
sequence of single-die steps, then the rules as filters). Both get the same random reachable
positions x the same rolls (all three block-rule settings in turn), in the same run; the figures
are distinct legal plays produced per second and (position, roll) pairs per second, and the table gives the
ratio. Both must also give the same set of results on every case; a disagreement is printed as a bug.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.table import Table

from controller.rules.nardy import BlockRule, NardyPosition, NardySettings, legal_results
from controller.rules.nardy.randomgame import random_positions

POSITIONS = 1200
SEED = 1414

_Case = tuple[NardyPosition, int, int, NardySettings]



@contextmanager
def _stage(err: Console, text: str) -> Iterator[None]:
    """One plain status line on stderr before a stage: no spinner thread, so nothing else runs (or
    takes CPU) while the stage is timed."""
    err.print(f"[dim]{text}[/dim]")
    yield

def _cases() -> list[_Case]:
    rng = random.Random(SEED)
    cases: list[_Case] = []
    rules = list(BlockRule)
    for i, rule in enumerate(rules):
        settings = NardySettings(block_rule=rule)
        for position in random_positions(POSITIONS // len(rules), SEED + i, settings, block_bias=0.5):
            cases.append((position, rng.randint(1, 6), rng.randint(1, 6), settings))
    return cases


def _time(run: Callable[[], list[set[NardyPosition]]], repeat: int) -> tuple[float, list[set[NardyPosition]]]:
    """Best of ``repeat`` wall-clock runs (seconds) and the results per case."""
    best = float("inf")
    counts: list[set[NardyPosition]] = []
    for _ in range(repeat):
        start = time.perf_counter()
        counts = run()
        best = min(best, time.perf_counter() - start)
    return best, counts


def main() -> None:
    """Print the table: cases/s and plays/s of the real and the naive generator, and their ratio."""
    console = Console()
    try:
        from tests.controller.rules.nardy.nardy_reference import naive_results
    except ImportError:
        console.print("[yellow]nardy bench: run from the project root (needs tests/ for the naive peer)")
        return
    err = Console(stderr=True)  # plain status lines on stderr, printed before each timed run
    with _stage(err, "nardy: generating random positions"):
        cases = _cases()
    with _stage(err, f"nardy: real generator, {len(cases)} cases x 3 runs"):
        real_time, real = _time(lambda: [legal_results(p, a, b, s) for p, a, b, s in cases], 3)
    with _stage(err, f"nardy: naive reference, {len(cases)} cases x 1 run"):
        naive_time, naive = _time(lambda: [naive_results(p, a, b, s) for p, a, b, s in cases], 1)
    disagree = sum(r != n for r, n in zip(real, naive, strict=True))
    plays = sum(len(r) for r in real)
    table = Table(title=f"Long nardy legal plays: {len(cases)} random reachable positions x 1 roll each")
    for column in ("generator", "cases/s", "plays/s", "vs naive", "disagreements"):
        table.add_column(column, justify="right" if column != "generator" else "left")
    table.add_row(
        "real (nardy_moves)", f"{len(cases) / real_time:,.0f}", f"{plays / real_time:,.0f}",
        f"{naive_time / real_time:.1f}x faster", str(disagree),
    )
    naive_rates = (f"{len(cases) / naive_time:,.0f}", f"{plays / naive_time:,.0f}")
    table.add_row("naive reference (tests)", *naive_rates, "1.0x", "-")
    console.print(table)
    if disagree:
        console.print(f"[red]{disagree} cases where the two generators count different plays: a bug")


if __name__ == "__main__":
    main()
