"""A focus picture's reach is what ``move`` would accept now (issue 25): the ground left this turn,
shaped by the terrain, and nothing for a figure that may not move. For each ruleset on the map a
point inside the drawn reach is accepted by the real move and a point just past its edge is refused;
a figure that has used its move, is not the one to act, or may not move, has no reach."""

from __future__ import annotations

import math
from typing import Any

from rules.battlefield import FieldView
from rules.core import Action, LowestFaces, RuleError
from rules.medieval.engine import make_engine as medieval_engine
from rules.nsr.engine import make_engine as nsr_engine
from rules.sharpe.engine import SharpeEngine
from rules.ssg.engine import make_engine as ssg_engine
from tests.rules import test_medieval_map as medieval
from tests.rules import test_nsr_map as nsr
from tests.rules import test_sharpe_map as sharpe
from tests.rules import test_ssg_map as ssg
from tests.rules.test_medieval_engine import edit
from tests.rules.test_sharpe_helpers import new_engine


def accepted(engine: Any, state: Any, side: str, params: dict[str, Any], x: float, y: float) -> bool:
    try:
        engine.act(state, Action("move", side, {**params, "to": f"{x:.4f},{y:.4f}"}), LowestFaces())
    except RuleError:
        return False
    return True


def start_of(view: FieldView) -> tuple[float, float]:
    assert view.focus is not None
    token = next((t for t in view.tokens if t.name == view.focus.name), None)
    if token is not None:
        return token.x, token.y
    unit = next(u for u in view.units if u.name == view.focus.name)
    xs, ys = zip(*unit.outline, strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def check_reach(engine: Any, state: Any, name: str, side: str, params: dict[str, Any]) -> int:
    """Every bearing's edge of the drawn reach: 90% of the way out is accepted; where the edge
    falls short of the whole move, 0.3" past it is refused. How many bearings the terrain cut."""
    view = engine.field_view(state, name)
    assert view is not None and view.focus is not None and view.focus.reach
    most = view.focus.move_left
    sx, sy = start_of(view)
    others = [(t.x, t.y, t.radius + 0.6) for t in view.tokens if t.name != name]
    cut = 0
    for x, y in view.focus.reach:
        d = math.hypot(x - sx, y - sy)
        assert d <= most + 1e-3
        ux, uy = ((x - sx) / d, (y - sy) / d) if d else (0.0, 0.0)
        for at, want in ((0.9 * d, True), (d + 0.3, False)):
            if (want and at < 0.2) or (not want and d > most - 0.3):
                continue
            px, py = sx + ux * at, sy + uy * at
            if any(math.hypot(px - ox, py - oy) < r for ox, oy, r in others):
                continue  # no move ends on another figure's base
            assert accepted(engine, state, side, params, px, py) is want, (name, px, py, want)
            cut += not want
    return cut


def no_reach(engine: Any, state: Any, name: str) -> None:
    view = engine.field_view(state, name)
    assert view is not None and view.focus is not None
    assert view.focus.reach == () and view.focus.move_left == 0


def test_ssg_reach_stops_at_the_barn_and_is_what_is_left() -> None:
    engine = ssg_engine()
    state = ssg.standing(engine, Rossi=(8.5, 12.0))
    assert check_reach(engine, state, "Rossi", "red", {"figure": "Rossi"}) > 0
    moved = ssg.play(engine, state, "move", figure="Rossi", to="8.5,9").state
    view = engine.field_view(moved, "Rossi")
    assert view is not None and view.focus is not None and view.focus.move_left == 1.0
    check_reach(engine, moved, "Rossi", "red", {"figure": "Rossi"})
    spent = ssg.play(engine, moved, "move", figure="Rossi", to="8.5,8").state
    no_reach(engine, spent, "Rossi")
    no_reach(engine, state, "Big Jim")  # blue waits for red's movement to end


def test_medieval_reach_goes_round_the_pond_and_none_when_prone() -> None:
    engine = medieval_engine()
    state = medieval.on_map(engine, Walt=(12.0, 5.0))
    assert check_reach(engine, state, "Walt", "red", {"figure": "Walt"}) > 0
    no_reach(engine, edit(engine, state, {"Walt": {"prone": True}}), "Walt")
    no_reach(engine, state, "Olaf")
    walked = medieval.play(engine, state, "move", figure="Walt", to="12,4").state
    acted = medieval.play(engine, walked, "activate", figure="Hugh").state
    no_reach(engine, acted, "Walt")  # done for this turn once Hugh is activated


def test_sharpe_reach_is_slowed_by_the_copse_and_only_for_the_man_to_act() -> None:
    engine: SharpeEngine = new_engine()
    state = sharpe.on_map(engine, Harris=(18.5, 15.0))
    assert check_reach(engine, state, "Harris", "british", {"figure": "Harris", "pace": "run"}) > 0
    no_reach(engine, state, "Dubois")


def test_nsr_reach_is_the_active_units_and_stops_at_a_unit_in_the_way() -> None:
    engine = nsr_engine()
    state = nsr.moved_on(engine, {"Hussars": "10,9"})
    assert check_reach(engine, state, "1er Ligne", "French", {"unit": "1er Ligne"}) > 0
    no_reach(engine, state, "33rd Foot")
