"""SSG on the bot's map (``state.field``): figures placed before the first turn, moves along paths
the bot measures (SSG's 1" stop included), contact and range centre to centre (A-SSG-4) and sight
as A-SSG-6 reads it. Table play (no field) never comes here."""

from __future__ import annotations

from rules.battlefield import (
    Band,
    FieldView,
    Focus,
    MovePlan,
    Token,
    as_far_as,
    line_of_sight,
    plan_move,
    point_of,
    toward,
    where,
)
from rules.battlefield.deployment import DeployOptions, Piece, PlaceOptions, deploy_pieces, place_piece, unplaced
from rules.battlefield.mapplay import field_of as field_of
from rules.battlefield.requests import MapMove, move_request
from rules.core import RuleError
from rules.geometry import Base, Point, Sight, centre_distance
from rules.ssg.data import SsgFigure, SsgState, SsgTables
from rules.words import find_figure, number

EPSILON = 1e-9


def pieces(t: SsgTables, state: SsgState) -> list[Piece]:
    return [Piece(f.name, f.side, t.base_radius) for f in state.figures if not f.removed]


def radii(t: SsgTables, state: SsgState) -> dict[str, float]:
    return {f.name: t.base_radius for f in state.figures if not f.removed}


# --- deployment --------------------------------------------------------------------------------


def place_text(t: SsgTables, state: SsgState, params: PlaceOptions, side: str | None, by_gm: bool) -> str:
    _require_deployment(state)
    return place_piece(field_of(state), t.terrain, pieces(t, state), params, side, by_gm)


def deploy_text(t: SsgTables, state: SsgState, params: DeployOptions, side: str | None, by_gm: bool) -> str:
    _require_deployment(state)
    return deploy_pieces(field_of(state), t.terrain, pieces(t, state), state.sides, params, side, by_gm)


def _require_deployment(state: SsgState) -> None:
    if state.field is None:
        raise RuleError("This game is played on a table: there is no map to place figures on.")
    if state.phase != "deployment":
        raise RuleError("The figures are already on the map: deployment is over.")


def waiting_to_place(t: SsgTables, state: SsgState) -> list[Piece]:
    return unplaced(field_of(state), pieces(t, state))


# --- movement ----------------------------------------------------------------------------------


def plan(t: SsgTables, state: SsgState, fig: SsgFigure, params: MapMove, left: float) -> MovePlan:
    """The move ``params`` ask for (``to``, ``via``, or ``toward`` with ``distance``), measured."""
    field = field_of(state)
    start = where(field, fig.name)
    near = enemies_within(t, state, fig, t.contact_inches)
    if near:
        raise RuleError(
            f"{fig.name} is within {t.contact_inches:g}″ of {near[0]} and may not move until the melee is fought."
        )
    waypoints = _waypoints(t, state, fig, start, params, left)
    enemies = {
        f.name: p
        for f in state.figures
        if f.side != fig.side and not f.removed and (p := point_of(field, f.name)) is not None
    }
    return plan_move(
        field, t.terrain, fig.name, waypoints, left, radii(t, state), stop_near=enemies, stop_within=t.contact_inches
    )


def _waypoints(
    t: SsgTables, state: SsgState, fig: SsgFigure, start: Point, params: MapMove, left: float
) -> list[Point]:
    asked = move_request(params, fig.name)
    if asked.toward is None:
        return asked.path
    goal = asked.toward_point() or _figure_point(state, fig, str(asked.toward))
    if asked.distance is None:  # as far as the movement left takes it through the terrain
        return [as_far_as(field_of(state), t.terrain, start, goal, min(left, centre_distance(start, goal)), left)]
    distance = number(asked.distance, "Give distance in inches.")
    if distance <= 0:
        raise RuleError(f"Give {fig.name}'s move as more than 0″.")
    return [toward(field_of(state), start, goal, distance)]


def _figure_point(state: SsgState, fig: SsgFigure, name: str) -> Point:
    found = find_figure([f.name for f in state.figures], name)
    if found == fig.name:
        raise RuleError(f"{fig.name} cannot move toward itself.")
    return where(field_of(state), found)


def enemies_within(t: SsgTables, state: SsgState, fig: SsgFigure, inches: float) -> list[str]:
    """Enemy figures within ``inches`` of ``fig``, centre to centre (A-SSG-4), nearest first."""
    field = field_of(state)
    here = point_of(field, fig.name)
    if here is None:
        return []
    found = []
    for other in state.figures:
        if other.side == fig.side or other.removed or (there := point_of(field, other.name)) is None:
            continue
        gap = centre_distance(here, there)
        if gap <= inches + EPSILON:
            found.append((gap, other.name))
    return [name for _, name in sorted(found)]


def contacts_now(t: SsgTables, state: SsgState) -> list[list[str]]:
    """Every pair of opposing figures within contact distance, the active side's figure first."""
    pairs: list[list[str]] = []
    for fig in state.figures:
        if fig.side == state.active and not fig.removed:
            pairs.extend([fig.name, enemy] for enemy in enemies_within(t, state, fig, t.contact_inches))
    return pairs


# --- shooting ----------------------------------------------------------------------------------


def measured(t: SsgTables, state: SsgState, shooter: SsgFigure, target: SsgFigure) -> tuple[float, Sight]:
    """Range (centre to centre) and sight from ``shooter`` to ``target``."""
    field = field_of(state)
    a, b = where(field, shooter.name), where(field, target.name)
    seen = line_of_sight(field, t.terrain, Base(a, t.base_radius), Base(b, t.base_radius))
    return centre_distance(a, b), seen


# --- the picture -------------------------------------------------------------------------------


def view(t: SsgTables, state: SsgState, focus: str | None) -> FieldView:
    field = field_of(state)
    tokens = []
    for fig in state.figures:
        xy = field.positions.get(fig.name)
        if xy is None:
            continue
        marks = ("out",) if fig.removed else ("shot",) if fig.shot else ()
        tokens.append(Token(fig.name, fig.side, xy[0], xy[1], t.base_radius, marks=marks))
    focused = None
    if focus:
        name = find_figure([f.name for f in state.figures], focus)
        fig = next(f for f in state.figures if f.name == name)
        weapon = t.weapons[fig.weapon]
        left = max(0.0, t.move_max_inches - fig.moved) if fig.side == state.active else t.move_max_inches
        bands = (Band("short", weapon.short), Band("long", weapon.long))
        focused = Focus(fig.name, left, bands)
    title = f"{field.map.name} · turn {state.turn} · {state.phase}"
    acting = state.active if state.phase != "over" else ""
    return FieldView(
        field,
        tuple(state.sides),
        tuple(tokens),
        focused,
        title,
        zones=state.phase == "deployment",
        acting=acting,
        contacts=tuple((a, b) for a, b in state.contacts),
    )
