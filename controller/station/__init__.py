"""The station: one thread, one queue (DESIGN.md "Data flow", STYLE.md principle 11).

Producers (the camera pipeline, the buttons, the LED device) only put events on the queue with
:meth:`Station.submit`. The station's own thread takes them one at a time and for each

1. appends it to the journal (fsync) -- before anything is acted on, so a crash loses nothing;
2. ``game.step(state, event)`` -> (state, effects), pure;
3. runs the effects: LED frames to the LED link (handed over, never waited on: the link's own thread
   sends them, issue 18), board views, rulings and prompts to the console, finished games to the
   match files.

:meth:`Station.handle` is that body, callable directly when the caller already is the one thread (the
CLI's frame loop, tests). :func:`resume` rebuilds the state from a journal.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from controller import game
from controller.game.effects import Announce, Effect, GameEnded, Hint, Leds, Prompt, Show
from controller.game.events import BoardSeen, Event, screen
from controller.game.rulings import Settings
from controller.rules.errors import TavlaError
from controller.station.export import Notes, collect_rulings
from controller.station.journal import Journal
from controller.station.journal import read as read_journal
from controller.station.printer import ConsolePrinter, board_text, dice_text, point_numbering, turn_line
from firmware_bridge.events import FrameOutcome
from firmware_bridge.frames import LedFrame

__all__ = [
    "ConsolePrinter",
    "Station",
    "StationError",
    "board_difference",
    "board_text",
    "dice_text",
    "point_numbering",
    "replay",
    "resume",
    "turn_line",
]

_STOP = object()
RECENT_KEPT = 10  # rulings and prompts kept for the state JSON (controller.station.snapshot)


class StationError(TavlaError, RuntimeError):
    """The station was used after it stopped, or its thread failed (the message says why)."""


class Station:
    """The referee station (see the module docstring).

    :param settings: the match settings (used when the journal does not start a match itself).
    :param link: the LED link: any object with ``show(frame, wait=False, done=callback)`` that returns
        at once and later calls ``callback`` with a ``firmware_bridge.events.FrameOutcome``
        (``firmware_bridge.link.LedLink``); None for no LEDs. ``acks``, ``led_replaced`` and
        ``led_failures`` count the outcomes (a replaced frame is normal: the newest frame wins).
    :param journal: where events are appended before acting; None for no journal (tests, replay).
    :param printer: prints effects; None for silence.
    :param on_game_end: called with the state after each finished game (match export).
    :param check_resume: ``state`` is a resumed journal's and the next board comes from the real
        board: check it against the journal first (:meth:`_resume_check`).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        link: Any = None,
        journal: Journal | None = None,
        printer: ConsolePrinter | None = None,
        on_game_end: Callable[[game.State], None] | None = None,
        state: game.State | None = None,
        check_resume: bool = False,
    ) -> None:
        self.state = state or game.new_state(settings)
        self.link = link
        self.journal = journal
        self.printer = printer
        self.on_game_end = on_game_end
        self.queue: queue.Queue[Any] = queue.Queue()
        self.acks = 0
        self.led_replaced = 0
        self.led_failures = 0
        self._led_lock = threading.Lock()  # the counts above are also bumped from the link's thread
        self.effects: list[Effect] = []
        # the newest of each kind the state JSON shows, so building it costs the same after hours of
        # play as at the start (the full list above only grows)
        self.recent: dict[type, deque[Effect]] = {
            Announce: deque(maxlen=RECENT_KEPT), Prompt: deque(maxlen=RECENT_KEPT),
            Show: deque(maxlen=1), Leds: deque(maxlen=1),
        }
        self.notes: Notes = {}  # the rulings by their place in the match record, for its export
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._closed = False
        # what the state JSON (controller.station.snapshot) reads beside the game state
        self.seq = 0  # events applied
        self.last_t = 0.0
        self.last_board: BoardSeen | None = None
        self.best_play: str | None = None
        self.best_moves: list[list[int | str]] | None = None  # the best play as camera slots
        self.hinted = False  # a hint was given for the roll on the board (the home mode's page shows it)
        self.mode: str | None = None  # tournament / home / learner (the station file's setting)
        self.listeners: list[Callable[[Station], None]] = []  # called on this thread after each event
        # called on the station's thread after each event's effects ran (the club publisher's state)
        self.after_step: Callable[[Station, list[Effect]], None] | None = None
        self.resume_pending = check_resume  # the first board must be the journal's (item 6)
        self.leds_held = False

    @property
    def closed(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._closed

    # --- the one thread --------------------------------------------------------------------------

    def handle(self, event: Event) -> list[Effect]:
        """Journal, step, act -- for one event. Returns the effects it ran (none for a board held
        back by a resume mismatch, :meth:`_resume_check`). An event that fails its schema is
        journaled as refused, with the reason (controller.game.events.screen)."""
        if self._closed:
            raise StationError("the station is stopped")
        event = screen(event)
        if self.resume_pending and not self._resume_check(event):
            return []
        if self.journal is not None:
            self.journal.append(event)
        source = getattr(event, "source", "")
        if self.printer is not None and source:
            self.printer.frame(source)
        before = self.state
        self.state, effects = game.step(self.state, event)
        self.seq += 1
        self.last_t = max(self.last_t, event.t)
        if isinstance(event, BoardSeen) and event.usable:
            self.last_board = event
        if self.state.phase != "moving":
            self.best_play = self.best_moves = None
            self.hinted = False
        collect_rulings(self.notes, self.state, effects)  # before run_effects: a game end exports them
        if self.printer is not None:
            line = turn_line(before, self.state)
            if line is not None:
                self.printer.play(line)
        self.run_effects(effects)
        for listener in self.listeners:
            listener(self)
        if self.after_step is not None:
            self.after_step(self, effects)
        return effects

    def _resume_check(self, event: Event) -> bool:
        """Issue 15 item 6: the first board after a resume must be the journal's. One that differs is
        a ruling naming the points, the LEDs go dark (they would point at checkers that are not
        there), and boards are held back -- not journaled, not refereed -- until the players put
        the board back or a button press (the referee's say) takes the board as it is. True: go on."""
        from controller.game.events import BoardSeen, ButtonPressed
        from controller.game.rulings import Ruling
        from controller.game.state import sides_from_seen

        if isinstance(event, ButtonPressed):
            self.resume_pending = False
            self.leds_held = False
            return True
        if not isinstance(event, BoardSeen) or not event.usable:
            return True
        st = self.state
        expected = st.seen or st.sides
        if expected is None or st.seating is None:
            self.resume_pending = False
            return True
        now = sides_from_seen(event, st.seating)
        diff = board_difference(expected, now)
        if diff and _played_meanwhile(st, expected, now):
            diff = ""  # the mover finished a legal play while the station was down: the game goes on
        if not diff:
            if self.leds_held and self.printer is not None:
                self.printer.prompt(Prompt("the board matches the journal again: the game goes on"))
            self.resume_pending = self.leds_held = False
            return True
        if not self.leds_held:
            self.leds_held = True
            text = f"position mismatch at resume: the board is not the journal's: {diff}"
            ruling = Announce(Ruling("resume", "position_mismatch", text))
            self._keep(ruling)
            if self.printer is not None:
                self.printer.ruling(ruling)
                self.printer.prompt(
                    Prompt("LEDs off: put the checkers back, or press a button to play on from this board")
                )
            dark = Leds(LedFrame.dark(), "position mismatch")
            self._keep(dark)
            self._send(dark)
        return False

    def _keep(self, effect: Effect) -> None:
        self.effects.append(effect)
        kept = self.recent.get(type(effect))
        if kept is not None:
            kept.append(effect)

    def run_effects(self, effects: Iterable[Effect]) -> None:
        for e in effects:
            self._keep(e)
            if isinstance(e, Leds):
                self._leds(e)
            elif self.printer is None:
                pass
            elif isinstance(e, Show):
                self.printer.show(e, self.state.clock, self.last_t)
            elif isinstance(e, Announce):
                self.printer.ruling(e)
            elif isinstance(e, Prompt):
                self.printer.prompt(e)
            if isinstance(e, Show) and e.hint is not None:
                self._hint(e.hint)
            elif isinstance(e, Hint):
                self._hint(e)
            if isinstance(e, GameEnded):
                if self.journal is not None:  # the game's result is sealed (controller.station.journal)
                    self.journal.seal("game")
                if self.printer is not None:
                    self.printer.game_ended(e)
                if self.on_game_end is not None:
                    self.on_game_end(self.state)

    def _hint(self, hint: Hint) -> None:
        """gnubg's best play, printed (and lit when asked); the movable points when there is no engine."""
        from controller import hints
        from controller.formats.notation import format_play
        from controller.hints import engine

        best = engine.best_play(hint.position, hint.dice[0], hint.dice[1], hint.plays, hint.plies, hint.noise)
        self.hinted = True
        self.best_play = format_play(best) if best is not None else None
        self.best_moves = None
        if best is not None:
            from controller.station.snapshot import play_slots

            self.best_moves = play_slots(hint.seating, hint.player, best.moves)
        if best is not None and self.printer is not None:
            self.printer.best_play(format_play(best))
        if hint.leds:
            if best is not None:
                lit = Leds(hints.best_play_frame(hint.seating, hint.player, best), "best play")
            else:
                movable = hints.movable_points(hint.position, hint.plays)
                lit = Leds(hints.movable_frame(hint.seating, hint.player, movable), "movable points")
            self._keep(lit)
            self._leds(lit)

    def _leds(self, effect: Leds) -> None:
        if self.leds_held:  # a resume mismatch: nothing is lit until it is resolved
            return
        self._send(effect)

    def _send(self, effect: Leds) -> None:
        if self.link is None:
            if self.printer:
                self.printer.leds(effect, "no LED device")
            return
        try:
            self.link.show(effect.frame, wait=False, done=self._led_done)
        except Exception as exc:  # the device may be unplugged; the game goes on (the clock pauses)
            self._led_done(None)
            if self.printer:
                self.printer.leds(effect, "NOT sent", f" ({type(exc).__name__}: {exc})")
            return
        if self.printer:
            online = getattr(self.link, "online", True)
            self.printer.leds(effect, "sent" if online else "kept until the LED device is back")

    def _led_done(self, outcome: FrameOutcome | None) -> None:
        """What became of a frame (link thread; None: the link raised): counted for the summary."""
        with self._led_lock:
            if outcome is FrameOutcome.APPLIED:
                self.acks += 1
            elif outcome is FrameOutcome.REPLACED:
                self.led_replaced += 1
            else:
                self.led_failures += 1

    # --- queue ---------------------------------------------------------------------------------

    def submit(self, event: Event) -> None:
        """Put an event on the queue (any thread)."""
        if self._closed:
            raise StationError("the station is stopped")
        self.queue.put(event)

    def start(self) -> None:
        """Start the station thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="tavla-station", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            item = self.queue.get()
            if item is _STOP:
                return
            if isinstance(item, threading.Event):  # wait_idle's marker: all before it is done
                item.set()
                continue
            try:
                self.handle(item)
            except BaseException as exc:  # kept and re-raised by stop() in the caller's thread
                self._error = exc
                return

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until every event queued before this call has been handled; False on a timeout or
        when the thread is not running. The station goes on running (``--hold``: the demo's events
        are over, the referee may still act)."""
        if self._thread is None or self._closed or not self._thread.is_alive():
            return False
        done = threading.Event()
        self.queue.put(done)
        return done.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Process what is queued, then stop the thread (idempotent); a clean stop seals the journal.

        :raises StationError: when the thread failed (the cause attached) or did not stop in time.
        """
        if self._thread is not None:
            self.queue.put(_STOP)
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise StationError(f"the station thread did not stop within {timeout} s")
            self._thread = None
        if self._error is not None:
            self._closed = True
            raise StationError(f"the station failed: {self._error}") from self._error
        if not self._closed and self.journal is not None and not self.journal.closed:
            self.journal.seal("stop")  # a clean stop: the journal is complete up to here
        self._closed = True

    def __enter__(self) -> Station:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _played_meanwhile(state: game.State, expected: Any, seen: Any) -> bool:
    """True when ``seen`` is ``expected`` after one legal play (RULES.md B4) of the roll the journal
    left on the board: the mover finished his move while the station restarted. No mismatch then
    (issue 15 item 6); the referee takes the play as it takes any other."""
    from controller.game.state import pad, plays_for

    mover, dice = state.on_roll, state.dice
    if state.phase != "moving" or mover is None or dice is None:
        return False
    try:
        plays = plays_for(state, expected, mover, dice)
    except Exception:  # an odd journal position: the ruling stands, the referee sorts it out
        return False
    target = (tuple(seen[mover]), tuple(seen[1 - mover]))
    return any((pad(p.result.me), pad(p.result.opp)) == target for p in plays)


def board_difference(expected: Any, seen: Any) -> str:
    """The points where ``seen`` differs from ``expected`` (both Sides: own numbering, bar at 24),
    as ``light's 6: 5 expected, 4 seen; dark's bar: ...``; empty when they agree."""
    out: list[str] = []
    for player, name in ((0, "light"), (1, "dark")):
        for i, (want, got) in enumerate(zip(expected[player], seen[player], strict=False)):
            if want != got:
                where = "bar" if i == 24 else str(i + 1)
                out.append(f"{name}'s {where}: {want} expected, {got} seen")
    return "; ".join(out)


def replay(events: Iterable[Event], settings: Settings | None = None) -> tuple[game.State, list[Effect]]:
    """Run events through ``game.step`` from a new state; the final state and every effect."""
    state = game.new_state(settings)
    effects: list[Effect] = []
    for ev in events:
        state, out = game.step(state, ev)
        effects.extend(out)
    return state, effects


def resume(path: str | Path, settings: Settings | None = None) -> tuple[game.State, int]:
    """The state a journal leads to and how many events it holds (``tavla resume``).

    :raises controller.station.journal.JournalDamaged: at its first bad line (JournalTampered: edited).
    """
    events = read_journal(path)
    state, _ = replay(events, settings)
    return state, len(events)


def run_recorded(journal_path: str | Path, events_path: str | Path, pace: float = 0.0) -> int:
    """Run (or resume) a recorded session without frames or LEDs: the journal's events are replayed,
    the recorded events it does not hold yet are fed through a :class:`Station` appending to it.
    Returns how many events were fed. The crash-safety runs use it (``python -m controller.station``).

    :raises controller.station.journal.JournalDamaged: at its first bad line (JournalTampered: edited).
    :raises ValueError: when the recorded events do not continue the journal.
    """
    import time

    from controller.station.journal import read_events_file

    recorded = read_events_file(events_path)
    done = read_journal(journal_path) if Path(journal_path).exists() else []
    if recorded[: len(done)] != done:
        raise ValueError(f"{events_path} does not continue {journal_path}")
    state, _ = replay(done)
    with Journal(journal_path) as journal:
        station = Station(journal=journal, state=state)
        for ev in recorded[len(done) :]:
            if pace:
                time.sleep(pace)
            station.handle(ev)
        station.stop()
    return len(recorded) - len(done)


if __name__ == "__main__":  # python -m controller.station JOURNAL EVENTS [PACE]
    import sys

    run_recorded(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
