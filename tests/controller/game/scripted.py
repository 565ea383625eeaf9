"""A small driver for scripted games: what a perfect camera and the players' buttons report, fed
through ``controller.game.step`` (pure), with the rulings collected."""

from __future__ import annotations

from typing import Any

from controller import game
from controller.game.effects import Announce, GameEnded, Leds, Show
from controller.game.events import ButtonPressed
from controller.game.rulings import Ruling, Settings
from controller.geometry import Seating
from controller.station.demo import SEATING, seen

NARDY_SEATING = Seating.for_home("nardy", "bottom-right")


class Script:
    """One match under test. ``sides`` is what lies on the board (player 0 light, 1 dark)."""

    def __init__(self, sides: Any = None, seating: Seating | None = None, **settings: Any) -> None:
        self.settings = Settings(**settings)
        self.variant = self.settings.variant
        self.seating = seating or (NARDY_SEATING if self.variant == "nardy" else SEATING)
        start = game.start_side(self.variant)
        self.sides = sides or (start, start)
        self.state = game.new_state(self.settings)
        self.effects: list[Any] = []
        self.events: list[Any] = []
        self.dice: tuple[tuple[int, str], ...] = ()
        self.roller: int | None = None
        self.t = 0.0

    # --- feeding ------------------------------------------------------------------------------

    def feed(self, event: Any) -> list[Any]:
        self.events.append(event)
        self.state, out = game.step(self.state, event)
        self.effects.extend(out)
        return out

    def look(self) -> list[Any]:
        """The camera settles on the board as it is now (dice included)."""
        self.t += 1.0
        return self.feed(seen(self.sides, self.dice, self.roller, self.t, self.seating))

    def opening(self, light: int, dark: int) -> list[Any]:
        """RULES.md B3: one die each, each on his own right-hand half."""
        self.look()
        self.dice, self.roller = ((light, "flat"), (dark, "flat")), None
        return self.look()

    def roll(self, d1: int, d2: int, status: str = "flat", player: int | None = None) -> list[Any]:
        """The player on roll (or ``player``) throws both dice onto his right-hand half."""
        self.dice = ((d1, status), (d2, "flat"))
        self.roller = self.state.on_roll if player is None else player
        return self.look()

    def pickup(self) -> list[Any]:
        """The dice leave the board (RULES.md B16: the turn ends)."""
        self.dice, self.roller = (), None
        return self.look()

    def move(self, text: str, legal: bool = True) -> list[Any]:
        """The mover moves checkers as ``text`` (gnubg notation) says; ``legal=False`` moves them
        literally, legal or not."""
        mover = self.state.on_roll
        assert mover is not None
        if self.variant == "nardy":
            result = _nardy_literal(self.sides[mover], text)
            me, opp = result, self.sides[1 - mover]
        else:
            from controller.formats.notation import parse_play
            from controller.rules.position import Position

            pos = Position(self.sides[mover], self.sides[1 - mover])
            play = parse_play(text, pos, self.state.dice if legal else None)
            me, opp = play.result.me, play.result.opp
        self.sides = (me, opp) if mover == 0 else (opp, me)
        return self.look()

    def press(self, button: str, player: int | None = None, gesture: str = "short") -> list[Any]:
        self.t += 0.1
        return self.feed(ButtonPressed(t=self.t, button=button, player=player, gesture=gesture))

    def turn(self, d1: int, d2: int, text: str) -> None:
        """A whole legal turn: roll, move, pick up."""
        self.roll(d1, d2)
        self.move(text)
        self.pickup()

    # --- reading the outcome ----------------------------------------------------------------------

    def rulings(self, out: list[Any] | None = None) -> list[Ruling]:
        return [e.ruling for e in (self.effects if out is None else out) if isinstance(e, Announce)]

    def codes(self, out: list[Any] | None = None) -> list[tuple[str, str]]:
        return [(r.rule, r.code) for r in self.rulings(out)]

    def shows(self) -> list[Show]:
        return [e for e in self.effects if isinstance(e, Show)]

    def leds(self) -> list[Leds]:
        return [e for e in self.effects if isinstance(e, Leds)]

    def ended(self) -> list[GameEnded]:
        return [e for e in self.effects if isinstance(e, GameEnded)]


def _nardy_literal(side: tuple[int, ...], text: str) -> tuple[int, ...]:
    me = list(side)
    for hop in text.split():
        count = 1
        if "(" in hop:
            hop, _, rest = hop.partition("(")
            count = int(rest.rstrip(")"))
        src, dst = (int(x) if x != "off" else 0 for x in hop.split("/"))
        for _ in range(count):
            me[src - 1] -= 1
            if dst:
                me[dst - 1] += 1
    return tuple(me)
