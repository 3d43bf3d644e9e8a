"""The action specs' one set of readers: an action's raw options become its typed dataclass, or a
refusal saying what is wrong, before any die is rolled."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from rules import RULESETS, get_engine
from rules.core import RuleError
from rules.specs import (
    ActionSpec,
    Kind,
    NoParams,
    Params,
    Role,
    option,
    options_of,
    read_params,
    spec_table,
)


@dataclass(frozen=True, kw_only=True)
class Shot(Params):
    shooter: str = option("Your figure", Kind.FIGURE, required=True)
    range: float | None = option("Inches", Kind.NUMBER, lowest=0, highest=100)
    dice: int | None = option("Dice", Kind.WHOLE, lowest=1, highest=3)
    cover: str | None = option("Cover", choices=("none", "soft", "hard"))
    aimed: bool | None = option("Aimed", Kind.FLAG)


def test_options_are_read_into_their_types() -> None:
    shot = read_params(Shot, {"shooter": " Rossi ", "range": 12, "dice": 2.0, "cover": "SOFT", "aimed": "yes"}, "shoot")
    assert shot == Shot(shooter="Rossi", range=12.0, dice=2, cover="soft", aimed=True)
    assert isinstance(shot.range, float) and isinstance(shot.dice, int)


def test_a_number_given_for_text_reads_as_typed() -> None:
    """A facing in degrees given as a number (by a program, not a player) is the text it would type."""
    assert read_params(Shot, {"shooter": 90.0}, "shoot") == Shot(shooter="90")


def test_options_not_given_are_none_and_blank_text_is_not_given() -> None:
    assert read_params(Shot, {"shooter": "Rossi", "cover": "  ", "range": None}, "shoot") == Shot(shooter="Rossi")


@pytest.mark.parametrize(
    ("raw", "sentence"),
    [
        ({}, "Give shooter: (Your figure)."),
        ({"shooter": "  "}, "Give shooter: (Your figure)."),
        ({"shooter": "R", "range": -1}, "range: takes a number from 0 to 100."),
        ({"shooter": "R", "range": math.nan}, "range: takes a number from 0 to 100."),
        ({"shooter": "R", "range": math.inf}, "range: takes a number from 0 to 100."),
        ({"shooter": "R", "range": "12"}, "range: takes a number from 0 to 100."),
        ({"shooter": "R", "range": True}, "range: takes a number from 0 to 100."),
        ({"shooter": "R", "dice": 1.5}, "dice: takes a whole number from 1 to 3."),
        ({"shooter": "R", "dice": 4}, "dice: takes a whole number from 1 to 3."),
        ({"shooter": "R", "cover": "thick"}, "cover: is none, soft or hard."),
        ({"shooter": "R", "aimed": "maybe"}, "aimed: is yes or no."),
        ({"shooter": ["Rossi"]}, "shooter: takes text"),
        ({"shooter": "x" * 65}, "shooter: is at most 64 characters."),
        (
            {"shooter": "R", "wind": "strong"},
            "shoot has no option “wind”: it takes shooter, range, dice, cover and aimed.",
        ),
    ],
)
def test_a_bad_option_is_refused_with_a_sentence(raw: dict[str, Any], sentence: str) -> None:
    with pytest.raises(RuleError) as refused:
        read_params(Shot, raw, "shoot")
    assert sentence in refused.value.message


def test_an_option_not_given_may_be_named_with_none() -> None:
    """Saved actions and front-ends name every option, given or not."""
    assert read_params(Shot, {"shooter": "R", "wind": None}, "shoot") == Shot(shooter="R")


def test_options_keep_their_declared_order_and_kinds() -> None:
    declared = options_of(Shot)
    assert [o.name for o in declared] == ["shooter", "range", "dice", "cover", "aimed"]
    assert [o.kind for o in declared] == [Kind.FIGURE, Kind.NUMBER, Kind.WHOLE, Kind.CHOICE, Kind.FLAG]
    assert [o.value_type for o in declared] == [str, float, int, str, bool]
    assert declared[0].required and not declared[1].required


def test_a_field_not_declared_as_an_option_is_a_mistake_of_the_ruleset() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Loose(Params):
        range: float | None = None

    with pytest.raises(TypeError):
        options_of(Loose)


def test_a_spec_table_refuses_two_actions_of_one_name_and_an_acting_option_it_lacks() -> None:
    def handler(ctx: object, params: Params) -> None:
        return None

    with pytest.raises(ValueError):
        spec_table(ActionSpec("next", "End", NoParams, handler), ActionSpec("next", "End", NoParams, handler))
    with pytest.raises(ValueError):
        spec_table(ActionSpec("shoot", "Fire", NoParams, handler, acting="shooter"))


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_an_engine_with_specs_takes_its_handlers_answers_and_pass_action_from_them(slug: str) -> None:
    engine = get_engine(slug)
    if not engine.specs:
        pytest.skip(f"{slug} does not declare its actions as specs yet")
    assert dict(engine.handlers) == {name: spec.handler for name, spec in engine.specs.items()}
    assert set(engine.answers) == {n for n, s in engine.specs.items() if s.role is Role.ANSWER}
    passes = [n for n, s in engine.specs.items() if s.role is Role.PASS]
    assert [engine.pass_action] == (passes or [None])
