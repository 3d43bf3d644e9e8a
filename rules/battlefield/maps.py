"""A map: the table's size, its terrain features and each side's deployment zone.

Kept in a game's state as plain data (:class:`MapData`), read from and written to the YAML a game
master imports and exports (:func:`read_map`, :func:`map_file`), and turned into the geometry's
shapes once per distinct map (:func:`battlefield_of`). The file format::

    name: Crossroads
    table: {width: 36, height: 36}
    features:
      - {kind: wood, name: Copse, area: [[4, 4], [10, 4], [10, 9], [4, 9]]}
      - {kind: hedge, line: [[12, 0], [12, 18]], thickness: 0.5}
      - kind: building
        area: [[20, 20], [26, 20], [26, 25], [20, 25]]
        openings: [{kind: door, at: [23, 20]}, {kind: window, at: [26, 22.5]}]
        storeys: 2
        walls: rock
    zones:
      red: [[0, 0], [36, 0], [36, 4], [0, 4]]
      blue: [[0, 32], [36, 32], [36, 36], [0, 36]]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, cast

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from rules.battlefield.terrain import KINDS, LINE_KINDS, Terrain
from rules.geometry import MAX_FEATURES, MAX_POINTS, Battlefield, Feature, Point, Table
from rules.plain import KEPT_DATA
from rules.tables import read_yaml_text
from rules.vocabulary import DataError
from rules.words import short

MAX_NAME = 60


@dataclass
class Opening:
    """A door or a window in a building's wall, at a point on (or next to) its outline."""

    kind: Literal["door", "window"]
    at: list[float]


WallKind = Literal["wood", "masonry", "rock"]
WALLS: tuple[WallKind, ...] = ("wood", "masonry", "rock")


@dataclass
class MapFeature:
    kind: str
    points: list[list[float]]
    shape: Literal["area", "line"] = "area"
    thickness: float = 0.0
    name: str = ""
    openings: list[Opening] = field(default_factory=list)
    #: A building's own figures, for the rulesets that fight in towns (others ignore them): its
    #: storeys, how many figures fit on its roof (None: as many bases as its ground holds, the
    #: ruleset measures), what its walls are built of and whether its doors are a barn's.
    storeys: int | None = None
    roof: int | None = None
    walls: WallKind | None = None
    barn: bool = False
    #: How tall a wall, hedge, fence or barricade stands, in feet, for the rulesets that climb and
    #: fall (Sharpe's high walls); None: as the ruleset takes such a line.
    height_ft: float | None = None


#: The keys only a building takes.
BUILDING_KEYS = ("storeys", "roof", "walls", "barn")
MAX_STOREYS = 20
MAX_ROOF = 500
MAX_HEIGHT_FT = 60


@dataclass
class MapData:
    name: str
    width: float
    height: float
    features: list[MapFeature] = field(default_factory=list)
    #: Each side's deployment zone, a polygon.
    zones: dict[str, list[list[float]]] = field(default_factory=dict)
    description: str = ""

    #: Never changed once read: its plain data is worked out once (:func:`rules.plain.to_data`).
    __plain_once__ = True

    def __getstate__(self) -> dict[str, Any]:
        """The map's fields, without what is kept on it (its shapes, :func:`battlefield_of`; its
        plain data): a worker builds its own."""
        return {k: v for k, v in self.__dict__.items() if k not in (_SHAPES, KEPT_DATA)}


# --- reading a file ------------------------------------------------------------------------------


def read_map(data: Any, sides: Sequence[str], terrain: Terrain) -> MapData:
    """A map file's data, checked: every problem at once in a :class:`DataError`."""
    if not isinstance(data, Mapping):
        raise DataError(["a map file is a mapping with table:, features: and zones:"])
    problems: list[str] = []
    unknown = [str(k) for k in data if k not in ("name", "description", "table", "features", "zones")]
    if unknown:
        problems.append(f"unknown key {short(unknown[0])}: a map has name, description, table, features and zones")
    table = data.get("table")
    if not isinstance(table, Mapping) or set(table) != {"width", "height"}:
        raise DataError([*problems, "table: give the table's size as {width: 36, height: 36} (inches)"])
    raw_features = data.get("features") or []
    if not isinstance(raw_features, list):
        raise DataError([*problems, "features: must be a list"])
    if len(raw_features) > MAX_FEATURES:
        raise DataError([f"the map has {len(raw_features)} features; a map may have at most {MAX_FEATURES}"])
    name = str(data.get("name") or "Custom map").strip()[:MAX_NAME]
    features: list[MapFeature] = []
    for i, raw in enumerate(raw_features):
        try:
            features.append(read_feature(raw, terrain, f"features[{i}]"))
        except DataError as exc:
            problems.extend(exc.problems)
    zones = _read_zones(data.get("zones"), sides, problems)
    result = MapData(
        name=name,
        width=table["width"],
        height=table["height"],
        features=features,
        zones=zones,
        description=str(data.get("description") or "").strip()[:500],
    )
    if not problems:
        problems = map_problems(result, sides)
    if problems:
        raise DataError(problems[:10])
    return result


def read_feature(raw: Any, terrain: Terrain, where: str = "the feature") -> MapFeature:
    """One feature as a file (or ``/map feature add``) gives it: ``kind`` and ``area`` or ``line``."""
    if not isinstance(raw, Mapping):
        raise DataError([f"{where}: a feature is a mapping with kind: and area: or line:"])
    kind = str(raw.get("kind") or "").strip().casefold()
    if kind not in KINDS:
        raise DataError([f"{where}: the kind {short(kind or '(none)')} is not terrain: use {', '.join(KINDS)}"])
    unknown = [
        str(k)
        for k in raw
        if k not in ("kind", "name", "area", "line", "thickness", "openings", "height_ft", *BUILDING_KEYS)
    ]
    if unknown:
        raise DataError([f"{where}: unknown key {short(unknown[0])}"])
    if ("area" in raw) == ("line" in raw):
        shape_hint = "line" if kind in LINE_KINDS else "area"
        raise DataError([f"{where}: give the {kind} either area: or line: (a {kind} is usually a {shape_hint})"])
    shape: Literal["area", "line"] = "area" if "area" in raw else "line"
    points = _points(raw[shape], f"{where}.{shape}")
    thickness = raw.get("thickness")
    if shape == "line" and thickness is None:
        thickness = terrain[kind].thickness if kind in terrain else 0.5
    openings = [_opening(o, f"{where}.openings[{i}]") for i, o in enumerate(raw.get("openings") or [])]
    given = [key for key in BUILDING_KEYS if raw.get(key) is not None]
    if given and kind != "building":
        raise DataError([f"{where}: {given[0]} is a building's, not a {kind}'s"])
    feature = MapFeature(
        kind=kind,
        points=points,
        shape=shape,
        thickness=float(thickness or 0.0) if shape == "line" else 0.0,
        name=str(raw.get("name") or "").strip()[:MAX_NAME],
        openings=openings,
        storeys=_whole(raw.get("storeys"), f"{where}.storeys: a building has 1 to {MAX_STOREYS} storeys", MAX_STOREYS),
        roof=_whole(raw.get("roof"), f"{where}.roof: 1 to {MAX_ROOF} figures fit on a building's roof", MAX_ROOF),
        walls=_walls(raw.get("walls"), where),
        barn=_yes_no(raw.get("barn"), f"{where}.barn: say true or false"),
        height_ft=_height(raw.get("height_ft"), kind, shape, where),
    )
    shape_of(feature)  # the geometry's own checks: a crossing outline, no length, a bad thickness
    return feature


def _points(raw: Any, where: str) -> list[list[float]]:
    if not isinstance(raw, list) or len(raw) > MAX_POINTS:
        raise DataError([f"{where}: a list of at most {MAX_POINTS} points, each [x, y] in inches"])
    points = []
    for value in raw:
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise DataError([f"{where}: each point is [x, y] in inches, not {short(repr(value))}"])
        point = Point(*value)
        points.append([point.x, point.y])
    return points


def _whole(value: Any, sentence: str, highest: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= highest:
        raise DataError([f"{sentence}, not {_shown(value)}"])
    return value


def _height(value: Any, kind: str, shape: str, where: str) -> float | None:
    """A line's height in feet: a wall, hedge, fence or barricade drawn as a line, 1 to 60 feet."""
    if value is None:
        return None
    if kind not in LINE_KINDS or shape != "line":
        raise DataError([f"{where}: height_ft is a wall's, hedge's, fence's or barricade's line, not a {kind}'s"])
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= MAX_HEIGHT_FT:
        raise DataError([f"{where}.height_ft: a line stands 1 to {MAX_HEIGHT_FT} feet high, not {_shown(value)}"])
    return float(value)


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else short(str(value))


def _walls(value: Any, where: str) -> WallKind | None:
    if value is None:
        return None
    text = str(value).strip().casefold()
    for kind in WALLS:
        if text == kind:
            return kind
    raise DataError([f"{where}.walls: a building's walls are {', '.join(WALLS)}, not {_shown(value)}"])


def _yes_no(value: Any, sentence: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise DataError([f"{sentence}, not {_shown(value)}"])
    return value


def _opening(raw: Any, where: str) -> Opening:
    if not isinstance(raw, Mapping) or raw.get("kind") not in ("door", "window") or "at" not in raw:
        raise DataError([f"{where}: an opening is {{kind: door or window, at: [x, y]}}"])
    (at,) = _points([raw["at"]], where)
    return Opening(kind=raw["kind"], at=at)


def _read_zones(raw: Any, sides: Sequence[str], problems: list[str]) -> dict[str, list[list[float]]]:
    if not isinstance(raw, Mapping):
        problems.append(f"zones: give each side's deployment zone ({', '.join(sides)}) as a list of points")
        return {}
    zones = {}
    for side, points in raw.items():
        try:
            zones[str(side)] = _points(points, f"zones.{side}")
        except DataError as exc:
            problems.extend(exc.problems)
    return zones


def map_problems(data: MapData, sides: Sequence[str]) -> list[str]:
    """What a map gets wrong as a whole: a feature or zone off the table, a missing zone."""
    problems: list[str] = []
    try:
        battlefield_of(data)
    except DataError as exc:
        problems.extend(exc.problems)
        return problems
    for side in sides:
        if side not in data.zones:
            problems.append(f"zones: {side} has no deployment zone")
    for side, points in data.zones.items():
        if side not in sides:
            problems.append(f"zones: {short(side)} is not a side (use {', '.join(sides)})")
            continue
        if len(points) < 3:
            problems.append(f"zones.{side}: a zone needs at least 3 points")
            continue
        for x, y in points:
            if not (-1e-9 <= x <= data.width + 1e-9 and -1e-9 <= y <= data.height + 1e-9):
                problems.append(f"zones.{side}: the point {x:g},{y:g} is off the table")
                break
        else:
            polygon = zone_shape(data, side)
            if polygon is None or not polygon.is_valid or polygon.area < 1:
                problems.append(f"zones.{side}: the zone's outline crosses itself or holds less than a square inch")
    return problems


# --- writing a file ------------------------------------------------------------------------------


def map_file(data: MapData) -> dict[str, Any]:
    """The map as the YAML file ``read_map`` reads back."""
    features = []
    for f in data.features:
        entry: dict[str, Any] = {"kind": f.kind}
        if f.name:
            entry["name"] = f.name
        entry[f.shape] = [list(p) for p in f.points]
        if f.shape == "line":
            entry["thickness"] = f.thickness
        if f.openings:
            entry["openings"] = [{"kind": o.kind, "at": list(o.at)} for o in f.openings]
        for key in BUILDING_KEYS:
            value = getattr(f, key)
            if value not in (None, False):
                entry[key] = value
        if f.height_ft is not None:
            entry["height_ft"] = f.height_ft
        features.append(entry)
    out: dict[str, Any] = {"name": data.name}
    if data.description:
        out["description"] = data.description
    out["table"] = {"width": data.width, "height": data.height}
    out["features"] = features
    out["zones"] = {side: [list(p) for p in pts] for side, pts in data.zones.items()}
    return out


# --- shapes ---------------------------------------------------------------------------------------


def shape_of(feature: MapFeature) -> Feature:
    return Feature(
        kind=feature.kind,
        points=tuple(Point(x, y) for x, y in feature.points),
        shape=feature.shape,
        thickness=feature.thickness,
        name=feature.name,
    )


#: Where a map keeps its shapes once built (not a field: never saved, compared or copied as data).
_SHAPES = "_shapes"


def battlefield_of(data: MapData) -> Battlefield:
    """The map's shapes, built once per distinct map (states are copied on every action) and kept
    on the map itself, since a map of 500 areas takes milliseconds just to be told apart from
    another. A map is never changed once read (an edit makes another, with ``replace``), and a
    copy of a state (:func:`rules.plain.clone`) shares its map's shapes."""
    kept = data.__dict__.get(_SHAPES)
    if kept is None:
        kept = data.__dict__[_SHAPES] = _shapes_of(data)
    return cast(Battlefield, kept)


def _shapes_of(data: MapData) -> Battlefield:
    key = (
        data.width,
        data.height,
        tuple((f.kind, tuple(map(tuple, f.points)), f.shape, f.thickness, f.name) for f in data.features),
    )
    return _battlefield(key)


@functools.lru_cache(maxsize=64)
def _battlefield(key: tuple[Any, ...]) -> Battlefield:
    width, height, features = key
    shapes = tuple(
        Feature(kind=k, points=tuple(Point(x, y) for x, y in pts), shape=shape, thickness=thick, name=name)
        for k, pts, shape, thick, name in features
    )
    return Battlefield(Table(width, height), shapes)


def zone_shape(data: MapData, side: str) -> Polygon | None:
    points = data.zones.get(side)
    if not points or len(points) < 3:
        return None
    return _zone(tuple(map(tuple, points)))


@functools.lru_cache(maxsize=256)
def _zone(points: tuple[tuple[float, float], ...]) -> Polygon:
    polygon = Polygon(points)
    shapely.prepare(polygon)
    return polygon


def in_zone(data: MapData, side: str, point: Point) -> bool:
    polygon = zone_shape(data, side)
    return polygon is not None and polygon.buffer(1e-9).covers(ShapelyPoint(point.x, point.y))


# --- the maps a ruleset ships ----------------------------------------------------------------------


def scenario_names(package: str) -> list[str]:
    """The shipped maps of a ruleset package (``rules/<slug>/maps/*.yaml``), by file name."""
    folder = resources.files(package).joinpath("maps")
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_scenario(package: str, name: str, sides: Sequence[str], terrain: Terrain) -> MapData:
    wanted = name.strip().casefold().replace(" ", "-")
    names = scenario_names(package)
    if wanted not in names:
        raise DataError([f"there is no map called {short(name)}: choose {', '.join(names) or 'none shipped'}"])
    text = resources.files(package).joinpath("maps", f"{wanted}.yaml").read_text(encoding="utf-8")
    return read_map(read_yaml_text(text, f"{wanted}.yaml"), sides, terrain)
