"""Free play (a game joined in progress) with the game as the prior: the board's numbering and a roll
half played before the first reading are found from the play (issue 14 item 4, RULES.md B2, B17)."""

from __future__ import annotations

from controller.game.effects import Announce, Prompt

from .scripted import Script


def _side(**points: int) -> tuple[int, ...]:
    s = [0] * 25
    for k, n in points.items():
        s[int(k[1:]) - 1] = n
    return tuple(s)


def _played(out: list) -> list[str]:
    return [e.text for e in out if isinstance(e, Prompt) and " played " in e.text]


def test_b2_numbering_found_from_a_play_when_the_pip_counts_mislead():
    # 12 checkers a side, most of them far from home: the smaller pip count is the wrong numbering
    light = _side(p24=4, p23=4, p13=4)
    dark = _side(p24=4, p23=4, p13=4)
    s = Script(sides=(light, dark))
    s.look()
    assert s.state.phase == "free" and s.state.seating != s.seating
    s.dice, s.roller = ((6, "flat"), (5, "flat")), 0
    s.look()
    s.sides = (_side(p24=4, p23=4, p13=2, p8=1, p7=1), dark)  # light plays 13/7 13/8
    s.look()
    out = s.pickup()
    assert not [e for e in out if isinstance(e, Announce)]
    assert s.state.seating == s.seating
    assert any("numbering found from the play" in e.text for e in out if isinstance(e, Prompt))
    text = _played(out)[0]
    assert "13/7 13/8" in text or "13/8 13/7" in text


def test_b17_rest_of_a_roll_half_played_before_the_first_reading_is_legal():
    light = _side(p6=4, p5=4, p4=3, p7=1)  # 13/7 of a 6-5 already played when the camera starts
    dark = _side(p6=4, p5=4, p4=3, p13=1)
    s = Script(sides=(light, dark))
    s.dice, s.roller = ((6, "flat"), (5, "flat")), 0
    s.look()
    s.sides = (_side(p6=4, p5=4, p4=3, p2=1), dark)  # the 5 played: 7/2
    out = s.pickup()
    assert not [e for e in out if isinstance(e, Announce)]
    assert _played(out) and "7/2" in _played(out)[0]


def test_b17_half_a_roll_is_still_a_dispute_once_the_roll_was_seen_thrown():
    light = _side(p6=4, p5=4, p4=3, p13=1)
    dark = _side(p6=4, p5=4, p4=3, p13=1)
    s = Script(sides=(light, dark))
    s.look()  # the board seen before the roll: the whole roll is still to play
    s.dice, s.roller = ((6, "flat"), (5, "flat")), 0
    s.look()
    s.sides = (_side(p6=4, p5=4, p4=3, p7=1), dark)  # only the 6 played
    out = s.pickup()
    rulings = [e.ruling for e in out if isinstance(e, Announce)]
    assert rulings and rulings[0].code == "dispute"
