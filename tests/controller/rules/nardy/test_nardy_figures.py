"""RULES.md "Figures the engine must reproduce" for long nardy, each a named test citing its seed.

The first rolls and the two worked notes of RULES.md N5 (SV 3.1, CS 3.1 and their notes).
"""

from __future__ import annotations

from controller.rules.nardy import NardyPosition, format_play, legal_plays

START = NardyPosition.initial()


def notations(position: NardyPosition, d1: int, d2: int) -> list[str]:
    return sorted(format_play(play) for play in legal_plays(position, d1, d2))


def test_n5_first_roll_6_6_two_checkers_to_18_sv_3_1_cs_3_1() -> None:
    # One checker off the head stops at 18: the opponent's head (our 12) blocks the next six;
    # so a second may leave. The other two sixes are lost.
    assert notations(START, 6, 6) == ["24/18(2)"]


def test_n5_first_roll_4_4_two_checkers_to_16_sv_3_1_cs_3_1() -> None:
    assert notations(START, 4, 4) == ["24/16(2)"]


def test_n5_first_roll_3_3_plays_24_15_and_24_21_sv_3_1_cs_3_1() -> None:
    # The first checker goes as far as it can (15), the second plays the three left over: one
    # three. 24/18(2) would also use four threes but is not the exception's play.
    assert notations(START, 3, 3) == ["24/15 24/21"]


def test_n5_note_white_5_5_then_black_4_4_one_checker_one_four_sv_cs_note() -> None:
    (white,) = legal_plays(START, 5, 5)
    assert format_play(white) == "24/4"
    black_on_roll = white.result.swapped()
    # White's checker on his 4 = Black's 16 stops Black's checker at 20: not the head, no exception.
    assert notations(black_on_roll, 4, 4) == ["24/20"]


def test_n5_note_white_2_2_then_black_5_5_three_fives_cs_note() -> None:
    (white,) = legal_plays(START, 2, 2)
    assert format_play(white) == "24/16"
    black_on_roll = white.result.swapped()
    # White's checker on his 16 = Black's 4 stops the fourth five.
    assert notations(black_on_roll, 5, 5) == ["24/9"]


def test_n5_other_first_rolls_take_one_checker_from_the_head_sv_1_2() -> None:
    assert notations(START, 5, 2) == ["24/17"]
    assert notations(START, 6, 5) == ["24/13"]
    assert notations(START, 1, 1) == ["24/20"]
    assert notations(START, 2, 2) == ["24/16"]


def test_n5_black_gets_the_exception_too_when_whites_head_blocks_sv_3_1() -> None:
    # After White's 6-6 (his 18 = Black's 6) and 4-4 (his 16 = Black's 4) nothing of White's is in
    # the way of Black's single checker before White's head (Black's 12): the exception applies.
    (white66,) = legal_plays(START, 6, 6)
    assert notations(white66.result.swapped(), 6, 6) == ["24/18(2)"]
    assert notations(white66.result.swapped(), 3, 3) == ["24/15 24/21"]
    (white44,) = legal_plays(START, 4, 4)
    assert notations(white44.result.swapped(), 4, 4) == ["24/16(2)"]
