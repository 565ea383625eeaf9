"""Position ID, Match ID and XGID: golden examples, round trips, gnubg agreement (STYLE.md principle 5)."""

from __future__ import annotations

import random

import pytest

from controller.formats import FormatError, position_from_id, position_id
from controller.formats.match_id import GameState, MatchId, match_from_id, match_id
from controller.formats.xgid import Xgid, parse_xgid, xgid_text
from controller.rules import Position
from controller.rules.randomgame import random_positions


def test_position_id_golden_start_from_the_gnubg_manual() -> None:
    assert position_id(Position.initial()) == "4HPwATDgc/ABMA"
    assert position_from_id(" 4HPwATDgc/ABMA\n") == Position.initial()


def test_position_id_round_trips_on_random_positions() -> None:
    for p in random_positions(300, seed=3):
        assert position_from_id(position_id(p)) == p
        assert position_from_id(position_id(p.swapped())) == p.swapped()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMB", "stray bits"),
        ("4HPwATDgc/AB-A", "14 characters"),
        ("//////////////", "stray bits"),
        ("/////////////A", "checkers"),
    ],
)
def test_position_id_malformed_quotes_the_input(text: str, why: str) -> None:
    with pytest.raises(FormatError, match=why) as exc:
        position_from_id(text)
    assert repr(text) in str(exc.value)


def test_position_id_refuses_to_encode_impossible_positions() -> None:
    with pytest.raises(FormatError):
        position_id(Position((16,) + (0,) * 24, (0,) * 25))


def test_match_id_golden_example_from_the_gnubg_manual() -> None:
    # 2-4 in a 9-point match, player 0 owns a 2-cube, player 1 has rolled 5-2.
    m = match_from_id("QYkqASAAIAAA")
    assert m == MatchId(
        cube_value=2,
        cube_owner=0,
        dice_owner=1,
        game_state=GameState.PLAYING,
        turn=1,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
    )
    assert match_id(m) == "QYkqASAAIAAA"
    assert match_from_id("MAAAAAAAAAAA") == MatchId(game_state=GameState.NONE)


def test_match_id_round_trips_against_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg")
    rng = random.Random(9)
    for _ in range(500):
        length = rng.choice([0, 1, 3, 5, 7, 9, 11, 25])
        score = (rng.randrange(max(length, 1)), rng.randrange(max(length, 1))) if length else (0, 0)
        cube = 2 ** rng.randrange(7)
        owner = rng.choice([-1, 0, 1])
        move = rng.randrange(2)
        crawford = rng.randrange(2) if length else 0
        state = rng.randrange(5)
        turn = rng.randrange(2)
        resigned = rng.randrange(4)
        doubled = rng.randrange(2)
        dice = rng.choice([(0, 0), (rng.randint(1, 6), rng.randint(1, 6))])
        theirs = gnubg.matchid(
            gnubg.cubeinfo(cube, owner, move, length, score, crawford, 0),
            gnubg.posinfo(turn, resigned, doubled, state, dice),
        )
        mine = match_from_id(theirs)
        assert match_id(mine) == theirs
        assert (mine.cube_value, mine.cube_owner, mine.dice_owner, mine.match_length, mine.score) == (
            cube,
            None if owner == -1 else owner,
            move,
            length,
            score,
        )
        assert (mine.crawford, int(mine.game_state), mine.turn) == (bool(crawford), state, turn)
        assert sorted(mine.dice) == sorted(dice)  # gnubg may store the dice high-low


@pytest.mark.parametrize("text", ["QYkqASAAIAA", "QYkqASAAIAA*", "////////////", "QYkqASAAIAA/"])
def test_match_id_malformed_quotes_the_input(text: str) -> None:
    with pytest.raises(FormatError) as exc:
        match_from_id(text)
    assert repr(text) in str(exc.value)


START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


def test_xgid_start_position_and_round_trip() -> None:
    x = parse_xgid(START_XGID)
    assert x.position() == Position.initial()
    assert (x.dice, x.crawford_jacoby, x.max_cube, x.turn) == ("52", 3, 10, 1)
    assert xgid_text(x) == START_XGID
    assert parse_xgid(START_XGID[5:]) == x


def test_xgid_round_trips_random_positions_both_ways_on_roll() -> None:
    for p in random_positions(300, seed=4):
        for x_on_roll in (True, False):
            x = Xgid.from_position(p, x_on_roll, dice="31", match_length=7, score_x=2)
            back = parse_xgid(xgid_text(x))
            assert back == x and back.position() == p


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0",
        "XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:3:0:10",
        "XGID=Bb----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:3:0:10",
        "XGID=-bO---E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
    ],
)
def test_xgid_malformed_quotes_the_input(text: str) -> None:
    with pytest.raises(FormatError) as exc:
        parse_xgid(text)
    assert repr(text) in str(exc.value)
