"""The Sharpe engine as the shell sees it: tables and house rules, rosters and recruiting, the start
and the order of movement, turns and bounds, permissions, victory, storage, the board, between games."""

from __future__ import annotations

import json

import pytest

from rules import RULESETS, get_engine, ruleset_titles
from rules.core import Action, DataError, FigureSpec, RuleError
from rules.sharpe.campaign import after_battle
from rules.sharpe.decisions import attack_of
from rules.sharpe.engine import SLUG, TITLE, SharpeEngine, make_engine
from rules.sharpe.state import Wound
from tests.rules.test_sharpe_helpers import (
    ScriptedDice,
    SeededDice,
    begin,
    char,
    events,
    fig,
    play,
    refused,
    texts,
)


def test_identity_and_registry() -> None:
    assert SLUG == "sharpe" and RULESETS["sharpe"][0] == "rules.sharpe.engine"
    assert ruleset_titles()["sharpe"] == TITLE
    engine = get_engine("sharpe")
    assert isinstance(engine, SharpeEngine) and engine.sides() == ["british", "french"]
    assert {
        "line_infantry",
        "voltigeur",
        "chasseur",
        "rifleman",
        "special_character",
        "sergeant",
        "officer",
        "artillery_crew",
        "cavalryman",
        "gun",
    } <= set(engine.kinds())


def test_tables_hold_the_seed_numbers() -> None:
    t = make_engine().tables
    assert t.movement.foot == {"crawl": 3, "walk": 6, "run": 9}
    assert t.movement.mounted == {"walk": 6, "trot": 9, "canter": 12, "gallop": 15}
    assert t.movement.mounted_max_turn == {"walk": 180, "trot": 180, "canter": 90, "gallop": 45}
    assert [(b.upto, b.mod) for b in t.weapons["musket"].ranges] == [(6, 1), (24, 0), (36, -1), (48, -2)]
    assert t.weapons["musket"].skill_cap == 9 and t.weapons["baker_rifle"].reload_bounds == 2
    assert t.weapons["volley_gun"].reload_bounds == 10 and t.weapons["artillery"].reload_man_bounds == 20
    assert t.location_d6 == ["legs", "abdomen", "left_arm", "right_arm", "chest", "head"]
    assert t.melee.not_turned_attack == {"right": 1, "left": 2, "rear": 3}
    assert t.melee.costs.riposte == 2 and t.shooting.misfire_2d6 == [2, 12]
    assert t.options.head5 == "light" and t.wound_modifiers.falling == -3


def test_house_rules_override_one_key() -> None:
    engine = make_engine({"options": {"reroll_order_every_bound": True}, "weapons": {"pistol": {"reload_bounds": 2}}})
    assert engine.tables.options.reroll_order_every_bound and engine.tables.options.morale
    assert engine.tables.weapons["pistol"].reload_bounds == 2 and engine.tables.weapons["pistol"].hands == 1


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"sides": ["british"]}, "sides"),
        ({"options": {"head5": "kill"}}, "options.head5"),
        ({"options": {"kill_outcome": "maybe"}}, "options.kill_outcome"),
        ({"kinds": {"rifleman": {"weapons": ["lance"]}}}, "kinds.rifleman.weapons"),
        ({"weapons": {"pistol": {"hands": 3}}}, "weapons.pistol.hands"),
        ({"weapons": {"musket": {"ranges": [{"upto": 24}, {"upto": 6}]}}}, "bands must go up"),
        ({"location_d6": ["legs", "legs", "legs"]}, "location_d6"),
        ({"wound_table": {"head": ["none"]}}, "wound_table.head"),
        ({"shooting": {"misfire_2d6": [13]}}, "shooting.misfire_2d6"),
        ({"shooting": {"hard_cover_hides": ["tail"]}}, "hard_cover_hides"),
        ({"wound_points": {"out_at": 1}}, "wound_points"),
        ({"melee_preference": ["pistol"]}, "melee_preference"),
        ({"horses": {"wounded_pace": "sprint"}}, "wounded_pace"),
        ({"movement": {"foot": {"fly": 6}}}, "movement.foot"),
        ({"scenario": {"weather": "snow"}}, "scenario.weather"),
        ({"kinds": {"rifleman": {"aliases": ["voltigeur"]}}}, "also names"),
    ],
)
def test_bad_house_rules_are_named(override: dict, fragment: str) -> None:
    with pytest.raises(DataError) as caught:
        make_engine(override)
    assert fragment in " | ".join(caught.value.problems)


# --- rosters -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("Rifleman", "rifleman"),
        ("95th", "rifleman"),
        ("line infantry", "line_infantry"),
        ("Line_Infantry", "line_infantry"),
        ("captain", "officer"),
        ("cannon", "gun"),
        ("special character", "special_character"),
        ("Chasseur", "chasseur"),
    ],
)
def test_kinds_by_name_and_alias(kind: str, expected: str) -> None:
    assert make_engine().check_figure(FigureSpec("X", "British", kind)).kind == expected


def test_stats_are_normalised() -> None:
    spec = make_engine().check_figure(
        FigureSpec(
            " Rifleman   Harris ",
            "british",
            "rifleman",
            {"i": 4, "dexterity": 3, "horse": "no", "weapons": "Baker rifle+sword+rifle"},
        )
    )
    assert spec.name == "Rifleman Harris" and spec.stats == {
        "I": 4,
        "D": 3,
        "weapons": "baker_rifle+sword",
        "horse": "no",
    }


@pytest.mark.parametrize(
    "given, horse",
    [
        ("yes", "yes"),
        ("Y", "yes"),
        ("true", "yes"),
        ("1", "yes"),
        ("on", "yes"),
        (True, "yes"),
        (1, "yes"),
        ("no", "no"),
        ("n", "no"),
        ("false", "no"),
        ("0", "no"),
        (" OFF ", "no"),
        (False, "no"),
        (0, "no"),
    ],
)
def test_a_horse_is_given_with_the_words_nsr_and_yasg_take(given: object, horse: str) -> None:
    spec = make_engine().check_figure(FigureSpec("A", "british", "rifleman", {"horse": given}))
    assert spec.stats["horse"] == horse


@pytest.mark.parametrize(
    "spec, fragment",
    [
        (FigureSpec("", "british", "rifleman"), "needs a name"),
        (FigureSpec("A", "spanish", "rifleman"), "no side called"),
        (FigureSpec("A", "british", "pikeman"), "does not know"),
        (FigureSpec("A", "british", "rifleman", {"luck": 3}), "does not use"),
        (FigureSpec("A", "british", "rifleman", {"I": 7}), "from 1 to 6"),
        (FigureSpec("A", "british", "rifleman", {"F": 13}), "from 2 to 12"),
        (FigureSpec("A", "british", "rifleman", {"I": "four"}), "whole number"),
        (FigureSpec("A", "british", "rifleman", {"i": 3, "I": 4}), "twice"),
        (FigureSpec("A", "british", "rifleman", {"weapons": "lance"}), "does not know"),
        (FigureSpec("A", "british", "rifleman", {"weapons": "artillery"}), "kind gun"),
        (FigureSpec("A", "british", "rifleman", {"horse": "maybe"}), "yes or no"),
        (FigureSpec("A", "british", "gun", {"I": 3}), "only a firing skill"),
    ],
)
def test_check_figure_refuses(spec: FigureSpec, fragment: str) -> None:
    with pytest.raises(RuleError) as caught:
        make_engine().check_figure(spec)
    assert fragment in caught.value.message


def test_recruit_rolls_i_d_s_c_then_f_by_kind() -> None:
    engine = make_engine()
    dice = ScriptedDice(4, 3, 5, 2, 6)
    out = engine.recruit(FigureSpec("Harris", "british", "rifleman"), dice)
    assert out.state.stats == {"I": 4, "D": 3, "S": 5, "C": 2, "F": 12}
    assert dice.reasons == [
        "Harris: I (1D6)",
        "Harris: D (1D6)",
        "Harris: S (1D6)",
        "Harris: C (1D6)",
        "Harris: firing skill (D6 + 6)",
    ]
    assert "rolls I 4, D 3, S 5, C 2, F 6+6 = 12" in out.events[0].text
    special = engine.recruit(
        FigureSpec("Tongue", "british", "special character", {"I": 1, "D": 1, "S": 1, "C": 1}), ScriptedDice(2)
    )
    assert special.state.stats["F"] == 5
    line = engine.recruit(FigureSpec("Pat", "british", "line", {"I": 1, "D": 1, "S": 1}), ScriptedDice(3))
    assert line.state.stats == {"I": 1, "D": 1, "S": 1, "C": 3, "F": 6}
    gun = engine.recruit(FigureSpec("Bess", "british", "gun"), ScriptedDice())
    assert gun.state.stats == {"F": 6} and gun.events == []


# --- the start ---------------------------------------------------------------------------------------------


def specs() -> list[FigureSpec]:
    return [
        fig("Harris", "british", "rifleman", I=4),
        fig("Perkins", "british", "rifleman", I=2),
        fig("Dubois", "french", "voltigeur", I=3),
        fig("Martin", "french", "voltigeur", I=3),
    ]


def test_order_of_movement_is_d6_plus_initiative_ties_by_unmodified_d6() -> None:
    engine = make_engine()
    dice = ScriptedDice(2, 6, 3, 3, 4, 4, 5, 5, 2)
    out = engine.start(specs(), dice)
    # Harris 6, Perkins 8, Dubois 6, Martin 6: a three-way tie rolls 4, 4, 5, then Harris and Dubois again 5, 2.
    assert out.state.order == ["Perkins", "Martin", "Harris", "Dubois"]
    assert out.state.active == "Perkins" and engine.whose_turn(out.state) == "british"
    assert [r[2] for r in dice.rolls][:4] == [
        f"{n}: order of movement, D6 + I {i}" for n, i in (("Harris", 4), ("Perkins", 2), ("Dubois", 3), ("Martin", 3))
    ]
    assert "ties: Harris 4, Dubois 4, Martin 5; Harris 5, Dubois 2" in events(out, "order")[0].text
    assert events(out, "turn")[0].text == "Bound 1 · Perkins (british) to act."


def test_start_refuses_bad_rosters() -> None:
    engine = make_engine()
    with pytest.raises(RuleError, match="french need at least one character"):
        engine.start([fig("Harris", "british", "rifleman"), fig("Bess", "french", "gun")], ScriptedDice())
    with pytest.raises(RuleError, match="Two figures are called"):
        engine.start([fig("Harris", "british", "rifleman"), fig("harris", "french", "voltigeur")], ScriptedDice())


def test_start_rolls_stats_a_roster_lacks() -> None:
    engine = make_engine()
    out = engine.start(
        [FigureSpec("Harris", "british", "rifleman"), fig("Dubois", "french", "voltigeur")],
        ScriptedDice(4, 3, 3, 3, 2, 6, 1),
    )
    assert char(out.state, "Harris").F == 8 and events(out, "recruit")


def test_guns_are_not_in_the_order() -> None:
    engine = make_engine()
    out = engine.start(
        [
            fig("Harris", "british", "rifleman"),
            fig("Bess", "british", "gun", F=8),
            fig("Dubois", "french", "voltigeur"),
        ],
        ScriptedDice(6, 1),
    )
    assert out.state.order == ["Harris", "Dubois"] and out.state.guns[0].F == 8
    assert any(line.name == "Bess" for line in engine.board(out.state).figures)


# --- turns and bounds ----------------------------------------------------------------------------------------


def test_turns_follow_the_order_and_bounds_restore_points() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    char(state, "Harris").spent["D"] = 2
    order = []
    for _ in range(4):
        order.append(state.active)
        state = play(engine, state, "done").state
    assert order == ["Harris", "Perkins", "Dubois", "Martin"]
    assert state.bound == 2 and state.active == "Harris" and char(state, "Harris").spent["D"] == 0


def test_only_the_active_side_acts_but_the_game_master_may() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    refused(engine, state, "done", "It is Harris's turn", side="french")
    refused(engine, state, "move", "It is Harris's turn", figure="Perkins", distance=1)
    gm = play(engine, state, "move", side="french", by_gm=True, figure="Dubois", distance=2)
    assert char(gm.state, "Dubois").moved == 2 and gm.state.active == "Harris"


def test_unknown_actions_and_figures_are_refused() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    refused(engine, state, "dance", "no action called")
    refused(engine, state, "shoot", "no figure called", target="Nobody", range=5)


def test_reroll_the_order_every_bound_variant() -> None:
    engine = make_engine({"options": {"reroll_order_every_bound": True}})
    state = begin(engine, specs())
    char(state, "Perkins").wounds.append(Wound("legs", "serious", 1, "x"))  # I 2 − 2 = 0
    for _ in range(3):
        state = play(engine, state, "done").state
    out = play(engine, state, "done", 1, 6, 1, 4)
    order_event = events(out, "order")[0]
    assert "Perkins 6+0 = 6" in order_event.text and out.state.order == ["Martin", "Perkins", "Harris", "Dubois"]


def test_characters_who_cannot_act_are_skipped() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    char(state, "Perkins").unconscious = True
    char(state, "Dubois").suppressed_bound = 1
    out = play(engine, state, "done")
    assert "No turn for Perkins (unconscious), Dubois (suppressed this bound)." in texts(out, "skip")
    assert out.state.active == "Martin"


def test_victory_when_a_side_has_nobody_standing() -> None:
    engine = make_engine()
    state = begin(engine, [fig("Harris", "british", "rifleman", F=10), fig("Dubois", "french", "voltigeur")])
    out = play(engine, state, "shoot", 1, 2, 6, 6, 6, target="Dubois", range=20)
    assert engine.finished(out.state) and engine.winner(out.state) == "british"
    assert events(out, "victory")[0].data == {"winner": "british", "loser": "french"}
    assert engine.whose_turn(out.state) is None
    refused(engine, out.state, "done", "game is over", side="british")
    assert engine.board(out.state).finished and "Game over: the british won" in engine.board(out.state).headline


def test_unconscious_men_count_as_down_unless_the_switch_says_otherwise() -> None:
    for flag, over in ((True, True), (False, False)):
        engine = make_engine({"options": {"victory_counts_unconscious": flag}})
        state = begin(engine, [fig("Harris", "british", "rifleman", F=10), fig("Dubois", "french", "voltigeur")])
        char(state, "Dubois").unconscious = True
        out = play(engine, state, "move", distance=1)
        assert out.state.over is over


def test_concede() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    with pytest.raises(RuleError, match="only for your own side"):
        engine.act(state, Action("concede", "french", {"side": "british", "confirm": True}), ScriptedDice())
    out = play(engine, state, "concede", side="french", confirm=True)
    assert out.state.winner == "british" and "The french concede" in texts(out, "victory")[0]
    gm = engine.act(
        state, Action("concede", "british", {"side": "british", "confirm": "yes"}, by_gm=True), ScriptedDice()
    )
    assert gm.state.winner == "french"


def test_conceding_is_confirmed_and_may_be_said_in_either_turn_a_sharpe_52() -> None:
    """Without confirm: nothing ends; the sentence says what conceding does and how to mean it."""
    engine = make_engine()
    state = begin(engine, specs())
    assert engine.whose_turn(state) == "british"
    for confirm in (None, False, "no"):
        message = refused(engine, state, "concede", "confirm", side="french", confirm=confirm)
        assert message == (
            "Conceding ends the battle at once: the british win. "
            "If the french mean it, send /sharpe concede confirm:True."
        )
    out = play(engine, state, "concede", side="french", confirm=True)  # in the british turn
    assert out.state.over and out.state.winner == "british"


# --- storage and the board -----------------------------------------------------------------------------------


def test_state_round_trips_through_json_with_a_pending_decision() -> None:
    engine = make_engine()
    state = begin(
        engine,
        [
            fig("Sharpe", "british", "rifle_officer", C=5),
            fig("Lancier", "french", "cavalryman"),
            fig("Bess", "british", "gun"),
            fig("Dubois", "french", "voltigeur"),
        ],
    )
    char(state, "Dubois").wounds.append(Wound("chest", "serious", 1, "Sharpe"))
    state.dropped.append(__import__("rules.sharpe.state", fromlist=["Dropped"]).Dropped("musket", "X", 1))
    asked = play(engine, state, "attack", defender="Lancier", at="horse")
    data = json.loads(json.dumps(engine.dump_state(asked.state)))
    loaded = engine.load_state(data)
    assert loaded == asked.state and loaded.pending is not None and attack_of(loaded.pending).at_horse
    assert engine.whose_turn(loaded) == "french"


def saved_the_old_way(data: dict) -> dict:
    """``data`` with its defender's choice in the shape states were saved in before it was the one
    shared Waiting: its values alone, beside the attack or shot it interrupts, its number an ``id``."""
    waiting = data["pending"]
    kept = waiting["kept"]
    old = {
        "id": waiting["params"]["pending"],
        "decider": waiting["decider"],
        "figure": kept["figure"],
        "kind": kept["kind"],
        "choices": [value for value, _ in waiting["choices"]],
        "prompt": waiting["prompt"],
        "attack": kept.get("attack"),
        "shot": kept.get("shot"),
    }
    return {**data, "pending": old}


def test_a_state_saved_with_the_old_pending_defence_loads_and_is_answered() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    asked = play(engine, state, "attack", defender="Dubois", flank="rear")
    data = saved_the_old_way(json.loads(json.dumps(engine.dump_state(asked.state))))
    assert data["pending"]["choices"] == ["parry", "riposte", "dodge", "distract"]
    assert data["pending"]["attack"]["attacker"] == "Harris" and data["pending"]["shot"] is None
    loaded = engine.load_state(data)
    assert loaded == asked.state and engine.pending(loaded) == asked.pending
    assert engine.whose_turn(loaded) == "french"
    answer = {"choice": "parry", "pending": data["pending"]["id"]}
    parried = play(engine, loaded, "defend", 1, 6, side="french", **answer)
    assert parried.events == play(engine, asked.state, "defend", 1, 6, side="french", **answer).events
    assert loaded.pending is not None and parried.state.pending is None
    assert any("parried" in e.text for e in parried.events)


def test_a_state_saved_with_the_old_pending_dodge_loads_labelled_and_is_answered() -> None:
    engine = make_engine({"options": {"dodge_shots": True}})
    state = begin(engine, specs())
    asked = play(engine, state, "shoot", target="Dubois", range=10, aimed="no")
    assert asked.pending is not None and asked.pending.choices[0].label.startswith("Dodge (D ")
    data = saved_the_old_way(json.loads(json.dumps(engine.dump_state(asked.state))))
    assert data["pending"]["kind"] == "shot_dodge" and data["pending"]["shot"]["shooter"] == "Harris"
    loaded = engine.load_state(data)
    assert loaded == asked.state and engine.pending(loaded) == asked.pending
    taken = engine.act(loaded, Action("defend", "french", {"choice": "take"}), SeededDice(1))
    assert any(e.kind == "shot" for e in taken.events) and taken.state.pending is None


def test_an_old_pending_choice_for_nobody_in_the_game_is_named() -> None:
    engine = make_engine()
    asked = play(engine, begin(engine, specs()), "attack", defender="Dubois")
    data = saved_the_old_way(json.loads(json.dumps(engine.dump_state(asked.state))))
    data["pending"]["figure"] = "Nobody"
    with pytest.raises(DataError, match=r"pending\.figure: 'Nobody' is not a character"):
        engine.load_state(data)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda w: w["kept"].update(figure="Nobody"), "pending.kept.figure: 'Nobody' is not a character"),
        (lambda w: w["kept"].update(kind="curtsey"), "pending.kept.kind: 'curtsey' is not one of"),
        (lambda w: w["kept"]["attack"].update(stage=3), "pending.kept.attack.stage"),
        (lambda w: w["choices"].append(["bow", "Bow"]), "pending.choices: 'bow' is not a defender's choice"),
        (lambda w: w.update(decider="spanish"), "pending.decider: 'spanish' is not one of the sides"),
        (lambda w: w.update(params={}), "pending: answered with defend and a number"),
    ],
)
def test_a_broken_waiting_defence_is_named(change, fragment: str) -> None:
    engine = make_engine()
    asked = play(engine, begin(engine, specs()), "attack", defender="Dubois")
    data = json.loads(json.dumps(engine.dump_state(asked.state)))
    change(data["pending"])
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert fragment in " | ".join(caught.value.problems)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d["characters"][0].update(side="spanish"), "characters[0].side"),
        (lambda d: d.update(order=["Nobody"]), "order"),
        (lambda d: d.update(active="Nobody"), "active"),
        (lambda d: d["characters"][0].update(weapons=["lance"]), "weapons"),
        (lambda d: d.update(bound="one"), "bound"),
    ],
)
def test_load_state_reports_problems(change, fragment: str) -> None:
    engine = make_engine()
    data = json.loads(json.dumps(engine.dump_state(begin(engine, specs()))))
    change(data)
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert fragment in " | ".join(caught.value.problems)


def test_the_board_shows_the_order_and_every_state() -> None:
    engine = make_engine()
    state = begin(engine, specs())
    harris, perkins, dubois, martin = (char(state, n) for n in ("Harris", "Perkins", "Dubois", "Martin"))
    harris.wounds.append(Wound("chest", "serious", 1, "x"))
    harris.spent["C"] = 1
    harris.firearms[0].loaded, harris.firearms[0].reload_left = False, 2
    perkins.down = "fallen"
    dubois.unconscious, dubois.down = True, "knocked_down"
    martin.suppressed_bound = 1
    board = engine.board(state)
    facts = dict(board.facts)
    assert board.headline == "Bound 1 · Harris (british) to act"
    assert facts["Order"] == "1. Harris ▶, 2. Perkins, 3. Dubois, 4. Martin" and facts["Active"] == "british"
    lines = {line.name: line.status for line in board.figures}
    assert "wounds: chest S (2 pts)" in lines["Harris"] and "C3/4" in lines["Harris"]
    assert "Baker rifle reloading (2)" in lines["Harris"]
    assert "fallen" in lines["Perkins"] and "unconscious" in lines["Dubois"] and "suppressed" in lines["Martin"]
    assert "Target priority" not in facts, "said once, in /campaign info (engine.about)"
    assert [name for name, _ in engine.about()] == ["Target priority"]


# --- between games -------------------------------------------------------------------------------------------


def finished_state():
    engine = make_engine()
    state = begin(engine, specs())
    char(state, "Dubois").out = char(state, "Perkins").out = True
    return state


def test_between_games_death_on_a_six() -> None:
    engine = make_engine()
    results = after_battle(engine.tables, finished_state(), ScriptedDice(6, 3))
    assert [(r.name, r.fate, r.roll) for r in results] == [("Perkins", "dead", 6), ("Dubois", "fit", 3)]
    assert "dies of his wounds" in results[0].text


def test_between_games_missing_d6_games() -> None:
    engine = make_engine({"options": {"kill_outcome": "miss_d6_games"}})
    results = engine.after_battle(finished_state(), ScriptedDice(2, 5))
    assert [(r.fate, r.misses) for r in results] == [("injured", 2), ("injured", 5)]
    assert [r.text for r in results] == [
        "Perkins rolls 2: he misses the next 2 games.",
        "Dubois rolls 5: he misses the next 5 games.",
    ]
    one = engine.after_battle(finished_state(), ScriptedDice(1, 1))
    assert [r.text for r in one] == [
        "Perkins rolls 1: he misses the next game.",
        "Dubois rolls 1: he misses the next game.",
    ]


def test_between_games_no_lasting_harm() -> None:
    engine = make_engine({"options": {"kill_outcome": "none"}})
    results = engine.after_battle(finished_state(), ScriptedDice())
    assert [r.fate for r in results] == ["fit", "fit"]


def test_the_shells_aftermath_hook_maps_each_fate() -> None:
    """Dead stays dead, "misses D6 games" rests that many battles, everyone else fights again."""
    engine = make_engine({"options": {"kill_outcome": "miss_d6_games"}})
    outcome = engine.aftermath(finished_state(), specs(), ScriptedDice(2, 5), {})
    fates = {a.name: (a.status, a.games_out) for a in outcome.state}
    assert fates["Perkins"] == ("resting", 2) and fates["Dubois"] == ("resting", 5)
    assert fates["Harris"] == ("active", 0)
    assert [e.kind for e in outcome.events] == ["aftermath", "aftermath"]
    dead = make_engine().aftermath(finished_state(), specs(), ScriptedDice(6, 1), {})
    assert {a.name: a.status for a in dead.state}["Perkins"] == "dead"


def test_a_seeded_game_never_breaks() -> None:
    """Random but legal actions for many bounds: the engine keeps its promises (no crash, state round-trips)."""
    engine = make_engine()
    dice = SeededDice(11)
    state = begin(
        engine,
        [
            fig("Sharpe", "british", "rifle_officer", F=10),
            fig("Harper", "british", "rifle_sergeant", F=9),
            fig("Dubois", "french", "voltigeur"),
            fig("Lancier", "french", "cavalryman"),
        ],
    )
    targets = {"british": ["Dubois", "Lancier"], "french": ["Sharpe", "Harper"]}
    for _step in range(200):
        if state.over:
            break
        side = engine.whose_turn(state)
        tries = [("defend", {"choice": c}) for c in (state.pending.choices if state.pending else [])]
        tries += [("shoot", {"target": t, "range": 10}) for t in targets[side]]
        tries += [("attack", {"defender": t}) for t in targets[side]] + [("done", {})]
        for name, params in tries:
            try:
                state = engine.act(state, Action(name, side, params), dice).state
                break
            except RuleError:
                continue
        assert engine.load_state(json.loads(json.dumps(engine.dump_state(state)))) == state
    assert state.bound > 1


def test_odds_labels_for_the_odds_command() -> None:
    engine = make_engine()
    state = begin(engine, [fig("Harris", "british", "rifleman", F=8), fig("Dubois", "french", "voltigeur")])
    assert engine.odds_outcome(play(engine, state, "shoot", 6, 5, target="Dubois", range=20).events) == "miss"
    assert engine.odds_outcome(play(engine, state, "shoot", 6, 6, target="Dubois", range=20).events) == "misfire"
    hit = play(engine, state, "shoot", 2, 3, 5, 4, 4, target="Dubois", range=20)
    assert engine.odds_outcome(hit.events) == "Dubois: serious wound"
    killed = play(engine, state, "shoot", 2, 3, 6, 6, 6, target="Dubois", range=20)
    assert engine.odds_outcome(killed.events) == "Dubois: kill; Dubois out"
    assert engine.odds_outcome(play(engine, state, "check", 2, ability="D").events) == "Harris: succeeds"
