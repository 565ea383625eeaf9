"""The firmware bridge's one exception family (STYLE.md principle 8: each also a builtin, so callers
that know nothing of Tavla can still catch ``ValueError`` or ``TimeoutError``)."""

from __future__ import annotations


class LinkError(Exception):
    """Base of every error raised by :mod:`firmware_bridge`."""


class ProtocolError(LinkError, ValueError):
    """A message that cannot be encoded (a value outside its field) or a frame that is not ours."""


class LayoutError(LinkError, ValueError):
    """A station LED layout that is malformed or does not fit the strip (message names the zone/LED)."""


class DeviceNotFoundError(LinkError, LookupError):
    """No serial port matches the requested port name, URL or USB VID/PID/serial number."""


class HandshakeError(LinkError, TimeoutError):
    """The device did not answer HELLO in time, or answered with an incompatible protocol version."""


class IncompatibleDeviceError(HandshakeError):
    """The device answered but cannot serve this station (another protocol version, a strip shorter
    than the layout): retrying will not help, unlike a device that is merely silent or unplugged."""


class LinkClosedError(LinkError, RuntimeError):
    """The link was used after :meth:`LedLink.close` (pyserial's ``PortNotOpenError`` in spirit)."""


class PortSpecError(IncompatibleDeviceError, ValueError):
    """The port name or URL itself is wrong (an unknown ``ledsim://`` option, a value out of its
    range, a URL scheme pyserial does not know): no device was reached, and retrying the same name
    cannot help, so :meth:`LedLink.open` reports it even with ``require=False`` (as
    :attr:`LedLink.first_error`, the link no longer retrying) instead of waiting for a device."""
