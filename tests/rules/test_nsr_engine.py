"""The NSR engine as the shell sees it: rosters of units, the card deck and decisions, the turn, storage."""

from __future__ import annotations

import json

import pytest

from rules.contract import Waiting
from rules.core import Action, DataError, FigureSpec, RuleError
from rules.nsr.engine import NsrEngine, make_engine
from rules.nsr.state import NsrState
from tests.rules.test_nsr_helpers import (
    NEXT,
    ScriptedDice,
    act,
    events,
    get,
    kinds,
    refuse,
    small_battle,
    stage,
    texts,
    unit,
)

# --- forces: roster entries are units ---------------------------------------------------------------


def test_recruit_writes_the_unit_out_in_full_and_rolls_nothing(engine: NsrEngine) -> None:
    dice = ScriptedDice()
    out = engine.recruit(FigureSpec("1er Ligne", "french", "Infantry", {"figures": 11, "formation": "column"}), dice)
    assert out.state == FigureSpec(
        "1er Ligne",
        "French",
        "line",
        {
            "figures": 11,
            "officer": "yes",
            "nco": "yes",
            "weapon": "musket",
            "melee": "bayonet",
            "formation": "march_column",
        },
    )
    assert dice.log == [] and out.events == []
    assert engine.check_figure(FigureSpec("Gun", "Allied", "gun", {})).stats == {}


def test_a_unit_is_built_from_its_stats(engine: NsrEngine) -> None:
    state = stage(
        engine,
        [
            unit("Sappers", "French", "line", figures=6, sappers=2, officers=2),
            unit("Staff", "French", "command", commander="yes"),
            unit("Hussars", "Allied", "mounted"),
            unit("Gun", "Allied", "artillery"),
        ],
    )
    roles = {u.name: [(f.name, f.role, f.rank, f.key) for f in u.figures] for u in state.units}
    assert roles["Sappers"] == [
        ("Officer 1", "officer", 2, False),
        ("Officer 2", "officer", 2, False),
        ("NCO", "nco", 1, False),
        ("Sapper 1", "sapper", 0, True),
        ("Sapper 2", "sapper", 0, True),
        ("Private 1", "private", 0, False),
    ]
    assert roles["Staff"] == [
        ("Commander-in-Chief", "commander", 3, False),
        ("Standard", "standard", 0, True),
        ("Musician", "musician", 0, True),
    ]
    assert len(roles["Hussars"]) == 12 and roles["Hussars"][2] == ("Trooper 1", "trooper", 0, True)
    assert [r[1] for r in roles["Gun"]] == ["officer", "gunner", "gunner", "gunner"]
    assert {s: (c.unit, c.figure) for s, c in state.commanders.items()} == {
        "French": ("Staff", "Commander-in-Chief"),
        "Allied": ("Hussars", "Commander-in-Chief"),
    }


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        (FigureSpec("X", "Prussian", "line"), "no side called"),
        (FigureSpec("X", "French", "dragoons"), "does not know"),
        (FigureSpec("X", "French", "line", {"colour": "blue"}), "no stat"),
        (FigureSpec("X", "French", "line", {"figures": 2, "sappers": 2}), "cannot hold"),
        (FigureSpec("X", "French", "line", {"weapon": "artillery"}), "serves a gun"),
        (FigureSpec("X", "French", "artillery", {"weapon": "musket"}), "serves a gun"),
        (FigureSpec("X", "French", "line", {"formation": "open"}), "may form"),
        (FigureSpec("X", "French", "line", {"officer": "maybe"}), "yes or no"),
        (FigureSpec("X", "French", "line", {"figures": "many"}), "whole number"),
        (FigureSpec("X", "French", "line", {"commander": "yes", "officer": "no"}), "has none"),
        (FigureSpec("X", "French", "artillery", {"figures": 1}), "gunner"),
        (FigureSpec("X", "French", "line", {"melee": "spoon"}), "melee weapon"),
        (FigureSpec(" ", "French", "line"), "needs a name"),
    ],
)
def test_bad_units_are_refused_with_a_sentence(engine: NsrEngine, spec: FigureSpec, match: str) -> None:
    with pytest.raises(RuleError) as caught:
        engine.recruit(spec, ScriptedDice())
    assert match in caught.value.message


def test_start_needs_both_sides_unique_names_and_one_commander(engine: NsrEngine) -> None:
    with pytest.raises(RuleError, match="Allied has no unit"):
        engine.start([unit("A", "French", "line")], ScriptedDice())
    with pytest.raises(RuleError, match="Two units are called"):
        engine.start([unit("A", "French", "line"), unit("a", "Allied", "line")], ScriptedDice())
    with pytest.raises(RuleError, match="mark only one"):
        engine.start(
            [
                unit("A", "French", "line", commander="yes"),
                unit("B", "French", "line", commander="yes"),
                unit("C", "Allied", "line"),
            ],
            ScriptedDice(),
        )


# --- the deck and the choice of unit ------------------------------------------------------------------


def test_the_battle_opens_with_a_shuffle_and_a_card_for_a_side_to_choose_on(engine: NsrEngine) -> None:
    dice = ScriptedDice(cards=["7C"])
    out = engine.start(small_battle(), dice)
    assert kinds(out) == ["setup", "phase", "shuffle", "card"]
    assert out.events[-1].text == "7♣ — French: choose a unit to move."
    assert out.pending is not None and out.pending.decider == "French" and out.pending.resume_action == "choose"
    assert [c.value for c in out.pending.choices] == ["1er Ligne", "Hussars"]
    assert out.pending.choices[0].label == "1er Ligne (line, 12/12 fit)"
    assert dict(out.pending.params) == {"card": "7C"}
    assert engine.whose_turn(out.state) == "French" and len(out.state.deck) == 53
    assert dice.reasons == ["Movement phase: the next card"]


def opened(engine: NsrEngine, card: str = "7C"):
    return engine.start(small_battle(), ScriptedDice(cards=[card])).state


def test_a_choice_activates_the_unit_for_its_order(engine: NsrEngine) -> None:
    state = opened(engine)
    out = act(engine, state, "choose", choice="hussars", card="7C")
    assert out.state.active == "Hussars" and out.pending is None and engine.whose_turn(out.state) == "French"
    assert "French chooses Hussars to move on 7♣" in texts(out)
    refuse(engine, state, "choose", "Choose one of 1er Ligne, Hussars", choice="33rd Foot")
    refuse(engine, state, "choose", "It is French's turn", side="Allied", choice="Hussars")
    refuse(engine, state, "choose", "another card", choice="Hussars", card="8C")
    refuse(engine, state, "move", "Waiting for French to choose a unit for 7♣")
    refuse(engine, out.state, "choose", "No card is waiting")


def test_a_black_card_for_the_french_a_red_for_the_allies_and_each_unit_once(engine: NsrEngine) -> None:
    state = opened(engine)
    state = act(engine, state, "choose", choice="Hussars").state
    out = act(engine, state, "hold", dice=[], cards=["9D"])
    assert out.pending.decider == "Allied" and [c.value for c in out.pending.choices] == ["33rd Foot", "95th"]
    state = act(engine, out.state, "choose", choice="95th").state
    out = act(engine, state, "hold", cards=["2S"])
    assert [c.value for c in out.pending.choices] == ["1er Ligne"]  # the Hussars have moved


def test_a_side_with_no_unit_left_passes_on_its_card(engine: NsrEngine) -> None:
    """The side's player answers with "pass" (the switch "skip" turns the next card at once)."""
    state = opened(engine)
    for name in ("1er Ligne", "Hussars"):
        get(state, name).moved = True
    state.pending = None
    state.active = "33rd Foot"
    out = act(engine, state, "hold", cards=["3S"])
    assert [c.value for c in out.pending.choices] == ["pass"] and out.pending.decider == "French"
    out = act(engine, out.state, "choose", choice="pass", cards=["4H"])
    assert out.pending.decider == "Allied" and "French passes on 3♠" in texts(out)
    skip = make_engine({"options": {"card_for_side_without_units": "skip"}})
    out = act(skip, state, "hold", cards=["3S", "4S", "4H"])
    assert out.pending.decider == "Allied" and [e["card"] for e in events(out, "card")] == ["3S", "4S", "4H"]


def test_jokers_belong_to_their_colour(engine: NsrEngine) -> None:
    """A-NSR-6: the black joker is French, the red Allied; the unit rolls the Joker chart on the choice."""
    red = engine.start(small_battle(), ScriptedDice(cards=["RJ"]))
    assert red.pending.decider == "Allied" and "Joker Movement chart" in red.pending.prompt
    assert red.pending.prompt.startswith("Red joker — Allied: choose a unit to move")
    out = act(engine, red.state, "choose", choice="95th", dice=[1])
    assert get(out.state, "95th").joker == 1 and events(out, "joker")[0]["roll"] == 1


def test_a_joker_with_no_unit_left_still_heals(engine: NsrEngine) -> None:
    """A-NSR-6: no unit left to move: the effect that needs no move applies to any own unit."""
    state = opened(engine)
    for name in ("1er Ligne", "Hussars"):
        get(state, name).moved = True
    hurt = get(state, "Hussars").figures[3]
    hurt.status, hurt.wound = "wounded", "light"
    state.pending, state.active = None, "33rd Foot"
    out = act(engine, state, "hold", cards=["BJ"])
    assert "choose one for the Joker Movement chart's effect" in out.pending.prompt
    out = act(engine, out.state, "choose", choice="Hussars", dice=[5], cards=["5H"])
    assert get(out.state, "Hussars").figures[3].status == "fit" and get(out.state, "Hussars").moved


def test_at_most_25_units_are_offered(engine: NsrEngine) -> None:
    specs = [unit(f"Company {i}", "French", "light", figures=2) for i in range(30)] + [unit("B", "Allied", "line")]
    out = engine.start(specs, ScriptedDice(cards=["2C"]))
    assert len(out.pending.choices) == 25


def test_the_deck_is_reshuffled_when_it_runs_out(engine: NsrEngine) -> None:
    state = opened(engine)
    state.pending, state.active, state.deck = None, "1er Ligne", []
    out = act(engine, state, "hold", cards=["5H"])
    assert "shuffle" in kinds(out) and len(out.state.deck) == 53


def test_the_phases_follow_each_other(engine: NsrEngine) -> None:
    """Movement → fire (a new shuffle) → close combat (only with charges) → morale → the next turn."""
    state = opened(engine)
    for name in ("1er Ligne", "Hussars", "33rd Foot"):
        get(state, name).moved = True
    state.pending, state.active = None, "95th"
    out = act(engine, state, "hold", cards=["6S"])
    assert [e["phase"] for e in events(out, "phase")] == ["leaders", "fire"]
    assert "shuffle" in kinds(out) and out.state.phase == "fire" and len(out.state.deck) == 53
    fire = out.state
    for u in fire.units:
        u.fired = u.name != "1er Ligne"
    fire.pending, fire.active = None, "1er Ligne"
    out = act(engine, fire, "hold", cards=["6S"])
    assert [e["phase"] for e in events(out, "phase")] == ["morale", "movement"] and out.state.turn == 2
    assert not any(u.moved or u.fired for u in out.state.units)


def test_orders_out_of_turn_or_phase_are_refused(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "movement", "1er Ligne")
    refuse(engine, state, "move", "It is French's turn", side="Allied")
    refuse(engine, state, "fire", "only in the fire phase", target="33rd Foot", range=3)
    refuse(engine, state, "melee", "close combat phase")
    refuse(engine, state, "dance", "no order called")
    refuse(engine, state, "move", "no unit called", unit="Nobody")
    refuse(engine, state, "move", "is not the unit acting now", unit="Hussars")


# --- the board, storage, the end --------------------------------------------------------------------


def test_the_board_shows_every_unit_and_the_deck(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    get(state, "Hussars").charged = get(state, "Hussars").moved = True
    get(state, "95th").set_marks(pinned=True)
    board = engine.board(state)
    assert board.headline == "Turn 1 · fire phase · 2♠"
    facts = dict(board.facts)
    assert facts["Deck"] == "53 cards left" and facts["Active"] == "French" and facts["Card"] == "2♠"
    assert facts["Commanders-in-Chief"] == "French: 1er Ligne; Allied: 33rd Foot"
    lines = {line.name: line.status for line in board.figures}
    assert lines["1er Ligne"] == "line · line · 12/12 fit · ACTING NOW"
    assert lines["Hussars"] == "mounted · line · 6/6 fit · charged this turn"
    assert "pinned" in lines["95th"]


def test_the_board_says_a_unit_held_or_did_not_fire_when_it_only_had_its_card(engine: NsrEngine) -> None:
    """A unit that held on its movement card and passed on its fire card neither moved nor fired."""

    def line_of(state: NsrState) -> str:
        return {f.name: f.status for f in engine.board(state).figures}["1er Ligne"]

    state = stage(engine, small_battle(), "movement", "1er Ligne")
    assert line_of(act(engine, state, "hold", cards=["3S"]).state).endswith("· held this turn")
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    get(state, "1er Ligne").moved = get(state, "1er Ligne").held = True
    assert line_of(act(engine, state, "hold", cards=[NEXT]).state).endswith("· held and did not fire this turn")
    fired = act(
        engine, state, "fire", target="33rd Foot", range=3, dice=[1], cards=["2C", "3C", NEXT], **{"class": "I"}
    )
    assert line_of(fired.state).endswith("· held and fired this turn")


def test_the_state_round_trips_through_json(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    out = act(
        engine, state, "fire", target="33rd Foot", range=3, dice=[6], cards=["AH", "KD", "5C", NEXT], **{"class": "I"}
    )
    data = json.loads(json.dumps(engine.dump_state(out.state)))
    again = engine.load_state(data)
    assert engine.dump_state(again) == engine.dump_state(out.state)
    assert again.pending == out.state.pending and isinstance(again.pending, Waiting)


def test_a_state_saved_with_the_card_beside_its_choice_loads_with_the_card_in_its_params(engine: NsrEngine) -> None:
    """Saved before the card's choice was the one shared Waiting: ``card`` and ``phase`` sat beside it."""
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    out = act(
        engine, state, "fire", target="33rd Foot", range=3, dice=[6], cards=["AH", "KD", "5C", NEXT], **{"class": "I"}
    )
    data = json.loads(json.dumps(engine.dump_state(out.state)))
    assert out.state.pending is not None
    card = data["pending"].pop("params")["card"]
    data["pending"].update(card=card, phase=out.state.phase)
    again = engine.load_state(data)
    assert again.pending == out.state.pending and engine.pending(again) == engine.pending(out.state)


def test_a_broken_saved_state_names_its_problems(engine: NsrEngine) -> None:
    data = engine.dump_state(stage(engine, small_battle()))
    data["units"][0]["side"] = "Prussian"
    data["deck"][0] = "ZZ"
    data["units"][1]["figures"][0]["status"] = "asleep"
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    assert "units[1].figures[0].status" in " ".join(caught.value.problems)
    del data["units"][1]["figures"][0]["status"]
    with pytest.raises(DataError) as caught:
        engine.load_state(data)
    problems = " | ".join(caught.value.problems)
    assert "units[0].side" in problems and "deck: 'ZZ'" in problems


def test_a_finished_battle_refuses_orders(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    state.over, state.winner, state.phase = True, "French", "over"
    refuse(engine, state, "hold", "The battle is over: French won")
    assert engine.board(state).headline == "Battle over: French won" and engine.board(state).finished


def test_an_action_without_a_side_is_refused_unless_the_game_master(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "movement", "1er Ligne")
    with pytest.raises(RuleError, match="French's turn"):
        engine.act(state, Action("hold", None, {}), ScriptedDice())
    out = engine.act(state, Action("hold", None, {}, by_gm=True), ScriptedDice(cards=[NEXT]))
    assert get(out.state, "1er Ligne").moved


def test_pending_gives_the_shell_the_waiting_card_back(engine: NsrEngine) -> None:
    """After /game undo the shell reopens the decision the restored state waits for."""
    out = engine.start(small_battle(), ScriptedDice(cards=["7C"]))
    assert engine.pending(out.state) == out.pending
    assert engine.pending(act(engine, out.state, "choose", choice="Hussars").state) is None


def test_odds_outcome_names_the_figures_lost(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    out = act(
        engine, state, "fire", target="33rd Foot", range=3, dice=[6], cards=["3H", "KD", "5C", NEXT], **{"class": "I"}
    )
    assert engine.odds_outcome(out.events) == "33rd Foot: 1 killed, 2 wounded"
    assert engine.odds_outcome([]) == "no effect"


def test_house_rules_that_went_through_json_keep_their_die_keys() -> None:
    engine = make_engine(json.loads(json.dumps({"close_combat_loser": {7: "ran"}, "joker_fire": {"6": "steady"}})))
    assert engine.tables.close_combat_loser[7] == "ran" and engine.tables.close_combat_loser[6] == "captured"
    assert engine.tables.joker_fire[6] == "steady"
