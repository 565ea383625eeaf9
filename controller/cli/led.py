"""``tavla led``: check the LED board and its link.

- ``tavla led test [--serial PORT] [--config FILE]``: connect, print the device's HELLO, light each
  zone in turn, then a full pattern with every effect, read the state back and compare.
- ``tavla led ports``: the serial ports this machine has, likely LED boards first, with the
  ``usb:VID:PID:SERIAL`` spec that finds each again after a replug.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from controller.cli.common import fail, led_refusal, led_url

if TYPE_CHECKING:
    from firmware_bridge.layout import Layout

led_app = typer.Typer(help="Check the LED board: list ports, light a test pattern.", no_args_is_help=True)


_fail = fail


@led_app.command("test")
def led_test(
    serial: str = typer.Option(
        "ledsim://",
        "--serial",
        help="port, pyserial URL, usb:VID:PID[:SERIAL] or auto (default: the emulator, with as many "
        "LEDs as the --config layout needs, as `tavla run` gives it)",
    ),
    config: Path | None = typer.Option(None, "--config", help="station file with a [leds] layout"),
    step: float = typer.Option(
        0.05, "--step", min=0.0, max=10.0, help="seconds each zone stays lit in the chase (0-10)"
    ),
) -> None:
    """Light a test pattern on the LED board and report its HELLO and round-trip times."""
    try:
        _led_test(serial, config, step)
    except KeyboardInterrupt:  # the link's context closed it; one line, never a traceback
        raise _fail("stopped (Ctrl-C) before the test finished", code=130) from None


def _led_test(serial: str, config: Path | None, step: float) -> None:
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from firmware_bridge.errors import LinkError
    from firmware_bridge.frames import AMBER, BLUE, GREEN, RED, ZONE_COUNT, Effect, LedFrame, ZoneLight
    from firmware_bridge.layout import zone_name
    from firmware_bridge.link import LedLink

    console = Console()
    layout = _layout(config) if config else None
    serial = led_url(serial, layout) or serial  # the default emulator as `tavla run` sizes it
    try:
        link = LedLink.open(serial, layout=layout)
    except LinkError as exc:
        raise _fail(led_refusal(exc)) from None
    with link:
        hello = link.hello
        assert hello is not None
        table = Table(title=f"LED device on {serial}", show_header=False)
        table.add_row("protocol", str(hello.protocol_version))
        table.add_row("firmware", ".".join(map(str, hello.firmware_version)))
        table.add_row("LEDs on the strip", str(hello.led_count))
        table.add_row("zones", str(hello.zone_count))
        caps = hello.capabilities
        table.add_row("capabilities", ", ".join(c.name or "" for c in type(caps) if c in caps))
        table.add_row("layout", f"{link.layout.led_count} LEDs, {len(link.layout.runs())} runs")
        console.print(table)

        times: list[float] = []
        unacked: list[str] = []
        for zone in track(range(ZONE_COUNT), description="chase", console=console):
            start = time.perf_counter()
            if link.show(LedFrame.lit({zone}, RED, brightness=160)):
                times.append(time.perf_counter() - start)
            else:
                unacked.append(zone_name(zone))
            time.sleep(step)
        pattern = LedFrame(
            tuple(
                ZoneLight(GREEN)
                if z < 24
                else ZoneLight(AMBER, Effect.BLINK)
                if z == 24
                else ZoneLight(BLUE, Effect.PULSE)
                for z in range(ZONE_COUNT)
            ),
            brightness=128,
        )
        ok = link.show(pattern)
        try:
            shown = link.read_back().frame
        except LinkError:
            shown = None
        if times:
            times.sort()
            console.print(
                f"{len(times)}/{ZONE_COUNT} zones acknowledged; round trip median "
                f"{times[len(times) // 2] * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms"
            )
        console.print(
            "pattern (points green, bar blinking amber, trays pulsing blue): "
            + ("acknowledged" if ok else "NOT acknowledged")
            + (", read back identical" if shown == pattern else ", read back DIFFERENT")
        )
        if unacked or not ok or shown != pattern:
            if unacked:
                console.print(f"zones not acknowledged: {', '.join(unacked)}")
            raise _fail("the LED device did not acknowledge everything: check the cable and the power")


def _layout(config: Path) -> Layout:
    """The ``[leds]`` layout of a station file, read as ``tavla run`` reads it (the whole file checked).

    :raises typer.Exit: (2) with the station file's one-line error.
    """
    from controller.station.config import ConfigError, load

    try:
        layout: Layout | None = load(config).layout()
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    if layout is None:
        raise _fail(f"{config} has no [leds] table; the firmware's own layout is used without --config")
    return layout


@led_app.command("ports")
def led_ports() -> None:
    """List serial ports, likely LED boards first."""
    from rich.console import Console
    from rich.table import Table

    from firmware_bridge.ports import KNOWN_VENDORS, candidates

    console = Console()
    ports = candidates()
    if not ports:
        console.print("no serial ports found; `tavla led test --serial ledsim://` tries the emulator")
        return
    table = Table(title="serial ports")
    for column in ("port", "USB spec (use with --serial)", "description", "board?"):
        table.add_column(column)
    for p in ports:
        table.add_row(
            p.device,
            p.usb_spec or "-",
            p.description,
            KNOWN_VENDORS.get(p.vid or -1, "") if p.likely_led_board else "",
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``tavla led ...`` to the app."""
    app.add_typer(led_app, name="led")
