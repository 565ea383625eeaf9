"""The settings of long nardy: where the rule texts disagree, RULES.md makes the rule a setting.

Every field of :class:`NardySettings` names the rule behind it and its default; the defaults are
those RULES.md names.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class BlockRule(enum.StrEnum):
    """When six points in a row may be held (RULES.md N6)."""

    #: Forbidden unless an opposing checker is past the block, even for a moment within a turn:
    #: every intermediate position of a turn is checked (SV 3.5, CS 3.4 "even on the run"). Default.
    STRICT = "strict"
    #: As STRICT, but only the position at the end of the turn is checked: a block may be made and
    #: broken again within one turn (CS online summary, "on a pass").
    TRANSIENT = "transient"
    #: As STRICT, and in addition only once at least one opposing checker has entered his home
    #: (points 1-6) or been borne off (SV 3.5, CS 3.4 variant).
    AFTER_HOME = "after_home"


class FirstMove(enum.StrEnum):
    """How the first move of a game is made (RULES.md N3)."""

    #: Each player rolls one die; the higher takes white and the first move, which he makes with a
    #: fresh roll of both dice ("the right to the first move", SV 1.3 / 1.5, CS 1.3 / 1.5). Default.
    REROLL = "reroll"
    #: The winner of the one-die roll plays the two numbers rolled, as in backgammon (RULES.md B3).
    #: Never a double, so the N5 first-roll exception can only come to the second player.
    OPENING_DICE = "opening_dice"


class Colours(enum.StrEnum):
    """Who takes white (and so the first move) in the next game of a series (RULES.md N3)."""

    #: Colours alternate; the player who had black starts the next game (SV 1.4, CS 1.4). Default.
    ALTERNATE = "alternate"
    #: The winner of the last game starts the next one with white (SV); after a draw, alternate.
    WINNER_STARTS = "winner_starts"


@dataclass(frozen=True, slots=True)
class NardySettings:
    """The settings of a long nardy game; the defaults are RULES.md's.

    :param block_rule: RULES.md N6; default :attr:`BlockRule.STRICT`.
    :param first_move: RULES.md N3; default :attr:`FirstMove.REROLL`.
    :param colours: RULES.md N3; default :attr:`Colours.ALTERNATE`.
    :param koks: RULES.md N9 "house mars": a loser who bore off none and brought not one checker
        into his home loses 3 points instead of 2; default off (the seed wording is garbled, SV).
    :param draw: RULES.md N9: when white bears off his last checker, black gets one last roll and
        draws the game if he bears off all his checkers with it (SV 4.3*, CS 4.3*); default off
        (CS 4.3: "a draw is never counted").
    """

    block_rule: BlockRule = BlockRule.STRICT
    first_move: FirstMove = FirstMove.REROLL
    colours: Colours = Colours.ALTERNATE
    koks: bool = False
    draw: bool = False
