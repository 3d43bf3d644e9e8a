"""The Simple Skirmish Game engine (RULES-NOTES.md section 4), with forced and seeded dice.

Tests that rest on a resolution of the notes cite it (A-SSG-n).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import pytest

from rules import get_engine, ruleset_titles
from rules.core import Action, DataError, FigureSpec, Outcome, RuleError
from rules.ssg.engine import SsgEngine, SsgState, make_engine
from tests.dice import RandomDice, ScriptedDice

RED = ["Rossi", "Garcia", "Chen", "Dubois", "Evans", "Fox"]
BLUE = ["Big Jim", "Slim", "Doc", "Tex", "Hank", "Kid"]
WEAPONS = {"Rossi": "rifle", "Garcia": "smg", "Chen": "pistol", "Big Jim": "rifle", "Slim": "smg", "Doc": "pistol"}


def roster(red: Sequence[str] = RED, blue: Sequence[str] = BLUE) -> list[FigureSpec]:
    specs = [FigureSpec(n, "red", WEAPONS.get(n, "rifle")) for n in red]
    return specs + [FigureSpec(n, "blue", WEAPONS.get(n, "rifle")) for n in blue]


def begin(engine: SsgEngine, first: str = "red") -> SsgState:
    dice = ScriptedDice(6, 1) if first == "red" else ScriptedDice(1, 6)
    return engine.start(roster(), dice).state


def play(
    engine: SsgEngine,
    state: SsgState,
    name: str,
    *dice: int,
    side: str | None = "active",
    by_gm: bool = False,
    **params: Any,
) -> Outcome[SsgState]:
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
    engine: SsgEngine,
    state: SsgState,
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


def edit(engine: SsgEngine, state: SsgState, removed: Sequence[str] = (), **changes: Any) -> SsgState:
    """A copy of ``state`` with figures removed and top-level fields changed (through the data)."""
    data = engine.dump_state(state)
    for fig in data["figures"]:
        if fig["name"] in removed:
            fig["removed"] = True
            fig["removed_by"] = "the scenario"
    data.update(changes)
    return engine.load_state(data)


def shooting(engine: SsgEngine, first: str = "red") -> SsgState:
    state = begin(engine, first)
    return play(engine, state, "next").state


def melee_with(engine: SsgEngine, *pairs: tuple[str, str]) -> SsgState:
    """Red's turn 1 melee phase with each (red figure, blue figure) pair in contact."""
    state = begin(engine)
    for mine, theirs in pairs:
        state = play(engine, state, "move", figure=mine, distance=2.0, contact=theirs).state
    return play(engine, state, "next").state


def fig(state: SsgState, name: str):
    return next(f for f in state.figures if f.name == name)


def kinds(outcome: Outcome[SsgState]) -> list[str]:
    return [e.kind for e in outcome.events]


def shoot(
    engine: SsgEngine, state: SsgState, shooter: str, target: str, rng: float, los: str, *dice: int, **extra: Any
) -> Outcome[SsgState]:
    params = {"shooter": shooter, "target": target, "range": rng, "los": los, "dice": None, **extra}
    return play(engine, state, "shoot", *dice, **params)


# --- tables and the engine's identity --------------------------------------------------------------


def test_identity_and_registry(engine: SsgEngine) -> None:
    assert engine.slug == "ssg"
    assert engine.title == "Simple Skirmish Game"
    assert list(engine.sides()) == ["red", "blue"]
    assert list(engine.kinds()) == ["rifle", "pistol", "smg"]
    assert ruleset_titles()["ssg"] == "Simple Skirmish Game"
    assert isinstance(get_engine("ssg"), SsgEngine)


def test_tables_hold_the_seed_numbers(engine: SsgEngine) -> None:
    t = engine.tables
    assert (t.weapons["rifle"].short, t.weapons["rifle"].long, t.weapons["rifle"].rof) == (12, 24, 1)
    assert (t.weapons["pistol"].short, t.weapons["pistol"].long, t.weapons["pistol"].rof) == (6, 12, 1)
    assert (t.weapons["smg"].short, t.weapons["smg"].long, t.weapons["smg"].rof) == (6, 12, 3)
    assert t.hit_if_modified_d6_at_least == 5
    assert (t.drm.clear_los, t.drm.partial_los, t.drm.beyond_short_range) == (0, -1, -1)
    assert t.move_max_inches == 4
    assert t.contact_inches == 1
    assert t.victory_removed == 4
    assert t.figures_per_side == 6
    assert t.setup_within_inches_of_home == 2
    assert t.default_weapon == "rifle"


def test_house_rule_overrides_one_key_only() -> None:
    engine = make_engine({"weapons": {"rifle": {"long": 30}}})
    assert engine.tables.weapons["rifle"].long == 30
    assert engine.tables.weapons["rifle"].short == 12
    assert engine.tables.weapons["smg"].rof == 3
    state = shooting(engine)
    out = shoot(engine, state, "Rossi", "Big Jim", 27.0, "clear", 6)
    assert fig(out.state, "Big Jim").removed
    refuse(
        make_engine(),
        shooting(make_engine()),
        "shoot",
        "reaches 24″",
        shooter="Rossi",
        target="Big Jim",
        range=27.0,
        los="clear",
    )


def test_house_rule_changes_victory_and_hit_number() -> None:
    engine = make_engine({"victory_removed": 1, "hit_if_modified_d6_at_least": 6})
    state = shooting(engine)
    assert shoot(engine, state, "Rossi", "Big Jim", 3.0, "clear", 5).events[0].data["hit"] is False
    out = shoot(engine, state, "Rossi", "Big Jim", 3.0, "clear", 6)
    assert out.state.winner == "red"


def test_house_rule_new_weapon_is_a_kind() -> None:
    engine = make_engine({"weapons": {"shotgun": {"short": 3, "long": 6, "rof": 2}}})
    assert "shotgun" in engine.kinds()
    assert engine.check_figure(FigureSpec("Ash", "red", "Shotgun")).kind == "shotgun"


def test_malformed_house_rule_names_its_path() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"weapons": {"rifle": {"long": "far"}}, "move_max_inches": [4]})
    problems = caught.value.problems
    assert any(p.startswith("weapons.rifle.long:") and "number" in p for p in problems), problems
    assert any(p.startswith("move_max_inches:") for p in problems), problems


def test_unknown_house_rule_key_is_reported() -> None:
    with pytest.raises(DataError) as caught:
        make_engine({"wepons": {}})
    assert "unknown key 'wepons'" in caught.value.message


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"weapons": {"rifle": {"short": 30}}}, "weapons.rifle: short range 30 is more than long range 24"),
        ({"weapons": {"smg": {"rof": 0}}}, "weapons.smg.rof: must be at least 1"),
        ({"weapons": {"pistol": {"short": 0}}}, "weapons.pistol.short: must be more than 0"),
        ({"weapon_aliases": {"blaster": "raygun"}}, "weapon_aliases.blaster"),
        ({"default_weapon": "bow"}, "default_weapon"),
        ({"victory_removed": 7}, "victory_removed"),
        ({"victory_removed": 0}, "victory_removed"),
        ({"figures_per_side": 0}, "figures_per_side"),
        ({"sides": ["red", "blue", "green"]}, "sides"),
        ({"sides": ["red", "Red"]}, "sides"),
        ({"move_max_inches": 0}, "move_max_inches"),
        ({"contact_inches": -1}, "contact_inches"),
    ],
)
def test_table_checks_types_cannot_make(override: dict[str, Any], fragment: str) -> None:
    with pytest.raises(DataError) as caught:
        make_engine(override)
    assert fragment in caught.value.message


# --- roster ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, weapon",
    [
        ("rifle", "rifle"),
        ("RIFLE", "rifle"),
        ("Pistol", "pistol"),
        ("smg", "smg"),
        ("SMG", "smg"),
        ("Submachine Gun", "smg"),
        ("sub-machine gun", "smg"),
        ("sub  machine   gun", "smg"),
    ],
)
def test_check_figure_normalises_weapons(engine: SsgEngine, kind: str, weapon: str) -> None:
    assert engine.check_figure(FigureSpec("Rossi", "red", kind)).kind == weapon


def test_check_figure_defaults_to_rifle_a_ssg_9(engine: SsgEngine) -> None:
    """A-SSG-9: weapons are the players' choice; a figure without one carries a rifle."""
    assert engine.check_figure(FigureSpec("Rossi", "red", "")).kind == "rifle"


def test_check_figure_normalises_name_and_side(engine: SsgEngine) -> None:
    spec = engine.check_figure(FigureSpec("  Big   Jim ", "Blue", "rifle"))
    assert (spec.name, spec.side, spec.kind, dict(spec.stats)) == ("Big Jim", "blue", "rifle", {})


@pytest.mark.parametrize(
    "spec, fragment",
    [
        (FigureSpec("Rossi", "red", "bazooka"), "does not know: use one of rifle, pistol, smg"),
        (FigureSpec("   ", "red", "rifle"), "A figure needs a name."),
        (FigureSpec("Rossi", "red", "rifle", {"fight": 3}), "leave the stats empty"),
        (FigureSpec("Rossi", "green", "rifle"), "use red or blue"),
    ],
)
def test_check_figure_refuses(engine: SsgEngine, spec: FigureSpec, fragment: str) -> None:
    with pytest.raises(RuleError) as caught:
        engine.check_figure(spec)
    assert fragment in caught.value.message


# --- start and roll-off ----------------------------------------------------------------------------


def test_roll_off_higher_goes_first(engine: SsgEngine) -> None:
    dice = ScriptedDice(2, 5)
    out = engine.start(roster(), dice)
    assert dice.rolls == [(6, 2, "Roll-off: red"), (6, 5, "Roll-off: blue")]
    assert (out.state.first, out.state.active, out.state.phase, out.state.turn) == ("blue", "blue", "movement", 1)
    assert kinds(out) == ["roll-off", "phase"]
    assert out.events[0].data["rolls"] == {"red": 2, "blue": 5}
    assert out.events[0].data["winner"] == "blue"
    assert "2″ of its home base" in out.events[1].text
    assert out.state.sides == ["red", "blue"]
    assert len(out.state.figures) == 12 and not out.state.contacts and out.state.winner is None


def test_roll_off_ties_are_rolled_again(engine: SsgEngine) -> None:
    dice = ScriptedDice(3, 3, 6, 6, 4, 1)
    out = engine.start(roster(), dice)
    assert dice.reasons == ["Roll-off: red", "Roll-off: blue"] * 3
    assert out.state.first == "red" and out.state.active == "red"
    assert kinds(out) == ["roll-off", "roll-off", "roll-off", "phase"]
    assert [e.data["winner"] for e in out.events[:3]] == [None, None, "red"]
    assert "tie" in out.events[0].text


def test_start_keeps_weapons_and_names(engine: SsgEngine) -> None:
    state = begin(engine)
    assert fig(state, "Garcia").weapon == "smg"
    assert fig(state, "Chen").weapon == "pistol"
    assert [f.side for f in state.figures] == ["red"] * 6 + ["blue"] * 6


@pytest.mark.parametrize(
    "figures, message",
    [
        (roster(blue=BLUE[:4]), "Each side needs 6 figures: blue has 4. Add 2 with /roster add, or name 6"),
        (roster(blue=[]), "Each side needs 6 figures: blue has 0."),
        (
            roster(red=[*RED, "Extra"]),
            'Each side needs 6 figures: red has 7. Choose who fights: /game start figures:"Rossi, Garcia, …" '
            "names 6 a side, separated by commas.",
        ),
        (roster(blue=[*BLUE[:5], "rossi"]), "Two figures are called “rossi”"),
        ([*roster(), FigureSpec("Zed", "green", "rifle")], "no side called “green”"),
    ],
)
def test_start_refuses_bad_rosters(engine: SsgEngine, figures: list[FigureSpec], message: str) -> None:
    dice = ScriptedDice(6, 1)
    with pytest.raises(RuleError) as caught:
        engine.start(figures, dice)
    assert message in caught.value.message
    assert dice.rolls == []


# --- turn, side and action checks ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["move", "melee", "shoot", "next"])
def test_only_the_active_side_acts(engine: SsgEngine, name: str) -> None:
    state = begin(engine)
    refuse(engine, state, name, "It is red's turn.", side="blue", figure="Big Jim", distance=1.0)
    refuse(engine, state, name, "It is red's turn.", side=None)


def test_side_names_match_case_insensitively(engine: SsgEngine) -> None:
    out = play(engine, begin(engine), "next", side="RED")
    assert out.state.phase == "shooting"


def test_game_master_acts_for_anyone(engine: SsgEngine) -> None:
    state = begin(engine)
    out = play(engine, state, "move", side=None, by_gm=True, figure="Rossi", distance=2.0)
    assert fig(out.state, "Rossi").moved == 2.0
    out = play(engine, out.state, "next", side="blue", by_gm=True)
    assert out.state.phase == "shooting"


def test_unknown_action_is_refused(engine: SsgEngine) -> None:
    refuse(engine, begin(engine), "charge", "no action called “charge”")


def test_whose_turn_winner_finished(engine: SsgEngine) -> None:
    state = begin(engine, "blue")
    assert engine.whose_turn(state) == "blue"
    assert engine.winner(state) is None and not engine.finished(state)


# --- phases and turns ------------------------------------------------------------------------------


def test_next_skips_melee_without_contacts(engine: SsgEngine) -> None:
    out = play(engine, begin(engine), "next")
    assert out.state.phase == "shooting"
    assert kinds(out) == ["phase"]
    assert "no melee" in out.events[0].text
    assert out.events[0].data == {"turn": 1, "active": "red", "phase": "shooting"}


def test_next_enters_melee_with_contacts(engine: SsgEngine) -> None:
    state = play(engine, begin(engine), "move", figure="Rossi", distance=3.0, contact="Big Jim").state
    out = play(engine, state, "next")
    assert out.state.phase == "melee"
    assert "Rossi – Big Jim" in out.events[0].text


def test_melee_cannot_end_while_contacts_remain(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"))
    refuse(engine, state, "next", "Rossi and Big Jim are still in contact: resolve them with /ssg melee.")


def test_turns_alternate_and_count_from_the_first_side(engine: SsgEngine) -> None:
    state = begin(engine, "blue")
    seen = []
    for _ in range(8):
        seen.append((state.turn, state.active, state.phase))
        state = play(engine, state, "next").state
    assert seen == [
        (1, "blue", "movement"),
        (1, "blue", "shooting"),
        (1, "red", "movement"),
        (1, "red", "shooting"),
        (2, "blue", "movement"),
        (2, "blue", "shooting"),
        (2, "red", "movement"),
        (2, "red", "shooting"),
    ]
    assert (state.turn, state.active, state.phase) == (3, "blue", "movement")


def test_end_of_turn_resets_moves_and_shots(engine: SsgEngine) -> None:
    state = play(engine, begin(engine), "move", figure="Rossi", distance=4.0).state
    state = play(engine, state, "next").state
    state = shoot(engine, state, "Rossi", "Big Jim", 30 / 2, "clear", 1).state
    out = play(engine, state, "next")
    assert (out.state.active, out.state.phase, out.state.turn) == ("blue", "movement", 1)
    assert out.events[0].text == "Turn 1 · blue · movement phase."
    assert fig(out.state, "Rossi").moved == 0 and not fig(out.state, "Rossi").shot
    # Red moves its full 4" again next turn.
    state = play(engine, play(engine, out.state, "next").state, "next").state
    assert (state.turn, state.active) == (2, "red")
    assert fig(play(engine, state, "move", figure="Rossi", distance=4.0).state, "Rossi").moved == 4


@pytest.mark.parametrize(
    "name, phase_needed, params",
    [
        ("move", "movement", {"figure": "Rossi", "distance": 1.0}),
        ("melee", "melee", {}),
        ("shoot", "shooting", {"shooter": "Rossi", "target": "Big Jim", "range": 3.0, "los": "clear"}),
    ],
)
def test_actions_out_of_phase_are_refused(
    engine: SsgEngine, name: str, phase_needed: str, params: dict[str, Any]
) -> None:
    states = {
        "movement": begin(engine),
        "shooting": shooting(engine),
        "melee": melee_with(engine, ("Rossi", "Big Jim")),
    }
    for phase, state in states.items():
        if phase != phase_needed:
            refuse(engine, state, name, f"only in the {phase_needed} phase; it is the {phase} phase now", **params)


# --- movement --------------------------------------------------------------------------------------


def test_figure_moves_several_times_up_to_four_inches(engine: SsgEngine) -> None:
    state = begin(engine)
    out = play(engine, state, "move", figure="rossi", distance=1.5)
    assert out.events[0].kind == "move"
    assert out.events[0].text == "Rossi moves 1.5″ (2.5″ left)."
    assert out.events[0].data == {"figure": "Rossi", "distance": 1.5, "moved": 1.5, "left": 2.5}
    state = play(engine, out.state, "move", figure="Rossi", distance=2.5).state
    assert fig(state, "Rossi").moved == 4
    refuse(engine, state, "move", "Rossi has already moved 4″ this turn.", figure="Rossi", distance=0.5)


def test_move_beyond_what_is_left_is_refused(engine: SsgEngine) -> None:
    state = play(engine, begin(engine), "move", figure="Rossi", distance=3.0).state
    refuse(engine, state, "move", "Rossi has only 1″ of movement left this turn.", figure="Rossi", distance=1.5)
    refuse(engine, begin(engine), "move", "Rossi has only 4″", figure="Rossi", distance=4.01)
    assert fig(play(engine, state, "move", figure="Rossi", distance=1.0).state, "Rossi").moved == 4


def test_fractional_moves_add_up_exactly(engine: SsgEngine) -> None:
    state = begin(engine)
    for step in (1.1, 0.7, 2.2):
        state = play(engine, state, "move", figure="Rossi", distance=step).state
    assert math.isclose(fig(state, "Rossi").moved, 4.0)
    assert engine.board(state).figures[0].status == "rifle · moved 4″"


def test_any_or_all_figures_move(engine: SsgEngine) -> None:
    state = begin(engine)
    for name in RED:
        state = play(engine, state, "move", figure=name, distance=4).state
    assert all(fig(state, n).moved == 4 for n in RED)
    assert all(fig(state, n).moved == 0 for n in BLUE)


@pytest.mark.parametrize(
    ("distance", "message"),
    [
        (0.0, "Rossi"),
        (None, "Rossi"),
        (-1.0, "distance: takes a number from 0 to 1000."),
        (float("nan"), "distance: takes a number from 0 to 1000."),
        (float("inf"), "distance: takes a number from 0 to 1000."),
        ("3", "distance: takes a number from 0 to 1000."),
    ],
)
def test_move_needs_a_positive_distance(engine: SsgEngine, distance: Any, message: str) -> None:
    refuse(engine, begin(engine), "move", message, figure="Rossi", distance=distance)


def test_moving_enemy_unknown_or_removed_figures_is_refused(engine: SsgEngine) -> None:
    state = begin(engine)
    refuse(
        engine,
        state,
        "move",
        "Big Jim is blue's figure: only red's figures move this turn.",
        figure="Big Jim",
        distance=1.0,
    )
    refuse(engine, state, "move", "There is no figure called “Nobody”", figure="Nobody", distance=1.0)
    refuse(
        engine,
        edit(engine, state, removed=["Rossi"]),
        "move",
        "Rossi has been removed from play.",
        figure="Rossi",
        distance=1.0,
    )


def test_contact_stops_the_figure(engine: SsgEngine) -> None:
    out = play(engine, begin(engine), "move", figure="Rossi", distance=2.0, contact="big jim")
    assert kinds(out) == ["move", "contact"]
    assert out.events[1].text.startswith("Rossi comes within 1″ of Big Jim and stops")
    assert out.events[1].data == {"figure": "Rossi", "enemy": "Big Jim", "inches": 1.0}
    assert out.state.contacts == [["Rossi", "Big Jim"]]
    refuse(engine, out.state, "move", "Rossi is in contact with Big Jim and may not move", figure="Rossi", distance=1.0)
    assert engine.board(out.state).figures[0].status == "rifle · moved 2″ · in contact with Big Jim"


def test_contact_must_be_a_standing_enemy(engine: SsgEngine) -> None:
    state = begin(engine)
    refuse(
        engine,
        state,
        "move",
        "Rossi cannot be in contact with Garcia: they are on the same side.",
        figure="Rossi",
        distance=1.0,
        contact="Garcia",
    )
    refuse(
        engine,
        edit(engine, state, removed=["Big Jim"]),
        "move",
        "Big Jim has been removed from play",
        figure="Rossi",
        distance=1.0,
        contact="Big Jim",
    )
    refuse(
        engine, state, "move", "There is no figure called “Bigg Jim”", figure="Rossi", distance=1.0, contact="Bigg Jim"
    )


def test_several_figures_may_contact_one_enemy(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Garcia", "Big Jim"), ("Chen", "Slim"))
    assert state.contacts == [["Rossi", "Big Jim"], ["Garcia", "Big Jim"], ["Chen", "Slim"]]
    assert engine.board(state).facts[5] == ("In contact", "Rossi – Big Jim; Garcia – Big Jim; Chen – Slim")


# --- melee -----------------------------------------------------------------------------------------


def test_melee_duel_dice_order_and_removal(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"))
    out = play(engine, state, "melee", 5, 2)
    assert play.last_dice.rolls == [
        (6, 5, "Rossi: melee against Big Jim"),  # type: ignore[attr-defined]
        (6, 2, "Big Jim: melee against Rossi"),
    ]
    assert kinds(out) == ["melee", "casualty", "melee-over"]
    assert out.events[0].text == "Melee: Rossi 5, Big Jim 2: Rossi wins."
    assert out.events[1].data == {"figure": "Big Jim", "side": "blue", "by": "Rossi"}
    assert out.events[2].text == (
        "All melees are resolved: shoot with /ssg shoot, or end the melee phase with /ssg next."
    )
    assert fig(out.state, "Big Jim").removed and not fig(out.state, "Rossi").removed
    assert out.state.contacts == [] and out.state.phase == "melee"


def test_melee_active_figure_can_lose(engine: SsgEngine) -> None:
    out = play(engine, melee_with(engine, ("Rossi", "Big Jim")), "melee", 1, 6)
    assert fig(out.state, "Rossi").removed and fig(out.state, "Rossi").removed_by == "Big Jim"
    assert out.events[1].data == {"figure": "Rossi", "side": "red", "by": "Big Jim"}


def test_melee_ties_are_rolled_again(engine: SsgEngine) -> None:
    out = play(engine, melee_with(engine, ("Rossi", "Big Jim")), "melee", 4, 4, 6, 6, 2, 3)
    assert kinds(out) == ["melee", "melee", "melee", "casualty", "melee-over"]
    assert [e.data["winner"] for e in out.events[:3]] == [None, None, "Big Jim"]
    assert "tie, roll again" in out.events[0].text
    assert fig(out.state, "Rossi").removed


def test_multi_figure_melee_goes_on_until_one_side_is_clear_a_ssg_1(engine: SsgEngine) -> None:
    """A-SSG-1: duels one at a time; Big Jim beats Rossi, then must still fight Garcia."""
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Garcia", "Big Jim"))
    out = play(engine, state, "melee", 2, 5)
    assert fig(out.state, "Rossi").removed
    assert out.state.contacts == [["Garcia", "Big Jim"]] and out.state.phase == "melee"
    assert kinds(out) == ["melee", "casualty"]
    refuse(engine, out.state, "next", "Garcia and Big Jim are still in contact")
    out = play(engine, out.state, "melee", 6, 1)
    assert fig(out.state, "Big Jim").removed and out.state.phase == "melee" and not out.state.contacts


def test_losing_figure_drops_all_its_contacts(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Garcia", "Big Jim"))
    out = play(engine, state, "melee", 6, 1)
    assert out.state.contacts == [] and out.state.phase == "melee"
    assert not fig(out.state, "Garcia").removed


def test_active_player_chooses_pairings_a_ssg_1(engine: SsgEngine) -> None:
    """A-SSG-1: the active player picks the duel, by either figure or both."""
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Garcia", "Big Jim"), ("Chen", "Slim"))
    out = play(engine, state, "melee", 6, 1, fighter="Chen")
    assert fig(out.state, "Slim").removed
    out = play(engine, state, "melee", 6, 1, opponent="Slim")
    assert fig(out.state, "Slim").removed
    out = play(engine, state, "melee", 1, 6, fighter="Garcia", opponent="Big Jim")
    assert fig(out.state, "Garcia").removed
    assert out.state.contacts == [["Rossi", "Big Jim"], ["Chen", "Slim"]]
    # Naming the enemy first still rolls for the active side's figure first.
    play(engine, state, "melee", 6, 1, fighter="Big Jim", opponent="Garcia")
    assert play.last_dice.reasons[0] == "Garcia: melee against Big Jim"  # type: ignore[attr-defined]
    out = play(engine, state, "melee", 6, 1, fighter="Big Jim")
    assert play.last_dice.reasons[0] == "Rossi: melee against Big Jim"  # type: ignore[attr-defined]


def test_melee_pair_not_in_contact_is_refused(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Chen", "Slim"))
    refuse(engine, state, "melee", "Rossi and Slim are not in contact.", fighter="Rossi", opponent="Slim")
    refuse(engine, state, "melee", "Dubois is not in contact with an enemy figure.", fighter="Dubois")
    refuse(engine, state, "melee", "There is no figure called “Ghost”", fighter="Ghost")


def test_a_next_after_the_last_duel_opens_the_shooting_phase_it_never_skips_it(engine: SsgEngine) -> None:
    """Issue 19: the last duel used to move the game into shooting by itself, so the ``next`` a
    player typed to end the melee ended the shooting phase too, unseen. The melee phase now stays
    until the player ends it (or shoots)."""
    resolved = play(engine, melee_with(engine, ("Rossi", "Big Jim")), "melee", 6, 1).state
    assert (resolved.phase, resolved.contacts) == ("melee", [])
    assert engine.board(resolved).headline == "Turn 1 · red · melee phase"
    out = play(engine, resolved, "next")
    assert kinds(out) == ["phase"] and out.events[0].text == "Turn 1 · red · shooting phase."
    assert (out.state.active, out.state.phase) == ("red", "shooting")
    refuse(
        engine, resolved, "move", "Figures move only in the movement phase; it is the melee phase now.", figure="Rossi"
    )


def test_a_shot_after_the_last_duel_begins_the_shooting_phase(engine: SsgEngine) -> None:
    resolved = play(engine, melee_with(engine, ("Rossi", "Big Jim"), ("Chen", "Slim")), "melee", 6, 1).state
    refuse(engine, resolved, "shoot", "Figures shoot only in the shooting phase", **_rossi_at_slim())
    resolved = play(engine, resolved, "melee", 6, 1).state
    out = shoot(engine, resolved, "Rossi", "Doc", 5.0, "clear", 5)
    assert kinds(out) == ["phase", "shot", "casualty"] and out.state.phase == "shooting"


def _rossi_at_slim() -> dict[str, Any]:
    return {"shooter": "Rossi", "target": "Slim", "range": 5.0, "los": "clear", "dice": None}


def test_melee_winner_may_shoot_a_ssg_7(engine: SsgEngine) -> None:
    """A-SSG-7: nothing forbids a melee winner, or a figure that moved, from shooting."""
    state = play(engine, melee_with(engine, ("Rossi", "Big Jim")), "melee", 6, 1).state
    out = shoot(engine, state, "Rossi", "Slim", 5.0, "clear", 5)
    assert fig(out.state, "Slim").removed


def test_victory_in_melee_is_immediate_a_ssg_5(engine: SsgEngine) -> None:
    """A-SSG-5: the fourth removal ends the game even with other contacts outstanding."""
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Chen", "Slim"))
    state = edit(engine, state, removed=["Doc", "Tex", "Hank"])
    out = play(engine, state, "melee", 6, 2)
    assert kinds(out) == ["melee", "casualty", "victory"]
    assert out.events[2].data == {"winner": "red", "loser": "blue", "removed": 4}
    assert out.state.phase == "over" and out.state.winner == "red"


# --- shooting: ranges, LOS and the hit number ---------------------------------------------------------


@pytest.mark.parametrize(
    "weapon_holder, rng, los, natural, modifier, hit",
    [
        ("Rossi", 12.0, "clear", 5, 0, True),  # d == short: no DRM (A-SSG-2)
        ("Rossi", 12.0, "clear", 4, 0, False),
        ("Rossi", 0.5, "clear", 5, 0, True),
        ("Rossi", 12.5, "clear", 5, -1, False),  # short < d: -1
        ("Rossi", 12.5, "clear", 6, -1, True),
        ("Rossi", 24.0, "clear", 6, -1, True),  # d == long is still allowed at -1 (A-SSG-2)
        ("Rossi", 24.0, "clear", 5, -1, False),
        ("Rossi", 3.0, "partial", 5, -1, False),  # partial LOS -1
        ("Rossi", 3.0, "partial", 6, -1, True),
        ("Rossi", 24.0, "partial", 6, -2, False),  # partial + long: never hits (A-SSG-3)
        ("Rossi", 3.0, "clear", 1, 0, False),
        ("Chen", 6.0, "clear", 5, 0, True),  # pistol 6/12
        ("Chen", 6.5, "clear", 5, -1, False),
        ("Chen", 12.0, "partial", 6, -2, False),
    ],
)
def test_shot_modifiers_and_boundaries(
    engine: SsgEngine, weapon_holder: str, rng: float, los: str, natural: int, modifier: int, hit: bool
) -> None:
    out = shoot(engine, shooting(engine), weapon_holder, "Big Jim", rng, los, natural)
    data = out.events[0].data
    assert (data["natural"], data["modifier"], data["total"], data["needed"], data["hit"]) == (
        natural,
        modifier,
        natural + modifier,
        5,
        hit,
    )
    assert fig(out.state, "Big Jim").removed is hit
    assert kinds(out) == (["shot", "casualty"] if hit else ["shot"])


def test_natural_six_is_not_automatic_a_ssg_3(engine: SsgEngine) -> None:
    """A-SSG-3: at -2 even a natural 6 misses."""
    out = shoot(engine, shooting(engine), "Rossi", "Big Jim", 20.0, "partial", 6)
    assert out.events[0].text == ("Rossi fires at Big Jim: 6 − 1 (partial LOS) − 1 (long range) = 4, needs 5: miss.")
    assert out.events[0].data["effect"] == "miss"


def test_shot_text_and_data(engine: SsgEngine) -> None:
    out = shoot(engine, shooting(engine), "Rossi", "Big Jim", 10.0, "partial", 4)
    assert out.events[0].text == "Rossi fires at Big Jim: 4 − 1 (partial LOS) = 3, needs 5: miss."
    assert out.events[0].data == {
        "shooter": "Rossi",
        "target": "Big Jim",
        "die": 1,
        "of": 1,
        "range": 10.0,
        "los": "partial",
        "natural": 4,
        "roll": 4,
        "modifiers": [{"reason": "partial LOS", "value": -1}],
        "modifier": -1,
        "total": 3,
        "needed": 5,
        "hit": False,
        "effect": "miss",
    }
    assert play.last_dice.rolls == [(6, 4, "Rossi: shot 1 of 1 at Big Jim")]  # type: ignore[attr-defined]
    out = shoot(engine, shooting(engine), "Rossi", "Big Jim", 10.0, "clear", 5)
    assert out.events[0].text == "Rossi fires at Big Jim: 5, needs 5: hit."
    assert out.events[1].text == "Big Jim (blue) is removed from play by Rossi."
    assert out.events[1].data == {"figure": "Big Jim", "side": "blue", "by": "Rossi"}


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"range": 24.5}, "Big Jim is out of range: Rossi's rifle reaches 24″, not 24.5″."),
        ({"shooter": "Chen", "range": 12.5}, "Chen's pistol reaches 12″"),
        ({"shooter": "Garcia", "range": 13.0}, "Garcia's smg reaches 12″"),
        ({"los": "blocked"}, "Rossi has no line of sight to Big Jim, so cannot shoot at it."),
        ({"los": "foggy"}, "los: is clear, partial or blocked."),
        ({"los": None}, "Say what Rossi sees of Big Jim on your table: los:clear, los:partial, los:blocked"),
        ({"range": 0.0}, "as more than 0″"),
        ({"range": -3.0}, "range: takes a number from 0 to 1000."),
        ({"range": None}, "in inches"),
        ({"range": float("nan")}, "range: takes a number from 0 to 1000."),
        ({"target": "Garcia"}, "Garcia is on Rossi's own side"),
        ({"target": None}, "Give target: (The enemy it fires at)."),
        ({"target": "Nobody"}, "There is no figure called “Nobody”"),
        ({"shooter": "Big Jim", "target": "Rossi"}, "Big Jim is blue's figure: only red's figures shoot"),
        ({"shooter": None}, "Give shooter: (Your figure)."),
    ],
)
def test_illegal_shots_are_refused(engine: SsgEngine, changes: dict[str, Any], message: str) -> None:
    params = {"shooter": "Rossi", "target": "Big Jim", "range": 10.0, "los": "clear", "dice": None, **changes}
    refuse(engine, shooting(engine), "shoot", message, **params)


def test_los_words_are_case_insensitive(engine: SsgEngine) -> None:
    out = shoot(engine, shooting(engine), "Rossi", "Big Jim", 10.0, " Partial ", 6)
    assert out.events[0].data["los"] == "partial" and out.events[0].data["hit"]


def test_removed_shooter_or_target_is_refused(engine: SsgEngine) -> None:
    state = edit(engine, shooting(engine), removed=["Rossi", "Big Jim"])
    params = {"range": 10.0, "los": "clear", "dice": None}
    refuse(engine, state, "shoot", "Rossi has been removed from play.", shooter="Rossi", target="Slim", **params)
    refuse(
        engine,
        state,
        "shoot",
        "Big Jim has already been removed from play.",
        shooter="Dubois",
        target="Big Jim",
        **params,
    )


def test_one_shot_per_figure_per_turn(engine: SsgEngine) -> None:
    state = shoot(engine, shooting(engine), "Rossi", "Big Jim", 10.0, "clear", 1).state
    assert fig(state, "Rossi").shot
    refuse(
        engine,
        state,
        "shoot",
        "Rossi has already shot this turn",
        shooter="Rossi",
        target="Slim",
        range=5.0,
        los="clear",
    )
    # Even an SMG that used only one of its three dice has shot.
    state = shoot(engine, state, "Garcia", "Big Jim", 5.0, "clear", 1, dice=1).state
    refuse(
        engine,
        state,
        "shoot",
        "Garcia has already shot this turn",
        shooter="Garcia",
        target="Slim",
        range=5.0,
        los="clear",
        dice=1,
    )
    # The same target may be shot at again by another figure.
    out = shoot(engine, state, "Dubois", "Big Jim", 10.0, "clear", 6)
    assert fig(out.state, "Big Jim").removed
    assert engine.board(out.state).figures[0].status == "rifle · has shot"


def test_a_figure_that_moved_may_shoot_a_ssg_7(engine: SsgEngine) -> None:
    state = play(engine, begin(engine), "move", figure="Rossi", distance=4.0).state
    state = play(engine, state, "next").state
    out = shoot(engine, state, "Rossi", "Big Jim", 4.0, "clear", 5)
    assert engine.board(out.state).figures[0].status == "rifle · moved 4″ · has shot"


# --- shooting: rate of fire ------------------------------------------------------------------------


def test_smg_uses_its_whole_rof_by_default(engine: SsgEngine) -> None:
    out = shoot(engine, shooting(engine), "Garcia", "Big Jim", 5.0, "clear", 1, 2, 3)
    assert play.last_dice.reasons == [f"Garcia: shot {i} of 3 at Big Jim" for i in (1, 2, 3)]  # type: ignore
    assert [e.data["die"] for e in out.events] == [1, 2, 3]
    assert "(die 2 of 3)" in out.events[1].text
    assert not fig(out.state, "Big Jim").removed


def test_rof_split_between_targets_in_declared_order(engine: SsgEngine) -> None:
    """The example of the seed: an SMG puts two dice on one figure and one on another."""
    out = shoot(
        engine,
        shooting(engine),
        "Garcia",
        "Slim",
        5.0,
        "clear",
        4,
        5,
        6,
        dice=2,
        target2="Doc",
        range2=8.0,
        los2="partial",
    )
    assert play.last_dice.reasons == [  # type: ignore[attr-defined]
        "Garcia: shot 1 of 3 at Slim",
        "Garcia: shot 2 of 3 at Slim",
        "Garcia: shot 3 of 3 at Doc",
    ]
    shots = [e.data for e in out.events if e.kind == "shot"]
    assert [(s["target"], s["modifier"], s["hit"]) for s in shots] == [
        ("Slim", 0, False),
        ("Slim", 0, True),
        ("Doc", -2, False),
    ]
    assert fig(out.state, "Slim").removed and not fig(out.state, "Doc").removed


def test_rof_split_three_ways(engine: SsgEngine) -> None:
    out = shoot(
        engine,
        shooting(engine),
        "Garcia",
        "Slim",
        5.0,
        "clear",
        5,
        5,
        5,
        dice=1,
        target2="Doc",
        range2=5.0,
        los2="clear",
        dice2=1,
        target3="Tex",
        range3=12.0,
        los3="clear",
    )
    assert [e.data["figure"] for e in out.events if e.kind == "casualty"] == ["Slim", "Doc"]
    assert fig(out.state, "Tex").removed is False  # 5 - 1 at long range


def test_hit_on_an_already_removed_target_does_nothing(engine: SsgEngine) -> None:
    out = shoot(engine, shooting(engine), "Garcia", "Big Jim", 5.0, "clear", 6, 5, 2)
    assert kinds(out) == ["shot", "casualty", "shot", "shot"]
    assert out.events[2].data["effect"] == "already removed"
    assert "hit, but Big Jim is already out" in out.events[2].text
    assert out.events[3].data["effect"] == "miss"
    assert engine.board(out.state).facts[4] == ("Lost", "red 0/4 · blue 1/4")


@pytest.mark.parametrize(
    "params, message",
    [
        ({"dice": 4}, "dice: takes a whole number from 1 to 3."),
        ({"dice": 0}, "dice: takes a whole number from 1 to 3."),
        ({"dice": 2.5}, "whole number"),
        ({"dice": True}, "whole number"),
        ({"dice": 2, "target2": "Doc", "range2": 5.0, "los2": "clear", "dice2": 2}, "4 dice are too many"),
        ({"dice": 3, "target2": "Doc", "range2": 5.0, "los2": "clear"}, "Doc would get 0"),
        ({"dice": None, "target2": "Doc", "range2": 5.0, "los2": "clear"}, "give dice for each target but the last"),
        (
            {
                "dice": 1,
                "target2": "Doc",
                "range2": 5.0,
                "los2": "clear",
                "dice2": None,
                "target3": "Tex",
                "range3": 5.0,
                "los3": "clear",
            },
            "give dice2 for each target but the last",
        ),
        ({"dice": 1, "target2": "Slim", "range2": 5.0, "los2": "clear"}, "Slim is named twice"),
        ({"dice": 1, "range2": 5.0}, "range2 was given without target2."),
        ({"dice": 1, "los3": "clear"}, "los3 was given without target3."),
        ({"dice": 1, "target2": "Rossi", "range2": 5.0, "los2": "clear"}, "Rossi is on Garcia's own side"),
        ({"dice": 1, "target2": "Doc", "range2": 5.0, "los2": "blocked"}, "no line of sight to Doc"),
        ({"dice": 1, "target2": "Doc", "range2": 12.5, "los2": "clear"}, "Doc is out of range"),
    ],
)
def test_rof_split_is_validated_before_rolling(engine: SsgEngine, params: dict[str, Any], message: str) -> None:
    base = {"shooter": "Garcia", "target": "Slim", "range": 5.0, "los": "clear"}
    refuse(engine, shooting(engine), "shoot", message, **{**base, **params})


def test_single_shot_weapons_cannot_split(engine: SsgEngine) -> None:
    refuse(
        engine,
        shooting(engine),
        "shoot",
        "Rossi's rifle has ROF 1: it can fire at no more than 1 target.",
        shooter="Rossi",
        target="Slim",
        range=5.0,
        los="clear",
        target2="Doc",
        range2=5.0,
        los2="clear",
    )
    refuse(
        engine,
        shooting(engine),
        "shoot",
        "Rossi's rifle has ROF 1: 2 dice are too many.",
        shooter="Rossi",
        target="Slim",
        range=5.0,
        los="clear",
        dice=2,
    )


def test_victory_mid_volley_leaves_dice_unrolled_a_ssg_5(engine: SsgEngine) -> None:
    """A-SSG-5: the fourth removal wins at once; the SMG's other dice are never rolled."""
    state = edit(engine, shooting(engine), removed=["Tex", "Hank", "Kid"])
    out = shoot(engine, state, "Garcia", "Big Jim", 5.0, "clear", 5, dice=2, target2="Slim", range2=5.0, los2="clear")
    assert len(play.last_dice.rolls) == 1  # type: ignore[attr-defined]
    assert kinds(out) == ["shot", "casualty", "victory"]
    assert out.events[2].data == {"winner": "red", "loser": "blue", "removed": 4, "unrolled": 2}
    assert "The remaining 2 dice are not rolled." in out.events[2].text
    assert out.state.phase == "over" and out.state.winner == "red"
    assert engine.whose_turn(out.state) is None and engine.finished(out.state)
    assert not fig(out.state, "Slim").removed


@pytest.mark.parametrize("name", ["move", "melee", "shoot", "next", "anything"])
def test_every_action_after_the_game_is_refused(engine: SsgEngine, name: str) -> None:
    state = edit(engine, shooting(engine), removed=["Tex", "Hank", "Kid"])
    over = shoot(engine, state, "Rossi", "Big Jim", 5.0, "clear", 6).state
    refuse(engine, over, name, "The game is over: red won.", figure="Rossi", distance=1.0)
    refuse(engine, over, name, "The game is over: red won.", side=None, by_gm=True)


# --- board and storage -----------------------------------------------------------------------------


def test_board_in_play(engine: SsgEngine) -> None:
    state = play(engine, begin(engine, "blue"), "move", figure="Tex", distance=3.5, contact="Rossi").state
    board = engine.board(edit(engine, state, removed=["Fox"]))
    assert board.headline == "Turn 1 · blue · movement phase"
    assert board.facts == (
        ("Turn", "1"),
        ("Active", "blue"),
        ("Phase", "movement"),
        ("First", "blue"),
        ("Lost", "red 1/4 · blue 0/4"),
        ("In contact", "Tex – Rossi"),
    )
    lines = {line.name: line for line in board.figures}
    assert lines["Tex"].status == "rifle · moved 3.5″ · in contact with Rossi"
    assert lines["Rossi"].status == "rifle · in contact with Tex"
    assert lines["Garcia"].status == "smg"
    assert lines["Fox"].status == "removed" and lines["Fox"].out
    assert not board.finished


def test_board_when_over(engine: SsgEngine) -> None:
    state = edit(engine, shooting(engine), removed=["Tex", "Hank", "Kid"])
    board = engine.board(shoot(engine, state, "Rossi", "Big Jim", 5.0, "clear", 6).state)
    assert board.headline == "Game over: red won"
    assert board.finished
    assert ("Winner", "red") in board.facts and ("Lost", "red 0/4 · blue 4/4") in board.facts


def test_state_round_trips_through_json(engine: SsgEngine) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"), ("Chen", "Slim"))
    state = play(engine, state, "melee", 6, 1).state
    text = json.dumps(engine.dump_state(state))
    loaded = engine.load_state(json.loads(text))
    assert loaded == state
    assert engine.dump_state(loaded) == engine.dump_state(state)
    # A loaded state plays on exactly like the original.
    assert play(engine, loaded, "melee", 1, 6).state == play(engine, state, "melee", 1, 6).state


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"phase": "lunch"}, "phase: must be one of"),
        ({"turn": "one"}, "turn: expected a whole number"),
        ({"active": "green"}, "active: 'green' is not one of the sides"),
        ({"contacts": [["Rossi", "Nobody"]]}, "contacts[0]"),
    ],
)
def test_load_state_rejects_bad_data(engine: SsgEngine, change: dict[str, Any], fragment: str) -> None:
    data = {**engine.dump_state(begin(engine)), **change}
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert fragment in caught.value.message


# --- a whole game ----------------------------------------------------------------------------------


def test_a_whole_scripted_game(engine: SsgEngine) -> None:
    dice = ScriptedDice(2, 2, 5, 3)
    state = engine.start(roster(), dice).state
    assert state.first == "red"

    # Turn 1, red: two moves, no melee, shooting.
    state = play(engine, state, "move", figure="Rossi", distance=3.0).state
    state = play(engine, state, "move", figure="Rossi", distance=1.0).state
    state = play(engine, state, "move", figure="Garcia", distance=2.0).state
    state = play(engine, state, "next").state
    assert state.phase == "shooting"
    out = shoot(engine, state, "Rossi", "Big Jim", 20.0, "clear", 6)
    assert fig(out.state, "Big Jim").removed
    out = shoot(
        engine, out.state, "Garcia", "Slim", 5.0, "clear", 4, 5, 6, dice=2, target2="Doc", range2=8.0, los2="partial"
    )
    assert [fig(out.state, n).removed for n in ("Slim", "Doc")] == [True, False]
    state = play(engine, out.state, "next").state
    assert (state.turn, state.active, state.phase) == (1, "blue", "movement")

    # Turn 1, blue: Tex charges Chen and loses; Hank shoots Rossi.
    state = play(engine, state, "move", figure="Tex", distance=4.0, contact="Chen").state
    state = play(engine, state, "move", figure="Kid", distance=2.0).state
    state = play(engine, state, "next").state
    assert state.phase == "melee"
    out = play(engine, state, "melee", 1, 6)
    assert fig(out.state, "Tex").removed and out.state.phase == "melee"
    out = shoot(engine, out.state, "Hank", "Rossi", 10.0, "clear", 5)
    assert kinds(out)[0] == "phase" and out.state.phase == "shooting"
    assert fig(out.state, "Rossi").removed
    state = play(engine, out.state, "next").state
    assert (state.turn, state.active, state.phase) == (2, "red", "movement")
    assert engine.board(state).facts[4] == ("Lost", "red 1/4 · blue 3/4")

    # Turn 2, red: Dubois charges Kid; a tie, then the fourth blue figure falls.
    state = play(engine, state, "move", figure="Dubois", distance=4.0, contact="Kid").state
    state = play(engine, state, "next").state
    out = play(engine, state, "melee", 4, 4, 6, 2)
    assert kinds(out) == ["melee", "melee", "casualty", "victory"]
    assert out.events[-1].text == "red wins: 4 of blue's figures have been removed."
    assert engine.winner(out.state) == "red" and engine.finished(out.state)
    assert engine.board(out.state).headline == "Game over: red won"


# --- statistics against the exact odds of the notes ------------------------------------------------


@pytest.mark.parametrize(
    "rng, los, exact",
    [
        (10.0, "clear", 1 / 3),  # short range, clear LOS: 5 or 6
        (10.0, "partial", 1 / 6),  # -1: only a 6
        (20.0, "clear", 1 / 6),  # -1 beyond short range
        (20.0, "partial", 0.0),  # -2: never (A-SSG-3)
    ],
)
def test_hit_rates_match_the_exact_odds(engine: SsgEngine, rng: float, los: str, exact: float) -> None:
    shots = 20_000
    state = shooting(engine)
    dice = RandomDice(seed=int(rng * 10) + len(los))
    action = Action("shoot", "red", {"shooter": "Rossi", "target": "Big Jim", "range": rng, "los": los})
    hits = sum(engine.act(state, action, dice).events[0].data["hit"] for _ in range(shots))
    rate = hits / shots
    error = math.sqrt(exact * (1 - exact) / shots)
    assert abs(rate - exact) <= 4 * error, (rate, exact)


def test_smg_volley_odds_match_the_notes(engine: SsgEngine) -> None:
    """Notes: an SMG's three dice on one target at short range hit at least once 70.37% of the time."""
    volleys = 7_000
    state = shooting(engine)
    dice = RandomDice(seed=2007)
    action = Action("shoot", "red", {"shooter": "Garcia", "target": "Big Jim", "range": 5.0, "los": "clear"})
    hit = sum(
        any(e.data["hit"] for e in engine.act(state, action, dice).events if e.kind == "shot") for _ in range(volleys)
    )
    exact = 1 - (2 / 3) ** 3
    error = math.sqrt(exact * (1 - exact) / volleys)
    assert abs(hit / volleys - exact) <= 4 * error


class Fixed:
    """Dice that always show ``face``."""

    def __init__(self, face: int) -> None:
        self.face, self.rolls = face, 0

    def roll(self, sides: int, reason: str) -> int:
        self.rolls += 1
        return self.face

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise AssertionError("SSG turns no card")


@pytest.mark.parametrize("face", [1, 6])
def test_a_duel_that_keeps_tying_is_undecided_and_fought_again_a_ssg_15(engine: SsgEngine, face: int) -> None:
    state = melee_with(engine, ("Rossi", "Big Jim"))
    dice = Fixed(face)
    out = engine.act(state, Action("melee", "red", {"fighter": "Rossi", "opponent": "Big Jim"}), dice)
    ties = engine.tables.ties_rolled_again_at_most + 1
    assert dice.rolls == 2 * ties and kinds(out) == ["melee"] * ties
    assert "the duel is undecided" in out.events[-1].text and "/ssg melee" in out.events[-1].text
    assert out.state.contacts == [["Rossi", "Big Jim"]] and not any(f.removed for f in out.state.figures)
    again = play(engine, out.state, "melee", 5, 2)  # fought again: the next duel decides it
    assert kinds(again)[:2] == ["melee", "casualty"]


def test_the_number_of_ties_is_a_house_rule_a_ssg_15() -> None:
    engine = make_engine({"ties_rolled_again_at_most": 1})
    state = melee_with(engine, ("Rossi", "Big Jim"))
    out = play(engine, state, "melee", 3, 3, 4, 4)
    assert [e.data["winner"] for e in out.events] == [None, None] and out.state.contacts
    with pytest.raises(DataError, match="ties_rolled_again_at_most"):
        make_engine({"ties_rolled_again_at_most": -1})


def test_a_roll_off_that_keeps_tying_starts_nothing_a_ssg_15(engine: SsgEngine) -> None:
    with pytest.raises(RuleError, match="tied 21 times running"):
        engine.start(roster(), Fixed(3))
