"""What a picture of the battlefield shows, as plain values an engine hands the shell: where each
figure stands and what marks it carries, and a figure's reach and sight for ``/map show focus:``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.battlefield.field import FieldState


@dataclass(frozen=True)
class Token:
    """One figure on the map. ``marks`` are short words the picture draws as badges: ``wounded``,
    ``down`` (prone or knocked down), ``pinned``, ``no ammo``, ``out`` (removed or dead).
    ``mounted``: a rider (drawn in a diamond, so cavalry does not look like infantry)."""

    name: str
    side: str
    x: float
    y: float
    radius: float
    facing: float | None = None
    marks: tuple[str, ...] = ()
    mounted: bool = False


@dataclass(frozen=True)
class UnitMark:
    """A unit of many figures (NSR's basic unit) on the map: its footprint's corners, where each of
    its figures stands, its strength and formation for the label, and marks as for a figure."""

    name: str
    side: str
    outline: tuple[tuple[float, float], ...]
    figures: tuple[tuple[float, float], ...]
    strength: int
    formation: str = ""
    facing: float | None = None
    marks: tuple[str, ...] = ()
    #: Cavalry: each figure is drawn in a diamond.
    mounted: bool = False


@dataclass(frozen=True)
class Band:
    """A weapon's range band from a figure: ``label`` ("short", "long", "half range") drawn out to
    ``inches`` from the figure's centre. ``says``: the range the label quotes when that differs
    (a range measured base to base is drawn a base radius further out)."""

    label: str
    inches: float
    says: float | None = None

    @property
    def quoted(self) -> float:
        return self.inches if self.says is None else self.says


@dataclass(frozen=True)
class Focus:
    """One figure's reach: how far it may still move, its weapon's range bands. ``reach``: the
    outline of the ground its move would be accepted to now (rules/battlefield/reach.py), empty
    when it may not move; None when not worked out (a plain circle of ``move_left`` is drawn)."""

    name: str
    move_left: float
    bands: tuple[Band, ...] = ()
    reach: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class FieldView:
    """The battlefield as the shell draws it: the map, the figures, the sides' order (colours)."""

    field: FieldState
    sides: tuple[str, ...]
    tokens: tuple[Token, ...] = ()
    focus: Focus | None = None
    title: str = ""
    notes: tuple[str, ...] = ()
    #: Whether the sides' deployment zones are shown (while figures are being placed, or a draft).
    zones: bool = True
    #: Units drawn as blocks of figures (rulesets whose pieces are units, not single figures).
    units: tuple[UnitMark, ...] = ()
    #: How the ruleset measures between figures: ``centre`` to centre (SSG) or base ``edge`` to
    #: edge (the medieval game's range), so a list of distances says the one that counts.
    distances: Literal["centre", "edge"] = "centre"
    #: Who acts now, where the ruleset knows: the figure or unit to act, else the side.
    acting: str = ""
    #: Pairs of figures in contact (in melee) as the ruleset counts it; the picture joins each
    #: pair and magnifies where they stand. Enemy bases that touch are joined too.
    contacts: tuple[tuple[str, str], ...] = ()

    @property
    def heading(self) -> str:
        """The picture's title: the map, the turn and phase (``title``), and who acts now."""
        title = self.title or self.field.map.name
        return f"{title} · {self.acting} to act" if self.acting else title
