"""NSR on the bot's map, at random (issue 17): random armies of every troop type (foot in line,
march column, square and open order; mounted; guns limbered or manhandled) set down at random
places and facings across a table of every kind of ground, then a battle of random orders with
random dice and cards: moves along random paths (to, via, toward, with a new formation or facing),
charges, reforms and turns, fire and volleys, close combats with their fall-backs, shaken units and
routs.

After every order, legal or refused: nothing but a RuleError is ever raised, and a refusal leaves
the state as it was; no two units' footprints overlap, none stands off the table, in water or in
a building; a unit leaves the map only when the rules say so (a rout, seed 4.B, A-NSR-38); and the
state is saved and read back the same. The readings are in docs/rules/nsr.md, "On the bot's map"
(A-NSR-32 … 41)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from typing import Any

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battlefield import MapData, battlefield_of
from rules.battlefield.formations import footprint, on_table, overlaps
from rules.battlefield.maps import read_map
from rules.core import Action, Event, FigureSpec, RuleError
from rules.geometry import Point
from rules.nsr import onmap
from rules.nsr.engine import NsrEngine
from rules.nsr.state import NsrState, Unit
from tests.rules.test_nsr_helpers import RandomDice, ScriptedDice, get, snapshot, unit
from tests.rules.test_nsr_map import TEST_MAP

#: 48 by 36 inches with ground of every sort a unit may cross, may not enter, or fights behind.
RANDOM_MAP: dict[str, Any] = {
    "name": "Random valley",
    "table": {"width": 48, "height": 36},
    "features": [
        {"kind": "road", "name": "the road", "area": [[0, 17], [48, 17], [48, 19], [0, 19]]},
        {"kind": "water", "name": "the pond", "area": [[30, 22], [36, 22], [36, 26], [30, 26]]},
        {"kind": "wood", "name": "the copse", "area": [[4, 10], [12, 10], [12, 15], [4, 15]]},
        {"kind": "hill", "name": "the knoll", "area": [[36, 8], [44, 8], [44, 14], [36, 14]]},
        {"kind": "rough", "name": "the field", "area": [[14, 21], [22, 21], [22, 26], [14, 26]]},
        {
            "kind": "building",
            "name": "the farm",
            "area": [[24, 10], [29, 10], [29, 14], [24, 14]],
            "openings": [{"kind": "door", "at": [26.5, 14]}, {"kind": "window", "at": [24, 12]}],
        },
        {"kind": "wall", "name": "the wall", "line": [[2, 24], [10, 24]]},
        {"kind": "hedge", "name": "the hedge", "line": [[38, 20], [46, 20]]},
    ],
    "zones": {
        "French": [[0, 0], [48, 0], [48, 8], [0, 8]],
        "Allied": [[0, 28], [48, 28], [48, 36], [0, 36]],
    },
}
#: Troop types and the figures a unit of each may have (a gun's crew is the type's own four).
TROOPS = {
    "line": (3, 16),
    "grenadiers": (3, 12),
    "light": (3, 12),
    "militia": (2, 10),
    "mounted": (2, 8),
    "guerillas": (2, 8),
    "artillery": (4, 4),
}
SIDES = ("French", "Allied")
#: Orders tried at random in the movement and fire phases ("door": a move to just outside the
#: farm's door, from where "occupy" takes the unit in, A-NSR-42).
MOVEMENT_ORDERS = ("move", "move", "charge", "charge", "form", "hold", "door", "occupy")
#: The farm's door on RANDOM_MAP, on its north wall.
DOOR = (26.5, 14.0)
FIRE_ORDERS = ("fire", "fire", "volley", "hold")
STEPS = 80


@dataclass(frozen=True)
class Spot:
    """Where a unit is set down after deployment, if the ground lets it: a centre, a facing, and
    an index into the formations its type may take."""

    x: float
    y: float
    facing: float
    shape: int
    #: Set down just outside the farm's door instead (x then the offset along the wall, y unused).
    at_door: bool = False


def army_specs(draw: st.DrawFn) -> list[FigureSpec]:
    specs: list[FigureSpec] = []
    for side in SIDES:
        kinds = draw(st.lists(st.sampled_from(sorted(TROOPS)), min_size=1, max_size=3))
        for n, kind in enumerate(kinds):
            low, high = TROOPS[kind]
            stats = {} if kind == "artillery" else {"figures": draw(st.integers(low, high))}
            specs.append(unit(f"{side[:2]} {kind} {n}", side, kind, **stats))
    return specs


spots = st.builds(
    Spot,
    x=st.floats(0, 48),
    y=st.floats(0, 36),
    facing=st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0]), st.floats(0, 360)),
    shape=st.integers(0, 3),
    at_door=st.booleans(),
)


@st.composite
def battles(draw: st.DrawFn) -> tuple[list[FigureSpec], list[Spot], int]:
    specs = army_specs(draw)
    return specs, draw(st.lists(spots, min_size=len(specs), max_size=len(specs))), draw(st.integers(0, 10**6))


def the_map(engine: NsrEngine) -> MapData:
    return read_map(RANDOM_MAP, engine.sides(), engine.terrain())


def formations_of(engine: NsrEngine, u: Unit) -> list[str]:
    return sorted(engine.tables.movement_dice[u.troop])


def set_down(engine: NsrEngine, state: NsrState, u: Unit, spot: Spot) -> None:
    """Moves ``u`` to ``spot`` when the ground there is free (checked as A-NSR-33 checks a place,
    without the zone); else it stays where /map deploy set it."""
    shapes = formations_of(engine, u)
    placed = onmap.placement_of(
        state, u, centre=Point(spot.x, spot.y), facing=spot.facing, formation=shapes[spot.shape % len(shapes)]
    )
    assert placed is not None
    if spot.at_door:
        _, bottom, _, top = footprint(placed, onmap.SPEC).bounds
        centre = Point(DOOR[0] + spot.x / 48 - 0.5, DOOR[1] + 0.1 + (top - bottom) / 2)
        placed = replace(placed, centre=centre)
        spot = replace(spot, x=centre.x, y=centre.y)
    try:
        onmap.check_ground(engine.tables, state, u, placed)
    except RuleError:
        return
    field = onmap.field_of(state)
    field.positions[u.name] = [round(spot.x, 2), round(spot.y, 2)]
    field.facing[u.name] = round(spot.facing, 4)
    u.formation = placed.formation


def set_out(engine: NsrEngine, specs: list[FigureSpec], where: list[Spot], dice: RandomDice) -> NsrState:
    state = engine.start_on_map(specs, dice, the_map(engine)).state
    for side in SIDES:
        state = engine.act(state, Action("deploy", side, {}), dice).state
    assert state.phase == "movement"
    for u, spot in zip(state.units, where, strict=True):
        set_down(engine, state, u, spot)
    check_the_ground(engine, state, on_map_before=set())
    return state


def on_the_map(state: NsrState) -> set[str]:
    return set(onmap.field_of(state).positions)


def check_the_ground(engine: NsrEngine, state: NsrState, on_map_before: set[str]) -> None:
    """No overlap, nothing off the table, in water or in a building (but a unit occupying it, whose
    ground is the building's outline, as :func:`onmap.footprints` has it), and only a routed unit
    gone from the map."""
    ground = battlefield_of(onmap.field_of(state).map)
    closed = [f for f in ground.features if engine.tables.terrain[f.kind].move_cost is None]
    shapes: dict[str, Any] = {}
    for u in state.units:
        placed = onmap.placement_of(state, u)
        if placed is None:
            continue
        assert on_table(placed, ground.table, onmap.SPEC), f"{u.name} stands off the table"
        if u.building:  # A-NSR-42: its ground is the building's, closed to every other unit already
            home = next(f for f in closed if f.name == u.building)
            assert home.geometry.covers(shapely.Point(placed.centre.x, placed.centre.y)), (
                f"{u.name} holds {u.building} from outside"
            )
            continue
        shapes[u.name] = footprint(placed, onmap.SPEC)
        for f in closed:
            assert not overlaps(shapes[u.name], f.geometry), f"{u.name} stands in {f.label}"
    for (a, pa), (b, pb) in itertools.combinations(shapes.items(), 2):
        assert not overlaps(pa, pb), f"{a} overlaps {b}"
    for name in on_map_before - on_the_map(state):
        gone = get(state, name)
        assert gone.routed or onmap.with_the_unit(gone) == 0, f"{name} left the table without routing"


def a_point(rng: random.Random) -> str:
    return f"{rng.uniform(-2, 50):.2f},{rng.uniform(-2, 38):.2f}"


def enemies(state: NsrState, u: Unit) -> list[Unit]:
    return [e for e in state.units if e.side != u.side and e.name in onmap.field_of(state).positions]


def an_order(engine: NsrEngine, state: NsrState, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random order for the unit acting now, sensible or not: the engine says which are legal."""
    if state.phase == "close_combat":
        return "melee", {}
    me = get(state, state.active)
    foes = enemies(state, me)
    nearest = onmap.nearest_enemy(state, me)
    if nearest is not None and rng.random() < 0.6:  # most often at the nearest enemy, so they close
        foes = [nearest]
    order = rng.choice(FIRE_ORDERS if state.phase == "fire" else MOVEMENT_ORDERS)
    params: dict[str, Any] = {}
    if order in ("fire", "volley", "charge"):
        return order, {"target": rng.choice(foes).name} if foes else {}
    if order == "occupy":
        return order, {"building": "the farm"}
    if order == "door":
        placed = onmap.placement_of(state, me)
        if placed is None:
            return "hold", {}
        _, bottom, _, top = footprint(placed, onmap.SPEC).bounds
        return "move", {"to": f"{DOOR[0] + rng.uniform(-1, 1):.2f},{DOOR[1] + 0.2 + (top - bottom) / 2:.2f}"}
    if order == "form":
        params["formation"] = rng.choice(formations_of(engine, me))
        if rng.random() < 0.5:
            params["facing"] = str(rng.choice([0, 45, 90, 135, 180, 225, 270, 315, rng.uniform(0, 360)]))
        return order, params
    if order == "move":
        if foes and rng.random() < 0.4:
            params = {"toward": rng.choice(foes).name}
            if rng.random() < 0.5:
                params["distance"] = rng.randint(1, 12)
        else:
            params["to"] = a_point(rng)
            if rng.random() < 0.3:
                params["via"] = a_point(rng)
        if rng.random() < 0.2:
            params["formation"] = rng.choice(formations_of(engine, me))
        if rng.random() < 0.2:
            params["facing"] = str(rng.randint(0, 359))
        return order, params
    return "hold", {}


def act_or_refuse(engine: NsrEngine, state: NsrState, order: str, params: dict[str, Any], dice: RandomDice) -> NsrState:
    before = snapshot(engine, state)
    try:
        return engine.act(state, Action(order, None, params, True), dice).state
    except RuleError as refused:
        assert "\n" not in refused.message and refused.message.strip(), refused.message
        assert snapshot(engine, state) == before, f"{order} {params} was refused but changed the state"
        return state


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(battle=battles())
def test_random_armies_keep_apart_and_on_the_table_through_random_orders(
    engine: NsrEngine, battle: tuple[list[FigureSpec], list[Spot], int]
) -> None:
    specs, where, seed = battle
    dice, rng = RandomDice(seed), random.Random(seed)
    state = set_out(engine, specs, where, dice)
    for _ in range(STEPS):
        if engine.finished(state):
            break
        placed = on_the_map(state)
        waiting = engine.pending(state)
        if waiting is not None:
            answer = {"choice": rng.choice(waiting.choices).value}
            state = engine.act(state, Action(waiting.resume_action, waiting.decider, answer), dice).state
        else:
            order, params = an_order(engine, state, rng)
            after = act_or_refuse(engine, state, order, params, dice)
            if after is state:  # refused: the unit holds (or the combat is fought as it stands)
                after = act_or_refuse(engine, state, "melee" if state.phase == "close_combat" else "hold", {}, dice)
            state = after
        check_the_ground(engine, state, placed)
        assert engine.load_state(engine.dump_state(state)) == state


def test_a_move_toward_a_unit_stops_clear_of_it_once_its_centre_is_rounded(engine: NsrEngine) -> None:
    """Found by the test above: a limbered gun at 315° moving toward a line stopped where the
    footprints touched to a millionth of a square inch, then its centre, saved to 4 places, stood
    1.05e-6 square inches on the line's ground. It stops a hair short, as fall-backs do (A-NSR-35)."""
    specs = [
        unit("Guns", "French", "artillery"),
        unit("Hussars", "French", "mounted", figures=4),
        unit("33rd Foot", "Allied", "line", figures=8),
        unit("95th", "Allied", "light", figures=4),
    ]
    dice = RandomDice(0)
    state = engine.start_on_map(specs, dice, read_map(TEST_MAP, engine.sides(), engine.terrain())).state
    for side in SIDES:
        state = engine.act(state, Action("deploy", side, {}), dice).state
    field = onmap.field_of(state)
    field.positions["Guns"], field.facing["Guns"] = [23.9, 18.8], 315.0
    field.positions["33rd Foot"], field.facing["33rd Foot"] = [27.4, 12.4], 90.0
    state.pending, state.active = None, "Guns"
    check_the_ground(engine, state, on_the_map(state))
    out = engine.act(state, Action("move", "French", {"toward": "33rd Foot"}), ScriptedDice([6, 6, 6], ["KH"]))
    assert "moves 2.9″ to 25.31,16.23" in out.events[0].text
    check_the_ground(engine, out.state, on_the_map(state))


def test_a_joker_fall_back_out_of_a_building_with_the_enemy_far_off(engine: NsrEngine) -> None:
    """Found by the test above once units could go into the farm: Joker Movement 3 for a unit
    inside a building aimed its way out at a point a hundred times its distance from the nearest
    enemy (1,584 inches off the table for an enemy 18 inches away), and a DataError, not a
    sentence, came out. The point is now a hundred inches off, however far the enemy (A-NSR-43)."""
    from rules.nsr.movement import joker_movement
    from tests.rules.test_nsr_map_towns import inside

    state = inside(engine, {"33rd Foot": "23,34"})
    log: list[Event] = []
    joker_movement(engine.charts, state, get(state, "1er Ligne"), "BJ", ScriptedDice([3, 2, 2]), log)
    assert "1er Ligne falls back 4″: it comes out of the farmhouse by its door at 23,14" in log[-1].text
    assert get(state, "1er Ligne").building == ""
    check_the_ground(engine, state, on_the_map(state))


def test_a_routed_unit_hemmed_in_a_building_still_holds_it(engine: NsrEngine) -> None:
    """Found by the test above (A-NSR-43: a routed unit goes out by the door nearest the edge,
    "hemmed in, it stays inside"). The 1er Ligne, inside the farmhouse with the 33rd Foot on the
    ground outside its only door, routs at critical morale: it stays at 23,16 in the farmhouse and
    still holds it; its rout move waits inside while the door is blocked, and comes out by the door
    once the ground outside is clear."""
    from rules.nsr import morale
    from tests.rules.test_nsr_map_towns import inside

    state = inside(engine, {"33rd Foot": "10,32"})
    onmap.field_of(state).positions["33rd Foot"] = [23.0, 12.9]
    ligne = get(state, "1er Ligne")
    for figure in [f for f in ligne.figures if not f.leader][:7]:
        figure.status = "killed"
    log: list[Event] = []
    morale.critical(engine.charts, state, ligne, ScriptedDice([6, 6]), log)
    assert ligne.routed and "routed!" in log[0].text
    assert onmap.field_of(state).positions["1er Ligne"] == [23.0, 16.0]
    assert ligne.building == "the farmhouse"
    hemmed: list[Event] = []
    morale.rout_moves(engine.charts, state, ScriptedDice([]), hemmed)
    assert [e.text for e in hemmed] == ["1er Ligne is routed but hemmed in the farmhouse: it stays inside this turn."]
    onmap.field_of(state).positions["33rd Foot"] = [10.0, 32.0]
    out: list[Event] = []
    morale.rout_moves(engine.charts, state, ScriptedDice([1, 1, 1, 1]), out)
    assert ligne.building == "" and out[0].text.startswith("1er Ligne routs 4″ towards the nearest table edge: it ")
    assert onmap.field_of(state).positions["1er Ligne"] != [23.0, 16.0]
