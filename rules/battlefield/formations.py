"""A basic unit on the map: the ground its figures cover in a formation, where each figure stands,
and the measuring between units that Napoleonic Skirmish Rules (NSR) asks for.

Inches throughout; a unit's ``facing`` is in degrees, 0 east and 90 north (as
:class:`rules.battlefield.field.FieldState`). A unit stands in an oriented rectangle, its
*footprint*, centred on its ``centre``: the front edge faces ``facing``, the ranks run across it.

What the seed (``Unit Formations``) draws, and how this module reads it:

* **line**: foot two ranks deep (``OOOOOO`` over ``OOOOOO``), mounted one rank (``000000``).
* **march column**: foot four files wide (``OOOO`` row after row); mounted ``000 or 00``: three
  files, the first the seed draws (``mounted_column_files``: a table may say 2).
* **square**: foot only (no mounted square row on the movement chart); a hollow square,
  ``OOOO / O  O / O  O / OOOO`` for 12 figures: the smallest k by k ring with room for every
  figure (k = 6 for 20), figures spread evenly round the ring. A square faces every way: no flank,
  no rear.
* **open order**: "Minimum of one inch between each figure"; foot in two staggered ranks (the
  seed's second row is drawn offset by half an interval), mounted in one rank. The bot stands
  figures exactly one inch apart, edge to edge, rank to rank as well.
* **guns** (artillery, formations ``limbered`` and ``manhandled`` as the movement chart names
  them): moving limbered, "the crewmen in single file in front of the gun, with the gun tube
  pointing to the rear"; in action (manhandled), "point the gun in the direction in which it will
  fire, place the crewmen around it within one inch": one crewman at each side of the gun, the
  rest in a row behind it (further rows behind that when a gun has more crew than the row holds).
  Several guns stand side by side, the crew shared out evenly.

The seed gives no base sizes; :class:`FormationSpec` holds the reading a player would choose
(a 1 inch foot base, a 1 by 2 inch horse, a 2 inch square gun base), to be overridden from a
ruleset's tables. An incomplete last rank stands centred and still counts as a rank.

Between units NSR measures as a wargamer does, unit edge to unit edge (the nearest figures'
bases): a charge "will stop your unit two inches from the enemy unit" (1.K), figures "still two
inches from the charging figures" close in (3.A.2), defenders "within three inches of a Close
Combat" move up (3.A.4, :func:`figures_within`). Range is measured "from the heads of the firing
figures": :func:`figure_points` are those heads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from rules.geometry import Point, Table
from rules.vocabulary import DataError, RuleError

FORMATIONS = ("line", "march_column", "square", "open_order", "limbered", "manhandled")
GUN_FORMATIONS = ("limbered", "manhandled")
MAX_FIGURES = 199
MAX_GUNS = 12
#: The charge stops this far from the enemy unit (seed 1.K; ``distances.charge_stop`` in NSR's tables).
CHARGE_STOP = 2.0
#: Overlapping ground below this many square inches is two units touching, not overlapping.
OVERLAP_AREA = 1e-6
_EPSILON = 1e-9

Aspect = Literal["front", "flank", "rear"]
_Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class FormationSpec:
    """How much ground a figure takes and how each formation ranks its figures.

    Sizes in inches. Where each number comes from:

    * ``foot_frontage``/``foot_depth`` 1 by 1: not in the seed; a 25-28mm skirmish figure's
      usual 25mm base, a whole inch so a line's width reads as its files.
    * ``mounted_frontage``/``mounted_depth`` 1 by 2: not in the seed; the usual 25 by 50mm horse.
    * ``gun_frontage``/``gun_depth`` 2 by 2: not in the seed; a gun model's 50mm base.
    * ``line_ranks`` 2, ``mounted_line_ranks`` 1: the seed's drawing of a line.
    * ``column_files`` 4, ``mounted_column_files`` 3: the seed's march column (``OOOO``; ``000 or 00``).
    * ``open_order_gap`` 1: "Minimum of one inch between each figure", read edge to edge.
    * ``open_order_ranks`` 2, ``mounted_open_order_ranks`` 1: the seed's drawing of open order.
    """

    foot_frontage: float = 1.0
    foot_depth: float = 1.0
    mounted_frontage: float = 1.0
    mounted_depth: float = 2.0
    gun_frontage: float = 2.0
    gun_depth: float = 2.0
    line_ranks: int = 2
    mounted_line_ranks: int = 1
    column_files: int = 4
    mounted_column_files: int = 3
    open_order_gap: float = 1.0
    open_order_ranks: int = 2
    mounted_open_order_ranks: int = 1

    def __post_init__(self) -> None:
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                problems.append(f"{f.name} must be a number, not {value!r}")
            elif f.type in ("int", int):
                if not isinstance(value, int) or not 1 <= value <= 20:
                    problems.append(f"{f.name} must be a whole number from 1 to 20, not {value!r}")
            elif not 0.1 <= value <= 12:
                problems.append(f"{f.name} must be from 0.1 to 12 inches, not {value:g}")
        if problems:
            raise DataError(problems)


DEFAULT_SPEC = FormationSpec()


@dataclass(frozen=True)
class UnitPlacement:
    """Where a basic unit stands: the centre of its footprint, the way its front faces (degrees,
    0 east, 90 north), its formation, how many figures stand in it (a gun unit's crew), whether
    they are mounted and how many guns it has. Checks itself when built; ``formation`` may be
    typed with a space (``march column``)."""

    centre: Point
    facing: float
    formation: str
    figures: int
    mounted: bool = False
    guns: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.centre, Point):
            raise RuleError("A unit's centre must be a point on the table.")
        if not isinstance(self.formation, str):
            raise RuleError(f"A unit's formation must be a name, not {self.formation!r}.")
        facing = self.facing
        if isinstance(facing, bool) or not isinstance(facing, (int, float)) or not math.isfinite(facing):
            raise RuleError(f"A unit's facing must be a number of degrees, not {facing!r}.")
        object.__setattr__(self, "facing", round(float(facing) % 360.0, 9) % 360.0 + 0.0)
        formation = self.formation.strip().lower().replace(" ", "_").replace("-", "_")
        if formation not in FORMATIONS:
            known = ", ".join(f.replace("_", " ") for f in FORMATIONS)
            raise RuleError(f"{self.formation.strip()[:40]!r} is not a formation; use {known}.")
        object.__setattr__(self, "formation", formation)
        figures = self.figures
        if isinstance(figures, bool) or not isinstance(figures, int) or not 1 <= figures <= MAX_FIGURES:
            raise RuleError(f"A unit stands with 1 to {MAX_FIGURES} figures, not {figures!r}.")
        guns = self.guns
        if isinstance(guns, bool) or not isinstance(guns, int) or not 0 <= guns <= MAX_GUNS:
            raise RuleError(f"A unit has 0 to {MAX_GUNS} guns, not {guns!r}.")
        if guns and formation not in GUN_FORMATIONS:
            raise RuleError(f"A unit with guns is limbered or manhandled, not in {formation.replace('_', ' ')}.")
        if not guns and formation in GUN_FORMATIONS:
            raise RuleError(f"Only a unit with a gun is {formation}.")
        if self.mounted and guns:
            raise RuleError("A gun's crew stands on foot: a mounted unit has no guns.")
        if self.mounted and formation == "square":
            raise RuleError("Mounted units do not form square.")


@dataclass(frozen=True)
class _Layout:
    """A formation in the unit's own frame (u to the unit's right, v to its front), centred on 0."""

    figures: _Array  # (n, 2) figure centres
    guns: _Array  # (g, 2) gun centres
    half_width: float
    half_depth: float


def _figure_size(spec: FormationSpec, mounted: bool) -> tuple[float, float]:
    return (spec.mounted_frontage, spec.mounted_depth) if mounted else (spec.foot_frontage, spec.foot_depth)


def _block(n: int, files: int, fw: float, fd: float, pitch_u: float, pitch_v: float, stagger: float) -> _Array:
    """Ranks of ``files`` from the front, each rank centred; odd ranks shifted right by ``stagger``.
    The first base's left edge is at u = 0, the front edge at v = 0."""
    files = min(files, n)
    points = np.empty((n, 2))
    for i in range(n):
        rank, place = divmod(i, files)
        count = min(files, n - rank * files)
        shift = (rank % 2) * stagger + pitch_u * (files - count) / 2
        points[i] = (fw / 2 + shift + pitch_u * place, -fd / 2 - pitch_v * rank)
    return points


def _ring(n: int, fw: float, fd: float) -> tuple[_Array, float]:
    """A hollow square's figures spread evenly round the smallest ring that holds them, and its side."""
    k = max(2, math.ceil((n + 4) / 4))
    slots = (
        [(c, 0) for c in range(k)]
        + [(k - 1, r) for r in range(1, k)]
        + [(c, k - 1) for c in range(k - 2, -1, -1)]
        + [(0, r) for r in range(k - 2, 0, -1)]
    )
    chosen = [slots[(i * len(slots)) // n] for i in range(n)]
    points = np.array([(fw * (c + 0.5), -fd * (r + 0.5)) for c, r in chosen], dtype=float)
    return points, float(k)


def _guns(n: int, guns: int, formation: str, spec: FormationSpec) -> tuple[_Array, _Array]:
    fw, fd, gw, gd = spec.foot_frontage, spec.foot_depth, spec.gun_frontage, spec.gun_depth
    crews = [n // guns + (1 if g < n % guns else 0) for g in range(guns)]
    figures: list[tuple[float, float]] = []
    pieces: list[tuple[float, float]] = []
    left = 0.0
    for crew in crews:
        if formation == "limbered":
            width = max(gw, fw)
            middle = left + width / 2
            figures += [(middle, -fd * (j + 0.5)) for j in range(crew)]
            pieces.append((middle, -fd * crew - gd / 2))
        else:
            width = gw + 2 * fw
            middle = left + width / 2
            pieces.append((middle, -gd / 2))
            beside = [(middle - (gw + fw) / 2, -gd / 2), (middle + (gw + fw) / 2, -gd / 2)]
            row = max(1, int((width + _EPSILON) // fw))
            across = sorted(
                (left + (width - row * fw) / 2 + fw * (j + 0.5) for j in range(row)), key=lambda u: (abs(u - middle), u)
            )
            behind = [(u, -gd - fd * (r + 0.5)) for r in range(max(0, crew - 2) // row + 1) for u in across]
            figures += (beside + behind)[:crew]
        left += width
    return np.array(figures, dtype=float).reshape(-1, 2), np.array(pieces, dtype=float).reshape(-1, 2)


@lru_cache(maxsize=2048)
def _layout(formation: str, n: int, mounted: bool, guns: int, spec: FormationSpec) -> _Layout:
    fw, fd = _figure_size(spec, mounted)
    pieces = np.empty((0, 2))
    frame: tuple[float, float, float, float] | None = None
    if formation in GUN_FORMATIONS:
        figures, pieces = _guns(n, guns, formation, spec)
    elif formation == "square":
        figures, k = _ring(n, fw, fd)
        frame = (0.0, k * fw, -k * fd, 0.0)
    elif formation == "open_order":
        ranks = spec.mounted_open_order_ranks if mounted else spec.open_order_ranks
        files = math.ceil(n / ranks)
        pitch_u, pitch_v = fw + spec.open_order_gap, fd + spec.open_order_gap
        figures = _block(n, files, fw, fd, pitch_u, pitch_v, pitch_u / 2 if n > files else 0.0)
    else:
        if formation == "line":
            files = math.ceil(n / (spec.mounted_line_ranks if mounted else spec.line_ranks))
        else:
            files = spec.mounted_column_files if mounted else spec.column_files
        figures = _block(n, files, fw, fd, fw, fd, 0.0)
    if frame is None:
        boxes = [(figures, fw, fd), (pieces, spec.gun_frontage, spec.gun_depth)]
        frame = (
            min(float(p[:, 0].min()) - w / 2 for p, w, _ in boxes if len(p)),
            max(float(p[:, 0].max()) + w / 2 for p, w, _ in boxes if len(p)),
            min(float(p[:, 1].min()) - d / 2 for p, _, d in boxes if len(p)),
            max(float(p[:, 1].max()) + d / 2 for p, _, d in boxes if len(p)),
        )
    u0, u1, v0, v1 = frame
    centre = np.array([(u0 + u1) / 2, (v0 + v1) / 2])
    return _Layout(figures - centre, pieces - centre, (u1 - u0) / 2, (v1 - v0) / 2)


def _axes(placement: UnitPlacement) -> tuple[_Array, _Array]:
    """The unit's right and front as unit vectors on the table."""
    angle = math.radians(placement.facing)
    return np.array([math.sin(angle), -math.cos(angle)]), np.array([math.cos(angle), math.sin(angle)])


def _to_table(placement: UnitPlacement, local: _Array) -> _Array:
    right, front = _axes(placement)
    origin = np.array([placement.centre.x, placement.centre.y])
    return origin + local[:, :1] * right + local[:, 1:2] * front


def _rectangles(placement: UnitPlacement, centres: _Array, width: float, depth: float) -> list[Polygon]:
    corners = np.array(
        [(-width / 2, -depth / 2), (width / 2, -depth / 2), (width / 2, depth / 2), (-width / 2, depth / 2)]
    )
    return [Polygon(_to_table(placement, corners + c)) for c in centres]


def _layout_of(placement: UnitPlacement, spec: FormationSpec) -> _Layout:
    return _layout(placement.formation, placement.figures, placement.mounted, placement.guns, spec)


def size(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> tuple[float, float]:
    """The footprint's width (its front) and depth, in inches."""
    layout = _layout_of(placement, spec)
    return 2 * layout.half_width, 2 * layout.half_depth


def corners(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> _Array:
    """The footprint's four corners, (4, 2), in the order :func:`footprint` draws them: rear left,
    rear right, front right, front left."""
    layout = _layout_of(placement, spec)
    hw, hd = layout.half_width, layout.half_depth
    return _to_table(placement, np.array([(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)]))


def corners_of(placements: Sequence[UnitPlacement], spec: FormationSpec = DEFAULT_SPEC) -> _Array:
    """:func:`corners` of several units at once, (k, 4, 2)."""
    if not placements:
        return np.zeros((0, 4, 2))
    layouts = [_layout_of(p, spec) for p in placements]
    half = np.array([(layout.half_width, layout.half_depth) for layout in layouts])
    angle = np.radians([p.facing for p in placements])
    right = np.column_stack([np.sin(angle), -np.cos(angle)])
    front = np.column_stack([np.cos(angle), np.sin(angle)])
    centre = np.array([(p.centre.x, p.centre.y) for p in placements])
    across = _CORNER_SIGNS[None, :, 0] * half[:, None, 0]
    ahead = _CORNER_SIGNS[None, :, 1] * half[:, None, 1]
    return np.asarray(centre[:, None, :] + across[..., None] * right[:, None, :] + ahead[..., None] * front[:, None, :])


_CORNER_SIGNS = np.array([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])


def footprint(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> Polygon:
    """The ground the unit covers: a rectangle round every figure's (and gun's) base, its front edge
    (the first two corners' far side) facing ``placement.facing``. A square's hollow is its ground."""
    return Polygon(corners(placement, spec))


def figure_points(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> list[Point]:
    """Where each figure stands (its base's centre, the head range is measured from): the front
    rank first, left to right as the unit faces; a square's figures round the ring from its
    front-left corner; a gun unit's crew gun by gun."""
    table = _to_table(placement, _layout_of(placement, spec).figures)
    return [Point(float(x), float(y)) for x, y in table]


def figure_bases(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> list[Polygon]:
    """Each figure's base, in the order of :func:`figure_points`."""
    fw, fd = _figure_size(spec, placement.mounted)
    return _rectangles(placement, _layout_of(placement, spec).figures, fw, fd)


def gun_points(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> list[Point]:
    """Where each gun stands (its base's centre). A limbered gun's tube points to the unit's rear,
    a manhandled gun's to its front."""
    table = _to_table(placement, _layout_of(placement, spec).guns)
    return [Point(float(x), float(y)) for x, y in table]


def front_edge(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> LineString:
    """The unit's front, from its left end to its right as it faces."""
    layout = _layout_of(placement, spec)
    hw, hd = layout.half_width, layout.half_depth
    return LineString(_to_table(placement, np.array([(-hw, hd), (hw, hd)])))


def front_area(placement: UnitPlacement, inches: float, spec: FormationSpec = DEFAULT_SPEC) -> Polygon:
    """The ground "directly to the front" of the unit as wide as the unit, ``inches`` deep: a
    volley's area (NSR B.1: "an area defined by the length of the unit and up to ½ of the weapons
    range")."""
    if not math.isfinite(inches) or inches <= 0:
        raise RuleError(f"The area in front of a unit must be some inches deep, not {inches:g}.")
    layout = _layout_of(placement, spec)
    hw, hd = layout.half_width, layout.half_depth
    return Polygon(_to_table(placement, np.array([(-hw, hd), (hw, hd), (hw, hd + inches), (-hw, hd + inches)])))


def aspect(placement: UnitPlacement, point: Point, spec: FormationSpec = DEFAULT_SPEC) -> Aspect:
    """Which side of the unit ``point`` is on. Rear: behind the line of its rear edge (NSR C.1:
    figures see 180 degrees, front and sides, so the rear rank sees nothing behind that line).
    Front: ahead of its front edge and between the lines drawn out at 45 degrees from its front
    corners. Flank: anywhere else. A square has neither flank nor rear: always front. On a dividing
    line the point counts as the front (or flank, against the rear)."""
    if placement.formation == "square":
        return "front"
    layout = _layout_of(placement, spec)
    right, front = _axes(placement)
    offset = np.array([point.x - placement.centre.x, point.y - placement.centre.y])
    across, ahead = abs(float(offset @ right)), float(offset @ front)
    if ahead < -layout.half_depth - _EPSILON:
        return "rear"
    beyond = ahead - layout.half_depth
    if beyond >= -_EPSILON and across - layout.half_width <= beyond + _EPSILON:
        return "front"
    return "flank"


def gap(a: BaseGeometry, b: BaseGeometry) -> float:
    """Edge to edge between two footprints (or any shapes): 0 when they touch or overlap, never negative."""
    return max(0.0, float(shapely.distance(a, b)))


def within_inches(a: BaseGeometry, b: BaseGeometry, inches: float) -> bool:
    """NSR's "within N inches" between units: edge to edge, N itself included."""
    return gap(a, b) <= inches + _EPSILON


def overlaps(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Two footprints share ground (more than :data:`OVERLAP_AREA`); touching edges do not overlap."""
    return bool(shapely.intersects(a, b)) and float(shapely.area(shapely.intersection(a, b))) > OVERLAP_AREA


def charge_distance(charger: BaseGeometry, target: BaseGeometry, stop: float = CHARGE_STOP) -> float:
    """How far a charging unit moves to stop ``stop`` inches from the enemy unit (seed 1.K), edge to
    edge; 0 when it is that close already. A charge reaches when the unit's move is at least this."""
    return max(0.0, gap(charger, target) - stop)


def figures_within(
    placement: UnitPlacement, area: BaseGeometry, inches: float, spec: FormationSpec = DEFAULT_SPEC
) -> list[int]:
    """The figures (indices into :func:`figure_points`) whose bases are within ``inches`` of
    ``area``, edge to edge: the defenders within three inches of a close combat who move up
    (seed 3.A.4), with ``area`` the fighting figures' bases."""
    bases = figure_bases(placement, spec)
    distances = shapely.distance(np.array(bases, dtype=object), area)
    return [i for i, d in enumerate(distances) if d <= inches + _EPSILON]


def most_inside(placement: UnitPlacement, area: BaseGeometry, spec: FormationSpec = DEFAULT_SPEC) -> bool:
    """More than half the unit's figures stand (their base's centre) in ``area`` or on its edge:
    NSR's "most of target unit" for the target class."""
    points = _to_table(placement, _layout_of(placement, spec).figures)
    inside = shapely.covers(area, shapely.points(points))
    return int(np.count_nonzero(inside)) * 2 > placement.figures


#: How far a footprint may stick out over the table's edge and still stand on it (inches).
TABLE_EDGE = 1e-6


def on_table(placement: UnitPlacement, table: Table, spec: FormationSpec = DEFAULT_SPEC) -> bool:
    """The whole footprint stands on the table."""
    return _corners_on_table(corners(placement, spec), table)


def _corners_on_table(points: _Array, table: Table) -> bool:
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    edge = TABLE_EDGE
    return bool(x0 >= -edge and y0 >= -edge and x1 <= table.width + edge and y1 <= table.height + edge)


def corners_on_table(boxes: _Array, table: Table) -> npt.NDArray[np.bool_]:
    """Which of several footprints (their corners, (k, 4, 2), as :func:`corners_of` gives them)
    stand wholly on the table, as :func:`on_table` reads it."""
    if not len(boxes):
        return np.zeros(0, dtype=bool)
    low, high = boxes.min(axis=1), boxes.max(axis=1)
    edge = TABLE_EDGE
    return np.asarray(
        (low[:, 0] >= -edge)
        & (low[:, 1] >= -edge)
        & (high[:, 0] <= table.width + edge)
        & (high[:, 1] <= table.height + edge)
    )


def check_on_table(
    placement: UnitPlacement, table: Table, spec: FormationSpec = DEFAULT_SPEC, name: str = "The unit"
) -> Polygon:
    """The footprint, or a refusal when any of it would stand off the table."""
    points = corners(placement, spec)
    if _corners_on_table(points, table):
        return Polygon(points)
    width, depth = size(placement, spec)
    raise RuleError(
        f"{name} in {placement.formation.replace('_', ' ')} ({width:g} by {depth:g} inches) at {placement.centre}"
        f" would stand off the {table.width:g} by {table.height:g} inch table."
    )


def reform(
    placement: UnitPlacement,
    formation: str,
    spec: FormationSpec = DEFAULT_SPEC,
    table: Table | None = None,
    name: str = "The unit",
) -> UnitPlacement:
    """The unit in another formation, on the same centre and facing; refused (nothing changes)
    when the formation is unknown or does not suit the unit, or, given ``table``, when the new
    footprint would stand off it."""
    reformed = replace(placement, formation=formation)
    if table is not None:
        check_on_table(reformed, table, spec, name)
    return reformed


# --- a footprint sliding straight (charges, fall-backs) ------------------------------------------------

#: Two outlines nearer than this (inches) are taken to touch when finding where sliding ground meets.
_TOUCH = 1e-9
#: How finely the slide's stop is found (inches per inch slid): far finer than a position is kept.
_PRECISION = 1e-12


def figure_xy(placement: UnitPlacement, spec: FormationSpec = DEFAULT_SPEC) -> _Array:
    """:func:`figure_points` as an (n, 2) array."""
    return _to_table(placement, _layout_of(placement, spec).figures)


def behind(placement: UnitPlacement, points: _Array, spec: FormationSpec = DEFAULT_SPEC) -> npt.NDArray[np.bool_]:
    """Which of ``points`` (an (n, 2) array) are in the unit's rear, as :func:`aspect` reads it."""
    if placement.formation == "square":
        return np.zeros(len(points), dtype=bool)
    _, front = _axes(placement)
    ahead = (points - np.array([placement.centre.x, placement.centre.y])) @ front
    return np.asarray(ahead < -_layout_of(placement, spec).half_depth - _EPSILON)


def ring_edges(points: _Array) -> _Array:
    """A closed outline's sides, one (x0, y0, x1, y1) a row, from its corners in order."""
    return np.hstack([points, np.roll(points, -1, axis=0)])


def _first_within(points: _Array, direction: _Array, segments: _Array, within: float) -> _Array:
    """(n, m): how far each of ``points`` goes along ``direction`` (a unit vector) before it comes
    ``within`` inches of each segment (rows x0, y0, x1, y1): the first time its straight path enters
    the band round the segment (two straight sides and a half circle at each end); 0 when it is in
    it already, inf when it never enters."""
    a, b = segments[:, :2], segments[:, 2:]
    span = b - a
    length = np.hypot(span[:, 0], span[:, 1])
    unit = span / np.where(length > 0, length, 1.0)[:, None]
    normal = np.column_stack([-unit[:, 1], unit[:, 0]])
    offset = points[:, None, :] - a[None, :, :]
    along, across = np.einsum("nmk,mk->nm", offset, unit), np.einsum("nmk,mk->nm", offset, normal)
    run_along, run_across = unit @ direction, normal @ direction
    first = np.full(along.shape, np.inf)
    inside = (np.abs(across) <= within) & (along >= 0) & (along <= length)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for side in (within, -within):
            s = (side - across) / run_across
            at = along + s * run_along
            hit = (s >= 0) & (at >= 0) & (at <= length)
            first = np.where(hit, np.minimum(first, s), first)
        for end in (a, b):
            rel = points[:, None, :] - end[None, :, :]
            towards = rel @ direction
            apart = np.einsum("nmk,nmk->nm", rel, rel) - within * within
            room = towards * towards - apart
            s = -towards - np.sqrt(np.maximum(room, 0.0))
            first = np.where((room >= 0) & (s >= 0), np.minimum(first, s), first)
            inside |= apart <= 0
    return np.where(inside, 0.0, first)


def approach(
    moving: _Array, direction: tuple[float, float], edges: _Array, starts: npt.NDArray[np.intp], within: float = 0.0
) -> _Array:
    """How far a shape with the corners ``moving`` goes along ``direction`` (a unit vector) before
    its outline first comes ``within`` inches of each of several shapes' outlines: one distance a
    shape (0 when that near already, inf when never), the shapes' sides given as ``edges`` (rows
    x0, y0, x1, y1; shape i's rows from ``starts[i]`` on). Exact, with no halving: two outlines are
    nearest at a corner of one and a side of the other, so it is the first time a corner's straight
    path (the shape's own forward, the others' backward) enters the band round a side."""
    d = np.asarray(direction, dtype=float)
    forward = _first_within(moving, d, edges, within).min(axis=0)
    backward = _first_within(edges[:, :2], -d, ring_edges(moving), within).min(axis=1)
    return np.asarray(np.minimum.reduceat(np.minimum(forward, backward), starts))


def hull_of(*shapes: _Array) -> BaseGeometry:
    """The convex hull of shapes given by their corners."""
    hull = shapely.convex_hull(shapely.multipoints(np.vstack(shapes)))
    assert isinstance(hull, BaseGeometry)
    return hull


def swept(moving: _Array, direction: tuple[float, float], inches: float) -> BaseGeometry:
    """The ground a convex shape (its corners) covers sliding ``inches`` along ``direction``: the
    hull of where it starts and where it ends."""
    return hull_of(moving, moving + inches * np.asarray(direction, dtype=float))


def table_limit(moving: _Array, direction: tuple[float, float], table: Table) -> float:
    """How far a shape (its corners) slides along ``direction`` and still stands on the table, as
    :func:`on_table` reads it (0 when it stands off it already)."""
    limits = [math.inf]
    for axis, size_ in ((0, table.width), (1, table.height)):
        run = direction[axis]
        if abs(run) <= _EPSILON:
            continue
        edge = size_ + TABLE_EDGE if run > 0 else -TABLE_EDGE
        room = (edge - moving[:, axis]) / run
        limits.append(max(0.0, float(room.min())))
    return min(limits)


def slide_stops(
    moving: _Array,
    direction: tuple[float, float],
    inches: float,
    shapes: npt.NDArray[np.object_],
    edges: _Array,
    starts: npt.NDArray[np.intp],
) -> _Array:
    """How far a convex footprint (its corners) slides along ``direction`` (a unit vector), up to
    ``inches``, before the ground it sweeps overlaps each of ``shapes`` (more than
    :data:`OVERLAP_AREA`: touching, or sliding along an edge, is no overlap): the furthest it stays
    clear of the shape that stops it first (and of any it reaches as soon), inf for every other
    shape. ``edges`` and ``starts`` are the shapes' outlines as :func:`approach` takes them.

    The swept ground only grows, so each shape has one such distance; it is found, for the shapes
    the whole slide would overlap, from where the outlines first touch (measured exactly) by false
    position on the overlapping area."""
    stops = np.full(len(shapes), np.inf)
    whole = swept(moving, direction, inches)
    reached = np.nonzero(shapely.intersects(whole, shapes))[0] if len(shapes) else np.zeros(0, dtype=np.intp)
    if not len(reached):
        return stops
    overlap = shapely.area(shapely.intersection(whole, shapes[reached]))
    hit = reached[overlap > OVERLAP_AREA]
    if not len(hit):
        return stops
    ends = np.append(starts[1:], len(edges))
    sides = [edges[starts[i] : ends[i]] for i in hit]
    firsts = np.cumsum([0] + [len(e) for e in sides[:-1]]).astype(np.intp)
    touch = approach(moving, direction, np.vstack(sides), firsts, _TOUCH)
    touch[shapely.intersects(shapely.polygons(moving), shapes[hit])] = 0.0
    best = inches
    for j in np.argsort(touch, kind="stable"):
        if touch[j] > best + _TOUCH:
            break
        shape = shapes[hit[j]]

        def area(s: float, shape: BaseGeometry = shape) -> float:
            return float(shapely.area(shapely.intersection(swept(moving, direction, s), shape)))

        high = min(best + _TOUCH, inches)
        if high < inches and area(high) <= OVERLAP_AREA:
            continue
        stops[hit[j]] = _last_clear(area, float(touch[j]), high)
        best = min(best, stops[hit[j]])
    stops[stops > best + _TOUCH] = np.inf
    return stops


def _last_clear(area: Callable[[float], float], low: float, high: float) -> float:
    """The furthest ``s`` from ``low`` to ``high`` where ``area(s)`` (never shrinking as ``s`` grows,
    more than :data:`OVERLAP_AREA` at ``high``) is still no more than it: a step that grows from
    ``low`` brackets it, then false position (the Illinois way, every guess at least a tolerance
    inside the bracket so that it always shrinks) closes in."""
    excess_low = area(low) - OVERLAP_AREA
    if excess_low > 0:
        return low
    excess_high = area(high) - OVERLAP_AREA
    step = 1e-7
    while low + step < high:
        excess = area(low + step) - OVERLAP_AREA
        if excess > 0:
            high, excess_high = low + step, excess
            break
        low, excess_low = low + step, excess
        step *= 32
    tolerance = _PRECISION * max(1.0, high)
    kept = ""
    for _ in range(100):
        if high - low <= tolerance:
            break
        guess = high - excess_high * (high - low) / (excess_high - excess_low)
        guess = min(max(guess, low + tolerance / 2), high - tolerance / 2)
        excess = area(guess) - OVERLAP_AREA
        if excess > 0:
            high, excess_high = guess, excess
            excess_low = excess_low / 2 if kept == "low" else excess_low
            kept = "low"
        else:
            low, excess_low = guess, excess
            excess_high = excess_high / 2 if kept == "high" else excess_high
            kept = "high"
    return low


def last_clear(moving: _Array, direction: tuple[float, float], inches: float, other: _Array) -> float:
    """How far a footprint (its corners, ``moving``) goes along ``direction`` (a unit vector), up to
    ``inches``, and still overlaps another convex shape (its corners, ``other``) by no more than
    :data:`OVERLAP_AREA`: the furthest such distance (``inches`` when it never overlaps more). The
    overlap must only grow along the way, as it does while a footprint's centre heads for the
    centre of another shape symmetric about its centre (two such shapes overlap most when their
    centres meet). Found as :func:`slide_stops` finds a stop: from where the outlines first touch
    (exact) by false position on the overlapping area."""
    d = np.asarray(direction, dtype=float)
    shape = shapely.polygons(other)

    def area(s: float) -> float:
        return float(shapely.area(shapely.intersection(shapely.polygons(moving + s * d), shape)))

    if area(inches) <= OVERLAP_AREA:
        return inches
    touch = min(float(approach(moving, direction, ring_edges(other), np.zeros(1, dtype=np.intp), _TOUCH)[0]), inches)
    if area(touch) > OVERLAP_AREA:  # overlapping a hair where it starts: where the outlines touch is no floor
        return _last_clear(area, 0.0, touch)
    return _last_clear(area, touch, inches)
