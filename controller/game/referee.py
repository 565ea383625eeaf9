"""The referee's own rulings, made at the station's page (issue 16): each is a journaled
:class:`~controller.game.events.RefereeAction`, so a replay makes it again.

Accepting or correcting an illegal move (B17) and mixing the dice (B15) take the same path as the
players' dispute button (controller.game); this module holds the rest: a re-throw, the clock paused
and resumed, the match score corrected, a resignation, and the undo of the last event that is not
final. The undo target is the state before the last camera, button or referee event
(``State.previous``, kept one deep by :func:`remember`); a game's end is final and clears it.
"""

from __future__ import annotations

from dataclasses import replace

from controller.game import clock as clocks
from controller.game.effects import Effect, GameEnded, Leds, Prompt
from controller.game.events import BoardSeen, ButtonPressed, Event, RefereeAction
from controller.game.rulings import Ruling
from controller.game.score import as_player, game_over
from controller.game.state import NAMES, State, announce
from controller.rules.cube import GameResult, ResultKind

_PLAYING = ("to_roll", "moving", "deciding", "cube")


def remember(before: State, after: State, event: Event, out: list[Effect]) -> State:
    """``after`` with its undo target: the state before ``event`` when the event was a camera, button
    or referee action and no game ended; ticks and device changes keep the target they had."""
    if any(isinstance(e, GameEnded) for e in out):
        return replace(after, previous=None)
    if isinstance(event, BoardSeen | ButtonPressed | RefereeAction):
        return replace(after, previous=replace(before, previous=None), undo_what=_what(event))
    return after


def _what(event: Event) -> str:
    """The event an undo takes back, in words: what the referee's message names."""
    if isinstance(event, BoardSeen):
        return f"the board read at {event.t:.1f} s" + (f" ({event.source})" if event.source else "")
    if isinstance(event, ButtonPressed):
        whose = f"{NAMES[event.player]}'s " if event.player is not None else ""
        return f"{whose}{event.button} button, {event.gesture} press, at {event.t:.1f} s"
    if isinstance(event, RefereeAction):
        return f"the referee's {event.action} at {event.t:.1f} s"
    return f"the {event.kind} event at {event.t:.1f} s"


def act(state: State, ev: RefereeAction, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The referee's ruling ``ev.action`` (not accept/correct/mix: see controller.game)."""
    if ev.action == "undo":
        return _undo(state, out)
    if ev.action == "rethrow":
        return _rethrow(state, out)
    if ev.action in ("pause", "resume"):
        return _clock(state, ev, out)
    if ev.action == "score":
        return _score(state, ev, out)
    if ev.action == "resign":
        return _resign(state, ev, out)
    out.append(Prompt(f"referee {ev.action}: not a ruling of this module"))
    return state, out


def _undo(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """Back to the state before the last camera, button or referee event; the devices' online state
    and the rulings count stay as they are now (they are facts, not moves)."""
    if state.previous is None:
        out.append(Prompt("nothing to undo: the last event was final (a game's end) or already undone"))
        return state, out
    back = replace(state.previous, offline=state.offline, rulings=state.rulings, previous=None)
    what = f": {state.undo_what}" if state.undo_what else ""
    return announce(back, Ruling("referee", "undo", f"the referee undid the last event{what}"), out), out


def _rethrow(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B15: the referee rules the roll void; both dice are thrown again by the same player.
    Only before a checker of the roll moved (phase ``moving``, board as at the roll) or while the
    player is to roll."""
    from controller import hints

    if state.phase not in ("to_roll", "moving") or state.on_roll is None:
        out.append(Prompt("no roll to re-throw now"))
        return state, out
    if state.phase == "moving" and state.seen is not None and state.seen != state.sides:
        out.append(Prompt("checkers were moved with this roll: put them back before ordering a re-throw"))
        return state, out
    mover = state.on_roll
    words = f"the referee orders a re-throw: {NAMES[mover]} throws both dice again"
    state = announce(state, Ruling("B15", "rethrow", words, mover), out)
    out.append(Leds(hints.rethrow_frame(), "re-throw"))
    return replace(state, phase="to_roll", dice=None, dice_present=False, pending=(), premature=None), out


def _clock(state: State, ev: RefereeAction, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The referee stops or restarts the clock (the tournament clock rules: time out for a ruling)."""
    if state.clock is None:
        out.append(Prompt("this match has no clock"))
        return state, out
    if ev.action == "pause":
        clock = clocks.pause(state.clock, ev.t)
        words = "the referee stops the clock"
    else:
        clock = clocks.resume(state.clock, ev.t)
        words = "the referee restarts the clock"
    return announce(replace(state, clock=clock), Ruling("clock", ev.action, words), out), out


def _score(state: State, ev: RefereeAction, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B14: the match score corrected; the Crawford flags follow the new score (the next game
    is the Crawford game when a player now stands one point from the match and it was not played)."""
    if ev.score is None:
        out.append(Prompt("referee score: give the score of both players"))
        return state, out
    n = state.settings.match_length
    light, dark = ev.score
    if n and (light >= n or dark >= n):
        out.append(Prompt(f"a score of {light}-{dark} would end a {n}-point match: record the game instead"))
        return state, out
    at_crawford = bool(n) and state.settings.crawford and (light == n - 1) != (dark == n - 1)
    crawford_game = at_crawford and not state.crawford_done
    ruling = Ruling("B14", "score", f"the referee corrects the score to light {light} - dark {dark}")
    return announce(replace(state, score=(light, dark), crawford_game=crawford_game), ruling, out), out


def _resign(state: State, ev: RefereeAction, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B9: ``ev.player`` resigns a single (1), gammon (2) or backgammon (3) game at the
    cube's stake; the opponent scores it and the game ends."""
    if ev.player is None or ev.value is None:
        out.append(Prompt("referee resign: say who resigns and the value (1, 2 or 3)"))
        return state, out
    if state.phase not in _PLAYING:
        out.append(Prompt("no game in play to resign"))
        return state, out
    winner = 1 - ev.player
    points = ev.value * state.cube
    result = GameResult(as_player(winner), ResultKind.RESIGN, points, state.cube)
    kinds = {1: "single", 2: "gammon", 3: "backgammon"}
    unit = "point" if points == 1 else "points"
    words = f"{NAMES[ev.player]} resigns a {kinds[ev.value]} game ({points} {unit})"
    state = announce(state, Ruling("B9", "resign", words, ev.player), out)
    return game_over(state, winner, out, ("resign", result))

