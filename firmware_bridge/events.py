"""What the LED link tells the station, as pure data (the controller journals these before acting,
DESIGN.md "Data flow"). Besides these two, the link passes on the device's own
:class:`firmware_bridge.protocol.DeviceEvent` (buttons, faults) unchanged."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_bridge.protocol import DeviceEvent, Hello


class FrameOutcome(Enum):
    """What became of one frame given to ``LedLink.show(..., done=)`` (told once, from a link thread).
    Newest wins: a frame the device has not acknowledged when a newer one comes is replaced, not
    queued, so REPLACED is normal under noise or fast play, not a fault."""

    APPLIED = "applied"  # the device acknowledged this very frame
    REPLACED = "replaced"  # a newer frame was acknowledged first
    REFUSED = "refused"  # the device NAKed it (a bad value: a bug, never noise)
    DROPPED = "dropped"  # the link closed before the device acknowledged it or a newer one


@dataclass(frozen=True)
class LinkOnline:
    """The device answered HELLO (first connect, reconnect after an unplug, or after its reset);
    the link has sent it the layout and is (re)sending the full LED state."""

    port: str
    hello: Hello
    reconnect: bool = False


@dataclass(frozen=True)
class LinkOffline:
    """The device is gone (unplugged, silent, or refused the handshake); reported once per outage.
    The link retries twice a second and resends the full state when the device is back."""

    port: str
    reason: str


LinkEvent = LinkOnline | LinkOffline | DeviceEvent
