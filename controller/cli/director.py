"""``tavla director`` -- the tournament director's page for a club of stations (issue 17 item 3).

It subscribes to every board of ``--club`` on the broker (``--mqtt``, as the director's user: only
it may send the director's commands, the broker's ACL says so) and serves the page on ``--web``
(``[HOST:]PORT``, 127.0.0.1 unless a host is given, as the station's page). The page's commands need
the director's PIN (``--pin``, or ``pin`` in the ``--config`` file); an address other than the
machine's own is refused without one (controller.director.access).
"""

from __future__ import annotations

from pathlib import Path

import typer

from controller.cli.common import fail


def register(app: typer.Typer) -> None:
    @app.command("director")
    def director(
        mqtt: str = typer.Option(..., "--mqtt", help="club broker: mqtt://DIRECTOR:PASS@HOST:PORT"),
        club: str = typer.Option(..., "--club", help="the club's name"),
        web: str = typer.Option(
            "8080", "--web", help="the director's page: [HOST:]PORT (127.0.0.1 unless a host is given; "
            "any other host needs a PIN)"
        ),
        pin: str | None = typer.Option(
            None, "--pin", help="the director's PIN (6+ characters): the page's commands need it"
        ),
        config: Path | None = typer.Option(
            None, "--config", help='the director\'s file (TOML): pin = "..." (kept out of the process list)'
        ),
        team: list[str] = typer.Option(
            [], "--team", help="a team match HOME:AWAY:B1,B2,B3 (HOME plays light), RULES.md B18"
        ),
        mqtt_anonymous: bool = typer.Option(False, "--mqtt-anonymous", help="a broker without users"),
    ) -> None:
        """The director's view: every board of the club, team matches, the round's results."""
        from aiohttp import web as aioweb

        from controller.club.topics import check_name
        from controller.club.url import ClubError, parse_url
        from controller.director.access import access as page_access
        from controller.director.client import DirectorClient
        from controller.director.club import ClubView
        from controller.director.team import TeamMatch
        from controller.director.web import app as web_app

        try:
            where = page_access(web, pin, config)
            url = parse_url(mqtt, mqtt_anonymous)
            view = ClubView(check_name("club", club), tuple(TeamMatch.parse(t) for t in team))
        except ClubError as exc:
            raise fail(str(exc)) from None
        client = DirectorClient(url, view, say=lambda line: typer.echo(line, err=True))
        client.start()
        commands = "commands need the director's PIN" if where.pin else \
            "read only: give --pin to send commands"
        typer.echo(f"the director's page: {where.where} ({commands}; Ctrl-C stops)", err=True)
        try:
            aioweb.run_app(web_app(view, client.send, where.pin), host=where.host, port=where.port,
                           print=None, access_log=None, shutdown_timeout=1.0)
        except OSError as exc:
            raise fail(f"cannot serve the director's page on {where.host}:{where.port}: "
                       f"{exc.strerror or exc}; give another --web port") from None
        finally:
            client.close()
