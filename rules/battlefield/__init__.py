"""The bot's battlefield: a map (table, terrain, deployment zones), where every figure stands, and
the measuring every ruleset played on a map shares (placing, moving, sight, cover, contact).

The shapes and their arithmetic are :mod:`rules.geometry`; what each terrain kind does is the
ruleset's ``terrain:`` table (:mod:`rules.battlefield.terrain`); this package puts the two together
for a game's state."""

from rules.battlefield.facing import Arc, ArcSpec, arc_of, bearing, face_toward, turn_needed, turned
from rules.battlefield.field import (
    FieldState,
    MovePlan,
    as_far_as,
    base_of,
    check_point,
    cover_of,
    deploy,
    height_at,
    impassable_at,
    place,
    plan_move,
    point_of,
    set_point,
    toward,
    where,
)
from rules.battlefield.maps import (
    MapData,
    MapFeature,
    Opening,
    battlefield_of,
    in_zone,
    load_scenario,
    map_file,
    map_problems,
    read_feature,
    read_map,
    scenario_names,
)
from rules.battlefield.points import parse_path, parse_point
from rules.battlefield.sightlines import line_of_sight
from rules.battlefield.terrain import KINDS, LINE_KINDS, Terrain, TerrainKind, terrain_problems
from rules.battlefield.view import Band, FieldView, Focus, Token, UnitMark

__all__ = [
    "KINDS",
    "LINE_KINDS",
    "Arc",
    "ArcSpec",
    "Band",
    "FieldState",
    "FieldView",
    "Focus",
    "MapData",
    "MapFeature",
    "MovePlan",
    "Opening",
    "Terrain",
    "TerrainKind",
    "Token",
    "UnitMark",
    "arc_of",
    "as_far_as",
    "base_of",
    "battlefield_of",
    "bearing",
    "check_point",
    "cover_of",
    "deploy",
    "face_toward",
    "height_at",
    "impassable_at",
    "in_zone",
    "line_of_sight",
    "load_scenario",
    "map_file",
    "map_problems",
    "parse_path",
    "parse_point",
    "place",
    "plan_move",
    "point_of",
    "read_feature",
    "read_map",
    "scenario_names",
    "set_point",
    "terrain_problems",
    "toward",
    "turn_needed",
    "turned",
    "where",
]
