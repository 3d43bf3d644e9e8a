"""What a move on the map asks for, as players type it: ``to:"x,y"``, waypoints ``via:"x,y x,y"``
(ending at ``to:`` when both are given), or ``toward:`` a figure or a point with an optional
``distance:``. Checked the same way in every ruleset; each ruleset decides how far ``toward``
goes (SSG straight on, the medieval game into base contact)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.battlefield.points import looks_like_a_point, parse_path, parse_point
from rules.geometry import Point
from rules.vocabulary import RuleError
from rules.words import blank


@dataclass(frozen=True)
class MoveRequest:
    """``toward`` (a figure's name or a point's text) with ``distance`` (None: as far as it may),
    or else the ``path`` of points to walk."""

    toward: str | None = None
    distance: Any = None
    path: list[Point] = field(default_factory=list)

    def toward_point(self) -> Point | None:
        """``toward`` when it is written as a point ("14,22"), else None: a figure's or a unit's
        name, which may itself begin with a digit ("33rd Foot")."""
        text = (self.toward or "").strip()
        return parse_point(text, "toward") if looks_like_a_point(text) else None


class MapMove(Protocol):
    """The options of a move on the map, as every map ruleset's move declares them
    (:func:`rules.specs.to_option`, :func:`rules.specs.via_option`, ``toward`` and ``distance``)."""

    @property
    def to(self) -> str | None: ...
    @property
    def via(self) -> str | None: ...
    @property
    def toward(self) -> str | None: ...
    @property
    def distance(self) -> float | None: ...


def move_request(params: MapMove, name: str) -> MoveRequest:
    to, via, aim = params.to, params.via, params.toward
    if blank(to) and blank(via) and blank(aim):
        raise RuleError(
            f'On the map, say where {name} goes: to:"x,y", via:"x,y x,y", or toward: a figure or a point '
            "(with distance:, or as far as it may)."
        )
    if not blank(aim):
        if not (blank(to) and blank(via)):
            raise RuleError("Give toward: on its own (with distance:), or to: and via:, not both.")
        return MoveRequest(toward=str(aim), distance=params.distance)
    if params.distance is not None:
        raise RuleError(f"distance: goes with toward:; to: and via: already say where {name} goes.")
    path = parse_path(via, f"{name}'s path") if not blank(via) else []
    if not blank(to):
        path.append(parse_point(to, f"where {name} goes"))
    return MoveRequest(path=path)
