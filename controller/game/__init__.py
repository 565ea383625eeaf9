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
  N11): dice picked up, clock pressed. The arbiter (controller.game.arbiter) then names the play. A roll by
  the opponent before that is premature (B16).
- ``cube`` -- a double was offered; the doubled player takes, drops or (B11) beavers.
- ``deciding`` -- the turn ended with an illegal/incomplete or unclear move: the opponent accepts it or
  demands the legal move (B17, N11); his roll or double makes it stand (B17).
- ``game_over`` / ``match_over`` -- the score (B9, B12, B14, N9); the next opening roll on a start
  position begins the next game. With the nardy draw setting (N9) white's last checker off first
  gives black one last roll (``to_roll`` with ``last_roll``); bearing off all with it draws the game.

The package's public face is this module: :func:`step`, :func:`new_state`, the state types, the
:mod:`~controller.game.arbiter` and the :mod:`~controller.game.rulings`; its other modules are its
parts (state, setup, turns, cube, score) and its inputs and outputs (events, effects). The variant's
rules come from :class:`controller.rules.Variant` (:func:`variant_of` a match's settings).

The cube, the score of a game and the match score are the rules core's (controller.rules.cube,
match, nardy.result): this package keeps their values in the state and turns their refusals
(``IllegalActionError`` reasons) into rulings with the RULES.md id.

Players: 0 = light, 1 = dark (the colours the camera names). Each player's checkers are a 25-tuple in
his own numbering (index 24 = bar); the mover's frame is a rules-core position ``(me, opp)``.
"""

from __future__ import annotations

from dataclasses import replace

from controller import hints
from controller.game import arbiter, referee, rulings
from controller.game import clock as clocks
from controller.game.cube import cube_button
from controller.game.effects import Effect, Hint, Leds, Prompt
from controller.game.events import (
    MAX_DICE,
    BoardSeen,
    ButtonPressed,
    DeviceChanged,
    Event,
    MatchStarted,
    RefereeAction,
    Refused,
    Tick,
    problem,
    refuse,
)
from controller.game.rulings import Ruling, Settings
from controller.game.score import (
    as_player,
    game_over,
    score_game,
)
from controller.game.setup import on_board
from controller.game.state import (
    COLOURS,
    MIN_DIE_CONFIDENCE,
    NAMES,
    UNSURE,
    GameRecord,
    Sides,
    State,
    Turn,
    announce,
    cube_settings,
    infer_seating,
    match_state,
    new_state,
    plays_for,
    position_for,
    sides_from_seen,
    start_side,
    variant_in,
    variant_of,
)
from controller.game.turns import (
    accept,
    commit,
    turn_end,
)
from controller.rules.cube import (
    GameResult,
    ResultKind,
)
from firmware_bridge.frames import LedFrame

__all__ = [
    "COLOURS",
    "Ruling",
    "Settings",
    "arbiter",
    "rulings",
    "variant_of",
    "GameRecord",
    "MAX_DICE",
    "MIN_DIE_CONFIDENCE",
    "NAMES",
    "Sides",
    "State",
    "Turn",
    "UNSURE",
    "cube_settings",
    "infer_seating",
    "match_state",
    "new_state",
    "score_game",
    "sides_from_seen",
    "start_side",
    "step",
]


def step(state: State, event: Event) -> tuple[State, list[Effect]]:
    """Apply one event; return the new state and the effects to run (in order).

    Never raises on a bad reading: an impossible or partial board becomes a note or a ruling, and an
    event that fails its schema (controller.game.events.problem: a die of 7, a NaN confidence, 16
    checkers of a side) changes nothing -- it is a :class:`~controller.game.events.Refused`, said in
    a prompt (issue 18).
    """
    why = problem(event)
    if why or isinstance(event, Refused):
        refused = event if isinstance(event, Refused) and not why else refuse(event, why)
        note = f" ({refused.note})" if refused.note else ""
        return state, [Prompt(f"refused: {refused.reason}{note}")]
    before = state
    state, out = _step(state, event)
    if state.settings.clock is not None and not isinstance(event, MatchStarted):
        state, out = _run_clock(before, state, event, out)
    state = _rethrow_signal(before, state, out)
    if isinstance(event, RefereeAction) and event.action == "undo":
        return state, out
    return referee.remember(before, state, event, out), out


_CLOCK_PHASES = ("to_roll", "moving", "deciding", "cube")


def _rethrow_signal(before: State, state: State, out: list[Effect]) -> State:
    """The re-throw signal (RULES.md B15, N10) lasts until the roll it asked for: once a roll is taken,
    the phase changes, or an undo takes the ruling back, the LEDs go dark -- unless this step lit them
    already (the movable points of the assistant, a hint). In tournament and home modes nothing else
    would ever replace the frame (issue 15: it stayed on for the rest of the game)."""
    lit = [e for e in out if isinstance(e, Leds)] + [e for e in out if isinstance(e, Hint) and e.leds]
    if lit:
        return replace(state, rethrow_lit=any(isinstance(e, Leds) and e.why == "re-throw" for e in lit))
    if not before.rethrow_lit:
        return state
    rolled = state.dice is not None and state.dice != before.dice
    if rolled or state.phase != before.phase or not state.rethrow_lit:
        out.append(Leds(LedFrame.dark(), "re-throw done"))
        return replace(state, rethrow_lit=False)
    return state


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
        state = announce(
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
        lost = GameResult(as_player(winner), ResultKind.RESIGN, points, state.cube)
        state, out = game_over(
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
    if isinstance(event, RefereeAction):
        return _referee(state, event, out)
    if isinstance(event, BoardSeen):
        return on_board(state, event, out)
    return state, out


def _button(state: State, ev: ButtonPressed, out: list[Effect]) -> tuple[State, list[Effect]]:
    s = state.settings
    if ev.button == "clock" and ev.gesture == "long":
        return _hint_request(state, out)
    if ev.button == "clock":
        if state.phase == "moving" and s.end_on_clock and (ev.player is None or ev.player == state.on_roll):
            return turn_end(state, None, out, "clock pressed")
        return state, out
    if ev.button == "dispute":
        if state.phase != "deciding":
            if ev.gesture == "long" and variant_in(state).dice_mixing:
                return _mix_request(state, out)
            out.append(Prompt("nothing to dispute now"))
            return state, out
        if ev.gesture == "short":  # the opponent accepts the move as played
            rule = variant_in(state).dispute_rule
            state = announce(
                state,
                Ruling(rule, "accepted", f"{NAMES[1 - (state.on_roll or 0)]} accepts the move as played"),
                out,
            )
            return accept(state, out)
        if ev.gesture == "long":  # demand the legal move
            rule = variant_in(state).dispute_rule
            state = announce(
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
            state = announce(
                state,
                Ruling(
                    "B17",
                    "override",
                    "the players overrule the camera: the first candidate play is taken as made",
                ),
                out,
            )
            return commit(state, state.pending[1][0], out, "confirmed by the players")
        return state, out
    return cube_button(state, ev, out)


def _referee(state: State, ev: RefereeAction, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The referee's rulings from the station's page (issue 16). Accepting or correcting an illegal
    move (RULES.md B17, N11) and mixing the dice (B15) are the dispute button's own rulings; the rest
    are controller.game.referee's."""
    if ev.action in ("accept", "correct"):
        if state.phase != "deciding":
            out.append(Prompt(f"nothing to {ev.action}: no illegal move is waiting for a ruling"))
            return state, out
        gesture = "short" if ev.action == "accept" else "long"
        return _button(state, ButtonPressed(t=ev.t, button="dispute", gesture=gesture), out)
    if ev.action == "mix":
        if not variant_in(state).dice_mixing:
            out.append(Prompt(f"{state.settings.variant} has no mixing of the dice"))
            return state, out
        return _mix_request(state, out)
    return referee.act(state, ev, out)


def _mix_request(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B15 (RO): at the start of any game either player may ask for the dice to be mixed --
    all four dice in one cup, the players take one at a time until each has two; never mid-game.

    Asked with a long press of the dispute button while no dispute is open. "Start of a game" is
    before its opening roll: no game yet, or between games (``setup``/``game_over`` phases). The
    station rules on the request and journals it; it has no dice of its own to mix.
    """
    if state.phase in ("setup", "game_over"):
        return announce(
            state,
            Ruling(
                "B15",
                "mix",
                "dice mixed on request: put all four dice in one cup; take one at a time, "
                "in turn, until each player has two",
            ),
            out,
        ), out
    if state.phase == "match_over":
        out.append(Prompt("the match is over: nothing to mix"))
        return state, out
    return announce(
        state,
        Ruling("B15", "mix_refused", "the dice may be mixed only at the start of a game, never mid-game"),
        out,
    ), out


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
    position = position_for(state, state.sides, mover)
    plays = plays_for(state, state.sides, mover, state.dice)
    if variant_in(state).gnubg and plays:
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
