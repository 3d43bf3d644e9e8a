"""The YASG engine (RULES-NOTES.md section 1): roster, setup on the board, the turn's phases,
morale, initiative and movement, with forced dice in the notes' Dice order. Tests that rest on a
resolution of the notes cite it (A-YASG-n)."""

from __future__ import annotations

import json

import pytest

from rules import get_engine, ruleset_titles
from rules.core import Action, DataError, FigureSpec, RuleError
from rules.yasg.engine import YasgEngine, make_engine
from tests.rules.test_yasg_support import (
    BRITISH,
    FRENCH,
    F,
    ScriptedDice,
    act,
    change,
    events,
    fig,
    gm,
    kinds,
    refuse,
    scene,
    texts,
)


def roster(*names: tuple[str, str, str], **stats: dict) -> list[FigureSpec]:
    return [FigureSpec(n, side, cls, stats.get(n, {})) for n, side, cls in names]


TWO_A_SIDE = [("Sharpe", BRITISH, "A"), ("Harper", BRITISH, "B"), ("Ducos", FRENCH, "B"), ("Leroux", FRENCH, "C")]


# --- identity and the roster -------------------------------------------------------------------


def test_identity_and_registry(engine: YasgEngine) -> None:
    assert engine.slug == "yasg" and engine.title == "Yet Another Skirmish Game"
    assert list(engine.sides()) == [BRITISH, FRENCH]
    assert list(engine.kinds()) == ["A", "B", "C", "D"]
    assert ruleset_titles()["yasg"] == "Yet Another Skirmish Game"
    assert isinstance(get_engine("yasg"), YasgEngine)


@pytest.mark.parametrize("kind", ["B", "b", "class B", "B class", "Class-B", " b "])
def test_a_figure_is_its_starting_class(engine: YasgEngine, kind: str) -> None:
    spec = engine.check_figure(FigureSpec("  Patrick   Harper ", "British", kind))
    assert (spec.name, spec.side, spec.kind, spec.stats) == ("Patrick Harper", BRITISH, "B", {})


def test_classes_e_to_g_come_only_from_wounds(engine: YasgEngine) -> None:
    with pytest.raises(RuleError, match="needs a class to start at: A \\(expert/elite veteran soldier\\)"):
        engine.check_figure(FigureSpec("Harper", BRITISH, "E"))


def test_stats_are_leader_and_weapon_only(engine: YasgEngine) -> None:
    spec = engine.check_figure(FigureSpec("Sharpe", BRITISH, "A", {"Leader": "YES", "weapon": "Musket"}))
    assert spec.stats == {"leader": "yes"}
    assert engine.check_figure(FigureSpec("Sharpe", BRITISH, "A", {"leader": "no"})).stats == {}
    assert engine.check_figure(spec) == spec  # its own output is accepted again (game start)
    with pytest.raises(RuleError, match="stat “I” YASG does not know"):
        engine.check_figure(FigureSpec("Sharpe", BRITISH, "A", {"I": 4}))
    with pytest.raises(RuleError, match="leader=yes or leader=no"):
        engine.check_figure(FigureSpec("Sharpe", BRITISH, "A", {"leader": "maybe"}))
    with pytest.raises(RuleError, match="carries “rifle”, which YASG does not know: use musket"):
        engine.check_figure(FigureSpec("Sharpe", BRITISH, "A", {"weapon": "rifle"}))
    with pytest.raises(RuleError, match="no side called “prussian”"):
        engine.check_figure(FigureSpec("Blücher", "prussian", "A"))
    with pytest.raises(RuleError, match="needs a name"):
        engine.check_figure(FigureSpec("   ", BRITISH, "A"))


def test_recruiting_rolls_nothing(engine: YasgEngine) -> None:
    dice = ScriptedDice()
    out = engine.recruit(FigureSpec("Sharpe", BRITISH, "a", {"leader": 1}), dice)
    assert out.state.kind == "A" and out.state.stats == {"leader": "yes"} and dice.rolls == [] and out.events == []


def test_start_checks_the_roster(engine: YasgEngine) -> None:
    with pytest.raises(RuleError, match="french has 0"):
        engine.start(roster(("Sharpe", BRITISH, "A")), ScriptedDice())
    with pytest.raises(RuleError, match="Two figures are called “sharpe”"):
        engine.start(roster(("Sharpe", BRITISH, "A"), ("sharpe", FRENCH, "A")), ScriptedDice())
    two = roster(
        ("Sharpe", BRITISH, "A"),
        ("Harper", BRITISH, "B"),
        ("Ducos", FRENCH, "B"),
        Sharpe={"leader": "yes"},
        Harper={"leader": "yes"},
    )
    with pytest.raises(RuleError, match="british has 2 Leaders \\(Sharpe and Harper\\)"):
        engine.start(two, ScriptedDice())
    many = make_engine({"figures_per_side": {"max": 2}})
    with pytest.raises(RuleError, match="1 to 2 figures: british has 3"):
        many.start(roster(*[(f"B{i}", BRITISH, "C") for i in range(3)], ("X", FRENCH, "C")), ScriptedDice())


def test_a_side_without_a_named_leader_is_led_by_its_first_best_figure(engine: YasgEngine) -> None:
    specs = roster(
        ("Perkins", BRITISH, "C"),
        ("Harper", BRITISH, "B"),
        ("Hagman", BRITISH, "B"),
        ("Ducos", FRENCH, "B"),
        ("Vidal", FRENCH, "A"),
        Ducos={"leader": "yes"},
    )
    out = engine.start(specs, ScriptedDice())
    assert [f.name for f in out.state.figures if f.leader] == ["Harper", "Ducos"]
    assert events(out, "leader") == [{"side": BRITISH, "figure": "Harper"}]
    assert (
        out.state.phase == "setup" and out.state.map_name == "farm" and (out.state.width, out.state.height) == (12, 12)
    )
    assert kinds(out)[-1] == "phase" and "Place every figure with /yasg place" in out.events[-1].text


# --- setup: the board and the figures' places -----------------------------------------------------


@pytest.fixture
def setup(engine: YasgEngine):
    return engine.start(roster(*TWO_A_SIDE, Sharpe={"leader": "yes"}), ScriptedDice()).state


def test_the_board_size_or_a_map(engine: YasgEngine, setup) -> None:
    out = act(engine, setup, "board", by_gm=True, width=8, height=6)
    state = out.state
    assert (state.width, state.height, state.map_name, state.terrain, state.edges) == (8, 6, "", [], [])
    assert kinds(out) == ["phase"] and "8 × 6 squares of open ground" in out.events[0].text
    back = act(engine, state, "board", as_side=FRENCH, map="Farm").state  # any player may, in setup
    assert back.map_name == "farm" and len(back.terrain) == 4 + 2 + 4 + 6 and len(back.edges) == 7
    refuse(engine, setup, "board", "from 4 to 30", by_gm=True, width=3, height=6)
    refuse(engine, setup, "board", "from 4 to 30", by_gm=True, width=31)
    refuse(engine, setup, "board", "not both", by_gm=True, width=8, map="farm")
    refuse(engine, setup, "board", "no map called “moon”: use open field or farm", by_gm=True, map="moon")
    refuse(engine, setup, "board", "width and height", by_gm=True)
    placed = gm(engine, setup, "place", figure="Sharpe", square="A1")
    refuse(engine, placed, "board", "before placing figures: Sharpe already", by_gm=True, width=8, height=8)


def test_terrain_and_hills(engine: YasgEngine, setup) -> None:
    state = gm(engine, setup, "board", width=8, height=8)
    out = act(engine, state, "terrain", by_gm=True, squares="C3:D4", kind="Hill")
    assert "C3, D3, C4, D4 are now hill." in out.events[0].text
    state = gm(engine, out.state, "terrain", squares="D4", kind="hill", uphill="north east")
    hill = {(t.x, t.y): t.uphill for t in state.terrain}
    assert hill[(3, 3)] == ["n", "e"] and hill[(2, 2)] is None
    state = gm(engine, state, "terrain", squares="C3", kind="open")
    assert (2, 2) not in {(t.x, t.y) for t in state.terrain}
    refuse(
        engine,
        state,
        "terrain",
        "Only hill squares have uphill sides",
        by_gm=True,
        squares="A1",
        kind="wood",
        uphill="n",
    )
    refuse(
        engine,
        state,
        "terrain",
        "not a kind of terrain: use open, hill, crops, wood, rubble or building",
        by_gm=True,
        squares="A1",
        kind="lava",
    )
    refuse(engine, state, "terrain", "off the board", by_gm=True, squares="A1:I9", kind="wood")
    refuse(engine, state, "terrain", "not a side", by_gm=True, squares="C4", kind="hill", uphill="up")


def test_hedges_and_walls_on_square_sides(engine: YasgEngine, setup) -> None:
    state = gm(engine, setup, "board", width=8, height=8)
    out = act(engine, state, "edge", by_gm=True, squares="B4:D4", side="s", kind="hedge")
    assert "a hedge runs along the south side of B4, C4, D4" in out.events[0].text
    assert sorted((e.x, e.y, e.side) for e in out.state.edges) == [(1, 4, "n"), (2, 4, "n"), (3, 4, "n")]
    state = gm(engine, out.state, "edge", squares="C5", side="n", kind="wall")  # the same side, seen from below
    assert {(e.x, e.y): e.kind for e in state.edges}[(2, 4)] == "wall" and len(state.edges) == 3
    state = gm(engine, state, "edge", squares="B5", side="n", kind="none")
    assert len(state.edges) == 2
    refuse(engine, state, "edge", "edge of the board", by_gm=True, squares="A1", side="n", kind="hedge")
    refuse(
        engine,
        state,
        "edge",
        "side: is north, east, south or west.",
        by_gm=True,
        squares="A2",
        side="n e",
        kind="hedge",
    )
    refuse(engine, state, "edge", "use hedge, wall or none", by_gm=True, squares="A2", side="n", kind="fence")


def test_placing_figures(engine: YasgEngine, setup) -> None:
    board = act(engine, setup, "board", by_gm=True, width=8, height=8)
    state = board.state
    assert not engine.moved_on(setup, board.events), "each step of the set-up is said, not drawn"
    out = act(engine, state, "place", as_side=BRITISH, figure="sharpe", square="d7")
    assert not engine.moved_on(state, out.events)
    assert (fig(out.state, "Sharpe").square, fig(out.state, "Sharpe").facing) == ((3, 6), "n")  # towards the middle
    assert out.events[0].text == "Sharpe (british, class A, Leader) stands at D7, facing N."
    state = out.state
    refuse(
        engine,
        state,
        "place",
        "Ducos fights for french: you may only place your own",
        as_side=BRITISH,
        figure="Ducos",
        square="A1",
    )
    refuse(engine, state, "place", "D7 is taken by Sharpe", as_side=FRENCH, figure="Ducos", square="D7")
    refuse(engine, state, "place", "off the board", as_side=FRENCH, figure="Ducos", square="I1")
    refuse(
        engine,
        state,
        "place",
        "facing: is north, east, south or west.",
        as_side=FRENCH,
        figure="Ducos",
        square="A1",
        facing="up",
    )
    refuse(engine, state, "place", "no figure called “Nobody”", as_side=FRENCH, figure="Nobody", square="A1")
    refuse(engine, state, "next", "Place every figure first: Harper, Ducos and Leroux are not on the board")
    state = act(engine, state, "place", as_side=BRITISH, figure="Sharpe", square="D8", facing="e").state  # placed again
    assert fig(state, "Sharpe").square == (3, 7) and fig(state, "Sharpe").facing == "e"
    for name, square, side in (("Harper", "E8", BRITISH), ("Ducos", "D1", FRENCH)):
        state = act(engine, state, "place", as_side=side, figure=name, square=square).state
    assert engine.whose_turn(state) == FRENCH  # the side still placing
    last = act(engine, state, "place", as_side=FRENCH, figure="Leroux", square="E1")
    assert kinds(last) == ["placed", "phase"] and fig(last.state, "Ducos").facing == "s"
    assert engine.moved_on(state, last.events), "the set-up's end shows the board"
    begun = act(engine, last.state, "next")
    assert begun.state.phase == "morale" and begun.state.turn == 1 and kinds(begun) == ["phase"]
    assert not engine.moved_on(last.state, begun.events), "drawn already"
    refuse(engine, begun.state, "place", "only before the battle begins", by_gm=True, figure="Ducos", square="A1")
    refuse(engine, begun.state, "terrain", "only before the battle begins", by_gm=True, squares="A1", kind="wood")


def test_actions_out_of_phase_or_unknown_or_by_strangers(engine: YasgEngine, setup) -> None:
    refuse(
        engine, setup, "move", "in the movement phase; it is the setup phase now", by_gm=True, figure="Sharpe", to="A1"
    )
    refuse(engine, setup, "fire", "in the fire phase", by_gm=True, figure="Sharpe", target="Ducos")
    refuse(engine, setup, "engage", "in the close combat phase", by_gm=True, figure="Sharpe", target="Ducos")
    refuse(engine, setup, "dance", "no action called “dance”")
    refuse(
        engine,
        setup,
        "place",
        "Only the players of british and french",
        as_side="prussian",
        figure="Sharpe",
        square="A1",
    )
    refuse(engine, setup, "place", "Only the players of british and french", as_side=None, figure="Sharpe", square="A1")


# --- morale (phase 1) ----------------------------------------------------------------------------


def test_who_tests_morale(engine: YasgEngine) -> None:
    """A-YASG-6: within 2 squares of an enemy (through sides), wounded, or pinned; nobody else rolls."""
    state = scene(
        engine,
        F("Near", BRITISH, "B", "C5"),  # 2 squares from Xav
        F("Diag", BRITISH, "B", "F6"),  # 2 across and 1 down from Xav: 3 squares
        F("Hurt", BRITISH, "B", "J10", leader=True),
        F("Held", BRITISH, "B", "A10"),
        F("Free", BRITISH, "B", "H10"),
        F("Xav", FRENCH, "C", "D4"),
        F("Yan", FRENCH, "C", "J1"),
        phase="morale",
    )
    state = change(engine, state, "Hurt", wounds=1)
    state = change(engine, state, "Held", pinned=True)
    out = act(engine, state, "next", 7, 7, 7, 7, 5, 2)
    tested = [(e["figure"], e["reason"]) for e in events(out, "morale")]
    assert tested == [
        ("Near", "within 2 squares of an enemy"),
        ("Hurt", "wounded"),
        ("Held", "pinned"),
        ("Xav", "within 2 squares of an enemy"),
    ]
    assert act.last_dice.reasons[:4] == [  # type: ignore[attr-defined]
        "Near: morale, passes above 2 (class B)",
        "Hurt: morale, passes above 3 (class C)",
        "Held: morale, passes above 2 (class B)",
        "Xav: morale, passes above 3 (class C)",
    ]
    assert act.last_dice.reasons[4:] == ["Initiative: british", "Initiative: french"]  # type: ignore[attr-defined]


def test_nobody_tests_when_the_sides_are_far_apart(engine: YasgEngine) -> None:
    state = scene(engine, F("A", BRITISH, "B", "A10"), F("X", FRENCH, "B", "A1"), phase="morale")
    out = act(engine, state, "next", 3, 4)
    assert texts(out).splitlines()[:2] == ["Turn 1 · morale phase.", "No figure needs to test its morale."]
    assert out.state.phase == "movement" and out.state.mover == FRENCH and out.state.initiative == [FRENCH, BRITISH]


@pytest.mark.parametrize(
    ("cls", "wounds", "shaken", "need"),
    [
        ("A", 0, False, 1),
        ("B", 0, False, 2),
        ("C", 0, False, 3),
        ("D", 0, False, 4),
        ("C", 0, True, 4),  # A-YASG-7: ran last turn, one class worse
        ("D", 1, False, 5),  # A-YASG-3, -5: one wound point, once
        ("D", 3, False, 7),  # G
        ("D", 3, True, 8),  # H, extrapolated (A-YASG-4)
    ],
)
def test_morale_passes_only_above_the_class_number(
    engine: YasgEngine, cls: str, wounds: int, shaken: bool, need: int
) -> None:
    """d10 > class number; wounds count once (A-YASG-5), running last turn once more (A-YASG-7)."""
    state = scene(engine, F("A", BRITISH, cls, "C5"), F("X", FRENCH, "A", "C3"), phase="morale")
    state = change(engine, state, "A", wounds=wounds, shaken=shaken)
    fail = act(engine, state, "next", need, 1, 6, 1)  # A rolls exactly the number: fails
    passes = act(engine, state, "next", need + 1, 1, 6, 1) if need < 10 else None
    assert events(fail, "morale")[0] == {**events(fail, "morale")[0], "needed": need, "passed": False, "pinned": True}
    assert fig(fail.state, "A").pinned
    if passes is not None:
        assert not fig(passes.state, "A").pinned and events(passes, "morale")[0]["passed"]


def test_morale_past_j_can_never_pass(engine: YasgEngine) -> None:
    """A-YASG-4: past G the number goes on rising; from J (10) no d10 passes."""
    assert engine.judge.morale_need(10) == 10 and engine.judge.morale_need(11) == 11


def test_a_pinned_figure_unpins_by_passing(engine: YasgEngine) -> None:
    state = scene(engine, F("A", BRITISH, "C", "C5"), F("X", FRENCH, "A", "J1"), phase="morale")
    state = change(engine, state, "A", pinned=True)
    passed = act(engine, state, "next", 4, 6, 1)
    assert not fig(passed.state, "A").pinned and "passes and is no longer pinned" in texts(passed)
    failed = act(engine, state, "next", 3, 6, 1)
    assert fig(failed.state, "A").pinned and "fails: still pinned" in texts(failed)


def test_initiative_ties_are_rolled_again(engine: YasgEngine) -> None:
    """A-YASG-8: a d6 each, the first side first; ties again; the higher moves all its figures first."""
    state = scene(engine, F("A", BRITISH, "B", "A10"), F("X", FRENCH, "B", "A1"), phase="morale")
    out = act(engine, state, "next", 4, 4, 6, 6, 5, 2)
    assert [e["rolls"] for e in events(out, "initiative")] == [
        {BRITISH: 4, FRENCH: 4},
        {BRITISH: 6, FRENCH: 6},
        {BRITISH: 5, FRENCH: 2},
    ]
    assert out.state.mover == BRITISH and engine.whose_turn(out.state) == BRITISH
    assert out.events[-1].text == "Turn 1 · movement phase: british move first, then /yasg next."


# --- movement (phase 2) ----------------------------------------------------------------------------


def open_field(engine: YasgEngine, **kw) -> object:
    return scene(
        engine,
        F("Sharpe", BRITISH, "A", "E8", leader=True),
        F("Harper", BRITISH, "B", "F8"),
        F("Ducos", FRENCH, "B", "E1", "s", leader=True),
        F("Leroux", FRENCH, "C", "F1", "s"),
        **kw,
    )


def test_walk_two_squares_routed_through_sides(engine: YasgEngine) -> None:
    state = open_field(engine)
    out = act(engine, state, "move", figure="Harper", to="G7")
    h = fig(out.state, "Harper")
    assert (h.square, h.moved, h.ran) == ((6, 6), 2, False)
    assert h.facing == "e"  # the way of its last step
    assert (
        out.events[0].text
        == "Harper walks F8 → F7 → G7 (2 squares), turning from N to face E; it may not fire this turn."
    )
    assert act.last_dice.rolls == []  # type: ignore[attr-defined]
    one = act(engine, state, "move", figure="Harper", to="F7", facing="e")
    assert "walks F8 → F7 (1 square), turning from N to face E; it may still fire." in texts(one)


def test_a_run_of_up_to_four_rolls_for_a_fall(engine: YasgEngine) -> None:
    """Dice order: one d10 per running figure after its move; 1 or 2 falls (A-YASG-10)."""
    state = open_field(engine)
    out = act(engine, state, "move", 3, figure="Harper", to="F4")
    h = fig(out.state, "Harper")
    assert (h.square, h.moved, h.ran, h.fallen_until) == ((5, 3), 4, True, 0)
    assert act.last_dice.reasons == ["Harper: ran, falls on 1 or 2"]  # type: ignore[attr-defined]
    assert "it may not fire this turn" in out.events[0].text and kinds(out) == ["move", "run"]
    fell = act(engine, state, "move", 2, figure="Harper", to="F5", pace="run")
    assert fig(fell.state, "Harper").fallen_until == 2 and kinds(fell) == ["move", "fall"]
    assert "may still fire" in fell.events[0].text  # three squares and fire — but it fell
    refuse(engine, state, "move", "costs Harper 5 squares of movement; it can go 4", figure="Harper", to="F3")
    refuse(engine, state, "move", "a walk is 2: run instead", figure="Harper", to="F5", pace="walk")
    refuse(engine, state, "move", "pace: is walk or run.", figure="Harper", to="F7", pace="crawl")


def test_movement_costs_count_against_the_allowance(engine: YasgEngine) -> None:
    state = open_field(engine, terrain=[("F7", "hill", None), ("D7", "building", None)], edges=[("E7", "s", "hedge")])
    up = act(engine, state, "move", figure="Harper", to="F7")
    assert "(2 squares, uphill)" in texts(up) and fig(up.state, "Harper").moved == 2
    over = act(engine, state, "move", 5, figure="Sharpe", to="E6")
    assert "E8 → E7 → E6 (3 squares, crossing a hedge)" in texts(over) and fig(over.state, "Sharpe").ran
    house = act(engine, state, "move", 5, figure="Sharpe", to="D7")
    assert "(3 squares, entering the building)" in texts(house)


def test_explicit_paths_are_checked_step_by_step(engine: YasgEngine) -> None:
    state = open_field(engine)
    out = act(engine, state, "move", figure="Sharpe", to="E8 D8 D7")  # the first square may be its own
    assert fig(out.state, "Sharpe").square == (3, 6)
    through = act(engine, state, "move", figure="Sharpe", to="F8-G8")  # through a friend
    assert fig(through.state, "Sharpe").square == (6, 7)
    refuse(engine, state, "move", "E8 to F7 is not a step through a side", figure="Sharpe", to="F7 G7")
    refuse(engine, state, "move", "F8 is taken by Harper", figure="Sharpe", to="F8")
    refuse(engine, state, "move", "already at E8", figure="Sharpe", to="E8")
    refuse(engine, state, "move", "not a square", figure="Sharpe", to="up")
    strict = make_engine({"movement": {"pass_through_friends": False}})
    state2 = open_field(strict)
    refuse(strict, state2, "move", "cannot pass through F8: Harper stands there", figure="Sharpe", to="F8 G8")


def test_enemies_block_the_way(engine: YasgEngine) -> None:
    state = scene(engine, F("A", BRITISH, "B", "A6"), F("X", FRENCH, "B", "A5"), F("Y", FRENCH, "B", "B6"), size=(6, 6))
    refuse(engine, state, "move", "cannot reach A4: the way is blocked", figure="A", to="A4")
    refuse(engine, state, "move", "cannot pass through A5: X stands there", figure="A", to="A5 A4")


def test_who_may_move(engine: YasgEngine) -> None:
    state = open_field(engine)
    refuse(engine, state, "move", "Ducos fights for french: you may only move your own", figure="Ducos", to="E2")
    refuse(engine, state, "move", "british are moving now", by_gm=True, figure="Ducos", to="E2")
    refuse(engine, state, "next", "british are moving: they end their movement", as_side=FRENCH)
    moved = act(engine, state, "move", figure="Harper", to="F7").state
    refuse(engine, moved, "move", "Harper has already moved this turn", figure="Harper", to="F6")
    for fields, message in (
        ({"pinned": True}, "Harper is pinned: it may not move until its Leader comes next to it"),
        ({"fallen_until": 1}, "Harper has fallen and spends this turn getting up"),
        ({"weapon_state": "misfired", "weapon_turn": 0}, "clearing its misfire this turn and may not move"),
        ({"loading": True}, "Harper is loading this turn and may not move"),
        ({"rallied": True}, "rallied by its Leader this phase: it may move again next turn"),
        ({"out": True}, "Harper is out of the fight"),
    ):
        refuse(engine, change(engine, state, "Harper", **fields), "move", message, figure="Harper", to="F7")


def test_the_movement_phase_passes_to_the_other_side_then_to_fire(engine: YasgEngine) -> None:
    state = open_field(engine)
    out = act(engine, state, "next")
    assert (
        out.state.mover == FRENCH and out.events[0].text == "Turn 1 · movement phase: french move now, then /yasg next."
    )
    fire = act(engine, out.state, "next")
    assert fire.state.phase == "fire" and "Turn 1 · fire phase (simultaneous)" in fire.events[0].text
    assert engine.moved_on(state, out.events) and engine.moved_on(out.state, fire.events), "each side's movement"
    assert "British: Sharpe and Harper; French: Ducos and Leroux" in fire.events[0].text


def test_facing(engine: YasgEngine) -> None:
    state = open_field(engine)
    out = act(engine, state, "face", figure="Harper", facing="west")
    assert fig(out.state, "Harper").facing == "w" and out.events[0].text == "Harper faces W at F8."
    pinned = change(engine, state, "Harper", pinned=True)
    assert fig(act(engine, pinned, "face", figure="Harper", facing="e").state, "Harper").facing == "e"
    refuse(engine, state, "face", "Give facing: (The way it faces (its 45° arc of fire)).", figure="Harper")
    refuse(engine, change(engine, state, "Harper", fallen_until=1), "face", "getting up", figure="Harper", facing="e")
    refuse(engine, state, "face", "british are moving now", by_gm=True, figure="Ducos", facing="e")


def test_the_leader_rallies_pinned_figures_next_to_where_it_ends(engine: YasgEngine) -> None:
    """A-YASG-9: unpinned, but it may not move in that phase; it fires at its own class."""
    state = scene(
        engine,
        F("Sharpe", BRITISH, "A", "E9", leader=True),
        F("Harper", BRITISH, "B", "F7"),
        F("Hagman", BRITISH, "B", "D7"),
        F("Cooper", BRITISH, "B", "A1"),
        F("Ducos", FRENCH, "B", "F3", "s", leader=True),
    )
    for name in ("Harper", "Hagman", "Cooper"):
        state = change(engine, state, name, pinned=True)
    out = act(engine, state, "move", figure="Sharpe", to="E7")
    assert [e["figure"] for e in events(out, "rally")] == ["Harper", "Hagman"]
    assert not fig(out.state, "Harper").pinned and fig(out.state, "Harper").rallied and fig(out.state, "Cooper").pinned
    refuse(engine, out.state, "move", "rallied by its Leader", figure="Harper", to="F6")
    nearby = change(engine, state, "Sharpe", x=4, y=6)  # already next to them: only a move rallies
    assert fig(act(engine, nearby, "face", figure="Sharpe", facing="e").state, "Harper").pinned


def test_loading_is_declared_or_automatic(engine: YasgEngine) -> None:
    """A-YASG-12: loaded at the start; a figure that fired loads in a turn without movement."""
    state = open_field(engine)
    refuse(engine, state, "load", "already loaded", figure="Harper")
    empty = change(engine, state, "Harper", weapon_state="empty", weapon_turn=0)
    out = act(engine, empty, "load", figure="Harper")
    assert fig(out.state, "Harper").loading and "may not move" in texts(out)
    refuse(engine, out.state, "load", "already loading", figure="Harper")
    moved = act(engine, empty, "move", figure="Harper", to="F7")
    assert "Its musket stays empty this turn." in texts(moved)
    refuse(engine, moved.state, "load", "has moved this turn", figure="Harper")
    refuse(
        engine,
        change(engine, empty, "Harper", weapon_turn=1),
        "load",
        "fired this turn: it can load next turn",
        figure="Harper",
    )
    refuse(engine, state, "load", "british are moving now", by_gm=True, figure="Ducos")


def test_json_round_trip_and_bad_saved_states(engine: YasgEngine) -> None:
    state = open_field(engine, terrain=[("C3", "hill", "n")], edges=[("C5", "n", "wall")])
    state = act(engine, state, "move", 1, figure="Harper", to="F5").state
    data = json.loads(json.dumps(engine.dump_state(state)))
    assert engine.dump_state(engine.load_state(data)) == data
    data["figures"][0]["base_class"] = "Z"
    data["figures"][1]["side"] = "prussian"
    data["mover"] = "prussian"
    data["terrain"][0]["kind"] = "lava"
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    problems = " | ".join(caught.value.problems)
    assert "figures[0].base_class" in problems and "figures[1].side" in problems and "mover" in problems
    assert "terrain[0].kind" in problems
    with pytest.raises(DataError, match="phase"):
        engine.load_state({**engine.dump_state(state), "phase": "lunch"})


def test_the_board_shows_the_grid_with_terrain_and_figures(engine: YasgEngine) -> None:
    state = open_field(
        engine, terrain=[("C3:D3", "hill", None), ("H2", "building", None)], edges=[("C5", "n", "hedge")]
    )
    unhurt = {p.name: p for p in engine.board(state).grid.pieces}["Harper"]  # type: ignore[union-attr]
    state = change(engine, state, "Harper", wounds=2, pinned=True, weapon_state="empty")
    board = engine.board(state)
    grid = board.grid
    assert grid is not None and (grid.width, grid.height) == (10, 10)
    squares = {(s.x, s.y): s for s in grid.squares}
    assert squares[(2, 2)].terrain == "hill" and squares[(2, 2)].uphill == ("n", "s", "w")
    assert squares[(7, 1)].terrain == "building" and squares[(2, 4)].edges == {"n": "hedge"}
    pieces = {p.name: p for p in grid.pieces}
    harper = pieces["Harper"]
    assert (harper.label, harper.tag, harper.side, harper.facing, harper.pips) == ("2", "D", BRITISH, "n", 2)
    assert harper.marks == ("pinned", "unloaded") and pieces["Sharpe"].marks == ("leader",)
    assert unhurt.label == harper.label and unhurt.tag != harper.tag  # his class drops, his label stays
    assert grid.title == board.headline == "Turn 1 · movement phase · british"
    assert (
        pieces["Leroux"].label == "4"
        and pieces["Leroux"].tag == "C"
        and (pieces["Leroux"].x, pieces["Leroux"].y) == (5, 0)
    )
    assert board.headline == "Turn 1 · movement phase · british"
    facts = dict(board.facts)
    assert facts["In the fight"] == "british 2/2 · french 2/2" and facts["Board"] == "10 × 10"
    lines = {line.name: line.status for line in board.figures}
    assert lines["Harper"] == "class D (was B, 2 wound points) · F8 facing N · pinned · musket empty"
    assert lines["Sharpe"] == "class A · E8 facing N · Leader"


def test_the_game_master_may_act_for_either_side(engine: YasgEngine) -> None:
    state = open_field(engine)
    out = engine.act(state, Action("move", None, {"figure": "Harper", "to": "F7"}, by_gm=True), ScriptedDice())
    assert fig(out.state, "Harper").square == (5, 6)


def test_the_start_names_the_board_not_a_map(engine: YasgEngine) -> None:
    """YASG is not played on the bot's map (/map is refused): its start speaks of the farm board."""
    out = engine.start(roster(("Sharpe", BRITISH, "A"), ("Ducos", FRENCH, "B")), ScriptedDice())
    assert out.events[-1].text.startswith("Setup on the “farm” board (12 × 12 squares).")


def test_once_figures_stand_on_the_board_only_the_game_master_changes_it(engine: YasgEngine, setup) -> None:
    """Issue 26: after both sides placed, a player built under the enemy leader and walled in every
    enemy figure. As on the map, the board is then the game master's."""
    state = gm(engine, setup, "board", width=8, height=8)
    state = act(engine, state, "terrain", as_side=FRENCH, squares="B2", kind="wood").state  # before: any player
    state = act(engine, state, "edge", as_side=BRITISH, squares="B2", side="s", kind="hedge").state
    for name, square, side in (("Sharpe", "D7", BRITISH), ("Harper", "E7", BRITISH)):
        state = act(engine, state, "place", as_side=side, figure=name, square=square).state
    for side in (FRENCH, BRITISH):
        refuse(
            engine,
            state,
            "terrain",
            "Only the game master may change the terrain",
            as_side=side,
            squares="D7",
            kind="building",
        )
        refuse(
            engine,
            state,
            "edge",
            "Only the game master may put up",
            as_side=side,
            squares="D7:E7",
            side="n",
            kind="wall",
        )
    state = gm(engine, state, "terrain", squares="A1", kind="wood")
    state = gm(engine, state, "edge", squares="A1", side="s", kind="wall")
    assert any(e.kind == "wall" for e in state.edges)
