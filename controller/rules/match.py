"""Match score and the Crawford rule (RULES.md B14), as pure functions on a frozen value.

A match to N points (``length``) or money play (``length == 0``: unlimited games, no winner).
The Crawford game is the one game after a player first comes within one point of winning the
match; neither player may double in it. Later games are post-Crawford: doubling is allowed again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.rules.cube import GameResult, Player
from controller.rules.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands between games.

    :param length: points to win; 0 = money play.
    :param score: points of player 0 and player 1.
    :param crawford_game: the next (or current) game is the Crawford game (no doubling).
    :param post_crawford: the Crawford game has been played: doubling is allowed again.
    :param games: games finished so far.
    :param crawford_rule: the Crawford rule is in force (RULES.md B14 setting; default on).
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford_game: bool = False
    post_crawford: bool = False
    games: int = 0
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        if self.length < 0:
            raise ValueError(f"match length {self.length} is negative (0 = money play)")
        if len(self.score) != 2 or min(self.score) < 0:
            raise ValueError(f"match score {self.score!r} is not two non-negative numbers")

    @property
    def money(self) -> bool:
        """True in money play."""
        return self.length == 0

    @property
    def winner(self) -> Player | None:
        """The player who has won the match (score >= length), or None (always None in money play)."""
        if self.money:
            return None
        if self.score[0] >= self.length:
            return 0
        if self.score[1] >= self.length:
            return 1
        return None

    @property
    def is_over(self) -> bool:
        """True when the match has a winner."""
        return self.winner is not None

    def away(self, player: Player) -> int:
        """Points ``player`` still needs (0 once he has won). :raises ValueError: in money play."""
        if self.money:
            raise ValueError("money play has no match length")
        return max(0, self.length - self.score[player])

    def may_double(self) -> bool:
        """False in the Crawford game (RULES.md B14) or once the match is over."""
        return not self.crawford_game and not self.is_over


def record_game(match: MatchState, result: GameResult) -> MatchState:
    """The match after ``result``: the winner's points added, and the Crawford flags moved on.

    The next game is the Crawford game when this game brought a player to exactly one point from
    the match for the first time (and the match goes on); the game after the Crawford game is
    post-Crawford (RULES.md B14).

    :raises IllegalActionError: ``game_over`` when the match is already won.
    """
    if match.is_over:
        raise IllegalActionError("game_over", f"the match is over at {match.score[0]}-{match.score[1]}")
    score = list(match.score)
    score[result.winner] += result.points
    new_score = (score[0], score[1])
    crawford_next = False
    post = match.post_crawford or match.crawford_game
    if (
        match.crawford_rule
        and not match.money
        and not post
        and max(new_score) < match.length
        and match.length - 1 in new_score
    ):
        crawford_next = True
    return replace(
        match, score=new_score, crawford_game=crawford_next, post_crawford=post, games=match.games + 1
    )
