"""LED hint frames (issue 6 item 5): movable points, destinations, warning and re-throw."""

from __future__ import annotations

from controller import hints
from controller.geometry import Seating
from controller.rules.moves import legal_plays
from controller.rules.position import Position
from firmware_bridge.frames import AMBER, BLUE, GREEN, RED, Effect

SEAT = Seating.for_home("backgammon", "bottom-right")


def side(**points: int) -> tuple[int, ...]:
    s = [0] * 25
    for k, n in points.items():
        s[24 if k == "bar" else int(k[1:]) - 1] = n
    return tuple(s)


def test_movable_points_opening_3_1():
    pos = Position.initial()
    plays = legal_plays(pos, 3, 1)
    assert hints.movable_points(pos, plays) == (24, 13, 8, 6)
    frame = hints.movable_frame(SEAT, 0, hints.movable_points(pos, plays))
    assert frame.lit_zones() == {23, 12, 7, 5} and frame.zones[5].colour == GREEN


def test_b7_only_the_bar_moves_while_a_checker_is_on_it():
    pos = Position(side(bar=1, p13=5, p8=3, p6=6), side(p13=5, p8=3, p6=5, p24=2))
    plays = legal_plays(pos, 3, 1)
    assert hints.movable_points(pos, plays)[0] == 25
    frame = hints.movable_frame(SEAT, 0, [25])
    assert frame.lit_zones() == {24}


def test_destinations_of_a_lifted_checker():
    pos = Position.initial()
    plays = legal_plays(pos, 3, 1)
    assert hints.destinations(plays, 24) == (23, 21, 20)
    frame = hints.destination_frame(SEAT, 0, 24, hints.destinations(plays, 24))
    assert frame.zones[23].effect == Effect.PULSE and frame.zones[22].colour == BLUE


def test_b8_bear_off_destination_is_the_off_tray():
    pos = Position(side(p6=2, p4=1), side(p24=2))
    plays = legal_plays(pos, 6, 4)
    assert 0 in hints.destinations(plays, 6)
    assert hints.zones_for(SEAT, 0, [0]) == {25}  # light's home is on the right: the right tray


def test_warning_and_rethrow_frames():
    w = hints.warning_frame(SEAT, 0, [8, 5])
    assert w.lit_zones() == {7, 4} and w.zones[7].colour == RED and w.zones[7].effect == Effect.BLINK
    r = hints.rethrow_frame()
    assert r.lit_zones() == set(range(24)) and r.zones[0].colour == AMBER


def test_changed_points_number_the_opponent_by_the_variant_rules_b2_n2():
    from controller.rules.nardy import NardyPosition
    from controller.rules.variant import variant_named

    before = Position.initial()
    seen = Position(before.me, side(p24=2, p13=5, p8=3, p6=4, p5=1))  # opponent's 6/5 (his numbering)
    assert hints.changed_points(before, seen) == (20, 19)  # the mover's numbers for his 5 and 6
    start = NardyPosition.initial()
    moved = NardyPosition(start.me, (0,) * 19 + (1,) + (0,) * 3 + (14,))  # his 24/20
    assert hints.changed_points(start, moved, variant_named("nardy")) == (12, 8)


def test_best_play_frame_lights_sources_and_destinations():
    pos = Position.initial()
    play = next(p for p in legal_plays(pos, 3, 1) if {(m.src, m.dst) for m in p.moves} == {(8, 5), (6, 5)})
    frame = hints.best_play_frame(SEAT, 0, play)
    assert {7, 5, 4} <= frame.lit_zones()
