"""The in-memory match record: what a Jellyfish ``.mat`` or a gnubg ``.sgf`` file says happened.

A :class:`MatchRecord` holds the match length, the two players, free-form headers and the games.
Each :class:`Game` holds the score at its start, its actions in the order they happened, and its
result as recorded (winner, points, "and the match", resignation). Actions are the moves of the
game: a :class:`Roll` (dice and the checker moves played), :class:`Double`, :class:`Take`,
:class:`Drop`, :class:`Beaver`, :class:`Resign` and :class:`SetBoard`.

Players are ``0`` and ``1``: player 0 is the *left* column of a ``.mat`` file and gnubg's ``W``
(white) in ``.sgf``; player 1 is the right column and ``B``. Checker moves are in the mover's own
numbering (RULES.md "Numbering"): points 1-24, ``25`` = bar, ``0`` = off, as gnubg writes them.

The record says what the file says, nothing more: it does not check legality. That is the job of
:mod:`controller.formats.replay`, which replays a record through the rules core. Reading and writing
a file of either format: :mod:`controller.formats.matchfile`.

Equality ignores where an action came from in its file (:attr:`Roll.number`, :attr:`Roll.line`),
so ``parse(write(record)) == record`` holds for both formats' writers.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from controller.formats.errors import FormatError

#: Source number of the bar in a :class:`Step`.
BAR: Final = 25
#: Destination number of "off" in a :class:`Step`.
OFF: Final = 0


#: Extra SGF properties of a node, in file order: ``(("C", ("a comment",)), ("LU", ("0.12",)))``.
#: gnubg's analysis (``A``, ``DA``, ``LU``, ``GS``, ...) and comments (``C``) ride here so that a
#: ``.sgf`` round trip keeps them; see :mod:`controller.formats.sgf_props`.
Props = tuple[tuple[str, tuple[str, ...]], ...]

_QUOTED: Final = re.compile(r"'([^'\n]{61,})'")

#: Control bytes that never occur in a text match file; a file whose start is full of them is binary.
_CONTROL: Final = bytes(b for b in range(32) if b not in (9, 10, 12, 13)) + b"\x7f"


class RecordError(FormatError):
    """A match file that cannot be read: the message names the file and the line where it broke.

    A :class:`~controller.formats.errors.FormatError`, hence a ``ValueError``.

    :param source: the file name (or ``"<text>"``).
    :param line: 1-based line number, 0 when the problem is not on one line.
    :param reason: what is wrong and, where useful, the offending text.
    """

    def __init__(self, source: str, line: int, reason: str) -> None:
        where = f"{source}:{line}" if line else source
        # A quoted piece of a bad line is cut (a whole garbled line would flood the message).
        reason = _QUOTED.sub(lambda m: "'" + _clip(m.group(1)) + "'", reason)
        super().__init__(f"{where}: {reason}")
        self.source = source
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded checker move: from ``src`` to ``dst`` in the mover's numbering.

    A step may cover several dice when the file merged one checker's hops (``13/5`` for 6-2, XG
    style); the replay works out the path. ``hit`` is the file's ``*`` mark, which some files never
    write: the replay does not rely on it.

    :param src: 1-24, or 25 (:data:`BAR`).
    :param dst: 1-24, or 0 (:data:`OFF`).
    :param hit: the step was marked ``*``.
    """

    src: int
    dst: int
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


class PlayNote(enum.Enum):
    """What a roll's play column said besides checker moves."""

    #: Moves were written (or nothing: the roll could not be played, FIBS / gnubg style).
    MOVES = "moves"
    #: "Cannot Move" was written (Backgammon Studio).
    CANNOT_MOVE = "cannot_move"
    #: "????": the roll was never played (Backgammon Studio, the player resigned or left).
    UNPLAYED = "unplayed"
    #: "Illegal play (raw board)": FIBS logged a play it could not express; the position is lost.
    ILLEGAL_MARKER = "illegal_marker"


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll and the play made with it.

    :param player: 0 or 1.
    :param dice: the two dice in the order the file wrote them (some files write low-high).
    :param steps: the checker moves as written, ``(2)`` repeats expanded.
    :param note: see :class:`PlayNote`.
    :param raw: the text of an ``Illegal play (...)`` marker, else ``""``.
    :param number: the move number in the file (``12)``), for reports; not compared.
    :param line: the 1-based line of the file, for reports; not compared.
    :param props: the node's other SGF properties (comments, gnubg's analysis), see :data:`Props`.
    """

    player: int
    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()
    note: PlayNote = PlayNote.MOVES
    raw: str = ""
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def play_text(self) -> str:
        """The play as a ``.mat`` file writes it, after ``"63: "``: steps, ``Cannot Move``, ...."""
        if self.note is PlayNote.CANNOT_MOVE:
            return "Cannot Move"
        if self.note is PlayNote.UNPLAYED:
            return "????"
        if self.note is PlayNote.ILLEGAL_MARKER:
            return f"Illegal play {self.raw}"
        return " ".join(str(s) for s in self.steps)

    def __str__(self) -> str:
        text = self.play_text()
        return f"{self.dice[0]}{self.dice[1]}: {text}".rstrip()


@dataclass(frozen=True, slots=True)
class Double:
    """``Doubles => value``: the player offers the cube at ``value`` (RULES.md B10)."""

    player: int
    value: int
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return f"Doubles => {self.value}"


@dataclass(frozen=True, slots=True)
class Take:
    """``Takes``: the doubled player accepts and owns the cube (RULES.md B10)."""

    player: int
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return "Takes"


@dataclass(frozen=True, slots=True)
class Drop:
    """``Drops``: the doubled player declines and loses the stake before the double (RULES.md B10)."""

    player: int
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return "Drops"


@dataclass(frozen=True, slots=True)
class Beaver:
    """``Beavers => value``: the doubled player redoubles at once and keeps the cube (RULES.md B11)."""

    player: int
    value: int
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return f"Beavers => {self.value}"


@dataclass(frozen=True, slots=True)
class Resign:
    """``Resigns``: the player gives up the game (the value is the ``Wins`` line that follows)."""

    player: int
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return "Resigns"


@dataclass(frozen=True, slots=True)
class SetBoard:
    """The board set by hand (gnubg's ``AE``/``AW``/``AB`` node): a game from a set-up position, or
    the position gnubg recovered after a FIBS ``Illegal play (...)`` line.

    :param player: the player SGF's ``PL`` names: on roll, in a game from a set-up position; the
        one whose unreadable play the board replaces, after a FIBS ``Illegal play`` line (the
        other player moves next, as gnubg's files show).
    :param sides: player 0's and player 1's checkers, 25 counts each in the owner's numbering
        (index ``n - 1`` is point ``n``, index 24 the bar), as :class:`controller.rules.Position`.
    """

    player: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    number: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    props: Props = ()

    def __str__(self) -> str:
        return "set board"


Action = Roll | Double | Take | Drop | Beaver | Resign | SetBoard


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a match as recorded.

    :param number: the game's number (1-based) as the file gives it.
    :param score: the players' scores at the start of the game, ``(player 0, player 1)``.
    :param actions: the actions in order.
    :param winner: 0 or 1, or None when the record stops before the game ended.
    :param points: the points the file says the winner got (``Wins N points``; 0 when unfinished).
        At the end of a match some programs write only the points the winner needed.
    :param match_won: the file says ``and the match``.
    :param resigned: the game ended by resignation (a ``Resigns`` action, or gnubg's ``RE[W+2R]``).
    :param loser_noted: the file also wrote a ``Losses N point`` line for the loser (Galaxy).
    :param crawford: the file marks this game as the Crawford game (gnubg ``.sgf``), or None when
        the format does not say.
    :param line: the 1-based line of the game's header in its file; not compared.
    :param props: the game's other SGF root properties (gnubg's ``GS`` statistics, comments).
    """

    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...] = ()
    winner: int | None = None
    points: int = 0
    match_won: bool = False
    resigned: bool = False
    loser_noted: bool = False
    crawford: bool | None = None
    line: int = field(default=0, compare=False)
    props: Props = ()

    @property
    def finished(self) -> bool:
        """True when the record says who won."""
        return self.winner is not None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match (or a money session, ``length == 0``) as recorded.

    :param length: points to win the match; 0 for money play.
    :param players: ``(player 0, player 1)`` names.
    :param games: the games in order.
    :param headers: ``(key, value)`` pairs in file order (``; [Site "BackgammonGalaxy"]``).
    """

    length: int
    players: tuple[str, str]
    games: tuple[Game, ...] = ()
    headers: tuple[tuple[str, str], ...] = ()

    def header(self, key: str, default: str | None = None) -> str | None:
        """The first header named ``key`` (case-insensitive), or ``default``."""
        low = key.lower()
        for k, v in self.headers:
            if k.lower() == low:
                return v
        return default

    @property
    def crawford_rule(self) -> bool:
        """Whether the Crawford rule is in force (RULES.md B14): the header says so, default on."""
        value = self.header("Crawford")
        return value is None or value.strip().lower() not in ("off", "false", "no", "0")


def layout_numbers(actions: tuple[Action, ...]) -> list[tuple[int, int]]:
    """The ``(move number, column)`` each action takes in a ``.mat`` file's two-column layout.

    A line holds player 0's action on the left and player 1's on the right; player 0's action
    always starts a new line, and so does player 1's when the line already has a right-hand
    action or the previous action was player 1's on its own line. This is the layout the
    writer uses and that the ``.sgf`` reader numbers moves by.

    :returns: one ``(number, player)`` per action, numbers from 1.
    """
    out: list[tuple[int, int]] = []
    number = 0
    right_free = False  # the current line has a left action and an empty right column
    for action in actions:
        if action.player == 0:
            number += 1
            right_free = True
        else:
            if not right_free:
                number += 1
            right_free = False
        out.append((number, action.player))
    return out


def crawford_flags(record: MatchRecord) -> list[bool]:
    """For each game, whether it is the Crawford game (RULES.md B14), from the recorded scores.

    The Crawford game is the one game that starts just after a player first comes within one
    point of winning the match. False throughout for money play or when the rule is off. A match
    resumed at a score where a player already needs one point counts its first game as Crawford
    when the other player does not also need one.
    """
    flags: list[bool] = []
    previous_max = -1
    for game in record.games:
        need_one = record.length - 1
        top = max(game.score)
        flags.append(
            record.length > 0
            and record.crawford_rule
            and top == need_one
            and min(game.score) < need_one
            and previous_max < need_one
        )
        previous_max = top
    return flags


def read_match_text(path: str | Path) -> tuple[str, str]:
    """The text of a match file and its name for error messages, ``(text, str(path))``.

    Decoded as UTF-8 (a byte-order mark dropped), or as Latin-1 when it is not valid UTF-8: old
    FIBS and Jellyfish files carry CP1252 player names. Shared by the ``.mat`` and ``.sgf`` readers.

    :raises RecordError: at line 0 when the file cannot be read.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordError(str(p), 0, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig"), str(p)
    except UnicodeDecodeError:
        return data.decode("latin-1"), str(p)


def is_binary(data: bytes) -> bool:
    """True when ``data`` (the start of a file) is not text: a NUL byte, or more than 5 % control
    bytes other than tab, line feed, form feed and carriage return. Text in any 8-bit encoding
    (UTF-8, Latin-1, CP1252 player names) passes."""
    if b"\0" in data:
        return True
    control = sum(data.count(bytes([b])) for b in _CONTROL)
    return bool(data) and control > 0.05 * len(data)


#: Headers gnubg's SGF keeps (Site, Event, Round, EventDate as PC, EV, RO, DT; Crawford and Jacoby
#: go into RU). Kept here, not imported from the SGF module, which imports this one.
SGF_HEADERS: Final = ("Site", "Event", "Round", "EventDate", "Crawford", "Jacoby")


@dataclass(frozen=True, slots=True)
class Loss:
    """Something of a record a target format cannot hold (see :func:`format_losses`).

    :param game: the game's number (1-based), 0 for the match headers.
    :param move: the move number in the file, 0 when none.
    :param line: the 1-based line in the source file, 0 when unknown.
    :param message: what would be lost, one line, e.g. ``"the unreadable play 'Illegal play (...)'"``.
    """

    game: int
    move: int
    line: int
    message: str

    def __str__(self) -> str:
        where = f"game {self.game}" + (f", move {self.move}" if self.move else "") if self.game else "headers"
        return f"{where}{f' (line {self.line})' if self.line else ''}: {self.message}"


def format_losses(record: MatchRecord, suffix: str) -> list[Loss]:
    """What writing ``record`` as ``suffix`` (``.sgf``, else ``.mat`` text) would lose, in file order.

    gnubg's SGF has no way to write a FIBS ``Illegal play (...)`` marker (the roll would read as
    "nothing played") or a beaver; headers it has no property for go into the root's ``GC`` as
    gnubg puts them, ``????`` into a dice-only node. ``.mat`` text has no way to set the board
    (:class:`SetBoard`) nor to hold comments. gnubg's analysis is not listed here: the ``match
    convert`` command refuses to drop it unless asked (:mod:`controller.formats.sgf_props`).
    ``Cannot Move`` and ``Resigns`` are not losses: SGF says the same with an empty move and the
    result's ``R``. Never raises.
    """
    sgf = suffix.lower() == ".sgf"
    losses = []
    for game in record.games:
        for action in game.actions:
            if sgf and isinstance(action, Roll) and action.note is PlayNote.ILLEGAL_MARKER:
                what = f"the unreadable play {_clip(action.play_text())!r} would read as nothing played"
            elif sgf and isinstance(action, Beaver):
                what = f"the beaver to {action.value} (gnubg's SGF cannot record one)"
            elif not sgf and isinstance(action, SetBoard):
                what = "the board set by hand (.mat has no way to write one)"
            elif not sgf and any(name == "C" for name, _ in action.props):
                what = "the comment (.mat has no room for comments)"
            else:
                continue
            losses.append(Loss(game.number, action.number, action.line, what))
    return losses


def _clip(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters with an ellipsis, for one-line messages."""
    return text if len(text) <= width else text[: width - 3] + "..."
