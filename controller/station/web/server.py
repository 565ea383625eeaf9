"""The station's web page (issue 16): aiohttp on a thread of its own, live by server-sent events.

The station's thread stays the only writer of the game. After each event it builds the state JSON
(controller.station.snapshot) and hands it to :meth:`WebServer.publish`; the server keeps the latest
and pushes it to every open page. A referee action from the page is checked (PIN, rate: .guard),
turned into an event (.actions) and put on the station's queue like a button press, so it is
journaled before it is acted on and a replay makes it again.

Routes: ``GET /`` the page, ``GET /api/state`` the state JSON, ``GET /api/events`` the live stream,
``GET /api/frame.jpg`` the camera's last frame with the reader's overlay,
``POST /api/action`` a referee action, ``POST /api/hint`` the players' hint request (home mode),
``GET /download/match.sgf|match.mat|journal.jsonl`` the records.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import threading
from collections.abc import Callable
from errno import EADDRINUSE
from importlib import resources
from typing import Any

from aiohttp import web

from controller.game.events import ButtonPressed
from controller.pin_guard import Guard, pin_problem
from controller.rules.errors import TavlaError
from controller.station.web.actions import ActionError, to_event

MAX_BODY = 16 * 1024  # a referee action is a few hundred bytes; a bigger body is refused (413)
MAX_STREAMS = 64  # open pages at once; more get 503 rather than slowing the others
KEEPALIVE_S = 15.0  # a ping on an idle stream: proxies keep it open, and the page knows it is alive
WRITE_TIMEOUT_S = 10.0  # a page that takes no data for this long is dropped, not buffered for
# the kernel's send buffer of a stream: ~30 states of slack for a slow page, not the megabytes Linux
# would grow it to for one that never reads (64 stalled pages on a Pi)
STREAM_SNDBUF = 128 * 1024
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
AUTO = "auto"  # ``--web auto``: DEFAULT_PORT on this machine, or a free port when it is taken
DEFAULT_PORT = 8080


class WebError(TavlaError, RuntimeError):
    """The page cannot be served (the address is taken, or no PIN for a non-local address)."""


def parse_address(spec: str) -> tuple[str, int]:
    """``[HOST:]PORT`` -> (host, port); the host defaults to 127.0.0.1; ``auto`` is 127.0.0.1:8080
    (where :meth:`WebServer.start` may move to a free port).

    :raises WebError: on a port that is not 0-65535.
    """
    if spec.strip().lower() == AUTO:
        return "127.0.0.1", DEFAULT_PORT
    host, _, port = spec.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise WebError(f"--web {spec}: give [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080, or auto")
    return host, int(port)


def check_exposure(host: str, pin: str | None) -> None:
    """A page on any address but the machine's own is reachable by others: it needs a referee PIN.
    A PIN, where one is given, must be one a guesser cannot run through (.guard.pin_problem).

    :raises WebError: (one line) when ``host`` is not local and no PIN is set, or the PIN is too weak.
    """
    if pin is not None and pin_problem(pin):
        raise WebError(f"the referee PIN {pin_problem(pin)}")
    if host not in LOCAL_HOSTS and not pin:
        raise WebError(
            f"--web on {host} is reachable from other machines: set a referee PIN "
            "(--pin or `pin` in the station file) or serve on 127.0.0.1"
        )


class WebServer:
    """Serves the page for one station. ``submit`` puts an event on the station's queue; ``now`` gives
    the station time for a referee's event; ``downloads`` maps a file name to a function returning its
    text (None when there is nothing to download yet)."""

    def __init__(
        self,
        submit: Callable[[Any], None],
        now: Callable[[], float],
        pin: str | None = None,
        downloads: dict[str, Callable[[], str | None]] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        frame: Callable[[], bytes | None] | None = None,
    ) -> None:
        check_exposure(host, pin)
        self.frame = frame
        self.submit = submit
        self.now = now
        self.guard = Guard(pin)
        self.downloads = downloads or {}
        self.host = host
        self.port = port
        self.state: dict[str, Any] = {"seq": 0}
        self._text = json.dumps(self.state)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Condition | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.streams = 0
        self.dropped = 0  # pages dropped for taking no data for WRITE_TIMEOUT_S
        self.epoch = secrets.token_hex(4)  # this server's run: an event id names the run and the seq
        self._lock = threading.Lock()
        self._wake_pending = False
        self._closing = False
        self.taken: int | None = None  # the port asked for, when start(fallback=True) found it taken

    # --- the station's side (any thread) ----------------------------------------------------------

    def publish(self, state: dict[str, Any]) -> None:
        """The newest state JSON (the station's thread): stored, and pushed to the open pages. Never
        waits on the pages: however fast the station publishes, at most one wake-up is pending on the
        server's loop, and each page is sent only the newest state when it is ready for more."""
        text = json.dumps(state, separators=(",", ":"))
        with self._lock:
            self.state, self._text = state, text
            loop = self._loop
            if loop is None or self._wake_pending:
                return
            self._wake_pending = True
        try:
            loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the server's loop has closed: nothing left to tell
            pass

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @property
    def where(self) -> str:
        """The address to tell people: the URL, and for all interfaces this machine's name."""
        if self.host in ("0.0.0.0", "::", ""):
            return f"http://{socket.gethostname()}:{self.port}/ (every address of this machine)"
        return self.url

    def start(self, timeout: float = 10.0, fallback: bool = False) -> None:
        """Serve on a thread of its own; returns once listening (``port`` 0 picks a free one).
        ``fallback``: a port that is taken gives way to a free one (``taken`` says which was asked).

        :raises WebError: when the address cannot be served.
        """
        self._thread = threading.Thread(target=self._serve, name="tavla-web", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if fallback and self.port and isinstance(self._error, OSError) and self._error.errno == EADDRINUSE:
            self.taken, self.port, self._error = self.port, 0, None
            self._ready.clear()
            self.start(timeout)
            return
        if self._error is not None:
            where = f"{self.host}:{self.port}"
            raise WebError(f"cannot serve the page on {where}: {self._error}") from self._error
        if not self._ready.is_set():
            raise WebError(f"the page did not start within {timeout} s")

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
            finally:
                loop.call_soon_threadsafe(loop.stop)
                thread.join(10)
        self._thread = None

    # --- the server's thread ---------------------------------------------------------------------

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._startup())
        except BaseException as exc:  # the port is taken, the host unknown: start() reports it
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._loop = None
            loop.close()

    async def _startup(self) -> None:
        self._changed = asyncio.Condition()
        app = web.Application(client_max_size=MAX_BODY)
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/static/{name}", self._static),
                web.get("/api/state", self._state),
                web.get("/api/events", self._events),
                web.get("/api/frame.jpg", self._frame),
                web.post("/api/action", self._action),
                web.post("/api/hint", self._hint),
                web.get("/download/{name}", self._download),
            ]
        )
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        if self.port == 0 and server is not None and server.sockets:
            self.port = int(server.sockets[0].getsockname()[1])

    async def _shutdown(self) -> None:
        self._closing = True
        if self._changed is not None:
            await self._notify(self._changed)  # the open streams end now, not at the shutdown timeout
        if self._runner is not None:
            await self._runner.cleanup()
        rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    def _wake(self) -> None:
        with self._lock:
            self._wake_pending = False
        # (once closing, _shutdown has woken the streams: a task made now would never run)
        if self._changed is not None and not self._closing:
            asyncio.ensure_future(self._notify(self._changed))

    @staticmethod
    async def _notify(changed: asyncio.Condition) -> None:
        async with changed:
            changed.notify_all()

    # --- routes ----------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=_asset("page.html"), content_type="text/html", charset="utf-8")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        types = {"page.js": "text/javascript", "board.js": "text/javascript", "live.js": "text/javascript",
                 "page.css": "text/css"}
        if name not in types:
            raise web.HTTPNotFound(text=f"no such file: {name[:40]}")
        return web.Response(text=_asset(name), content_type=types[name], charset="utf-8")

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self._text, content_type="application/json")

    async def _frame(self, request: web.Request) -> web.StreamResponse:
        """The camera's last frame with the reader's overlay (JPEG); 404 before the first."""
        jpeg = self.frame() if self.frame is not None else None
        if jpeg is None:
            return _error(404, "no camera frame yet")
        return web.Response(body=jpeg, content_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The live stream: the state now, then each newer one. A page holds no queue: a slow one
        skips to the newest state, and one that takes no data for WRITE_TIMEOUT_S (a stalled or
        vanished client whose buffers are full) is dropped, so an open page can never grow the
        server's memory. Each state carries ``id: EPOCH-SEQ``; a page reconnecting with the id of the
        state it has is not sent it again, any other gets the whole state (a state is never a diff,
        so nothing is lost between connections). A ``ping`` event every KEEPALIVE_S tells the page
        the stream is alive (its data: the interval), so a page can notice a silent stream."""
        if self.streams >= MAX_STREAMS:
            raise web.HTTPServiceUnavailable(text=f"{MAX_STREAMS} pages are open already; close one")
        assert self._changed is not None
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        sock = request.transport.get_extra_info("socket") if request.transport is not None else None
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SNDBUF)
        await resp.prepare(request)
        self.streams += 1
        ping = f"event: ping\ndata: {{\"every\": {KEEPALIVE_S}}}\n\n".encode()
        try:
            await self._write(resp, b"retry: 1000\n\n" + ping)
            sent = None
            had = request.headers.get("Last-Event-ID")
            while not self._closing:
                text, seq = self._text, self.state.get("seq", 0)
                if text is not sent:
                    sent = text
                    event_id = f"{self.epoch}-{seq}"
                    if event_id != had:
                        await self._write(resp, f"id: {event_id}\ndata: {text}\n\n".encode())
                    had = None
                async with self._changed:
                    try:
                        await asyncio.wait_for(self._changed.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        await self._write(resp, ping)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        except TimeoutError:  # the page took nothing for WRITE_TIMEOUT_S: let it go, buffers and all
            self.dropped += 1
            if request.transport is not None:
                request.transport.abort()
        finally:
            self.streams -= 1
        return resp

    @staticmethod
    async def _write(resp: web.StreamResponse, data: bytes) -> None:
        await asyncio.wait_for(resp.write(data), WRITE_TIMEOUT_S)

    async def _action(self, request: web.Request) -> web.StreamResponse:
        """One referee action: 202 with the event once it is on the station's queue, else a one-line
        error (400 malformed, 401 wrong PIN, 413 too big, 429 too many) and no event."""
        client = request.remote or "?"
        try:
            body = await request.json()
        except web.HTTPRequestEntityTooLarge:
            return _error(413, f"the body is over {MAX_BODY} bytes; a referee action is a small JSON object")
        except (ValueError, UnicodeDecodeError):
            return _error(400, "the body is not JSON: send {\"pin\": ..., \"action\": ...}")
        except RecursionError:  # [[[[... within the size limit: the parser's stack, not ours, gives up
            return _error(400, "the body is nested too deep: send {\"pin\": ..., \"action\": ...}")
        verdict = self.guard.check(client, body.get("pin") if isinstance(body, dict) else None)
        if not verdict.ok:
            wait = str(max(1, round(verdict.retry_after)))
            headers = {"Retry-After": wait} if verdict.status == 429 else {}
            return _error(verdict.status, verdict.why, headers)
        try:
            event = to_event(body, self.now(), self.state.get("dice"))
        except ActionError as exc:
            return _error(400, str(exc))
        try:
            self.submit(event)
        except TavlaError as exc:  # the station has stopped
            return _error(503, str(exc))
        return web.json_response({"accepted": event.to_json()}, status=202)

    async def _hint(self, request: web.Request) -> web.StreamResponse:
        """The players ask for a hint (home mode: hints on request; learner mode has them after every
        roll). It is what a long press on the clock button asks, journaled the same way, so it needs no
        referee PIN; only its rate is limited. 202 once on the station's queue; 403 in tournament mode,
        409 with no roll on the board, 429 too many, and no event."""
        verdict = self.guard.rate(request.remote or "?")
        if not verdict.ok:
            return _error(429, verdict.why, {"Retry-After": "1"})
        state = self.state
        if state.get("mode") == "tournament":
            return _error(403, "no hints in tournament mode: no electronic aid at a tournament board")
        if state.get("phase") != "moving":
            return _error(409, "a hint needs a roll on the board: ask once the dice are thrown")
        event = ButtonPressed(t=self.now(), button="clock", gesture="long")
        try:
            self.submit(event)
        except TavlaError as exc:  # the station has stopped
            return _error(503, str(exc))
        return web.json_response({"accepted": event.to_json()}, status=202)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        make = self.downloads.get(name)
        if make is None:
            raise web.HTTPNotFound(text=f"no such record: {name[:40]}; offered: {', '.join(self.downloads)}")
        try:
            text = await asyncio.get_running_loop().run_in_executor(None, make)
        except (OSError, ValueError) as exc:
            return _error(409, f"{name} cannot be written now: {exc}")
        if text is None:
            return _error(404, f"no {name} yet: no game has been played")
        return web.Response(
            text=text,
            content_type="text/plain",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )


def _error(status: int, why: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": why}, status=status, headers=headers)


def _asset(name: str) -> str:
    return resources.files("controller.station.web").joinpath(name).read_text(encoding="utf-8")
