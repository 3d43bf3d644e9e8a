"""Shooting (7): every modifier, every range band, caps, misfires and weather, reloading over bounds,
automatic hits, multi-wound weapons, cover, horse or rider, picking up weapons, artillery."""

from __future__ import annotations

import pytest

from rules.sharpe.engine import make_engine
from rules.sharpe.state import Wound
from tests.rules.test_sharpe_helpers import (
    begin,
    char,
    events,
    fig,
    new_engine,
    play,
    refused,
    texts,
)

BRITISH = [
    fig("Harris", "british", "rifleman", I=6, F=8),
    fig("Harper", "british", "rifle_sergeant", I=5, F=10),
    fig("Redcoat", "british", "line_infantry", I=5, F=6),
    fig("Lieutenant", "british", "officer", I=4, F=6),
    fig("Gunner", "british", "artillery_crew", I=3),
    fig("Old Bess", "british", "gun", F=6),
]
FRENCH = [
    fig("Dubois", "french", "voltigeur", I=4),
    fig("Martin", "french", "voltigeur", I=3),
    fig("Leroy", "french", "chasseur", I=3),
    fig("Lancier", "french", "cavalryman", I=2),
]


def game(**options):
    engine = new_engine(**options)
    return engine, begin(engine, BRITISH + FRENCH)


def shot_data(engine, state, shooter: str, target: str, range: float, **params):
    """The shot's skill and modifiers, read from a misfire (12) so no other die is needed."""
    out = play(engine, state, "shoot", 6, 6, by_gm=True, shooter=shooter, target=target, range=range, **params)
    [event] = events(out, "shot")
    assert event.data["misfire"] is True
    return event.data


def mods(data) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in data["modifiers"]}


def test_unmodified_musket_skill() -> None:
    engine, state = game()
    data = shot_data(engine, state, "Redcoat", "Dubois", 10)
    assert data["skill"] == 6 and data["modifiers"] == []


def test_every_shooting_modifier() -> None:
    engine, state = game()
    redcoat, dubois = char(state, "Redcoat"), char(state, "Dubois")
    redcoat.wounds += [Wound("legs", "light", 1, "x"), Wound("chest", "serious", 1, "x")]
    redcoat.moved_bound, redcoat.moved = 1, 2.0
    dubois.moved_bound, dubois.moved = 1, 4.0
    state.night = True
    data = shot_data(engine, state, "Redcoat", "Dubois", 6, resting=True)
    assert mods(data) == {
        "light wounds": -1,
        "serious wounds": -2,
        "firer moving": -1,
        "target moving": -1,
        "night": -1,
        "short range": 1,
        "resting the gun": 1,
    }
    assert data["skill"] == 6 - 1 - 2 - 1 - 1 - 1 + 1 + 1


def test_mounted_target_and_aimed_shot_a_sharpe_4() -> None:
    engine, state = game()
    state.bound = 3
    data = shot_data(engine, state, "Redcoat", "Lancier", 20, aimed=True)
    assert mods(data) == {"mounted target": 1, "aimed": 1} and data["skill"] == 8


AIMED_AT_DUBOIS = {"by_gm": True, "shooter": "Redcoat", "target": "Dubois", "range": 10, "aimed": True}


def test_aimed_needs_a_whole_move_standing_still() -> None:
    engine, state = game()
    state.bound = 3
    char(state, "Redcoat").moved_bound = 2
    said = refused(engine, state, "shoot", "aimed shot needs", **AIMED_AT_DUBOIS)
    assert said == "Redcoat moved last bound: an aimed shot needs a whole move standing still first."
    char(state, "Redcoat").moved_bound = 3
    said = refused(engine, state, "shoot", "aimed shot needs", **AIMED_AT_DUBOIS)
    assert said == "Redcoat moved this bound: an aimed shot needs a whole move standing still first."


def test_nobody_aims_in_the_first_bound_and_is_told_why_a_sharpe_51() -> None:
    """Issue 19: the refusal in bound 1 said he had moved, when nobody had; the reason is the bound."""
    engine, state = game()
    assert state.bound == 1 and char(state, "Redcoat").moved_bound == 0
    said = refused(engine, state, "shoot", "", **AIMED_AT_DUBOIS)
    assert said == (
        "Nobody aims in the first bound: an aimed shot needs a whole move standing still first, "
        "so Redcoat may aim from bound 2 if he does not move now."
    )


def test_the_time_before_the_battle_may_count_as_standing_still_a_sharpe_51() -> None:
    engine = make_engine({"shooting": {"aim_in_first_bound": True}})
    state = begin(engine, BRITISH + FRENCH)
    assert "aimed" in mods(shot_data(engine, state, "Redcoat", "Dubois", 10, aimed=True))
    char(state, "Redcoat").moved_bound = 1
    refused(engine, state, "shoot", "Redcoat moved this bound", **AIMED_AT_DUBOIS)


def test_left_hand_pistol() -> None:
    engine, state = game()
    data = shot_data(engine, state, "Lieutenant", "Dubois", 3, left_hand=True)
    assert mods(data) == {"short range": 1, "left hand": -1}
    char(state, "Lieutenant").wounds.append(Wound("right_arm", "serious", 1, "x"))
    assert mods(shot_data(engine, state, "Lieutenant", "Dubois", 3)) == {
        "short range": 1,
        "left hand": -1,
        "serious wounds": -2,
    }


BANDS = [
    ("Redcoat", 6, 1),
    ("Redcoat", 6.5, 0),
    ("Redcoat", 24, 0),
    ("Redcoat", 24.5, -1),
    ("Redcoat", 36, -1),
    ("Redcoat", 37, -2),
    ("Redcoat", 48, -2),
    ("Lieutenant", 3, 1),
    ("Lieutenant", 3.5, -1),
    ("Lieutenant", 6, -1),
    ("Lieutenant", 7, -2),
    ("Lieutenant", 12, -2),
    ("Harris", 10, 1),
    ("Harris", 10.5, 0),
    ("Harris", 48, 0),
    ("Harris", 49, -1),
    ("Harris", 300, -1),
]


@pytest.mark.parametrize("shooter, distance, expected", BANDS)
def test_range_bands_upper_bound_inclusive_a_sharpe_18(shooter: str, distance: float, expected: int) -> None:
    engine, state = game()
    data = shot_data(engine, state, shooter, "Dubois", distance)
    assert sum(mods(data).values()) == expected


@pytest.mark.parametrize(
    "shooter, weapon, distance", [("Redcoat", None, 48.5), ("Lieutenant", None, 12.5), ("Harper", "volley gun", 30.5)]
)
def test_beyond_the_last_band_is_refused(shooter: str, weapon: str | None, distance: float) -> None:
    engine, state = game()
    refused(
        engine,
        state,
        "shoot",
        "out of range",
        by_gm=True,
        shooter=shooter,
        target="Dubois",
        range=distance,
        weapon=weapon,
    )


@pytest.mark.parametrize("distance, expected", [(5, 0), (15, 0), (15.5, -1), (30, -1)])
def test_volley_gun_bands(distance: float, expected: int) -> None:
    engine, state = game()
    data = shot_data(engine, state, "Harper", "Dubois", distance, weapon="volley gun")
    assert sum(mods(data).values()) == expected and data["base"] == 10


@pytest.mark.parametrize("distance, expected", [(10, 0), (24, 0), (25, -1), (36, -1), (40, -2), (48, -2), (60, -3)])
def test_artillery_bands(distance: float, expected: int) -> None:
    engine, state = game()
    data = shot_data(engine, state, "Gunner", "Dubois", distance, gun="Old Bess")
    assert sum(mods(data).values()) == expected and data["base"] == 6


def test_musket_caps_skill_at_nine_before_modifiers() -> None:
    engine = new_engine()
    state = begin(
        engine, [fig("Tongue", "british", "rifleman", F=12, weapons=["musket"]), fig("Dubois", "french", "voltigeur")]
    )
    data = shot_data(engine, state, "Tongue", "Dubois", 6)
    assert data["base"] == 9 and data["skill"] == 10


def test_gun_skill_at_most_nine() -> None:
    engine = new_engine()
    assert engine.recruit(fig("Big Gun", "british", "gun", F=12), None).state.stats["F"] == 9  # type: ignore[arg-type]


def test_tap_loaded_rifle_fires_sooner_but_as_a_musket() -> None:
    engine, state = duel_with("Harris", F=11)
    out = play(engine, state, "shoot", 3, 3, 1, 1, 1, target="Dubois", range=20, tap_load=True)
    rifle = char(out.state, "Harris").firearms[0]
    assert rifle.tap and rifle.reload_left == 1
    state = bounds(engine, out.state, 2)  # bound 3
    data = shot_data(engine, state, "Harris", "Dubois", 20)
    assert data["base"] == 9


def test_tap_load_only_for_rifles() -> None:
    engine, state = game()
    refused(
        engine, state, "shoot", "tap loaded", by_gm=True, shooter="Redcoat", target="Dubois", range=10, tap_load=True
    )


def test_two_and_twelve_always_misfire_a_sharpe_2() -> None:
    engine = new_engine()
    state = begin(engine, [fig("Best", "british", "rifleman", F=12), fig("Dubois", "french", "voltigeur")])
    state.bound = 3
    for a, b in ((1, 1), (6, 6)):
        out = play(engine, state, "shoot", a, b, target="Dubois", range=5, aimed=True)
        [event] = events(out, "shot")
        assert event.data["skill"] == 14 and event.data["misfire"] is True and "misfire" in event.text
        assert char(out.state, "Best").firearms[0].repriming


@pytest.mark.parametrize(
    "weather, face, misfire", [("fog", 6, True), ("fog", 5, False), ("rain", 4, True), ("rain", 3, False)]
)
def test_weather_misfires_on_the_extra_die(weather: str, face: int, misfire: bool) -> None:
    engine, state = game()
    state = play(engine, state, "weather", by_gm=True, weather=weather).state
    dice = (face,) if misfire else (face, 6, 6)
    out = play(engine, state, "shoot", *dice, by_gm=True, shooter="Redcoat", target="Dubois", range=10)
    [event] = events(out, "shot")
    assert event.data["weather_die"] == face and event.data["misfire"] is True
    assert ("re-prime" in event.text) and (("2D6" in event.text) is not misfire)


def test_weather_is_the_game_masters() -> None:
    engine, state = game()
    refused(engine, state, "weather", "game master", weather="fog")
    out = play(engine, state, "weather", by_gm=True, weather="rain", night=True)
    assert "rain, night" in texts(out)[0] and out.state.night


# --- reloading over bounds (A-SHARPE-14) ------------------------------------------------------------------


def duel_with(shooter: str, **stats):
    engine = new_engine()
    kinds = {"Harris": "rifleman", "Redcoat": "line_infantry", "Harper": "rifle_sergeant"}
    state = begin(engine, [fig(shooter, "british", kinds[shooter], **stats), fig("Dubois", "french", "voltigeur", I=2)])
    return engine, state


def bounds(engine, state, count: int):
    """Pass ``count`` bounds with everybody ending his turn."""
    target = state.bound + count
    while state.bound < target:
        state = play(engine, state, "done").state
    return state


def miss(engine, state, shooter: str):
    return play(engine, state, "shoot", 6, 5, by_gm=True, shooter=shooter, target="Dubois", range=20).state


@pytest.mark.parametrize("shooter, next_bound", [("Redcoat", 3), ("Harris", 4)])
def test_musket_every_other_bound_rifle_every_third(shooter: str, next_bound: int) -> None:
    engine, state = duel_with(shooter)
    state = miss(engine, state, shooter)
    while state.bound < next_bound - 1:
        state = bounds(engine, state, 1)
        refused(engine, state, "shoot", "reloading", target="Dubois", range=20)
    state = bounds(engine, state, 1)
    assert state.bound == next_bound
    assert miss(engine, state, shooter)


def test_a_hit_or_suppression_while_reloading_costs_a_bound() -> None:
    engine, state = duel_with("Redcoat")
    state = miss(engine, state, "Redcoat")
    state = bounds(engine, state, 1)
    state = play(engine, state, "done").state  # bound 2: Dubois's turn
    out = play(engine, state, "shoot", 2, 3, 6, 1, 1, target="Redcoat", range=20)  # no effect: suppressed
    assert char(out.state, "Redcoat").suppressed_bound == 2
    ended = play(engine, out.state, "done")
    assert "interrupted" in " ".join(texts(ended, "reload"))
    state = ended.state
    assert state.bound == 3
    refused(engine, state, "shoot", "reloading", target="Dubois", range=20)
    state = bounds(engine, state, 1)
    assert state.bound == 4 and miss(engine, state, "Redcoat")


def test_running_breaks_the_reload_walking_does_not() -> None:
    engine, state = duel_with("Redcoat")
    state = miss(engine, state, "Redcoat")
    state = bounds(engine, state, 1)
    state = play(engine, state, "move", pace="run", distance=9).state
    state = bounds(engine, state, 1)
    refused(engine, state, "shoot", "reloading", target="Dubois", range=20)
    state = play(engine, state, "move", pace="walk", distance=6).state
    state = bounds(engine, state, 1)
    assert miss(engine, state, "Redcoat")


def test_a_rifleman_loads_his_own_rifle_a_sharpe_14() -> None:
    """/sharpe load for a man with no gun: he loads his own firearm, which needs clean bounds (no
    running, no fighting, no shot); loading, he may only crawl or walk."""
    engine, state = duel_with("Harris")
    assert refused(engine, state, "load", "loaded") == "Harris's Baker rifle is loaded: it needs no loading."
    state = miss(engine, state, "Harris")
    assert texts(play(engine, state, "load")) == [
        "Harris loads his Baker rifle: 2 clean bounds from the next, so it fires in bound 4 "
        "(a bound he runs, fights, is hit or suppressed does not count)."
    ]
    state = bounds(engine, state, 1)
    loading = play(engine, state, "load")
    assert texts(loading) == [
        "Harris loads his Baker rifle: 2 clean bounds from this one, so it fires in bound 4 "
        "(a bound he runs, fights, is hit or suppressed does not count)."
    ]
    refused(
        engine,
        loading.state,
        "move",
        "loading his Baker rifle this bound: he may only crawl or walk",
        pace="run",
        distance=9,
    )
    refused(engine, loading.state, "attack", "loading his Baker rifle this bound", defender="Dubois")
    assert play(engine, loading.state, "move", pace="walk", distance=3).state
    state = play(engine, state, "move", pace="run", distance=9).state
    assert refused(engine, state, "load", "busy") == (
        "Harris has been busy this bound (he ran, jumped, fought or shot): "
        "his Baker rifle's loading counts from the next bound."
    )


def test_a_man_with_no_firearm_and_no_gun_has_nothing_to_load() -> None:
    engine = new_engine()
    state = begin(
        engine, [fig("Jacques", "french", "line_infantry", weapons="bayonet"), fig("Harris", "british", "rifleman")]
    )
    char(state, "Jacques").firearms.clear()
    assert (
        refused(engine, state, "load", "nothing")
        == "Jacques carries no firearm and the french have no gun: he has nothing to load."
    )


def test_misfire_means_one_bound_of_repriming() -> None:
    engine, state = duel_with("Harris")
    state = play(engine, state, "shoot", 6, 6, target="Dubois", range=20).state
    state = bounds(engine, state, 1)
    refused(engine, state, "shoot", "re-priming", target="Dubois", range=20)
    state = bounds(engine, state, 1)
    assert miss(engine, state, "Harris")


def test_the_volley_gun_needs_ten_bounds_and_the_rifle_fires_meanwhile() -> None:
    engine, state = duel_with("Harper")
    state = play(engine, state, "shoot", 6, 5, weapon="volley gun", target="Dubois", range=20).state
    state = bounds(engine, state, 1)
    state = play(engine, state, "shoot", 6, 5, weapon="baker rifle", target="Dubois", range=20).state  # bound 2
    state = bounds(engine, state, 10)  # bound 12
    refused(engine, state, "shoot", "reloading, 1 more", weapon="volley gun", target="Dubois", range=20)
    state = bounds(engine, state, 1)  # bound 13
    volley, rifle = char(state, "Harper").firearms
    assert volley.loaded and rifle.reload_left == 2  # one firearm at a time, in the order fired
    state = bounds(engine, state, 2)
    assert char(state, "Harper").firearms[1].loaded


# --- hits, cover, multi-wound weapons, horsemen ------------------------------------------------------------


def test_hit_card_reads_like_the_issue() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 5, 4, 4, target="Dubois", range=20)
    [line] = texts(out, "shot")
    assert line == (
        "Harris fires his Baker rifle at Dubois (20″): skill 8 · 2D6 = 5 ≤ 8: hit · location 5: chest"
        " · wound 2D6 4+4 = 8: serious wound."
    )
    assert texts(out, "wound")[0].startswith("Dubois: serious wound to the chest — ")


@pytest.mark.parametrize("face, hit", [(1, False), (2, False), (3, True), (4, True), (5, True)])
def test_hard_cover_hides_legs_and_abdomen_by_default(face: int, hit: bool) -> None:
    engine, state = game()
    dice = (2, 3, face) + ((3, 3) if hit else ())
    out = play(engine, state, "shoot", *dice, target="Dubois", range=20, cover="hard")
    assert ("behind hard cover: miss" in texts(out, "shot")[0]) is not hit


def test_hard_cover_hiding_named_parts() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 6, target="Dubois", range=20, cover="hard", hidden="head, arms")
    assert "head is behind hard cover" in texts(out, "shot")[0]
    refused(engine, state, "shoot", "hard cover", target="Dubois", range=20, cover="soft", hidden="head")
    refused(engine, state, "shoot", "not a body part", target="Dubois", range=20, cover="hard", hidden="tail")


@pytest.mark.parametrize("face, through", [(1, False), (3, False), (4, True), (6, True)])
def test_soft_cover_d6(face: int, through: bool) -> None:
    engine, state = game()
    dice = (2, 3, 5, face) + ((3, 3) if through else ())
    out = play(engine, state, "shoot", *dice, target="Dubois", range=20, cover="soft")
    assert (f"soft cover D6 {face}: {'through' if through else 'miss'}") in texts(out, "shot")[0]


def test_unaimed_musket_at_a_horseman_dices_horse_or_rider() -> None:
    engine, state = game()
    horse = play(engine, state, "shoot", 2, 3, 2, 3, 3, 3, 1, by_gm=True, shooter="Redcoat", target="Lancier", range=20)
    assert "D6 2: the horse" in texts(horse, "shot")[0] and char(horse.state, "Lancier").horse.wounds
    rider = play(engine, state, "shoot", 2, 3, 5, 1, 3, 3, 1, by_gm=True, shooter="Redcoat", target="Lancier", range=20)
    assert "D6 5: the rider" in texts(rider, "shot")[0] and char(rider.state, "Lancier").wounds


def test_riflemen_and_aimed_shots_choose_horse_or_rider() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 1, 3, 3, 2, target="Lancier", range=20, at="horse")
    assert "at the horse" in texts(out, "shot")[0]
    refused(
        engine,
        state,
        "shoot",
        "Only an aimed shot",
        by_gm=True,
        shooter="Redcoat",
        target="Lancier",
        range=20,
        at="horse",
    )
    refused(engine, state, "shoot", "not on a horse", target="Dubois", range=20, at="horse")


def test_volley_gun_wounds_spread_over_the_group_a_sharpe_20() -> None:
    engine, state = game()
    # Range 10: 2D6 5 hits; D6 4 + 1 = 5 wounds: Dubois, Martin, Leroy, Dubois, Martin (location, 2D6 each).
    wounds = [1, 1, 1] * 5
    out = play(
        engine,
        state,
        "shoot",
        2,
        3,
        4,
        *wounds,
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        also="Martin, Leroy",
        range=10,
    )
    assert "5 wounds (D6 4 + 1)" in texts(out, "shot")[0]
    victims = [e.data["target"] for e in events(out, "shot")[1:]]
    assert victims == ["Dubois", "Martin", "Leroy", "Dubois", "Martin"]


def test_volley_gun_close_is_automatic_and_far_is_d3_plus_one() -> None:
    engine, state = game()
    close = play(
        engine,
        state,
        "shoot",
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        range=4,
    )
    assert "an automatic hit" in texts(close, "shot")[0] and "2 wounds (D6 1 + 1)" in texts(close, "shot")[0]
    far = play(
        engine,
        state,
        "shoot",
        2,
        3,
        3,
        *([1, 1, 1] * 4),
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        range=20,
    )
    assert "4 wounds (D3 3 + 1)" in texts(far, "shot")[0]
    assert far.dice.rolls[2][0] == 3  # a d3


def test_one_man_takes_every_wound() -> None:
    engine, state = game()
    out = play(
        engine,
        state,
        "shoot",
        1,
        1,
        1,
        1,
        6,
        6,
        6,
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        range=4,
    )
    # first wound: legs 2D6 1+1 no effect; second: head 12, a kill.
    assert char(out.state, "Dubois").out


@pytest.mark.parametrize(
    "count_die, said",
    [(1, "The other wound strikes a man already down."), (2, "The other 2 wounds strike men already down.")],
)
def test_wounds_left_over_strike_men_already_down(count_die: int, said: str) -> None:
    engine, state = game()
    # The first wound kills Dubois (head, 12); the rest find nobody standing.
    out = play(
        engine,
        state,
        "shoot",
        count_die,
        6,
        6,
        6,
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        range=4,
    )
    assert char(out.state, "Dubois").out
    assert texts(out, "shot")[-1] == said


def test_group_only_for_volley_gun_and_artillery() -> None:
    engine, state = game()
    refused(engine, state, "shoot", "hits one man", target="Dubois", also="Martin", range=10)
    refused(
        engine,
        state,
        "shoot",
        "named twice",
        by_gm=True,
        shooter="Harper",
        weapon="volley gun",
        target="Dubois",
        also="Dubois",
        range=10,
    )


def test_artillery_fires_d3_beyond_48_and_d6_plus_one_close() -> None:
    engine, state = game()
    far = play(
        engine,
        state,
        "shoot",
        1,
        2,
        2,
        1,
        1,
        1,
        1,
        1,
        1,
        by_gm=True,
        shooter="Gunner",
        gun="Old Bess",
        target="Dubois",
        range=60,
    )
    assert "2 wounds (D3 2 + 0)" in texts(far, "shot")[0]
    close = play(
        engine,
        state,
        "shoot",
        5,
        *([1, 1, 1] * 6),
        by_gm=True,
        shooter="Gunner",
        gun="Old Bess",
        target="Dubois",
        also="Martin",
        range=9,
    )
    assert "automatic hit" in texts(close, "shot")[0] and "6 wounds" in texts(close, "shot")[0]


def test_artillery_takes_twenty_man_bounds_four_men_at_most() -> None:
    engine = new_engine()
    crew = [fig(n, "british", "artillery_crew", I=6 - i) for i, n in enumerate(["A", "B", "C", "D", "E"])]
    state = begin(engine, [*crew, fig("Gun", "british", "gun"), fig("Dubois", "french", "voltigeur", I=1)])
    state = play(engine, state, "shoot", 6, 5, gun="Gun", target="Dubois", range=30).state
    refused(engine, state, "shoot", "not loaded", by_gm=True, shooter="B", gun="Gun", target="Dubois", range=30)
    state = bounds(engine, state, 1)
    for _ in range(5):
        for _name in "ABCD":
            state = play(engine, state, "load", gun="Gun").state
            state = play(engine, state, "done").state
        refused(engine, state, "load", "4 men", gun="Gun")
        state = bounds(engine, state, 1)
    assert state.guns[0].loaded


def test_loading_a_gun_counts_one_man_and_one_man_bound_in_the_singular() -> None:
    engine = make_engine({"weapons": {"artillery": {"max_loaders": 1, "reload_man_bounds": 2}}})
    crew = [fig("A", "british", "artillery_crew", I=6), fig("B", "british", "artillery_crew", I=5)]
    state = begin(engine, [*crew, fig("Gun", "british", "gun"), fig("Dubois", "french", "voltigeur", I=1)])
    state = bounds(engine, play(engine, state, "shoot", 6, 5, gun="Gun", target="Dubois", range=30).state, 1)
    loading = play(engine, state, "load", gun="Gun")
    assert texts(loading) == ["A works at loading Gun (1 at it this bound; 2 man-bounds still needed)."]
    state = play(engine, loading.state, "done").state
    assert refused(engine, state, "load", "already", gun="Gun") == "Gun already has 1 man loading it this bound."
    state = bounds(engine, state, 1)
    assert texts(play(engine, state, "load", gun="Gun")) == [
        "A works at loading Gun (1 at it this bound; 1 man-bound still needed)."
    ]


def test_artillery_is_a_switch() -> None:
    engine = new_engine(artillery=False)
    state = begin(
        engine, [fig("A", "british", "artillery_crew"), fig("Gun", "british", "gun"), fig("B", "french", "voltigeur")]
    )
    assert state.guns == []


# --- who may shoot -----------------------------------------------------------------------------------------


def test_shooting_refusals_change_nothing() -> None:
    engine, state = game()
    refused(engine, state, "shoot", "own side", target="Harper", range=10)
    refused(engine, state, "shoot", "no figure called", target="Nobody", range=10)
    refused(engine, state, "shoot", "range", target="Dubois", range=-3)
    refused(engine, state, "shoot", "It is Harris's turn", shooter="Redcoat", target="Dubois", range=10)
    refused(engine, state, "shoot", "It is Harris's turn", side="french", target="Dubois", range=10)
    refused(
        engine,
        state,
        "shoot",
        "no Baker rifle",
        by_gm=True,
        shooter="Redcoat",
        weapon="baker rifle",
        target="Dubois",
        range=10,
    )
    refused(engine, state, "shoot", "not a character", by_gm=True, shooter="Old Bess", target="Dubois", range=10)
    once = play(engine, state, "shoot", 6, 5, target="Dubois", range=20).state
    refused(engine, once, "shoot", "fired already", target="Dubois", range=20)


def test_a_useless_arm_stops_a_musket() -> None:
    engine, state = game()
    char(state, "Redcoat").wounds.append(Wound("left_arm", "serious", 1, "x"))
    refused(
        engine, state, "shoot", "no loaded firearm he can use", by_gm=True, shooter="Redcoat", target="Dubois", range=10
    )


def test_pick_up_a_dropped_firearm_fires_next_bound() -> None:
    engine, state = game()
    # Harris's shot smashes Dubois's right arm: he drops his carbine.
    state = play(engine, state, "shoot", 2, 3, 4, 4, 4, target="Dubois", range=20).state
    assert state.dropped[0].weapon == "carbine"
    state.active = "Martin"
    refused(engine, state, "pickup", "already carries", weapon="French carbine", give_to="Leroy")
    got = play(engine, state, "pickup", weapon="French carbine", give_to="Lancier")
    assert "passes it to Lancier" in texts(got)[0] and "carbine" in char(got.state, "Lancier").weapons
    got.state.active = "Lancier"
    refused(
        engine,
        got.state,
        "shoot",
        "picked up that French carbine this bound",
        weapon="carbine",
        target="Harris",
        range=10,
    )
    refused(engine, got.state, "pickup", "no dropped", weapon="sword")


def test_a_seriously_wounded_rider_falls_and_may_be_hurt_again() -> None:
    engine, state = game()
    out = play(
        engine, state, "shoot", 2, 3, 5, 1, 4, 4, 5, 2, 3, 3, by_gm=True, shooter="Redcoat", target="Lancier", range=20
    )
    lancier = char(out.state, "Lancier")
    assert not lancier.mounted and lancier.down == "fallen"
    assert [(w.location, w.severity) for w in lancier.wounds] == [("legs", "serious"), ("abdomen", "light")]
    assert "falls from his horse" in " ".join(texts(out, "horse")) and "−3 falling = 3" in texts(out, "fall")[0]


def test_a_lightly_wounded_rider_tests_to_keep_his_seat() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 5, 1, 3, 3, 2, by_gm=True, shooter="Redcoat", target="Lancier", range=20)
    assert "keeps his seat" in texts(out, "check")[0] and char(out.state, "Lancier").mounted


def test_a_seriously_wounded_horse_collapses() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 2, 5, 4, 4, 1, by_gm=True, shooter="Redcoat", target="Lancier", range=20)
    lancier = char(out.state, "Lancier")
    assert lancier.horse.dead and not lancier.mounted and "collapses" in texts(out, "horse")[0]
    assert "escapes harm" in texts(out, "check")[0]


def test_a_rider_hit_for_no_effect_may_lose_control() -> None:
    engine, state = game()
    out = play(engine, state, "shoot", 2, 3, 5, 1, 1, 1, 6, by_gm=True, shooter="Redcoat", target="Lancier", range=20)
    assert char(out.state, "Lancier").horse.lost_control == "shaken"
    assert "he may only parry" in texts(out, "check")[0]


def test_loading_a_gun_is_refused_when_it_makes_no_sense() -> None:
    engine, state = game()
    state.active = "Gunner"
    refused(engine, state, "load", "needs no loading", gun="Old Bess")
    refused(engine, state, "load", "is a character", gun="Harris")
    state.guns[0].loaded = False
    char(state, "Gunner").busy_bound = 1
    refused(engine, state, "load", "busy this bound", gun="Old Bess")
