"""The station's state as one JSON object: what ``GET /api/state`` serves and MQTT publishes.

:func:`snapshot` reads the station (the game state and what the station tracks beside it: events
applied, the last board shown and read, the last LED frame, gnubg's last best play) and returns plain
JSON values only. It is called on the station's own thread after each event, so the web server and
any other reader get a finished dict and never touch the game (DESIGN.md "Data flow").

The contract (issue 16): ``position_id``, ``match_id``, ``dice`` (value and status per die),
``on_roll``, ``score`` (``light``, ``dark``, ``match_length``, ``crawford``), ``clock`` (seconds left
per player at ``at``; ``delay_left`` of the running player's delay, spent before his time moves),
``rulings`` (``{rule, text}``), ``seq``; the rest is for the page (``prompts``: the
station's last words to the players, such as "nothing to accept" after a referee's action).
"""

from __future__ import annotations

from typing import Any

from controller.game.effects import Announce, Leds, Prompt, Show
from controller.game.events import BoardSeen
from controller.game.state import NAMES, State, plays_for, position_for, variant_in

RULINGS_KEPT = 10
PROMPTS_KEPT = 5  # what the station last told the players: how a referee sees an action's answer
MODES = ("tournament", "home", "learner")
_MODE_OF_HINTS = {"referee": "tournament", "home": "home", "assistant": "learner"}


def mode_of(station: Any) -> str:
    """The station's mode: a ``mode`` the station was given (the station file's setting), else the one
    the rules' ``hints`` setting implies (referee: tournament, home: home, assistant: learner)."""
    mode = getattr(station, "mode", None)
    if mode in MODES:
        return str(mode)
    return _MODE_OF_HINTS.get(station.state.settings.hints, "home")


def snapshot(station: Any) -> dict[str, Any]:
    """The station as one JSON-ready dict (see the module docstring)."""
    state: State = station.state
    recent = getattr(station, "recent", None)  # a Station keeps its newest effects of each kind
    effects = list(getattr(station, "effects", ())) if recent is None else []

    def newest(kind: type, n: int) -> list[Any]:
        if recent is not None:
            return list(recent.get(kind, ()))[-n:]
        return [e for e in effects if isinstance(e, kind)][-n:]

    show = next(iter(newest(Show, 1)), None)
    leds = next(iter(newest(Leds, 1)), None)
    board: BoardSeen | None = getattr(station, "last_board", None)
    mode = mode_of(station)
    rulings = [
        {"rule": e.ruling.rule, "code": e.ruling.code, "text": e.ruling.reason}
        for e in newest(Announce, RULINGS_KEPT)
    ]
    prompts = [e.text for e in newest(Prompt, PROMPTS_KEPT)]
    offline = sorted(state.offline)
    link = getattr(station, "link", None)
    out: dict[str, Any] = {
        "seq": int(getattr(station, "seq", 0)),
        "t": float(getattr(station, "last_t", 0.0)),
        "mode": mode,
        "phase": state.phase,
        "game_number": state.game_number,
        "variant": state.settings.variant,
        "on_roll": _name(state.on_roll),
        "position_id": _position_id(state) or (show.position_id if show else None),
        "match_id": _match_id(state),
        "dice": _dice(state, board),
        "score": {
            "light": state.score[0],
            "dark": state.score[1],
            "match_length": state.settings.match_length,
            "crawford": state.crawford_game,
        },
        "cube": {"value": state.cube, "owner": _name(state.owner)},
        "pips": _pips(state, show),
        "clock": _clock(state, float(getattr(station, "last_t", 0.0))),
        "rulings": rulings,
        "prompts": prompts,
        "board": _board(show, board),
        "leds": _leds(leds),
        "devices": {
            "camera": "camera" not in offline,
            "leds": link is not None and "leds" not in offline and bool(getattr(link, "online", True)),
        },
        "legal_plays": None,
        "best_play": None,
        "best_moves": None,
    }
    if mode != "learner":  # tournament: no electronic aid on any screen (USBGF, UKBGF); home: on request
        if out["board"] is not None:
            out["board"]["movable_slots"] = []
    if mode == "learner" or (mode == "home" and getattr(station, "hinted", False)):  # home: once asked
        out["legal_plays"] = _legal(state)
        moving = state.phase == "moving"
        out["best_play"] = getattr(station, "best_play", None) if moving else None
        out["best_moves"] = getattr(station, "best_moves", None) if moving else None
    return out


def play_slots(seating: Any, player: int, moves: Any) -> list[list[int | str]]:
    """A play's moves as camera slots for drawing: ``[from, to]`` each a slot 0-23, ``"bar"`` or
    ``"off"`` (a move's points are in ``player``'s numbering, 25 the bar, 0 off)."""

    def where(point: int) -> int | str:
        return "bar" if point == 25 else "off" if point == 0 else int(seating.slot(player, point))

    return [[where(m.src), where(m.dst)] for m in moves]


def _name(player: int | None) -> str | None:
    return NAMES[player] if player in (0, 1) else None


def _position_id(state: State) -> str | None:
    if state.sides is None or state.on_roll is None or not variant_in(state).gnubg:
        return None
    from controller.formats.position_id import position_id

    try:
        return position_id(position_for(state, state.sides, state.on_roll))
    except Exception:  # a partial or impossible reading does not encode; the ID is informative only
        return None


def _match_id(state: State) -> str | None:
    """gnubg's Match ID (players 0 light, 1 dark); None where gnubg has no such match (nardy)."""
    if not variant_in(state).gnubg:
        return None
    from controller.formats.match_id import GameState, MatchId, match_id

    playing = state.phase in ("to_roll", "moving", "cube", "deciding")
    who = state.on_roll if state.on_roll in (0, 1) else 0
    try:
        return match_id(
            MatchId(
                cube_value=state.cube,
                cube_owner=state.owner,
                dice_owner=who,
                crawford=state.crawford_game,
                game_state=GameState.PLAYING if playing else GameState.NONE,
                turn=who,
                doubled=state.phase == "cube",
                dice=state.dice if state.dice and state.phase == "moving" else (0, 0),
                match_length=max(0, state.settings.match_length),
                score=state.score,
            )
        )
    except Exception:  # values gnubg cannot carry (a huge score): no ID rather than a wrong one
        return None


def _dice(state: State, board: BoardSeen | None) -> list[dict[str, Any]]:
    """Each die the camera saw last with its status; the accepted roll when nothing was read."""
    if board is not None and board.dice:
        return [
            {"value": d.value, "status": d.status, "confidence": d.confidence, "slot": d.slot}
            for d in board.dice
        ]
    if state.dice is not None:
        return [{"value": v, "status": "accepted", "confidence": 1.0, "slot": None} for v in state.dice]
    return []


def _pips(state: State, show: Show | None) -> dict[str, int] | None:
    if state.sides is not None:
        light, dark = (sum((i + 1) * n for i, n in enumerate(side)) for side in state.sides)
        return {"light": light, "dark": dark}
    if show is not None and show.pips is not None:
        return {"light": show.pips[0], "dark": show.pips[1]}
    return None


def _clock(state: State, t: float) -> dict[str, Any] | None:
    c = state.clock
    if c is None:
        return None
    return {
        "light": round(c.remaining(0, t), 1),
        "dark": round(c.remaining(1, t), 1),
        "reserve": {"light": round(c.reserve[0], 1), "dark": round(c.reserve[1], 1)},
        "delay": c.delay,
        # the running player's delay left at ``at``: his time moves only once it is spent (game.clock)
        "delay_left": round(c.delay_left(t), 1),
        "running": _name(c.running),
        "paused": c.paused,
        "flag": _name(c.flag),
        "at": t,
    }


def _board(show: Show | None, board: BoardSeen | None) -> dict[str, Any] | None:
    """The board in camera slots (0-23) as last shown, with the reader's confidence per slot."""
    if show is None:
        return None
    confidence = [float(p) for _, _, p in board.slots] if board is not None and board.slots else []
    return {
        "slots": [[c, n] for c, n in show.slots],
        "confidence": confidence,
        "bar": {"light": show.bar[0], "dark": show.bar[1]},
        "off": {"light": show.off[0], "dark": show.off[1]},
        "movable_slots": list(show.movable_slots),
        "light_home": show.light_home,
        "title": show.title,
        "notes": list(show.notes),
        "source": board.source if board is not None else "",
        "status": board.status if board is not None else "ok",
    }


def _leds(effect: Leds | None) -> dict[str, Any] | None:
    if effect is None:
        return None
    return {"why": effect.why, "zones": sorted(effect.frame.lit_zones())}


def _legal(state: State) -> list[str] | None:
    """The legal plays of the roll on the board, in gnubg's notation (learner and home modes)."""
    if state.phase != "moving" or state.sides is None or state.on_roll is None or state.dice is None:
        return None
    from controller.formats.notation import format_play

    try:
        return [format_play(p) for p in plays_for(state, state.sides, state.on_roll, state.dice)]
    except Exception:  # a partial position may have no plays to list; the page then shows none
        return None
