"""Artillery on the bot's map (issue 17; seed 19, Artillery pieces): a gun placed and deployed on its
own base (A-SHARPE-47), fired and loaded by a man at it with the shot measured from the gun and the
automatic hit under 10 inches from the measured distance (A-SHARPE-48), hauled at a crawl
(A-SHARPE-49), drawn with its range bands."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.battlefield import MapData, read_map
from rules.battlefield.field import MEASURE_TOLERANCE
from rules.core import RuleError
from rules.geometry import CONTACT_TOLERANCE
from rules.sharpe import onmap
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.state import SharpeState
from tests.dice import ScriptedDice
from tests.rules.test_sharpe_helpers import begin, char, fig, new_engine, play, refused, texts
from tests.rules.test_sharpe_map import TEST_MAP

SPECS = [
    fig("Gunner", "british", "artillery_crew", I=6, D=4, S=4, C=4),
    fig("Mate", "british", "artillery_crew", I=5),
    fig("Old Bess", "british", "gun", F=6),
    fig("Dubois", "french", "voltigeur", I=2),
    fig("Leroux", "french", "officer", I=1),
]


@pytest.fixture
def engine() -> SharpeEngine:
    return new_engine()


def the_map(engine: SharpeEngine) -> MapData:
    return read_map(TEST_MAP, engine.sides(), engine.terrain())


def deploying(engine: SharpeEngine) -> SharpeState:
    return engine.start_on_map(SPECS, ScriptedDice(), the_map(engine)).state


def at_the_gun(engine: SharpeEngine, **where: tuple[float, float]) -> SharpeState:
    """Everyone placed: Old Bess at (20,3) facing north, the Gunner touching it on its west, the
    Mate further off; the Gunner acts first."""
    state = deploying(engine)
    spots = {
        "Old Bess": (20.0, 3.0),
        "Gunner": (18.4, 3.0),
        "Mate": (30.0, 3.0),
        "Dubois": (20.0, 23.0),
        "Leroux": (40.0, 33.0),
    }
    spots.update(where)
    assert state.field is not None
    for name, (x, y) in spots.items():
        state.field.positions[name] = [x, y]
        state.field.facing[name] = 270.0 if name in ("Dubois", "Leroux") else 90.0
    state.order = ["Gunner", "Mate", "Dubois", "Leroux"]
    state.active = "Gunner"
    return state


def round_trip(engine: SharpeEngine, state: SharpeState) -> None:
    data = json.loads(json.dumps(engine.dump_state(state)))
    assert engine.dump_state(engine.load_state(data)) == engine.dump_state(state)
    assert engine.state_problems(state) == []


# --- placing and deploying (A-SHARPE-47)


def test_a_roster_with_a_gun_plays_on_the_map_and_the_gun_is_placed_a_sharpe_47(engine: SharpeEngine) -> None:
    started = engine.start_on_map(SPECS, ScriptedDice(), the_map(engine))
    assert "bases 1.2″ across, a gun's 2″" in started.events[0].text
    state = started.state
    assert [g.name for g in state.guns] == ["Old Bess"] and engine.whose_turn(state) == "british"
    assert engine.tables.map.gun_base_radius == 1.0
    out = play(engine, state, "place", figure="Old Bess", at="20,3")
    field = out.state.field
    assert field is not None and field.positions["Old Bess"] == [20.0, 3.0]
    assert 0 < field.facing["Old Bess"] < 180  # it faces the French zone to the north
    refused(engine, out.state, "place", "Old Bess", figure="Gunner", at="21,3")  # on the gun's base
    refused(engine, out.state, "move", "once every character and gun is on the map: still to place Gunner", to="5,8")
    out = play(engine, out.state, "deploy", side="british")
    out = play(engine, out.state, "deploy", 6, 5, 4, 3, side="french")
    assert any(e.kind == "deployment-done" for e in out.events)
    assert sorted(out.state.order) == ["Dubois", "Gunner", "Leroux", "Mate"]  # a gun has no turn
    view = engine.field_view(out.state)
    assert view is not None
    [token] = [t for t in view.tokens if t.name == "Old Bess"]
    assert token.radius == 1.0 and token.side == "british" and token.marks == ()
    round_trip(engine, out.state)


def test_done_while_deploying_sets_out_the_gun_too(engine: SharpeEngine) -> None:
    state = deploying(engine)
    state = play(engine, state, "place", figure="Gunner", at="5,3").state
    state = play(engine, state, "place", figure="Mate", at="8,3").state
    assert state.field is not None and "Old Bess" not in state.field.positions
    out = play(engine, state, "done", side="british")
    assert out.state.field is not None and "Old Bess" in out.state.field.positions
    assert engine.whose_turn(out.state) == "french"


def test_a_gun_takes_up_room(engine: SharpeEngine) -> None:
    state = at_the_gun(engine, Mate=(23.0, 3.0))
    state.active = "Mate"
    state.order = ["Mate", "Gunner", "Dubois", "Leroux"]
    refused(engine, state, "move", "the way round Old Bess and Gunner", pace="walk", to="17,3")


def test_artillery_switched_off_leaves_the_gun_at_home() -> None:
    engine = new_engine(artillery=False)
    state = engine.start_on_map(SPECS, ScriptedDice(), the_map(engine)).state
    assert state.guns == [] and "Old Bess" not in engine.field_view(state).field.positions  # type: ignore[union-attr]


# --- firing (A-SHARPE-48)


def test_a_gun_shot_is_measured_from_the_gun_a_sharpe_48(engine: SharpeEngine) -> None:
    state = at_the_gun(engine, Dubois=(20.0, 28.0))  # 25.0″ from the gun, 25.1″ from the Gunner
    out = play(engine, state, "shoot", 6, 5, gun="Old Bess", target="Dubois")
    shot = texts(out, "shot")[0]
    assert "Gunner fires Old Bess at Dubois (25.0″ measured, in the open)" in shot
    assert "skill 6 −1 range 25″ = 5 · 2D6 = 11 > 5: miss" in shot
    assert not out.state.guns[0].loaded
    field = out.state.field
    assert field is not None and field.facing["Old Bess"] == pytest.approx(90.0)
    view = engine.field_view(out.state)
    assert view is not None and next(t for t in view.tokens if t.name == "Old Bess").marks == ("no ammo",)
    round_trip(engine, out.state)


@pytest.mark.parametrize(("y", "automatic"), [(12.9, True), (13.0, False)])
def test_canister_under_ten_inches_is_an_automatic_hit_by_the_measured_distance(
    engine: SharpeEngine, y: float, automatic: bool
) -> None:
    """19: "Firing at a range less than 10 inches it will be considered an automatic hit"."""
    state = at_the_gun(engine, **{"Old Bess": (10.0, 3.0), "Gunner": (8.4, 3.0), "Dubois": (10.0, y)})
    if automatic:
        # no to-hit roll: 1D6+1 wounds (2 → 3 wounds) on Dubois, each the legs and 2D6 2: no effect
        out = play(engine, state, "shoot", 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, gun="Old Bess", target="Dubois")
        shot = texts(out, "shot")[0]
        assert "(9.9″ measured, in the open): at 9.9″ an automatic hit · 3 wounds (D6 2 + 1)" in shot
        assert len(texts(out, "shot")) == 4 and char(out.state, "Dubois").suppressed_bound == 1
    else:
        out = play(engine, state, "shoot", 6, 6, gun="Old Bess", target="Dubois")
        shot = texts(out, "shot")[0]
        assert "automatic" not in shot and "10.0″ measured" in shot and "misfire" in shot


def test_the_man_who_fires_a_gun_stands_at_it(engine: SharpeEngine) -> None:
    state = at_the_gun(engine, Gunner=(16.0, 3.0))
    message = refused(engine, state, "shoot", "must stand at Old Bess to fire it", gun="Old Bess", target="Dubois")
    assert message == "Gunner must stand at Old Bess to fire it (bases touching): he is 2.4″ from it."
    refused(engine, state, "shoot", "leave range: out", gun="Old Bess", target="Dubois", range=20)


def test_a_gun_sees_as_a_musket_does(engine: SharpeEngine) -> None:
    state = at_the_gun(engine, Dubois=(25.0, 22.0))  # the copse stands between
    refused(
        engine, state, "shoot", "Old Bess cannot see Dubois: the copse is in the way", gun="Old Bess", target="Dubois"
    )


def test_a_gun_shot_at_a_man_behind_a_wall_meets_hard_cover(engine: SharpeEngine) -> None:
    state = at_the_gun(engine, **{"Old Bess": (4.0, 26.0), "Gunner": (2.4, 26.0), "Dubois": (11.0, 26.0)})
    # 7.0″: an automatic hit, D6 1 → 2 wounds; the legs behind the wall, then the chest 2D6 3.
    out = play(engine, state, "shoot", 1, 1, 5, 1, 2, gun="Old Bess", target="Dubois")
    lines = texts(out, "shot")
    assert "(7.0″ measured, hard cover: the wall, from his right)" in lines[0] and "2 wounds" in lines[0]
    assert "legs is behind hard cover: miss" in lines[1]


# --- loading and hauling (A-SHARPE-49)


def test_loading_on_the_map_needs_the_loader_at_the_gun(engine: SharpeEngine) -> None:
    state = at_the_gun(engine)
    state.guns[0].loaded = False
    out = play(engine, state, "load")
    assert "Gunner works at loading Old Bess" in texts(out, "reload")[0]
    state.active, state.order = "Mate", ["Mate", "Gunner", "Dubois", "Leroux"]
    refused(engine, state, "load", "Mate must stand at Old Bess to load it")


def test_hauling_a_gun_at_a_crawl_a_sharpe_49(engine: SharpeEngine) -> None:
    state = at_the_gun(engine)
    out = play(engine, state, "haul", to="20,6")
    assert texts(out, "haul") == [
        "Gunner hauls Old Bess 3.0″ to 20.0,6.0 at a crawl (0.0″ left): it fires next bound at the earliest."
    ]
    field = out.state.field
    assert field is not None and field.positions["Old Bess"] == [20.0, 6.0] and field.positions["Gunner"] == [18.4, 6.0]
    assert char(out.state, "Gunner").moved_bound == 1
    refused(engine, out.state, "shoot", "was hauled this bound", gun="Old Bess", target="Dubois")
    refused(engine, out.state, "haul", "has moved this bound", to="20,7")
    round_trip(engine, out.state)


def test_a_haul_the_map_refuses(engine: SharpeEngine) -> None:
    state = at_the_gun(engine)
    refused(engine, state, "haul", "has 3.0″ of movement left", to="20,7")
    refused(engine, state, "haul", "haul has no option “toward”: it takes to, via, gun and figure", toward="Dubois")
    refused(engine, state, "haul", "say where Old Bess goes")
    far = at_the_gun(engine, Gunner=(16.0, 3.0))
    refused(engine, far, "haul", "Gunner must stand at Old Bess to haul it", to="20,5")
    walled = at_the_gun(engine, **{"Old Bess": (8.5, 26.0), "Gunner": (6.9, 26.0)})
    refused(engine, walled, "haul", "cannot be hauled over the wall", to="11,26")
    shot = play(engine, state, "shoot", 6, 5, gun="Old Bess", target="Dubois").state
    refused(engine, shot, "haul", "has been busy this bound", to="20,5")


def test_hauling_is_for_the_map() -> None:
    engine = new_engine()
    state = begin(engine, list(SPECS))
    refused(engine, state, "haul", "/sharpe haul is for a battle on the bot's map", to="20,5")


def test_the_focus_on_a_gun_draws_its_range_bands(engine: SharpeEngine) -> None:
    view = engine.field_view(at_the_gun(engine), "old bess")
    assert view is not None and view.focus is not None and view.focus.name == "Old Bess"
    assert [(b.label, b.inches) for b in view.focus.bands] == [
        ("Old Bess automatic hit", 10.0),
        ("Old Bess no modifier", 24.0),
        ("Old Bess −1", 36.0),
        ("Old Bess −2", 48.0),
    ]


def test_the_picture_draws_the_gun_and_its_bands(engine: SharpeEngine) -> None:
    from bot.render.battlefield import draw_field
    from bot.render.field_text import field_text

    view = engine.field_view(at_the_gun(engine), "Old Bess")
    assert view is not None
    assert draw_field(view, engine.terrain()).startswith(b"\x89PNG")
    assert "Old Bess" in field_text(view, engine.terrain())


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(x=st.floats(0.0, 48.0), y=st.floats(0.0, 36.0))
@example(x=19.5, y=0.0)
def test_a_haul_is_refused_or_keeps_everyone_on_the_table_and_apart(engine: SharpeEngine, x: float, y: float) -> None:
    state = at_the_gun(engine, Mate=(21.5, 5.0))
    try:
        out = play(engine, state, "haul", to=f"{x:.2f},{y:.2f}")
    except RuleError as refused_haul:
        assert "\n" not in refused_haul.message
        return
    field = out.state.field
    assert field is not None
    gun, man = field.positions["Old Bess"], field.positions["Gunner"]
    # A path up to MEASURE_TOLERANCE past the 3″ left is made (CI found 3.04″ to a point typed to tenths).
    assert math.dist(gun, [20.0, 3.0]) <= 3.0 + MEASURE_TOLERANCE + 1e-6
    assert math.dist(man, [18.4, 3.0]) == pytest.approx(math.dist(gun, [20.0, 3.0]))
    radii = onmap.radii(engine.tables, out.state)
    for name, (px, py) in field.positions.items():
        assert 0 <= px <= 48 and 0 <= py <= 36, name
        for other, (qx, qy) in field.positions.items():
            if other < name:
                # Bases within the shared contact tolerance touch (a player's hand is not exact).
                gap = math.dist((px, py), (qx, qy)) - radii[name] - radii[other]
                assert gap >= -CONTACT_TOLERANCE - 1e-9, (name, other, gap)
