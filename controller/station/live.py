"""The live terminal view (issue 15 item 4): for a screen next to the board, one rich ``Live`` panel
with the board, the dice, the clock (ticking), the score and the last lines (plays, rulings,
prompts), redrawn in place. ``tavla run`` uses it when stdout is a terminal (``--plain`` for lines).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from controller.game.clock import Clock
from controller.game.effects import Announce, Leds, Prompt, Show
from controller.station.printer import ConsolePrinter, board_text, clock_text

_LINES = 8  # the last lines kept on screen


class LivePrinter(ConsolePrinter):
    """A :class:`ConsolePrinter` that draws into one live panel instead of scrolling.

    :meth:`start` / :meth:`stop` (idempotent) open and close the panel; the summary after it prints
    as usual.
    """

    def __init__(
        self,
        console: Any = None,
        hints: bool = True,
        unasked: bool = True,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(console, boards=True, hints=hints, verbosity=1, unasked=unasked)
        self.lines: deque[Text] = deque(maxlen=_LINES)
        self.clock: Clock | None = None
        self.score = (0, 0)
        self._now = now  # the monotonic clock the countdown runs on (tests pass a fake one)
        self._t = 0.0
        self._at = now()
        self._live: Live | None = None

    def start(self) -> None:
        if self._live is None:
            self._live = Live(get_renderable=self.render, console=self.console, refresh_per_second=2)
            self._live.start()

    def stop(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def render(self) -> RenderableType:
        """The panel: board, dice line, clock (read now), score, the last lines."""
        parts: list[RenderableType] = []
        view = self.view
        if view is not None:
            parts.append(board_text(view, legend=False, marks=self.aids))
            parts.append(Text(self._status(view)))
        if self.clock is not None:
            now = self._t + (self._now() - self._at)  # the clock runs between events
            parts.append(Text(clock_text(self.clock, now), style="bold"))
        parts.append(Text(f"score: light {self.score[0]} - dark {self.score[1]}"))
        parts.extend(self.lines)
        title = view.title if view is not None else "waiting for the board"
        return Panel(Group(*parts), title=title)

    def _status(self, view: Show) -> str:
        from controller.station.printer import dice_text

        line = f"dice {dice_text(view.dice)}"
        if view.legal is not None and self.aids:
            pts = ", ".join("bar" if p == 25 else str(p) for p in view.movable) or "none"
            line += f"; {view.legal} legal; movable: {pts}"
        if view.pips:
            line += f"; pips light {view.pips[0]}, dark {view.pips[1]}"
        return line

    def _line(self, text: Text) -> None:
        self.lines.append(text)
        if self._live is None:
            self.console.print(text)

    # --- the ConsolePrinter hooks, drawn into the panel ----------------------------------------

    def frame(self, source: str) -> None:
        return None

    def show(self, view: Show, clock: Clock | None = None, t: float = 0.0) -> None:
        self.view, self.clock, self._t, self._at = view, clock, t, self._now()
        for note in view.notes:
            self._line(Text(f"note: {note}", style="yellow"))

    def play(self, line: str) -> None:
        self._line(Text(self.compared(line), style="bold"))

    def best_play(self, text: str) -> None:
        self._best = text
        if self.hints:
            self._line(Text(f"gnubg's best play: {text}", style="green"))

    def leds(self, effect: Leds, state: str, detail: str = "") -> None:
        if state not in ("sent", "no LED device"):
            self._line(Text(f"LEDs ({effect.why}): {state}{detail}", style="yellow"))

    def ruling(self, effect: Announce) -> None:
        r = effect.ruling
        self._line(Text(f"RULING [{r.rule}] {r.reason}", style="bold magenta"))

    def prompt(self, effect: Prompt) -> None:
        self._line(Text(effect.text, style="cyan"))

    def game_ended(self, effect: Any) -> None:
        self.score = effect.score
        self._line(
            Text(f"game {effect.game_number} over: score light {effect.score[0]} - dark {effect.score[1]}")
        )
