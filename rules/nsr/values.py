"""NSR's readings of options a player typed, over the shared readers of :mod:`rules.words`: a
lenient yes (anything but a yes is no), and a choice with NSR's sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import short
from rules.words import YES, blank
from rules.words import choice as one_of


def yes(value: Any) -> bool:
    """A yes/no option: True or one of the yes words is yes; anything else (or nothing) is no."""
    if isinstance(value, bool):
        return value
    return str(value or "").strip().casefold() in YES


def choice(value: Any, allowed: Sequence[str], default: str, what: str) -> str:
    """One of ``allowed`` (``"close order"`` reads as ``close_order``), or ``default`` when not given."""
    if blank(value):
        return default
    return one_of(value, allowed, f"{what} must be one of {', '.join(allowed)}, not {short(str(value))}.")
