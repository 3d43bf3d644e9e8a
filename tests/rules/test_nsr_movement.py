"""The movement phase: the movement chart rolled, rough ground and the wounded, formations, guns,
charges and the Joker Movement chart."""

from __future__ import annotations

from rules.contract import Waiting
from rules.nsr.engine import NsrEngine
from rules.nsr.state import Building, Charge, NsrState
from tests.rules.test_nsr_helpers import (
    NEXT,
    act,
    events,
    get,
    kinds,
    refuse,
    stage,
    status,
    texts,
    unit,
)


def moving(engine: NsrEngine, kind: str = "line", **stats) -> NsrState:
    specs = [
        unit("Mover", "French", kind, **stats),
        unit("33rd Foot", "Allied", "line", figures=12),
        unit("Gun", "Allied", "artillery"),
    ]
    return stage(engine, specs, "movement", "Mover")


def moved(out) -> int:
    return events(out, "move")[0]["inches"]


def test_line_moves_two_dice_cross_country(engine: NsrEngine) -> None:
    state = moving(engine, figures=12)
    out = act(engine, state, "move", dice=[3, 5], cards=[NEXT])
    assert moved(out) == 8 and "2D6 3+5 = 8" in texts(out)
    assert get(out.state, "Mover").moved and out.pending is not None and out.pending.decider == "Allied"


def test_each_column_of_the_chart_is_rolled(engine: NsrEngine) -> None:
    out = act(engine, moving(engine, formation="march_column"), "move", going="road", dice=[1, 1, 1], cards=[NEXT])
    assert moved(out) == 3
    out = act(engine, moving(engine, "light"), "move", dice=[1, 1, 1], cards=[NEXT])  # light open order: 3 dice
    assert moved(out) == 3
    out = act(
        engine, moving(engine, "mounted", formation="march_column"), "move", going="road", dice=[1] * 5, cards=[NEXT]
    )
    assert moved(out) == 5
    refuse(engine, moving(engine), "move", "no road rate", going="road")


def test_rough_terrain_takes_away_the_highest_die(engine: NsrEngine) -> None:
    out = act(engine, moving(engine, "light"), "move", rough=True, dice=[6, 2, 4], cards=[NEXT])
    assert moved(out) == 6 and "−6 (rough terrain)" in texts(out)


def test_carrying_the_heavily_wounded_and_the_lightly_wounded_walking(engine: NsrEngine) -> None:
    """Seed 1.B.M/N (A-NSR-9): carrying takes the high die, walking wounded the low die."""
    state = moving(engine, figures=12)
    mover = get(state, "Mover")
    mover.figures[4].status, mover.figures[4].wound = "wounded", "heavy"
    mover.figures[5].status, mover.figures[5].wound = "wounded", "light"
    out = act(engine, state, "move", carrying=True, dice=[6, 2], cards=[NEXT])
    assert moved(out) == 2
    after = get(out.state, "Mover")
    assert after.figures[4].in_rear and [f.name for f in after.figures if f.duty == "carrying"] == ["Private 1"]
    assert moved(act(engine, state, "move", walking=True, dice=[6, 2], cards=[NEXT])) == 6
    both = act(engine, state, "move", carrying=True, walking=True, rough=True, dice=[6, 2], cards=[NEXT])
    assert moved(both) == 0  # RESOLUTION: each penalty takes one die; never below 0
    refuse(engine, moving(engine), "move", "no heavily wounded", carrying=True)
    refuse(engine, moving(engine), "move", "no lightly wounded", walking=True)


def test_changing_formation_uses_the_slower_dice(engine: NsrEngine) -> None:
    """Seed 1.B.H: grenadiers in open order (3 dice) forming line (2 dice) roll 2."""
    state = moving(engine, "grenadiers", formation="open_order")
    out = act(engine, state, "move", formation="line", dice=[4, 4], cards=[NEXT])
    assert moved(out) == 8 and get(out.state, "Mover").formation == "line"
    refuse(engine, moving(engine, formation="march_column"), "move", "no road rate", going="road", formation="line")
    refuse(engine, moving(engine), "move", "may form line, square, march column", formation="open_order")


def test_going_prone_and_leaving_a_building(engine: NsrEngine) -> None:
    state = moving(engine, figures=6)
    state.buildings.append(Building("Mill", 6, 2))
    get(state, "Mover").building = "Mill"
    out = act(engine, state, "move", prone=True, dice=[1, 1], cards=[NEXT])
    assert get(out.state, "Mover").prone and get(out.state, "Mover").building == ""
    assert "leaves Mill" in texts(out)


def test_pinned_and_immobile_units_may_only_form_or_hold(engine: NsrEngine) -> None:
    """A-NSR-29 (pinned) and major morale (immobile): formation and facing in place only."""
    state = moving(engine)
    get(state, "Mover").set_marks(pinned=True)
    refuse(engine, state, "move", "pinned")
    refuse(engine, state, "charge", "pinned", target="33rd Foot")
    out = act(engine, state, "form", formation="square", cards=[NEXT])
    assert get(out.state, "Mover").formation == "square"
    state = moving(engine)
    get(state, "Mover").immobile = True
    refuse(engine, state, "move", "immobile")
    assert "hold" in kinds(act(engine, state, "hold", cards=[NEXT]))


def test_forming_in_place(engine: NsrEngine) -> None:
    state = moving(engine)
    refuse(engine, state, "form", "already in line", formation="line")
    refuse(engine, state, "form", "Say the formation")
    out = act(engine, state, "form", formation="column", prone=False, cards=[NEXT])
    assert get(out.state, "Mover").formation == "march_column" and "forms march column" in texts(out)


# --- guns ----------------------------------------------------------------------------------------------


def test_limbering_takes_the_move_and_guns_need_two_to_move(engine: NsrEngine) -> None:
    """Seed 1.B.I/L: limber or unlimber takes a turn; at least two figures move a gun."""
    state = moving(engine, "artillery")
    out = act(engine, state, "move", going="road", dice=[1, 2, 3, 4], cards=[NEXT])
    assert moved(out) == 10
    refuse(engine, state, "move", "whole move", formation="manhandled")
    out = act(engine, state, "form", formation="manhandled", cards=[NEXT])
    gun = get(out.state, "Mover")
    assert gun.formation == "manhandled" and gun.limbered_turn == 1 and "unlimbers" in texts(out)
    for f in get(state, "Mover").figures[1:]:
        f.status = "killed"
    refuse(engine, state, "move", "at least 2 figures")
    refuse(engine, moving(engine, "artillery"), "charge", "may not charge", target="33rd Foot")


# --- charges -------------------------------------------------------------------------------------------


def test_a_charge_rolls_the_charge_column_and_stops_two_inches_short(engine: NsrEngine) -> None:
    state = moving(engine, "mounted", figures=6)
    out = act(engine, state, "charge", target="33rd Foot", dice=[1, 2, 3, 4, 5, 6], cards=[NEXT])
    assert events(out, "charge")[0]["inches"] == 21 and "stops 2″ short" in texts(out)
    assert [(c.charger, c.target, c.counter) for c in out.state.charges] == [("Mover", "33rd Foot", False)]
    assert get(out.state, "Mover").charged


def test_a_charge_that_falls_short_fails(engine: NsrEngine) -> None:
    """RESOLUTION: with the distance given, the charge must cover it less the 2" stop."""
    out = act(engine, moving(engine), "charge", target="33rd Foot", distance=12, dice=[3, 3, 3], cards=[NEXT])
    assert events(out, "charge")[0]["reached"] is False and out.state.charges == []
    assert get(out.state, "Mover").charged  # it used a charge move: it may not fire
    out = act(engine, moving(engine), "charge", target="33rd Foot", distance=11, dice=[3, 3, 3], cards=[NEXT])
    assert events(out, "charge")[0]["reached"] is True


def test_a_charge_at_a_unit_that_charged_you_is_a_counter_charge(engine: NsrEngine) -> None:
    state = moving(engine)
    state.charges.append(Charge("33rd Foot", "Mover"))
    out = act(engine, state, "charge", target="33rd Foot", dice=[1, 1, 1], cards=[NEXT])
    assert out.state.charges[-1].counter and "counter-charges" in texts(out)


def test_charges_that_are_not_allowed(engine: NsrEngine) -> None:
    refuse(engine, moving(engine, formation="square"), "charge", "in square", target="33rd Foot")
    refuse(engine, moving(engine), "charge", "own side", target="Mover")
    refuse(engine, moving(engine), "charge", "by road", target="33rd Foot", going="road")
    refuse(engine, moving(engine, "command"), "charge", "may not charge", target="33rd Foot")
    state = moving(engine)
    for f in get(state, "Gun").figures:
        f.status = "killed"
    refuse(engine, state, "charge", "out of the fight", target="Gun")


# --- the Joker Movement chart --------------------------------------------------------------------------


def joker(engine: NsrEngine, kind: str = "line", **stats) -> NsrState:
    state = moving(engine, kind, **stats)
    state.active, state.card = "", "BJ"
    state.pending = Waiting("French", "black joker", [["Mover", "Mover"]], "choose", {"card": "BJ"})
    return state


def test_joker_movement_1_adds_a_die_4_takes_one_away(engine: NsrEngine) -> None:
    """Dice order: the joker's D6, then the unit's movement dice, then the joker's extra die."""
    chosen = act(engine, joker(engine), "choose", choice="Mover", dice=[1])
    out = act(engine, chosen.state, "move", dice=[3, 4, 5], cards=[NEXT])
    assert moved(out) == 12 and "+5 (joker)" in texts(out)
    chosen = act(engine, joker(engine), "choose", choice="Mover", dice=[4])
    out = act(engine, chosen.state, "move", dice=[3, 4, 5], cards=[NEXT])
    assert moved(out) == 2
    assert act.last.reasons == [
        "Mover: move, cross country, 2D6 (1 of 2)",
        "Mover: move, cross country, 2D6 (2 of 2)",
        "Mover: Joker Movement 4, one D6 less",
        "Movement phase: the next card",
    ]


def test_joker_movement_2_and_3_end_the_activation(engine: NsrEngine) -> None:
    out = act(engine, joker(engine), "choose", choice="Mover", dice=[2], cards=[NEXT])
    assert get(out.state, "Mover").moved and "does not move" in texts(out)
    out = act(engine, joker(engine), "choose", choice="Mover", dice=[3, 4, 5], cards=[NEXT])
    assert "falls back 9″" in texts(out) and get(out.state, "Mover").moved


def test_joker_movement_5_heals_the_lightly_wounded(engine: NsrEngine) -> None:
    state = joker(engine, figures=6)
    get(state, "Mover").figures[3].status, get(state, "Mover").figures[3].wound = "wounded", "light"
    get(state, "Mover").figures[4].status, get(state, "Mover").figures[4].wound = "wounded", "heavy"
    out = act(engine, state, "choose", choice="Mover", dice=[5])
    assert (
        status(out.state, "Mover")["Private 2"] == "fit" and status(out.state, "Mover")["Private 3"] == "wounded/heavy"
    )
    assert out.state.active == "Mover"


def test_joker_movement_6_forces_a_charge(engine: NsrEngine) -> None:
    state = act(engine, joker(engine), "choose", choice="Mover", dice=[6]).state
    refuse(engine, state, "move", "must charge")
    refuse(engine, state, "hold", "must charge")
    assert act(engine, state, "charge", target="33rd Foot", dice=[1, 1, 1], cards=[NEXT]).state.charges
    gun = act(engine, joker(engine, "artillery"), "choose", choice="Mover", dice=[6]).state
    assert "grapeshot range" in texts(act(engine, joker(engine, "artillery"), "choose", choice="Mover", dice=[6]))
    assert moved(act(engine, gun, "move", dice=[1, 1, 1], cards=[NEXT])) == 3
