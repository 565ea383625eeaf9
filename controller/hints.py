"""LED hints (issue 6 item 5): movable points, destinations of a lifted checker, gnubg's best play,
an illegal move's points in a warning colour, the re-throw signal.

Zones are the LED frame's (firmware_bridge.frames): 0-23 the slots, 24 the bar, 25 the off tray on
the right-hand side of the board (beside slots 0 and 23), 26 the left-hand one. The mover's points are
turned into slots with :class:`controller.geometry.Seating`.

gnubg (the optional ``hints`` extra) ranks plays; in 1.1.0a16 ``hint()`` hangs and ``findbestmoves``
cuts bear-off plays short at their first ``off``, so its ranking is matched to our complete legal
plays by the position each leads to (:func:`best_play`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

from controller.geometry import Seating, right_half
from firmware_bridge.frames import AMBER, BAR_ZONE, BLUE, GREEN, OFF_ZONES, RED, Effect, LedFrame, ZoneLight

BAR_POINT = 25
OFF_POINT = 0


def movable_points(before: Any, plays: Sequence[Any]) -> tuple[int, ...]:
    """The mover's points (25 = bar) holding a checker that some legal play moves, sorted high to low.

    A step from a point the mover held at the start counts; a step from a point a checker only passed
    through does not (that checker is counted at its starting point).
    """
    points: set[int] = set()
    for play in plays:
        for m in play.moves:
            src = m.src if hasattr(m, "src") else m[0]
            if src == BAR_POINT or (1 <= src <= 24 and before.me[src - 1] > 0):
                points.add(src)
    return tuple(sorted(points, reverse=True))


def destinations(plays: Sequence[Any], source: int) -> tuple[int, ...]:
    """Where a checker lifted from the mover's point ``source`` may come to rest (0 = off), over all
    legal plays: each play's first checker from ``source`` followed through its later steps."""
    out: set[int] = set()
    for play in plays:
        moves = list(play.moves)
        at = None
        for m in moves:
            if at is None and m.src == source:
                at = m.dst
            elif at is not None and m.src == at and at != OFF_POINT:
                at = m.dst
        if at is not None:
            out.add(at)
    return tuple(sorted(out, reverse=True))


def _zone(seating: Seating, player: int, point: int) -> int:
    if point == BAR_POINT:
        return BAR_ZONE
    if point == OFF_POINT:
        return OFF_ZONES[0] if right_half(seating.slot(player, 1)) else OFF_ZONES[1]
    return seating.slot(player, point)


def zones_for(seating: Seating, player: int, points: Iterable[int]) -> frozenset[int]:
    """LED zones of ``player``'s points (25 = bar, 0 = his off tray)."""
    return frozenset(_zone(seating, player, p) for p in points)


def movable_frame(seating: Seating, player: int, movable: Iterable[int], brightness: int = 128) -> LedFrame:
    """The frame lighting exactly the zones of the movable points, green (issue 2 item 5)."""
    return LedFrame.lit(set(zones_for(seating, player, movable)), GREEN, brightness=brightness)


def destination_frame(seating: Seating, player: int, source: int, dests: Iterable[int]) -> LedFrame:
    """The lifted checker's point pulsing green and its destinations blue."""
    colours = {z: BLUE for z in zones_for(seating, player, dests)}
    colours[_zone(seating, player, source)] = GREEN
    return _frame(colours, {_zone(seating, player, source): Effect.PULSE})


def best_play_frame(seating: Seating, player: int, play: Any) -> LedFrame:
    """A play's sources green and destinations blue (gnubg's best play)."""
    colours: dict[int, tuple[int, int, int]] = {}
    for m in play.moves:
        colours[_zone(seating, player, m.dst)] = BLUE
    for m in play.moves:
        colours[_zone(seating, player, m.src)] = GREEN
    return _frame(colours, {})


def warning_frame(seating: Seating, player: int, points: Iterable[int]) -> LedFrame:
    """An illegal move's points blinking red (RULES.md B17)."""
    zones = zones_for(seating, player, points)
    return _frame({z: RED for z in zones}, {z: Effect.BLINK for z in zones})


def rethrow_frame() -> LedFrame:
    """The re-throw signal (RULES.md B15, N10): every point blinks amber."""
    return _frame({z: AMBER for z in range(24)}, {z: Effect.BLINK for z in range(24)})


def _frame(colours: dict[int, tuple[int, int, int]], effects: dict[int, Effect]) -> LedFrame:
    base = LedFrame.dark()
    zones = [
        ZoneLight(colours[i], effects.get(i, Effect.STEADY)) if i in colours else z
        for i, z in enumerate(base.zones)
    ]
    return LedFrame(tuple(zones), base.brightness)


def changed_points(before: Any, seen: Any) -> tuple[int, ...]:
    """The mover's points (25 = bar) whose count differs between two positions (mover's frame)."""
    nardy = len(before.me) == 24
    pts = {i + 1 for i in range(len(before.me)) if before.me[i] != seen.me[i]}
    for i in range(len(before.opp)):
        if before.opp[i] != seen.opp[i]:
            pts.add(BAR_POINT if i == 24 else (i + 12) % 24 + 1 if nardy else 24 - i)
    return tuple(sorted(pts, reverse=True))


# --- gnubg -------------------------------------------------------------------------------------------


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
