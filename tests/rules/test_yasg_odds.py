"""The engine's dice agree with the exact odds of RULES-NOTES.md section 7 (YASG): seeded dice,
whole procedures played through ``act``, every rate within 4 standard errors."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from rules.core import Action
from rules.odds import odds
from rules.yasg.engine import YasgEngine, make_engine
from tests.rules.test_yasg_support import BRITISH, FRENCH, F, RandomDice, change, scene

# Section 7, YASG: morale pass (d10 > n), morale running, CC hit (d10 >= n + 3), by class number n.
MORALE = {n: Fraction(max(0, 10 - n), 10) for n in range(1, 11)}
CC_HIT = {n: Fraction(max(0, 8 - n), 10) for n in range(1, 11)}
DAMAGE = {"killed": Fraction(1, 5), "serious": Fraction(2, 5), "minor": Fraction(2, 5)}
# The reconstructed firing table, steady firer in the open, misfire included (A-YASG-2).
FIRING = {
    ("A", 2): Fraction(1, 2),
    ("A", 5): Fraction(5, 12),
    ("A", 8): Fraction(1, 4),
    ("B", 2): Fraction(5, 12),
    ("B", 5): Fraction(1, 3),
    ("B", 8): Fraction(1, 6),
    ("C", 2): Fraction(1, 3),
    ("C", 5): Fraction(1, 4),
    ("C", 8): Fraction(1, 12),
    ("D", 2): Fraction(1, 4),
    ("D", 5): Fraction(1, 6),
}
FALL = Fraction(1, 5)


def agrees(hits: int, trials: int, p: Fraction) -> bool:
    """Within 4 standard errors (exact when p is 0 or 1)."""
    if p in (0, 1):
        return hits == p * trials
    se = math.sqrt(float(p) * (1 - float(p)) / trials)
    return abs(hits / trials - float(p)) <= 4 * se


# One British figure per class number 1..9 (A..D, then D with wounds; H and I also shaken),
# each with a French figure right in front of it.
LADDER = [
    ("A", 0, False),
    ("B", 0, False),
    ("C", 0, False),
    ("D", 0, False),
    ("D", 1, False),
    ("D", 2, False),
    ("D", 3, False),
    ("D", 3, True),
    ("C", 3, True),
]


def ladder(engine: YasgEngine, phase: str):
    figs = [F(f"b{i}", BRITISH, cls, f"{'ABCDEFGHI'[i]}6") for i, (cls, _, _) in enumerate(LADDER)]
    figs += [F(f"f{i}", FRENCH, "A", f"{'ABCDEFGHI'[i]}5", "s") for i in range(len(LADDER))]
    state = scene(engine, *figs, phase=phase)
    for i, (_, wounds, shaken) in enumerate(LADDER):
        state = change(engine, state, f"b{i}", wounds=wounds, shaken=shaken)
    return state


def test_morale_rates_by_class(engine: YasgEngine) -> None:
    """Morale passes on d10 > class number; a shaken figure tests one class worse (A-YASG-4, -7)."""
    state = ladder(engine, "morale")
    numbers = [engine.judge.morale_class(f)[0] for f in state.figures[: len(LADDER)]]
    assert numbers == [1, 2, 3, 4, 5, 6, 7, 8, 7]
    dice, runs = RandomDice(11), 700
    passes: Counter[int] = Counter()
    for _ in range(runs):
        out = engine.act(state, Action("next", BRITISH, {}), dice)
        for e in out.events:
            if e.kind == "morale" and e.data.get("figure", "").startswith("b") and e.data["passed"]:
                passes[int(e.data["figure"][1:])] += 1
    for i, n in enumerate(numbers):
        assert agrees(passes[i], runs, MORALE[n]), (LADDER[i], passes[i] / runs, float(MORALE[n]))


def test_close_combat_and_damage_rates_by_class(engine: YasgEngine) -> None:
    """Close combat hits on d10 >= class number + 3; damage: killed 20%, serious 40%, minor 40% (A-YASG-1)."""
    state = ladder(engine, "fire")
    state = engine.load_state({**engine.dump_state(state), "done": [BRITISH]})
    state = engine.act(state, Action("next", FRENCH, {}), RandomDice(0)).state
    assert state.phase == "close combat"
    state = change(engine, state, "b7", pinned=True)  # D + 3 wounds + pinned: H, cannot hit (A-YASG-4)
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 6]  # running does not count in close combat
    dice, runs = RandomDice(12), 700
    hits: Counter[int] = Counter()
    results: Counter[str] = Counter()
    for _ in range(runs):
        out = engine.act(state, Action("next", BRITISH, {}), dice)
        for e in out.events:
            if e.kind == "fight" and e.data["figure"].startswith("b") and e.data["hit"]:
                hits[int(e.data["figure"][1:])] += 1
            if e.kind == "fight" and e.data["hit"]:
                results[e.data["result"]] += 1
    for i, n in enumerate(numbers):
        assert agrees(hits[i], runs, CC_HIT[n]), (LADDER[i], hits[i] / runs, float(CC_HIT[n]))
    assert hits[7] == 0
    total = sum(results.values())
    for result, p in DAMAGE.items():
        assert agrees(results[result], total, p), (result, results[result] / total)


def test_the_reconstructed_firing_table_in_play(engine: YasgEngine) -> None:
    """A-YASG-2, -13: P(hit) with the misfire d6 first, steady firer, target in the open."""
    dice, runs = RandomDice(13), 400
    for (cls, squares), p in FIRING.items():
        state = scene(
            engine,
            F("me", BRITISH, cls, f"E{2 + squares}"),
            F("it", FRENCH, "A", "E2", "w"),
            size=(10, 12),
            phase="fire",
        )
        hits = 0
        for _ in range(runs):
            out = engine.act(state, Action("fire", BRITISH, {"figure": "me", "target": "it"}), dice)
            hits += any(e.kind == "fire" and e.data["hit"] for e in out.events)
        assert agrees(hits, runs, p), (cls, squares, hits / runs, float(p))


def test_running_falls_one_time_in_five(engine: YasgEngine) -> None:
    state = scene(engine, F("me", BRITISH, "C", "E9"), F("it", FRENCH, "A", "A1"))
    dice, runs, falls = RandomDice(14), 800, 0
    for _ in range(runs):
        out = engine.act(state, Action("move", BRITISH, {"figure": "me", "to": "E5"}), dice)
        falls += any(e.kind == "fall" for e in out.events)
    assert agrees(falls, runs, FALL)


def test_the_notes_exact_numbers_are_the_engines_thresholds() -> None:
    """The table of section 7 read back from the engine's own thresholds, exactly."""
    engine = make_engine()
    for n in range(1, 11):
        assert Fraction(len([d for d in range(1, 11) if d > engine.judge.morale_need(n)]), 10) == MORALE[n]
        assert Fraction(len([d for d in range(1, 11) if d >= engine.judge.combat_need(n)]), 10) == CC_HIT[n]
    counts = Counter(engine.judge.damage(d) for d in range(1, 11))
    assert {k: Fraction(v, 10) for k, v in counts.items()} == DAMAGE


def test_odds_of_a_shot_name_its_damage_though_it_is_taken_when_the_phase_ends(engine: YasgEngine) -> None:
    """/odds before a shot: misfire, miss, and each damage result at its exact chance (the hit is
    recorded on the shot; the wound itself waits for the end of the fire phase)."""
    state = scene(engine, F("me", BRITISH, "A", "E4"), F("it", FRENCH, "A", "E2", "w"), size=(10, 12), phase="fire")
    found = odds(engine, state, Action("fire", BRITISH, {"figure": "me", "target": "it"}), RandomDice(1))
    assert found.method == "exact"
    chances = {label: Fraction(p).limit_denominator(1000) for label, p in found.outcomes}
    hit = FIRING[("A", 2)]
    assert chances["it: killed"] == hit * DAMAGE["killed"]
    assert chances["it: a serious wound"] == hit * DAMAGE["serious"]
    assert chances["it: a minor wound"] == hit * DAMAGE["minor"]
    assert chances["misfire"] + chances["miss"] == 1 - hit
    assert 0 < chances["misfire"] < chances["miss"]
