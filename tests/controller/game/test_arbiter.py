"""Move inference (DESIGN.md "arbiter"; issue 6 item 2): which legal play a settled board shows."""

from __future__ import annotations

from controller.formats.notation import format_play, parse_play
from controller.game import arbiter
from controller.rules.moves import legal_plays
from controller.rules.position import Position
from controller.rules.variant import variant_named


def side(**points: int) -> tuple[int, ...]:
    s = [0] * 25
    for k, n in points.items():
        s[25 - 1 if k == "bar" else int(k[1:]) - 1] = n
    return tuple(s)


def _infer(pos, d1, d2, seen, unsure=()):
    return arbiter.infer(pos, legal_plays(pos, d1, d2), seen, unsure)


def test_b4_combined_move_whose_middle_step_was_never_seen():
    pos = Position.initial()
    seen = parse_play("24/18/13", pos).result  # 6-5 run with one checker, only the end seen
    v = _infer(pos, 6, 5, seen)
    assert isinstance(v, arbiter.Made) and format_play(v.play) == "24/13"


def test_b6_hit_is_named_with_its_star():
    me = side(p24=2, p13=5, p8=3, p6=5)
    opp = side(p24=1, p20=1, p13=5, p8=3, p6=5)  # a blot on his 20-point = my 5-point
    pos = Position(me, opp)
    plays = legal_plays(pos, 3, 1)
    hitting = [p for p in plays if any(m.hit for m in p.moves)]
    assert hitting
    v = arbiter.infer(pos, plays, hitting[0].result)
    assert isinstance(v, arbiter.Made) and "*" in format_play(v.play)


def test_b7_bar_entry():
    me = side(bar=1, p13=5, p8=3, p6=5, p24=1)
    pos = Position(me, side(p13=5, p8=3, p6=7))
    seen = parse_play("bar/22 13/11", pos).result
    v = _infer(pos, 3, 2, seen)
    assert isinstance(v, arbiter.Made) and format_play(v.play).startswith("bar/22")


def test_b8_bear_off():
    pos = Position(side(p6=2, p4=1), side(p24=2))
    seen = parse_play("6/off 4/off", pos).result
    v = _infer(pos, 6, 4, seen)
    assert isinstance(v, arbiter.Made) and v.play.result.off_me == 14


def test_b17_illegal_names_the_closest_legal_plays():
    pos = Position.initial()
    seen = parse_play("13/7", pos).result  # six pips with 3-1
    v = _infer(pos, 3, 1, seen)
    assert isinstance(v, arbiter.Illegal)
    assert v.closest and v.distance == min(
        sum(abs(a - b) for a, b in zip(p.result.me, seen.me, strict=True)) for p in legal_plays(pos, 3, 1)
    )
    assert v.differences and not v.unchanged


def test_b17_nothing_moved_is_incomplete():
    pos = Position.initial()
    v = _infer(pos, 3, 1, pos)
    assert isinstance(v, arbiter.Illegal) and v.unchanged


def test_b5_no_legal_play_and_no_move_is_made():
    me = side(bar=1, p6=14)
    opp = side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3)  # a closed board: my 19-24 are his 1-6
    pos = Position(me, opp)
    assert legal_plays(pos, 6, 5) == []
    v = arbiter.infer(pos, [], pos)
    assert isinstance(v, arbiter.Made) and v.play.moves == ()


def test_unsure_points_are_resolved_by_the_legal_results():
    pos = Position.initial()
    true = parse_play("8/5 6/5", pos, (3, 1)).result
    # the reader was unsure of point 5 and saw a wrong count there; the other points decide
    wrong = list(true.me)
    wrong[4] = 7
    seen = Position(tuple(wrong), true.opp)
    v = _infer(pos, 3, 1, seen, unsure=(5,))
    assert isinstance(v, arbiter.Made) and format_play(v.play) == "8/5 6/5"


def test_unsure_points_leave_several_candidates_ambiguous():
    pos = Position.initial()
    true = parse_play("24/21 24/23", pos, (3, 1)).result
    seen = Position(true.me[:18] + (0,) * 7, true.opp)  # the far corner unreadable
    v = _infer(pos, 3, 1, seen, unsure=tuple(range(19, 25)))
    assert isinstance(v, arbiter.Ambiguous) and len(v.candidates) > 1


def test_impossible_reading_is_unreadable():
    pos = Position.initial()
    seen = Position(tuple(n + (1 if i == 5 else 0) for i, n in enumerate(pos.me)), pos.opp)  # 16 checkers
    v = _infer(pos, 3, 1, seen)
    assert isinstance(v, arbiter.Unreadable) and "too many" in v.reason


def test_n4_nardy_inference():
    from controller.rules.nardy.position import NardyPosition

    pos = NardyPosition.initial()
    nardy = variant_named("nardy")
    plays = nardy.legal_plays(pos, 5, 3)
    target = plays[0]
    v = arbiter.infer(pos, plays, target.result, variant=nardy)
    assert isinstance(v, arbiter.Made) and v.play == target
