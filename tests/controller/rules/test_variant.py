"""Variant base and registry (STYLE.md principle 2); backgammon scoring of RULES.md B9."""

from __future__ import annotations

import pytest

from controller.rules import VARIANTS, Backgammon, Position, Variant, register_variant


def side(**points: int) -> tuple[int, ...]:
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def test_backgammon_is_registered_and_plays_like_the_core() -> None:
    v = VARIANTS["backgammon"]()
    assert isinstance(v, Backgammon) and v.checkers == 15 and v.hitting and v.has_cube
    assert v.start_position() == Position.initial()
    assert len(v.legal_plays(v.start_position(), 3, 1)) == 16
    assert repr(v) == "Backgammon()"


def test_result_multiple_single_gammon_backgammon_rules_b9() -> None:
    v = Backgammon()
    done = (0,) * 25
    assert v.result_multiple(Position(done, side(p6=3))) == 1  # loser bore off 12
    assert v.result_multiple(Position(done, side(p6=15))) == 2  # none off, all home
    assert v.result_multiple(Position(done, side(p6=14, p20=1))) == 3  # one in the winner's home
    assert v.result_multiple(Position(done, side(p6=14, bar=1))) == 3  # one on the bar
    with pytest.raises(ValueError, match="not over"):
        v.result_multiple(Position.initial())


def test_register_refuses_nameless_and_clashing_variants() -> None:
    class Nameless(Variant):
        pass

    class Clash(Backgammon):
        name = "backgammon"

    with pytest.raises(ValueError):
        register_variant(Nameless)
    with pytest.raises(ValueError, match="taken"):
        register_variant(Clash)
    assert register_variant(Backgammon) is Backgammon  # re-registering the same class is harmless


def test_both_variants_are_named_with_their_start_sides_rules_b2_n2() -> None:
    from controller.rules import variant_named

    assert set(VARIANTS) == {"backgammon", "nardy"}
    assert variant_named("backgammon").start_side() == Position.initial().me
    assert variant_named("nardy").start_side() == (0,) * 23 + (15, 0)
    with pytest.raises(ValueError, match="backgammon, nardy"):
        variant_named("chess")


@pytest.mark.parametrize("point", range(1, 26))
def test_opponent_point_is_an_involution_rules_b2_n2(point: int) -> None:
    from controller.rules import variant_named

    bg, nardy = variant_named("backgammon"), variant_named("nardy")
    assert bg.opponent_point(point) == (25 if point == 25 else 25 - point)
    assert nardy.opponent_point(point) == (25 if point == 25 else (point + 11) % 24 + 1)
    for v in (bg, nardy):
        assert v.opponent_point(v.opponent_point(point)) == point


def test_contact_is_over_once_the_sides_have_passed_rules_b16() -> None:
    from controller.rules import variant_named

    bg = variant_named("backgammon")
    assert bg.in_contact(Position.initial().me, Position.initial().opp)
    assert not bg.in_contact(side(p6=15), side(p6=15))  # each side home: nobody can meet
    assert variant_named("nardy").in_contact(side(p6=15), side(p6=15))  # N: never waived


def test_end_of_turn_and_game_result_rules_b9_n9() -> None:
    from controller.rules import CubeSettings, TurnEnd, variant_named
    from controller.rules.cube import Cube
    from controller.rules.nardy import NardyPosition

    bg = variant_named("backgammon")
    done = (0,) * 25
    start = Position.initial()
    assert bg.end_of_turn(start, mover_is_white=True, last_roll=False) == (TurnEnd.CONTINUE, None)
    assert bg.end_of_turn(Position(done, side(p6=15)), mover_is_white=False, last_roll=False) == (
        TurnEnd.GAME_OVER, "me")
    kind, result = bg.game_result(Position(done, side(p6=15)), 0, Cube(), CubeSettings(jacobi=False))
    assert (kind, result.points) == ("gammon", 2)
    kind, result = bg.game_result(Position(done, side(p6=15)), 0, Cube(), CubeSettings(jacobi=True))
    assert (kind, result.points) == ("single", 1)  # B12: a gammon counts single with the cube untouched
    nardy = variant_named("nardy").configured(block_rule="strict", koks=False, draw=True)
    finished = NardyPosition((0,) * 24, (0,) * 23 + (15,))
    assert nardy.end_of_turn(finished, mover_is_white=True, last_roll=False) == (TurnEnd.LAST_ROLL, None)
    assert nardy.end_of_turn(finished, mover_is_white=False, last_roll=False) == (TurnEnd.GAME_OVER, "me")
    kind, result = nardy.game_result(finished, 1, Cube(), CubeSettings())
    assert (kind, result.points, result.cube_value) == ("mars", 2, 1)


def test_rule_ids_and_flags_name_each_variants_rules() -> None:
    from controller.rules import variant_named

    bg, nardy = variant_named("backgammon"), variant_named("nardy")
    assert (bg.rethrow_rule, bg.opening_rule, bg.dispute_rule, bg.result_rule) == ("B15", "B3", "B17", "B9")
    assert (nardy.rethrow_rule, nardy.opening_rule, nardy.dispute_rule, nardy.result_rule) == (
        "N10", "N3", "N11", "N9")
    assert bg.gnubg and bg.has_cube and bg.rolls_in_own_half and not bg.same_direction
    assert not (nardy.gnubg or nardy.has_cube or nardy.rolls_in_own_half) and nardy.same_direction
