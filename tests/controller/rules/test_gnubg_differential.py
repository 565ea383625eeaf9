"""Differential test of the legal-play generator and Position ID against gnubg (issue 3).

``gnubg_nn.moves(board, d1, d2, 1)`` lists every legal play once per distinct resulting position,
``board = (opp, me)``. Random reachable positions (random games of random legal plays) x all 21
rolls: 2,000 positions in the default run, 100,000 in the slow run; zero mismatches allowed.
"""

from __future__ import annotations

import pytest

from controller.formats import format_play, position_from_id, position_id
from controller.rules import ALL_ROLLS, Position, legal_plays
from controller.rules.randomgame import random_positions

gnubg_nn = pytest.importorskip("gnubg_nn")
gnubg = pytest.importorskip("gnubg")


def board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (position.opp, position.me)


def mismatches(count: int, seed: int, check_steps: bool) -> tuple[int, list[str]]:
    """Compare ``count`` random positions x 21 rolls; return (plays compared, first few problems)."""
    compared = 0
    problems: list[str] = []
    key_of = gnubg_nn.key_of_board
    for position in random_positions(count, seed):
        b = board(position)
        if check_steps and gnubg.positionid(b) != position_id(position):
            problems.append(f"{position!r}: position ID {position_id(position)} != {gnubg.positionid(b)}")
        for d1, d2 in ALL_ROLLS:
            mine = legal_plays(position, d1, d2)
            theirs = gnubg_nn.moves(b, d1, d2, 1)
            compared += len(mine)
            my_keys = [key_of(board(p.result)) for p in mine]
            their = dict(theirs)
            if len(set(my_keys)) != len(my_keys) or set(my_keys) != set(their):
                problems.append(f"{position_id(position)} {d1}{d2}: {len(mine)} plays, gnubg {len(their)}")
                continue
            if check_steps:
                for key, play in zip(my_keys, mine, strict=True):
                    steps = tuple((m.src, m.dst) for m in play.moves)
                    text = gnubg.movetupletostring(sum(their[key], ()), b)
                    if steps != their[key] or format_play(play) != text:
                        problems.append(f"{position_id(position)} {d1}{d2}: {format_play(play)} vs {text}")
        if len(problems) > 10:
            break
    return compared, problems


@pytest.mark.slow
def test_legal_plays_match_gnubg_on_2000_random_positions() -> None:
    compared, problems = mismatches(2000, seed=2026, check_steps=False)
    assert problems == []
    assert compared > 500_000


def test_steps_notation_and_position_id_match_gnubg_on_300_positions() -> None:
    compared, problems = mismatches(300, seed=11, check_steps=True)
    assert problems == []


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_legal_plays_match_gnubg_on_100000_random_positions() -> None:
    compared, problems = mismatches(100_000, seed=100_000, check_steps=False)
    assert problems == []


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_steps_and_notation_match_gnubg_on_10000_positions() -> None:
    compared, problems = mismatches(10_000, seed=12, check_steps=True)
    assert problems == []


def test_position_id_round_trips_against_gnubg_decoder() -> None:
    for position in random_positions(500, seed=5):
        pid = position_id(position)
        assert gnubg.positionfromid(pid) == board(position)
        assert position_from_id(pid) == position
