"""The paho client a station and the director both connect with (user, TLS, retry)."""

from __future__ import annotations

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.club.url import BrokerUrl


def connect_client(url: BrokerUrl, client_id: str, clean: bool) -> mqtt.Client:
    """A paho client for ``url`` (not yet connected): user, TLS, and a quick retry when the broker is
    gone (1-5 s: a station's backlog should drain soon after the broker is back)."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean, protocol=mqtt.MQTTv311
    )
    if url.user is not None:
        client.username_pw_set(url.user, url.password)
    if url.tls:
        client.tls_set()  # the system's CA store; see hardware_docs/club.md for a club's own CA
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_inflight_messages_set(100)
    return client
