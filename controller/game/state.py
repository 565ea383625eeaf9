"""The referee's state: the State/Turn/GameRecord dataclasses, settings views, board reading
helpers and the shared display/announce helpers of controller.game (split out of controller/game.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from controller import hints
from controller.formats.position_id import position_id
from controller.game.clock import Clock
from controller.game.effects import Announce, Effect, Hint, Show
from controller.game.events import MAX_DICE, BoardSeen, DieSeen
from controller.game.rulings import Ruling, Settings
from controller.geometry import Seating, all_seatings, right_half
from controller.rules.cube import (
    Cube,
    CubeSettings,
    Stakes,
)
from controller.rules.match import MatchState
from controller.rules.variant import Variant, variant_named
from firmware_bridge.frames import LedFrame

COLOURS = ("light", "dark")


NAMES = ("light", "dark")


UNSURE = 0.5  # a point read less surely than this is shown as unsure (the arbiter weighs it by its model)


Sides = tuple[tuple[int, ...], tuple[int, ...]]


def start_side(variant: str) -> tuple[int, ...]:
    """One player's checkers at the start (RULES.md B2; N2: all 15 on the head, point 24)."""
    return variant_named(variant).start_side()


def variant_of(settings: Settings) -> Variant:
    """The rules core's variant under a match's settings (RULES.md N6 block rule, N9 koks and draw)."""
    return variant_named(settings.variant).configured(
        block_rule=settings.nardy_block, koks=settings.koks, draw=settings.nardy_draw
    )


@dataclass(frozen=True)
class Turn:
    """One action of a game record: ``player`` and either a roll with its play (``dice``, ``moves`` as
    (src, dst) pairs in his numbering, ``illegal`` when accepted as played), or a cube action
    (``cube`` = double/take/drop/beaver). ``overruled``: the mover's points (25 = the bar) the camera
    read otherwise than the play recorded leaves them (taken as misreads, RULES.md B17)."""

    player: int
    dice: tuple[int, int] | None = None
    moves: tuple[tuple[int, int], ...] = ()
    cube: str | None = None
    illegal: bool = False
    overruled: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """A finished game: who won (None: a nardy draw), how many points, how (RULES.md B9/N9), the turns,
    the score before it."""

    number: int
    winner: int | None
    points: int
    kind: str
    turns: tuple[Turn, ...]
    score_before: tuple[int, int]
    crawford: bool
    cube: int
    automatic: int = 0  # automatic doubles on the opening roll before the game began (RULES.md B13)


@dataclass(frozen=True)
class State:
    """The whole referee state (frozen; ``step`` returns a new one).

    The cube is the rules core's :class:`~controller.rules.cube.Cube` (``cube_state``; ``cube`` and
    ``owner`` read it); ``score``, ``crawford_game`` (this game, or the next one between games, is the
    Crawford game) and ``crawford_done`` (the Crawford game has begun or been played) mirror the rules
    core's :class:`~controller.rules.match.MatchState` (see :func:`match_state`), which scores each
    game (RULES.md B9-B14).
    """

    settings: Settings = field(default_factory=Settings)
    phase: str = "setup"
    seating: Seating | None = None
    sides: Sides | None = None
    on_roll: int | None = None
    dice: tuple[int, int] | None = None
    first_roll: tuple[bool, bool] = (True, True)
    cube_state: Cube = Cube()
    score: tuple[int, int] = (0, 0)
    game_number: int = 0
    crawford_game: bool = False
    crawford_done: bool = False
    seen: Sides | None = None
    dice_present: bool = False
    premature: int | None = None
    pending: tuple[Any, ...] = ()
    turns: tuple[Turn, ...] = ()
    records: tuple[GameRecord, ...] = ()
    opening_ties: int = 0
    last_winner: int | None = None
    offline: frozenset[str] = frozenset()
    rulings: int = 0
    clock: Clock | None = None
    starter: int | None = None  # who made the first move of the current (or last) game
    last_roll: bool = False  # nardy draw setting: black is making his last roll (RULES.md N9)
    # the LEDs show the re-throw signal (RULES.md B15, N10) until the next roll is taken (issue 15)
    rethrow_lit: bool = False
    # the last usable reading: its per-point confidences weigh the board when a button ends the turn
    reading: BoardSeen | None = field(default=None, repr=False, compare=False)
    # the referee's undo target (controller.game.referee): the state before the last undoable event
    previous: State | None = field(default=None, repr=False, compare=False)
    undo_what: str = field(default="", repr=False, compare=False)  # the event ``previous`` is before

    @property
    def cube(self) -> int:
        """The stake the cube shows (1 while untouched; a pending offer not counted), RULES.md B10."""
        return self.cube_state.value(cube_settings(self.settings).stakes)

    @property
    def owner(self) -> int | None:
        """The player who owns the cube, or None while it is centred (RULES.md B10)."""
        return self.cube_state.owner


def cube_settings(settings: Settings) -> CubeSettings:
    """The rules core's cube settings for a match's :class:`Settings` (RULES.md B9-B14)."""
    return CubeSettings(
        match_length=settings.match_length,
        jacobi=True if settings.jacobi is None else settings.jacobi,
        beavers=settings.beaver,
        automatic_doubles=settings.automatic_doubles and variant_of(settings).has_cube,
        automatic_limit=settings.auto_double_limit,
        stakes=Stakes(settings.cube_progression),
        backgammon_as_gammon=settings.backgammon_as_gammon,
        no_gammons_when_doubled=settings.no_gammon_after_cube,
        crawford=settings.crawford,
    )


def match_state(state: State) -> MatchState:
    """The match as the rules core keeps it (RULES.md B14), from the state's score and Crawford flags."""
    s = state.settings
    return MatchState(
        length=s.match_length,
        score=state.score,
        crawford_game=state.crawford_game,
        post_crawford=state.crawford_done and not state.crawford_game,
        games=len(state.records),
        crawford_rule=s.crawford and variant_of(s).has_cube,
    )


def new_state(settings: Settings | None = None) -> State:
    """The state before any event (a money session with default settings unless given)."""
    return State(settings=settings or Settings())


# --- helpers ---------------------------------------------------------------------------------------


def variant_in(state: State) -> Variant:
    return variant_of(state.settings)


def point_confidence(ev: BoardSeen, seating: Seating, player: int) -> tuple[float, ...]:
    """The reader's confidence for each of ``player``'s points 1-24 (index p - 1)."""
    conf = [1.0] * 24
    for slot, (_, _, c) in enumerate(ev.slots):
        conf[seating.point(player, slot) - 1] = float(c)
    return tuple(conf)


def sides_from_seen(ev: BoardSeen, seating: Seating) -> Sides:
    """Both players' checkers (own numbering, bar at index 24) as the board shows them."""
    light = seating.slots_to_side(0, ev.counts("light"), ev.bar.get("light", 0))
    dark = seating.slots_to_side(1, ev.counts("dark"), ev.bar.get("dark", 0))
    return light, dark


def infer_seating(ev: BoardSeen, settings: Settings) -> Seating:
    """Where light's home board lies: from the settings, else (``auto``) the seating in which the board
    is the start position, else (backgammon) the one with the smallest total pip count -- checkers only
    travel toward home, so the true numbering gives the lower count (exact for the start position:
    167 + 167 against 208 + 208 mirrored)."""
    variant = settings.variant
    if settings.light_home != "auto":
        return Seating.for_home(variant, settings.light_home, settings.mirror)
    candidates = all_seatings(variant)
    start = start_side(variant)
    for s in candidates:
        light, dark = sides_from_seen(ev, s)
        if light[:24] == start[:24] and dark[:24] == start[:24]:
            return s
    if variant_named(variant).same_direction:
        # pip counts tell no direction when both travel the same way: the default seating
        return Seating.for_home(variant, "bottom-right", settings.mirror)

    def pips(s: Seating) -> int:
        light, dark = sides_from_seen(ev, s)
        return sum((i + 1) * n for i, n in enumerate(light)) + sum((i + 1) * n for i, n in enumerate(dark))

    return min(candidates, key=pips)


def position_for(state: State, sides: Sides, mover: int) -> Any:
    return variant_in(state).position(sides[mover], sides[1 - mover])


def plays_for(state: State, sides: Sides, mover: int, dice: tuple[int, int]) -> list[Any]:
    return list(variant_in(state).legal_plays(position_for(state, sides, mover), dice[0], dice[1]))


def pad(side: tuple[int, ...]) -> tuple[int, ...]:
    """A side as 25 entries (nardy positions have no bar entry)."""
    return tuple(side) + (0,) * (25 - len(side))


def is_start(sides: Sides, variant: Variant) -> bool:
    start = variant.start_side()
    return sides[0] == start and sides[1] == start


MIN_DIE_CONFIDENCE = 0.5  # dice read less surely are left out (a pip pattern on a checker, a shadow)



def trusted_dice(ev: BoardSeen) -> tuple[DieSeen, ...]:
    """The dice the referee believes: those read with some confidence. More than two pairs cannot be
    on a backgammon board: such a reading is left out whole (a note says so) rather than ruled on."""
    dice = tuple(d for d in ev.dice if d.confidence >= MIN_DIE_CONFIDENCE)
    return dice if len(dice) <= MAX_DICE else ()


def half_of(dice: tuple[DieSeen, ...]) -> bool | None:
    halves = {right_half(d.slot) for d in dice if d.slot is not None}
    return halves.pop() if len(halves) == 1 else None


def in_contact(sides: Sides, variant: Variant) -> bool:
    """True while the checkers can still meet (RULES.md B16 waiver: contact is over otherwise)."""
    return variant.in_contact(sides[0], sides[1])


def show(
    state: State,
    ev: BoardSeen,
    title: str,
    mover: int | None,
    dice: tuple[int, int] | None,
    sides: Sides | None,
    notes: tuple[str, ...] = (),
) -> tuple[Show, LedFrame, list[Any], Any]:
    """The console view and the movable-points LED frame for one reading."""
    legal = None
    movable: tuple[int, ...] = ()
    movable_slots: tuple[int, ...] = ()
    pips = None
    pos_id = None
    plays: list[Any] = []
    position = None
    frame = LedFrame.dark()
    hint = None
    seating = state.seating
    if sides is not None and seating is not None:
        pips = (
            sum((i + 1) * n for i, n in enumerate(sides[0])),
            sum((i + 1) * n for i, n in enumerate(sides[1])),
        )
    if sides is not None and seating is not None and mover is not None:
        position = position_for(state, sides, mover)
        if variant_in(state).gnubg:
            try:
                pos_id = position_id(position)
            except Exception:  # a partial reading may not encode; the ID is only informative
                pos_id = None
        if dice is not None:
            plays = plays_for(state, sides, mover, dice)
            legal = len(plays)
            movable = hints.movable_points(position, plays)
            movable_slots = tuple(sorted(hints.zones_for(seating, mover, movable)))
            frame = hints.movable_frame(seating, mover, movable)
            if state.settings.hints == "assistant" and variant_in(state).gnubg and plays:
                hint = Hint(
                    position,
                    dice,
                    tuple(plays),
                    mover,
                    seating,
                    state.settings.hint_plies,
                    state.settings.hint_noise,
                )
    view = Show(
        title=title,
        slots=tuple((c, n) for c, n, _ in ev.slots),
        bar=(ev.bar.get("light", 0), ev.bar.get("dark", 0)),
        off=(ev.off.get("light", 0), ev.off.get("dark", 0)),
        dice=tuple(d.value for d in ev.dice if d.value is not None),
        on_roll=mover,
        legal=legal,
        movable=movable,
        movable_slots=movable_slots,
        pips=pips,
        position_id=pos_id,
        light_home=seating.light_home() if seating else None,
        notes=notes,
        hint=hint,
        seating=seating,
    )
    return view, frame, plays, position


def announce(state: State, ruling: Ruling, out: list[Effect]) -> State:
    out.append(Announce(ruling))
    return replace(state, rulings=state.rulings + 1)


def partial_notes(sides: Sides) -> tuple[str, ...]:
    notes = []
    for p in (0, 1):
        n = sum(sides[p])
        if n < 15:
            notes.append(
                f"partial position: {NAMES[p]} has {n} checkers on the board and bar "
                f"({15 - n} borne off or not on the board)"
            )
        elif n > 15:
            notes.append(
                f"impossible position: {NAMES[p]} has {n} checkers on the board (a side has 15): "
                "some are misread"
            )
    return tuple(notes)


# --- step ------------------------------------------------------------------------------------------
