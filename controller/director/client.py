"""The director's broker client: feeds a :class:`~controller.director.club.ClubView`, acknowledges
what it holds, asks for what it misses, and sends the director's commands.

Every half second it publishes, retained, ``ack/B`` for each board whose gap-free ``seq`` moved (the
station republishes after it on reconnect), and ``replay/B`` for each board that is behind -- a gap in
its entries, or a state ahead of them, as for a director that starts after the games did (at most once
a second per board, so a slow station is not flooded).
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from controller.club import topics
from controller.club.connect import connect_client
from controller.club.url import BrokerUrl
from controller.director.club import ClubView

_TICK = 0.5
_REPLAY_EVERY = 1.0


class DirectorClient:
    """The director of ``view.club`` on the broker at ``url`` (user: the director's)."""

    def __init__(self, url: BrokerUrl, view: ClubView, say: Any = None, tick: float = _TICK) -> None:
        self.url = url
        self.view = view
        self.say = say or (lambda line: None)
        self.tick = tick
        self.connected = threading.Event()
        self._acked: dict[tuple[str, str | None], int] = {}
        self._asked: dict[str, float] = {}
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._client = connect_client(url, f"tavla-{view.club}-director-{time.time_ns()}", clean=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_message = self._on_message
        self._timer = threading.Thread(target=self._loop, name="tavla-director-acks", daemon=True)

    def start(self) -> None:
        self._client.connect_async(self.url.host, self.url.port, keepalive=10)
        self._client.loop_start()
        self._timer.start()

    def close(self) -> None:
        self._stop.set()
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.say(f"club broker {self.url} refused the director: {reason}")
            self.view.link(False, f"the broker refused the director ({reason})")
            return
        self.view.link(True)
        club = self.view.club
        for leaf in topics.BOARD_LEAVES:
            client.subscribe(f"{topics.ROOT}/{club}/+/{leaf}", qos=1)
        self.connected.set()
        self.say(f"club broker {self.url}: the director sees club {club}")

    def _on_connect_fail(self, _c: Any, _u: Any) -> None:
        self.view.link(False, f"no broker at {self.url}; retrying")

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if self.connected.is_set() and not self._stop.is_set():
            self.say(f"club broker {self.url}: connection lost ({reason}); retrying")
        if not self._stop.is_set():
            self.view.link(False, f"broker lost ({reason}); retrying")
        self.connected.clear()

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        self.view.receive(msg.topic, bytes(msg.payload))

    def _loop(self) -> None:
        while not self._stop.wait(self.tick):
            if self.connected.is_set():
                self.sync()

    def sync(self) -> None:
        """Acknowledge what moved, ask for what is missing (see the module docstring)."""
        now = time.monotonic()
        with self.view.lock:
            boards = [(b.name, b.journal, b.held, b.behind) for b in self.view.boards.values()]
        for name, journal, held, behind in boards:
            if held > self._acked.get((name, journal), -1):
                self._client.publish(topics.director_topic(self.view.club, "ack", name),
                                     topics.dumps({"journal": journal, "seq": held}), qos=1, retain=True)
                self._acked[(name, journal)] = held
            if behind and now - self._asked.get(name, 0.0) >= _REPLAY_EVERY:
                self._client.publish(topics.director_topic(self.view.club, "replay", name),
                                     topics.dumps({"journal": journal, "after": held}), qos=1)
                self._asked[name] = now

    def send(self, name: str, **fields: Any) -> dict[str, Any]:
        """A director command to every station (pause, resume, round); returns it.

        :raises controller.club.url.ClubError: on a command that does not fit.
        """
        cmd = topics.command(name, f"{time.time_ns()}-{next(self._ids)}", **fields)
        if name == "round":
            self.view.start_round(cmd)
        self._client.publish(topics.director_topic(self.view.club, "command"), topics.dumps(cmd), qos=1)
        return cmd
