"""What the station prints (rich): the board diagram, one line per event, the clock, LED frames named
by points, and the summary's words (issue 15 item 4).

:class:`ConsolePrinter` draws a board only when it differs from the last one drawn, the legend once,
and at ``verbosity`` 0 (``--quiet``) only the plays, rulings, game ends and the summary; 2
(``--verbose``) adds every frame and LED frame. With ``hints`` False (the tournament mode, issue 15
item 2) it prints no aid at all: no legal-play count, movable points, ``*`` marks or best play. With
``unasked`` False (the home mode: hints on request) it prints only the hints a player asked for
(gnubg's best play after a long press on a clock button or ``h`` on the terminal), never the
legal-play count, movable points or ``*`` marks by itself.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from controller.game.clock import Clock
from controller.game.effects import Announce, GameEnded, Leds, Prompt, Show

_LIGHT_STYLE = "bold white on grey23"
_DARK_STYLE = "bold red"
_NAMES = ("light", "dark")

PHASE_WORDS = {
    "setup": "waiting for the start position",
    "free": "no game under way: the hint assistant reads any position",
    "opening": "the opening roll",
    "to_roll": "a player to roll",
    "moving": "a player moving",
    "deciding": "the opponent to accept or correct a move",
    "cube": "a double to answer",
    "game_over": "the game is over",
    "match_over": "the match is over",
}


def point_numbering(view: Show) -> tuple[int, Any] | None:
    """(player, Seating) whose point numbers (1-24) label the diagram: the player on roll (light when
    nobody is) in the game's seating, ``view.seating`` -- the variant's numbering, so a nardy board is
    numbered as nardy moves are (RULES.md B2, N2). A view built without its seating falls back to the
    seating that puts light's home in ``view.light_home`` and agrees with the movable points (backgammon
    first, then nardy either way round). None when the home corner is unknown (the diagram then shows
    camera slots 0-23)."""
    from controller.geometry import GeometryError, Seating

    player = view.on_roll if view.on_roll in (0, 1) else 0
    if view.seating is not None:
        return player, view.seating
    if not view.light_home:
        return None
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


def board_text(view: Show, legend: bool = True, marks: bool = True) -> Text:
    """The board as a rich text diagram: the top row of points left to right, then the bottom row, as
    the camera sees the rectified board; ``L3`` = three light checkers, ``D5`` five dark; a point whose
    checker can move is marked ``*``. The columns carry the on-roll player's point numbers 1-24 -- the
    numbers moves and "movable points" use (:func:`point_numbering`) -- or, when the seating is not
    known, the camera's slots 0-23; a legend line (``legend``) says which. The bar and off counts follow.
    ``marks`` False leaves out the ``*`` marks (a tournament shows no aid)."""
    movable = set(view.movable_slots) if marks else set()
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
        return (
            " "
            + " ".join(f"{label(s):>3} " for s in row[:6])
            + " | "
            + " ".join(f"{label(s):>3} " for s in row[6:])
        )

    out = Text()
    top = list(range(12, 24))
    bottom = list(range(11, -1, -1))
    # the numbers follow the player on roll, so every board names whose they are
    whose = f"  {_NAMES[numbering[0]]}'s" if numbering else ""
    out.append(numbers(top) + whose + "\n", style="dim")
    for row in (top, bottom):
        out.append(" ")
        for i, s in enumerate(row):
            if i == 6:
                out.append(" | ")
            out.append(cell(s))
            out.append(" ")
        out.append("\n")
    out.append(numbers(bottom) + "\n", style="dim")
    if legend:
        if numbering:
            words = " numbers: the points 1-24 of the player named beside them (as in his moves)"
        else:
            words = " numbers: camera slots 0-23 (the seating is not known yet)"
        words += ";  * = a checker there can move" if marks else ""
        words += ";  L3 / D5 = 3 light / 5 dark checkers\n"
        out.append(words, style="dim")
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


def clock_text(clock: Clock, t: float) -> str:
    """Each player's reserve at ``t`` and what the running one's turn has left of its delay:
    ``clock: light 9:48, dark 10:00 (light's runs: 7 s of the 12 s delay left)``; once the delay is
    spent ``(light's runs: delay spent, the reserve runs)``; a fallen flag is said."""

    def mmss(seconds: float) -> str:
        s = int(seconds + 0.999)  # a reserve of 0.2 s is not yet spent: round up, as clocks do
        return f"{s // 60}:{s % 60:02d}"

    parts = ", ".join(f"{_NAMES[p]} {mmss(clock.remaining(p, t))}" for p in (0, 1))
    if clock.flag is not None:
        state = f"{_NAMES[clock.flag]}'s flag fell"
    elif clock.paused:
        state = "paused: a device is offline"
    elif clock.running is not None:
        who = _NAMES[clock.running]
        left = clock.delay_left(t)
        if clock.remaining(clock.running, t) <= 0:
            state = f"{who}'s runs: time is up"
        elif left > 0:
            state = f"{who}'s runs: {int(left + 0.999)} s of the {clock.delay:g} s delay left"
        else:
            state = f"{who}'s runs: delay spent, the reserve runs"
    else:
        state = f"stopped; {clock.delay:g} s delay a move"
    return f"clock: {parts} ({state})"


def turn_line(before: Any, after: Any) -> str | None:
    """``dark 6-4: 24/14*``: the action ``step`` just recorded (a play with its hits, or a cube
    action), or None when it recorded none. ``before`` / ``after``: the states around the step."""
    from controller.formats.notation import format_play
    from controller.game.state import plays_for
    from controller.rules.moves import Move

    turns = after.turns
    if len(after.records) > len(before.records):  # the game ended: its turns moved to the record
        turns = after.records[-1].turns
    if len(turns) <= len(before.turns):
        return None
    turn = turns[-1]
    who = _NAMES[turn.player]
    if turn.cube is not None:
        return f"{who}: {turn.cube}" + (f" (cube {after.cube})" if turn.cube == "double" else "")
    if turn.dice is None:
        return None
    text = "no legal play"
    if turn.moves:  # the hops as recorded, in the project's notation (6/off: RULES.md B8, N8)
        text = format_play([Move(s, d) for s, d in turn.moves])
        try:  # the legal play with these moves carries its hits
            for play in plays_for(before, before.sides, turn.player, turn.dice):
                if tuple((m.src, m.dst) for m in play.moves) == turn.moves:
                    text = format_play(play)
                    break
        except Exception:  # an odd state: the hops as recorded still say what was played
            pass
    note = " (illegal, accepted as played)" if turn.illegal else ""
    return f"{who} {turn.dice[0]}-{turn.dice[1]}: {text}{note}"


def led_names(effect: Leds, view: Show | None) -> str:
    """The lit zones as points (in the numbering of ``view``, the last board shown), bar and trays."""
    zones = sorted(effect.frame.lit_zones())
    if not zones:
        return "all off"
    if sum(z < 24 for z in zones) == 24:  # the re-throw and warning frames light the whole board
        return ", ".join(["every point"] + ["bar" if z == 24 else "off tray" for z in zones if z >= 24])
    numbering = point_numbering(view) if view is not None else None
    names: list[str] = []
    for z in zones:
        if z == 24:
            names.append("bar")
        elif z > 24:
            names.append("off tray")
        elif numbering is not None:
            names.append(str(numbering[1].point(numbering[0], z)))
        else:
            names.append(f"slot {z}")
    what = "points" if numbering is not None else "camera"
    return f"{what} {', '.join(names)}"


class ConsolePrinter:
    """Prints effects (see the module docstring).

    :param boards: draw the board diagram (False: the lines only).
    :param hints: print aids (legal plays, movable points, the best play); False in a tournament.
    :param unasked: print the legal plays and movable points with every board (the learner mode);
        False prints only the hints asked for (the home mode).
    :param verbosity: 0 quiet, 1 normal, 2 verbose.
    """

    def __init__(
        self,
        console: Console | None = None,
        boards: bool = True,
        hints: bool = True,
        verbosity: int = 1,
        unasked: bool = True,
    ) -> None:
        self.console = console or Console(highlight=False)
        self.boards = boards
        self.hints = hints
        self.unasked = unasked
        self.verbosity = verbosity
        self._drawn: tuple[Any, ...] | None = None
        self._legend = True
        self._best: str | None = None  # gnubg's best play for the roll on the board
        self.view: Show | None = None  # the last board shown: LED zones are named in its numbering

    @property
    def aids(self) -> bool:
        """The legal plays, movable points and ``*`` marks go with every board (the learner mode)."""
        return self.hints and self.unasked

    def frame(self, source: str) -> None:
        if self.verbosity >= 2:
            self.console.print(Text(f"frame: {source}", style="dim"))

    def show(self, view: Show, clock: Clock | None = None, t: float = 0.0) -> None:
        self.view = view
        if self.verbosity == 0:
            return
        c = self.console
        board = (view.slots, view.bar, view.off, view.movable_slots if self.aids else ())
        if board != self._drawn:  # the same board again (a moving hand) is not redrawn
            self._drawn = board
            c.rule(Text(view.title, style="bold"))
            if self.boards:
                c.print(board_text(view, legend=self._legend, marks=self.aids))
                self._legend = False
        dice = dice_text(view.dice)
        roller = (
            {0: "light", 1: "dark"}.get(view.on_roll, "unknown") if view.on_roll is not None else "unknown"
        )
        line = f"{view.title}: dice {dice}, on roll {roller}"
        if view.legal is not None and self.aids:
            pts = ", ".join("bar" if p == 25 else str(p) for p in view.movable) or "none"
            plural = "" if view.legal == 1 else "s"
            line += f"; {view.legal} legal play{plural}, movable points ({roller}'s numbering): {pts}"
        if view.pips:
            line += f"; pips light {view.pips[0]}, dark {view.pips[1]}"
        c.print(line)
        if view.position_id and self.verbosity >= 2:
            c.print(f"position ID: {view.position_id}")
        if clock is not None:
            c.print(clock_text(clock, t))
        for note in view.notes:
            c.print(Text(f"note: {note}", style="yellow"))

    def play(self, line: str) -> None:
        """The action just recorded (:func:`turn_line`)."""
        self.console.print(Text(self.compared(line), style="bold"))

    def compared(self, line: str) -> str:
        """``line`` (a play) with, after a hint for its roll, how it compares with gnubg's best."""
        best, self._best = self._best, None
        if best is None or not self.hints:
            return line
        played = line.split(": ", 1)[-1]
        return line + ("  (gnubg's best play)" if played == best else f"  (gnubg's best was {best})")

    def best_play(self, text: str) -> None:
        self._best = text
        if self.hints and self.verbosity >= 1:
            self.console.print(Text(f"gnubg's best play: {text}", style="green"))

    def leds(self, effect: Leds, state: str, detail: str = "") -> None:
        """One LED frame and what the station did with it (``state``: sent, kept, no LED device...)."""
        if self.verbosity >= 1:
            names = led_names(effect, self.view)
            self.console.print(f"LEDs ({effect.why}): {names} -> {state}{detail}")

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
