"""A club of boards over MQTT (issue 17): each station publishes its journal and state to a broker
(Mosquitto), the tournament director's view (controller.director) reads every board.

``url`` parses ``--mqtt``, ``topics`` names the topics and the director's commands, ``acl`` writes the
broker's access list, ``connect`` makes the paho client (the station's and the director's),
``publisher`` is the station's side. The journal stays the truth: what is published is its entries,
as written, with their ``seq`` and chain MAC, and on every (re)connect the station republishes what
the director has not acknowledged.
"""
