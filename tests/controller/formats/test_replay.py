"""Replaying records through the rules core: legal plays, cube (RULES.md B10-B14), results (B9), score."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from controller.formats.mat import parse_mat, write_mat
from controller.formats.matchfile import read_record
from controller.formats.record import (
    Action,
    Double,
    Game,
    MatchRecord,
    PlayNote,
    Roll,
    Step,
    Take,
)
from controller.formats.replay import (
    GameEnd,
    ProblemKind,
    apply_recorded,
    canonical_record,
    match_play,
    replay_match,
)
from controller.rules import Position, legal_plays
from tests.controller.formats.test_record_strategies import FIXTURES, mat_records, sgf_records

_EMPTY = (0,) * 25


def _side(points: dict[int, int]) -> tuple[int, ...]:
    side = [0] * 25
    for point, count in points.items():
        side[24 if point == 25 else point - 1] = count
    return tuple(side)


@pytest.mark.parametrize(
    "name", ["fibs_style.mat", "galaxy_style.txt", "studio_style.txt", "gnubg_style.sgf"]
)
def test_legal_fixtures_replay_clean(name: str) -> None:
    replay = replay_match(read_record(FIXTURES / name))
    assert replay.problems == ()
    assert all(g.score_ok and g.followed for g in replay.games)


def test_fixture_results() -> None:
    fibs = replay_match(read_record(FIXTURES / "fibs_style.mat"))
    assert [(g.end, g.value, g.cube, g.roll_then_resign) for g in fibs.games] == [
        (GameEnd.DROPPED, 2, 2, False),  # a drop of a redouble to 4 wins the 2 cube (RULES.md B10)
        (GameEnd.RESIGNED, None, 1, True),  # a roll, nothing played, then the opponent's "Wins"
    ]
    assert (fibs.final_score, fibs.winner, fibs.result_text) == ((0, 3), 1, "Boris wins 0-3 (of 3)")
    studio = replay_match(read_record(FIXTURES / "studio_style.txt"))
    assert studio.games[0].roll_then_resign and studio.winner is None  # "????" then Wins; match unfinished
    assert studio.result_text == "unfinished at 2-0 (of 7)"


def test_planted_illegal_play_is_reported_with_game_and_move() -> None:
    replay = replay_match(read_record(FIXTURES / "gammonview_style.mat"))
    assert [(p.kind, p.game, p.move, p.player, p.text, p.line) for p in replay.problems] == [
        (ProblemKind.ILLEGAL_PLAY, 1, 3, 1, "12: 13/9", 17)
    ]
    assert replay.games[0].score_ok  # the illegal play stood (RULES.md B17); the resignation is scored


def test_planted_cube_and_score_errors_rules_b10_b14() -> None:
    replay = replay_match(read_record(FIXTURES / "planted_errors.mat"))
    found = [(p.kind, p.game, p.move, p.player, p.text) for p in replay.problems]
    assert found == [
        (ProblemKind.ILLEGAL_CUBE, 1, 3, 1, "Doubles => 4"),  # B10: only the owner redoubles
        (ProblemKind.ILLEGAL_PLAY, 2, 2, 0, "21: 13/9"),
        (ProblemKind.SCORE, 2, 0, -1, ""),  # 0-2 plus 1 is not the 0-4 game 3 starts at
        (ProblemKind.ILLEGAL_CUBE, 3, 1, 1, "Doubles => 2"),  # B14: no double in the Crawford game
    ]
    assert [g.score_ok for g in replay.games] == [True, False, True]


def test_apply_recorded_in_any_written_order_and_hits_rules_b6() -> None:
    start = Position.initial()
    chain = apply_recorded(start, (Step(20, 16), Step(24, 20)))  # written out of order
    assert chain == apply_recorded(start, (Step(24, 20), Step(20, 16)))
    assert chain is not None and chain.me[15] == 1 and chain.me[23] == 1
    blot = Position(_side({13: 1}), _side({14: 1, 6: 14}))  # his blot on his 14 = my 11
    hit = apply_recorded(blot, (Step(13, 11),))
    assert hit is not None and hit.opp[24] == 1 and hit.opp[13] == 0
    assert apply_recorded(start, (Step(12, 7),)) is None  # nothing on my 12


def test_merged_hop_that_hit_on_the_way_matches_the_only_legal_play_rules_b4() -> None:
    # my checker on 13; his blot on my 11, his point on my 7: 6-2 must go 13/11*/5.
    position = Position(_side({13: 1, 6: 14}), _side({14: 1, 18: 2, 6: 12}))
    play, why = match_play(position, Roll(0, (6, 2), (Step(13, 5),)))
    assert why == "" and play is not None and play.result.opp[24] == 1
    assert play.moves[0][:2] == (13, 11) and play.moves[0].hit


def test_nothing_played_with_legal_plays_is_illegal_unless_the_game_ends_there() -> None:
    opening = Roll(0, (3, 1))
    game = Game(1, (0, 0), (opening, Roll(1, (6, 5), (Step(24, 18), Step(18, 13)))), None)
    replay = replay_match(MatchRecord(5, ("A", "B"), (game,)))
    assert [(p.kind, p.move, p.text) for p in replay.problems] == [(ProblemKind.ILLEGAL_PLAY, 0, "31:")]
    resigned = Game(1, (0, 0), (Roll(0, (3, 1), (Step(8, 5), Step(6, 5))), Roll(1, (6, 5))), 0, 1)
    clean = replay_match(MatchRecord(5, ("A", "B"), (resigned,)))
    assert clean.problems == () and clean.games[0].roll_then_resign


def test_cube_actions_out_of_sequence() -> None:
    game = Game(1, (0, 0), (Take(1), Double(0, 4), Roll(1, (3, 1), (Step(8, 5), Step(6, 5)))), None)
    kinds = [(p.kind, p.text) for p in replay_match(MatchRecord(5, ("A", "B"), (game,))).problems]
    assert kinds == [
        (ProblemKind.ILLEGAL_CUBE, "Takes"),
        (ProblemKind.ILLEGAL_CUBE, "Doubles => 4"),
        (ProblemKind.OUT_OF_TURN, "31: 8/5 6/5"),
    ]


def test_after_a_fibs_illegal_play_marker_the_position_is_not_followed() -> None:
    actions: tuple[Action, ...] = (
        Roll(0, (3, 1), (Step(8, 5), Step(6, 5))),
        Roll(1, (2, 1), note=PlayNote.ILLEGAL_MARKER, raw="(1;2;3)"),
        Roll(0, (6, 6), (Step(2, 1),)),  # nonsense, but the position is lost
    )
    replay = replay_match(MatchRecord(3, ("A", "B"), (Game(1, (0, 0), actions, 1, 1),)))
    assert [p.kind for p in replay.problems] == [ProblemKind.LOST_POSITION]
    assert not replay.games[0].followed and replay.games[0].score_ok


def test_a_player_who_left_forfeits() -> None:
    game = Game(1, (0, 0), (Roll(0, (3, 1), (Step(8, 5), Step(6, 5))), Roll(1, (6, 3))), 0, 100)
    replay = replay_match(MatchRecord(5, ("A", "B"), (game,)))
    assert replay.problems == () and replay.games[0].end is GameEnd.FORFEIT and replay.winner == 0


def _random_game(seed: int, double_at: int | None) -> tuple[tuple[Action, ...], int]:
    """A whole game of random legal plays (and one double/take), ending when a side bears off."""
    rng = random.Random(seed)
    position = Position.initial()
    player = 0
    actions: list[Action] = []
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    turn = 0
    while True:
        if double_at is not None and turn == double_at:
            actions += [Double(player, 2), Take(1 - player)]
        plays = legal_plays(position, d1, d2)
        if plays:
            play = rng.choice(plays)
            steps = tuple(Step(m.src, m.dst, m.hit) for m in play.moves)
            position = play.result
        else:
            steps = ()
        actions.append(Roll(player, (d1, d2), steps))
        if not any(position.me):
            return tuple(actions), player
        position = position.swapped()
        player = 1 - player
        turn += 1
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


@pytest.mark.parametrize("seed", range(6))
def test_whole_random_games_score_by_the_rules_b9(seed: int) -> None:
    actions, winner = _random_game(seed, double_at=seed + 3)
    probe = replay_match(MatchRecord(0, ("A", "B"), (Game(1, (0, 0), actions, winner, 1),)))
    value = probe.games[0].value
    assert probe.games[0].end is GameEnd.BORNE_OFF and value in (2, 4, 6)
    record = MatchRecord(25, ("A", "B"), (Game(1, (0, 0), actions, winner, value),
                                          Game(2, (value, 0) if winner == 0 else (0, value))))
    record = parse_mat(write_mat(record))  # through the writer and reader
    replay = replay_match(record)
    assert replay.problems == () and replay.games[0].score_ok
    wrong = MatchRecord(25, ("A", "B"), (Game(1, (0, 0), actions, winner, value + 1),))
    assert [p.kind for p in replay_match(wrong).problems] == [ProblemKind.RESULT]


def test_match_end_may_record_only_the_points_needed() -> None:
    actions, winner = _random_game(1, double_at=4)
    probe = replay_match(MatchRecord(0, ("A", "B"), (Game(1, (0, 0), actions, winner, 1),)))
    value = probe.games[0].value
    assert value is not None and value > 1
    # double match point (6-6 of 7, not the Crawford game): the winner needed 1 point; Galaxy writes 1
    capped = MatchRecord(7, ("A", "B"), (Game(1, (6, 6), actions, winner, 1, True),))
    replay = replay_match(capped)
    assert replay.problems == () and replay.winner == winner


def test_canonical_record_writes_one_step_per_die_with_hits() -> None:
    record = read_record(FIXTURES / "studio_style.txt")
    canonical = canonical_record(record)
    rolls = [a for a in canonical.games[0].actions if isinstance(a, Roll)]
    assert rolls[1].steps == (Step(24, 20, True), Step(20, 14, True))
    assert sorted(map(str, rolls[3].steps)) == ["13/8", "13/8", "8/3", "8/3"]  # 13/3(2) with 5-5
    assert rolls[2].note is PlayNote.CANNOT_MOVE and rolls[-1].note is PlayNote.UNPLAYED
    assert replay_match(canonical).problems == ()
    illegal = read_record(FIXTURES / "gammonview_style.mat")
    kept = canonical_record(illegal).games[0].actions[4]
    assert str(kept) == "12: 13/9" and kept == illegal.games[0].actions[4]  # illegal: kept as written


def test_impossible_dice_are_reported_not_raised() -> None:
    game = Game(1, (0, 0), (Roll(0, (0, 7), (Step(8, 5),)),), None)
    problems = replay_match(MatchRecord(5, ("A", "B"), (game,))).problems
    assert [(p.kind, p.text) for p in problems] == [(ProblemKind.ILLEGAL_PLAY, "07: 8/5")]


@settings(max_examples=100, deadline=None)
@given(mat_records() | sgf_records())
def test_replay_never_raises_on_any_record(record: MatchRecord) -> None:
    replay = replay_match(record)
    assert len(replay.games) == len(record.games)
    canonical_record(record)
