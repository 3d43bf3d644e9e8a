"""The morale phase: major, critical (and rallying) and pinned checks, routs; 2D6 less than the number."""

from __future__ import annotations

from rules.nsr.engine import NsrEngine, make_engine
from tests.rules.test_nsr_helpers import act, events, get, kinds, stage, texts, unit


def end_of_fire(engine: NsrEngine, **extra) -> object:
    """The fire phase's last unit (1er Ligne) about to hold: then the morale phase and turn 2."""
    specs = [
        unit("1er Ligne", "French", "line", figures=12),
        unit("33rd Foot", "Allied", "line", figures=12),
        unit("Militia", "Allied", "militia", figures=6, **extra),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    for name in ("33rd Foot", "Militia"):
        get(state, name).fired = True
    return state


def kill(state, name: str, count: int, start: int = 2) -> None:
    for f in get(state, name).figures[start : start + count]:
        f.status = "killed"


def morale(out) -> list[tuple]:
    return [(e["check"], e.get("unit", e.get("side")), e["roll"], e.get("passed")) for e in events(out, "morale")]


def test_a_unit_under_half_strength_checks_critical_morale(engine: NsrEngine) -> None:
    """Seed 4.B: 2D6 below 10 (line, with a leader) holds; A-NSR-15: it stays critical while under half."""
    state = end_of_fire(engine)
    kill(state, "33rd Foot", 7)
    out = act(engine, state, "hold", dice=[5, 4], cards=["KS"])
    assert morale(out) == [("critical", "33rd Foot", 9, True)]
    assert "stays in critical morale" in texts(out)
    assert (out.state.turn, out.state.phase) == (2, "movement")


def test_failing_critical_morale_routs_and_the_rout_runs_4d6_each_movement_phase(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    kill(state, "33rd Foot", 7)
    out = act(engine, state, "hold", dice=[6, 4, 1, 2, 3, 4], cards=["KS"])
    assert morale(out) == [("critical", "33rd Foot", 10, False)]
    foot = get(out.state, "33rd Foot")
    assert foot.routed and foot.out and "casualty" in kinds(out)
    assert events(out, "rout")[0] == {"unit": "33rd Foot", "inches": 10}


def test_without_a_leader_the_number_is_lower(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    kill(state, "33rd Foot", 9, start=0)  # the officer, the NCO and seven privates
    out = act(engine, state, "hold", dice=[4, 4, 1, 1, 1, 1], cards=["KS"])
    assert events(out, "morale")[0]["needed"] == 8 and get(out.state, "33rd Foot").routed


def test_shaken_figures_hit_put_the_unit_in_critical_morale_and_passing_rallies_it(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    foot = get(state, "33rd Foot")
    foot.set_marks(shaken=True)
    foot.critical = True
    out = act(engine, state, "hold", dice=[2, 3], cards=["KS"])
    assert morale(out) == [("critical", "33rd Foot", 5, True)]
    assert not get(out.state, "33rd Foot").shaken and not get(out.state, "33rd Foot").critical
    assert "rallies" in texts(out)


def test_a_shaken_unit_tests_to_rally_and_stays_shaken_on_a_failure(engine: NsrEngine) -> None:
    """RESOLUTION (with A-NSR-15): the rally check is a switch; failing it does not rout."""
    state = end_of_fire(engine)
    get(state, "33rd Foot").set_marks(shaken=True)
    out = act(engine, state, "hold", dice=[6, 6], cards=["KS"])
    assert morale(out) == [("rally", "33rd Foot", 12, False)] and get(out.state, "33rd Foot").shaken
    off = make_engine({"options": {"shaken_rally_check": False}})
    state = end_of_fire(off)
    get(state, "33rd Foot").set_marks(shaken=True)
    assert morale(act(off, state, "hold", cards=["KS"])) == []


def test_pinned_units_check_to_move_again(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    get(state, "Militia").set_marks(pinned=True)
    out = act(engine, state, "hold", dice=[4, 4], cards=["KS"])
    assert morale(out) == [("pinned", "Militia", 8, False)] and get(out.state, "Militia").pinned
    out = act(engine, state, "hold", dice=[3, 4], cards=["KS"])
    assert not get(out.state, "Militia").pinned


def test_major_morale_one_roll_per_side_each_unit_its_own_number(engine: NsrEngine) -> None:
    """A-NSR-14: the Allied C-in-C lost; 2D6 = 8: line (9) moves on, militia (7) is immobile next turn."""
    state = end_of_fire(engine)
    state.commanders["Allied"].lost_turn = 1
    out = act(engine, state, "hold", dice=[4, 4], cards=["KS"])
    [major] = [e for e in events(out, "morale") if e["check"] == "major"]
    assert (major["side"], major["roll"], major["ok"], major["immobile"]) == ("Allied", 8, ["33rd Foot"], ["Militia"])
    assert get(out.state, "Militia").immobile and not get(out.state, "33rd Foot").immobile
    assert "Immobile next turn: Militia" in texts(out)


def test_the_order_of_checks_major_critical_pinned(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    state.commanders["Allied"].lost_turn = 1
    kill(state, "33rd Foot", 7)
    get(state, "Militia").set_marks(pinned=True)
    out = act(engine, state, "hold", dice=[1, 1, 1, 1, 1, 1], cards=["KS"])
    assert [m[0] for m in morale(out)] == ["major", "critical", "pinned"]
    assert [r for r in act.last.reasons if "morale" in r] == [
        "Allied: major morale (Commander-in-Chief lost) (1 of 2)",
        "Allied: major morale (Commander-in-Chief lost) (2 of 2)",
        "33rd Foot: critical morale (1 of 2)",
        "33rd Foot: critical morale (2 of 2)",
        "Militia: pinned morale (1 of 2)",
        "Militia: pinned morale (2 of 2)",
    ]


def test_a_command_group_uses_its_attached_units_numbers(engine: NsrEngine) -> None:
    """A-NSR-27."""
    specs = [
        unit("1er Ligne", "French", "line", figures=12),
        unit("Staff", "Allied", "command", attached="Grenadiers"),
        unit("Grenadiers", "Allied", "grenadiers", figures=6),
    ]
    state = stage(engine, specs, "fire", "1er Ligne")
    get(state, "Staff").fired = get(state, "Grenadiers").fired = True
    get(state, "Staff").critical = True
    out = act(engine, state, "hold", dice=[5, 5], cards=["KS"])
    assert events(out, "morale")[0]["needed"] == 11  # grenadiers with a leader


def test_a_side_routed_off_loses_the_battle(engine: NsrEngine) -> None:
    state = end_of_fire(engine)
    kill(state, "33rd Foot", 7)
    kill(state, "Militia", 4)
    out = act(engine, state, "hold", dice=[6, 6, 6, 6])
    assert out.state.over and out.state.winner == "French" and engine.winner(out.state) == "French"
    assert events(out, "victory")[0] == {"winner": "French", "loser": "Allied"}
    assert engine.whose_turn(out.state) is None and engine.finished(out.state)


def test_a_battle_where_no_unit_can_act_for_three_turns_is_a_draw() -> None:
    """RESOLUTION (this engine): shaken units that never rally (the rally switch off) cannot act forever."""
    from rules.nsr import sequence
    from tests.rules.test_nsr_helpers import ScriptedDice

    off = make_engine({"options": {"shaken_rally_check": False}})
    state = stage(off, [unit("A", "French", "line"), unit("B", "Allied", "line")], "fire")
    for u in state.units:
        u.set_marks(shaken=True)
    log: list = []
    sequence.end_turn(off.charts, state, ScriptedDice(), log)
    assert state.over and state.winner is None and state.turn == 3
    assert [e.kind for e in log][-1] == "draw"
    assert off.board(state).headline == "Battle over: a draw"
