"""What the ``tavla`` commands share: :func:`fail` (the one way a command gives up) and the checks of
the source and LED arguments that ``tavla run`` and ``tavla resume`` both make.

Command modules import this module, never one another.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def _flags_show_no_type() -> None:
    """typer (0.29) renders every boolean flag in the rich help -- ``--help`` too -- with a ``<bool>``
    type, as if it took a value, and ``--no-leds true`` is then refused as an extra argument. A flag
    takes no value, so its row shows none. Done once here, where every command module imports from,
    because typer makes the ``--help`` option itself and offers no setting for it; other options keep
    their types (``<int>``), and tests/controller/cli checks every command's help."""
    option = getattr(getattr(typer, "core", None), "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "flags_show_no_type", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        result: str | None = shown(self, ctx)
        return result

    display_type_rich.flags_show_no_type = True  # type: ignore[attr-defined]
    setattr(option, "display_type_rich", display_type_rich)  # noqa: B010 - a method of typer's class


_flags_show_no_type()


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``message`` (one line, what to do next) on stderr and return the Exit to raise."""
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(code)


def check_source(spec: str) -> None:
    """Open ``spec`` once before the session starts; a folder or file must give at least one frame.

    :raises typer.Exit: (code 2, one line) when the source cannot be opened, or when a folder's
        images or a file all fail to decode (a run would otherwise end with 0 frames and exit 0).
    """
    from vision.frames.sources import open_source

    try:
        src = open_source(spec)
    except (OSError, ValueError) as exc:
        raise fail(f"{exc}") from exc
    try:
        if Path(spec).exists() and src.read() is None:
            skipped = getattr(src, "skipped", [])
            first = f" ({len(skipped)} unreadable, first: {skipped[0][1]})" if skipped else ""
            raise fail(f"{spec}: no frame could be read{first}; give JPEG/PNG photos or a playable video")
    except OSError as exc:
        raise fail(f"{spec}: {exc}") from exc
    finally:
        src.close()


EMULATOR = "ledsim://"


def led_url(serial_url: str | None, layout: Any) -> str | None:
    """The LED device ``tavla run`` and ``tavla led test`` open for a ``[leds]`` ``layout`` (None: the
    firmware's own): the bare emulator, their default, is given as many LEDs as the layout needs, as a
    board is built for its strip; any other device is opened as given and refused in one line
    (:func:`led_refusal`) when it drives fewer.
    """
    if layout is not None and serial_url is not None and serial_url.strip() == EMULATOR:
        return f"{EMULATOR}?leds={layout.led_count}"
    return serial_url


def led_refusal(exc: Exception) -> str:
    """The one line both commands give when an LED device cannot serve the layout (too few LEDs, another
    protocol, a layout refused: the error says what to do) or cannot be opened (then where to look)."""
    from firmware_bridge.errors import IncompatibleDeviceError

    text = str(exc)
    if isinstance(exc, IncompatibleDeviceError) or "tavla led ports" in text:
        return text
    return f"{text} (list ports with `tavla led ports`)"


def resolved_serial(serial_url: str | None) -> str | None:
    """``auto`` -> the port it finds (see :func:`describe_leds`, which checked it already)."""
    if serial_url is None or serial_url.strip().lower() != "auto":
        return serial_url
    from firmware_bridge.ports import find_board

    return find_board().device


def describe_leds(serial_url: str | None) -> str:
    """The banner's words for where the LEDs are (``--no-leds``, the emulator, a port, ``auto``).

    :raises typer.Exit: (2) with one line when ``auto`` finds no LED board.
    """
    if serial_url is None:
        return "no LEDs (--no-leds)"
    if serial_url.startswith("ledsim://"):
        return "LEDs on the emulated device"
    if serial_url.strip().lower() == "auto":
        from firmware_bridge.errors import DeviceNotFoundError
        from firmware_bridge.ports import find_board

        try:
            board = find_board()
        except DeviceNotFoundError as exc:
            raise fail(str(exc)) from None
        return f"LEDs on {board.device} ({board.known_board}, found by --serial auto)"
    return f"LEDs on {serial_url}"


def run_session(*args: Any, **kwargs: Any) -> Any:
    """:func:`controller.station.session.run_session` with its two endings as a command's: no LED
    device is one line and exit 2; Ctrl-C, after the summary, exit 130."""
    from controller.station import session
    from controller.station.web import WebError

    try:
        return session.run_session(*args, **kwargs)
    except (session.LinkUnavailable, session.SessionRefused, WebError) as exc:
        raise fail(str(exc)) from exc
    except session.SessionInterrupted:
        raise typer.Exit(130) from None
