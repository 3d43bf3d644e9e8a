"""Wounding and wound effects (12, 13): table W cell by cell, modifiers, effects by location,
accumulation, knock-outs, pass-outs and recoveries, falls, horses and morale."""

from __future__ import annotations

import pytest

from rules.sharpe.common import Ctx
from rules.sharpe.wounds import apply_wound, severity_for, swap_arm
from tests.rules.test_sharpe_helpers import (
    ScriptedDice,
    begin,
    char,
    events,
    fig,
    new_engine,
    play,
    refused,
    texts,
)

N, L, S, K = "none", "light", "serious", "kill"
MAIN = {
    "head": [N, N, L, L, S, S, S, K, K, K, K],
    "arms": [N, N, L, L, L, L, S, S, S, S, K],
    "legs": [N, N, L, L, L, S, S, S, S, K, K],
    "chest": [N, L, L, L, S, S, S, S, K, K, K],
    "abdomen": [N, L, L, L, S, S, S, S, K, K, K],
}
ROW_PART = {"head": "head", "arms": "left_arm", "legs": "legs", "chest": "chest", "abdomen": "abdomen"}


def ctx_for(**options):
    engine = new_engine(**options)
    state = begin(engine, [fig("Harris", "british", "rifleman"), fig("Dubois", "french", "voltigeur")])
    return engine, Ctx(engine.tables, state, ScriptedDice())


@pytest.mark.parametrize("row", list(MAIN))
@pytest.mark.parametrize("score", range(2, 13))
def test_every_cell_of_the_wound_table_main_text(row: str, score: int) -> None:
    _, ctx = ctx_for()
    assert severity_for(ctx, ROW_PART[row], score) == MAIN[row][score - 2]
    if row == "arms":
        assert severity_for(ctx, "right_arm", score) == MAIN[row][score - 2]


def test_head_five_playsheet_switch_a_sharpe_1() -> None:
    _, main = ctx_for()
    _, playsheet = ctx_for(head5="serious")
    assert severity_for(main, "head", 5) == L and severity_for(playsheet, "head", 5) == S
    assert [severity_for(playsheet, "head", s) for s in range(2, 13) if s != 5] == [
        c for i, c in enumerate(MAIN["head"]) if i != 3
    ]


@pytest.mark.parametrize("score", [-5, 0, 1])
def test_scores_below_two_have_no_effect(score: int) -> None:
    _, ctx = ctx_for()
    assert all(severity_for(ctx, part, score) == N for part in ROW_PART.values())


@pytest.mark.parametrize("score", [13, 14, 30])
def test_scores_above_twelve_always_kill(score: int) -> None:
    _, ctx = ctx_for()
    assert all(severity_for(ctx, part, score) == K for part in ROW_PART.values())


def test_arms_swap_with_the_flank() -> None:
    assert swap_arm("left_arm", "right") == "right_arm" and swap_arm("right_arm", "left") == "left_arm"
    assert swap_arm("left_arm", "left") == "left_arm" and swap_arm("right_arm", "front") == "right_arm"
    assert swap_arm("chest", "right") == "chest"


# --- effects ------------------------------------------------------------------------------------------


def wound(part: str, severity: str, *dice: int, **options):
    engine, ctx = ctx_for(**options)
    ctx.dice = ScriptedDice(*dice)
    victim = ctx.get("Dubois")
    apply_wound(ctx, victim, part, severity, by="Harris", source="melee")
    return engine, ctx, victim


def test_light_leg_wound_stops_the_next_move() -> None:
    _, ctx, victim = wound("legs", L)
    assert victim.no_move_bound == 2 and not victim.crawl_only
    assert "no move next bound" in ctx.events[0].text and "recoils 1″" in ctx.events[0].text


def test_serious_leg_wound_means_crawling_for_the_rest_of_the_game() -> None:
    _, ctx, victim = wound("legs", S)
    assert victim.crawl_only and "crawl" in ctx.events[0].text


def test_two_light_leg_wounds_are_a_serious_one_a_sharpe_10() -> None:
    _, ctx, victim = wound("legs", L)
    apply_wound(ctx, victim, "legs", L, by="Harris", source="melee")
    assert victim.crawl_only
    second = ctx.events[-1]
    assert second.data["effects"][1] == "his light wounds to the legs add up to a serious one"
    assert second.text.startswith(
        "Dubois: light wound to the legs — no further action or movement this bound; his light wounds"
    )


def test_serious_arm_wound_drops_what_is_in_the_hand() -> None:
    _, ctx, victim = wound("right_arm", S)
    assert "carbine" not in victim.weapons and ctx.state.dropped[0].weapon == "carbine"
    assert "drops his French carbine" in ctx.events[0].text and "useless" in ctx.events[0].text


def test_serious_head_wound_knocks_out_for_d6_bounds() -> None:
    _, ctx, victim = wound("head", S, 3)
    assert victim.down == "knocked_down" and victim.knocked_out == 3
    assert "knocked out for 3 bounds" in ctx.events[0].text


@pytest.mark.parametrize("part", ["chest", "abdomen"])
def test_serious_chest_or_abdomen_knocks_down_and_rolls_to_pass_out(part: str) -> None:
    _, ctx, victim = wound(part, S)
    assert victim.down == "knocked_down" and victim.passout_rolls and not victim.unconscious
    assert "passes out on 5–6" in ctx.events[0].text


def test_light_wound_elsewhere_ends_actions_this_bound() -> None:
    _, ctx, victim = wound("chest", L)
    assert victim.wounded_bound == 1 and not victim.down
    assert "no further action or movement this bound" in ctx.events[0].text


def test_two_serious_wounds_are_out_of_action_a_sharpe_10() -> None:
    _, ctx, victim = wound("legs", S)
    apply_wound(ctx, victim, "left_arm", S, by="Harris", source="melee")
    assert victim.out
    assert [e.kind for e in ctx.events][-2:] == ["wound", "casualty"]


def test_a_kill_result_is_out_of_action_at_once() -> None:
    _, ctx, victim = wound("chest", K)
    assert victim.out and ctx.events[-1].kind == "casualty" and ctx.events[-1].data["by"] == "Harris"


def test_no_effect_from_a_shot_suppresses_and_from_melee_does_not() -> None:
    _, ctx = ctx_for()
    victim = ctx.get("Dubois")
    apply_wound(ctx, victim, "legs", N, by="Harris", source="melee")
    assert victim.suppressed_bound == 0 and "recoils 1″" in ctx.events[-1].text
    apply_wound(ctx, victim, "legs", N, by="Harris", source="shot")
    assert victim.suppressed_bound == 1 and "suppressed" in ctx.events[-1].text


def test_wounds_move_a_man_down_the_order_a_sharpe_13() -> None:
    engine = new_engine()
    names = ["A", "B", "C", "D", "E"]
    state = begin(engine, [fig(n, "british" if n < "C" else "french", "line_infantry") for n in names])
    ctx = Ctx(engine.tables, state, ScriptedDice())
    apply_wound(ctx, ctx.get("A"), "legs", L, by="C", source="melee")
    assert state.order == ["B", "A", "C", "D", "E"]
    assert "moves down the order: he now acts after B" in ctx.events[-1].text  # not "to 2"
    apply_wound(ctx, ctx.get("C"), "legs", S, by="A", source="melee")
    assert state.order == ["B", "A", "D", "E", "C"]  # not past the end
    assert "moves down the order: he now acts after E" in ctx.events[-1].text
    reroll = new_engine(reroll_order_every_bound=True)
    state = begin(reroll, [fig(n, "british" if n < "C" else "french", "line_infantry") for n in names])
    ctx = Ctx(reroll.tables, state, ScriptedDice())
    apply_wound(ctx, ctx.get("A"), "legs", S, by="C", source="melee")
    assert state.order == names  # the variant uses initiative instead


def test_wounds_reduce_initiative_dexterity_strength_not_close_combat() -> None:
    from rules.sharpe.profile import current

    engine, ctx, victim = wound("legs", L)
    apply_wound(ctx, victim, "chest", S, by="Harris", source="melee")
    assert [current(engine.tables, victim, a) for a in "IDSC"] == [1, 1, 1, 4]


# --- the end of the bound ------------------------------------------------------------------------------


def duel(**options):
    engine = new_engine(**options)
    specs = [
        fig("Harris", "british", "rifleman", I=5, D=4, S=4, C=4, F=8),
        fig("Dubois", "french", "voltigeur", I=4, D=4, S=4, C=4),
        fig("Martin", "french", "voltigeur", I=3),
    ]
    return engine, begin(engine, specs)


def chest_shot(engine, state):
    """Harris shoots Dubois: hit, chest, 2D6 = 8: serious."""
    return play(engine, state, "shoot", 3, 3, 5, 4, 4, target="Dubois", range=10)


def test_pass_out_roll_at_the_end_of_the_very_bound() -> None:
    engine, state = duel()
    state = chest_shot(engine, state).state
    assert char(state, "Dubois").passout_rolls
    state = play(engine, state, "done").state  # Dubois skipped (wounded); Martin acts
    assert state.active == "Martin"
    ended = play(engine, state, "done", 5)  # end of bound: Dubois rolls 5 → passes out
    assert char(ended.state, "Dubois").unconscious
    assert any("passes out" in t for t in texts(ended, "passout"))
    assert ended.state.bound == 2 and ended.state.active == "Harris"


def test_unconscious_men_recover_on_a_six_and_roll_again_afterwards() -> None:
    engine, state = duel()
    state = chest_shot(engine, state).state
    state = play(engine, play(engine, state, "done").state, "done", 6).state  # passes out
    state = play(engine, state, "done").state  # Harris; Dubois skipped
    assert state.active == "Martin"
    out = play(engine, state, "done", 4)  # still out
    assert "still unconscious" in texts(out, "recover")[0]
    state = play(engine, out.state, "done").state
    out = play(engine, state, "done", 6)
    assert "comes round" in texts(out, "recover")[0] and not char(out.state, "Dubois").unconscious
    assert char(out.state, "Dubois").down == "knocked_down"
    # Conscious again: his turn comes (three places down the order), and he may try to rise (1D6 ≤ I).
    state = play(engine, play(engine, out.state, "done").state, "done").state
    assert state.order == ["Harris", "Martin", "Dubois"] and state.active == "Dubois"
    refused(engine, state, "move", "on the ground", distance=3)
    up = play(engine, state, "rise", 2)
    assert "on his feet" in texts(up, "rise")[0]
    again = play(engine, up.state, "done", 5)  # still rolls to pass out
    assert char(again.state, "Dubois").unconscious


def test_knocked_out_counts_down_whole_bounds() -> None:
    engine, state = duel()
    state = play(engine, state, "shoot", 3, 3, 6, 3, 3, 2, target="Dubois", range=10).state  # head 6: serious, out 2
    dubois = char(state, "Dubois")
    assert dubois.knocked_out == 2
    state = play(engine, play(engine, state, "done").state, "done").state  # end of bound 1
    assert char(state, "Dubois").knocked_out == 2  # the wound bound does not count
    for _ in range(2):
        state = play(engine, state, "done").state
        state = play(engine, state, "done").state
    assert char(state, "Dubois").knocked_out == 0 and state.bound == 4


def test_falling_from_a_high_place_a_sharpe_3() -> None:
    engine, state = duel()
    # A light wound on a 14 ft roof: initiative check (after the wound) 6 fails; a fall of 14 ft wounds:
    # location 1 legs, 2D6 6+5 −3 falling = 8: serious.
    out = play(engine, state, "shoot", 3, 3, 5, 2, 2, 6, 1, 6, 5, target="Dubois", range=10, perch_ft=14)
    fall = texts(out, "fall")[0]
    assert "falls 14 ft" in fall and "−3 falling = 8: serious wound" in fall
    assert char(out.state, "Dubois").crawl_only and char(out.state, "Dubois").down


def test_falling_modifier_playsheet_sign_is_a_house_rule() -> None:
    engine = new_engine()
    from rules.sharpe.engine import make_engine

    plus = make_engine({"wound_modifiers": {"falling": 3}})
    assert engine.tables.wound_modifiers.falling == -3 and plus.tables.wound_modifiers.falling == 3


def test_a_short_fall_does_not_wound() -> None:
    engine, state = duel()
    out = play(engine, state, "shoot", 3, 3, 5, 2, 2, 6, target="Dubois", range=10, perch_ft=5)
    assert "falls 5 ft" in texts(out, "check")[-1] and not texts(out, "fall")


# --- morale (14) -------------------------------------------------------------------------------------


def morale_game(**options):
    engine = new_engine(**options)
    specs = [
        fig("Sharpe", "british", "rifle_officer", I=6, F=10),
        fig("Capitaine", "french", "officer", I=5, F=6),
        fig("Sergent", "french", "sergeant", I=3),
        fig("Jacques", "french", "line_infantry", I=4),
        fig("Henri", "french", "line_infantry", I=2),
    ]
    return engine, begin(engine, specs)


def test_morale_when_the_officer_falls_a_sharpe_16() -> None:
    engine, state = morale_game()
    # Sharpe's shot kills the Capitaine (head, 2D6 6+6); the senior soldier (the highest I at the start,
    # alive) is Jacques (I 4, above the Sergent's 3): he tests initiative, rolls 5, and the French break.
    out = play(engine, state, "shoot", 2, 3, 6, 6, 6, 5, target="Capitaine", range=10)
    [morale] = events(out, "morale")
    assert morale.data["senior"] == "Jacques" and morale.data["ok"] is False
    assert out.state.broken == ["french"]
    state = play(engine, out.state, "done").state
    assert state.active == "Sergent"
    refused(engine, state, "shoot", "broken", target="Sharpe", range=10)
    refused(engine, state, "attack", "broken", defender="Sharpe")
    assert play(engine, state, "move", distance=3).state  # withdrawing is allowed


def test_a_broken_man_may_not_run_into_contact_a_sharpe_16() -> None:
    """Broken: "they may only defend and withdraw", so a move into contact is refused, not invited."""
    engine, state = morale_game()
    state.broken = ["french"]
    state.active = "Sergent"
    message = refused(engine, state, "move", "broken", distance=3, contact="Sharpe")
    assert message == (
        "The french are broken: Sergent may only defend and withdraw, not move into contact with Sharpe."
    )
    state.broken = []
    assert "may attack him now" in texts(play(engine, state, "move", distance=3, contact="Sharpe"), "contact")[0]


def test_morale_holds_and_is_tested_once_per_fall() -> None:
    engine, state = morale_game()
    out = play(engine, state, "shoot", 2, 3, 6, 6, 6, 1, target="Capitaine", range=10)
    assert "they hold" in texts(out, "morale")[0] and not out.state.broken


def test_morale_is_a_switch() -> None:
    engine, state = morale_game(morale=False)
    out = play(engine, state, "shoot", 2, 3, 6, 6, 6, target="Capitaine", range=10)
    assert not events(out, "morale")


def test_officer_and_sergeant_both_dead_is_a_second_test() -> None:
    engine, state = morale_game()
    out = play(engine, state, "shoot", 2, 3, 6, 6, 6, 1, target="Capitaine", range=10)
    ctx = Ctx(engine.tables, out.state, ScriptedDice(2))
    apply_wound(ctx, ctx.get("Sergent"), "chest", K, by="Sharpe", source="shot")
    [morale] = [e for e in ctx.events if e.kind == "morale"]
    assert "both officer and sergeant are dead" in morale.text
