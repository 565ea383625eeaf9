"""Long nardy rules one by one (RULES.md N2-N9), each test naming its rule and seed section."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.nardy import (
    BlockRule,
    LongNardy,
    NardyPosition,
    NardySettings,
    NardyStatus,
    ResultKind,
    TurnEnd,
    cli_lines,
    end_of_turn,
    format_play,
    legal_plays,
    next_white,
    opening_dice,
    opening_winner,
    opp_to_mine,
    score,
)
from controller.rules.nardy.settings import Colours, FirstMove
from controller.rules.variant import VARIANTS

STRICT = NardySettings()
TRANSIENT = NardySettings(block_rule=BlockRule.TRANSIENT)
AFTER_HOME = NardySettings(block_rule=BlockRule.AFTER_HOME)


def side(**points: int) -> tuple[int, ...]:
    """24 counts from keywords ``p24=15`` etc."""
    counts = [0] * 24
    for name, n in points.items():
        counts[int(name[1:]) - 1] = n
    return tuple(counts)


def plays_text(position: NardyPosition, d1: int, d2: int, settings: NardySettings = STRICT,
               first_roll: bool | None = None) -> list[str]:
    return sorted(format_play(p) for p in legal_plays(position, d1, d2, settings, first_roll=first_roll))


# --- N2: the start and the two numberings ---------------------------------------------------


def test_n2_start_all_fifteen_on_each_head_sv_1_2_cs_1_2() -> None:
    start = NardyPosition.initial()
    assert start.me == start.opp == side(p24=15)
    assert start.pip_count() == (360, 360)
    assert start.status() == NardyStatus.VALID


def test_n2_opponents_head_is_my_12_and_his_home_my_13_to_18_sv_2_1() -> None:
    assert opp_to_mine(24) == 12
    assert [opp_to_mine(q) for q in range(1, 7)] == [13, 14, 15, 16, 17, 18]
    assert opp_to_mine(13) == 1 and opp_to_mine(12) == 24
    assert all(opp_to_mine(opp_to_mine(q)) == q for q in range(1, 25))
    assert NardyPosition.initial().point(12) == (0, 15)
    with pytest.raises(ValueError):
        opp_to_mine(0)


# --- N4: moving ---------------------------------------------------------------------------------


def test_n4_no_landing_on_any_opposing_checker_and_no_touching_down_sv_3_8_cs_3_7() -> None:
    # One opposing checker (his 1 = my 13) closes my 13; 24/13 with 6-5 needs 18 or 19 as a stop,
    # and from either the other die lands on 13: only one die plays -- the larger, 6 (CS 3.7).
    position = NardyPosition(side(p24=15), side(p1=15))
    assert plays_text(position, 6, 5, first_roll=False) == ["24/18"]


def test_n4_a_die_is_never_split_between_checkers_sv_3_2() -> None:
    position = NardyPosition(side(p24=13, p20=1, p19=1), side(p24=15))
    for play in legal_plays(position, 5, 4):
        assert sorted(m.src - m.dst for m in play.moves) == [4, 5]


# --- N5: the head rule ----------------------------------------------------------------------


def test_n5_one_checker_off_the_head_per_turn_sv_1_2_cs_1_2() -> None:
    position = NardyPosition(side(p24=14, p10=1), side(p24=14, p20=1))
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for play in legal_plays(position, d1, d2):
                assert sum(m.src == 24 for m in play.moves) <= 1, (d1, d2, play)


def test_n5_exception_only_on_the_first_roll_sv_3_1() -> None:
    start = NardyPosition.initial()
    assert plays_text(start, 6, 6, first_roll=False) == ["24/18"]
    assert plays_text(start, 6, 6, first_roll=True) == ["24/18(2)"]
    assert plays_text(start, 6, 6) == ["24/18(2)"]  # worked out: all 15 on the head


# --- N6: blocks ------------------------------------------------------------------------------

# My 22-19 held twice, seven on the head; the opponent all on his head (my 12): none of his checkers
# is past my 19-24 (his 7-12), so that block is forbidden (SV 3.5, CS 3.4).
WALL = NardyPosition(side(p24=7, p22=2, p21=2, p20=2, p19=2), side(p24=15))


@pytest.mark.parametrize("settings", [STRICT, TRANSIENT, AFTER_HOME], ids=lambda s: s.block_rule)
def test_n6_no_six_block_without_an_opposing_checker_past_it_sv_3_5_cs_3_4(settings: NardySettings) -> None:
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for play in legal_plays(WALL, d1, d2, settings):
                assert play.result.status() & NardyStatus.BLOCK_ME == 0, (d1, d2, format_play(play))
    assert "24/23 22/20" not in plays_text(WALL, 2, 1, settings)


def test_n6_strict_forbids_a_block_even_on_the_run_sv_3_5_cs_3_4() -> None:
    # 1-1: the head checker touching 23 would make 19-24 for a moment.
    assert "24/20" not in plays_text(WALL, 1, 1, STRICT)


def test_n6_transient_setting_allows_a_block_broken_in_the_same_turn_cs_online() -> None:
    assert "24/20" in plays_text(WALL, 1, 1, TRANSIENT)


def test_n6_a_block_is_allowed_once_an_opposing_checker_is_past_it_sv_3_5() -> None:
    # My 2-6 and 7x10; his checker on his 10 (my 22) is past my 1-6 (his 13-18), none home yet.
    position = NardyPosition(side(p7=10, p6=1, p5=1, p4=1, p3=1, p2=1), side(p24=14, p10=1))
    assert "7/2 7/1" in plays_text(position, 6, 5, STRICT)
    assert "7/2 7/1" in plays_text(position, 6, 5, TRANSIENT)


def test_n6_after_home_setting_needs_an_opposing_checker_home_sv_3_5_cs_3_4_variant() -> None:
    position = NardyPosition(side(p7=10, p6=1, p5=1, p4=1, p3=1, p2=1), side(p24=14, p10=1))
    after = legal_plays(position, 6, 5, AFTER_HOME)
    assert after and all(not all(p.result.me[0:6]) for p in after)
    home = NardyPosition(position.me, side(p24=14, p5=1))
    assert "7/2 7/1" in plays_text(home, 6, 5, AFTER_HOME)


def test_n6_status_flags_an_illegal_block() -> None:
    blocked = NardyPosition(side(p24=5, p23=2, p22=2, p21=2, p20=2, p19=2), side(p24=15))
    assert blocked.status() & NardyStatus.BLOCK_ME
    assert blocked.swapped().status() & NardyStatus.BLOCK_OPP
    assert blocked.blocks() == [24]


# --- N7: using the roll -----------------------------------------------------------------------


def test_n7_whole_roll_must_be_played_sv_3_10() -> None:
    position = NardyPosition(side(p24=14, p13=1), side(p24=15))
    for play in legal_plays(position, 6, 3):
        assert len(play.moves) == 2


def test_n7_nothing_playable_loses_the_roll_sv_3_7_cs_3_6() -> None:
    closed = NardyPosition(side(p8=15), side(p16=15))  # his 16 = my 4: every four lands there
    assert legal_plays(closed, 4, 4) == []
    assert plays_text(closed, 2, 2) == ["8/6(4)"]  # 6/4 is closed: each two moves another checker


# --- N8: bearing off -------------------------------------------------------------------------

OPP_AWAY = side(p1=15)  # the opponent all on his 1-point = my 13


def test_n8_6_5_with_6_and_5_empty_bears_off_from_the_4_then_the_3_sv_3_12_cs_3_12() -> None:
    position = NardyPosition(side(p4=1, p3=1, p2=1), OPP_AWAY)
    assert plays_text(position, 6, 5) == ["4/off 3/off"]


def test_n8_6_3_bears_off_from_6_and_3_or_plays_the_three_inside_sv_3_12() -> None:
    position = NardyPosition(side(p6=2, p5=2, p4=2, p3=2), OPP_AWAY)
    plays = plays_text(position, 6, 3)
    for expected in ("6/off 3/off", "6/3 6/off", "6/off 5/2", "6/off 4/1"):
        assert expected in plays


def test_n8_no_bearing_off_until_all_fifteen_are_home_sv_3_11() -> None:
    position = NardyPosition(side(p7=1, p3=14), OPP_AWAY)
    # The six brings the last checker home, then the other sixes bear off from the highest point.
    assert plays_text(position, 6, 6) == ["7/1 3/off(3)"]
    # With 2-1 the last checker comes home first (7/5, 7/6, 7/4) before anything bears off; the home
    # checkers may move inside instead.
    plays = plays_text(position, 2, 1)
    assert "7/4" in plays and "7/5 3/2" in plays and "7/6 3/1" in plays
    assert not any("off" in play for play in plays)


# --- N9: results and N3: first move, colours ----------------------------------------------------


def test_n9_oin_1_mars_2_sv_4_1_4_2() -> None:
    assert score(NardyPosition(side(), side(p3=14))) == score(NardyPosition(side(), side(p3=14)))
    oin = score(NardyPosition(side(), side(p3=14)))
    assert oin is not None and (oin.winner, oin.kind, oin.points) == ("me", ResultKind.OIN, 1)
    mars = score(NardyPosition(side(p2=15), side()))
    assert mars is not None and (mars.winner, mars.kind, mars.points) == ("opp", ResultKind.MARS, 2)
    assert score(NardyPosition.initial()) is None


def test_n9_koks_setting_3_when_the_loser_has_no_checker_home_sv() -> None:
    koks = NardySettings(koks=True)
    behind = NardyPosition(side(), side(p12=15))
    assert score(behind) is not None and score(behind).points == 2  # type: ignore[union-attr]
    result = score(behind, koks)
    assert result is not None and (result.kind, result.points) == (ResultKind.KOKS, 3)
    one_home = NardyPosition(side(), side(p12=14, p6=1))
    assert score(one_home, koks).kind == ResultKind.MARS  # type: ignore[union-attr]


def test_n9_draw_setting_black_gets_a_last_roll_sv_4_3() -> None:
    draw = NardySettings(draw=True)
    white_done = NardyPosition(side(), side(p1=2))
    assert end_of_turn(white_done, STRICT, mover_is_white=True)[0] == TurnEnd.GAME_OVER
    assert end_of_turn(white_done, draw, mover_is_white=True) == (TurnEnd.LAST_ROLL, None)
    state, result = end_of_turn(NardyPosition(side(), side()), draw, mover_is_white=False, last_roll=True)
    assert state == TurnEnd.GAME_OVER and result is not None and result.kind == ResultKind.DRAW
    state, result = end_of_turn(NardyPosition(side(p1=1), side()), draw, mover_is_white=False, last_roll=True)
    assert result is not None and (result.winner, result.kind) == ("opp", ResultKind.OIN)
    # Black finishing first never gets a last roll for white.
    assert end_of_turn(white_done, draw, mover_is_white=False)[0] == TurnEnd.GAME_OVER
    assert end_of_turn(NardyPosition.initial(), draw, mover_is_white=True) == (TurnEnd.CONTINUE, None)


def test_n3_first_move_and_colours_sv_1_3_1_4() -> None:
    assert opening_winner(5, 3) == 0 and opening_winner(2, 6) == 1 and opening_winner(4, 4) is None
    assert opening_dice(5, 3) is None
    assert opening_dice(3, 5, NardySettings(first_move=FirstMove.OPENING_DICE)) == (5, 3)
    assert next_white("ann", "bob", "ann") == "bob"
    winner_starts = NardySettings(colours=Colours.WINNER_STARTS)
    assert next_white("ann", "bob", "ann", winner_starts) == "ann"
    assert next_white("ann", "bob", None, winner_starts) == "bob"


# --- impossible positions, the variant, the CLI lines ---------------------------------------------


def test_status_flags_never_raise() -> None:
    assert NardyPosition(side(p24=16), side(p24=15)).status() & NardyStatus.TOO_MANY_ME
    assert NardyPosition(side(p24=15), side(p24=16)).status() & NardyStatus.TOO_MANY_OPP
    shared = NardyPosition(side(p24=14, p12=1), side(p24=15))
    assert shared.status() & NardyStatus.SHARED_POINT
    assert NardyPosition(side(), side()).status() & NardyStatus.BOTH_FINISHED
    assert NardyPosition((1, 2), side()).status() & NardyStatus.BAD_LENGTH
    assert NardyPosition(side(p3=-1), side()).status() & NardyStatus.BAD_COUNT
    assert NardyPosition(("x",) * 24, side()).status() & NardyStatus.BAD_COUNT  # type: ignore[arg-type]
    for d1 in range(1, 7):
        legal_plays(shared, d1, 7 - d1)  # impossible, but no crash


counts = st.lists(st.integers(0, 20), min_size=24, max_size=24).map(tuple)


@settings(max_examples=200, deadline=None)
@given(counts, counts, st.integers(1, 6), st.integers(1, 6), st.sampled_from([STRICT, TRANSIENT, AFTER_HOME]))
def test_impossible_positions_are_played_never_crash(
    me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int, rule: NardySettings
) -> None:
    position = NardyPosition(me, opp)
    position.status()
    for play in legal_plays(position, d1, d2, rule):
        assert len(play.moves) <= 4 and play.result.opp == opp


def test_misshapen_positions_raise_value_error() -> None:
    with pytest.raises(ValueError):
        legal_plays(NardyPosition((1,) * 23, side()), 1, 2)
    with pytest.raises(ValueError):
        legal_plays(NardyPosition(side(p3=-1), side()), 1, 2)
    with pytest.raises(ValueError):
        legal_plays(NardyPosition.initial(), 0, 2)


def test_long_nardy_is_registered_as_a_variant() -> None:
    variant = VARIANTS["nardy"]()
    assert isinstance(variant, LongNardy) and not variant.hitting
    start = variant.start_position()
    assert [format_play(p) for p in variant.legal_plays(start, 4, 4)] == ["24/16(2)"]
    assert variant.result_multiple(NardyPosition(side(), side(p24=15))) == 2
    assert LongNardy(NardySettings(koks=True)).result_multiple(NardyPosition(side(), side(p24=15))) == 3
    with pytest.raises(ValueError):
        variant.result_multiple(start)


def test_cli_lines_shape_and_errors() -> None:
    assert cli_lines("N:24x15/24x15", 3, 3) == ["24/15 24/21\tN:24x13,21,15/24x15"]
    lines = cli_lines("N:24x14,17/24x15", 6, 1)
    assert lines == sorted(lines, key=lambda line: line.split("\t")[1])
    assert all(line.count("\t") == 1 and line.split("\t")[1].startswith("N:") for line in lines)
    assert cli_lines("N:8x15/16x15", 4, 4) == []
    for bad, dice in (("4HPwATDgc/ABMA", (3, 1)), ("N:24x16/24x15", (3, 1)), ("N:24x15/24x15", (0, 1)),
                      ("N:24x14,12/24x15", (3, 1)), ("N:24x15", (1, 2))):
        with pytest.raises(ValueError) as info:
            cli_lines(bad, *dice)
        assert "\n" not in str(info.value)
