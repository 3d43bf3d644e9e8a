"""The seed's worked examples replayed on the shipped village map, with forced
dice: "eleven French Line (musket) fire at figures which are a Class I target. A 4 is rolled"
(seed, Firing C(1)), the range, sight and class measured; and a fight for a building, the
farmhouse, held by riflemen, charged and taken (A-NSR-41 to A-NSR-44).
"""

from __future__ import annotations

from rules.battlefield import load_scenario
from rules.core import Action
from rules.nsr import onmap, onmap_towns
from rules.nsr.deck import fresh_deck
from rules.nsr.engine import NsrEngine
from rules.nsr.state import NsrState
from tests.rules.test_nsr_helpers import ScriptedDice, act, events, get, refuse, texts, unit

SPECS = [
    unit("1er Ligne", "French", "line", figures=12),
    unit("33rd Foot", "Allied", "line", figures=12),
    unit("Rifles", "Allied", "light", figures=4, weapon="rifle"),
]
#: Where each unit is set out in its zone before a test moves it (the French south, the Allies north).
PLACES = {"1er Ligne": "10,4", "33rd Foot": "10,32", "Rifles": "40,32"}


def village(engine: NsrEngine, where: dict[str, tuple[float, float, float]], phase: str, active: str) -> NsrState:
    """The units placed on the village map, then stood where ``where`` says (centre and facing),
    ``active`` acting in ``phase`` on the 2 of spades with a fresh deck."""
    ground = load_scenario("rules.nsr", "village", engine.sides(), engine.terrain())
    state = engine.start_on_map(SPECS, ScriptedDice(), ground).state
    for name, at in PLACES.items():
        cards = ["2S"] if name == list(PLACES)[-1] else []
        params = {"figure": name, "at": at}
        state = engine.act(state, Action("place", get(state, name).side, params), ScriptedDice(cards=cards)).state
    field = onmap.field_of(state)
    for name, (x, y, facing) in where.items():
        field.positions[name] = [x, y]
        field.facing[name] = facing
    return staged(state, phase, active)


def staged(state: NsrState, phase: str, active: str) -> NsrState:
    state.phase = phase  # type: ignore[assignment]
    state.pending, state.active, state.card = None, active, "2S" if active else ""
    state.deck, state.discards = [c for c in fresh_deck() if c != "2S"], ["2S"]
    return state


def test_a_square_on_the_map_is_shot_at_as_close_order(engine: NsrEngine) -> None:
    """Seed 4.A: class II is open order ("minimum of one inch between each figure"); a square is
    close order, class I, whatever the close combat chart's own line for it."""
    state = village(engine, {"1er Ligne": (22.0, 8.0, 90.0), "33rd Foot": (22.0, 17.5, 270.0)}, "fire", "1er Ligne")
    get(state, "33rd Foot").formation = "square"
    assert onmap.target_class(engine.tables, state, get(state, "1er Ligne"), get(state, "33rd Foot")) == (
        "I",
        "close order in the open",
    )


def test_the_seeds_eleven_muskets_at_a_unit_in_the_open_on_the_village_map(engine: NsrEngine) -> None:
    """Seed, Firing C(1): eleven muskets (a line of twelve: its officer fires a pistol apart) at a
    line in the open on the high street, 8 inches from the front rank's heads to the target's
    front edge (over half the musket's 12, no +1); a 4 reads the 2-5 column, 1/4: two hits, one
    card each (A-NSR-4, A-NSR-8)."""
    state = village(engine, {"1er Ligne": (22.0, 8.0, 90.0), "33rd Foot": (22.0, 17.5, 270.0)}, "fire", "1er Ligne")
    assert onmap.target_class(engine.tables, state, get(state, "1er Ligne"), get(state, "33rd Foot")) == (
        "I",
        "close order in the open",
    )
    out = act(engine, state, "fire", "French", target="33rd Foot", dice=[4], cards=["2C", "5H", "KH"])
    [shot] = events(out, "fire")
    assert (shot["firers"], shot["class"], shot["range"], shot["die"], shot["modifiers"]) == (11, "I", 8.0, 4, [])
    assert (shot["column"], shot["fraction"], shot["hits"]) == ("2-5", "1/4", 2)
    assert (
        "1er Ligne fires at 33rd Foot: 11 muskets, class I, 8″ (from its nearest figure to 33rd Foot's edge); "
        "die 4 reads column 2-5: 1/4 → 2 hits."
    ) in texts(out)
    hits = events(out, "hit")
    assert [(h["card"], h["outcome"]) for h in hits] == [("2C", "light"), ("5H", "killed")]
    foot = get(out.state, "33rd Foot")
    assert (
        sum(f.status == "killed" for f in foot.figures) == 1 and sum(f.status == "wounded" for f in foot.figures) == 1
    )


def test_the_eleven_muskets_see_nothing_through_the_barn(engine: NsrEngine) -> None:
    """A-NSR-44: the same line with the barn between it and the target: nothing to fire at."""
    state = village(engine, {"1er Ligne": (15.0, 7.0, 90.0), "33rd Foot": (15.0, 18.0, 270.0)}, "fire", "1er Ligne")
    refuse(
        engine,
        state,
        "fire",
        "1er Ligne cannot fire at 33rd Foot: the barn is in the way.",
        "French",
        target="33rd Foot",
    )


def test_a_fight_for_the_farmhouse_on_the_village_map(engine: NsrEngine) -> None:
    """A-NSR-42 to A-NSR-43, A-NSR-41: four riflemen at the farmhouse's north door go in; the
    1er Ligne charges them from the south, closes in, and the riflemen stand; each rifleman loses
    his fight and runs (natural 4): shaken, they come out by the north door and fall back 4D6; the
    1er Ligne goes into the farmhouse."""
    state = village(engine, {"1er Ligne": (32.5, 6.0, 90.0), "Rifles": (32.5, 16.6, 270.0)}, "movement", "Rifles")
    out = act(engine, state, "occupy", "Allied", building="the farmhouse", cards=["KH"])
    assert "Rifles moves into the farmhouse: 4 of 24 places taken, over 1 floor." in texts(out)
    state = staged(out.state, "movement", "1er Ligne")
    out = act(engine, state, "charge", "French", target="Rifles", dice=[3, 3, 3], cards=["KH"])
    # the riflemen man the south wall (y 11): the charge stops 2 inches from it, its front at y 9
    assert "1er Ligne charges Rifles: 3D6 3+3+3 = 9 → 9″; it stops 2″ short" in texts(out)
    assert "it faces 90° and moves 2″ to 32.5,8." in texts(out)
    state = staged(out.state, "close_combat", "")
    out = act(engine, state, "melee", "French", dice=[1, 1] + [9, 4] * 4 + [3, 3, 3, 3] + [2, 2], cards=["AS"])
    text = texts(out)
    fights = events(out, "fight")
    assert len(fights) == 4 and all(
        "defending a building" in [m["reason"] for m in f["b"]["modifiers"]] for f in fights
    )
    assert all(f["outcome"] == "ran" for f in fights)
    assert "1er Ligne closes 2″ to 32.5,10." in text  # to touch the farmhouse's south wall
    assert "Rifles is shaken: it falls back 12″" in text and "comes out of the farmhouse by its door at 32.5,15" in text
    assert "1er Ligne goes into the farmhouse" in text
    ligne, rifles = get(out.state, "1er Ligne"), get(out.state, "Rifles")
    assert ligne.building == "the farmhouse" and rifles.building == ""
    rifles_at = onmap.placement_of(out.state, rifles)
    assert rifles_at is not None and rifles_at.centre.y > 15
    mark = onmap.unit_mark(out.state, ligne, engine.tables)
    assert mark is not None and mark.formation == "in the farmhouse"
    assert [b.name for b in out.state.buildings] == ["the farmhouse"]
    assert onmap_towns.inside(engine.tables, out.state, ligne) is not None
    assert engine.load_state(engine.dump_state(out.state)) == out.state
