"""``game.step`` never raises, whatever the camera and the buttons report (STYLE.md principle 7: bad
readings are reported, not raised), and replaying the same events gives the same state."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import game
from controller.game.events import BoardSeen, ButtonPressed, DeviceChanged, DieSeen, Tick
from controller.game.rulings import Settings
from controller.station.demo import scripted_events

STATUSES = ("flat", "cocked", "off_board", "wrong_half", "on_bar", "on_checker")

slot = st.tuples(st.sampled_from([None, "light", "dark"]), st.integers(0, 16), st.floats(0, 1))
die = st.builds(
    DieSeen,
    st.one_of(st.none(), st.integers(1, 6)),
    st.sampled_from(STATUSES),
    st.one_of(st.none(), st.integers(0, 23)),
    st.floats(0, 1),
)
board = st.builds(
    BoardSeen,
    t=st.floats(0, 1e4),
    slots=st.lists(slot, min_size=24, max_size=24).map(tuple),
    bar=st.fixed_dictionaries({"light": st.integers(0, 3), "dark": st.integers(0, 3)}),
    dice=st.lists(die, max_size=6).map(tuple),
    occluded=st.booleans(),
    has_bar=st.sampled_from([None, True, False]),
)
button = st.builds(
    ButtonPressed,
    t=st.floats(0, 1e4),
    button=st.sampled_from(["clock", "dispute", "double", "take", "drop"]),
    player=st.sampled_from([None, 0, 1]),
    gesture=st.sampled_from(["short", "long", "double"]),
)
device = st.builds(
    DeviceChanged, t=st.floats(0, 1e4), device=st.sampled_from(["camera", "leds"]), online=st.booleans()
)
event = st.one_of(board, board, button, device, st.builds(Tick, t=st.floats(0, 1e4)))
start_settings = st.sampled_from(
    [
        Settings(),
        Settings(variant="nardy", light_home="bottom-right", match_length=3),
        Settings(match_length=5, clock="uk", hints="referee").with_preset("usbgf"),
    ]
)


# a fuzzer: a sample in the default run, the long run under ``make slow``
FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW_FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_STEPS = (start_settings, st.integers(0, 60), st.lists(event, max_size=12))


def _check_steps(s, prefix, noise):
    # a real game up to some point, then anything at all
    events = scripted_events(3, settings=s)[: prefix + 1] + noise
    state = game.new_state(s)
    for ev in events:
        state, _ = game.step(state, ev)
    again = game.new_state(s)
    for ev in events:
        again, _ = game.step(again, ev)
    assert again == state


@FUZZ
@given(*_STEPS)
def test_step_never_raises_and_replays_identically(s, prefix, noise):
    _check_steps(s, prefix, noise)


@pytest.mark.slow
@SLOW_FUZZ
@given(*_STEPS)
def test_step_never_raises_and_replays_identically_long(s, prefix, noise):
    _check_steps(s, prefix, noise)
