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
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from controller import game
from controller.game.effects import Announce, Effect, GameEnded, Hint, Leds, Prompt, Show
from controller.game.events import Event, screen
from controller.game.rulings import Settings
from controller.rules.errors import TavlaError
from controller.station.export import Notes, collect_rulings
from controller.station.journal import Journal
from controller.station.journal import read as read_journal
from firmware_bridge.events import FrameOutcome

_STOP = object()

_LIGHT_STYLE = "bold white on grey23"
_DARK_STYLE = "bold red"


class StationError(TavlaError, RuntimeError):
    """The station was used after it stopped, or its thread failed (the message says why)."""


def point_numbering(view: Show) -> tuple[int, Any] | None:
    """(player, Seating) whose point numbers (1-24) label the diagram: the player on roll (light when
    nobody is), in the seating that puts light's home in ``view.light_home`` and agrees with the view's
    movable points and slots (backgammon first, then nardy either way round: RULES.md B2, N2). None when
    the home corner is unknown (the diagram then shows camera slots 0-23)."""
    from controller.geometry import GeometryError, Seating

    if not view.light_home:
        return None
    player = view.on_roll if view.on_roll in (0, 1) else 0
    for variant, mirror in (("backgammon", False), ("nardy", False), ("nardy", True)):
        try:
            seating = Seating.for_home(variant, view.light_home, mirror)
            if seating.light_home() != view.light_home:
                continue
            if all(p == 25 or seating.slot(player, p) in view.movable_slots for p in view.movable):
                return player, seating
        except GeometryError:
            continue
    return None


def board_text(view: Show) -> Text:
    """The board as a rich text diagram: the top row of points left to right, then the bottom row, as
    the camera sees the rectified board; ``L3`` = three light checkers, ``D5`` five dark; a point whose
    checker can move is marked ``*``. The columns carry the on-roll player's point numbers 1-24 -- the
    numbers moves and "movable points" use (:func:`point_numbering`) -- or, when the seating is not
    known, the camera's slots 0-23; a legend line says which. The bar and off counts follow."""
    movable = set(view.movable_slots)
    numbering = point_numbering(view)

    def label(slot: int) -> str:
        return str(numbering[1].point(numbering[0], slot)) if numbering else str(slot)

    def cell(slot: int) -> Text:
        colour, n = view.slots[slot] if slot < len(view.slots) else (None, 0)
        mark = "*" if slot in movable else " "
        if not n or colour is None:
            return Text(f"  .{mark}", style="dim")
        letter = "L" if colour == "light" else "D"
        return Text(f"{letter}{n:>2}{mark}", style=_LIGHT_STYLE if colour == "light" else _DARK_STYLE)

    def numbers(row: list[int]) -> str:
        return " " + " ".join(f"{label(s):>3} " for s in row[:6]) + " | " + " ".join(
            f"{label(s):>3} " for s in row[6:]
        )

    out = Text()
    top = list(range(12, 24))
    bottom = list(range(11, -1, -1))
    out.append(numbers(top) + "\n", style="dim")
    for row in (top, bottom):
        out.append(" ")
        for i, s in enumerate(row):
            if i == 6:
                out.append(" | ")
            out.append(cell(s))
            out.append(" ")
        out.append("\n")
    out.append(numbers(bottom) + "\n", style="dim")
    if numbering:
        who = {0: "light", 1: "dark"}[numbering[0]]
        legend = f" numbers: {who}'s points 1-24 (as in moves and movable points)"
    else:
        legend = " numbers: camera slots 0-23 (the seating is not known yet)"
    legend += ";  * = a checker there can move;  L3 / D5 = 3 light / 5 dark checkers\n"
    out.append(legend, style="dim")
    out.append(
        f" bar: light {view.bar[0]}, dark {view.bar[1]}   off: light {view.off[0]}, dark {view.off[1]}"
    )
    if view.light_home:
        out.append(f"   light's home board: {view.light_home}")
    return out


def dice_text(dice: tuple[int, ...]) -> str:
    """The dice line's value: ``3-1``; more than two marks read as dice are none of them trusted
    (two dice are on a board, RULES.md B15), so their values are not printed as a roll."""
    if not dice:
        return "none seen"
    if len(dice) > 2:
        return f"{len(dice)} dice-like marks, none trusted"
    return "-".join(str(d) for d in dice)


class ConsolePrinter:
    """Prints effects (rich): the board, dice, legal-play count and movable points; rulings; prompts;
    LED frames and their acknowledgement."""

    def __init__(self, console: Console | None = None, boards: bool = True) -> None:
        self.console = console or Console(highlight=False)
        self.boards = boards

    def show(self, view: Show) -> None:
        c = self.console
        c.rule(Text(view.title, style="bold"))
        if self.boards:
            c.print(board_text(view))
        dice = dice_text(view.dice)
        roller = (
            {0: "light", 1: "dark"}.get(view.on_roll, "unknown") if view.on_roll is not None else "unknown"
        )
        line = f"dice: {dice}   on roll: {roller}"
        if view.legal is not None:
            pts = ", ".join("bar" if p == 25 else str(p) for p in view.movable) or "none"
            line += f"   legal plays: {view.legal}   movable points ({roller}'s numbering): {pts}"
        if view.pips:
            line += f"   pips: light {view.pips[0]}, dark {view.pips[1]}"
        c.print(line)
        if view.position_id:
            c.print(f"position ID: {view.position_id}")
        for note in view.notes:
            c.print(Text(f"note: {note}", style="yellow"))

    def leds(self, effect: Leds, state: str, detail: str = "") -> None:
        """One LED frame and what the station did with it (``state``: sent, kept, no LED device...)."""
        zones = sorted(effect.frame.lit_zones())
        names = ", ".join("bar" if z == 24 else "off" if z > 24 else str(z) for z in zones) or "none"
        self.console.print(f"LEDs ({effect.why}): zones {names} -> {state}{detail}")

    def ruling(self, effect: Announce) -> None:
        r = effect.ruling
        self.console.print(Text(f"RULING [{r.rule}] {r.reason}", style="bold magenta"))

    def prompt(self, effect: Prompt) -> None:
        self.console.print(Text(effect.text, style="cyan"))

    def game_ended(self, effect: GameEnded) -> None:
        end = "; the match is over" if effect.match_over else ""
        self.console.print(
            Text(
                f"game {effect.game_number} over: score light {effect.score[0]} - "
                f"dark {effect.score[1]}{end}",
                style="bold green",
            )
        )


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
    """

    def __init__(
        self,
        settings: Settings | None = None,
        link: Any = None,
        journal: Journal | None = None,
        printer: ConsolePrinter | None = None,
        on_game_end: Callable[[game.State], None] | None = None,
        state: game.State | None = None,
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
        self.notes: Notes = {}  # the rulings by their place in the match record, for its export
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._closed

    # --- the one thread --------------------------------------------------------------------------

    def handle(self, event: Event) -> list[Effect]:
        """Journal, step, act -- for one event. Returns the effects it ran. An event that fails its
        schema is journaled as refused, with the reason (controller.game.events.screen)."""
        if self._closed:
            raise StationError("the station is stopped")
        event = screen(event)
        if self.journal is not None:
            self.journal.append(event)
        source = getattr(event, "source", "")
        if self.printer is not None and source:
            self.printer.console.print(Text(f"frame: {source}", style="dim"))
        self.state, effects = game.step(self.state, event)
        collect_rulings(self.notes, self.state, effects)  # before run_effects: a game end exports them
        self.run_effects(effects)
        return effects

    def run_effects(self, effects: Iterable[Effect]) -> None:
        for e in effects:
            self.effects.append(e)
            if isinstance(e, Leds):
                self._leds(e)
            elif self.printer is None:
                pass
            elif isinstance(e, Show):
                self.printer.show(e)
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
        if best is not None and self.printer is not None:
            self.printer.console.print(f"gnubg's best play: {format_play(best)}")
        if hint.leds:
            if best is not None:
                lit = Leds(hints.best_play_frame(hint.seating, hint.player, best), "best play")
            else:
                movable = hints.movable_points(hint.position, hint.plays)
                lit = Leds(hints.movable_frame(hint.seating, hint.player, movable), "movable points")
            self.effects.append(lit)
            self._leds(lit)

    def _leds(self, effect: Leds) -> None:
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
            try:
                self.handle(item)
            except BaseException as exc:  # kept and re-raised by stop() in the caller's thread
                self._error = exc
                return

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
