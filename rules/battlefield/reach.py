"""A figure's reach as a focus picture draws it: the ground a ``to:`` move would be accepted to, found
by asking the ruleset's own move, not by drawing a circle.

Every engine refuses a move before it rolls a die or turns a card (rules/base.py), so asking is
running the move on dice that stop at the first roll: a refusal means the point is out of reach,
reaching a die (or finishing) means the move was accepted. Along a straight line from the figure a
move costs more the further it goes (terrain only adds to the cost, impassable ground stops it),
so on each of :data:`RAYS` bearings the furthest accepted point is found by halving, and the
reach is the outline through them. A figure that may not move now (it has acted, it is in
melee, it is not its side's turn) has no reach at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from rules.battlefield.view import FieldView
from rules.geometry import Point
from rules.vocabulary import Action, DiceSource, Outcome, RuleError

#: Bearings searched (every 15°); halvings on each (to a 64th of the figure's move).
RAYS = 24
HALVINGS = 6
#: The first short steps tried (inches): a figure none of whose short steps is accepted may not move.
FIRST_STEP = 0.1


class _Stopped(Exception):
    """The move reached its first die: every refusal was behind it."""


class _StopAtFirstDie:
    def roll(self, sides: int, reason: str) -> int:
        raise _Stopped

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise _Stopped


class Acts(Protocol):
    def act(self, state: Any, action: Action, dice: DiceSource) -> Outcome[Any]: ...


def move_accepted(engine: Acts, state: Any, side: str | None, params: Mapping[str, Any]) -> Callable[[Point], bool]:
    """Whether ``engine`` would accept ``/move`` with ``params`` and ``to:`` a point, for ``side``
    (as its player, not the game master: whose turn it is counts)."""

    def accepts(point: Point) -> bool:
        action = Action("move", side, {**params, "to": f"{point.x:.4f},{point.y:.4f}"})
        try:
            engine.act(state, action, _StopAtFirstDie())
        except _Stopped:
            return True
        except RuleError:
            return False
        return True

    return accepts


def reach_outline(start: Point, most: float, accepts: Callable[[Point], bool]) -> tuple[tuple[float, float], ...]:
    """The outline of the ground within ``most`` inches of ``start`` that ``accepts`` takes (the
    furthest accepted point on each bearing); empty when the figure may not move at all."""
    if most <= 0 or not any(accepts(_along(start, a, FIRST_STEP)) for a in range(0, 360, 90)):
        return ()
    outline = []
    for k in range(RAYS):
        bearing = 360.0 * k / RAYS
        lo, hi = 0.0, most
        if accepts(_along(start, bearing, hi)):
            lo = hi
        else:
            for _ in range(HALVINGS):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if accepts(_along(start, bearing, mid)) else (lo, mid)
        end = _along(start, bearing, lo)
        outline.append((round(end.x, 4), round(end.y, 4)))
    return tuple(outline)


def _along(start: Point, bearing: float, distance: float) -> Point:
    a = math.radians(bearing)
    return Point(start.x + distance * math.cos(a), start.y + distance * math.sin(a))


def with_reach(
    view: FieldView,
    engine: Acts,
    state: Any,
    moves: Sequence[tuple[Mapping[str, Any], float]] | None = None,
    *,
    key: str = "figure",
) -> FieldView:
    """``view`` with its focus's reach: under the first of ``moves`` (a move's options, such as a
    pace, and the inches it allows now) that is accepted somewhere, the outline of where; with
    its ``move_left`` those inches. No reach and nothing left when none is accepted anywhere.
    Without ``moves``, the one move that names the focus by ``key``, within its ``move_left``."""
    focus = view.focus
    if focus is None:
        return view
    if moves is None:
        moves = [({key: focus.name}, focus.move_left)]
    start = _where(view, focus.name)
    if start is None:
        return view
    side = next((t.side for t in view.tokens if t.name == focus.name), None)
    side = side or next((u.side for u in view.units if u.name == focus.name), None)
    on_a_base = _on_a_base(view, focus.name)
    for params, most in moves:
        accepts = move_accepted(engine, state, side, params)

        def searched(p: Point, accepts: Callable[[Point], bool] = accepts) -> bool:
            return on_a_base(p) or accepts(p)

        outline = reach_outline(start, most, searched)
        if outline:
            return replace(view, focus=replace(focus, move_left=most, reach=outline))
    return replace(view, focus=replace(focus, move_left=0.0, reach=()))


def _on_a_base(view: FieldView, name: str) -> Callable[[Point], bool]:
    """Whether a point is one where ``name``'s base would stand on another figure's: no move may
    end there, but one may go on past it, so the search along a bearing reads it as accepted and
    the reach keeps its small holes at other figures (which the picture shows as their discs)."""
    mine = next((t.radius for t in view.tokens if t.name == name), 0.0)
    others = [(t.x, t.y, t.radius + mine) for t in view.tokens if t.name != name]
    return lambda p: any(math.hypot(p.x - x, p.y - y) < reach for x, y, reach in others)


def _where(view: FieldView, name: str) -> Point | None:
    """Where a move of ``name`` starts: its figure's centre, or its unit's (the centre of its block)."""
    token = next((t for t in view.tokens if t.name == name), None)
    if token is not None:
        return Point(token.x, token.y)
    unit = next((u for u in view.units if u.name == name and u.outline), None)
    if unit is None:
        return None
    xs, ys = [x for x, _ in unit.outline], [y for _, y in unit.outline]
    return Point(sum(xs) / len(xs), sum(ys) / len(ys))
