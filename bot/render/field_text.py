"""The battlefield as text, for the terminal: where each terrain feature lies and every figure
stands, and the distance (as the ruleset measures it) and sight between the figures that matter
(each figure's nearest enemies, nearest pairs first)."""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from rules.battlefield import FieldView, Terrain, Token, line_of_sight
from rules.geometry import Base, Point
from rules.words import heading, measured, plural


def field_text(view: FieldView, terrain: Terrain, pairs: int = 12) -> str:
    """A compact table: the map, each figure's position (x,y in inches from the lower-left corner),
    facing and marks, then up to ``pairs`` pairs of enemies, nearest first, with the distance
    between their centres and what each sees of the other."""
    field = view.field
    lines = [_heading(view), *terrain_lines(view)]
    if view.units:
        lines.extend(unit_lines(view))
    if not view.tokens:
        if not view.units:
            lines.append("No figure is on the map yet.")
        return "\n".join([*lines, *view.notes])
    width = max(len(t.name) for t in view.tokens)
    lines.extend(figure_lines(view))
    if view.focus is not None:
        bands = ", ".join(f"{b.label} {measured(b.quoted)}" for b in view.focus.bands)
        lines.append(
            f"{view.focus.name}: {measured(view.focus.move_left)} of movement left" + (f"; {bands}" if bands else "")
        )
    chosen = nearest_pairs(view, pairs)
    if chosen:
        how = "base to base" if view.distances == "edge" else "centre to centre"
        lines.append(f"Nearest enemies ({how}; what each sees of the other):")
        for a, b in chosen:
            there = line_of_sight(field, terrain, _base(a), _base(b)).describe(b.name)
            back = line_of_sight(field, terrain, _base(b), _base(a)).describe(a.name)
            gap = math.hypot(a.x - b.x, a.y - b.y)
            if view.distances == "edge":
                gap = max(0.0, gap - a.radius - b.radius)
            lines.append(f"  {a.name:<{width}} - {b.name:<{width}}  {measured(gap):>6}  {there} | back: {back}")
    lines.extend(view.notes)
    return "\n".join(lines)


def field_brief(view: FieldView) -> str:
    """The battlefield as it stands after a stretch of play, the text the picture stands for at the
    terminal: where each unit and figure is now, and the notes (charges under way). The terrain,
    which does not change, and the distances and sight between enemies are left to ``/map show``
    and ``/game status``."""
    lines = [_heading(view)]
    if view.units:
        lines.extend(unit_lines(view, with_nearest=False))
    if view.tokens:
        lines.extend(figure_lines(view))
    return "\n".join([*lines, *view.notes])


def _heading(view: FieldView) -> str:
    field = view.field
    return f"{view.heading} ({field.map.width:g} x {field.map.height:g} inch table)"


def figure_lines(view: FieldView) -> list[str]:
    """Each figure where it stands (x,y in inches from the lower-left corner), its facing and marks."""
    width = max(len(t.name) for t in view.tokens)
    side_width = max(len(t.side) for t in view.tokens)
    lines = ["Figures (x,y in inches from the lower-left corner):"]
    for t in sorted(view.tokens, key=lambda t: (_side_order(view, t.side), t.name.casefold())):
        extra = []
        if t.facing is not None:
            extra.append(f"facing {heading(t.facing)}")
        extra.extend(t.marks)
        lines.append(
            f"  {t.side:<{side_width}}  {t.name:<{width}}  {Point(t.x, t.y)!s:>11}  {', '.join(extra)}".rstrip()
        )
    return lines


def unit_lines(view: FieldView, *, with_nearest: bool = True) -> list[str]:
    """Each unit where it stands: its centre, formation, facing, figures and marks, then (unless
    told not to) each unit's nearest enemy unit with the gap between their blocks (the edge-to-edge
    distance a charge or a volley measures)."""
    units = sorted(view.units, key=lambda u: (_side_order(view, u.side), u.name.casefold()))
    width = max(len(u.name) for u in units)
    side_width = max(len(u.side) for u in units)
    lines = ["Units (centre x,y in inches from the lower-left corner):"]
    blocks = {u.name: Polygon(u.outline) for u in units if len(u.outline) >= 3}
    for u in units:
        block = blocks.get(u.name)
        centre = Point(block.centroid.x, block.centroid.y) if block is not None else None
        extra = [u.formation.replace("_", " ")] if u.formation else []
        if u.facing is not None:
            extra.append(f"facing {heading(u.facing)}")
        extra.append(plural(u.strength, "figure"))
        extra.extend(u.marks)
        where = str(centre) if centre is not None else "-"
        lines.append(f"  {u.side:<{side_width}}  {u.name:<{width}}  {where:>11}  {', '.join(extra)}")
    if not with_nearest:
        return lines
    pairs = []
    for u in units:
        enemies = [e for e in units if e.side != u.side and e.name in blocks and "out" not in e.marks]
        if u.name not in blocks or "out" in u.marks or not enemies:
            continue
        nearest = min(enemies, key=lambda e: blocks[u.name].distance(blocks[e.name]))
        pairs.append(
            f"  {u.name:<{width}} - {nearest.name:<{width}}  {measured(blocks[u.name].distance(blocks[nearest.name])):>6}"
        )
    if pairs:
        lines.append("Nearest enemy units (block edge to block edge):")
        lines.extend(pairs)
    return lines


def terrain_lines(view: FieldView) -> list[str]:
    """Each feature where a player can find it: a line's points and thickness, an area's corners
    (or, for a long outline, the box around it)."""
    features = view.field.map.features
    if not features:
        return []
    lines = ["Terrain (x,y in inches from the lower-left corner):"]
    for f in features:
        points = [Point(x, y) for x, y in f.points]
        label = f.name or f"a {f.kind}"
        what = f"{label} ({f.kind})" if f.name else label
        if f.shape == "line":
            where = " to ".join(str(p) for p in points) + f", {f.thickness:g}″ thick"
        elif len(points) <= 6:
            where = "corners " + " ".join(str(p) for p in points)
        else:
            xs, ys = [p.x for p in points], [p.y for p in points]
            where = f"within {Point(min(xs), min(ys))} to {Point(max(xs), max(ys))}"
        doors = [f"{o.kind} at {Point(*o.at)}" for o in f.openings]
        lines.append(f"  {what}: {where}" + (f"; {', '.join(doors)}" if doors else ""))
    return lines


def nearest_pairs(view: FieldView, limit: int) -> list[tuple[Token, Token]]:
    """Pairs of enemies still in the fight that matter: each figure with its nearest enemy (and
    the focus with every enemy), nearest first, at most ``limit``; each pair once, the focus (or
    the first side) first."""
    standing = [t for t in view.tokens if "out" not in t.marks]
    focus = view.focus.name if view.focus else None
    wanted: dict[tuple[str, str], tuple[Token, Token]] = {}
    for t in standing:
        enemies = sorted((e for e in standing if e.side != t.side), key=lambda e: _gap(t, e))
        for e in enemies if t.name == focus else enemies[:1]:
            a, b = (t, e) if _first(view, t, e, focus) else (e, t)
            wanted.setdefault((a.name, b.name), (a, b))
    ordered = sorted(wanted.values(), key=lambda p: (focus not in (p[0].name, p[1].name), _gap(*p)))
    return ordered[: max(0, limit)]


def _first(view: FieldView, a: Token, b: Token, focus: str | None) -> bool:
    if focus in (a.name, b.name):
        return a.name == focus
    return _side_order(view, a.side) <= _side_order(view, b.side)


def _side_order(view: FieldView, side: str) -> int:
    return view.sides.index(side) if side in view.sides else len(view.sides)


def _gap(a: Token, b: Token) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _base(token: Token) -> Base:
    return Base(Point(token.x, token.y), token.radius)
