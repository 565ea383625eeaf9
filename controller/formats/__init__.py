"""Text formats: gnubg Position ID and Match ID, XGID, move notation, Jellyfish .mat and gnubg .sgf.

Each format is a parser and a writer that round-trip (STYLE.md principle 5). Imports only
``controller.rules`` and the standard library.
"""
