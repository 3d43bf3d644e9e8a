"""Decisions wait in the database for the one who must answer them."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.app.replies import Refusal
from bot.app.service import App
from bot.store.schema import DecisionRecord, Member
from tests.orm import orm
from tests.support import BLUE, GM, RED, STRANGER, caller, medieval_duel


async def ask(app: App, user: int, side: str):
    reply = await app.campaign_join(caller(user, f"user{user}"), side)
    assert reply.decision is not None and reply.decision.decider == "gm"
    assert reply.ping_user_ids == [GM]
    return reply.decision


async def test_a_player_waits_for_the_game_master_to_approve(app: App) -> None:
    await app.campaign_new(caller(GM, "Gina"), "C", "ssg", "table")
    decision = await ask(app, RED, "red")
    with pytest.raises(Refusal, match="still waiting for the game master"):
        await app.roster_add(caller(RED), "Rossi", "rifle")
    with pytest.raises(Refusal, match="already waiting"):
        await app.campaign_join(caller(RED), "blue")
    with pytest.raises(Refusal, match="This is not your decision"):
        await app.decide(caller(RED), "approve", decision.decision_id)
    with pytest.raises(Refusal, match="Choose one of approve, refuse"):
        await app.decide(caller(GM), "maybe", decision.decision_id)
    reply = await app.decide(caller(GM), "Approve")
    assert "now plays **red**" in reply.cards[0].description and reply.ping_user_ids == [RED]
    with pytest.raises(Refusal, match="already been made"):
        await app.decide(caller(GM), "refuse", decision.decision_id)
    await app.roster_add(caller(RED), "Rossi", "rifle")


async def test_the_ping_on_an_answered_join_says_what_was_decided(app: App) -> None:
    """The mention that notifies the player carries the answer, not a bare @name."""
    await app.campaign_new(caller(GM, "Gina"), "C", "ssg", "table")
    await ask(app, RED, "red")
    approved = await app.decide(caller(GM), "approve")
    assert approved.content == f"<@{RED}> you play red: add your figures with /roster add."
    await ask(app, BLUE, "blue")
    refused = await app.decide(caller(GM), "refuse")
    assert refused.content == f"<@{BLUE}> the game master turned down your request to play blue."


async def test_refusing_removes_the_request(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg", "table")
    decision = await ask(app, BLUE, "blue")
    await app.decide(caller(GM), None, decision.decision_id, index=1)
    async with orm(app.store.db) as s:
        assert await s.scalar(select(Member).where(Member.user_id == BLUE)) is None
        record = await s.get(DecisionRecord, decision.decision_id)
        assert (record.status, record.answer) == ("answered", "refuse")


async def test_open_decisions_are_listed_for_those_who_may_answer(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg", "table")
    await ask(app, RED, "red")
    await ask(app, BLUE, "blue")
    assert [d.prompt for d in await app.open_decisions(caller(GM))] == [
        "user2 asks to play red in C.",
        "user3 asks to play blue in C.",
    ]
    assert await app.open_decisions(caller(RED)) == []
    assert len(await app.open_decisions(caller(STRANGER), mine=False)) == 2
    with pytest.raises(Refusal, match="Nothing is waiting for your decision"):
        await app.decide(caller(RED), "approve")


async def test_a_decision_from_another_channel_cannot_be_answered(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg", "table")
    decision = await ask(app, RED, "red")
    await app.campaign_new(caller(GM, channel=9), "D", "ssg", "table")
    with pytest.raises(Refusal, match="no such decision"):
        await app.decide(caller(GM, channel=9), "approve", decision.decision_id)


async def test_the_game_master_joins_a_side_without_asking(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg", "table")
    reply = await app.campaign_join(caller(GM), "blue")
    assert reply.decision is None


async def test_undo_asks_again_a_decision_the_restored_state_waits_for(app: App, forced) -> None:
    """Medieval: the roll-off winner chooses who goes first; undoing the choice asks it again."""
    await medieval_duel(app)
    forced.push_dice([6, 1])  # red wins the roll-off
    started = await app.game_start(caller(GM, "Gina"))
    assert started.decision is not None and started.decision.decider == "red"
    await app.decide(caller(RED, "Rita"), "first")
    undone = await app.game_undo(caller(RED, "Rita"))
    assert undone.decision is not None and undone.decision.decider == "red"
    assert [c.value for c in undone.decision.choices] == ["first", "second"]
    again = await app.decide(caller(RED, "Rita"), "second")
    assert "second" in again.cards[0].description
