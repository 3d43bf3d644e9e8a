"""Putting a battle's figures on the map before the first turn, shared by every ruleset played on
it: ``place`` one figure at a point, ``deploy`` a side's unplaced figures in its zone. A side places
only its own figures; the game master places anyone's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.battlefield.field import FieldState, deploy, place
from rules.battlefield.formations import FORMATIONS
from rules.battlefield.points import parse_point
from rules.battlefield.terrain import Terrain
from rules.geometry import Point
from rules.specs import Kind, Params, option
from rules.vocabulary import RuleError
from rules.words import find_figure, joined, match_name, short

#: Where a point on the map is, as every option naming one describes it.
POINT_HELP = 'x,y in inches from the lower-left corner, like "14,22"'


@dataclass(frozen=True, kw_only=True)
class PlaceOptions(Params):
    """``/map place``: every map ruleset's ``place`` action takes these (a unit's facing and
    formation are NSR's; the others refuse them)."""

    figure: str = option("The figure, or the unit (NSR)", Kind.FIGURE, required=True)
    at: str = option(POINT_HELP, Kind.POINT, required=True, length=40)
    facing: str | None = option(
        "A unit (NSR): degrees (0 east, 90 north) or a point x,y to face; default: the enemy", length=40
    )
    formation: str | None = option("A unit (NSR): its formation (default: the roster's)", choices=FORMATIONS)


@dataclass(frozen=True, kw_only=True)
class DeployOptions(Params):
    """``/map deploy``: every map ruleset's ``deploy`` action takes these."""

    side: str | None = option("The side (default: yours)", Kind.SIDE, length=32)


@dataclass(frozen=True)
class Piece:
    """A figure that is to stand on the map: its name, side and base radius."""

    name: str
    side: str
    radius: float


def unplaced(field: FieldState, pieces: Sequence[Piece]) -> list[Piece]:
    return [p for p in pieces if p.name not in field.positions]


def place_piece(
    field: FieldState,
    terrain: Terrain,
    pieces: Sequence[Piece],
    params: PlaceOptions,
    side: str | None,
    by_gm: bool,
) -> str:
    """``/map place figure: at:``; the sentence saying where it stands. ``facing`` and
    ``formation`` are a unit's (NSR's own place reads them): a figure here is refused them."""
    for key, given in (("facing", params.facing), ("formation", params.formation)):
        if given is not None:
            raise RuleError(f"A figure is placed with figure: and at: only; {key}: is for a unit in formation.")
    name = find_figure([p.name for p in pieces], params.figure)
    piece = next(p for p in pieces if p.name == name)
    _check_side(piece.side, side, by_gm, f"place {piece.name}")
    point = parse_point(params.at, f"where {piece.name} stands")
    place(field, terrain, piece.name, piece.side, point, _radii(pieces))
    return f"{piece.name} ({piece.side}) stands at {point}."


def deploy_pieces(
    field: FieldState,
    terrain: Terrain,
    pieces: Sequence[Piece],
    sides: Sequence[str],
    params: DeployOptions,
    side: str | None,
    by_gm: bool,
) -> str:
    """``/map deploy [side:]``: the side's unplaced figures set out in its zone; the sentence saying so."""
    wanted = params.side
    chosen = match_name(sides, wanted) if wanted is not None else side
    if chosen is None:
        if wanted:
            raise RuleError(f"There is no side called {short(str(wanted))}: use {joined(list(sides), 'or')}.")
        raise RuleError("Name the side to deploy.")
    _check_side(chosen, side, by_gm, f"deploy {chosen}'s figures")
    names = [p.name for p in pieces if p.side == chosen]
    placed = deploy(field, terrain, chosen, names, _radii(pieces))
    if not placed:
        raise RuleError(f"All of {chosen}'s figures are already placed.")
    where = ", ".join(f"{n} {Point(*field.positions[n])}" for n in placed)
    return f"{chosen} deploys: {where}."


def _check_side(owner: str, side: str | None, by_gm: bool, doing: str) -> None:
    if by_gm or (side is not None and side.casefold() == owner.casefold()):
        return
    raise RuleError(f"Only {owner}'s player (or the game master) may {doing}.")


def _radii(pieces: Sequence[Piece]) -> dict[str, float]:
    return {p.name: p.radius for p in pieces}
