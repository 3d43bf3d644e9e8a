"""The battlefield's geometry, shared by every ruleset measured in inches: positions, round bases,
terrain shapes, distances, paths and their costs, sight, cover and contact. Pure: no state of its
own; what a terrain kind *does* (blocks sight, costs movement, gives cover) is passed in as data.
"""

from rules.geometry.measure import (
    CONTACT_TOLERANCE,
    Stop,
    bases_crossed,
    centre_distance,
    edge_distance,
    in_contact,
    path_cost,
    path_length,
    stop_on_approach,
    within,
)
from rules.geometry.shapes import MAX_FEATURES, MAX_POINTS, Base, Battlefield, Feature, Point, Table
from rules.geometry.sight import Crossing, Sight, SightKind, cover, features_at, sight, sights, target_points

__all__ = [
    "CONTACT_TOLERANCE",
    "MAX_FEATURES",
    "MAX_POINTS",
    "Base",
    "Battlefield",
    "Crossing",
    "Feature",
    "Point",
    "Sight",
    "SightKind",
    "Stop",
    "Table",
    "bases_crossed",
    "centre_distance",
    "cover",
    "edge_distance",
    "features_at",
    "in_contact",
    "path_cost",
    "path_length",
    "sight",
    "sights",
    "stop_on_approach",
    "target_points",
    "within",
]
