"""The tournament director's view of a club (issue 17 item 3): every board from the broker, team
matches scored per RULES.md B18, a round's results as CSV, and the director's commands.

``board`` rebuilds one board from its messages (duplicates dropped by ``seq``, gaps found), ``club``
holds them all, ``team`` and ``results`` score them, ``client`` talks to the broker and ``web`` serves
the page (aiohttp; ``director.html`` / ``.js`` / ``.css``, drawing each board with the station page's
``board.js``).
"""
