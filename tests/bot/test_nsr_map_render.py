"""What the shell shows of an NSR battle on the map (A-NSR-40): the terminal's text lists each unit;
the picture of ``/map show focus:`` a unit draws its reach, range bands and sight from its block's
centre, the block ringed."""

from __future__ import annotations

from bot.render.battlefield import draw_field
from bot.render.field_text import field_text
from rules.battlefield import FieldView, load_scenario
from rules.core import Action
from rules.nsr.engine import NsrEngine, make_engine
from tests.rules.test_nsr_helpers import ScriptedDice, unit


def on_the_village(engine: NsrEngine, focus: str | None = None) -> FieldView:
    """The 1er Ligne and the 33rd Foot set out facing each other on the village, the first card turned."""
    ground = load_scenario("rules.nsr", "village", engine.sides(), engine.terrain())
    specs = [unit("1er Ligne", "French", "line", figures=8), unit("33rd Foot", "Allied", "line", figures=8)]
    state = engine.start_on_map(specs, ScriptedDice(), ground).state
    state = engine.act(state, Action("place", "French", {"figure": "1er Ligne", "at": "39.5,6"}), ScriptedDice()).state
    placed = Action("place", "Allied", {"figure": "33rd Foot", "at": "39.5,30"})
    state = engine.act(state, placed, ScriptedDice(cards=["2S"])).state
    if focus is not None:
        state = engine.act(state, Action("choose", "French", {"choice": focus}), ScriptedDice()).state
    view = engine.field_view(state, focus)
    assert view is not None and {m.name for m in view.units} == {"1er Ligne", "33rd Foot"}
    return view


def test_the_terminal_lists_each_unit_on_the_map() -> None:
    engine = make_engine()
    text = field_text(on_the_village(engine), engine.terrain())
    assert "1er Ligne" in text and "33rd Foot" in text
    assert "No figure is on the map yet." not in text


def test_the_picture_draws_a_focused_units_reach_and_ranges() -> None:
    engine = make_engine()
    focused = on_the_village(engine, "1er Ligne")
    assert focused.focus is not None and focused.focus.move_left == 12 and focused.focus.reach
    assert [b.label for b in focused.focus.bands] == ["musket half range", "musket range"]
    assert draw_field(focused, engine.terrain()) != draw_field(on_the_village(engine), engine.terrain())
