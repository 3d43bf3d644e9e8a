"""Reading option values a player typed: blanks, numbers, whole numbers, yes/no, choices."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.core import RuleError, short


def blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def number(value: Any, message: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(message)
    return float(value)


def whole(value: Any, message: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(message)
    return value


def yes(value: Any) -> bool:
    """A yes/no option: True, "yes" or "true" are yes; blank is no."""
    if isinstance(value, bool):
        return value
    return str(value or "").strip().casefold() in ("yes", "true", "y", "1")


def choice(value: Any, allowed: Sequence[str], default: str, what: str) -> str:
    if blank(value):
        return default
    text = "_".join(str(value).strip().casefold().split())
    if text not in allowed:
        raise RuleError(f"{what} must be one of {', '.join(allowed)}, not {short(str(value))}.")
    return text
