"""What every ruleset's picture marks the same way (issue 25): a figure out of the fight stays on
the map as a crossed disc, in SSG as in the medieval game."""

from __future__ import annotations

from rules.ssg.engine import make_engine as ssg_engine
from tests.rules import test_ssg_map as ssg


def test_a_removed_ssg_figure_is_drawn_crossed_where_it_fell() -> None:
    engine = ssg_engine()
    data = engine.dump_state(ssg.standing(engine, Rossi=(8.5, 12.0)))
    next(f for f in data["figures"] if f["name"] == "Rossi")["removed"] = True
    view = engine.field_view(engine.load_state(data))
    assert view is not None
    rossi = next(t for t in view.tokens if t.name == "Rossi")
    assert (rossi.x, rossi.y, rossi.marks) == (8.5, 12.0, ("out",))
