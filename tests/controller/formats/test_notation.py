"""Move notation: gnubg's writing conventions and the variants real match files use."""

from __future__ import annotations

import random

import pytest

from controller.formats import FormatError, IllegalPlayError, format_play, parse_hops, parse_play
from controller.rules import Move, Position, legal_plays
from controller.rules.randomgame import random_positions


def side(**points: int) -> tuple[int, ...]:
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def test_gnubg_conventions() -> None:
    assert format_play((Move(24, 18), Move(13, 11))) == "24/18 13/11"
    assert format_play((Move(25, 22, True),)) == "bar/22*"
    assert format_play((Move(6, 0),)) == "6/off"
    assert format_play((Move(8, 6), Move(8, 6), Move(6, 4), Move(6, 4))) == "8/4(2)"
    assert format_play((Move(13, 7, True), Move(7, 5))) == "13/7*/5"
    assert format_play((Move(24, 21), Move(21, 20))) == "24/20"
    assert format_play(()) == ""


def test_a_hit_point_is_starred_once() -> None:
    plays = (Move(6, 5, True), Move(7, 5))
    assert format_play(plays) == "7/5* 6/5"


def test_parse_variants_of_real_files() -> None:
    assert parse_hops("25/20 6/0") == [(25, 20), (6, 0)]
    assert parse_hops("bar/20* 6/off") == [(25, 20), (6, 0)]
    assert parse_hops("13/7*/5 8/4(2)") == [(13, 7), (7, 5), (8, 4), (8, 4)]
    assert parse_hops("  Bar/22  ") == [(25, 22)]
    assert parse_hops("") == []


def test_parse_with_dice_returns_the_legal_play() -> None:
    start = Position.initial()
    play = parse_play("8/5 6/5", start, (3, 1))
    assert format_play(play) == "8/5 6/5" and play in legal_plays(start, 3, 1)
    assert format_play(parse_play("24/20", start, (1, 3))) == "24/20"
    assert parse_play("13/9", start, (3, 1)).result == parse_play("13/10 10/9", start, (1, 3)).result


def test_parse_without_stars_finds_the_hit_on_the_way() -> None:
    p = Position(side(p13=15), side(p15=1, p1=14))  # his blot on my 10
    assert format_play(parse_play("13/9", p, (3, 1))) == "13/9"  # via 12: no hit, as written
    assert format_play(parse_play("13/10*/9", p, (3, 1))) == "13/10*/9"
    # His blot on my 7 and his point on my 11: 13/5 with 6-2 can only go through 7, hitting.
    q = Position(side(p13=15), side(p18=1, p14=2, p1=12))
    assert format_play(parse_play("13/5", q, (6, 2))) == "13/7*/5"


def test_parse_illegal_plays_raise_illegal_play_error_rules_b17() -> None:
    start = Position.initial()
    with pytest.raises(IllegalPlayError, match="13/10 13/12"):
        parse_play("13/10 13/12", start, (3, 1))  # 13/12 lands on his 5-checker point
    with pytest.raises(IllegalPlayError):
        parse_play("6/8", start, (2, 1))
    with pytest.raises(IllegalPlayError):
        parse_play("13/9 13/7", start, (6, 3))
    with pytest.raises(IllegalPlayError, match="no checker"):
        parse_play("20/14", start)


@pytest.mark.parametrize("text", ["13-7", "13/", "/7", "13/7(9)", "off/3", "13/bar", "6/off/3", "x"])
def test_parse_malformed_quotes_the_text(text: str) -> None:
    with pytest.raises(FormatError) as exc:
        parse_hops(text)
    assert repr(text) in str(exc.value)


def test_every_legal_play_round_trips_through_its_notation() -> None:
    rng = random.Random(8)
    for p in random_positions(50, seed=8):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for play in legal_plays(p, d1, d2):
            back = parse_play(format_play(play), p, (d1, d2))
            assert back.result == play.result, (p, d1, d2, format_play(play))
            assert parse_play(format_play(play), p).result == play.result
