"""Sight on the bot's map, read as a player reads it: one figure's sight of another
(:func:`rules.battlefield.line_of_sight`), of many at once (:func:`lines_of_sight`), and of a
whole table (:func:`sight_grid`, what the map picture shades). All three are this one reading, so
a ruleset's ``terrain:`` table (a house rule included) changes the card and the picture alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from rules.battlefield.field import FieldState
from rules.battlefield.maps import battlefield_of
from rules.battlefield.terrain import Terrain, blocking, low
from rules.geometry import Base, Point, Sight
from rules.geometry.shapes import Battlefield
from rules.geometry.sight import CLEAR_SIGHT, sights_at

EPSILON = 1e-6

#: The codes of a sight grid.
CLEAR, PARTIAL, BLOCKED = 0, 1, 2
SIGHT_CODES = {"clear": CLEAR, "partial": PARTIAL, "blocked": BLOCKED}


def lines_of_sight(state: FieldState, terrain: Terrain, shooter: Base, targets: Sequence[Base]) -> list[Sight]:
    """:func:`rules.battlefield.line_of_sight` from ``shooter`` to each of ``targets``.

    SSG's three sentences (A-SSG-6), with terrain either figure stands in read as a player would: a
    figure inside a wood sees out, and is seen, within the kind's ``see_into`` of its edge (the
    wood then hides the target partly); deeper in, nothing sees it and it sees nothing. A feature a
    figure stands on with no ``see_into`` (a hill) hides nothing from or of it. A low feature (a
    wall) the line between centres crosses nearer the target makes a clear sight partial."""
    centres = np.array([(t.centre.x, t.centre.y) for t in targets], dtype=float).reshape(-1, 2)
    return _seen_at(state, terrain, shooter.centre, centres, np.array([t.radius for t in targets], dtype=float))


def _seen_at(
    state: FieldState,
    terrain: Terrain,
    shooter: Point,
    centres: npt.NDArray[np.float64],
    radii: npt.NDArray[np.float64],
) -> list[Sight]:
    """:func:`lines_of_sight` of targets given as arrays: centres (held to a billionth of an inch,
    as a :class:`Point` holds them) and radii."""
    field_ = battlefield_of(state.map)
    hiding = blocking(terrain)
    hiders = [i for i, f in enumerate(field_.features) if f.kind in hiding]
    count = len(centres)
    found: list[Sight | None] = [None] * count
    screens: dict[int, str] = {}
    mine: frozenset[int] = frozenset()
    set_aside: list[frozenset[int]] = [mine] * count
    if hiders and count:
        shapes = np.array([field_.features[i].geometry for i in hiders], dtype=object)
        xs = np.concatenate([[shooter.x], centres[:, 0]])
        ys = np.concatenate([[shooter.y], centres[:, 1]])
        standing = shapely.intersects_xy(shapes[None, :], xs[:, None], ys[:, None])
        depths = _depths(field_, terrain, hiders, standing, xs, ys)
        for column in np.nonzero(standing[0])[0].tolist():
            i = hiders[column]
            feature = field_.features[i]
            see_into = terrain[feature.kind].see_into
            mine |= {i}
            if see_into is not None and depths[0, column] > see_into + EPSILON:
                return [Sight("blocked", feature.label, None)] * count
        set_aside = [mine] * count
        for n in np.nonzero(standing[1:].any(axis=1))[0].tolist():
            aside = set(mine)
            for column in np.nonzero(standing[n + 1])[0].tolist():
                i = hiders[column]
                feature = field_.features[i]
                see_into = terrain[feature.kind].see_into
                aside.add(i)
                if see_into is None:
                    continue
                if depths[n + 1, column] > see_into + EPSILON:
                    found[n] = Sight("blocked", feature.label, 0.0)
                    break
                screens[n] = feature.label
            set_aside[n] = frozenset(aside)
    open_ = [n for n, seen in enumerate(found) if seen is None]
    measured = sights_at(field_, shooter, centres[open_], radii[open_], hiding, [set_aside[n] for n in open_])
    clear = []
    for n, seen in zip(open_, measured, strict=True):
        screen = screens.get(n)
        if screen is not None and seen.kind == "clear":
            seen = Sight("partial", screen, 0.0)
        elif seen.kind == "clear":
            clear.append(n)
        found[n] = seen
    for n, screen_ in zip(clear, _low_screens(field_, terrain, shooter, centres[clear]), strict=True):
        if screen_ is not None:
            found[n] = screen_
    return [seen if seen is not None else CLEAR_SIGHT for seen in found]


def _depths(
    field_: Battlefield,
    terrain: Terrain,
    hiders: list[int],
    standing: npt.NDArray[np.bool_],
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """How far inside each hiding feature (column) each point (row) standing in it is: its
    distance from the feature's outline (zero where it does not stand in it)."""
    depths = np.zeros(standing.shape)
    for column in np.nonzero(standing.any(axis=0))[0].tolist():
        rows = np.nonzero(standing[:, column])[0]
        feature = field_.features[hiders[column]]
        if terrain[feature.kind].see_into is not None:
            depths[rows, column] = shapely.distance(feature.geometry.boundary, shapely.points(xs[rows], ys[rows]))
    return depths


def _low_screens(
    field_: Battlefield, terrain: Terrain, shooter: Point, ends: npt.NDArray[np.float64]
) -> list[Sight | None]:
    """For each target: partial sight from the low feature (a wall) the line between centres
    crosses nearest the target, when that is nearer the target than the shooter; else None."""
    kinds = low(terrain)
    walls = [f for f in field_.features if f.kind in kinds]
    found: list[Sight | None] = [None] * len(ends)
    if not walls or not len(ends):
        return found
    start = np.broadcast_to([shooter.x, shooter.y], ends.shape)
    lines = np.asarray(shapely.linestrings(np.stack([start, ends], axis=1)))
    shapes = np.array([f.geometry for f in walls], dtype=object)
    rows, columns = np.nonzero(shapely.intersects(lines[:, None], shapes[None, :]))
    if not len(rows):
        return found
    crossings = shapely.intersection(lines[rows], shapes[columns])
    crossings = np.where(shapely.is_empty(crossings), shapes[columns], crossings)
    from_target = shapely.distance(crossings, shapely.points(ends[rows]))
    # Nearest the target first (in the map's order when as near): the first met decides.
    for k in np.lexsort((columns, from_target)).tolist():
        n, j = int(rows[k]), int(columns[k])
        if found[n] is not None:
            continue
        gap = math.hypot(shooter.x - float(ends[n, 0]), shooter.y - float(ends[n, 1]))
        found[n] = Sight("partial", walls[j].label, float(from_target[k])) if from_target[k] < gap / 2 else CLEAR_SIGHT
    return [None if seen is CLEAR_SIGHT else seen for seen in found]


def sight_grid(
    state: FieldState, terrain: Terrain, viewer: Base, spacing: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int8]]:
    """What ``viewer`` sees of a figure of its own size standing at each point of a grid about
    ``spacing`` inches apart (cell centres): the x and y of the columns and rows (rows from the
    table's top, as a picture is drawn), and the sight there as :data:`SIGHT_CODES` (CLEAR,
    PARTIAL, BLOCKED): :func:`lines_of_sight` at every point."""
    table = battlefield_of(state.map).table
    nx, ny = max(1, math.ceil(table.width / spacing)), max(1, math.ceil(table.height / spacing))
    # Held as a Point holds them (to a billionth), so each answer is line_of_sight's at Point(x, y).
    xs = np.array([round((i + 0.5) * (table.width / nx), 9) + 0.0 for i in range(nx)])
    ys = np.array([round(table.height - (j + 0.5) * (table.height / ny), 9) + 0.0 for j in range(ny)])
    gx, gy = np.meshgrid(xs, ys)
    centres = np.stack([gx.ravel(), gy.ravel()], axis=1)
    seen = _seen_at(state, terrain, viewer.centre, centres, np.full(len(centres), viewer.radius))
    codes = np.array([SIGHT_CODES[s.kind] for s in seen], dtype=np.int8)
    return xs, ys, codes.reshape(ny, nx)


def line_of_sight(state: FieldState, terrain: Terrain, shooter: Base, target: Base) -> Sight:
    """Sight from ``shooter`` to ``target`` (SSG's three sentences, A-SSG-6), with terrain either
    figure stands in read as a player would (:func:`lines_of_sight`,
    the one reading the map picture's shading uses too)."""
    return lines_of_sight(state, terrain, shooter, [target])[0]
