"""The director's page (aiohttp, as the station's page): every board, the team matches, the round's
CSV, the commands.

Routes: ``GET /`` the page, ``GET /static/{name}`` its script and styles -- and the station page's
own parts (:data:`SHARED`: the SVG board, the live stream's client, the styles), so each board is
drawn by the code that draws the station's page -- ``GET /api/club`` the club as JSON,
``GET /api/events`` the club live (server-sent events), ``GET /round.csv`` every round's results
(``?round=N`` one round's), ``POST /api/command``
``{"pin": ..., "command": "pause" | "resume" | "round", ...}`` to every station. Every command needs
the director's PIN (controller.director.access; wrong PINs are slowed per client,
controller.pin_guard); reading needs none.

The stream sends the club again when it changed (:attr:`ClubView.version`), at most every
:data:`PUSH_S`: a club's stations send many events a second between them, a page needs a few.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from aiohttp import web

from controller.club.url import ClubError
from controller.director.access import WHO
from controller.director.club import ClubView
from controller.pin_guard import Guard

PUSH_S = 0.5
MAX_STREAMS = 64  # open pages at once; more get 503 rather than slowing the others
KEEPALIVE_S = 15.0  # a comment line on an idle stream keeps proxies and the browser from closing it
MAX_BODY = 64 * 1024  # a round's pairings for a big club; a bigger body is refused (413)
OWN = {"director.js": "text/javascript", "director.css": "text/css"}
SHARED = {"board.js": "text/javascript", "live.js": "text/javascript", "page.css": "text/css"}
STATION_PAGE = "controller.station.web"  # where the shared parts live (read as files, not imported)


class Feed:
    """The club's JSON as the open pages were last sent it, and the condition they wait on."""

    def __init__(self, view: ClubView) -> None:
        self.view = view
        self.version = -1
        self.text = ""
        self.changed = asyncio.Condition()
        self.streams = 0
        self.closing = False

    def refresh(self) -> bool:
        """Rebuild the JSON if the club moved; True when it did."""
        version = self.view.version
        if version == self.version:
            return False
        self.text = json.dumps(self.view.to_json(), separators=(",", ":"))
        self.version = version
        return True

    async def run(self) -> None:
        while not self.closing:
            if self.refresh():
                await self.notify()
            await asyncio.sleep(PUSH_S)

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()


FEED = web.AppKey("feed", Feed)


def app(view: ClubView, send: Callable[..., dict[str, Any]], pin: str | None = None) -> web.Application:
    """The page for ``view``; ``send(name, **fields)`` sends a director command
    (controller.director.client.DirectorClient.send) given ``pin`` (None: no command is taken)."""
    guard = Guard(pin, who=WHO, where="--pin, or pin in the director's --config file")

    async def feed_ctx(application: web.Application) -> AsyncIterator[None]:
        feed = Feed(view)
        application[FEED] = feed
        task = asyncio.ensure_future(feed.run())
        yield
        feed.closing = True
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def on_shutdown(application: web.Application) -> None:
        feed = application[FEED]
        feed.closing = True
        await feed.notify()  # the open streams end now, not at the shutdown timeout

    async def page(_request: web.Request) -> web.StreamResponse:
        return web.Response(text=_asset(__package__ or "controller.director", "director.html"),
                            content_type="text/html", charset="utf-8")

    async def static(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name in OWN:
            where, kind = __package__ or "controller.director", OWN[name]
        elif name in SHARED:
            where, kind = STATION_PAGE, SHARED[name]
        else:
            raise web.HTTPNotFound(text=f"no such file: {name[:40]}")
        return web.Response(text=_asset(where, name), content_type=kind, charset="utf-8")

    async def club(_request: web.Request) -> web.StreamResponse:
        return web.json_response(view.to_json())

    async def events(request: web.Request) -> web.StreamResponse:
        """The club now, then each newer state of it (a slow page skips to the newest)."""
        feed = request.app[FEED]
        if feed.streams >= MAX_STREAMS:
            raise web.HTTPServiceUnavailable(text=f"{MAX_STREAMS} pages are open already; close one")
        feed.refresh()
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await resp.prepare(request)
        feed.streams += 1
        try:
            await resp.write(b"retry: 1000\n\n")
            sent = None
            while not feed.closing:
                text = feed.text
                if text is not sent:
                    await resp.write(f"data: {text}\n\n".encode())
                    sent = text
                async with feed.changed:
                    try:
                        await asyncio.wait_for(feed.changed.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        await resp.write(b": keep-alive\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            feed.streams -= 1
        return resp

    async def round_csv(request: web.Request) -> web.StreamResponse:
        """Every round's results (``?round=N``: round N's)."""
        which = request.query.get("round")
        if which is not None and not (which.isdigit() and len(which) < 10):
            raise web.HTTPBadRequest(text="give ?round=N, a round's number, or no round for every round")
        try:
            text = view.round_csv(int(which) if which is not None else None)
        except KeyError:
            raise web.HTTPNotFound(text=f"no round {which} was started from this director") from None
        name = f"{view.club}-round-{which}.csv" if which is not None else f"{view.club}-rounds.csv"
        return web.Response(text=text, content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def command(request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
        except web.HTTPRequestEntityTooLarge:
            return web.json_response({"said": f"the body is over {MAX_BODY} bytes"}, status=413)
        except (ValueError, UnicodeDecodeError):
            return web.json_response({"said": "give a JSON object"}, status=400)
        if not isinstance(body, dict):
            return web.json_response({"said": "give a JSON object: {\"pin\": ..., \"command\": ...}"},
                                     status=400)
        verdict = guard.check(request.remote or "", body.get("pin"))
        if not verdict.ok:
            wait = f"{max(1, round(verdict.retry_after))}"
            headers = {"Retry-After": wait} if verdict.status == 429 else {}
            return web.json_response({"said": verdict.why}, status=verdict.status, headers=headers)
        if not isinstance(body.get("command"), str):
            return web.json_response({"said": "give {\"command\": \"pause\" | \"resume\" | \"round\"}"},
                                     status=400)
        body.pop("pin", None)
        name = body.pop("command")
        try:
            cmd = send(name, **body)
        except ClubError as exc:
            return web.json_response({"said": str(exc)}, status=400)
        return web.json_response({"said": f"sent: {name}", "command": cmd})

    application = web.Application(client_max_size=MAX_BODY)
    application.cleanup_ctx.append(feed_ctx)
    application.on_shutdown.append(on_shutdown)
    application.add_routes([
        web.get("/", page),
        web.get("/static/{name}", static),
        web.get("/api/club", club),
        web.get("/api/events", events),
        web.get("/round.csv", round_csv),
        web.post("/api/command", command),
    ])
    return application


def _asset(package: str, name: str) -> str:
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")
