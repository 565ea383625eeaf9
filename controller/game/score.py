"""Game end and scoring for controller.game: score_game, game over, the nardy draw (split out of
controller/game.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from controller.game.effects import Effect, GameEnded
from controller.game.rulings import Ruling
from controller.game.state import (
    NAMES,
    GameRecord,
    State,
    announce,
    cube_settings,
    match_state,
    variant_in,
)
from controller.rules.cube import Cube, GameResult
from controller.rules.match import record_game


def draw(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md N9 draw setting: black bore off all with his last roll. No points change hands here
    (the tournament's rule gives each ½ or 1, SV 4.3*); the next game follows N3 (colours alternate)."""
    black = 1 - (state.starter or 0)
    state = announce(
        state,
        Ruling(
            "N9",
            "draw",
            f"{NAMES[black]} (black) bore off all his checkers with his last roll: game {state.game_number} "
            f"is drawn (1/2-1/2 or 1-1 by the tournament's rule); score {state.score[0]}-{state.score[1]}",
        ),
        out,
    )
    record = GameRecord(
        state.game_number, None, 0, "draw", state.turns, state.score, state.crawford_game, state.cube
    )
    out.append(GameEnded(None, 0, "draw", state.score, False, state.game_number))
    return replace(
        state,
        phase="game_over",
        records=state.records + (record,),
        last_winner=None,
        last_roll=False,
        dice=None,
        on_roll=None,
    ), out


def score_game(state: State, winner: int) -> tuple[str, GameResult]:
    """How a game borne off by ``winner`` scores: the kind's name and the rules core's result.

    By the variant (``Variant.game_result``): backgammon by RULES.md B9 times the cube, with B9's
    settings and B12 (Jacobi); long nardy by RULES.md N9 (oin 1, mars 2, koks 3 with the setting),
    without a cube.

    :raises ValueError: when ``winner`` still has checkers (the game is not over).
    """
    assert state.sides is not None
    variant = variant_in(state)
    position = variant.position(state.sides[winner], state.sides[1 - winner])
    return variant.game_result(position, as_player(winner), state.cube_state, cube_settings(state.settings))


def as_player(p: int) -> Literal[0, 1]:
    return 0 if p == 0 else 1


def game_over(
    state: State, winner: int, out: list[Effect], result: tuple[str, GameResult] | None = None
) -> tuple[State, list[Effect]]:
    """Score the game through the rules core (RULES.md B9/N9; B14 match score and Crawford flags)."""
    kind, res = result if result is not None else score_game(state, winner)
    points = res.points
    match = record_game(match_state(state), res)
    score = match.score
    match_over = match.is_over
    record = GameRecord(
        state.game_number,
        winner,
        points,
        kind,
        state.turns,
        state.score,
        state.crawford_game,
        state.cube,
        state.cube_state.automatic,
    )
    rule = variant_in(state).result_rule
    state = announce(
        state,
        Ruling(
            rule,
            "game_over",
            f"{NAMES[winner]} wins game {state.game_number}: {kind}, "
            f"{points} point{'s' if points != 1 else ''}; score {score[0]}-{score[1]}",
            winner,
        ),
        out,
    )
    out.append(GameEnded(winner, points, kind, (score[0], score[1]), match_over, state.game_number))
    return replace(
        state,
        phase="match_over" if match_over else "game_over",
        score=(score[0], score[1]),
        crawford_game=match.crawford_game,
        crawford_done=match.post_crawford or match.crawford_game,
        records=state.records + (record,),
        last_winner=winner,
        cube_state=Cube(),
        last_roll=False,
        dice=None,
        on_roll=None,
    ), out


# --- disputes and buttons --------------------------------------------------------------------------
