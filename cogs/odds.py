"""/odds: the chances of an action, asked with the action's own command line."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.commandline import parse_line, split_line, walk
from bot.adapter.delivery import deliver_when_ready
from bot.adapter.messages import app_of, caller_of
from bot.app.replies import Refusal, Reply
from rules import RULESETS

#: The longest action line /odds reads: Discord is told a longer limit, so a longer line reaches
#: the bot and is refused with a sentence rather than by Discord's own word.
ACTION_LIMIT = 500
AS_PLAYED = 'give it as you would play it, like "ssg shoot shooter:Rossi target:Bo range:14".'


class _Capture:
    """Stands in for a ruleset cog: its command's callback hands over the action instead of acting."""

    def __init__(self) -> None:
        self.action: tuple[str, str, dict[str, Any]] | None = None

    @property
    def app(self) -> Any:
        """A ruleset's question (such as /sharpe targets) asks the application, not the engine's dice."""
        raise Refusal("That command is a question, not an action with dice: ask it directly.")

    async def act(self, interaction: discord.Interaction, ruleset: str, action: str, **params: Any) -> None:
        self.action = (ruleset, action, params)


async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    ruleset = await app_of(interaction).campaign_ruleset(caller_of(interaction))
    if ruleset is None:
        return []
    names = [name for name in walk(interaction.client.tree) if name.startswith(f"{ruleset} ")]  # type: ignore[attr-defined]
    typed = current.strip().lower()
    if " ".join(typed.split()[:2]) in names:
        return [app_commands.Choice(name=current[:100], value=current[:100])]
    return [app_commands.Choice(name=n + " …", value=n + " ") for n in names if n.startswith(typed) or typed in n][:25]


class OddsCog(AppCog, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]

    @app_commands.command(name="odds", description="The chances of an action before you roll (only you see them)")
    @app_commands.describe(action='The action as you would give it: "ssg shoot shooter:Rossi target:Bo range:14"')
    @app_commands.autocomplete(action=action_autocomplete)
    async def odds(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 6000]) -> None:
        if len(action) > ACTION_LIMIT:
            raise Refusal(
                f"That action is {len(action):,} characters long; /odds reads at most {ACTION_LIMIT}; {AS_PLAYED}"
            )
        typed = "/" + action.strip().lstrip("/")
        words = split_line(typed)
        if words == ["/"] or (words[0][1:].lower() in RULESETS and (len(words) < 2 or ":" in words[1])):
            raise Refusal(f"Name the action: {AS_PLAYED}")
        parsed = parse_line(walk(self.bot.tree), words)
        capture = _Capture()
        if parsed.command.parent is None or parsed.command.parent.name not in RULESETS:
            raise Refusal("Ask the odds of a ruleset's action, like ssg shoot or sharpe shoot.")

        async def odds() -> Reply:
            await parsed.command.callback(capture, interaction, **parsed.values)  # type: ignore[arg-type]
            if capture.action is None:
                raise Refusal("That command is not an action with dice.")
            ruleset, name, params = capture.action
            return await self.app.odds(caller_of(interaction), ruleset, name, params, typed)

        await deliver_when_ready(interaction, odds, slow=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OddsCog(bot))
