"""Facing on the map: which way a figure looks, and from which of its arcs an attacker comes.

Angles are degrees on the map's own axes (x east, y north): 0 east, 90 north, counter-clockwise,
held in [0, 360) — the convention of :class:`rules.battlefield.FieldState`'s ``facing``. A turn is
signed: positive counter-clockwise (to the figure's left), negative clockwise (to its right).

An attacker's arc is read along the line between the two figures' centres, as YASG reads its arc of
fire (A-YASG-18). Sharpe's Skirmish names four: the front, the defender's right (weapon) side, his
left (non-weapon) side and his rear, each with its own bonus when the defender cannot turn to face
(``melee.not_turned_attack`` in ``rules/sharpe/tables.yaml``); :class:`Arc`'s values are the
ruleset's own words for them (``rules.sharpe.melee.SIDES``).

An attacker exactly on the line between two arcs is in the one nearer the defender's front: front
over side, side over rear. A player claiming a flank or rear bonus must be clearly round the man,
and one standing on the line can be seen as well as one just inside the front arc.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from rules.geometry import Point
from rules.vocabulary import DataError, RuleError

#: Angles closer than this are the same angle: far below anything a player can type or measure
#: (a millionth of a degree is 2 millionths of an inch at 100"), far above the float noise of
#: subtracting typed coordinates.
ANGLE_EPSILON = 1e-6


class Arc(StrEnum):
    """Where an attacker stands, seen from the defender."""

    FRONT = "front"
    RIGHT = "right"
    LEFT = "left"
    REAR = "rear"

    @property
    def is_side(self) -> bool:
        return self in (Arc.RIGHT, Arc.LEFT)


@dataclass(frozen=True)
class ArcSpec:
    """The widths, in degrees, of the front and rear arcs, each centred on the facing (the front) or
    its opposite (the rear); the two sides share what is left, one each side.

    Sharpe's Skirmish gives no widths (seed 001, 9. Close combat): it names the arcs only through
    its bonuses, "Attacking from defender's right/weapon side +1, Attacking defender's left/
    non-weapon side +2, Attacking from defender's rear +3", and its melee example sets them out:
    "Now he is attacked from his left hand side again. 'It was his rear but he turned 90degrees'".
    Four arcs in which a quarter turn carries the rear onto a side are four quarters of 90 degrees,
    the defaults here."""

    front: float = 90.0
    rear: float = 90.0

    def __post_init__(self) -> None:
        problems = [
            f"the {name} arc must be a number of degrees above 0 and at most 360, not {value!r}"
            for name, value in (("front", self.front), ("rear", self.rear))
            if isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or not 0 < value <= 360
        ]
        if not problems and self.front + self.rear > 360:
            problems.append(f"the front and rear arcs ({self.front:g}° and {self.rear:g}°) are more than 360° together")
        if problems:
            raise DataError(problems)

    @property
    def side(self) -> float:
        """The width of each side arc."""
        return (360.0 - self.front - self.rear) / 2


#: Four quarters: Sharpe's reading (see :class:`ArcSpec`).
DEFAULT_ARCS = ArcSpec()


def normalise(degrees: float) -> float:
    """``degrees`` as the same direction in [0, 360); refused with a sentence when not a finite number."""
    if isinstance(degrees, bool) or not isinstance(degrees, (int, float)) or not math.isfinite(degrees):
        raise RuleError(f"A facing is a number of degrees, not {degrees!r}.")
    angle = float(degrees) % 360.0
    return 0.0 if angle >= 360.0 else angle + 0.0


def bearing(a: Point, b: Point) -> float:
    """The direction from ``a`` to ``b`` in degrees (0 east, 90 north, counter-clockwise), in [0, 360)."""
    if a == b:
        raise RuleError(f"{a} and {b} are the same spot: there is no direction from one to the other.")
    return normalise(math.degrees(math.atan2(b.y - a.y, b.x - a.x)))


def face_toward(a: Point, b: Point) -> float:
    """The facing of a figure at ``a`` that looks straight at ``b``."""
    return bearing(a, b)


def turn_needed(facing: float, toward: float) -> float:
    """The smallest turn from ``facing`` to ``toward``, in (-180, 180]: positive counter-clockwise
    (to the figure's left), negative clockwise (to its right). An about-turn is +180."""
    turn = normalise(toward) - normalise(facing)
    if turn > 180.0:
        turn -= 360.0
    elif turn <= -180.0:
        turn += 360.0
    return turn + 0.0


def turned(facing: float, turn: float) -> float:
    """The facing after turning ``turn`` degrees (positive to the left) from ``facing``."""
    return normalise(normalise(facing) + turn)


def arc_of(figure: Point, facing_degrees: float, attacker: Point, arcs: ArcSpec = DEFAULT_ARCS) -> Arc:
    """The arc of a figure at ``figure`` facing ``facing_degrees`` that ``attacker`` comes from.

    On the line between two arcs, the arc nearer the front (see the module's docstring). An attacker
    on the figure's own spot comes from no side and is refused."""
    if figure == attacker:
        raise RuleError(f"The attacker stands on the defender's own spot ({figure}): he comes from no side.")
    off = turn_needed(facing_degrees, bearing(figure, attacker))
    away = abs(off)
    if away <= arcs.front / 2 + ANGLE_EPSILON:
        return Arc.FRONT
    if away <= 180.0 - arcs.rear / 2 + ANGLE_EPSILON:
        return Arc.LEFT if off > 0 else Arc.RIGHT
    return Arc.REAR
