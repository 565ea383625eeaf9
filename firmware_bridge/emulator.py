"""The emulated LED board behind a pseudo-terminal, so a host program opens it as a real serial
port (``/dev/pts/N``): ``python -m firmware_bridge.emulator --pty``.

The device is the Python emulator (:class:`~firmware_bridge.device.EmulatedDevice`) or, with
``--firmware BINARY`` (``--build`` compiles it), the firmware's own C core built for this machine
(``firmware/host/main_host.c`` over pipes). Between the pty and the device runs the same simulated
cable as ``ledsim://`` (:class:`~firmware_bridge.wire.Wire`): bytes paced at the baud rate, latency,
bit flips, dropped bytes.

Knobs at run time, one command per line on stdin (answers on stdout)::

    reset | unplug [SECONDS] | replug | flip P | drop P | latency S | press N | release N | state | quit

and signals: SIGUSR1 resets the board, SIGUSR2 unplugs it for 2 s. ``--link PATH`` keeps a symlink
pointing at the current pty (a replug makes a new one, as a USB adapter gets a new node; the link
is the ``/dev/serial/by-id`` of this emulator).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from firmware_bridge.protocol import EventKind
from firmware_bridge.sim import SimBoard


class ProcessDevice:
    """A device that is a process speaking the protocol on stdin/stdout (the compiled firmware).
    Has :class:`EmulatedDevice`'s driving interface; a reset restarts the process (power cycle)."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.proc: subprocess.Popen[bytes] | None = None
        self.state = None  # unknown from outside: ask the device (STATE_REQ, LedLink.read_back)
        self.restarts = 0

    def reset(self, now: float) -> None:
        """Kill and restart the firmware process: RAM lost, HELLO after start."""
        self.close()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        self.restarts += 1

    def fileno(self) -> int:
        """The fd to wait on for the device's output."""
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def receive(self, data: bytes, now: float) -> bytes:
        """Pass host bytes to the firmware; its answers come out of :meth:`poll`."""
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.write(data)
            except (BrokenPipeError, ValueError):
                pass
        return self.poll(now)

    def poll(self, now: float) -> bytes:
        """What the firmware has written so far."""
        if self.proc is None or self.proc.stdout is None:
            return b""
        out = bytearray()
        while True:
            try:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            out += chunk
        return bytes(out)

    def next_deadline(self) -> float | None:
        """Output can come any time: callers without :meth:`fileno` poll every ms."""
        return time.monotonic() + 0.001

    def event(self, kind: EventKind, code: int, value: int, now: float) -> None:
        """The host build has no buttons; ignored."""

    def close(self) -> None:
        """Stop the process (idempotent)."""
        if self.proc is not None:
            proc, self.proc = self.proc, None
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()
            proc.kill()
            proc.wait(5)


class PtyBridge:
    """Serves a :class:`SimBoard` on a pty (its own thread).

    :param link: path of a symlink kept pointing at the current pty slave.
    """

    def __init__(self, board: SimBoard, link: str | Path | None = None) -> None:
        self.board = board
        self.link = Path(link) if link else None
        self.path = ""
        self._master = -1
        self._slave = -1
        self._generation = 0
        self._running = False
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        """Open the pty and serve it; returns the path to open (the link if given, else the slave)."""
        self._open_pty()
        self._running = True
        self._thread = threading.Thread(target=self._loop, name="PtyBridge", daemon=True)
        self._thread.start()
        return str(self.link) if self.link else self.path

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
        self.path = os.ttyname(slave)
        with self._lock:
            self._master, self._slave = master, slave
            self.board.attached = False
            self._generation = self.board.attach()
        if self.link:
            tmp = self.link.with_name(self.link.name + ".tmp")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.path)
            os.replace(tmp, self.link)

    def _close_pty(self) -> None:
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the host's port fails), the board loses power."""
        self.board.unplug()
        self._close_pty()
        self._wake()

    def replug(self) -> None:
        """Plug in again: a new pty (the symlink follows it), the board boots and sends HELLO."""
        self.board.replug()
        if self._master < 0:
            self._open_pty()
        self._wake()

    def reset(self) -> None:
        """Press the board's reset button."""
        self.board.reset()
        self._wake()

    def _wake(self) -> None:
        os.write(self._wake_w, b"x")

    def _loop(self) -> None:
        device_fd = getattr(self.board.device, "fileno", None)
        while self._running:
            with self._lock:
                master = self._master
            out, nxt = self.board.drive() if master >= 0 else (b"", None)
            if out and master >= 0:
                try:
                    os.write(master, out)
                except OSError:
                    pass  # nobody reading and the tty buffer is full: bytes lost, as on a real line
            fds = [self._wake_r] + ([master] if master >= 0 else [])
            if device_fd is not None and master >= 0:
                try:
                    fds.append(device_fd())
                except (AssertionError, ValueError):
                    pass
            timeout = 0.5 if nxt is None else max(0.0, nxt - time.monotonic())
            try:
                ready, _, _ = select.select(fds, [], [], timeout)
            except (OSError, ValueError):
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            if master >= 0 and master in ready:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    data = b""  # EIO: no process has the slave open right now
                if data:
                    try:
                        self.board.host_write(data, self._generation)
                    except Exception:  # noqa: BLE001 - unplugged meanwhile: the bytes are lost
                        pass

    def close(self) -> None:
        """Stop serving and close the pty (idempotent)."""
        if not self._running:
            return
        self._running = False
        self._wake()
        if self._thread is not None:
            self._thread.join(5)
        self._close_pty()
        if self.link:
            self.link.unlink(missing_ok=True)
        close = getattr(self.board.device, "close", None)
        if close is not None:
            close()


def _state_json(board: SimBoard) -> str:
    state = getattr(board.device, "state", None)
    if state is None:
        return json.dumps({"state": None})
    return json.dumps(
        {
            "brightness": state.brightness,
            "zones": [[*z.colour, int(z.effect)] for z in state.zones],
            "applied_seq": board.device.applied_seq,
        }
    )


def _command(line: str, bridge: PtyBridge) -> str:
    words = line.split()
    if not words:
        return ""
    cmd, args = words[0], words[1:]
    board = bridge.board
    try:
        if cmd == "reset":
            bridge.reset()
        elif cmd == "unplug":
            bridge.unplug()
            if args:
                threading.Timer(float(args[0]), bridge.replug).start()
        elif cmd == "replug":
            bridge.replug()
        elif cmd in ("flip", "drop", "latency"):
            board.set_faults(**{cmd: float(args[0])})
        elif cmd in ("press", "release"):
            board.press(int(args[0]), cmd == "press")
        elif cmd == "state":
            return _state_json(board)
        elif cmd == "quit":
            return "bye"
        else:
            return f"error unknown command {cmd!r}"
    except (IndexError, ValueError) as exc:
        return f"error {line.strip()!r}: {exc}"
    return f"ok {line.strip()}"


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.emulator --pty``; see the module docstring."""
    ap = argparse.ArgumentParser(
        prog="python -m firmware_bridge.emulator", description=(__doc__ or "").split("\n")[0]
    )
    ap.add_argument("--pty", action="store_true", required=True, help="serve the board on a pseudo-terminal")
    ap.add_argument("--link", help="keep a symlink at this path pointing at the current pty")
    ap.add_argument("--firmware", help="run this compiled firmware host binary as the device")
    ap.add_argument("--build", action="store_true", help="compile the firmware's C core and run it")
    ap.add_argument("--leds", type=int, default=28, help="LEDs on the emulated strip")
    ap.add_argument("--baud", type=int, default=115200, help="pace bytes at this rate (0: instant)")
    ap.add_argument("--latency", type=float, default=0.0, help="s added to every byte")
    ap.add_argument("--flip", type=float, default=0.0, help="per-byte probability of a flipped bit")
    ap.add_argument("--drop", type=float, default=0.0, help="per-byte probability of a lost byte")
    ap.add_argument("--seed", type=int, default=None, help="seed of the fault generator")
    ap.add_argument("--boot", type=float, default=0.05, help="s from reset to HELLO (Python device)")
    args = ap.parse_args(argv)

    device = None
    if args.build or args.firmware:
        binary = args.firmware
        if args.build:
            from firmware_bridge.hostbuild import build_host

            binary = str(build_host(tempfile.mkdtemp(prefix="tavla-fw-")))
        device = ProcessDevice([binary, "--leds", str(args.leds)])
    board = SimBoard(
        "pty",
        baud=args.baud,
        latency=args.latency,
        flip=args.flip,
        drop=args.drop,
        seed=args.seed,
        boot=args.boot,
        leds=args.leds,
        reset_on_open=False,
        device=device,
    )
    bridge = PtyBridge(board, args.link)
    print(bridge.start(), flush=True)
    signal.signal(signal.SIGUSR1, lambda *_: bridge.reset())

    def unplug_for_2s(*_: object) -> None:
        bridge.unplug()
        threading.Timer(2.0, bridge.replug).start()

    signal.signal(signal.SIGUSR2, unplug_for_2s)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        for line in sys.stdin:
            answer = _command(line, bridge)
            if answer:
                print(answer, flush=True)
            if answer == "bye":
                break
        else:  # stdin closed (run in the background): serve until SIGTERM / Ctrl-C
            while True:
                signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        bridge.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
