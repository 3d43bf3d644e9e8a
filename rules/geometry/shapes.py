"""The battlefield's plain shapes: points, the table, round bases, terrain features.

Inches throughout, (0, 0) the table's lower-left corner. Every shape checks itself when built (by
hand or by :func:`rules.plain.from_data`) and refuses bad numbers with a sentence a player can read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from rules.vocabulary import DataError

#: Bounds that keep a map file, a move or a base to a size a game can mean.
MAX_TABLE_INCHES = 1000.0
MIN_SIZE = 0.01
MAX_BASE_RADIUS = 12.0
MAX_THICKNESS = 12.0
MAX_FEATURES = 500
MAX_POINTS = 200


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DataError([f"{what} must be a finite number of inches, not {value!r}"])
    if abs(value) > MAX_TABLE_INCHES:
        raise DataError([f"{what} is {value:g} inches; nothing on a table is more than {MAX_TABLE_INCHES:g}"])
    return float(value)


def _coordinate(value: float) -> str:
    """A tenth of an inch (``14.0``), or a hundredth where a map says more (``19.25``): what a player
    reads is what they may type back."""
    tenths = f"{value:.1f}"
    return tenths if abs(float(tenths) - value) < 0.005 else f"{value:.2f}"


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    def __post_init__(self) -> None:
        # Held to a billionth of an inch, so no vanishing fraction (1e-313) upsets the geometry.
        object.__setattr__(self, "x", round(_number(self.x, "a point's x"), 9) + 0.0)
        object.__setattr__(self, "y", round(_number(self.y, "a point's y"), 9) + 0.0)

    def __str__(self) -> str:
        return f"{_coordinate(self.x)},{_coordinate(self.y)}"


@dataclass(frozen=True)
class Table:
    width: float
    height: float

    def __post_init__(self) -> None:
        for what, value in (("the table's width", self.width), ("the table's height", self.height)):
            if _number(value, what) < 1:
                raise DataError([f"{what} must be at least 1 inch, not {value:g}"])

    def holds(self, point: Point) -> bool:
        edge = 1e-9  # the rounding of a point
        return -edge <= point.x <= self.width + edge and -edge <= point.y <= self.height + edge

    def check(self, point: Point, what: str = "the point") -> None:
        """Refuse a point off the table."""
        if not self.holds(point):
            raise DataError([f"{what} ({point}) is off the {self.width:g} by {self.height:g} inch table"])


@dataclass(frozen=True)
class Base:
    """A figure's round base: its centre (the helmet, where SSG measures from) and its radius."""

    centre: Point
    radius: float

    def __post_init__(self) -> None:
        radius = _number(self.radius, "a base's radius")
        if not MIN_SIZE <= radius <= MAX_BASE_RADIUS:
            raise DataError([f"a base's radius must be at least {MIN_SIZE:g} and at most {MAX_BASE_RADIUS:g} inches"])


@dataclass(frozen=True)
class Feature:
    """A terrain feature: an ``area`` (a polygon: wood, building, hill, water) or a ``line`` with a
    thickness (wall, hedge, fence). ``kind`` is what the ruleset's tables look up; ``name`` is what
    a card calls it ("the hedge" when it has none)."""

    kind: str
    points: tuple[Point, ...]
    shape: Literal["area", "line"] = "area"
    thickness: float = 0.0
    name: str = ""

    def __post_init__(self) -> None:
        label = self.label
        if not self.kind.strip():
            raise DataError(["a terrain feature needs a kind (wood, hedge, building ...)"])
        if len(self.points) > MAX_POINTS:
            raise DataError([f"{label} has {len(self.points)} points; a feature may have at most {MAX_POINTS}"])
        if self.shape == "area":
            if len(self.points) < 3:
                raise DataError([f"{label} is an area and needs at least 3 points"])
            ring = Polygon([(p.x, p.y) for p in self.points])
            if abs(shapely.area(ring.exterior.convex_hull)) <= 1e-9:
                raise DataError([f"{label}'s outline encloses no ground"])
            if not ring.is_valid:
                raise DataError([f"{label}'s outline crosses itself"])
        elif self.shape == "line":
            if len(self.points) < 2:
                raise DataError([f"{label} is a line and needs at least 2 points"])
            thickness = _number(self.thickness, f"{label}'s thickness")
            if not MIN_SIZE <= thickness <= MAX_THICKNESS:
                raise DataError(
                    [f"{label}'s thickness must be at least {MIN_SIZE:g} and at most {MAX_THICKNESS:g} inches"]
                )
            if LineString([(p.x, p.y) for p in self.points]).length <= 1e-9:
                raise DataError([f"{label} has no length"])
        else:
            raise DataError([f"{label}'s shape must be area or line, not {self.shape!r}"])

    @property
    def label(self) -> str:
        return self.name or f"the {self.kind}"

    @cached_property
    def geometry(self) -> BaseGeometry:
        """The ground the feature covers: its polygon, or its line widened by its thickness."""
        coords = [(p.x, p.y) for p in self.points]
        if self.shape == "area":
            shape: BaseGeometry = Polygon(coords)
        else:
            shape = LineString(coords).buffer(self.thickness / 2, cap_style="flat")
        shapely.prepare(shape)
        return shape

    @cached_property
    def edges(self) -> npt.NDArray[np.float64]:
        """The outline of the ground it covers as segments, one (x0, y0, x1, y1) a row, holes included."""
        rings = shapely.get_rings(shapely.get_parts(self.geometry))
        coords = [shapely.get_coordinates(ring) for ring in rings]
        return np.vstack([np.hstack([c[:-1], c[1:]]) for c in coords])


@dataclass(frozen=True)
class Battlefield:
    table: Table
    features: tuple[Feature, ...] = ()

    def __post_init__(self) -> None:
        if len(self.features) > MAX_FEATURES:
            raise DataError([f"the map has {len(self.features)} features; a map may have at most {MAX_FEATURES}"])
        for feature in self.features:
            for point in feature.points:
                self.table.check(point, f"a point of {feature.label}")

    def check_base(self, base: Base, what: str = "the figure") -> None:
        """Refuse a base whose centre is off the table."""
        self.table.check(base.centre, what)

    @cached_property
    def index(self) -> shapely.STRtree:
        """The features' ground in a spatial index, built on first use: what stands on a point is
        then found among the few features near it, not tested against all 500 of a large map."""
        return shapely.STRtree([feature.geometry for feature in self.features])
