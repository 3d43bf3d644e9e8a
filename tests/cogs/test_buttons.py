"""Decision buttons: only the decider may press, and they work after a restart."""

from __future__ import annotations

import pytest

from bot.app.service import App
from bot.client import SkirmishBot
from cogs.buttons import DecisionButton, decision_view
from tests.support import GM, RED, STRANGER, caller, fake_interaction


async def pending_join(app: App):
    await app.campaign_new(caller(GM, "Gina"), "C", "ssg")
    reply = await app.campaign_join(caller(RED, "Rita"), "red")
    return reply.decision


async def click(bot: SkirmishBot, user: int, custom_id: str):
    """What discord.py does on a click: match the template, build the item, run its callback."""
    match = DecisionButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = fake_interaction(bot, user)
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
    restarted = SkirmishBot(App(database, lambda: forced))  # a new process would build exactly this
    interaction = await click(restarted, GM, f"decision:{decision.decision_id}:0")
    interaction.response.edit_message.assert_awaited_once()
    assert interaction.response.edit_message.await_args.kwargs["view"] is None
    [followed] = interaction.sent
    assert "now plays **red**" in followed["embeds"][0].description
    assert [u.id for u in followed["allowed_mentions"].users] == [RED]


@pytest.mark.parametrize("custom_id", ["decision:1:x", "decision::0", "decision:1:0:extra", "other:1:0"])
def test_foreign_custom_ids_are_not_ours(custom_id: str) -> None:
    assert DecisionButton.__discord_ui_compiled_template__.fullmatch(custom_id) is None
