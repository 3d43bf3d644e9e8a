"""Between battles: each unit's killed, captured and routed figures leave its roster entry."""

from __future__ import annotations

import pytest

from rules.core import Aftermath, DataError, FigureSpec
from rules.nsr.engine import NsrEngine, make_engine
from rules.nsr.hits import strike
from rules.nsr.state import Charge, NsrState
from tests.rules.test_nsr_helpers import NEXT, ScriptedDice, act, get, snapshot, stage, unit


def after(engine: NsrEngine, state: NsrState, specs: list[FigureSpec]) -> dict[str, Aftermath]:
    """The aftermath by unit; it rolls nothing, leaves the state as it was and writes stats the roster accepts."""
    before = snapshot(engine, state)
    dice = ScriptedDice()
    out = engine.aftermath(state, specs, dice, {})
    assert dice.log == [] and out.events == []
    assert snapshot(engine, state) == before
    results = {a.name: a for a in out.state}
    for spec in specs:
        result = results[spec.name]
        if result.stats is not None:
            kept = FigureSpec(spec.name, spec.side, spec.kind, result.stats)
            engine.check_figure(kept)
            assert dict(engine.recruit(kept, dice).state.stats) == dict(result.stats)  # in full, as recruit writes them
    return results


def line_fight(engine: NsrEngine, target: FigureSpec | None = None) -> tuple[NsrState, list[FigureSpec]]:
    specs = [
        unit("1er Ligne", "French", "line", figures=12),
        unit("Hussars", "French", "mounted", figures=6),
        target or unit("33rd Foot", "Allied", "line", figures=12),
    ]
    return stage(engine, specs, "fire", "1er Ligne"), specs


def fire(engine: NsrEngine, state: NsrState, die: int, cards: list[str]) -> NsrState:
    return act(
        engine, state, "fire", dice=[die], cards=[*cards, NEXT], **{"class": "I", "target": "33rd Foot", "range": 10}
    ).state


def test_the_killed_leave_the_unit_and_the_wounded_recover(engine: NsrEngine) -> None:
    state, specs = line_fight(engine)
    state = fire(engine, state, 6, ["3H", "4H", "5D"])  # 11 muskets, a 6: 1/3 → 3 hits
    foot = after(engine, state, specs)["33rd Foot"]
    assert foot.status == "active"
    assert foot.note == "lost 2 figures (2 killed); 10 remain, 1 wounded recovering"
    assert dict(foot.stats) == {
        "figures": 10,
        "officer": "yes",
        "nco": "yes",
        "weapon": "musket",
        "melee": "bayonet",
        "formation": "line",
    }


def test_a_unit_untouched_is_written_back_in_full(engine: NsrEngine) -> None:
    state, specs = line_fight(engine)
    ligne = after(engine, state, specs)["1er Ligne"]
    assert ligne.status == "active" and ligne.note == "no losses; 12 figures"
    assert dict(ligne.stats)["figures"] == 12 and dict(ligne.stats)["officer"] == "yes"


def test_a_lost_officer_and_nco_come_off_the_units_make_up(engine: NsrEngine) -> None:
    state, specs = line_fight(engine)
    hussars = get(state, "Hussars")
    strike(state, hussars, hussars.figures[0], "killed", "test", [])  # the officer (the C-in-C is with 1er Ligne)
    strike(state, hussars, hussars.figures[1], "captured", "test", [])  # the NCO
    result = after(engine, state, specs)["Hussars"]
    assert [f.role for f in hussars.figures[:2]] == ["officer", "nco"]
    assert result.note == "lost 2 figures (1 killed, 1 captured), among them the officer and the NCO; 4 remain"
    assert (dict(result.stats)["figures"], dict(result.stats)["officer"], dict(result.stats)["nco"]) == (4, "no", "no")


def test_the_commander_in_chief_killed_by_an_ace(engine: NsrEngine) -> None:
    state, specs = line_fight(engine)
    state = fire(engine, state, 3, ["AH", "7C"])  # 11 x 1/4 = 2 hits: the Allied C-in-C killed, a private wounded
    foot = after(engine, state, specs)["33rd Foot"]
    assert foot.note == "lost 1 figure (1 killed), among them the Commander-in-Chief; 11 remain, 1 wounded recovering"
    assert dict(foot.stats)["officer"] == "no"


def test_captured_in_close_combat_and_a_unit_wiped_out(engine: NsrEngine) -> None:
    """The close-combat test's fight: the Militia's NCO killed, its last private captured."""
    specs = [
        unit("Chasseurs", "French", "mounted", figures=3),
        unit("Reserve", "French", "line", figures=6),
        unit("Militia", "Allied", "militia", figures=2, officer="no"),
        unit("Foot", "Allied", "line", figures=6),
    ]
    state = stage(engine, specs, "close_combat")
    state.charges = [Charge("Chasseurs", "Militia"), Charge("Reserve", "Foot")]
    state = act(engine, state, "melee", dice=[3, 2, 8, 1, 7, 6]).state
    results = after(engine, state, specs)
    militia = results["Militia"]
    assert militia.status == "dead" and militia.stats is None
    assert militia.note == "wiped out: all 2 figures lost (1 killed, 1 captured)"
    assert results["Chasseurs"].note == "no losses; 3 figures"  # the escort stays with its unit


def test_a_wounded_loser_taken_prisoner_leaves_with_the_prisoners(engine: NsrEngine) -> None:
    state, specs = line_fight(engine)
    foot = get(state, "33rd Foot")
    strike(state, foot, foot.figures[5], "heavy", "test", [])
    strike(state, foot, foot.figures[5], "captured", "test", [])  # options.wounded_losers_become_prisoners
    result = after(engine, state, specs)["33rd Foot"]
    assert result.note == "lost 1 figure (1 captured); 11 remain"


def test_routed_figures_leave_and_the_routed_units_wounded_stay(engine: NsrEngine) -> None:
    """The morale test's rout: 33rd Foot under half strength fails critical morale and the Allies lose."""
    specs = [
        unit("1er Ligne", "French", "line", figures=12),
        unit("33rd Foot", "Allied", "line", figures=12),
        unit("Militia", "Allied", "militia", figures=6),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    for name in ("33rd Foot", "Militia"):
        get(state, name).fired = True
    for f in get(state, "33rd Foot").figures[2:8]:
        f.status = "killed"
    get(state, "33rd Foot").figures[8].status, get(state, "33rd Foot").figures[8].wound = "wounded", "light"
    for f in get(state, "Militia").figures[2:6]:
        f.status = "killed"
    state = act(engine, state, "hold", dice=[6, 6, 6, 6]).state
    assert state.over and state.winner == "French"
    results = after(engine, state, specs)
    assert results["33rd Foot"].note == (
        "lost 11 figures (6 killed, 5 routed), among them the Commander-in-Chief "
        "and the NCO; 1 remains, 1 wounded recovering"
    )
    assert dict(results["33rd Foot"].stats)["figures"] == 1 and dict(results["33rd Foot"].stats)["officer"] == "no"
    assert results["Militia"].status == "dead"
    assert results["Militia"].note == "wiped out: all 6 figures lost (4 killed, 2 routed)"
    back = after(make_engine({"campaign": {"routed": "return"}}), state, specs)
    assert back["Militia"].note == "lost 4 figures (4 killed); 2 remain"
    assert back["33rd Foot"].note == "lost 6 figures (6 killed); 6 remain, 1 wounded recovering"


@pytest.mark.parametrize(
    ("wounded", "note", "figures"),
    [
        ("recover", "no losses; 12 figures, 2 wounded recovering", 12),
        ("heavy_leave", "lost 1 figure (1 invalided); 11 remain, 1 wounded recovering", 11),
        ("leave", "lost 2 figures (2 invalided); 10 remain", 10),
    ],
)
def test_the_campaign_decides_what_becomes_of_the_wounded(wounded: str, note: str, figures: int) -> None:
    engine = make_engine({"campaign": {"wounded": wounded}})
    state, specs = line_fight(engine)
    state = fire(engine, state, 1, ["5D"])  # 11 x 1/8: 1 hit, heavily wounded
    foot = get(state, "33rd Foot")
    strike(state, foot, foot.figures[6], "light", "test", [])
    result = after(engine, state, specs)["33rd Foot"]
    assert result.note == note and dict(result.stats)["figures"] == figures


def test_a_commander_unit_keeps_its_mark_while_an_officer_is_left(engine: NsrEngine) -> None:
    specs = [
        unit("Staff", "French", "command", figures=4, officers=2, commander="yes"),
        unit("Guard", "French", "command"),
        unit("33rd Foot", "Allied", "line", figures=6),
    ]
    state = stage(engine, specs, "fire", "33rd Foot")
    staff = get(state, "Staff")
    assert [f.name for f in staff.figures][:3] == ["Commander-in-Chief", "Officer 2", "Standard"]
    strike(state, staff, staff.figures[0], "killed", "test", [])
    guard = get(state, "Guard")
    strike(state, guard, guard.figures[0], "killed", "test", [])
    strike(state, guard, guard.figures[1], "captured", "test", [])  # the standard
    results = after(engine, state, specs)
    assert results["Staff"].note == "lost 1 figure (1 killed), among them the Commander-in-Chief; 3 remain"
    assert dict(results["Staff"].stats)["officer"] == "yes" and dict(results["Staff"].stats)["commander"] == "yes"
    assert (
        results["Guard"].note
        == "lost 2 figures (1 killed, 1 captured), among them the officer and the standard; 1 remains"
    )
    assert dict(results["Guard"].stats)["standard"] == 0 and dict(results["Guard"].stats)["officer"] == "no"
    strike(state, staff, staff.figures[1], "captured", "test", [])
    staff_after = after(engine, state, specs)["Staff"]
    assert "commander" not in staff_after.stats and dict(staff_after.stats)["officer"] == "no"


def test_a_gun_with_no_gunner_left_is_disbanded_and_a_destroyed_gun_replaced(engine: NsrEngine) -> None:
    specs = [
        unit("Foot Battery", "French", "artillery"),
        unit("Horse Battery", "French", "artillery"),
        unit("33rd Foot", "Allied", "line", figures=6),
    ]
    state = stage(engine, specs, "fire", "33rd Foot")
    battery = get(state, "Foot Battery")
    for f in battery.figures[1:]:
        strike(state, battery, f, "killed", "test", [])
    get(state, "Horse Battery").gun_destroyed = True
    results = after(engine, state, specs)
    assert results["Foot Battery"].status == "dead"
    assert (
        results["Foot Battery"].note
        == "lost 3 figures (3 killed); 1 remains; no gunner left to serve the gun: disbanded"
    )
    horse = results["Horse Battery"]
    assert (
        horse.status == "active" and horse.note == "no losses; 4 figures; gun destroyed, a new one for the next battle"
    )
    lost = after(make_engine({"campaign": {"destroyed_gun": "disband"}}), state, specs)["Horse Battery"]
    assert lost.status == "dead" and lost.note == "no losses; 4 figures; gun destroyed: disbanded"


def test_a_unit_below_the_campaigns_minimum_disbands() -> None:
    engine = make_engine({"campaign": {"disband_below": 3}})
    state, specs = line_fight(engine, unit("33rd Foot", "Allied", "line", figures=4))
    state = fire(engine, state, 6, ["3H", "4H", "5H"])  # 3 hits: the third finds no private, and is lost
    result = after(engine, state, specs)["33rd Foot"]
    assert (
        result.status == "dead" and result.note == "lost 2 figures (2 killed); 2 remain; too few to fight on: disbanded"
    )
    with pytest.raises(DataError, match=r"campaign\.disband_below"):
        make_engine({"campaign": {"disband_below": 0}})
    with pytest.raises(DataError, match=r"campaign\.wounded"):
        make_engine({"campaign": {"wounded": "heal"}})


def test_the_roster_name_and_its_short_stats_are_kept(engine: NsrEngine) -> None:
    """The roster entry's own name comes back (as typed), and stats given short are read with their defaults."""
    specs = [unit("1er  Ligne", "French", "infantry", figures=8, sappers=1), unit("33rd Foot", "Allied", "line")]
    state = stage(engine, specs, "fire", "1er Ligne")
    ligne = get(state, "1er Ligne")
    strike(state, ligne, next(f for f in ligne.figures if f.role == "sapper"), "killed", "test", [])
    results = after(engine, state, [FigureSpec("1er  Ligne", "French", "line", {"figures": 8, "sappers": 1}), specs[1]])
    result = results["1er  Ligne"]
    assert result.note == "lost 1 figure (1 killed); 7 remain" and "sappers" not in result.stats
    assert dict(results["33rd Foot"].stats)["figures"] == 20


def test_a_unit_without_a_roster_entry_is_read_from_its_figures(engine: NsrEngine) -> None:
    state, _specs = line_fight(engine)
    state = fire(engine, state, 1, ["3H"])
    out = engine.aftermath(state, [], ScriptedDice(), {})
    foot = next(a for a in out.state if a.name == "33rd Foot")
    assert foot.note == "lost 1 figure (1 killed); 11 remain"
    assert engine.check_figure(FigureSpec("33rd Foot", "Allied", "line", foot.stats)).stats["figures"] == 11
