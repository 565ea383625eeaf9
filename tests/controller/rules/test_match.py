"""Match score and the Crawford rule: RULES.md B14."""

from __future__ import annotations

import pytest

from controller.rules.cube import GameResult, ResultKind
from controller.rules.errors import IllegalActionError
from controller.rules.match import MatchState, record_game


def win(player: int, points: int) -> GameResult:
    return GameResult(winner=player, kind=ResultKind.SINGLE, points=points, cube_value=1)  # type: ignore[arg-type]


def test_crawford_game_then_post_crawford_rules_b14() -> None:
    match = MatchState(length=5)
    match = record_game(match, win(0, 2))
    assert match.score == (2, 0) and not match.crawford_game and match.may_double()
    match = record_game(match, win(0, 2))  # 4-0: within one point for the first time
    assert match.crawford_game and not match.may_double()
    match = record_game(match, win(1, 1))  # the Crawford game
    assert not match.crawford_game and match.post_crawford and match.may_double()
    match = record_game(match, win(1, 3))  # 4-4: no second Crawford game
    assert not match.crawford_game and match.may_double()
    match = record_game(match, win(0, 2))
    assert match.winner == 0 and match.is_over and not match.may_double()
    assert match.games == 5
    with pytest.raises(IllegalActionError) as exc:
        record_game(match, win(1, 1))
    assert exc.value.reason == "game_over"


def test_no_crawford_when_the_rule_is_off_or_the_match_ends() -> None:
    assert not record_game(MatchState(length=3, crawford_rule=False), win(0, 2)).crawford_game
    assert record_game(MatchState(length=3), win(0, 4)).winner == 0


def test_money_play_has_no_winner_rules_b14() -> None:
    match = MatchState()
    for _ in range(3):
        match = record_game(match, win(1, 8))
    assert match.score == (0, 24) and match.winner is None and match.may_double()
    with pytest.raises(ValueError):
        match.away(0)


def test_away_and_bad_values() -> None:
    assert MatchState(length=7, score=(2, 6)).away(0) == 5
    with pytest.raises(ValueError):
        MatchState(length=-3)
    with pytest.raises(ValueError):
        MatchState(length=3, score=(-1, 0))
