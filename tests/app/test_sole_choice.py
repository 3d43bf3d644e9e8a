"""No forced waits: a choice with one legal answer (an NSR card only one unit may take) is taken at
once and said in the log; the log still replays; the house-rule switch ``ask_when_one_choice``
keeps asking for groups who want it."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.app.service import App
from bot.app.yaml_format import FileRefused
from bot.dice import ForcedDice
from bot.store.schema import DecisionRecord, Game
from rules import get_engine
from tests.orm import orm
from tests.replay import load_log, replay
from tests.support import BLUE, GM, RED, caller, nsr_talavera


async def _talavera(app: App, forced: ForcedDice, *, house_rules: bytes | None = None):
    """French: two units; Allied: one. The first card is red: the Allied unit moves."""
    await nsr_talavera(app)
    if house_rules is not None:
        await app.rules_set(caller(GM, "Gina"), "house.yaml", house_rules)
    forced.push_cards(["2H"])
    return await app.game_start(caller(GM, "Gina"))


async def _open_decisions(app: App) -> list[DecisionRecord]:
    async with orm(app.store.db) as s:
        return list(await s.scalars(select(DecisionRecord).where(DecisionRecord.status == "open")))


async def test_a_card_only_one_unit_may_take_is_taken_at_once_and_said(app: App, forced: ForcedDice) -> None:
    started = await _talavera(app, forced)

    assert started.decision is None and await _open_decisions(app) == []
    (said,) = [e for e in started.events if e.kind == "only-choice"]
    assert said.text == "Then: Allied chooses 33rd Foot to move on 2♥, the only choice."
    assert said.data["choice"] == "33rd Foot" and said.data["decider"] == "Allied"
    # one line for the card, the choice and the answer; their events keep their data, with no text
    lines = started.cards[0].description.splitlines()
    assert lines[-1] == said.text
    assert not [line for line in lines if "2♥" in line and line != said.text]
    [card] = [e for e in started.events if e.kind == "card"]
    assert card.data["card"] == "2H" and card.text == ""
    assert started.ping_user_ids == [BLUE] and "Allied: your move." in (started.content or "")
    log = await app.game_log(caller(RED))
    assert said.text in log.cards[0].description
    assert "2♥ — Allied: choose a unit to move" not in log.cards[0].description


async def test_a_run_of_one_answer_cards_is_one_line(app: App, forced: ForcedDice) -> None:
    """The 33rd Foot holds; the next two red cards find no Allied unit left to move, so each passes
    (its one answer); the black card after them gives the French two units to choose from."""
    await _talavera(app, forced)
    forced.push_cards(["3H", "4H", "5S"])
    held = await app.act(caller(BLUE, "Bob"), "nsr", "hold", {}, "/nsr hold")

    lines = held.cards[0].description.splitlines()
    assert lines == [
        "33rd Foot does not move.",
        "Then: Allied passes on 3♥ and Allied passes on 4♥, each the only choice.",
        "5♠ — French: choose a unit to move.",
    ]
    assert [e.data["card"] for e in held.events if e.kind == "card"] == ["3H", "4H", "5S"]
    assert held.decision is not None and held.decision.decider == "French"

    engine = get_engine("nsr")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        records = await load_log(s, game)
    assert records[0].action["then"][0]["params"]["choice"] == "33rd Foot"
    assert engine.dump_state(replay(engine, records)) == game.state


async def test_the_house_rule_keeps_asking(app: App, forced: ForcedDice) -> None:
    started = await _talavera(app, forced, house_rules=b"ask_when_one_choice: yes\n")

    assert started.decision is not None and started.decision.decider == "Allied"
    assert [c.value for c in started.decision.choices] == ["33rd Foot"]
    assert not [e for e in started.events if e.kind == "only-choice"]
    shown = await app.rules_show(caller(RED))
    assert any("`ask_when_one_choice`: **yes** (house rule)" in value for _, value, _ in shown.cards[0].fields)


async def test_the_switch_takes_only_yes_or_no(app: App, forced: ForcedDice) -> None:
    await app.campaign_new(caller(GM, "Gina"), "Talavera", "nsr", "table")
    with pytest.raises(FileRefused) as refused:
        await app.rules_set(caller(GM, "Gina"), "house.yaml", b"ask_when_one_choice: sometimes\n")
    assert "ask_when_one_choice: must be yes or no, not “sometimes”." in refused.value.message
    shown = await app.rules_show(caller(GM, "Gina"))
    assert any("`ask_when_one_choice`: **no**" in value for _, value, _ in shown.cards[0].fields)
