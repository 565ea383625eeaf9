"""The referee's PIN and its guard: controller.pin_guard, which the director's page shares."""

from controller.pin_guard import (
    ACTION_BURST,
    ACTIONS_PER_S,
    LOCKOUT_FIRST_S,
    LOCKOUT_MAX_S,
    MAX_CLIENTS,
    MAX_PIN,
    MIN_PIN,
    WRONG_PINS_FREE,
    Guard,
    Verdict,
    pin_problem,
)

__all__ = [
    "ACTIONS_PER_S", "ACTION_BURST", "LOCKOUT_FIRST_S", "LOCKOUT_MAX_S", "MAX_CLIENTS", "MAX_PIN", "MIN_PIN",
    "WRONG_PINS_FREE", "Guard", "Verdict", "pin_problem",
]
