"""The station's state as plain JSON: what the web page's ``/api/state`` serves and what a station
publishes, retained, on its club's MQTT broker (controller.club).

A minimal version for the club (issue 17); the web page's (issue 16) replaces it at merge. The
club relies only on these fields: ``position_id``, ``match_id``, ``dice``, ``on_roll``, ``score``
(``light``, ``dark``, ``match_length``, ``crawford``), ``clock``, ``rulings`` (``rule``, ``text``) and
``seq`` (the journal entry the state follows; -1 before any).
"""

from __future__ import annotations

from typing import Any

from controller.game.effects import Announce

# Rulings the page lists: the last few of the current game are what a referee may still be asked about.
_RULINGS_SHOWN = 5


def _position_id(state: Any) -> str | None:
    from controller.formats.position_id import position_id
    from controller.game.state import position_for

    if state.sides is None:
        return None
    try:
        return position_id(position_for(state, state.sides, state.on_roll if state.on_roll in (0, 1) else 0))
    except Exception:  # a position the rules core does not encode (a nardy board): no ID, the rest stands
        return None


def _clock(state: Any) -> dict[str, Any] | None:
    """Each side's reserve as of the current stretch's start (the station's time runs on the
    station alone: a viewer counts down from ``running`` itself)."""
    clock = state.clock
    if clock is None:
        return None
    t = clock.since or 0.0
    return {
        "light": round(clock.remaining(0, t), 1),
        "dark": round(clock.remaining(1, t), 1),
        "running": clock.running,
        "paused": clock.paused,
    }


def snapshot(station: Any) -> dict[str, Any]:
    """The station's state now (see the module docstring)."""
    state = station.state
    journal = station.journal
    seq = journal.next_seq - 1 if journal is not None else -1
    rulings = [
        {"rule": e.ruling.rule, "text": e.ruling.reason} for e in station.effects if isinstance(e, Announce)
    ][-_RULINGS_SHOWN:]
    return {
        "position_id": _position_id(state),
        "match_id": None,
        "dice": list(state.dice) if state.dice else [],
        "on_roll": state.on_roll,
        "score": {
            "light": state.score[0],
            "dark": state.score[1],
            "match_length": state.settings.match_length,
            "crawford": state.crawford_game,
        },
        "clock": _clock(state),
        "rulings": rulings,
        "seq": seq,
    }
