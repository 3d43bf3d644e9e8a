"""Target priorities (seed 7) shown from the map (A-SHARPE-50): the enemies a shooter sees and
reaches, nearest first, each easier one further off noted, with range band and cover measured as a
shot measures them; a question that changes nothing and rolls no die."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from rules.battlefield import read_map
from rules.core import Action, Outcome, RuleError
from rules.sharpe.engine import SharpeEngine
from rules.sharpe.state import SharpeState
from tests.dice import ScriptedDice
from tests.rules.test_sharpe_helpers import begin, char, fig, new_engine

FIELD: dict[str, Any] = {
    "name": "Open field",
    "table": {"width": 60, "height": 30},
    "features": [
        {"kind": "hedge", "name": "the hedge", "line": [[15, 12], [15, 18]]},
        {"kind": "wall", "name": "the wall", "line": [[30, 10], [30, 20]]},
        {"kind": "wood", "name": "the wood", "area": [[40, 0], [50, 0], [50, 8], [40, 8]]},
    ],
    "zones": {"british": [[0, 0], [60, 0], [60, 4], [0, 4]], "french": [[0, 26], [60, 26], [60, 30], [0, 30]]},
}

SPECS = [
    fig("Harris", "british", "rifleman", I=6, F=8),
    fig("Gunner", "british", "artillery_crew", I=5),
    fig("Old Bess", "british", "gun"),
    fig("Dubois", "french", "voltigeur", I=4),
    fig("Murat", "french", "cavalryman", I=3),
    fig("Leroux", "french", "officer", I=2),
    fig("Martin", "french", "voltigeur", I=1),
]

SPOTS = {
    "Harris": (10.0, 15.0),
    "Gunner": (10.0, 6.4),
    "Old Bess": (10.0, 5.0),
    "Dubois": (16.0, 15.0),  # 6″, just behind the hedge
    "Murat": (10.0, 24.0),  # 9″, in the open, on his horse
    "Leroux": (31.0, 15.0),  # 21″, behind the wall
    "Martin": (45.0, 4.0),  # deep in the wood
}


@pytest.fixture
def engine() -> SharpeEngine:
    return new_engine()


def skirmish(engine: SharpeEngine, **where: tuple[float, float]) -> SharpeState:
    field = read_map(FIELD, engine.sides(), engine.terrain())
    state = engine.start_on_map(SPECS, ScriptedDice(), field).state
    assert state.field is not None
    for name, (x, y) in {**SPOTS, **where}.items():
        state.field.positions[name] = [x, y]
        state.field.facing[name] = 90.0
    state.order = ["Harris", "Gunner", "Dubois", "Murat", "Leroux", "Martin"]
    state.active = "Harris"
    return state


def asked(engine: SharpeEngine, state: SharpeState, shooter: str, weapon: str | None = None) -> list[str]:
    """The advice's lines; the state is left as it was."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    lines = engine.target_advice(state, shooter, weapon).lines()
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before
    return lines


def test_the_rules_order_officers_for_a_rifle_then_easier_then_the_nearest_a_sharpe_50(engine: SharpeEngine) -> None:
    """The list is the order the rules give, and each line says why it stands there: a rifle's
    officer first, then a target further off that is easier than the nearest, then the nearest."""
    assert char(skirmish(engine), "Murat").mounted
    assert asked(engine, skirmish(engine), "harris") == [
        "1. Leroux: 21.0″, normal range, hard cover: the wall — an officer: riflemen knock out officers first",
        "2. Murat: 9.0″, short range (+1), in the open — easier than Dubois, the nearest: in the open; "
        "a horseman: more dangerous than a man on foot",
        "3. Dubois: 6.0″, short range (+1), soft cover: the hedge — the nearest",
        "Not seen: Martin (Martin is too deep in the wood to be seen).",
    ]


def test_no_line_says_first_what_the_list_puts_later(engine: SharpeEngine) -> None:
    """Wherever they stand: a rifle's officers come before everyone else; a line noted easier than
    the nearest, or a horseman as easy a shot, comes before the nearest (unless the nearest is an
    officer); the nearest comes before the rest."""
    spots = [(16.0, 15.0), (10.0, 24.0), (31.0, 15.0), (12.0, 20.0), (20.0, 25.0), (10.0, 29.0), (40.0, 15.0)]
    for dubois, murat, leroux in itertools.permutations(spots, 3):
        lines = asked(engine, skirmish(engine, Dubois=dubois, Murat=murat, Leroux=leroux), "Harris")
        notes = [line.split(" — ")[1] if " — " in line else "" for line in lines if line[0].isdigit()]
        officers = [i for i, n in enumerate(notes) if "officers first" in n]
        assert officers == list(range(len(officers))), lines
        [nearest] = [i for i, n in enumerate(notes) if n.startswith("the nearest")]
        for i, note in enumerate(notes):
            if "easier than" in note or "as easy a shot" in note:
                assert i < nearest or nearest in officers, lines
            elif i not in officers and i != nearest:
                assert i > nearest, lines


def test_a_horseman_no_harder_to_hit_goes_before_a_nearer_man_on_foot(engine: SharpeEngine) -> None:
    """The rules: "an infantry man 20 paces away is less dangerous than a cavalry man at 23 paces away"."""
    state = skirmish(
        engine, Dubois=(10.0, 26.0), Murat=(12.0, 27.5), Leroux=(47.0, 5.0)
    )  # Leroux deep in the wood, unseen
    assert asked(engine, state, "Harris")[:2] == [
        "1. Murat: 12.7″, normal range, in the open — a horseman, as easy a shot as Dubois, the nearest: "
        "more dangerous than a man on foot",
        "2. Dubois: 11.0″, normal range, in the open — the nearest",
    ]


def test_nothing_further_off_beats_the_nearest_in_the_open(engine: SharpeEngine) -> None:
    """The nearest at short range in the open: nothing further off is easier."""
    state = skirmish(
        engine, Dubois=(10.0, 26.5), Murat=(19.0, 15.0), Leroux=(47.0, 5.0)
    )  # Leroux deep in the wood, unseen
    lines = asked(engine, state, "Harris")
    assert lines[0].startswith("1. Murat: 9.0″, short range (+1), in the open — the nearest")
    assert lines[1] == "2. Dubois: 11.5″, normal range, in the open"


def test_a_shooter_who_sees_nobody_in_reach(engine: SharpeEngine) -> None:
    state = skirmish(engine, Harris=(45.0, 5.0))  # deep in the wood himself
    lines = asked(engine, state, "Harris")
    assert lines[0] == "No enemy is in sight and within reach of the Baker rifle."
    assert lines[1:] == ["Not seen: Harris is too deep in the wood to see out."]  # one reason, said once


def test_out_of_range_is_listed_apart(engine: SharpeEngine) -> None:
    lines = asked(engine, skirmish(engine), "Leroux")  # his pistol reaches 12″
    assert lines[0] == "No enemy is in sight and within reach of the pistol."
    assert lines[-1] == "Out of range: Harris (21.0″), Gunner (22.7″)."


def test_a_gun_and_the_crewman_at_it_get_the_guns_advice(engine: SharpeEngine) -> None:
    state = skirmish(engine, Murat=(10.0, 14.0))
    for shooter in ("Old Bess", "Gunner"):
        lines = asked(engine, state, shooter)
        assert (
            lines[0] == "1. Murat: 9.0″, automatic hit, in the open — the nearest; "
            "a horseman: more dangerous than a man on foot"
        )
        assert lines[1].startswith("2. Dubois: 11.7″, normal range, soft cover: the hedge")


@pytest.mark.parametrize(
    ("shooter", "weapon", "message"),
    [
        ("Nobody", None, "Nobody"),
        ("", None, "Name the shooter whose targets you want."),
        ("Harris", "pistol", "Harris carries no pistol to fire."),
        ("Gunner", None, "Gunner carries no firearm and stands at no gun: he has nobody to shoot at."),
    ],
)
def test_bad_questions_get_one_sentence(engine: SharpeEngine, shooter: str, weapon: str | None, message: str) -> None:
    state = skirmish(engine, Gunner=(30.0, 3.0))
    with pytest.raises(RuleError) as caught:
        engine.target_advice(state, shooter, weapon)
    assert message in caught.value.message and "\n" not in caught.value.message


def test_a_man_out_of_action_or_not_yet_placed(engine: SharpeEngine) -> None:
    state = skirmish(engine)
    char(state, "Harris").out = True
    with pytest.raises(RuleError, match=r"Harris is out of action\."):
        engine.target_advice(state, "Harris")
    state = skirmish(engine)
    assert state.field is not None
    del state.field.positions["Harris"]
    with pytest.raises(RuleError, match=r"Harris is not on the map yet\."):
        engine.target_advice(state, "Harris")


def test_at_a_table_it_says_it_needs_the_map(engine: SharpeEngine) -> None:
    state = begin(engine, [fig("Harris", "british", "rifleman"), fig("Dubois", "french", "voltigeur")])
    with pytest.raises(RuleError) as caught:
        engine.target_advice(state, "Harris")
    assert caught.value.message == (
        "Target priority is measured on the bot's map, and this battle is played on a table."
    )


class NoDice:
    """A question's dice: asking for one fails the test."""

    def roll(self, sides: int, reason: str) -> int:
        raise AssertionError(f"the question rolled a die: {reason}")

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError(f"the question drew a card: {reason}")


def ask(engine: SharpeEngine, state: SharpeState, side: str, **params: Any) -> Outcome[SharpeState]:
    """``targets`` as the application asks it: through ``act``, by any side, with no dice; the
    given state is left as it was."""
    before = json.dumps(engine.dump_state(state), sort_keys=True)
    outcome = engine.act(state, Action("targets", side, params), NoDice())
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before
    assert json.dumps(engine.dump_state(outcome.state), sort_keys=True) == before
    return outcome


def test_targets_is_a_question_whose_one_event_is_the_advice(engine: SharpeEngine) -> None:
    """A-SHARPE-50 as a spec'd question: the shell answers it to the asker alone from its event."""
    assert "targets" in engine.questions and "targets" in engine.specs
    state = skirmish(engine)
    [event] = ask(engine, state, "british", shooter="harris").events
    assert event.kind == "targets"
    lines = event.text.split("\n")
    assert event.data["heading"] == "Targets for Harris (Baker rifle)"
    assert lines == asked(engine, state, "Harris")
    assert event.data["footer"] == engine.tables.hints.target_priority
    assert event.data["targets"] == ["Leroux", "Murat", "Dubois"] and event.data["unseen"] == ["Martin"]


def test_anyone_may_ask_whom_to_shoot_in_any_turn(engine: SharpeEngine) -> None:
    """The French may ask for Dubois while it is Harris's turn, and while a choice waits."""
    state = skirmish(engine, Dubois=(10.6, 15.0))
    assert engine.whose_turn(state) == "british"
    [event] = ask(engine, state, "french", shooter="Dubois").events
    assert event.data["shooter"] == "Dubois" and event.data["targets"][0] == "Harris"
    waiting = engine.act(state, Action("attack", "british", {"defender": "Dubois"}), ScriptedDice()).state
    assert waiting.pending is not None
    assert ask(engine, waiting, "british", shooter="Harris").events[0].data["shooter"] == "Harris"


def test_targets_refuses_as_the_advice_does(engine: SharpeEngine) -> None:
    with pytest.raises(RuleError, match=r"Give shooter: \(A man, or a gun\)\."):
        ask(engine, skirmish(engine), "british")
    with pytest.raises(RuleError, match=r"Harris carries no pistol to fire\."):
        ask(engine, skirmish(engine), "british", shooter="Harris", weapon="pistol")
    table = begin(engine, [fig("Harris", "british", "rifleman"), fig("Dubois", "french", "voltigeur")])
    with pytest.raises(RuleError, match=r"Target priority is measured on the bot's map"):
        ask(engine, table, "french", shooter="Harris")
