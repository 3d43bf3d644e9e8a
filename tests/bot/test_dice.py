"""Dice sources: secure, seeded, forced (with plain words when they run out), and free rolls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.dice import (
    FULL_DECK,
    MAX_FREE_DICE,
    DiceExhausted,
    ForcedDice,
    RecordingDice,
    SecureDice,
    SeededDice,
    free_roll,
    parse_forced_cards,
    parse_forced_dice,
)
from rules.core import RuleError, roll_dice


def test_secure_dice_stay_on_their_faces() -> None:
    dice = SecureDice()
    values = {dice.roll(6, "test") for _ in range(600)}
    assert values == set(range(1, 7))
    assert dice.draw(["AH", "2C"], "test") in {"AH", "2C"}


def test_seeded_dice_repeat() -> None:
    assert [SeededDice(9).roll(10, "x") for _ in range(1)] == [SeededDice(9).roll(10, "x")]
    a, b = SeededDice(5), SeededDice(5)
    assert [a.roll(6, "") for _ in range(20)] == [b.roll(6, "") for _ in range(20)]


def test_forced_dice_in_order_then_fall_back_or_say_so() -> None:
    forced = ForcedDice([6, 1, 4])
    assert roll_dice(forced, 2, 6, "2D6") == [6, 1]
    assert forced.roll(6, "one more") == 4
    with pytest.raises(DiceExhausted, match="ran out: a d6 was needed for Rossi: shot"):
        forced.roll(6, "Rossi: shot")
    forced.fallback = SeededDice(1)
    assert 1 <= forced.roll(6, "fallback") <= 6


def test_a_forced_value_must_fit_the_die() -> None:
    with pytest.raises(RuleError, match="cannot come up on a d6"):
        ForcedDice([7]).roll(6, "x")


def test_forced_cards_must_be_in_the_deck() -> None:
    forced = ForcedDice(cards=["AH"])
    with pytest.raises(RuleError, match="not in the deck"):
        forced.draw(["2C"], "turn")
    assert forced.draw(["AH", "2C"], "turn") == "AH"
    with pytest.raises(DiceExhausted):
        forced.draw(["2C"], "turn")


def test_parsing_forced_values() -> None:
    assert parse_forced_dice("6, 1,4") == [6, 1, 4]
    assert parse_forced_cards("ah,10D, rj") == ["AH", "10D", "RJ"]
    assert len(FULL_DECK) == 54
    for bad in ("6,x", "0", "-1"):
        with pytest.raises(RuleError):
            parse_forced_dice(bad)
    with pytest.raises(RuleError):
        parse_forced_cards("11H")


def test_recording_keeps_every_value_with_its_reason() -> None:
    recorder = RecordingDice(ForcedDice([3, 5], ["KS"]))
    recorder.roll(6, "first")
    recorder.roll(10, "second")
    recorder.draw(FULL_DECK, "card")
    assert [(r.kind, r.sides, r.value, r.reason) for r in recorder.rolled] == [
        ("die", 6, "3", "first"),
        ("die", 10, "5", "second"),
        ("card", None, "KS", "card"),
    ]


def test_free_roll_uses_the_given_source_for_every_die() -> None:
    recorder = RecordingDice(ForcedDice([1, 6, 6, 3]))
    result = free_roll("4d6kh3", recorder, "stats")
    assert result.total == 15 and len(recorder.rolled) == 4
    assert all(r.reason == "stats" for r in recorder.rolled)


@pytest.mark.parametrize(
    "expression,message",
    [
        ("", "Give some dice"),
        ("10000d6", "too many dice"),
        (f"{MAX_FREE_DICE + 1}d6", "too many dice"),
        ("1d100000", "at most 1000 faces"),
        ("2d6+", "can't read"),
        ("x" * 300, "too long"),
        ("1d0", "can't roll"),
        ("60d6+60d6", "too many dice"),
        ("1d6/0", "divide by zero"),
    ],
)
def test_free_roll_refuses_silly_or_broken_input(expression: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        free_roll(expression, SeededDice(1), "x")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_free_roll_never_raises_anything_but_a_rule_error(expression: str) -> None:
    try:
        result = free_roll(expression, SeededDice(3), "fuzz")
    except RuleError:
        return
    assert isinstance(result.total, int)
