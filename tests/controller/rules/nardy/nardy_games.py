"""Random legal long nardy games played to the end, checking every invariant on the way.

Shared by the hypothesis property test (a few dozen games in the default run) and the 10,000-game
self-play run (slow). Each check is stated independently of the generator: it replays each play's
single-die steps on its own and counts what it sees.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from controller.rules.nardy import (
    BlockRule,
    FirstMove,
    NardyPlay,
    NardyPosition,
    NardySettings,
    NardyStatus,
    ResultKind,
    TurnEnd,
    end_of_turn,
    is_first_roll,
    legal_plays,
    opening_dice,
    opening_winner,
)
from controller.rules.nardy.randomgame import choose_play

#: No game played by the rules lasts this long; reaching it is itself a broken invariant.
MAX_TURNS = 3000


class InvariantBroken(AssertionError):
    """A rule of RULES.md N1-N9 broken in a random game; the message says which, where."""


@dataclass
class GameRecord:
    turns: int
    kind: ResultKind
    points: int
    white_off: int
    black_off: int


def _illegal_block_after(me: tuple[int, ...], opp: tuple[int, ...], after_home: bool) -> list[int]:
    # Independent restatement of RULES.md N6: six of the opponent's points in a row, all mine, and
    # none of his checkers below them (nor borne off) -- or, after-home, none of his home yet.
    off = 15 - sum(opp)
    bad = []
    for q in range(1, 20):
        mine = [me[(r - 12 if r > 12 else r + 12) - 1] for r in range(q, q + 6)]
        if all(mine):
            past = off + sum(opp[: q - 1])
            home = off + sum(opp[:6])
            if past == 0 or (after_home and home == 0):
                bad.append(q)
    return bad


def check_play(
    before: NardyPosition, play: NardyPlay, dice: tuple[int, int], settings: NardySettings, first: bool
) -> None:
    """Replay ``play``'s steps on ``before`` and check N4, N5, N6 (strict/after-home), N8 and counts."""
    me = list(before.me)
    opp = before.opp
    opp_points = {(r - 12 if r > 12 else r + 12) for r in range(1, 25) if opp[r - 1]}
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    head_moves = 0
    after_home = settings.block_rule == BlockRule.AFTER_HOME
    blocks_before = set(_illegal_block_after(before.me, opp, after_home))
    for move in play.moves:
        if move.hit:
            raise InvariantBroken(f"a hit in nardy: {play}")
        if me[move.src - 1] <= 0:
            raise InvariantBroken(f"no checker on {move.src} for {move} in {before}")
        distance = move.src - move.dst
        if move.dst == 0:
            if any(me[6:]):
                raise InvariantBroken(f"bore off with checkers outside home: {play} from {before}")
            usable = [d for d in pool if d == move.src or (d > move.src and not any(me[move.src : 6]))]
        else:
            if move.dst in opp_points:
                raise InvariantBroken(f"landed on an opposing checker: {move} in {before}")
            usable = [d for d in pool if d == distance]
        if not usable:
            raise InvariantBroken(f"{move} uses no die of {dice} (left {pool}) from {before}")
        pool.remove(min(usable))
        head_moves += move.src == 24
        me[move.src - 1] -= 1
        if move.dst:
            me[move.dst - 1] += 1
        if settings.block_rule != BlockRule.TRANSIENT:
            if not set(_illegal_block_after(tuple(me), opp, after_home)) <= blocks_before:
                raise InvariantBroken(f"illegal block mid-turn ({settings.block_rule}): {play} from {before}")
    if tuple(me) != play.result.me or play.result.opp != opp:
        raise InvariantBroken(f"steps of {play} do not lead to its result from {before}")
    if not set(_illegal_block_after(tuple(me), opp, after_home)) <= blocks_before:
        raise InvariantBroken(f"illegal block at the end of the turn: {play} from {before}")
    exception = first and dice[0] == dice[1] and dice[0] in (3, 4, 6)
    if head_moves > (2 if exception else 1):
        raise InvariantBroken(f"{head_moves} checkers off the head: {play} from {before}")


def play_game(rng: random.Random, settings: NardySettings, block_bias: float = 0.3) -> GameRecord:
    """Play one game with random legal plays, checking every invariant; returns how it ended."""
    while (winner := opening_winner(rng.randint(1, 6), rng.randint(1, 6))) is None:
        pass
    del winner  # the seat that won the one-die roll plays white; seats do not matter here
    opening = opening_dice(*sorted((rng.randint(1, 6), rng.randint(1, 6))), settings)
    if settings.first_move == FirstMove.OPENING_DICE:
        while opening is None:
            opening = opening_dice(rng.randint(1, 6), rng.randint(1, 6), settings)
    position = NardyPosition.initial()  # white on roll
    off = {True: 0, False: 0}  # borne off, counted from the plays: white (True) / black (False)
    white_to_move = True
    last_roll = False
    for turn in range(MAX_TURNS):
        dice = opening if turn == 0 and opening else (rng.randint(1, 6), rng.randint(1, 6))
        first = turn < 2
        if is_first_roll(position) != first:
            raise InvariantBroken(f"turn {turn}: all on the head is {not first}, but first roll is {first}")
        plays = legal_plays(position, dice[0], dice[1], settings, first_roll=first)
        if len({p.result for p in plays}) != len(plays):
            raise InvariantBroken(f"two plays with one result for {dice} from {position}")
        if plays:
            play = choose_play(plays, rng, block_bias)
            check_play(position, play, dice, settings, first)
            off[white_to_move] += sum(1 for m in play.moves if m.dst == 0)
            position = play.result
        status = position.status() & ~NardyStatus.BLOCK_OPP
        if last_roll:
            status &= ~NardyStatus.BOTH_FINISHED  # N9 draw: black finished in his last roll
        if status:
            raise InvariantBroken(f"turn {turn}: impossible position {position} ({status!r})")
        if sum(position.me) + off[white_to_move] != 15 or sum(position.opp) + off[not white_to_move] != 15:
            raise InvariantBroken(f"turn {turn}: checkers lost or made: {position}, off {off}")
        state, result = end_of_turn(position, settings, mover_is_white=white_to_move, last_roll=last_roll)
        if state == TurnEnd.GAME_OVER:
            assert result is not None
            _check_result(position, result.kind, result.points, settings, last_roll)
            return GameRecord(turn + 1, result.kind, result.points, off[True], off[False])
        last_roll = state == TurnEnd.LAST_ROLL
        if last_roll and (white_to_move is False or not settings.draw):
            raise InvariantBroken("a last roll given to white, or without the draw setting")
        position = position.swapped()
        white_to_move = not white_to_move
    raise InvariantBroken(f"no result after {MAX_TURNS} turns: {position}")


def _check_result(
    position: NardyPosition, kind: ResultKind, points: int, settings: NardySettings, last_roll: bool
) -> None:
    me_done, opp_done = not any(position.me), not any(position.opp)
    if kind == ResultKind.DRAW:
        if not (last_roll and me_done and opp_done and settings.draw) or points != 0:
            raise InvariantBroken(f"draw without black's last roll bearing off all: {position}")
        return
    if me_done == opp_done:
        raise InvariantBroken(f"scored {kind} but finished me={me_done} opp={opp_done}: {position}")
    loser = position.opp if me_done else position.me
    if sum(loser) < 15:
        expected, value = ResultKind.OIN, 1  # N9: the loser bore off at least one
    elif settings.koks and not any(loser[:6]):
        expected, value = ResultKind.KOKS, 3
    else:
        expected, value = ResultKind.MARS, 2
    if (kind, points) != (expected, value):
        raise InvariantBroken(f"scored {kind} {points}, expected {expected} {value}: {position}")
