"""Cube actions and game scoring: RULES.md B9-B13."""

from __future__ import annotations

import pytest

from controller.rules.cube import (
    Cube,
    CubeSettings,
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
from controller.rules.errors import IllegalActionError

MONEY = CubeSettings()
MATCH = CubeSettings(match_length=7)


def reason(exc: pytest.ExceptionInfo[IllegalActionError]) -> str:
    return exc.value.reason


def test_cube_starts_centred_at_one_rules_b10() -> None:
    cube = Cube()
    assert cube.value() == 1 and cube.owner is None and not cube.turned
    assert cube.may_double(0) and cube.may_double(1)


def test_double_take_gives_the_cube_to_the_taker_rules_b10() -> None:
    cube = take(offer_double(Cube(), 0), 1)
    assert cube.value() == 2 and cube.owner == 1 and cube.offered_by is None
    cube = take(offer_double(cube, 1), 0)
    assert cube.value() == 4 and cube.owner == 0


def test_only_the_owner_redoubles_rules_b10() -> None:
    cube = take(offer_double(Cube(), 0), 1)
    with pytest.raises(IllegalActionError) as exc:
        offer_double(cube, 0)
    assert reason(exc) == "not_cube_owner"


def test_double_after_rolling_or_in_crawford_is_refused_rules_b10_b14() -> None:
    with pytest.raises(IllegalActionError) as exc:
        offer_double(Cube(), 0, rolled=True)
    assert reason(exc) == "already_rolled"
    with pytest.raises(IllegalActionError) as exc:
        offer_double(Cube(), 0, crawford_game=True)
    assert reason(exc) == "crawford_game"
    with pytest.raises(IllegalActionError) as exc:
        offer_double(offer_double(Cube(), 0), 1)
    assert reason(exc) == "double_pending"


def test_answers_need_a_pending_double_from_the_other_player() -> None:
    with pytest.raises(IllegalActionError) as exc:
        take(Cube(), 1)
    assert reason(exc) == "no_double_pending"
    with pytest.raises(IllegalActionError) as exc:
        drop(offer_double(Cube(), 0), 0)
    assert reason(exc) == "not_doubled_player"


def test_drop_loses_the_stake_before_the_double_rules_b10() -> None:
    cube = take(offer_double(Cube(), 0), 1)  # 2, owned by 1
    result = drop(offer_double(cube, 1), 0)
    assert result.winner == 1 and result.points == 2 and result.kind is ResultKind.DROP


def test_beaver_money_play_only_rules_b11() -> None:
    with pytest.raises(IllegalActionError) as exc:
        beaver(offer_double(Cube(), 0), 1, MONEY)
    assert reason(exc) == "beavers_not_allowed"
    with pytest.raises(IllegalActionError):
        beaver(offer_double(Cube(), 0), 1, CubeSettings(match_length=5, beavers=True))
    settings = CubeSettings(beavers=True)
    beavered = beaver(offer_double(Cube(), 0), 1, settings)
    assert beavered.value() == 2 and beavered.owner == 1 and beavered.offered_by == 1
    with pytest.raises(IllegalActionError) as exc:
        beaver(beavered, 0, settings)
    assert reason(exc) == "beaver_on_beaver"
    taken = take(beavered, 0)
    assert taken.value() == 4 and taken.owner == 1  # the beaverer keeps the cube
    dropped = drop(beavered, 0)
    assert dropped.winner == 1 and dropped.points == 2


def test_gammon_and_backgammon_times_cube_rules_b9() -> None:
    cube = take(offer_double(Cube(), 0), 1)
    assert [game_points(m, cube, MATCH) for m in (1, 2, 3)] == [2, 4, 6]
    assert game_result(1, 3, cube, MATCH).kind is ResultKind.BACKGAMMON
    with pytest.raises(ValueError):
        game_points(4, cube, MATCH)


def test_b9_settings_backgammon_as_gammon_and_no_gammons_when_doubled() -> None:
    cube = take(offer_double(Cube(), 0), 1)
    assert game_points(3, cube, CubeSettings(match_length=7, backgammon_as_gammon=True)) == 4
    assert game_points(3, cube, CubeSettings(match_length=7, no_gammons_when_doubled=True)) == 2
    assert game_points(3, Cube(), CubeSettings(match_length=7, no_gammons_when_doubled=True)) == 3


def test_jacobi_money_only_rules_b12() -> None:
    assert game_points(2, Cube(), MONEY) == 1
    assert game_points(3, Cube(), MONEY) == 1
    assert game_points(2, take(offer_double(Cube(), 0), 1), MONEY) == 4
    assert game_points(2, Cube(), MATCH) == 2
    assert game_points(2, Cube(), CubeSettings(jacobi=False)) == 2


def test_automatic_doubles_with_a_limit_rules_b13() -> None:
    settings = CubeSettings(automatic_doubles=True, automatic_limit=2)
    cube = Cube()
    assert automatic_double(cube, MONEY) == cube  # off by default
    for _ in range(5):
        cube = automatic_double(cube, settings)
    assert cube.value() == 4 and cube.owner is None and cube.automatic == 2
    assert game_points(2, cube, MONEY) == 8  # the cube was turned: Jacobi does not bite


def test_arithmetic_stakes_rules_b10() -> None:
    assert [cube_value(n, Stakes.ARITHMETIC) for n in range(4)] == [1, 2, 3, 4]
    assert [cube_value(n) for n in range(4)] == [1, 2, 4, 8]
    settings = CubeSettings(match_length=7, stakes=Stakes.ARITHMETIC)
    cube = take(offer_double(take(offer_double(Cube(), 0), 1), 1), 0)
    assert game_points(2, cube, settings) == 6


def test_resign_scores_like_the_result() -> None:
    result = resign(0, 2, Cube(), MATCH)
    assert result.points == 2 and result.kind is ResultKind.RESIGN


def test_bad_settings_raise() -> None:
    with pytest.raises(ValueError):
        CubeSettings(match_length=-1)
