"""/<slug> for every ruleset that declares its actions as specs (:mod:`rules.specs`): one group per
ruleset, one subcommand per action a player takes in a turn (the answers to a decision go through
/decide, placing figures through /map), built from the specs, so a ruleset needs no cog of its own."""

from __future__ import annotations

import types
from typing import Any

from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.slash import spec_command
from bot.app.commands.rulesets import OFFERED
from rules import RULESETS, get_engine


class RulesetCog(AppCog, commands.GroupCog):
    """The base of each ruleset's built cog (:func:`ruleset_cog`): its commands act through
    :meth:`AppCog.act`."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()


def ruleset_cog(slug: str) -> type[RulesetCog]:
    """The cog class of ``/slug``: the group described by the engine's blurb, its subcommands the
    specs' PLAY and PASS actions, in the specs' order."""
    engine = get_engine(slug)
    built = {f"action_{name}": spec_command(slug, spec) for name, spec in engine.specs.items() if spec.role in OFFERED}

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(built, __module__=__name__, __doc__=f"/{slug}: {engine.title}'s actions.")

    group = {"group_name": slug, "group_description": engine.command_blurb or engine.title}
    return types.new_class(f"{slug.capitalize()}Cog", (RulesetCog,), group, body)


async def setup(bot: commands.Bot) -> None:
    for slug in RULESETS:
        await bot.add_cog(ruleset_cog(slug)(bot))
