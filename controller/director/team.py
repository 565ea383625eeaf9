"""A team match: three boards, two wins needed (RULES.md B18).

Each board is an ordinary match with named sides; the team whose players have won two of the three
board matches wins the team match, decided as soon as one has two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.club.url import ClubError

BOARDS = 3
WINS_NEEDED = 2


@dataclass(frozen=True)
class TeamMatch:
    """``home`` plays light on every board of ``boards`` (three board names), ``away`` dark."""

    home: str
    away: str
    boards: tuple[str, str, str]

    @classmethod
    def parse(cls, text: str) -> TeamMatch:
        """``HOME:AWAY:B1,B2,B3`` (``--team``).

        :raises ClubError: when it is not three distinct boards and two team names.
        """
        parts = text.split(":")
        boards = tuple(b.strip() for b in parts[2].split(",")) if len(parts) == 3 else ()
        if len(parts) != 3 or not parts[0].strip() or not parts[1].strip() or len(boards) != BOARDS \
                or len(set(boards)) != BOARDS or not all(boards):
            raise ClubError(f"--team {text!r}: give HOME:AWAY:B1,B2,B3 (three boards, RULES.md B18)")
        return cls(parts[0].strip(), parts[1].strip(), (boards[0], boards[1], boards[2]))


@dataclass(frozen=True)
class TeamScore:
    """Board wins per team, the winner once decided (None before), and each board's winning team."""

    home_wins: int
    away_wins: int
    winner: str | None
    by_board: tuple[tuple[str, str | None], ...]


def score(match: TeamMatch, winners: Mapping[str, str | None]) -> TeamScore:
    """RULES.md B18: ``winners`` gives each board's winning side (``light``/``dark``, None while it is
    played); two board wins win the team match."""
    by_board = []
    for b in match.boards:
        side = winners.get(b)
        by_board.append((b, match.home if side == "light" else match.away if side == "dark" else None))
    home = sum(t == match.home for _, t in by_board)
    away = sum(t == match.away for _, t in by_board)
    winner = match.home if home >= WINS_NEEDED else match.away if away >= WINS_NEEDED else None
    return TeamScore(home, away, winner, tuple(by_board))
