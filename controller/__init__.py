"""The only package that joins rules, vision and the LED link: rules core, formats, arbiter, game,
hints, inputs, journal, station and the ``tavla`` command line (DESIGN.md)."""
