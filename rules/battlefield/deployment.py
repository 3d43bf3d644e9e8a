"""Putting a battle's figures on the map before the first turn, shared by every ruleset played on
it: ``place`` one figure at a point, ``deploy`` a side's unplaced figures in its zone. A side places
only its own figures; the game master places anyone's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.battlefield.field import FieldState, deploy, place
from rules.battlefield.points import parse_point
from rules.battlefield.terrain import Terrain
from rules.geometry import Point
from rules.vocabulary import RuleError
from rules.words import blank, find_figure, joined, match_name, short


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
    params: Mapping[str, Any],
    side: str | None,
    by_gm: bool,
) -> str:
    """``/map place figure: at:``; the sentence saying where it stands. ``facing`` and
    ``formation`` are a unit's (NSR's own place reads them): a figure here is refused them."""
    for key in ("facing", "formation"):
        if not blank(params.get(key)):
            raise RuleError(f"A figure is placed with figure: and at: only; {key}: is for a unit in formation.")
    if not isinstance(params.get("figure"), str) or not params["figure"].strip():
        raise RuleError("Name the figure to place.")
    name = find_figure([p.name for p in pieces], params["figure"])
    piece = next(p for p in pieces if p.name == name)
    _check_side(piece.side, side, by_gm, f"place {piece.name}")
    point = parse_point(params.get("at"), f"where {piece.name} stands")
    place(field, terrain, piece.name, piece.side, point, _radii(pieces))
    return f"{piece.name} ({piece.side}) stands at {point}."


def deploy_pieces(
    field: FieldState,
    terrain: Terrain,
    pieces: Sequence[Piece],
    sides: Sequence[str],
    params: Mapping[str, Any],
    side: str | None,
    by_gm: bool,
) -> str:
    """``/map deploy [side:]``: the side's unplaced figures set out in its zone; the sentence saying so."""
    wanted = params.get("side")
    chosen = match_name(sides, wanted) if isinstance(wanted, str) and wanted.strip() else side
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
