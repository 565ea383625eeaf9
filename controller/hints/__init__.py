"""LED hints: the pure frames (:mod:`controller.hints.frames`, re-exported here) and gnubg's best
play (:mod:`controller.hints.engine`, a helper process the station alone uses)."""

from controller.hints.frames import (
    BAR_POINT,
    OFF_POINT,
    best_play_frame,
    changed_points,
    destination_frame,
    destinations,
    movable_frame,
    movable_points,
    rethrow_frame,
    warning_frame,
    zones_for,
)

__all__ = [
    "BAR_POINT",
    "OFF_POINT",
    "best_play_frame",
    "changed_points",
    "destination_frame",
    "destinations",
    "movable_frame",
    "movable_points",
    "rethrow_frame",
    "warning_frame",
    "zones_for",
]
