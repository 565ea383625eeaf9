"""Slots <-> player points for both variants and every seating (DESIGN.md "One coordinate system")."""

from __future__ import annotations

import pytest

from controller.geometry import CORNERS, GeometryError, Seating, all_seatings


@pytest.mark.parametrize("seating", all_seatings("backgammon") + all_seatings("nardy"))
def test_slot_and_point_are_inverse_for_both_players(seating):
    for player in (0, 1):
        slots = [seating.slot(player, p) for p in range(1, 25)]
        assert sorted(slots) == list(range(24))
        for p in range(1, 25):
            assert seating.point(player, seating.slot(player, p)) == p


def test_b2_standard_setup_light_home_bottom_right():
    s = Seating.for_home("backgammon", "bottom-right")
    assert s.slot(0, 1) == 0 and s.slot(0, 24) == 23 and s.slot(0, 13) == 12
    assert s.slot(1, 1) == 23 and s.slot(1, 24) == 0
    assert s.seat_bottom(0) and not s.seat_bottom(1)


@pytest.mark.parametrize("corner", CORNERS)
def test_b2_mirror_setups_put_points_1_to_6_in_the_named_corner(corner):
    s = Seating.for_home("backgammon", corner)
    assert s.light_home() == corner
    # backgammon: dark's point n is light's point 25 - n
    for n in range(1, 25):
        assert s.slot(1, n) == s.slot(0, 25 - n)


def test_n2_nardy_heads_diagonally_opposite_and_same_direction():
    s = Seating.for_home("nardy", "bottom-right")
    assert s.slot(0, 1) == 5 and s.slot(0, 24) == 6  # home bottom-right, head bottom-left
    assert s.slot(1, 24) == s.slot(0, 12)  # the opponent's head is the player's 12-point
    # both travel counter-clockwise: from point p to p-1 the slot number grows
    for player in (0, 1):
        assert (s.slot(player, 10) - s.slot(player, 11)) % 24 == 1


def test_b15_roller_for_each_half():
    s = Seating.for_home("backgammon", "bottom-right")
    assert s.roller_for_half(True) == 0 and s.roller_for_half(False) == 1
    top = Seating.for_home("backgammon", "top-right")
    assert top.roller_for_half(True) == 1


def test_bad_values_are_named():
    with pytest.raises(GeometryError, match="middle"):
        Seating.for_home("backgammon", "middle")
    with pytest.raises(GeometryError, match="point 25"):
        Seating().slot(0, 25)
    with pytest.raises(GeometryError):
        Seating(variant="chess")


def test_sides_round_trip():
    s = Seating.for_home("backgammon", "top-left")
    side = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1)
    slots = s.side_to_slots(1, side)
    assert s.slots_to_side(1, slots, bar=1) == side


def test_n2_nardy_start_layouts_put_the_heads_in_the_corners():
    """RULES.md N2: both heads (15 checkers) stand at diagonally opposite corners, never beside the
    bar; the mirror layout is legal. Calibration checks the board against these layouts."""
    from controller.geometry import start_layouts

    layouts = start_layouts("nardy")
    assert layouts
    for layout in layouts:
        heads = sorted(s for s, (_, n) in enumerate(layout) if n == 15)
        assert heads in ([0, 12], [11, 23])
        assert {layout[s][0] for s in heads} == {"light", "dark"}
    assert len(start_layouts("backgammon")) == 4  # B2: home right or left, either colour below
