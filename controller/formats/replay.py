"""Replaying a match record through the rules core: every play, cube action and score checked.

For each game the replay starts from the opening position (RULES.md B2) and follows the record:

* a :class:`~controller.formats.record.Roll` must be one of the legal plays of its dice
  (:func:`controller.rules.legal_plays`, RULES.md B4-B8). The recorded moves are applied to the
  position (in any order the file wrote them, merged hops as one checker's move) and the result is
  compared with the legal plays' results. A play that matches none is reported with game and
  move number and the position stays as the file says (RULES.md B17: an illegal play the opponent
  did not have corrected stands). A roll with nothing played is legal when no play was possible;
  as the last action before the opponent's ``Wins`` it is a roll then a resignation.
* cube actions follow RULES.md B10-B14: only a player whose turn it is, while the cube is centred or
  his, doubles to twice the cube; never in the Crawford game; a take gives the taker the cube; a
  drop ends the game for the cube's value before the double.
* the end: a side that bore off all 15 wins 1, 2 or 3 times the cube (RULES.md B9); a drop wins the
  cube before the double; otherwise the loser resigned (or left: ``Wins 100 points``). The
  recorded points must agree -- at the end of a match some programs write only the points the
  winner needed -- and the next game's score must equal this game's plus those points.
* after a FIBS ``Illegal play (...)`` marker the position cannot be followed: the rest of that
  game's plays are not checked (the score still is).

Nothing here raises on a bad record: findings are returned as :class:`Problem` values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from controller.formats.record import (
    BAR,
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    Resign,
    Roll,
    SetBoard,
    Step,
    Take,
    crawford_flags,
)
from controller.rules import Backgammon, IllegalActionError, Play, Position, legal_plays
from controller.rules.cube import (
    Cube,
    CubeSettings,
    Player,
    beaver,
    drop,
    game_points,
    game_result,
    offer_double,
    take,
)

_BACKGAMMON = Backgammon()


class ProblemKind(enum.Enum):
    """What a :class:`Problem` is about."""

    #: A checker play that is none of the legal plays of its roll (RULES.md B4-B8).
    ILLEGAL_PLAY = "illegal_play"
    #: A double, take, drop or beaver the cube rules forbid (RULES.md B10-B14).
    ILLEGAL_CUBE = "illegal_cube"
    #: An action by the player who is not on turn.
    OUT_OF_TURN = "out_of_turn"
    #: The recorded winner or points disagree with how the game ended (RULES.md B9).
    RESULT = "result"
    #: The next game's score is not this game's plus the recorded points.
    SCORE = "score"
    #: The file lost the position (FIBS ``Illegal play (...)``): later plays were not checked.
    LOST_POSITION = "lost_position"


class GameEnd(enum.Enum):
    """How a game ended, as the replay sees it."""

    BORNE_OFF = "borne_off"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    #: Awarded more than a resignation can give (a player left: ``Wins 100 points``).
    FORFEIT = "forfeit"
    #: The record stops before the game ended.
    UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of the replay.

    :param kind: see :class:`ProblemKind`.
    :param game: the game's number.
    :param move: the move number in the file (0 when not about one move).
    :param player: 0 or 1, or -1 when not about one player.
    :param text: the action as the file wrote it (``"13: 14/10 13/12"``), or ``""``.
    :param message: one line for a person.
    :param line: the 1-based line in the file, 0 when unknown.
    """

    kind: ProblemKind
    game: int
    move: int
    player: int
    text: str
    message: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class GameReplay:
    """The replay of one game.

    :param number: the game's number.
    :param plays: checker plays checked against the legal plays.
    :param end: how the game ended.
    :param cube: the cube value at the end.
    :param value: the points the rules give the winner (cube times 1, 2 or 3; the cube before the
        double after a drop), or None when unknown (resignation, lost position, unfinished).
    :param followed: the position was followed to the end of the record.
    :param score_ok: the recorded points agree with the rules and the next game's score equals this
        game's score plus the recorded points (for the last game: the match result follows).
    :param problems: this game's findings.
    :param roll_then_resign: the record ends with a roll nothing was played with, then ``Wins``.
    :param canonical: the game's actions with every legal play written as the rules core (and gnubg)
        writes it: one step per die, hits marked; other actions as recorded.
    """

    number: int
    plays: int
    end: GameEnd
    cube: int
    value: int | None
    followed: bool
    score_ok: bool
    problems: tuple[Problem, ...]
    roll_then_resign: bool = False
    canonical: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """The replay of a whole record.

    :param games: one :class:`GameReplay` per game.
    :param final_score: the score after the last recorded game.
    :param winner: the match winner (0 or 1), or None when the record stops before the end.
    """

    record: MatchRecord
    games: tuple[GameReplay, ...]
    final_score: tuple[int, int]
    winner: int | None

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Every finding, in game order."""
        return tuple(p for g in self.games for p in g.problems)

    @property
    def illegal_plays(self) -> tuple[Problem, ...]:
        """The checker plays that were not legal."""
        return tuple(p for p in self.problems if p.kind is ProblemKind.ILLEGAL_PLAY)

    @property
    def plays(self) -> int:
        """Checker plays checked, over all games."""
        return sum(g.plays for g in self.games)

    @property
    def resumed_at(self) -> tuple[int, int] | None:
        """The score the record starts at when it does not start at 0-0 (a resumed match), else None."""
        if self.record.games and self.record.games[0].score != (0, 0):
            return self.record.games[0].score
        return None

    @property
    def result_text(self) -> str:
        """``"PlayerA wins 7-4 (of 7)"``, ``"unfinished at 1-0 (of 5)"`` or ``"money session, 3-1"``,
        with ``", resumed at 0-2"`` when the record starts mid-match."""
        a, b = self.final_score
        resumed = f", resumed at {self.resumed_at[0]}-{self.resumed_at[1]}" if self.resumed_at else ""
        if self.record.length == 0:
            return f"money session, {a}-{b}{resumed}"
        if self.winner is None:
            return f"unfinished at {a}-{b} (of {self.record.length}){resumed}"
        return f"{self.record.players[self.winner]} wins {a}-{b} (of {self.record.length}){resumed}"


def apply_recorded(position: Position, steps: tuple[Step, ...]) -> Position | None:
    """The position after the recorded steps, each applied as one checker's move (mover = ``me``).

    Steps are applied in the order written, except that a step whose point is still empty waits
    until an earlier-written step brings a checker there (files write ``24/20 13/9 20/16`` or
    ``20/16 24/20``). A checker landing on a single opposing checker hits it (RULES.md B6); merged
    hops (``13/5``) hit only where they land. Nothing here checks legality.

    :returns: the position, or None when a step starts from a point with no checker of the mover.
    """
    me = list(position.me)
    opp = list(position.opp)
    pending = list(steps)
    while pending:
        ready = next((k for k, s in enumerate(pending) if me[24 if s.src == BAR else s.src - 1] > 0), None)
        if ready is None:
            return None
        step = pending.pop(ready)
        src = 24 if step.src == BAR else step.src - 1
        me[src] -= 1
        if step.dst > 0:
            dst = step.dst - 1
            if opp[23 - dst] == 1:
                opp[23 - dst] = 0
                opp[24] += 1
            me[dst] += 1
    return Position(tuple(me), tuple(opp))


def match_play(position: Position, roll: Roll) -> tuple[Play | None, str]:
    """The legal play the recorded roll's play stands for, or ``(None, why not)``.

    A play matches a legal play when the positions are equal; when a merged hop hit a blot on the
    way (which the notation cannot show), a legal play with the same own checkers counts when it is
    the only one. A roll with nothing played matches ``Play((), position)`` when no play is legal.
    """
    d1, d2 = roll.dice
    plays = legal_plays(position, d1, d2)
    if not roll.steps:
        if not plays:
            return Play((), position), ""
        return None, f"nothing played, but {len(plays)} legal plays exist"
    if not plays:
        return None, "no play is possible with this roll, but moves were written"
    after = apply_recorded(position, roll.steps)
    if after is None:
        return None, "a move starts from a point with none of the mover's checkers"
    for play in plays:
        if play.result == after:
            return play, ""
    same_side = [p for p in plays if p.result.me == after.me]
    if len(same_side) == 1:
        return same_side[0], ""
    if same_side:
        return None, "ambiguous: the moves fit several legal plays that hit differently"
    return None, f"not one of the {len(plays)} legal plays"


def _is_terminal(actions: tuple[Action, ...], index: int) -> bool:
    """True when only ``Resigns`` follows ``actions[index]``."""
    return all(isinstance(a, Resign) for a in actions[index + 1 :])


def _player(p: int) -> Player:
    return 0 if p == 0 else 1


def _cube_message(exc: IllegalActionError) -> str:
    rules = {"crawford_game": "B14", "beavers_not_allowed": "B11", "beaver_on_beaver": "B11"}
    rule = rules.get(exc.reason, "B10")
    return f"{exc} ({exc.reason}, RULES.md {rule})"


def settings_for(record: MatchRecord) -> CubeSettings:
    """The cube and scoring settings a record implies (RULES.md B9-B14 defaults, its headers).

    Match length and the Crawford rule from the record; Jacobi and beavers (money play only) from
    ``Jacoby``/``Beaver`` headers, defaulting as RULES.md B11-B12 do.
    """

    def flag(key: str, default: bool) -> bool:
        value = record.header(key)
        return default if value is None else value.strip().lower() in ("on", "true", "yes", "1")

    return CubeSettings(match_length=record.length, crawford=record.crawford_rule,
                        jacobi=flag("Jacoby", True), beavers=flag("Beaver", False))


@dataclass
class _Walk:
    """One game followed action by action: the position, the cube, whose turn, and what was found.
    Mutable, and private to :func:`replay_game`, which builds one per game."""

    game: Game
    crawford: bool
    settings: CubeSettings
    sides: list[tuple[int, ...]]
    canonical: list[Action]
    problems: list[Problem] = field(default_factory=list)
    cube: Cube = field(default_factory=Cube)
    turn: int = -1
    followed: bool = True
    plays: int = 0
    dropped_by: int | None = None
    drop_value: int = 0
    resigned_by: int | None = None
    ends_with_unplayed: int | None = None

    def report(self, kind: ProblemKind, action: Action, message: str) -> None:
        self.problems.append(Problem(kind, self.game.number, action.number, action.player, str(action),
                                     message, action.line))

    def roll(self, i: int, action: Roll) -> None:
        """A roll and its play: turn order, then the play against the legal plays (RULES.md B1-B8)."""
        p = action.player
        if self.cube.offered_by is not None:
            self.report(ProblemKind.OUT_OF_TURN, action, "a roll while a double waits for an answer")
            self.cube = replace(self.cube, offered_by=None, beaver=False)
        elif self.turn != -1 and p != self.turn and self.followed:
            self.report(ProblemKind.OUT_OF_TURN, action, "a roll by the player who is not on turn")
        self.turn = 1 - p
        if not self.followed:
            return
        if action.note is PlayNote.ILLEGAL_MARKER:
            self.followed = False
            self.report(ProblemKind.LOST_POSITION, action, "the file logged an unreadable play; the rest "
                                                           "of the game's plays are not checked")
            return
        if not all(isinstance(d, int) and 1 <= d <= 6 for d in action.dice):
            self.report(ProblemKind.ILLEGAL_PLAY, action,
                        "dice must be two numbers from 1 to 6 (RULES.md B1)")
            return
        game = self.game
        position = Position(self.sides[p], self.sides[1 - p])
        terminal = _is_terminal(game.actions, i) and game.winner is not None
        board_follows = i + 1 < len(game.actions) and isinstance(game.actions[i + 1], SetBoard)
        if action.note is PlayNote.UNPLAYED or (not action.steps and terminal):
            if action.note is PlayNote.UNPLAYED or legal_plays(position, *action.dice):
                if terminal:
                    # a roll then a resignation (README of the real records), not an illegal pass
                    self.ends_with_unplayed = 1 - game.winner if game.winner is not None else p
                    self.canonical[i] = replace(action, steps=(), note=PlayNote.UNPLAYED)
                elif not board_follows:  # gnubg sets the board after a roll it could not read
                    self.report(ProblemKind.ILLEGAL_PLAY, action, "the roll was never played ('????')")
                return
        self.plays += 1
        found, why = match_play(position, action)
        if found is None:
            self.report(ProblemKind.ILLEGAL_PLAY, action, why)
            result = apply_recorded(position, action.steps)
            if result is None:
                self.followed = False
                self.report(ProblemKind.LOST_POSITION, action, "the position cannot be followed after this "
                                                               "play")
                return
        else:
            result = found.result
            if found.moves:  # the play as gnubg writes it: one step per die, hits marked
                steps = tuple(Step(m.src, m.dst, m.hit) for m in found.moves)
                self.canonical[i] = replace(action, steps=steps, note=PlayNote.MOVES)
        self.sides[p], self.sides[1 - p] = result.me, result.opp

    def double(self, action: Double) -> None:
        """RULES.md B10: on turn, cube not owned by the opponent, not in the Crawford game (B14)."""
        p = action.player
        if self.turn != -1 and p != self.turn:
            self.report(ProblemKind.OUT_OF_TURN, action, "a double by the player who is not on turn")
        self.turn = p
        offered = 2 * self.cube.value(self.settings.stakes)
        try:
            self.cube = offer_double(self.cube, _player(p), crawford_game=self.crawford)
        except IllegalActionError as exc:
            self.report(ProblemKind.ILLEGAL_CUBE, action, _cube_message(exc))
            self.cube = replace(self.cube, offered_by=_player(p), beaver=False)  # it happened: follow it
        if action.value != offered:
            self.report(ProblemKind.ILLEGAL_CUBE, action, f"the cube is at {offered // 2}: a double offers "
                                                          f"{offered}")

    def beaver(self, action: Beaver) -> None:
        """RULES.md B11."""
        p = action.player
        try:
            self.cube = beaver(self.cube, _player(p), self.settings)
        except IllegalActionError as exc:
            self.report(ProblemKind.ILLEGAL_CUBE, action, _cube_message(exc))
            if self.cube.offered_by is not None:
                self.cube = replace(self.cube, level=self.cube.level + 1, owner=_player(p),
                                    offered_by=_player(p), beaver=True)
        if action.value != 2 * self.cube.value(self.settings.stakes):
            self.report(ProblemKind.ILLEGAL_CUBE, action,
                        f"a beaver offers {2 * self.cube.value(self.settings.stakes)}")

    def take(self, action: Take) -> None:
        """RULES.md B10."""
        p = action.player
        try:
            self.cube = take(self.cube, _player(p))
        except IllegalActionError as exc:
            self.report(ProblemKind.ILLEGAL_CUBE, action, _cube_message(exc))
            if self.cube.offered_by is not None:
                self.cube = replace(self.cube, level=self.cube.level + 1, owner=_player(p), offered_by=None,
                                    beaver=False)

    def drop(self, action: Drop) -> None:
        """RULES.md B10: the game ends at the cube's value before the double."""
        p = action.player
        self.dropped_by = p
        self.drop_value = self.cube.value(self.settings.stakes)
        try:
            self.drop_value = drop(self.cube, _player(p), self.settings.stakes).points
        except IllegalActionError as exc:
            self.report(ProblemKind.ILLEGAL_CUBE, action, _cube_message(exc))
        self.cube = replace(self.cube, offered_by=None, beaver=False)

    def ending(self) -> tuple[GameEnd, int | None, int | None]:
        """How the game ended, its winner and the points the rules give him (None: not known)."""
        finished_side = next((s for s in (0, 1) if sum(self.sides[s]) == 0), None) if self.followed else None
        if finished_side is not None:
            won = Position(self.sides[finished_side], self.sides[1 - finished_side])
            multiple = _BACKGAMMON.result_multiple(won)
            return (GameEnd.BORNE_OFF, finished_side,
                    game_result(_player(finished_side), multiple, self.cube, self.settings).points)
        if self.dropped_by is not None:
            return GameEnd.DROPPED, 1 - self.dropped_by, self.drop_value
        if self.game.winner is not None:
            if self.resigned_by is not None:
                return GameEnd.RESIGNED, 1 - self.resigned_by, None
            if self.ends_with_unplayed is not None:
                return GameEnd.RESIGNED, 1 - self.ends_with_unplayed, None
            return GameEnd.RESIGNED, None, None
        return GameEnd.UNFINISHED, None, None


def _result_problems(
    record: MatchRecord, walk: _Walk, end: GameEnd, winner: int | None, value: int | None
) -> tuple[GameEnd, list[str]]:
    """The recorded winner and points against the rules' (RULES.md B9-B12); a resignation worth more
    than any result is a forfeit. Returns the end (FORFEIT replaces RESIGNED) and the findings."""
    game, stake = walk.game, walk.cube.value(walk.settings.stakes)
    found: list[str] = []
    if game.winner is not None:
        if winner is not None and winner != game.winner:
            found.append(f"the record says {record.players[game.winner]} won, but "
                         f"{record.players[winner]} did ({end.value})")
        needed = record.length - game.score[game.winner] if record.length > 0 else 0
        capped_ok = record.length > 0 and game.points == needed
        if value is not None:
            if game.points != value and not (capped_ok and value >= game.points):
                found.append(f"the record gives {game.points} points; the rules give "
                             f"{value} ({end.value}, cube {stake})")
        elif end is GameEnd.RESIGNED and walk.followed:
            allowed = sorted({game_points(m, walk.cube, walk.settings) for m in (1, 2, 3)})
            if game.points not in allowed and not (capped_ok and game.points <= allowed[-1]):
                if game.points > allowed[-1]:
                    end = GameEnd.FORFEIT
                else:
                    worth = " or ".join(map(str, allowed))
                    found.append(f"a resignation is worth {worth} points here, not {game.points}")
    elif end is GameEnd.BORNE_OFF or end is GameEnd.DROPPED:
        found.append(f"the game ended ({end.value}) but the record names no winner")
    return end, found


def _score_problems(record: MatchRecord, index: int) -> list[str]:
    """The score after game ``index`` against the next game's starting score and the match length."""
    game = record.games[index]
    if game.winner is None:
        return ["the game has no result but another game follows"] if index + 1 < len(record.games) else []
    final = list(game.score)
    final[game.winner] += game.points
    if index + 1 < len(record.games):
        following = record.games[index + 1].score
        if tuple(final) != following:
            return [f"{game.score[0]}-{game.score[1]} plus {game.points} for "
                    f"{record.players[game.winner]} is {final[0]}-{final[1]}, "
                    f"but game {record.games[index + 1].number} starts "
                    f"{following[0]}-{following[1]}"]
    elif game.match_won and record.length > 0 and final[game.winner] < record.length:
        return [f"'and the match' but {final[game.winner]} is short of {record.length}"]
    return []


def replay_game(record: MatchRecord, index: int, crawford: bool) -> GameReplay:
    """Replay ``record.games[index]`` (see the module docstring). Never raises on a bad record."""
    game: Game = record.games[index]
    start = Position.initial()
    walk = _Walk(game, crawford, settings_for(record), [start.me, start.opp], list(game.actions))
    for i, action in enumerate(game.actions):
        if isinstance(action, Roll):
            walk.roll(i, action)
        elif isinstance(action, Double):
            walk.double(action)
        elif isinstance(action, Beaver):
            walk.beaver(action)
        elif isinstance(action, Take):
            walk.take(action)
        elif isinstance(action, Drop):
            walk.drop(action)
        elif isinstance(action, Resign):
            walk.resigned_by = action.player
        elif isinstance(action, SetBoard):
            # the board as the file sets it: followed again from here (gnubg after an unreadable play)
            walk.sides = [action.sides[0], action.sides[1]]
            walk.followed = True
    end, winner, value = walk.ending()
    end, result_found = _result_problems(record, walk, end, winner, value)
    score_found = _score_problems(record, index)
    game_problems = [Problem(ProblemKind.RESULT, game.number, 0, -1, "", m, game.line) for m in result_found]
    game_problems += [Problem(ProblemKind.SCORE, game.number, 0, -1, "", m, game.line) for m in score_found]
    stake = walk.cube.value(walk.settings.stakes)
    score_ok = not result_found and not score_found
    return GameReplay(game.number, walk.plays, end, stake, value, walk.followed, score_ok,
                      tuple(walk.problems + game_problems), walk.ends_with_unplayed is not None,
                      tuple(walk.canonical))


def replay_match(record: MatchRecord) -> MatchReplay:
    """Replay every game of ``record`` (see the module docstring). Never raises on a bad record."""
    flags = crawford_flags(record)
    games = []
    for i, game in enumerate(record.games):
        crawford = game.crawford if game.crawford is not None else flags[i]
        games.append(replay_game(record, i, crawford))
    last = record.games[-1] if record.games else None
    final = [0, 0]
    if last is not None:
        final = list(last.score)
        if last.winner is not None:
            final[last.winner] += last.points
    winner: int | None = None
    if record.length > 0:
        for side in (0, 1):
            if final[side] >= record.length:
                winner = side
    return MatchReplay(record, tuple(games), (final[0], final[1]), winner)


def _full_points(game: Game, replay: GameReplay) -> int:
    """The points the rules give where the record wrote only what the winner needed at match end
    (Galaxy, GammonView); gnubg writes and computes the full value."""
    ended = replay.end in (GameEnd.BORNE_OFF, GameEnd.DROPPED)
    if ended and game.match_won and replay.value is not None and replay.value > game.points:
        return replay.value
    if replay.end is GameEnd.RESIGNED and game.match_won and game.points % replay.cube:
        # gnubg reads RE[W+3R] on a 2-cube as a single game (3 // 2): the resignation was worth a
        # whole multiple of the cube, the least that gave the winner the points he needed
        return next((replay.cube * m for m in (1, 2, 3) if replay.cube * m >= game.points), game.points)
    return game.points


def canonical_record(record: MatchRecord) -> MatchRecord:
    """``record`` with every legal play rewritten one step per die with hits marked, as gnubg writes
    it (``13/5`` for 6-2 becomes ``13/7 7/5``; ``6/5(2)`` stays two steps); illegal and unfollowed
    plays stay as recorded; a last roll nothing was played with before the game ended is marked
    :attr:`PlayNote.UNPLAYED` (a roll then a resignation); a game that ended neither by bearing
    off nor by a drop is marked resigned; a match-winning game's points are the full value where the
    record wrote only the points needed. Used before writing a file another program will import.
    """
    replay = replay_match(record)
    pairs = zip(record.games, replay.games, strict=True)
    # gnubg shows a game that ended neither by bearing off nor by a drop as "not resigned" unless
    # the result says so (RE[W+2R]); .mat files mostly leave the resignation unwritten.
    games = tuple(replace(game, actions=g.canonical, resigned=game.resigned or g.end is GameEnd.RESIGNED,
                          points=_full_points(game, g))
                  for game, g in pairs)
    return replace(record, games=games)
