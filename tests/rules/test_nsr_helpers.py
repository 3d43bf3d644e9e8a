"""Helpers the NSR tests share: forced dice and cards, seeded dice, staged situations.

Imported by the other ``test_nsr_*`` modules; its own tests check the helpers themselves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from rules.core import Action, FigureSpec, Outcome, RuleError
from rules.nsr.deck import FULL_DECK, fresh_deck
from rules.nsr.engine import NsrEngine
from rules.nsr.state import NsrState, Unit


class ScriptedDice:
    """Forced dice and cards: pops them in order, records (kind, value, reason), fails when empty."""

    def __init__(self, dice: Iterable[int] = (), cards: Iterable[str] = ()) -> None:
        self.dice = list(dice)
        self.cards = list(cards)
        self.log: list[tuple[str, Any, str]] = []

    def roll(self, sides: int, reason: str) -> int:
        if not self.dice:
            raise AssertionError(f"no forced die left for {reason!r}")
        value = self.dice.pop(0)
        assert 1 <= value <= sides, (value, sides, reason)
        self.log.append(("die", value, reason))
        return value

    def draw(self, cards: Sequence[str], reason: str) -> str:
        if not self.cards:
            raise AssertionError(f"no forced card left for {reason!r}")
        card = self.cards.pop(0)
        assert card in cards, f"{card} is not in the deck ({reason})"
        self.log.append(("card", card, reason))
        return card

    @property
    def reasons(self) -> list[str]:
        return [reason for _, _, reason in self.log]

    @property
    def rolled(self) -> list[Any]:
        return [value for _, value, _ in self.log]


class RandomDice:
    """A seeded random.Random as a DiceSource (the statistical tests)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, sides: int, reason: str) -> int:
        return self.rng.randint(1, sides)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        return self.rng.choice(list(cards))


#: The card turned after an activation in staged tests: a red king, for the Allied units still waiting.
NEXT = "KH"


def unit(name: str, side: str, kind: str, **stats: Any) -> FigureSpec:
    return FigureSpec(name, side, kind, stats)


def small_battle() -> list[FigureSpec]:
    """Two units a side: French line and hussars, Allied line and rifles."""
    return [
        unit("1er Ligne", "French", "line", figures=12),
        unit("Hussars", "French", "mounted", figures=6),
        unit("33rd Foot", "Allied", "line", figures=12),
        unit("95th", "Allied", "light", figures=8, weapon="rifle"),
    ]


def stage(
    engine: NsrEngine, specs: Sequence[FigureSpec], phase: str = "movement", active: str | None = None, card: str = "2S"
) -> NsrState:
    """A battle at ``phase`` with ``active`` acting on ``card`` (no card turned, no decision waiting)."""
    state = engine.start(list(specs), ScriptedDice(cards=["2S"])).state
    state.pending = None
    state.phase = phase  # type: ignore[assignment]
    state.active = active or ""
    state.card = card if active else ""
    state.deck = [c for c in fresh_deck() if c != card]
    state.discards = [card] if active else []
    return state


def get(state: NsrState, name: str) -> Unit:
    return next(u for u in state.units if u.name == name)


def snapshot(engine: NsrEngine, state: NsrState) -> str:
    return json.dumps(engine.dump_state(state), sort_keys=True)


def act(
    engine: NsrEngine,
    state: NsrState,
    order: str,
    side: str | None = None,
    *,
    dice: Iterable[int] = (),
    cards: Iterable[str] = (),
    by_gm: bool = False,
    **params: Any,
) -> Outcome[NsrState]:
    """Act with exactly these forced dice and cards; the given state must be left as it was."""
    before = snapshot(engine, state)
    source = ScriptedDice(dice, cards)
    who = side if side is not None else engine.whose_turn(state)
    outcome = engine.act(state, Action(order, who, params, by_gm), source)
    assert source.dice == [], f"dice left unrolled: {source.dice}"
    assert source.cards == [], f"cards left unturned: {source.cards}"
    assert snapshot(engine, state) == before, "act mutated its input"
    act.last = source  # type: ignore[attr-defined]
    return outcome


def refuse(
    engine: NsrEngine,
    state: NsrState,
    order: str,
    match: str,
    side: str | None = None,
    by_gm: bool = False,
    **params: Any,
) -> RuleError:
    """Refused with ``match`` in the sentence; no die rolled, no card turned, nothing changed."""
    before = snapshot(engine, state)
    source = ScriptedDice([6] * 40, list(FULL_DECK))
    who = side if side is not None else engine.whose_turn(state)
    with pytest.raises(RuleError) as caught:
        engine.act(state, Action(order, who, params, by_gm), source)
    assert match in caught.value.message, caught.value.message
    assert source.log == [], f"rolled before refusing: {source.log}"
    assert snapshot(engine, state) == before
    assert "\n" not in caught.value.message and len(caught.value.message) <= 300
    return caught.value


def kinds(outcome: Outcome[NsrState]) -> list[str]:
    return [e.kind for e in outcome.events]


def texts(outcome: Outcome[NsrState]) -> str:
    return "\n".join(e.text for e in outcome.events)


def events(outcome: Outcome[NsrState], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in outcome.events if e.kind == kind]


def status(state: NsrState, unit_name: str) -> dict[str, str]:
    """figure name -> status (with the wound, "wounded/heavy")."""
    return {f.name: f.status + (f"/{f.wound}" if f.wound else "") for f in get(state, unit_name).figures}


# --- the helpers' own tests ------------------------------------------------------------------------


def test_scripted_dice_refuse_a_card_not_in_the_deck() -> None:
    with pytest.raises(AssertionError):
        ScriptedDice(cards=["AH"]).draw(["2S"], "x")


def test_stage_leaves_a_unit_acting(engine: NsrEngine) -> None:
    state = stage(engine, small_battle(), "fire", "1er Ligne")
    assert engine.whose_turn(state) == "French"
    assert len(state.deck) == 53
