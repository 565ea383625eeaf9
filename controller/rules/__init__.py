"""Rules core: positions, dice, legal plays, cube and match arithmetic, both variants.

Standard library only (import-linter contract; STYLE.md principle 1). The public names:

* :class:`Position` (``me``, ``opp``: 25-tuples in gnubg's board convention), :class:`PositionStatus`
* :class:`Dice`, :class:`Move` (``src``, ``dst``, ``hit``), :class:`Play` (``moves``, ``result``),
  :data:`ALL_ROLLS`, :func:`check_dice`
* :func:`legal_plays`, :func:`legal_results`, :func:`find_play`, :func:`apply_move`,
  :func:`undo_move`, :func:`apply_play`
* :class:`Variant`, :class:`Backgammon`, :data:`VARIANTS`, :func:`register_variant`
* errors: :class:`RulesError`, :class:`DiceError`, :class:`IllegalActionError`
"""

from controller.rules.errors import DiceError, IllegalActionError, RulesError
from controller.rules.moves import (
    ALL_ROLLS,
    BAR_POINT,
    OFF_POINT,
    Dice,
    Move,
    Play,
    apply_move,
    apply_play,
    check_dice,
    find_play,
    legal_plays,
    legal_results,
    undo_move,
)
from controller.rules.position import CHECKERS, Position, PositionStatus
from controller.rules.variant import VARIANTS, Backgammon, Variant
from controller.rules.variant import register as register_variant

__all__ = [
    "ALL_ROLLS",
    "BAR_POINT",
    "CHECKERS",
    "OFF_POINT",
    "VARIANTS",
    "Backgammon",
    "Dice",
    "DiceError",
    "IllegalActionError",
    "Move",
    "Play",
    "Position",
    "PositionStatus",
    "RulesError",
    "Variant",
    "apply_move",
    "apply_play",
    "check_dice",
    "find_play",
    "legal_plays",
    "legal_results",
    "register_variant",
    "undo_move",
]
