"""Buttons for a pending decision that outlive a restart.

Each button's custom_id is ``decision:<id>:<choice index>``; discord.py parses it on any click
(registered once with ``add_dynamic_items``), and the click looks the decision up in the database,
so nothing about it lives in the bot's memory.
"""

from __future__ import annotations

import discord

from bot.app.replies import PendingDecision, Reply
from bot.errors import player_message
from cogs.replies import app_of, caller_of, message_kwargs

MAX_BUTTONS = 25


class DecisionButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"decision:(?P<id>[0-9]{1,19}):(?P<index>[0-9]{1,2})"
):
    def __init__(self, decision_id: int, index: int, label: str = "…", primary: bool = False) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"decision:{decision_id}:{index}"))
        self.decision_id = decision_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,
        match: re.Match[str],  # type: ignore[name-defined]  # noqa: F821
    ) -> DecisionButton:
        return cls(int(match["id"]), int(match["index"]), item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the decision; the message loses its buttons and the result follows it."""
        try:
            reply = await app_of(interaction).decide(caller_of(interaction), None, self.decision_id, index=self.index)
        except Exception as exc:  # the button's own error funnel: same sentences as the tree's
            message = player_message(exc, context=f"decision {self.decision_id}")
            await interaction.response.send_message(**message_kwargs(Reply.error(message)), ephemeral=True)
            return
        decided = f"Decided by {caller_of(interaction).display_name}: **{self.item.label}**"
        await interaction.response.edit_message(
            content=decided, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        await interaction.followup.send(**message_kwargs(reply))


def decision_view(decision: PendingDecision) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, choice in enumerate(decision.choices[:MAX_BUTTONS]):
        view.add_item(DecisionButton(decision.decision_id, index, choice.label, primary=index == 0))
    return view
