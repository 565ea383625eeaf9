"""The referee's state machine: pure ``step(state, event) -> (state, effects)`` (DESIGN.md "Data flow").

The same journal of events replayed from :func:`new_state` gives the same state and effects; that is
how ``tavla resume`` restarts a game and how every ruling is explained afterwards. No I/O, no clock
reads, no randomness: time comes in the events (``t``).

Phases (``State.phase``):

- ``setup`` -- waiting for the board in the start position (RULES.md B2, N2) and the opening roll
  (B3, N3: one die each, each on his own right-hand half; a tie is re-rolled, turning the cube when
  automatic doubles are on, B13). A board that is not at the start is analysed frame by frame
  (``free`` play: the hint assistant on any position, e.g. photos of a game in progress).
- ``to_roll`` -- the player on roll may double (B10) or roll. Dice on his half start the move; dice on
  the other half are the opponent's (out of turn).
- ``moving`` -- the mover's dice lie on the board; he may change his move until the turn ends (B16,
  N11): dice picked up, clock pressed. The arbiter (controller.arbiter) then names the play. A roll by
  the opponent before that is premature (B16).
- ``cube`` -- a double was offered; the doubled player takes, drops or (B11) beavers.
- ``deciding`` -- the turn ended with an illegal/incomplete or unclear move: the opponent accepts it or
  demands the legal move (B17, N11); his roll or double makes it stand (B17).
- ``game_over`` / ``match_over`` -- the score (B9, B12, B14, N9); the next opening roll on a start
  position begins the next game. With the nardy draw setting (N9) white's last checker off first
  gives black one last roll (``to_roll`` with ``last_roll``); bearing off all with it draws the game.

The cube, the score of a game and the match score are the rules core's (controller.rules.cube,
match, nardy_result): this module keeps their values in the state and turns their refusals
(``IllegalActionError`` reasons) into rulings with the RULES.md id.

Players: 0 = light, 1 = dark (the colours the camera names). Each player's checkers are a 25-tuple in
his own numbering (index 24 = bar); the mover's frame is a rules-core position ``(me, opp)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from controller import arbiter, hints
from controller import clock as clocks
from controller.clock import Clock
from controller.effects import Announce, Effect, GameEnded, Hint, Leds, Prompt, Show
from controller.events import BoardSeen, ButtonPressed, DeviceChanged, DieSeen, Event, MatchStarted, Tick
from controller.geometry import Seating, all_seatings, right_half
from controller.rules import nardy_result
from controller.rules.cube import (
    Cube,
    CubeSettings,
    GameResult,
    ResultKind,
    Stakes,
    automatic_double,
    beaver,
    cube_value,
    drop,
    game_result,
    offer_double,
    take,
)
from controller.rules.errors import IllegalActionError
from controller.rules.match import MatchState, record_game
from controller.rules.nardy_settings import NardySettings
from controller.rulings import Ruling, Settings, rethrow
from firmware_bridge.frames import LedFrame

COLOURS = ("light", "dark")
NAMES = ("light", "dark")
UNSURE = 0.5  # a point read with less confidence than this is left out of the comparison

_BG_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_NARDY_START = (0,) * 23 + (15, 0)

Sides = tuple[tuple[int, ...], tuple[int, ...]]


def start_side(variant: str) -> tuple[int, ...]:
    """One player's checkers at the start (RULES.md B2; N2: all 15 on the head, point 24)."""
    return _NARDY_START if variant == "nardy" else _BG_START


@dataclass(frozen=True)
class Turn:
    """One action of a game record: ``player`` and either a roll with its play (``dice``, ``moves`` as
    (src, dst) pairs in his numbering, ``illegal`` when accepted as played), or a cube action
    (``cube`` = double/take/drop/beaver)."""

    player: int
    dice: tuple[int, int] | None = None
    moves: tuple[tuple[int, int], ...] = ()
    cube: str | None = None
    illegal: bool = False


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
        automatic_doubles=settings.automatic_doubles and settings.variant == "backgammon",
        automatic_limit=settings.auto_double_limit,
        stakes=Stakes(settings.cube_progression),
        backgammon_as_gammon=settings.backgammon_as_gammon,
        no_gammons_when_doubled=settings.no_gammon_after_cube,
        crawford=settings.crawford,
    )


def nardy_settings(settings: Settings) -> NardySettings:
    """The rules core's nardy settings that end and score a game (RULES.md N9: koks, draw)."""
    return NardySettings(koks=settings.koks, draw=settings.nardy_draw)


def match_state(state: State) -> MatchState:
    """The match as the rules core keeps it (RULES.md B14), from the state's score and Crawford flags."""
    s = state.settings
    return MatchState(
        length=s.match_length,
        score=state.score,
        crawford_game=state.crawford_game,
        post_crawford=state.crawford_done and not state.crawford_game,
        games=len(state.records),
        crawford_rule=s.crawford and s.variant == "backgammon",
    )


def new_state(settings: Settings | None = None) -> State:
    """The state before any event (a money session with default settings unless given)."""
    return State(settings=settings or Settings())


# --- helpers ---------------------------------------------------------------------------------------


def _variant(state: State) -> str:
    return state.settings.variant


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
    if variant == "nardy":
        return Seating.for_home(variant, "bottom-right", settings.mirror)

    def pips(s: Seating) -> int:
        light, dark = sides_from_seen(ev, s)
        return sum((i + 1) * n for i, n in enumerate(light)) + sum((i + 1) * n for i, n in enumerate(dark))

    return min(candidates, key=pips)


def _position(state: State, sides: Sides, mover: int) -> Any:
    return arbiter.make_position(_variant(state), sides[mover], sides[1 - mover])


def _plays(state: State, sides: Sides, mover: int, dice: tuple[int, int]) -> list[Any]:
    options: dict[str, Any] = {}
    if _variant(state) == "nardy":
        options["block_rule"] = state.settings.nardy_block
    return arbiter.legal_plays_for(
        _variant(state), _position(state, sides, mover), dice[0], dice[1], **options
    )


def _pad(side: tuple[int, ...]) -> tuple[int, ...]:
    """A side as 25 entries (nardy positions have no bar entry)."""
    return tuple(side) + (0,) * (25 - len(side))


def _is_start(sides: Sides, variant: str) -> bool:
    start = start_side(variant)
    return sides[0] == start and sides[1] == start


MIN_DIE_CONFIDENCE = 0.5  # dice read less surely are left out (a pip pattern on a checker, a shadow)
MAX_DICE = 4  # two pairs: the mover's and an opponent's premature roll (RULES.md B16)


def _roll_of(ev: BoardSeen) -> tuple[DieSeen, ...]:
    """The dice the referee believes: those read with some confidence. More than two pairs cannot be
    on a backgammon board: such a reading is left out whole (a note says so) rather than ruled on."""
    dice = tuple(d for d in ev.dice if d.confidence >= MIN_DIE_CONFIDENCE)
    return dice if len(dice) <= MAX_DICE else ()


def _half_of(dice: tuple[DieSeen, ...]) -> bool | None:
    halves = {right_half(d.slot) for d in dice if d.slot is not None}
    return halves.pop() if len(halves) == 1 else None


def _contact(sides: Sides, variant: str) -> bool:
    """True while the checkers can still meet (RULES.md B16 waiver: contact is over otherwise)."""
    me, opp = sides
    if variant == "nardy":
        return True
    mine = [i + 1 for i in range(25) if me[i]]
    theirs = [24 - i for i in range(24) if opp[i]] + ([0] if opp[24] else [])
    if not mine or not theirs:
        return False
    return max(mine) > min(theirs)


def _show(
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
        position = _position(state, sides, mover)
        if _variant(state) == "backgammon":
            try:
                from controller.formats.position_id import position_id

                pos_id = position_id(position)
            except Exception:  # a partial reading may not encode; the ID is only informative
                pos_id = None
        if dice is not None:
            plays = _plays(state, sides, mover, dice)
            legal = len(plays)
            movable = hints.movable_points(position, plays)
            movable_slots = tuple(sorted(hints.zones_for(seating, mover, movable)))
            frame = hints.movable_frame(seating, mover, movable)
            if state.settings.hints == "assistant" and _variant(state) == "backgammon" and plays:
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
    )
    return view, frame, plays, position


def _announce(state: State, ruling: Ruling, out: list[Effect]) -> State:
    out.append(Announce(ruling))
    return replace(state, rulings=state.rulings + 1)


def _partial_notes(sides: Sides) -> tuple[str, ...]:
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


def step(state: State, event: Event) -> tuple[State, list[Effect]]:
    """Apply one event; return the new state and the effects to run (in order).

    Never raises on a bad reading: an impossible or partial board becomes a note or a ruling.
    """
    before = state
    state, out = _step(state, event)
    if state.settings.clock is not None and not isinstance(event, MatchStarted):
        state, out = _run_clock(before, state, event, out)
    return state, out


_CLOCK_PHASES = ("to_roll", "moving", "deciding", "cube")


def _run_clock(before: State, state: State, event: Event, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The clock follows the turn (issue 6 item 6): it runs for the player on roll, stops at the game's
    end, pauses while a device is offline, and a spent reserve loses the match (tournament clock rules)."""
    s = state.settings
    t = event.t
    clock = state.clock
    if clock is None:
        clock = clocks.preset(
            s.clock or "simple", s.match_length, state.score, s.clock_reserve, s.clock_delay
        )
    if isinstance(event, DeviceChanged):
        if state.offline and not before.offline:
            clock = clocks.pause(clock, t, event.since)
        elif not state.offline and before.offline:
            clock = clocks.resume(clock, t)
    running = state.on_roll if state.phase in _CLOCK_PHASES else None
    if running != clock.running:
        clock = clocks.start(clock, running, t) if running is not None else clocks.stop(clock, t)
    clock = clocks.check_flag(clock, t)
    state = replace(state, clock=clock)
    if clock.flag is not None and state.phase not in ("match_over",):
        loser = clock.flag
        winner = 1 - loser
        state = _announce(
            state,
            Ruling(
                "clock",
                "flag",
                f"{NAMES[loser]}'s time ran out: {NAMES[winner]} wins"
                f"{' the match' if not s.money else ' the game'}",
                loser,
            ),
            out,
        )
        # a flag loses the match (money play: the game at the cube's stake)
        points = max(1, s.match_length - state.score[winner]) if not s.money else state.cube
        lost = GameResult(_player(winner), ResultKind.RESIGN, points, state.cube)
        state, out = _game_over(
            replace(state, sides=state.sides or (start_side(s.variant),) * 2), winner, out, ("time", lost)
        )
        state = replace(state, clock=replace(clocks.stop(clock, t), flag=None))
    return state, out


def _step(state: State, event: Event) -> tuple[State, list[Effect]]:
    out: list[Effect] = []
    if isinstance(event, MatchStarted):
        settings = Settings.from_json(event.settings) if event.settings else state.settings
        return new_state(settings), [
            Prompt(
                f"new {'money session' if settings.money else f'{settings.match_length}-point match'} "
                f"of {settings.variant}: set up the board and roll one die each"
            )
        ]
    if isinstance(event, DeviceChanged):
        off = set(state.offline)
        (off.discard if event.online else off.add)(event.device)
        return replace(state, offline=frozenset(off)), [
            Prompt(f"{event.device} {'back online' if event.online else 'offline: clock paused'}")
        ]
    if isinstance(event, Tick):
        return state, out
    if isinstance(event, ButtonPressed):
        return _button(state, event, out)
    if isinstance(event, BoardSeen):
        return _board(state, event, out)
    return state, out


def _board(state: State, ev: BoardSeen, out: list[Effect]) -> tuple[State, list[Effect]]:
    if not ev.usable:
        why = "a hand covers the board" if ev.occluded else f"no usable reading ({ev.status})"
        out.append(Prompt(f"waiting: {why}"))
        return state, out
    if state.seating is None or state.phase in ("setup", "game_over"):
        state = replace(state, seating=infer_seating(ev, state.settings))
    elif state.phase == "free":
        # keep the numbering found on the first board, unless a start position shows another
        other = infer_seating(ev, state.settings)
        if other != state.seating and _is_start(sides_from_seen(ev, other), _variant(state)):
            state = replace(state, seating=other)
    assert state.seating is not None
    seen = sides_from_seen(ev, state.seating)
    dice = _roll_of(ev)
    if state.phase in ("setup", "free", "game_over", "match_over"):
        return _setup(state, ev, seen, dice, out)
    if state.phase == "to_roll":
        return _to_roll(state, ev, seen, dice, out)
    if state.phase == "moving":
        return _moving(state, ev, seen, dice, out)
    if state.phase == "deciding":
        return _deciding(state, ev, seen, dice, out)
    if state.phase == "cube":
        out.append(Prompt(f"{NAMES[1 - (state.on_roll or 0)]}: take or drop the double"))
        return state, out
    return state, out


def _setup(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """No game under way: start one on an opening roll over the start position, else free analysis."""
    assert state.seating is not None
    variant = _variant(state)
    if state.phase == "match_over":
        out.append(Prompt("the match is over: start a new one (tavla run --config ...)"))
        return state, out
    if _is_start(seen, variant):
        if variant == "nardy" and state.phase == "game_over" and state.starter is not None:
            return _nardy_next_game(state, ev, seen, dice, out)
        if not dice:
            view, _, _, _ = _show(state, ev, "start position: roll one die each", None, None, seen)
            out.append(view)
            return replace(state, sides=seen), out
        return _opening(state, ev, seen, dice, out)
    if state.phase == "game_over":
        out.append(Prompt("game over: set up the start position for the next game"))
        return state, out
    # free play: analyse this board alone (hint assistant over any position)
    notes = list(_partial_notes(seen))
    if not dice and ev.dice:
        notes.append(f"{len(ev.dice)} dice-like marks read, none trusted: no roll taken from this frame")
    mover = None
    roll = None
    if len(dice) == 2:
        ruling = rethrow(dice[:2], state.settings)
        if ruling is not None:
            state = _announce(state, ruling, out)
            out.append(Leds(hints.rethrow_frame(), "re-throw"))
        else:
            half = _half_of(dice)
            mover = state.seating.roller_for_half(bool(half)) if half is not None else None
            roll = (dice[0].value, dice[1].value)  # type: ignore[assignment]
    elif len(dice) == 1:
        notes.append("only one die seen")
    elif len(dice) > 2:
        notes.append(f"{len(dice)} dice on the board: waiting for one roll")
    position_ok = True
    pos = arbiter.make_position(variant, seen[0], seen[1])
    flags = pos.status() if hasattr(pos, "status") else 0
    if flags:
        notes.append(f"no legal plays counted: the position is impossible ({arbiter._flag_names(flags)})")
        position_ok = False
    view, frame, _, _ = _show(
        state, ev, "board", mover, roll if position_ok else None, seen if position_ok else seen, tuple(notes)
    )
    if not position_ok:
        view = replace(view, legal=None, movable=(), movable_slots=())
        frame = LedFrame.dark()
    if state.phase == "free" and position_ok:
        state = _free_inference(state, seen, out)
    out.append(view)
    if not any(isinstance(e, Leds) for e in out):
        out.append(Leds(frame, "movable points" if view.movable else "nothing to play"))
    prev = (seen, mover, roll) if position_ok and mover is not None and roll is not None else None
    if prev is None and state.pending and state.pending[0] == "free" and state.pending[1][0] == seen:
        prev = state.pending[1]  # same board, dice gone: keep the roll for the next change
    return replace(state, phase="free", sides=seen, pending=("free", prev) if prev else ()), out


def _free_inference(state: State, seen: Sides, out: list[Effect]) -> State:
    """Free play (a game joined in progress): when the board changes after a roll was seen, name the
    play that explains the change, or raise a dispute when none does (RULES.md B17, N11)."""
    if not state.pending or state.pending[0] != "free":
        return state
    before_sides, mover, roll = state.pending[1]
    if seen == before_sides:
        return state
    before = _position(state, before_sides, mover)
    plays = _plays(state, before_sides, mover, roll)
    verdict = arbiter.infer(before, plays, _position(state, seen, mover), (arbiter.BAR,), _variant(state))
    rule = "N11" if _variant(state) == "nardy" else "B17"
    if isinstance(verdict, arbiter.Made):
        text = _describe_plays(state, (verdict.play,)) if verdict.play.moves else "no move (none possible)"
        out.append(Prompt(f"{NAMES[mover]} played {roll[0]}-{roll[1]}: {text} (legal)"))
        return state
    if isinstance(verdict, arbiter.Ambiguous):
        text = _describe_plays(state, verdict.candidates)
        return _announce(
            state,
            Ruling(
                rule,
                "unclear",
                f"{NAMES[mover]}'s {roll[0]}-{roll[1]}: the camera cannot "
                f"tell which play was made ({text}); confirm it",
                mover,
            ),
            out,
        )
    if isinstance(verdict, arbiter.Illegal):
        text = _describe_plays(state, verdict.closest)
        return _announce(
            state,
            Ruling(
                rule,
                "dispute",
                f"the board changed in a way no legal play of "
                f"{NAMES[mover]}'s {roll[0]}-{roll[1]} explains ({verdict.distance} checkers "
                f"differ from the closest: {text}): check the board or the reading",
                mover,
            ),
            out,
        )
    out.append(Prompt(f"cannot judge the change: {verdict.reason}"))
    return state


def _opening(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B3 / N3: one die each on his own right-hand half; ties re-rolled (B13 cube)."""
    assert state.seating is not None
    s = state.settings
    if len(dice) < 2:
        out.append(Prompt("opening roll: each player rolls one die"))
        return replace(state, sides=seen), out
    for d in dice[:2]:
        r = rethrow((d,), s)
        if r is not None:
            state = _announce(state, r, out)
            out.append(Leds(hints.rethrow_frame(), "re-throw"))
            return state, out
    by_player: dict[int, int] = {}
    for d in dice[:2]:
        if d.slot is None or d.value is None:
            continue
        by_player[state.seating.roller_for_half(right_half(d.slot))] = d.value
    if len(by_player) != 2:
        rule = "N10" if s.variant == "nardy" else "B15"
        state = _announce(
            state,
            Ruling(rule, "rethrow", "opening roll: each player's die must land on his own right-hand half"),
            out,
        )
        out.append(Leds(hints.rethrow_frame(), "re-throw"))
        return state, out
    a, b = by_player[0], by_player[1]
    if a == b:
        reason = f"opening roll tied {a}-{b}: both roll again"
        rule = "N3" if s.variant == "nardy" else "B3"
        cube = automatic_double(state.cube_state, cube_settings(s))  # RULES.md B13, with its limit
        if cube != state.cube_state:
            state = replace(state, cube_state=cube)
            reason += f"; automatic double: the cube is now {state.cube} and stays in the middle"
            rule = "B13"
        state = _announce(
            replace(state, opening_ties=state.opening_ties + 1, sides=seen),
            Ruling(rule, "opening_tie", reason),
            out,
        )
        return state, out
    first = 0 if a > b else 1
    game_number = state.game_number + 1
    # RULES.md B14: whether this is the Crawford game was settled when the last game was recorded
    crawford = match_state(state).crawford_game
    state = replace(
        state,
        starter=first,
        sides=seen,
        on_roll=first,
        game_number=game_number,
        turns=(),
        first_roll=(True, True),
        cube_state=replace(state.cube_state, owner=None, offered_by=None, beaver=False),
        opening_ties=0,
        crawford_game=crawford,
        crawford_done=state.crawford_done or crawford,
        premature=None,
        pending=(),
    )
    if crawford:
        out.append(Prompt(f"game {game_number} is the Crawford game: no doubling (RULES.md B14)"))
    if s.variant == "nardy":
        out.append(
            Prompt(
                f"{NAMES[first]} won the opening roll {max(a, b)}-{min(a, b)}: {NAMES[first]} plays white "
                "and rolls to start (RULES.md N3)"
            )
        )
        return replace(state, phase="to_roll", dice=None), out
    roll = (max(a, b), min(a, b))
    out.append(Prompt(f"{NAMES[first]} won the opening roll and plays {roll[0]}-{roll[1]} (RULES.md B3)"))
    return _begin_move(state, ev, first, roll, out)


def _nardy_next_game(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md N3: in a series, no opening roll after the first game: colours alternate and the player
    who had black starts (default), or the winner starts (setting ``nardy_next_game = "winner"``)."""
    assert state.starter is not None
    s = state.settings
    first = (
        state.last_winner
        if s.nardy_next_game == "winner" and state.last_winner is not None
        else 1 - state.starter
    )
    state = replace(
        state,
        phase="to_roll",
        starter=first,
        on_roll=first,
        sides=seen,
        game_number=state.game_number + 1,
        turns=(),
        pending=(),
        premature=None,
        dice=None,
    )
    why = (
        "the winner starts"
        if s.nardy_next_game == "winner"
        else "colours alternate: black of the last game starts"
    )
    out.append(
        Prompt(f"game {state.game_number}: {NAMES[first]} plays white and rolls first ({why}; RULES.md N3)")
    )
    if dice:
        return _to_roll(state, ev, seen, dice, out)
    return state, out


def _begin_move(
    state: State, ev: BoardSeen, mover: int, roll: tuple[int, int], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.sides is not None
    state = replace(
        state, phase="moving", on_roll=mover, dice=roll, seen=state.sides, dice_present=True, premature=None
    )
    view, frame, plays, _ = _show(
        state, ev, f"{NAMES[mover]} to play {roll[0]}-{roll[1]}", mover, roll, state.sides
    )
    out.append(view)
    if state.settings.hints == "assistant":
        out.append(Leds(frame, "movable points"))
    if not plays:
        out.append(
            Prompt(f"{NAMES[mover]} cannot play {roll[0]}-{roll[1]}: pick up the dice (RULES.md B5/B7)")
        )
    return state, out


def _to_roll(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.seating is not None and state.on_roll is not None and state.sides is not None
    mover = state.on_roll
    if not dice:
        if not _same_board(seen, state.sides, ev):
            out.append(Prompt(f"the board changed before {NAMES[mover]} rolled: put the checkers back"))
        return state, out
    if len(dice) < 2:
        return state, out
    half = _half_of(dice[:2])
    nardy = _variant(state) == "nardy"
    if not nardy and half is not None and state.seating.roller_for_half(half) != mover:
        rule = "B15"
        state = _announce(
            state,
            Ruling(
                rule,
                "out_of_turn",
                f"{NAMES[1 - mover]} rolled out of turn: it is {NAMES[mover]}'s roll; pick up those dice",
                1 - mover,
            ),
            out,
        )
        return state, out
    ruling = rethrow(dice[:2], state.settings, None if nardy else state.seating.seat_bottom(mover))
    if ruling is not None:
        state = _announce(state, replace(ruling, player=mover), out)
        out.append(Leds(hints.rethrow_frame(), "re-throw"))
        return state, out
    roll = (int(dice[0].value or 0), int(dice[1].value or 0))
    return _begin_move(state, ev, mover, roll, out)


def _moving(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.seating is not None and state.on_roll is not None and state.dice is not None
    mover = state.on_roll
    nardy = _variant(state) == "nardy"
    mine = tuple(
        d
        for d in dice
        if nardy or d.slot is None or state.seating.roller_for_half(right_half(d.slot)) == mover
    )
    theirs = tuple(d for d in dice if d not in mine)
    if theirs and mine and len(theirs) >= 2 and not nardy:
        return _premature(state, ev, seen, theirs, out)
    if not mine and not theirs:
        if not state.dice_present:
            # correcting a move after a ruling (the dice already off the board): the turn ends as soon
            # as the board shows a legal play, or on the clock button
            return _correcting(state, ev, seen, out)
        if state.settings.end_on_pickup:
            return _turn_end(replace(state, seen=seen), ev, out, "dice picked up")
        return replace(state, seen=seen, dice_present=False), out
    if mine and not state.dice_present:
        state = replace(state, dice_present=True)
    if not mine and len(theirs) >= 2 and not nardy:
        # the mover's dice went and the opponent rolled in the same settled frame: turn end, then the roll
        state, out = _turn_end(replace(state, seen=seen), ev, out, "dice picked up")
        if state.phase == "to_roll":
            return _to_roll(state, ev, seen, theirs, out)
        return state, out
    if seen != state.seen and state.sides is not None:
        lifted = _lifted_from(state.sides[mover], seen[mover])
        if lifted is not None and state.settings.hints == "assistant":
            plays = _plays(state, state.sides, mover, state.dice)
            dests = hints.destinations(plays, lifted)
            if dests:
                out.append(Leds(hints.destination_frame(state.seating, mover, lifted, dests), "destinations"))
    if seen != state.seen:
        state = replace(state, seen=seen)
        view, _, _, _ = _show(
            state,
            ev,
            f"{NAMES[mover]} moving {state.dice[0]}-{state.dice[1]}",
            mover,
            state.dice,
            state.sides,
        )
        out.append(
            replace(
                view,
                title=f"{NAMES[mover]} moving {state.dice[0]}-{state.dice[1]} (board changed)",
                hint=None,
            )
        )
    return state, out


def _same_board(a: Sides, b: Sides, ev: BoardSeen) -> bool:
    """Both sides equal; the bar left out on a board without one (its hit checkers lie beside it)."""
    if ev.has_bar is False:
        return a[0][:24] == b[0][:24] and a[1][:24] == b[1][:24]
    return a == b


def _lifted_from(before: tuple[int, ...], now: tuple[int, ...]) -> int | None:
    """The point a checker was just lifted from (in the mover's hand): exactly one checker fewer on one
    point and nothing else changed; else None."""
    diff = [(i + 1, now[i] - before[i]) for i in range(min(len(before), len(now))) if now[i] != before[i]]
    if len(diff) == 1 and diff[0][1] == -1:
        return diff[0][0]
    return None


def _correcting(state: State, ev: BoardSeen, seen: Sides, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B17 / N11 after "demand the legal move": wait for a legal play on the board."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    if seen == state.seen:
        return state, out
    mover = state.on_roll
    plays = _plays(state, state.sides, mover, state.dice)
    verdict = arbiter.infer(
        _position(state, state.sides, mover),
        plays,
        _position(state, seen, mover),
        _unsure(state, ev, mover),
        _variant(state),
        tolerate=_tolerated(state),
    )
    if isinstance(verdict, arbiter.Made) and (verdict.play.moves or not plays):
        return _commit(replace(state, seen=seen), verdict.play, out, "corrected")
    return replace(state, seen=seen), out


def _premature(
    state: State, ev: BoardSeen, seen: Sides, theirs: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B16: the opponent rolled before the mover ended his turn."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    mover, opp = state.on_roll, 1 - state.on_roll
    if state.premature == opp:
        return state, out  # already ruled on this roll
    s = state.settings
    plays = _plays(state, state.sides, mover, state.dice)
    forced = len(plays) <= 1
    no_contact = not _contact(state.sides, _variant(state))
    if s.premature_roll == "stands" or (s.premature_waiver and (forced or no_contact)):
        why = (
            "the rules in force let a premature roll stand"
            if s.premature_roll == "stands"
            else "the move was forced"
            if forced
            else "contact is over"
        )
        state = _announce(
            state,
            Ruling(
                "B16",
                "premature_stands",
                f"{NAMES[opp]} rolled before {NAMES[mover]} ended the turn; the roll stands because {why}",
                opp,
            ),
            out,
        )
        state, out = _turn_end(replace(state, seen=seen), ev, out, "opponent rolled")
        if state.phase == "to_roll":
            return _to_roll(state, ev, seen, theirs, out)
        return state, out
    state = _announce(
        replace(state, premature=opp),
        Ruling(
            "B16",
            "premature_void",
            f"{NAMES[opp]} rolled before {NAMES[mover]} ended the turn: that roll is void; "
            "pick the dice up and roll after the turn ends",
            opp,
        ),
        out,
    )
    return state, out


def _turn_end(state: State, ev: BoardSeen | None, out: list[Effect], how: str) -> tuple[State, list[Effect]]:
    """RULES.md B16/N11: the turn is over; the arbiter names the play or a dispute is raised (B17)."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    assert state.seen is not None and state.seating is not None
    mover = state.on_roll
    before = _position(state, state.sides, mover)
    seen_pos = _position(state, state.seen, mover)
    plays = _plays(state, state.sides, mover, state.dice)
    unsure = _unsure(state, ev, mover) if ev is not None else ()
    verdict = arbiter.infer(before, plays, seen_pos, unsure, _variant(state), tolerate=_tolerated(state))
    rule_ill = "N11" if _variant(state) == "nardy" else "B17"
    if isinstance(verdict, arbiter.Made):
        return _commit(state, verdict.play, out, how)
    if isinstance(verdict, arbiter.Unreadable):
        out.append(
            Prompt(
                f"cannot read the board ({verdict.reason}): clear the board of hands and check the checkers"
            )
        )
        return replace(state, dice_present=False), out
    if isinstance(verdict, arbiter.Ambiguous):
        from controller.formats.notation import format_play

        cands = (
            ", ".join(format_play(p) for p in verdict.candidates[:3])
            if _variant(state) == "backgammon"
            else f"{len(verdict.candidates)} plays"
        )
        state = _announce(
            state,
            Ruling(
                rule_ill,
                "unclear",
                f"the camera cannot tell which play {NAMES[mover]} made "
                f"({cands}): confirm with the dispute button",
                mover,
            ),
            out,
        )
        return replace(state, phase="deciding", pending=("ambiguous", verdict.candidates)), out
    assert isinstance(verdict, arbiter.Illegal)
    closest = _describe_plays(state, verdict.closest)
    what = "incomplete" if verdict.unchanged else "illegal"
    if state.settings.illegal_move == "must_correct":
        state = _announce(
            state,
            Ruling(
                rule_ill,
                "must_correct",
                f"{NAMES[mover]}'s move is {what}; it must be "
                f"corrected (Legal Moves policy); closest legal: {closest}",
                mover,
            ),
            out,
        )
        out.append(
            Leds(
                hints.warning_frame(
                    state.seating,
                    mover,
                    hints.changed_points(verdict.closest[0].result, seen_pos) if verdict.closest else (),
                ),
                "illegal move",
            )
        )
        return replace(state, phase="moving", dice_present=False), out
    state = _announce(
        state,
        Ruling(
            rule_ill,
            "illegal",
            f"{NAMES[mover]}'s move is {what}: {NAMES[1 - mover]} may "
            f"accept it (dispute button) or demand the legal move (long press); closest legal: {closest}",
            mover,
        ),
        out,
    )
    if verdict.closest:
        out.append(
            Leds(
                hints.warning_frame(
                    state.seating, mover, hints.changed_points(verdict.closest[0].result, seen_pos)
                ),
                "illegal move",
            )
        )
    return replace(state, phase="deciding", pending=("illegal", verdict.closest)), out


def _describe_plays(state: State, plays: tuple[Any, ...]) -> str:
    if not plays:
        return "no play (the roll could not be played)"
    if _variant(state) != "backgammon":
        return " | ".join(" ".join(f"{m.src}/{m.dst}" for m in p.moves) for p in plays[:3])
    from controller.formats.notation import format_play

    return " | ".join(format_play(p) for p in plays[:3])


def _tolerated(state: State) -> Any:
    """Status flags a seen position may carry now: both sides finished, after black's last roll under
    the nardy draw setting (RULES.md N9); else none."""
    if state.last_roll and _variant(state) == "nardy":
        from controller.rules.nardy_position import NardyStatus

        return NardyStatus.BOTH_FINISHED
    return None


def _unsure(state: State, ev: BoardSeen, mover: int) -> tuple[int, ...]:
    assert state.seating is not None
    pts = {state.seating.point(mover, s) for s, (_, _, conf) in enumerate(ev.slots) if conf < UNSURE}
    if ev.has_bar is False:
        pts.add(arbiter.BAR)
    return tuple(sorted(pts))


def _commit(
    state: State, play: Any, out: list[Effect], how: str, illegal: bool = False, result: Sides | None = None
) -> tuple[State, list[Effect]]:
    """The move is final: record it, hand the turn over, or end the game (RULES.md B9, N9)."""
    assert state.on_roll is not None and state.dice is not None
    mover = state.on_roll
    if result is None:
        me, opp = _pad(play.result.me), _pad(play.result.opp)
        result = (me, opp) if mover == 0 else (opp, me)
    moves = tuple((m.src, m.dst) for m in play.moves) if play is not None else ()
    turn = Turn(mover, state.dice, moves, illegal=illegal)
    fr = list(state.first_roll)
    fr[mover] = False
    state = replace(
        state,
        sides=result,
        seen=result,
        turns=state.turns + (turn,),
        first_roll=(fr[0], fr[1]),
        dice=None,
        dice_present=False,
        pending=(),
    )
    if _variant(state) == "nardy":
        return _nardy_turn_end(state, mover, result, out, how)
    if not any(result[mover]):
        return _game_over(state, mover, out)
    nxt = 1 - mover
    out.append(Prompt(f"{NAMES[mover]}'s turn ends ({how}); {NAMES[nxt]} to roll"))
    state = replace(state, phase="to_roll", on_roll=nxt, premature=None)
    return state, out


def _nardy_turn_end(
    state: State, mover: int, result: Sides, out: list[Effect], how: str
) -> tuple[State, list[Effect]]:
    """RULES.md N9 through the rules core (``nardy_result.end_of_turn``): the game goes on, black gets
    his last roll (draw setting: white has just borne off his last checker), or it is over -- a draw
    when black bore off all with that last roll, else scored as oin / mars / koks."""
    position = arbiter.make_position("nardy", result[mover], result[1 - mover])
    white = mover == state.starter  # the player who made the game's first move has white (N3)
    end, res = nardy_result.end_of_turn(
        position, nardy_settings(state.settings), mover_is_white=white, last_roll=state.last_roll
    )
    nxt = 1 - mover
    if end is nardy_result.TurnEnd.LAST_ROLL:
        state = _announce(
            state,
            Ruling(
                "N9",
                "last_roll",
                f"{NAMES[mover]} (white) bore off his last checker: {NAMES[nxt]} (black) gets one last roll; "
                "bearing off all with it draws the game (draw setting)",
                nxt,
            ),
            out,
        )
        return replace(state, phase="to_roll", on_roll=nxt, premature=None, last_roll=True), out
    if end is nardy_result.TurnEnd.CONTINUE:
        out.append(Prompt(f"{NAMES[mover]}'s turn ends ({how}); {NAMES[nxt]} to roll"))
        return replace(state, phase="to_roll", on_roll=nxt, premature=None), out
    assert res is not None
    if res.winner is None:
        return _draw(state, out)
    winner = mover if res.winner == "me" else nxt
    return _game_over(state, winner, out)


def _draw(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md N9 draw setting: black bore off all with his last roll. No points change hands here
    (the tournament's rule gives each ½ or 1, SV 4.3*); the next game follows N3 (colours alternate)."""
    black = 1 - (state.starter or 0)
    state = _announce(
        state,
        Ruling(
            "N9",
            "draw",
            f"{NAMES[black]} (black) bore off all his checkers with his last roll: game {state.game_number} "
            f"is drawn (1/2-1/2 or 1-1 by the tournament's rule); score {state.score[0]}-{state.score[1]}",
        ),
        out,
    )
    record = GameRecord(
        state.game_number, None, 0, "draw", state.turns, state.score, state.crawford_game, state.cube
    )
    out.append(GameEnded(None, 0, "draw", state.score, False, state.game_number))
    return replace(
        state,
        phase="game_over",
        records=state.records + (record,),
        last_winner=None,
        last_roll=False,
        dice=None,
        on_roll=None,
    ), out


_NARDY_KINDS = {
    nardy_result.ResultKind.OIN: ResultKind.SINGLE,
    nardy_result.ResultKind.MARS: ResultKind.GAMMON,
    nardy_result.ResultKind.KOKS: ResultKind.BACKGAMMON,
}


def score_game(state: State, winner: int) -> tuple[str, GameResult]:
    """How a game borne off by ``winner`` scores: the kind's name and the rules core's result.

    Backgammon: RULES.md B9 (single / gammon / backgammon, ``Backgammon.result_multiple``) times the
    cube, with B9's settings and B12 (Jacobi), by :func:`controller.rules.cube.game_result`.
    Long nardy: RULES.md N9 (oin 1, mars 2, koks 3 with the setting) by
    :func:`controller.rules.nardy_result.score`; there is no cube.

    :raises ValueError: when ``winner`` still has checkers (the game is not over).
    """
    assert state.sides is not None
    s = state.settings
    position = arbiter.make_position(s.variant, state.sides[winner], state.sides[1 - winner])
    if s.variant == "nardy":
        nardy = nardy_result.score(position, nardy_settings(s))
        if nardy is None or nardy.winner != "me":
            raise ValueError(f"{NAMES[winner]} has not borne off all his checkers")
        return nardy.kind.value, GameResult(_player(winner), _NARDY_KINDS[nardy.kind], nardy.points, 1)
    from controller.rules.variant import Backgammon

    multiple = Backgammon().result_multiple(position)
    result = game_result(_player(winner), multiple, state.cube_state, cube_settings(s))
    # the kind as scored (a backgammon under Jacobi counts, and is named, single): points / stake
    return _SCORED_AS[result.points // result.cube_value], result


_SCORED_AS = {1: "single", 2: "gammon", 3: "backgammon"}


def _player(p: int) -> Literal[0, 1]:
    return 0 if p == 0 else 1


def _game_over(
    state: State, winner: int, out: list[Effect], result: tuple[str, GameResult] | None = None
) -> tuple[State, list[Effect]]:
    """Score the game through the rules core (RULES.md B9/N9; B14 match score and Crawford flags)."""
    s = state.settings
    kind, res = result if result is not None else score_game(state, winner)
    points = res.points
    match = record_game(match_state(state), res)
    score = match.score
    match_over = match.is_over
    record = GameRecord(
        state.game_number,
        winner,
        points,
        kind,
        state.turns,
        state.score,
        state.crawford_game,
        state.cube,
        state.cube_state.automatic,
    )
    rule = "N9" if s.variant == "nardy" else "B9"
    state = _announce(
        state,
        Ruling(
            rule,
            "game_over",
            f"{NAMES[winner]} wins game {state.game_number}: {kind}, "
            f"{points} point{'s' if points != 1 else ''}; score {score[0]}-{score[1]}",
            winner,
        ),
        out,
    )
    out.append(GameEnded(winner, points, kind, (score[0], score[1]), match_over, state.game_number))
    return replace(
        state,
        phase="match_over" if match_over else "game_over",
        score=(score[0], score[1]),
        crawford_game=match.crawford_game,
        crawford_done=match.post_crawford or match.crawford_game,
        records=state.records + (record,),
        last_winner=winner,
        cube_state=Cube(),
        last_roll=False,
        dice=None,
        on_roll=None,
    ), out


# --- disputes and buttons --------------------------------------------------------------------------


def _deciding(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B17: the opponent's roll makes the previous move stand."""
    assert state.on_roll is not None and state.seating is not None
    mover = state.on_roll
    if len(dice) >= 2:
        half = _half_of(dice[:2])
        if _variant(state) == "nardy" or (
            half is not None and state.seating.roller_for_half(half) == 1 - mover
        ):
            state = _announce(
                state,
                Ruling(
                    "B17",
                    "stands",
                    f"{NAMES[1 - mover]} rolled: {NAMES[mover]}'s move stands as played",
                    mover,
                ),
                out,
            )
            state, out = _accept(state, out)
            if state.phase == "to_roll":
                return _to_roll(state, ev, seen, dice, out)
            return state, out
    if seen != state.seen:
        state = replace(state, seen=seen)
    return state, out


def _accept(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The move is accepted as played (the board seen becomes the position)."""
    assert state.seen is not None
    kind, data = state.pending if state.pending else ("illegal", ())
    if kind == "ambiguous" and data:
        return _commit(state, data[0], out, "accepted")
    return _commit(state, _AsPlayed(), out, "accepted as played", illegal=True, result=state.seen)


@dataclass(frozen=True)
class _AsPlayed:
    moves: tuple[Any, ...] = ()


def _button(state: State, ev: ButtonPressed, out: list[Effect]) -> tuple[State, list[Effect]]:
    s = state.settings
    if ev.button == "clock" and ev.gesture == "long":
        return _hint_request(state, out)
    if ev.button == "clock":
        if state.phase == "moving" and s.end_on_clock and (ev.player is None or ev.player == state.on_roll):
            return _turn_end(state, None, out, "clock pressed")
        return state, out
    if ev.button == "dispute":
        if state.phase != "deciding":
            out.append(Prompt("nothing to dispute now"))
            return state, out
        if ev.gesture == "short":  # the opponent accepts the move as played
            rule = "N11" if s.variant == "nardy" else "B17"
            state = _announce(
                state,
                Ruling(rule, "accepted", f"{NAMES[1 - (state.on_roll or 0)]} accepts the move as played"),
                out,
            )
            return _accept(state, out)
        if ev.gesture == "long":  # demand the legal move
            rule = "N11" if s.variant == "nardy" else "B17"
            state = _announce(
                state,
                Ruling(
                    rule,
                    "correct",
                    f"{NAMES[1 - (state.on_roll or 0)]} demands a legal move: "
                    f"{NAMES[state.on_roll or 0]} plays the same roll again from the start of the turn",
                ),
                out,
            )
            return replace(state, phase="moving", pending=(), dice_present=False), out
        # double press: the camera is wrong; the players confirm the arbiter's first candidate
        if state.pending and state.pending[1]:
            state = _announce(
                state,
                Ruling(
                    "B17",
                    "override",
                    "the players overrule the camera: the first candidate play is taken as made",
                ),
                out,
            )
            return _commit(state, state.pending[1][0], out, "confirmed by the players")
        return state, out
    return _cube(state, ev, out)


def _hint_request(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """A long press on the clock button asks for a hint (issue 6 item 5: "home play, on request"):
    gnubg's best play when available, else the movable points. The referee setting gives none."""
    if state.settings.hints == "referee":
        out.append(Prompt("hints are off at a referee station"))
        return state, out
    if state.phase != "moving" or state.on_roll is None or state.dice is None or state.sides is None:
        out.append(Prompt("a hint needs a roll on the board"))
        return state, out
    assert state.seating is not None
    mover = state.on_roll
    position = _position(state, state.sides, mover)
    plays = _plays(state, state.sides, mover, state.dice)
    if _variant(state) == "backgammon" and plays:
        out.append(
            Hint(
                position,
                state.dice,
                tuple(plays),
                mover,
                state.seating,
                state.settings.hint_plies,
                state.settings.hint_noise,
                leds=True,
            )
        )
    else:
        out.append(
            Leds(
                hints.movable_frame(state.seating, mover, hints.movable_points(position, plays)),
                "movable points",
            )
        )
    return state, out


def _cube(state: State, ev: ButtonPressed, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B10, B11, B14: doubles, takes, drops, beavers."""
    s = state.settings
    p = ev.player
    if s.variant == "nardy":
        out.append(Prompt("long nardy is played without the cube"))
        return state, out
    if ev.button == "double" and p is None and state.on_roll is None:
        out.append(Prompt("no game under way: nothing to double"))
        return state, out
    if ev.button == "double" and p is None and state.on_roll is not None:
        # a shared cube button: the player who may double now (after a finished turn, the opponent)
        p = 1 - state.on_roll if state.phase == "deciding" else state.on_roll
    if ev.button == "double":
        if state.phase == "deciding" and p is not None and p != state.on_roll:
            state = _announce(
                state, Ruling("B17", "stands", f"{NAMES[p]} doubled: the previous move stands as played"), out
            )
            state, out = _accept(state, out)
        if p is None or state.phase not in ("to_roll", "moving") or p != state.on_roll:
            # turn order is the referee's: the rules core judges a double by the player on turn
            why = "double refused: it is not this player's turn to double"
            refused = Ruling("B10", "double_refused", why, p)
            return _announce(state, refused, out), out
        try:
            cube = offer_double(
                state.cube_state,
                _player(p),
                rolled=state.phase == "moving",
                crawford_game=state.crawford_game,
            )
        except IllegalActionError as exc:
            return _cube_refused(state, exc, p, out)
        state = replace(state, phase="cube", cube_state=cube, turns=state.turns + (Turn(p, cube="double"),))
        offered = cube_value(cube.level + 1, cube_settings(s).stakes)
        out.append(Prompt(f"{NAMES[p]} doubles to {offered}: {NAMES[1 - p]} takes or drops"))
        return state, out
    offer = state.cube_state.offered_by
    if state.phase != "cube" or offer is None:
        out.append(Prompt(f"no double to {ev.button}"))
        return state, out
    answerer = 1 - offer
    if p is None:
        p = answerer
    action = "beaver" if ev.button == "take" and ev.gesture == "double" else ev.button  # beaver: double press
    try:
        if action == "beaver":
            cube = beaver(state.cube_state, _player(p), cube_settings(s))
        elif action == "take":
            cube = take(state.cube_state, _player(p))
        else:
            dropped = drop(state.cube_state, _player(p), cube_settings(s).stakes)
            state = replace(state, turns=state.turns + (Turn(p, cube="drop"),))
            return _game_over(state, dropped.winner, out, ("drop", dropped))
    except IllegalActionError as exc:
        return _cube_refused(state, exc, p, out)
    state = replace(state, cube_state=cube, turns=state.turns + (Turn(p, cube=action),))
    if action == "beaver":  # RULES.md B11: the original doubler now takes or drops
        reason = (
            f"{NAMES[p]} beavers: the cube is {state.cube}, owned by {NAMES[p]}, "
            f"redoubled at once: {NAMES[1 - p]} takes or drops"
        )
        return _announce(state, Ruling("B11", "beaver", reason, p), out), out
    rule = "B11" if state.turns[-2:-1] and state.turns[-2].cube == "beaver" else "B10"
    reason = f"{NAMES[p]} takes: the cube is {state.cube}, owned by {NAMES[state.owner or 0]}"
    state = _announce(replace(state, phase="to_roll"), Ruling(rule, "take", reason, p), out)
    return state, out


#: The rules core's reasons for refusing a cube action (controller.rules.cube) as rulings: the RULES.md
#: id, the ruling's code and its words; ``None`` = not a ruling, only a prompt (a misplaced press).
_CUBE_REFUSALS: dict[str, tuple[str, str, str] | None] = {
    "already_rolled": ("B10", "double_refused", "double refused: a player may double only before rolling"),
    "not_cube_owner": ("B10", "double_refused", "double refused: the cube belongs to the opponent"),
    "crawford_game": ("B14", "double_refused", "double refused: no doubling in the Crawford game"),
    "double_pending": ("B10", "double_refused", "double refused: a double is already waiting for an answer"),
    "beavers_not_allowed": (
        "B11",
        "beaver_refused",
        "beavers are not played here (money play, by agreement)",
    ),
    "beaver_on_beaver": ("B11", "beaver_refused", "a beaver may not be beavered: take or drop"),
    "game_over": ("B14", "game_over", "the match is already decided"),
    "no_double_pending": None,
    "not_doubled_player": None,
}


def _cube_refused(
    state: State, exc: IllegalActionError, player: int | None, out: list[Effect]
) -> tuple[State, list[Effect]]:
    """A cube action the rules core refused, as a ruling with its RULES.md id (or a prompt)."""
    ruling = _CUBE_REFUSALS.get(exc.reason, ("B10", "cube_refused", f"refused: {exc}"))
    if ruling is None:
        offer = state.cube_state.offered_by
        who = NAMES[1 - offer] if offer is not None else "nobody"
        out.append(Prompt(f"only {who} answers the double"))
        return state, out
    rule, code, reason = ruling
    return _announce(state, Ruling(rule, code, reason, player), out), out
