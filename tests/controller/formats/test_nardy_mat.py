"""Long nardy matches as .mat (the flavour of controller.formats.nardy_mat): written, read back,
and replayed through the long nardy rules (RULES.md N4-N9)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from controller.formats.mat import parse_mat
from controller.formats.nardy_mat import check_nardy, is_nardy, write_nardy_mat
from controller.formats.record import Double, Game, MatchRecord, Roll, Step
from controller.rules.nardy import NardyPosition, legal_plays
from controller.rules.nardy.result import score


def _random_game(seed: int, number: int = 1, start: tuple[int, int] = (0, 0)) -> Game:
    """A whole game of random legal plays, player 0 (White) first, scored by the rules."""
    rng = random.Random(seed)
    position, mover, actions = NardyPosition.initial(), 0, []
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, *dice)
        play = rng.choice(plays) if plays else None
        steps = tuple(Step(m.src, m.dst) for m in play.moves) if play else ()
        actions.append(Roll(mover, dice, steps))
        position = play.result if play else position
        result = score(position)
        if result is not None:
            return Game(number, start, tuple(actions), mover, result.points)
        position, mover = position.swapped(), 1 - mover


def test_a_nardy_match_round_trips_through_mat_and_replays_clean_rule_n9() -> None:
    first = _random_game(1)
    second = _random_game(2, 2, (first.points, 0))
    record = MatchRecord(0, ("Ann", "Bob"), (first, second), (("Site", "Club"),))
    text = write_nardy_mat(record)
    assert text.startswith('; [Variation "LongNardy"]\n; [Site "Club"]')
    again = parse_mat(text)
    assert is_nardy(again) and again.games == record.games
    assert check_nardy(again) == []
    assert "/0" in text and "*" not in text and "25/" not in text  # no bar, no hits, 0 is off


def test_an_illegal_nardy_play_is_reported_with_game_and_move_rule_n5() -> None:
    game = _random_game(3)
    # two checkers off the head with 6-5 on the first roll: the head rule forbids it (N5)
    bad = Roll(0, (6, 5), (Step(24, 18), Step(24, 19)), number=1)
    record = MatchRecord(0, ("Ann", "Bob"), (replace(game, actions=(bad, *game.actions[1:])),))
    problems = check_nardy(record)
    assert problems and str(problems[0]).startswith("game 1, move 1: '65: 24/18 24/19' is not one of the")


def test_a_wrong_result_is_reported_rule_n9() -> None:
    game = _random_game(4)
    record = MatchRecord(0, ("Ann", "Bob"), (replace(game, points=game.points + 1),))
    assert any("the rules give" in str(p) for p in check_nardy(record))


def test_what_nardy_has_no_place_for_is_refused() -> None:
    cube = MatchRecord(0, ("Ann", "Bob"), (Game(1, (0, 0), (Double(0, 2),), None, 0),))
    with pytest.raises(ValueError, match="no cube"):
        write_nardy_mat(cube)
    draw = MatchRecord(0, ("Ann", "Bob"), (Game(1, (0, 0), (), None, 1),))
    with pytest.raises(ValueError, match="drawn game"):
        write_nardy_mat(draw)


def test_match_check_replays_a_nardy_record_by_the_nardy_rules(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from controller.cli import app

    record = MatchRecord(0, ("Ann", "Bob"), (_random_game(5),))
    path = tmp_path / "nardy.mat"
    path.write_text(write_nardy_mat(record))
    result = CliRunner().invoke(app, ["match", "check", str(path)])
    assert result.exit_code == 0, result.stdout
    assert "long nardy: Ann" in result.stdout and "findings 0" in result.stdout


def test_the_station_exports_a_finished_nardy_game_as_mat_rule_n9(tmp_path: Path) -> None:
    from controller import game as station_game
    from controller.formats.matchfile import read_record
    from controller.station.export import export_match
    from tests.controller.game.scripted import Script

    light = (2,) + (0,) * 24
    dark = tuple([0] * 12 + [15] + [0] * 12)
    s = Script(sides=(light, dark), variant="nardy", light_home="bottom-right", match_length=5)
    s.state = station_game.State(settings=s.settings, phase="to_roll", seating=s.seating, sides=s.sides,
                                 on_roll=0, game_number=1)
    s.roll(2, 1)
    s.move("1/off 1/off")
    s.pickup()
    [path] = export_match(s.state, tmp_path)
    assert path.suffix == ".mat"
    record = read_record(path)
    assert is_nardy(record) and record.length == 5
    assert (record.games[0].winner, record.games[0].points) == (0, 2)  # mars
    assert record.games[0].actions == (Roll(0, (2, 1), (Step(1, 0), Step(1, 0))),)


def test_match_convert_checks_a_nardy_record_by_the_nardy_rules_and_keeps_it_nardy(tmp_path: Path) -> None:
    """RULES.md N4-N9: a legal nardy record converts to nardy .mat; .sgf (backgammon only) is refused."""
    from typer.testing import CliRunner

    from controller.cli import app
    from controller.formats.matchfile import read_record

    record = MatchRecord(0, ("Ann", "Bob"), (_random_game(5),))
    source = tmp_path / "n3.mat"
    source.write_text(write_nardy_mat(record))
    out = tmp_path / "out.mat"
    result = CliRunner().invoke(app, ["match", "convert", str(source), str(out)])
    assert result.exit_code == 0, result.output
    again = read_record(out)
    assert is_nardy(again) and again.games == record.games and check_nardy(again) == []
    for extra in ([], ["--as-written"]):
        result = CliRunner().invoke(app, ["match", "convert", str(source), str(tmp_path / "out.sgf"), *extra])
        assert result.exit_code == 2
        assert "long nardy" in result.output and "SGF" in result.output
        assert len(result.output.strip().splitlines()) == 1
        assert not (tmp_path / "out.sgf").exists()
