"""What every ruleset's picture marks the same way (issue 25): a figure out of the fight stays on
the map as a crossed disc, in SSG as in the medieval game; cavalry, a rider or a mounted unit's
figures, is drawn in a diamond, so it does not look like infantry."""

from __future__ import annotations

from bot.render.battlefield import INK, where_drawn
from rules.battlefield import Token
from rules.medieval.engine import make_engine as medieval_engine
from rules.nsr.engine import make_engine as nsr_engine
from rules.ssg.engine import make_engine as ssg_engine
from tests.bot.test_battlefield_render import crossroads_view, near, picture, pixel
from tests.rules import test_medieval_map as medieval
from tests.rules import test_nsr_map as nsr
from tests.rules import test_sharpe_map as sharpe
from tests.rules import test_ssg_map as ssg
from tests.rules.test_sharpe_helpers import new_engine


def test_a_removed_ssg_figure_is_drawn_crossed_where_it_fell() -> None:
    engine = ssg_engine()
    data = engine.dump_state(ssg.standing(engine, Rossi=(8.5, 12.0)))
    next(f for f in data["figures"] if f["name"] == "Rossi")["removed"] = True
    view = engine.field_view(engine.load_state(data))
    assert view is not None
    rossi = next(t for t in view.tokens if t.name == "Rossi")
    assert (rossi.x, rossi.y, rossi.marks) == (8.5, 12.0, ("out",))


def test_cavalry_is_drawn_in_a_diamond_where_infantry_is_a_plain_disc() -> None:
    view = crossroads_view(
        (Token("Hussar", "red", 10.0, 10.0, 0.5, mounted=True), Token("Rifleman", "red", 20.0, 10.0, 0.5))
    )
    image = picture(view)
    scale = where_drawn(view, 1, 0)[0] - where_drawn(view, 0, 0)[0]
    for name, x, want in (("Hussar", 10.0, True), ("Rifleman", 20.0, False)):
        px, py = where_drawn(view, x, 10.0)
        tip = (px, py - round(0.5 * scale + 8))  # above the disc, inside the diamond's top point
        assert near(pixel(image, tip), INK, 40) is want, name


def test_an_nsr_mounted_unit_is_marked_mounted() -> None:
    engine = nsr_engine()
    view = engine.field_view(nsr.on_the_map(engine, nsr.PLACES))
    assert view is not None
    assert {u.name: u.mounted for u in view.units} == {
        "1er Ligne": False,
        "Hussars": True,
        "33rd Foot": False,
        "95th": False,
    }


def test_every_title_says_the_turn_or_phase_and_who_acts() -> None:
    ssg_, sharpe_, medieval_, nsr_ = ssg_engine(), new_engine(), medieval_engine(), nsr_engine()
    views = [
        ssg_.field_view(ssg.standing(ssg_)),
        sharpe_.field_view(sharpe.on_map(sharpe_)),
        medieval_.field_view(medieval.on_map(medieval_)),
        nsr_.field_view(nsr.on_the_map(nsr_, nsr.PLACES)),
    ]
    assert [view.heading if view else None for view in views] == [
        "Test ground · turn 1 · movement · red to act",
        "Test ground · bound 1 · Harris (british) to act",
        "Test field · turn 1 · red to act",
        "Test valley · turn 1 · movement · 1er Ligne to act",
    ]
