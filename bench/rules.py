"""Legal-play generation speed: this rules core against gnubg's C generator and gym-backgammon.

Every engine gets the same random reachable positions x the same rolls (a double one time in six),
in the same run; the figure is (position, roll) pairs per second of this process's CPU time, best of
five runs taken in turn, and the table gives the ratios. What each engine is asked for:

* this core: ``legal_plays(position, d1, d2)``, a list of :class:`Play` (gnubg's steps and the
  resulting :class:`Position`), one per distinct resulting position, RULES.md B4-B8;
* gnubg: ``gnubg_nn.moves(board, d1, d2, 1)``, a list of (position key, steps), one per distinct
  resulting position;
* gym-backgammon: ``Backgammon.get_valid_plays(WHITE, (-d1, -d2))``, a set of move tuples using
  the most dice, one per set of moves (not per resulting position), no resulting boards built.
  gym's WHITE moves from index 23 to 0 and takes its dice negative, as its own env rolls them.

gym-backgammon (a pure-Python peer on PyPI, the ``bench`` extra) is skipped with a note when it is
not installed.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from controller.rules import Position, legal_plays
from controller.rules.randomgame import random_positions

POSITIONS = 1500
SEED = 2718



@contextmanager
def _stage(err: Console, text: str) -> Iterator[None]:
    """One plain status line on stderr before a stage: no spinner thread, so nothing else runs (or
    takes CPU) while the stage is timed."""
    err.print(f"[dim]{text}[/dim]")
    yield

def _cases() -> list[tuple[Position, int, int]]:
    rng = random.Random(SEED)  # dice as thrown: a double one time in six
    return [(p, rng.randint(1, 6), rng.randint(1, 6)) for p in random_positions(POSITIONS, SEED)]


def _time_all(runs: dict[str, Callable[[], int]], repeat: int = 5) -> dict[str, tuple[float, int]]:
    """Best of ``repeat`` runs of each engine, taken in turn (so a burst of load on the shared
    machine hits them alike), as (CPU seconds of this process, plays counted)."""
    best = {name: (float("inf"), 0) for name in runs}
    # The bar (on stderr) is advanced between runs, outside the timed region.
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                        auto_refresh=False)
    with progress:
        task = progress.add_task("rules", total=repeat * len(runs))
        for i in range(repeat):
            for name, run in runs.items():
                progress.update(task, description=f"rules: run {i + 1}/{repeat}, {name}", refresh=True)
                start = time.process_time()
                plays = run()
                seconds = time.process_time() - start
                if seconds < best[name][0]:
                    best[name] = (seconds, plays)
                progress.update(task, advance=1, refresh=True)
    return best


def _ours(cases: list[tuple[Position, int, int]]) -> Callable[[], int]:
    def run() -> int:
        return sum(len(legal_plays(p, d1, d2)) for p, d1, d2 in cases)

    return run


def _gnubg(cases: list[tuple[Position, int, int]]) -> Callable[[], int] | str:
    try:
        import gnubg_nn
    except ImportError:
        return "gnubg-nn is not installed (pip install -e '.\\[hints]')"
    boards = [((p.opp, p.me), d1, d2) for p, d1, d2 in cases]
    moves = gnubg_nn.moves

    def run() -> int:
        return sum(len(moves(b, d1, d2, 1)) for b, d1, d2 in boards)

    return run


def _gym(cases: list[tuple[Position, int, int]]) -> Callable[[], int] | str:
    # Load gym_backgammon/envs/backgammon.py alone: the package's __init__ pulls in gym and pyglet
    # for rendering, which the move generator does not need.
    spec = importlib.util.find_spec("gym_backgammon")
    if spec is None or not spec.submodule_search_locations:
        return "gym-backgammon is not installed (pip install -e '.\\[bench]')"
    path = Path(next(iter(spec.submodule_search_locations))) / "envs" / "backgammon.py"
    try:
        module_spec = importlib.util.spec_from_file_location("_gym_backgammon_core", path)
        assert module_spec is not None and module_spec.loader is not None
        gym = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(gym)
    except Exception as exc:  # a third-party file: report, never crash the bench
        return f"gym-backgammon unusable: {type(exc).__name__}: {exc}"
    Backgammon, WHITE, BLACK = gym.Backgammon, gym.WHITE, gym.BLACK
    games: list[tuple[Any, tuple[int, int]]] = []
    for p, d1, d2 in cases:
        g = Backgammon()
        board: list[tuple[int, int | None]] = []
        for i in range(24):
            if p.me[i]:
                board.append((p.me[i], WHITE))
            elif p.opp[23 - i]:
                board.append((p.opp[23 - i], BLACK))
            else:
                board.append((0, None))
        g.board = board
        g.bar = [p.me[24], p.opp[24]]
        g.off = [p.off_me, p.off_opp]
        g.players_positions = g.get_players_positions()
        # gym's WHITE runs from index 23 down to 0 and takes its dice negative (its env rolls
        # ``(-d1, -d2)`` for WHITE); positive dice would move our checkers backwards.
        games.append((g, (-d1, -d2)))

    def run() -> int:
        return sum(len(g.get_valid_plays(WHITE, roll)) for g, roll in games)

    return run


def main() -> None:
    """Print the table: pairs per second and the ratio of each engine to this core."""
    with _stage(Console(stderr=True), "rules: generating random positions"):
        cases = _cases()
    ours = "tavla rules core (pure Python)"
    runs: dict[str, Callable[[], int]] = {ours: _ours(cases)}
    missing: dict[str, str] = {}
    for name, make in (("gnubg_nn.moves (C)", _gnubg), ("gym-backgammon (pure Python)", _gym)):
        run = make(cases)
        if isinstance(run, str):
            missing[name] = run
        else:
            runs[name] = run
    timings = _time_all(runs)
    table = Table(
        title=f"Legal plays: {len(cases)} random (position, dice) pairs, same run, CPU time",
        caption="tavla and gnubg list one play per distinct resulting position (tavla with the "
        "resulting position and gnubg's steps); gym lists sets of moves, no resulting positions",
    )
    for column in ("engine", "pairs/s", "plays listed", "this core / engine"):
        table.add_column(column, justify="right" if column != "engine" else "left")
    ours_rate = len(cases) / timings[ours][0]
    for name, (seconds, plays) in timings.items():
        rate = len(cases) / seconds
        note = f"{ours_rate / rate:.2f}"
        if name.startswith("gym"):
            note += " (gym lists dice orders, not distinct positions)"
        table.add_row(name, f"{rate:,.0f}", f"{plays:,}", note)
    for name, why in missing.items():
        table.add_row(name, "-", "-", why)
    Console().print(table)


if __name__ == "__main__":
    main()
