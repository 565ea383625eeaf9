"""Checkers: the stacks on the points and the bar, the borne-off trays, and hands covering points."""
