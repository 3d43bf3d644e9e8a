"""The medieval engine (RULES-NOTES.md section 5): turn, activation, movement, shooting, hand to hand,
wounds, Bravery, healing and plunder, with forced dice in the notes' Dice order.

Tests that rest on a resolution of the notes cite it (A-MED-n). The helpers here are shared by the
other test_medieval_* modules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules import get_engine, ruleset_titles
from rules.core import Action, DataError, FigureSpec, Outcome, RuleError
from rules.medieval.engine import MedievalEngine, make_engine
from rules.medieval.state import MedFigure, MedState
from tests.dice import RandomDice, ScriptedDice

RED = [
    ("Hugh", "Knight", {}),
    ("Walt", "Man at Arms", {"weapons": "bow+sword", "armour": "leather"}),
    ("Ada", "custom", {"speed": 6, "bravery": 5, "shoot": 2, "fight": 2, "weapons": "dagger", "armour": "none"}),
    ("Ned", "Man at Arms", {}),
]
BLUE = [
    ("Olaf", "Viking Warrior", {}),
    ("Harald", "Viking Hero", {}),
    ("Sven", "Viking Warrior", {"weapons": "battleaxe+dagger"}),
    ("Bjorn", "custom", {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3, "weapons": "bow", "armour": "none"}),
]


def roster(red: Sequence[tuple] = RED, blue: Sequence[tuple] = BLUE) -> list[FigureSpec]:
    return [FigureSpec(n, "red", k, s) for n, k, s in red] + [FigureSpec(n, "blue", k, s) for n, k, s in blue]


def begin(engine: MedievalEngine, first: str = "red", figures: Sequence[FigureSpec] | None = None) -> MedState:
    """A started game, red having won the roll-off (6 against 1) and chosen who goes first."""
    out = engine.start(roster() if figures is None else figures, ScriptedDice(6, 1))
    choice = "first" if first == "red" else "second"
    return engine.act(out.state, Action("order", "red", {"choice": choice}), ScriptedDice()).state


def play(
    engine: MedievalEngine,
    state: MedState,
    name: str,
    *dice: int,
    side: str | None = "active",
    by_gm: bool = False,
    **params: Any,
) -> Outcome[MedState]:
    """Act with exactly these forced dice, checking the given state is left untouched."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    source = ScriptedDice(*dice)
    who = state.active if side == "active" else side
    outcome = engine.act(state, Action(name, who, params, by_gm), source)
    assert source.values == [], f"dice left unrolled: {source.values}"
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before, "act mutated its input"
    play.last_dice = source  # type: ignore[attr-defined]
    return outcome


def refuse(
    engine: MedievalEngine,
    state: MedState,
    name: str,
    match: str,
    side: str | None = "active",
    by_gm: bool = False,
    **params: Any,
) -> RuleError:
    """The action is refused with ``match`` in its message, no die is rolled, nothing changes."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    source = ScriptedDice(6, 6, 6, 6, 6, 6)
    who = state.active if side == "active" else side
    with pytest.raises(RuleError) as caught:
        engine.act(state, Action(name, who, params, by_gm), source)
    assert match in caught.value.message, caught.value.message
    assert source.rolls == [], "dice rolled before the action was refused"
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before
    return caught.value


def edit(
    engine: MedievalEngine, state: MedState, figures: dict[str, dict[str, Any]] | None = None, **changes: Any
) -> MedState:
    """A copy of ``state`` with figures and top-level fields changed (through the data)."""
    data = engine.dump_state(state)
    for fig in data["figures"]:
        fig.update((figures or {}).get(fig["name"], {}))
    data.update(changes)
    return engine.load_state(data)


def fig(state: MedState, name: str) -> MedFigure:
    return next(f for f in state.figures if f.name == name)


def kinds(outcome: Outcome[MedState]) -> list[str]:
    return [e.kind for e in outcome.events]


def event(outcome: Outcome[MedState], kind: str) -> Any:
    [found] = [e for e in outcome.events if e.kind == kind]
    return found


def hit(outcome: Outcome[MedState]) -> Any:
    """The one hit's wound chart result: a wound, or (no effect) the figure unharmed."""
    [found] = [e for e in outcome.events if e.kind in ("wound", "unharmed")]
    return found


def engaged(engine: MedievalEngine, state: MedState, mine: str, theirs: str) -> MedState:
    """``mine`` (the active side's) in contact with ``theirs``, no die rolled, nobody activated."""
    return edit(engine, state, contacts=[*engine.dump_state(state)["contacts"], [mine, theirs]])


# --- identity ----------------------------------------------------------------------------------------


def test_identity_and_registry(engine: MedievalEngine) -> None:
    assert engine.slug == "medieval"
    assert ruleset_titles()["medieval"] == engine.title
    assert isinstance(get_engine("medieval"), MedievalEngine)
    assert list(engine.sides()) == ["red", "blue"]
    assert list(engine.kinds()) == ["Knight", "Man at Arms", "Viking Warrior", "Viking Hero", "custom"]


# --- start, roll-off and the winner's choice (A-MED-12) ------------------------------------------------


def test_roll_off_winner_chooses_by_a_decision(engine: MedievalEngine) -> None:
    dice = ScriptedDice(2, 5)
    out = engine.start(roster(), dice)
    assert dice.rolls == [(6, 2, "Roll-off: red"), (6, 5, "Roll-off: blue")]
    assert kinds(out) == ["roll-off", "setup"]
    assert out.events[0].data == {"round": 1, "rolls": {"red": 2, "blue": 5}, "winner": "blue"}
    assert out.pending is not None and out.pending.decider == "blue"
    assert [c.value for c in out.pending.choices] == ["first", "second"]
    assert out.pending.resume_action == "order"
    assert out.state.phase == "order" and engine.whose_turn(out.state) == "blue"
    assert "1 metre = 1 inch" in out.events[1].text
    assert engine.board(out.state).headline == "Waiting for blue to choose who goes first"


def test_roll_off_ties_are_rolled_again(engine: MedievalEngine) -> None:
    dice = ScriptedDice(3, 3, 6, 6, 4, 1)
    out = engine.start(roster(), dice)
    assert dice.reasons == ["Roll-off: red", "Roll-off: blue"] * 3
    assert [e.data["winner"] for e in out.events if e.kind == "roll-off"] == [None, None, "red"]
    assert out.pending.decider == "red"


@pytest.mark.parametrize("choice, first", [("first", "blue"), ("second", "red"), ("FIRST", "blue")])
def test_the_winner_goes_first_or_second(engine: MedievalEngine, choice: str, first: str) -> None:
    state = engine.start(roster(), ScriptedDice(1, 6)).state
    out = engine.act(state, Action("order", "blue", {"choice": choice}), ScriptedDice())
    assert (out.state.first, out.state.active, out.state.phase, out.state.turn) == (first, first, "play", 1)
    assert out.pending is None and out.state.pending is None
    assert engine.whose_turn(out.state) == first
    assert kinds(out) == ["phase"]


def test_while_waiting_for_the_choice_nothing_else_happens(engine: MedievalEngine) -> None:
    state = engine.start(roster(), ScriptedDice(1, 6)).state
    refuse(engine, state, "move", "Waiting for blue to choose", side="blue", figure="Olaf", distance=2.0)
    refuse(engine, state, "order", "It is blue's choice", side="red", choice="first")
    refuse(engine, state, "order", "choice: is first or second.", side="blue", choice="later")
    out = engine.act(state, Action("order", None, {"choice": "first"}, by_gm=True), ScriptedDice())
    assert out.state.first == "blue"
    refuse(engine, out.state, "order", "Nothing is waiting", choice="first")


@pytest.mark.parametrize(
    "figures, message",
    [
        (roster(blue=[]), "Each side needs at least 1 figure: blue has 0."),
        (roster(blue=[("hugh", "Knight", {})]), "Two figures are called “hugh”"),
        ([*roster(), FigureSpec("Zed", "green", "Knight")], "no side called “green”"),
        ([*roster(), FigureSpec("Zed", "red", "Dragon")], "“Dragon” is not a kind of figure"),
    ],
)
def test_start_refuses_bad_rosters(engine: MedievalEngine, figures: list[FigureSpec], message: str) -> None:
    dice = ScriptedDice(6, 1)
    with pytest.raises(RuleError) as caught:
        engine.start(figures, dice)
    assert message in caught.value.message
    assert dice.rolls == []


def test_start_gives_each_figure_its_profile_and_kit(engine: MedievalEngine) -> None:
    state = begin(engine)
    hugh, walt, ada = fig(state, "Hugh"), fig(state, "Walt"), fig(state, "Ada")
    assert (hugh.speed, hugh.bravery, hugh.shoot, hugh.fight, hugh.health) == (6, 6, 4, 4, "full")
    assert (hugh.weapons, hugh.armour) == (["Sword"], ["Chainmail", "Small Shield"])
    assert (walt.weapons, walt.armour) == (["Bow", "Sword"], ["Leather"])
    assert (ada.kind, ada.speed, ada.bravery, ada.shoot, ada.fight) == ("custom", 6, 5, 2, 2)
    assert (ada.weapons, ada.armour) == (["Dagger"], [])


# --- turns and activation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["activate", "move", "stand", "shoot", "fight", "breakoff", "heal", "pickup", "endturn"]
)
def test_only_the_active_side_acts(engine: MedievalEngine, name: str) -> None:
    state = begin(engine)
    refuse(engine, state, name, "It is red's turn.", side="blue", figure="Olaf", distance=1.0)
    refuse(engine, state, name, "It is red's turn.", side=None)


def test_game_master_acts_for_the_side_whose_turn_it_is(engine: MedievalEngine) -> None:
    state = begin(engine)
    out = play(engine, state, "move", side=None, by_gm=True, figure="Hugh", distance=2.0)
    assert fig(out.state, "Hugh").moved == 2.0
    refuse(engine, state, "move", "Olaf is blue's figure", side=None, by_gm=True, figure="Olaf", distance=1.0)


def test_unknown_action_and_unknown_figure(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(engine, state, "charge", "no action called “charge”")
    refuse(engine, state, "move", "no figure called “Gandalf”", figure="Gandalf", distance=1.0)
    refuse(engine, state, "move", "Give figure: (Your figure).", figure="  ", distance=1.0)


def test_names_match_case_insensitively(engine: MedievalEngine) -> None:
    out = play(engine, begin(engine), "move", figure="  hUGH ", distance=1.0, engage="olaf")
    assert out.state.contacts == [["Hugh", "Olaf"]]


def test_turns_alternate_and_count_from_the_first_side(engine: MedievalEngine) -> None:
    state = begin(engine, "blue")
    seen = []
    for _ in range(5):
        seen.append((state.turn, state.active))
        state = play(engine, state, "endturn").state
    assert seen == [(1, "blue"), (1, "red"), (2, "blue"), (2, "red"), (3, "blue")]


def test_one_figure_at_a_time_all_its_actions_before_the_next(engine: MedievalEngine) -> None:
    state = begin(engine)
    out = play(engine, state, "move", figure="Walt", distance=2.0)
    assert kinds(out) == ["activation", "move"] and out.state.current == "Walt"
    out = play(engine, out.state, "shoot", 1, figure="Walt", target="Olaf", range=12.0, shots=1)
    out = play(engine, out.state, "move", figure="Walt", distance=3.0)
    assert kinds(out) == ["move"] and fig(out.state, "Walt").moved == 5.0
    out = play(engine, out.state, "move", figure="Hugh", distance=1.0)
    assert out.events[0].text == "Hugh is activated (Walt is done for this turn)."
    refuse(engine, out.state, "move", "Walt has already been activated this turn", figure="Walt", distance=1.0)
    refuse(engine, out.state, "activate", "Hugh is already activated", figure="Hugh")
    # Next turn Walt acts again.
    state = play(engine, play(engine, out.state, "endturn").state, "endturn").state
    assert not fig(state, "Walt").activated and fig(state, "Walt").moved == 0
    assert play(engine, state, "move", figure="Walt", distance=6.0).state.current == "Walt"


def test_end_of_turn_resets_only_the_new_sides_figures(engine: MedievalEngine) -> None:
    """A-MED-9: a figure's move counts for the enemy's shooting until its own next turn."""
    state = play(engine, begin(engine), "move", figure="Hugh", distance=4.0).state
    state = play(engine, state, "endturn").state
    assert fig(state, "Hugh").moved == 4.0 and state.current is None
    state = play(engine, play(engine, state, "move", figure="Olaf", distance=3.0).state, "endturn").state
    assert fig(state, "Hugh").moved == 0 and fig(state, "Olaf").moved == 3.0


def test_activate_alone_reports_the_move_left(engine: MedievalEngine) -> None:
    out = play(engine, begin(engine), "activate", figure="Hugh")
    assert kinds(out) == ["activation", "ready"]
    assert "up to 6″ of 6″" in out.events[1].text


# --- movement ---------------------------------------------------------------------------------------


def test_move_part_shoot_then_move_on(engine: MedievalEngine) -> None:
    """Seed: "A figure may move part of its distance, shoot, then continue moving"."""
    state = play(engine, begin(engine), "move", figure="Walt", distance=2.5).state
    state = play(engine, state, "shoot", 1, 1, figure="Walt", target="Olaf", range=5.0).state
    out = play(engine, state, "move", figure="Walt", distance=3.5)
    assert out.events[-1].text == "Walt moves 3.5″ (0″ left)."
    refuse(engine, out.state, "move", "Walt has used all its 6″ of movement", figure="Walt", distance=0.5)
    refuse(engine, state, "move", "Walt has only 3.5″ of movement left", figure="Walt", distance=4.0)


@pytest.mark.parametrize("health, speed", [("full", 6), ("light", 4), ("serious", 3)])
def test_speed_with_wounds(engine: MedievalEngine, health: str, speed: int) -> None:
    """Light wound −2 movement; serious halves it (A-MED-5)."""
    state = edit(engine, begin(engine), {"Hugh": {"health": health}})
    dice = (6,) if health == "serious" else ()
    assert fig(play(engine, state, "move", *dice, figure="Hugh", distance=float(speed)).state, "Hugh").moved == speed
    refuse(engine, state, "move", f"only {speed}″ of movement left", figure="Hugh", distance=speed + 0.5)


def test_move_refusals(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(engine, state, "move", "more than 0″", figure="Hugh", distance=0.0)
    refuse(engine, state, "move", "distance: takes a number from 0 to 1000.", figure="Hugh", distance=-1.0)
    refuse(engine, state, "move", "distance: takes a number from 0 to 1000.", figure="Hugh", distance="far")
    refuse(engine, state, "move", "distance: takes a number from 0 to 1000.", figure="Hugh", distance=float("nan"))
    refuse(engine, state, "move", "own side", figure="Hugh", distance=2.0, engage="Walt")
    prone = edit(engine, state, {"Hugh": {"prone": True}})
    refuse(engine, prone, "move", "Hugh is prone: stand it up first", figure="Hugh", distance=1.0)
    held = engaged(engine, state, "Hugh", "Olaf")
    refuse(engine, held, "move", "in hand-to-hand with Olaf", figure="Hugh", distance=1.0)
    dead = edit(engine, state, {"Olaf": {"health": "killed"}})
    refuse(engine, dead, "move", "Olaf is killed and out of action", figure="Hugh", distance=1.0, engage="Olaf")
    refuse(
        engine,
        edit(engine, state, {"Hugh": {"health": "collapsed"}}),
        "move",
        "Hugh is collapsed",
        figure="Hugh",
        distance=1.0,
    )


def test_engaging_without_moving(engine: MedievalEngine) -> None:
    out = play(engine, begin(engine), "move", figure="Hugh", distance=0.0, engage="Olaf")
    assert out.state.contacts == [["Hugh", "Olaf"]] and kinds(out) == ["activation", "move", "contact"]


def test_stand_up_uses_half_the_speed(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Hugh": {"prone": True}, "Ned": {"prone": True, "health": "light"}})
    out = play(engine, state, "stand", figure="Hugh")
    assert not fig(out.state, "Hugh").prone and fig(out.state, "Hugh").moved == 3.0
    assert out.events[-1].text == "Hugh stands up, using 3″ of its move (3″ left)."
    refuse(engine, out.state, "stand", "Hugh is not prone", figure="Hugh")
    assert fig(play(engine, state, "stand", figure="Ned").state, "Ned").moved == 2.0
    tired = edit(engine, state, {"Hugh": {"moved": 4.0}})
    refuse(engine, tired, "stand", "needs 3″ of movement to stand up and has 2″ left", figure="Hugh")


# --- shooting --------------------------------------------------------------------------------------


def shot(engine: MedievalEngine, state: MedState, *dice: int, **params: Any) -> Any:
    out = play(engine, state, "shoot", *dice, **params)
    return [e for e in out.events if e.kind == "shot"], out


@pytest.mark.parametrize(
    "cover, extra, modifiers",
    [
        ("none", {}, []),
        ("soft", {}, [("soft cover", -1)]),
        ("hard", {}, [("hard cover", -2)]),
    ],
)
def test_cover_modifiers(engine: MedievalEngine, cover: str, extra: dict, modifiers: list) -> None:
    shots, _ = shot(engine, begin(engine), 1, figure="Walt", target="Bjorn", range=5.0, cover=cover, shots=1)
    assert [(m["reason"], m["value"]) for m in shots[0].data["modifiers"]] == modifiers
    assert shots[0].data["total"] == 1 + 3 + sum(v for _, v in modifiers)


@pytest.mark.parametrize(
    "walt_moved, bjorn_moved, once, modifiers",
    [
        (0, 0, True, []),
        (1, 0, True, [("firer moving", -1)]),
        (0, 2, True, [("target moving", -1)]),
        (1, 2, True, [("firer and target moving", -1)]),
        (1, 2, False, [("firer moving", -1), ("target moving", -1)]),
    ],
)
def test_moving_modifier_a_med_9(walt_moved: float, bjorn_moved: float, once: bool, modifiers: list) -> None:
    """A-MED-9: one −1 if the firer or the target or both moved (a switch: one for each)."""
    engine = make_engine({"moving_counts_once": once})
    state = edit(engine, begin(engine), {"Walt": {"moved": walt_moved}, "Bjorn": {"moved": bjorn_moved}})
    shots, _ = shot(engine, state, 1, figure="Walt", target="Bjorn", range=5.0, shots=1)
    assert [(m["reason"], m["value"]) for m in shots[0].data["modifiers"]] == modifiers


@pytest.mark.parametrize(
    "weapon, rng, over",
    [("Bow", 7.5, False), ("Bow", 7.6, True), ("Bow", 15.0, True), ("Dagger", 1.5, False), ("Dagger", 1.6, True)],
)
def test_over_half_range_a_med_11(engine: MedievalEngine, weapon: str, rng: float, over: bool) -> None:
    state = edit(engine, begin(engine), {"Walt": {"weapons": ["Bow", "Dagger"]}})
    shots, _ = shot(engine, state, 1, figure="Walt", target="Bjorn", range=rng, shots=1, weapon=weapon)
    assert (("over half range", -1) in [(m["reason"], m["value"]) for m in shots[0].data["modifiers"]]) is over


def test_out_of_range_is_refused(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(
        engine,
        state,
        "shoot",
        "Bjorn is out of range: Walt's Bow reaches 15″, not 15.5″",
        figure="Walt",
        target="Bjorn",
        range=15.5,
    )
    refuse(engine, state, "shoot", "Ada's Dagger reaches 3″", figure="Ada", target="Bjorn", range=4.0)


def test_prone_target_a_med_8_and_close_combat_a_med_10(engine: MedievalEngine) -> None:
    state = engaged(engine, edit(engine, begin(engine), {"Olaf": {"prone": True}}), "Hugh", "Olaf")
    shots, _ = shot(engine, state, 6, 1, figure="Walt", target="Olaf", range=5.0, shots=1)
    assert [(m["reason"], m["value"]) for m in shots[0].data["modifiers"]] == [
        ("target prone", -1),
        ("target in close combat", -2),
    ]
    assert shots[0].data["total"] == 6 + 3 - 3


def test_a_figure_in_contact_may_only_throw_at_its_opponent_a_med_10(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Ada", "Olaf")
    refuse(
        engine,
        state,
        "shoot",
        "Ada is in hand-to-hand with Olaf and may not shoot",
        figure="Ada",
        target="Bjorn",
        range=2.0,
    )
    shots, _ = shot(engine, state, 3, 1, figure="Ada", target="Olaf", range=0.0)
    assert shots[0].data["modifiers"] == [] and shots[0].data["hit"] is True
    strict = make_engine({"shooter_in_contact_may_throw_at_opponent": False})
    refuse(
        strict,
        engaged(strict, begin(strict), "Ada", "Olaf"),
        "shoot",
        "may not shoot.",
        figure="Ada",
        target="Olaf",
        range=0.0,
    )
    walt = engaged(engine, begin(engine), "Walt", "Olaf")
    refuse(
        engine,
        walt,
        "shoot",
        "Walt is in hand-to-hand with Olaf and may not shoot",
        figure="Walt",
        target="Olaf",
        range=0.0,
    )


@pytest.mark.parametrize("roll, hit", [(1, False), (2, True), (6, True)])
def test_a_hit_is_five_or_more(engine: MedievalEngine, roll: int, hit: bool) -> None:
    dice = (roll, 1) if hit else (roll,)
    shots, _ = shot(engine, begin(engine), *dice, figure="Walt", target="Olaf", range=5.0, shots=1)
    assert shots[0].data["total"] == roll + 3 and shots[0].data["hit"] is hit
    assert shots[0].data["needed"] == 5


def test_no_automatic_miss_a_med_4() -> None:
    """A-MED-4: a Knight (Shoot 4) in the open hits on a 1; the owner's switch makes a 1 miss."""
    engine = make_engine()
    state = edit(engine, begin(engine), {"Hugh": {"weapons": ["Bow"]}})
    shots, _ = shot(engine, state, 1, 1, figure="Hugh", target="Olaf", range=5.0, shots=1)
    assert shots[0].data["hit"] is True and shots[0].data["total"] == 5
    strict = make_engine({"natural_one_misses": True})
    shots, _ = shot(
        strict,
        edit(strict, begin(strict), {"Hugh": {"weapons": ["Bow"]}}),
        1,
        figure="Hugh",
        target="Olaf",
        range=5.0,
        shots=1,
    )
    assert shots[0].data["hit"] is False and "a natural 1 always misses" in shots[0].text


@pytest.mark.parametrize("health, shoot, dice", [("full", 3, ()), ("light", 1, ()), ("serious", 1, (6,))])
def test_shoot_with_wounds(engine: MedievalEngine, health: str, shoot: int, dice: tuple) -> None:
    """Light wound −2 shooting; serious halves Shoot, rounding down (A-MED-5)."""
    state = edit(engine, begin(engine), {"Walt": {"health": health}})
    shots, _ = shot(engine, state, *dice, 1, figure="Walt", target="Olaf", range=5.0, shots=1)
    assert shots[0].data["shoot"] == shoot


def test_bow_rate_of_fire_two_shots_in_dice_order(engine: MedievalEngine) -> None:
    """Dice order: to-hit, damage, Bravery if knocked about; the second shot after the whole first."""
    state = edit(engine, begin(engine), {"Bjorn": {"armour": ["Leather"]}})
    _, out = shot(engine, state, 5, 2, 3, 4, 2, 5, figure="Walt", target="Bjorn", range=10.0)
    assert play.last_dice.reasons == [
        "Walt: Bow at Bjorn (shot 1 of 2), D6 + 2 vs 5",
        "Walt: Bow damage on Bjorn, highest of 1D6",
        "Bjorn: Bravery test (knocked about), D6 + 4 vs 9",
        "Walt: Bow at Bjorn (shot 2 of 2), D6 + 1 vs 5",
        "Walt: Bow damage on Bjorn, highest of 1D6",
        "Bjorn: Bravery test (knocked about), D6 + 4 vs 9",
    ]
    assert kinds(out) == ["activation", "shot", "wound", "bravery", "prone", "shot", "wound", "bravery", "knocked-back"]
    assert fig(out.state, "Walt").shots == 2
    refuse(
        engine,
        out.state,
        "shoot",
        "Walt has used its Bow's rate of fire (2) this turn",
        figure="Walt",
        target="Bjorn",
        range=10.0,
    )


def test_shots_may_be_split_between_targets(engine: MedievalEngine) -> None:
    state = play(engine, begin(engine), "shoot", 1, figure="Walt", target="Bjorn", range=10.0, shots=1).state
    out = play(engine, state, "shoot", 1, figure="Walt", target="Olaf", range=10.0)
    assert out.events[0].data["of"] == 1 and fig(out.state, "Walt").shots == 2
    refuse(engine, begin(engine), "shoot", "give shots from 1 to 2", figure="Walt", target="Olaf", range=10.0, shots=3)
    refuse(
        engine,
        begin(engine),
        "shoot",
        "shots: takes a whole number from 1 to 10.",
        figure="Walt",
        target="Olaf",
        range=10.0,
        shots=1.5,
    )


def test_the_second_shot_is_not_taken_at_a_dead_target(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Bjorn": {"health": "serious"}})
    _, out = shot(engine, state, 6, 5, figure="Walt", target="Bjorn", range=5.0)
    assert kinds(out)[-2:] == ["casualty", "unrolled"]
    assert out.events[-1].text == "Bjorn is out of action: Walt's other shot is not taken."
    assert fig(out.state, "Walt").shots == 1


def test_one_shooting_weapon_a_turn(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Walt": {"weapons": ["Bow", "Dagger"]}})
    state = play(engine, state, "shoot", 1, figure="Walt", target="Bjorn", range=10.0, shots=1).state
    refuse(
        engine, state, "shoot", "has shot its Bow this turn", figure="Walt", target="Bjorn", range=2.0, weapon="dagger"
    )
    free = make_engine({"one_shooting_weapon_per_turn": False})
    state = edit(free, begin(free), {"Walt": {"weapons": ["Bow", "Dagger"]}})
    state = play(free, state, "shoot", 1, figure="Walt", target="Bjorn", range=10.0, shots=1).state
    assert play(free, state, "shoot", 1, figure="Walt", target="Bjorn", range=2.0, weapon="dagger").state


def test_what_cannot_shoot(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(
        engine,
        state,
        "shoot",
        "Hugh carries nothing to shoot or throw (Sword)",
        figure="Hugh",
        target="Olaf",
        range=2.0,
    )
    refuse(
        engine,
        state,
        "shoot",
        "Walt's Sword is a hand-to-hand weapon",
        figure="Walt",
        target="Olaf",
        range=2.0,
        weapon="sword",
    )
    refuse(
        engine,
        state,
        "shoot",
        "Walt does not carry “Greatsword”",
        figure="Walt",
        target="Olaf",
        range=2.0,
        weapon="Greatsword",
    )
    refuse(engine, state, "shoot", "own side", figure="Walt", target="Hugh", range=2.0)
    refuse(engine, state, "shoot", "Give target: (The enemy it shoots at).", figure="Walt", range=2.0)
    refuse(
        engine, state, "shoot", "cover: is none, soft or hard.", figure="Walt", target="Olaf", range=2.0, cover="wall"
    )
    refuse(engine, state, "shoot", "range: takes a number from 0 to 1000.", figure="Walt", target="Olaf", range=-2.0)


def test_a_thrown_dagger_is_gone_until_picked_up_a_med_17(engine: MedievalEngine) -> None:
    _, out = shot(engine, begin(engine), 1, figure="Ada", target="Sven", range=2.0)
    assert fig(out.state, "Ada").weapons == []
    assert [(g.item, g.near) for g in out.state.ground] == [("Dagger", "Sven")]
    assert ("On the ground", "Dagger (near Sven)") in engine.board(out.state).facts
    state = play(engine, play(engine, out.state, "endturn").state, "endturn").state
    refuse(engine, state, "shoot", "Ada carries nothing to shoot", figure="Ada", target="Sven", range=2.0)
    refuse(engine, state, "pickup", "There is no “Sword” on the ground", figure="Ada", item="Sword")
    back = play(engine, state, "pickup", figure="Ada", item="dagger")
    assert fig(back.state, "Ada").weapons == ["Dagger"] and back.state.ground == []
    assert back.events[-1].text == "Ada picks up the Dagger lying near Sven."


# --- hand to hand ----------------------------------------------------------------------------------


def test_hand_to_hand_higher_total_wounds_with_its_weapon(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Hugh", "Olaf")
    out = play(engine, state, "fight", 4, 3, 2, 5, figure="Hugh")
    assert play.last_dice.reasons == [
        "Hugh: hand-to-hand against Olaf",
        "Olaf: hand-to-hand against Hugh",
        "Hugh: Sword damage on Olaf, highest of 2D6 (1 of 2)",
        "Hugh: Sword damage on Olaf, highest of 2D6 (2 of 2)",
    ]
    fight = event(out, "fight")
    assert fight.data["totals"] == {"Hugh": 8, "Olaf": 7} and fight.data["winner"] == "Hugh"
    assert fight.text == "Hand-to-hand: Hugh 4 + Fight 4 + Sword 0 = 8; Olaf 3 + Fight 4 + Battleaxe 0 = 7: Hugh wins."
    wound = event(out, "wound")
    assert (wound.data["highest"], wound.data["power"], wound.data["armour"], wound.data["score"]) == (5, 1, 2, 4)
    assert fig(out.state, "Olaf").health == "serious"


def test_the_defender_can_win_and_wound(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Ned", "Harald")
    out = play(engine, state, "fight", 1, 6, 6, 6, figure="Ned")
    assert event(out, "fight").data["winner"] == "Harald"
    assert event(out, "wound").data["by"] == "Harald" and fig(out.state, "Ned").health == "serious"
    assert out.state.current == "Ned" and out.state.contacts == [["Ned", "Harald"]]
    state = edit(engine, state, {"Ned": {"health": "serious"}})
    out = play(engine, state, "fight", 6, 1, 6, 6, 6, figure="Ned")
    assert fig(out.state, "Ned").health == "killed"
    assert out.state.current is None and out.state.contacts == []


def test_a_tie_does_nothing_a_med_3(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Hugh", "Olaf")
    out = play(engine, state, "fight", 3, 3, figure="Hugh")
    assert kinds(out) == ["activation", "fight"] and out.events[-1].data["winner"] is None
    assert "a tie: no damage, they stay in contact" in out.events[-1].text
    assert out.state.contacts == [["Hugh", "Olaf"]]


@pytest.mark.parametrize(
    "height, barricade, prone, mine, theirs",
    [
        ("none", "none", [], 4, 4),
        ("mine", "none", [], 5, 4),
        ("theirs", "none", [], 4, 5),
        ("none", "mine", [], 5, 4),
        ("none", "theirs", [], 4, 5),
        ("mine", "theirs", ["Hugh"], 4, 5),
        ("none", "none", ["Olaf"], 4, 3),
    ],
)
def test_close_combat_factors(
    engine: MedievalEngine, height: str, barricade: str, prone: list[str], mine: int, theirs: int
) -> None:
    state = engaged(engine, edit(engine, begin(engine), {n: {"prone": True} for n in prone}), "Hugh", "Olaf")
    dice = (3, 3) if mine == theirs else (3, 3, 1, 1)
    out = play(engine, state, "fight", *dice, figure="Hugh", height=height, barricade=barricade)
    fight = event(out, "fight")
    assert fight.data["totals"] == {"Hugh": 3 + mine, "Olaf": 3 + theirs}


@pytest.mark.parametrize("health, fight_score, dice", [("light", 2, ()), ("serious", 2, (6,))])
def test_fight_with_wounds(engine: MedievalEngine, health: str, fight_score: int, dice: tuple) -> None:
    state = engaged(engine, edit(engine, begin(engine), {"Hugh": {"health": health}}), "Hugh", "Olaf")
    out = play(engine, state, "fight", *dice, 3, 3, 1, 1, figure="Hugh")
    assert event(out, "fight").data["totals"]["Hugh"] == 3 + fight_score


def test_greatsword_rolls_three_damage_dice(engine: MedievalEngine) -> None:
    state = engaged(engine, edit(engine, begin(engine), {"Hugh": {"weapons": ["Greatsword"]}}), "Hugh", "Olaf")
    out = play(engine, state, "fight", 6, 1, 1, 2, 1, figure="Hugh")
    wound = event(out, "wound")
    assert wound.data["dice"] == [1, 2, 1] and wound.data["score"] == 2 + 2 - 2


def test_fight_refusals_and_once_per_activation_a_med_16(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(engine, state, "fight", "Hugh is not in hand-to-hand", figure="Hugh")
    two = engaged(engine, engaged(engine, state, "Hugh", "Olaf"), "Hugh", "Sven")
    refuse(engine, two, "fight", "Hugh is fighting Olaf, Sven: name the opponent", figure="Hugh")
    refuse(engine, two, "fight", "Hugh is not in contact with Harald", figure="Hugh", opponent="Harald")
    refuse(engine, two, "fight", "Walt is on Hugh's own side", figure="Hugh", opponent="Walt")
    out = play(engine, two, "fight", 3, 3, figure="Hugh", opponent="Sven")
    refuse(engine, out.state, "fight", "Hugh has already fought this turn", figure="Hugh", opponent="Olaf")
    refuse(engine, two, "fight", "height: is none, mine or theirs.", figure="Hugh", opponent="Olaf", height="up")
    refuse(engine, two, "fight", "barricade: is none, mine or theirs.", figure="Hugh", opponent="Olaf", barricade="x")


def test_fighting_weapons(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Walt", "Bjorn")
    out = play(engine, state, "fight", 3, 3, figure="Walt")
    assert event(out, "fight").data["weapons"] == {"Walt": "Sword", "Bjorn": "Unarmed"}
    refuse(engine, state, "fight", "Walt's Bow is no hand-to-hand weapon", figure="Walt", weapon="bow")
    out = play(engine, state, "fight", 3, 3, figure="Walt", weapon="unarmed")
    assert event(out, "fight").data["weapons"]["Walt"] == "Unarmed"
    refuse(engine, state, "fight", "Walt does not carry “Greatsword”", figure="Walt", weapon="Greatsword")


# --- the wound chart and its state machine --------------------------------------------------------------


def test_the_seeds_example_sword_two_and_four(engine: MedievalEngine) -> None:
    """Seed: a sword hit rolling 2 and 4: 4 + 1 = 5, a Serious Wound; against a Mailshirt and a Small
    Shield (2 points) 5 − 2 = 3, only a Light Wound."""
    bare = engaged(engine, begin(engine), "Hugh", "Bjorn")
    out = play(engine, bare, "fight", 6, 1, 2, 4, figure="Hugh")
    wound = event(out, "wound")
    assert (wound.data["dice"], wound.data["highest"], wound.data["score"]) == ([2, 4], 4, 5)
    assert (wound.data["row"], wound.data["after"]) == ("Serious Wound", "serious")
    armoured = edit(engine, bare, {"Bjorn": {"armour": ["Mailshirt", "Small Shield"]}})
    out = play(engine, armoured, "fight", 6, 1, 2, 4, figure="Hugh")
    wound = event(out, "wound")
    assert (wound.data["armour"], wound.data["score"], wound.data["row"]) == (2, 3, "Light Wound")
    assert fig(out.state, "Bjorn").health == "light"
    assert wound.text.startswith(
        "Wound chart: Hugh's Sword hits Bjorn: dice 2, 4 → 4 + 1 Power − 2 Armour = 3: "
        "Light Wound. Bjorn goes from full health to lightly wounded: −2 speed, Bravery, "
        "shoot and fight (speed 4, Bravery 2, shoot 1, fight 1)"
    )


def hit_with(
    engine: MedievalEngine, armour: list[str], die: int, bravery_die: int | None = None, health: str = "full"
) -> Outcome[MedState]:
    """Walt's bow (power 0, 1 die) hits Bjorn wearing ``armour`` with damage ``die``."""
    state = edit(engine, begin(engine), {"Bjorn": {"armour": armour, "health": health}})
    dice = (6, die) if bravery_die is None else (6, die, bravery_die)
    return play(engine, state, "shoot", *dice, figure="Walt", target="Bjorn", range=5.0, shots=1)


@pytest.mark.parametrize(
    "armour, die, score, row, result",
    [
        (["Plate", "Large Shield"], 5, 0, "No Effect", "no_effect"),
        (["Plate", "Large Shield"], 1, -4, "No Effect", "no_effect"),
        (["Plate", "Large Shield"], 6, 1, "Knocked About", "knocked_about"),
        ([], 2, 2, "Light Wound", "light"),
        ([], 3, 3, "Light Wound", "light"),
        ([], 4, 4, "Serious Wound", "serious"),
        ([], 5, 5, "Serious Wound", "serious"),
        ([], 6, 6, "Killed", "killed"),
    ],
)
def test_every_row_of_the_wound_chart(
    engine: MedievalEngine, armour: list[str], die: int, score: int, row: str, result: str
) -> None:
    out = hit_with(engine, armour, die, 6 if result == "knocked_about" else None)
    wound = hit(out)
    assert (wound.data["score"], wound.data["row"], wound.data["result"]) == (score, row, result)
    assert wound.kind == ("unharmed" if result == "no_effect" else "wound")


def test_a_hit_with_no_effect_is_no_wound_and_draws_no_wound_card(engine: MedievalEngine) -> None:
    """Issue 19: a hit on the chart's No Effect row posted a wound card repeating the action's line."""
    out = hit_with(engine, ["Plate", "Large Shield"], 5)
    [unharmed] = [e for e in out.events if e.kind == "unharmed"]
    assert unharmed.text.endswith("= 0: No Effect. Bjorn has had a lucky escape and is unharmed.")
    assert unharmed.data["figure"] == "Bjorn" and unharmed.data["by"] == "Walt"
    assert "wound" not in kinds(out) and engine.odds_outcome(out.events) == "no effect"


@pytest.mark.parametrize(
    "die, outcome", [(6, "Bjorn: knocked about"), (2, "Bjorn: light wound"), (4, "Bjorn: serious wound")]
)
def test_odds_outcomes_are_spelled_as_every_ruleset_spells_them(engine: MedievalEngine, die: int, outcome: str) -> None:
    armour = ["Plate", "Large Shield"] if die == 6 else []
    out = hit_with(engine, armour, die, 6 if die == 6 else None)
    assert engine.odds_outcome(out.events) == outcome


def test_killed_is_removed_and_its_kit_may_be_plundered(engine: MedievalEngine) -> None:
    out = hit_with(engine, [], 6)
    casualty = event(out, "casualty")
    assert casualty.data == {"figure": "Bjorn", "side": "blue", "by": "Walt", "health": "killed"}
    assert "may be plundered" in casualty.text
    assert fig(out.state, "Bjorn").out_by == "Walt"
    line = next(line for line in engine.board(out.state).figures if line.name == "Bjorn")
    assert line.out and line.status.startswith("custom · killed by Walt")


@pytest.mark.parametrize(
    "before, die, after, words",
    [
        ("full", 2, "light", "Bjorn goes from full health to lightly wounded: −2 speed"),
        ("full", 4, "serious", "Bjorn goes from full health to seriously wounded: speed, shoot and fight halved"),
        ("full", 6, "killed", "Bjorn is killed."),
        ("light", 2, "serious", "Bjorn goes from lightly wounded to seriously wounded (a second light wound): "),
        ("light", 4, "serious", "Bjorn goes from lightly wounded to seriously wounded: "),
        ("light", 6, "killed", "Bjorn is killed."),
        ("serious", 2, "serious", "Bjorn was already seriously wounded and stays so: speed, shoot and fight halved"),
        ("serious", 4, "killed", "Bjorn was already seriously wounded: this serious wound kills it."),
        ("serious", 6, "killed", "Bjorn is killed."),
    ],
)
def test_wound_state_machine_a_med_1(engine: MedievalEngine, before: str, die: int, after: str, words: str) -> None:
    """Second light → serious; a light on a serious changes nothing; serious on serious kills."""
    out = hit_with(engine, [], die, health=before)
    assert fig(out.state, "Bjorn").health == after
    assert event(out, "wound").data["before"] == before
    assert words in event(out, "wound").text


@pytest.mark.parametrize(
    "before, die, heading",
    [
        ("full", 2, "Light Wound"),
        ("light", 2, "Light Wound, now seriously wounded"),
        ("light", 4, "Serious Wound"),
        ("serious", 2, "Light Wound"),
        ("serious", 4, "Serious Wound, now killed"),
    ],
)
def test_the_wound_cards_heading_says_the_state_a_wound_leaves(
    engine: MedievalEngine, before: str, die: int, heading: str
) -> None:
    """A second light wound makes a man seriously wounded: a card headed "Light Wound" alone misleads."""
    out = hit_with(engine, [], die, health=before)
    assert event(out, "wound").data["heading"] == heading


def test_a_serious_wound_on_a_healed_figure_clears_the_healed_mark(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Bjorn": {"health": "light", "healed_from_serious": True}})
    out = play(engine, state, "shoot", 6, 4, figure="Walt", target="Bjorn", range=5.0, shots=1)
    assert fig(out.state, "Bjorn").health == "serious" and not fig(out.state, "Bjorn").healed_from_serious


@pytest.mark.parametrize("breaks", [True, False])
def test_knocked_about_pass_knocked_back_a_med_7(breaks: bool) -> None:
    engine = make_engine({"knocked_back_breaks_contact": breaks})
    state = engaged(
        engine, edit(engine, begin(engine), {"Olaf": {"armour": ["Plate", "Large Shield"]}}), "Hugh", "Olaf"
    )
    out = play(engine, state, "fight", 6, 1, 5, 5, 5, figure="Hugh")
    assert kinds(out)[-3:] == ["wound", "bravery", "knocked-back"]
    assert event(out, "bravery").data == {
        "figure": "Olaf",
        "purpose": "knocked about",
        "roll": 5,
        "bravery": 4,
        "total": 9,
        "needed": 9,
        "passed": True,
    }
    assert "knocked back 1″ directly away from Hugh" in out.events[-1].text
    assert out.state.contacts == ([] if breaks else [["Hugh", "Olaf"]])
    assert not fig(out.state, "Olaf").prone


def test_knocked_about_fail_goes_prone(engine: MedievalEngine) -> None:
    out = hit_with(engine, ["Plate", "Large Shield"], 6, 4)
    assert event(out, "bravery").data["passed"] is False
    assert fig(out.state, "Bjorn").prone and kinds(out)[-1] == "prone"


# --- Bravery: serious wounds, breaking off ------------------------------------------------------------


@pytest.mark.parametrize("health, bravery", [("full", 4), ("light", 2), ("serious", 4)])
def test_bravery_with_wounds(engine: MedievalEngine, health: str, bravery: int) -> None:
    """Light wound −2 on reactions; a serious wound leaves Bravery alone (A-MED-5)."""
    out = hit_with(engine, ["Plate", "Large Shield"], 6, 6, health=health)
    assert event(out, "bravery").data["bravery"] == bravery


def test_serious_wound_test_at_activation_pass_a_med_6(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Hugh": {"health": "serious"}})
    out = play(engine, state, "move", 3, figure="Hugh", distance=3.0)
    assert play.last_dice.reasons == ["Hugh: Bravery test (serious wound), D6 + 6 vs 9"]
    assert kinds(out) == ["activation", "bravery", "move"]
    # Later actions in the same activation do not test again.
    assert kinds(play(engine, out.state, "move", figure="Hugh", distance=0.0, engage="Olaf")) == ["move", "contact"]


def test_serious_wound_test_at_activation_fail_collapses_a_med_6(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Ned": {"health": "serious"}})
    out = play(engine, state, "move", 4, figure="Ned", distance=3.0)
    assert kinds(out) == ["activation", "bravery", "casualty"]
    assert fig(out.state, "Ned").health == "collapsed" and fig(out.state, "Ned").moved == 0
    assert "collapses from its injuries" in out.events[-1].text
    assert out.state.current is None
    refuse(engine, out.state, "heal", "Ned is collapsed and cannot be treated", figure="Hugh", patient="Ned")


def test_the_last_figure_collapsing_loses_the_game(engine: MedievalEngine) -> None:
    figures = roster(red=[("Ned", "Man at Arms", {})], blue=[("Olaf", "Viking Warrior", {})])
    state = edit(engine, begin(engine, figures=figures), {"Ned": {"health": "serious"}})
    out = play(engine, state, "activate", 1, figure="Ned")
    assert kinds(out)[-2:] == ["casualty", "victory"]
    assert engine.winner(out.state) == "blue" and engine.finished(out.state)


def test_breaking_off_wins_and_moves_away_a_med_2(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Hugh", "Olaf")
    out = play(engine, state, "breakoff", 3, 4, figure="Hugh", distance=3.0)
    assert play.last_dice.reasons == [
        "Hugh: Bravery to break off from Olaf, D6 + 6",
        "Olaf: Bravery to hold Hugh, D6 + 4",
    ]
    assert event(out, "breakoff").data["totals"] == {"Hugh": 9, "Olaf": 8}
    assert out.state.contacts == [] and fig(out.state, "Hugh").moved == 3.0


@pytest.mark.parametrize("escapes", [True, False])
def test_a_tied_break_off_lets_the_mover_go_a_med_2(escapes: bool) -> None:
    engine = make_engine({"breakoff_tie_mover_escapes": escapes})
    state = engaged(engine, begin(engine), "Hugh", "Olaf")
    out = play(engine, state, "breakoff", 2, 4, figure="Hugh", distance=3.0)
    assert event(out, "breakoff").data["escaped"] is escapes
    assert (out.state.contacts == []) is escapes


def test_losing_a_break_off_holds_the_mover(engine: MedievalEngine) -> None:
    """Seed: "If the opponent wins this contest, the moving model may move no further that turn"."""
    state = engaged(engine, begin(engine), "Ned", "Harald")
    out = play(engine, state, "breakoff", 6, 5, figure="Ned", distance=2.0)
    assert kinds(out) == ["activation", "breakoff", "held"] and fig(out.state, "Ned").stuck
    assert out.state.contacts == [["Ned", "Harald"]]
    held = (
        "Ned lost its break-off and stays in hand-to-hand with Harald this turn: it may still fight (/medieval fight)."
    )
    assert event(out, "held").text.endswith("it may still fight (/medieval fight).")
    for action, params in (("breakoff", {"distance": 1.0}), ("move", {"distance": 1.0})):
        refuse(engine, out.state, action, held, figure="Ned", **params)  # issue 19: no hint to break off again
    assert kinds(play(engine, out.state, "fight", 1, 6, 1, 1, figure="Ned"))[0] == "fight"


def test_breaking_off_from_two_stops_at_the_first_that_holds(engine: MedievalEngine) -> None:
    state = engaged(engine, engaged(engine, begin(engine), "Hugh", "Olaf"), "Hugh", "Sven")
    out = play(engine, state, "breakoff", 5, 1, 1, 6, figure="Hugh", distance=2.0)
    assert [e.data["escaped"] for e in out.events if e.kind == "breakoff"] == [True, False]
    assert out.state.contacts == [["Hugh", "Olaf"], ["Hugh", "Sven"]]


def test_break_off_refusals(engine: MedievalEngine) -> None:
    state = begin(engine)
    refuse(engine, state, "breakoff", "Hugh is not in hand-to-hand", figure="Hugh", distance=2.0)
    held = engaged(engine, state, "Hugh", "Olaf")
    refuse(engine, held, "breakoff", "more than 0″", figure="Hugh", distance=0.0)
    refuse(engine, held, "breakoff", "only 6″ of movement left", figure="Hugh", distance=7.0)
    refuse(
        engine, edit(engine, held, {"Hugh": {"prone": True}}), "breakoff", "Hugh is prone", figure="Hugh", distance=2.0
    )


def test_light_wound_lowers_the_break_off_bravery(engine: MedievalEngine) -> None:
    state = engaged(engine, edit(engine, begin(engine), {"Hugh": {"health": "light"}}), "Hugh", "Olaf")
    out = play(engine, state, "breakoff", 3, 3, figure="Hugh", distance=1.0)
    assert event(out, "breakoff").data["totals"] == {"Hugh": 7, "Olaf": 7}


# --- healing (A-MED-15) ----------------------------------------------------------------------------


def test_healing_light_to_full(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Hugh": {"health": "light"}})
    out = play(engine, state, "heal", figure="Ada", patient="Hugh")
    assert fig(out.state, "Hugh").health == "full" and out.state.current is None
    assert out.events[-1].text == "Ada treats Hugh: lightly wounded → full health. Ada's activation is spent."
    refuse(engine, out.state, "move", "Ada has already been activated", figure="Ada", distance=1.0)


def test_healing_serious_to_light_and_no_further(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Hugh": {"health": "serious"}})
    out = play(engine, state, "heal", figure="Ada", patient="Hugh")
    hugh = fig(out.state, "Hugh")
    assert (hugh.health, hugh.healed_from_serious) == ("light", True)
    assert "cannot be healed back to full health" in next(
        line.status for line in engine.board(out.state).figures if line.name == "Hugh"
    )
    refuse(
        engine,
        out.state,
        "heal",
        "Hugh was treated for a serious wound and cannot be healed to full health",
        figure="Ned",
        patient="Hugh",
    )


def test_healing_refusals(engine: MedievalEngine) -> None:
    state = edit(
        engine, begin(engine), {"Hugh": {"health": "light"}, "Olaf": {"health": "light"}, "Ned": {"health": "killed"}}
    )
    refuse(engine, state, "heal", "Ada cannot treat itself", figure="Ada", patient="Ada")
    refuse(engine, state, "heal", "Walt is not wounded", figure="Ada", patient="Walt")
    refuse(engine, state, "heal", "Olaf is an enemy", figure="Ada", patient="Olaf")
    refuse(engine, state, "heal", "Ned is killed and cannot be treated", figure="Ada", patient="Ned")
    refuse(engine, state, "heal", "Give patient: (The wounded friend).", figure="Ada")
    refuse(
        engine,
        engaged(engine, state, "Ada", "Olaf"),
        "heal",
        "Ada is in hand-to-hand with Olaf",
        figure="Ada",
        patient="Hugh",
    )
    shot_first = play(engine, state, "shoot", 1, figure="Ada", target="Olaf", range=1.0).state
    refuse(engine, shot_first, "heal", "Ada has shot or fought this turn", figure="Ada", patient="Hugh")


def test_house_rules_allow_self_healing_and_healing_after_shooting() -> None:
    engine = make_engine({"self_healing": True, "healer_may_have_shot_or_fought": True})
    state = edit(engine, begin(engine), {"Ada": {"health": "light"}})
    state = play(engine, state, "shoot", 1, figure="Ada", target="Olaf", range=1.0).state
    out = play(engine, state, "heal", figure="Ada", patient="Ada")
    assert fig(out.state, "Ada").health == "full" and "Ada treats itself" in out.events[-1].text


# --- plunder ---------------------------------------------------------------------------------------


def test_plundering_a_killed_figure(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Olaf": {"health": "killed"}, "Ada": {"armour": []}})
    out = play(engine, state, "pickup", figure="Ada", item="battleaxe", source="Olaf")
    assert fig(out.state, "Ada").weapons == ["Dagger", "Battleaxe"] and fig(out.state, "Olaf").weapons == []
    out = play(engine, out.state, "pickup", figure="Ada", item="small-shield", source="olaf")
    assert fig(out.state, "Ada").armour == ["Small Shield"]
    assert out.events[-1].text == "Ada plunders Olaf's Small Shield."
    refuse(
        engine,
        out.state,
        "pickup",
        "Olaf has no “Small Shield” (it has Leather)",
        figure="Ada",
        item="Small Shield",
        source="Olaf",
    )
    refuse(
        engine,
        state,
        "pickup",
        "Hugh already has Chainmail: one piece of body armour at most",
        figure="Hugh",
        item="leather",
        source="Olaf",
    )


def test_plunder_refusals_and_the_collapsed_switch() -> None:
    engine = make_engine()
    state = edit(engine, begin(engine), {"Sven": {"health": "collapsed"}})
    refuse(
        engine,
        state,
        "pickup",
        "Olaf is full health: only killed figures may be plundered",
        figure="Ada",
        item="battleaxe",
        source="Olaf",
    )
    refuse(engine, state, "pickup", "Sven is collapsed", figure="Ada", item="battleaxe", source="Sven")
    refuse(
        engine,
        engaged(engine, state, "Ada", "Olaf"),
        "pickup",
        "no time to pick anything up",
        figure="Ada",
        item="dagger",
    )
    refuse(engine, state, "pickup", "Give item: (The weapon or armour (Dagger, Sword, Small Shield...)).", figure="Ada")
    loose = make_engine({"plunder_from": ["killed", "collapsed"]})
    state = edit(loose, begin(loose), {"Sven": {"health": "collapsed"}})
    assert (
        "Dagger" in fig(play(loose, state, "pickup", figure="Hugh", item="dagger", source="Sven").state, "Hugh").weapons
    )


# --- board, storage -----------------------------------------------------------------------------------


def test_board_shows_health_penalties_and_kit(engine: MedievalEngine) -> None:
    state = edit(engine, begin(engine), {"Hugh": {"health": "light"}, "Olaf": {"health": "serious", "prone": True}})
    state = play(engine, state, "move", figure="Hugh", distance=2.0, engage="Olaf").state
    board = engine.board(state)
    assert board.headline == "Turn 1 · red's turn · activating Hugh"
    lines = {line.name: line.status for line in board.figures}
    assert lines["Hugh"] == (
        "Knight · lightly wounded: −2 speed, Bravery, shoot and fight (speed 4, Bravery 4, "
        "shoot 2, fight 2) · Sword; Chainmail + Small Shield (armour 3) · fighting Olaf · "
        "moved 2″ of 4″ · activated now"
    )
    assert lines["Olaf"] == (
        "Viking Warrior · seriously wounded: speed, shoot and fight halved (speed 3, Bravery 4, "
        "shoot 1, fight 2); a Bravery test at each activation or it collapses · Battleaxe; "
        "Leather + Small Shield (armour 2) · prone · fighting Hugh"
    )
    assert lines["Walt"] == "Man at Arms · full health · Bow, Sword; Leather (armour 1)"
    assert lines["Ada"] == "custom · full health · Dagger; no armour"
    facts = dict(board.facts)
    assert facts["In hand-to-hand"] == "Hugh – Olaf" and facts["Out of action"] == "red 0/4 · blue 0/4"
    assert facts["Activating"] == "Hugh" and facts["First"] == "red"
    assert all(len(line.status) < 250 for line in board.figures)


def test_state_round_trips_through_json(engine: MedievalEngine) -> None:
    state = engaged(engine, begin(engine), "Hugh", "Olaf")
    state = play(engine, state, "shoot", 1, figure="Ada", target="Olaf", range=1.0).state
    state = play(engine, state, "fight", 6, 1, 5, 5, figure="Hugh").state
    data = json.loads(json.dumps(engine.dump_state(state)))
    assert engine.load_state(data) == state
    pending = engine.start(roster(), ScriptedDice(1, 2)).state
    assert engine.load_state(json.loads(json.dumps(engine.dump_state(pending)))) == pending


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"active": "green"}, "active"),
        ({"contacts": [["Hugh", "Nobody"]]}, "contacts[0]"),
        ({"current": "Nobody"}, "current"),
        ({"phase": "lunch"}, "phase"),
    ],
)
def test_load_state_refuses_bad_data(engine: MedievalEngine, change: dict, fragment: str) -> None:
    data = engine.dump_state(begin(engine))
    data.update(change)
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert fragment in caught.value.message


def test_load_state_refuses_unknown_kit(engine: MedievalEngine) -> None:
    data = engine.dump_state(begin(engine))
    data["figures"][0]["weapons"] = ["Lightsaber"]
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert "figures[0].weapons" in caught.value.message


def test_the_game_over_refuses_everything(engine: MedievalEngine) -> None:
    figures = roster(
        red=[("Walt", "Man at Arms", {"weapons": "bow", "armour": "none"})],
        blue=[("Bjorn", "custom", {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3})],
    )
    out = play(engine, begin(engine, figures=figures), "shoot", 6, 6, figure="Walt", target="Bjorn", range=2.0)
    assert kinds(out)[-3:] == ["wound", "casualty", "victory"]
    assert out.events[-1].text == "red wins: none of blue's figures is left in action."
    assert engine.board(out.state).headline == "Game over: red won"
    assert engine.whose_turn(out.state) is None
    refuse(engine, out.state, "endturn", "The game is over: red won.")


# --- hostile values ----------------------------------------------------------------------------------

NASTY: list[Any] = [
    None,
    "",
    " ",
    "\u200b",
    "x" * 10_000,
    "@everyone",
    "🧨" * 50,
    -1,
    0,
    2.5,
    1e300,
    float("inf"),
    float("nan"),
    True,
    [],
    {},
    "Olaf",
    "olaf",
    "Walt",
    "Ada",
    "Hugh",
    "Bjorn",
    "hard",
    "mine",
    "dagger",
    "Sword",
    "Small Shield",
]
PARAMS = [
    "figure",
    "target",
    "range",
    "distance",
    "engage",
    "cover",
    "shots",
    "weapon",
    "opponent",
    "height",
    "barricade",
    "patient",
    "item",
    "source",
    "choice",
]


@pytest.mark.parametrize(
    "name", ["activate", "move", "stand", "shoot", "fight", "breakoff", "heal", "pickup", "endturn", "order"]
)
def test_hostile_values_give_a_result_or_a_sentence(engine: MedievalEngine, name: str) -> None:
    """Whatever the options hold: an outcome that round-trips, or a RuleError that changed nothing."""
    rng = random.Random(name)
    state = engaged(
        engine,
        edit(
            engine, begin(engine), {"Olaf": {"health": "killed"}, "Hugh": {"prone": True}, "Ned": {"health": "light"}}
        ),
        "Ada",
        "Sven",
    )
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    for trial in range(150):
        params = {k: rng.choice(NASTY) for k in rng.sample(PARAMS, rng.randint(0, len(PARAMS)))}
        try:
            out = engine.act(state, Action(name, "red", params), RandomDice(trial))
        except RuleError as exc:
            assert len(exc.message) < 300 and "Traceback" not in exc.message
        else:
            assert engine.load_state(json.loads(json.dumps(engine.dump_state(out.state)))) == out.state
        assert json.dumps(engine.dump_state(state), sort_keys=True) == before
