"""Rules core: positions, dice, legal plays, cube and match arithmetic, both variants.

Standard library only (import-linter contract; STYLE.md principle 1). The public names:

* :class:`Position` (``me``, ``opp``: 25-tuples in gnubg's board convention), :class:`PositionStatus`
* :class:`Dice`, :class:`Move` (``src``, ``dst``, ``hit``), :class:`Play` (``moves``, ``result``),
  :data:`ALL_ROLLS`, :func:`check_dice`
* :func:`legal_plays`, :func:`legal_results`, :func:`find_play`, :func:`apply_move`,
  :func:`undo_move`, :func:`apply_play`
* :class:`Variant`, :class:`Backgammon`, :data:`VARIANTS`, :func:`register_variant`,
  :func:`variant_named`, :class:`TurnEnd`; long nardy in :mod:`controller.rules.nardy`
* cube (RULES.md B9-B13): :class:`Cube`, :class:`CubeSettings`, :class:`Stakes`,
  :class:`GameResult`, :class:`ResultKind`, :func:`offer_double`, :func:`take`, :func:`drop`,
  :func:`beaver`, :func:`automatic_double`, :func:`game_points`, :func:`game_result`,
  :func:`resign`, :func:`cube_value`
* match (RULES.md B14): :class:`MatchState`, :func:`record_game`
* errors: :class:`RulesError`, :class:`DiceError`, :class:`IllegalActionError`
"""

# Registers LongNardy in VARIANTS (after the names it builds on).
from controller.rules import nardy  # noqa: E402, I001
from controller.rules.cube import (
    Cube,
    CubeSettings,
    GameResult,
    ResultKind,
    Stakes,
    automatic_double,
    beaver,
    cube_value,
    drop,
    game_points,
    game_result,
    offer_double,
    resign,
    take,
)
from controller.rules.errors import DiceError, IllegalActionError, RulesError
from controller.rules.match import MatchState, record_game
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
from controller.rules.variant import VARIANTS, Backgammon, TurnEnd, Variant, variant_named
from controller.rules.variant import register as register_variant

__all__ = [
    "Cube",
    "CubeSettings",
    "GameResult",
    "MatchState",
    "ResultKind",
    "Stakes",
    "automatic_double",
    "beaver",
    "cube_value",
    "drop",
    "game_points",
    "game_result",
    "offer_double",
    "record_game",
    "resign",
    "take",
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
    "TurnEnd",
    "Variant",
    "apply_move",
    "apply_play",
    "check_dice",
    "find_play",
    "legal_plays",
    "legal_results",
    "register_variant",
    "undo_move",
    "variant_named",
    "nardy",
]
