"""Legal plays: RULES.md B4-B8 and the figures of RULES.md "Figures the engine must reproduce"."""

from __future__ import annotations

import pytest

from controller.formats import format_play, position_from_id, position_id
from controller.rules import (
    ALL_ROLLS,
    DiceError,
    Move,
    Position,
    apply_move,
    check_dice,
    legal_plays,
    undo_move,
)


def side(**points: int) -> tuple[int, ...]:
    """A 25-tuple from keyword points: side(p6=2, bar=1)."""
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def texts(position: Position, d1: int, d2: int) -> set[str]:
    return {format_play(p) for p in legal_plays(position, d1, d2)}


def test_opening_3_1_has_16_plays_as_gnubg() -> None:
    plays = legal_plays(Position.initial(), 3, 1)
    assert len(plays) == 16
    assert "8/5 6/5" in {format_play(p) for p in plays}


def test_opening_perft_depth_one_is_447() -> None:
    assert sum(len(legal_plays(Position.initial(), d1, d2)) for d1, d2 in ALL_ROLLS) == 447


def test_ro_bearoff_white_6_4_bears_off_from_6_and_4_rules_b8() -> None:
    p = Position(side(p6=2, p4=2, p2=1), side(p20=3))
    assert "6/off 4/off" in texts(p, 6, 4)


def test_ro_bearoff_black_6_6_three_from_6_one_from_5_rules_b8() -> None:
    p = Position(side(p6=3, p5=2, p3=1), side(p20=3))
    assert texts(p, 6, 6) == {"6/off(3) 5/off"}


def test_ro_bearoff_3_1_with_6_and_2_must_move_inside_rules_b8() -> None:
    # Checkers on the 6 and the 2, none on the 3 or 1: no bear-off with a 3 while the 6 stands.
    p = Position(side(p6=2, p2=2), side(p20=3))
    got = texts(p, 3, 1)
    assert "6/3 2/1" in got
    assert all("off" not in t for t in got)


def test_ro_bearoff_black_5_5_rules_b8() -> None:
    # One off from the 5, two from the 6 down to the 1, then one off from the 4 (highest left).
    p = Position(side(p6=2, p5=1, p4=1), side(p20=3))
    assert "6/1(2) 5/off 4/off" in texts(p, 5, 5)


def test_ro_forced_6_2_plays_the_2_first_rules_b5() -> None:
    # Only a checker on my 10: the 6 alone is blocked (10/4), but 10/8 then 8/2 plays both.
    p = Position(side(p10=1, p1=14), side(p21=2, p15=13))
    plays = legal_plays(p, 6, 2)
    assert [format_play(x) for x in plays] == ["10/2"]
    assert plays[0].moves == (Move(10, 8), Move(8, 2))


def test_ro_forced_5_3_either_but_not_both_plays_the_5_rules_b5() -> None:
    # A lone checker on 13: 13/8 and 13/10 each playable, but 8->5 and 10->5 blocked (his 20 is made)
    # and the checkers on the 1 cannot move (not all home): the larger die must be played.
    p = Position(side(p13=1, p1=14), side(p20=2, p9=13))
    assert texts(p, 5, 3) == {"13/8"}


def test_bar_entry_first_rules_b7() -> None:
    p = Position(side(bar=1, p13=14), side(p6=2, p1=13))  # my 19 blocked (his 6), my 24 blocked
    assert texts(p, 6, 1) == set()
    assert texts(p, 6, 2) == {"bar/23 13/7", "bar/17"}
    assert texts(p, 1, 1) == set() and texts(p, 6, 6) == set()


def test_hit_when_touching_down_rules_b6() -> None:
    p = Position(side(p13=15), side(p15=1, p1=14))  # his blot on his 15 = my 10
    assert "13/10*/9" in texts(p, 3, 1)


def test_apply_and_undo_are_inverse() -> None:
    p = Position(side(p13=15), side(p15=1, p1=14))
    m = Move(13, 10, True)
    q = apply_move(p, m)
    assert q.opp[24] == 1 and q.me[9] == 1
    assert undo_move(q, m) == p


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (3, "4"), (True, 2)])
def test_bad_dice_raise_dice_error(dice: tuple[object, object]) -> None:
    with pytest.raises(DiceError, match="1 to 6"):
        check_dice(*dice)
    with pytest.raises(ValueError):
        legal_plays(Position.initial(), *dice)  # type: ignore[arg-type]


def test_position_id_start() -> None:
    assert position_id(Position.initial()) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.initial()
