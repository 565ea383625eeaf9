"""Dice: found and read in any photo (classical pipeline joined with a small network run by OpenCV) or
on a known board, with their status (flat, cocked, on the bar, ...)."""
