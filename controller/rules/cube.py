"""The doubling cube and the scoring of one game (RULES.md B9-B13), as pure functions on values.

Players are ``0`` and ``1`` (the referee maps them to names and colours). Each action returns a new
:class:`Cube` (or a :class:`GameResult` when the game ends); an action the rules forbid raises
:class:`~controller.rules.errors.IllegalActionError` whose ``reason`` is one of:

==========================  =====================================================================
``double_pending``          a double is already waiting for an answer
``not_cube_owner``          the cube is owned by the other player (RULES.md B10)
``already_rolled``          doubling is only allowed before rolling (RULES.md B10)
``crawford_game``           no doubling in the Crawford game (RULES.md B14)
``no_double_pending``       take, drop or beaver without a double on offer
``not_doubled_player``      the answer comes from the player who doubled
``beavers_not_allowed``     beavers are off, or this is match play (RULES.md B11)
``beaver_on_beaver``        a beaver may not be beavered
``game_over``               the game (or match) is already decided
==========================  =====================================================================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Literal

from controller.rules.errors import IllegalActionError

Player = Literal[0, 1]


def other(player: Player) -> Player:
    """The opponent of ``player``."""
    return 1 if player == 0 else 0


class Stakes(enum.Enum):
    """How the stake grows with each double (RULES.md B10 setting, agreed before play)."""

    #: 1-2-4-8-... (default).
    GEOMETRIC = "geometric"
    #: 1-2-3-4-... (SV).
    ARITHMETIC = "arithmetic"


@dataclass(frozen=True, slots=True)
class CubeSettings:
    """The agreed settings of RULES.md B9-B14, with their defaults.

    :param match_length: points to win the match; ``0`` = money play (RULES.md B14).
    :param jacobi: Jacobi rule in money play (RULES.md B12; default on; never applies in match play).
    :param beavers: beavers allowed in money play (RULES.md B11; default off; never in match play).
    :param automatic_doubles: a tie on the opening roll turns the cube (RULES.md B13; default off).
    :param automatic_limit: at most this many automatic doubles per game (RULES.md B13).
    :param stakes: geometric or arithmetic progression (RULES.md B10).
    :param backgammon_as_gammon: a backgammon scores as a gammon (RULES.md B9 setting; default off).
    :param no_gammons_when_doubled: no gammon or backgammon once the cube was turned (RULES.md B9,
        SV; default off).
    :param crawford: the Crawford rule in match play (RULES.md B14; default on).
    """

    match_length: int = 0
    jacobi: bool = True
    beavers: bool = False
    automatic_doubles: bool = False
    automatic_limit: int = 1
    stakes: Stakes = Stakes.GEOMETRIC
    backgammon_as_gammon: bool = False
    no_gammons_when_doubled: bool = False
    crawford: bool = True

    def __post_init__(self) -> None:
        if self.match_length < 0:
            raise ValueError(f"match length {self.match_length} is negative (0 = money play)")
        if self.automatic_limit < 0:
            raise ValueError(f"automatic double limit {self.automatic_limit} is negative")

    @property
    def money(self) -> bool:
        """True in money play (no match length)."""
        return self.match_length == 0

    @property
    def jacobi_applies(self) -> bool:
        """Jacobi is on and this is money play (RULES.md B12)."""
        return self.jacobi and self.money

    @property
    def beavers_apply(self) -> bool:
        """Beavers are on and this is money play (RULES.md B11)."""
        return self.beavers and self.money


def cube_value(level: int, stakes: Stakes = Stakes.GEOMETRIC) -> int:
    """The stake after ``level`` doublings: ``2**level`` (geometric) or ``level + 1`` (arithmetic)."""
    return 2**level if stakes is Stakes.GEOMETRIC else level + 1


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube's state in one game.

    :param level: doublings so far, automatic ones included (value: :func:`cube_value`).
    :param owner: the player who may redouble, or ``None`` while centred (RULES.md B10).
    :param offered_by: the player whose double (or beaver) awaits an answer, else ``None``.
    :param beaver: True when the pending offer is a beaver (RULES.md B11).
    :param automatic: automatic doubles taken this game (RULES.md B13).
    """

    level: int = 0
    owner: Player | None = None
    offered_by: Player | None = None
    beaver: bool = False
    automatic: int = 0

    def value(self, stakes: Stakes = Stakes.GEOMETRIC) -> int:
        """The current stake (a pending offer is not counted until taken)."""
        return cube_value(self.level, stakes)

    @property
    def turned(self) -> bool:
        """True once the cube has been doubled (automatic doubles included; RULES.md B12)."""
        return self.level > 0

    def may_double(self, player: Player) -> bool:
        """True when ``player`` may offer a double now, ignoring the Crawford game and the roll."""
        return self.offered_by is None and (self.owner is None or self.owner == player)


class ResultKind(enum.Enum):
    """How a game ended."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3
    #: The doubled player dropped (RULES.md B10).
    DROP = 4
    #: The loser resigned (single, gammon or backgammon offered and accepted).
    RESIGN = 5


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of one game: who won, how, and the points scored (cube and settings applied)."""

    winner: Player
    kind: ResultKind
    points: int
    cube_value: int


def offer_double(
    cube: Cube,
    player: Player,
    *,
    rolled: bool = False,
    crawford_game: bool = False,
) -> Cube:
    """``player`` doubles (RULES.md B10, B14).

    :param rolled: True when ``player`` has already rolled this turn (then the double is refused).
    :param crawford_game: True in the Crawford game (then the double is refused).
    :raises IllegalActionError: ``double_pending``, ``not_cube_owner``, ``already_rolled``,
        ``crawford_game``.
    """
    if cube.offered_by is not None:
        raise IllegalActionError("double_pending", f"player {player} doubles while a double is pending")
    if cube.owner is not None and cube.owner != player:
        raise IllegalActionError(
            "not_cube_owner", f"player {player} doubles but player {cube.owner} owns the cube"
        )
    if rolled:
        raise IllegalActionError("already_rolled", f"player {player} doubles after rolling")
    if crawford_game:
        raise IllegalActionError("crawford_game", f"player {player} doubles in the Crawford game")
    return replace(cube, offered_by=player, beaver=False)


def _answering(cube: Cube, player: Player, action: str) -> Player:
    if cube.offered_by is None:
        raise IllegalActionError("no_double_pending", f"player {player} {action} but no double is on offer")
    if cube.offered_by == player:
        raise IllegalActionError("not_doubled_player", f"player {player} {action} his own double")
    return cube.offered_by


def take(cube: Cube, player: Player) -> Cube:
    """``player`` takes the pending double (RULES.md B10): the stake doubles, he owns the cube.

    After a beaver the original doubler's take leaves the cube with the beaverer (RULES.md B11).

    :raises IllegalActionError: ``no_double_pending``, ``not_doubled_player``.
    """
    doubler = _answering(cube, player, "takes")
    owner = doubler if cube.beaver else player
    return replace(cube, level=cube.level + 1, owner=owner, offered_by=None, beaver=False)


def drop(cube: Cube, player: Player, stakes: Stakes = Stakes.GEOMETRIC) -> GameResult:
    """``player`` drops (RULES.md B10): the game ends, the doubler wins the stake before the double.

    :raises IllegalActionError: ``no_double_pending``, ``not_doubled_player``.
    """
    doubler = _answering(cube, player, "drops")
    value = cube.value(stakes)
    return GameResult(winner=doubler, kind=ResultKind.DROP, points=value, cube_value=value)


def beaver(cube: Cube, player: Player, settings: CubeSettings) -> Cube:
    """``player``, just doubled, redoubles at once and keeps the cube (RULES.md B11).

    The stake is doubled (the take) and a new offer by ``player`` awaits the original doubler, who
    then takes (the stake doubles again, the cube stays with ``player``) or drops.

    :raises IllegalActionError: ``beavers_not_allowed``, ``beaver_on_beaver``, ``no_double_pending``,
        ``not_doubled_player``.
    """
    _answering(cube, player, "beavers")
    if not settings.beavers_apply:
        raise IllegalActionError(
            "beavers_not_allowed", f"player {player} beavers but beavers are not agreed (money play only)"
        )
    if cube.beaver:
        raise IllegalActionError("beaver_on_beaver", f"player {player} beavers a beaver")
    return replace(cube, level=cube.level + 1, owner=player, offered_by=player, beaver=True)


def automatic_double(cube: Cube, settings: CubeSettings) -> Cube:
    """The cube after a tie on the opening roll (RULES.md B13): one level up, still centred, when
    automatic doubles are on and the limit is not reached; otherwise unchanged."""
    if not settings.automatic_doubles or cube.automatic >= settings.automatic_limit or cube.owner is not None:
        return cube
    return replace(cube, level=cube.level + 1, automatic=cube.automatic + 1)


def game_points(multiple: int, cube: Cube, settings: CubeSettings) -> int:
    """Points for a game won by ``multiple`` (1 single, 2 gammon, 3 backgammon), RULES.md B9, B12.

    Applies, in order: backgammons count as gammons (setting); no gammons once the cube was turned
    (setting); the Jacobi rule in money play (gammons count single while the cube is unturned).

    :raises ValueError: when ``multiple`` is not 1, 2 or 3.
    """
    if multiple not in (1, 2, 3):
        raise ValueError(f"a game is won by 1, 2 or 3 times the stake, not {multiple}")
    if settings.backgammon_as_gammon:
        multiple = min(multiple, 2)
    if settings.no_gammons_when_doubled and cube.turned:
        multiple = 1
    if settings.jacobi_applies and not cube.turned:
        multiple = 1
    return multiple * cube.value(settings.stakes)


def game_result(winner: Player, multiple: int, cube: Cube, settings: CubeSettings) -> GameResult:
    """The :class:`GameResult` of a game borne off (multiple from ``Variant.result_multiple``).

    :raises ValueError: when ``multiple`` is not 1, 2 or 3.
    """
    kind = {1: ResultKind.SINGLE, 2: ResultKind.GAMMON, 3: ResultKind.BACKGAMMON}.get(multiple)
    if kind is None:
        raise ValueError(f"a game is won by 1, 2 or 3 times the stake, not {multiple}")
    points = game_points(multiple, cube, settings)
    return GameResult(winner=winner, kind=kind, points=points, cube_value=cube.value(settings.stakes))


def resign(winner: Player, multiple: int, cube: Cube, settings: CubeSettings) -> GameResult:
    """The loser resigns a single (1), gammon (2) or backgammon (3) and ``winner`` accepts.

    Scored as :func:`game_points` would score that result.

    :raises ValueError: when ``multiple`` is not 1, 2 or 3.
    """
    points = game_points(multiple, cube, settings)
    value = cube.value(settings.stakes)
    return GameResult(winner=winner, kind=ResultKind.RESIGN, points=points, cube_value=value)
