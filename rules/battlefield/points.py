"""Points as players type them: ``"14,22"`` (inches from the table's lower-left corner) and paths
of several (``"10,12 14,18"``)."""

from __future__ import annotations

import re
from typing import Any

from rules.geometry import Point
from rules.vocabulary import DataError, RuleError
from rules.words import short

MAX_WAYPOINTS = 20
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_POINT = re.compile(rf"\s*({_NUMBER})\s*[,;]\s*({_NUMBER})\s*")


def looks_like_a_point(text: str) -> bool:
    """Whether ``text`` is written as x,y (so not a name, even one that begins with a digit)."""
    return _POINT.fullmatch(text) is not None


def parse_point(text: Any, what: str = "the point") -> Point:
    """``"14,22"`` → Point(14, 22); anything else refused with a sentence saying how to write it."""
    match = _POINT.fullmatch(str(text or ""))
    if match is None:
        raise RuleError(
            f"Give {what} as x,y in inches from the lower-left corner (like 14,22), not {short(str(text))}."
        )
    try:
        return Point(float(match.group(1)), float(match.group(2)))
    except DataError as exc:
        raise RuleError(f"{what[0].upper()}{what[1:]}: {exc.problems[0]}.") from None


def parse_path(text: Any, what: str = "the path") -> list[Point]:
    """``"10,12 14,18"`` (spaces or slashes between points) → the points, in order."""
    parts = [p for p in re.split(r"[\s/]+(?=[-+.\d])", str(text or "").strip()) if p.strip()]
    if not parts:
        raise RuleError(f"Give {what} as points like 10,12 14,18.")
    if len(parts) > MAX_WAYPOINTS:
        raise RuleError(f"{what[0].upper()}{what[1:]} has {len(parts)} points; give at most {MAX_WAYPOINTS}.")
    return [parse_point(p, f"point {i + 1} of {what}") for i, p in enumerate(parts)]
