"""Fighting in towns (MOUT): buildings, occupying them, loopholes and breaches by hand and by gun."""

from __future__ import annotations

from rules.core import Event
from rules.nsr.engine import NsrEngine
from rules.nsr.state import Building
from rules.nsr.towns import credit_work
from tests.rules.test_nsr_helpers import (
    NEXT,
    ScriptedDice,
    act,
    get,
    refuse,
    stage,
    texts,
    unit,
)


def town(engine: NsrEngine, kind: str = "line", phase: str = "movement", **stats):
    specs = [unit("Workers", "French", kind, **stats), unit("33rd Foot", "Allied", "line", figures=12)]
    state = stage(engine, specs, phase, "Workers")
    state.buildings.append(Building("Farm", roof=4, storeys=3, windows=3, doors=1))
    return state


def test_describing_a_building(engine: NsrEngine) -> None:
    """MOUT: figures on the roof x storeys may be inside; 12 in 3 floors is 4 a floor."""
    state = town(engine)
    out = act(engine, state, "building", name="Mill", roof=4, storeys=3, windows=2)
    mill = out.state.buildings[-1]
    assert (mill.name, mill.capacity, mill.windows) == ("Mill", 12, 2)
    assert "12 figures inside at most (4 a floor, 3 storeys)" in texts(out)
    assert out.state.active == "Workers"  # describing a building takes nobody's activation
    refuse(engine, state, "building", "storeys", name="Tower", roof=2, storeys=0)
    refuse(engine, state, "building", "name", name=" ", roof=2, storeys=1)


def test_a_building_is_described_while_a_card_waits_for_its_choice(engine: NsrEngine) -> None:
    """Describing a building is no one's turn (a free action): the card's choice still waits, and
    the outcome asks nothing new of the shell (its decision is already open)."""
    specs = [unit("Workers", "French", "line", figures=12), unit("33rd Foot", "Allied", "line", figures=12)]
    waiting = engine.start(specs, ScriptedDice(cards=["7C"])).state  # a black card: the French choose
    assert waiting.pending is not None
    refuse(engine, waiting, "hold", "Waiting for French to choose a unit")
    out = act(engine, waiting, "building", side="Allied", name="Mill", roof=4, storeys=3)
    assert [b.name for b in out.state.buildings] == ["Mill"]
    assert out.pending is None and out.state.pending == waiting.pending
    assert engine.pending(out.state) == engine.pending(waiting)


def test_occupying_checks_the_room_left(engine: NsrEngine) -> None:
    out = act(engine, town(engine, figures=12), "occupy", building="farm", cards=[NEXT])
    assert get(out.state, "Workers").building == "Farm" and "12 of 12 places taken, over 3 floors" in texts(out)
    refuse(engine, town(engine, figures=13), "occupy", "do not fit", building="Farm")
    refuse(engine, town(engine), "occupy", "no building called", building="Castle")
    state = town(engine)
    get(state, "33rd Foot").building = "Farm"
    refuse(engine, state, "occupy", "holds Farm", building="Farm")


def test_a_loophole_takes_ten_figure_turns_or_seven_for_a_sapper(engine: NsrEngine) -> None:
    state = town(engine, figures=6)
    refuse(engine, state, "work", "must be inside", building="Farm", task="loophole")
    get(state, "Workers").building = "Farm"
    out = act(engine, state, "work", building="Farm", task="loophole", cards=[NEXT])
    assert "10 more turns" in texts(out)
    assert [f.name for f in get(out.state, "Workers").figures if f.duty == "working"] == ["Private 1"]
    sapper = town(engine, figures=6, sappers=1)
    get(sapper, "Workers").building = "Farm"
    out = act(engine, sapper, "work", building="Farm", task="loophole", cards=[NEXT])
    assert "7 figure-turns" in texts(out) and "7 more turns" in texts(out)
    log: list[Event] = []
    credit_work(engine.charts, out.state, log)
    assert out.state.buildings[0].progress["loophole"] == "1/7"
    assert get(out.state, "Workers").work is None and "1/7 done" in log[0].text


def test_a_breach_by_hand_goes_faster_with_more_workers(engine: NsrEngine) -> None:
    """The breach table's line/light row: a door in 7 figure-turns; 4 workers finish in two turns."""
    state = town(engine, figures=8)
    refuse(engine, state, "work", "from 1 to 6", building="Farm", task="door", workers=7)
    out = act(engine, state, "work", building="Farm", task="door", workers=4, cards=[NEXT])
    assert "2 more turns" in texts(out)
    log: list[Event] = []
    credit_work(engine.charts, out.state, log)
    assert out.state.buildings[0].progress["door"] == "4/7"
    turn2 = out.state
    turn2.pending, turn2.active, get(turn2, "Workers").moved = None, "Workers", False
    out = act(engine, turn2, "work", building="Farm", task="door", workers=4, cards=["QH"])
    assert "1 more turn" in texts(out)
    credit_work(engine.charts, out.state, log)
    farm = out.state.buildings[0]
    assert farm.breaches == {"door": 1} and farm.progress["door"] == "0" and "breaches a door" in log[-1].text
    assert farm.openings == 5  # the breached door is one more opening to fire from


def test_work_does_not_count_in_a_turn_the_workers_are_hit(engine: NsrEngine) -> None:
    out = act(
        engine,
        town(engine, "grenadiers", figures=6),
        "work",
        building="Farm",
        task="rock_wall",
        workers=2,
        cards=[NEXT],
    )
    assert "25 figure-turns" in texts(out)
    get(out.state, "Workers").hit_this_turn = True
    log: list[Event] = []
    credit_work(engine.charts, out.state, log)
    assert "interrupted" in log[0].text and out.state.buildings[0].progress == {}


def test_guns_breach_by_shots(engine: NsrEngine) -> None:
    """Artillery: ball breaches a door in 2 shots, grapeshot a window in 1."""
    state = town(engine, "artillery", "fire", formation="manhandled")
    out = act(engine, state, "bombard", building="Farm", part="door", cards=[NEXT])
    assert out.state.buildings[0].progress["door"] == "1/2" and get(out.state, "Workers").fired
    out.state.buildings[0].progress["door"] = "1/2"
    out = act(engine, state, "bombard", building="Farm", part="window", shot="grape", cards=[NEXT])
    assert out.state.buildings[0].breaches == {"window": 1}
    refuse(engine, town(engine, phase="fire"), "bombard", "no gun", building="Farm", part="door")
    limbered = town(engine, "artillery", "fire")
    refuse(engine, limbered, "bombard", "limbered", building="Farm", part="door")
