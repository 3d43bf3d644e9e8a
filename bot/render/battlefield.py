"""The battlefield as a PNG, top-down: the table with an inch grid (labelled every 6 inches round
the edge) and a scale bar, its terrain drawn so each kind is recognisable (trees in a wood, walls,
doors and windows of a building, contours and a crest on a hill, ...), each side's deployment zone
tinted in its colour, and every figure as a disc of its base in its side's colour with its name
(a number and a key where names would collide), its facing and its marks. With a focus, that
figure's movement reach, its weapon's range bands, and its sight: what it sees clearly, partly or
not at all, shaded. A legend names everything shown.

A pure function of its inputs (:func:`draw_field`). How each kind of terrain is drawn is the one
table :data:`STYLES`.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import shapely
from PIL import Image, ImageChops, ImageDraw, ImageFont
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from bot.render.fonts import font as _font
from bot.render.fonts import plain as _plain
from rules.battlefield import FieldView, MapFeature, Terrain, Token, UnitMark, battlefield_of
from rules.battlefield.maps import zone_shape
from rules.battlefield.sightlines import BLOCKED, PARTIAL, sight_grid
from rules.geometry import Base, Point

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
XY = tuple[float, float]

#: The picture's width; the table is scaled to fit it (and at most MAX_MAP_HEIGHT tall).
WIDTH = 1200
MAX_MAP_HEIGHT = 1500
SIDE_MARGIN = 48
EDGE_ROW = 28
LEGEND_ROW = 34

PAPER: Colour = (240, 236, 222)
INK: Colour = (40, 36, 30)
WHITE: Colour = (255, 255, 255)
GRID_LIGHT = (60, 50, 30, 34)
GRID_STRONG = (60, 50, 30, 80)
FOCUS_RING: Colour = (250, 200, 20)
REACH: Colour = (40, 150, 60)
BAND: Colour = (30, 30, 30)
UNSEEN = (30, 30, 55)
UNSEEN_ALPHA = 125
#: Partly seen: a light shade and dark hatching.
PARTLY_ALPHA = 40
HATCH_ALPHA = 150


@dataclass(frozen=True)
class Style:
    """How one kind of terrain is drawn: the legend's words, the ground's (or line's) colour, its
    outline's, the marks drawn over it (``pattern``) and its layer (lowest drawn first)."""

    label: str
    fill: Colour
    edge: Colour
    pattern: str
    layer: int


STYLES: dict[str, Style] = {
    "road": Style("road", (224, 208, 166), (178, 154, 108), "plain", 0),
    "rough": Style("rough ground", (214, 204, 156), (140, 126, 80), "stipple", 1),
    "hill": Style("hill (crest line)", (226, 204, 152), (160, 118, 62), "contours", 1),
    "water": Style("water", (146, 194, 230), (64, 116, 170), "waves", 2),
    "ford": Style("ford", (186, 216, 232), (64, 116, 170), "stepping", 3),
    "wood": Style("wood", (176, 208, 146), (66, 114, 52), "trees", 4),
    "rubble": Style("rubble", (204, 198, 188), (118, 112, 104), "rubble", 4),
    "building": Style("building (door, window)", (184, 108, 82), (58, 42, 34), "building", 5),
    "hedge": Style("hedge", (62, 128, 50), (30, 78, 26), "hedge", 6),
    "fence": Style("fence", (160, 118, 72), (92, 62, 34), "posts", 6),
    "wall": Style("wall", (156, 152, 146), (70, 66, 62), "masonry", 6),
    "barricade": Style("barricade", (134, 98, 60), (62, 44, 28), "stakes", 6),
}
OTHER_STYLE = Style("other", (200, 200, 200), (110, 110, 110), "plain", 1)
LINE_PATTERNS = ("hedge", "posts", "masonry", "stakes")

#: Side colours by the sides' order (red, blue, then others); a side named for a colour gets it.
SIDE_PALETTE: tuple[Colour, ...] = (
    (214, 48, 39),
    (37, 104, 214),
    (38, 150, 62),
    (142, 68, 173),
    (225, 120, 20),
    (22, 150, 140),
    (120, 80, 40),
    (90, 90, 90),
)
NAMED_COLOURS: dict[str, Colour] = {
    "red": SIDE_PALETTE[0],
    "blue": SIDE_PALETTE[1],
    "green": SIDE_PALETTE[2],
    "purple": SIDE_PALETTE[3],
    "orange": SIDE_PALETTE[4],
}

#: A mark's badge: its letter and colour. ``out`` is drawn as a faded, crossed disc instead.
MARKS: dict[str, tuple[str, Colour, str]] = {
    "wounded": ("W", (200, 30, 30), "wounded"),
    "down": ("D", (120, 60, 150), "down"),
    "pinned": ("P", (240, 160, 30), "pinned"),
    "no ammo": ("A", (110, 110, 110), "no ammunition"),
}


def side_colours(sides: Sequence[str]) -> dict[str, Colour]:
    """Each side's colour: one named for a colour gets it, the others the palette in order."""
    chosen: dict[str, Colour] = {}
    for side in sides:
        named = NAMED_COLOURS.get(side.casefold())
        if named is not None and named not in chosen.values():
            chosen[side] = named
    spare = (c for c in SIDE_PALETTE if c not in chosen.values())
    for side in sides:
        if side not in chosen:
            chosen[side] = next(spare, SIDE_PALETTE[-1])
    return chosen


def _mix(colour: Colour, other: Colour, amount: float) -> Colour:
    r, g, b = (round(c + (o - c) * amount) for c, o in zip(colour, other, strict=True))
    return r, g, b


def _contrast(colour: Colour) -> Colour:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 160 else WHITE


def _jitter(i: int, j: int) -> tuple[float, float]:
    """A fixed offset in [-0.5, 0.5) for lattice point (i, j): texture looks scattered, yet every
    picture of a map is the same."""
    h = (i * 73856093) ^ (j * 19349663) ^ 0x5F3759DF
    h = (h ^ (h >> 13)) * 1274126177 & 0xFFFFFFFF
    return (h & 0xFFFF) / 65536 - 0.5, (h >> 16) / 65536 - 0.5


def _lattice(shape: BaseGeometry, step: float, jitter: float = 0.7) -> Iterator[tuple[float, float, int]]:
    """Scattered points inside ``shape`` (pixels), ``step`` apart, each with a small fixed number."""
    minx, miny, maxx, maxy = shape.bounds
    i0, j0 = math.floor(minx / step), math.floor(miny / step)
    i1, j1 = math.ceil(maxx / step), math.ceil(maxy / step)
    if (i1 - i0) * (j1 - j0) > 40_000:
        return
    ii, jj = np.meshgrid(np.arange(i0, i1 + 1), np.arange(j0, j1 + 1))
    offsets = np.array([_jitter(int(i), int(j)) for i, j in zip(ii.ravel(), jj.ravel(), strict=True)])
    xs = (ii.ravel() + 0.5 + offsets[:, 0] * jitter) * step
    ys = (jj.ravel() + 0.5 + offsets[:, 1] * jitter) * step
    inside = shapely.contains_xy(shape, xs, ys)
    for n, (x, y) in enumerate(zip(xs[inside].tolist(), ys[inside].tolist(), strict=True)):
        yield x, y, (n * 7 + int(x) + int(y)) % 5


def _along(points: Sequence[XY], step: float, start: float = 0.0) -> Iterator[tuple[float, float, float, float]]:
    """Points every ``step`` pixels along a polyline, each with the line's unit direction there."""
    carry = start
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        at = carry
        while at <= length:
            yield x0 + ux * at, y0 + uy * at, ux, uy
            at += step
        carry = at - length


def _rings(shape: BaseGeometry) -> list[tuple[list[XY], list[list[XY]]]]:
    out = []
    for part in shapely.get_parts(shape):
        if isinstance(part, Polygon) and not part.is_empty:
            holes = [list(map(tuple, shapely.get_coordinates(h).tolist())) for h in part.interiors]
            out.append((list(map(tuple, shapely.get_coordinates(part.exterior).tolist())), holes))
    return out


def _dashed_circle(
    d: ImageDraw.ImageDraw, centre: XY, radius: float, colour: tuple[int, ...], width: int, dash: float = 14
) -> None:
    """A dashed circle, as short straight strokes (Pillow's arcs of a large circle are slow)."""
    if radius <= 0:
        return
    steps = max(8, int(2 * math.pi * radius / dash) // 2 * 2)
    for k in range(0, steps, 2):
        a0, a1 = 2 * math.pi * k / steps, 2 * math.pi * (k + 1) / steps
        d.line(
            [(centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)) for a in (a0, (a0 + a1) / 2, a1)],
            fill=colour,
            width=width,
        )


def _dashed_line(
    d: ImageDraw.ImageDraw, points: Sequence[XY], colour: tuple[int, ...], width: int, dash: float
) -> None:
    on = True
    last: XY | None = None
    for x, y, _, _ in _along(points, dash):
        if last is not None and on:
            d.line((last, (x, y)), fill=colour, width=width)
        last, on = (x, y), not on


# --- terrain --------------------------------------------------------------------------------------


class _Ground:
    """Draws terrain in pixel space: ``scale`` pixels to the inch (the pattern's spacing)."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float, swatch: bool = False) -> None:
        self.d = draw
        self.scale = scale
        #: A legend's swatch: a crest however short.
        self.least_crest = 0.3 if swatch else 1.5

    def area(
        self, style: Style, shape: BaseGeometry, feature: MapFeature | None = None, to_px: _Map | None = None
    ) -> None:
        d, s = self.d, self.scale
        for outer, holes in _rings(shape):
            d.polygon(outer, fill=style.fill)
            for hole in holes:
                d.polygon(hole, fill=PAPER)
        pattern = style.pattern
        if pattern == "trees":
            r = 0.42 * s
            for x, y, n in _lattice(shape, 0.95 * s):
                rr = r * (0.8 + 0.1 * n)
                d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=(92, 146, 70), outline=style.edge, width=1)
                d.ellipse((x - rr * 0.45, y - rr * 0.6, x + rr * 0.1, y - rr * 0.05), fill=(128, 176, 96))
        elif pattern == "stipple":
            for x, y, n in _lattice(shape, 0.55 * s):
                w = 0.12 * s + n
                d.line(((x - w, y - w * 0.6), (x, y + w * 0.4), (x + w, y - w * 0.6)), fill=style.edge, width=2)
        elif pattern == "waves":
            for x, y, _ in _lattice(shape, 0.9 * s, 0.4):
                w = 0.22 * s
                d.line(
                    ((x - 2 * w, y), (x - w, y - w * 0.5), (x, y), (x + w, y - w * 0.5), (x + 2 * w, y)),
                    fill=(232, 244, 252),
                    width=2,
                )
        elif pattern == "stepping":
            for x, y, n in _lattice(shape, 0.7 * s, 0.5):
                w = 0.18 * s + n
                d.ellipse((x - w, y - w * 0.7, x + w, y + w * 0.7), fill=(150, 140, 122), outline=(96, 88, 76))
        elif pattern == "rubble":
            for x, y, n in _lattice(shape, 0.5 * s):
                w = 0.12 * s + n
                corners = [
                    (x + w * math.cos(a + n), y + w * math.sin(a + n)) for a in (0.0, 2.1, 3.9, 5.2)[: 3 + n % 2]
                ]
                d.polygon(corners, fill=(128, 122, 114), outline=(84, 80, 74))
        for outer, _ in _rings(shape):
            if pattern == "building":
                continue
            d.line([*outer, outer[1]], fill=style.edge, width=2 if pattern != "plain" else 3, joint="curve")
        if pattern == "contours":
            self.contours(style, shape)
        elif pattern == "building":
            self.building(style, shape, feature, to_px)

    def contours(self, style: Style, shape: BaseGeometry) -> None:
        """Contour lines every 3/4 inch up the slope, and the crest as a dark ridge line along the
        hill's long axis (where figures on the hill see over it)."""
        d, s = self.d, self.scale
        inner = shape
        for _ in range(4):
            step = inner.buffer(-0.75 * s, join_style="round")
            if step.is_empty or step.area < (0.6 * s) ** 2:
                break
            inner = step
            for outer, _holes in _rings(inner):
                d.line([*outer, outer[1]], fill=_mix(style.edge, style.fill, 0.35), width=2, joint="curve")
        crest = _crest(shape, inner, s, least=self.least_crest)
        if crest:
            d.line(crest, fill=(110, 70, 30), width=4, joint="curve")
            for x, y, ux, uy in _along(crest, 0.5 * s, 0.25 * s):
                d.line(((x, y), (x - uy * 0.22 * s, y + ux * 0.22 * s)), fill=(110, 70, 30), width=2)
                d.line(((x, y), (x + uy * 0.22 * s, y - ux * 0.22 * s)), fill=(110, 70, 30), width=2)

    def building(self, style: Style, shape: BaseGeometry, feature: MapFeature | None, to_px: _Map | None) -> None:
        d, s = self.d, self.scale
        wall = max(4, round(0.22 * s))
        ridge = _crest(shape, shape, s, insets=(0.7,))
        if ridge:
            d.line(ridge, fill=_mix(style.fill, INK, 0.35), width=2)
        for outer, _ in _rings(shape):
            d.line([*outer, outer[1]], fill=style.edge, width=wall, joint="curve")
        if feature is None or to_px is None:
            return
        outline = shapely.get_coordinates(shape.exterior if isinstance(shape, Polygon) else shape.boundary)
        for opening in feature.openings:
            x, y = to_px.point(opening.at[0], opening.at[1])
            along = _nearest_side(outline, x, y)
            if along is None:
                continue
            ux, uy = along
            half = (0.5 if opening.kind == "door" else 0.4) * s
            px, py = -uy * (wall / 2 + 2), ux * (wall / 2 + 2)
            corners = [
                (x - ux * half + px, y - uy * half + py),
                (x + ux * half + px, y + uy * half + py),
                (x + ux * half - px, y + uy * half - py),
                (x - ux * half - px, y - uy * half - py),
            ]
            if opening.kind == "door":
                d.polygon(corners, fill=(226, 190, 130), outline=style.edge)
                d.line(((x - ux * half, y - uy * half), (x + ux * half, y + uy * half)), fill=(120, 76, 36), width=3)
            else:
                d.polygon(corners, fill=(186, 226, 250), outline=style.edge)
                d.line(((x - ux * half, y - uy * half), (x + ux * half, y + uy * half)), fill=(60, 100, 140), width=1)

    def line(self, style: Style, points: Sequence[XY], thickness: float) -> None:
        d, s = self.d, self.scale
        w = max(3.0, thickness * s)
        pattern = style.pattern
        if pattern == "hedge":
            w = max(w, 8)
            bumps = list(_along(points, w * 0.9))
            for x, y, _, _ in bumps:
                r = w * 0.62
                d.ellipse((x - r - 1.5, y - r - 1.5, x + r + 1.5, y + r + 1.5), fill=style.edge)
            d.line(points, fill=style.fill, width=round(w), joint="curve")
            for x, y, _, _ in bumps:
                r = w * 0.62
                d.ellipse((x - r, y - r, x + r, y + r), fill=style.fill)
                d.ellipse((x - r * 0.5, y - r * 0.6, x, y - r * 0.1), fill=(96, 160, 76))
        elif pattern == "masonry":
            w = max(w, 7)
            d.line(points, fill=style.edge, width=round(w) + 4, joint="curve")
            d.line(points, fill=style.fill, width=round(w), joint="curve")
            for x, y, ux, uy in _along(points, 0.45 * s, 0.2 * s):
                h = w / 2
                d.line(((x - uy * h, y + ux * h), (x + uy * h, y - ux * h)), fill=style.edge, width=1)
        elif pattern == "posts":
            d.line(points, fill=style.fill, width=max(3, round(w)), joint="curve")
            for x, y, _, _ in _along(points, 0.8 * s):
                d.rectangle((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=style.edge)
        elif pattern == "stakes":
            w = max(w, 7)
            d.line(points, fill=style.fill, width=round(w), joint="curve")
            for x, y, ux, uy in _along(points, 0.6 * s, 0.3 * s):
                h = w * 0.9
                for sign in (1, -1):
                    d.line(
                        (
                            (x - (ux + sign * uy) * h / 1.4, y - (uy - sign * ux) * h / 1.4),
                            (x + (ux + sign * uy) * h / 1.4, y + (uy - sign * ux) * h / 1.4),
                        ),
                        fill=style.edge,
                        width=3,
                    )
        else:
            d.line(points, fill=style.fill, width=round(w), joint="curve")


def _crest(
    shape: BaseGeometry, top: BaseGeometry, scale: float, insets: Sequence[float] = (1.0, 0.5, 0.15), least: float = 1.5
) -> list[XY]:
    """A ridge line: the long axis of ``top`` (a hill's highest contour, a roof), run out across
    ``shape`` and cut to it less the first of ``insets`` (inches) that leaves ``least`` inches."""
    rect = (top if not top.is_empty else shape).minimum_rotated_rectangle
    if not isinstance(rect, Polygon):
        return []
    c0, c1, c2, c3 = shapely.get_coordinates(rect)[:4]
    start, end = (
        ((c3 + c0) / 2, (c1 + c2) / 2) if math.dist(c0, c1) >= math.dist(c1, c2) else ((c0 + c1) / 2, (c2 + c3) / 2)
    )
    middle, half = (start + end) / 2, (end - start) / 2 * 100
    axis = LineString([tuple(middle - half), tuple(middle + half)])
    for inset in insets:
        cut = axis.intersection(shape.buffer(-inset * scale))
        longest = max(shapely.get_parts(cut), key=lambda g: g.length, default=None)
        if isinstance(longest, LineString) and longest.length >= least * scale:
            return [(float(x), float(y)) for x, y in longest.coords]
    return []


def _nearest_side(outline: npt.NDArray[np.float64], x: float, y: float) -> XY | None:
    """The direction of the outline's side nearest (x, y)."""
    if len(outline) < 2:
        return None
    a, b = outline[:-1], outline[1:]
    ab = b - a
    length2 = (ab**2).sum(axis=1)
    t = np.clip(((np.array([x, y]) - a) * ab).sum(axis=1) / np.where(length2 > 0, length2, 1), 0, 1)
    near = a + ab * t[:, None]
    i = int(np.argmin(np.hypot(near[:, 0] - x, near[:, 1] - y)))
    length = math.sqrt(float(length2[i]))
    if length <= 0:
        return None
    return float(ab[i, 0]) / length, float(ab[i, 1]) / length


# --- the picture ----------------------------------------------------------------------------------


class _Map:
    """Inches on the table to pixels on the map's own canvas (y up on the table, down in pixels)."""

    def __init__(self, width: float, height: float, scale: float) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.size = (max(1, round(width * scale)), max(1, round(height * scale)))

    def point(self, x: float, y: float) -> XY:
        return x * self.scale, (self.height - y) * self.scale

    def shape(self, geometry: BaseGeometry) -> BaseGeometry:
        s, h = self.scale, self.height
        return shapely.transform(geometry, lambda c: np.column_stack([c[:, 0] * s, (h - c[:, 1]) * s]))


class _Window(_Map):
    """A part of the table, ``x0,y0`` to ``x1,y1`` in inches, at ``scale`` pixels to the inch
    (a magnified inset)."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float, scale: float) -> None:
        super().__init__(x1 - x0, y1 - y0, scale)
        self.x0, self.y1 = x0, y1

    def point(self, x: float, y: float) -> XY:
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale


@dataclass
class _Label:
    """A figure's label: its name (``text_name``, as the font draws it) beside its disc in
    ``box``, or (``keyed``) a number on its disc and the name in the key."""

    token: Token
    text: str
    text_name: str
    keyed: bool
    box: Box | None


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _between(a: XY, b: XY, t: float) -> XY:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _overlap_area(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _inches(value: float) -> str:
    return f'{round(value, 1):g}"'


def _grown(b: Box, by: float) -> Box:
    return b[0] - by, b[1] - by, b[2] + by, b[3] + by


def _disc_radius(token: Token, scale: float) -> float:
    return max(7.0, token.radius * scale)


NAME_SIZE = 19
#: A melee inset's longest side, in pixels, and how much it magnifies at most and at least.
INSET = 300
MOST_ZOOM, LEAST_ZOOM = 5.0, 1.3
JOIN: Colour = (170, 20, 20)


def contact_groups(view: FieldView) -> list[list[tuple[str, str]]]:
    """The places where figures are in contact: each a list of the pairs there (pairs sharing a
    figure are one place). A pair is one the ruleset counts (``view.contacts``) or two enemies
    whose bases touch; a figure out of the fight is in none."""
    standing = {t.name: t for t in view.tokens if "out" not in t.marks}
    pairs = [(a, b) for a, b in view.contacts if a in standing and b in standing]
    for a, b in itertools.combinations(standing.values(), 2):
        touching = math.hypot(a.x - b.x, a.y - b.y) <= a.radius + b.radius + 0.05
        if a.side != b.side and touching and (a.name, b.name) not in pairs and (b.name, a.name) not in pairs:
            pairs.append((a.name, b.name))
    groups: list[list[tuple[str, str]]] = []
    for pair in pairs:
        joined = [g for g in groups if any(set(pair) & set(p) for p in g)]
        merged = [p for g in joined for p in g] + [pair]
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


def _layout_labels(
    tokens: Sequence[Token], to_px: _Map, focus: str | None = None, avoid: Sequence[Box] = ()
) -> list[_Label]:
    """Each figure's name beside its disc where it collides with no other name or disc, nor
    ``avoid`` (below, above, right, left); a number with a key otherwise. The focus is placed
    first, the fallen last; the numbers run down the table and across, as the key is read."""
    font = _font(NAME_SIZE)
    discs = list(avoid)
    for t in tokens:
        x, y = to_px.point(t.x, t.y)
        r = _disc_radius(t, to_px.scale) + 3
        discs.append((x - r, y - r, x + r, y + r))
    width, height = to_px.size
    placed: list[Box] = []
    labels: dict[int, _Label] = {}
    first = sorted(range(len(tokens)), key=lambda n: (tokens[n].name != focus, "out" in tokens[n].marks, n))
    for n in first:
        token = tokens[n]
        x, y = to_px.point(token.x, token.y)
        r = _disc_radius(token, to_px.scale)
        name = _plain(token.name)
        left, top, right, bottom = font.getbbox(name)
        w, h = right - left + 4, bottom - top + 4
        spots = (
            (x - w / 2, y + r + 3),
            (x - w / 2, y - r - 3 - h),
            (x + r + 5, y - h / 2),
            (x - r - 5 - w, y - h / 2),
        )
        chosen = None
        for sx, sy in spots:
            spot = (sx, sy, sx + w, sy + h)
            if spot[0] < 0 or spot[1] < 0 or spot[2] > width or spot[3] > height:
                continue
            if any(_overlaps(spot, other) for other in placed):
                continue
            if any(_overlaps(spot, disc) for m, disc in enumerate(discs) if m != n + len(avoid)):
                continue
            chosen = spot
            break
        if chosen is not None:
            placed.append(chosen)
        labels[n] = _Label(token, name, name, chosen is None, chosen)
    keyed = sorted((n for n in labels if labels[n].keyed), key=lambda n: (-tokens[n].y, tokens[n].x))
    for number, n in enumerate(keyed, 1):
        labels[n].text = str(number)
    return [labels[n] for n in range(len(tokens))]


def figure_labels(view: FieldView) -> dict[str, str]:
    """What each figure is labelled with on the picture: its name, or a key number when crowded."""
    to_px = _map_of(view)
    focus = view.focus.name if view.focus else None
    return {label.token.name: label.text for label in _layout_labels(_drawn(view), to_px, focus)}


def _map_of(view: FieldView) -> _Map:
    width, height = view.field.map.width, view.field.map.height
    scale = min((WIDTH - 2 * SIDE_MARGIN) / width, MAX_MAP_HEIGHT / height)
    return _Map(width, height, scale)


def _drawn(view: FieldView) -> list[Token]:
    """The figures in drawing order: the fallen under the standing, the focus on top."""
    focus = view.focus.name if view.focus else None
    return sorted(view.tokens, key=lambda t: ("out" not in t.marks, t.name == focus))


class _Painter:
    def __init__(self, view: FieldView, terrain: Terrain) -> None:
        self.view = view
        self.terrain = terrain
        self.to_px = _map_of(view)
        sides = [*view.sides, *(t.side for t in view.tokens), *(u.side for u in view.units)]
        self.colours = side_colours(list(dict.fromkeys(sides)))
        self.tokens = _drawn(view)
        self.focus = next((t for t in view.tokens if view.focus and t.name == view.focus.name), None)
        if self.focus is None and view.focus is not None:
            self.focus = _unit_focus(view, view.focus.name)
        self.names: list[Box] = []

    # --- the map's own canvas

    def canvas(self) -> tuple[Image.Image, list[_Label], list[str]]:
        image = Image.new("RGB", self.to_px.size, PAPER)
        d = ImageDraw.Draw(image, "RGBA")
        kinds = self.terrain_(d)
        self.zones(d)
        self.grid(d)
        if self.focus is not None:
            self.sight(image)
            d = ImageDraw.Draw(image, "RGBA")
            self.reach(d)
        self.ground = image.copy()
        labels = _layout_labels(self.tokens, self.to_px, self.focus.name if self.focus else None)
        self.feature_names(d, self._taken(labels))
        for unit in self.view.units:
            self.unit(d, unit)
        self.figures(d, labels, 2)
        if self.focus is not None:
            self.band_labels(d, labels)
        return image, labels, kinds

    def figures(self, d: ImageDraw.ImageDraw, labels: Sequence[_Label], join: int) -> None:
        """The figures, their names and facings, each pair in contact joined by a line ``join`` wide."""
        where = {t.name: self.to_px.point(t.x, t.y) for t in self.tokens}
        for label in labels:
            self.figure(d, label)
        for group in contact_groups(self.view):
            for a, b in group:
                if a in where and b in where:
                    d.line((where[a], where[b]), fill=(*JOIN, 230), width=join)
        for label in labels:
            self.facing_mark(d, label.token)
        for label in labels:
            self.badges(d, label.token)

    def insets(self) -> list[tuple[Image.Image, str]]:
        """Each place where figures are in contact, magnified (the ground as the map draws it, the
        figures drawn again at the larger scale so their names and marks have room), with the
        words under it."""
        found = []
        main = self.to_px
        for group in contact_groups(self.view):
            names = {n for pair in group for n in pair}
            fighting = [t for t in self.tokens if t.name in names]
            pad = max(t.radius for t in fighting) + 0.9
            x0, x1 = min(t.x for t in fighting) - pad, max(t.x for t in fighting) + pad
            y0, y1 = min(t.y for t in fighting) - pad, max(t.y for t in fighting) + pad
            zoom = max(LEAST_ZOOM, min(MOST_ZOOM, INSET / (max(x1 - x0, y1 - y0) * main.scale)))
            window = _Window(x0, y0, x1, y1, main.scale * zoom)
            left, top = main.point(x0, y1)
            right, bottom = main.point(x1, y0)
            crop = self.ground.crop((round(left), round(top), round(right), round(bottom)))
            image = crop.resize(window.size, Image.Resampling.BICUBIC)
            near = [
                t for t in self.tokens if x0 - t.radius < t.x < x1 + t.radius and y0 - t.radius < t.y < y1 + t.radius
            ]
            self.to_px = window
            try:
                focus = self.focus.name if self.focus else None
                where = {t.name: window.point(t.x, t.y) for t in near}
                joins = [
                    (x - 4, y - 4, x + 4, y + 4)
                    for a, b in group
                    if a in where and b in where
                    for k in range(1, 8)
                    for x, y in [_between(where[a], where[b], k / 8)]
                ]
                labels = _layout_labels(near, window, focus, joins)
                if any(label.keyed for label in labels):  # no room clear of the joins: names over them
                    labels = _layout_labels(near, window, focus)
                self.figures(ImageDraw.Draw(image, "RGBA"), labels, 5)
            finally:
                self.to_px = main
            found.append((image, _plain(", ".join(f"{a} and {b}" for a, b in group) + " in contact")))
        return found

    def terrain_(self, d: ImageDraw.ImageDraw) -> list[str]:
        ground = _Ground(d, self.to_px.scale)
        shapes = battlefield_of(self.view.field.map).features
        order = sorted(
            range(len(self.view.field.map.features)),
            key=lambda i: STYLES.get(self.view.field.map.features[i].kind, OTHER_STYLE).layer,
        )
        for i in order:
            feature = self.view.field.map.features[i]
            style = STYLES.get(feature.kind, OTHER_STYLE)
            if feature.shape == "line" and style.pattern in LINE_PATTERNS:
                points = [self.to_px.point(x, y) for x, y in feature.points]
                ground.line(style, points, feature.thickness)
            else:
                ground.area(style, self.to_px.shape(shapes[i].geometry), feature, self.to_px)
        present = {f.kind for f in self.view.field.map.features}
        return [k for k in STYLES if k in present] + sorted(present - set(STYLES))

    def zones(self, d: ImageDraw.ImageDraw) -> None:
        if not self.view.zones:
            return
        for side, colour in self.colours.items():
            zone = zone_shape(self.view.field.map, side)
            if zone is None:
                continue
            for outer, _ in _rings(self.to_px.shape(zone)):
                d.polygon(outer, fill=(*colour, 46))
                _dashed_line(d, [*outer, outer[0]], (*colour, 200), 3, 12)

    def grid(self, d: ImageDraw.ImageDraw) -> None:
        width, height = self.to_px.size
        fine, _ = _grid_steps(self.to_px.scale)
        x = 0.0
        while x <= self.to_px.width + 1e-9:
            px = round(x * self.to_px.scale)
            d.line(((px, 0), (px, height)), fill=GRID_STRONG if round(x) % 6 == 0 else GRID_LIGHT, width=1)
            x += fine
        y = 0.0
        while y <= self.to_px.height + 1e-9:
            py = round((self.to_px.height - y) * self.to_px.scale)
            d.line(((0, py), (width, py)), fill=GRID_STRONG if round(y) % 6 == 0 else GRID_LIGHT, width=1)
            y += fine

    def _taken(self, labels: Sequence[_Label]) -> list[Box]:
        """Where the figures are drawn: their discs and names, the units' blocks and names."""
        taken = [label.box for label in labels if label.box is not None]
        for token in self.tokens:
            x, y = self.to_px.point(token.x, token.y)
            r = _disc_radius(token, self.to_px.scale) + 4
            taken.append((x - r, y - r, x + r, y + r))
        for unit in self.view.units:
            points = [self.to_px.point(x, y) for x, y in unit.outline]
            if points:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                taken.append((min(xs), min(ys), max(xs), max(ys)))
            placed = self._unit_label(unit)
            if placed is not None:
                x, y, text = placed
                half = _font(NAME_SIZE).getlength(text) / 2 + 3
                taken.append((x - half, y - NAME_SIZE * 0.7, x + half, y + NAME_SIZE * 0.7))
        return taken

    def feature_names(self, d: ImageDraw.ImageDraw, taken: Sequence[Box] = ()) -> None:
        """Each named feature's name (what the cards call it), on it or beside a line, moved
        along it when another name, a figure or its label (``taken``) is already there; where
        every place is crowded, the one least covered."""
        font = _font(15)
        shapes = battlefield_of(self.view.field.map).features
        width, height = self.to_px.size
        # The smallest first: a lane has room for its name almost anywhere, a ford does not.
        named = sorted(
            (pair for pair in zip(self.view.field.map.features, shapes, strict=True) if pair[0].name),
            key=lambda pair: (pair[0].shape == "area", pair[1].geometry.area),
        )
        for feature, shape in named:
            text = _plain(feature.name)
            w, h = font.getlength(text) + 6, 20
            spots = []
            if feature.shape == "line":
                line = LineString(feature.points)
                lift = feature.thickness / 2 + 10 / self.to_px.scale
                for at in (0.5, 0.3, 0.7):
                    mid = line.interpolate(at, normalized=True)
                    spots += [(mid.x, mid.y + lift), (mid.x, mid.y - lift)]
            else:
                ground = shape.geometry
                centre = ground.centroid
                spot = centre if ground.contains(centre) else ground.representative_point()
                lift = 0.6 if feature.kind in ("hill", "building") else 0.0
                step = h / self.to_px.scale
                spots = [(spot.x, spot.y + lift), (spot.x, spot.y + lift + step), (spot.x, spot.y + lift - step)]
                axis = _crest(ground, ground, 1.0, insets=(0.0,), least=0.0)
                if axis:
                    line = LineString(axis)
                    for at in (0.3, 0.7, 0.15, 0.85):
                        p = line.interpolate(at, normalized=True)
                        spots.append((p.x, p.y))
                spots = [p for p in spots if ground.contains(shapely.Point(p))] or [(spot.x, spot.y)]
            boxes = []
            for x, y in spots:
                px, py = self.to_px.point(x, y)
                boxes.append((px - w / 2, py - h / 2, px + w / 2, py + h / 2))
            inside = [b for b in boxes if b[0] >= 0 and b[1] >= 0 and b[2] <= width and b[3] <= height] or boxes

            def covered(b: Box) -> float:
                names = sum(_overlap_area(_grown(b, 12), o) for o in self.names)
                return names + sum(_overlap_area(b, o) for o in taken)

            chosen = min(inside, key=covered)  # the first free place, else the least covered
            self.names.append(chosen)
            d.text(
                ((chosen[0] + chosen[2]) / 2, (chosen[1] + chosen[3]) / 2),
                text,
                fill=(70, 60, 45),
                font=font,
                anchor="mm",
                stroke_width=2,
                stroke_fill=(250, 248, 240),
            )

    def sight(self, image: Image.Image) -> None:
        assert self.focus is not None
        viewer = Base(Point(self.focus.x, self.focus.y), self.focus.radius)
        spacing = max(1.0, max(self.to_px.width, self.to_px.height) / 48)
        _, _, sight = sight_grid(self.view.field, self.terrain, viewer, spacing)
        size = self.to_px.size
        shade = np.select([sight == BLOCKED, sight == PARTIAL], [UNSEEN_ALPHA, PARTLY_ALPHA], 0).astype(np.uint8)
        if shade.any():
            image.paste(UNSEEN, (0, 0), Image.fromarray(shade, "L").resize(size, Image.Resampling.BILINEAR))
        if (sight == PARTIAL).any():
            partly = Image.fromarray(np.where(sight == PARTIAL, 255, 0).astype(np.uint8), "L")
            hatch = ImageChops.multiply(partly.resize(size, Image.Resampling.BILINEAR), _hatching(size))
            image.paste(UNSEEN, (0, 0), hatch)

    def reach(self, d: ImageDraw.ImageDraw) -> None:
        assert self.focus is not None and self.view.focus is not None
        centre = self.to_px.point(self.focus.x, self.focus.y)
        s = self.to_px.scale
        move = self.view.focus.move_left * s
        outline = self.view.focus.reach
        if outline:
            d.polygon([self.to_px.point(x, y) for x, y in outline], fill=(*REACH, 40), outline=(*REACH, 230), width=3)
        elif outline is None and move > 0:
            d.ellipse(
                (centre[0] - move, centre[1] - move, centre[0] + move, centre[1] + move),
                fill=(*REACH, 40),
                outline=(*REACH, 230),
                width=3,
            )
        for band in self.view.focus.bands:
            _dashed_circle(d, centre, band.inches * s, (*BAND, 190), 2)

    def band_labels(self, d: ImageDraw.ImageDraw, labels: Sequence[_Label]) -> None:
        """Each range band's label on its circle, where it hides no figure or name."""
        assert self.focus is not None and self.view.focus is not None
        centre = self.to_px.point(self.focus.x, self.focus.y)
        font = _font(17)
        width, height = self.to_px.size
        taken = [*self.names, *(label.box for label in labels if label.box is not None)]
        for token in self.tokens:
            x, y = self.to_px.point(token.x, token.y)
            r = _disc_radius(token, self.to_px.scale) + 10
            taken.append((x - r, y - r, x + r, y + r))
        for band in self.view.focus.bands:
            radius = band.inches * self.to_px.scale
            text = _plain(f"{band.label} {_inches(band.quoted)}")
            w, h = font.getlength(text) + 8, 22
            for angle in range(90, 90 + 360, 15):
                x = centre[0] + radius * math.cos(math.radians(angle))
                y = centre[1] - radius * math.sin(math.radians(angle))
                spot = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
                if spot[0] < 0 or spot[1] < 0 or spot[2] > width or spot[3] > height:
                    continue
                if any(_overlaps(_grown(spot, 4), other) for other in taken):
                    continue
                d.text((x, y), text, fill=BAND, font=font, anchor="mm", stroke_width=3, stroke_fill=WHITE)
                taken.append(spot)
                break

    def unit(self, d: ImageDraw.ImageDraw, unit: UnitMark) -> None:
        """A unit as its block (its footprint, tinted in its side's colour), a dot for each figure,
        a wedge on its front edge for its facing, and its name and strength."""
        colour = self.colours.get(unit.side, SIDE_PALETTE[-1])
        out = "out" in unit.marks
        if out:
            colour = _mix(colour, PAPER, 0.6)
        outline = [self.to_px.point(x, y) for x, y in unit.outline]
        if len(outline) >= 3:
            if self.view.focus is not None and self.view.focus.name == unit.name:
                d.polygon(outline, outline=FOCUS_RING, width=6)
            d.polygon(outline, fill=(*colour, 70), outline=INK)
        dot = max(2.0, min(6.0, 0.35 * self.to_px.scale))
        for n, (x, y) in enumerate(unit.figures):
            px, py = self.to_px.point(x, y)
            # A solid dot for each figure the label counts; the rest (wounded, standing with the unit) hollow.
            fill = colour if n < unit.strength else WHITE
            if unit.mounted:
                _diamond(d, px, py, dot + 3)
            d.ellipse(
                (px - dot, py - dot, px + dot, py + dot),
                fill=fill,
                outline=INK if fill is colour else colour,
                width=1 if fill is colour else 2,
            )
        if not outline:
            return
        cx = sum(p[0] for p in outline) / len(outline)
        cy = sum(p[1] for p in outline) / len(outline)
        if unit.facing is not None and not out:
            a = math.radians(unit.facing)
            ux, uy = math.cos(a), -math.sin(a)
            reach = max(abs((px - cx) * ux + (py - cy) * uy) for px, py in outline) + 4
            tip = (cx + ux * (reach + 10), cy + uy * (reach + 10))
            d.polygon(
                (
                    tip,
                    (cx + ux * reach - uy * 7, cy + uy * reach + ux * 7),
                    (cx + ux * reach + uy * 7, cy + uy * reach - ux * 7),
                ),
                fill=INK,
            )
        placed = self._unit_label(unit)
        assert placed is not None
        cx, cy, text = placed
        d.text(
            (cx, cy),
            text,
            fill=_mix(colour, INK, 0.7),
            font=_font(NAME_SIZE),
            anchor="mm",
            stroke_width=3,
            stroke_fill=(255, 255, 255, 220),
        )
        badges = [m for m in unit.marks if m != "out"]
        for i, mark in enumerate(badges):
            letter, tint, _ = MARKS.get(mark, (mark[:1].upper(), (110, 110, 110), mark))
            bx, by = cx + 14 * i - 7 * (len(badges) - 1), cy + NAME_SIZE
            d.ellipse((bx - 8, by - 8, bx + 8, by + 8), fill=tint, outline=(255, 255, 255))
            d.text((bx, by), letter, fill=(255, 255, 255), font=_font(11), anchor="mm")

    def _unit_label(self, unit: UnitMark) -> tuple[float, float, str] | None:
        """A unit's label, its name and strength, and where its middle is drawn."""
        outline = [self.to_px.point(x, y) for x, y in unit.outline]
        if not outline:
            return None
        text = _plain(f"{unit.name} ({unit.strength})")
        left, _ = self.to_px.point(0.0, 0.0)
        right, _ = self.to_px.point(self.view.field.map.width, 0.0)
        half = _font(NAME_SIZE).getlength(text) / 2 + 3
        cx = sum(p[0] for p in outline) / len(outline)
        cx = min(max(cx, left + half), right - half)  # a unit at the table's edge keeps its whole name
        return cx, self._unit_label_y(outline, unit.facing if "out" not in unit.marks else None), text

    def _unit_label_y(self, outline: Sequence[tuple[float, float]], facing: float | None) -> float:
        """Where a unit's name goes: just below its block, clear of its figures (above it when the
        unit faces down the picture, where its facing wedge is, or at the table's lower edge)."""
        top, bottom = min(y for _, y in outline), max(y for _, y in outline)
        _, table_top = self.to_px.point(0.0, self.view.field.map.height)
        _, table_bottom = self.to_px.point(0.0, 0.0)
        below, above = bottom + NAME_SIZE * 0.8, top - NAME_SIZE * 0.8
        faces_down = facing is not None and -math.sin(math.radians(facing)) > 0.5
        if (faces_down or below > table_bottom - NAME_SIZE / 2) and above > table_top + NAME_SIZE / 2:
            return above
        return below

    def figure(self, d: ImageDraw.ImageDraw, label: _Label) -> None:
        token = label.token
        x, y = self.to_px.point(token.x, token.y)
        r = _disc_radius(token, self.to_px.scale)
        colour = self.colours.get(token.side, SIDE_PALETTE[-1])
        out = "out" in token.marks
        if out:
            colour = _mix(colour, PAPER, 0.6)
        if token is self.focus:
            d.ellipse((x - r - 6, y - r - 6, x + r + 6, y + r + 6), outline=FOCUS_RING, width=5)
        if token.mounted:
            _diamond(d, x, y, r + 5)
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK if not out else (130, 124, 116), width=2)
        if out:
            k = r * 0.7
            d.line(((x - k, y - k), (x + k, y + k)), fill=(90, 84, 76), width=3)
            d.line(((x - k, y + k), (x + k, y - k)), fill=(90, 84, 76), width=3)
        if label.keyed:
            size = max(11, min(20, round(r * 1.1)))
            d.text(
                (x, y),
                label.text,
                fill=_contrast(colour),
                font=_font(size),
                anchor="mm",
                stroke_width=2 if out else 0,
                stroke_fill=colour,
            )
        elif label.box is not None:
            left, top = label.box[0] + 2, label.box[1] + 2
            d.text(
                (left, top),
                label.text,
                fill=_mix(colour, INK, 0.55) if not out else (120, 114, 106),
                font=_font(NAME_SIZE),
                anchor="lt",
                stroke_width=3,
                stroke_fill=(255, 255, 255, 220),
            )

    def badges(self, d: ImageDraw.ImageDraw, token: Token) -> None:
        """A figure's marks round its disc, drawn after every disc so a neighbour hides none."""
        x, y = self.to_px.point(token.x, token.y)
        r = _disc_radius(token, self.to_px.scale)
        badges = [m for m in token.marks if m != "out"]
        for i, mark in enumerate(badges[:4]):
            angle = math.radians(45 + 90 * i)
            bx, by = x + (r + 3) * math.cos(angle), y - (r + 3) * math.sin(angle)
            _badge(d, bx, by, mark)

    def facing_mark(self, d: ImageDraw.ImageDraw, token: Token) -> None:
        """The wedge on the edge of a figure's disc that points the way it faces. Drawn after every
        disc, outlined in white, so a man in base contact does not hide his neighbour's facing."""
        if token.facing is None or "out" in token.marks:
            return
        x, y = self.to_px.point(token.x, token.y)
        r = _disc_radius(token, self.to_px.scale)
        a = math.radians(token.facing)
        ux, uy = math.cos(a), -math.sin(a)
        tip = (x + ux * (r + 9), y + uy * (r + 9))
        side, back = r * 0.55, r * 0.7
        d.polygon(
            (
                tip,
                (x + ux * back - uy * side, y + uy * back + ux * side),
                (x + ux * back + uy * side, y + uy * back - ux * side),
            ),
            fill=INK,
            outline=WHITE,
        )


def _unit_focus(view: FieldView, name: str) -> Token | None:
    """A focused unit (NSR) seen as one figure at its block's centre, for its reach, range bands
    and sight; its block is drawn as a unit, so this stand-in is never drawn itself."""
    unit = next((u for u in view.units if u.name == name and len(u.outline) >= 3), None)
    if unit is None:
        return None
    xs, ys = [x for x, _ in unit.outline], [y for _, y in unit.outline]
    return Token(unit.name, unit.side, sum(xs) / len(xs), sum(ys) / len(ys), 0.5, unit.facing)


@lru_cache(maxsize=4)
def _hatching(size: tuple[int, int]) -> Image.Image:
    """Diagonal stripes (a mask) over a picture of ``size``."""
    xs, ys = np.meshgrid(np.arange(size[0]), np.arange(size[1]))
    return Image.fromarray(np.where((xs + ys) % 11 < 3, HATCH_ALPHA, 0).astype(np.uint8), "L")


def _diamond(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """The mounted mark: a dark diamond behind a rider's disc or dot, its points beyond the round."""
    d.polygon(((x, y - r * 1.35), (x + r * 1.35, y), (x, y + r * 1.35), (x - r * 1.35, y)), fill=INK)


def _badge(d: ImageDraw.ImageDraw, x: float, y: float, mark: str) -> None:
    letter, colour, _ = MARKS.get(mark, (mark[:1].upper() or "?", (90, 90, 90), mark))
    d.ellipse((x - 10, y - 10, x + 10, y + 10), fill=colour, outline=WHITE, width=2)
    d.text((x, y), letter, fill=_contrast(colour), font=_font(14), anchor="mm")


def _grid_steps(scale: float) -> tuple[float, int]:
    """The fine grid's step (inches) and the labels' step for ``scale`` pixels to the inch."""
    fine = next((step for step in (1.0, 3.0, 6.0, 12.0, 24.0, 60.0, 120.0) if step * scale >= 9), 240.0)
    labels = next((step for step in (6, 12, 24, 48, 96, 240, 480) if step * scale >= 44), 960)
    return fine, labels


# --- the frame: title, edges, scale, legend, key, notes ---------------------------------------


def draw_field(view: FieldView, terrain: Terrain) -> bytes:
    """The battlefield as a PNG :data:`WIDTH` pixels wide: the title, the table, the scale bar,
    the legend, the key to numbered figures and the notes, top to bottom."""
    painter = _Painter(view, terrain)
    canvas, labels, kinds = painter.canvas()
    map_w, map_h = canvas.size
    title = _plain(view.heading)
    left, top = _origin(view)
    small = _font(17)
    legend = _legend_items(painter, kinds)
    legend_rows = _flow([_legend_width(text, small) for _, text in legend], WIDTH - 24)
    keyed = sorted((label for label in labels if label.keyed), key=lambda label: int(label.text))
    key_text = [f"{label.text} {label.text_name}" for label in keyed]
    key_rows = _flow([int(small.getlength(t)) + 26 for t in key_text], WIDTH - 90) if key_text else []
    notes = [_plain(line) for line in view.notes if line.strip()]
    insets = painter.insets()
    inset_rows = _flow([image.width + 16 for image, _ in insets], WIDTH - 24)
    inset_height = sum(max(insets[i][0].height for i in row) + 34 for row in inset_rows)
    height = (
        top
        + map_h
        + EDGE_ROW
        + 44
        + inset_height
        + LEGEND_ROW * len(legend_rows)
        + 26 * len(key_rows)
        + 24 * len(notes)
        + 14
    )
    image = Image.new("RGB", (WIDTH, height), WHITE)
    image.paste(canvas, (left, top))
    d = ImageDraw.Draw(image, "RGBA")
    if title:
        d.text((WIDTH / 2, 28), title, fill=INK, font=_font(30), anchor="mm", stroke_width=1, stroke_fill=INK)
    d.rectangle((left - 2, top - 2, left + map_w + 1, top + map_h + 1), outline=INK, width=2)
    _edges(d, painter.to_px, left, top)
    y = top + map_h + EDGE_ROW
    _scale_bar(d, painter.to_px, left, y + 6)
    y += 44
    for row in inset_rows:
        at = 12
        for i in row:
            inset, words = insets[i]
            image.paste(inset, (at, y))
            d.rectangle((at - 2, y - 2, at + inset.width + 1, y + inset.height + 1), outline=INK, width=2)
            d.text((at, y + inset.height + 16), words, fill=INK, font=_font(15), anchor="lm")
            at += inset.width + 16
        y += max(insets[i][0].height for i in row) + 34
    for row in legend_rows:
        x = 12.0
        for i in row:
            kind, text = legend[i]
            _legend_symbol(image, d, painter, kind, round(x), y + 4)
            d.text((x + 54, y + 17), text, fill=INK, font=small, anchor="lm")
            x += _legend_width(text, small)
        y += LEGEND_ROW
    if key_rows:
        d.text((12, y + 12), "Key:", fill=INK, font=small, anchor="lm")
        for row in key_rows:
            x = 62.0
            for i in row:
                d.text((x, y + 12), key_text[i], fill=INK, font=small, anchor="lm")
                x += small.getlength(key_text[i]) + 26
            y += 26
    for line in notes:
        d.text((12, y + 12), line, fill=INK, font=small, anchor="lm")
        y += 24
    out = io.BytesIO()
    # 256 colours are plenty for flat fills and lines, and a palette PNG is a third the bytes to
    # compress: about 18 ms instead of 30, and 40% smaller to upload.
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _origin(view: FieldView) -> tuple[int, int]:
    """Where the table's top-left corner is drawn: centred, under the title and the top edge's numbers."""
    title = _plain(view.heading)
    return (WIDTH - _map_of(view).size[0]) // 2, (54 if title else 14) + EDGE_ROW


def where_drawn(view: FieldView, x: float, y: float) -> tuple[int, int]:
    """The pixel of :func:`draw_field`'s picture where the table's point ``x,y`` is drawn."""
    left, top = _origin(view)
    px, py = _map_of(view).point(x, y)
    return left + round(px), top + round(py)


def _edges(d: ImageDraw.ImageDraw, to_px: _Map, left: int, top: int) -> None:
    font = _font(16)
    _, step = _grid_steps(to_px.scale)
    width, height = to_px.size
    for inch in range(0, int(to_px.width) + 1, step):
        x = left + inch * to_px.scale
        d.text((x, top - EDGE_ROW / 2), f"{inch}", fill=INK, font=font, anchor="mm")
        d.text((x, top + height + EDGE_ROW / 2), f"{inch}", fill=INK, font=font, anchor="mm")
    for inch in range(0, int(to_px.height) + 1, step):
        y = top + (to_px.height - inch) * to_px.scale
        d.text((left - 8, y), f"{inch}", fill=INK, font=font, anchor="rm")
        d.text((left + width + 8, y), f"{inch}", fill=INK, font=font, anchor="lm")


def _scale_bar(d: ImageDraw.ImageDraw, to_px: _Map, left: int, y: float) -> None:
    fine, step = _grid_steps(to_px.scale)
    s = to_px.scale
    pieces = max(1, round(step / fine))
    for i in range(pieces):
        x0 = left + i * fine * s
        d.rectangle((x0, y, x0 + fine * s, y + 10), fill=INK if i % 2 == 0 else WHITE, outline=INK)
    font = _font(16)
    end = left + step * s
    d.text((left, y + 24), "0", fill=INK, font=font, anchor="mm")
    d.text((end, y + 24), f'{step}"', fill=INK, font=font, anchor="mm")
    d.text(
        (end + 30, y + 5),
        f'grid lines every {fine:g}" (labels every {step}"), x and y in inches from the lower-left corner',
        fill=INK,
        font=font,
        anchor="lm",
    )


def _legend_items(painter: _Painter, kinds: list[str]) -> list[tuple[str, str]]:
    view = painter.view
    items = [(f"terrain:{k}", STYLES[k].label if k in STYLES else _plain(k)) for k in kinds]
    for side in painter.colours:
        if side in view.sides or any(t.side == side for t in view.tokens) or any(u.side == side for u in view.units):
            items.append((f"side:{side}", _plain(side)))
    if view.zones and view.field.map.zones:
        items.append(("zone", "deployment zone"))
    if any(t.mounted for t in view.tokens) or any(u.mounted for u in view.units):
        items.append(("mounted", "mounted"))
    if any(len(u.figures) > u.strength for u in view.units):
        items.append(("uncounted", "wounded figure (not counted)"))
    if any(t.facing is not None for t in view.tokens) or any(u.facing is not None for u in view.units):
        items.append(("facing", "facing"))
    marks = dict.fromkeys([*(m for t in view.tokens for m in t.marks), *(m for u in view.units for m in u.marks)])
    items.extend((f"mark:{m}", MARKS[m][2] if m in MARKS else _plain(m)) for m in marks if m != "out")
    if "out" in marks:
        items.append(("out", "out of the fight"))
    if contact_groups(view):
        items.append(("contact", "in contact (magnified below the map)"))
    if painter.focus is not None and view.focus is not None:
        if view.focus.reach == () or view.focus.move_left <= 0:
            items.append(("still", _plain(f"{view.focus.name} may not move now")))
        else:
            items.append(("reach", _plain(f"{view.focus.name} may move {_inches(view.focus.move_left)}")))
        if view.focus.bands:
            items.append(("band", "range bands"))
        items.append(("partly", "partly seen"))
        items.append(("unseen", "not seen"))
    return items


def _legend_width(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int:
    return 54 + int(font.getlength(text)) + 26


def _flow(widths: Sequence[int], room: int) -> list[list[int]]:
    rows: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if rows[-1] and used + w > room:
            rows.append([])
            used = 0
        rows[-1].append(i)
        used += w
    return rows if rows[0] else []


def _legend_symbol(image: Image.Image, d: ImageDraw.ImageDraw, painter: _Painter, kind: str, x: int, y: int) -> None:
    w, h = 46, 26
    cx, cy = x + w / 2, y + h / 2
    if kind.startswith("terrain:"):
        style = STYLES.get(kind[8:], OTHER_STYLE)
        swatch = Image.new("RGB", (w, h), WHITE)
        ground = _Ground(ImageDraw.Draw(swatch, "RGBA"), 26, swatch=True)
        if style.pattern in LINE_PATTERNS:
            ground.line(style, [(3, h / 2), (w - 3, h / 2)], 0.3)
        else:
            ground.area(style, box(1, 1, w - 2, h - 2))
            if style.pattern == "building":
                swatch_d = ImageDraw.Draw(swatch)
                swatch_d.rectangle((w / 2 - 6, h - 7, w / 2 + 6, h - 1), fill=(226, 190, 130), outline=style.edge)
                swatch_d.rectangle((w - 7, h / 2 - 5, w - 1, h / 2 + 5), fill=(186, 226, 250), outline=style.edge)
        image.paste(swatch, (x, y))
    elif kind.startswith("side:"):
        colour = painter.colours[kind[5:]]
        d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=colour, outline=INK, width=2)
    elif kind == "zone":
        d.rectangle((x, y, x + w, y + h), fill=(120, 120, 120, 46))
        _dashed_line(d, [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], (90, 90, 90, 200), 3, 8)
    elif kind == "facing":
        d.polygon(((cx + 20, cy), (cx + 6, cy - 7), (cx + 6, cy + 7)), fill=INK)
        d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=(200, 200, 200), outline=INK, width=2)
    elif kind.startswith("mark:"):
        _badge(d, cx, cy, kind[5:])
    elif kind == "out":
        d.ellipse(
            (cx - 11, cy - 11, cx + 11, cy + 11),
            fill=_mix((150, 150, 150), PAPER, 0.6),
            outline=(130, 124, 116),
            width=2,
        )
        d.line(((cx - 8, cy - 8), (cx + 8, cy + 8)), fill=(90, 84, 76), width=3)
        d.line(((cx - 8, cy + 8), (cx + 8, cy - 8)), fill=(90, 84, 76), width=3)
    elif kind == "reach":
        d.rectangle((x, y, x + w, y + h), fill=(*REACH, 40), outline=(*REACH, 230), width=3)
    elif kind == "contact":
        d.line(((x + 8, cy), (x + w - 8, cy)), fill=(*JOIN, 230), width=4)
        for px in (x + 9, x + w - 9):
            d.ellipse((px - 8, cy - 8, px + 8, cy + 8), fill=(200, 200, 200), outline=INK, width=2)
    elif kind == "mounted":
        _diamond(d, cx, cy, 10)
        d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=(200, 200, 200), outline=INK, width=2)
    elif kind == "uncounted":
        d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=WHITE, outline=(90, 90, 90), width=2)
    elif kind == "still":
        d.rectangle((x, y, x + w, y + h), outline=(*REACH, 230), width=1)
        d.line(((x + 4, y + h - 4), (x + w - 4, y + 4)), fill=(*REACH, 230), width=3)
    elif kind == "band":
        _dashed_line(d, [(x, cy), (x + w, cy)], (*BAND, 190), 2, 6)
    elif kind in ("partly", "unseen"):
        swatch = Image.new("RGB", (w, h), PAPER)
        if kind == "unseen":
            swatch.paste(UNSEEN, (0, 0), Image.new("L", (w, h), UNSEEN_ALPHA))
        else:
            swatch.paste(UNSEEN, (0, 0), Image.new("L", (w, h), PARTLY_ALPHA))
            swatch.paste(UNSEEN, (0, 0), _hatching((w, h)))
        image.paste(swatch, (x, y))
        d.rectangle((x, y, x + w - 1, y + h - 1), outline=(150, 150, 150))
