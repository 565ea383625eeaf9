"""gnubg's best play for the LED hint, in a helper process the station alone starts and stops.

gnubg (the optional ``hints`` extra) ranks plays; in 1.1.0a16 ``hint()`` hangs and ``findbestmoves``
cuts bear-off plays short at their first ``off``, so its ranking is matched to our complete legal
plays by the position each leads to (:func:`best_play`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from controller.hints.frames import OFF_POINT


def gnubg_available() -> bool:
    """True when the optional gnubg bindings import."""
    try:
        import gnubg  # noqa: F401
    except Exception:  # the bindings are optional; any import failure means "no engine"
        return False
    return True


_EXECUTOR: Any = None


def _gnubg_process() -> Any:
    """The helper process every gnubg call runs in. gnubg 1.1.0a16 keeps per-thread engine state: once
    one thread has used it, a call from another thread fails or crashes the whole process (seen:
    SIGSEGV in findbestmoves from the station thread). A one-worker spawned process, used only from its
    own main thread, keeps every caller safe -- and keeps an alpha engine's crash out of the station."""
    global _EXECUTOR
    if _EXECUTOR is None:
        import multiprocessing
        import signal
        import threading
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import resource_tracker

        # Ctrl-C goes to the whole process group. The spawned helper spends a second or two importing
        # before its initializer can ignore SIGINT, and a Ctrl-C then printed its traceback. So it is
        # started (submit spawns it, in this thread) with SIGINT ignored -- an ignored signal stays
        # ignored across exec, and Python then installs no KeyboardInterrupt handler -- when this is
        # the main thread (signal.signal works only there), and with SIGINT blocked in any case, a
        # mask kept across exec. The resource tracker is started first: starting it unblocks SIGINT
        # in the calling thread (multiprocessing.resource_tracker.ensure_running), which undid the
        # mask for the helper spawned after it.
        resource_tracker.ensure_running()
        in_main = threading.current_thread() is threading.main_thread()
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            _EXECUTOR = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
            _EXECUTOR.submit(int)
        finally:
            # the handler first, then the mask: a Ctrl-C that came meanwhile is pending, and is then
            # delivered to the station's own handler; unmasked while still ignored, it was lost and
            # the session ran on to its end (exit 0, seen in CI under load)
            if in_main:
                signal.signal(signal.SIGINT, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        import atexit

        atexit.register(close_engine)
    return _EXECUTOR


def close_engine() -> None:
    """Stop the gnubg helper process (idempotent; the next hint starts a new one).

    Called by the station's session at its end and, as a last resort, at interpreter exit: a
    ``concurrent.futures`` process pool left to the interpreter's teardown makes its manager thread's
    weakref callback print "Exception ignored in: ... AttributeError: 'NoneType' object has no
    attribute 'debug'" once the module globals are gone."""
    global _EXECUTOR
    executor, _EXECUTOR = _EXECUTOR, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)


def _watch_parent(parent: int) -> None:
    """In the helper: exit when the station process is gone (killed, even by SIGKILL), so no orphan
    engine outlives it. Ctrl-C reaches the whole process group: the helper ignores SIGINT, so only the
    station handles it (no "Process SpawnProcess-1" traceback) and shuts the helper down itself."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _rank(board: list[list[int]], dice: tuple[int, int], plies: int, noise: float) -> Any:
    """gnubg's ranked plays (runs in the helper process)."""
    import gnubg

    return gnubg.findbestmoves(board, gnubg.cubeinfo(), gnubg.evalcontext(0, plies, 1, 0, noise), dice)


def best_play(
    position: Any, d1: int, d2: int, plays: Sequence[Any], plies: int = 0, noise: float = 0.0
) -> Any | None:
    """gnubg's best legal play (backgammon only), or None without the bindings or on any engine error.

    ``gnubg.findbestmoves(board, cubeinfo, evalcontext, dice)`` ranks the plays best first, each as a
    flat ``(from, to, from, to, ...)`` tuple (1-based, 25 = bar, 0 = off). In 1.1.0a16 a bear-off play
    comes cut short at its first ``off``: the tuple stops after that checker's ``from``. So each ranked
    entry is matched to our complete legal plays: exactly by its steps, or -- cut short -- to the
    first complete play containing every step it lists (the ``off`` included); the first entry in
    gnubg's order that matches wins. (``gnubg.hint()`` hangs in that version and is not used.)

    Hint strength: ``plies`` (0 = gnubg's fast net, 1-2 look ahead) and ``noise`` (a weaker player's
    evaluation noise, gnubg's own setting; deterministic, so replays agree).
    """
    if not plays:
        return None
    if not gnubg_available():
        return None
    board = [list(position.opp), list(position.me)]
    try:
        ranked = _gnubg_process().submit(_rank, board, (d1, d2), plies, noise).result(timeout=60)
    except Exception:  # a dead or missing engine means no best-play hint, never a stopped station
        return None
    keyed = [(sorted((m.src, m.dst) for m in play.moves), play) for play in plays]
    for entry in ranked or ():
        move = entry.get("move") if isinstance(entry, dict) else None
        if not isinstance(move, tuple | list):
            continue
        flat = [int(x) for x in move]
        cut = len(flat) % 2 == 1
        steps = [(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]
        if cut:
            steps.append((flat[-1], OFF_POINT))
        want = sorted(steps)
        for key, play in keyed:
            if key == want or (cut and _contains(key, want)):
                return play
    return None


def _contains(full: list[tuple[int, int]], part: list[tuple[int, int]]) -> bool:
    rest = list(full)
    for s in part:
        if s not in rest:
            return False
        rest.remove(s)
    return True
