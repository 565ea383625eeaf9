"""The doubling cube: found on the board and its face read."""
