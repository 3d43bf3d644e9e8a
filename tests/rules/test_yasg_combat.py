"""Fire, close combat, wounds, loading and the end of the game (RULES-NOTES.md 1.3).

The firing table is a reconstruction (A-YASG-2): the firing procedure is tested against a table
the test itself supplies (house rules), never against the reconstructed numbers."""

from __future__ import annotations

import pytest

from rules.yasg.engine import YasgEngine, make_engine
from tests.rules.test_yasg_support import (
    BRITISH,
    FRENCH,
    F,
    act,
    change,
    events,
    fig,
    kinds,
    refuse,
    scene,
    texts,
)

#: A firing table of the test's own: one band to 10 squares, need = class number + 3.
TEST_TABLE = {
    "firing_table": "test",
    "firing_tables": {
        "test": {
            "bands": [
                {"name": "near", "up_to": 4, "need": {"A": 4, "B": 5, "C": 6, "D": 7, "E": 8, "F": 9, "G": 10}},
                {"name": "far", "up_to": 10, "need": {"A": 6, "B": 7, "C": 8}},
            ],
            "modifiers": {
                "pinned_class": 1,
                "shaken": 1,
                "moved": 1,
                "target_ran": 1,
                "soft_cover": 1,
                "hard_cover": 2,
            },
        }
    },
}


@pytest.fixture
def tested() -> YasgEngine:
    return make_engine(TEST_TABLE)


def duel(engine: YasgEngine, **kw):
    """Harper (B) at E8 facing north, Ducos (B) at E4 facing south, 4 squares apart; the fire phase."""
    return scene(
        engine,
        F("Sharpe", BRITISH, "A", "A10", "e", leader=True),
        F("Harper", BRITISH, "B", "E8"),
        F("Ducos", FRENCH, "B", "E4", "s", leader=True),
        F("Leroux", FRENCH, "C", "J5", "w"),
        phase="fire",
        **kw,
    )


# --- firing -------------------------------------------------------------------------------------


def test_a_shot_rolls_misfire_then_hit_then_damage(tested: YasgEngine) -> None:
    """Dice order: d6 misfire, d10 to hit, d10 damage if hit; damage waits for the phase's end."""
    state = duel(tested)
    out = act(tested, state, "fire", 4, 5, 7, figure="Harper", target="Ducos")
    assert act.last_dice.reasons == [  # type: ignore[attr-defined]
        "Harper: musket, misfires on 1",
        "Harper: shot at Ducos, hits on 5+",
        "Harper: damage to Ducos",
    ]
    [shot] = events(out, "fire")
    assert (shot["squares"], shot["band"], shot["needed"], shot["roll"], shot["hit"], shot["result"]) == (
        4,
        "near",
        5,
        5,
        True,
        "minor",
    )
    assert out.events[0].text == (
        "Harper fires at Ducos (4 squares, near range; class B): needs 5, rolls 5: "
        "hit; damage 7: a minor wound (taken when the fire phase ends)."
    )
    h = fig(out.state, "Harper")
    assert (h.fired, h.weapon_state, h.weapon_turn) == (True, "empty", 1)
    assert fig(out.state, "Ducos").wounds == 0 and len(out.state.hits) == 1
    miss = act(tested, state, "fire", 4, 4, figure="Harper", target="Ducos")
    assert events(miss, "fire")[0]["hit"] is False and miss.state.hits == []


def test_damage_table_d(tested: YasgEngine) -> None:
    """A-YASG-1: faces 1 and 10 kill, 2-5 serious, 6-9 minor."""
    state = duel(tested)
    for face, result in ((1, "killed"), (10, "killed"), (2, "serious"), (5, "serious"), (6, "minor"), (9, "minor")):
        out = act(tested, state, "fire", 6, 9, face, figure="Harper", target="Ducos")
        assert events(out, "fire")[0]["result"] == result


def test_a_misfire_rolls_no_more_and_costs_the_next_turn(tested: YasgEngine) -> None:
    """A-YASG-13: d6 1 → no shot; next turn no move, no fire; a clean turn later the musket is loaded."""
    state = duel(tested)
    out = act(tested, state, "fire", 1, figure="Harper", target="Ducos")
    assert kinds(out)[0] == "misfire" and len(act.last_dice.rolls) == 1  # type: ignore[attr-defined]
    assert fig(out.state, "Harper").weapon_state == "misfired"
    assert "British have no more shots this turn." in texts(out)
    refuse(
        tested,
        out.state,
        "fire",
        "Harper has already fired this turn",
        as_side=BRITISH,
        figure="Harper",
        target="Ducos",
    )
    # turn 2: rectifying — no move, no fire; loaded at its end
    turn2 = change(tested, out.state, "Harper", fired=False)
    turn2 = tested.load_state(
        {**tested.dump_state(turn2), "turn": 2, "phase": "movement", "mover": BRITISH, "done": []}
    )
    refuse(tested, turn2, "move", "clearing its misfire this turn and may not move", figure="Harper", to="E7")
    as_fire = tested.load_state({**tested.dump_state(turn2), "phase": "fire", "mover": None})
    refuse(tested, as_fire, "fire", "Harper is clearing a misfire", as_side=BRITISH, figure="Harper", target="Ducos")
    ended = act(tested, as_fire, "next", as_side=BRITISH)
    ended = act(tested, ended.state, "next", as_side=FRENCH)
    assert "Harper has cleared its misfire and reloaded." in texts(ended)
    assert fig(ended.state, "Harper").weapon_state == "loaded" and ended.state.turn == 3


def test_refused_shots_roll_nothing(tested: YasgEngine) -> None:
    state = duel(tested)
    refuse(tested, state, "fire", "Sharpe is on Harper's own side", as_side=BRITISH, figure="Harper", target="Sharpe")
    refuse(
        tested,
        state,
        "fire",
        "outside Harper's arc of fire facing N from E8",
        as_side=BRITISH,
        figure="Harper",
        target="Leroux",
    )
    refuse(tested, state, "fire", "Ducos fights for french", as_side=BRITISH, figure="Ducos", target="Harper")
    refuse(tested, state, "fire", "Give target: (The enemy it fires at).", as_side=BRITISH, figure="Harper")
    far = scene(
        tested, F("Harper", BRITISH, "B", "E12"), F("Ducos", FRENCH, "B", "E1", "s"), size=(12, 12), phase="fire"
    )
    refuse(
        tested,
        far,
        "fire",
        "11 squares from Harper, beyond musket range (10)",
        as_side=BRITISH,
        figure="Harper",
        target="Ducos",
    )
    for fields, message in (
        ({"fired": True}, "already fired this turn"),
        ({"weapon_state": "empty"}, "has an empty musket"),
        ({"fallen_until": 1}, "has fallen and is getting up"),
        ({"moved": 2}, "walked 2 squares this turn; to fire it may move only 1"),
        ({"moved": 4, "ran": True}, "ran 4 squares this turn; to fire it may move only 3"),
        ({"out": True}, "is out of the fight"),
    ):
        refuse(
            tested,
            change(tested, state, "Harper", **fields),
            "fire",
            message,
            as_side=BRITISH,
            figure="Harper",
            target="Ducos",
        )
    dead = change(tested, state, "Ducos", out=True)
    refuse(tested, dead, "fire", "Ducos is already out of the fight", as_side=BRITISH, figure="Harper", target="Ducos")
    # beyond the table: a pinned C (so D) at far range has no number (the table's "—")
    hopeless = scene(
        tested,
        F("Perkins", BRITISH, "C", "E10"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        phase="fire",
        terrain=[("E4", "building", None)],
    )
    hopeless = change(tested, hopeless, "Perkins", pinned=True)
    refuse(
        tested,
        hopeless,
        "fire",
        "Perkins cannot hit Ducos (6 squares, far range; class D; hard cover, in the building +2): "
        "it would need 13 on a d10.",
        as_side=BRITISH,
        figure="Perkins",
        target="Ducos",
    )


def test_fire_modifiers_add_to_the_number_needed(tested: YasgEngine) -> None:
    """Shaken (ran last turn, A-YASG-11), moved, target ran, cover; a pinned firer one class worse."""
    state = duel(tested, terrain=[("E4", "crops", None)], edges=[("E5", "n", "wall")])
    state = change(tested, state, "Harper", moved=1, shaken=True)
    state = change(tested, state, "Ducos", ran=True)
    out = act(tested, state, "fire", 6, 9, figure="Harper", target="Ducos")
    shot = events(out, "fire")[0]
    assert shot["modifiers"] == [
        {"reason": "ran last turn", "value": 1},
        {"reason": "moved", "value": 1},
        {"reason": "target ran", "value": 1},
        {"reason": "hard cover, behind a wall", "value": 2},
    ]
    assert shot["needed"] == 5 + 5
    pinned = change(tested, duel(tested), "Harper", pinned=True, wounds=1)
    assert (
        events(act(tested, pinned, "fire", 6, 2, figure="Harper", target="Ducos"), "fire")[0]["needed"] == 7
    )  # B+1+1 = D


def test_run_three_and_fire_walk_one_and_fire(tested: YasgEngine) -> None:
    """A-YASG-19: the square is moved in the movement phase, the shot made in the fire phase."""
    state = duel(tested)
    for fields in ({"moved": 1}, {"moved": 3, "ran": True}):
        out = act(tested, change(tested, state, "Harper", **fields), "fire", 6, 2, figure="Harper", target="Ducos")
        assert events(out, "fire")[0]["needed"] == 6  # the firer moved: +1


def test_fire_is_simultaneous(tested: YasgEngine) -> None:
    """The fire phase is simultaneous: a figure killed in it still fires; hits are taken at its end (A-YASG-16)."""
    state = duel(tested)
    out = act(tested, state, "fire", 6, 9, 1, figure="Harper", target="Ducos")
    assert not fig(out.state, "Ducos").out
    back = act(tested, out.state, "fire", 6, 9, 3, as_side=FRENCH, figure="Ducos", target="Harper")
    # both sides have nothing left to fire at: the phase ends and both hits are taken together
    assert [e.text for e in back.events if e.kind in ("casualty", "wound")] == [
        "Ducos is killed (shot by Harper).",
        "Harper takes a serious wound (shot by Ducos): 2 wound points, now class D.",
    ]
    assert fig(back.state, "Ducos").out and fig(back.state, "Harper").wounds == 2
    assert [e["figure"] for e in events(back, "casualty")] == ["Ducos"]
    assert back.state.phase == "morale" and back.state.turn == 2


def test_sides_finish_firing_with_next_or_when_nothing_is_left(tested: YasgEngine) -> None:
    state = duel(tested)
    out = act(tested, state, "next", as_side=FRENCH)
    assert out.state.done == [FRENCH] and out.events[0].text == "French are done with the fire phase."
    refuse(tested, out.state, "next", "french are done with the fire phase: waiting for british", as_side=FRENCH)
    refuse(
        tested,
        out.state,
        "fire",
        "french have finished firing this turn",
        as_side=FRENCH,
        figure="Ducos",
        target="Harper",
    )
    assert tested.whose_turn(out.state) == BRITISH
    shot = act(tested, out.state, "fire", 6, 2, figure="Harper", target="Ducos")
    assert "British have no more shots this turn." in texts(shot) and shot.state.turn == 2
    assert "No hits to take from the fire phase." in texts(shot)
    assert "No figures are in contact: no close combat this turn." in texts(shot)


def test_the_fire_phase_is_skipped_when_nobody_can_fire(tested: YasgEngine) -> None:
    state = scene(tested, F("A", BRITISH, "B", "A10"), F("X", FRENCH, "B", "J1", "s"), phase="movement", first=FRENCH)
    state = tested.load_state({**tested.dump_state(state), "mover": BRITISH})
    out = act(tested, state, "next")
    assert out.events[0].text == "Turn 1 · fire phase: no figure can fire (A and X: no enemy in arc and range)."
    walked = change(tested, state, "A", moved=2)
    said = act(tested, walked, "next").events[0].text
    assert said == "Turn 1 · fire phase: no figure can fire (A: moved too far to fire; X: no enemy in arc and range)."
    assert out.state.phase == "morale" and out.state.turn == 2


def test_reloading_after_firing(tested: YasgEngine) -> None:
    """A figure that fires in turn N loads in turn N+1 (without moving) and fires again in N+2."""
    state = duel(tested)
    fired = act(tested, state, "fire", 6, 2, figure="Harper", target="Ducos").state
    fired = act(tested, fired, "next", as_side=FRENCH).state
    assert fired.turn == 2 and fig(fired, "Harper").weapon_state == "empty"
    turn2 = tested.load_state({**tested.dump_state(fired), "phase": "fire", "initiative": [BRITISH, FRENCH]})
    refuse(tested, turn2, "fire", "has an empty musket", as_side=BRITISH, figure="Harper", target="Ducos")
    ended = act(tested, turn2, "next", as_side=BRITISH)
    ended = act(tested, ended.state, "next", as_side=FRENCH)
    assert "Harper has loaded its musket." in texts(ended) and fig(ended.state, "Harper").weapon_state == "loaded"
    moved = change(tested, turn2, "Harper", moved=1)
    ended = act(tested, act(tested, moved, "next", as_side=BRITISH).state, "next", as_side=FRENCH)
    assert fig(ended.state, "Harper").weapon_state == "empty" and "Harper" not in texts(ended)


def test_loading_only_when_declared_is_a_house_rule() -> None:
    strict = make_engine({**TEST_TABLE, "load_automatically": False})
    state = duel(strict, turn=2)
    state = change(strict, state, "Harper", weapon_state="empty", weapon_turn=1)
    ended = act(strict, act(strict, state, "next", as_side=BRITISH).state, "next", as_side=FRENCH)
    assert fig(ended.state, "Harper").weapon_state == "empty"
    declared = change(strict, state, "Harper", loading=True)
    ended = act(strict, act(strict, declared, "next", as_side=BRITISH).state, "next", as_side=FRENCH)
    assert fig(ended.state, "Harper").weapon_state == "loaded"


def test_firing_through_figures_is_a_switch() -> None:
    table = {**TEST_TABLE}
    blocked = make_engine(table)
    state = scene(
        blocked,
        F("Harper", BRITISH, "B", "E8"),
        F("Perkins", BRITISH, "C", "E6"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        phase="fire",
    )
    refuse(
        blocked,
        state,
        "fire",
        "Harper cannot see Ducos: Perkins at E6 is in the way",
        as_side=BRITISH,
        figure="Harper",
        target="Ducos",
    )
    open_ = make_engine({**table, "figures_block_fire": False})
    state = scene(
        open_,
        F("Harper", BRITISH, "B", "E8"),
        F("Perkins", BRITISH, "C", "E6"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        phase="fire",
    )
    assert events(act(open_, state, "fire", 6, 2, figure="Harper", target="Ducos"), "fire")


def test_a_figure_in_close_combat_may_still_fire(tested: YasgEngine) -> None:
    """A-YASG-17."""
    state = scene(tested, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"), phase="fire")
    out = act(tested, state, "fire", 6, 2, figure="Harper", target="Ducos")
    assert events(out, "fire")[0]["squares"] == 1


# --- close combat ----------------------------------------------------------------------------------


def melee(engine: YasgEngine, *figs: F, **kw):
    """The fire phase with both sides done: the next ``next`` starts close combat."""
    state = scene(engine, *figs, phase="fire", **kw)
    state = engine.load_state({**engine.dump_state(state), "done": [BRITISH]})
    for f in state.figures:
        state = change(engine, state, f.name, weapon_state="empty", weapon_turn=0)
    return act(engine, state, "next", as_side=FRENCH)


def test_close_combat_between_orthogonal_neighbours_only(engine: YasgEngine) -> None:
    """A-YASG-15: diagonal squares are not in contact."""
    diagonal = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "F4", "s"))
    assert "No figures are in contact" in texts(diagonal) and diagonal.state.phase == "morale"
    side_by_side = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "F5", "s"))
    assert side_by_side.state.phase == "close combat"
    assert side_by_side.events[-1].text == (
        "Turn 1 · close combat phase: Harper → Ducos; Ducos → Harper. /yasg next rolls every fight at once."
    )
    assert side_by_side.state.done == [BRITISH, FRENCH]  # nobody has a choice to make


def test_every_fight_is_rolled_at_once(engine: YasgEngine) -> None:
    """Dice order: per figure in the list, d10 to hit, then d10 damage on a hit; hits land together."""
    start = melee(
        engine,
        F("Harper", BRITISH, "B", "E5"),
        F("Perkins", BRITISH, "C", "A10"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        F("Leroux", FRENCH, "C", "J1"),
    )
    out = act(engine, start.state, "next", 5, 1, 4)
    assert act.last_dice.reasons == [  # type: ignore[attr-defined]
        "Harper: close combat with Ducos, hits on 5+",
        "Harper: damage to Ducos",
        "Ducos: close combat with Harper, hits on 5+",
    ]
    assert [e["hit"] for e in events(out, "fight")] == [True, False]
    assert texts(out).splitlines()[:4] == [
        "Turn 1 · close combat, every fight at once:",
        "Harper fights Ducos (class B): needs 5, rolls 5: hit; damage 1: killed.",
        "Ducos fights Harper (class B): needs 5, rolls 4: miss.",
        "Ducos is killed (in close combat with Harper).",
    ]
    assert fig(out.state, "Ducos").out and out.state.turn == 2 and out.state.phase == "morale"


@pytest.mark.parametrize(
    ("fields", "terrain", "need", "why"),
    [
        ({}, [], 5, []),
        ({"pinned": True}, [], 6, ["pinned"]),
        ({"fallen_until": 1}, [], 6, ["getting up"]),  # A-YASG-10
        ({"wounds": 3}, [], 8, []),  # B + 3 = E
        ({}, [("E4", "hill", None)], 6, ["enemy uphill"]),
        (
            {"pinned": True, "wounds": 3, "fallen_until": 1},
            [("E4", "hill", None)],
            11,
            ["pinned", "getting up", "enemy uphill"],
        ),
    ],
)
def test_close_combat_hits_on_the_class_number_plus_three(engine: YasgEngine, fields, terrain, need, why) -> None:
    start = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "A", "E4", "s"), terrain=terrain)
    state = change(engine, start.state, "Harper", **fields)
    dice = (need, 9) if need <= 10 else ()
    out = act(engine, state, "next", *dice, 3)  # Ducos (A, downhill or level) needs 4: misses on 3
    mine = events(out, "fight")[0]
    assert (mine["needed"], mine["why"], mine["hit"]) == (need, why, need <= 10)
    if need > 10:
        assert "cannot hit" in out.events[1].text


def test_weapon_advantage_is_data() -> None:
    pikes = make_engine({"weapons": {"pike": {"fires": False, "close_combat": 2}}})
    start = melee(pikes, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s", weapon="pike"))
    out = act(pikes, start.state, "next", 5, 5, 9)
    assert [(e["needed"], e["why"]) for e in events(out, "fight")] == [(6, ["enemy's pike"]), (5, [])]


def test_each_figure_fights_one_enemy_of_its_owners_choice(engine: YasgEngine) -> None:
    """A-YASG-14: the enemy it faces by default; /yasg engage picks another; one may face several."""
    start = melee(
        engine,
        F("Harper", BRITISH, "B", "E5", "e"),
        F("Sharpe", BRITISH, "A", "A10"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        F("Leroux", FRENCH, "C", "F5", "w"),
    )
    assert "Harper → Leroux (or Ducos)" in start.events[-1].text
    assert start.state.done == [FRENCH] and engine.whose_turn(start.state) == BRITISH
    refuse(
        engine,
        start.state,
        "engage",
        "Harper (E5) is not adjacent to Sharpe (A10): it can fight Leroux or Ducos.",
        figure="Harper",
        target="Sharpe",
    )
    refuse(engine, start.state, "engage", "Ducos fights for french", figure="Ducos", target="Harper")
    chosen = act(engine, start.state, "engage", figure="Harper", target="Ducos")
    assert chosen.events[0].text == "Harper will fight Ducos."
    out = act(engine, chosen.state, "next", 4, 4, 4)
    assert [(e["figure"], e["target"]) for e in events(out, "fight")] == [
        ("Harper", "Ducos"),
        ("Ducos", "Harper"),
        ("Leroux", "Harper"),
    ]
    refuse(
        engine,
        chosen.state,
        "engage",
        "french are done with the close combat phase",
        by_gm=True,
        figure="Ducos",
        target="Harper",
    )
    refuse(
        engine, chosen.state, "next", "french are done with the close combat phase: waiting for british", as_side=FRENCH
    )


def test_house_walls_keep_figures_apart(engine: YasgEngine) -> None:
    """The seed: no close combat across an obvious obstruction such as the wall of a house."""
    figs = (F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"))
    walled = melee(engine, *figs, terrain=[("E4", "building", None)])
    assert "No figures are in contact" in texts(walled)
    lax = make_engine({"close_combat": {"walls_block": False}})
    assert melee(lax, *figs, terrain=[("E4", "building", None)]).state.phase == "close combat"


def test_close_combat_spoils_loading(engine: YasgEngine) -> None:
    """A-YASG-17: a figure in close combat may not load."""
    start = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"), turn=2)
    out = act(engine, start.state, "next", 1, 1)
    assert "Harper could not load: it was in close combat." in texts(out)
    assert fig(out.state, "Harper").weapon_state == "empty"


# --- wounds and the end of the game ----------------------------------------------------------------


def test_wound_points_lower_the_class_and_more_than_three_put_a_figure_out(engine: YasgEngine) -> None:
    """A-YASG-3: minor 1, serious 2, one class per point; more than 3 points: out of combat."""
    start = melee(
        engine,
        F("Harper", BRITISH, "B", "E5"),
        F("Sharpe", BRITISH, "A", "A10"),
        F("Ducos", FRENCH, "B", "E4", "s"),
        F("Leroux", FRENCH, "C", "J1"),
    )
    hurt = change(engine, start.state, "Ducos", wounds=1)
    out = act(engine, hurt, "next", 5, 3, 1)
    assert "Ducos takes a serious wound (in close combat with Harper): 3 wound points, now class E." in texts(out)
    worse = change(engine, start.state, "Ducos", wounds=2)
    out = act(engine, worse, "next", 5, 3, 1)
    assert "Ducos takes a serious wound (in close combat with Harper): 4 wound points, out of the fight." in texts(out)
    assert events(out, "casualty")[0] == {
        "figure": "Ducos",
        "side": FRENCH,
        "by": "Harper",
        "result": "serious",
        "wounds": 4,
    }
    minor = act(engine, worse, "next", 5, 6, 1)
    assert fig(minor.state, "Ducos").wounds == 3 and not fig(minor.state, "Ducos").out


def test_the_last_figure_out_ends_the_game(engine: YasgEngine) -> None:
    start = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"))
    out = act(engine, start.state, "next", 5, 1, 4)
    assert out.state.phase == "over" and out.state.winner == BRITISH and engine.finished(out.state)
    assert events(out, "victory") == [{"winner": BRITISH, "loser": FRENCH}]
    assert engine.whose_turn(out.state) is None and engine.winner(out.state) == BRITISH
    assert engine.board(out.state).headline == "Game over: british won"
    refuse(engine, out.state, "next", "The game is over: british won.")


def test_falling_together_is_a_draw(engine: YasgEngine) -> None:
    start = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"))
    out = act(engine, start.state, "next", 5, 10, 5, 1)
    assert out.state.phase == "over" and out.state.winner is None and out.state.result == "draw"
    assert kinds(out)[-1] == "game over" and engine.board(out.state).headline == "Game over: a draw"
    refuse(engine, out.state, "look", "it was a draw", figure="Harper", target="Ducos")


def test_the_end_of_a_turn(engine: YasgEngine) -> None:
    """Running makes a figure shaken for the next turn only; a fallen figure gets up after its turn."""
    state = scene(engine, F("Harper", BRITISH, "B", "E9"), F("Ducos", FRENCH, "B", "E1", "n"), phase="movement")
    ran = act(engine, state, "move", 2, figure="Harper", to="E7", pace="run").state
    turn = act(engine, act(engine, ran, "next").state, "next").state  # fire phase: nobody can fire
    assert turn.turn == 2 and fig(turn, "Harper").shaken and not fig(turn, "Harper").ran
    assert fig(turn, "Harper").fallen_until == 2
    turn2 = engine.load_state(
        {**engine.dump_state(turn), "phase": "movement", "mover": BRITISH, "initiative": [BRITISH, FRENCH]}
    )
    refuse(engine, turn2, "move", "has fallen", figure="Harper", to="E6")
    end2 = act(engine, act(engine, turn2, "next").state, "next")
    assert "Harper is back on its feet." in texts(end2)
    assert not fig(end2.state, "Harper").shaken and end2.state.turn == 3


def test_morale_and_the_close_combat_roll_may_be_called_by_either_side_or_the_game_master(engine: YasgEngine) -> None:
    state = scene(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "J1", "s"), phase="morale")
    assert act(engine, state, "next", 5, 2, as_side=FRENCH).state.phase == "movement"
    assert act(engine, state, "next", 5, 2, as_side=None, by_gm=True).state.phase == "movement"
    start = melee(engine, F("Harper", BRITISH, "B", "E5"), F("Ducos", FRENCH, "B", "E4", "s"))
    assert act(engine, start.state, "next", 1, 1, as_side=None, by_gm=True).state.turn == 2


def test_look_reports_what_the_board_says(engine: YasgEngine) -> None:
    state = duel(engine, edges=[("E4", "s", "hedge")])
    out = act(engine, state, "look", figure="Harper", target="Ducos")
    assert out.events[0].text == (
        "Harper (E8, facing N) → Ducos (E4): 4 squares, medium range; class B; "
        "soft cover, behind a hedge +1; needs 8 on a d10."
    )
    assert out.state == state
    side = act(engine, state, "look", figure="Harper", target="Leroux")
    assert "outside Harper's arc of fire" in side.events[0].text
    friend = act(engine, state, "look", figure="Harper", target="Sharpe")
    assert "a friend" in friend.events[0].text


def test_engaging_a_figure_out_of_contact_says_so_even_when_the_side_has_no_choice(engine: YasgEngine) -> None:
    """French have one enemy each in contact, so their targets are set; a figure named that is not
    adjacent is refused for that, with where each stands."""
    start = melee(
        engine,
        F("Harper", BRITISH, "B", "E5", "e"),
        F("Sharpe", BRITISH, "A", "A10"),
        F("Ducos", FRENCH, "B", "E4", "s"),
    )
    assert FRENCH in start.state.done
    refuse(
        engine,
        start.state,
        "engage",
        "Ducos (E4) is not adjacent to Sharpe (A10): it can fight Harper.",
        by_gm=True,
        figure="Ducos",
        target="Sharpe",
    )


def test_running_says_the_figure_will_be_shaken_and_the_status_says_what_shaken_means(engine: YasgEngine) -> None:
    state = scene(engine, F("Harper", BRITISH, "B", "E9"), F("Ducos", FRENCH, "B", "E1", "n"), phase="movement")
    ran = act(engine, state, "move", 2, figure="Harper", to="E7", pace="run")
    assert "shaken next turn (morale 1 class worse, 1 more needed to fire)" in texts(ran)
    walked = act(engine, state, "move", figure="Harper", to="E8")
    assert "shaken" not in texts(walked)
    turn = act(engine, act(engine, ran.state, "next").state, "next").state
    harper = next(line for line in engine.board(turn).figures if line.name == "Harper")
    assert "shaken (ran last turn)" in harper.status
