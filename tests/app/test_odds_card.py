"""The /odds card a player can use: the few outcomes that matter, most likely first, at the
precision the method supports (a simulation of N runs in whole percents, its margin said), rare
outcomes lumped into "other"."""

from __future__ import annotations

from bot.app.odds import OUTCOMES_SHOWN, odds_card
from rules.odds import Odds, OddsReport


def _simulated(runs: int, outcomes: dict[str, int], parts: dict[str, int] | None = None) -> Odds:
    ranked = tuple(sorted(((label, n / runs) for label, n in outcomes.items()), key=lambda kv: -kv[1]))
    return Odds("simulation", runs, ranked, 0.5, tuple((label, n / runs) for label, n in (parts or {}).items()))


def test_a_melee_of_many_results_shows_a_few_sorted_whole_percents_and_the_margin() -> None:
    """An NSR melee simulated 500 times: 150 results, each part of many; the card lists the parts
    most likely first, at most OUTCOMES_SHOWN lines, in whole percents."""
    outcomes = {f"A loses {n}; B loses {n % 7}": 3 + n % 4 for n in range(150)}
    parts = {f"part {n}": 5 + (n * 37) % 200 for n in range(60)}  # in the order first met, unsorted
    card = odds_card("/nsr melee", OddsReport((("", _simulated(500, outcomes, parts)),)))
    head, title, *lines = card.description.splitlines()
    assert head == "`/nsr melee`" and title == "Each result on its own:"
    assert len(lines) == OUTCOMES_SHOWN
    chances = [int(line.split("%")[0]) for line in lines[:-1]]
    assert chances == sorted(chances, reverse=True) and chances[0] == 41  # part 16: 5 + 592 % 200 = 197 of 500
    assert lines[-1].startswith("… and 53 rarer results, each ")
    assert "." not in "".join(line.split("—")[0] for line in lines[:-1])  # whole percents
    assert card.footer == "by simulation: 500 runs with random dice, each chance within ±5 points (95%)"


def test_rare_outcomes_are_lumped_into_other() -> None:
    runs = 1000
    outcomes = {"no effect": 700, "Bo out": 200, "Bo wounded": 80, "Bo flees": 9, "Bo stunned": 6, "both out": 5}
    card = odds_card("/x act", OddsReport((("", _simulated(runs, outcomes)),)))
    assert card.description.splitlines()[1:] == [
        "70% — no effect",
        "20% — Bo out",
        "8% — Bo wounded",
        "2% — other (3 rarer outcomes)",
    ]


def test_chances_are_never_shown_as_certain_or_impossible_when_they_are_not() -> None:
    from bot.app.odds import chance_text, margin

    simulated = _simulated(500, {"a": 499, "b": 1})
    assert (chance_text(simulated, 0.998), chance_text(simulated, 0.002), chance_text(simulated, 1.0)) == (
        ">99%",
        "<1%",
        "100%",
    )
    exact = Odds("exact", 6, (("a", 1.0),), 0.0)
    assert (chance_text(exact, 1 / 6), chance_text(exact, 0.0004), chance_text(exact, 0.9996)) == (
        "16.7%",
        "<0.1%",
        ">99.9%",
    )
    assert (margin(500), margin(10_000)) == (5, 1)
