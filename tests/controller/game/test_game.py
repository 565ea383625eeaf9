"""Scripted games through the pure ``game.step``: one test per ruling of RULES.md "What the station must
rule on", each named after its rule, both variants."""

from __future__ import annotations

from controller import game
from controller.game.effects import Hint, Leds
from controller.game.events import DeviceChanged, MatchStarted, RefereeAction
from controller.game.rulings import Settings

from .scripted import Script


def test_b3_opening_roll_higher_die_moves_first_with_both_numbers():
    s = Script()
    s.opening(3, 1)
    assert s.state.phase == "moving" and s.state.on_roll == 0 and s.state.dice == (3, 1)
    show = s.shows()[-1]
    assert show.legal == 16 and set(show.movable) == {24, 13, 8, 6}
    assert s.leds()[-1].frame.lit_zones() == {5, 7, 12, 23}
    s.move("8/5 6/5")
    s.pickup()
    assert s.state.phase == "to_roll" and s.state.on_roll == 1
    assert s.state.sides[0][4] == 2


def test_b3_opening_tie_is_rerolled():
    s = Script()
    s.opening(4, 4)
    assert s.codes() == [("B3", "opening_tie")]
    assert s.state.phase in ("setup", "free") and s.state.cube == 1
    s.pickup()
    s.opening(2, 5)
    assert s.state.on_roll == 1 and s.state.dice == (5, 2)


def test_b13_automatic_double_on_tie_up_to_the_limit():
    s = Script(automatic_doubles=True, auto_double_limit=1)
    s.opening(4, 4)
    assert ("B13", "opening_tie") in s.codes() and s.state.cube == 2
    s.pickup()
    s.opening(3, 3)
    assert s.state.cube == 2  # the limit: one automatic double
    s.pickup()
    s.opening(6, 1)
    assert s.state.cube == 2 and s.state.owner is None


def test_b15_rethrow_for_every_bad_die_status():
    for status in ("cocked", "off_board", "wrong_half", "on_bar", "on_checker"):
        s = Script()
        s.opening(3, 1)
        s.move("8/5 6/5")
        s.pickup()
        out = s.roll(6, 4, status=status)
        assert s.codes(out) == [("B15", "rethrow")], status
        assert s.state.phase == "to_roll"
        s.pickup()
        s.roll(6, 4)
        assert s.state.phase == "moving" and s.state.dice == (6, 4)


def test_b15_tournament_option_die_flat_on_a_checker_stands():
    s = Script(die_on_checker_stands=True)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    out = s.roll(6, 4, status="on_checker")
    assert s.codes(out) == [] and s.state.phase == "moving"


def test_b15_out_of_turn_roll_is_refused():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    out = s.roll(6, 4, player=0)  # light rolls again on his own half: not his turn
    assert s.codes(out) == [("B15", "out_of_turn")]


def test_b16_turn_ends_on_the_clock_button():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.press("clock", player=0)
    assert s.state.phase == "to_roll" and s.state.on_roll == 1


def test_b16_mover_may_change_his_move_until_the_turn_ends():
    s = Script()
    s.opening(3, 1)
    s.move("24/21 24/23")
    s.sides = game.start_side("backgammon"), game.start_side("backgammon")  # takes it back
    s.look()
    s.move("8/5 6/5")
    s.pickup()
    assert s.rulings() == [] and s.state.sides[0][4] == 2


def test_b16_premature_roll_is_void_by_default():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    # dark rolls on his half while light's opening dice still lie on the board
    s.dice = s.dice + ((6, "flat"), (5, "flat"))
    s.roller = None
    out = s.look()
    assert s.codes(out) == [("B16", "premature_void")]
    assert s.state.phase == "moving" and s.state.on_roll == 0


def _premature_after_first_turn(**settings):
    s = Script(**settings)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.roll(6, 4)
    s.move("24/18 13/9")
    # light rolls before dark picked up: both pairs on the board
    from controller.station.demo import seen

    s.t += 1
    dark_dice = seen(s.sides, ((6, "flat"), (4, "flat")), 1, s.t, s.seating).dice
    light_dice = seen(s.sides, ((2, "flat"), (1, "flat")), 0, s.t, s.seating).dice
    ev = seen(s.sides, (), None, s.t, s.seating)
    from dataclasses import replace

    return s, s.feed(replace(ev, dice=dark_dice + light_dice))


def test_b16_premature_roll_stands_under_usbgf_rules():
    s, out = _premature_after_first_turn(**Settings().with_preset("usbgf").to_json())
    assert ("B16", "premature_stands") in s.codes(out)
    assert s.state.phase == "moving" and s.state.on_roll == 0 and s.state.dice == (2, 1)


def test_b16_premature_roll_void_under_seed_rules():
    s, out = _premature_after_first_turn()
    assert s.codes(out) == [("B16", "premature_void")]
    assert s.state.on_roll == 1 and s.state.phase == "moving"


def test_b16_premature_roll_waived_when_contact_is_over():
    # a pure race: light all home, dark all home
    light = (3, 3, 3, 3, 3, 0) + (0,) * 19
    dark = (0, 3, 3, 3, 3, 3) + (0,) * 19
    s = Script(sides=(light, dark), light_home="bottom-right")
    s.state = game.State(
        settings=s.settings, phase="to_roll", seating=s.seating, sides=(light, dark), on_roll=1
    )
    s.roll(6, 5)
    s.move("6/off 5/off")
    from dataclasses import replace

    from controller.station.demo import seen

    ev = seen(s.sides, ((6, "flat"), (5, "flat")), 1, 99, s.seating)
    extra = seen(s.sides, ((2, "flat"), (1, "flat")), 0, 99, s.seating).dice
    out = s.feed(replace(ev, dice=ev.dice + extra))
    assert ("B16", "premature_stands") in s.codes(out)
    assert "contact is over" in s.rulings(out)[0].reason


def test_b17_illegal_move_opponent_accepts_it():
    s = Script()
    s.opening(3, 1)
    s.move("13/7", legal=False)  # moved six with one checker: not a 3-1 play
    out = s.pickup()
    assert s.codes(out) == [("B17", "illegal")]
    assert s.state.phase == "deciding"
    assert any(e.why == "illegal move" for e in s.leds())
    s.press("dispute", gesture="short")
    assert ("B17", "accepted") in s.codes()
    assert s.state.phase == "to_roll" and s.state.on_roll == 1
    assert s.state.sides[0][6] == 1  # the move stands as played


def test_b17_incomplete_move_opponent_demands_the_legal_move():
    s = Script()
    s.opening(3, 1)
    s.move("8/5", legal=False)  # only half the roll
    out = s.pickup()
    assert s.codes(out) == [("B17", "illegal")] and "illegal" in s.rulings(out)[0].reason
    s.press("dispute", gesture="long")
    assert ("B17", "correct") in s.codes()
    assert s.state.phase == "moving" and s.state.on_roll == 0
    s.move("6/5", legal=False)  # completes 8/5 6/5
    s.press("clock", player=0)
    assert s.state.phase == "to_roll" and s.state.sides[0][4] == 2


def test_b17_legal_moves_policy_forces_correction():
    s = Script(illegal_move="must_correct")
    s.opening(3, 1)
    s.move("13/7", legal=False)
    out = s.pickup()
    assert s.codes(out) == [("B17", "must_correct")] and s.state.phase == "moving"


def test_b17_opponent_roll_makes_the_illegal_move_stand():
    s = Script()
    s.opening(3, 1)
    s.move("13/7", legal=False)
    s.pickup()
    out = s.roll(6, 4, player=1)
    assert ("B17", "stands") in s.codes(out)
    assert s.state.phase == "moving" and s.state.on_roll == 1 and s.state.dice == (6, 4)


def test_b17_opponent_double_makes_the_illegal_move_stand():
    s = Script()
    s.opening(3, 1)
    s.move("13/7", legal=False)
    s.pickup()
    out = s.press("double", player=1)
    assert ("B17", "stands") in s.codes(out)
    assert s.state.phase == "cube"


def test_b10_double_take_then_only_owner_redoubles():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    assert s.state.phase == "cube"
    s.press("take", player=0)
    assert s.state.cube == 2 and s.state.owner == 0 and s.state.phase == "to_roll"
    s.turn(6, 4, "24/18 13/9")
    s.turn(2, 1, "13/11 6/5")
    out = s.press("double", player=1)  # dark does not own the cube
    assert s.codes(out) == [("B10", "double_refused")] and "opponent" in s.rulings(out)[0].reason


def test_b10_double_after_rolling_is_refused():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.roll(6, 4)
    out = s.press("double", player=1)
    assert s.codes(out) == [("B10", "double_refused")] and "before rolling" in s.rulings(out)[0].reason


def test_b10_drop_ends_the_game_at_the_cube_before_the_double():
    s = Script(match_length=5)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    s.press("drop", player=0)
    [end] = s.ended()
    assert end.winner == 1 and end.points == 1 and end.kind == "drop"
    assert s.state.score == (0, 1) and s.state.phase == "game_over"


def test_b11_beaver_only_when_enabled():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    out = s.press("take", player=0, gesture="double")
    assert s.codes(out) == [("B11", "beaver_refused")]
    s2 = Script(beaver=True)
    s2.opening(3, 1)
    s2.move("8/5 6/5")
    s2.pickup()
    s2.press("double", player=1)
    out = s2.press("take", player=0, gesture="double")
    assert s2.codes(out) == [("B11", "beaver")] and s2.state.phase == "cube"  # B11: dark answers it
    out = s2.press("take", player=1)
    assert s2.codes(out) == [("B11", "take")]
    assert s2.state.cube == 4 and s2.state.owner == 0 and s2.state.phase == "to_roll"


def test_b11_original_doubler_drops_the_beaver_and_loses_the_beavered_stake():
    s = Script(beaver=True)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    s.press("take", player=0, gesture="double")
    s.press("drop", player=1)
    [end] = s.ended()
    assert end.winner == 0 and end.points == 2 and end.kind == "drop"


def test_b14_no_double_in_the_crawford_game():
    """Light reaches 2-0 in a 3-point match (dark drops his double): the next game is the Crawford game."""
    s = Script(match_length=3)
    s.state = game.State(settings=s.settings, score=(1, 0))
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.turn(6, 4, "24/18 13/9")
    s.press("double", player=0)
    s.press("drop", player=1)
    assert s.state.score == (2, 0) and s.state.phase == "game_over"
    s.sides = (game.start_side("backgammon"), game.start_side("backgammon"))
    s.dice, s.roller = (), None
    s.opening(3, 1)
    assert s.state.crawford_game
    s.move("8/5 6/5")
    s.pickup()
    out = s.press("double", player=1)
    assert s.codes(out) == [("B14", "double_refused")]


def _bearoff_win(**settings):
    """Light bears off his last two checkers; dark has borne off none and sits in light's home."""
    light = (1, 1) + (0,) * 23
    dark = [0] * 25
    dark[23] = 2  # dark's 24-point = light's 1-point: in the winner's home board
    dark[5] = 13
    s = Script(sides=(light, tuple(dark)), light_home="bottom-right", **settings)
    s.state = game.State(
        settings=s.settings, phase="to_roll", seating=s.seating, sides=s.sides, on_roll=0, game_number=1
    )
    s.roll(2, 1)
    s.move("2/off 1/off")
    s.pickup()
    return s


def test_b9_backgammon_scores_three_times_the_cube():
    s = _bearoff_win(match_length=7)
    [end] = s.ended()
    assert end.kind == "backgammon" and end.points == 3 and s.state.score == (3, 0)
    assert ("B9", "game_over") in s.codes()


def test_b9_backgammon_as_gammon_setting():
    s = _bearoff_win(match_length=7, backgammon_as_gammon=True)
    assert s.ended()[0].kind == "gammon" and s.ended()[0].points == 2


def test_b12_jacobi_in_money_play_with_the_cube_centred():
    s = _bearoff_win()
    assert s.ended()[0].kind == "single" and s.ended()[0].points == 1
    s2 = _bearoff_win(jacobi=False)
    assert s2.ended()[0].points == 3


def test_b14_match_ends_when_a_player_reaches_the_length():
    s = _bearoff_win(match_length=3)
    assert s.state.phase == "match_over" and s.ended()[0].match_over


def test_new_match_event_resets_with_its_settings():
    s = Script()
    s.opening(3, 1)
    s.feed(MatchStarted(settings=Settings(match_length=5).to_json()))
    assert s.state.phase == "setup" and s.state.settings.match_length == 5


def test_device_offline_is_tracked():
    s = Script()
    s.feed(DeviceChanged(device="leds", online=False))
    assert s.state.offline == frozenset({"leds"})
    s.feed(DeviceChanged(device="leds", online=True))
    assert s.state.offline == frozenset()


# --- long nardy ---------------------------------------------------------------------------------


def test_n3_nardy_opening_winner_rolls_again():
    s = Script(variant="nardy", light_home="bottom-right")
    s.opening(2, 5)
    assert s.state.phase == "to_roll" and s.state.on_roll == 1
    s.roll(6, 6, player=1)
    assert s.state.phase == "moving" and s.state.dice == (6, 6)
    assert s.shows()[-1].legal == 1  # N5 first-roll exception: 24/18(2) only


def test_n5_head_rule_broken_is_an_illegal_move_n11():
    s = Script(variant="nardy", light_home="bottom-right")
    s.opening(5, 2)
    s.roll(5, 3, player=0)
    s.move("24/19 24/21")  # two checkers off the head: forbidden (N5)
    out = s.pickup()
    assert s.codes(out) == [("N11", "illegal")]
    s.press("dispute", gesture="long")
    assert ("N11", "correct") in s.codes()
    s.sides = (game.start_side("nardy"), game.start_side("nardy"))
    s.move("24/16")
    s.pickup()
    assert s.state.phase == "to_roll" and s.state.on_roll == 1


def test_n10_nardy_rethrow_when_dice_lie_on_both_halves():
    s = Script(variant="nardy", light_home="bottom-right")
    s.opening(5, 2)
    s.dice, s.roller = ((4, "flat"), (3, "flat")), None  # one die on each half
    out = s.look()
    assert s.codes(out) == [("N10", "rethrow")]


def test_n10_nardy_cocked_die_rethrow():
    s = Script(variant="nardy", light_home="bottom-right")
    s.opening(5, 2)
    out = s.roll(4, 3, status="cocked", player=0)
    assert s.codes(out) == [("N10", "rethrow")]


def test_n9_nardy_mars_and_no_cube():
    light = (2,) + (0,) * 24
    dark = tuple([0] * 12 + [15] + [0] * 12)
    s = Script(sides=(light, dark), variant="nardy", light_home="bottom-right", match_length=5)
    s.state = game.State(
        settings=s.settings, phase="to_roll", seating=s.seating, sides=s.sides, on_roll=0, game_number=1
    )
    out = s.press("double", player=0)
    assert "without the cube" in out[0].text
    s.roll(2, 1)
    s.move("1/off 1/off")
    s.pickup()
    [end] = s.ended()
    assert end.kind == "mars" and end.points == 2
    assert ("N9", "game_over") in s.codes()


def test_b17_correction_is_seen_by_the_camera_after_the_demand():
    s = Script()
    s.opening(3, 1)
    s.move("13/7", legal=False)
    s.pickup()
    s.press("dispute", gesture="long")
    s.sides = (game.start_side("backgammon"), game.start_side("backgammon"))
    s.look()  # checkers back: still no legal play on the board, no new ruling
    assert s.state.phase == "moving" and s.codes()[-1] == ("B17", "correct")
    s.move("8/5 6/5")
    assert s.state.phase == "to_roll" and s.state.on_roll == 1


def test_lifted_checker_lights_its_destinations():
    s = Script()
    s.opening(3, 1)
    light = list(s.sides[0])
    light[23] -= 1  # a back checker is in light's hand
    s.sides = (tuple(light), s.sides[1])
    s.look()
    frame = [e for e in s.leds() if e.why == "destinations"][-1].frame
    assert frame.lit_zones() == {23, 22, 20, 19}  # from 24: to 23, 21, 20


def test_hint_on_request_in_home_play_and_none_at_a_referee_station():
    s = Script(hints="home")
    s.opening(3, 1)
    assert not s.leds()  # home play: no LEDs unasked
    out = s.press("clock", player=0, gesture="long")
    [hint] = [e for e in out if isinstance(e, Hint)]
    assert hint.leds and hint.dice == (3, 1) and len(hint.plays) == 16
    r = Script(hints="referee")
    r.opening(3, 1)
    out = r.press("clock", player=0, gesture="long")
    assert "referee" in out[0].text and not r.leds()


def _nardy_light_bears_off_last(dark: tuple[int, ...], starter: int, **settings):
    """A 5-point nardy match, game 1, light on roll with his last two checkers on his 1-point and
    ``dark``'s checkers where given; light rolls 2-1 and bears both off."""
    light = (2,) + (0,) * 24
    s = Script(sides=(light, dark), variant="nardy", light_home="bottom-right", match_length=5, **settings)
    s.state = game.State(
        settings=s.settings,
        phase="to_roll",
        seating=s.seating,
        sides=s.sides,
        on_roll=0,
        game_number=1,
        starter=starter,
    )
    s.roll(2, 1)
    s.move("1/off 1/off")
    return s


def _nardy_game_over(starter=1, **settings):
    s = _nardy_light_bears_off_last(tuple([0] * 12 + [15] + [0] * 12), starter, **settings)
    s.pickup()
    assert s.state.phase == "game_over" and s.state.last_winner == 0
    s.sides = (game.start_side("nardy"), game.start_side("nardy"))
    s.look()
    return s


def test_n3_next_nardy_game_black_starts_without_an_opening_roll():
    s = _nardy_game_over()
    assert (
        s.state.phase == "to_roll" and s.state.on_roll == 0 and s.state.game_number == 2
    )  # dark started game 1


def test_n3_next_nardy_game_winner_starts_setting():
    s = _nardy_game_over(starter=0, nardy_next_game="winner")
    assert s.state.on_roll == 0 and s.state.starter == 0  # light started and won: he starts again
    a = _nardy_game_over(starter=0)
    assert a.state.on_roll == 1  # alternate: dark had black


def test_b14_crawford_then_post_crawford_doubling_allowed():
    s = Script(match_length=3)
    s.state = game.State(
        settings=s.settings, score=(2, 0), crawford_done=True
    )  # Crawford game already played
    s.opening(3, 1)
    assert not s.state.crawford_game
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    assert s.state.phase == "cube"


def test_b6_hits_on_a_board_without_a_bar_are_followed():
    """A paper board has no bar: hit checkers lie beside it, unseen; the referee keeps them on the bar
    and the game runs to its end without a dispute."""
    from controller.station import replay
    from controller.station.demo import scripted_events

    state, effects = replay(scripted_events(3, has_bar=False, settings=Settings(hints="referee")))
    from controller.game.effects import Announce

    assert state.phase == "game_over"
    assert [e.ruling.code for e in effects if isinstance(e, Announce)] == ["rethrow", "game_over"]
    assert any(m[0] == 25 for rec in state.records for t in rec.turns for m in t.moves)  # bar entries made


def test_n9_koks_setting_when_no_checker_came_home():
    light = (2,) + (0,) * 24
    dark = tuple([0] * 12 + [15] + [0] * 12)  # all on dark's 13-point: none home
    s = Script(sides=(light, dark), variant="nardy", light_home="bottom-right", match_length=5, koks=True)
    s.state = game.State(
        settings=s.settings, phase="to_roll", seating=s.seating, sides=s.sides, on_roll=0, game_number=1
    )
    s.roll(2, 1)
    s.move("1/off 1/off")
    s.pickup()
    assert s.ended()[0].kind == "koks" and s.ended()[0].points == 3


def test_b15_no_ruling_on_an_implausible_dice_reading():
    """Eleven "dice" cannot lie on a board: the reading is not trusted, no re-throw is ruled."""
    from dataclasses import replace

    from controller.game.events import DieSeen
    from controller.station.demo import seen

    s = Script()
    ev = seen(s.sides, t=1.0)
    junk = tuple(DieSeen(2, "off_board", 3, 0.9) for _ in range(11))
    s.feed(ev)
    out = s.feed(replace(ev, t=2.0, dice=junk))
    assert s.codes(out) == [] and s.state.phase in ("setup", "free")
    weak = (DieSeen(3, "cocked", 2, 0.2), DieSeen(1, "flat", 14, 0.3))
    out = s.feed(replace(ev, t=3.0, dice=weak))
    assert s.codes(out) == []


def test_buttons_outside_a_game_do_nothing_harmful():
    s = Script()
    for button in ("double", "take", "drop", "dispute", "clock"):
        s.press(button)
    assert s.rulings() == [] and s.state.phase == "setup"


def _nardy_white_bears_off_last(dark_on_one: int, **settings):
    """Light (white: he made the first move) bears off his last two checkers; dark (black) has
    ``dark_on_one`` checkers left, all on his 1-point, the rest borne off."""
    s = _nardy_light_bears_off_last((dark_on_one,) + (0,) * 24, 0, **settings)
    s.pickup()
    return s


def test_n9_draw_setting_black_bears_off_all_with_his_last_roll():
    s = _nardy_white_bears_off_last(2, nardy_draw=True)
    assert s.codes() == [("N9", "last_roll")] and not s.ended()
    assert s.state.phase == "to_roll" and s.state.on_roll == 1  # black's last roll
    s.roll(2, 1)
    s.move("1/off 1/off")
    s.pickup()
    [end] = s.ended()
    assert end.winner is None and end.kind == "draw" and end.points == 0
    assert s.codes()[-1] == ("N9", "draw") and s.state.score == (0, 0) and s.state.phase == "game_over"
    s.sides = (game.start_side("nardy"), game.start_side("nardy"))
    s.look()
    assert s.state.on_roll == 1 and s.state.game_number == 2  # N3: black of the drawn game starts


def test_n9_draw_setting_last_roll_that_does_not_finish_loses():
    s = _nardy_white_bears_off_last(3, nardy_draw=True)
    s.roll(2, 1)
    s.move("1/off 1/off")  # one checker left: white wins, an oin (black bore off some)
    s.pickup()
    [end] = s.ended()
    assert end.winner == 0 and end.kind == "oin" and end.points == 1 and s.state.score == (1, 0)
    assert [c for c in s.codes() if c[0] == "N9"] == [("N9", "last_roll"), ("N9", "game_over")]


def test_n9_draw_setting_off_by_default_white_wins_at_once():
    s = _nardy_white_bears_off_last(2)
    [end] = s.ended()
    assert end.winner == 0 and end.kind == "oin" and s.codes() == [("N9", "game_over")]


def test_b15_dice_mixed_on_request_at_the_start_of_a_game():
    s = Script()
    s.look()
    out = s.press("dispute", gesture="long")
    assert s.codes(out) == [("B15", "mix")]
    s.opening(3, 1)
    assert s.state.phase == "moving"  # the request changes nothing else


def test_b15_dice_mixing_refused_mid_game():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    out = s.press("dispute", gesture="long")
    assert s.codes(out) == [("B15", "mix_refused")]
    assert s.state.phase == "to_roll" and s.state.on_roll == 1
    s.roll(6, 4)
    assert s.state.phase == "moving" and s.state.dice == (6, 4)


def test_b15_dice_mixing_not_in_nardy_and_short_press_still_means_nothing_to_dispute():
    s = Script(variant="nardy")
    s.look()
    assert s.codes(s.press("dispute", gesture="long")) == []
    b = Script()
    b.look()
    assert b.codes(b.press("dispute")) == []


def _partial_start() -> tuple[int, ...]:
    """The start position less the two checkers on the 24-point and one of the 13-point: 12 checkers,
    a game joined in progress (free play, no game record to check against)."""
    side = list(game.start_side("backgammon"))
    side[23], side[12] = 0, 4
    return tuple(side)


def test_b17_free_play_judges_the_finished_turn_not_a_half_played_one():
    """RULES.md B17: a *finished* turn is judged. In free play (a partial position: no game under way)
    the turn is over when its dice leave the board; a board seen with the roll still lying there may
    be half played (seen on the webcam game 'minta': 5/2 of a 3-2 ruled illegal, then the finished
    5/3 5/2 ruled illegal against the half-played board)."""
    s = Script(sides=(_partial_start(), _partial_start()))
    s.look()
    assert s.state.phase == "free"
    s.dice, s.roller = ((3, "flat"), (2, "flat")), 0
    s.look()
    light = list(s.sides[0])
    light[5], light[2] = 4, 1  # 6/3 of the 3-2: half the play, the dice still on the board
    s.sides = (tuple(light), s.sides[1])
    half = s.look()
    assert s.codes(half) == []
    light[5], light[3] = 3, 1  # 6/4: the play is 6/3 6/4
    s.sides = (tuple(light), s.sides[1])
    assert s.codes(s.look()) == []
    done = s.pickup()  # the dice leave the board: the turn is over, and judged
    assert s.codes(done) == []
    assert any("played 3-2" in getattr(e, "text", "") and "(legal)" in getattr(e, "text", "") for e in done)


def test_b17_free_play_still_disputes_a_finished_illegal_turn():
    s = Script(sides=(_partial_start(), _partial_start()))
    s.look()
    s.dice, s.roller = ((3, "flat"), (2, "flat")), 0
    s.look()
    light = list(s.sides[0])
    light[5], light[0] = 4, 1  # 6/1: the 3-2 played with one checker
    light[7], light[6] = 2, 1  # and 8/7: a pip no die shows
    s.sides = (tuple(light), s.sides[1])
    assert s.codes(s.look()) == []  # not yet: the dice are still there
    assert s.codes(s.pickup()) == [("B17", "dispute")]


def test_b17_free_play_names_the_player_whose_checkers_moved():
    """Free play knows the roller only by the half his dice lie on. Dice on light's half, but only
    dark's checkers moved, by a legal play of the roll: dark played it (the webcam game 'minta' rolls
    every roll onto one half), no dispute."""
    s = Script(sides=(_partial_start(), _partial_start()))
    s.look()
    s.dice, s.roller = ((3, "flat"), (2, "flat")), 0
    s.look()
    dark = list(s.sides[1])
    dark[5], dark[2], dark[3] = 3, 1, 1  # dark's 6/3 6/4
    s.sides = (s.sides[0], tuple(dark))
    done = s.pickup()
    assert s.codes(done) == []
    assert any("dark played 3-2" in getattr(e, "text", "") for e in done)


def test_b15_rethrow_signal_goes_dark_at_the_next_roll_in_tournament_mode():
    """Issue 15: under the tournament preset nothing else lights the LEDs, so the re-throw frame must
    be cleared once the re-throw is done, not stay on for the rest of the game."""
    s = Script(hints="referee")
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.roll(6, 4, status="cocked")
    assert s.leds()[-1].why == "re-throw" and len(s.leds()[-1].frame.lit_zones()) >= 24
    s.pickup()
    assert s.leds()[-1].why == "re-throw"  # still waiting for the new throw
    out = s.roll(6, 4)
    assert s.state.phase == "moving"
    [dark] = [e for e in out if isinstance(e, Leds)]
    assert dark.frame.lit_zones() == set()
    s.move("24/18 13/9")
    s.pickup()
    s.turn(3, 1, "8/5 6/5")
    assert s.leds()[-1] is dark  # nothing lit since


def test_b15_referee_rethrow_undone_turns_the_signal_off():
    s = Script(hints="referee")
    s.opening(3, 1)
    s.feed(RefereeAction(t=s.t + 0.1, action="rethrow"))
    assert s.leds()[-1].why == "re-throw"
    out = s.feed(RefereeAction(t=s.t + 0.2, action="undo"))
    assert [e.frame.lit_zones() for e in out if isinstance(e, Leds)] == [set()]


def test_b15_rethrow_signal_gives_way_to_the_assistant_frame():
    s = Script()
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.roll(6, 4, status="cocked")
    s.pickup()
    out = s.roll(6, 4)
    assert [e.why for e in out if isinstance(e, Leds)] == ["movable points"]
