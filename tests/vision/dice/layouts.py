"""Where the pips of each d6 face lie, for tests that draw dice: (column, row) offsets from the face's
centre in units of the pip step (a corner pip is one step from the centre along each side) -- the
renderer's own layouts (vision.render.draw.PIPS, in half sides) at twice their scale."""

from vision.render.draw import PIPS

LAYOUTS: dict[int, list[tuple[int, int]]] = {
    value: [(round(2 * x), round(2 * y)) for x, y in pips] for value, pips in PIPS.items()
}
