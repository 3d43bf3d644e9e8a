"""Delivering a reply: the response or a follow-up, a repeated delivery tolerated, the buttons that
go with it, the error funnel; and the decision buttons: only the decider may press, and they
work after a restart."""

from __future__ import annotations

import logging
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.adapter.client import SkirmishBot
from bot.adapter.delivery import (
    ALREADY_ANSWERED,
    NEWER,
    OLDER,
    UNKNOWN_INTERACTION,
    DecisionButton,
    decision_view,
    deliver,
    deliver_error,
    view_for,
)
from bot.adapter.errors import BUG_SENTENCE
from bot.app.replies import LogPage, PendingDecision, Refusal, Reply
from bot.app.service import App
from bot.store import Store
from rules.core import Choice
from tests.named_app import NamedApp
from tests.support import GM, RED, STRANGER, caller, fake_interaction


async def pending_join(app: App):
    await app.campaign_new(caller(GM, "Gina"), "C", "ssg", "table")
    reply = await app.campaign_join(caller(RED, "Rita"), "red")
    return reply.decision


async def click(bot: SkirmishBot, user: int, custom_id: str):
    """What discord.py does on a click: match the template, build the item, run its callback."""
    match = DecisionButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = fake_interaction(bot, user)

    async def edited(**kwargs) -> None:  # as discord.py's: editing the message answers the interaction
        interaction.response.is_done.return_value = True

    interaction.response.edit_message = AsyncMock(side_effect=edited)
    item = await DecisionButton.from_custom_id(interaction, DecisionButton(0, 0).item, match)
    await item.callback(interaction)
    return interaction


async def test_the_view_has_one_button_per_choice(app: App) -> None:
    decision = await pending_join(app)
    view = decision_view(decision)
    assert view.timeout is None and view.is_persistent()
    assert [c.custom_id for c in view.children] == [
        f"decision:{decision.decision_id}:0",
        f"decision:{decision.decision_id}:1",
    ]
    assert [c.item.label for c in view.children] == ["Approve", "Refuse"]


async def test_someone_else_gets_an_ephemeral_refusal(app: App) -> None:
    decision = await pending_join(app)
    bot = SkirmishBot(app)
    interaction = await click(bot, STRANGER, f"decision:{decision.decision_id}:0")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and sent["embeds"][0].description == "This is not your decision."


async def test_a_fresh_bot_on_the_same_database_answers_an_old_button(app: App, database, forced) -> None:
    decision = await pending_join(app)
    restarted = SkirmishBot(NamedApp(Store(database), lambda: forced))  # a new process would build exactly this
    interaction = await click(restarted, GM, f"decision:{decision.decision_id}:0")
    interaction.response.edit_message.assert_awaited_once()
    assert interaction.response.edit_message.await_args.kwargs["view"] is None
    interaction.followup.send.assert_awaited_once()
    [followed] = interaction.sent
    assert "now plays **red**" in followed["embeds"][0].description and followed["ephemeral"] is False
    assert [u.id for u in followed["allowed_mentions"].users] == [RED]


@pytest.mark.parametrize("custom_id", ["decision:1:x", "decision::0", "decision:1:0:extra", "other:1:0"])
def test_foreign_custom_ids_are_not_ours(custom_id: str) -> None:
    assert DecisionButton.__discord_ui_compiled_template__.fullmatch(custom_id) is None


def http_error(code: int) -> discord.HTTPException:
    response = MagicMock(status=400, reason="Bad Request")
    return discord.HTTPException(response, {"code": code, "message": "refused"})


async def test_the_first_reply_is_the_response_and_the_next_a_follow_up() -> None:
    interaction = fake_interaction(None, RED)
    await deliver(interaction, Reply.note("first", ephemeral=False))
    await deliver(interaction, Reply.note("second"))
    interaction.response.send_message.assert_awaited_once()
    interaction.followup.send.assert_awaited_once()
    assert [(s["embeds"][0].title, s["ephemeral"]) for s in interaction.sent] == [("first", False), ("second", True)]
    assert interaction.extras["reply"].cards[0].title == "second"


@pytest.mark.parametrize("code", sorted(ALREADY_ANSWERED))
async def test_a_repeated_delivery_is_tolerated(code: int, caplog) -> None:
    interaction = fake_interaction(None, RED)
    interaction.response.send_message = AsyncMock(side_effect=http_error(code))
    with caplog.at_level(logging.INFO, "skirmish_gm.delivery"):
        await deliver(interaction, Reply.note("again"))
    if code == UNKNOWN_INTERACTION:  # the interaction expired (3 seconds) or was delivered again
        assert "was gone when its answer was sent" in caplog.text and caplog.records[-1].levelno == logging.WARNING
    else:
        assert "already answered" in caplog.text


async def test_any_other_refusal_from_discord_is_raised() -> None:
    interaction = fake_interaction(None, RED)
    interaction.response.send_message = AsyncMock(side_effect=http_error(50035))
    with pytest.raises(discord.HTTPException):
        await deliver(interaction, Reply.note("too long"))


def test_the_buttons_follow_from_the_reply() -> None:
    decision = PendingDecision(7, "red", (RED,), "Go first?", (Choice("first", "Go first"), Choice("second", "Second")))
    assert view_for(Reply.note("plain")) is None
    assert [c.custom_id for c in view_for(Reply(decision=decision)).children] == ["decision:7:0", "decision:7:1"]
    assert view_for(LogPage(game_id=3, page=1, pages=1, count=5)) is None
    pages = view_for(LogPage(game_id=3, page=2, pages=3, count=5))
    assert [(c.item.label, c.custom_id, c.item.disabled) for c in pages.children] == [
        (NEWER, "log:3:1:5", False),
        (OLDER, "log:3:3:5", False),
    ]


async def test_the_error_funnel_tells_a_bug_privately_and_logs_its_traceback(caplog) -> None:
    interaction = fake_interaction(None, RED)
    with caplog.at_level(logging.ERROR, "skirmish_gm.errors"):
        await deliver_error(interaction, ZeroDivisionError("boom"), context="/somewhere")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and sent["embeds"][0].description == BUG_SENTENCE
    assert "unexpected error in /somewhere" in caplog.text and "ZeroDivisionError" in caplog.text


async def test_the_error_funnel_logs_what_it_could_not_send(caplog) -> None:
    interaction = fake_interaction(None, RED)
    interaction.response.send_message = AsyncMock(side_effect=http_error(50001))
    with caplog.at_level(logging.WARNING, "skirmish_gm.delivery"):
        await deliver_error(interaction, Refusal("Not yours."), context="/somewhere")
    assert "could not tell the player about an error in /somewhere" in caplog.text
