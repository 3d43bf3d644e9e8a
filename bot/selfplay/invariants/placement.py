"""Every figure stands on the table and no two bases overlap (battles on the bot's map)."""

from __future__ import annotations

import itertools
import math

from shapely.geometry import Polygon

from bot.selfplay.invariants.check import Check, Step, state_of
from rules.geometry.measure import CONTACT_TOLERANCE

#: How far bases may sit inside each other and still count as touching (the rules' own slack),
#: with the rounding positions are kept to.
SLACK = CONTACT_TOLERANCE + 0.001


class OnTheTable(Check):
    name = "figures on the table, bases apart"
    key = "placement"

    def after(self, step: Step) -> list[str]:
        snap = step.after
        if snap.game is None or snap.game.state == (step.before.game.state if step.before.game else None):
            return []
        view = snap.engine.field_view(state_of(snap))
        if view is None:
            return []
        width, height = view.field.map.width, view.field.map.height
        problems = []
        standing = [t for t in view.tokens if "out" not in t.marks]
        for t in standing:
            if not (-SLACK <= t.x <= width + SLACK and -SLACK <= t.y <= height + SLACK):
                problems.append(f"{t.name} stands off the table at {t.x:.2f},{t.y:.2f}")
        for a, b in itertools.combinations(standing, 2):
            gap = math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius
            if gap < -SLACK:
                problems.append(f"{a.name} and {b.name} overlap by {-gap:.2f}″")
        units = [(u.name, Polygon(u.outline)) for u in view.units if len(u.outline) >= 3 and "out" not in u.marks]
        for (name_a, shape_a), (name_b, shape_b) in itertools.combinations(units, 2):
            if shape_a.intersection(shape_b).area > SLACK:
                problems.append(f"{name_a} and {name_b} overlap")
        return problems
