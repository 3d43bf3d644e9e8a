"""/odds answers a single shot or blow exactly, checked against chances worked out by hand from the
rules (RULES-NOTES.md section 7): a tie rolled again is a geometric series, a 2D6 branches on its
sum, an action that waits for a defence gets odds for each answer."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from bot.dice import SeededDice
from rules import get_engine
from rules.core import Action, Event, FigureSpec
from rules.nsr.engine import make_engine as nsr_engine
from rules.odds import Budget, odds, odds_report
from tests.rules.test_nsr_helpers import stage, unit
from tests.rules.test_odds import BLUE, RED, Forced
from tests.rules.test_sharpe_helpers import begin, fig, new_engine
from tests.rules.test_sharpe_shooting import BRITISH, FRENCH
from tests.rules.test_yasg_odds import MORALE, ladder


def chances(found) -> dict[str, float]:
    return dict(found.outcomes)


def test_an_ssg_duel_whose_ties_are_rolled_again_is_exact() -> None:
    """Two d6, ties again: each wins 15/36 of a round, 6/36 ties, so 1/2 each (a geometric series)."""
    engine = get_engine("ssg")
    specs = [FigureSpec(n, "red", "rifle") for n in RED] + [FigureSpec(n, "blue", "rifle") for n in BLUE]
    state = engine.start(specs, Forced([6, 1])).state
    contact = Action("move", "red", {"figure": "Rossi", "distance": 2.0, "contact": "Bo"})
    state = engine.act(state, contact, Forced([])).state
    state = engine.act(state, Action("next", "red"), Forced([])).state
    found = odds(engine, state, Action("melee", "red", {}), SeededDice(5))
    assert found.method == "exact" and found.runs == 36
    assert chances(found) == {"Bo out": 0.5, "Rossi out": 0.5}
    assert found.casualties == 1.0


@pytest.fixture
def sharpe_shot():
    engine = new_engine()
    state = begin(engine, [fig("Shooter", "british", "line_infantry"), fig("Target", "french", "voltigeur")])
    return engine, state


@pytest.mark.parametrize(
    "weather, misfire, hit",
    [
        # skill 6: 2D6 of 2 or 12 misfires (2/36), 3-6 hits (14/36)
        ("clear", Fraction(2, 36), Fraction(14, 36)),
        # fog: a D6 first, 6 misfires; then as in clear weather
        ("fog", Fraction(1, 6) + Fraction(5, 6) * Fraction(2, 36), Fraction(5, 6) * Fraction(14, 36)),
        # rain: 4-6 misfire
        ("rain", Fraction(1, 2) + Fraction(1, 2) * Fraction(2, 36), Fraction(1, 2) * Fraction(14, 36)),
    ],
)
def test_a_sharpe_shot_in_any_weather_is_exact(sharpe_shot, weather: str, misfire: Fraction, hit: Fraction) -> None:
    engine, state = sharpe_shot
    state.weather = weather
    found = odds(engine, state, Action("shoot", "british", {"target": "Target", "range": 20}), SeededDice(0))
    assert found.method == "exact"
    got = chances(found)
    assert got["misfire"] == pytest.approx(float(misfire), abs=1e-12)
    assert got["miss"] == pytest.approx(float(1 - misfire - hit), abs=1e-12)
    wounded = sum(p for label, p in found.outcomes if label.startswith("Target"))
    assert wounded == pytest.approx(float(hit), abs=1e-12)


def test_a_sharpe_attack_gives_the_odds_of_each_defence() -> None:
    """Edge 0 (C 4 against a bare-handed parry C 5 - 1): the notes' parry column, exactly."""
    engine = new_engine()
    state = begin(
        engine,
        [
            fig("Attacker", "british", "officer", C=4, S=3),
            fig("Defender", "french", "officer", C=5, weapons=["pistol"]),
        ],
    )
    report = odds_report(
        engine,
        state,
        Action("attack", "british", {"defender": "Defender"}),
        SeededDice(0),
        Budget(time.monotonic, 60.0),
    )
    assert [choice for choice, _ in report.sections] == ["Parry", "Dodge", "Distract"]
    assert all(found.method == "exact" for _, found in report.sections)
    assert "how does Defender defend" in report.asks
    parry = chances(report.sections[0][1])
    expected = {"parried": 0.4167, "draw": 0.1667, "Defender: light wound": 0.1921, "Defender: serious wound": 0.1590}
    for label, p in expected.items():
        assert parry[label] == pytest.approx(p, abs=5e-5), label
    for _, found in report.sections:
        assert sum(found_p for _, found_p in found.outcomes) == pytest.approx(1.0)
    assert chances(report.sections[1][1]) != parry


def test_the_yasg_morale_step_names_each_figures_pass_and_failure(engine=None) -> None:
    from rules.yasg.engine import make_engine

    yasg = make_engine()
    state = ladder(yasg, "morale")
    # Nine figures' d10s are far too many sequences to enumerate: straight to the simulation.
    found = odds(yasg, state, Action("next", "british", {}), SeededDice(1), exact_limit=1, simulations=3000)
    parts = dict(found.parts)
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 7]
    for i, n in enumerate(numbers):
        passes = parts.get(f"b{i}: passes", 0.0)
        assert passes == pytest.approx(float(MORALE[n]), abs=0.04), (i, passes)
        assert passes + parts.get(f"b{i}: fails: pinned", 0.0) == pytest.approx(1.0)
    assert "no effect" not in parts


def test_nsr_counts_the_figures_its_hits_kill_or_wound() -> None:
    engine = nsr_engine()
    state = stage(engine, [unit("F", "French", "line", figures=12), unit("T", "Allied", "line")], "fire", "F")
    action = Action("fire", "French", {"target": "T", "range": 10, "class": "III"})
    found = odds(engine, state, action, SeededDice(2), exact_limit=50, simulations=600)
    assert found.casualties == pytest.approx(1.0)  # class III at 10": one hit, killed or wounded
    hit = Event("hit", "…", {"figure": "Pat", "unit": "T", "outcome": "killed"})
    ran = Event("fight", "…", {"loser_unit": "T", "outcome": "ran"})
    assert engine.odds_casualties([hit, ran, Event("fight", "…", {"loser_unit": "T", "outcome": "captured"})]) == 2


class RepeatsNotRerolls:
    """A toy engine rolling two independent d6 for one reason: the same reason twice is not a
    re-roll, so the renewal check must fail and the tree be enumerated plainly."""

    def odds_walkable(self, action):
        return True

    def odds_counted(self, state, action):
        return None

    def act(self, state, action, dice):
        from rules.core import Outcome

        a, b = dice.roll(6, "same"), dice.roll(6, "same")
        return Outcome(state, [Event("x", "", {"n": int(a == 6) + int(b == 6)})])

    def odds_outcome(self, events):
        return f"{events[0].data['n']} sixes"

    def odds_casualties(self, events):
        return events[0].data["n"]

    def odds_pair(self, reason):
        return False

    def odds_faces(self, sides, reason):
        return None


def test_a_reason_asked_twice_that_is_no_re_roll_is_still_exact() -> None:
    found = odds(RepeatsNotRerolls(), None, Action("x", None), SeededDice(0))  # type: ignore[arg-type]
    assert found.method == "exact"
    assert chances(found) == pytest.approx({"0 sixes": 25 / 36, "1 sixes": 10 / 36, "2 sixes": 1 / 36})
    assert found.casualties == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "weather, params",
    [
        ("fog", {"target": "Dubois", "range": 20}),
        ("rain", {"target": "Dubois", "range": 20, "cover": "soft"}),
        ("clear", {"target": "Dubois", "range": 20, "cover": "soft"}),
    ],
)
def test_a_sharpe_die_read_only_by_its_group_gives_the_odds_of_every_face(
    weather: str, params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The weather's misfire die and soft cover's die are rolled once a group of faces
    (Engine.odds_faces): the same odds as rolling every face, from fewer runs. (A shot at a horseman
    is simulated either way: a horse that bolts rolls too many dice to enumerate.)"""
    engine = new_engine()
    state = begin(engine, BRITISH + FRENCH)
    state.weather = weather
    shot = Action("shoot", "british", {"shooter": "Redcoat", **params}, True)
    grouped = odds(engine, state, shot, SeededDice(0))
    monkeypatch.setattr(engine, "odds_faces", lambda sides, reason: None)
    every_face = odds(engine, state, shot, SeededDice(0))
    assert grouped.method == every_face.method == "exact"
    assert grouped.runs < every_face.runs
    assert dict(grouped.outcomes) == pytest.approx(dict(every_face.outcomes), abs=1e-12)
    assert grouped.casualties == pytest.approx(every_face.casualties, abs=1e-12)


def test_the_groups_of_a_sharpe_die_share_out_its_six_faces() -> None:
    engine = new_engine()
    reasons = ["A: fog, misfire on 6", "A: rain, misfire on 4/5/6", "A → B: horse (1-3) or rider (4-6)"]
    for reason in [*reasons, "A → B: soft cover, D6 4-6 hits"]:
        groups = engine.odds_faces(6, reason)
        assert groups is not None and sorted(f for g in groups for f in g) == [1, 2, 3, 4, 5, 6], reason
    assert engine.odds_faces(6, "A → B: location") is None
    assert engine.odds_faces(10, reasons[0]) is None


def test_a_house_rule_moving_soft_covers_faces_moves_its_reason_and_its_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reason of soft cover's die names its faces from the tables, and the odds group them
    from the same tables: a house rule changes both, and the grouped odds stay those of every face."""
    from rules.sharpe.engine import make_engine as sharpe_engine

    engine = sharpe_engine({"shooting": {"soft_cover_hit": [2, 5, 6]}})
    state = begin(engine, BRITISH + FRENCH)
    shot = Action("shoot", "british", {"shooter": "Redcoat", "target": "Dubois", "range": 20, "cover": "soft"}, True)
    reasons: list[str] = []

    class Noting(SeededDice):
        def roll(self, sides: int, reason: str) -> int:
            reasons.append(reason)
            return 2  # a hit (4 on 2D6), then a 2 on every die after it

    engine.act(state, shot, Noting(0))
    assert any(r.endswith("soft cover, D6 2/5/6 hits") for r in reasons), reasons
    assert engine.odds_faces(6, "A → B: soft cover, D6 2/5/6 hits") == ((2, 5, 6), (1, 3, 4))
    grouped = odds(engine, state, shot, SeededDice(0))
    monkeypatch.setattr(engine, "odds_faces", lambda sides, reason: None)
    every_face = odds(engine, state, shot, SeededDice(0))
    assert dict(grouped.outcomes) == pytest.approx(dict(every_face.outcomes), abs=1e-12)
